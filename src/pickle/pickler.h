// The pickler: IValue -> protocol-2 pickle bytes, written the way Python's pickle
// module writes them for torch.save (memo on first sight, BINGET on the next, batched
// SETITEMS/APPENDS), so torch.load reads the result and sharing survives.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include <torchlet/ivalue.h>

namespace torchlet::pickle {

// How a tensor's storage is named in the pickle: ('storage', <dtype>Storage, key,
// location, numel). The callback returns the key (e.g. "0") and records the storage
// so the caller can write it as data/<key>.
using StorageKeyFn = std::function<std::string(const Storage& storage, DType dtype)>;

struct PicklerOptions {
  StorageKeyFn storage_key;  // required when the value holds tensors
  // TorchScript archives (data.pkl of torch.jit.save): objects of script classes are
  // written as GLOBAL <module> <class>, EMPTY_TUPLE, NEWOBJ, {attribute: value}, BUILD,
  // and lists/dicts with a known element type as
  // torch.jit._pickle.restore_type_tag(value, "List[int]"), as torch's pickler does.
  bool torchscript = false;
  // TorchScript archives: the state to write for a script object instead of its
  // attributes (its __getstate__ result, as torch writes it), or nullopt. Set by the
  // exporter, which can run methods; the pickler cannot.
  std::function<std::optional<IValue>(const IValue& object)> object_state;
  // TorchScript archives: how a type tag spells an element type (the exporter names
  // classes and interfaces as the archive's code does, `__torch__.…`); default
  // annotation_str().
  std::function<std::string(const jit::TypePtr& type)> type_str;
};

std::string pickle(const IValue& value, const PicklerOptions& options);

}  // namespace torchlet::pickle

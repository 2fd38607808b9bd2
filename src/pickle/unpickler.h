// The unpickler: a pickle stack machine that builds IValues, resolving GLOBALs only
// through a fixed allowlist equivalent to torch's weights-only loader. Anything else
// is refused by name before an object is built, unless the caller opts into inert
// records (PyObject values that record what the pickle said, running nothing).
// Every length, index and depth read from the bytes is checked against a limit.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <torchlet/ivalue.h>

namespace torchlet::pickle {

struct UnpicklerLimits {
  size_t max_marks = 10000;          // MARK nesting: deeper means a crafted file
  size_t max_memo = 1 << 22;         // memo entries (real checkpoints: thousands)
  size_t max_objects = 1 << 24;      // values created in one pickle
  size_t max_nesting = 1000;         // container depth of the result (real: < 20)
};

// A global the pickle named, and whether the loader would resolve it.
struct GlobalUse {
  std::string module, name;
  std::string opcode;  // GLOBAL, STACK_GLOBAL, INST, OBJ ...
  bool allowed;
};

// A global that the caller, not the allowlist, knows how to build: the TorchScript
// importer's `__torch__.*` classes of the archive being loaded (and helpers such as
// torch.jit._pickle.build_intlist). It mirrors torch's C++ unpickler: GLOBAL pushes
// the class, REDUCE/NEWOBJ/INST/OBJ call `call` with the argument tuple, and when
// `call` is empty the global is a class whose instance NEWOBJ leaves pending until
// BUILD hands its state to `build` (how torch writes script objects:
// GLOBAL, EMPTY_TUPLE, NEWOBJ, state, BUILD).
struct ResolvedGlobal {
  std::function<IValue(const IValue& args)> call;
  std::function<IValue(IValue state)> build;
};
// Consulted only for globals outside the allowlist, before anything is built;
// nullopt refuses the global as usual (UnsafeGlobalError naming module.name).
// What `call`/`build` return is opaque to the unpickler: the result's depth and cycle
// checks stop at it, so a resolver whose objects nest (modules holding modules) must
// bound that nesting itself.
using ClassResolver =
    std::function<std::optional<ResolvedGlobal>(const std::string& module, const std::string& name)>;

struct UnpicklerOptions {
  // Unknown globals become inert PyObject records instead of an UnsafeGlobalError.
  bool inert_unknown_globals = false;
  // Globals the user allows beyond the allowlist ("module.Name", as
  // torch.serialization.add_safe_globals): each loads as an inert PyObject record, as in
  // inert mode, and nothing is imported or run. Modules torch blocks stay refused.
  std::vector<std::string> safe_globals;
  // Globals beyond the allowlist that the caller builds (see ResolvedGlobal).
  ClassResolver class_resolver;
  // BINPERSID/PERSID: maps the persistent id to a value. Checkpoints return, for
  // ('storage', cls, key, location, numel), a flat 1-D tensor over the storage.
  std::function<IValue(const IValue& pid)> persistent_load;
  // When set, every global use is reported here (torchlet scan).
  std::vector<GlobalUse>* globals_seen = nullptr;
  // A walk that only lists globals (torchlet scan, with no storages to rebuild from):
  // tensor rebuilds yield None instead of checking their storages, and BUILD on None is
  // skipped, so the walk reaches every global after the first tensor.
  bool globals_only = false;
  UnpicklerLimits limits;
};

// Unpickles `data`; `label` (e.g. "model.pt/data.pkl") prefixes every error message.
IValue unpickle(std::span<const std::byte> data, const UnpicklerOptions& options,
                const std::string& label);

// A tensor viewing `flat` (a 1-D tensor over a whole storage) at (offset, sizes,
// strides), after checking with overflow-safe arithmetic that every element it can
// reach lies inside the storage; FormatError (prefixed by `label`) otherwise.
Tensor checked_storage_view(const Tensor& flat, int64_t offset, Shape sizes, Shape strides,
                            const std::string& label);

// Whether the loader resolves module.name (the allowlist, for scan and tests).
bool is_allowed_global(std::string_view module, std::string_view name);

}  // namespace torchlet::pickle

// Plain data inside inert records (LoadOptions::inert_unknown_globals, safe_globals):
// the classes training scripts most often pickle beside their tensors — numpy arrays,
// numpy scalars, argparse.Namespace — decoded from the record's own bytes and fields.
// Nothing is imported or run; the records themselves stay as loaded, so saving the
// loaded value still writes what torch wrote.
#pragma once

#include <optional>
#include <string>

#include <torchlet/ivalue.h>

namespace torchlet {

struct DecodedRecord {
  // numpy.ndarray -> a Tensor (its own copy of the bytes, contiguous, native byte
  // order, in the torch dtype torch.from_numpy gives); numpy scalar -> bool, int,
  // float or complex; argparse.Namespace -> a dict of its fields (field values as
  // loaded: records among them are not decoded here).
  IValue value;
  // What it was, for listings: "numpy.ndarray", "numpy.float64", "argparse.Namespace".
  std::string kind;
};

// The value of one inert record, or nullopt when `record` is not a PyObject of these
// classes, or is one torchlet cannot represent (object, string, structured or datetime
// arrays; uint16/32/64, which torch 1.13's dtypes lack; ndarray subclasses).
// FormatError when a record of these classes contradicts itself (a byte count that is
// not shape x itemsize, a negative dimension, a state of the wrong form).
std::optional<DecodedRecord> decode_inert_record(const IValue& record);

// `tree` with every record decode_inert_record understands replaced by its value,
// through dicts, lists, tuples and decoded Namespaces. Containers with nothing decoded
// inside are the same objects as in `tree`; a container shared in `tree` stays shared.
// LimitError past 1000 levels of nesting (the loader's own limit).
IValue decode_inert_records(const IValue& tree);

}  // namespace torchlet

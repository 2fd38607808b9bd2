// decode_inert_record / decode_inert_records (include/torchlet/inert_records.h): the
// pickled forms of numpy arrays, numpy scalars and argparse.Namespace, read back from
// the fields the unpickler recorded. What each looks like, as numpy and CPython write it:
//   array:  _reconstruct(ndarray, (0,), b'b') then BUILD (1, shape, dtype, fortran, bytes)
//           (numpy.core.multiarray in numpy 1, numpy._core.multiarray in numpy 2); with
//           pickle protocol 5, _frombuffer(buffer, dtype, shape, order) (…numeric).
//   dtype:  dtype('f8', False, True) then BUILD (3, '<', None, None, None, -1, -1, 0)
//           (version 4 appends metadata); subdescr/names/fields set = structured.
//   scalar: scalar(dtype, bytes) — the element's bytes in the dtype's byte order.
//   Namespace: NEWOBJ Namespace() then BUILD {field: value} (copyreg protocol 2).
#include <torchlet/inert_records.h>

#include <algorithm>
#include <cstring>
#include <string_view>
#include <unordered_map>

#include <fmt/format.h>
#include <torchlet/error.h>
#include <torchlet/tensor.h>

#include "checkpoint/byte_order.h"
#include "core/python_format.h"

namespace torchlet {

namespace {

struct NumpyDType {
  DType dtype;
  std::string_view name;  // numpy's: "float64"
  bool big_endian = false;
};

struct DescrEntry {
  std::string_view descr;
  DType dtype;
  std::string_view name;
};

// The numpy type codes with a torch dtype (what torch.from_numpy accepts, less the
// unsigned 16/32/64-bit types torch 1.13 lacks).
constexpr DescrEntry kDescrs[] = {
    {"b1", DType::Bool, "bool_"},           {"i1", DType::Char, "int8"},
    {"u1", DType::Byte, "uint8"},           {"i2", DType::Short, "int16"},
    {"i4", DType::Int, "int32"},            {"i8", DType::Long, "int64"},
    {"f2", DType::Half, "float16"},         {"f4", DType::Float, "float32"},
    {"f8", DType::Double, "float64"},       {"c8", DType::ComplexFloat, "complex64"},
    {"c16", DType::ComplexDouble, "complex128"},
};

bool is_numpy_module(std::string_view module, std::string_view submodule) {
  return module == fmt::format("numpy.core.{}", submodule) || module == fmt::format("numpy._core.{}", submodule);
}

// An inert record of module.name: an instance, or (reference) the class itself.
bool is_record_of(const IValue& v, std::string_view module, std::string_view name, bool reference = false) {
  if (!v.isPyObject()) return false;
  auto p = v.toPyObject();
  return p->is_reference == reference && p->module == module && p->name == name;
}

const std::vector<IValue>& tuple_items(const IValue& v, size_t min_size, std::string_view what) {
  TL_CHECK(v.isTuple() && v.tupleRef().elements.size() >= min_size, FormatError, "{} is a {}, not a tuple of {} or more",
           what, v.isTuple() ? fmt::format("{}-tuple", v.tupleRef().elements.size()) : std::string(v.tag_name()), min_size);
  return v.tupleRef().elements;
}

// nullopt for dtypes torchlet has no counterpart of (object, strings, structured,
// datetime, uint16/32/64, longdouble).
std::optional<NumpyDType> decode_dtype(const IValue& v) {
  TL_CHECK(is_record_of(v, "numpy", "dtype"), FormatError, "a numpy array's dtype is a {}, not a numpy.dtype",
           v.tag_name());
  auto p = v.toPyObject();
  const auto& args = tuple_items(p->args, 1, "numpy.dtype's arguments");
  TL_CHECK(args[0].isString(), FormatError, "numpy.dtype's type code is a {}, not a str", args[0].tag_name());
  const std::string& descr = args[0].toStringRef();
  const DescrEntry* entry = nullptr;
  for (const DescrEntry& e : kDescrs)
    if (e.descr == descr) entry = &e;
  if (!entry) return std::nullopt;
  NumpyDType out{entry->dtype, entry->name};
  if (p->state.isNone()) return out;  // never written by numpy, which always sets the state
  const auto& state = tuple_items(p->state, 5, "numpy.dtype's state");
  if (!state[2].isNone() || !state[3].isNone() || !state[4].isNone()) return std::nullopt;  // structured
  TL_CHECK(state[1].isString(), FormatError, "numpy.dtype's byte order is a {}, not a str", state[1].tag_name());
  const std::string& order = state[1].toStringRef();
  TL_CHECK(order == "<" || order == ">" || order == "|" || order == "=", FormatError,
           "numpy.dtype's byte order is '{}', not one of < > | =", printable_text(order));
  out.big_endian = order == ">";
  return out;
}

std::vector<int64_t> decode_shape(const IValue& v) {
  const auto& dims = tuple_items(v, 0, "a numpy array's shape");
  TL_CHECK(dims.size() <= 64, FormatError, "a numpy array's shape has {} dimensions (numpy allows 64)", dims.size());
  std::vector<int64_t> shape;
  for (const IValue& d : dims) {
    TL_CHECK(d.isInt() && d.toInt() >= 0, FormatError, "a numpy array's shape holds {}, not a size",
             printable_text(d.repr(), false));
    shape.push_back(d.toInt());
  }
  return shape;
}

Tensor array_from_bytes(const std::vector<int64_t>& shape, const NumpyDType& dt, bool fortran, const std::string& raw) {
  uint64_t numel = 1;
  for (int64_t d : shape) {
    TL_CHECK(d == 0 || numel <= UINT64_MAX / static_cast<uint64_t>(d), FormatError,
             "a numpy array's shape {} overflows", shape_repr(shape));
    numel *= static_cast<uint64_t>(d);
  }
  const uint64_t item = element_size(dt.dtype);
  TL_CHECK(numel <= UINT64_MAX / item && numel * item == raw.size(), FormatError,
           "a numpy {} array of shape {} needs {} bytes; its record holds {}", dt.name, shape_repr(shape),
           numel <= UINT64_MAX / item ? fmt::format("{}", numel * item) : std::string("more than 2^64"), raw.size());
  // Fortran order is C order of the reversed shape: read it so, then transpose back.
  std::vector<int64_t> stored = shape;
  if (fortran) std::reverse(stored.begin(), stored.end());
  Tensor t = empty(stored, dt.dtype);
  if (!raw.empty()) std::memcpy(t.data_ptr(), raw.data(), raw.size());
  // numpy writes elements in the dtype's byte order; tensors are native (little-endian).
  if (dt.big_endian) big_endian_to_native(static_cast<std::byte*>(t.data_ptr()), raw.size(), dt.dtype);
  if (!fortran || shape.size() < 2) return t;
  std::vector<int64_t> reversed_dims(shape.size());
  for (size_t i = 0; i < shape.size(); ++i) reversed_dims[i] = static_cast<int64_t>(shape.size() - 1 - i);
  return t.permute(reversed_dims).contiguous();
}

const std::string& raw_bytes(const IValue& v, std::string_view what) {
  TL_CHECK(v.isBytes(), FormatError, "{} is a {}, not bytes", what, v.tag_name());
  return v.toBytesRef();
}

// _reconstruct(ndarray, (0,), b'b') + BUILD state.
std::optional<DecodedRecord> decode_reconstructed_array(const PyObjectImpl& p) {
  const auto& args = tuple_items(p.args, 1, "numpy _reconstruct's arguments");
  if (!is_record_of(args[0], "numpy", "ndarray", /*reference=*/true)) return std::nullopt;  // a subclass: matrix, masked array
  TL_CHECK(!p.state.isNone(), FormatError, "a numpy array record has no state (BUILD never gave it one)");
  // (version, shape, dtype, is_fortran, data), or the four without the version.
  const auto& state = tuple_items(p.state, 4, "a numpy array's state");
  TL_CHECK(state.size() <= 5, FormatError, "a numpy array's state is a {}-tuple, not 4 or 5", state.size());
  const size_t at = state.size() - 4;
  auto dt = decode_dtype(state[at + 1]);
  if (!dt) return std::nullopt;
  TL_CHECK(state[at + 2].isBool(), FormatError, "a numpy array's is_fortran is a {}, not a bool", state[at + 2].tag_name());
  const std::vector<int64_t> shape = decode_shape(state[at]);
  return DecodedRecord{array_from_bytes(shape, *dt, state[at + 2].toBool(), raw_bytes(state[at + 3], "a numpy array's data")),
                       "numpy.ndarray"};
}

// _frombuffer(buffer, dtype, shape, order): pickle protocol 5's form.
std::optional<DecodedRecord> decode_buffer_array(const PyObjectImpl& p) {
  const auto& args = tuple_items(p.args, 4, "numpy _frombuffer's arguments");
  auto dt = decode_dtype(args[1]);
  if (!dt) return std::nullopt;
  TL_CHECK(args[3].isString() && (args[3].toStringRef() == "C" || args[3].toStringRef() == "F"), FormatError,
           "numpy _frombuffer's order is {}, not 'C' or 'F'", printable_text(args[3].repr(), false));
  return DecodedRecord{array_from_bytes(decode_shape(args[2]), *dt, args[3].toStringRef() == "F",
                                        raw_bytes(args[0], "numpy _frombuffer's buffer")),
                       "numpy.ndarray"};
}

std::optional<DecodedRecord> decode_scalar(const PyObjectImpl& p) {
  const auto& args = tuple_items(p.args, 1, "numpy scalar's arguments");
  auto dt = decode_dtype(args[0]);
  if (!dt) return std::nullopt;
  TL_CHECK(args.size() == 2, FormatError, "numpy scalar takes (dtype, bytes), not {} arguments", args.size());
  const Tensor one = array_from_bytes({}, *dt, false, raw_bytes(args[1], "numpy scalar's data"));
  const Scalar s = one.item();
  IValue value;
  switch (dtype_info(dt->dtype).kind) {
    case DTypeKind::Bool: value = IValue(s.to_bool()); break;
    case DTypeKind::Float: value = IValue(s.to_double()); break;
    case DTypeKind::Complex: value = IValue(s.to_complex()); break;
    default: value = IValue(s.to_int()); break;
  }
  return DecodedRecord{std::move(value), fmt::format("numpy.{}", dt->name)};
}

std::optional<DecodedRecord> decode_namespace(const PyObjectImpl& p) {
  TL_CHECK(p.args.isNone() || (p.args.isTuple() && p.args.tupleRef().elements.empty()), FormatError,
           "argparse.Namespace is built with no arguments (its fields come by BUILD), not {}",
           printable_text(p.args.repr(), false));
  TL_CHECK(p.list_items.empty() && p.dict_items.empty(), FormatError, "argparse.Namespace given items as a container");
  auto fields = make_intrusive<DictImpl>();
  if (p.state.isNone()) return DecodedRecord{IValue(fields), "argparse.Namespace"};
  TL_CHECK(p.state.isDict(), FormatError, "argparse.Namespace's state is a {}, not a dict of fields", p.state.tag_name());
  for (const auto& [k, v] : p.state.dictRef().items()) {
    TL_CHECK(k.isString(), FormatError, "argparse.Namespace field name {} is not a str", printable_text(k.repr(), false));
    fields->insert_or_assign(k, v);
  }
  return DecodedRecord{IValue(fields), "argparse.Namespace"};
}

bool same_value(const IValue& a, const IValue& b) {
  return a.tag() == b.tag() && (!a.isHeap() || a.heapPtr() == b.heapPtr());
}

// Rebuilds containers only where something inside them decoded; `done` maps each
// container already visited to its result, so shared containers stay shared and a DAG
// of shared lists costs its size, not its unfolding.
struct TreeDecoder {
  static constexpr size_t kMaxDepth = 1000;
  std::unordered_map<const RefCounted*, IValue> done;

  IValue run(const IValue& v, size_t depth) {
    if (!v.isList() && !v.isTuple() && !v.isDict() && !v.isPyObject()) return v;
    TL_CHECK(depth <= kMaxDepth, LimitError, "values nested deeper than {} levels", kMaxDepth);
    if (auto it = done.find(v.heapPtr()); it != done.end()) return it->second;
    IValue out = rebuilt(v, depth);
    done.emplace(v.heapPtr(), out);
    return out;
  }

  IValue rebuilt(const IValue& v, size_t depth) {
    if (v.isPyObject()) {
      auto d = decode_inert_record(v);
      return d ? run(d->value, depth + 1) : v;
    }
    if (v.isDict()) {
      const DictImpl& src = v.dictRef();
      std::vector<IValue> values;
      bool changed = false;
      for (const auto& [k, e] : src.items()) {
        values.push_back(run(e, depth + 1));
        changed |= !same_value(values.back(), e);
      }
      if (!changed) return v;
      auto d = make_intrusive<DictImpl>(src.key_type, src.value_type);
      d->py_kind = src.py_kind;
      size_t i = 0;
      for (const auto& [k, e] : src.items()) d->insert_or_assign(k, std::move(values[i++]));
      if (auto* state = const_cast<DictImpl&>(src).py_state()) d->set_py_state(*state);
      return IValue(d);
    }
    const std::vector<IValue>& items = v.isList() ? v.listRef().elements : v.tupleRef().elements;
    std::vector<IValue> out;
    bool changed = false;
    for (const IValue& e : items) {
      out.push_back(run(e, depth + 1));
      changed |= !same_value(out.back(), e);
    }
    if (!changed) return v;
    if (v.isList()) {
      auto l = make_intrusive<ListImpl>(std::move(out), v.listRef().elem_type);
      l->py_kind = v.listRef().py_kind;
      return IValue(l);
    }
    IValue t = IValue::tuple(std::move(out));
    t.tupleRef().py_kind = v.tupleRef().py_kind;
    return t;
  }
};

}  // namespace

std::optional<DecodedRecord> decode_inert_record(const IValue& record) {
  if (!record.isPyObject()) return std::nullopt;
  auto p = record.toPyObject();
  if (p->is_reference) return std::nullopt;
  if (is_numpy_module(p->module, "multiarray") && p->name == "_reconstruct") return decode_reconstructed_array(*p);
  if (is_numpy_module(p->module, "numeric") && p->name == "_frombuffer") return decode_buffer_array(*p);
  if (is_numpy_module(p->module, "multiarray") && p->name == "scalar") return decode_scalar(*p);
  if (p->module == "argparse" && p->name == "Namespace") return decode_namespace(*p);
  return std::nullopt;
}

IValue decode_inert_records(const IValue& tree) { return TreeDecoder{}.run(tree, 0); }

}  // namespace torchlet

// Typed pops, list builders and the recording registration helper (ops_util.h).
#include "jit/ops/ops_util.h"

#include <fmt/format.h>

#include <torchlet/dtype.h>
#include <torchlet/storage.h>

#include "core/allocation_limit.h"

namespace torchlet::jit::ops {

namespace {
std::vector<std::string>& texts() {
  static std::vector<std::string> t;
  return t;
}
}  // namespace

RegisterOps::RegisterOps(std::initializer_list<OperatorDef> defs) {
  auto& registry = OperatorRegistry::global();
  for (const auto& d : defs) {
    // A boxed kernel reads one stack slot per parameter (Note [Boxing]): a schema with
    // another count would read the wrong slots, so it is refused before it is added.
    if (d.boxed_arguments)
      TL_CHECK(*d.boxed_arguments == parse_schema(d.schema).arguments.size(), InternalError,
               "the kernel registered for {} takes {} arguments", d.schema, *d.boxed_arguments);
    registry.add(d.schema, d.op);
    texts().emplace_back(d.schema);
  }
}

const std::vector<std::string>& registered_schema_texts() { return texts(); }

std::optional<Tensor> pop_opt_tensor(Stack& s) {
  IValue v = pop(s);
  if (v.isNone()) return std::nullopt;
  return v.toTensor();
}
size_t repeated_size(size_t unit, int64_t count, size_t element_bytes, const char* op) {
  if (count <= 0 || unit == 0) return 0;
  const auto n = static_cast<uint64_t>(count);
  const size_t limit = AllocationLimit::current();
  TL_CHECK(unit <= limit / element_bytes / n, LimitError,
           "{}: a result of {} x {} elements exceeds the {}-byte limit on one allocation", op, n, unit, limit);
  return unit * n;
}
size_t result_length(size_t elements, size_t element_bytes, const char* op) {
  // Both factors describe memory that exists (or a sum of such sizes): no overflow.
  return checked_allocation(elements * element_bytes, op) / element_bytes;
}

std::optional<int64_t> pop_opt_int(Stack& s) {
  IValue v = pop(s);
  if (v.isNone()) return std::nullopt;
  return v.toInt();
}
std::optional<double> pop_opt_double(Stack& s) {
  IValue v = pop(s);
  if (v.isNone()) return std::nullopt;
  return v.toDouble();
}
std::optional<bool> pop_opt_bool(Stack& s) {
  IValue v = pop(s);
  if (v.isNone()) return std::nullopt;
  return v.toBool();
}
std::optional<Scalar> pop_opt_scalar(Stack& s) {
  IValue v = pop(s);
  if (v.isNone()) return std::nullopt;
  return v.toScalar();
}
std::optional<std::string> pop_opt_str(Stack& s) {
  IValue v = pop(s);
  if (v.isNone()) return std::nullopt;
  return v.toStringRef();
}

std::vector<int64_t> int_list_of(const IValue& v) {
  if (v.isInt()) return {v.toInt()};
  std::vector<int64_t> out;
  const auto& elems = v.listRef().elements;
  out.reserve(elems.size());
  for (const auto& e : elems) out.push_back(e.toInt());
  return out;
}

std::vector<int64_t> pop_int_list(Stack& s) { return int_list_of(pop(s)); }

std::optional<std::vector<int64_t>> pop_opt_int_list(Stack& s) {
  IValue v = pop(s);
  if (v.isNone()) return std::nullopt;
  return int_list_of(v);
}

std::vector<double> double_list_of(const IValue& v) {
  std::vector<double> out;
  out.reserve(v.listRef().elements.size());
  for (const auto& e : v.listRef().elements) out.push_back(e.toDouble());
  return out;
}
std::vector<double> pop_double_list(Stack& s) { return double_list_of(pop(s)); }

std::vector<bool> bool_list_of(const IValue& v) {
  std::vector<bool> out;
  out.reserve(v.listRef().elements.size());
  for (const auto& e : v.listRef().elements) out.push_back(e.toBool());
  return out;
}

std::vector<Tensor> tensor_list_of(const IValue& v) {
  std::vector<Tensor> out;
  out.reserve(v.listRef().elements.size());
  for (const auto& e : v.listRef().elements) out.push_back(e.toTensor());
  return out;
}
std::vector<Tensor> pop_tensor_list(Stack& s) { return tensor_list_of(pop(s)); }

std::vector<std::optional<Tensor>> optional_tensor_list_of(const IValue& v) {
  std::vector<std::optional<Tensor>> out;
  out.reserve(v.listRef().elements.size());
  for (const auto& e : v.listRef().elements) {
    if (e.isNone()) {
      out.emplace_back();
    } else {
      out.emplace_back(e.toTensor());
    }
  }
  return out;
}

DType to_dtype(int64_t scalar_type_index) {
  auto d = dtype_from_scalar_type_index(scalar_type_index);
  TL_CHECK(d.has_value(), ValueError, "unknown ScalarType {}", scalar_type_index);
  return *d;
}

std::optional<DType> pop_opt_dtype(Stack& s) {
  IValue v = pop(s);
  if (v.isNone()) return std::nullopt;
  return to_dtype(v.toInt());
}

namespace {
// "op: " before a message, or nothing for a boxed row (which has no name to give; the
// traceback shows the call).
std::string prefix(const char* op) { return op ? fmt::format("{}: ", op) : std::string(); }
}  // namespace

void check_strided_cpu(const IValue& layout, const IValue& device, const IValue& pin_memory, const char* op) {
  TL_CHECK(pin_memory.isNone() || !pin_memory.toBool(), UnsupportedError, "{}pin_memory=True needs CUDA", prefix(op));
  TL_CHECK(device.isNone() || device.toDevice().kind == Device::Kind::CPU, UnsupportedError,
           "{}device '{}' is not available (torchlet has only the CPU)", prefix(op),
           device.isNone() ? "" : device.toDevice().str());
  // Layout index 0 is torch.strided, the only layout torchlet has.
  TL_CHECK(layout.isNone() || layout.toInt() == 0, UnsupportedError, "{}only the strided layout is supported",
           prefix(op));
}

void pop_tensor_options(Stack& s, const char* op, std::optional<DType>* dtype) {
  IValue pin = pop(s);
  IValue device = pop(s);
  IValue layout = pop(s);
  *dtype = pop_opt_dtype(s);
  check_strided_cpu(layout, device, pin, op);
}

void check_no_generator(const IValue& generator, const char* op) {
  TL_CHECK(generator.isNone(), UnsupportedError,
           "{}Generator arguments are not supported (torchlet draws from its default generator, seeded by "
           "torch.manual_seed)",
           prefix(op));
}
void pop_no_generator(Stack& s, const char* op) { check_no_generator(pop(s), op); }

void check_default_memory_format(const IValue& memory_format, const char* op) {
  // torch's MemoryFormat indices: 0 contiguous_format, 1 preserve_format.
  TL_CHECK(memory_format.isNone() || memory_format.toInt() == 0 || memory_format.toInt() == 1, UnsupportedError,
           "{}only contiguous_format and preserve_format are supported", prefix(op));
}
void pop_memory_format(Stack& s, const char* op) { check_default_memory_format(pop(s), op); }

bool can_cast(DType from, DType to) {
  if (is_complex(from) && !is_complex(to)) return false;
  if (is_floating(from) && is_integral(to, true)) return false;
  if (from != DType::Bool && to == DType::Bool) return false;
  return true;
}

void assign_out(Tensor& out, const Tensor& result, const char* op) {
  TL_CHECK(can_cast(result.dtype(), out.dtype()), TypeError,
           "{}result type {} can't be cast to the desired output type {}", prefix(op),
           dtype_info(result.dtype()).scalar_type_name, dtype_info(out.dtype()).scalar_type_name);
  assign_out_unchecked(out, result);
}

void assign_out_unchecked(Tensor& out, const Tensor& result) {
  if (!(out.sizes() == result.sizes())) {
    // Resize the TensorImpl itself, so the caller's out (and its aliases) change.
    Tensor fresh = empty(result.sizes(), out.dtype());
    TensorImpl* impl = out.impl();
    impl->storage_ = fresh.storage();
    impl->offset_ = 0;
    impl->sizes_ = fresh.sizes().vec();
    impl->strides_ = fresh.strides().vec();
  }
  out.copy_(result);
}

void assign_inplace(Tensor& self, const Tensor& result, const char* op) {
  TL_CHECK(self.sizes() == result.sizes(), ValueError,
           "{}output with shape {} doesn't match the broadcast shape {}", prefix(op), shape_repr(self.sizes()),
           shape_repr(result.sizes()));
  TL_CHECK(can_cast(result.dtype(), self.dtype()), TypeError,
           "{}result type {} can't be cast to the desired output type {}", prefix(op),
           dtype_info(result.dtype()).scalar_type_name, dtype_info(self.dtype()).scalar_type_name);
  if (!result.is_same(self)) self.copy_(result);
}

bool is_dying(const Tensor& t) {
  return t.defined() && t.impl()->use_count() == 1 && t.storage().use_count() == 1 && t.storage()->is_owned() &&
         t.is_contiguous();
}

IValue int_list(const std::vector<int64_t>& v) { return int_list(IntList(v)); }
IValue int_list(IntList v) {
  std::vector<IValue> e;
  e.reserve(v.size());
  for (int64_t x : v) e.emplace_back(x);
  return IValue::list(std::move(e), Type::int_());
}
IValue double_list(const std::vector<double>& v) {
  std::vector<IValue> e(v.begin(), v.end());
  return IValue::list(std::move(e), Type::float_());
}
IValue bool_list(const std::vector<bool>& v) {
  std::vector<IValue> e;
  for (bool b : v) e.emplace_back(b);
  return IValue::list(std::move(e), Type::bool_());
}
IValue str_list(const std::vector<std::string>& v) {
  std::vector<IValue> e(v.begin(), v.end());
  return IValue::list(std::move(e), Type::str_());
}
IValue tensor_list(const std::vector<Tensor>& v) {
  std::vector<IValue> e(v.begin(), v.end());
  return IValue::list(std::move(e), Type::tensor());
}
IValue list_like(const ListImpl& like, std::vector<IValue> elements) {
  return IValue::list(std::move(elements), like.elem_type);
}

size_t normalize_index(int64_t idx, size_t size, const char* what) {
  const auto n = static_cast<int64_t>(size);
  if (idx < 0) idx += n;
  TL_CHECK(idx >= 0 && idx < n, IndexError, "{}", what);
  return static_cast<size_t>(idx);
}

}  // namespace torchlet::jit::ops

// Tensor metadata and the remaining prim:: operators the interpreter does not handle
// itself: sizes/strides/dim/numel, dtype/device/layout queries, NumToTensor and the
// implicit unwraps, identity (`is`), TupleIndex, item(), tolist() and the enum
// accessors (name, value). Everything here reads metadata or wraps values; no numeric
// kernel is involved. Each is boxed from a typed function (Note [Boxing]) but tolist,
// whose vararg schema gets the list depth and element kind from the compiler. len(t) is builtins_containers.cpp's.
#include <torchlet/ops.h>

#include "jit/ops/boxing.h"

namespace torchlet::jit::ops {
namespace {

IValue sizes(const Tensor& t) { return int_list(t.sizes()); }
IValue strides(const Tensor& t) { return int_list(t.strides()); }
int64_t size_dim(const Tensor& t, int64_t d) { return t.size(wrap_dim(d, std::max<int64_t>(t.dim(), 1), "size")); }
int64_t stride_dim(const Tensor& t, int64_t d) { return t.stride(wrap_dim(d, std::max<int64_t>(t.dim(), 1), "stride")); }
int64_t dim(const Tensor& t) { return t.dim(); }
int64_t numel(const Tensor& t) { return t.numel(); }
int64_t element_size(const Tensor& t) { return static_cast<int64_t>(t.element_size()); }
int64_t storage_offset(const Tensor& t) { return t.storage_offset(); }
int64_t dtype(const Tensor& t) { return static_cast<int64_t>(dtype_info(t.dtype()).scalar_type_index); }
Device device(const Tensor&) { return Device{}; }
int64_t layout(const Tensor&) { return 0; }  // torch.strided
bool requires_grad(const Tensor& t) { return t.requires_grad(); }
Tensor set_requires_grad(Tensor t, bool r) {
  TL_CHECK(!r || is_floating(t.dtype()) || is_complex(t.dtype()), ValueError,
           "only Tensors of floating point and complex dtype can require gradients");
  t.set_requires_grad(r);
  return t;
}
// Backends, layouts and autograd states a CPU tensor here cannot have (or always has).
template <bool kAnswer>
bool always(const Tensor&) {
  return kAnswer;
}
IValue no_name(const Tensor&) { return IValue(); }  // named tensors do not exist here
int64_t get_device(const Tensor&) { return -1; }   // CPU tensors report -1
bool is_floating_point(const Tensor& t) { return is_floating(t.dtype()); }
bool is_complex_(const Tensor& t) { return is_complex(t.dtype()); }
bool is_signed(const Tensor& t) {
  const DType d = t.dtype();
  return dtype_kind(d) != DTypeKind::Unsigned && dtype_kind(d) != DTypeKind::Bool;
}
bool is_contiguous(const Tensor& t) { return t.is_contiguous(); }
bool is_contiguous_format(const Tensor& t, int64_t format) {
  // MemoryFormat 0 is contiguous_format; channels_last layouts are not tracked here.
  TL_CHECK(format == 0, UnsupportedError, "is_contiguous: only contiguous_format is supported");
  return t.is_contiguous();
}
bool is_same_size(const Tensor& a, const Tensor& b) { return a.sizes() == b.sizes(); }
bool is_nonzero(const Tensor& t) {
  TL_CHECK(t.numel() != 0, ValueError, "Boolean value of Tensor with no values is ambiguous");
  TL_CHECK(t.numel() == 1, ValueError, "Boolean value of Tensor with more than one value is ambiguous");
  return t.item().to_bool();
}
Scalar item(const Tensor& t) {
  TL_CHECK(t.numel() == 1, ValueError, "a Tensor with {} elements cannot be converted to Scalar", t.numel());
  return t.item();
}
// prim::NumToTensor: a 0-dim tensor of the number's own dtype (int64, float64 as
// TorchScript numbers are doubles, bool, complex128).
Tensor num_to_tensor(const Scalar& x) {
  DType d = x.is_bool() ? DType::Bool : x.is_integral() ? DType::Long : x.is_floating() ? DType::Double : DType::ComplexDouble;
  return scalar_tensor(x, d);
}
// unchecked_unwrap_optional is the identity, as in torch: the compiler emits it only
// where it has proven the value is not None. prim::data too (no autograd here).
IValue identity(IValue v) { return v; }
// aten::_unwrap_optional (torch.jit._unwrap_optional): the user's own assertion.
IValue unwrap_optional(IValue v) {
  TL_CHECK(!v.isNone(), ValueError, "Unwrapping null optional");
  return v;
}
IValue tuple_index(const IValue& t, int64_t i) {
  const auto& e = t.tupleRef().elements;
  return e[normalize_index(i, e.size(), "tuple index out of range")];
}
bool is_(const IValue& a, const IValue& b) { return a.is(b); }
bool isnot(const IValue& a, const IValue& b) { return !a.is(b); }

// prim::tolist(Tensor self, int dim, int elem_type): the compiler passes the annotated
// list depth and element kind (torch's codes: 0 int, 1 float, 2 bool); the result is
// that many nested lists, typed, holding the elements converted to that kind.
IValue tolist_level(const Tensor& t, int64_t elem, const TypePtr& elem_type) {
  if (t.dim() == 0) {
    Scalar v = t.item();
    if (elem == 0) return IValue(v.to_int());
    if (elem == 1) return IValue(v.to_double());
    return IValue(v.to_bool());
  }
  std::vector<IValue> items;
  TypePtr inner = elem_type;
  for (int64_t d = 1; d < t.dim(); ++d) inner = Type::list(inner);
  for (int64_t i = 0; i < t.size(0); ++i) items.push_back(tolist_level(t.select(0, i), elem, elem_type));
  return IValue::list(std::move(items), inner);
}
void tolist(Stack& s) {
  size_t n = pop_num_inputs(s);
  TL_CHECK(n == 3, ValueError, "prim::tolist: expected (tensor, dim, elem_type), got {} inputs", n);
  int64_t elem = pop_int(s);
  int64_t dim = pop_int(s);
  Tensor t = pop_tensor(s);
  TL_CHECK(t.dim() == dim, ValueError,
           "Output annotation list dimension and runtime tensor dimension must match for tolist()");
  TL_CHECK(elem >= 0 && elem <= 2, ValueError, "prim::tolist: unknown element type code {}", elem);
  // An expanded tensor holds a few bytes but lists as many values as it has elements.
  (void)repeated_size(static_cast<size_t>(t.numel()), 1, sizeof(IValue), "Tensor.tolist");
  const bool floating = is_floating(t.dtype());
  TL_CHECK(!(elem == 0 && (floating || is_complex(t.dtype()))) && !(elem == 1 && !floating) &&
               !(elem == 2 && t.dtype() != DType::Bool),
           TypeError, "Output annotation element type and runtime tensor element type must match for tolist()");
  TypePtr elem_type = elem == 0 ? Type::int_() : elem == 1 ? Type::float_() : Type::bool_();
  push(s, tolist_level(t, elem, elem_type));
}
Device device_from_str(const std::string& text) { return Device::parse(text); }
std::string device_type(Device device) {
  const std::string d = device.str();
  return d.substr(0, d.find(':'));
}
IValue device_index(Device d) { return d.index < 0 ? IValue() : IValue(int64_t{d.index}); }
std::string enum_name(IValue e) { return e.toEnum()->name; }
IValue enum_value(IValue e) { return e.toEnum()->value; }

}  // namespace

static RegisterOps reg({
    {"prim::tolist(...) -> ...", tolist},
    {"aten::size(Tensor self) -> int[]", boxed<&sizes>},
    {"aten::stride(Tensor self) -> int[]", boxed<&strides>},
    {"aten::size.int(Tensor self, int dim) -> int", boxed<&size_dim>},
    {"aten::stride.int(Tensor self, int dim) -> int", boxed<&stride_dim>},
    {"aten::dim(Tensor self) -> int", boxed<&dim>},
    {"aten::numel(Tensor self) -> int", boxed<&numel>},
    {"aten::element_size(Tensor self) -> int", boxed<&element_size>},
    {"aten::storage_offset(Tensor self) -> int", boxed<&storage_offset>},
    {"prim::dtype(Tensor a) -> int", boxed<&dtype>},
    {"prim::device(Tensor a) -> Device", boxed<&device>},
    {"prim::layout(Tensor a) -> Layout", boxed<&layout>},
    {"prim::requires_grad(Tensor a) -> bool", boxed<&requires_grad>},
    {"aten::requires_grad_(Tensor(a!) self, bool requires_grad=True) -> Tensor(a!)", boxed<&set_requires_grad>},
    {"prim::is_cpu(Tensor a) -> bool", boxed<&always<true>>},
    {"prim::is_cuda(Tensor a) -> bool", boxed<&always<false>>},
    {"prim::is_ipu(Tensor a) -> bool", boxed<&always<false>>},
    {"prim::is_meta(Tensor a) -> bool", boxed<&always<false>>},
    {"prim::is_mkldnn(Tensor a) -> bool", boxed<&always<false>>},
    {"prim::is_mps(Tensor a) -> bool", boxed<&always<false>>},
    {"prim::is_nested(Tensor a) -> bool", boxed<&always<false>>},
    {"prim::is_ort(Tensor a) -> bool", boxed<&always<false>>},
    {"prim::is_quantized(Tensor a) -> bool", boxed<&always<false>>},
    {"prim::is_sparse(Tensor a) -> bool", boxed<&always<false>>},
    {"prim::is_sparse_csr(Tensor a) -> bool", boxed<&always<false>>},
    {"prim::is_vulkan(Tensor a) -> bool", boxed<&always<false>>},
    {"prim::is_xpu(Tensor a) -> bool", boxed<&always<false>>},
    {"aten::is_conj(Tensor self) -> bool", boxed<&always<false>>},
    {"aten::is_neg(Tensor self) -> bool", boxed<&always<false>>},
    {"aten::is_leaf(Tensor self) -> bool", boxed<&always<true>>},
    {"aten::retains_grad(Tensor self) -> bool", boxed<&always<false>>},
    {"prim::name(Tensor a) -> str?", boxed<&no_name>},
    {"aten::get_device(Tensor self) -> int", boxed<&get_device>},
    {"aten::is_floating_point(Tensor self) -> bool", boxed<&is_floating_point>},
    {"aten::is_complex(Tensor self) -> bool", boxed<&is_complex_>},
    {"aten::is_signed(Tensor self) -> bool", boxed<&is_signed>},
    {"aten::is_contiguous(Tensor self) -> bool", boxed<&is_contiguous>},
    {"aten::is_contiguous.memory_format(Tensor self, MemoryFormat memory_format) -> bool", boxed<&is_contiguous_format>},
    {"aten::is_same_size(Tensor self, Tensor other) -> bool", boxed<&is_same_size>},
    {"aten::is_nonzero(Tensor self) -> bool", boxed<&is_nonzero>},
    {"aten::item(Tensor self) -> Scalar", boxed<&item>},
    {"prim::NumToTensor.Scalar(Scalar a) -> Tensor", boxed<&num_to_tensor>},
    {"prim::NumToTensor.bool(bool a) -> Tensor", boxed<&num_to_tensor>},
    {"prim::unchecked_unwrap_optional(t(a)? optional) -> t(a)", boxed<&identity>},
    {"aten::_unwrap_optional(t(a)? optional) -> t(a)", boxed<&unwrap_optional>},
    {"prim::TupleIndex(Any tup, int i) -> Any", boxed<&tuple_index>},
    {"aten::__is__(t1 self, t2 obj) -> bool", boxed<&is_>},
    {"aten::__isnot__(t1 self, t2 obj) -> bool", boxed<&isnot>},
    {"prim::data(Tensor(a) a) -> Tensor(a)", boxed<&identity>},
    {"aten::device(str a) -> Device", boxed<&device_from_str>},
    {"prim::type(Device self) -> str", boxed<&device_type>},
    {"prim::index(Device self) -> int?", boxed<&device_index>},
    {"prim::EnumName(AnyEnumType enum) -> str", boxed<&enum_name>},
    {"prim::EnumValue.int(AnyEnumType enum) -> int", boxed<&enum_value>},
    {"prim::EnumValue.float(AnyEnumType enum) -> float", boxed<&enum_value>},
    {"prim::EnumValue.str(AnyEnumType enum) -> str", boxed<&enum_value>},
});

}  // namespace torchlet::jit::ops

// Tensor metadata and the remaining prim:: operators the interpreter does not handle
// itself: sizes/strides/dim/numel, dtype/device/layout queries, NumToTensor and the
// implicit unwraps, identity (`is`), TupleIndex, item() and tolist(). Everything
// here reads metadata or wraps values; no numeric kernel is involved.
#include <torchlet/ops.h>

#include "jit/ops/ops_util.h"

namespace torchlet::jit::ops {
namespace {

void sizes(Stack& s) { push(s, int_list(pop_tensor(s).sizes())); }
void strides(Stack& s) { push(s, int_list(pop_tensor(s).strides())); }
void size_dim(Stack& s) {
  int64_t d = pop_int(s);
  Tensor t = pop_tensor(s);
  push(s, t.size(wrap_dim(d, std::max<int64_t>(t.dim(), 1), "size")));
}
void stride_dim(Stack& s) {
  int64_t d = pop_int(s);
  Tensor t = pop_tensor(s);
  push(s, t.stride(wrap_dim(d, std::max<int64_t>(t.dim(), 1), "stride")));
}
void dim(Stack& s) { push(s, pop_tensor(s).dim()); }
void numel(Stack& s) { push(s, pop_tensor(s).numel()); }
void element_size(Stack& s) { push(s, static_cast<int64_t>(pop_tensor(s).element_size())); }
void storage_offset(Stack& s) { push(s, pop_tensor(s).storage_offset()); }
// len(t): the size of the first dimension; a 0-dim tensor has none.
void len(Stack& s) {
  Tensor t = pop_tensor(s);
  TL_CHECK(t.dim() != 0, TypeError, "len() of a 0-d tensor");
  push(s, t.size(0));
}
void dtype(Stack& s) { push(s, static_cast<int64_t>(dtype_info(pop_tensor(s).dtype()).scalar_type_index)); }
void device(Stack& s) {
  pop_tensor(s);
  push(s, Device{});
}
void layout(Stack& s) {
  pop_tensor(s);
  push(s, int64_t{0});  // torch.strided
}
void requires_grad(Stack& s) { push(s, pop_tensor(s).requires_grad()); }
void set_requires_grad(Stack& s) {
  bool r = pop_bool(s);
  Tensor t = pop_tensor(s);
  TL_CHECK(!r || is_floating(t.dtype()) || is_complex(t.dtype()), ValueError,
           "only Tensors of floating point and complex dtype can require gradients");
  t.set_requires_grad(r);
  push(s, t);
}
void const_true(Stack& s) {
  pop(s);
  push(s, true);
}
void const_false(Stack& s) {
  pop(s);
  push(s, false);
}
void no_name(Stack& s) {  // named tensors do not exist here
  pop(s);
  push(s, IValue());
}
void get_device(Stack& s) {
  pop_tensor(s);
  push(s, int64_t{-1});  // CPU tensors report -1
}
void is_floating_point(Stack& s) { push(s, is_floating(pop_tensor(s).dtype())); }
void is_complex_(Stack& s) { push(s, is_complex(pop_tensor(s).dtype())); }
void is_signed(Stack& s) {
  DType d = pop_tensor(s).dtype();
  push(s, dtype_kind(d) != DTypeKind::Unsigned && dtype_kind(d) != DTypeKind::Bool);
}
void is_contiguous(Stack& s) { push(s, pop_tensor(s).is_contiguous()); }
void is_contiguous_format(Stack& s) {
  int64_t format = pop_int(s);
  Tensor t = pop_tensor(s);
  // MemoryFormat 0 is contiguous_format; channels_last layouts are not tracked here.
  TL_CHECK(format == 0, UnsupportedError, "is_contiguous: only contiguous_format is supported");
  push(s, t.is_contiguous());
}
void is_same_size(Stack& s) {
  Tensor b = pop_tensor(s);
  Tensor a = pop_tensor(s);
  push(s, a.sizes() == b.sizes());
}
void is_nonzero(Stack& s) {
  Tensor t = pop_tensor(s);
  TL_CHECK(t.numel() != 0, ValueError, "Boolean value of Tensor with no values is ambiguous");
  TL_CHECK(t.numel() == 1, ValueError, "Boolean value of Tensor with more than one value is ambiguous");
  push(s, t.item().to_bool());
}
void item(Stack& s) {
  Tensor t = pop_tensor(s);
  TL_CHECK(t.numel() == 1, ValueError, "a Tensor with {} elements cannot be converted to Scalar", t.numel());
  push(s, IValue(t.item()));
}
// prim::NumToTensor: a 0-dim tensor of the number's own dtype (int64, float64 as
// TorchScript numbers are doubles, bool, complex128).
void num_to_tensor(Stack& s) {
  IValue v = pop(s);
  Scalar x = v.toScalar();
  DType d = x.is_bool() ? DType::Bool : x.is_integral() ? DType::Long : x.is_floating() ? DType::Double : DType::ComplexDouble;
  push(s, scalar_tensor(x, d));
}
// unchecked_unwrap_optional is a no-op, as in torch: the compiler emits it only where
// it has proven the value is not None.
void unwrap_optional(Stack&) {}
void tuple_index(Stack& s) {
  int64_t i = pop_int(s);
  IValue t = pop(s);
  const auto& e = t.tupleRef().elements;
  push(s, e[normalize_index(i, e.size(), "tuple index out of range")]);
}
void is_(Stack& s) {
  IValue b = pop(s);
  IValue a = pop(s);
  push(s, a.is(b));
}
void isnot(Stack& s) {
  IValue b = pop(s);
  IValue a = pop(s);
  push(s, !a.is(b));
}
void identity(Stack&) {}

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
void device_from_str(Stack& s) { push(s, Device::parse(pop_str(s))); }
void device_type(Stack& s) {
  std::string d = pop(s).toDevice().str();
  push(s, d.substr(0, d.find(':')));
}
void device_index(Stack& s) {
  Device d = pop(s).toDevice();
  push(s, d.index < 0 ? IValue() : IValue(int64_t{d.index}));
}

}  // namespace

static RegisterOps reg({
    {"prim::tolist(...) -> ...", tolist},
    {"aten::size(Tensor self) -> int[]", sizes},
    {"aten::stride(Tensor self) -> int[]", strides},
    {"aten::size.int(Tensor self, int dim) -> int", size_dim},
    {"aten::stride.int(Tensor self, int dim) -> int", stride_dim},
    {"aten::dim(Tensor self) -> int", dim},
    {"aten::numel(Tensor self) -> int", numel},
    {"aten::element_size(Tensor self) -> int", element_size},
    {"aten::storage_offset(Tensor self) -> int", storage_offset},
    {"aten::len.Tensor(Tensor t) -> int", len},
    {"prim::dtype(Tensor a) -> int", dtype},
    {"prim::device(Tensor a) -> Device", device},
    {"prim::layout(Tensor a) -> Layout", layout},
    {"prim::requires_grad(Tensor a) -> bool", requires_grad},
    {"aten::requires_grad_(Tensor(a!) self, bool requires_grad=True) -> Tensor(a!)", set_requires_grad},
    {"prim::is_cpu(Tensor a) -> bool", const_true},
    {"prim::is_cuda(Tensor a) -> bool", const_false},
    {"prim::is_ipu(Tensor a) -> bool", const_false},
    {"prim::is_meta(Tensor a) -> bool", const_false},
    {"prim::is_mkldnn(Tensor a) -> bool", const_false},
    {"prim::is_mps(Tensor a) -> bool", const_false},
    {"prim::is_nested(Tensor a) -> bool", const_false},
    {"prim::is_ort(Tensor a) -> bool", const_false},
    {"prim::is_quantized(Tensor a) -> bool", const_false},
    {"prim::is_sparse(Tensor a) -> bool", const_false},
    {"prim::is_sparse_csr(Tensor a) -> bool", const_false},
    {"prim::is_vulkan(Tensor a) -> bool", const_false},
    {"prim::is_xpu(Tensor a) -> bool", const_false},
    {"aten::is_conj(Tensor self) -> bool", const_false},
    {"aten::is_neg(Tensor self) -> bool", const_false},
    {"aten::is_leaf(Tensor self) -> bool", const_true},
    {"aten::retains_grad(Tensor self) -> bool", const_false},
    {"prim::name(Tensor a) -> str?", no_name},
    {"aten::get_device(Tensor self) -> int", get_device},
    {"aten::is_floating_point(Tensor self) -> bool", is_floating_point},
    {"aten::is_complex(Tensor self) -> bool", is_complex_},
    {"aten::is_signed(Tensor self) -> bool", is_signed},
    {"aten::is_contiguous(Tensor self) -> bool", is_contiguous},
    {"aten::is_contiguous.memory_format(Tensor self, MemoryFormat memory_format) -> bool", is_contiguous_format},
    {"aten::is_same_size(Tensor self, Tensor other) -> bool", is_same_size},
    {"aten::is_nonzero(Tensor self) -> bool", is_nonzero},
    {"aten::item(Tensor self) -> Scalar", item},
    {"prim::NumToTensor.Scalar(Scalar a) -> Tensor", num_to_tensor},
    {"prim::NumToTensor.bool(bool a) -> Tensor", num_to_tensor},
    {"prim::unchecked_unwrap_optional(t(a)? optional) -> t(a)", unwrap_optional},
    {"prim::TupleIndex(Any tup, int i) -> Any", tuple_index},
    {"aten::__is__(t1 self, t2 obj) -> bool", is_},
    {"aten::__isnot__(t1 self, t2 obj) -> bool", isnot},
    {"prim::data(Tensor(a) a) -> Tensor(a)", identity},
    {"aten::device(str a) -> Device", device_from_str},
    {"prim::type(Device self) -> str", device_type},
    {"prim::index(Device self) -> int?", device_index},

});

}  // namespace torchlet::jit::ops

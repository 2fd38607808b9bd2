// Tensor factories: zeros/ones/full/empty (and their _like and new_ forms), arange,
// linspace, scalar_tensor, empty_strided and torch.tensor / as_tensor from TorchScript
// numbers and (nested) lists. The dtype/layout/device/pin_memory options accept what a
// CPU-only, strided library can honour and refuse the rest by name (ops_util.h).
#include <torchlet/ops.h>

#include "jit/ir/value_recursion.h"
#include "jit/ops/ops_util.h"

namespace torchlet::jit::ops {
namespace {

void finish_out(Stack& s, Tensor out, const Tensor& r, const char* op) {
  assign_out(out, r, op);
  push(s, out);
}

template <int kFill>  // 0 zeros, 1 ones, -1 empty
Tensor make(IntList size, DType d) {
  if constexpr (kFill == 0) return zeros(size, d);
  if constexpr (kFill == 1) return ones(size, d);
  return empty(size, d);
}

template <int kFill>
void filled(Stack& s) {
  std::optional<DType> d;
  pop_tensor_options(s, "zeros", &d);
  auto size = pop_int_list(s);
  push(s, make<kFill>(size, d.value_or(kDefaultFloatDType)));
}
template <int kFill>
void filled_out(Stack& s) {
  Tensor out = pop_tensor(s);
  auto size = pop_int_list(s);
  finish_out(s, out, make<kFill>(size, out.dtype()), "zeros");
}
void empty_memory_format(Stack& s) {
  pop_memory_format(s, "empty");
  filled<-1>(s);
}
void empty_out(Stack& s) {
  Tensor out = pop_tensor(s);
  pop_memory_format(s, "empty");
  auto size = pop_int_list(s);
  finish_out(s, out, empty(size, out.dtype()), "empty");
}
void full_(Stack& s) {
  std::optional<DType> d;
  pop_tensor_options(s, "full", &d);
  Scalar v = pop_scalar(s);
  auto size = pop_int_list(s);
  push(s, full(size, v, d));
}
void full_out(Stack& s) {
  Tensor out = pop_tensor(s);
  Scalar v = pop_scalar(s);
  auto size = pop_int_list(s);
  finish_out(s, out, full(size, v, out.dtype()), "full");
}
template <int kFill>
void like(Stack& s) {
  pop_memory_format(s, "zeros_like");
  std::optional<DType> d;
  pop_tensor_options(s, "zeros_like", &d);
  Tensor self = pop_tensor(s);
  push(s, make<kFill>(self.sizes(), d.value_or(self.dtype())));
}
template <int kFill>
void like_out(Stack& s) {
  Tensor out = pop_tensor(s);
  pop_memory_format(s, "zeros_like");
  Tensor self = pop_tensor(s);
  finish_out(s, out, make<kFill>(self.sizes(), out.dtype()), "zeros_like");
}
void full_like(Stack& s) {
  pop_memory_format(s, "full_like");
  std::optional<DType> d;
  pop_tensor_options(s, "full_like", &d);
  Scalar v = pop_scalar(s);
  Tensor self = pop_tensor(s);
  push(s, full(self.sizes(), v, d.value_or(self.dtype())));
}
void full_like_out(Stack& s) {
  Tensor out = pop_tensor(s);
  pop_memory_format(s, "full_like");
  Scalar v = pop_scalar(s);
  Tensor self = pop_tensor(s);
  finish_out(s, out, full(self.sizes(), v, out.dtype()), "full_like");
}
template <int kFill>
void new_filled(Stack& s) {
  std::optional<DType> d;
  pop_tensor_options(s, "new_zeros", &d);
  auto size = pop_int_list(s);
  Tensor self = pop_tensor(s);
  push(s, make<kFill>(size, d.value_or(self.dtype())));
}
template <int kFill>
void new_filled_out(Stack& s) {
  Tensor out = pop_tensor(s);
  auto size = pop_int_list(s);
  pop_tensor(s);
  finish_out(s, out, make<kFill>(size, out.dtype()), "new_zeros");
}
void new_full(Stack& s) {
  std::optional<DType> d;
  pop_tensor_options(s, "new_full", &d);
  Scalar v = pop_scalar(s);
  auto size = pop_int_list(s);
  Tensor self = pop_tensor(s);
  push(s, full(size, v, d.value_or(self.dtype())));
}
void new_full_out(Stack& s) {
  Tensor out = pop_tensor(s);
  Scalar v = pop_scalar(s);
  auto size = pop_int_list(s);
  pop_tensor(s);
  finish_out(s, out, full(size, v, out.dtype()), "new_full");
}
void empty_strided_(Stack& s) {
  std::optional<DType> d;
  pop_tensor_options(s, "empty_strided", &d);
  auto stride = pop_int_list(s);
  auto size = pop_int_list(s);
  push(s, empty_strided(size, stride, d.value_or(kDefaultFloatDType)));
}
void empty_strided_out(Stack& s) {
  Tensor out = pop_tensor(s);
  auto stride = pop_int_list(s);
  auto size = pop_int_list(s);
  finish_out(s, out, empty_strided(size, stride, out.dtype()), "empty_strided");
}

// --- ranges ----------------------------------------------------------------------------------
void arange_end(Stack& s) {
  std::optional<DType> d;
  pop_tensor_options(s, "arange", &d);
  push(s, arange(pop_scalar(s), d));
}
void arange_start(Stack& s) {
  std::optional<DType> d;
  pop_tensor_options(s, "arange", &d);
  Scalar end = pop_scalar(s);
  push(s, arange(pop_scalar(s), end, 1, d));
}
void arange_start_step(Stack& s) {
  std::optional<DType> d;
  pop_tensor_options(s, "arange", &d);
  Scalar step = pop_scalar(s);
  Scalar end = pop_scalar(s);
  push(s, arange(pop_scalar(s), end, step, d));
}
void arange_out(Stack& s) {
  Tensor out = pop_tensor(s);
  finish_out(s, out, arange(pop_scalar(s), out.dtype()), "arange");
}
void arange_start_out(Stack& s) {
  Tensor out = pop_tensor(s);
  Scalar step = pop_scalar(s);
  Scalar end = pop_scalar(s);
  finish_out(s, out, arange(pop_scalar(s), end, step, out.dtype()), "arange");
}
void linspace_(Stack& s) {
  std::optional<DType> d;
  pop_tensor_options(s, "linspace", &d);
  int64_t steps = pop_int(s);
  Scalar end = pop_scalar(s);
  push(s, linspace(pop_scalar(s), end, steps, d));
}
void linspace_out(Stack& s) {
  Tensor out = pop_tensor(s);
  int64_t steps = pop_int(s);
  Scalar end = pop_scalar(s);
  finish_out(s, out, linspace(pop_scalar(s), end, steps, out.dtype()), "linspace");
}
void scalar_tensor_(Stack& s) {
  std::optional<DType> d;
  pop_tensor_options(s, "scalar_tensor", &d);
  push(s, scalar_tensor(pop_scalar(s), d.value_or(kDefaultFloatDType)));
}
void scalar_tensor_out(Stack& s) {
  Tensor out = pop_tensor(s);
  finish_out(s, out, scalar_tensor(pop_scalar(s), out.dtype()), "scalar_tensor");
}

// --- torch.tensor / as_tensor from numbers and lists ------------------------------------------
// The dtype torch.tensor infers: bool, int64, the default float, or complex64.
DType inferred_dtype(const Scalar& v) {
  if (v.is_bool()) return DType::Bool;
  if (v.is_integral()) return DType::Long;
  if (v.is_floating()) return kDefaultFloatDType;
  return DType::ComplexFloat;
}
void check_device(const IValue& device, const char* op) {
  TL_CHECK(device.isNone() || device.toDevice().kind == Device::Kind::CPU, UnsupportedError,
           "{}: device '{}' is not available (torchlet has only the CPU)", op,
           device.isNone() ? "" : device.toDevice().str());
}
void number_tensor(Stack& s, bool has_requires_grad) {
  bool requires_grad = has_requires_grad && pop_bool(s);
  check_device(pop(s), "tensor");
  auto d = pop_opt_dtype(s);
  Scalar v = pop_scalar(s);
  // A complex number into a real dtype keeps its real part, as torch's conversion does.
  if (d && v.is_complex() && !is_complex(*d)) v = Scalar(v.to_complex().real());
  Tensor t = scalar_tensor(v, d.value_or(inferred_dtype(v)));
  t.set_requires_grad(requires_grad);
  push(s, t);
}
void tensor_number(Stack& s) { number_tensor(s, true); }
void as_tensor_number(Stack& s) { number_tensor(s, false); }

// Walks a nested list: its shape (every sub-list the same length, as torch requires)
// and its leaves in row-major order.
void collect(const IValue& v, size_t depth, Shape& shape, std::vector<Scalar>& leaves) {
  if (!v.isList()) {
    TL_CHECK(depth == shape.size(), ValueError, "tensor: expected sequence of length {} at dim {} (got a number)",
             depth < shape.size() ? shape[depth] : 0, depth);
    leaves.push_back(v.toScalar());
    return;
  }
  // A list may hold the same sub-list more than once (b = [a, a], 40 levels down, names
  // 2^40 numbers in 41 lists): the walk is bounded like every walk over values.
  const ValueRecursion guard("building a tensor from a list");
  const auto& e = v.listRef().elements;
  if (depth == shape.size()) {
    TL_CHECK(leaves.empty(), ValueError, "tensor: nested lists have inconsistent depths");
    shape.push_back(static_cast<int64_t>(e.size()));
  } else {
    TL_CHECK(depth < shape.size() && shape[depth] == static_cast<int64_t>(e.size()), ValueError,
             "tensor: expected sequence of length {} at dim {} (got {})",
             depth < shape.size() ? shape[depth] : 0, depth, e.size());
  }
  for (const auto& x : e) collect(x, depth + 1, shape, leaves);
}
Tensor tensor_from_list(const IValue& data, std::optional<DType> dtype) {
  Shape shape;
  std::vector<Scalar> leaves;
  collect(data, 0, shape, leaves);
  DType inferred = kDefaultFloatDType;
  if (!leaves.empty()) {
    ResultTypeState st;
    for (const auto& v : leaves) st.add(v);
    inferred = st.result();
  }
  DType d = dtype.value_or(inferred);
  Tensor out = empty(shape, d);
  Tensor flat = out.view({static_cast<int64_t>(leaves.size())});
  for (size_t i = 0; i < leaves.size(); ++i) flat.select(0, static_cast<int64_t>(i)).fill_(leaves[i]);
  return out;
}
void tensor_list_(Stack& s) {
  bool requires_grad = pop_bool(s);
  check_device(pop(s), "tensor");
  auto d = pop_opt_dtype(s);
  Tensor t = tensor_from_list(pop(s), d);
  t.set_requires_grad(requires_grad);
  push(s, t);
}
void as_tensor_list(Stack& s) {
  check_device(pop(s), "as_tensor");
  auto d = pop_opt_dtype(s);
  push(s, tensor_from_list(pop(s), d));
}
// as_tensor(Tensor): the same tensor unless a conversion is asked for.
void as_tensor_tensor(Stack& s) {
  check_device(pop(s), "as_tensor");
  auto d = pop_opt_dtype(s);
  Tensor t = pop_tensor(s);
  push(s, d ? t.to(*d) : t);
}

}  // namespace

static RegisterOps reg({
    {"aten::zeros(SymInt[] size, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor", filled<0>},
    {"aten::zeros.out(SymInt[] size, *, Tensor(a!) out) -> Tensor(a!)", filled_out<0>},
    {"aten::ones(SymInt[] size, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor", filled<1>},
    {"aten::ones.out(SymInt[] size, *, Tensor(a!) out) -> Tensor(a!)", filled_out<1>},
    {"aten::empty.memory_format(SymInt[] size, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None, MemoryFormat? memory_format=None) -> Tensor", empty_memory_format},
    {"aten::empty.out(SymInt[] size, *, MemoryFormat? memory_format=None, Tensor(a!) out) -> Tensor(a!)", empty_out},
    {"aten::full(SymInt[] size, Scalar fill_value, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor", full_},
    {"aten::full.out(SymInt[] size, Scalar fill_value, *, Tensor(a!) out) -> Tensor(a!)", full_out},
    {"aten::zeros_like(Tensor self, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None, MemoryFormat? memory_format=None) -> Tensor", like<0>},
    {"aten::zeros_like.out(Tensor self, *, MemoryFormat? memory_format=None, Tensor(a!) out) -> Tensor(a!)", like_out<0>},
    {"aten::ones_like(Tensor self, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None, MemoryFormat? memory_format=None) -> Tensor", like<1>},
    {"aten::ones_like.out(Tensor self, *, MemoryFormat? memory_format=None, Tensor(a!) out) -> Tensor(a!)", like_out<1>},
    {"aten::empty_like(Tensor self, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None, MemoryFormat? memory_format=None) -> Tensor", like<-1>},
    {"aten::empty_like.out(Tensor self, *, MemoryFormat? memory_format=None, Tensor(a!) out) -> Tensor(a!)", like_out<-1>},
    {"aten::full_like(Tensor self, Scalar fill_value, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None, MemoryFormat? memory_format=None) -> Tensor", full_like},
    {"aten::full_like.out(Tensor self, Scalar fill_value, *, MemoryFormat? memory_format=None, Tensor(a!) out) -> Tensor(a!)", full_like_out},
    {"aten::new_zeros(Tensor self, SymInt[] size, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor", new_filled<0>},
    {"aten::new_zeros.out(Tensor self, SymInt[] size, *, Tensor(a!) out) -> Tensor(a!)", new_filled_out<0>},
    {"aten::new_ones(Tensor self, SymInt[] size, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor", new_filled<1>},
    {"aten::new_ones.out(Tensor self, SymInt[] size, *, Tensor(a!) out) -> Tensor(a!)", new_filled_out<1>},
    {"aten::new_empty(Tensor self, SymInt[] size, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor", new_filled<-1>},
    {"aten::new_empty.out(Tensor self, SymInt[] size, *, Tensor(a!) out) -> Tensor(a!)", new_filled_out<-1>},
    {"aten::new_full(Tensor self, SymInt[] size, Scalar fill_value, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor", new_full},
    {"aten::new_full.out(Tensor self, SymInt[] size, Scalar fill_value, *, Tensor(a!) out) -> Tensor(a!)", new_full_out},
    {"aten::empty_strided(SymInt[] size, SymInt[] stride, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor", empty_strided_},
    {"aten::empty_strided.out(SymInt[] size, SymInt[] stride, *, Tensor(a!) out) -> Tensor(a!)", empty_strided_out},
    {"aten::arange(Scalar end, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor", arange_end},
    {"aten::arange.start(Scalar start, Scalar end, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor", arange_start},
    {"aten::arange.start_step(Scalar start, Scalar end, Scalar step=1, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor", arange_start_step},
    {"aten::arange.out(Scalar end, *, Tensor(a!) out) -> Tensor(a!)", arange_out},
    {"aten::arange.start_out(Scalar start, Scalar end, Scalar step=1, *, Tensor(a!) out) -> Tensor(a!)", arange_start_out},
    {"aten::linspace(Scalar start, Scalar end, int steps, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor", linspace_},
    {"aten::linspace.out(Scalar start, Scalar end, int steps, *, Tensor(a!) out) -> Tensor(a!)", linspace_out},
    {"aten::scalar_tensor(Scalar s, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor", scalar_tensor_},
    {"aten::scalar_tensor.out(Scalar s, *, Tensor(a!) out) -> Tensor(a!)", scalar_tensor_out},
    {"aten::tensor.float(float t, *, ScalarType? dtype=None, Device? device=None, bool requires_grad=False) -> Tensor", tensor_number},
    {"aten::tensor.int(int t, *, ScalarType? dtype=None, Device? device=None, bool requires_grad=False) -> Tensor", tensor_number},
    {"aten::tensor.bool(bool t, *, ScalarType? dtype=None, Device? device=None, bool requires_grad=False) -> Tensor", tensor_number},
    {"aten::tensor.complex(complex t, *, ScalarType? dtype=None, Device? device=None, bool requires_grad=False) -> Tensor", tensor_number},
    {"aten::tensor(t[] data, *, ScalarType? dtype=None, Device? device=None, bool requires_grad=False) -> Tensor", tensor_list_},
    {"aten::as_tensor.float(float t, *, ScalarType? dtype=None, Device? device=None) -> Tensor", as_tensor_number},
    {"aten::as_tensor.int(int t, *, ScalarType? dtype=None, Device? device=None) -> Tensor", as_tensor_number},
    {"aten::as_tensor.bool(bool t, *, ScalarType? dtype=None, Device? device=None) -> Tensor", as_tensor_number},
    {"aten::as_tensor.complex(complex t, *, ScalarType? dtype=None, Device? device=None) -> Tensor", as_tensor_number},
    {"aten::as_tensor(Tensor(a) data, *, ScalarType? dtype=None, Device? device=None) -> Tensor(b|a)", as_tensor_tensor},
    {"aten::as_tensor.list(t[] data, *, ScalarType? dtype=None, Device? device=None) -> Tensor", as_tensor_list},
});

}  // namespace torchlet::jit::ops

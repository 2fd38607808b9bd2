// Tensor factories: zeros/ones/full/empty (and their _like and new_ forms), arange,
// linspace, logspace, eye, tril/triu_indices, scalar_tensor, empty_strided and
// torch.tensor / as_tensor from TorchScript numbers and (nested) lists, with their out=
// forms, each registered from a typed function (Note [Boxing] in boxing.h). The
// Layout?/Device?/pin_memory options accept what a CPU-only, strided library can
// honour and refuse the rest (StridedCpu); an out= form makes its values in out's
// dtype, as torch's do.
#include <optional>
#include <vector>

#include <torchlet/ops.h>

#include "jit/ops/boxing.h"
#include "jit/ops/out_forms.h"
#include "values/value_recursion.h"

namespace torchlet::jit::ops {
namespace {

enum Fill { kZeros, kOnes, kEmpty };
template <Fill kFill>
Tensor make(IntList size, DType d) {
  if constexpr (kFill == kZeros) return zeros(size, d);
  if constexpr (kFill == kOnes) return ones(size, d);
  return empty(size, d);
}
template <Fill kFill>
Tensor filled(IntList size, std::optional<DType> dtype) {
  return make<kFill>(size, dtype.value_or(kDefaultFloatDType));
}
template <Fill kFill>
Tensor like(const Tensor& self, std::optional<DType> dtype) {
  return make<kFill>(self.sizes(), dtype.value_or(self.dtype()));
}
Tensor full_like(const Tensor& self, const Scalar& fill_value, std::optional<DType> dtype) {
  return full(self.sizes(), fill_value, dtype.value_or(self.dtype()));
}
template <Fill kFill>
Tensor new_filled(const Tensor& self, IntList size, std::optional<DType> dtype) {
  return make<kFill>(size, dtype.value_or(self.dtype()));
}
Tensor new_full(const Tensor& self, IntList size, const Scalar& fill_value, std::optional<DType> dtype) {
  return full(size, fill_value, dtype.value_or(self.dtype()));
}
Tensor empty_strided_of(IntList size, IntList stride, std::optional<DType> dtype) {
  return empty_strided(size, stride, dtype.value_or(kDefaultFloatDType));
}

// The out= forms whose memory_format argument sits where the functional has its dtype
// (so factory_into_out cannot call the functional).
Tensor written(Tensor out, const Tensor& result) {
  assign_out(out, result, nullptr);
  return out;
}
Tensor empty_into(IntList size, DefaultMemoryFormat, Tensor out) {
  const Tensor result = empty(size, out.dtype());
  return written(std::move(out), result);
}
template <Fill kFill>
Tensor like_into(const Tensor& self, DefaultMemoryFormat, Tensor out) {
  const Tensor result = make<kFill>(self.sizes(), out.dtype());
  return written(std::move(out), result);
}
Tensor full_like_into(const Tensor& self, const Scalar& fill_value, DefaultMemoryFormat, Tensor out) {
  const Tensor result = full(self.sizes(), fill_value, out.dtype());
  return written(std::move(out), result);
}

// --- ranges and matrices ------------------------------------------------------------------
constexpr auto arange_end = static_cast<Tensor (*)(const Scalar&, std::optional<DType>)>(&torchlet::arange);
constexpr auto arange_start_step =
    static_cast<Tensor (*)(const Scalar&, const Scalar&, const Scalar&, std::optional<DType>)>(&torchlet::arange);
Tensor arange_start(const Scalar& start, const Scalar& end, std::optional<DType> dtype) {
  return torchlet::arange(start, end, 1, dtype);
}
Tensor eye_n(int64_t n, std::optional<DType> dtype) { return eye(n, std::nullopt, dtype.value_or(kDefaultFloatDType)); }
Tensor eye_n_m(int64_t n, int64_t m, std::optional<DType> dtype) { return eye(n, m, dtype.value_or(kDefaultFloatDType)); }

// --- torch.tensor / as_tensor from numbers and lists ------------------------------------------
// The dtype torch.tensor infers: bool, int64, the default float, or complex64.
DType inferred_dtype(const Scalar& v) {
  if (v.is_bool()) return DType::Bool;
  if (v.is_integral()) return DType::Long;
  if (v.is_floating()) return kDefaultFloatDType;
  return DType::ComplexFloat;
}
void check_device(const std::optional<Device>& device, const char* op) {
  TL_CHECK(!device || device->kind == Device::Kind::CPU, UnsupportedError,
           "{}: device '{}' is not available (torchlet has only the CPU)", op, device ? device->str() : "");
}
Tensor as_number_tensor(const Scalar& value, std::optional<DType> dtype, std::optional<Device> device) {
  check_device(device, "tensor");
  Scalar v = value;
  // A complex number into a real dtype keeps its real part, as torch's conversion does.
  if (dtype && v.is_complex() && !is_complex(*dtype)) v = Scalar(v.to_complex().real());
  return scalar_tensor(v, dtype.value_or(inferred_dtype(v)));
}
Tensor number_tensor(const Scalar& value, std::optional<DType> dtype, std::optional<Device> device, bool requires_grad) {
  Tensor t = as_number_tensor(value, dtype, device);
  t.set_requires_grad(requires_grad);
  return t;
}

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
Tensor list_tensor(const IValue& data, std::optional<DType> dtype, std::optional<Device> device, bool requires_grad) {
  check_device(device, "tensor");
  Tensor t = tensor_from_list(data, dtype);
  t.set_requires_grad(requires_grad);
  return t;
}
Tensor as_list_tensor(const IValue& data, std::optional<DType> dtype, std::optional<Device> device) {
  check_device(device, "as_tensor");
  return tensor_from_list(data, dtype);
}
// as_tensor(Tensor): the same tensor unless a conversion is asked for.
Tensor as_tensor_of_tensor(const Tensor& data, std::optional<DType> dtype, std::optional<Device> device) {
  check_device(device, "as_tensor");
  return dtype ? data.to(*dtype) : data;
}

static RegisterOps reg({
    {"aten::zeros(SymInt[] size, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor", boxed<&filled<kZeros>, StridedCpu>},
    {"aten::zeros.out(SymInt[] size, *, Tensor(a!) out) -> Tensor(a!)", factory_into_out<"aten::zeros", false>},
    {"aten::ones(SymInt[] size, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor", boxed<&filled<kOnes>, StridedCpu>},
    {"aten::ones.out(SymInt[] size, *, Tensor(a!) out) -> Tensor(a!)", factory_into_out<"aten::ones", false>},
    {"aten::empty.memory_format(SymInt[] size, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None, MemoryFormat? memory_format=None) -> Tensor", boxed<&filled<kEmpty>, StridedCpu, DefaultMemoryFormat>},
    {"aten::empty.out(SymInt[] size, *, MemoryFormat? memory_format=None, Tensor(a!) out) -> Tensor(a!)", boxed<&empty_into>},
    {"aten::full(SymInt[] size, Scalar fill_value, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor", boxed<&torchlet::full, StridedCpu>},
    {"aten::full.out(SymInt[] size, Scalar fill_value, *, Tensor(a!) out) -> Tensor(a!)", factory_into_out<"aten::full", false>},
    {"aten::zeros_like(Tensor self, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None, MemoryFormat? memory_format=None) -> Tensor", boxed<&like<kZeros>, StridedCpu, DefaultMemoryFormat>},
    {"aten::zeros_like.out(Tensor self, *, MemoryFormat? memory_format=None, Tensor(a!) out) -> Tensor(a!)", boxed<&like_into<kZeros>>},
    {"aten::ones_like(Tensor self, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None, MemoryFormat? memory_format=None) -> Tensor", boxed<&like<kOnes>, StridedCpu, DefaultMemoryFormat>},
    {"aten::ones_like.out(Tensor self, *, MemoryFormat? memory_format=None, Tensor(a!) out) -> Tensor(a!)", boxed<&like_into<kOnes>>},
    {"aten::empty_like(Tensor self, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None, MemoryFormat? memory_format=None) -> Tensor", boxed<&like<kEmpty>, StridedCpu, DefaultMemoryFormat>},
    {"aten::empty_like.out(Tensor self, *, MemoryFormat? memory_format=None, Tensor(a!) out) -> Tensor(a!)", boxed<&like_into<kEmpty>>},
    {"aten::full_like(Tensor self, Scalar fill_value, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None, MemoryFormat? memory_format=None) -> Tensor", boxed<&full_like, StridedCpu, DefaultMemoryFormat>},
    {"aten::full_like.out(Tensor self, Scalar fill_value, *, MemoryFormat? memory_format=None, Tensor(a!) out) -> Tensor(a!)", boxed<&full_like_into>},
    {"aten::new_zeros(Tensor self, SymInt[] size, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor", boxed<&new_filled<kZeros>, StridedCpu>},
    {"aten::new_zeros.out(Tensor self, SymInt[] size, *, Tensor(a!) out) -> Tensor(a!)", factory_into_out<"aten::new_zeros", false>},
    {"aten::new_ones(Tensor self, SymInt[] size, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor", boxed<&new_filled<kOnes>, StridedCpu>},
    {"aten::new_ones.out(Tensor self, SymInt[] size, *, Tensor(a!) out) -> Tensor(a!)", factory_into_out<"aten::new_ones", false>},
    {"aten::new_empty(Tensor self, SymInt[] size, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor", boxed<&new_filled<kEmpty>, StridedCpu>},
    {"aten::new_empty.out(Tensor self, SymInt[] size, *, Tensor(a!) out) -> Tensor(a!)", factory_into_out<"aten::new_empty", false>},
    {"aten::new_full(Tensor self, SymInt[] size, Scalar fill_value, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor", boxed<&new_full, StridedCpu>},
    {"aten::new_full.out(Tensor self, SymInt[] size, Scalar fill_value, *, Tensor(a!) out) -> Tensor(a!)", factory_into_out<"aten::new_full", false>},
    {"aten::empty_strided(SymInt[] size, SymInt[] stride, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor", boxed<&empty_strided_of, StridedCpu>},
    {"aten::empty_strided.out(SymInt[] size, SymInt[] stride, *, Tensor(a!) out) -> Tensor(a!)", factory_into_out<"aten::empty_strided", false>},
    {"aten::arange(Scalar end, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor", boxed<arange_end, StridedCpu>},
    {"aten::arange.start(Scalar start, Scalar end, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor", boxed<&arange_start, StridedCpu>},
    {"aten::arange.start_step(Scalar start, Scalar end, Scalar step=1, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor", boxed<arange_start_step, StridedCpu>},
    {"aten::arange.out(Scalar end, *, Tensor(a!) out) -> Tensor(a!)", factory_into_out<"aten::arange", false>},
    {"aten::arange.start_out(Scalar start, Scalar end, Scalar step=1, *, Tensor(a!) out) -> Tensor(a!)", factory_into_out<"aten::arange.start_step", false>},
    {"aten::linspace(Scalar start, Scalar end, int steps, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor", boxed<&torchlet::linspace, StridedCpu>},
    {"aten::linspace.out(Scalar start, Scalar end, int steps, *, Tensor(a!) out) -> Tensor(a!)", factory_into_out<"aten::linspace", false>},
    {"aten::logspace(Scalar start, Scalar end, int steps, float base=10., *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor", boxed<&torchlet::logspace, StridedCpu>},
    {"aten::logspace.out(Scalar start, Scalar end, int steps, float base=10., *, Tensor(a!) out) -> Tensor(a!)", factory_into_out<"aten::logspace", true>},
    {"aten::eye(int n, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor", boxed<&eye_n, StridedCpu>},
    {"aten::eye.m(int n, int m, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor", boxed<&eye_n_m, StridedCpu>},
    {"aten::eye.out(int n, *, Tensor(a!) out) -> Tensor(a!)", factory_into_out<"aten::eye", false>},
    {"aten::eye.m_out(int n, int m, *, Tensor(a!) out) -> Tensor(a!)", factory_into_out<"aten::eye.m", false>},
    {"aten::tril_indices(int row, int col, int offset=0, *, ScalarType? dtype=4, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor", boxed<&torchlet::tril_indices, StridedCpu>},
    {"aten::tril_indices.out(int row, int col, int offset=0, *, Tensor(a!) out) -> Tensor(a!)", factory_into_out<"aten::tril_indices", false>},
    {"aten::triu_indices(int row, int col, int offset=0, *, ScalarType? dtype=4, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor", boxed<&torchlet::triu_indices, StridedCpu>},
    {"aten::triu_indices.out(int row, int col, int offset=0, *, Tensor(a!) out) -> Tensor(a!)", factory_into_out<"aten::triu_indices", false>},
    {"aten::scalar_tensor(Scalar s, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor", boxed<&torchlet::scalar_tensor, StridedCpu>},
    {"aten::scalar_tensor.out(Scalar s, *, Tensor(a!) out) -> Tensor(a!)", factory_into_out<"aten::scalar_tensor", false>},
    {"aten::tensor.float(float t, *, ScalarType? dtype=None, Device? device=None, bool requires_grad=False) -> Tensor", boxed<&number_tensor>},
    {"aten::tensor.int(int t, *, ScalarType? dtype=None, Device? device=None, bool requires_grad=False) -> Tensor", boxed<&number_tensor>},
    {"aten::tensor.bool(bool t, *, ScalarType? dtype=None, Device? device=None, bool requires_grad=False) -> Tensor", boxed<&number_tensor>},
    {"aten::tensor.complex(complex t, *, ScalarType? dtype=None, Device? device=None, bool requires_grad=False) -> Tensor", boxed<&number_tensor>},
    {"aten::tensor(t[] data, *, ScalarType? dtype=None, Device? device=None, bool requires_grad=False) -> Tensor", boxed<&list_tensor>},
    {"aten::as_tensor.float(float t, *, ScalarType? dtype=None, Device? device=None) -> Tensor", boxed<&as_number_tensor>},
    {"aten::as_tensor.int(int t, *, ScalarType? dtype=None, Device? device=None) -> Tensor", boxed<&as_number_tensor>},
    {"aten::as_tensor.bool(bool t, *, ScalarType? dtype=None, Device? device=None) -> Tensor", boxed<&as_number_tensor>},
    {"aten::as_tensor.complex(complex t, *, ScalarType? dtype=None, Device? device=None) -> Tensor", boxed<&as_number_tensor>},
    {"aten::as_tensor(Tensor(a) data, *, ScalarType? dtype=None, Device? device=None) -> Tensor(b|a)", boxed<&as_tensor_of_tensor>},
    {"aten::as_tensor.list(t[] data, *, ScalarType? dtype=None, Device? device=None) -> Tensor", boxed<&as_list_tensor>},
});

}  // namespace
}  // namespace torchlet::jit::ops

// Copies and conversions: to (every overload), type_as, clone, contiguous, detach,
// copy/copy_, fill/fill_, zero/zero_ and narrow_copy, with their out= forms, each
// registered from a typed function (Note [Boxing] in boxing.h). A conversion that
// changes nothing returns self, as torch's do. The shallow copies of lists and dicts
// (copy.t, copy.Dict_*; list_builtins.h) sit before the tensor copy, the order they
// register in (docs/operators.md).
#include <optional>

#include <torchlet/ops.h>

#include "jit/ops/boxing.h"
#include "jit/ops/list_builtins.h"
#include "jit/ops/out_forms.h"

namespace torchlet::jit::ops {
namespace {

Tensor alias_of(const Tensor& self) { return self.alias(); }
Tensor itself(const Tensor& self) { return self; }
Tensor contiguous_of(const Tensor& self) { return self.contiguous(); }
Tensor clone_of(const Tensor& self) { return self.clone(); }

// to(dtype): self when nothing changes and copy is false, as torch returns it.
Tensor convert(const Tensor& t, std::optional<DType> dtype, bool copy) {
  if (!dtype) return copy ? t.clone() : t;
  return t.to(*dtype, copy);
}
void check_cpu(const std::optional<Device>& device) {
  TL_CHECK(!device || device->kind == Device::Kind::CPU, UnsupportedError,
           "to: device '{}' is not available (torchlet has only the CPU)", device ? device->str() : "");
}
Tensor to_dtype_of(const Tensor& self, DType dtype, bool /*non_blocking*/, bool copy) { return convert(self, dtype, copy); }
Tensor to_device(const Tensor& self, Device device, DType dtype, bool /*non_blocking*/, bool copy) {
  check_cpu(device);
  return convert(self, dtype, copy);
}
Tensor to_other(const Tensor& self, const Tensor& other, bool /*non_blocking*/, bool copy) {
  return convert(self, other.dtype(), copy);
}
Tensor to_dtype_layout(const Tensor& self, std::optional<DType> dtype, StridedCpu, bool /*non_blocking*/, bool copy) {
  return convert(self, dtype, copy);
}
Tensor to_prim_device(const Tensor& self, std::optional<Device> device, std::optional<DType> dtype, bool /*non_blocking*/,
                      bool copy) {
  check_cpu(device);
  return convert(self, dtype, copy);
}
Tensor to_prim_dtype(const Tensor& self, std::optional<DType> dtype, bool /*non_blocking*/, bool copy) {
  return convert(self, dtype, copy);
}
Tensor to_prim_other(const Tensor& self, bool /*non_blocking*/, bool copy) { return convert(self, std::nullopt, copy); }
Tensor type_as(const Tensor& self, const Tensor& other) { return self.to(other.dtype()); }

Tensor copy_tensor_(Tensor self, const Tensor& src) {
  self.copy_(src);
  return self;
}
Tensor copy_from(Tensor self, const Tensor& src, bool /*non_blocking*/) { return copy_tensor_(std::move(self), src); }
// aten::copy(self, src): a new tensor shaped and typed like self holding src.
Tensor copy_of(const Tensor& self, const Tensor& src, bool /*non_blocking*/) { return copy_tensor_(self.clone(), src); }

Tensor fill_scalar_(Tensor self, const Scalar& value) {
  self.fill_(value);
  return self;
}
Scalar fill_value(const Tensor& value) {
  TL_CHECK(value.dim() == 0, ValueError,
           "fill_ only supports 0-dimension value tensor but got tensor with {} dimensions.", value.dim());
  return value.item();
}
Tensor fill_tensor_(Tensor self, const Tensor& value) { return fill_scalar_(std::move(self), fill_value(value)); }
Tensor fill_scalar(const Tensor& self, const Scalar& value) { return fill_scalar_(self.clone(), value); }
Tensor fill_tensor(const Tensor& self, const Tensor& value) {
  const Scalar v = fill_value(value);
  return fill_scalar_(self.clone(), v);
}
Tensor zero_(Tensor self) { return fill_scalar_(std::move(self), 0); }
Tensor zero(const Tensor& self) { return fill_scalar_(self.clone(), 0); }

// torch.narrow_copy: narrow, then a contiguous copy. (torch 1.13's CPU kernel scrambles
// a transposed input's elements: builtins_test.)
Tensor narrow_copy(const Tensor& self, int64_t dim, int64_t start, int64_t length) {
  return self.narrow(dim, start, length).clone();
}

static RegisterOps reg({
    {"aten::detach(Tensor(a) self) -> Tensor(a)", boxed<&alias_of>},
    {"aten::detach_(Tensor(a!) self) -> Tensor(a!)", boxed<&itself>},
    {"aten::contiguous(Tensor(a) self, *, MemoryFormat memory_format=0) -> Tensor(a)", boxed<&contiguous_of, DefaultMemoryFormat>},
    {"aten::clone(Tensor self, *, MemoryFormat? memory_format=None) -> Tensor", boxed<&clone_of, DefaultMemoryFormat>},
    {"aten::clone.out(Tensor self, *, MemoryFormat? memory_format=None, Tensor(a!) out) -> Tensor(a!)", out_variant<&clone_of, DefaultMemoryFormat>},
    {"aten::to.dtype(Tensor(a) self, ScalarType dtype, bool non_blocking=False, bool copy=False, MemoryFormat? memory_format=None) -> Tensor(a)", boxed<&to_dtype_of, DefaultMemoryFormat>},
    {"aten::to.device(Tensor(a) self, Device device, ScalarType dtype, bool non_blocking=False, bool copy=False, MemoryFormat? memory_format=None) -> Tensor(a)", boxed<&to_device, DefaultMemoryFormat>},
    {"aten::to.other(Tensor(a) self, Tensor other, bool non_blocking=False, bool copy=False, MemoryFormat? memory_format=None) -> Tensor(a)", boxed<&to_other, DefaultMemoryFormat>},
    {"aten::to.dtype_layout(Tensor(a) self, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None, bool non_blocking=False, bool copy=False, MemoryFormat? memory_format=None) -> Tensor(a)", boxed<&to_dtype_layout, DefaultMemoryFormat>},
    {"aten::to.prim_Device(Tensor(a) self, Device? device, int? dtype=None, bool non_blocking=False, bool copy=False) -> Tensor(b|a)", boxed<&to_prim_device>},
    {"aten::to.prim_dtype(Tensor(a) self, int? dtype=None, bool non_blocking=False, bool copy=False) -> Tensor(b|a)", boxed<&to_prim_dtype>},
    {"aten::to.prim_other(Tensor(a) self, bool non_blocking=False, bool copy=False) -> Tensor(b|a)", boxed<&to_prim_other>},
    {"aten::type_as(Tensor self, Tensor other) -> Tensor", boxed<&type_as>},
    {"aten::copy_(Tensor(a!) self, Tensor src, bool non_blocking=False) -> Tensor(a!)", boxed<&copy_from>},
    {"aten::copy_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)", boxed<&copy_tensor_>},
    {"aten::copy_.int(Tensor(a!) self, int other) -> Tensor(a!)", boxed<&fill_scalar_>},
    {"aten::copy_.float(Tensor(a!) self, float other) -> Tensor(a!)", boxed<&fill_scalar_>},
    {"aten::copy.Dict_Tensor(Dict(Tensor, t)(a) self) -> Dict(Tensor, t)", boxed<&dict_copy>},
    {"aten::copy.Dict_bool(Dict(bool, t)(a) self) -> Dict(bool, t)", boxed<&dict_copy>},
    {"aten::copy.Dict_complex(Dict(complex, t)(a) self) -> Dict(complex, t)", boxed<&dict_copy>},
    {"aten::copy.Dict_float(Dict(float, t)(a) self) -> Dict(float, t)", boxed<&dict_copy>},
    {"aten::copy.Dict_int(Dict(int, t)(a) self) -> Dict(int, t)", boxed<&dict_copy>},
    {"aten::copy.Dict_str(Dict(str, t)(a) self) -> Dict(str, t)", boxed<&dict_copy>},
    {"aten::copy.t(t[](a) self) -> t[]", boxed<&list_copy>},
    {"aten::copy(Tensor self, Tensor src, bool non_blocking=False) -> Tensor", boxed<&copy_of>},
    {"aten::copy.out(Tensor self, Tensor src, bool non_blocking=False, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::copy", 1, any_dtype>},
    {"aten::fill_.Scalar(Tensor(a!) self, Scalar value) -> Tensor(a!)", boxed<&fill_scalar_>},
    {"aten::fill_.Tensor(Tensor(a!) self, Tensor value) -> Tensor(a!)", boxed<&fill_tensor_>},
    {"aten::fill.Scalar(Tensor self, Scalar value) -> Tensor", boxed<&fill_scalar>},
    {"aten::fill.Tensor(Tensor self, Tensor value) -> Tensor", boxed<&fill_tensor>},
    {"aten::fill.Scalar_out(Tensor self, Scalar value, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::fill.Scalar", 1, any_dtype>},
    {"aten::fill.Tensor_out(Tensor self, Tensor value, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::fill.Tensor", 1, any_dtype>},
    {"aten::zero_(Tensor(a!) self) -> Tensor(a!)", boxed<&zero_>},
    {"aten::zero(Tensor self) -> Tensor", boxed<&zero>},
    {"aten::zero.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::zero", 1, any_dtype>},
    {"aten::narrow_copy(Tensor self, int dim, SymInt start, SymInt length) -> Tensor", boxed<&narrow_copy>},
    {"aten::narrow_copy.out(Tensor self, int dim, SymInt start, SymInt length, *, Tensor(a!) out) -> Tensor(a!)", out_variant<&narrow_copy>},
});

}  // namespace
}  // namespace torchlet::jit::ops

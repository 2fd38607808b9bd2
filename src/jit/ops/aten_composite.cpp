// Tensor operators torch defines in terms of others, composed here from the kernels
// the same way: isnan/isinf/isfinite, square, frac, exp2, sgn, negative, positive,
// true_divide, clip, addcmul/addcdiv, hypot, dot/mv/outer. Result dtypes follow
// torch's definitions (square is pow(x, 2), exp2 is a float op, ...), checked against
// torch in tests/fixtures/gen_ops.py.
#include <limits>

#include <torchlet/ops.h>

#include "jit/ops/composites.h"
#include "jit/ops/ops_util.h"

namespace torchlet::jit::ops {
namespace {

bool is_float_like(DType d) { return is_floating(d) || is_complex(d); }

Tensor isinf_impl(const Tensor& x) {
  if (!is_float_like(x.dtype())) return zeros(x.sizes(), DType::Bool);
  return torchlet::eq(torchlet::abs(x), Scalar(std::numeric_limits<double>::infinity()));
}
Tensor isfinite_impl(const Tensor& x) {
  if (!is_float_like(x.dtype())) return ones(x.sizes(), DType::Bool);
  return torchlet::logical_not(torchlet::logical_or(isnan_of(x), isinf_impl(x)));
}
Tensor square_impl(const Tensor& x) { return torchlet::pow(x, Scalar(int64_t{2})); }
// frac: floating inputs only, as torch's kernel; float16 through float32 (our trunc
// has no float16 loop), rounding once at the end as torch's half arithmetic does.
Tensor frac_impl(const Tensor& x) {
  TL_CHECK(is_floating(x.dtype()), UnsupportedError, "\"frac_cpu\" not implemented for '{}'",
           dtype_info(x.dtype()).scalar_type_name);
  if (x.dtype() == DType::Half || x.dtype() == DType::BFloat16) {
    Tensor f = x.to(DType::Float);
    return torchlet::sub(f, torchlet::trunc(f)).to(x.dtype());
  }
  return torchlet::sub(x, torchlet::trunc(x));
}
// exp2 is a floating op: integral and bool inputs compute in the default float type.
Tensor exp2_impl(const Tensor& x) {
  Tensor f = is_float_like(x.dtype()) ? x : x.to(kDefaultFloatDType);
  return torchlet::pow(Scalar(2.0), f);
}
Tensor sgn_impl(const Tensor& x) {
  TL_CHECK(!is_complex(x.dtype()), UnsupportedError, "sgn: complex tensors are not supported");
  return torchlet::sign(x);
}
Tensor negative_impl(const Tensor& x) { return torchlet::neg(x); }
Tensor hypot_impl(const Tensor& a, const Tensor& b) {
  const DType r = result_type(a, b);
  TL_CHECK(is_floating(r), UnsupportedError, "\"hypot_cpu\" not implemented for '{}'",
           dtype_info(r).scalar_type_name);
  return torchlet::sqrt(torchlet::add(torchlet::mul(a, a), torchlet::mul(b, b)));
}

template <Tensor (*F)(const Tensor&)>
void unary(Stack& s) { push(s, F(pop_tensor(s))); }
template <Tensor (*F)(const Tensor&)>
void unary_(Stack& s) {
  Tensor self = pop_tensor(s);
  assign_inplace(self, F(self), "inplace");
  push(s, self);
}
template <Tensor (*F)(const Tensor&, const Tensor&)>
void binary(Stack& s) {
  Tensor b = pop_tensor(s);
  push(s, F(pop_tensor(s), b));
}
template <Tensor (*F)(const Tensor&, const Tensor&)>
void binary_(Stack& s) {
  Tensor b = pop_tensor(s);
  Tensor self = pop_tensor(s);
  assign_inplace(self, F(self, b), "inplace");
  push(s, self);
}

void positive(Stack& s) {
  TL_CHECK(s.back().toTensor().dtype() != DType::Bool, TypeError,
           "The `+` operator, on a bool tensor is not supported.");
}

void true_divide_tt(Stack& s) {
  Tensor b = pop_tensor(s);
  push(s, torchlet::div(pop_tensor(s), b));
}
void true_divide_ts(Stack& s) {
  Scalar b = pop_scalar(s);
  push(s, torchlet::div(pop_tensor(s), b));
}
void true_divide_tt_(Stack& s) {
  Tensor b = pop_tensor(s);
  Tensor self = pop_tensor(s);
  torchlet::div_(self, b);
  push(s, self);
}
void true_divide_ts_(Stack& s) {
  Scalar b = pop_scalar(s);
  Tensor self = pop_tensor(s);
  torchlet::div_(self, b);
  push(s, self);
}

Tensor clip_impl(Stack& s, Tensor* self_out) {
  auto max = pop_opt_scalar(s);
  auto min = pop_opt_scalar(s);
  Tensor self = pop_tensor(s);
  if (self_out) *self_out = self;
  TL_CHECK(min || max, ValueError, "torch.clamp: At least one of 'min' or 'max' must not be None");
  return torchlet::clamp(self, min, max);
}
void clip(Stack& s) { push(s, clip_impl(s, nullptr)); }
void clip_(Stack& s) {
  Tensor self;
  Tensor r = clip_impl(s, &self);
  assign_inplace(self, r, "clip_");
  push(s, self);
}

// clamp with tensor bounds: maximum with min, then minimum with max (NaN in any
// operand propagates, dtype is the promotion of all three, as torch's clamp.Tensor).
Tensor clamp_tensor_impl(const Tensor& self, const std::optional<Tensor>& min, const std::optional<Tensor>& max) {
  TL_CHECK(min || max, ValueError, "torch.clamp: At least one of 'min' or 'max' must not be None");
  Tensor r = self;
  if (min) r = torchlet::maximum(r, *min);
  if (max) r = torchlet::minimum(r, *max);
  return r;
}
void clamp_tensor(Stack& s) {
  auto max = pop_opt_tensor(s);
  auto min = pop_opt_tensor(s);
  push(s, clamp_tensor_impl(pop_tensor(s), min, max));
}
void clamp_tensor_(Stack& s) {
  auto max = pop_opt_tensor(s);
  auto min = pop_opt_tensor(s);
  Tensor self = pop_tensor(s);
  assign_inplace(self, clamp_tensor_impl(self, min, max), "clamp_");
  push(s, self);
}
template <bool kMin>
void clamp_bound_tensor(Stack& s) {
  Tensor bound = pop_tensor(s);
  Tensor self = pop_tensor(s);
  push(s, kMin ? clamp_tensor_impl(self, bound, std::nullopt) : clamp_tensor_impl(self, std::nullopt, bound));
}
template <bool kMin>
void clamp_bound_tensor_(Stack& s) {
  Tensor bound = pop_tensor(s);
  Tensor self = pop_tensor(s);
  Tensor r = kMin ? clamp_tensor_impl(self, bound, std::nullopt) : clamp_tensor_impl(self, std::nullopt, bound);
  assign_inplace(self, r, kMin ? "clamp_min_" : "clamp_max_");
  push(s, self);
}

// addcmul: self + value * t1 * t2; addcdiv: self + value * t1 / t2 (true division,
// which torch refuses for integer tensors).
template <bool kDiv>
Tensor addc_impl(Stack& s, Tensor* self_out) {
  Scalar value = pop_scalar(s);
  Tensor t2 = pop_tensor(s);
  Tensor t1 = pop_tensor(s);
  Tensor self = pop_tensor(s);
  if (self_out) *self_out = self;
  if constexpr (kDiv) {
    TL_CHECK(!(is_integral(t1.dtype(), true) && is_integral(t2.dtype(), true)), ValueError,
             "Integer division with addcdiv is no longer supported, and in a future release addcdiv will perform "
             "a true division of tensor1 and tensor2. The historic addcdiv behavior can be implemented as "
             "(input + value * torch.trunc(tensor1 / tensor2)).to(input.dtype) for integer inputs and as "
             "(input + value * tensor1 / tensor2) for float inputs. The future addcdiv behavior is just the "
             "latter implementation: (input + value * tensor1 / tensor2), for all dtypes.");
  }
  Tensor prod = kDiv ? torchlet::div(t1, t2) : torchlet::mul(t1, t2);
  return torchlet::add(self, prod, value);
}
template <bool kDiv>
void addc(Stack& s) { push(s, addc_impl<kDiv>(s, nullptr)); }
template <bool kDiv>
void addc_(Stack& s) {
  Tensor self;
  Tensor r = addc_impl<kDiv>(s, &self);
  assign_inplace(self, r, kDiv ? "addcdiv_" : "addcmul_");
  push(s, self);
}

void dot(Stack& s) {
  Tensor b = pop_tensor(s);
  Tensor a = pop_tensor(s);
  push(s, torchlet::dot(a, b));
}
void mv(Stack& s) {
  Tensor v = pop_tensor(s);
  Tensor m = pop_tensor(s);
  TL_CHECK(m.dim() == 2 && v.dim() == 1, ValueError, "vector + matrix @ vector expected, got 1, {}, {}", m.dim(),
           v.dim());
  push(s, torchlet::matmul(m, v));
}
void outer(Stack& s) {
  Tensor v2 = pop_tensor(s);
  Tensor v1 = pop_tensor(s);
  push(s, torchlet::mul(v1.unsqueeze(1), v2));
}

}  // namespace

static RegisterOps reg({
    {"aten::isnan(Tensor self) -> Tensor", unary<isnan_of>},
    {"aten::isinf(Tensor self) -> Tensor", unary<isinf_impl>},
    {"aten::isfinite(Tensor self) -> Tensor", unary<isfinite_impl>},
    {"aten::square(Tensor self) -> Tensor", unary<square_impl>},
    {"aten::square_(Tensor(a!) self) -> Tensor(a!)", unary_<square_impl>},
    {"aten::frac(Tensor self) -> Tensor", unary<frac_impl>},
    {"aten::frac_(Tensor(a!) self) -> Tensor(a!)", unary_<frac_impl>},
    {"aten::exp2(Tensor self) -> Tensor", unary<exp2_impl>},
    {"aten::exp2_(Tensor(a!) self) -> Tensor(a!)", unary_<exp2_impl>},
    {"aten::sgn(Tensor self) -> Tensor", unary<sgn_impl>},
    {"aten::sgn_(Tensor(a!) self) -> Tensor(a!)", unary_<sgn_impl>},
    {"aten::negative(Tensor self) -> Tensor", unary<negative_impl>},
    {"aten::negative_(Tensor(a!) self) -> Tensor(a!)", unary_<negative_impl>},
    {"aten::positive(Tensor(a) self) -> Tensor(a)", positive},
    {"aten::hypot(Tensor self, Tensor other) -> Tensor", binary<hypot_impl>},
    {"aten::hypot_(Tensor(a!) self, Tensor other) -> Tensor(a!)", binary_<hypot_impl>},
    {"aten::true_divide.Tensor(Tensor self, Tensor other) -> Tensor", true_divide_tt},
    {"aten::true_divide.Scalar(Tensor self, Scalar other) -> Tensor", true_divide_ts},
    {"aten::true_divide_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)", true_divide_tt_},
    {"aten::true_divide_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)", true_divide_ts_},
    {"aten::clip(Tensor self, Scalar? min=None, Scalar? max=None) -> Tensor", clip},
    {"aten::clip.Tensor(Tensor self, Tensor? min=None, Tensor? max=None) -> Tensor", clamp_tensor},
    {"aten::clip_.Tensor(Tensor(a!) self, Tensor? min=None, Tensor? max=None) -> Tensor(a!)", clamp_tensor_},
    {"aten::clamp.Tensor(Tensor self, Tensor? min=None, Tensor? max=None) -> Tensor", clamp_tensor},
    {"aten::clamp_.Tensor(Tensor(a!) self, Tensor? min=None, Tensor? max=None) -> Tensor(a!)", clamp_tensor_},
    {"aten::clamp_min.Tensor(Tensor self, Tensor min) -> Tensor", clamp_bound_tensor<true>},
    {"aten::clamp_min_.Tensor(Tensor(a!) self, Tensor min) -> Tensor(a!)", clamp_bound_tensor_<true>},
    {"aten::clamp_max.Tensor(Tensor self, Tensor max) -> Tensor", clamp_bound_tensor<false>},
    {"aten::clamp_max_.Tensor(Tensor(a!) self, Tensor max) -> Tensor(a!)", clamp_bound_tensor_<false>},
    {"aten::clip_(Tensor(a!) self, Scalar? min=None, Scalar? max=None) -> Tensor(a!)", clip_},
    {"aten::addcmul(Tensor self, Tensor tensor1, Tensor tensor2, *, Scalar value=1) -> Tensor", addc<false>},
    {"aten::addcmul_(Tensor(a!) self, Tensor tensor1, Tensor tensor2, *, Scalar value=1) -> Tensor(a!)", addc_<false>},
    {"aten::addcdiv(Tensor self, Tensor tensor1, Tensor tensor2, *, Scalar value=1) -> Tensor", addc<true>},
    {"aten::addcdiv_(Tensor(a!) self, Tensor tensor1, Tensor tensor2, *, Scalar value=1) -> Tensor(a!)", addc_<true>},
    {"aten::dot(Tensor self, Tensor tensor) -> Tensor", dot},
    {"aten::mv(Tensor self, Tensor vec) -> Tensor", mv},
    {"aten::outer(Tensor self, Tensor vec2) -> Tensor", outer},
});

}  // namespace torchlet::jit::ops

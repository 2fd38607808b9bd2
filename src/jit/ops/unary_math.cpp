// Unary math on tensors: abs, sqrt/rsqrt, square, exp/exp2/expm1, the logarithms, the
// trigonometric and hyperbolic functions and their inverses, sigmoid, erf/erfc/erfinv,
// sinc, rounding (round, also to decimals, trunc, floor, ceil, frac), sign/sgn/signbit,
// positive, clamp/clamp_min/clamp_max/clip, deg2rad/rad2deg, logit, nan_to_num and the
// complex views of real tensors (conj, resolve_conj, resolve_neg, real, imag), with
// their in-place and out= forms, each registered from its kernel (Note [Boxing], Note
// [Elementwise forms]). The out= forms that check the out tensor's dtype as torch does
// for that operator go through into_outs (Note [out= forms]). The int and float
// overloads of these names are builtins_scalar.cpp's.
#include <optional>

#include <torchlet/ops.h>

#include "jit/ops/boxing.h"
#include "jit/ops/elementwise_forms.h"
#include "jit/ops/out_forms.h"

namespace torchlet::jit::ops {
namespace {

using ScalarClamp = Tensor (*)(const Tensor&, const std::optional<Scalar>&, const std::optional<Scalar>&);
using TensorClamp = Tensor (*)(const Tensor&, const std::optional<Tensor>&, const std::optional<Tensor>&);
constexpr auto kRound = static_cast<Tensor (*)(const Tensor&)>(&torchlet::round);
constexpr auto kRoundDecimals = static_cast<Tensor (*)(const Tensor&, int64_t)>(&torchlet::round);

Tensor alias_of_real(const Tensor& self) { return self.alias(); }
Tensor real_of(const Tensor& self) {
  TL_CHECK(!is_complex(self.dtype()), UnsupportedError, "real: complex tensors are not supported");
  return self;
}
Tensor imag_of(const Tensor& self) {
  TL_CHECK(is_complex(self.dtype()), TypeError, "imag is not implemented for tensors with non-complex dtypes.");
  TL_FAIL(UnsupportedError, "imag: complex tensors are not supported");
}

static RegisterOps reg({
    // the unary table (kernels/unary.cpp), and the compositions torch defines beside it
    {"aten::abs(Tensor self) -> Tensor", boxed<&torchlet::abs>},
    {"aten::abs_(Tensor(a!) self) -> Tensor(a!)", writes_self<&torchlet::abs_>},
    {"aten::abs.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", out_variant<&torchlet::abs>},
    {"prim::abs(Tensor x) -> Tensor", boxed<&torchlet::abs>},
    {"aten::sqrt(Tensor self) -> Tensor", boxed<&torchlet::sqrt>},
    {"aten::sqrt_(Tensor(a!) self) -> Tensor(a!)", writes_self<&torchlet::sqrt_>},
    {"aten::sqrt.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", out_variant<&torchlet::sqrt>},
    {"aten::rsqrt(Tensor self) -> Tensor", boxed<&torchlet::rsqrt>},
    {"aten::rsqrt_(Tensor(a!) self) -> Tensor(a!)", writes_self<&torchlet::rsqrt_>},
    {"aten::rsqrt.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", out_variant<&torchlet::rsqrt>},
    {"aten::square(Tensor self) -> Tensor", boxed<&torchlet::square>},
    {"aten::square_(Tensor(a!) self) -> Tensor(a!)", inplace<&torchlet::square>},
    {"aten::square.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::square", 1, found_dtype>},
    {"aten::exp(Tensor self) -> Tensor", boxed<&torchlet::exp>},
    {"aten::exp_(Tensor(a!) self) -> Tensor(a!)", writes_self<&torchlet::exp_>},
    {"aten::exp.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", out_variant<&torchlet::exp>},
    {"aten::exp2(Tensor self) -> Tensor", boxed<&torchlet::exp2>},
    {"aten::exp2_(Tensor(a!) self) -> Tensor(a!)", inplace<&torchlet::exp2>},
    {"aten::exp2.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::exp2", 1, castable>},
    {"aten::expm1(Tensor self) -> Tensor", boxed<&torchlet::expm1>},
    {"aten::expm1_(Tensor(a!) self) -> Tensor(a!)", writes_self<&torchlet::expm1_>},
    {"aten::expm1.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", out_variant<&torchlet::expm1>},
    {"aten::log(Tensor self) -> Tensor", boxed<&torchlet::log>},
    {"aten::log_(Tensor(a!) self) -> Tensor(a!)", writes_self<&torchlet::log_>},
    {"aten::log.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", out_variant<&torchlet::log>},
    {"aten::log2(Tensor self) -> Tensor", boxed<&torchlet::log2>},
    {"aten::log2_(Tensor(a!) self) -> Tensor(a!)", writes_self<&torchlet::log2_>},
    {"aten::log2.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", out_variant<&torchlet::log2>},
    {"aten::log10(Tensor self) -> Tensor", boxed<&torchlet::log10>},
    {"aten::log10_(Tensor(a!) self) -> Tensor(a!)", writes_self<&torchlet::log10_>},
    {"aten::log10.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", out_variant<&torchlet::log10>},
    {"aten::log1p(Tensor self) -> Tensor", boxed<&torchlet::log1p>},
    {"aten::log1p_(Tensor(a!) self) -> Tensor(a!)", writes_self<&torchlet::log1p_>},
    {"aten::log1p.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", out_variant<&torchlet::log1p>},
    {"aten::sin(Tensor self) -> Tensor", boxed<&torchlet::sin>},
    {"aten::sin_(Tensor(a!) self) -> Tensor(a!)", writes_self<&torchlet::sin_>},
    {"aten::sin.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", out_variant<&torchlet::sin>},
    {"aten::cos(Tensor self) -> Tensor", boxed<&torchlet::cos>},
    {"aten::cos_(Tensor(a!) self) -> Tensor(a!)", writes_self<&torchlet::cos_>},
    {"aten::cos.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", out_variant<&torchlet::cos>},
    {"aten::tan(Tensor self) -> Tensor", boxed<&torchlet::tan>},
    {"aten::tan_(Tensor(a!) self) -> Tensor(a!)", writes_self<&torchlet::tan_>},
    {"aten::tan.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", out_variant<&torchlet::tan>},
    {"aten::asin(Tensor self) -> Tensor", boxed<&torchlet::asin>},
    {"aten::asin_(Tensor(a!) self) -> Tensor(a!)", writes_self<&torchlet::asin_>},
    {"aten::asin.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", out_variant<&torchlet::asin>},
    {"aten::acos(Tensor self) -> Tensor", boxed<&torchlet::acos>},
    {"aten::acos_(Tensor(a!) self) -> Tensor(a!)", writes_self<&torchlet::acos_>},
    {"aten::acos.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", out_variant<&torchlet::acos>},
    {"aten::atan(Tensor self) -> Tensor", boxed<&torchlet::atan>},
    {"aten::atan_(Tensor(a!) self) -> Tensor(a!)", writes_self<&torchlet::atan_>},
    {"aten::atan.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", out_variant<&torchlet::atan>},
    {"aten::sinh(Tensor self) -> Tensor", boxed<&torchlet::sinh>},
    {"aten::sinh_(Tensor(a!) self) -> Tensor(a!)", writes_self<&torchlet::sinh_>},
    {"aten::sinh.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", out_variant<&torchlet::sinh>},
    {"aten::cosh(Tensor self) -> Tensor", boxed<&torchlet::cosh>},
    {"aten::cosh_(Tensor(a!) self) -> Tensor(a!)", writes_self<&torchlet::cosh_>},
    {"aten::cosh.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", out_variant<&torchlet::cosh>},
    {"aten::tanh(Tensor self) -> Tensor", boxed<&torchlet::tanh>},
    {"aten::tanh_(Tensor(a!) self) -> Tensor(a!)", writes_self<&torchlet::tanh_>},
    {"aten::tanh.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", out_variant<&torchlet::tanh>},
    {"aten::asinh(Tensor self) -> Tensor", boxed<&torchlet::asinh>},
    {"aten::asinh_(Tensor(a!) self) -> Tensor(a!)", writes_self<&torchlet::asinh_>},
    {"aten::asinh.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", out_variant<&torchlet::asinh>},
    {"aten::acosh(Tensor self) -> Tensor", boxed<&torchlet::acosh>},
    {"aten::acosh_(Tensor(a!) self) -> Tensor(a!)", writes_self<&torchlet::acosh_>},
    {"aten::acosh.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", out_variant<&torchlet::acosh>},
    {"aten::atanh(Tensor self) -> Tensor", boxed<&torchlet::atanh>},
    {"aten::atanh_(Tensor(a!) self) -> Tensor(a!)", writes_self<&torchlet::atanh_>},
    {"aten::atanh.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", out_variant<&torchlet::atanh>},
    {"aten::sigmoid(Tensor self) -> Tensor", boxed<&torchlet::sigmoid>},
    {"aten::sigmoid_(Tensor(a!) self) -> Tensor(a!)", writes_self<&torchlet::sigmoid_>},
    {"aten::sigmoid.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", out_variant<&torchlet::sigmoid>},
    {"aten::erf(Tensor self) -> Tensor", boxed<&torchlet::erf>},
    {"aten::erf_(Tensor(a!) self) -> Tensor(a!)", writes_self<&torchlet::erf_>},
    {"aten::erf.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", out_variant<&torchlet::erf>},
    {"aten::erfc(Tensor self) -> Tensor", boxed<&torchlet::erfc>},
    {"aten::erfc_(Tensor(a!) self) -> Tensor(a!)", writes_self<&torchlet::erfc_>},
    {"aten::erfc.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", out_variant<&torchlet::erfc>},
    {"aten::erfinv(Tensor self) -> Tensor", boxed<&torchlet::erfinv>},
    {"aten::erfinv_(Tensor(a!) self) -> Tensor(a!)", writes_self<&torchlet::erfinv_>},
    {"aten::erfinv.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", out_variant<&torchlet::erfinv>},
    {"aten::sinc(Tensor self) -> Tensor", boxed<&torchlet::sinc>},
    {"aten::sinc_(Tensor(a!) self) -> Tensor(a!)", writes_self<&torchlet::sinc_>},
    {"aten::sinc.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", out_variant<&torchlet::sinc>},
    {"aten::round.decimals(Tensor self, *, int decimals) -> Tensor", boxed<kRoundDecimals>},
    {"aten::round_.decimals(Tensor(a!) self, *, int decimals) -> Tensor(a!)", inplace<kRoundDecimals>},
    {"aten::round(Tensor self) -> Tensor", boxed<kRound>},
    {"aten::round_(Tensor(a!) self) -> Tensor(a!)", writes_self<&torchlet::round_>},
    {"aten::round.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", out_variant<kRound>},
    {"aten::round.decimals_out(Tensor self, *, int decimals, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::round.decimals", 1, found_dtype>},
    {"aten::trunc(Tensor self) -> Tensor", boxed<&torchlet::trunc>},
    {"aten::trunc_(Tensor(a!) self) -> Tensor(a!)", writes_self<&torchlet::trunc_>},
    {"aten::trunc.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", out_variant<&torchlet::trunc>},
    {"aten::floor(Tensor self) -> Tensor", boxed<&torchlet::floor>},
    {"aten::floor_(Tensor(a!) self) -> Tensor(a!)", writes_self<&torchlet::floor_>},
    {"aten::floor.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", out_variant<&torchlet::floor>},
    {"aten::ceil(Tensor self) -> Tensor", boxed<&torchlet::ceil>},
    {"aten::ceil_(Tensor(a!) self) -> Tensor(a!)", writes_self<&torchlet::ceil_>},
    {"aten::ceil.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", out_variant<&torchlet::ceil>},
    {"aten::frac(Tensor self) -> Tensor", boxed<&torchlet::frac>},
    {"aten::frac_(Tensor(a!) self) -> Tensor(a!)", inplace<&torchlet::frac>},
    {"aten::frac.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::frac", 1, found_dtype>},
    {"aten::sign(Tensor self) -> Tensor", boxed<&torchlet::sign>},
    {"aten::sign_(Tensor(a!) self) -> Tensor(a!)", writes_self<&torchlet::sign_>},
    {"aten::sign.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", out_variant<&torchlet::sign>},
    {"aten::sgn(Tensor self) -> Tensor", boxed<&torchlet::sgn>},
    {"aten::sgn_(Tensor(a!) self) -> Tensor(a!)", inplace<&torchlet::sgn>},
    {"aten::sgn.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::sgn", 1, found_dtype>},
    {"aten::signbit(Tensor self) -> Tensor", boxed<&torchlet::signbit>},
    {"aten::signbit.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", out_variant<&torchlet::signbit>},
    {"aten::positive(Tensor(a) self) -> Tensor(a)", boxed<&torchlet::positive>},
    // clamp with Scalar bounds (the kernel) or tensor ones (maximum, then minimum), and clip,
    // its alias
    {"aten::clamp.Tensor(Tensor self, Tensor? min=None, Tensor? max=None) -> Tensor", boxed<static_cast<TensorClamp>(&torchlet::clamp)>},
    {"aten::clamp_.Tensor(Tensor(a!) self, Tensor? min=None, Tensor? max=None) -> Tensor(a!)", inplace<static_cast<TensorClamp>(&torchlet::clamp)>},
    {"aten::clamp(Tensor self, Scalar? min=None, Scalar? max=None) -> Tensor", boxed<static_cast<ScalarClamp>(&torchlet::clamp)>},
    {"aten::clamp_(Tensor(a!) self, Scalar? min=None, Scalar? max=None) -> Tensor(a!)", inplace<static_cast<ScalarClamp>(&torchlet::clamp)>},
    {"aten::clamp.out(Tensor self, Scalar? min=None, Scalar? max=None, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::clamp", 1, found_dtype>},
    {"aten::clamp.Tensor_out(Tensor self, Tensor? min=None, Tensor? max=None, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::clamp.Tensor", 1, castable>},
    {"aten::clamp_min.Tensor(Tensor self, Tensor min) -> Tensor", boxed<tt(&torchlet::clamp_min)>},
    {"aten::clamp_min_.Tensor(Tensor(a!) self, Tensor min) -> Tensor(a!)", inplace<tt(&torchlet::clamp_min)>},
    {"aten::clamp_min(Tensor self, Scalar min) -> Tensor", boxed<ts(&torchlet::clamp_min)>},
    {"aten::clamp_min_(Tensor(a!) self, Scalar min) -> Tensor(a!)", inplace<ts(&torchlet::clamp_min)>},
    {"aten::clamp_min.out(Tensor self, Scalar min, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::clamp_min", 1, found_dtype>},
    {"aten::clamp_min.Tensor_out(Tensor self, Tensor min, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::clamp_min.Tensor", 1, castable>},
    {"aten::clamp_max.Tensor(Tensor self, Tensor max) -> Tensor", boxed<tt(&torchlet::clamp_max)>},
    {"aten::clamp_max_.Tensor(Tensor(a!) self, Tensor max) -> Tensor(a!)", inplace<tt(&torchlet::clamp_max)>},
    {"aten::clamp_max(Tensor self, Scalar max) -> Tensor", boxed<ts(&torchlet::clamp_max)>},
    {"aten::clamp_max_(Tensor(a!) self, Scalar max) -> Tensor(a!)", inplace<ts(&torchlet::clamp_max)>},
    {"aten::clamp_max.out(Tensor self, Scalar max, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::clamp_max", 1, found_dtype>},
    {"aten::clamp_max.Tensor_out(Tensor self, Tensor max, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::clamp_max.Tensor", 1, castable>},
    {"aten::clip(Tensor self, Scalar? min=None, Scalar? max=None) -> Tensor", boxed<static_cast<ScalarClamp>(&torchlet::clamp)>},
    {"aten::clip.Tensor(Tensor self, Tensor? min=None, Tensor? max=None) -> Tensor", boxed<static_cast<TensorClamp>(&torchlet::clamp)>},
    {"aten::clip_.Tensor(Tensor(a!) self, Tensor? min=None, Tensor? max=None) -> Tensor(a!)", inplace<static_cast<TensorClamp>(&torchlet::clamp)>},
    {"aten::clip_(Tensor(a!) self, Scalar? min=None, Scalar? max=None) -> Tensor(a!)", inplace<static_cast<ScalarClamp>(&torchlet::clamp)>},
    {"aten::clip.Tensor_out(Tensor self, Tensor? min=None, Tensor? max=None, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::clip.Tensor", 1, castable>},
    {"aten::clip.out(Tensor self, Scalar? min=None, Scalar? max=None, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::clip", 1, found_dtype>},
    {"aten::deg2rad(Tensor self) -> Tensor", boxed<&torchlet::deg2rad>},
    {"aten::deg2rad_(Tensor(a!) self) -> Tensor(a!)", writes_self<&torchlet::deg2rad_>},
    {"aten::deg2rad.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::deg2rad", 1, castable>},
    {"aten::rad2deg(Tensor self) -> Tensor", boxed<&torchlet::rad2deg>},
    {"aten::rad2deg_(Tensor(a!) self) -> Tensor(a!)", writes_self<&torchlet::rad2deg_>},
    {"aten::rad2deg.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::rad2deg", 1, castable>},
    {"aten::logit(Tensor self, float? eps=None) -> Tensor", boxed<&torchlet::logit>},
    {"aten::logit_(Tensor(a!) self, float? eps=None) -> Tensor(a!)", inplace<&torchlet::logit>},
    {"aten::logit.out(Tensor self, float? eps=None, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::logit", 1, castable>},
    {"aten::nan_to_num(Tensor self, float? nan=None, float? posinf=None, float? neginf=None) -> Tensor", boxed<&torchlet::nan_to_num>},
    {"aten::nan_to_num_(Tensor(a!) self, float? nan=None, float? posinf=None, float? neginf=None) -> Tensor(a!)", inplace<&torchlet::nan_to_num>},
    {"aten::nan_to_num.out(Tensor self, float? nan=None, float? posinf=None, float? neginf=None, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::nan_to_num", 1, nan_to_num_check>},
    // torchlet's tensors are real: conjugation is the identity, imag has nothing to give
    {"aten::conj(Tensor(a) self) -> Tensor(a)", boxed<&alias_of_real>},
    {"aten::resolve_conj(Tensor(a) self) -> Tensor(a)", boxed<&alias_of_real>},
    {"aten::resolve_neg(Tensor(a) self) -> Tensor(a)", boxed<&alias_of_real>},
    {"aten::real(Tensor(a) self) -> Tensor(a)", boxed<&real_of>},
    {"aten::imag(Tensor(a) self) -> Tensor(a)", boxed<&imag_of>},
});

}  // namespace
}  // namespace torchlet::jit::ops

// Arithmetic operators on tensors: mul, add/sub/rsub with alpha, div with its rounding
// modes, true_divide, floor_divide, remainder, fmod, pow, float_power, gcd/lcm,
// neg/negative, reciprocal, addcmul/addcdiv, lerp, hypot, logaddexp(2), xlogy,
// atan2/arctan2, copysign, heaviside, ldexp, nextafter and frexp, with every functional,
// in-place, out= and Scalar form torch has, each registered from its kernel (Note
// [Boxing], Note [Elementwise forms]). The out= forms that check the out tensor's dtype
// as torch does for that operator go through into_outs (Note [out= forms]). Each name's
// TorchScript overloads on other values follow its tensor rows, the order they register
// in (docs/operators.md): numbers (add.int, pow.float_int, neg.Scalar, math.gcd,
// math.ldexp, ...; boxed_inline, kernels in scalar_builtins.h), lists (l + l, l * n,
// l += l, l *= n; list_builtins.h) and add.str (str_builtins.h).
#include <optional>
#include <string>
#include <string_view>
#include <tuple>

#include <torchlet/ops.h>

#include "jit/ops/boxing.h"
#include "jit/ops/elementwise_forms.h"
#include "jit/ops/list_builtins.h"
#include "jit/ops/out_forms.h"
#include "jit/ops/scalar_builtins.h"
#include "jit/ops/str_builtins.h"

namespace torchlet::jit::ops {
namespace {

using AlphaTensorKernel = Tensor (*)(const Tensor&, const Tensor&, const Scalar&);
using AlphaScalarKernel = Tensor (*)(const Tensor&, const Scalar&, const Scalar&);
using AlphaTensorInPlace = Tensor& (*)(Tensor&, const Tensor&, const Scalar&);
using AlphaScalarInPlace = Tensor& (*)(Tensor&, const Scalar&, const Scalar&);
constexpr AlphaTensorKernel tta(AlphaTensorKernel f) { return f; }
constexpr AlphaScalarKernel tsa(AlphaScalarKernel f) { return f; }
constexpr AlphaTensorInPlace tta_(AlphaTensorInPlace f) { return f; }
constexpr AlphaScalarInPlace tsa_(AlphaScalarInPlace f) { return f; }
using LerpScalar = Tensor (*)(const Tensor&, const Tensor&, const Scalar&);
using LerpTensor = Tensor (*)(const Tensor&, const Tensor&, const Tensor&);

// add.Tensor over a dying self whose shape and dtype the sum keeps (the residual
// connections: `x + self.conv(x)`) adds in place; add_ runs the same kernel. self is
// the stack's reference, moved here (Note [Reusing a dying input]).
Tensor add_reusing_self(Tensor self, const Tensor& other, const Scalar& alpha) {
  if (is_dying(self) && result_type(self, other) == self.dtype() &&
      broadcast_shapes(self.sizes(), other.sizes()) == self.sizes().vec()) {
    torchlet::add_(self, other, alpha);
    return self;
  }
  return torchlet::add(self, other, alpha);
}

// div and true_divide: the kernel's rounding mode is a string_view.
std::optional<std::string_view> rounding(const std::optional<std::string>& mode) {
  return mode ? std::optional<std::string_view>(*mode) : std::nullopt;
}
template <typename Other>
Tensor divide(const Tensor& self, const Other& other) {
  return torchlet::div(self, other);
}
template <typename Other>
Tensor divide_rounding(const Tensor& self, const Other& other, const std::optional<std::string>& rounding_mode) {
  return torchlet::div(self, other, rounding(rounding_mode));
}
template <typename Other>
Tensor divide_(Tensor self, const Other& other) {
  torchlet::div_(self, other);
  return self;
}
template <typename Other>
Tensor divide_rounding_(Tensor self, const Other& other, const std::optional<std::string>& rounding_mode) {
  torchlet::div_(self, other, rounding(rounding_mode));
  return self;
}

// frexp.Tensor_out checks both outs' dtypes before it computes, with torch's messages.
std::tuple<Tensor, Tensor> frexp_into(const Tensor& self, Tensor mantissa, Tensor exponent) {
  TL_CHECK(is_floating(self.dtype()), TypeError, "torch.frexp() only supports floating-point dtypes");
  TL_CHECK(mantissa.dtype() == self.dtype(), TypeError, "torch.frexp() expects mantissa to have dtype {} but got {}",
           type_meta_name(self.dtype()), type_meta_name(mantissa.dtype()));
  TL_CHECK(exponent.dtype() == DType::Int, TypeError, "torch.frexp() expects exponent to have int dtype but got {}",
           type_meta_name(exponent.dtype()));
  auto [m, e] = torchlet::frexp(self);
  assign_out(mantissa, m, "frexp");
  assign_out(exponent, e, "frexp");
  return {mantissa, exponent};
}

static RegisterOps reg({
    {"aten::mul.Tensor(Tensor self, Tensor other) -> Tensor", boxed<tt(&torchlet::mul)>},
    {"aten::mul.Scalar(Tensor self, Scalar other) -> Tensor", boxed<ts(&torchlet::mul)>},
    {"aten::mul_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)", writes_self<tt_(&torchlet::mul_)>},
    {"aten::mul_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)", writes_self<ts_(&torchlet::mul_)>},
    {"aten::mul.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", out_variant<tt(&torchlet::mul)>},
    {"aten::mul.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)", out_unchecked<ts(&torchlet::mul)>},
    {"aten::mul.left_t(t[] l, int n) -> t[]", boxed<&list_repeat>},
    {"aten::mul.right_(int n, t[] l) -> t[]", boxed<&list_repeat_right>},
    {"aten::mul(Scalar a, Scalar b) -> Scalar", boxed_inline<&binary_scalar<Mul>>},
    {"aten::mul.complex(complex a, complex b) -> complex", boxed_inline<&binary<Mul, Complex, Complex>>},
    {"aten::mul.complex_float(complex a, float b) -> complex", boxed_inline<&binary<Mul, Complex, double>>},
    {"aten::mul.complex_int(complex a, int b) -> complex", boxed_inline<&binary<Mul, Complex, int64_t>>},
    {"aten::mul.float(float a, float b) -> float", boxed_inline<&binary<Mul, double, double>>},
    {"aten::mul.float_complex(float a, complex b) -> complex", boxed_inline<&binary<Mul, double, Complex>>},
    {"aten::mul.float_int(float a, int b) -> float", boxed_inline<&binary<Mul, double, int64_t>>},
    {"aten::mul.int(int a, int b) -> int", boxed_inline<&binary<Mul, int64_t, int64_t>>},
    {"aten::mul.int_complex(int a, complex b) -> complex", boxed_inline<&binary<Mul, int64_t, Complex>>},
    {"aten::mul.int_float(int a, float b) -> float", boxed_inline<&binary<Mul, int64_t, double>>},
    {"aten::mul_.t(t[](a!) l, int n) -> t[](a!)", boxed<&list_repeat_inplace>},
    // add / sub / rsub: alpha scales other; the Scalar_out forms are generated (no cast check).
    {"aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor", boxed<&add_reusing_self>},
    {"aten::add.Scalar(Tensor self, Scalar other, Scalar alpha=1) -> Tensor", boxed<tsa(&torchlet::add)>},
    {"aten::add_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!)", writes_self<tta_(&torchlet::add_)>},
    {"aten::add_.Scalar(Tensor(a!) self, Scalar other, Scalar alpha=1) -> Tensor(a!)", writes_self<tsa_(&torchlet::add_)>},
    {"aten::add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)", out_variant<tta(&torchlet::add)>},
    {"aten::add.Scalar_out(Tensor self, Scalar other, Scalar alpha=1, *, Tensor(a!) out) -> Tensor(a!)", out_unchecked<tsa(&torchlet::add)>},
    {"aten::add.t(t[] a, t[] b) -> t[]", boxed<&list_concat>},
    {"aten::add(Scalar a, Scalar b) -> Scalar", boxed_inline<&binary_scalar<Add>>},
    {"aten::add.complex(complex a, complex b) -> complex", boxed_inline<&binary<Add, Complex, Complex>>},
    {"aten::add.complex_float(complex a, float b) -> complex", boxed_inline<&binary<Add, Complex, double>>},
    {"aten::add.complex_int(complex a, int b) -> complex", boxed_inline<&binary<Add, Complex, int64_t>>},
    {"aten::add.float(float a, float b) -> float", boxed_inline<&binary<Add, double, double>>},
    {"aten::add.float_complex(float a, complex b) -> complex", boxed_inline<&binary<Add, double, Complex>>},
    {"aten::add.float_int(float a, int b) -> float", boxed_inline<&binary<Add, double, int64_t>>},
    {"aten::add.int(int a, int b) -> int", boxed_inline<&binary<Add, int64_t, int64_t>>},
    {"aten::add.int_complex(int a, complex b) -> complex", boxed_inline<&binary<Add, int64_t, Complex>>},
    {"aten::add.int_float(int a, float b) -> float", boxed_inline<&binary<Add, int64_t, double>>},
    {"aten::add.str(str a, str b) -> str", boxed<&str_concat>},
    {"aten::add_.t(t[](a!) self, t[] b) -> t[]", boxed<&list_extend_inplace>},
    {"aten::sub.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor", boxed<tta(&torchlet::sub)>},
    {"aten::sub.Scalar(Tensor self, Scalar other, Scalar alpha=1) -> Tensor", boxed<tsa(&torchlet::sub)>},
    {"aten::sub_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!)", writes_self<tta_(&torchlet::sub_)>},
    {"aten::sub_.Scalar(Tensor(a!) self, Scalar other, Scalar alpha=1) -> Tensor(a!)", writes_self<tsa_(&torchlet::sub_)>},
    {"aten::sub.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)", out_variant<tta(&torchlet::sub)>},
    {"aten::sub.Scalar_out(Tensor self, Scalar other, Scalar alpha=1, *, Tensor(a!) out) -> Tensor(a!)", out_unchecked<tsa(&torchlet::sub)>},
    {"aten::sub(Scalar a, Scalar b) -> Scalar", boxed_inline<&binary_scalar<Sub>>},
    {"aten::sub.complex(complex a, complex b) -> complex", boxed_inline<&binary<Sub, Complex, Complex>>},
    {"aten::sub.complex_float(complex a, float b) -> complex", boxed_inline<&binary<Sub, Complex, double>>},
    {"aten::sub.complex_int(complex a, int b) -> complex", boxed_inline<&binary<Sub, Complex, int64_t>>},
    {"aten::sub.float(float a, float b) -> float", boxed_inline<&binary<Sub, double, double>>},
    {"aten::sub.float_complex(float a, complex b) -> complex", boxed_inline<&binary<Sub, double, Complex>>},
    {"aten::sub.float_int(float a, int b) -> float", boxed_inline<&binary<Sub, double, int64_t>>},
    {"aten::sub.int(int a, int b) -> int", boxed_inline<&binary<Sub, int64_t, int64_t>>},
    {"aten::sub.int_complex(int a, complex b) -> complex", boxed_inline<&binary<Sub, int64_t, Complex>>},
    {"aten::sub.int_float(int a, float b) -> float", boxed_inline<&binary<Sub, int64_t, double>>},
    {"aten::rsub.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor", boxed<tta(&torchlet::rsub)>},
    {"aten::rsub.Scalar(Tensor self, Scalar other, Scalar alpha=1) -> Tensor", boxed<tsa(&torchlet::rsub)>},
    {"aten::rsub.Tensor_out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)", out_variant<tta(&torchlet::rsub)>},
    {"aten::rsub.Scalar_out(Tensor self, Scalar other, Scalar alpha=1, *, Tensor(a!) out) -> Tensor(a!)", out_unchecked<tsa(&torchlet::rsub)>},
    // div: true division, or rounding_mode "trunc" / "floor".
    {"aten::div.Tensor(Tensor self, Tensor other) -> Tensor", boxed<&divide<Tensor>>},
    {"aten::div.Scalar(Tensor self, Scalar other) -> Tensor", boxed<&divide<Scalar>>},
    {"aten::div.Tensor_mode(Tensor self, Tensor other, *, str? rounding_mode) -> Tensor", boxed<&divide_rounding<Tensor>>},
    {"aten::div.Scalar_mode(Tensor self, Scalar other, *, str? rounding_mode) -> Tensor", boxed<&divide_rounding<Scalar>>},
    {"aten::div.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", out_variant<&divide<Tensor>>},
    {"aten::div.out_mode(Tensor self, Tensor other, *, str? rounding_mode, Tensor(a!) out) -> Tensor(a!)", out_variant<&divide_rounding<Tensor>>},
    {"aten::div.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)", out_unchecked<&divide<Scalar>>},
    {"aten::div.Scalar_mode_out(Tensor self, Scalar other, *, str? rounding_mode, Tensor(a!) out) -> Tensor(a!)", out_unchecked<&divide_rounding<Scalar>>},
    {"aten::div_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)", boxed<&divide_<Tensor>>},
    {"aten::div_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)", boxed<&divide_<Scalar>>},
    {"aten::div_.Tensor_mode(Tensor(a!) self, Tensor other, *, str? rounding_mode) -> Tensor(a!)", boxed<&divide_rounding_<Tensor>>},
    {"aten::div_.Scalar_mode(Tensor(a!) self, Scalar other, *, str? rounding_mode) -> Tensor(a!)", boxed<&divide_rounding_<Scalar>>},
    {"aten::div(Scalar a, Scalar b) -> float", boxed_inline<&binary_scalar<Div>>},
    {"aten::div.complex(complex a, complex b) -> complex", boxed_inline<&binary<Div, Complex, Complex>>},
    {"aten::div.float(float a, float b) -> float", boxed_inline<&binary<Div, double, double>>},
    {"aten::div.int(int a, int b) -> float", boxed_inline<&binary<Div, int64_t, int64_t>>},
    {"aten::true_divide.Tensor(Tensor self, Tensor other) -> Tensor", boxed<&divide<Tensor>>},
    {"aten::true_divide.Scalar(Tensor self, Scalar other) -> Tensor", boxed<&divide<Scalar>>},
    {"aten::true_divide_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)", boxed<&divide_<Tensor>>},
    {"aten::true_divide_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)", boxed<&divide_<Scalar>>},
    {"aten::true_divide.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::true_divide.Tensor", 1, castable>},
    // the rest of the binary table
    {"aten::floor_divide(Tensor self, Tensor other) -> Tensor", boxed<tt(&torchlet::floor_divide)>},
    {"aten::floor_divide.Scalar(Tensor self, Scalar other) -> Tensor", boxed<ts(&torchlet::floor_divide)>},
    {"aten::floor_divide_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)", writes_self<tt_(&torchlet::floor_divide_)>},
    {"aten::floor_divide_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)", writes_self<ts_(&torchlet::floor_divide_)>},
    {"aten::floor_divide.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", out_variant<tt(&torchlet::floor_divide)>},
    {"aten::remainder.Tensor(Tensor self, Tensor other) -> Tensor", boxed<tt(&torchlet::remainder)>},
    {"aten::remainder.Scalar(Tensor self, Scalar other) -> Tensor", boxed<ts(&torchlet::remainder)>},
    {"aten::remainder.Scalar_Tensor(Scalar self, Tensor other) -> Tensor", boxed<&scalar_first<tt(&torchlet::remainder)>>},
    {"aten::remainder_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)", writes_self<tt_(&torchlet::remainder_)>},
    {"aten::remainder_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)", writes_self<ts_(&torchlet::remainder_)>},
    {"aten::remainder.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", out_variant<tt(&torchlet::remainder)>},
    {"aten::remainder.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)", out_variant<ts(&torchlet::remainder)>},
    {"aten::remainder.Scalar_Tensor_out(Scalar self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", out_unchecked<&scalar_first<tt(&torchlet::remainder)>>},
    {"aten::remainder(Scalar a, Scalar b) -> Scalar", boxed_inline<&binary_scalar<Remainder>>},
    {"aten::remainder.float(float a, float b) -> float", boxed_inline<&binary<Remainder, double, double>>},
    {"aten::remainder.float_int(float a, int b) -> float", boxed_inline<&binary<Remainder, double, int64_t>>},
    {"aten::remainder.int(int a, int b) -> int", boxed_inline<&binary<Remainder, int64_t, int64_t>>},
    {"aten::remainder.int_float(int a, float b) -> float", boxed_inline<&binary<Remainder, int64_t, double>>},
    {"aten::fmod.Tensor(Tensor self, Tensor other) -> Tensor", boxed<tt(&torchlet::fmod)>},
    {"aten::fmod.Scalar(Tensor self, Scalar other) -> Tensor", boxed<ts(&torchlet::fmod)>},
    {"aten::fmod_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)", writes_self<tt_(&torchlet::fmod_)>},
    {"aten::fmod_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)", writes_self<ts_(&torchlet::fmod_)>},
    {"aten::fmod.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", out_variant<tt(&torchlet::fmod)>},
    {"aten::fmod.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)", out_variant<ts(&torchlet::fmod)>},
    {"aten::fmod(Scalar a, Scalar b) -> float", boxed_inline<&binary_scalar<FMod>>},
    {"aten::fmod.float(float a, float b) -> float", boxed_inline<&binary<FMod, double, double>>},
    {"aten::fmod.float_int(float a, int b) -> float", boxed_inline<&binary<FMod, double, int64_t>>},
    {"aten::fmod.int(int a, int b) -> float", boxed_inline<&binary<FMod, int64_t, int64_t>>},
    {"aten::fmod.int_float(int a, float b) -> float", boxed_inline<&binary<FMod, int64_t, double>>},
    {"aten::pow.Tensor_Tensor(Tensor self, Tensor exponent) -> Tensor", boxed<tt(&torchlet::pow)>},
    {"aten::pow.Tensor_Scalar(Tensor self, Scalar exponent) -> Tensor", boxed<ts(&torchlet::pow)>},
    {"aten::pow.Scalar(Scalar self, Tensor exponent) -> Tensor", boxed<&scalar_first<tt(&torchlet::pow)>>},
    {"aten::pow_.Tensor(Tensor(a!) self, Tensor exponent) -> Tensor(a!)", writes_self<tt_(&torchlet::pow_)>},
    {"aten::pow_.Scalar(Tensor(a!) self, Scalar exponent) -> Tensor(a!)", writes_self<ts_(&torchlet::pow_)>},
    {"aten::pow.Tensor_Tensor_out(Tensor self, Tensor exponent, *, Tensor(a!) out) -> Tensor(a!)", out_variant<tt(&torchlet::pow)>},
    {"aten::pow.Tensor_Scalar_out(Tensor self, Scalar exponent, *, Tensor(a!) out) -> Tensor(a!)", out_variant<ts(&torchlet::pow)>},
    {"aten::pow.Scalar_out(Scalar self, Tensor exponent, *, Tensor(a!) out) -> Tensor(a!)", out_variant<&scalar_first<tt(&torchlet::pow)>>},
    {"aten::pow.Scalar_Scalar(Scalar a, Scalar b) -> float", boxed_inline<&binary_scalar<Pow>>},
    {"aten::pow.complex(complex a, complex b) -> complex", boxed_inline<&binary<Pow, Complex, Complex>>},
    {"aten::pow.complex_float(complex a, float b) -> complex", boxed_inline<&binary<Pow, Complex, double>>},
    {"aten::pow.float(float a, float b) -> float", boxed_inline<&binary<Pow, double, double>>},
    {"aten::pow.float_complex(float a, complex b) -> complex", boxed_inline<&binary<Pow, double, Complex>>},
    {"aten::pow.float_int(float a, int b) -> float", boxed_inline<&binary<Pow, double, int64_t>>},
    {"aten::pow.int(int a, int b) -> float", boxed_inline<&binary<Pow, int64_t, int64_t>>},
    {"aten::pow.int_float(int a, float b) -> float", boxed_inline<&binary<Pow, int64_t, double>>},
    {"aten::pow.int_to_int(int a, int b) -> int", boxed_inline<&pow_int_to_int>},
    {"aten::float_power.Tensor_Tensor(Tensor self, Tensor exponent) -> Tensor", boxed<tt(&torchlet::float_power)>},
    {"aten::float_power.Tensor_Scalar(Tensor self, Scalar exponent) -> Tensor", boxed<ts(&torchlet::float_power)>},
    {"aten::float_power.Scalar(Scalar self, Tensor exponent) -> Tensor", boxed<st(&torchlet::float_power)>},
    {"aten::float_power_.Tensor(Tensor(a!) self, Tensor exponent) -> Tensor(a!)", writes_self<tt_(&torchlet::float_power_)>},
    {"aten::float_power_.Scalar(Tensor(a!) self, Scalar exponent) -> Tensor(a!)", writes_self<ts_(&torchlet::float_power_)>},
    {"aten::float_power.Tensor_Tensor_out(Tensor self, Tensor exponent, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::float_power.Tensor_Tensor", 1, float_power_check>},
    {"aten::float_power.Tensor_Scalar_out(Tensor self, Scalar exponent, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::float_power.Tensor_Scalar", 1, float_power_check>},
    {"aten::float_power.Scalar_out(Scalar self, Tensor exponent, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::float_power.Scalar", 1, float_power_check>},
    {"aten::gcd(Tensor self, Tensor other) -> Tensor", boxed<tt(&torchlet::gcd)>},
    {"aten::gcd_(Tensor(a!) self, Tensor other) -> Tensor(a!)", writes_self<tt_(&torchlet::gcd_)>},
    {"aten::gcd.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", out_variant<tt(&torchlet::gcd)>},
    {"aten::gcd.int(int a, int b) -> int", boxed_inline<&int_gcd>},
    {"aten::lcm(Tensor self, Tensor other) -> Tensor", boxed<tt(&torchlet::lcm)>},
    {"aten::lcm_(Tensor(a!) self, Tensor other) -> Tensor(a!)", writes_self<tt_(&torchlet::lcm_)>},
    {"aten::lcm.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", out_variant<tt(&torchlet::lcm)>},
    // negation and reciprocal: the unary table, negative (torch's alias, composed in place)
    {"aten::neg(Tensor self) -> Tensor", boxed<&torchlet::neg>},
    {"aten::neg_(Tensor(a!) self) -> Tensor(a!)", writes_self<&torchlet::neg_>},
    {"aten::neg.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", out_variant<&torchlet::neg>},
    {"aten::neg.Scalar(Scalar a) -> Scalar", boxed_inline<&neg_scalar>},
    {"aten::neg.complex(complex a) -> complex", boxed_inline<&neg<Complex>>},
    {"aten::neg.float(float a) -> float", boxed_inline<&neg<double>>},
    {"aten::neg.int(int a) -> int", boxed_inline<&neg<int64_t>>},
    {"aten::negative(Tensor self) -> Tensor", boxed<&torchlet::neg>},
    {"aten::negative_(Tensor(a!) self) -> Tensor(a!)", inplace<&torchlet::neg>},
    {"aten::negative.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::negative", 1, found_dtype>},
    {"aten::reciprocal(Tensor self) -> Tensor", boxed<&torchlet::reciprocal>},
    {"aten::reciprocal_(Tensor(a!) self) -> Tensor(a!)", writes_self<&torchlet::reciprocal_>},
    {"aten::reciprocal.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", out_variant<&torchlet::reciprocal>},
    // composed as torch composes them (kernels/arithmetic.cpp)
    {"aten::addcmul(Tensor self, Tensor tensor1, Tensor tensor2, *, Scalar value=1) -> Tensor", boxed<&torchlet::addcmul>},
    {"aten::addcmul_(Tensor(a!) self, Tensor tensor1, Tensor tensor2, *, Scalar value=1) -> Tensor(a!)", inplace<&torchlet::addcmul>},
    {"aten::addcmul.out(Tensor self, Tensor tensor1, Tensor tensor2, *, Scalar value=1, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::addcmul", 1, castable>},
    {"aten::addcdiv(Tensor self, Tensor tensor1, Tensor tensor2, *, Scalar value=1) -> Tensor", boxed<&torchlet::addcdiv>},
    {"aten::addcdiv_(Tensor(a!) self, Tensor tensor1, Tensor tensor2, *, Scalar value=1) -> Tensor(a!)", inplace<&torchlet::addcdiv>},
    {"aten::addcdiv.out(Tensor self, Tensor tensor1, Tensor tensor2, *, Scalar value=1, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::addcdiv", 1, castable>},
    {"aten::lerp.Scalar(Tensor self, Tensor end, Scalar weight) -> Tensor", boxed<static_cast<LerpScalar>(&torchlet::lerp)>},
    {"aten::lerp.Tensor(Tensor self, Tensor end, Tensor weight) -> Tensor", boxed<static_cast<LerpTensor>(&torchlet::lerp)>},
    {"aten::lerp_.Scalar(Tensor(a!) self, Tensor end, Scalar weight) -> Tensor(a!)", inplace<static_cast<LerpScalar>(&torchlet::lerp)>},
    {"aten::lerp_.Tensor(Tensor(a!) self, Tensor end, Tensor weight) -> Tensor(a!)", inplace<static_cast<LerpTensor>(&torchlet::lerp)>},
    {"aten::lerp.Scalar_out(Tensor self, Tensor end, Scalar weight, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::lerp.Scalar", 1, castable>},
    {"aten::lerp.Tensor_out(Tensor self, Tensor end, Tensor weight, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::lerp.Tensor", 1, found_dtype>},
    {"aten::hypot(Tensor self, Tensor other) -> Tensor", boxed<&torchlet::hypot>},
    {"aten::hypot_(Tensor(a!) self, Tensor other) -> Tensor(a!)", inplace<&torchlet::hypot>},
    {"aten::hypot.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::hypot", 1, castable>},
    {"aten::logaddexp(Tensor self, Tensor other) -> Tensor", boxed<&torchlet::logaddexp>},
    {"aten::logaddexp.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::logaddexp", 1, castable>},
    {"aten::logaddexp2(Tensor self, Tensor other) -> Tensor", boxed<&torchlet::logaddexp2>},
    {"aten::logaddexp2.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::logaddexp2", 1, castable>},
    {"aten::xlogy.Tensor(Tensor self, Tensor other) -> Tensor", boxed<tt(&torchlet::xlogy)>},
    {"aten::xlogy.Scalar_Other(Tensor self, Scalar other) -> Tensor", boxed<ts(&torchlet::xlogy)>},
    {"aten::xlogy.Scalar_Self(Scalar self, Tensor other) -> Tensor", boxed<st(&torchlet::xlogy)>},
    {"aten::xlogy_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)", inplace<tt(&torchlet::xlogy)>},
    {"aten::xlogy_.Scalar_Other(Tensor(a!) self, Scalar other) -> Tensor(a!)", inplace<ts(&torchlet::xlogy)>},
    {"aten::xlogy.OutScalar_Other(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::xlogy.Scalar_Other", 1, castable>},
    {"aten::xlogy.OutScalar_Self(Scalar self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::xlogy.Scalar_Self", 1, castable>},
    {"aten::xlogy.OutTensor(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::xlogy.Tensor", 1, castable>},
    {"aten::atan2(Tensor self, Tensor other) -> Tensor", boxed<&torchlet::atan2>},
    {"aten::atan2_(Tensor(a!) self, Tensor other) -> Tensor(a!)", inplace<&torchlet::atan2>},
    {"aten::atan2.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::atan2", 1, castable>},
    {"aten::atan2.Scalar_Scalar(Scalar a, Scalar b) -> float", boxed_inline<&binary_scalar<Atan2>>},
    {"aten::atan2.float(float a, float b) -> float", boxed_inline<&binary<Atan2, double, double>>},
    {"aten::atan2.float_int(float a, int b) -> float", boxed_inline<&binary<Atan2, double, int64_t>>},
    {"aten::atan2.int(int a, int b) -> float", boxed_inline<&binary<Atan2, int64_t, int64_t>>},
    {"aten::atan2.int_float(int a, float b) -> float", boxed_inline<&binary<Atan2, int64_t, double>>},
    {"aten::arctan2(Tensor self, Tensor other) -> Tensor", boxed<&torchlet::atan2>},
    {"aten::arctan2_(Tensor(a!) self, Tensor other) -> Tensor(a!)", inplace<&torchlet::atan2>},
    {"aten::arctan2.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::arctan2", 1, castable>},
    {"aten::copysign.Tensor(Tensor self, Tensor other) -> Tensor", boxed<tt(&torchlet::copysign)>},
    {"aten::copysign.Scalar(Tensor self, Scalar other) -> Tensor", boxed<ts(&torchlet::copysign)>},
    {"aten::copysign_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)", inplace<tt(&torchlet::copysign)>},
    {"aten::copysign_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)", inplace<ts(&torchlet::copysign)>},
    {"aten::copysign.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", out_variant<tt(&torchlet::copysign)>},
    {"aten::copysign.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)", out_variant<ts(&torchlet::copysign)>},
    {"aten::copysign(Scalar a, Scalar b) -> float", boxed_inline<&binary_scalar<CopySign>>},
    {"aten::copysign.float(float a, float b) -> float", boxed_inline<&binary<CopySign, double, double>>},
    {"aten::copysign.float_int(float a, int b) -> float", boxed_inline<&binary<CopySign, double, int64_t>>},
    {"aten::copysign.int(int a, int b) -> float", boxed_inline<&binary<CopySign, int64_t, int64_t>>},
    {"aten::copysign.int_float(int a, float b) -> float", boxed_inline<&binary<CopySign, int64_t, double>>},
    {"aten::heaviside(Tensor self, Tensor values) -> Tensor", boxed<&torchlet::heaviside>},
    {"aten::heaviside_(Tensor(a!) self, Tensor values) -> Tensor(a!)", inplace<&torchlet::heaviside>},
    {"aten::heaviside.out(Tensor self, Tensor values, *, Tensor(a!) out) -> Tensor(a!)", out_variant<&torchlet::heaviside>},
    // the floating-point bit tools
    {"aten::ldexp.Tensor(Tensor self, Tensor other) -> Tensor", boxed<&torchlet::ldexp>},
    {"aten::ldexp_(Tensor(a!) self, Tensor other) -> Tensor(a!)", inplace<&torchlet::ldexp>},
    {"aten::ldexp.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", out_variant<&torchlet::ldexp>},
    {"aten::ldexp(float x, int i) -> float", boxed_inline<&float_ldexp>},
    {"aten::nextafter(Tensor self, Tensor other) -> Tensor", boxed<&torchlet::nextafter>},
    {"aten::nextafter_(Tensor(a!) self, Tensor other) -> Tensor(a!)", inplace<&torchlet::nextafter>},
    {"aten::nextafter.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", out_variant<&torchlet::nextafter>},
    {"aten::frexp.Tensor(Tensor self) -> (Tensor mantissa, Tensor exponent)", boxed<&torchlet::frexp>},
    {"aten::frexp.Tensor_out(Tensor self, *, Tensor(a!) mantissa, Tensor(b!) exponent) -> (Tensor(a!) mantissa, Tensor(b!) exponent)", boxed<&frexp_into>},
});

}  // namespace
}  // namespace torchlet::jit::ops

// Elementwise operators: binary arithmetic, comparison, logical and bitwise
// operators (one table row each), unary math, and the elementwise math torch composes
// from them (arithmetic.cpp, unary_math.cpp, comparison.cpp, special.cpp).
// Part of ops.h, the numeric operators on Tensor.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include <torchlet/tensor.h>

namespace torchlet {

// --- binary elementwise ------------------------------------------------------------
// One row per binary operator without extra arguments (STYLE #4):
//   _(function name, category)
// Arith: result_type(self, other); Compare: computes in result_type, returns bool;
// Logical: returns bool, any input dtype; Bitwise: integral and bool only.
// Each row declares name(Tensor, Tensor), name(Tensor, Scalar) with torch's
// wrapped-number promotion, name_(Tensor&, ...) in place and name_out(out, ...).
#define TL_BINARY_OPS(_)                                              \
  _(mul, Arith)                 /* bool: logical and */               \
  _(floor_divide, Arith)        /* rounds toward -inf (torch >= 1.13) */ \
  _(remainder, Arith)           /* sign of the divisor, as Python % */ \
  _(fmod, Arith)                /* sign of the dividend, as C fmod */ \
  _(pow, Arith)                 /* integer powers exact */            \
  _(maximum, Arith)             /* NaN propagates */                  \
  _(minimum, Arith)             /* NaN propagates */                  \
  _(fmax, Arith)                /* NaN ignored, as C fmax */          \
  _(fmin, Arith)                /* NaN ignored, as C fmin */          \
  _(eq, Compare)                                                      \
  _(ne, Compare)                                                      \
  _(lt, Compare)                                                      \
  _(le, Compare)                                                      \
  _(gt, Compare)                                                      \
  _(ge, Compare)                                                      \
  _(logical_and, Logical)                                             \
  _(logical_or, Logical)                                              \
  _(logical_xor, Logical)                                             \
  _(bitwise_and, Bitwise)                                             \
  _(bitwise_or, Bitwise)                                              \
  _(bitwise_xor, Bitwise)                                             \
  _(bitwise_left_shift, Bitwise)                                      \
  _(bitwise_right_shift, Bitwise)                                     \
  _(gcd, Bitwise)               /* integers only, as torch's kernel */ \
  _(lcm, Bitwise)

#define TL_DECLARE_BINARY(name, category)                               \
  Tensor name(const Tensor& self, const Tensor& other);                 \
  Tensor name(const Tensor& self, const Scalar& other);                 \
  Tensor& name##_(Tensor& self, const Tensor& other);                   \
  Tensor& name##_(Tensor& self, const Scalar& other);                   \
  Tensor& name##_out(Tensor& out, const Tensor& self, const Tensor& other);
TL_BINARY_OPS(TL_DECLARE_BINARY)
#undef TL_DECLARE_BINARY

// self + alpha * other; alpha must be integral for integral results, bool only for bool.
Tensor add(const Tensor& self, const Tensor& other, const Scalar& alpha = 1);
Tensor add(const Tensor& self, const Scalar& other, const Scalar& alpha = 1);
Tensor& add_(Tensor& self, const Tensor& other, const Scalar& alpha = 1);
Tensor& add_(Tensor& self, const Scalar& other, const Scalar& alpha = 1);
Tensor& add_out(Tensor& out, const Tensor& self, const Tensor& other, const Scalar& alpha = 1);
Tensor sub(const Tensor& self, const Tensor& other, const Scalar& alpha = 1);
Tensor sub(const Tensor& self, const Scalar& other, const Scalar& alpha = 1);
Tensor& sub_(Tensor& self, const Tensor& other, const Scalar& alpha = 1);
Tensor& sub_(Tensor& self, const Scalar& other, const Scalar& alpha = 1);
Tensor& sub_out(Tensor& out, const Tensor& self, const Tensor& other, const Scalar& alpha = 1);
// aten::rsub: other - alpha * self.
Tensor rsub(const Tensor& self, const Tensor& other, const Scalar& alpha = 1);
Tensor rsub(const Tensor& self, const Scalar& other, const Scalar& alpha = 1);

// True division (integers give float32) or rounding_mode "trunc" / "floor".
Tensor div(const Tensor& self, const Tensor& other,
           std::optional<std::string_view> rounding_mode = std::nullopt);
Tensor div(const Tensor& self, const Scalar& other,
           std::optional<std::string_view> rounding_mode = std::nullopt);
Tensor& div_(Tensor& self, const Tensor& other,
             std::optional<std::string_view> rounding_mode = std::nullopt);
Tensor& div_(Tensor& self, const Scalar& other,
             std::optional<std::string_view> rounding_mode = std::nullopt);
Tensor& div_out(Tensor& out, const Tensor& self, const Tensor& other,
                std::optional<std::string_view> rounding_mode = std::nullopt);
// aten::pow.Scalar: a Python number raised to a tensor.
Tensor pow(const Scalar& self, const Tensor& exponent);

// aten::where.self: condition ? self : other, all three broadcast.
Tensor where(const Tensor& condition, const Tensor& self, const Tensor& other);
Tensor where(const Tensor& condition, const Scalar& self, const Tensor& other);
Tensor where(const Tensor& condition, const Tensor& self, const Scalar& other);
// Two Scalars give their promoted dtype (float32 for a float, int64 for ints, ...).
Tensor where(const Tensor& condition, const Scalar& self, const Scalar& other);
// The indices of condition's true elements, one int64 tensor per dimension.
std::vector<Tensor> where(const Tensor& condition);

// --- unary elementwise ---------------------------------------------------------------
//   _(function name, category)
// IntToFloat: integral and bool inputs give float32 (torch's int->float promotion);
// FloatOnly: floating inputs only; Real: every real dtype, result keeps it;
// Integral: integral and bool only; ToBool: any input, bool result. The last two
// columns say whether torch 1.13's CPU kernel exists for float16 and for bool (it
// refuses the others with "not implemented for 'Half'", and torchlet does the same).
#define TL_UNARY_OPS(_)                            \
  _(neg, Real, true, true)                    \
  _(abs, Real, true, false)                   \
  _(sign, Real, true, true)                   \
  _(floor, Real, false, false)                \
  _(ceil, Real, false, false)                 \
  _(round, Real, false, false)                \
  _(trunc, Real, false, false)                \
  _(relu, Real, false, false)                 \
  _(exp, IntToFloat, false, true)             \
  _(expm1, IntToFloat, false, true)           \
  _(log, IntToFloat, false, true)             \
  _(log1p, IntToFloat, false, true)           \
  _(log2, IntToFloat, false, true)            \
  _(log10, IntToFloat, false, true)           \
  _(sqrt, IntToFloat, false, true)            \
  _(rsqrt, IntToFloat, false, true)           \
  _(sin, IntToFloat, false, true)             \
  _(cos, IntToFloat, false, true)             \
  _(tan, IntToFloat, false, true)             \
  _(asin, IntToFloat, false, true)            \
  _(acos, IntToFloat, false, true)            \
  _(atan, IntToFloat, false, true)            \
  _(sinh, IntToFloat, false, true)            \
  _(cosh, IntToFloat, false, true)            \
  _(tanh, IntToFloat, false, true)            \
  _(sigmoid, IntToFloat, false, true)         \
  _(erf, IntToFloat, false, true)             \
  _(erfc, IntToFloat, false, true)            \
  _(erfinv, IntToFloat, false, true)          \
  _(acosh, IntToFloat, false, true)           \
  _(asinh, IntToFloat, false, true)           \
  _(atanh, IntToFloat, false, true)           \
  _(lgamma, IntToFloat, false, true)          \
  _(digamma, IntToFloat, false, true)         \
  _(sinc, IntToFloat, false, true)            \
  _(reciprocal, IntToFloat, true, true)       \
  _(silu, FloatOnly, false, true)             \
  _(hardswish, FloatOnly, false, true)        \
  _(hardsigmoid, FloatOnly, false, true)      \
  _(logical_not, ToBool, true, true)          \
  _(signbit, ToBool, true, true)              \
  _(bitwise_not, Integral, true, true)

#define TL_DECLARE_UNARY(name, category, half, boolean) \
  Tensor name(const Tensor& self);       \
  Tensor& name##_(Tensor& self);         \
  Tensor& name##_out(Tensor& out, const Tensor& self);
TL_UNARY_OPS(TL_DECLARE_UNARY)
#undef TL_DECLARE_UNARY

// Activations with arguments (floating inputs only, as in torch.nn.functional).
Tensor gelu(const Tensor& self, std::string_view approximate = "none");  // "none" | "tanh"
Tensor leaky_relu(const Tensor& self, const Scalar& negative_slope = 0.01);
Tensor elu(const Tensor& self, const Scalar& alpha = 1, const Scalar& scale = 1,
           const Scalar& input_scale = 1);
Tensor softplus(const Tensor& self, const Scalar& beta = 1, const Scalar& threshold = 20);
Tensor hardtanh(const Tensor& self, const Scalar& min_val = -1, const Scalar& max_val = 1);
// --- elementwise math torch composes from the operators above ---------------------
// arithmetic.cpp: hypot; addcmul/addcdiv, self + value * t1 op t2 (addcdiv refuses two
// integer tensors); lerp, torch's fused multiply-add (float, double, bfloat16);
// logaddexp(2); xlogy, 0 where self is 0 and NaN where other is; atan2; float_power, in
// float64 (complex128 for complex operands); copysign; heaviside; ldexp, self * 2^other;
// nextafter; frexp, (mantissa of self's dtype, int32 exponent).
Tensor hypot(const Tensor& self, const Tensor& other);
Tensor addcmul(const Tensor& self, const Tensor& tensor1, const Tensor& tensor2, const Scalar& value = 1);
Tensor addcdiv(const Tensor& self, const Tensor& tensor1, const Tensor& tensor2, const Scalar& value = 1);
Tensor lerp(const Tensor& self, const Tensor& end, const Scalar& weight);
Tensor lerp(const Tensor& self, const Tensor& end, const Tensor& weight);
Tensor logaddexp(const Tensor& self, const Tensor& other);
Tensor logaddexp2(const Tensor& self, const Tensor& other);
Tensor xlogy(const Tensor& self, const Tensor& other);
Tensor xlogy(const Tensor& self, const Scalar& other);
Tensor xlogy(const Scalar& self, const Tensor& other);
Tensor atan2(const Tensor& self, const Tensor& other);
Tensor float_power(const Tensor& self, const Tensor& exponent);
Tensor float_power(const Tensor& self, const Scalar& exponent);
Tensor float_power(const Scalar& self, const Tensor& exponent);
// In place, self must already have the result's dtype (float64 or complex128).
Tensor& float_power_(Tensor& self, const Tensor& exponent);
Tensor& float_power_(Tensor& self, const Scalar& exponent);
Tensor copysign(const Tensor& self, const Tensor& other);
Tensor copysign(const Tensor& self, const Scalar& other);
Tensor heaviside(const Tensor& self, const Tensor& values);
Tensor ldexp(const Tensor& self, const Tensor& other);
Tensor nextafter(const Tensor& self, const Tensor& other);
std::tuple<Tensor, Tensor> frexp(const Tensor& self);
// unary_math.cpp: square is pow(self, 2); frac is floating only; exp2 computes integers
// in float32; positive returns self (refused for bool, as torch's unary +);
// round(decimals) rounds half to even at 10^-decimals (float, double, bfloat16); the
// in-place deg2rad_/rad2deg_ take floating self only; logit clamps to [eps, 1 - eps]
// when eps is given; nan_to_num's defaults are 0 and the dtype's largest finite values;
// clamp with tensor bounds is maximum, then minimum (promoting all three).
Tensor square(const Tensor& self);
Tensor frac(const Tensor& self);
Tensor exp2(const Tensor& self);
Tensor sgn(const Tensor& self);
Tensor positive(const Tensor& self);
Tensor round(const Tensor& self, int64_t decimals);
Tensor deg2rad(const Tensor& self);
Tensor rad2deg(const Tensor& self);
Tensor& deg2rad_(Tensor& self);
Tensor& rad2deg_(Tensor& self);
Tensor logit(const Tensor& self, std::optional<double> eps = std::nullopt);
Tensor nan_to_num(const Tensor& self, std::optional<double> nan = std::nullopt,
                  std::optional<double> posinf = std::nullopt, std::optional<double> neginf = std::nullopt);
Tensor clamp(const Tensor& self, const std::optional<Tensor>& min, const std::optional<Tensor>& max);
Tensor clamp_min(const Tensor& self, const Scalar& min);
Tensor clamp_min(const Tensor& self, const Tensor& min);
Tensor clamp_max(const Tensor& self, const Scalar& max);
Tensor clamp_max(const Tensor& self, const Tensor& max);
// comparison.cpp: bool results; integers and bool are never NaN or infinite, and every
// tensor here is real. isin compares each element with every test element.
Tensor isnan(const Tensor& self);
Tensor isinf(const Tensor& self);
Tensor isfinite(const Tensor& self);
Tensor isposinf(const Tensor& self);
Tensor isneginf(const Tensor& self);
Tensor isreal(const Tensor& self);
Tensor isclose(const Tensor& self, const Tensor& other, double rtol = 1e-05, double atol = 1e-08,
               bool equal_nan = false);
bool allclose(const Tensor& self, const Tensor& other, double rtol = 1e-05, double atol = 1e-08,
              bool equal_nan = false);
Tensor isin(const Tensor& elements, const Tensor& test_elements, bool assume_unique = false, bool invert = false);
Tensor isin(const Tensor& elements, const Scalar& test_element, bool assume_unique = false, bool invert = false);
Tensor isin(const Scalar& element, const Tensor& test_elements, bool assume_unique = false, bool invert = false);
// special.cpp: torch.special's elementwise functions, the incomplete gamma functions
// igamma/igammac (of a = self, x = other; floating operands only), polygamma (digamma
// for n = 0) and mvlgamma, torch's multivariate log-gamma of order p. Integer inputs
// compute in float32 (igamma/igammac refuse them), each with torch's list of dtypes.
Tensor special_entr(const Tensor& self);
Tensor special_erfcx(const Tensor& self);
Tensor special_log_ndtr(const Tensor& self);
Tensor special_ndtri(const Tensor& self);
Tensor special_ndtr(const Tensor& self);
Tensor i0(const Tensor& self);
Tensor special_i0e(const Tensor& self);
Tensor special_i1(const Tensor& self);
Tensor special_i1e(const Tensor& self);
Tensor special_bessel_j0(const Tensor& self);
Tensor special_bessel_j1(const Tensor& self);
Tensor special_xlog1py(const Tensor& self, const Tensor& other);
Tensor special_xlog1py(const Tensor& self, const Scalar& other);
Tensor special_xlog1py(const Scalar& self, const Tensor& other);
Tensor special_zeta(const Tensor& self, const Tensor& other);
Tensor special_zeta(const Tensor& self, const Scalar& other);
Tensor special_zeta(const Scalar& self, const Tensor& other);
Tensor igamma(const Tensor& self, const Tensor& other);
Tensor igammac(const Tensor& self, const Tensor& other);
Tensor polygamma(int64_t n, const Tensor& self);
Tensor mvlgamma(const Tensor& self, int64_t p);
// In place the offsets take self's dtype, so an integer self is refused, as torch's.
Tensor& mvlgamma_(Tensor& self, int64_t p);

}  // namespace torchlet

// The numeric operators on Tensor: typed C++ functions whose signatures follow their
// aten:: schemas (add(self, other, alpha), conv2d(input, weight, bias, stride, ...)),
// implemented in src/tensor/kernels/. They know nothing of IValues or the interpreter;
// src/jit/ops binds schemas to them. Errors name the operator as torch does.
#pragma once

#include <array>
#include <cstdint>
#include <mutex>
#include <optional>
#include <random>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include <torchlet/tensor.h>

namespace torchlet {

class Generator;  // torch's CPU generator (random sampling, below)

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
// activation.cpp: the rest of torch.nn.functional's activations. relu6, softsign,
// tanhshrink and threshold take what torch's compositions take (threshold keeps
// integer dtypes; its bounds convert to the input's type first).
Tensor relu6(const Tensor& self);
Tensor selu(const Tensor& self);
Tensor celu(const Tensor& self, const Scalar& alpha = 1.0);
Tensor mish(const Tensor& self);
Tensor softsign(const Tensor& self);
Tensor softshrink(const Tensor& self, const Scalar& lambd = 0.5);
Tensor hardshrink(const Tensor& self, const Scalar& lambd = 0.5);
Tensor tanhshrink(const Tensor& self);
Tensor threshold(const Tensor& self, const Scalar& threshold, const Scalar& value);
Tensor log_sigmoid(const Tensor& self);
// First half of `dim` times the sigmoid of the second half.
Tensor glu(const Tensor& self, int64_t dim = -1);
// weight has 1 element or one per channel (dim 1).
Tensor prelu(const Tensor& self, const Tensor& weight);
// F.rrelu: in training, each element <= 0 times a slope drawn uniformly from [lower,
// upper] with torch's generator (float, double, bfloat16; random.cpp); otherwise
// leaky_relu with their mean.
Tensor rrelu(const Tensor& self, const Scalar& lower = 1.0 / 8, const Scalar& upper = 1.0 / 3,
             bool training = false, Generator* gen = nullptr);
// softmax(-self), as F.softmin.
Tensor softmin(const Tensor& self, int64_t dim, std::optional<DType> dtype = std::nullopt);
// F.normalize: self / max(||self||_p over dim, eps).
Tensor normalize(const Tensor& self, double p = 2.0, int64_t dim = 1, double eps = 1e-12);
// clamp keeps self's dtype for Scalar bounds; at least one bound is required.
Tensor clamp(const Tensor& self, const std::optional<Scalar>& min,
             const std::optional<Scalar>& max = std::nullopt);
Tensor& clamp_(Tensor& self, const std::optional<Scalar>& min,
               const std::optional<Scalar>& max = std::nullopt);

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

// --- reductions ------------------------------------------------------------------
// `dim` empty means every dimension (torch's dim=None / dim=[]).
Tensor sum(const Tensor& self, IntList dim = {}, bool keepdim = false,
           std::optional<DType> dtype = std::nullopt);
Tensor mean(const Tensor& self, IntList dim = {}, bool keepdim = false,
            std::optional<DType> dtype = std::nullopt);
Tensor prod(const Tensor& self, std::optional<int64_t> dim = std::nullopt, bool keepdim = false,
            std::optional<DType> dtype = std::nullopt);
Tensor amax(const Tensor& self, IntList dim = {}, bool keepdim = false);
Tensor amin(const Tensor& self, IntList dim = {}, bool keepdim = false);
Tensor max(const Tensor& self);  // every element
Tensor min(const Tensor& self);
// aten::max.dim: (values, indices); the index of the first extreme (NaN counts as max).
std::tuple<Tensor, Tensor> max(const Tensor& self, int64_t dim, bool keepdim = false);
std::tuple<Tensor, Tensor> min(const Tensor& self, int64_t dim, bool keepdim = false);
Tensor argmax(const Tensor& self, std::optional<int64_t> dim = std::nullopt, bool keepdim = false);
Tensor argmin(const Tensor& self, std::optional<int64_t> dim = std::nullopt, bool keepdim = false);
// bool result (uint8 stays uint8, as in torch 1.13).
Tensor all(const Tensor& self, std::optional<int64_t> dim = std::nullopt, bool keepdim = false);
Tensor any(const Tensor& self, std::optional<int64_t> dim = std::nullopt, bool keepdim = false);
Tensor var(const Tensor& self, IntList dim = {}, int64_t correction = 1, bool keepdim = false);
Tensor std(const Tensor& self, IntList dim = {}, int64_t correction = 1, bool keepdim = false);
// torch.linalg.vector_norm: ord 2, 1, inf, -inf or any other p; `dtype` (floating, not
// narrower than self's) is the type computed in and returned.
Tensor norm(const Tensor& self, double p = 2, IntList dim = {}, bool keepdim = false,
            std::optional<DType> dtype = std::nullopt);
Tensor logsumexp(const Tensor& self, IntList dim, bool keepdim = false);
// torch.histc: counts of the elements in `bins` equal bins over [min, max] (the data's
// own range when min == max), in the input's dtype; elements outside are not counted.
Tensor histc(const Tensor& self, int64_t bins = 100, const Scalar& min = 0, const Scalar& max = 0);
Tensor cumsum(const Tensor& self, int64_t dim, std::optional<DType> dtype = std::nullopt);
Tensor cumprod(const Tensor& self, int64_t dim, std::optional<DType> dtype = std::nullopt);
// reduce_composite.cpp: the reductions torch composes from the others. nansum/nanmean
// count NaN as 0 / leave it out (a floating input into an integer dtype is refused);
// std_mean/var_mean return (spread, mean); aminmax returns (min, max) over one dim or
// every element; equal: the same sizes and every element equal.
Tensor nansum(const Tensor& self, IntList dim = {}, bool keepdim = false, std::optional<DType> dtype = std::nullopt);
Tensor nanmean(const Tensor& self, IntList dim = {}, bool keepdim = false, std::optional<DType> dtype = std::nullopt);
Tensor count_nonzero(const Tensor& self, IntList dim = {});
std::pair<Tensor, Tensor> std_mean(const Tensor& self, IntList dim = {}, int64_t correction = 1, bool keepdim = false);
std::pair<Tensor, Tensor> var_mean(const Tensor& self, IntList dim = {}, int64_t correction = 1, bool keepdim = false);
std::pair<Tensor, Tensor> aminmax(const Tensor& self, std::optional<int64_t> dim = std::nullopt, bool keepdim = false);
bool equal(const Tensor& self, const Tensor& other);
// torch.diff: n times the difference of neighbours along dim (xor for bool), after
// prepend and append are concatenated there.
Tensor diff(const Tensor& self, int64_t n = 1, int64_t dim = -1, const std::optional<Tensor>& prepend = std::nullopt,
            const std::optional<Tensor>& append = std::nullopt);

// --- linear algebra (oneDNN for float32) -------------------------------------------
Tensor mm(const Tensor& self, const Tensor& mat2);
Tensor bmm(const Tensor& self, const Tensor& mat2);
// torch.dot of two vectors: products added in order in the element type (each product
// and sum rounded, as BLAS sdot/ddot and c10::BFloat16 do; integers wrapping), so the
// result is torch's.
Tensor dot(const Tensor& self, const Tensor& other);
// torch.matmul: 1-d dot, matrix-vector, batched with broadcast batch dimensions.
Tensor matmul(const Tensor& self, const Tensor& other);
// beta * self + alpha * (mat1 @ mat2)
Tensor addmm(const Tensor& self, const Tensor& mat1, const Tensor& mat2, const Scalar& beta = 1,
             const Scalar& alpha = 1);
// torch.linalg.matrix_power: A^n for square batches by repeated squaring (n < 0 inverts
// first), as torch orders the products.
Tensor matrix_power(const Tensor& a, int64_t n);
// torch.linalg.matrix_exp: e^A for square float/double batches, by torch's Taylor
// degrees with scaling and squaring (Note [matrix_exp] in linalg.cpp).
Tensor matrix_exp(const Tensor& a);
// torch.linalg.multi_dot: the product of a chain of matrices (first and last may be
// vectors) in the order that needs the fewest multiplications, torch's order.
Tensor multi_dot(const std::vector<Tensor>& tensors);
// torch.linalg.vecdot: the dot products of x and y along `dim`, broadcast.
Tensor vecdot(const Tensor& x, const Tensor& y, int64_t dim = -1);
// torch.linalg.vander: powers x^0 .. x^(N-1) of every element along a new last dim
// (N defaults to x's last size); vander is the older torch.vander (1-D x, decreasing
// powers unless `increasing`, integers as int64), both through cumprod as torch's are.
Tensor linalg_vander(const Tensor& x, std::optional<int64_t> n = std::nullopt);
Tensor vander(const Tensor& x, std::optional<int64_t> n = std::nullopt, bool increasing = false);
// torch.einsum: letters and "...", implicit or explicit output; contracts left to
// right through bmm (einsum.cpp).
Tensor einsum(std::string_view equation, const std::vector<Tensor>& operands);
// input @ weight^T + bias
Tensor linear(const Tensor& input, const Tensor& weight,
              const std::optional<Tensor>& bias = std::nullopt);
// matrix_products.cpp: what torch composes from the products above. The add* forms are
// beta * self + alpha * product, self ignored when beta is 0 (NaN in it too); addr of
// bool operands is (beta && self) || (alpha && outer); addbmm sums the batch's products.
Tensor mv(const Tensor& self, const Tensor& vec);
Tensor outer(const Tensor& self, const Tensor& vec2);
Tensor vdot(const Tensor& self, const Tensor& other);  // real tensors: dot
Tensor addmv(const Tensor& self, const Tensor& mat, const Tensor& vec, const Scalar& beta = 1, const Scalar& alpha = 1);
Tensor addr(const Tensor& self, const Tensor& vec1, const Tensor& vec2, const Scalar& beta = 1, const Scalar& alpha = 1);
Tensor addbmm(const Tensor& self, const Tensor& batch1, const Tensor& batch2, const Scalar& beta = 1,
              const Scalar& alpha = 1);
Tensor baddbmm(const Tensor& self, const Tensor& batch1, const Tensor& batch2, const Scalar& beta = 1,
               const Scalar& alpha = 1);
// y[..., o] = input1[..., i] weight[o, i, j] input2[..., j] + bias[o]
Tensor bilinear(const Tensor& input1, const Tensor& input2, const Tensor& weight,
                const std::optional<Tensor>& bias = std::nullopt);
// torch.cross without dim takes the first dimension of size 3 (torch 1.13's deprecated
// default); linalg_cross takes dim -1.
Tensor cross(const Tensor& self, const Tensor& other, std::optional<int64_t> dim = std::nullopt);
Tensor linalg_cross(const Tensor& self, const Tensor& other, int64_t dim = -1);
Tensor kron(const Tensor& self, const Tensor& other);
// Contracts dims_self of self against dims_other of other through one mm; inner
// contracts the last dims (a 0-dim operand multiplies).
Tensor tensordot(const Tensor& self, const Tensor& other, IntList dims_self, IntList dims_other);
Tensor inner(const Tensor& self, const Tensor& other);
// torch.chain_matmul, deprecated for multi_dot: matrices only, one matrix returned copied.
Tensor chain_matmul(const std::vector<Tensor>& matrices);

// --- neural network --------------------------------------------------------------------
Tensor conv1d(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias,
              IntList stride = {1}, IntList padding = {0}, IntList dilation = {1}, int64_t groups = 1);
Tensor conv2d(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias,
              IntList stride = {1}, IntList padding = {0}, IntList dilation = {1}, int64_t groups = 1);
Tensor conv3d(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias,
              IntList stride = {1}, IntList padding = {0}, IntList dilation = {1}, int64_t groups = 1);
// aten::conv2d.padding: padding "same" or "valid" (its own name, since a braced list
// would make an overload of conv2d ambiguous).
Tensor conv2d_padding(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias,
                      IntList stride, std::string_view padding, IntList dilation = {1}, int64_t groups = 1);
// aten::conv1d.padding / conv3d.padding: "same" pads d * (k - 1) per spatial dim, the odd
// element on the right, as torch does (stride 1 only).
Tensor conv1d_padding(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias,
                      IntList stride, std::string_view padding, IntList dilation = {1}, int64_t groups = 1);
Tensor conv3d_padding(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias,
                      IntList stride, std::string_view padding, IntList dilation = {1}, int64_t groups = 1);
// aten::convolution (what aten::_convolution and traced modules call): 1-, 2- or 3-d by
// the weight's rank; transposed only in 2-d.
Tensor convolution(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias, IntList stride,
                   IntList padding, IntList dilation, bool transposed, IntList output_padding, int64_t groups);
Tensor conv_transpose2d(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias,
                        IntList stride = {1}, IntList padding = {0}, IntList output_padding = {0},
                        int64_t groups = 1, IntList dilation = {1});
Tensor conv_transpose1d(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias,
                        IntList stride = {1}, IntList padding = {0}, IntList output_padding = {0},
                        int64_t groups = 1, IntList dilation = {1});
Tensor conv_transpose3d(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias,
                        IntList stride = {1}, IntList padding = {0}, IntList output_padding = {0},
                        int64_t groups = 1, IntList dilation = {1});
// torch.nn.functional.pad: mode "constant" (any number of dims, negative pads crop;
// value defaults to 0), "reflect", "replicate" or "circular" (the last 1-3 dims of
// a batched or unbatched input). `pad` lists (left, right) pairs from the last dim.
Tensor pad(const Tensor& self, IntList pad, std::string_view mode = "constant",
           std::optional<double> value = std::nullopt);
Tensor max_pool2d(const Tensor& self, IntList kernel_size, IntList stride = {}, IntList padding = {0},
                  IntList dilation = {1}, bool ceil_mode = false);
Tensor avg_pool2d(const Tensor& self, IntList kernel_size, IntList stride = {}, IntList padding = {0},
                  bool ceil_mode = false, bool count_include_pad = true,
                  std::optional<int64_t> divisor_override = std::nullopt);
Tensor adaptive_avg_pool2d(const Tensor& self, IntList output_size);
std::tuple<Tensor, Tensor> adaptive_max_pool2d(const Tensor& self, IntList output_size);
// 1-d and 3-d pooling (pool.cpp); stride {} means the kernel size, as in torch.
Tensor max_pool1d(const Tensor& self, IntList kernel_size, IntList stride = {}, IntList padding = {0},
                  IntList dilation = {1}, bool ceil_mode = false);
Tensor max_pool3d(const Tensor& self, IntList kernel_size, IntList stride = {}, IntList padding = {0},
                  IntList dilation = {1}, bool ceil_mode = false);
// (values, indices): each index is the flat position of the maximum within its
// input plane (W, H*W or T*H*W elements), as torch's return_indices gives it.
std::tuple<Tensor, Tensor> max_pool1d_with_indices(const Tensor& self, IntList kernel_size, IntList stride = {},
                                                   IntList padding = {0}, IntList dilation = {1},
                                                   bool ceil_mode = false);
std::tuple<Tensor, Tensor> max_pool2d_with_indices(const Tensor& self, IntList kernel_size, IntList stride = {},
                                                   IntList padding = {0}, IntList dilation = {1},
                                                   bool ceil_mode = false);
std::tuple<Tensor, Tensor> max_pool3d_with_indices(const Tensor& self, IntList kernel_size, IntList stride = {},
                                                   IntList padding = {0}, IntList dilation = {1},
                                                   bool ceil_mode = false);
Tensor avg_pool1d(const Tensor& self, IntList kernel_size, IntList stride = {}, IntList padding = {0},
                  bool ceil_mode = false, bool count_include_pad = true);
Tensor avg_pool3d(const Tensor& self, IntList kernel_size, IntList stride = {}, IntList padding = {0},
                  bool ceil_mode = false, bool count_include_pad = true,
                  std::optional<int64_t> divisor_override = std::nullopt);
Tensor adaptive_avg_pool1d(const Tensor& self, IntList output_size);
Tensor adaptive_avg_pool3d(const Tensor& self, IntList output_size);
std::tuple<Tensor, Tensor> adaptive_max_pool1d(const Tensor& self, IntList output_size);
std::tuple<Tensor, Tensor> adaptive_max_pool3d(const Tensor& self, IntList output_size);
// nn.MaxUnpool2d / 3d: each value written at the flat position its int64 index names
// within its output plane (output_size: the last 2 or 3 dims), zeros elsewhere; a later
// value for the same position wins.
Tensor max_unpool2d(const Tensor& self, const Tensor& indices, IntList output_size);
Tensor max_unpool3d(const Tensor& self, const Tensor& indices, IntList output_size, IntList stride, IntList padding);
// Eval: normalises with the running statistics. Training: with the input's per-channel
// statistics, and moves the running ones (when given) by momentum, in place, as torch.
Tensor batch_norm(const Tensor& input, const std::optional<Tensor>& weight,
                  const std::optional<Tensor>& bias, const std::optional<Tensor>& running_mean,
                  const std::optional<Tensor>& running_var, bool training, double momentum, double eps);
// batch_norm, and in training the batch's mean and 1 / sqrt(var + eps) per channel
// (empty tensors in eval, as torch's CPU kernel returns).
std::tuple<Tensor, Tensor, Tensor> native_batch_norm(const Tensor& input, const std::optional<Tensor>& weight,
                                                     const std::optional<Tensor>& bias,
                                                     const std::optional<Tensor>& running_mean,
                                                     const std::optional<Tensor>& running_var, bool training,
                                                     double momentum, double eps);
Tensor layer_norm(const Tensor& input, IntList normalized_shape, const std::optional<Tensor>& weight,
                  const std::optional<Tensor>& bias, double eps = 1e-5);
Tensor group_norm(const Tensor& input, int64_t num_groups, const std::optional<Tensor>& weight,
                  const std::optional<Tensor>& bias, double eps = 1e-5);
// The native forms (nn_extra.cpp) also return the mean and 1 / sqrt(var + eps): over the
// normalised dims kept as size 1 (layer norm), or per [N, group] of the input viewed as
// [N, C, HxW] by the arguments (group norm, with torch's checks of that view).
std::tuple<Tensor, Tensor, Tensor> native_layer_norm(const Tensor& input, IntList normalized_shape,
                                                     const std::optional<Tensor>& weight,
                                                     const std::optional<Tensor>& bias, double eps);
std::tuple<Tensor, Tensor, Tensor> native_group_norm(const Tensor& input, const std::optional<Tensor>& weight,
                                                     const std::optional<Tensor>& bias, int64_t n, int64_t c,
                                                     int64_t hxw, int64_t group, double eps);
// aten::instance_norm: per-(sample, channel) statistics when use_input_stats, else
// the running ones (batch_norm in eval).
Tensor instance_norm(const Tensor& input, const std::optional<Tensor>& weight, const std::optional<Tensor>& bias,
                     const std::optional<Tensor>& running_mean, const std::optional<Tensor>& running_var,
                     bool use_input_stats, double momentum = 0.1, double eps = 1e-5, bool cudnn_enabled = false);
Tensor softmax(const Tensor& self, int64_t dim, std::optional<DType> dtype = std::nullopt);
Tensor log_softmax(const Tensor& self, int64_t dim, std::optional<DType> dtype = std::nullopt);
// torch's dropout family: in training, a mask drawn from the default generator
// (manual_seed gives torch's mask), per element or (feature_*) per sample and channel;
// the alpha forms keep SELU's mean and variance. Not training, or p = 0: the input.
Tensor dropout(const Tensor& input, double p, bool train);
Tensor feature_dropout(const Tensor& input, double p, bool train);
Tensor alpha_dropout(const Tensor& input, double p, bool train);
Tensor feature_alpha_dropout(const Tensor& input, double p, bool train);
Tensor embedding(const Tensor& weight, const Tensor& indices, int64_t padding_idx = -1);
// F.embedding_bag's result (aten::embedding_bag's first output): mode 0 sum, 1 mean,
// 2 max over each bag of `indices` (1-D with `offsets`, or 2-D fixed-length bags);
// per_sample_weights scale rows (sum only); empty bags give zeros; rows equal to
// padding_idx are skipped (and not counted by mean).
Tensor embedding_bag(const Tensor& weight, const Tensor& indices, const std::optional<Tensor>& offsets,
                     int64_t mode = 0, const std::optional<Tensor>& per_sample_weights = std::nullopt,
                     bool include_last_offset = false, std::optional<int64_t> padding_idx = std::nullopt);
// F.one_hot of int64 class indices: int64, one more dim of num_classes (-1: the largest
// index + 1).
Tensor one_hot(const Tensor& self, int64_t num_classes = -1);
// recurrent.cpp: nn.LSTM / nn.GRU / nn.RNN (tanh or relu) over a 3-D input, in torch's
// flat parameter order (per layer and direction: w_ih, w_hh, then b_ih, b_hh when
// has_biases, then the LSTM's w_hr when it has projections); hx is (h0, c0) for the
// LSTM, h0 otherwise. Results: the output, then the final states stacked per layer and
// direction. Dropout between layers draws from the default generator, in training only.
std::tuple<Tensor, Tensor, Tensor> lstm(const Tensor& input, const std::vector<Tensor>& hx,
                                        const std::vector<Tensor>& params, bool has_biases, int64_t num_layers,
                                        double dropout, bool train, bool bidirectional, bool batch_first);
std::tuple<Tensor, Tensor> gru(const Tensor& input, const Tensor& hx, const std::vector<Tensor>& params,
                               bool has_biases, int64_t num_layers, double dropout, bool train, bool bidirectional,
                               bool batch_first);
std::tuple<Tensor, Tensor> rnn_tanh(const Tensor& input, const Tensor& hx, const std::vector<Tensor>& params,
                                    bool has_biases, int64_t num_layers, double dropout, bool train,
                                    bool bidirectional, bool batch_first);
std::tuple<Tensor, Tensor> rnn_relu(const Tensor& input, const Tensor& hx, const std::vector<Tensor>& params,
                                    bool has_biases, int64_t num_layers, double dropout, bool train,
                                    bool bidirectional, bool batch_first);
// attention.cpp: nn.MultiheadAttention's and nn.TransformerEncoderLayer's fused eval
// paths on batch-first (B, L, E) input, with torch's packed qkv projection. The mask is
// boolean (True masks a key) or additive; a 2-d mask is a (B, S) key padding mask.
// The attention weights come back only when need_weights (averaged over heads when
// average_attn_weights).
std::pair<Tensor, std::optional<Tensor>> native_multi_head_attention(
    const Tensor& query, const Tensor& key, const Tensor& value, int64_t embed_dim, int64_t num_head,
    const Tensor& qkv_weight, const Tensor& qkv_bias, const Tensor& proj_weight, const Tensor& proj_bias,
    const std::optional<Tensor>& mask = std::nullopt, bool need_weights = true, bool average_attn_weights = true);
Tensor transformer_encoder_layer_fwd(const Tensor& src, int64_t embed_dim, int64_t num_heads, const Tensor& qkv_weight,
                                     const Tensor& qkv_bias, const Tensor& proj_weight, const Tensor& proj_bias,
                                     bool use_gelu, bool norm_first, double eps, const Tensor& norm_weight_1,
                                     const Tensor& norm_bias_1, const Tensor& norm_weight_2, const Tensor& norm_bias_2,
                                     const Tensor& ffn_weight_1, const Tensor& ffn_bias_1, const Tensor& ffn_weight_2,
                                     const Tensor& ffn_bias_2, const std::optional<Tensor>& mask = std::nullopt);
// aten::upsample_nearest2d / upsample_bilinear2d on NCHW input.
Tensor upsample_nearest2d(const Tensor& self, IntList output_size);
Tensor upsample_bilinear2d(const Tensor& self, IntList output_size, bool align_corners);

// interp.cpp: `scales` are torch's optional scale factors (used, when positive, for
// the source positions instead of in/out, as interpolate(scale_factor=) passes them).
Tensor upsample_nearest1d(const Tensor& self, IntList output_size, std::optional<double> scales = std::nullopt);
Tensor upsample_nearest3d(const Tensor& self, IntList output_size, std::optional<double> scales_d = std::nullopt,
                          std::optional<double> scales_h = std::nullopt, std::optional<double> scales_w = std::nullopt);
// interpolate(mode="nearest-exact"): the source pixel is the one under the output
// pixel's centre; 1 to 3 spatial dims (output_size's length), their scales in order.
Tensor upsample_nearest_exact(const Tensor& self, IntList output_size, std::array<std::optional<double>, 3> scales = {});
Tensor upsample_linear1d(const Tensor& self, IntList output_size, bool align_corners,
                         std::optional<double> scales = std::nullopt);
Tensor upsample_trilinear3d(const Tensor& self, IntList output_size, bool align_corners,
                            std::optional<double> scales_d = std::nullopt, std::optional<double> scales_h = std::nullopt,
                            std::optional<double> scales_w = std::nullopt);
// Cubic convolution with torch's coefficient A = -0.75; taps clamp at the borders.
Tensor upsample_bicubic2d(const Tensor& self, IntList output_size, bool align_corners,
                          std::optional<double> scales_h = std::nullopt, std::optional<double> scales_w = std::nullopt);
// interpolate(antialias=True): PIL-style resampling, every input pixel under the output
// pixel's (downscaled) footprint weighted by a triangle or a Keys a = -0.5 cubic filter.
Tensor upsample_bilinear2d_aa(const Tensor& self, IntList output_size, bool align_corners,
                              std::optional<double> scales_h = std::nullopt, std::optional<double> scales_w = std::nullopt);
Tensor upsample_bicubic2d_aa(const Tensor& self, IntList output_size, bool align_corners,
                             std::optional<double> scales_h = std::nullopt, std::optional<double> scales_w = std::nullopt);

// fold.cpp: F.unfold / F.fold. im2col turns (N,) C, H, W into (N,) C*kh*kw, L columns,
// one per sliding block (zeros where the block reaches into the padding); col2im sums
// such columns back into (N,) C, out_h, out_w, in torch's order. Each list has 2 entries.
Tensor im2col(const Tensor& self, IntList kernel_size, IntList dilation, IntList padding, IntList stride);
Tensor col2im(const Tensor& self, IntList output_size, IntList kernel_size, IntList dilation, IntList padding,
              IntList stride);
// shuffle.cpp: nn.PixelShuffle / PixelUnshuffle (C*r*r, H, W <-> C, H*r, W*r over the last
// three dims) and nn.ChannelShuffle (dim 1 regrouped as [C / groups, groups]).
Tensor pixel_shuffle(const Tensor& self, int64_t upscale_factor);
Tensor pixel_unshuffle(const Tensor& self, int64_t downscale_factor);
Tensor channel_shuffle(const Tensor& self, int64_t groups);

// grid_sample.cpp: F.affine_grid's generator (size [N, C, H, W] or [N, C, D, H, W]; theta
// N x 2 x 3 or N x 3 x 4) and F.grid_sample on 4-D and 5-D input: interpolation 0 bilinear
// (trilinear in 5-D), 1 nearest, 2 bicubic (4-D only); padding 0 zeros, 1 border,
// 2 reflection.
Tensor affine_grid_generator(const Tensor& theta, IntList size, bool align_corners);
Tensor grid_sampler_2d(const Tensor& input, const Tensor& grid, int64_t interpolation, int64_t padding,
                       bool align_corners);
Tensor grid_sampler_3d(const Tensor& input, const Tensor& grid, int64_t interpolation, int64_t padding,
                       bool align_corners);

// distance.cpp: torch.pdist (the p-norm distance of every row pair i < j of a 2-D float
// or double matrix, row-major; pdist_forward is aten::_pdist_forward, which takes a
// contiguous input and skips pdist's argument checks), torch.cdist (rows of x1 against
// rows of x2, batched; compute_mode as torch's: None/0 uses a matrix product for p = 2
// past 25 rows, 1 always, 2 never), F.cosine_similarity, F.pairwise_distance (the
// p-norm of x1 - x2 + eps over the last dim) and torch.dist.
Tensor pdist(const Tensor& self, double p = 2);
Tensor pdist_forward(const Tensor& self, double p = 2);
Tensor cdist(const Tensor& x1, const Tensor& x2, double p = 2, std::optional<int64_t> compute_mode = std::nullopt);
Tensor cosine_similarity(const Tensor& x1, const Tensor& x2, int64_t dim = 1, double eps = 1e-8);
Tensor pairwise_distance(const Tensor& x1, const Tensor& x2, double p = 2, double eps = 1e-6, bool keepdim = false);
Tensor dist(const Tensor& self, const Tensor& other, const Scalar& p = 2);

// lu.cpp: LU-based linear algebra on float32/float64 batches of matrices (*, m, n),
// through LAPACK as torch does, results torch's bit for bit. info holds LAPACK's getrf
// status per matrix (k > 0: U[k, k] is zero); the _ex forms return it where the others
// raise torch's "singular" errors. Results come back column-major, as torch's do.
struct LuFactors {
  Tensor LU, pivots, info;  // pivots: int32, 1-based (LAPACK's)
};
LuFactors lu_factor_ex(const Tensor& a, bool pivot = true, bool check_errors = false);
LuFactors lu_factor(const Tensor& a, bool pivot = true);
// torch.lu_unpack: A = P L U from lu_factor's result; L unit lower (m x k), U upper
// (k x n), P the permutation matrix of the row swaps `pivots` records (k = min(m, n)).
// Without unpack_data L and U are empty, without unpack_pivots P is. linalg_lu factors
// and unpacks in one go (torch.linalg.lu).
struct LuUnpacked {
  Tensor P, L, U;
};
LuUnpacked lu_unpack(const Tensor& lu, const Tensor& pivots, bool unpack_data = true, bool unpack_pivots = true);
LuUnpacked linalg_lu(const Tensor& a, bool pivot = true);
// Solves op(A) X = B (left) or X op(A) = B given A's factors; op transposes if adjoint.
Tensor lu_solve(const Tensor& lu, const Tensor& pivots, const Tensor& b, bool left = true, bool adjoint = false);
struct SolveResult {
  Tensor result;
  LuFactors factors;
};
SolveResult solve_ex(const Tensor& a, const Tensor& b, bool left = true, bool check_errors = false);
Tensor solve(const Tensor& a, const Tensor& b, bool left = true);
std::pair<Tensor, Tensor> inv_ex(const Tensor& a, bool check_errors = false);  // inverse, info
Tensor inverse(const Tensor& a);
// torch.linalg.tensorinv: the inverse of `a` read as the matrix (a.shape[ind:] x
// a.shape[:ind]), shaped a.shape[ind:] + a.shape[:ind]; tensorsolve solves a x = b with
// b's dims contracted against a's leading ones (after `dims` are moved to the end).
Tensor tensorinv(const Tensor& a, int64_t ind = 2);
Tensor tensorsolve(const Tensor& a, const Tensor& b, const std::optional<std::vector<int64_t>>& dims = std::nullopt);
struct DetResult {
  Tensor det;
  LuFactors factors;
};
DetResult det_with_factors(const Tensor& a);
Tensor det(const Tensor& a);
struct SlogdetResult {
  Tensor sign, logabsdet;
  LuFactors factors;
};
// `api` names the caller in refusals (linalg.slogdet or logdet).
SlogdetResult slogdet_with_factors(const Tensor& a, std::string_view api = "linalg.slogdet");
std::pair<Tensor, Tensor> slogdet(const Tensor& a);  // sign, logabsdet
Tensor logdet(const Tensor& a);

// cholesky.cpp: the Cholesky family, float32/float64 batches, LAPACK as torch calls it.
// cholesky_ex returns (factor, info); info k > 0: the leading minor of order k is not
// positive-definite. cholesky_legacy is torch.cholesky (deprecated in torch, kept for
// archives that call it): it names itself "cholesky" in errors.
std::pair<Tensor, Tensor> cholesky_ex(const Tensor& a, bool upper = false, bool check_errors = false);
// torch.linalg.ldl_factor(_ex): LAPACK sytrf's L D L^T of symmetric matrices (the lower
// triangle is read), with its int32 pivots (and info); ldl_solve solves with them,
// refusing pivots sytrf could not have made.
std::tuple<Tensor, Tensor, Tensor> ldl_factor_ex(const Tensor& a, bool hermitian = false, bool check_errors = false);
std::pair<Tensor, Tensor> ldl_factor(const Tensor& a, bool hermitian = false);
Tensor ldl_solve(const Tensor& factor, const Tensor& pivots, const Tensor& b, bool hermitian = false);
Tensor cholesky(const Tensor& a, bool upper = false);
Tensor cholesky_legacy(const Tensor& a, bool upper = false);
Tensor cholesky_solve(const Tensor& b, const Tensor& factor, bool upper = false);
Tensor cholesky_inverse(const Tensor& factor, bool upper = false);

// triangular.cpp: triangular solves through BLAS trsm, passed the layouts and flags torch
// passes, so solutions are torch's bit for bit. solve_triangular is
// torch.linalg.solve_triangular (A X = B, or X A = B with left false; batches broadcast;
// B is converted to A's dtype, as torch's out is made from A); triangular_solve is the
// older torch.triangular_solve(b, A, ...), returning the solution and a copy of A.
Tensor solve_triangular(const Tensor& a, const Tensor& b, bool upper, bool left = true, bool unitriangular = false);
std::pair<Tensor, Tensor> triangular_solve(const Tensor& b, const Tensor& a, bool upper = true, bool transpose = false,
                                           bool unitriangular = false);

// decompositions.cpp: eigh of symmetric float32/float64 batches (values ascending, real;
// vectors column-major; compute_vectors false returns an empty second tensor, as
// eigvalsh needs only values), and svd (U, S, Vh; compute_uv false leaves U and Vh
// empty). svd_legacy is torch.svd: V rather than Vh, zeros without compute_uv; qr is
// Householder QR (geqrf + orgqr).
std::pair<Tensor, Tensor> eigh(const Tensor& a, std::string_view uplo = "L", bool compute_vectors = true);
struct SvdResult {
  Tensor U, S, Vh;
};
SvdResult svd(const Tensor& a, bool full_matrices = true, bool compute_uv = true);
SvdResult svd_legacy(const Tensor& a, bool some = true, bool compute_uv = true);
// (Q, R) for mode "reduced", "complete" or "r" (Q empty), column-major as torch's.
std::pair<Tensor, Tensor> qr(const Tensor& a, std::string_view mode = "reduced");
// lstsq.cpp: torch.linalg.lstsq, the least squares solution of A X = B (B a matrix or,
// shaped as A.shape[:-1], a vector; batches broadcast) by LAPACK's gels, gelsy (the
// default), gelsd or gelss (`driver`, any case). rank is empty for gels, singular_values
// for gels and gelsy; residuals (squared, per column) only for tall A without gelsy,
// and with the SVD drivers only when every A has full column rank, as torch reports them.
struct LstsqResult {
  Tensor solution, residuals, rank, singular_values;
};
LstsqResult lstsq(const Tensor& a, const Tensor& b, std::optional<double> rcond = std::nullopt,
                  std::optional<std::string_view> driver = std::nullopt);
// QR's building blocks, as torch exposes them: geqrf is LAPACK's compact form (R on and
// above the diagonal, the Householder vectors below) and the reflectors' scales tau;
// householder_product (torch.orgqr) forms the first n columns of Q from them; ormqr
// multiplies `other` by Q (or Q^T) from the left or the right without forming Q.
std::pair<Tensor, Tensor> geqrf(const Tensor& a);
Tensor householder_product(const Tensor& a, const Tensor& tau);
Tensor ormqr(const Tensor& a, const Tensor& tau, const Tensor& other, bool left = true, bool transpose = false);

// spectral.cpp: what torch builds on the singular values (the eigenvalues' magnitudes
// when `hermitian`). Tolerances are float64 tensors broadcast over the batch (a value
// counts when above max(atol, rtol * largest); rtol defaults to eps * max(m, n), or 0
// with atol given). pinv is torch.linalg.pinv, matrix_rank torch.linalg.matrix_rank
// (int64), cond torch.linalg.cond (ord None, ±2 from singular values; ±1, ±inf, "fro",
// "nuc" from the norms of A and its inverse, inf where A is singular).
Tensor pinv(const Tensor& a, const std::optional<Tensor>& atol = std::nullopt,
            const std::optional<Tensor>& rtol = std::nullopt, bool hermitian = false);
Tensor matrix_rank(const Tensor& a, const std::optional<Tensor>& atol = std::nullopt,
                   const std::optional<Tensor>& rtol = std::nullopt, bool hermitian = false);
Tensor cond(const Tensor& a, const std::optional<Scalar>& ord = std::nullopt);
Tensor cond(const Tensor& a, std::string_view ord);

// matrix_norm.cpp: torch.linalg.matrix_norm over the matrices spanned by `dim`: ord 1,
// -1, inf, -inf through column/row sums, 2, -2 and "nuc" through singular values, "fro"
// a vector 2-norm. linalg_norm is torch.linalg.norm, which picks a vector or a matrix
// norm by ord and dim (std::nullopt: torch's None).
Tensor matrix_norm(const Tensor& a, double ord, IntList dim = {-2, -1}, bool keepdim = false,
                   std::optional<DType> dtype = std::nullopt);
Tensor matrix_norm(const Tensor& a, std::string_view ord = "fro", IntList dim = {-2, -1}, bool keepdim = false,
                   std::optional<DType> dtype = std::nullopt);
Tensor linalg_norm(const Tensor& a, std::optional<double> ord = std::nullopt,
                   std::optional<std::vector<int64_t>> dim = std::nullopt, bool keepdim = false,
                   std::optional<DType> dtype = std::nullopt);
Tensor linalg_norm(const Tensor& a, std::string_view ord, std::optional<std::vector<int64_t>> dim = std::nullopt,
                   bool keepdim = false, std::optional<DType> dtype = std::nullopt);
// The legacy torch.nuclear_norm: the sum of torch.svd's singular values over the two
// dims in `dim` (so its refusals are svd's).
Tensor nuclear_norm(const Tensor& a, IntList dim, bool keepdim = false);
Tensor nuclear_norm(const Tensor& a, bool keepdim = false);  // of a 2-D tensor
// torch.frobenius_norm (what torch.norm(p="fro") scripts to): at most two dims, floating
// input. renorm scales each slice along dim whose p-norm exceeds maxnorm down to it.
Tensor frobenius_norm(const Tensor& a, IntList dim = {}, bool keepdim = false);
Tensor renorm(const Tensor& self, const Scalar& p, int64_t dim, const Scalar& maxnorm);

// --- losses (loss.cpp) --------------------------------------------------------------
// `reduction` as aten numbers it (torch.nn._reduction): none, mean, sum.
inline constexpr int64_t kReductionNone = 0;
inline constexpr int64_t kReductionMean = 1;
inline constexpr int64_t kReductionSum = 2;
Tensor mse_loss(const Tensor& self, const Tensor& target, int64_t reduction = kReductionMean);
Tensor l1_loss(const Tensor& self, const Tensor& target, int64_t reduction = kReductionMean);
Tensor smooth_l1_loss(const Tensor& self, const Tensor& target, int64_t reduction = kReductionMean,
                      double beta = 1.0);
Tensor huber_loss(const Tensor& self, const Tensor& target, int64_t reduction = kReductionMean, double delta = 1.0);
// Input [C], [N, C] or [N, C, d...] of log-probabilities; int64 class targets.
Tensor nll_loss(const Tensor& self, const Tensor& target, const std::optional<Tensor>& weight = std::nullopt,
                int64_t reduction = kReductionMean, int64_t ignore_index = -100);
// Class-index (int64) or probability (floating, input-shaped) targets.
Tensor cross_entropy(const Tensor& self, const Tensor& target, const std::optional<Tensor>& weight = std::nullopt,
                     int64_t reduction = kReductionMean, int64_t ignore_index = -100, double label_smoothing = 0.0);
// torch.ctc_loss: log_probs [T, N, C] (or [T, C]); targets padded [N, S] or concatenated
// [sum of target_lengths], labels in [0, C) other than blank.
Tensor ctc_loss(const Tensor& log_probs, const Tensor& targets, IntList input_lengths, IntList target_lengths,
                int64_t blank = 0, int64_t reduction = kReductionMean, bool zero_infinity = false);
// The lengths as tensors of any integer dtype (aten::ctc_loss.Tensor).
Tensor ctc_loss(const Tensor& log_probs, const Tensor& targets, const Tensor& input_lengths,
                const Tensor& target_lengths, int64_t blank = 0, int64_t reduction = kReductionMean,
                bool zero_infinity = false);
// F.poisson_nll_loss: exp(input) - target * input (log_input) or input - target *
// log(input + eps), plus Stirling's term for targets above 1 when `full`.
Tensor poisson_nll_loss(const Tensor& input, const Tensor& target, bool log_input, bool full, double eps,
                        int64_t reduction);
// margin_loss.cpp: the multi-class margin losses (float and double; class indices in the
// int64 target, -1 ending each sample's list for multilabel, whose forward form also
// returns the is_target marks), and the margin and embedding losses torch composes
// (hinge_embedding, cosine_embedding, margin_ranking, soft_margin, triplet_margin). For
// these any reduction but mean and sum leaves the loss unreduced, as torch's
// apply_loss_reduction.
Tensor multi_margin_loss(const Tensor& self, const Tensor& target, const Scalar& p = 1, const Scalar& margin = 1,
                         const std::optional<Tensor>& weight = std::nullopt, int64_t reduction = kReductionMean);
Tensor multilabel_margin_loss(const Tensor& self, const Tensor& target, int64_t reduction = kReductionMean);
std::tuple<Tensor, Tensor> multilabel_margin_loss_forward(const Tensor& self, const Tensor& target,
                                                          int64_t reduction);
Tensor hinge_embedding_loss(const Tensor& self, const Tensor& target, double margin = 1.0,
                            int64_t reduction = kReductionMean);
Tensor cosine_embedding_loss(const Tensor& input1, const Tensor& input2, const Tensor& target, double margin = 0.0,
                             int64_t reduction = kReductionMean);
Tensor margin_ranking_loss(const Tensor& input1, const Tensor& input2, const Tensor& target, double margin = 0.0,
                           int64_t reduction = kReductionMean);
Tensor soft_margin_loss(const Tensor& self, const Tensor& target, int64_t reduction = kReductionMean);
Tensor triplet_margin_loss(const Tensor& anchor, const Tensor& positive, const Tensor& negative, double margin = 1.0,
                           double p = 2, double eps = 1e-6, bool swap = false, int64_t reduction = kReductionMean);
Tensor binary_cross_entropy(const Tensor& self, const Tensor& target,
                            const std::optional<Tensor>& weight = std::nullopt, int64_t reduction = kReductionMean);
Tensor binary_cross_entropy_with_logits(const Tensor& self, const Tensor& target,
                                        const std::optional<Tensor>& weight = std::nullopt,
                                        const std::optional<Tensor>& pos_weight = std::nullopt,
                                        int64_t reduction = kReductionMean);
// aten::kl_div: pointwise target * (log target - input) (or exp(t) * (t - input) with
// log_target); 'batchmean' is F.kl_div's sum divided by the batch size.
Tensor kl_div(const Tensor& self, const Tensor& target, int64_t reduction = kReductionMean, bool log_target = false);

// --- random sampling (random.cpp) ------------------------------------------------------
// torch's CPU generator: mt19937 seeded with the seed's low 32 bits, so
// manual_seed(s) followed by rand/randn/randint gives torch.manual_seed(s)'s values.
class Generator {
 public:
  static constexpr uint64_t kDefaultSeed = 67280421310721;  // torch's default_rng_seed_val
  explicit Generator(uint64_t seed = kDefaultSeed);
  void manual_seed(uint64_t seed);  // also drops the cached normal sample, as torch does
  uint64_t initial_seed() const { return seed_; }
  uint32_t random();    // one engine draw
  uint64_t random64();  // two draws, the first as the high word
  // Box-Muller's second sample, kept for the next normal draw (torch's
  // next_double_normal_sample); sampling kernels hold mutex_ for a whole fill.
  std::optional<double> next_double_normal_;
  std::mutex mutex_;

 private:
  // std::mt19937's parameters on 32-bit words (std::mt19937 stores 64-bit ones here,
  // which makes every draw slower; the sequence is the same).
  std::mersenne_twister_engine<uint32_t, 32, 624, 397, 31, 0x9908b0df, 11, 0xffffffff, 7, 0x9d2c5680, 15, 0xefc60000,
                               18, 1812433253>
      engine_;
  uint64_t seed_ = 0;
};
// The process-wide generator the functions below use when `gen` is null.
Generator& default_generator();
void manual_seed(uint64_t seed);
// In place, in torch's element order (storage order for strided views).
Tensor& uniform_(Tensor& self, double from = 0, double to = 1, Generator* gen = nullptr);
Tensor& normal_(Tensor& self, double mean = 0, double std = 1, Generator* gen = nullptr);
// 1 with probability p, else 0 (any real dtype).
Tensor& bernoulli_(Tensor& self, double p = 0.5, Generator* gen = nullptr);
// Integers uniform in [from, to); without `to`, up to the type's largest (2^digits for
// floating types).
Tensor& random_(Tensor& self, int64_t from, std::optional<int64_t> to, Generator* gen = nullptr);
// Without bounds: [0, max] for integers, [0, 2^mantissa digits] for floating types.
Tensor& random_(Tensor& self, Generator* gen = nullptr);
// Exponential(lambd), Cauchy(median, sigma), exp(Normal(mean, std)) and the number of
// Bernoulli(p) trials to the first success (any real dtype but bool; the others floating).
Tensor& exponential_(Tensor& self, double lambd = 1, Generator* gen = nullptr);
Tensor& cauchy_(Tensor& self, double median = 0, double sigma = 1, Generator* gen = nullptr);
Tensor& log_normal_(Tensor& self, double mean = 1, double std = 2, Generator* gen = nullptr);
Tensor& geometric_(Tensor& self, double p, Generator* gen = nullptr);
Tensor rand(IntList size, DType dtype = kDefaultFloatDType, Generator* gen = nullptr);
Tensor randn(IntList size, DType dtype = kDefaultFloatDType, Generator* gen = nullptr);
Tensor randint(int64_t low, int64_t high, IntList size, DType dtype = DType::Long, Generator* gen = nullptr);
// Identity matrix n x m (m defaults to n).
Tensor eye(int64_t n, std::optional<int64_t> m = std::nullopt, DType dtype = kDefaultFloatDType);

// --- shape operators that copy -----------------------------------------------------
Tensor cat(const std::vector<Tensor>& tensors, int64_t dim = 0);
Tensor stack(const std::vector<Tensor>& tensors, int64_t dim = 0);
std::vector<Tensor> split(const Tensor& self, int64_t split_size, int64_t dim = 0);  // views
std::vector<Tensor> chunk(const Tensor& self, int64_t chunks, int64_t dim = 0);      // views
Tensor index_select(const Tensor& self, int64_t dim, const Tensor& index);
Tensor gather(const Tensor& self, int64_t dim, const Tensor& index);
Tensor scatter(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src);
Tensor masked_fill(const Tensor& self, const Tensor& mask, const Scalar& value);
Tensor flip(const Tensor& self, IntList dims);
Tensor roll(const Tensor& self, IntList shifts, IntList dims = {});
Tensor tril(const Tensor& self, int64_t diagonal = 0);
Tensor triu(const Tensor& self, int64_t diagonal = 0);
Tensor repeat(const Tensor& self, IntList repeats);
Tensor nonzero(const Tensor& self);
// torch's compositions of views and copies (shape.cpp). unflatten replaces dim by
// sizes (one may be -1); unfold is Tensor.unfold, windows of `size` every `step` along
// `dimension` as a new last dim (a view); tile pads dims with leading ones, then repeats.
Tensor unflatten(const Tensor& self, int64_t dim, IntList sizes);
Tensor unfold(const Tensor& self, int64_t dimension, int64_t size, int64_t step);
// diag: a 2-D input's `diagonal` (copied), or a 1-D input placed on that diagonal of a
// new square matrix (float16 refused, as torch's kernel is missing); diagflat is
// diag of the flattened input; diag_embed puts the last dim on the `offset` diagonal of
// new (dim1, dim2) matrices; trace sums a matrix's diagonal.
Tensor diag(const Tensor& self, int64_t diagonal = 0);
Tensor diagflat(const Tensor& self, int64_t offset = 0);
Tensor diag_embed(const Tensor& self, int64_t offset = 0, int64_t dim1 = -2, int64_t dim2 = -1);
Tensor trace(const Tensor& self);
Tensor fliplr(const Tensor& self);
Tensor flipud(const Tensor& self);
Tensor rot90(const Tensor& self, int64_t k = 1, IntList dims = {0, 1});
Tensor tile(const Tensor& self, IntList dims);
// np.repeat: repeat_interleave(repeats) is index i written repeats[i] times (int32 or
// int64, its dtype); the self forms repeat self's elements along dim (flattened without
// one). output_size, when given, must be the repeats' sum.
Tensor repeat_interleave(const Tensor& repeats, std::optional<int64_t> output_size = std::nullopt);
Tensor repeat_interleave(const Tensor& self, const Tensor& repeats, std::optional<int64_t> dim = std::nullopt,
                         std::optional<int64_t> output_size = std::nullopt);
Tensor repeat_interleave(const Tensor& self, int64_t repeats, std::optional<int64_t> dim = std::nullopt,
                         std::optional<int64_t> output_size = std::nullopt);

// joining.cpp: splits into views (tensor_split by a number of near-equal sections or at
// indices; h/v/dsplit along dim 1 (0 for 1-D), 0 and 2 with numpy's checks), the
// atleast_Nd family, the stacks torch builds on cat, broadcast_tensors, meshgrid
// (indexing "ij" or "xy"), block_diag, cartesian_prod and combinations (the r-element
// index tuples of a 1-D tensor in lexicographic order, as rows).
std::vector<Tensor> split_with_sizes(const Tensor& self, IntList split_sizes, int64_t dim = 0);
std::vector<Tensor> unbind(const Tensor& self, int64_t dim = 0);
std::vector<Tensor> tensor_split(const Tensor& self, int64_t sections, int64_t dim = 0);
std::vector<Tensor> tensor_split(const Tensor& self, IntList indices, int64_t dim = 0);
std::vector<Tensor> hsplit(const Tensor& self, int64_t sections);
std::vector<Tensor> vsplit(const Tensor& self, int64_t sections);
std::vector<Tensor> dsplit(const Tensor& self, int64_t sections);
std::vector<Tensor> hsplit(const Tensor& self, IntList indices);
std::vector<Tensor> vsplit(const Tensor& self, IntList indices);
std::vector<Tensor> dsplit(const Tensor& self, IntList indices);
Tensor atleast_1d(const Tensor& self);
Tensor atleast_2d(const Tensor& self);
Tensor atleast_3d(const Tensor& self);
std::vector<Tensor> atleast_1d(const std::vector<Tensor>& tensors);
std::vector<Tensor> atleast_2d(const std::vector<Tensor>& tensors);
std::vector<Tensor> atleast_3d(const std::vector<Tensor>& tensors);
Tensor hstack(const std::vector<Tensor>& tensors);
Tensor vstack(const std::vector<Tensor>& tensors);
Tensor dstack(const std::vector<Tensor>& tensors);
Tensor column_stack(const std::vector<Tensor>& tensors);
std::vector<Tensor> broadcast_tensors(const std::vector<Tensor>& tensors);
std::vector<Tensor> meshgrid(const std::vector<Tensor>& tensors, std::string_view indexing = "ij");
Tensor block_diag(const std::vector<Tensor>& tensors);
Tensor cartesian_prod(const std::vector<Tensor>& tensors);
Tensor combinations(const Tensor& self, int64_t r = 2, bool with_replacement = false);

// indexing.cpp: advanced indexing, x[indices] with None for a whole dimension, bool
// masks and integer tensors (broadcast together); index_put_ writes (or accumulates)
// values there, index_put into a copy.
Tensor index(const Tensor& self, const std::vector<std::optional<Tensor>>& indices);
Tensor& index_put_(Tensor& self, const std::vector<std::optional<Tensor>>& indices, const Tensor& values,
                   bool accumulate = false);
Tensor index_put(const Tensor& self, const std::vector<std::optional<Tensor>>& indices, const Tensor& values,
                 bool accumulate = false);
// Index-driven writes into a copy of self, in index order as torch's CPU loops (so
// repeated indices accumulate or overwrite in torch's order). scatter_reduce's reduce:
// "sum", "prod", "mean", "amax" or "amin" (include_self: self's values take part);
// scatter with reduce is torch's older form ("add" or "multiply"); a Scalar value
// scatters as a src of index's shape.
Tensor scatter(const Tensor& self, int64_t dim, const Tensor& index, const Scalar& value);
Tensor scatter(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src, std::string_view reduce);
Tensor scatter(const Tensor& self, int64_t dim, const Tensor& index, const Scalar& value, std::string_view reduce);
Tensor scatter_add(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src);
Tensor scatter_reduce(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src, std::string_view reduce,
                      bool include_self = true);
Tensor index_add(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& source, const Scalar& alpha = 1);
Tensor index_copy(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& source);
Tensor index_fill(const Tensor& self, int64_t dim, const Tensor& index, const Scalar& value);
Tensor index_fill(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& value);  // 0-dim value
Tensor masked_fill(const Tensor& self, const Tensor& mask, const Tensor& value);                // 0-dim value
// self's elements where mask (broadcast) is true, in order, from source's first ones.
Tensor masked_scatter(const Tensor& self, const Tensor& mask, const Tensor& source);
// self's elements where mask (broadcast against self) is true, as a 1-D tensor.
Tensor masked_select(const Tensor& self, const Tensor& mask);
// put writes source at flat (possibly negative) indices of a copy of self; take reads
// self flattened at them (index's shape); take_along_dim gathers along dim after
// broadcasting the other dims of self and indices (without dim: over the flattened self).
Tensor put(const Tensor& self, const Tensor& index, const Tensor& source, bool accumulate = false);
Tensor take(const Tensor& self, const Tensor& index);
Tensor take_along_dim(const Tensor& self, const Tensor& indices, std::optional<int64_t> dim = std::nullopt);

// factory.cpp: logspace is base ** linspace(start, end, steps) computed in double;
// tril_indices / triu_indices are the (2, N) row and column indices of a row x col
// matrix's lower / upper triangle from the `offset` diagonal (int64 or int32).
Tensor logspace(const Scalar& start, const Scalar& end, int64_t steps, double base = 10.0,
                std::optional<DType> dtype = std::nullopt);
Tensor tril_indices(int64_t row, int64_t col, int64_t offset = 0, std::optional<DType> dtype = std::nullopt);
Tensor triu_indices(int64_t row, int64_t col, int64_t offset = 0, std::optional<DType> dtype = std::nullopt);
// Stable sort; NaN sorts as the largest value, as in torch.
std::tuple<Tensor, Tensor> sort(const Tensor& self, int64_t dim = -1, bool descending = false);
Tensor argsort(const Tensor& self, int64_t dim = -1, bool descending = false);
std::tuple<Tensor, Tensor> topk(const Tensor& self, int64_t k, int64_t dim = -1, bool largest = true,
                                bool sorted = true);

// order.cpp: order statistics and running extrema along dim. Equal values give the
// index torch's CPU algorithms give (see the file's comment). ignore_nan: nanmedian.
std::tuple<Tensor, Tensor> median(const Tensor& self, int64_t dim, bool keepdim = false, bool ignore_nan = false);
Tensor median(const Tensor& self, bool ignore_nan = false);  // of every element; NaN when empty
std::tuple<Tensor, Tensor> kthvalue(const Tensor& self, int64_t k, int64_t dim = -1, bool keepdim = false);
std::tuple<Tensor, Tensor> mode(const Tensor& self, int64_t dim = -1, bool keepdim = false);
std::tuple<Tensor, Tensor> cummax(const Tensor& self, int64_t dim);
std::tuple<Tensor, Tensor> cummin(const Tensor& self, int64_t dim);
Tensor logcumsumexp(const Tensor& self, int64_t dim);
// torch.unique's operators: values, inverse (empty unless asked for; also computed
// when counts are) and counts (empty unless asked for). unique_dim keeps whole slices
// along dim (consecutive: only neighbours merge) and always fills inverse and counts.
struct UniqueResult {
  Tensor values, inverse, counts;
};
UniqueResult unique(const Tensor& self, bool sorted, bool return_inverse, bool return_counts);
UniqueResult unique_consecutive(const Tensor& self, bool return_inverse, bool return_counts);
UniqueResult unique_dim(const Tensor& self, int64_t dim, bool consecutive);
// Insertion points of values in the last dim of sorted_sequence (1-D, or one row per
// leading index of values); right: after equal elements; sorter: the order to read it in.
Tensor searchsorted(const Tensor& sorted_sequence, const Tensor& values, bool out_int32 = false, bool right = false,
                    const std::optional<Tensor>& sorter = std::nullopt);
// torch.bucketize: searchsorted of self in 1-D boundaries.
Tensor bucketize(const Tensor& self, const Tensor& boundaries, bool out_int32 = false, bool right = false);

// statistics.cpp: torch.quantile/nanquantile (q a tensor of self's dtype or a float in
// [0, 1]; dim None flattens; interpolation linear, lower, higher, midpoint or nearest;
// nanquantile leaves NaN out, quantile gives NaN for a row holding one). out_dtype is
// the dtype of an out= tensor, refused unless self's, among the checks in torch's order.
Tensor quantile(const Tensor& self, const Tensor& q, std::optional<int64_t> dim = std::nullopt, bool keepdim = false,
                std::string_view interpolation = "linear", std::optional<DType> out_dtype = std::nullopt);
Tensor quantile(const Tensor& self, double q, std::optional<int64_t> dim = std::nullopt, bool keepdim = false,
                std::string_view interpolation = "linear", std::optional<DType> out_dtype = std::nullopt);
Tensor nanquantile(const Tensor& self, const Tensor& q, std::optional<int64_t> dim = std::nullopt, bool keepdim = false,
                   std::string_view interpolation = "linear", std::optional<DType> out_dtype = std::nullopt);
Tensor nanquantile(const Tensor& self, double q, std::optional<int64_t> dim = std::nullopt, bool keepdim = false,
                   std::string_view interpolation = "linear", std::optional<DType> out_dtype = std::nullopt);
// torch.cov: rows are variables, columns observations, fweights integer counts and
// aweights floating weights per observation; corrcoef is cov normalised to [-1, 1].
Tensor cov(const Tensor& self, int64_t correction = 1, const std::optional<Tensor>& fweights = std::nullopt,
           const std::optional<Tensor>& aweights = std::nullopt);
Tensor corrcoef(const Tensor& self);
// torch.bincount of a 1-D non-negative integral tensor: int64 counts, or the weights'
// sums (float32 for float32 weights, else float64); at least minlength bins.
Tensor bincount(const Tensor& self, const std::optional<Tensor>& weights = std::nullopt, int64_t minlength = 0);

}  // namespace torchlet

// Unary elementwise operators (TL_UNARY_OPS in ops.h) and the activations with
// arguments (gelu, leaky_relu, elu, softplus, hardtanh, clamp). Integral inputs of
// float functions are promoted to float32 as torch does; half and bfloat16 compute in
// float. Reductions and normalisations are elsewhere (reduce.cpp, nn.cpp).
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>

#include <torchlet/error.h>
#include <torchlet/ops.h>

#include "tensor/kernels/dnnl_eltwise.h"
#include "tensor/kernels/elementwise.h"
#include "tensor/kernels/vec_math.h"

namespace torchlet {
namespace {

using kernels::opmath_t;
using kernels::StridedLoop;
using kernels::round_bf16;

enum class UnaryCategory { Real, IntToFloat, FloatOnly, Integral, ToBool };

enum class UnaryOp {
#define TL_UNARY_ENUM(name, category, half, boolean) name,
  TL_UNARY_OPS(TL_UNARY_ENUM)
#undef TL_UNARY_ENUM
};

UnaryCategory category_of(UnaryOp op) {
  switch (op) {
#define TL_UNARY_CATEGORY(name, category, half, boolean) \
  case UnaryOp::name:                     \
    return UnaryCategory::category;
    TL_UNARY_OPS(TL_UNARY_CATEGORY)
#undef TL_UNARY_CATEGORY
  }
  return UnaryCategory::Real;
}

// torch 1.13's CPU kernel for the op exists for this dtype (the table's last columns).
bool torch_has_kernel(UnaryOp op, DType d) {
  switch (op) {
#define TL_UNARY_SUPPORT(name, category, half, boolean) \
  case UnaryOp::name:                                   \
    return (d != DType::Half || (half)) && (d != DType::Bool || (boolean));
    TL_UNARY_OPS(TL_UNARY_SUPPORT)
#undef TL_UNARY_SUPPORT
  }
  return true;
}

const char* op_name(UnaryOp op) {
  switch (op) {
#define TL_UNARY_NAME(name, category, half, boolean) \
  case UnaryOp::name:                 \
    return #name;
    TL_UNARY_OPS(TL_UNARY_NAME)
#undef TL_UNARY_NAME
  }
  return "";
}

[[noreturn]] void not_implemented(std::string_view op, DType d) {
  TL_FAIL(UnsupportedError, "\"{}\" not implemented for '{}'", op, dtype_info(d).scalar_type_name);
}

// min(max(t, 0), 6) computed on t's bits: a float that is not negative orders like its
// bits read as a signed integer, so once a negative t is zeroed (its sign bit spread
// over the word masks it off) the integer min with 6's bits is the float min. GCC
// vectorises that as three integer instructions (psrad, pandn, pminsd); the same clamp
// as float selects, which must keep NaN, became four compares, three masks and a blend,
// and hardswish/hardsigmoid ran 1.2x torch. Differences from the float clamp: -0 gives
// +0 (t = x + 3 is never -0: round to nearest makes -3 + 3 = +0), and NaN gives 0 or 6
// (hardswish multiplies by x, NaN too; hardsigmoid puts the NaN back).
template <typename M>
inline M relu6_bits(M t) {
  using I = std::conditional_t<sizeof(M) == 4, int32_t, int64_t>;
  I b = std::bit_cast<I>(t);
  b &= ~(b >> (sizeof(I) * 8 - 1));
  const I six = std::bit_cast<I>(M(6));
  return std::bit_cast<M>(b < six ? b : six);
}

template <typename out_t, typename T, typename F>
void run_unary(const StridedLoop& l, const F& f) {
  using M = opmath_t<T>;
  kernels::run_loop(l, [&](char** p, const int64_t* s, int64_t n, int64_t rows, const int64_t* os) {
    kernels::unary_rows<out_t, T>(p, s, n, rows, os, [&](T x) { return static_cast<out_t>(f(static_cast<M>(x))); });
  });
}

// Float rows through `f(V&)`, an in-place map written once for float and Float8: eight
// lanes at a time in the contiguous case, the tail and strided runs one float at a
// time with the same operations, so every element rounds alike. `f` must be
// always_inline: a lambda GCC leaves out of line is compiled once, for the baseline,
// and its Float8 body then runs as pairs of SSE instructions inside the AVX2 clone.
// For the exp-based maps, which GCC's vectoriser handles worse by itself: in silu's
// x / (1 + e^-x) it duplicated the division for each outcome of exp_f32's range
// selects (jump threading) and divided x by inf as a second vector division per eight
// elements.
template <typename F>
TL_VECTOR_CLONES void float_lanes_rows(char** p, const int64_t* s, int64_t n, int64_t rows, const int64_t* os,
                                       const F& f) {
  for (int64_t r = 0; r < rows; ++r) {
    char* out = p[0] + r * os[0];
    const char* in = p[1] + r * os[1];
    if (s[0] == sizeof(float) && s[1] == sizeof(float)) {
      auto* __restrict o = reinterpret_cast<float*>(out);
      const auto* __restrict a = reinterpret_cast<const float*>(in);
      int64_t i = 0;
      for (; i + 8 <= n; i += 8) {
        kernels::Float8 v;
        std::memcpy(&v, a + i, sizeof(v));
        f(v);
        std::memcpy(o + i, &v, sizeof(v));
      }
      for (; i < n; ++i) {
        float x = a[i];
        f(x);
        o[i] = x;
      }
      continue;
    }
    for (int64_t i = 0; i < n; ++i) {
      float x = *reinterpret_cast<const float*>(in + i * s[1]);
      f(x);
      *reinterpret_cast<float*>(out + i * s[0]) = x;
    }
  }
}

template <typename F>
void run_float_lanes(const StridedLoop& l, const F& f) {
  kernels::run_loop(l, [&](char** p, const int64_t* s, int64_t n, int64_t rows, const int64_t* os) {
    float_lanes_rows(p, s, n, rows, os, f);
  });
}

// torch's calc_erfinv (ATen/native/Math.h): a rational first guess (Pavlis's erfinv for
// MATLAB), then two Newton steps on erf, in the element's own precision.
template <typename M>
M erfinv_of(M y) {
  constexpr M a[4] = {M(0.886226899), M(-1.645349621), M(0.914624893), M(-0.140543331)};
  constexpr M b[4] = {M(-2.118377725), M(1.442710462), M(-0.329097515), M(0.012229801)};
  constexpr M c[4] = {M(-1.970840454), M(-1.624906493), M(3.429567803), M(1.641345311)};
  constexpr M d[2] = {M(3.543889200), M(1.637067800)};
  const M y_abs = std::abs(y);
  if (y_abs > M(1)) return std::numeric_limits<M>::quiet_NaN();
  if (y_abs == M(1)) return std::copysign(std::numeric_limits<M>::infinity(), y);
  M x;
  if (y_abs <= M(0.7)) {
    const M z = y * y;
    const M num = ((a[3] * z + a[2]) * z + a[1]) * z + a[0];
    const M dem = (((b[3] * z + b[2]) * z + b[1]) * z + b[0]) * z + M(1);
    x = y * num / dem;
  } else {
    const M z = std::sqrt(-std::log((M(1) - y_abs) / M(2)));
    const M num = ((c[3] * z + c[2]) * z + c[1]) * z + c[0];
    const M dem = (d[1] * z + d[0]) * z + M(1);
    x = std::copysign(num, y) / dem;
  }
  const M two_over_sqrt_pi = M(2) / static_cast<M>(std::sqrt(M_PI));
  x = x - (std::erf(x) - y) / (two_over_sqrt_pi * std::exp(-x * x));
  x = x - (std::erf(x) - y) / (two_over_sqrt_pi * std::exp(-x * x));
  return x;
}

// lgamma through the reentrant form: std::lgamma also stores the sign in the global
// signgam, a data race between the threads of one parallel loop.
inline float lgamma_of(float x) {
  int sign = 0;
  return lgammaf_r(x, &sign);
}
inline double lgamma_of(double x) {
  int sign = 0;
  return lgamma_r(x, &sign);
}

// torch's calc_digamma (Cephes psi): reflection for negative x, recurrence up to 10,
// then the asymptotic series, in the element's own precision (float's reflection term
// in double, as torch computes it).
template <typename M>
M digamma_of(M x) {
  if (x == M(0)) return std::copysign(std::numeric_limits<M>::infinity(), -x);
  if (x < M(0)) {
    if (x == std::trunc(x)) return std::numeric_limits<M>::quiet_NaN();
    double whole = 0;
    const double r = std::modf(static_cast<double>(x), &whole);
    return digamma_of(M(1) - x) - static_cast<M>(M_PI / std::tan(M_PI * r));
  }
  M result = 0;
  while (x < M(10)) {
    result -= M(1) / x;
    x += M(1);
  }
  if (x == M(10)) return result + M(2.25175258906672110764);
  constexpr M A[] = {M(8.33333333333333333333E-2), M(-2.10927960927960927961E-2), M(7.57575757575757575758E-3),
                     M(-4.16666666666666666667E-3), M(3.96825396825396825397E-3), M(-8.33333333333333333333E-3),
                     M(8.33333333333333333333E-2)};
  M y = 0;
  if (x < M(1.0e17)) {
    const M z = M(1) / (x * x);
    M poly = A[0];
    for (int i = 1; i < 7; ++i) poly = poly * z + A[i];
    y = z * poly;
  }
  return result + std::log(x) - (M(0.5) / x) - y;
}

// Functions of floating types only (the IntToFloat and FloatOnly rows).
template <typename T>
void float_kernel(UnaryOp op, const StridedLoop& l) {
  using M = opmath_t<T>;
  switch (op) {
    case UnaryOp::exp:
      if constexpr (std::is_same_v<T, float>) {
        return run_float_lanes(l, [](auto& x) __attribute__((always_inline)) { kernels::exp_in_place(x); });
      }
      return run_unary<T, T>(l, [](M x) { return kernels::vexp(x); });
    case UnaryOp::expm1: return run_unary<T, T>(l, [](M x) { return std::expm1(x); });
    case UnaryOp::log: return run_unary<T, T>(l, [](M x) { return std::log(x); });
    case UnaryOp::log1p: return run_unary<T, T>(l, [](M x) { return std::log1p(x); });
    case UnaryOp::log2: return run_unary<T, T>(l, [](M x) { return std::log2(x); });
    case UnaryOp::log10: return run_unary<T, T>(l, [](M x) { return std::log10(x); });
    case UnaryOp::sqrt: return run_unary<T, T>(l, [](M x) { return std::sqrt(x); });
    case UnaryOp::rsqrt: return run_unary<T, T>(l, [](M x) { return M(1) / std::sqrt(x); });
    case UnaryOp::sin: return run_unary<T, T>(l, [](M x) { return std::sin(x); });
    case UnaryOp::cos: return run_unary<T, T>(l, [](M x) { return std::cos(x); });
    case UnaryOp::tan: return run_unary<T, T>(l, [](M x) { return std::tan(x); });
    case UnaryOp::asin: return run_unary<T, T>(l, [](M x) { return std::asin(x); });
    case UnaryOp::acos: return run_unary<T, T>(l, [](M x) { return std::acos(x); });
    case UnaryOp::atan: return run_unary<T, T>(l, [](M x) { return std::atan(x); });
    case UnaryOp::sinh: return run_unary<T, T>(l, [](M x) { return std::sinh(x); });
    case UnaryOp::cosh: return run_unary<T, T>(l, [](M x) { return std::cosh(x); });
    case UnaryOp::tanh: return run_unary<T, T>(l, [](M x) { return kernels::vtanh(x); });
    case UnaryOp::sigmoid:
      if constexpr (std::is_same_v<T, float>) {
        return run_float_lanes(l, [](auto& x) __attribute__((always_inline)) {
          auto e = -x;
          kernels::exp_in_place(e);
          x = 1.0f / (1.0f + e);
        });
      }
      return run_unary<T, T>(l, [](M x) { return M(1) / (M(1) + kernels::vexp(-x)); });
    case UnaryOp::erf: return run_unary<T, T>(l, [](M x) { return std::erf(x); });
    case UnaryOp::erfc: return run_unary<T, T>(l, [](M x) { return std::erfc(x); });
    case UnaryOp::erfinv: return run_unary<T, T>(l, [](M x) { return erfinv_of(x); });
    case UnaryOp::acosh: return run_unary<T, T>(l, [](M x) { return std::acosh(x); });
    case UnaryOp::asinh: return run_unary<T, T>(l, [](M x) { return std::asinh(x); });
    case UnaryOp::atanh: return run_unary<T, T>(l, [](M x) { return std::atanh(x); });
    case UnaryOp::lgamma: return run_unary<T, T>(l, [](M x) { return lgamma_of(x); });
    case UnaryOp::digamma: return run_unary<T, T>(l, [](M x) { return digamma_of(x); });
    case UnaryOp::sinc:
      return run_unary<T, T>(l, [](M x) {
        if (x == M(0)) return M(1);
        const M product = static_cast<M>(M_PI) * x;
        return std::sin(product) / product;
      });
    case UnaryOp::reciprocal: return run_unary<T, T>(l, [](M x) { return M(1) / x; });
    case UnaryOp::silu:
      if constexpr (std::is_same_v<T, float>) {
        return run_float_lanes(l, [](auto& x) __attribute__((always_inline)) {
          auto e = -x;
          kernels::exp_in_place(e);
          x = x / (1.0f + e);
        });
      }
      return run_unary<T, T>(l, [](M x) { return x / (M(1) + kernels::vexp(-x)); });
    // x * min(max(x + 3, 0), 6) / 6 in torch's order of operations.
    case UnaryOp::hardswish: return run_unary<T, T>(l, [](M x) { return x * relu6_bits(x + M(3)) / M(6); });
    case UnaryOp::hardsigmoid:
      return run_unary<T, T>(l, [](M x) {
        const M t = x + M(3);
        const M r = relu6_bits(t) / M(6);
        return t != t ? t : r;  // NaN stays NaN, as torch's clamp propagates it
      });
    case UnaryOp::neg:
    case UnaryOp::abs:
    case UnaryOp::sign:
    case UnaryOp::floor:
    case UnaryOp::ceil:
    case UnaryOp::round:
    case UnaryOp::trunc:
    case UnaryOp::relu:
    case UnaryOp::logical_not:
    case UnaryOp::signbit:
    case UnaryOp::bitwise_not:
      break;
  }
  TL_INTERNAL_ASSERT(false, "not a floating function");
}

// Operators that keep every real dtype (the Real, Integral and ToBool rows).
template <typename T>
void real_kernel(UnaryOp op, const StridedLoop& l) {
  using M = opmath_t<T>;
  constexpr bool kBool = std::is_same_v<T, bool>;
  constexpr bool kInt = std::is_integral_v<T> && !kBool;
  constexpr bool kUnsigned = std::is_unsigned_v<T>;
  switch (op) {
    case UnaryOp::neg:
      if constexpr (kBool) {
        TL_FAIL(TypeError,
                "Negation, the `-` operator, on a bool tensor is not supported. If you are trying "
                "to invert a mask, use the `~` or `logical_not()` operator instead.");
      } else if constexpr (kInt) {
        using U = std::make_unsigned_t<T>;
        return run_unary<T, T>(l, [](M x) { return static_cast<T>(U(0) - static_cast<U>(x)); });
      } else {
        return run_unary<T, T>(l, [](M x) { return -x; });
      }
    case UnaryOp::abs:
      if constexpr (kBool || kUnsigned) return run_unary<T, T>(l, [](M x) { return x; });
      else if constexpr (kInt) {
        using U = std::make_unsigned_t<T>;
        return run_unary<T, T>(l, [](M x) { return static_cast<T>(x < 0 ? U(0) - static_cast<U>(x) : static_cast<U>(x)); });
      } else {
        return run_unary<T, T>(l, [](M x) { return std::abs(x); });
      }
    case UnaryOp::sign:
      if constexpr (kBool || kUnsigned) return run_unary<T, T>(l, [](M x) { return x > M(0); });
      else return run_unary<T, T>(l, [](M x) { return M((M(0) < x) - (x < M(0))); });
    case UnaryOp::floor:
      if constexpr (kBool || kInt) return run_unary<T, T>(l, [](M x) { return x; });
      else return run_unary<T, T>(l, [](M x) { return std::floor(x); });
    case UnaryOp::ceil:
      if constexpr (kBool || kInt) return run_unary<T, T>(l, [](M x) { return x; });
      else return run_unary<T, T>(l, [](M x) { return std::ceil(x); });
    case UnaryOp::round:
      if constexpr (kBool || kInt) return run_unary<T, T>(l, [](M x) { return x; });
      else return run_unary<T, T>(l, [](M x) { return std::nearbyint(x); });
    case UnaryOp::trunc:
      if constexpr (kBool || kInt) return run_unary<T, T>(l, [](M x) { return x; });
      else return run_unary<T, T>(l, [](M x) { return std::trunc(x); });
    case UnaryOp::relu:
      if constexpr (kBool) not_implemented("relu", DType::Bool);
      else if constexpr (kInt) return run_unary<T, T>(l, [](M x) { return x > M(0) ? x : M(0); });
      else return run_unary<T, T>(l, [](M x) { return x != x ? x : (x > M(0) ? x : M(0)); });
    case UnaryOp::logical_not:
      return run_unary<bool, T>(l, [](M x) { return x == M(0); });
    case UnaryOp::signbit:
      if constexpr (kBool || kUnsigned) return run_unary<bool, T>(l, [](M) { return false; });
      else if constexpr (kInt) return run_unary<bool, T>(l, [](M x) { return x < M(0); });
      // (The sign bit read as a signed integer's sign: GCC 12 crashes vectorising
      // std::signbit of bfloat16 widened to float.)
      else {
        using I = std::conditional_t<sizeof(M) == 4, int32_t, int64_t>;
        return run_unary<bool, T>(l, [](M x) { return std::bit_cast<I>(x) < 0; });
      }
    case UnaryOp::bitwise_not:
      if constexpr (kBool) return run_unary<T, T>(l, [](bool x) { return !x; });
      else if constexpr (kInt) return run_unary<T, T>(l, [](M x) { return static_cast<T>(~x); });
      else not_implemented("bitwise_not_cpu", dtype_of<T>);
    case UnaryOp::exp:
    case UnaryOp::expm1:
    case UnaryOp::log:
    case UnaryOp::log1p:
    case UnaryOp::log2:
    case UnaryOp::log10:
    case UnaryOp::sqrt:
    case UnaryOp::rsqrt:
    case UnaryOp::sin:
    case UnaryOp::cos:
    case UnaryOp::tan:
    case UnaryOp::asin:
    case UnaryOp::acos:
    case UnaryOp::atan:
    case UnaryOp::sinh:
    case UnaryOp::cosh:
    case UnaryOp::tanh:
    case UnaryOp::sigmoid:
    case UnaryOp::erf:
    case UnaryOp::erfc:
    case UnaryOp::erfinv:
    case UnaryOp::acosh:
    case UnaryOp::asinh:
    case UnaryOp::atanh:
    case UnaryOp::lgamma:
    case UnaryOp::digamma:
    case UnaryOp::sinc:
    case UnaryOp::reciprocal:
    case UnaryOp::silu:
    case UnaryOp::hardswish:
    case UnaryOp::hardsigmoid:
      break;
  }
  TL_INTERNAL_ASSERT(false, "not a dtype-keeping operator");
}

Tensor unary_op(UnaryOp op, const Tensor& a, Tensor* out, bool in_place) {
  const char* name = op_name(op);
  DType in = a.dtype();
  TL_CHECK(!is_complex(in) && !is_quantized(in), UnsupportedError,
           "{}: dtype {} is not supported by torchlet's kernels", name, dtype_name(in));
  UnaryCategory cat = category_of(op);
  if (op == UnaryOp::neg && in == DType::Bool) real_kernel<bool>(op, {});  // torch's message
  if (!torch_has_kernel(op, in)) not_implemented(name, in);
  DType compute = in;
  switch (cat) {
    case UnaryCategory::IntToFloat:
      if (is_integral(in, true)) compute = kDefaultFloatDType;
      break;
    case UnaryCategory::FloatOnly:
      if (!is_floating(in)) not_implemented(name, in);
      break;
    case UnaryCategory::Integral:
      if (!is_integral(in, true)) not_implemented(std::string(name) + "_cpu", in);
      break;
    case UnaryCategory::Real:
    case UnaryCategory::ToBool:
      break;
  }
  DType result = cat == UnaryCategory::ToBool ? DType::Bool : compute;
  kernels::OutputPlan plan(name, out, in_place, a.sizes().vec(), result);
  Tensor x = a.to(compute);
  StridedLoop l = kernels::make_loop({&plan.target(), &x});
  dispatch_real(compute, name, [&]<typename T>() {
    if (cat == UnaryCategory::IntToFloat || cat == UnaryCategory::FloatOnly) {
      if constexpr (std::is_floating_point_v<opmath_t<T>>) return float_kernel<T>(op, l);
      TL_INTERNAL_ASSERT(false, "promoted to float above");
    }
    real_kernel<T>(op, l);
  });
  return plan.finish();
}

double to_double(const Scalar& s) { return s.to_double(); }

// torch 1.13's GeluKernel on bfloat16 computes in Vectorized<BFloat16> (and, for the
// scalar tail, in c10::BFloat16), where every operation rounds its float result to
// bfloat16, constants included. Computing in float and rounding once differs in about a
// quarter of the elements: near x = -3, 1 + erf(x / sqrt 2) is 0 in bfloat16 (torch's -0)
// but 1.5e-3 in float. These follow torch's operations one rounding at a time, which
// matches it bit for bit (every element of the fixtures' sweeps, contiguous and strided).

// Vectorized<float>::erf, the Abramowitz-Stegun 7.1.26 form with torch's FMAs, for the
// bfloat16 path: rounded to bfloat16 it gives torch's bits where libm's erff is a hair
// to the other side of a rounding boundary.
float erf_as_torch_vectorized(float x) {
  const float a = std::fabs(x);
  const float t = 1.0f / std::fma(0.3275911f, a, 1.0f);
  float r = std::fma(1.061405429f, t, -1.453152027f);
  r = std::fma(r, t, 1.421413741f);
  r = std::fma(r, t, -0.284496736f);
  r = std::fma(r, t, 0.254829592f);
  const float e = std::exp(-(x * x));
  return std::copysign(std::fma(-e * t, r, 1.0f), x);
}

// x * 0.5 * (1 + erf(x * M_SQRT1_2)), each step in bfloat16.
float bfloat16_gelu_erf(float x) {
  static const float alpha = round_bf16(static_cast<float>(M_SQRT1_2));
  const float half_x = round_bf16(x * 0.5f);
  const float one_plus_erf = round_bf16(1.0f + round_bf16(erf_as_torch_vectorized(round_bf16(x * alpha))));
  return round_bf16(half_x * one_plus_erf);
}

// 0.5 * x * (1 + tanh(beta * (x + kappa * x^3))), each step in bfloat16.
float bfloat16_gelu_tanh(float x) {
  static const float beta = round_bf16(static_cast<float>(M_SQRT2 * M_2_SQRTPI * 0.5));
  static const float kappa = round_bf16(0.044715f);
  const float cube = round_bf16(round_bf16(x * x) * x);
  const float inner = round_bf16(beta * round_bf16(x + round_bf16(kappa * cube)));
  const float half_x = round_bf16(0.5f * x);
  return round_bf16(half_x * round_bf16(1.0f + round_bf16(std::tanh(inner))));
}

}  // namespace

#define TL_DEFINE_UNARY(name, category, half, boolean)                                                  \
  Tensor name(const Tensor& self) { return unary_op(UnaryOp::name, self, nullptr, false); } \
  Tensor& name##_(Tensor& self) {                                                         \
    unary_op(UnaryOp::name, self, &self, true);                                           \
    return self;                                                                          \
  }                                                                                       \
  Tensor& name##_out(Tensor& out, const Tensor& self) {                                   \
    unary_op(UnaryOp::name, self, &out, false);                                           \
    return out;                                                                           \
  }
TL_UNARY_OPS(TL_DEFINE_UNARY)
#undef TL_DEFINE_UNARY

Tensor gelu(const Tensor& self, std::string_view approximate) {
  if (approximate == "none") {
    // Where torch 1.13 uses oneDNN (contiguous float32, and bfloat16 on AVX-512), so do
    // we: its JIT kernel is what sets torch's speed, and the results are torch's bits.
    if (kernels::gelu_erf_goes_to_dnnl(self)) {
      Tensor out = empty(self.sizes(), self.dtype());
      kernels::dnnl_gelu_erf(self, out);
      return out;
    }
    // Elsewhere torch's GeluKernel: float through the 8-lane rows; bfloat16 with its
    // roundings (bfloat16_gelu_erf); double keeps libm's erf.
    if (self.dtype() == DType::BFloat16) return kernels::map_floating(self, "GeluKernelImpl", bfloat16_gelu_erf);
    if (self.dtype() == DType::Float) {
      Tensor out = empty(self.sizes(), DType::Float);
      run_float_lanes(kernels::make_loop({&out, &self}),
                      [](auto& x) __attribute__((always_inline)) { kernels::gelu_erf_in_place(x); });
      return out;
    }
    return kernels::map_floating(self, "GeluKernelImpl", [](auto x) {
      using M = decltype(x);
      if constexpr (std::is_same_v<M, float>) {
        kernels::gelu_erf_in_place(x);
        return x;
      } else {
        return x * M(0.5) * (M(1) + std::erf(x * M(M_SQRT1_2)));
      }
    });
  }
  TL_CHECK(approximate == "tanh", ValueError, "gelu: approximate argument must be either none or tanh.");
  if (self.dtype() == DType::BFloat16) return kernels::map_floating(self, "GeluKernelImpl", bfloat16_gelu_tanh);
  return kernels::map_floating(self, "GeluKernelImpl", [](auto x) {
    using M = decltype(x);
    const M k_beta = M(M_SQRT2 * M_2_SQRTPI * 0.5);
    const M k_kappa = M(0.044715);
    M inner = k_beta * (x + k_kappa * x * x * x);
    // tanh(y) = 1 - 2 / (e^{2y} + 1): vectorisable through vexp, and its absolute
    // error (~1e-7) is what matters once 1 is added.
    M t = M(1) - M(2) / (kernels::vexp(M(2) * inner) + M(1));
    return M(0.5) * x * (M(1) + t);
  });
}

Tensor leaky_relu(const Tensor& self, const Scalar& negative_slope) {
  double slope = to_double(negative_slope);
  return kernels::map_floating(self, "leaky_relu_cpu", [slope](auto x) {
    using M = decltype(x);
    return x > M(0) ? x : x * M(slope);
  });
}

Tensor elu(const Tensor& self, const Scalar& alpha, const Scalar& scale, const Scalar& input_scale) {
  double a = to_double(alpha), s = to_double(scale), is = to_double(input_scale);
  return kernels::map_floating(self, "elu_cpu", [a, s, is](auto x) {
    using M = decltype(x);
    return x <= M(0) ? (kernels::vexp(x * M(is)) - M(1)) * M(a) * M(s) : x * M(s);
  });
}

Tensor softplus(const Tensor& self, const Scalar& beta, const Scalar& threshold) {
  double b = to_double(beta), t = to_double(threshold);
  return kernels::map_floating(self, "softplus_cpu", [b, t](auto x) {
    using M = decltype(x);
    return x * M(b) > M(t) ? x : std::log1p(std::exp(x * M(b))) / M(b);
  });
}

Tensor hardtanh(const Tensor& self, const Scalar& min_val, const Scalar& max_val) {
  TL_CHECK(self.dtype() != DType::Bool, UnsupportedError, "Bool inputs not supported for hardtanh");
  TL_CHECK(!(self.dtype() == DType::Byte && (min_val.to_double() < 0 || max_val.to_double() < 0)),
           ValueError, "cannot do hardtanh on an unsigned type with negative limits");
  // hardtanh keeps the input dtype (its bounds do not promote, unlike clamp's).
  return clamp(self, min_val, max_val).to(self.dtype());
}

namespace {

Tensor clamp_impl(const Tensor& self, const std::optional<Scalar>& min, const std::optional<Scalar>& max,
                  Tensor* out) {
  TL_CHECK(min || max, ValueError, "torch.clamp: At least one of 'min' or 'max' must not be None");
  // The bounds take part in promotion as wrapped numbers: clamp(bool, 1) is int64.
  ResultTypeState state;
  state.add(self);
  if (min) state.add(*min);
  if (max) state.add(*max);
  DType d = state.result();
  TL_CHECK(d != DType::Half, UnsupportedError, "\"clamp_cpu\" not implemented for 'Half'");
  TL_CHECK(!is_complex(d) && !is_quantized(d), UnsupportedError,
           "clamp is not supported for complex types");
  Tensor src = self.to(d);
  kernels::OutputPlan plan("clamp", out, out != nullptr, self.sizes().vec(), d);
  StridedLoop l = kernels::make_loop({&plan.target(), &src});
  dispatch_real(d, "clamp_cpu", [&]<typename T>() {
    using M = opmath_t<T>;
    // Bounds convert to the tensor's type unchecked, as torch's clamp does.
    const M lo = min ? min->to_unchecked<M>() : M(0);
    const M hi = max ? max->to_unchecked<M>() : M(0);
    const bool has_lo = min.has_value(), has_hi = max.has_value();
    // Selects that compare against the bound, so NaN passes through (every comparison
    // is false) and the loop vectorises to max/min; one loop per combination of bounds.
    if (has_lo && has_hi) return run_unary<T, T>(l, [=](M x) {
      x = x < lo ? lo : x;
      return hi < x ? hi : x;
    });
    if (has_lo) return run_unary<T, T>(l, [=](M x) { return x < lo ? lo : x; });
    run_unary<T, T>(l, [=](M x) { return hi < x ? hi : x; });
  });
  return plan.finish();
}

}  // namespace

Tensor clamp(const Tensor& self, const std::optional<Scalar>& min, const std::optional<Scalar>& max) {
  return clamp_impl(self, min, max, nullptr);
}

Tensor& clamp_(Tensor& self, const std::optional<Scalar>& min, const std::optional<Scalar>& max) {
  clamp_impl(self, min, max, &self);
  return self;
}

}  // namespace torchlet

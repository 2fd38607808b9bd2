// Branch-free float32 exp, tanh and exact GELU that the compiler vectorises (libm calls
// stay scalar without -ffast-math), for the float32 paths of exp, sigmoid, silu, gelu,
// elu and softmax. Accuracy: exp within 2 ulp on its whole range (Cephes' polynomial);
// GELU's erf is the Abramowitz-Stegun 7.1.26 form torch's own vectorised float erf uses
// (absolute error below 1.5e-7). float64 keeps libm.
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

namespace torchlet::kernels {

// e^x: x = n ln2 + r with |r| <= ln2/2 (n rounded to nearest), e^r by a degree-6 polynomial, 2^n by building
// the exponent bits. NaN passes through; above 88.376 gives inf (the true value is
// finite up to 88.72, a range no kernel here relies on), below -87.68 gives 0 and
// between that and -87.34 a subnormal.
// On [-88, 89] n runs from -127 to 128, and n + 127 is the exponent field, so n = 128
// builds inf's bits and n = -127 builds +0, and p * 2^n is inf or 0 with no fix-up; n
// comes out of the rounding trick's mantissa as an integer (no float-to-int
// conversion). Outside that range the arithmetic runs on x as it is (garbage beyond
// |x| ~ 2.9e6, where the trick stops rounding to integers) and two selects at the end
// give inf above 89 and +0 below -88, the results x clamped to either end would give;
// a NaN compares false in both and stays NaN through the polynomial. Clamping x first
// instead put two compare-and-blends at the head of the dependency chain the exp
// kernels are bound by (see the polynomial below); GCC 12 cannot make them min/max
// (it must keep NaN). An earlier version clamped to [-87.34, 88.38] and fixed the ends
// up with three more selects, which cost about a fifth of the function.
// Bit-mask selects, for loops where GCC does not if-convert a ternary (random.cpp).
inline uint32_t mask_if(bool c) { return 0u - static_cast<uint32_t>(c); }
inline float select(bool c, float a, float b) {
  const uint32_t m = mask_if(c);
  return std::bit_cast<float>((std::bit_cast<uint32_t>(a) & m) | (std::bit_cast<uint32_t>(b) & ~m));
}

// Eight float lanes as one value (a GCC vector: one AVX register, two SSE ones in the
// baseline clone), for loops that carry per-lane state the vectoriser will not build
// itself, such as softmax's running sum of exponentials. Kernels use it only inside
// their vector clones and always-inline helpers (a 32-byte vector passed between
// out-of-line functions would change the ABI between the clones).
typedef float Float8 __attribute__((vector_size(32)));
typedef uint32_t UInt8 __attribute__((vector_size(32)));

template <typename V>
struct LaneBits {
  using type = uint32_t;
};
template <>
struct LaneBits<Float8> {
  using type = UInt8;
};

// exp_f32 on a float or on each lane of a Float8, in place, with the same operations in
// the same order, so a row's vector body and its scalar tail round alike. In place
// because a Float8 passed or returned by value is a -Wpsabi error in the baseline
// build (its ABI differs from the AVX2 clone's), even where the call is inlined.
// kNonPositive: the caller knows x <= 0 or NaN (softmax's x - max), so the select for
// x > 89 is left out.
template <bool kNonPositive = false, typename V>
inline __attribute__((always_inline)) void exp_in_place(V& x) {
  using U = typename LaneBits<V>::type;
  const V xc = x;
  // Round to nearest by adding and removing 1.5 * 2^23 (no libm call, so the loop
  // vectorises; exact while |x log2(e)| < 2^22, far beyond the [-88, 89] whose results
  // are kept). t's low mantissa bits hold 0x400000 + n.
  const float kRound = 12582912.0f;
  const V t = xc * 1.44269504088896341f + kRound;
  const V n = t - kRound;
  V r = xc - n * 0.693359375f;
  r = r - n * -2.12194440e-4f;
  // e^r = 1 + r + r^2 (c0 + c1 r + ... + c5 r^5), the inner polynomial in Estrin's
  // form: three independent pairs combined with r^2 and r^4. Horner's form was a chain
  // of ten dependent operations; the kernels that call this (sigmoid, silu, softmax)
  // are bound by that chain's latency, not by the number of operations (an out-of-order
  // core cannot keep enough iterations in flight), and this form is about 12% faster
  // there. Same accuracy (within 1 ulp of e^x on [-87, 88] either way); still no FMA, so
  // every CPU and both vector clones round identically.
  const V r2 = r * r;
  const V c54 = 1.9875691500e-4f * r + 1.3981999507e-3f;
  const V c32 = 8.3334519073e-3f * r + 4.1665795894e-2f;
  const V c10 = 1.6666665459e-1f * r + 5.0000001201e-1f;
  const V r4 = r2 * r2;
  const V p = (c54 * r4 + c32 * r2) + c10;
  const V e = (p * r2 + r) + 1.0f;
  // (0x4B400000 + n + 127) << 23 keeps only (n + 127) << 23: the trick's high bits
  // shift out of the 32-bit word. (__builtin_bit_cast: std::bit_cast is a function
  // returning the vector, the -Wpsabi case above.)
  const V scale = __builtin_bit_cast(V, (__builtin_bit_cast(U, t) + 127u) << 23);
  V y = e * scale;
  if constexpr (!kNonPositive) y = xc > 89.0f ? std::numeric_limits<float>::infinity() : y;
  x = xc < -88.0f ? 0.0f : y;
}

inline float exp_f32(float x) {
  exp_in_place(x);
  return x;
}

// Exact GELU, x * (1 + erf(x / sqrt 2)) / 2, on a float or on each lane of a Float8, in
// place (same operations either way, like exp_in_place). Only where torch runs its own
// GeluKernel: strided float32, and bfloat16 on CPUs without AVX-512; contiguous input
// goes to oneDNN's primitive as in torch (dnnl_eltwise.h). erf is the Abramowitz-Stegun
// 7.1.26 form torch's vectorised float kernel uses, erf(a) = 1 - t P(t) e^{-a^2} with
// t = 1 / (1 + 0.3275911 a) (absolute error below 1.5e-7), so results follow torch's
// where its approximation is off (gelu(-5) is -1.44e-6 here, -1.49e-6 in torch, -1.43e-6
// exactly). The loop is bound by the number of vector operations, not by its chain
// (without FMA every polynomial step is a multiply and an add; an Estrin form of P,
// which shortens the chain, measured no faster, and a variant with a shorter chain but
// a few more operations was slower), so this is written for fewer of them than the
// erf_f32 and GELU map it replaces had (about 36 per eight lanes instead of about 50;
// figures in README):
// - With k = t P(t) e^{-a^2} / 2, GELU(x) = x (1 - k) for x >= 0 and x k for x < 0:
//   one select instead of erf's sign and GELU's 1 +, * 0.5 (P's coefficients are halved,
//   which is exact). For x < 0 this computes x k directly rather than 1 - (1 - 2k),
//   without the cancellation torch's form has there (a few 1e-8 in 1 + erf).
// - a = |x| / sqrt 2 is never formed: t's constant is 0.3275911 / sqrt 2, and e^{-a^2}
//   is 2^y with y = x^2 * (-log2(e) / 2).
// - 2^y: y clamped to [-127, 0] (at -127 the exponent bits built below are 0, giving
//   exactly +0, so no selects at the end as exp_in_place needs); n = y rounded to
//   nearest by the 1.5 * 2^23 trick, with 127 added to the constant so the bits of
//   y + constant already hold n + 127 (the scale is one shift); f = y - n in [-1/2, 1/2]
//   exactly; 2^f by a degree-5 polynomial fitted to it for this file by iterated
//   weighted least squares towards minimax relative error (1.9e-7 in float arithmetic,
//   up to two ulp; exp_in_place's degree-7 Cephes polynomial is within one). That is the
//   size of the erf approximation's own error (1.5e-7 absolute), which the result
//   carries anyway; y's rounding adds |y| * 6e-8 * ln 2 relative, which only grows where
//   e^{-a^2} is already far below what reaches the result.
// NaN stays NaN (through t), +inf gives inf (t = 0, so k = 0), -inf gives NaN (-inf * 0)
// as torch does.
template <typename V>
inline __attribute__((always_inline)) void gelu_erf_in_place(V& x) {
  using U = typename LaneBits<V>::type;
  const V xc = x;
  const V ax = __builtin_bit_cast(V, __builtin_bit_cast(U, xc) & 0x7fffffffu);
  const V t = 1.0f / (ax * 0.231641888f + 1.0f);
  // A-S 7.1.26's a1..a5 halved.
  V p = 0.5307027145f * t - 0.7265760135f;
  p = p * t + 0.7107068705f;
  p = p * t - 0.142248368f;
  p = p * t + 0.127414796f;
  const V q = p * t;
  V y = (xc * xc) * -0.721347520444481703f;
  y = y > -127.0f ? y : -127.0f;  // NaN becomes -127 here; it is still NaN in q
  const float kRound = 12582912.0f + 127.0f;
  const V tn = y + kRound;
  const V f = y - (tn - kRound);
  V e = 1.326472731307149e-3f * f + 9.671512991189957e-3f;
  e = e * f + 5.550733581185341e-2f;
  e = e * f + 2.4022242426872253e-1f;
  e = e * f + 6.931470036506653e-1f;
  e = e * f + 1.0f;
  const V scale = __builtin_bit_cast(V, __builtin_bit_cast(U, tn) << 23);
  const V k = q * (e * scale);
  x = xc * (xc < 0.0f ? k : 1.0f - k);
}

// tanh: for |x| < 0.625 the odd polynomial x + x^3 P(x^2) (Cephes' tanhf coefficients,
// relative error about 2e-7), else 1 - 2 / (e^{2|x|} + 1); computed on |x| and given
// x's sign, so -0 stays -0 and NaN passes through (the exp branch). e^{2|x|}
// overflowing to inf gives exactly 1.
inline float tanh_f32(float x) {
  const uint32_t sign = std::bit_cast<uint32_t>(x) & 0x80000000u;
  const float a = std::bit_cast<float>(std::bit_cast<uint32_t>(x) & 0x7fffffffu);
  const float z = a * a;
  float p = -5.70498872745e-3f;
  p = p * z + 2.06390887954e-2f;
  p = p * z - 5.37397155531e-2f;
  p = p * z + 1.33314422036e-1f;
  p = p * z - 3.33332819422e-1f;
  const float small = p * z * a + a;
  const float big = 1.0f - 2.0f / (exp_f32(2.0f * a) + 1.0f);
  const float r = a < 0.625f ? small : big;
  return std::bit_cast<float>(std::bit_cast<uint32_t>(r) | sign);
}

// The same functions for any floating opmath type: float uses the vectorisable
// versions above, double libm.
template <typename M>
inline M vexp(M x) {
  if constexpr (std::is_same_v<M, float>) return exp_f32(x);
  else return std::exp(x);
}
template <typename M>
inline M vtanh(M x) {
  if constexpr (std::is_same_v<M, float>) return tanh_f32(x);
  else return std::tanh(x);
}

}  // namespace torchlet::kernels

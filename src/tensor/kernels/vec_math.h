// Branch-free float32 exp and erf that the compiler vectorises (libm calls stay scalar
// without -ffast-math), for the float32 paths of exp, sigmoid, silu, gelu, elu and
// softmax. Accuracy: exp within 2 ulp on its whole range (Cephes' polynomial); erf is
// the Abramowitz-Stegun 7.1.26 form torch's own vectorised float erf uses (absolute
// error below 1.5e-7). float64 keeps libm.
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
// Out-of-range results need no fix-up: x is clamped to [-88, 89], where n runs from
// -127 to 128, and n + 127 is the exponent field, so n = 128 builds inf's bits and
// n = -127 builds +0, and p * 2^n is inf or 0. n comes out of the rounding trick's
// mantissa as an integer (no float-to-int conversion). A NaN stays NaN through the
// clamps (ternaries that compare false, which GCC turns into min/max with -fno-trapping-math,
// as the kernels build) and the polynomial. Finite results are bit for bit those of the
// earlier version that clamped to [-87.34, 88.38] and fixed the ends up with three
// selects, which cost about a fifth of the function.
// Bit-mask selects, for loops where GCC does not if-convert a ternary (random.cpp).
inline uint32_t mask_if(bool c) { return 0u - static_cast<uint32_t>(c); }
inline float select(bool c, float a, float b) {
  const uint32_t m = mask_if(c);
  return std::bit_cast<float>((std::bit_cast<uint32_t>(a) & m) | (std::bit_cast<uint32_t>(b) & ~m));
}

inline float exp_f32(float x) {
  float xc = x > 89.0f ? 89.0f : x;
  xc = xc < -88.0f ? -88.0f : xc;
  // Round to nearest by adding and removing 1.5 * 2^23 (no libm call, so the loop
  // vectorises; |x * log2(e)| < 129 is far inside the trick's range). t's low mantissa
  // bits hold 0x400000 + n.
  const float kRound = 12582912.0f;
  const float t = xc * 1.44269504088896341f + kRound;
  const float n = t - kRound;
  float r = xc - n * 0.693359375f;
  r = r - n * -2.12194440e-4f;
  float p = 1.9875691500e-4f;
  p = p * r + 1.3981999507e-3f;
  p = p * r + 8.3334519073e-3f;
  p = p * r + 4.1665795894e-2f;
  p = p * r + 1.6666665459e-1f;
  p = p * r + 5.0000001201e-1f;
  p = p * r * r + r + 1.0f;
  // (0x4B400000 + n + 127) << 23 keeps only (n + 127) << 23: the trick's high bits
  // shift out of the 32-bit word.
  const float scale = std::bit_cast<float>((std::bit_cast<uint32_t>(t) + 127u) << 23);
  return p * scale;
}

inline float erf_f32(float x) {
  const uint32_t sign = std::bit_cast<uint32_t>(x) & 0x80000000u;
  const float a = std::bit_cast<float>(std::bit_cast<uint32_t>(x) & 0x7fffffffu);
  const float t = 1.0f / (1.0f + 0.3275911f * a);
  float p = 1.061405429f;
  p = p * t - 1.453152027f;
  p = p * t + 1.421413741f;
  p = p * t - 0.284496736f;
  p = p * t + 0.254829592f;
  const float r = 1.0f - p * t * exp_f32(-a * a);
  return std::bit_cast<float>(std::bit_cast<uint32_t>(r) | sign);
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
template <typename M>
inline M verf(M x) {
  if constexpr (std::is_same_v<M, float>) return erf_f32(x);
  else return std::erf(x);
}

}  // namespace torchlet::kernels

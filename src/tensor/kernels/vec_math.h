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
// finite up to 88.72, a range no kernel here relies on), below -87.34 gives 0.
// The clamps and fix-ups are ternaries that compare against the bound, so a NaN
// compares false and is kept: the kernels build with -fno-trapping-math, which lets
// GCC turn them into single min/max/blend instructions (the bit-mask `select` below
// costs three) and vectorise the loop.
inline uint32_t mask_if(bool c) { return 0u - static_cast<uint32_t>(c); }
inline float select(bool c, float a, float b) {
  const uint32_t m = mask_if(c);
  return std::bit_cast<float>((std::bit_cast<uint32_t>(a) & m) | (std::bit_cast<uint32_t>(b) & ~m));
}

inline float exp_f32(float x) {
  const float hi = 88.3762626647949f, lo = -87.3365447504019f;
  float xc = x > hi ? hi : x;
  xc = xc < lo ? lo : xc;
  // Round to nearest by adding and removing 1.5 * 2^23 (no libm call, so the loop
  // vectorises; |x * log2(e)| < 128 is far inside the trick's range).
  const float kRound = 12582912.0f;
  float n = (xc * 1.44269504088896341f + kRound) - kRound;
  float r = xc - n * 0.693359375f;
  r = r - n * -2.12194440e-4f;
  float p = 1.9875691500e-4f;
  p = p * r + 1.3981999507e-3f;
  p = p * r + 8.3334519073e-3f;
  p = p * r + 4.1665795894e-2f;
  p = p * r + 1.6666665459e-1f;
  p = p * r + 5.0000001201e-1f;
  p = p * r * r + r + 1.0f;
  float scale = std::bit_cast<float>(static_cast<int32_t>(n + 127.0f) << 23);
  float e = p * scale;
  e = x > hi ? std::numeric_limits<float>::infinity() : e;
  e = x < lo ? 0.0f : e;
  return x != x ? x : e;
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

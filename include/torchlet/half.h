// 16-bit floating types and the quantized element wrappers named by the dtype table.
// Conversions round to nearest-even exactly as c10::Half and c10::BFloat16 do, so
// values written by torch and by torchlet agree bit for bit.
#pragma once

#include <bit>
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstring>

namespace torchlet {

namespace detail {

// IEEE binary16 <-> binary32 the way c10::Half converts without F16C (the FP16
// library's method): float arithmetic does the rounding, so there are no data-dependent
// branches and loops over these vectorise. Round-to-nearest-even; any NaN becomes the
// quiet NaN 0x7e00 (with its sign) going to half, as in torch.
inline float half_bits_to_float(uint16_t h) {
  const uint32_t w = static_cast<uint32_t>(h) << 16;
  const uint32_t sign = w & 0x80000000u;
  const uint32_t two_w = w + w;  // exponent and mantissa, sign shifted out
  // Normal (and inf/NaN) halves: move exponent+mantissa into float position with the
  // exponent over-biased by 0xe0, then scale by 2^-112 to land on the true value.
  const float normalized = std::bit_cast<float>((two_w >> 4) + (0xe0u << 23)) * 0x1.0p-112f;
  // Subnormal halves: put the mantissa under an exponent of 2^-1, subtract 0.5.
  const float denormalized = std::bit_cast<float>((two_w >> 17) | (126u << 23)) - 0.5f;
  const uint32_t magnitude = two_w < (1u << 27) ? std::bit_cast<uint32_t>(denormalized)
                                                : std::bit_cast<uint32_t>(normalized);
  return std::bit_cast<float>(sign | magnitude);
}

inline uint16_t float_to_half_bits(float f) {
  // Scaling |f| up by 2^112 and back down by 2^-110 rounds away everything below the
  // half's precision (and overflows large values to inf) in float arithmetic.
  float base = (std::fabs(f) * 0x1.0p+112f) * 0x1.0p-110f;
  const uint32_t w = std::bit_cast<uint32_t>(f);
  const uint32_t sign = w & 0x80000000u;
  // Signed compares on the magnitude (it fits in int32) so that loops vectorise
  // with plain SSE2, which has no unsigned 32-bit compare.
  const auto magnitude = static_cast<int32_t>(w & 0x7fffffffu);
  int32_t exponent = magnitude & 0x7f800000;
  if (exponent < 0x38800000) exponent = 0x38800000;  // the smallest exponent a half keeps
  // Adding a power of two with the right exponent leaves the rounded half mantissa in
  // the low bits of the float.
  base = std::bit_cast<float>(static_cast<uint32_t>(exponent) + 0x07800000u) + base;
  const uint32_t bits = std::bit_cast<uint32_t>(base);
  const uint32_t exp_bits = (bits >> 13) & 0x00007c00u;
  const uint32_t mantissa_bits = bits & 0x00000fffu;
  const uint32_t nonsign = exp_bits + mantissa_bits;
  return static_cast<uint16_t>((sign >> 16) | (magnitude > 0x7f800000 ? 0x7e00u : nonsign));
}

inline float bfloat16_bits_to_float(uint16_t b) {
  return std::bit_cast<float>(static_cast<uint32_t>(b) << 16);
}

inline uint16_t float_to_bfloat16_bits(float f) {
  if (std::isnan(f)) return 0x7fc0;
  uint32_t x = std::bit_cast<uint32_t>(f);
  uint32_t rounding_bias = 0x7fffu + ((x >> 16) & 1u);
  return static_cast<uint16_t>((x + rounding_bias) >> 16);
}

}  // namespace detail

struct Half {
  uint16_t bits = 0;
  Half() = default;
  Half(float f) : bits(detail::float_to_half_bits(f)) {}  // NOLINT: implicit like c10::Half
  static Half from_bits(uint16_t b) {
    Half h;
    h.bits = b;
    return h;
  }
  operator float() const { return detail::half_bits_to_float(bits); }  // NOLINT
};

struct BFloat16 {
  uint16_t bits = 0;
  BFloat16() = default;
  BFloat16(float f) : bits(detail::float_to_bfloat16_bits(f)) {}  // NOLINT
  static BFloat16 from_bits(uint16_t b) {
    BFloat16 h;
    h.bits = b;
    return h;
  }
  operator float() const { return detail::bfloat16_bits_to_float(bits); }  // NOLINT
};

struct ComplexHalf {
  Half real_, imag_;
  ComplexHalf() = default;
  ComplexHalf(std::complex<float> c) : real_(c.real()), imag_(c.imag()) {}  // NOLINT
  operator std::complex<float>() const { return {float(real_), float(imag_)}; }  // NOLINT
};

// Quantized element wrappers: storage only; no kernel computes on them yet.
struct QInt8 { int8_t val_; };
struct QUInt8 { uint8_t val_; };
struct QInt32 { int32_t val_; };
struct QUInt4x2 { uint8_t val_; };
struct QUInt2x4 { uint8_t val_; };

}  // namespace torchlet

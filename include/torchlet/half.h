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

// IEEE binary16 <-> binary32, round-to-nearest-even, NaN kept quiet.
inline float half_bits_to_float(uint16_t h) {
  uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
  uint32_t exp = (h >> 10) & 0x1fu;
  uint32_t mant = h & 0x3ffu;
  uint32_t bits;
  if (exp == 0) {
    if (mant == 0) {
      bits = sign;
    } else {  // subnormal: normalise
      int shift = 0;
      while ((mant & 0x400u) == 0) {
        mant <<= 1;
        ++shift;
      }
      mant &= 0x3ffu;
      bits = sign | (static_cast<uint32_t>(127 - 15 + 1 - shift) << 23) | (mant << 13);
    }
  } else if (exp == 0x1f) {
    bits = sign | 0x7f800000u | (mant << 13);
  } else {
    bits = sign | ((exp + 127 - 15) << 23) | (mant << 13);
  }
  return std::bit_cast<float>(bits);
}

inline uint16_t float_to_half_bits(float f) {
  uint32_t x = std::bit_cast<uint32_t>(f);
  uint16_t sign = static_cast<uint16_t>((x >> 16) & 0x8000u);
  uint32_t abs = x & 0x7fffffffu;
  if (abs > 0x7f800000u) return static_cast<uint16_t>(sign | 0x7e00u);  // NaN
  if (abs >= 0x477ff000u) return static_cast<uint16_t>(sign | 0x7c00u);  // overflow -> inf
  if (abs < 0x38800000u) {
    // Subnormal or zero: the half's bits are |f| / 2^-24 rounded to nearest-even.
    // Scaling by 2^24 is exact, and rounding up to 0x400 yields the smallest normal.
    float scaled = std::bit_cast<float>(abs) * 16777216.0f;
    return static_cast<uint16_t>(sign | static_cast<uint16_t>(std::nearbyint(scaled)));
  }
  uint32_t rounded = abs + 0xfffu + ((abs >> 13) & 1u);  // RNE on the low 13 bits
  return static_cast<uint16_t>(sign | ((rounded - 0x38000000u) >> 13));
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

// convert<To>(from): element conversion between every pair of kernel element types,
// with torch's results and no undefined behaviour. Float-to-integer conversions of
// NaN or out-of-range values give what x86 (where torch runs) gives: the integer
// "indefinite" value for 32/64-bit targets, and the low bits of the 64-bit (uint8) or
// 32-bit (int8, int16) result for narrower ones. Complex-to-real takes the real part, also for bool (torch 1.13 gives
// False for 1j); any other type to bool is "!= 0".
#pragma once

#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <type_traits>

#include <torchlet/half.h>

namespace torchlet {

namespace detail {

template <typename T>
inline constexpr bool is_complex_v = std::is_same_v<T, std::complex<float>> ||
                                     std::is_same_v<T, std::complex<double>> ||
                                     std::is_same_v<T, ComplexHalf>;
template <typename T>
inline constexpr bool is_reduced_float_v = std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>;

// cvttsd2si semantics: truncate toward zero; NaN/out-of-range -> INT_MIN of the width.
template <typename I>
inline I float_to_int_x86(double v) {
  constexpr double lo = static_cast<double>(std::numeric_limits<I>::min());
  constexpr double hi = -lo;  // 2^(bits-1), exclusive upper bound
  if (!(v >= lo && v < hi)) return std::numeric_limits<I>::min();
  return static_cast<I>(v);
}

}  // namespace detail

template <typename To, typename From>
inline To convert(From v) {
  using namespace detail;
  if constexpr (std::is_same_v<To, From>) {
    return v;
  } else if constexpr (std::is_same_v<To, bool>) {
    if constexpr (is_complex_v<From>) {
      // torch 1.13 casts complex to bool through the real part alone: 1j -> False.
      return std::complex<double>(v).real() != 0;
    } else if constexpr (is_reduced_float_v<From>) {
      return static_cast<float>(v) != 0.0f;
    } else {
      return v != From{0};
    }
  } else if constexpr (is_complex_v<From>) {
    if constexpr (is_complex_v<To>) {
      if constexpr (std::is_same_v<To, ComplexHalf>) {
        return ComplexHalf(std::complex<float>(std::complex<double>(v)));
      } else {
        using R = typename To::value_type;
        std::complex<double> c(v);
        return To(static_cast<R>(c.real()), static_cast<R>(c.imag()));
      }
    } else {
      return convert<To>(std::complex<double>(v).real());
    }
  } else if constexpr (is_complex_v<To>) {
    if constexpr (std::is_same_v<To, ComplexHalf>) {
      return ComplexHalf(std::complex<float>(convert<float>(v), 0.0f));
    } else {
      using R = typename To::value_type;
      return To(convert<R>(v), R(0));
    }
  } else if constexpr (is_reduced_float_v<From>) {
    if constexpr (std::is_same_v<To, BFloat16>) return BFloat16(static_cast<float>(v));
    return convert<To>(static_cast<float>(v));
  } else if constexpr (std::is_same_v<To, BFloat16> && std::is_same_v<From, float>) {
    // torch converts float32 tensors to bfloat16 with a vectorised routine that writes
    // NaN lanes as 0xffff (its scalar path, used from other types, writes 0x7fc0).
    if (std::isnan(v)) return BFloat16::from_bits(0xffff);
    return BFloat16(v);
  } else if constexpr (is_reduced_float_v<To>) {
    // double -> half goes through float, as c10 does.
    return To(static_cast<float>(v));
  } else if constexpr (std::is_floating_point_v<From> && std::is_integral_v<To>) {
    if constexpr (sizeof(To) >= 8) {
      if constexpr (std::is_signed_v<To>) {
        return float_to_int_x86<int64_t>(static_cast<double>(v));
      } else {
        return static_cast<To>(float_to_int_x86<int64_t>(static_cast<double>(v)));
      }
    } else if constexpr (sizeof(To) == 4 && std::is_signed_v<To>) {
      return float_to_int_x86<int32_t>(static_cast<double>(v));
    } else if constexpr (std::is_same_v<To, uint8_t>) {
      // torch's compiled cast to uint8 goes through a 64-bit conversion and keeps the
      // low byte: float64 4294967295.0 -> 255, -2147483649.0 -> 255 (oracle-checked).
      return static_cast<To>(float_to_int_x86<int64_t>(static_cast<double>(v)));
    } else {
      // int8 and int16 go through a 32-bit conversion and keep the low bits:
      // float64 -2147483649.0 -> int8 0 (the low byte of INT32_MIN).
      return static_cast<To>(float_to_int_x86<int32_t>(static_cast<double>(v)));
    }
  } else {
    return static_cast<To>(v);
  }
}

}  // namespace torchlet

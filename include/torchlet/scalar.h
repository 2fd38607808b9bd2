// Scalar: one number of any category (bool, integer, floating, complex), as torch's
// c10::Scalar. Used for fill values, element access and TorchScript number arguments.
#pragma once

#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>

#include <torchlet/dtype.h>

namespace torchlet {

class Scalar {
 public:
  enum class Kind : int8_t { Bool, Int, Double, Complex };

  Scalar() : Scalar(int64_t{0}) {}
  Scalar(bool v) : kind_(Kind::Bool) { i_ = v; }  // NOLINT: implicit like c10::Scalar
  template <typename T>
    requires(std::is_integral_v<T> && !std::is_same_v<T, bool>)
  Scalar(T v) : kind_(Kind::Int) {  // NOLINT
    i_ = static_cast<int64_t>(v);
  }
  Scalar(double v) : kind_(Kind::Double) { d_ = v; }  // NOLINT
  Scalar(float v) : Scalar(static_cast<double>(v)) {}  // NOLINT
  Scalar(Half v) : Scalar(static_cast<double>(float(v))) {}  // NOLINT
  Scalar(BFloat16 v) : Scalar(static_cast<double>(float(v))) {}  // NOLINT
  Scalar(std::complex<double> v) : kind_(Kind::Complex) { c_ = v; }  // NOLINT
  Scalar(std::complex<float> v) : Scalar(std::complex<double>(v)) {}  // NOLINT
  Scalar(ComplexHalf v) : Scalar(std::complex<double>(std::complex<float>(v))) {}  // NOLINT

  Kind kind() const { return kind_; }
  bool is_bool() const { return kind_ == Kind::Bool; }
  bool is_integral() const { return kind_ == Kind::Int; }
  bool is_floating() const { return kind_ == Kind::Double; }
  bool is_complex() const { return kind_ == Kind::Complex; }

  bool to_bool() const;
  int64_t to_int() const;
  double to_double() const;
  std::complex<double> to_complex() const;

  // Converts to a kernel element type as c10::Scalar::to<T> does (fill values, full,
  // linspace ends): the value must fit T, else ValueError "value cannot be converted
  // to type uint8_t without overflow". c10's rules: negative integers wrap into
  // unsigned types; floats compare against T's lowest/max (so -0.5 does not fit
  // uint8, 2^63 does fit int64); infinities fit floating types, NaN fits none of the
  // integer types; complex with a non-zero imaginary part fits no real type; any
  // value fits bool, whose conversion reads the real part only.
  template <typename T>
  T to() const;
  // The same conversion without the range check (convert.h's element rules).
  template <typename T>
  T to_unchecked() const;

  // The dtype torch gives a tensor made from this scalar alone (bool, int64,
  // default float, complex64).
  DType dtype() const;

  bool operator==(const Scalar& o) const;
  // Python-style repr: True, 3, 1.5, (1+2j).
  std::string repr() const;

 private:
  Kind kind_;
  union {
    int64_t i_;
    double d_;
  };
  std::complex<double> c_{};
};

}  // namespace torchlet

#include <torchlet/convert.h>

namespace torchlet::detail {

// The component type c10's overflow check compares against (complex -> its real type).
template <typename T>
struct ScalarComponent {
  using type = T;
};
template <typename R>
struct ScalarComponent<std::complex<R>> {
  using type = R;
};
template <>
struct ScalarComponent<ComplexHalf> {
  using type = Half;
};

// Largest and lowest finite values of a component type, as doubles.
template <typename R>
constexpr double component_max() {
  if constexpr (std::is_same_v<R, Half>) return 65504.0;
  else if constexpr (std::is_same_v<R, BFloat16>) return 3.3895313892515355e38;
  else return static_cast<double>(std::numeric_limits<R>::max());
}
template <typename R>
constexpr double component_lowest() {
  if constexpr (std::is_same_v<R, Half> || std::is_same_v<R, BFloat16>) return -component_max<R>();
  else return static_cast<double>(std::numeric_limits<R>::lowest());
}

// c10::overflows<R>(int64): compared exactly in integers for integer targets.
template <typename R>
bool int_overflows(int64_t v) {
  if constexpr (std::is_integral_v<R>) {
    constexpr auto max = static_cast<uint64_t>(std::numeric_limits<R>::max());
    if (v > 0) return static_cast<uint64_t>(v) > max;
    if constexpr (!std::is_signed_v<R>) {
      // Negative values wrap into unsigned types while their magnitude fits.
      return v < 0 && 0 - static_cast<uint64_t>(v) > max;
    } else {
      return v < static_cast<int64_t>(std::numeric_limits<R>::lowest());
    }
  } else {
    double d = static_cast<double>(v);
    return d < component_lowest<R>() || d > component_max<R>();
  }
}

// c10::overflows<R>(double).
template <typename R>
bool double_overflows(double v) {
  constexpr bool floating = !std::is_integral_v<R>;
  if (floating && std::isinf(v)) return false;
  if (!floating && std::isnan(v)) return true;
  return v < component_lowest<R>() || v > component_max<R>();
}

// c10's spelling of each element type in its overflow message.
template <typename T>
constexpr const char* c10_type_name() {
  if constexpr (std::is_same_v<T, uint8_t>) return "uint8_t";
  else if constexpr (std::is_same_v<T, int8_t>) return "int8_t";
  else if constexpr (std::is_same_v<T, int16_t>) return "int16_t";
  else if constexpr (std::is_same_v<T, int32_t>) return "int";
  else if constexpr (std::is_same_v<T, int64_t>) return "int64_t";
  else if constexpr (std::is_same_v<T, Half>) return "at::Half";
  else if constexpr (std::is_same_v<T, BFloat16>) return "at::BFloat16";
  else if constexpr (std::is_same_v<T, float>) return "float";
  else if constexpr (std::is_same_v<T, double>) return "double";
  else if constexpr (std::is_same_v<T, ComplexHalf>) return "c10::complex<c10::Half>";
  else if constexpr (std::is_same_v<T, std::complex<float>>) return "c10::complex<float>";
  else if constexpr (std::is_same_v<T, std::complex<double>>) return "c10::complex<double>";
  else return "bool";
}

[[noreturn]] void throw_scalar_overflow(const char* type_name);

}  // namespace torchlet::detail

template <typename T>
T torchlet::Scalar::to() const {
  if constexpr (!std::is_same_v<T, bool>) {
    using R = typename detail::ScalarComponent<T>::type;
    constexpr bool complex_target = !std::is_same_v<R, T>;
    bool overflow = false;
    switch (kind_) {
      case Kind::Bool:
        break;
      case Kind::Int:
        overflow = detail::int_overflows<R>(i_);
        break;
      case Kind::Double:
        overflow = detail::double_overflows<R>(d_);
        break;
      case Kind::Complex:
        overflow = (!complex_target && c_.imag() != 0) || detail::double_overflows<R>(c_.real()) ||
                   detail::double_overflows<R>(c_.imag());
        break;
    }
    if (overflow) detail::throw_scalar_overflow(detail::c10_type_name<T>());
  }
  return to_unchecked<T>();
}

template <typename T>
T torchlet::Scalar::to_unchecked() const {
  switch (kind_) {
    case Kind::Bool:
      return convert<T>(i_ != 0);
    case Kind::Int:
      return convert<T>(i_);
    case Kind::Double:
      return convert<T>(d_);
    case Kind::Complex:
      if constexpr (std::is_same_v<T, bool>) return c_.real() != 0;  // c10 reads the real part
      return convert<T>(c_);
  }
  return T{};
}

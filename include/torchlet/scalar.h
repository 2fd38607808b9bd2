// Scalar: one number of any category (bool, integer, floating, complex), as torch's
// c10::Scalar. Used for fill values, element access and TorchScript number arguments.
#pragma once

#include <complex>
#include <cstdint>
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

  // Converts to a kernel element type with torch's cast rules (see convert.h).
  template <typename T>
  T to() const;

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

template <typename T>
T torchlet::Scalar::to() const {
  switch (kind_) {
    case Kind::Bool:
      return convert<T>(i_ != 0);
    case Kind::Int:
      return convert<T>(i_);
    case Kind::Double:
      return convert<T>(d_);
    case Kind::Complex:
      return convert<T>(c_);
  }
  return T{};
}

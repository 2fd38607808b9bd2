// Scalar accessors, equality and Python-style repr. The checked element conversion
// (Scalar::to<T>) is a template in scalar.h; only its error is raised here.
#include <torchlet/scalar.h>

#include <cmath>

#include <torchlet/error.h>

#include "core/python_format.h"

namespace torchlet {

void detail::throw_scalar_overflow(const char* type_name) {
  TL_FAIL(ValueError, "value cannot be converted to type {} without overflow", type_name);
}

bool Scalar::to_bool() const {
  switch (kind_) {
    case Kind::Bool:
    case Kind::Int:
      return i_ != 0;
    case Kind::Double:
      return d_ != 0.0;
    case Kind::Complex:
      return c_ != std::complex<double>(0, 0);
  }
  return false;
}

int64_t Scalar::to_int() const {
  switch (kind_) {
    case Kind::Bool:
    case Kind::Int:
      return i_;
    case Kind::Double:
      return convert<int64_t>(d_);
    case Kind::Complex:
      return convert<int64_t>(c_.real());
  }
  return 0;
}

double Scalar::to_double() const {
  switch (kind_) {
    case Kind::Bool:
    case Kind::Int:
      return static_cast<double>(i_);
    case Kind::Double:
      return d_;
    case Kind::Complex:
      return c_.real();
  }
  return 0;
}

std::complex<double> Scalar::to_complex() const {
  if (kind_ == Kind::Complex) return c_;
  return {to_double(), 0.0};
}

DType Scalar::dtype() const {
  switch (kind_) {
    case Kind::Bool:
      return DType::Bool;
    case Kind::Int:
      return DType::Long;
    case Kind::Double:
      return kDefaultFloatDType;
    case Kind::Complex:
      return DType::ComplexFloat;
  }
  return DType::Long;
}

bool Scalar::operator==(const Scalar& o) const {
  if (kind_ == Kind::Complex || o.kind_ == Kind::Complex) return to_complex() == o.to_complex();
  if (kind_ == Kind::Double || o.kind_ == Kind::Double) return to_double() == o.to_double();
  return i_ == o.i_;
}

std::string Scalar::repr() const {
  switch (kind_) {
    case Kind::Bool:
      return i_ ? "True" : "False";
    case Kind::Int:
      return std::to_string(i_);
    case Kind::Double:
      return python_float_repr(d_);
    case Kind::Complex:
      return python_complex_repr(c_.real(), c_.imag());
  }
  return "";
}

}  // namespace torchlet

// TorchScript's int/float/complex/Scalar arithmetic with Python's semantics: the typed
// kernels of the number overloads (`aten::add.int`, `aten::sin.float`,
// `aten::__and__.bool`, ...) and of the comparisons (`aten::eq.str`, `aten::lt.int`,
// `aten::ne.int_list`, ...), which the family files register beside the tensor overloads
// of the same names (arithmetic.cpp, unary_math.cpp, comparison.cpp, bitwise.cpp,
// special.cpp) and builtins_scalar.cpp registers for the names that have no tensor form
// (floordiv, polar, math.gamma, ...). An overload is a kernel per operand kind:
// binary<Add, double, int64_t> computes in the wider kind as its schema says (int op int
// stays int, any float makes a float, any complex a complex); a `Scalar` overload takes
// a `number` whose kind only the run time knows, as an IValue, and chooses by it
// (binary_scalar<Add>). Semantics follow torch 1.13's interpreter: Python's floor
// division and modulo signs, int64 wrap-around (jit/runtime/scalar_math.h, shared with
// the interpreter's fast path), IEEE results for float division by zero. The rows are
// boxed_inline (Note [Boxing]), so the kernels are defined here, where the flattened
// call can inline them.
#pragma once

#include <cmath>
#include <complex>
#include <cstdint>
#include <functional>
#include <numbers>
#include <numeric>
#include <string>
#include <type_traits>

#include <torchlet/error.h>
#include <torchlet/ivalue.h>

#include "jit/runtime/scalar_math.h"

namespace torchlet::jit::ops {

using Complex = std::complex<double>;
template <typename T>
inline constexpr bool kIsComplex = std::is_same_v<T, Complex>;
template <typename T>
inline constexpr bool kIsFloat = std::is_same_v<T, double>;

// --- the operand of a Scalar overload, by its run-time kind --------------------------------
inline bool is_cplx(const IValue& v) { return v.isComplexDouble(); }
inline int64_t as_int(const IValue& v) { return v.isBool() ? int64_t{v.toBool()} : v.toInt(); }
inline double as_double(const IValue& v) { return v.isDouble() ? v.toDouble() : static_cast<double>(as_int(v)); }
inline Complex as_complex(const IValue& v) { return is_cplx(v) ? v.toComplexDouble() : Complex(as_double(v), 0); }

// int64 arithmetic wraps as torch's does; one definition, shared with the
// interpreter's fast scalar path (jit/runtime/scalar_math.h).
inline int64_t wrap_add(int64_t a, int64_t b) { return scalar::add(a, b); }
inline int64_t wrap_sub(int64_t a, int64_t b) { return scalar::sub(a, b); }
inline int64_t wrap_mul(int64_t a, int64_t b) { return scalar::mul(a, b); }

// math.floor / math.ceil return ints and refuse what has none.
inline int64_t checked_float_to_int(double d) {
  TL_CHECK(std::isfinite(d) && d < 9.2233720368547758e18 && d >= -9.2233720368547758e18, ValueError,
           "Cannot convert float {} to integer", d);
  return static_cast<int64_t>(d);
}

// Python's float // and % (CPython's float_divmod), with IEEE results for a zero
// divisor as torch returns them (inf / nan) instead of raising.
inline double py_fmod(double a, double b) {
  if (b == 0) return std::fmod(a, b);
  double m = std::fmod(a, b);
  if (m != 0) {
    if ((b < 0) != (m < 0)) m += b;
  } else {
    m = std::copysign(0.0, b);
  }
  return m;
}
inline double py_ffloordiv(double a, double b) {
  if (b == 0) return a / b;
  double m = std::fmod(a, b);
  double div = (a - m) / b;
  if (m != 0 && ((b < 0) != (m < 0))) div -= 1.0;
  if (div == 0) return std::copysign(0.0, a / b);
  double fl = std::floor(div);
  if (div - fl > 0.5) fl += 1.0;
  return fl;
}
inline double checked_pow(double a, double b) {
  TL_CHECK(!(a == 0 && b < 0), ValueError, "0.0 cannot be raised to a negative power");
  return std::pow(a, b);
}

// --- binary operators: one struct per operator, a function per operand kind ------------
struct Add {
  static int64_t i(int64_t a, int64_t b) { return wrap_add(a, b); }
  static double d(double a, double b) { return a + b; }
  static Complex c(Complex a, Complex b) { return a + b; }
};
struct Sub {
  static int64_t i(int64_t a, int64_t b) { return wrap_sub(a, b); }
  static double d(double a, double b) { return a - b; }
  static Complex c(Complex a, Complex b) { return a - b; }
};
struct Mul {
  static int64_t i(int64_t a, int64_t b) { return wrap_mul(a, b); }
  static double d(double a, double b) { return a * b; }
  static Complex c(Complex a, Complex b) { return a * b; }
};
struct Div {  // true division: ints give a float
  static double i(int64_t a, int64_t b) { return static_cast<double>(a) / static_cast<double>(b); }
  static double d(double a, double b) { return a / b; }
  static Complex c(Complex a, Complex b) { return a / b; }
};
struct FloorDiv {
  // Python's quotient rounding toward -inf; torch's interpreter says "division by 0".
  static int64_t i(int64_t a, int64_t b) { return scalar::floordiv(a, b); }
  static double d(double a, double b) { return py_ffloordiv(a, b); }
};
struct Remainder {
  static int64_t i(int64_t a, int64_t b) { return scalar::remainder(a, b); }  // the divisor's sign
  static double d(double a, double b) { return py_fmod(a, b); }
};
struct Pow {  // pow.int gives a float, as torch's schema says
  static double i(int64_t a, int64_t b) { return checked_pow(static_cast<double>(a), static_cast<double>(b)); }
  static double d(double a, double b) { return checked_pow(a, b); }
  static Complex c(Complex a, Complex b) { return std::pow(a, b); }
};
struct FMod {  // math.fmod: C's sign rule, always a float
  static double i(int64_t a, int64_t b) { return std::fmod(static_cast<double>(a), static_cast<double>(b)); }
  static double d(double a, double b) { return std::fmod(a, b); }
};
struct Atan2 {
  static double i(int64_t a, int64_t b) { return std::atan2(static_cast<double>(a), static_cast<double>(b)); }
  static double d(double a, double b) { return std::atan2(a, b); }
};
struct CopySign {
  static double i(int64_t a, int64_t b) { return std::copysign(static_cast<double>(a), static_cast<double>(b)); }
  static double d(double a, double b) { return std::copysign(a, b); }
};
struct MathRemainder {  // math.remainder: IEEE remainder (round half to even)
  static double i(int64_t a, int64_t b) { return std::remainder(static_cast<double>(a), static_cast<double>(b)); }
  static double d(double a, double b) { return std::remainder(a, b); }
};
struct Polar {  // complex from magnitude and angle
  static Complex i(int64_t a, int64_t b) { return std::polar(static_cast<double>(a), static_cast<double>(b)); }
  static Complex d(double a, double b) { return std::polar(a, b); }
};

// The typed overloads: Op in the wider of the operand kinds A and B.
template <class Op, typename A, typename B>
auto binary(A a, B b) {
  if constexpr (kIsComplex<A> || kIsComplex<B>) {
    return Op::c(Complex(a), Complex(b));
  } else if constexpr (kIsFloat<A> || kIsFloat<B>) {
    return Op::d(static_cast<double>(a), static_cast<double>(b));
  } else {
    return Op::i(a, b);
  }
}
// The Scalar overloads: the same, choosing by the operands' kinds at run time.
template <class Op>
IValue binary_scalar(const IValue& a, const IValue& b) {
  if (is_cplx(a) || is_cplx(b)) {
    if constexpr (requires { Op::c(Complex{}, Complex{}); }) {
      return IValue(Op::c(as_complex(a), as_complex(b)));
    } else {
      TL_FAIL(TypeError, "operation not defined for complex numbers");
    }
  }
  if (a.isDouble() || b.isDouble()) return IValue(Op::d(as_double(a), as_double(b)));
  return IValue(Op::i(as_int(a), as_int(b)));
}

// math.log(a, base): each operand's log in its own kind (a real operand takes the
// real log, NaN when negative, even beside a complex one, as torch computes it).
template <typename T>
Complex log_of(T x) {
  if constexpr (kIsComplex<T>) {
    return std::log(x);
  } else {
    return Complex(std::log(static_cast<double>(x)), 0);
  }
}
template <typename A, typename B>
auto log_base(A a, B b) {
  if constexpr (kIsComplex<A> || kIsComplex<B>) {
    return log_of(a) / log_of(b);
  } else {
    return std::log(static_cast<double>(a)) / std::log(static_cast<double>(b));
  }
}
inline IValue log_base_scalar(const IValue& a, const IValue& b) {
  const auto log_value = [](const IValue& v) { return is_cplx(v) ? log_of(v.toComplexDouble()) : log_of(as_double(v)); };
  if (is_cplx(a) || is_cplx(b)) return IValue(log_value(a) / log_value(b));
  return IValue(std::log(as_double(a)) / std::log(as_double(b)));
}

// pow.int_to_int: integer power by squaring, wrapping like int64 (torch 1.13 computes it
// in double and pushes a float, against its own schema; we keep the schema's int).
inline int64_t pow_int_to_int(int64_t base, int64_t e) {
  TL_CHECK(!(base == 0 && e < 0), ValueError, "0.0 cannot be raised to a negative power");
  TL_CHECK(e >= 0, ValueError, "Integers to negative integer powers are not allowed.");
  int64_t r = 1;
  while (e > 0) {
    if (e & 1) r = wrap_mul(r, base);
    base = wrap_mul(base, base);
    e >>= 1;
  }
  return r;
}

// --- comparisons ----------------------------------------------------------------------
template <class Cmp, typename A, typename B>
bool compare(A a, B b) {
  if constexpr (kIsFloat<A> || kIsFloat<B>) {
    return Cmp{}(static_cast<double>(a), static_cast<double>(b));
  } else {
    return Cmp{}(a, b);
  }
}
template <class Cmp>
bool compare_str(const std::string& a, const std::string& b) {
  return Cmp{}(a.compare(b), 0);
}
template <class Cmp>
bool compare_scalar(const IValue& a, const IValue& b) {
  if (a.isDouble() || b.isDouble()) return Cmp{}(as_double(a), as_double(b));
  return Cmp{}(as_int(a), as_int(b));
}
// == / != as IValue's Python equality has it: numbers by value across int and float;
// lists, complex numbers, devices and enums (the IValue overloads) by IValue ==.
template <typename A, typename B>
bool equal(const A& a, const B& b) {
  if constexpr (std::is_arithmetic_v<A> && std::is_arithmetic_v<B> && (kIsFloat<A> || kIsFloat<B>)) {
    return static_cast<double>(a) == static_cast<double>(b);
  } else {
    return a == b;
  }
}
template <typename A, typename B>
bool not_equal(const A& a, const B& b) {
  return !equal<A, B>(a, b);
}

// --- unary ----------------------------------------------------------------------------
template <typename T>
T neg(T a) {
  if constexpr (std::is_same_v<T, int64_t>) {
    return wrap_sub(0, a);
  } else {
    return -a;
  }
}


// The math module's one-argument functions: ints and floats give a float, complex a
// complex (when the function has a complex form).
#define TL_MATH1(name, expr_d, expr_c)                          \
  struct Math_##name {                                          \
    static constexpr bool has_complex = true;                   \
    static double d(double x) { return expr_d; }                \
    static Complex c([[maybe_unused]] Complex z) { return expr_c; } \
  };
#define TL_MATH1_REAL(name, expr_d)                             \
  struct Math_##name {                                          \
    static constexpr bool has_complex = false;                  \
    static double d(double x) { return expr_d; }                \
    static Complex c(Complex) { return Complex(NAN); }          \
  };
TL_MATH1(sqrt, std::sqrt(x), std::sqrt(z))
TL_MATH1(exp, std::exp(x), std::exp(z))
TL_MATH1(log, std::log(x), std::log(z))
TL_MATH1(log10, std::log10(x), std::log10(z))
TL_MATH1_REAL(log1p, std::log1p(x))
TL_MATH1_REAL(expm1, std::expm1(x))
TL_MATH1(sin, std::sin(x), std::sin(z))
TL_MATH1(cos, std::cos(x), std::cos(z))
TL_MATH1(tan, std::tan(x), std::tan(z))
TL_MATH1(asin, std::asin(x), std::asin(z))
TL_MATH1(acos, std::acos(x), std::acos(z))
TL_MATH1(atan, std::atan(x), std::atan(z))
TL_MATH1(sinh, std::sinh(x), std::sinh(z))
TL_MATH1(cosh, std::cosh(x), std::cosh(z))
TL_MATH1(tanh, std::tanh(x), std::tanh(z))
TL_MATH1(asinh, std::asinh(x), std::asinh(z))
TL_MATH1(acosh, std::acosh(x), std::acosh(z))
TL_MATH1(atanh, std::atanh(x), std::atanh(z))
TL_MATH1_REAL(erf, std::erf(x))
TL_MATH1_REAL(erfc, std::erfc(x))
TL_MATH1_REAL(gamma, std::tgamma(x))
TL_MATH1_REAL(lgamma, std::lgamma(x))
TL_MATH1_REAL(fabs, std::fabs(x))
TL_MATH1_REAL(degrees, x * (180.0 / std::numbers::pi))
TL_MATH1_REAL(radians, x * (std::numbers::pi / 180.0))
TL_MATH1_REAL(round, std::nearbyint(x))  // round half to even, as Python 3
#undef TL_MATH1
#undef TL_MATH1_REAL

template <class F, typename T>
auto math1(T x) {
  if constexpr (kIsComplex<T>) {
    return F::c(x);
  } else {
    return F::d(static_cast<double>(x));
  }
}

// math.floor / math.ceil: ints stay ints, floats become ints.
template <bool kUp>
int64_t rounded(double x) {
  return checked_float_to_int(kUp ? std::ceil(x) : std::floor(x));
}
inline int64_t int_identity(int64_t a) { return a; }

// The `.Scalar` overloads (a `number`, as item() gives) are torch's
// DEFINE_UNARY_OP_WITH_COMPLEX: the result passes through a C++ `float`, so it is
// rounded to single precision, and a bool operand fails torch's toInt() assertion;
// an operand of a kind the function has no form for is refused the same way.
inline double to_f32(double x) { return static_cast<double>(static_cast<float>(x)); }
inline void check_scalar_operand(const IValue& a, bool complex_ok, const char* op) {
  TL_CHECK(!a.isBool(), TypeError, "{}: expected an int, float or complex number, found bool", op);
  TL_CHECK(complex_ok || !is_cplx(a), TypeError, "{}: expected an int or float, found complex", op);
}
template <class F>
IValue math1_scalar(const IValue& a) {
  check_scalar_operand(a, F::has_complex, "math function");
  if (is_cplx(a)) return IValue(F::c(a.toComplexDouble()));
  return IValue(to_f32(F::d(as_double(a))));
}
inline IValue neg_scalar(const IValue& a) {
  check_scalar_operand(a, true, "neg");
  if (is_cplx(a)) return IValue(-a.toComplexDouble());
  if (a.isDouble()) return IValue(to_f32(-a.toDouble()));
  return IValue(wrap_sub(0, as_int(a)));
}
template <bool kUp>
int64_t rounded_scalar(const IValue& a) {
  check_scalar_operand(a, false, "floor/ceil");
  return a.isDouble() ? rounded<kUp>(a.toDouble()) : as_int(a);
}

// isnan / isinf / isfinite; a complex value by its parts.
enum class FloatClass { NaN, Inf, Finite };
template <FloatClass K>
bool classify(double x) {
  if constexpr (K == FloatClass::NaN) return std::isnan(x);
  else if constexpr (K == FloatClass::Inf) return std::isinf(x);
  else return std::isfinite(x);
}
template <FloatClass K, typename T>
bool float_predicate(T x) {
  if constexpr (kIsComplex<T>) {
    if constexpr (K == FloatClass::Finite) return classify<K>(x.real()) && classify<K>(x.imag());
    return classify<K>(x.real()) || classify<K>(x.imag());
  } else {
    return classify<K>(x);
  }
}

// math.gcd and math.ldexp.
inline int64_t int_gcd(int64_t a, int64_t b) { return static_cast<int64_t>(std::gcd(a, b)); }
inline double float_ldexp(double x, int64_t e) {
  // torch passes the int64 exponent to std::ldexp's int parameter, keeping the low
  // 32 bits (so 2^62 acts as 0); the same narrowing here gives torch's results.
  return std::ldexp(x, static_cast<int>(static_cast<int32_t>(static_cast<uint64_t>(e) & 0xffffffffu)));
}

// --- bitwise and boolean ---------------------------------------------------------------
template <class Op, typename T>
T bitwise(T a, T b) {
  return static_cast<T>(Op{}(a, b));
}
// Shifts as torch computes them on int64 (x86 masks the count to 6 bits).
inline int64_t lshift(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) << (static_cast<uint64_t>(b) & 63));
}
inline int64_t rshift(int64_t a, int64_t b) { return a >> (static_cast<uint64_t>(b) & 63); }

}  // namespace torchlet::jit::ops

// TorchScript's number builtins: arithmetic, comparison, bitwise and conversion
// operators on int/float/complex/bool, and the math module's functions. Each overload
// is boxed from a typed kernel (Note [Boxing] in boxing.h): `add.float_int` is
// binary<Add, double, int64_t>, computed in the wider operand kind as its schema says
// (int op int stays int, any float makes a float, any complex a complex). The `Scalar`
// overloads take a `number` whose kind only the run time knows: their kernels take the
// IValue and choose by its kind. Rows are boxed_inline: they run in tight loops, where
// the stack traffic around a one-instruction kernel is the cost. Semantics follow
// torch 1.13's interpreter (checked in tests/ops/builtins_test.cpp and the gen_ops.py
// fixtures): Python's floor division and modulo signs, int64 wrap-around, IEEE results
// for float division by zero. min/max are builtins_containers.cpp's, with their list
// forms; strings are builtins_str.cpp's.
#include <algorithm>
#include <cerrno>
#include <cmath>
#include <complex>
#include <cstdlib>
#include <limits>
#include <numbers>
#include <numeric>
#include <type_traits>

#include "core/ascii.h"
#include "core/python_format.h"
#include "jit/ops/boxing.h"
#include "jit/runtime/scalar_math.h"

namespace torchlet::jit::ops {
namespace {

using Complex = std::complex<double>;
template <typename T>
constexpr bool kIsComplex = std::is_same_v<T, Complex>;
template <typename T>
constexpr bool kIsFloat = std::is_same_v<T, double>;

// --- the operand of a Scalar overload, by its run-time kind --------------------------------
bool is_cplx(const IValue& v) { return v.isComplexDouble(); }
int64_t as_int(const IValue& v) { return v.isBool() ? int64_t{v.toBool()} : v.toInt(); }
double as_double(const IValue& v) { return v.isDouble() ? v.toDouble() : static_cast<double>(as_int(v)); }
Complex as_complex(const IValue& v) { return is_cplx(v) ? v.toComplexDouble() : Complex(as_double(v), 0); }

// int64 arithmetic wraps as torch's does; one definition, shared with the
// interpreter's fast scalar path (jit/runtime/scalar_math.h).
int64_t wrap_add(int64_t a, int64_t b) { return scalar::add(a, b); }
int64_t wrap_sub(int64_t a, int64_t b) { return scalar::sub(a, b); }
int64_t wrap_mul(int64_t a, int64_t b) { return scalar::mul(a, b); }

// float -> int as torch's interpreter converts (a truncating cast; x86 gives INT64_MIN
// for NaN and out-of-range values, which torch 1.13 returns too).
int64_t float_to_int(double d) {
  if (std::isnan(d) || d >= 9.2233720368547758e18 || d < -9.2233720368547758e18)
    return std::numeric_limits<int64_t>::min();
  return static_cast<int64_t>(d);
}
// math.floor / math.ceil return ints and refuse what has none.
int64_t checked_float_to_int(double d) {
  TL_CHECK(std::isfinite(d) && d < 9.2233720368547758e18 && d >= -9.2233720368547758e18, ValueError,
           "Cannot convert float {} to integer", d);
  return static_cast<int64_t>(d);
}

// Python's float // and % (CPython's float_divmod), with IEEE results for a zero
// divisor as torch returns them (inf / nan) instead of raising.
double py_fmod(double a, double b) {
  if (b == 0) return std::fmod(a, b);
  double m = std::fmod(a, b);
  if (m != 0) {
    if ((b < 0) != (m < 0)) m += b;
  } else {
    m = std::copysign(0.0, b);
  }
  return m;
}
double py_ffloordiv(double a, double b) {
  if (b == 0) return a / b;
  double m = std::fmod(a, b);
  double div = (a - m) / b;
  if (m != 0 && ((b < 0) != (m < 0))) div -= 1.0;
  if (div == 0) return std::copysign(0.0, a / b);
  double fl = std::floor(div);
  if (div - fl > 0.5) fl += 1.0;
  return fl;
}
double checked_pow(double a, double b) {
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
IValue log_base_scalar(const IValue& a, const IValue& b) {
  const auto log_value = [](const IValue& v) { return is_cplx(v) ? log_of(v.toComplexDouble()) : log_of(as_double(v)); };
  if (is_cplx(a) || is_cplx(b)) return IValue(log_value(a) / log_value(b));
  return IValue(std::log(as_double(a)) / std::log(as_double(b)));
}

// pow.int_to_int: integer power by squaring, wrapping like int64 (torch 1.13 computes it
// in double and pushes a float, against its own schema; we keep the schema's int).
int64_t pow_int_to_int(int64_t base, int64_t e) {
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
  return !equal(a, b);
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
// prim::abs: an int stays an int (wrapping at INT64_MIN), a complex gives its magnitude.
template <typename T>
auto abs_of(T a) {
  if constexpr (std::is_same_v<T, int64_t>) {
    return a < 0 ? wrap_sub(0, a) : a;
  } else {
    return std::abs(a);
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
// torch's angle: the argument of a complex number; pi for negative reals, else 0 (NaN
// included).
template <typename T>
double angle(T x) {
  if constexpr (kIsComplex<T>) {
    return std::arg(x);
  } else {
    return static_cast<double>(x) < 0 ? std::numbers::pi : 0.0;
  }
}
// math.floor / math.ceil: ints stay ints, floats become ints.
template <bool kUp>
int64_t rounded(double x) {
  return checked_float_to_int(kUp ? std::ceil(x) : std::floor(x));
}
int64_t int_identity(int64_t a) { return a; }

// The `.Scalar` overloads (a `number`, as item() gives) are torch's
// DEFINE_UNARY_OP_WITH_COMPLEX: the result passes through a C++ `float`, so it is
// rounded to single precision, and a bool operand fails torch's toInt() assertion;
// an operand of a kind the function has no form for is refused the same way.
double to_f32(double x) { return static_cast<double>(static_cast<float>(x)); }
void check_scalar_operand(const IValue& a, bool complex_ok, const char* op) {
  TL_CHECK(!a.isBool(), TypeError, "{}: expected an int, float or complex number, found bool", op);
  TL_CHECK(complex_ok || !is_cplx(a), TypeError, "{}: expected an int or float, found complex", op);
}
template <class F>
IValue math1_scalar(const IValue& a) {
  check_scalar_operand(a, F::has_complex, "math function");
  if (is_cplx(a)) return IValue(F::c(a.toComplexDouble()));
  return IValue(to_f32(F::d(as_double(a))));
}
IValue neg_scalar(const IValue& a) {
  check_scalar_operand(a, true, "neg");
  if (is_cplx(a)) return IValue(-a.toComplexDouble());
  if (a.isDouble()) return IValue(to_f32(-a.toDouble()));
  return IValue(wrap_sub(0, as_int(a)));
}
IValue abs_scalar(const IValue& a) {
  check_scalar_operand(a, true, "abs");
  if (is_cplx(a)) return IValue(to_f32(std::abs(a.toComplexDouble())));
  if (a.isDouble()) return IValue(to_f32(std::fabs(a.toDouble())));
  return IValue(abs_of(as_int(a)));
}
double angle_scalar(const IValue& a) {
  check_scalar_operand(a, true, "angle");
  return to_f32(is_cplx(a) ? angle(a.toComplexDouble()) : angle(as_double(a)));
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

int64_t factorial(int64_t n) {
  TL_CHECK(n >= 0, ValueError, "factorial() not defined for negative values");
  int64_t r = 1;
  for (int64_t i = 2; i <= n; ++i) r = wrap_mul(r, i);
  return r;
}
int64_t gcd(int64_t a, int64_t b) { return static_cast<int64_t>(std::gcd(a, b)); }
double ldexp(double x, int64_t e) {
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
int64_t lshift(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) << (static_cast<uint64_t>(b) & 63));
}
int64_t rshift(int64_t a, int64_t b) { return a >> (static_cast<uint64_t>(b) & 63); }
bool not_(bool a) { return !a; }
// divmod(a, b): (a // b, a % b) with Python's signs; a zero divisor is Python's error.
std::pair<int64_t, int64_t> divmod_int(int64_t a, int64_t b) {
  TL_CHECK(b != 0, ScriptError, "ZeroDivisionError: integer division or modulo by zero");
  return {scalar::floordiv(a, b), scalar::remainder(a, b)};
}
template <typename A, typename B>
std::pair<double, double> divmod_float(A a, B b) {
  const auto x = static_cast<double>(a), y = static_cast<double>(b);
  TL_CHECK(y != 0, ScriptError, "ZeroDivisionError: float divmod()");
  return {py_ffloordiv(x, y), py_fmod(x, y)};
}

// hash(x): torch's IValue::hash, i.e. libstdc++'s std::hash of the value (the values
// differ from Python's), and a tuple folds its elements' with c10::hash_combine.
uint64_t hash_value(const IValue& v) {
  if (v.isInt()) return static_cast<uint64_t>(v.toInt());
  if (v.isBool()) return v.toBool() ? 1 : 0;
  if (v.isNone()) return 0;
  if (v.isDouble()) return std::hash<double>{}(v.toDouble());
  if (v.isString()) return std::hash<std::string>{}(v.toStringRef());
  if (v.isTuple()) {
    uint64_t seed = 0;
    for (const IValue& e : v.tupleRef().elements)
      seed ^= hash_value(e) + 0x9e3779b9 + (seed << 6) + (seed >> 2);
    return seed;
  }
  return std::hash<std::string>{}(v.repr());
}
int64_t hash(const IValue& v) { return static_cast<int64_t>(hash_value(v)); }

// __round_to_zero_floordiv: C division (truncation).
int64_t round_to_zero_floordiv(int64_t a, int64_t b) {
  TL_CHECK(b != 0, ScriptError, "division by 0");
  return b == -1 ? wrap_sub(0, a) : a / b;
}

// --- conversions ------------------------------------------------------------------------
// int(x), float(x), bool(x) and complex(x, y) of a number, a tensor's item() or (the
// Scalar overloads, T = IValue) a number of any kind.
template <typename T>
int64_t int_of(const T& a) {
  if constexpr (std::is_same_v<T, IValue>) {
    return a.isDouble() ? float_to_int(a.toDouble()) : as_int(a);
  } else if constexpr (std::is_same_v<T, Tensor>) {
    const Scalar v = a.item();
    return v.is_floating() ? float_to_int(v.to_double()) : v.to_int();
  } else if constexpr (kIsFloat<T>) {
    return float_to_int(a);
  } else {
    return static_cast<int64_t>(a);
  }
}
template <typename T>
double float_of(const T& a) {
  if constexpr (std::is_same_v<T, IValue>) {
    return as_double(a);
  } else if constexpr (std::is_same_v<T, Tensor>) {
    return a.item().to_double();
  } else {
    return static_cast<double>(a);
  }
}
template <typename T>
bool bool_of(const T& a) {
  if constexpr (std::is_same_v<T, Tensor>) {
    return a.item().to_bool();
  } else {
    return a != 0;
  }
}
Complex complex_of_scalar(const IValue& a) {
  check_scalar_operand(a, true, "Complex");
  return as_complex(a);
}
template <typename A, typename B>
Complex complex_from(const A& re, const B& im) {
  return Complex(float_of(re), float_of(im));
}
// int(str) / float(str): Python's literal forms, no surrounding whitespace (torch's
// conversion refuses " 2 " too).
int64_t int_from_str(const std::string& text) {
  size_t i = 0;
  if (i < text.size() && (text[i] == '-' || text[i] == '+')) ++i;
  bool ok = i < text.size();
  for (size_t j = i; j < text.size(); ++j) ok = ok && ascii_digit(text[j]);
  TL_CHECK(ok, ValueError, "invalid literal for int() with base 10: '{}'", text);
  errno = 0;
  long long v = std::strtoll(text.c_str(), nullptr, 10);
  TL_CHECK(errno == 0, ValueError, "invalid literal for int() with base 10: '{}' (out of range)", text);
  return static_cast<int64_t>(v);
}
double float_from_str(const std::string& text) {
  char* end = nullptr;
  double v = text.empty() || ascii_space(text[0]) ? 0 : strtod_c_locale(text.c_str(), &end);
  TL_CHECK(end != nullptr && end != text.c_str() && *end == '\0', ValueError,
           "could not convert string to float: '{}'", text);
  return v;
}

// The implicit tensor -> number conversions the compiler inserts where a 0-dim tensor
// is passed for a number argument.
Scalar implicit_item(const Tensor& t) {
  TL_CHECK(t.dim() == 0, ValueError,
           "Cannot input a tensor of dimension other than 0 as a scalar argument");
  return t.item();
}
int64_t int_implicit(const Tensor& t) {
  TL_CHECK(!is_floating(t.dtype()) && !is_complex(t.dtype()), TypeError,
           "Cannot input a tensor of type {} as an integral argument", dtype_info(t.dtype()).scalar_type_name);
  return implicit_item(t).to_int();
}
double float_implicit(const Tensor& t) { return implicit_item(t).to_double(); }

// --- range helpers the compiler emits for `for i in range(...)` -------------------------
// len(range(lo, hi, step)).
int64_t range_length(int64_t lo, int64_t hi, int64_t step) {
  TL_CHECK(step != 0, ValueError, "range() arg 3 must not be zero");
  // In unsigned arithmetic: hi - lo can pass INT64_MAX (enumerate(l, -2) counts to
  // INT64_MAX from -2), where torch's int64 overflows and its loop runs zero times. A
  // length past INT64_MAX is INT64_MAX: no loop gets that far.
  const auto span = [](int64_t from, int64_t to) { return static_cast<uint64_t>(to) - static_cast<uint64_t>(from); };
  uint64_t n = 0;
  if (step > 0 && lo < hi) n = 1 + (span(lo, hi) - 1) / static_cast<uint64_t>(step);
  if (step < 0 && lo > hi) n = 1 + (span(hi, lo) - 1) / (0 - static_cast<uint64_t>(step));
  return static_cast<int64_t>(std::min<uint64_t>(n, std::numeric_limits<int64_t>::max()));
}
// The index-th value of range(start, ..., step).
int64_t derive_index(int64_t index, int64_t start, int64_t step) { return wrap_add(start, wrap_mul(index, step)); }

}  // namespace

static RegisterOps reg({
    // add
    {"aten::add(Scalar a, Scalar b) -> Scalar", boxed_inline<&binary_scalar<Add>>},
    {"aten::add.complex(complex a, complex b) -> complex", boxed_inline<&binary<Add, Complex, Complex>>},
    {"aten::add.complex_float(complex a, float b) -> complex", boxed_inline<&binary<Add, Complex, double>>},
    {"aten::add.complex_int(complex a, int b) -> complex", boxed_inline<&binary<Add, Complex, int64_t>>},
    {"aten::add.float(float a, float b) -> float", boxed_inline<&binary<Add, double, double>>},
    {"aten::add.float_complex(float a, complex b) -> complex", boxed_inline<&binary<Add, double, Complex>>},
    {"aten::add.float_int(float a, int b) -> float", boxed_inline<&binary<Add, double, int64_t>>},
    {"aten::add.int(int a, int b) -> int", boxed_inline<&binary<Add, int64_t, int64_t>>},
    {"aten::add.int_complex(int a, complex b) -> complex", boxed_inline<&binary<Add, int64_t, Complex>>},
    {"aten::add.int_float(int a, float b) -> float", boxed_inline<&binary<Add, int64_t, double>>},
    // sub
    {"aten::sub(Scalar a, Scalar b) -> Scalar", boxed_inline<&binary_scalar<Sub>>},
    {"aten::sub.complex(complex a, complex b) -> complex", boxed_inline<&binary<Sub, Complex, Complex>>},
    {"aten::sub.complex_float(complex a, float b) -> complex", boxed_inline<&binary<Sub, Complex, double>>},
    {"aten::sub.complex_int(complex a, int b) -> complex", boxed_inline<&binary<Sub, Complex, int64_t>>},
    {"aten::sub.float(float a, float b) -> float", boxed_inline<&binary<Sub, double, double>>},
    {"aten::sub.float_complex(float a, complex b) -> complex", boxed_inline<&binary<Sub, double, Complex>>},
    {"aten::sub.float_int(float a, int b) -> float", boxed_inline<&binary<Sub, double, int64_t>>},
    {"aten::sub.int(int a, int b) -> int", boxed_inline<&binary<Sub, int64_t, int64_t>>},
    {"aten::sub.int_complex(int a, complex b) -> complex", boxed_inline<&binary<Sub, int64_t, Complex>>},
    {"aten::sub.int_float(int a, float b) -> float", boxed_inline<&binary<Sub, int64_t, double>>},
    // mul
    {"aten::mul(Scalar a, Scalar b) -> Scalar", boxed_inline<&binary_scalar<Mul>>},
    {"aten::mul.complex(complex a, complex b) -> complex", boxed_inline<&binary<Mul, Complex, Complex>>},
    {"aten::mul.complex_float(complex a, float b) -> complex", boxed_inline<&binary<Mul, Complex, double>>},
    {"aten::mul.complex_int(complex a, int b) -> complex", boxed_inline<&binary<Mul, Complex, int64_t>>},
    {"aten::mul.float(float a, float b) -> float", boxed_inline<&binary<Mul, double, double>>},
    {"aten::mul.float_complex(float a, complex b) -> complex", boxed_inline<&binary<Mul, double, Complex>>},
    {"aten::mul.float_int(float a, int b) -> float", boxed_inline<&binary<Mul, double, int64_t>>},
    {"aten::mul.int(int a, int b) -> int", boxed_inline<&binary<Mul, int64_t, int64_t>>},
    {"aten::mul.int_complex(int a, complex b) -> complex", boxed_inline<&binary<Mul, int64_t, Complex>>},
    {"aten::mul.int_float(int a, float b) -> float", boxed_inline<&binary<Mul, int64_t, double>>},
    // div
    {"aten::div(Scalar a, Scalar b) -> float", boxed_inline<&binary_scalar<Div>>},
    {"aten::div.complex(complex a, complex b) -> complex", boxed_inline<&binary<Div, Complex, Complex>>},
    {"aten::div.float(float a, float b) -> float", boxed_inline<&binary<Div, double, double>>},
    {"aten::div.int(int a, int b) -> float", boxed_inline<&binary<Div, int64_t, int64_t>>},
    // floordiv
    {"aten::floordiv(Scalar a, Scalar b) -> Scalar", boxed_inline<&binary_scalar<FloorDiv>>},
    {"aten::floordiv.float(float a, float b) -> float", boxed_inline<&binary<FloorDiv, double, double>>},
    {"aten::floordiv.float_int(float a, int b) -> float", boxed_inline<&binary<FloorDiv, double, int64_t>>},
    {"aten::floordiv.int(int a, int b) -> int", boxed_inline<&binary<FloorDiv, int64_t, int64_t>>},
    {"aten::floordiv.int_float(int a, float b) -> float", boxed_inline<&binary<FloorDiv, int64_t, double>>},
    // remainder
    {"aten::remainder(Scalar a, Scalar b) -> Scalar", boxed_inline<&binary_scalar<Remainder>>},
    {"aten::remainder.float(float a, float b) -> float", boxed_inline<&binary<Remainder, double, double>>},
    {"aten::remainder.float_int(float a, int b) -> float", boxed_inline<&binary<Remainder, double, int64_t>>},
    {"aten::remainder.int(int a, int b) -> int", boxed_inline<&binary<Remainder, int64_t, int64_t>>},
    {"aten::remainder.int_float(int a, float b) -> float", boxed_inline<&binary<Remainder, int64_t, double>>},
    // fmod
    {"aten::fmod(Scalar a, Scalar b) -> float", boxed_inline<&binary_scalar<FMod>>},
    {"aten::fmod.float(float a, float b) -> float", boxed_inline<&binary<FMod, double, double>>},
    {"aten::fmod.float_int(float a, int b) -> float", boxed_inline<&binary<FMod, double, int64_t>>},
    {"aten::fmod.int(int a, int b) -> float", boxed_inline<&binary<FMod, int64_t, int64_t>>},
    {"aten::fmod.int_float(int a, float b) -> float", boxed_inline<&binary<FMod, int64_t, double>>},
    // atan2
    {"aten::atan2.Scalar_Scalar(Scalar a, Scalar b) -> float", boxed_inline<&binary_scalar<Atan2>>},
    {"aten::atan2.float(float a, float b) -> float", boxed_inline<&binary<Atan2, double, double>>},
    {"aten::atan2.float_int(float a, int b) -> float", boxed_inline<&binary<Atan2, double, int64_t>>},
    {"aten::atan2.int(int a, int b) -> float", boxed_inline<&binary<Atan2, int64_t, int64_t>>},
    {"aten::atan2.int_float(int a, float b) -> float", boxed_inline<&binary<Atan2, int64_t, double>>},
    // copysign
    {"aten::copysign(Scalar a, Scalar b) -> float", boxed_inline<&binary_scalar<CopySign>>},
    {"aten::copysign.float(float a, float b) -> float", boxed_inline<&binary<CopySign, double, double>>},
    {"aten::copysign.float_int(float a, int b) -> float", boxed_inline<&binary<CopySign, double, int64_t>>},
    {"aten::copysign.int(int a, int b) -> float", boxed_inline<&binary<CopySign, int64_t, int64_t>>},
    {"aten::copysign.int_float(int a, float b) -> float", boxed_inline<&binary<CopySign, int64_t, double>>},
    // mathremainder
    {"aten::mathremainder(Scalar a, Scalar b) -> float", boxed_inline<&binary_scalar<MathRemainder>>},
    {"aten::mathremainder.float(float a, float b) -> float", boxed_inline<&binary<MathRemainder, double, double>>},
    {"aten::mathremainder.float_int(float a, int b) -> float", boxed_inline<&binary<MathRemainder, double, int64_t>>},
    {"aten::mathremainder.int(int a, int b) -> float", boxed_inline<&binary<MathRemainder, int64_t, int64_t>>},
    {"aten::mathremainder.int_float(int a, float b) -> float", boxed_inline<&binary<MathRemainder, int64_t, double>>},
    // polar
    {"aten::polar.Scalar_Scalar(Scalar a, Scalar b) -> Scalar", boxed_inline<&binary_scalar<Polar>>},
    {"aten::polar.float(float a, float b) -> complex", boxed_inline<&binary<Polar, double, double>>},
    {"aten::polar.float_int(float a, int b) -> complex", boxed_inline<&binary<Polar, double, int64_t>>},
    {"aten::polar.int(int a, int b) -> complex", boxed_inline<&binary<Polar, int64_t, int64_t>>},
    {"aten::polar.int_float(int a, float b) -> complex", boxed_inline<&binary<Polar, int64_t, double>>},
    // pow
    {"aten::pow.Scalar_Scalar(Scalar a, Scalar b) -> float", boxed_inline<&binary_scalar<Pow>>},
    {"aten::pow.complex(complex a, complex b) -> complex", boxed_inline<&binary<Pow, Complex, Complex>>},
    {"aten::pow.complex_float(complex a, float b) -> complex", boxed_inline<&binary<Pow, Complex, double>>},
    {"aten::pow.float(float a, float b) -> float", boxed_inline<&binary<Pow, double, double>>},
    {"aten::pow.float_complex(float a, complex b) -> complex", boxed_inline<&binary<Pow, double, Complex>>},
    {"aten::pow.float_int(float a, int b) -> float", boxed_inline<&binary<Pow, double, int64_t>>},
    {"aten::pow.int(int a, int b) -> float", boxed_inline<&binary<Pow, int64_t, int64_t>>},
    {"aten::pow.int_float(int a, float b) -> float", boxed_inline<&binary<Pow, int64_t, double>>},
    {"aten::pow.int_to_int(int a, int b) -> int", boxed_inline<&pow_int_to_int>},
    // log(x) and log(x, base)
    {"aten::log.Scalar(Scalar a) -> Scalar", boxed_inline<&math1_scalar<Math_log>>},
    {"aten::log.complex(complex a) -> complex", boxed_inline<&math1<Math_log, Complex>>},
    {"aten::log.float(float a) -> float", boxed_inline<&math1<Math_log, double>>},
    {"aten::log.int(int a) -> float", boxed_inline<&math1<Math_log, int64_t>>},
    {"aten::log.Scalar_Scalar(Scalar a, Scalar b) -> float", boxed_inline<&log_base_scalar>},
    {"aten::log.complex_complex(complex a, complex b) -> complex", boxed_inline<&log_base<Complex, Complex>>},
    {"aten::log.complex_float(complex a, float b) -> complex", boxed_inline<&log_base<Complex, double>>},
    {"aten::log.complex_int(complex a, int b) -> complex", boxed_inline<&log_base<Complex, int64_t>>},
    {"aten::log.float_complex(float a, complex b) -> complex", boxed_inline<&log_base<double, Complex>>},
    {"aten::log.float_float(float a, float b) -> float", boxed_inline<&log_base<double, double>>},
    {"aten::log.float_int(float a, int b) -> float", boxed_inline<&log_base<double, int64_t>>},
    {"aten::log.int_complex(int a, complex b) -> complex", boxed_inline<&log_base<int64_t, Complex>>},
    {"aten::log.int_float(int a, float b) -> float", boxed_inline<&log_base<int64_t, double>>},
    {"aten::log.int_int(int a, int b) -> float", boxed_inline<&log_base<int64_t, int64_t>>},
    // lt
    {"aten::lt(Scalar a, Scalar b) -> bool", boxed_inline<&compare_scalar<std::less<>>>},
    {"aten::lt.float(float a, float b) -> bool", boxed_inline<&compare<std::less<>, double, double>>},
    {"aten::lt.float_int(float a, int b) -> bool", boxed_inline<&compare<std::less<>, double, int64_t>>},
    {"aten::lt.int(int a, int b) -> bool", boxed_inline<&compare<std::less<>, int64_t, int64_t>>},
    {"aten::lt.int_float(int a, float b) -> bool", boxed_inline<&compare<std::less<>, int64_t, double>>},
    {"aten::lt.str(str a, str b) -> bool", boxed_inline<&compare_str<std::less<>>>},
    // le
    {"aten::le(Scalar a, Scalar b) -> bool", boxed_inline<&compare_scalar<std::less_equal<>>>},
    {"aten::le.float(float a, float b) -> bool", boxed_inline<&compare<std::less_equal<>, double, double>>},
    {"aten::le.float_int(float a, int b) -> bool", boxed_inline<&compare<std::less_equal<>, double, int64_t>>},
    {"aten::le.int(int a, int b) -> bool", boxed_inline<&compare<std::less_equal<>, int64_t, int64_t>>},
    {"aten::le.int_float(int a, float b) -> bool", boxed_inline<&compare<std::less_equal<>, int64_t, double>>},
    {"aten::le.str(str a, str b) -> bool", boxed_inline<&compare_str<std::less_equal<>>>},
    // gt
    {"aten::gt(Scalar a, Scalar b) -> bool", boxed_inline<&compare_scalar<std::greater<>>>},
    {"aten::gt.float(float a, float b) -> bool", boxed_inline<&compare<std::greater<>, double, double>>},
    {"aten::gt.float_int(float a, int b) -> bool", boxed_inline<&compare<std::greater<>, double, int64_t>>},
    {"aten::gt.int(int a, int b) -> bool", boxed_inline<&compare<std::greater<>, int64_t, int64_t>>},
    {"aten::gt.int_float(int a, float b) -> bool", boxed_inline<&compare<std::greater<>, int64_t, double>>},
    {"aten::gt.str(str a, str b) -> bool", boxed_inline<&compare_str<std::greater<>>>},
    // ge
    {"aten::ge(Scalar a, Scalar b) -> bool", boxed_inline<&compare_scalar<std::greater_equal<>>>},
    {"aten::ge.float(float a, float b) -> bool", boxed_inline<&compare<std::greater_equal<>, double, double>>},
    {"aten::ge.float_int(float a, int b) -> bool", boxed_inline<&compare<std::greater_equal<>, double, int64_t>>},
    {"aten::ge.int(int a, int b) -> bool", boxed_inline<&compare<std::greater_equal<>, int64_t, int64_t>>},
    {"aten::ge.int_float(int a, float b) -> bool", boxed_inline<&compare<std::greater_equal<>, int64_t, double>>},
    {"aten::ge.str(str a, str b) -> bool", boxed_inline<&compare_str<std::greater_equal<>>>},
    // eq / ne: numbers, strings, lists, devices, enums
    {"aten::eq(Scalar a, Scalar b) -> bool", boxed_inline<&equal<IValue, IValue>>},
    {"aten::eq.bool(bool a, bool b) -> bool", boxed_inline<&equal<bool, bool>>},
    {"aten::eq.bool_list(bool[] a, bool[] b) -> bool", boxed_inline<&equal<IValue, IValue>>},
    {"aten::eq.complex(complex a, complex b) -> bool", boxed_inline<&equal<IValue, IValue>>},
    {"aten::eq.complex_float(complex a, float b) -> bool", boxed_inline<&equal<IValue, IValue>>},
    {"aten::eq.device(Device a, Device b) -> bool", boxed_inline<&equal<IValue, IValue>>},
    {"aten::eq.enum(AnyEnumType a, AnyEnumType b) -> bool", boxed_inline<&equal<IValue, IValue>>},
    {"aten::eq.float(float a, float b) -> bool", boxed_inline<&equal<double, double>>},
    {"aten::eq.float_complex(float a, complex b) -> bool", boxed_inline<&equal<IValue, IValue>>},
    {"aten::eq.float_int(float a, int b) -> bool", boxed_inline<&equal<double, int64_t>>},
    {"aten::eq.float_list(float[] a, float[] b) -> bool", boxed_inline<&equal<IValue, IValue>>},
    {"aten::eq.int(int a, int b) -> bool", boxed_inline<&equal<int64_t, int64_t>>},
    {"aten::eq.int_float(int a, float b) -> bool", boxed_inline<&equal<int64_t, double>>},
    {"aten::eq.int_list(int[] a, int[] b) -> bool", boxed_inline<&equal<IValue, IValue>>},
    {"aten::eq.str(str a, str b) -> bool", boxed_inline<&equal<std::string, std::string>>},
    {"aten::eq.str_list(str[] a, str[] b) -> bool", boxed_inline<&equal<IValue, IValue>>},
    {"aten::ne(Scalar a, Scalar b) -> bool", boxed_inline<&not_equal<IValue, IValue>>},
    {"aten::ne.bool(bool a, bool b) -> bool", boxed_inline<&not_equal<bool, bool>>},
    {"aten::ne.bool_list(bool[] a, bool[] b) -> bool", boxed_inline<&not_equal<IValue, IValue>>},
    {"aten::ne.complex(complex a, complex b) -> bool", boxed_inline<&not_equal<IValue, IValue>>},
    {"aten::ne.complex_float(complex a, float b) -> bool", boxed_inline<&not_equal<IValue, IValue>>},
    {"aten::ne.device(Device a, Device b) -> bool", boxed_inline<&not_equal<IValue, IValue>>},
    {"aten::ne.enum(AnyEnumType a, AnyEnumType b) -> bool", boxed_inline<&not_equal<IValue, IValue>>},
    {"aten::ne.float(float a, float b) -> bool", boxed_inline<&not_equal<double, double>>},
    {"aten::ne.float_complex(float a, complex b) -> bool", boxed_inline<&not_equal<IValue, IValue>>},
    {"aten::ne.float_int(float a, int b) -> bool", boxed_inline<&not_equal<double, int64_t>>},
    {"aten::ne.float_list(float[] a, float[] b) -> bool", boxed_inline<&not_equal<IValue, IValue>>},
    {"aten::ne.int(int a, int b) -> bool", boxed_inline<&not_equal<int64_t, int64_t>>},
    {"aten::ne.int_float(int a, float b) -> bool", boxed_inline<&not_equal<int64_t, double>>},
    {"aten::ne.int_list(int[] a, int[] b) -> bool", boxed_inline<&not_equal<IValue, IValue>>},
    {"aten::ne.str(str a, str b) -> bool", boxed_inline<&not_equal<std::string, std::string>>},
    {"aten::ne.str_list(str[] a, str[] b) -> bool", boxed_inline<&not_equal<IValue, IValue>>},
    // unary
    {"aten::neg.Scalar(Scalar a) -> Scalar", boxed_inline<&neg_scalar>},
    {"aten::neg.complex(complex a) -> complex", boxed_inline<&neg<Complex>>},
    {"aten::neg.float(float a) -> float", boxed_inline<&neg<double>>},
    {"aten::neg.int(int a) -> int", boxed_inline<&neg<int64_t>>},
    {"prim::abs.Scalar(Scalar a) -> Scalar", boxed_inline<&abs_scalar>},
    {"prim::abs.complex(complex a) -> float", boxed_inline<&abs_of<Complex>>},
    {"prim::abs.float(float a) -> float", boxed_inline<&abs_of<double>>},
    {"prim::abs.int(int a) -> int", boxed_inline<&abs_of<int64_t>>},
    {"aten::sqrt.Scalar(Scalar a) -> Scalar", boxed_inline<&math1_scalar<Math_sqrt>>},
    {"aten::sqrt.complex(complex a) -> complex", boxed_inline<&math1<Math_sqrt, Complex>>},
    {"aten::sqrt.float(float a) -> float", boxed_inline<&math1<Math_sqrt, double>>},
    {"aten::sqrt.int(int a) -> float", boxed_inline<&math1<Math_sqrt, int64_t>>},
    {"aten::exp.Scalar(Scalar a) -> Scalar", boxed_inline<&math1_scalar<Math_exp>>},
    {"aten::exp.complex(complex a) -> complex", boxed_inline<&math1<Math_exp, Complex>>},
    {"aten::exp.float(float a) -> float", boxed_inline<&math1<Math_exp, double>>},
    {"aten::exp.int(int a) -> float", boxed_inline<&math1<Math_exp, int64_t>>},
    {"aten::log10.Scalar(Scalar a) -> Scalar", boxed_inline<&math1_scalar<Math_log10>>},
    {"aten::log10.complex(complex a) -> complex", boxed_inline<&math1<Math_log10, Complex>>},
    {"aten::log10.float(float a) -> float", boxed_inline<&math1<Math_log10, double>>},
    {"aten::log10.int(int a) -> float", boxed_inline<&math1<Math_log10, int64_t>>},
    {"aten::log1p.Scalar(Scalar a) -> Scalar", boxed_inline<&math1_scalar<Math_log1p>>},
    {"aten::log1p.float(float a) -> float", boxed_inline<&math1<Math_log1p, double>>},
    {"aten::log1p.int(int a) -> float", boxed_inline<&math1<Math_log1p, int64_t>>},
    {"aten::expm1.Scalar(Scalar a) -> Scalar", boxed_inline<&math1_scalar<Math_expm1>>},
    {"aten::expm1.float(float a) -> float", boxed_inline<&math1<Math_expm1, double>>},
    {"aten::expm1.int(int a) -> float", boxed_inline<&math1<Math_expm1, int64_t>>},
    {"aten::sin.Scalar(Scalar a) -> Scalar", boxed_inline<&math1_scalar<Math_sin>>},
    {"aten::sin.complex(complex a) -> complex", boxed_inline<&math1<Math_sin, Complex>>},
    {"aten::sin.float(float a) -> float", boxed_inline<&math1<Math_sin, double>>},
    {"aten::sin.int(int a) -> float", boxed_inline<&math1<Math_sin, int64_t>>},
    {"aten::cos.Scalar(Scalar a) -> Scalar", boxed_inline<&math1_scalar<Math_cos>>},
    {"aten::cos.complex(complex a) -> complex", boxed_inline<&math1<Math_cos, Complex>>},
    {"aten::cos.float(float a) -> float", boxed_inline<&math1<Math_cos, double>>},
    {"aten::cos.int(int a) -> float", boxed_inline<&math1<Math_cos, int64_t>>},
    {"aten::tan.Scalar(Scalar a) -> Scalar", boxed_inline<&math1_scalar<Math_tan>>},
    {"aten::tan.complex(complex a) -> complex", boxed_inline<&math1<Math_tan, Complex>>},
    {"aten::tan.float(float a) -> float", boxed_inline<&math1<Math_tan, double>>},
    {"aten::tan.int(int a) -> float", boxed_inline<&math1<Math_tan, int64_t>>},
    {"aten::asin.Scalar(Scalar a) -> Scalar", boxed_inline<&math1_scalar<Math_asin>>},
    {"aten::asin.complex(complex a) -> complex", boxed_inline<&math1<Math_asin, Complex>>},
    {"aten::asin.float(float a) -> float", boxed_inline<&math1<Math_asin, double>>},
    {"aten::asin.int(int a) -> float", boxed_inline<&math1<Math_asin, int64_t>>},
    {"aten::acos.Scalar(Scalar a) -> Scalar", boxed_inline<&math1_scalar<Math_acos>>},
    {"aten::acos.complex(complex a) -> complex", boxed_inline<&math1<Math_acos, Complex>>},
    {"aten::acos.float(float a) -> float", boxed_inline<&math1<Math_acos, double>>},
    {"aten::acos.int(int a) -> float", boxed_inline<&math1<Math_acos, int64_t>>},
    {"aten::atan.Scalar(Scalar a) -> Scalar", boxed_inline<&math1_scalar<Math_atan>>},
    {"aten::atan.complex(complex a) -> complex", boxed_inline<&math1<Math_atan, Complex>>},
    {"aten::atan.float(float a) -> float", boxed_inline<&math1<Math_atan, double>>},
    {"aten::atan.int(int a) -> float", boxed_inline<&math1<Math_atan, int64_t>>},
    {"aten::sinh.Scalar(Scalar a) -> Scalar", boxed_inline<&math1_scalar<Math_sinh>>},
    {"aten::sinh.complex(complex a) -> complex", boxed_inline<&math1<Math_sinh, Complex>>},
    {"aten::sinh.float(float a) -> float", boxed_inline<&math1<Math_sinh, double>>},
    {"aten::sinh.int(int a) -> float", boxed_inline<&math1<Math_sinh, int64_t>>},
    {"aten::cosh.Scalar(Scalar a) -> Scalar", boxed_inline<&math1_scalar<Math_cosh>>},
    {"aten::cosh.complex(complex a) -> complex", boxed_inline<&math1<Math_cosh, Complex>>},
    {"aten::cosh.float(float a) -> float", boxed_inline<&math1<Math_cosh, double>>},
    {"aten::cosh.int(int a) -> float", boxed_inline<&math1<Math_cosh, int64_t>>},
    {"aten::tanh.Scalar(Scalar a) -> Scalar", boxed_inline<&math1_scalar<Math_tanh>>},
    {"aten::tanh.complex(complex a) -> complex", boxed_inline<&math1<Math_tanh, Complex>>},
    {"aten::tanh.float(float a) -> float", boxed_inline<&math1<Math_tanh, double>>},
    {"aten::tanh.int(int a) -> float", boxed_inline<&math1<Math_tanh, int64_t>>},
    {"aten::asinh.Scalar(Scalar a) -> Scalar", boxed_inline<&math1_scalar<Math_asinh>>},
    {"aten::asinh.complex(complex a) -> complex", boxed_inline<&math1<Math_asinh, Complex>>},
    {"aten::asinh.float(float a) -> float", boxed_inline<&math1<Math_asinh, double>>},
    {"aten::asinh.int(int a) -> float", boxed_inline<&math1<Math_asinh, int64_t>>},
    {"aten::acosh.Scalar(Scalar a) -> Scalar", boxed_inline<&math1_scalar<Math_acosh>>},
    {"aten::acosh.complex(complex a) -> complex", boxed_inline<&math1<Math_acosh, Complex>>},
    {"aten::acosh.float(float a) -> float", boxed_inline<&math1<Math_acosh, double>>},
    {"aten::acosh.int(int a) -> float", boxed_inline<&math1<Math_acosh, int64_t>>},
    {"aten::atanh.Scalar(Scalar a) -> Scalar", boxed_inline<&math1_scalar<Math_atanh>>},
    {"aten::atanh.complex(complex a) -> complex", boxed_inline<&math1<Math_atanh, Complex>>},
    {"aten::atanh.float(float a) -> float", boxed_inline<&math1<Math_atanh, double>>},
    {"aten::atanh.int(int a) -> float", boxed_inline<&math1<Math_atanh, int64_t>>},
    {"aten::erf.Scalar(Scalar a) -> Scalar", boxed_inline<&math1_scalar<Math_erf>>},
    {"aten::erf.float(float a) -> float", boxed_inline<&math1<Math_erf, double>>},
    {"aten::erf.int(int a) -> float", boxed_inline<&math1<Math_erf, int64_t>>},
    {"aten::erfc.Scalar(Scalar a) -> Scalar", boxed_inline<&math1_scalar<Math_erfc>>},
    {"aten::erfc.float(float a) -> float", boxed_inline<&math1<Math_erfc, double>>},
    {"aten::erfc.int(int a) -> float", boxed_inline<&math1<Math_erfc, int64_t>>},
    {"aten::gamma.Scalar(Scalar a) -> Scalar", boxed_inline<&math1_scalar<Math_gamma>>},
    {"aten::gamma.float(float a) -> float", boxed_inline<&math1<Math_gamma, double>>},
    {"aten::gamma.int(int a) -> float", boxed_inline<&math1<Math_gamma, int64_t>>},
    {"aten::lgamma.Scalar(Scalar a) -> Scalar", boxed_inline<&math1_scalar<Math_lgamma>>},
    {"aten::lgamma.float(float a) -> float", boxed_inline<&math1<Math_lgamma, double>>},
    {"aten::lgamma.int(int a) -> float", boxed_inline<&math1<Math_lgamma, int64_t>>},
    {"aten::fabs.Scalar(Scalar a) -> Scalar", boxed_inline<&math1_scalar<Math_fabs>>},
    {"aten::fabs.float(float a) -> float", boxed_inline<&math1<Math_fabs, double>>},
    {"aten::fabs.int(int a) -> float", boxed_inline<&math1<Math_fabs, int64_t>>},
    {"aten::degrees.Scalar(Scalar a) -> Scalar", boxed_inline<&math1_scalar<Math_degrees>>},
    {"aten::degrees.float(float a) -> float", boxed_inline<&math1<Math_degrees, double>>},
    {"aten::degrees.int(int a) -> float", boxed_inline<&math1<Math_degrees, int64_t>>},
    {"aten::radians.Scalar(Scalar a) -> Scalar", boxed_inline<&math1_scalar<Math_radians>>},
    {"aten::radians.float(float a) -> float", boxed_inline<&math1<Math_radians, double>>},
    {"aten::radians.int(int a) -> float", boxed_inline<&math1<Math_radians, int64_t>>},
    {"aten::round.Scalar(Scalar a) -> Scalar", boxed_inline<&math1_scalar<Math_round>>},
    {"aten::round.float(float a) -> float", boxed_inline<&math1<Math_round, double>>},
    {"aten::round.int(int a) -> float", boxed_inline<&math1<Math_round, int64_t>>},
    {"aten::angle.Scalar(Scalar a) -> Scalar", boxed_inline<&angle_scalar>},
    {"aten::angle.complex(complex a) -> float", boxed_inline<&angle<Complex>>},
    {"aten::angle.float(float a) -> float", boxed_inline<&angle<double>>},
    {"aten::angle.int(int a) -> float", boxed_inline<&angle<int64_t>>},
    {"aten::floor.Scalar(Scalar a) -> Scalar", boxed_inline<&rounded_scalar<false>>},
    {"aten::floor.float(float a) -> int", boxed_inline<&rounded<false>>},
    {"aten::floor.int(int a) -> int", boxed_inline<&int_identity>},
    {"aten::ceil.Scalar(Scalar a) -> Scalar", boxed_inline<&rounded_scalar<true>>},
    {"aten::ceil.float(float a) -> int", boxed_inline<&rounded<true>>},
    {"aten::ceil.int(int a) -> int", boxed_inline<&int_identity>},
    {"aten::isnan.complex(complex a) -> bool", boxed_inline<&float_predicate<FloatClass::NaN, Complex>>},
    {"aten::isnan.float(float a) -> bool", boxed_inline<&float_predicate<FloatClass::NaN, double>>},
    {"aten::isinf.complex(complex a) -> bool", boxed_inline<&float_predicate<FloatClass::Inf, Complex>>},
    {"aten::isinf.float(float a) -> bool", boxed_inline<&float_predicate<FloatClass::Inf, double>>},
    {"aten::isfinite.complex(complex a) -> bool", boxed_inline<&float_predicate<FloatClass::Finite, Complex>>},
    {"aten::isfinite.float(float a) -> bool", boxed_inline<&float_predicate<FloatClass::Finite, double>>},
    {"aten::factorial.int(int a) -> int", boxed_inline<&factorial>},
    {"aten::gcd.int(int a, int b) -> int", boxed_inline<&gcd>},
    {"aten::ldexp(float x, int i) -> float", boxed_inline<&ldexp>},
    // bitwise and boolean
    {"aten::__and__.bool(bool a, bool b) -> bool", boxed_inline<&bitwise<std::bit_and<>, bool>>},
    {"aten::__and__.int(int a, int b) -> int", boxed_inline<&bitwise<std::bit_and<>, int64_t>>},
    {"aten::__or__.bool(bool a, bool b) -> bool", boxed_inline<&bitwise<std::bit_or<>, bool>>},
    {"aten::__or__.int(int a, int b) -> int", boxed_inline<&bitwise<std::bit_or<>, int64_t>>},
    {"aten::__xor__.bool(bool a, bool b) -> bool", boxed_inline<&bitwise<std::bit_xor<>, bool>>},
    {"aten::__xor__.int(int a, int b) -> int", boxed_inline<&bitwise<std::bit_xor<>, int64_t>>},
    {"aten::__lshift__.int(int a, int b) -> int", boxed_inline<&lshift>},
    {"aten::__rshift__.int(int a, int b) -> int", boxed_inline<&rshift>},
    {"aten::__not__(bool self) -> bool", boxed_inline<&not_>},
    {"aten::__round_to_zero_floordiv.int(int a, int b) -> int", boxed_inline<&round_to_zero_floordiv>},
    {"aten::divmod.int(int x, int y) -> (int, int)", boxed_inline<&divmod_int>},
    {"aten::divmod.float(float x, float y) -> (float, float)", boxed_inline<&divmod_float<double, double>>},
    {"aten::divmod.int_float(int x, float y) -> (float, float)", boxed_inline<&divmod_float<int64_t, double>>},
    {"aten::divmod.float_int(float x, int y) -> (float, float)", boxed_inline<&divmod_float<double, int64_t>>},
    {"aten::hash.generic(t value) -> int", boxed_inline<&hash>},
    // conversions
    {"aten::Int.Scalar(Scalar a) -> int", boxed_inline<&int_of<IValue>>},
    {"aten::Int.Tensor(Tensor a) -> int", boxed_inline<&int_of<Tensor>>},
    {"aten::Int.bool(bool a) -> int", boxed_inline<&int_of<bool>>},
    {"aten::Int.float(float a) -> int", boxed_inline<&int_of<double>>},
    {"aten::Int.str(str a) -> int", boxed_inline<&int_from_str>},
    {"aten::Float.Scalar(Scalar a) -> float", boxed_inline<&float_of<IValue>>},
    {"aten::Float.Tensor(Tensor a) -> float", boxed_inline<&float_of<Tensor>>},
    {"aten::Float.bool(bool a) -> float", boxed_inline<&float_of<bool>>},
    {"aten::Float.int(int a) -> float", boxed_inline<&float_of<int64_t>>},
    {"aten::Float.str(str a) -> float", boxed_inline<&float_from_str>},
    {"aten::Bool.Tensor(Tensor a) -> bool", boxed_inline<&bool_of<Tensor>>},
    {"aten::Bool.float(float a) -> bool", boxed_inline<&bool_of<double>>},
    {"aten::Bool.int(int a) -> bool", boxed_inline<&bool_of<int64_t>>},
    {"aten::Complex.Scalar(Scalar a) -> complex", boxed_inline<&complex_of_scalar>},
    {"aten::Complex.Tensor_Tensor(Tensor a, Tensor b) -> complex", boxed_inline<&complex_from<Tensor, Tensor>>},
    {"aten::Complex.Tensor_bool(Tensor x, bool y) -> complex", boxed_inline<&complex_from<Tensor, bool>>},
    {"aten::Complex.Tensor_float(Tensor x, float y) -> complex", boxed_inline<&complex_from<Tensor, double>>},
    {"aten::Complex.Tensor_int(Tensor x, int y) -> complex", boxed_inline<&complex_from<Tensor, int64_t>>},
    {"aten::Complex.bool_Tensor(bool x, Tensor y) -> complex", boxed_inline<&complex_from<bool, Tensor>>},
    {"aten::Complex.bool_bool(bool x, bool y) -> complex", boxed_inline<&complex_from<bool, bool>>},
    {"aten::Complex.bool_float(bool x, float y) -> complex", boxed_inline<&complex_from<bool, double>>},
    {"aten::Complex.bool_int(bool x, int y) -> complex", boxed_inline<&complex_from<bool, int64_t>>},
    {"aten::Complex.float_Tensor(float x, Tensor y) -> complex", boxed_inline<&complex_from<double, Tensor>>},
    {"aten::Complex.float_bool(float x, bool y) -> complex", boxed_inline<&complex_from<double, bool>>},
    {"aten::Complex.float_float(float x, float y) -> complex", boxed_inline<&complex_from<double, double>>},
    {"aten::Complex.float_int(float x, int y) -> complex", boxed_inline<&complex_from<double, int64_t>>},
    {"aten::Complex.int_Tensor(int x, Tensor y) -> complex", boxed_inline<&complex_from<int64_t, Tensor>>},
    {"aten::Complex.int_bool(int x, bool y) -> complex", boxed_inline<&complex_from<int64_t, bool>>},
    {"aten::Complex.int_float(int x, float y) -> complex", boxed_inline<&complex_from<int64_t, double>>},
    {"aten::Complex.int_int(int x, int y) -> complex", boxed_inline<&complex_from<int64_t, int64_t>>},
    {"aten::FloatImplicit(Tensor a) -> float", boxed_inline<&float_implicit>},
    {"aten::IntImplicit(Tensor a) -> int", boxed_inline<&int_implicit>},
    {"aten::ScalarImplicit(Tensor a) -> Scalar", boxed_inline<&implicit_item>},
    // range helpers the compiler emits for `for i in range(...)`
    {"aten::__range_length(int lo, int hi, int step) -> int", boxed_inline<&range_length>},
    {"aten::__derive_index(int index, int start, int step) -> int", boxed_inline<&derive_index>},

});

}  // namespace torchlet::jit::ops

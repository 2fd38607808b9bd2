// TorchScript's number builtins: arithmetic, comparison, bitwise and conversion
// operators on int/float/complex/bool/Scalar, and the math module's functions. One
// adapter serves every overload of an operator: the result kind follows the operands'
// kinds at run time (int op int stays int, any float makes a float, any complex a
// complex), which is what each overload's schema says. Semantics follow torch 1.13's
// interpreter (checked in tests/ops/builtins_test.cpp and the gen_ops.py fixtures):
// Python's floor division and modulo signs, int64 wrap-around, IEEE results for float
// division by zero. Lists, dicts and strings are in builtins_list/dict/str.cpp.
#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <complex>
#include <limits>
#include <numbers>
#include <numeric>

#include "core/ascii.h"
#include "core/python_format.h"
#include "jit/ops/ops_util.h"
#include "jit/runtime/scalar_math.h"

namespace torchlet::jit::ops {
namespace {

using Complex = std::complex<double>;

// --- operand kinds -----------------------------------------------------------------------
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
// math.log(a, base): each operand's log in its own kind (a real operand takes the
// real log, NaN when negative, even beside a complex one, as torch computes it).
Complex log_of(const IValue& v) {
  return is_cplx(v) ? std::log(v.toComplexDouble()) : Complex(std::log(as_double(v)), 0);
}
void log_base(Stack& s) {
  IValue b = pop(s);
  IValue a = pop(s);
  if (is_cplx(a) || is_cplx(b)) return push(s, log_of(a) / log_of(b));
  push(s, std::log(as_double(a)) / std::log(as_double(b)));
}
struct Polar {  // complex from magnitude and angle
  static Complex i(int64_t a, int64_t b) { return std::polar(static_cast<double>(a), static_cast<double>(b)); }
  static Complex d(double a, double b) { return std::polar(a, b); }
};
// prim::max/min compare as `a > b ? a : b` (resp. <), so a NaN first loses and a NaN
// second wins, as in torch's interpreter.
struct Max {
  static int64_t i(int64_t a, int64_t b) { return a > b ? a : b; }
  static double d(double a, double b) { return a > b ? a : b; }
};
struct Min {
  static int64_t i(int64_t a, int64_t b) { return a < b ? a : b; }
  static double d(double a, double b) { return a < b ? a : b; }
};

template <class Op>
IValue binary_values(const IValue& a, const IValue& b) {
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

template <class Op>
void binary(Stack& s) {
  IValue b = pop(s);
  IValue a = pop(s);
  push(s, binary_values<Op>(a, b));
}

// pow.int_to_int: integer power by squaring, wrapping like int64 (torch 1.13 computes it
// in double and pushes a float, against its own schema; we keep the schema's int).
void pow_int_to_int(Stack& s) {
  int64_t e = pop_int(s);
  int64_t base = pop_int(s);
  TL_CHECK(!(base == 0 && e < 0), ValueError, "0.0 cannot be raised to a negative power");
  TL_CHECK(e >= 0, ValueError, "Integers to negative integer powers are not allowed.");
  int64_t r = 1;
  while (e > 0) {
    if (e & 1) r = wrap_mul(r, base);
    base = wrap_mul(base, base);
    e >>= 1;
  }
  push(s, r);
}

// --- comparisons ----------------------------------------------------------------------
template <class Cmp>
void compare(Stack& s) {
  IValue b = pop(s);
  IValue a = pop(s);
  if (a.isString()) {
    push(s, Cmp{}(a.toStringRef().compare(b.toStringRef()), 0));
    return;
  }
  if (a.isDouble() || b.isDouble()) {
    push(s, Cmp{}(as_double(a), as_double(b)));
    return;
  }
  push(s, Cmp{}(as_int(a), as_int(b)));
}
// == / != over any values (complex, lists, devices, enums): IValue's Python equality.
void generic_eq(Stack& s) {
  IValue b = pop(s);
  IValue a = pop(s);
  push(s, a == b);
}
void generic_ne(Stack& s) {
  IValue b = pop(s);
  IValue a = pop(s);
  push(s, a != b);
}

// --- unary ----------------------------------------------------------------------------
void neg(Stack& s) {
  IValue a = pop(s);
  if (is_cplx(a)) return push(s, -a.toComplexDouble());
  if (a.isDouble()) return push(s, -a.toDouble());
  push(s, wrap_sub(0, as_int(a)));
}
void abs_(Stack& s) {
  IValue a = pop(s);
  if (is_cplx(a)) return push(s, std::abs(a.toComplexDouble()));
  if (a.isDouble()) return push(s, std::fabs(a.toDouble()));
  int64_t v = as_int(a);
  push(s, v < 0 ? wrap_sub(0, v) : v);
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

template <class F>
void math1(Stack& s) {
  IValue a = pop(s);
  if (is_cplx(a)) return push(s, F::c(a.toComplexDouble()));
  push(s, F::d(as_double(a)));
}
void angle(Stack& s) {
  IValue a = pop(s);
  if (is_cplx(a)) return push(s, std::arg(a.toComplexDouble()));
  // torch's angle: pi for negatives, else 0 (NaN included).
  push(s, as_double(a) < 0 ? std::numbers::pi : 0.0);
}
// math.floor / math.ceil: ints stay ints, floats become ints.
void floor_(Stack& s) {
  IValue a = pop(s);
  if (a.isDouble()) return push(s, checked_float_to_int(std::floor(a.toDouble())));
  push(s, as_int(a));
}
void ceil_(Stack& s) {
  IValue a = pop(s);
  if (a.isDouble()) return push(s, checked_float_to_int(std::ceil(a.toDouble())));
  push(s, as_int(a));
}

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
void math1_scalar(Stack& s) {
  IValue a = pop(s);
  check_scalar_operand(a, F::has_complex, "math function");
  if (is_cplx(a)) return push(s, F::c(a.toComplexDouble()));
  push(s, to_f32(F::d(as_double(a))));
}
void neg_scalar(Stack& s) {
  check_scalar_operand(s.back(), true, "neg");
  neg(s);
  if (s.back().isDouble()) s.back() = to_f32(s.back().toDouble());
}
void abs_scalar(Stack& s) {
  check_scalar_operand(s.back(), true, "abs");
  abs_(s);
  if (s.back().isDouble()) s.back() = to_f32(s.back().toDouble());
}
void angle_scalar(Stack& s) {
  check_scalar_operand(s.back(), true, "angle");
  angle(s);
  s.back() = to_f32(s.back().toDouble());
}
template <void (*Op)(Stack&)>
void rounding_scalar(Stack& s) {
  check_scalar_operand(s.back(), false, "floor/ceil");
  Op(s);
}

// isnan / isinf / isfinite; a complex value by its parts.
enum class FloatClass { NaN, Inf, Finite };
template <FloatClass K>
bool classify(double x) {
  if constexpr (K == FloatClass::NaN) return std::isnan(x);
  else if constexpr (K == FloatClass::Inf) return std::isinf(x);
  else return std::isfinite(x);
}
template <FloatClass K>
void float_predicate(Stack& s) {
  IValue a = pop(s);
  if (is_cplx(a)) {
    Complex z = a.toComplexDouble();
    if constexpr (K == FloatClass::Finite) return push(s, classify<K>(z.real()) && classify<K>(z.imag()));
    return push(s, classify<K>(z.real()) || classify<K>(z.imag()));
  }
  push(s, classify<K>(as_double(a)));
}

void factorial(Stack& s) {
  int64_t n = pop_int(s);
  TL_CHECK(n >= 0, ValueError, "factorial() not defined for negative values");
  int64_t r = 1;
  for (int64_t i = 2; i <= n; ++i) r = wrap_mul(r, i);
  push(s, r);
}
void gcd(Stack& s) {
  int64_t b = pop_int(s);
  int64_t a = pop_int(s);
  push(s, static_cast<int64_t>(std::gcd(a, b)));
}
void ldexp(Stack& s) {
  int64_t e = pop_int(s);
  double x = pop_double(s);
  // torch passes the int64 exponent to std::ldexp's int parameter, keeping the low
  // 32 bits (so 2^62 acts as 0); the same narrowing here gives torch's results.
  push(s, std::ldexp(x, static_cast<int>(static_cast<int32_t>(static_cast<uint64_t>(e) & 0xffffffffu))));
}

// --- bitwise and boolean ---------------------------------------------------------------
template <class Op>
void bitwise(Stack& s) {
  IValue b = pop(s);
  IValue a = pop(s);
  int64_t r = Op{}(as_int(a), as_int(b));
  if (a.isBool() && b.isBool()) return push(s, r != 0);
  push(s, r);
}
// Shifts as torch computes them on int64 (x86 masks the count to 6 bits).
void lshift(Stack& s) {
  int64_t b = pop_int(s);
  int64_t a = pop_int(s);
  push(s, static_cast<int64_t>(static_cast<uint64_t>(a) << (static_cast<uint64_t>(b) & 63)));
}
void rshift(Stack& s) {
  int64_t b = pop_int(s);
  int64_t a = pop_int(s);
  push(s, a >> (static_cast<uint64_t>(b) & 63));
}
void not_(Stack& s) { push(s, !pop_bool(s)); }
// divmod(a, b): (a // b, a % b) with Python's signs; a zero divisor is Python's error.
void divmod(Stack& s) {
  IValue b = pop(s), a = pop(s);
  if (a.isInt() && b.isInt()) {
    TL_CHECK(b.toInt() != 0, ScriptError, "ZeroDivisionError: integer division or modulo by zero");
    push(s, scalar::floordiv(a.toInt(), b.toInt()));
    push(s, scalar::remainder(a.toInt(), b.toInt()));
    return;
  }
  const double x = as_double(a), y = as_double(b);
  TL_CHECK(y != 0, ScriptError, "ZeroDivisionError: float divmod()");
  push(s, py_ffloordiv(x, y));
  push(s, py_fmod(x, y));
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
void hash(Stack& s) { push(s, static_cast<int64_t>(hash_value(pop(s)))); }

// __round_to_zero_floordiv: C division (truncation).
void round_to_zero_floordiv(Stack& s) {
  int64_t b = pop_int(s);
  int64_t a = pop_int(s);
  TL_CHECK(b != 0, ScriptError, "division by 0");
  push(s, b == -1 ? wrap_sub(0, a) : a / b);
}

// --- conversions ------------------------------------------------------------------------
void to_int(Stack& s) {
  IValue a = pop(s);
  if (a.isDouble()) return push(s, float_to_int(a.toDouble()));
  if (a.isTensor()) {
    Scalar v = a.toTensor().item();
    return push(s, v.is_floating() ? float_to_int(v.to_double()) : v.to_int());
  }
  push(s, as_int(a));
}
void to_float(Stack& s) {
  IValue a = pop(s);
  if (a.isTensor()) return push(s, a.toTensor().item().to_double());
  push(s, as_double(a));
}
void to_bool(Stack& s) {
  IValue a = pop(s);
  if (a.isTensor()) return push(s, a.toTensor().item().to_bool());
  if (a.isDouble()) return push(s, a.toDouble() != 0);
  push(s, as_int(a) != 0);
}
void to_complex(Stack& s) {
  IValue a = pop(s);
  if (a.isTensor()) return push(s, a.toTensor().item().to_complex());
  push(s, as_complex(a));
}
void complex_scalar(Stack& s) {
  check_scalar_operand(s.back(), true, "Complex");
  to_complex(s);
}
double real_part(const IValue& v) {
  return v.isTensor() ? v.toTensor().item().to_double() : as_double(v);
}
void complex_from_parts(Stack& s) {
  IValue im = pop(s);
  IValue re = pop(s);
  push(s, Complex(real_part(re), real_part(im)));
}
// int(str) / float(str): Python's literal forms, no surrounding whitespace (torch's
// conversion refuses " 2 " too).
void int_from_str(Stack& s) {
  std::string text = pop_str(s);
  size_t i = 0;
  if (i < text.size() && (text[i] == '-' || text[i] == '+')) ++i;
  bool ok = i < text.size();
  for (size_t j = i; j < text.size(); ++j) ok = ok && ascii_digit(text[j]);
  TL_CHECK(ok, ValueError, "invalid literal for int() with base 10: '{}'", text);
  errno = 0;
  long long v = std::strtoll(text.c_str(), nullptr, 10);
  TL_CHECK(errno == 0, ValueError, "invalid literal for int() with base 10: '{}' (out of range)", text);
  push(s, static_cast<int64_t>(v));
}
void float_from_str(Stack& s) {
  std::string text = pop_str(s);
  char* end = nullptr;
  double v = text.empty() || ascii_space(text[0]) ? 0 : strtod_c_locale(text.c_str(), &end);
  TL_CHECK(end != nullptr && end != text.c_str() && *end == '\0', ValueError,
           "could not convert string to float: '{}'", text);
  push(s, v);
}

// The implicit tensor -> number conversions the compiler inserts where a 0-dim tensor
// is passed for a number argument.
Scalar implicit_item(const Tensor& t) {
  TL_CHECK(t.dim() == 0, ValueError,
           "Cannot input a tensor of dimension other than 0 as a scalar argument");
  return t.item();
}
void int_implicit(Stack& s) {
  Tensor t = pop_tensor(s);
  TL_CHECK(!is_floating(t.dtype()) && !is_complex(t.dtype()), TypeError,
           "Cannot input a tensor of type {} as an integral argument", dtype_info(t.dtype()).scalar_type_name);
  push(s, implicit_item(t).to_int());
}
void float_implicit(Stack& s) { push(s, implicit_item(pop_tensor(s)).to_double()); }
void scalar_implicit(Stack& s) { push(s, IValue(implicit_item(pop_tensor(s)))); }

// --- misc -------------------------------------------------------------------------------
// len(range(lo, hi, step)).
void range_length(Stack& s) {
  int64_t step = pop_int(s);
  int64_t hi = pop_int(s);
  int64_t lo = pop_int(s);
  TL_CHECK(step != 0, ValueError, "range() arg 3 must not be zero");
  // In unsigned arithmetic: hi - lo can pass INT64_MAX (enumerate(l, -2) counts to
  // INT64_MAX from -2), where torch's int64 overflows and its loop runs zero times. A
  // length past INT64_MAX is INT64_MAX: no loop gets that far.
  const auto span = [](int64_t from, int64_t to) { return static_cast<uint64_t>(to) - static_cast<uint64_t>(from); };
  uint64_t n = 0;
  if (step > 0 && lo < hi) n = 1 + (span(lo, hi) - 1) / static_cast<uint64_t>(step);
  if (step < 0 && lo > hi) n = 1 + (span(hi, lo) - 1) / (0 - static_cast<uint64_t>(step));
  push(s, static_cast<int64_t>(std::min<uint64_t>(n, std::numeric_limits<int64_t>::max())));
}
// The index-th value of range(start, ..., step).
void derive_index(Stack& s) {
  int64_t step = pop_int(s);
  int64_t start = pop_int(s);
  int64_t index = pop_int(s);
  push(s, wrap_add(start, wrap_mul(index, step)));
}

}  // namespace

static RegisterOps reg({
    // add
    {"aten::add(Scalar a, Scalar b) -> Scalar", binary<Add>},
    {"aten::add.complex(complex a, complex b) -> complex", binary<Add>},
    {"aten::add.complex_float(complex a, float b) -> complex", binary<Add>},
    {"aten::add.complex_int(complex a, int b) -> complex", binary<Add>},
    {"aten::add.float(float a, float b) -> float", binary<Add>},
    {"aten::add.float_complex(float a, complex b) -> complex", binary<Add>},
    {"aten::add.float_int(float a, int b) -> float", binary<Add>},
    {"aten::add.int(int a, int b) -> int", binary<Add>},
    {"aten::add.int_complex(int a, complex b) -> complex", binary<Add>},
    {"aten::add.int_float(int a, float b) -> float", binary<Add>},
    // sub
    {"aten::sub(Scalar a, Scalar b) -> Scalar", binary<Sub>},
    {"aten::sub.complex(complex a, complex b) -> complex", binary<Sub>},
    {"aten::sub.complex_float(complex a, float b) -> complex", binary<Sub>},
    {"aten::sub.complex_int(complex a, int b) -> complex", binary<Sub>},
    {"aten::sub.float(float a, float b) -> float", binary<Sub>},
    {"aten::sub.float_complex(float a, complex b) -> complex", binary<Sub>},
    {"aten::sub.float_int(float a, int b) -> float", binary<Sub>},
    {"aten::sub.int(int a, int b) -> int", binary<Sub>},
    {"aten::sub.int_complex(int a, complex b) -> complex", binary<Sub>},
    {"aten::sub.int_float(int a, float b) -> float", binary<Sub>},
    // mul
    {"aten::mul(Scalar a, Scalar b) -> Scalar", binary<Mul>},
    {"aten::mul.complex(complex a, complex b) -> complex", binary<Mul>},
    {"aten::mul.complex_float(complex a, float b) -> complex", binary<Mul>},
    {"aten::mul.complex_int(complex a, int b) -> complex", binary<Mul>},
    {"aten::mul.float(float a, float b) -> float", binary<Mul>},
    {"aten::mul.float_complex(float a, complex b) -> complex", binary<Mul>},
    {"aten::mul.float_int(float a, int b) -> float", binary<Mul>},
    {"aten::mul.int(int a, int b) -> int", binary<Mul>},
    {"aten::mul.int_complex(int a, complex b) -> complex", binary<Mul>},
    {"aten::mul.int_float(int a, float b) -> float", binary<Mul>},
    // div
    {"aten::div(Scalar a, Scalar b) -> float", binary<Div>},
    {"aten::div.complex(complex a, complex b) -> complex", binary<Div>},
    {"aten::div.float(float a, float b) -> float", binary<Div>},
    {"aten::div.int(int a, int b) -> float", binary<Div>},
    // floordiv
    {"aten::floordiv(Scalar a, Scalar b) -> Scalar", binary<FloorDiv>},
    {"aten::floordiv.float(float a, float b) -> float", binary<FloorDiv>},
    {"aten::floordiv.float_int(float a, int b) -> float", binary<FloorDiv>},
    {"aten::floordiv.int(int a, int b) -> int", binary<FloorDiv>},
    {"aten::floordiv.int_float(int a, float b) -> float", binary<FloorDiv>},
    // remainder
    {"aten::remainder(Scalar a, Scalar b) -> Scalar", binary<Remainder>},
    {"aten::remainder.float(float a, float b) -> float", binary<Remainder>},
    {"aten::remainder.float_int(float a, int b) -> float", binary<Remainder>},
    {"aten::remainder.int(int a, int b) -> int", binary<Remainder>},
    {"aten::remainder.int_float(int a, float b) -> float", binary<Remainder>},
    // fmod
    {"aten::fmod(Scalar a, Scalar b) -> float", binary<FMod>},
    {"aten::fmod.float(float a, float b) -> float", binary<FMod>},
    {"aten::fmod.float_int(float a, int b) -> float", binary<FMod>},
    {"aten::fmod.int(int a, int b) -> float", binary<FMod>},
    {"aten::fmod.int_float(int a, float b) -> float", binary<FMod>},
    // atan2
    {"aten::atan2.Scalar_Scalar(Scalar a, Scalar b) -> float", binary<Atan2>},
    {"aten::atan2.float(float a, float b) -> float", binary<Atan2>},
    {"aten::atan2.float_int(float a, int b) -> float", binary<Atan2>},
    {"aten::atan2.int(int a, int b) -> float", binary<Atan2>},
    {"aten::atan2.int_float(int a, float b) -> float", binary<Atan2>},
    // copysign
    {"aten::copysign(Scalar a, Scalar b) -> float", binary<CopySign>},
    {"aten::copysign.float(float a, float b) -> float", binary<CopySign>},
    {"aten::copysign.float_int(float a, int b) -> float", binary<CopySign>},
    {"aten::copysign.int(int a, int b) -> float", binary<CopySign>},
    {"aten::copysign.int_float(int a, float b) -> float", binary<CopySign>},
    // mathremainder
    {"aten::mathremainder(Scalar a, Scalar b) -> float", binary<MathRemainder>},
    {"aten::mathremainder.float(float a, float b) -> float", binary<MathRemainder>},
    {"aten::mathremainder.float_int(float a, int b) -> float", binary<MathRemainder>},
    {"aten::mathremainder.int(int a, int b) -> float", binary<MathRemainder>},
    {"aten::mathremainder.int_float(int a, float b) -> float", binary<MathRemainder>},
    // polar
    {"aten::polar.Scalar_Scalar(Scalar a, Scalar b) -> Scalar", binary<Polar>},
    {"aten::polar.float(float a, float b) -> complex", binary<Polar>},
    {"aten::polar.float_int(float a, int b) -> complex", binary<Polar>},
    {"aten::polar.int(int a, int b) -> complex", binary<Polar>},
    {"aten::polar.int_float(int a, float b) -> complex", binary<Polar>},
    // pow
    {"aten::pow.Scalar_Scalar(Scalar a, Scalar b) -> float", binary<Pow>},
    {"aten::pow.complex(complex a, complex b) -> complex", binary<Pow>},
    {"aten::pow.complex_float(complex a, float b) -> complex", binary<Pow>},
    {"aten::pow.float(float a, float b) -> float", binary<Pow>},
    {"aten::pow.float_complex(float a, complex b) -> complex", binary<Pow>},
    {"aten::pow.float_int(float a, int b) -> float", binary<Pow>},
    {"aten::pow.int(int a, int b) -> float", binary<Pow>},
    {"aten::pow.int_float(int a, float b) -> float", binary<Pow>},
    {"aten::pow.int_to_int(int a, int b) -> int", pow_int_to_int},
    // log(x) and log(x, base)
    {"aten::log.Scalar(Scalar a) -> Scalar", math1_scalar<Math_log>},
    {"aten::log.complex(complex a) -> complex", math1<Math_log>},
    {"aten::log.float(float a) -> float", math1<Math_log>},
    {"aten::log.int(int a) -> float", math1<Math_log>},
    {"aten::log.Scalar_Scalar(Scalar a, Scalar b) -> float", log_base},
    {"aten::log.complex_complex(complex a, complex b) -> complex", log_base},
    {"aten::log.complex_float(complex a, float b) -> complex", log_base},
    {"aten::log.complex_int(complex a, int b) -> complex", log_base},
    {"aten::log.float_complex(float a, complex b) -> complex", log_base},
    {"aten::log.float_float(float a, float b) -> float", log_base},
    {"aten::log.float_int(float a, int b) -> float", log_base},
    {"aten::log.int_complex(int a, complex b) -> complex", log_base},
    {"aten::log.int_float(int a, float b) -> float", log_base},
    {"aten::log.int_int(int a, int b) -> float", log_base},
    // lt
    {"aten::lt(Scalar a, Scalar b) -> bool", compare<std::less<>>},
    {"aten::lt.float(float a, float b) -> bool", compare<std::less<>>},
    {"aten::lt.float_int(float a, int b) -> bool", compare<std::less<>>},
    {"aten::lt.int(int a, int b) -> bool", compare<std::less<>>},
    {"aten::lt.int_float(int a, float b) -> bool", compare<std::less<>>},
    {"aten::lt.str(str a, str b) -> bool", compare<std::less<>>},
    // le
    {"aten::le(Scalar a, Scalar b) -> bool", compare<std::less_equal<>>},
    {"aten::le.float(float a, float b) -> bool", compare<std::less_equal<>>},
    {"aten::le.float_int(float a, int b) -> bool", compare<std::less_equal<>>},
    {"aten::le.int(int a, int b) -> bool", compare<std::less_equal<>>},
    {"aten::le.int_float(int a, float b) -> bool", compare<std::less_equal<>>},
    {"aten::le.str(str a, str b) -> bool", compare<std::less_equal<>>},
    // gt
    {"aten::gt(Scalar a, Scalar b) -> bool", compare<std::greater<>>},
    {"aten::gt.float(float a, float b) -> bool", compare<std::greater<>>},
    {"aten::gt.float_int(float a, int b) -> bool", compare<std::greater<>>},
    {"aten::gt.int(int a, int b) -> bool", compare<std::greater<>>},
    {"aten::gt.int_float(int a, float b) -> bool", compare<std::greater<>>},
    {"aten::gt.str(str a, str b) -> bool", compare<std::greater<>>},
    // ge
    {"aten::ge(Scalar a, Scalar b) -> bool", compare<std::greater_equal<>>},
    {"aten::ge.float(float a, float b) -> bool", compare<std::greater_equal<>>},
    {"aten::ge.float_int(float a, int b) -> bool", compare<std::greater_equal<>>},
    {"aten::ge.int(int a, int b) -> bool", compare<std::greater_equal<>>},
    {"aten::ge.int_float(int a, float b) -> bool", compare<std::greater_equal<>>},
    {"aten::ge.str(str a, str b) -> bool", compare<std::greater_equal<>>},
    // eq / ne: numbers, strings, lists, devices, enums
    {"aten::eq(Scalar a, Scalar b) -> bool", generic_eq},
    {"aten::eq.bool(bool a, bool b) -> bool", generic_eq},
    {"aten::eq.bool_list(bool[] a, bool[] b) -> bool", generic_eq},
    {"aten::eq.complex(complex a, complex b) -> bool", generic_eq},
    {"aten::eq.complex_float(complex a, float b) -> bool", generic_eq},
    {"aten::eq.device(Device a, Device b) -> bool", generic_eq},
    {"aten::eq.enum(AnyEnumType a, AnyEnumType b) -> bool", generic_eq},
    {"aten::eq.float(float a, float b) -> bool", generic_eq},
    {"aten::eq.float_complex(float a, complex b) -> bool", generic_eq},
    {"aten::eq.float_int(float a, int b) -> bool", generic_eq},
    {"aten::eq.float_list(float[] a, float[] b) -> bool", generic_eq},
    {"aten::eq.int(int a, int b) -> bool", generic_eq},
    {"aten::eq.int_float(int a, float b) -> bool", generic_eq},
    {"aten::eq.int_list(int[] a, int[] b) -> bool", generic_eq},
    {"aten::eq.str(str a, str b) -> bool", generic_eq},
    {"aten::eq.str_list(str[] a, str[] b) -> bool", generic_eq},
    {"aten::ne(Scalar a, Scalar b) -> bool", generic_ne},
    {"aten::ne.bool(bool a, bool b) -> bool", generic_ne},
    {"aten::ne.bool_list(bool[] a, bool[] b) -> bool", generic_ne},
    {"aten::ne.complex(complex a, complex b) -> bool", generic_ne},
    {"aten::ne.complex_float(complex a, float b) -> bool", generic_ne},
    {"aten::ne.device(Device a, Device b) -> bool", generic_ne},
    {"aten::ne.enum(AnyEnumType a, AnyEnumType b) -> bool", generic_ne},
    {"aten::ne.float(float a, float b) -> bool", generic_ne},
    {"aten::ne.float_complex(float a, complex b) -> bool", generic_ne},
    {"aten::ne.float_int(float a, int b) -> bool", generic_ne},
    {"aten::ne.float_list(float[] a, float[] b) -> bool", generic_ne},
    {"aten::ne.int(int a, int b) -> bool", generic_ne},
    {"aten::ne.int_float(int a, float b) -> bool", generic_ne},
    {"aten::ne.int_list(int[] a, int[] b) -> bool", generic_ne},
    {"aten::ne.str(str a, str b) -> bool", generic_ne},
    {"aten::ne.str_list(str[] a, str[] b) -> bool", generic_ne},
    // unary
    {"aten::neg.Scalar(Scalar a) -> Scalar", neg_scalar},
    {"aten::neg.complex(complex a) -> complex", neg},
    {"aten::neg.float(float a) -> float", neg},
    {"aten::neg.int(int a) -> int", neg},
    {"prim::abs.Scalar(Scalar a) -> Scalar", abs_scalar},
    {"prim::abs.complex(complex a) -> float", abs_},
    {"prim::abs.float(float a) -> float", abs_},
    {"prim::abs.int(int a) -> int", abs_},
    {"aten::sqrt.Scalar(Scalar a) -> Scalar", math1_scalar<Math_sqrt>},
    {"aten::sqrt.complex(complex a) -> complex", math1<Math_sqrt>},
    {"aten::sqrt.float(float a) -> float", math1<Math_sqrt>},
    {"aten::sqrt.int(int a) -> float", math1<Math_sqrt>},
    {"aten::exp.Scalar(Scalar a) -> Scalar", math1_scalar<Math_exp>},
    {"aten::exp.complex(complex a) -> complex", math1<Math_exp>},
    {"aten::exp.float(float a) -> float", math1<Math_exp>},
    {"aten::exp.int(int a) -> float", math1<Math_exp>},
    {"aten::log10.Scalar(Scalar a) -> Scalar", math1_scalar<Math_log10>},
    {"aten::log10.complex(complex a) -> complex", math1<Math_log10>},
    {"aten::log10.float(float a) -> float", math1<Math_log10>},
    {"aten::log10.int(int a) -> float", math1<Math_log10>},
    {"aten::log1p.Scalar(Scalar a) -> Scalar", math1_scalar<Math_log1p>},
    {"aten::log1p.float(float a) -> float", math1<Math_log1p>},
    {"aten::log1p.int(int a) -> float", math1<Math_log1p>},
    {"aten::expm1.Scalar(Scalar a) -> Scalar", math1_scalar<Math_expm1>},
    {"aten::expm1.float(float a) -> float", math1<Math_expm1>},
    {"aten::expm1.int(int a) -> float", math1<Math_expm1>},
    {"aten::sin.Scalar(Scalar a) -> Scalar", math1_scalar<Math_sin>},
    {"aten::sin.complex(complex a) -> complex", math1<Math_sin>},
    {"aten::sin.float(float a) -> float", math1<Math_sin>},
    {"aten::sin.int(int a) -> float", math1<Math_sin>},
    {"aten::cos.Scalar(Scalar a) -> Scalar", math1_scalar<Math_cos>},
    {"aten::cos.complex(complex a) -> complex", math1<Math_cos>},
    {"aten::cos.float(float a) -> float", math1<Math_cos>},
    {"aten::cos.int(int a) -> float", math1<Math_cos>},
    {"aten::tan.Scalar(Scalar a) -> Scalar", math1_scalar<Math_tan>},
    {"aten::tan.complex(complex a) -> complex", math1<Math_tan>},
    {"aten::tan.float(float a) -> float", math1<Math_tan>},
    {"aten::tan.int(int a) -> float", math1<Math_tan>},
    {"aten::asin.Scalar(Scalar a) -> Scalar", math1_scalar<Math_asin>},
    {"aten::asin.complex(complex a) -> complex", math1<Math_asin>},
    {"aten::asin.float(float a) -> float", math1<Math_asin>},
    {"aten::asin.int(int a) -> float", math1<Math_asin>},
    {"aten::acos.Scalar(Scalar a) -> Scalar", math1_scalar<Math_acos>},
    {"aten::acos.complex(complex a) -> complex", math1<Math_acos>},
    {"aten::acos.float(float a) -> float", math1<Math_acos>},
    {"aten::acos.int(int a) -> float", math1<Math_acos>},
    {"aten::atan.Scalar(Scalar a) -> Scalar", math1_scalar<Math_atan>},
    {"aten::atan.complex(complex a) -> complex", math1<Math_atan>},
    {"aten::atan.float(float a) -> float", math1<Math_atan>},
    {"aten::atan.int(int a) -> float", math1<Math_atan>},
    {"aten::sinh.Scalar(Scalar a) -> Scalar", math1_scalar<Math_sinh>},
    {"aten::sinh.complex(complex a) -> complex", math1<Math_sinh>},
    {"aten::sinh.float(float a) -> float", math1<Math_sinh>},
    {"aten::sinh.int(int a) -> float", math1<Math_sinh>},
    {"aten::cosh.Scalar(Scalar a) -> Scalar", math1_scalar<Math_cosh>},
    {"aten::cosh.complex(complex a) -> complex", math1<Math_cosh>},
    {"aten::cosh.float(float a) -> float", math1<Math_cosh>},
    {"aten::cosh.int(int a) -> float", math1<Math_cosh>},
    {"aten::tanh.Scalar(Scalar a) -> Scalar", math1_scalar<Math_tanh>},
    {"aten::tanh.complex(complex a) -> complex", math1<Math_tanh>},
    {"aten::tanh.float(float a) -> float", math1<Math_tanh>},
    {"aten::tanh.int(int a) -> float", math1<Math_tanh>},
    {"aten::asinh.Scalar(Scalar a) -> Scalar", math1_scalar<Math_asinh>},
    {"aten::asinh.complex(complex a) -> complex", math1<Math_asinh>},
    {"aten::asinh.float(float a) -> float", math1<Math_asinh>},
    {"aten::asinh.int(int a) -> float", math1<Math_asinh>},
    {"aten::acosh.Scalar(Scalar a) -> Scalar", math1_scalar<Math_acosh>},
    {"aten::acosh.complex(complex a) -> complex", math1<Math_acosh>},
    {"aten::acosh.float(float a) -> float", math1<Math_acosh>},
    {"aten::acosh.int(int a) -> float", math1<Math_acosh>},
    {"aten::atanh.Scalar(Scalar a) -> Scalar", math1_scalar<Math_atanh>},
    {"aten::atanh.complex(complex a) -> complex", math1<Math_atanh>},
    {"aten::atanh.float(float a) -> float", math1<Math_atanh>},
    {"aten::atanh.int(int a) -> float", math1<Math_atanh>},
    {"aten::erf.Scalar(Scalar a) -> Scalar", math1_scalar<Math_erf>},
    {"aten::erf.float(float a) -> float", math1<Math_erf>},
    {"aten::erf.int(int a) -> float", math1<Math_erf>},
    {"aten::erfc.Scalar(Scalar a) -> Scalar", math1_scalar<Math_erfc>},
    {"aten::erfc.float(float a) -> float", math1<Math_erfc>},
    {"aten::erfc.int(int a) -> float", math1<Math_erfc>},
    {"aten::gamma.Scalar(Scalar a) -> Scalar", math1_scalar<Math_gamma>},
    {"aten::gamma.float(float a) -> float", math1<Math_gamma>},
    {"aten::gamma.int(int a) -> float", math1<Math_gamma>},
    {"aten::lgamma.Scalar(Scalar a) -> Scalar", math1_scalar<Math_lgamma>},
    {"aten::lgamma.float(float a) -> float", math1<Math_lgamma>},
    {"aten::lgamma.int(int a) -> float", math1<Math_lgamma>},
    {"aten::fabs.Scalar(Scalar a) -> Scalar", math1_scalar<Math_fabs>},
    {"aten::fabs.float(float a) -> float", math1<Math_fabs>},
    {"aten::fabs.int(int a) -> float", math1<Math_fabs>},
    {"aten::degrees.Scalar(Scalar a) -> Scalar", math1_scalar<Math_degrees>},
    {"aten::degrees.float(float a) -> float", math1<Math_degrees>},
    {"aten::degrees.int(int a) -> float", math1<Math_degrees>},
    {"aten::radians.Scalar(Scalar a) -> Scalar", math1_scalar<Math_radians>},
    {"aten::radians.float(float a) -> float", math1<Math_radians>},
    {"aten::radians.int(int a) -> float", math1<Math_radians>},
    {"aten::round.Scalar(Scalar a) -> Scalar", math1_scalar<Math_round>},
    {"aten::round.float(float a) -> float", math1<Math_round>},
    {"aten::round.int(int a) -> float", math1<Math_round>},
    {"aten::angle.Scalar(Scalar a) -> Scalar", angle_scalar},
    {"aten::angle.complex(complex a) -> float", angle},
    {"aten::angle.float(float a) -> float", angle},
    {"aten::angle.int(int a) -> float", angle},
    {"aten::floor.Scalar(Scalar a) -> Scalar", rounding_scalar<floor_>},
    {"aten::floor.float(float a) -> int", floor_},
    {"aten::floor.int(int a) -> int", floor_},
    {"aten::ceil.Scalar(Scalar a) -> Scalar", rounding_scalar<ceil_>},
    {"aten::ceil.float(float a) -> int", ceil_},
    {"aten::ceil.int(int a) -> int", ceil_},
    {"aten::isnan.complex(complex a) -> bool", float_predicate<FloatClass::NaN>},
    {"aten::isnan.float(float a) -> bool", float_predicate<FloatClass::NaN>},
    {"aten::isinf.complex(complex a) -> bool", float_predicate<FloatClass::Inf>},
    {"aten::isinf.float(float a) -> bool", float_predicate<FloatClass::Inf>},
    {"aten::isfinite.complex(complex a) -> bool", float_predicate<FloatClass::Finite>},
    {"aten::isfinite.float(float a) -> bool", float_predicate<FloatClass::Finite>},
    {"aten::factorial.int(int a) -> int", factorial},
    {"aten::gcd.int(int a, int b) -> int", gcd},
    {"aten::ldexp(float x, int i) -> float", ldexp},
    // bitwise and boolean
    {"aten::__and__.bool(bool a, bool b) -> bool", bitwise<std::bit_and<>>},
    {"aten::__and__.int(int a, int b) -> int", bitwise<std::bit_and<>>},
    {"aten::__or__.bool(bool a, bool b) -> bool", bitwise<std::bit_or<>>},
    {"aten::__or__.int(int a, int b) -> int", bitwise<std::bit_or<>>},
    {"aten::__xor__.bool(bool a, bool b) -> bool", bitwise<std::bit_xor<>>},
    {"aten::__xor__.int(int a, int b) -> int", bitwise<std::bit_xor<>>},
    {"aten::__lshift__.int(int a, int b) -> int", lshift},
    {"aten::__rshift__.int(int a, int b) -> int", rshift},
    {"aten::__not__(bool self) -> bool", not_},
    {"aten::__round_to_zero_floordiv.int(int a, int b) -> int", round_to_zero_floordiv},
    {"aten::divmod.int(int x, int y) -> (int, int)", divmod},
    {"aten::divmod.float(float x, float y) -> (float, float)", divmod},
    {"aten::divmod.int_float(int x, float y) -> (float, float)", divmod},
    {"aten::divmod.float_int(float x, int y) -> (float, float)", divmod},
    {"aten::hash.generic(t value) -> int", hash},
    // conversions
    {"aten::Int.Scalar(Scalar a) -> int", to_int},
    {"aten::Int.Tensor(Tensor a) -> int", to_int},
    {"aten::Int.bool(bool a) -> int", to_int},
    {"aten::Int.float(float a) -> int", to_int},
    {"aten::Int.str(str a) -> int", int_from_str},
    {"aten::Float.Scalar(Scalar a) -> float", to_float},
    {"aten::Float.Tensor(Tensor a) -> float", to_float},
    {"aten::Float.bool(bool a) -> float", to_float},
    {"aten::Float.int(int a) -> float", to_float},
    {"aten::Float.str(str a) -> float", float_from_str},
    {"aten::Bool.Tensor(Tensor a) -> bool", to_bool},
    {"aten::Bool.float(float a) -> bool", to_bool},
    {"aten::Bool.int(int a) -> bool", to_bool},
    {"aten::Complex.Scalar(Scalar a) -> complex", complex_scalar},
    {"aten::Complex.Tensor_Tensor(Tensor a, Tensor b) -> complex", complex_from_parts},
    {"aten::Complex.Tensor_bool(Tensor x, bool y) -> complex", complex_from_parts},
    {"aten::Complex.Tensor_float(Tensor x, float y) -> complex", complex_from_parts},
    {"aten::Complex.Tensor_int(Tensor x, int y) -> complex", complex_from_parts},
    {"aten::Complex.bool_Tensor(bool x, Tensor y) -> complex", complex_from_parts},
    {"aten::Complex.bool_bool(bool x, bool y) -> complex", complex_from_parts},
    {"aten::Complex.bool_float(bool x, float y) -> complex", complex_from_parts},
    {"aten::Complex.bool_int(bool x, int y) -> complex", complex_from_parts},
    {"aten::Complex.float_Tensor(float x, Tensor y) -> complex", complex_from_parts},
    {"aten::Complex.float_bool(float x, bool y) -> complex", complex_from_parts},
    {"aten::Complex.float_float(float x, float y) -> complex", complex_from_parts},
    {"aten::Complex.float_int(float x, int y) -> complex", complex_from_parts},
    {"aten::Complex.int_Tensor(int x, Tensor y) -> complex", complex_from_parts},
    {"aten::Complex.int_bool(int x, bool y) -> complex", complex_from_parts},
    {"aten::Complex.int_float(int x, float y) -> complex", complex_from_parts},
    {"aten::Complex.int_int(int x, int y) -> complex", complex_from_parts},
    {"aten::FloatImplicit(Tensor a) -> float", float_implicit},
    {"aten::IntImplicit(Tensor a) -> int", int_implicit},
    {"aten::ScalarImplicit(Tensor a) -> Scalar", scalar_implicit},
    {"prim::max(Scalar a, Scalar b) -> Scalar", binary<Max>},
    {"prim::max.float(float a, float b) -> float", binary<Max>},
    {"prim::max.float_int(float a, int b) -> float", binary<Max>},
    {"prim::max.int(int a, int b) -> int", binary<Max>},
    {"prim::max.int_float(int a, float b) -> float", binary<Max>},
    {"prim::min(Scalar a, Scalar b) -> Scalar", binary<Min>},
    {"prim::min.float(float a, float b) -> float", binary<Min>},
    {"prim::min.float_int(float a, int b) -> float", binary<Min>},
    {"prim::min.int(int a, int b) -> int", binary<Min>},
    {"prim::min.int_float(int a, float b) -> float", binary<Min>},
    // range helpers the compiler emits for `for i in range(...)`
    {"aten::__range_length(int lo, int hi, int step) -> int", range_length},
    {"aten::__derive_index(int index, int start, int step) -> int", derive_index},

});

}  // namespace torchlet::jit::ops

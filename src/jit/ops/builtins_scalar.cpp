// TorchScript's number builtins whose names have no tensor overloads: floordiv,
// math.remainder, polar, prim::abs, math's gamma/fabs/degrees/radians, angle,
// factorial, not, divmod, hash, the int/float/bool/complex conversions, the implicit
// tensor -> number conversions and the range helpers the compiler emits. The number
// (and str, list) overloads of names that also have tensor forms (add.int, sin.float,
// eq.str, __and__.bool, ...) are registered by those names' family files (arithmetic.cpp,
// unary_math.cpp, comparison.cpp, bitwise.cpp, special.cpp) from the kernels of
// scalar_builtins.h, which these rows use too (Python's semantics, operand kinds, the
// math table). Rows are boxed_inline (Note [Boxing] in boxing.h): they run in tight
// loops, where the stack traffic around a one-instruction kernel is the cost. Semantics
// follow torch 1.13's interpreter (checked in tests/ops/builtins_test.cpp and the
// gen_ops.py fixtures). min/max are builtins_containers.cpp's, with their list forms;
// strings are builtins_str.cpp's.
#include <algorithm>
#include <cerrno>
#include <cmath>
#include <complex>
#include <cstdlib>
#include <limits>
#include <numbers>
#include <type_traits>

#include "core/ascii.h"
#include "core/python_format.h"
#include "jit/ops/boxing.h"
#include "jit/ops/scalar_builtins.h"

namespace torchlet::jit::ops {
namespace {

// float -> int as torch's interpreter converts (a truncating cast; x86 gives INT64_MIN
// for NaN and out-of-range values, which torch 1.13 returns too).
int64_t float_to_int(double d) {
  if (std::isnan(d) || d >= 9.2233720368547758e18 || d < -9.2233720368547758e18)
    return std::numeric_limits<int64_t>::min();
  return static_cast<int64_t>(d);
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

int64_t factorial(int64_t n) {
  TL_CHECK(n >= 0, ValueError, "factorial() not defined for negative values");
  int64_t r = 1;
  for (int64_t i = 2; i <= n; ++i) r = wrap_mul(r, i);
  return r;
}
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
    // floordiv
    {"aten::floordiv(Scalar a, Scalar b) -> Scalar", boxed_inline<&binary_scalar<FloorDiv>>},
    {"aten::floordiv.float(float a, float b) -> float", boxed_inline<&binary<FloorDiv, double, double>>},
    {"aten::floordiv.float_int(float a, int b) -> float", boxed_inline<&binary<FloorDiv, double, int64_t>>},
    {"aten::floordiv.int(int a, int b) -> int", boxed_inline<&binary<FloorDiv, int64_t, int64_t>>},
    {"aten::floordiv.int_float(int a, float b) -> float", boxed_inline<&binary<FloorDiv, int64_t, double>>},
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
    // abs, and the math module's functions of one number
    {"prim::abs.Scalar(Scalar a) -> Scalar", boxed_inline<&abs_scalar>},
    {"prim::abs.complex(complex a) -> float", boxed_inline<&abs_of<Complex>>},
    {"prim::abs.float(float a) -> float", boxed_inline<&abs_of<double>>},
    {"prim::abs.int(int a) -> int", boxed_inline<&abs_of<int64_t>>},
    {"aten::gamma.Scalar(Scalar a) -> Scalar", boxed_inline<&math1_scalar<Math_gamma>>},
    {"aten::gamma.float(float a) -> float", boxed_inline<&math1<Math_gamma, double>>},
    {"aten::gamma.int(int a) -> float", boxed_inline<&math1<Math_gamma, int64_t>>},
    {"aten::fabs.Scalar(Scalar a) -> Scalar", boxed_inline<&math1_scalar<Math_fabs>>},
    {"aten::fabs.float(float a) -> float", boxed_inline<&math1<Math_fabs, double>>},
    {"aten::fabs.int(int a) -> float", boxed_inline<&math1<Math_fabs, int64_t>>},
    {"aten::degrees.Scalar(Scalar a) -> Scalar", boxed_inline<&math1_scalar<Math_degrees>>},
    {"aten::degrees.float(float a) -> float", boxed_inline<&math1<Math_degrees, double>>},
    {"aten::degrees.int(int a) -> float", boxed_inline<&math1<Math_degrees, int64_t>>},
    {"aten::radians.Scalar(Scalar a) -> Scalar", boxed_inline<&math1_scalar<Math_radians>>},
    {"aten::radians.float(float a) -> float", boxed_inline<&math1<Math_radians, double>>},
    {"aten::radians.int(int a) -> float", boxed_inline<&math1<Math_radians, int64_t>>},
    {"aten::angle.Scalar(Scalar a) -> Scalar", boxed_inline<&angle_scalar>},
    {"aten::angle.complex(complex a) -> float", boxed_inline<&angle<Complex>>},
    {"aten::angle.float(float a) -> float", boxed_inline<&angle<double>>},
    {"aten::angle.int(int a) -> float", boxed_inline<&angle<int64_t>>},
    {"aten::factorial.int(int a) -> int", boxed_inline<&factorial>},
    // not, C division, divmod, hash
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

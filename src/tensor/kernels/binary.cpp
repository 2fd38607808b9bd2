// Binary elementwise operators (TL_BINARY_OPS in ops.h, plus add/sub with alpha, the
// three division modes and where): torch's promotion and broadcasting, then one leaf
// loop per operator and dtype over the strided walk of loop.h. Integer arithmetic wraps
// as torch's does on x86; integer division by zero is an error, as in torch.
#include <cmath>
#include <limits>
#include <type_traits>
#include <vector>

#include <torchlet/error.h>
#include <torchlet/ops.h>

#include "tensor/kernels/elementwise.h"

namespace torchlet {
namespace kernels {

bool can_cast(DType from, DType to) {
  if (is_complex(from) && !is_complex(to)) return false;
  if (is_floating(from) && is_integral(to, true)) return false;
  if (from != DType::Bool && to == DType::Bool) return false;
  return true;
}

OutputPlan::OutputPlan(std::string_view op, Tensor* out, bool in_place, const Shape& shape,
                       DType result)
    : dest_(out) {
  if (out == nullptr) {
    target_ = empty(shape, result);
    return;
  }
  if (in_place) {
    TL_CHECK(out->sizes() == IntList(shape), ValueError,
             "{}: output with shape {} doesn't match the broadcast shape {}", op,
             shape_repr(out->sizes()), shape_repr(shape));
  } else if (!(out->sizes() == IntList(shape))) {
    *out = empty(shape, out->dtype());  // out= takes the result's shape, as torch resizes it
  }
  for (int64_t d = 0; d < out->dim(); ++d) {
    TL_CHECK(out->stride(d) != 0 || out->size(d) <= 1, ValueError,
             "{}: unsupported operation: more than one element of the written-to tensor refers to a single "
             "memory location. Please clone() the tensor before performing the operation.",
             op);
  }
  TL_CHECK(can_cast(result, out->dtype()), TypeError,
           "{}: result type {} can't be cast to the desired output type {}", op,
           dtype_info(result).scalar_type_name, dtype_info(out->dtype()).scalar_type_name);
  target_ = out->dtype() == result ? *out : empty(shape, result);
}

Tensor OutputPlan::finish() {
  if (dest_ == nullptr) return target_;
  if (!target_.is_same(*dest_)) dest_->copy_(target_);
  return *dest_;
}

}  // namespace kernels

namespace {

using kernels::opmath_t;
using kernels::StridedLoop;

enum class BinaryCategory { Arith, Compare, Logical, Bitwise };

// The operators this file runs; the TL_BINARY_OPS rows plus those with extra arguments.
enum class BinaryOp {
  add,
  sub,
  div_true,
  div_trunc,
  div_floor,
#define TL_BINARY_ENUM(name, category) name,
  TL_BINARY_OPS(TL_BINARY_ENUM)
#undef TL_BINARY_ENUM
};

BinaryCategory category_of(BinaryOp op) {
  switch (op) {
    case BinaryOp::add:
    case BinaryOp::sub:
    case BinaryOp::div_true:
    case BinaryOp::div_trunc:
    case BinaryOp::div_floor:
      return BinaryCategory::Arith;
#define TL_BINARY_CATEGORY(name, category) \
  case BinaryOp::name:                     \
    return BinaryCategory::category;
      TL_BINARY_OPS(TL_BINARY_CATEGORY)
#undef TL_BINARY_CATEGORY
  }
  return BinaryCategory::Arith;
}

// Signed overflow wraps, as the x86 code torch compiles to does; computing in the
// unsigned type gives that without undefined behaviour.
template <typename T>
T wrapping_add(T a, T b) {
  if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(static_cast<U>(a) + static_cast<U>(b));
  } else {
    return a + b;
  }
}
template <typename T>
T wrapping_sub(T a, T b) {
  if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(static_cast<U>(a) - static_cast<U>(b));
  } else {
    return a - b;
  }
}
template <typename T>
T wrapping_mul(T a, T b) {
  if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
    // At least unsigned int: two uint8/uint16 operands promote to (signed) int, where
    // 65535 * 65535 overflows.
    using U = std::common_type_t<std::make_unsigned_t<T>, unsigned>;
    return static_cast<T>(static_cast<U>(a) * static_cast<U>(b));
  } else if constexpr (std::is_same_v<T, bool>) {
    return a && b;
  } else {
    return a * b;
  }
}

// Integer division by zero is refused before the loop (binary_op scans the divisor):
// leaf rows never throw, since GCC's target_clones clones unwind badly (an exception
// raised inside one terminates under ASan). Here a zero divisor only has to not trap.
template <typename T>
T int_div_trunc(T a, T b) {
  if (b == 0) return 0;
  if constexpr (std::is_signed_v<T>) {
    if (b == -1) return wrapping_sub<T>(0, a);
  }
  return static_cast<T>(a / b);
}

template <typename T>
T int_div_floor(T a, T b) {
  T q = int_div_trunc(a, b);
  if constexpr (std::is_signed_v<T>) {
    if (b != -1 && a % b != 0 && ((a < 0) != (b < 0))) --q;
  }
  return q;
}

template <typename T>
T int_remainder(T a, T b) {
  if (b == 0) return 0;
  if constexpr (std::is_signed_v<T>) {
    if (b == -1) return 0;
    T r = static_cast<T>(a % b);
    if (r != 0 && ((r < 0) != (b < 0))) r = static_cast<T>(r + b);
    return r;
  } else {
    return static_cast<T>(a % b);
  }
}

template <typename T>
T int_fmod(T a, T b) {
  if (b == 0) return 0;
  if constexpr (std::is_signed_v<T>) {
    if (b == -1) return 0;
  }
  return static_cast<T>(a % b);
}

// Python's floor division on floats, as torch's div_floor computes it: from fmod, so
// that a == b * q + r holds as closely as floating point allows.
// E is the element type: torch computes float16/bfloat16 with c10's arithmetic, which
// rounds every step's result to E (for float and double, E is T and rounding is a no-op).
template <typename T, typename E = T>
T float_div_floor(T a, T b) {
  auto r = [](T v) { return static_cast<T>(static_cast<E>(v)); };
  if (b == 0) return a / b;
  T mod = r(std::fmod(a, b));
  T div = r(r(a - mod) / b);
  if (mod != 0 && ((b < 0) != (mod < 0))) div = r(div - T(1));
  T floordiv;
  if (div != 0) {
    floordiv = std::floor(div);
    if (r(div - floordiv) > T(0.5)) floordiv = r(floordiv + T(1));
  } else {
    floordiv = std::copysign(T(0), r(a / b));
  }
  return floordiv;
}

template <typename T>
T float_remainder(T a, T b) {
  T mod = std::fmod(a, b);
  if (mod != 0 && ((b < 0) != (mod < 0))) mod += b;
  return mod;
}

// Integer power by squaring; negative exponents give torch's 1, -1 or 0.
template <typename T>
T wrapping_abs(T a) {
  if constexpr (std::is_signed_v<T>) return a < 0 ? wrapping_sub(T(0), a) : a;
  return a;
}

// torch's calc_gcd (Euclid on absolute values; the most negative value keeps its own
// absolute value, as two's complement wraps it) without its undefined cases.
template <typename T>
T int_gcd(T a, T b) {
  a = wrapping_abs(a);
  b = wrapping_abs(b);
  while (a != 0) {
    const T c = a;
    // (x % -1 is 0, and the division it stands for overflows for the most negative x.)
    a = (std::is_signed_v<T> && a == T(-1)) ? T(0) : static_cast<T>(b % a);
    b = c;
  }
  return b;
}

template <typename T>
T int_pow(T base, T exp) {
  if constexpr (std::is_signed_v<T>) {
    if (exp < 0) {
      if (base == 1) return 1;
      if (base == -1) return (exp % 2 == 0) ? 1 : -1;
      return 0;
    }
  }
  T result = 1;
  while (exp) {
    if (exp & 1) result = wrapping_mul(result, base);
    exp = static_cast<T>(exp >> 1);
    base = wrapping_mul(base, base);
  }
  return result;
}

template <typename out_t, typename T, typename F>
void run_binary(const StridedLoop& l, const F& f, int64_t grain = kernels::kGrainSize) {
  using M = opmath_t<T>;
  kernels::run_loop(
      l,
      [&](char** p, const int64_t* s, int64_t n, int64_t rows, const int64_t* os) {
        kernels::binary_rows<out_t, T, T>(p, s, n, rows, os, [&](T x, T y) {
          return static_cast<out_t>(f(static_cast<M>(x), static_cast<M>(y)));
        });
      },
      grain);
}

[[noreturn]] void not_implemented(std::string_view op, DType d) {
  TL_FAIL(UnsupportedError, "\"{}\" not implemented for '{}'", op, dtype_info(d).scalar_type_name);
}

// Leaf kernels of the arithmetic operators, computing in T's opmath type.
template <typename T>
void arith_kernel(BinaryOp op, std::string_view name, const StridedLoop& l, const Scalar& alpha) {
  using M = opmath_t<T>;
  constexpr bool kBool = std::is_same_v<T, bool>;
  constexpr bool kInt = std::is_integral_v<T> && !kBool;
  switch (op) {
    case BinaryOp::add:
    case BinaryOp::sub: {
      const bool is_sub = op == BinaryOp::sub;
      if constexpr (kBool) {
        TL_CHECK(!is_sub, TypeError,
                 "Subtraction, the `-` operator, with two bool tensors is not supported. Use the "
                 "`^` or `logical_xor()` operator instead.");
        bool al = alpha.to_unchecked<bool>();
        return run_binary<T, T>(l, [al](bool a, bool b) { return a || (al && b); });
      } else {
        M al = alpha.to_unchecked<M>();
        if (is_sub) al = wrapping_sub<M>(M(0), al);
        constexpr int64_t cheap = kernels::kCheapGrainSize;
        if (al == M(1)) return run_binary<T, T>(l, [](M a, M b) { return wrapping_add(a, b); }, cheap);
        return run_binary<T, T>(l, [al](M a, M b) { return wrapping_add(a, wrapping_mul(al, b)); }, cheap);
      }
    }
    case BinaryOp::mul:
      if constexpr (kBool) return run_binary<T, T>(l, [](bool a, bool b) { return a && b; });
      return run_binary<T, T>(l, [](M a, M b) { return wrapping_mul(a, b); }, kernels::kCheapGrainSize);
    case BinaryOp::div_true:
      if constexpr (!kInt && !kBool) {
        return run_binary<T, T>(l, [](M a, M b) { return a / b; }, kernels::kCheapGrainSize);
      }
      break;  // integral inputs were promoted to float before dispatch
    case BinaryOp::div_trunc:
      if constexpr (kInt) return run_binary<T, T>(l, [](M a, M b) { return int_div_trunc(a, b); });
      // The quotient is rounded to T before truncating, as torch's c10 arithmetic does.
      if constexpr (!kBool)
        return run_binary<T, T>(l, [](M a, M b) { return std::trunc(static_cast<M>(static_cast<T>(a / b))); });
      break;
    case BinaryOp::div_floor:
    case BinaryOp::floor_divide:
      if constexpr (kInt) return run_binary<T, T>(l, [](M a, M b) { return int_div_floor(a, b); });
      if constexpr (!kBool) return run_binary<T, T>(l, [](M a, M b) { return float_div_floor<M, T>(a, b); });
      break;
    case BinaryOp::remainder:
      if constexpr (kInt) return run_binary<T, T>(l, [](M a, M b) { return int_remainder(a, b); });
      if constexpr (!kBool) return run_binary<T, T>(l, [](M a, M b) { return float_remainder(a, b); });
      break;
    case BinaryOp::fmod:
      if constexpr (kInt) return run_binary<T, T>(l, [](M a, M b) { return int_fmod(a, b); });
      if constexpr (!kBool) return run_binary<T, T>(l, [](M a, M b) { return std::fmod(a, b); });
      break;
    case BinaryOp::pow:
      if constexpr (kInt) return run_binary<T, T>(l, [](M a, M b) { return int_pow(a, b); });
      if constexpr (!kBool) return run_binary<T, T>(l, [](M a, M b) { return std::pow(a, b); });
      break;
    case BinaryOp::maximum:
      if constexpr (kBool) return run_binary<T, T>(l, [](bool a, bool b) { return a || b; });
      if constexpr (kInt) return run_binary<T, T>(l, [](M a, M b) { return a > b ? a : b; });
      return run_binary<T, T>(l, [](M a, M b) { return a != a ? a : (b != b ? b : (a > b ? a : b)); });
    case BinaryOp::minimum:
      if constexpr (kBool) return run_binary<T, T>(l, [](bool a, bool b) { return a && b; });
      if constexpr (kInt) return run_binary<T, T>(l, [](M a, M b) { return a < b ? a : b; });
      return run_binary<T, T>(l, [](M a, M b) { return a != a ? a : (b != b ? b : (a < b ? a : b)); });
    case BinaryOp::fmax:
      if constexpr (kBool) return run_binary<T, T>(l, [](bool a, bool b) { return a || b; });
      if constexpr (kInt) return run_binary<T, T>(l, [](M a, M b) { return a > b ? a : b; });
      return run_binary<T, T>(l, [](M a, M b) { return std::fmax(a, b); });
    case BinaryOp::fmin:
      if constexpr (kBool) return run_binary<T, T>(l, [](bool a, bool b) { return a && b; });
      if constexpr (kInt) return run_binary<T, T>(l, [](M a, M b) { return a < b ? a : b; });
      return run_binary<T, T>(l, [](M a, M b) { return std::fmin(a, b); });
    case BinaryOp::eq:
    case BinaryOp::ne:
    case BinaryOp::lt:
    case BinaryOp::le:
    case BinaryOp::gt:
    case BinaryOp::ge:
    case BinaryOp::logical_and:
    case BinaryOp::logical_or:
    case BinaryOp::logical_xor:
    case BinaryOp::bitwise_and:
    case BinaryOp::bitwise_or:
    case BinaryOp::bitwise_xor:
    case BinaryOp::bitwise_left_shift:
    case BinaryOp::bitwise_right_shift:
    case BinaryOp::gcd:
    case BinaryOp::lcm:
      TL_INTERNAL_ASSERT(false, "not an arithmetic operator");
  }
  not_implemented(name, dtype_of<T>);
}

template <typename T>
void compare_kernel(BinaryOp op, const StridedLoop& l) {
  using M = opmath_t<T>;
  switch (op) {
    case BinaryOp::eq: return run_binary<bool, T>(l, [](M a, M b) { return a == b; });
    case BinaryOp::ne: return run_binary<bool, T>(l, [](M a, M b) { return a != b; });
    case BinaryOp::lt: return run_binary<bool, T>(l, [](M a, M b) { return a < b; });
    case BinaryOp::le: return run_binary<bool, T>(l, [](M a, M b) { return a <= b; });
    case BinaryOp::gt: return run_binary<bool, T>(l, [](M a, M b) { return a > b; });
    case BinaryOp::ge: return run_binary<bool, T>(l, [](M a, M b) { return a >= b; });
    case BinaryOp::logical_and:
      return run_binary<bool, T>(l, [](M a, M b) { return a != M(0) && b != M(0); });
    case BinaryOp::logical_or:
      return run_binary<bool, T>(l, [](M a, M b) { return a != M(0) || b != M(0); });
    case BinaryOp::logical_xor:
      return run_binary<bool, T>(l, [](M a, M b) { return (a != M(0)) != (b != M(0)); });
    case BinaryOp::add:
    case BinaryOp::sub:
    case BinaryOp::div_true:
    case BinaryOp::div_trunc:
    case BinaryOp::div_floor:
    case BinaryOp::mul:
    case BinaryOp::floor_divide:
    case BinaryOp::remainder:
    case BinaryOp::fmod:
    case BinaryOp::pow:
    case BinaryOp::maximum:
    case BinaryOp::minimum:
    case BinaryOp::fmax:
    case BinaryOp::fmin:
    case BinaryOp::bitwise_and:
    case BinaryOp::bitwise_or:
    case BinaryOp::bitwise_xor:
    case BinaryOp::bitwise_left_shift:
    case BinaryOp::bitwise_right_shift:
    case BinaryOp::gcd:
    case BinaryOp::lcm:
      break;
  }
  TL_INTERNAL_ASSERT(false, "not a comparison");
}

template <typename T>
void bitwise_kernel(BinaryOp op, std::string_view name, const StridedLoop& l) {
  if constexpr (!std::is_integral_v<T>) {
    not_implemented(name, dtype_of<T>);
  } else {
    constexpr int kBits = static_cast<int>(sizeof(T) * 8);
    switch (op) {
      case BinaryOp::bitwise_and: return run_binary<T, T>(l, [](T a, T b) { return static_cast<T>(a & b); });
      case BinaryOp::bitwise_or: return run_binary<T, T>(l, [](T a, T b) { return static_cast<T>(a | b); });
      case BinaryOp::bitwise_xor: return run_binary<T, T>(l, [](T a, T b) { return static_cast<T>(a ^ b); });
      case BinaryOp::bitwise_left_shift:
        if constexpr (std::is_same_v<T, bool>) not_implemented(name, DType::Bool);
        else return run_binary<T, T>(l, [](T a, T b) {
          using U = std::make_unsigned_t<T>;
          if (b < 0 || b >= kBits) return T(0);
          return static_cast<T>(static_cast<U>(a) << b);
        });
      case BinaryOp::bitwise_right_shift:
        if constexpr (std::is_same_v<T, bool>) not_implemented(name, DType::Bool);
        else return run_binary<T, T>(l, [](T a, T b) {
          if (b < 0 || b >= kBits) return static_cast<T>(a < 0 ? -1 : 0);
          return static_cast<T>(a >> b);
        });
      case BinaryOp::gcd:
        if constexpr (std::is_same_v<T, bool>) not_implemented(std::string(name) + "_cpu", DType::Bool);
        else return run_binary<T, T>(l, [](T a, T b) { return int_gcd(a, b); });
      case BinaryOp::lcm:
        if constexpr (std::is_same_v<T, bool>) not_implemented(std::string(name) + "_cpu", DType::Bool);
        else return run_binary<T, T>(l, [](T a, T b) {
          const T g = int_gcd(a, b);
          if (g == 0) return T(0);
          if constexpr (sizeof(T) < sizeof(int)) {
            // torch's abs(a / g * b) runs in int for 8- and 16-bit types (C++ promotes
            // them), where nothing overflows; the result is then narrowed.
            const int product = static_cast<int>(a) / static_cast<int>(g) * static_cast<int>(b);
            return static_cast<T>(product < 0 ? -product : product);
          } else {
            // gcd(min, max) is -1 in two's complement, and min / -1 traps (torch 1.13's
            // int32/int64 lcm ends the process there); the quotient wraps instead.
            const T q = (std::is_signed_v<T> && g == T(-1)) ? wrapping_sub(T(0), a) : static_cast<T>(a / g);
            return wrapping_abs(wrapping_mul(q, b));
          }
        });
      case BinaryOp::add:
      case BinaryOp::sub:
      case BinaryOp::div_true:
      case BinaryOp::div_trunc:
      case BinaryOp::div_floor:
      case BinaryOp::mul:
      case BinaryOp::floor_divide:
      case BinaryOp::remainder:
      case BinaryOp::fmod:
      case BinaryOp::pow:
      case BinaryOp::maximum:
      case BinaryOp::minimum:
      case BinaryOp::fmax:
      case BinaryOp::fmin:
      case BinaryOp::eq:
      case BinaryOp::ne:
      case BinaryOp::lt:
      case BinaryOp::le:
      case BinaryOp::gt:
      case BinaryOp::ge:
      case BinaryOp::logical_and:
      case BinaryOp::logical_or:
      case BinaryOp::logical_xor:
        break;
    }
    TL_INTERNAL_ASSERT(false, "not a bitwise operator");
  }
}

const char* op_name(BinaryOp op) {
  switch (op) {
    case BinaryOp::add: return "add";
    case BinaryOp::sub: return "sub";
    case BinaryOp::div_true:
    case BinaryOp::div_trunc:
    case BinaryOp::div_floor: return "div";
#define TL_BINARY_NAME(name, category) \
  case BinaryOp::name:                 \
    return #name;
      TL_BINARY_OPS(TL_BINARY_NAME)
#undef TL_BINARY_NAME
  }
  return "";
}

// The whole operator: promotion, checks, output, dispatch. `common` is the promoted
// dtype (the caller decides it for wrapped Python numbers); `out` null means fresh.
Tensor binary_op(BinaryOp op, const Tensor& a, const Tensor& b, DType common, Tensor* out,
                 bool in_place, const Scalar& alpha = 1) {
  const char* name = op_name(op);
  BinaryCategory cat = category_of(op);
  TL_CHECK(!is_complex(common) && !is_quantized(common), UnsupportedError,
           "{}: dtype {} is not supported by torchlet's kernels", name, dtype_name(common));
  DType compute = common;
  if (op == BinaryOp::div_true && is_integral(common, true)) compute = kDefaultFloatDType;
  if (op == BinaryOp::add || op == BinaryOp::sub) {
    TL_CHECK(!(is_integral(common, true) && alpha.is_floating()), TypeError,
             "{}: For integral input tensors, argument alpha must not be a floating point number.",
             name);
    TL_CHECK(!(alpha.is_bool() && common != DType::Bool), TypeError,
             "{}: Boolean alpha only supported for Boolean results.", name);
  }
  if (cat == BinaryCategory::Bitwise && !is_integral(compute, true)) {
    not_implemented(std::string(name) + "_cpu", compute);
  }
  DType result = (cat == BinaryCategory::Compare || cat == BinaryCategory::Logical) ? DType::Bool : compute;
  Shape shape = broadcast_shapes(a.sizes(), b.sizes());
  kernels::OutputPlan plan(name, out, in_place, shape, result);
  Tensor x = a.to(compute).expand(shape);
  Tensor y = b.to(compute).expand(shape);
  const bool int_division = op == BinaryOp::div_trunc || op == BinaryOp::div_floor || op == BinaryOp::floor_divide ||
                            op == BinaryOp::remainder || op == BinaryOp::fmod;
  if (int_division && is_integral(compute, false) && y.numel() > 0) {
    TL_CHECK(!any(eq(b, 0)).item().to_bool(), ValueError, "ZeroDivisionError");
  }
  StridedLoop l = kernels::make_loop({&plan.target(), &x, &y});
  dispatch_real(compute, name, [&]<typename T>() {
    switch (cat) {
      case BinaryCategory::Arith: return arith_kernel<T>(op, name, l, alpha);
      case BinaryCategory::Compare:
      case BinaryCategory::Logical: return compare_kernel<T>(op, l);
      case BinaryCategory::Bitwise: return bitwise_kernel<T>(op, name, l);
    }
  });
  return plan.finish();
}

// A Python number as torch wraps it: a 0-dim bool, int64 or float64 tensor that the
// kernel converts to the computation dtype like any operand (so uint8 / -3 divides by
// -3.0, while uint8 + -3 wraps). `common` only decided the promotion.
Tensor wrap_scalar(const Scalar& s, DType /*common*/) {
  DType natural = s.is_bool() ? DType::Bool : s.is_integral() ? DType::Long : DType::Double;
  if (s.is_complex()) natural = DType::ComplexDouble;
  return scalar_tensor(s, natural);
}

// torch refuses subtraction involving bool before promotion.
void sub_check(DType self, DType other) {
  TL_CHECK(!(self == DType::Bool && other == DType::Bool), TypeError,
           "Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` or "
           "`logical_xor()` operator instead.");
  TL_CHECK(self != DType::Bool && other != DType::Bool, TypeError,
           "Subtraction, the `-` operator, with a bool tensor is not supported. If you are trying "
           "to invert a mask, use the `~` or `logical_not()` operator instead.");
}

DType common_with_scalar(const Tensor& t, const Scalar& s) { return result_type(t, s); }

BinaryOp div_op(std::optional<std::string_view> mode) {
  if (!mode) return BinaryOp::div_true;
  if (*mode == "trunc") return BinaryOp::div_trunc;
  if (*mode == "floor") return BinaryOp::div_floor;
  TL_FAIL(ValueError,
          "div expected rounding_mode to be one of None, 'trunc', or 'floor' but found '{}'", *mode);
}

}  // namespace

#define TL_DEFINE_BINARY(name, category)                                                  \
  Tensor name(const Tensor& self, const Tensor& other) {                                 \
    return binary_op(BinaryOp::name, self, other, result_type(self, other), nullptr, false); \
  }                                                                                       \
  Tensor name(const Tensor& self, const Scalar& other) {                                 \
    DType c = common_with_scalar(self, other);                                            \
    return binary_op(BinaryOp::name, self, wrap_scalar(other, c), c, nullptr, false);     \
  }                                                                                       \
  Tensor& name##_(Tensor& self, const Tensor& other) {                                   \
    binary_op(BinaryOp::name, self, other, result_type(self, other), &self, true);        \
    return self;                                                                          \
  }                                                                                       \
  Tensor& name##_(Tensor& self, const Scalar& other) {                                   \
    DType c = common_with_scalar(self, other);                                            \
    binary_op(BinaryOp::name, self, wrap_scalar(other, c), c, &self, true);               \
    return self;                                                                          \
  }                                                                                       \
  Tensor& name##_out(Tensor& out, const Tensor& self, const Tensor& other) {             \
    binary_op(BinaryOp::name, self, other, result_type(self, other), &out, false);        \
    return out;                                                                           \
  }
TL_BINARY_OPS(TL_DEFINE_BINARY)
#undef TL_DEFINE_BINARY

Tensor add(const Tensor& self, const Tensor& other, const Scalar& alpha) {
  return binary_op(BinaryOp::add, self, other, result_type(self, other), nullptr, false, alpha);
}
Tensor add(const Tensor& self, const Scalar& other, const Scalar& alpha) {
  DType c = common_with_scalar(self, other);
  return binary_op(BinaryOp::add, self, wrap_scalar(other, c), c, nullptr, false, alpha);
}
Tensor& add_(Tensor& self, const Tensor& other, const Scalar& alpha) {
  binary_op(BinaryOp::add, self, other, result_type(self, other), &self, true, alpha);
  return self;
}
Tensor& add_(Tensor& self, const Scalar& other, const Scalar& alpha) {
  DType c = common_with_scalar(self, other);
  binary_op(BinaryOp::add, self, wrap_scalar(other, c), c, &self, true, alpha);
  return self;
}
Tensor& add_out(Tensor& out, const Tensor& self, const Tensor& other, const Scalar& alpha) {
  binary_op(BinaryOp::add, self, other, result_type(self, other), &out, false, alpha);
  return out;
}
Tensor sub(const Tensor& self, const Tensor& other, const Scalar& alpha) {
  sub_check(self.dtype(), other.dtype());
  return binary_op(BinaryOp::sub, self, other, result_type(self, other), nullptr, false, alpha);
}
Tensor sub(const Tensor& self, const Scalar& other, const Scalar& alpha) {
  sub_check(self.dtype(), other.is_bool() ? DType::Bool : other.dtype());
  DType c = common_with_scalar(self, other);
  return binary_op(BinaryOp::sub, self, wrap_scalar(other, c), c, nullptr, false, alpha);
}
Tensor& sub_(Tensor& self, const Tensor& other, const Scalar& alpha) {
  sub_check(self.dtype(), other.dtype());
  binary_op(BinaryOp::sub, self, other, result_type(self, other), &self, true, alpha);
  return self;
}
Tensor& sub_(Tensor& self, const Scalar& other, const Scalar& alpha) {
  sub_check(self.dtype(), other.is_bool() ? DType::Bool : other.dtype());
  DType c = common_with_scalar(self, other);
  binary_op(BinaryOp::sub, self, wrap_scalar(other, c), c, &self, true, alpha);
  return self;
}
Tensor& sub_out(Tensor& out, const Tensor& self, const Tensor& other, const Scalar& alpha) {
  sub_check(self.dtype(), other.dtype());
  binary_op(BinaryOp::sub, self, other, result_type(self, other), &out, false, alpha);
  return out;
}
Tensor rsub(const Tensor& self, const Tensor& other, const Scalar& alpha) {
  sub_check(other.dtype(), self.dtype());
  return binary_op(BinaryOp::sub, other, self, result_type(self, other), nullptr, false, alpha);
}
Tensor rsub(const Tensor& self, const Scalar& other, const Scalar& alpha) {
  sub_check(other.is_bool() ? DType::Bool : other.dtype(), self.dtype());
  DType c = common_with_scalar(self, other);
  return binary_op(BinaryOp::sub, wrap_scalar(other, c), self, c, nullptr, false, alpha);
}

Tensor div(const Tensor& self, const Tensor& other, std::optional<std::string_view> mode) {
  return binary_op(div_op(mode), self, other, result_type(self, other), nullptr, false);
}
Tensor div(const Tensor& self, const Scalar& other, std::optional<std::string_view> mode) {
  DType c = common_with_scalar(self, other);
  return binary_op(div_op(mode), self, wrap_scalar(other, c), c, nullptr, false);
}
Tensor& div_(Tensor& self, const Tensor& other, std::optional<std::string_view> mode) {
  binary_op(div_op(mode), self, other, result_type(self, other), &self, true);
  return self;
}
Tensor& div_(Tensor& self, const Scalar& other, std::optional<std::string_view> mode) {
  DType c = common_with_scalar(self, other);
  binary_op(div_op(mode), self, wrap_scalar(other, c), c, &self, true);
  return self;
}
Tensor& div_out(Tensor& out, const Tensor& self, const Tensor& other,
                std::optional<std::string_view> mode) {
  binary_op(div_op(mode), self, other, result_type(self, other), &out, false);
  return out;
}

Tensor pow(const Scalar& self, const Tensor& exponent) {
  DType c = result_type(exponent, self);
  return binary_op(BinaryOp::pow, wrap_scalar(self, c), exponent, c, nullptr, false);
}

Tensor where(const Tensor& condition, const Tensor& self, const Tensor& other) {
  TL_CHECK(condition.dtype() == DType::Bool || condition.dtype() == DType::Byte, TypeError,
           "where expected condition to be a boolean tensor, but got a tensor with dtype {}",
           dtype_info(condition.dtype()).scalar_type_name);
  DType common = result_type(self, other);
  TL_CHECK(!is_complex(common) && !is_quantized(common), UnsupportedError,
           "where: dtype {} is not supported by torchlet's kernels", dtype_name(common));
  Shape shape = broadcast_shapes(condition.sizes(), broadcast_shapes(self.sizes(), other.sizes()));
  Tensor out = empty(shape, common);
  Tensor c = condition.to(DType::Bool).expand(shape);
  Tensor x = self.to(common).expand(shape);
  Tensor y = other.to(common).expand(shape);
  StridedLoop l = kernels::make_loop({&out, &c, &x, &y});
  dispatch_real(common, "where", [&]<typename T>() {
    kernels::run_loop(l, [&](char** p, const int64_t* s, int64_t n) {
      kernels::ternary_row<T, bool, T, T>(p, s, n, [](bool k, T a, T b) { return k ? a : b; });
    });
  });
  return out;
}
Tensor where(const Tensor& condition, const Scalar& self, const Tensor& other) {
  DType c = result_type(other, self);
  return where(condition, wrap_scalar(self, c), other.to(c));
}
Tensor where(const Tensor& condition, const Tensor& self, const Scalar& other) {
  DType c = result_type(self, other);
  return where(condition, self.to(c), wrap_scalar(other, c));
}
Tensor where(const Tensor& condition, const Scalar& self, const Scalar& other) {
  ResultTypeState st;
  st.add(self);
  st.add(other);
  const DType d = st.result();
  return where(condition, scalar_tensor(self, d), scalar_tensor(other, d));
}
std::vector<Tensor> where(const Tensor& condition) {
  const Tensor nz = nonzero(condition);
  std::vector<Tensor> out;
  for (int64_t d = 0; d < condition.dim(); ++d) out.push_back(nz.select(1, d).contiguous());
  return out;
}

}  // namespace torchlet

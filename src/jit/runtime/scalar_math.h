// Python's integer arithmetic as TorchScript defines it, in one place: the number
// builtins in src/jit/ops (scalar_builtins.h) and the interpreter's
// register-to-register fast path (fast_ops.def) both run these functions.
#pragma once

#include <cmath>
#include <cstdint>

#include <torchlet/error.h>

namespace torchlet::jit::scalar {

// int64 arithmetic wraps as torch's does (two's complement, no UB).
inline int64_t add(int64_t a, int64_t b) { return static_cast<int64_t>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b)); }
inline int64_t sub(int64_t a, int64_t b) { return static_cast<int64_t>(static_cast<uint64_t>(a) - static_cast<uint64_t>(b)); }
inline int64_t mul(int64_t a, int64_t b) { return static_cast<int64_t>(static_cast<uint64_t>(a) * static_cast<uint64_t>(b)); }

// a // b rounding toward negative infinity; torch's interpreter says "division by 0".
inline int64_t floordiv(int64_t a, int64_t b) {
  TL_CHECK(b != 0, ScriptError, "division by 0");
  if (b == -1) return sub(0, a);
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

// a % b with the sign of b.
inline int64_t remainder(int64_t a, int64_t b) {
  TL_CHECK(b != 0, ScriptError, "ZeroDivisionError: integer division or modulo by zero");
  if (b == -1) return 0;
  int64_t r = a % b;
  if (r != 0 && ((r < 0) != (b < 0))) r += b;
  return r;
}

}  // namespace torchlet::jit::scalar

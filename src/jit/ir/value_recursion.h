// Guards for code that walks an IValue recursively (printing, comparing, hashing):
// Note [Recursion over values] in ivalue.cpp.
#pragma once

#include <cstddef>
#include <functional>
#include <ostream>

#include <torchlet/ivalue.h>

namespace torchlet {

// Python's default recursion limit: deeper walks are refused with a LimitError.
inline constexpr size_t kMaxValueRecursion = 1000;

// One level of a walk on this thread; throws LimitError naming `walk` past the limit.
class ValueRecursion {
 public:
  explicit ValueRecursion(const char* walk);
  ~ValueRecursion();
  ValueRecursion(const ValueRecursion&) = delete;
  ValueRecursion& operator=(const ValueRecursion&) = delete;
};

// Runs `body`, which prints the list, tuple or dict v; when v is already being printed
// further out on this thread (it contains itself) writes open "..." close instead, as
// Python's repr does.
void print_container(std::ostream& os, const IValue& v, char open, char close, const std::function<void()>& body);

}  // namespace torchlet

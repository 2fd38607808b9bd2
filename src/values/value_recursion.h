// Guards for code that walks an IValue recursively (printing, comparing, hashing), and the
// one layout of printed containers:
// Note [Recursion over values] in ivalue.cpp.
#pragma once

#include <cstddef>
#include <functional>
#include <ostream>

#include <torchlet/ivalue.h>

namespace torchlet {

// Python's default recursion limit: deeper walks are refused with a LimitError.
inline constexpr size_t kMaxValueRecursion = 1000;
// Containers one walk may visit, a shared one each time it is reached. Real values are
// far smaller (a state dict is one dict of tensors); reaching this needs shared parts
// that multiply a value's size, and refusing it takes a fraction of a second (at 2^24
// under ASan, printing such a value twice took the fuzz target 19 s, past its timeout).
inline constexpr size_t kMaxValueVisits = size_t{1} << 22;

// While alive, walks on this thread visit at most `max_visits` containers (at most
// kMaxValueVisits). The fuzz targets keep each run fast with it, as they lower the
// unpickler's object limit.
class ValueVisitBudget {
 public:
  explicit ValueVisitBudget(size_t max_visits);
  ~ValueVisitBudget();
  ValueVisitBudget(const ValueVisitBudget&) = delete;
  ValueVisitBudget& operator=(const ValueVisitBudget&) = delete;

 private:
  size_t saved_;
};

// One level of a walk on this thread; throws LimitError naming `walk` past either limit.
class ValueRecursion {
 public:
  explicit ValueRecursion(const char* walk);
  ~ValueRecursion();
  ValueRecursion(const ValueRecursion&) = delete;
  ValueRecursion& operator=(const ValueRecursion&) = delete;
};

// Text printed into memory (an std::ostringstream; other streams are not checked) is
// refused with a LimitError naming `what` once it is past the thread's limit on one
// allocation (Note [Allocation limit]): a list repeating one long string prints as far
// more text than it holds. Printing checks before each element, so the text outgrows
// the limit by at most one element.
void check_printed_length(std::ostream& os, const char* what);

// Prints the list, tuple or dict v as Python lays them out ([a, b], (a,), {k: v}), each
// element through `element` (repr and the interpreter's str differ only there). A
// container already being printed further out on this thread (it contains itself)
// prints as [...], (...) or {...}, as Python's repr does.
void print_container(std::ostream& os, const IValue& v, const std::function<void(const IValue&)>& element);

}  // namespace torchlet

// The operand stack every operator and the interpreter share: arguments are pushed in
// schema order, the operator pops them and pushes its returns (torch's calling
// convention, so kernels are plain functions of a Stack).
#pragma once

#include <cstddef>
#include <utility>
#include <vector>

#include <torchlet/ivalue.h>

namespace torchlet::jit {

using Stack = std::vector<IValue>;

inline IValue pop(Stack& stack) {
  IValue v = std::move(stack.back());
  stack.pop_back();
  return v;
}
// The i-th of the top n values (0 = the deepest of them).
inline IValue& peek(Stack& stack, size_t i, size_t n) { return stack[stack.size() - n + i]; }
inline void drop(Stack& stack, size_t n) { stack.erase(stack.end() - static_cast<std::ptrdiff_t>(n), stack.end()); }
template <typename... Ts>
void push(Stack& stack, Ts&&... values) {
  (stack.emplace_back(std::forward<Ts>(values)), ...);
}

}  // namespace torchlet::jit

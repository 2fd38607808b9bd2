// The interpreter: runs Code (code.h) with one dispatch loop. Calls between graph
// functions push frames in the same loop (no C++ recursion), so an exception anywhere
// reports the whole TorchScript call stack, outermost first, each frame with its
// node's source range, as torch's "Traceback of TorchScript" does.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include <torchlet/error.h>

#include "jit/runtime/code.h"
#include "jit/runtime/stack.h"

namespace torchlet::jit {

// An exception that escaped TorchScript code: what() is the full report (traceback then
// "<class>: <message>"); the parts are kept for callers that want them.
class ScriptException : public ScriptError {
 public:
  ScriptException(const std::string& report, std::string exception_class, std::string message)
      : ScriptError(report), exception_class_(std::move(exception_class)), message_(std::move(message)) {}
  // The Python exception class for `raise` ("builtins.ValueError"), or the torchlet
  // error kind for a failing operator ("value error").
  const std::string& exception_class() const { return exception_class_; }
  const std::string& message() const { return message_; }

 private:
  std::string exception_class_;
  std::string message_;
};

// Runs `code` with its inputs on the stack; leaves its outputs there.
void run_code(const Code& code, Stack& stack);

// Note [Step budget]: an archive's code may loop forever or call functions in an
// exponential tree; that is a legitimate program, but a caller running untrusted
// archives (the fuzzer, a service) needs it to stop. While a StepBudget lives on a
// thread, every loop iteration and every call on that thread spends one step; when
// none are left the run fails with a LimitError. Tasks forked on that thread start with
// what is left of its budget. Without a StepBudget nothing is counted (the limit is
// effectively infinite). Budgets nest: the inner one never grants more than is left.
class StepBudget {
 public:
  explicit StepBudget(int64_t steps);
  ~StepBudget();
  StepBudget(const StepBudget&) = delete;
  StepBudget& operator=(const StepBudget&) = delete;
  // Steps left on this thread (INT64_MAX when no budget is active).
  static int64_t left();

 private:
  int64_t outer_left_;
  int64_t granted_;
};

// Deepest chain of TorchScript calls one run may build: recursion is refused at
// compile time, but dynamic dispatch (CALLM) in a crafted archive can still recurse.
inline constexpr size_t kMaxCallDepth = 2000;
// Runs started from inside an operator while another run is active on the thread (a
// class's __lt__ called by list.sort): each costs C++ stack, not an interpreter frame,
// and a __lt__ that sorts a list of its own class recursed until the stack overflowed.
inline constexpr size_t kMaxNestedRuns = 100;

}  // namespace torchlet::jit

// The interpreter: runs Code (code.h) with one dispatch loop. Calls between graph
// functions push frames in the same loop (no C++ recursion), so an exception anywhere
// reports the whole TorchScript call stack, outermost first, each frame with its
// node's source range, as torch's "Traceback of TorchScript" does.
#pragma once

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

}  // namespace torchlet::jit

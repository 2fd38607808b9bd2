// Helpers for the operator tests: call a registered operator by "name.overload" with
// the stack convention (arguments in order, the input count last for vararg schemas)
// and get its returns back.
#pragma once

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <torchlet/error.h>
#include <torchlet/ivalue.h>

#include "jit/runtime/operator.h"

namespace torchlet::testing {

inline std::vector<IValue> call_op_all(const std::string& key, std::vector<IValue> args) {
  const jit::Operator* op = jit::OperatorRegistry::global().find(key);
  if (!op) throw std::runtime_error("operator not registered: " + key);
  jit::Stack stack(args.begin(), args.end());
  if (op->schema().is_vararg) stack.emplace_back(static_cast<int64_t>(args.size()));
  op->operation()(stack);
  return stack;
}

// The single return (or None for `-> ()`).
inline IValue call_op(const std::string& key, std::vector<IValue> args) {
  std::vector<IValue> out = call_op_all(key, std::move(args));
  return out.empty() ? IValue() : out.back();
}

// The message of the torchlet::Error the call throws ("" when it does not throw).
inline std::string op_error(const std::string& key, std::vector<IValue> args) {
  try {
    call_op_all(key, std::move(args));
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

}  // namespace torchlet::testing

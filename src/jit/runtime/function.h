// Function: anything TorchScript can call by name — a compiled graph (GraphFunction)
// or a method of a class. A Function has a schema (for matching calls and printing)
// and runs on the stack (stack.h): arguments in, return value out.
//
// A GraphFunction owns its graph. Its calls go through the graph executor
// (graph_executor.h) when its CompilationUnit has an optimizer and optimisation is on,
// else run the graph as written; either way the instruction stream (code.h) is emitted
// once, thread-safely, and calls share the immutable Code and keep their state on their
// own stacks, so many threads may call one function at once.
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <torchlet/jit.h>

#include "values/function_schema.h"
#include "jit/ir/ir.h"
#include "jit/runtime/graph_executor.h"
#include "jit/runtime/stack.h"

namespace torchlet::jit {

struct Code;
class CompilationUnit;

class Function {
 public:
  explicit Function(std::string qualname) : qualname_(std::move(qualname)) {}
  virtual ~Function() = default;
  Function(const Function&) = delete;
  Function& operator=(const Function&) = delete;

  const std::string& qualname() const { return qualname_; }
  // The last component of the qualified name ("forward" for __torch__.M.forward).
  std::string name() const;
  virtual const FunctionSchema& schema() const = 0;
  // Each argument's default (nullopt: required), in schema order.
  virtual const std::vector<std::optional<IValue>>& defaults() const = 0;
  // Runs with every argument on the stack (self first for methods); leaves the result.
  virtual void run(Stack& stack) const = 0;
  // The TorchScript type of the result (for callers being compiled).
  virtual TypePtr return_type() const = 0;

  // Calls with positional and keyword arguments: binds them to the schema, fills
  // defaults, checks each argument's type (TypeError naming the argument), runs.
  IValue operator()(std::vector<IValue> args, const Kwargs& kwargs = {}) const;
  // The binding step of operator() alone: the full argument list in schema order.
  std::vector<IValue> bind_arguments(std::vector<IValue> args, const Kwargs& kwargs) const;

 private:
  std::string qualname_;
};

class GraphFunction : public Function {
 public:
  // The schema is derived from the graph's inputs (names without their .N suffix) and
  // output; defaults, when given, align with the inputs.
  GraphFunction(std::string qualname, GraphPtr graph, CompilationUnit* owner = nullptr,
                std::vector<std::optional<IValue>> defaults = {});
  ~GraphFunction() override;

  const GraphPtr& graph() const { return graph_; }
  CompilationUnit* owner() const { return owner_; }
  // Parameter `i` (a List[int] or List[float], perhaps Optional) also takes one element,
  // repeated `n` times at the call: torch's BroadcastingListN[T], as its library declares
  // kernel_size. Recorded in the schema as T[n], as an operator's int[2] is; set before use.
  void set_broadcasting_list(size_t i, int64_t n);
  const FunctionSchema& schema() const override { return schema_; }
  const std::vector<std::optional<IValue>>& defaults() const override { return defaults_; }
  void run(Stack& stack) const override;
  TypePtr return_type() const override { return graph_->outputs().empty() ? Type::none() : graph_->outputs()[0]->type(); }
  // The instruction stream of the graph as written, emitted on first use (CompileError
  // if the graph calls an operator or function that does not exist).
  const Code& code() const;
  // The executor's plan for the arguments on the stack (bound in schema order), after
  // the checks a call makes of them (TypeError); null when the call would run the graph
  // as written (no optimizer, optimisation off, or too many specs).
  std::shared_ptr<const ExecutionPlan> plan_for(Stack& stack) const;
  // Runs `rewrite` on the graph itself, for passes whose result is kept and saved
  // (jit::optimize). Only before the first call (ValueError after: the code emitted and
  // the plans made from the graph would no longer match it); the inputs must stay.
  void rewrite_graph(const std::function<void(Graph&)>& rewrite);
  // Whether code or an executor has been made from the graph (a call has begun).
  bool started() const { return started_; }

 private:
  // Converts int arguments to float parameters and checks every argument's type at the
  // boundary (inside, the graph is typed).
  void check_arguments(Stack& stack) const;
  // The executor, made on first use; null when the unit has no optimizer.
  const GraphExecutor* executor() const;

  GraphPtr graph_;
  CompilationUnit* owner_;
  FunctionSchema schema_;
  std::vector<std::optional<IValue>> defaults_;
  mutable std::once_flag code_once_;
  mutable std::unique_ptr<Code> code_;
  mutable std::once_flag executor_once_;
  mutable std::unique_ptr<GraphExecutor> executor_;
  // Set once code or an executor has been made from graph_.
  mutable std::atomic<bool> started_{false};
};

}  // namespace torchlet::jit

// The graph executor (reference: jit-technical-overview, "Graph Executor"): a graph
// function's calls run on plans, each a copy of its graph specialised to one
// ArgumentSpec and optimised once, on the first call with that spec, by the optimizer
// its CompilationUnit was given (the passes layer's pipeline: this layer cannot call
// passes). Later calls with the spec reuse the plan; other specs get their own. With
// optimisation off (set_graph_executor_optimize(false), `torchlet run --no-optimize`)
// calls run the graph as written.
#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <unordered_map>

#include <torchlet/jit.h>

#include "jit/runtime/argument_spec.h"
#include "jit/runtime/code.h"
#include "jit/runtime/stack.h"

namespace torchlet::jit {

class GraphFunction;

// Optimises a graph whose input types a spec has narrowed, in place.
using GraphOptimizer = void (*)(Graph& graph);

struct ExecutionPlan {
  GraphPtr graph;  // specialised and optimised
  Code code;
};

class GraphExecutor {
 public:
  GraphExecutor(const GraphFunction& function, GraphOptimizer optimizer)
      : function_(function), optimizer_(optimizer) {}
  // Runs the function on the arguments ending the stack (already type-checked).
  void run(Stack& stack) const;
  // The plan for these arguments, built if new; null when the function has more
  // specs than kMaxPlans and these are not among them (the call runs unoptimised).
  std::shared_ptr<const ExecutionPlan> plan_for(const IValue* args, size_t count) const;

  // Specs beyond this many are not planned: a function called with ever-new ranks or
  // dtypes must not grow without bound.
  static constexpr size_t kMaxPlans = 64;

 private:
  const GraphFunction& function_;
  GraphOptimizer optimizer_;
  mutable std::mutex mutex_;
  mutable std::unordered_map<ArgumentSpec, std::shared_ptr<const ExecutionPlan>, ArgumentSpecHash> plans_;
};

}  // namespace torchlet::jit

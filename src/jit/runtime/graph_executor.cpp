// GraphExecutor: the plan cache and the switch that turns optimisation off.
#include "jit/runtime/graph_executor.h"

#include <torchlet/error.h>

#include "jit/runtime/function.h"
#include "jit/runtime/interpreter.h"

namespace torchlet::jit {

namespace {
std::atomic<bool> g_optimize{true};
}  // namespace

bool graph_executor_optimize() { return g_optimize.load(std::memory_order_relaxed); }
void set_graph_executor_optimize(bool on) { g_optimize.store(on, std::memory_order_relaxed); }

std::shared_ptr<const ExecutionPlan> GraphExecutor::plan_for(const IValue* args, size_t count) const {
  ArgumentSpec spec = make_argument_spec(*function_.graph(), args, count);
  // Plans are built under the lock: a second caller with the same spec waits for the
  // first plan instead of building its own, and building is once per spec.
  std::lock_guard<std::mutex> lock(mutex_);
  if (auto found = plans_.find(spec); found != plans_.end()) return found->second;
  if (plans_.size() >= kMaxPlans) return nullptr;
  GraphPtr graph = function_.graph()->copy();
  specialise_input_types(*graph, spec);
  optimizer_(*graph);
  auto plan = std::make_shared<ExecutionPlan>();
  plan->code = emit_code(graph, function_.qualname(), function_.owner());
  plan->graph = std::move(graph);
  return plans_.emplace(std::move(spec), std::move(plan)).first->second;
}

void GraphExecutor::run(Stack& stack) const {
  const size_t n = function_.graph()->inputs().size();
  TL_INTERNAL_ASSERT(stack.size() >= n, "arguments on the stack for inputs");
  const std::shared_ptr<const ExecutionPlan> plan = plan_for(stack.data() + (stack.size() - n), n);
  // The plan stays alive for the call even if the function goes first (run_code holds
  // no reference of its own).
  run_code(plan ? plan->code : function_.code(), stack);
}

}  // namespace torchlet::jit

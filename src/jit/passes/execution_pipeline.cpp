// The graph executor's optimisation pipeline, in torch's order.
#include "jit/passes/execution_pipeline.h"

#include "jit/passes/common_subexpression_elimination.h"
#include "jit/passes/constant_pooling.h"
#include "jit/passes/constant_propagation.h"
#include "jit/passes/dead_code_elimination.h"
#include "jit/passes/frozen_folding.h"
#include "jit/passes/inliner.h"
#include "jit/passes/loop_unrolling.h"
#include "jit/passes/peephole.h"
#include "jit/passes/remove_mutation.h"
#include "jit/passes/shape_propagation.h"
#include "jit/runtime/compilation_unit.h"

namespace torchlet::jit {

namespace {

void fold_constants(Graph& g) {
  bool changed = false;
  while (propagate_constants(g) | fold_constant_control_flow(g)) changed = true;
  if (changed) eliminate_dead_code(g);
}

}  // namespace

void optimize_for_execution(Graph& g) {
  // Phase 0-2 of torch's compileSpec: inline, then carry what the spec knows forward.
  inline_calls(g);
  fold_constants(g);
  propagate_shapes(g);
  // Frozen graphs' linears fold their batch norms once the spec tells their ranks.
  if (fold_frozen_linear_batch_norm(g)) eliminate_dead_code(g);
  // runOptimization.
  eliminate_dead_code(g);
  eliminate_common_subexpressions(g);
  peephole(g);
  fold_constants(g);
  pool_constants(g);
  unroll_loops(g);
  remove_list_mutation(g);
  // Unrolling and list folding give the shape rules and peephole more to answer.
  propagate_shapes(g);
  peephole(g);
  fold_constants(g);
  eliminate_common_subexpressions(g);
  eliminate_dead_code(g);
#ifndef NDEBUG
  g.lint();
#endif
}

void enable_graph_executor(CompilationUnit& unit) { unit.set_graph_optimizer(optimize_for_execution); }

}  // namespace torchlet::jit

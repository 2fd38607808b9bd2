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

// A plan's graph and whether it may hold dead code: dead code elimination walks the
// whole graph (with an alias analysis), and the pipeline asks for it after most passes,
// which on a big graph often changed nothing since the last one.
class Pipeline {
 public:
  explicit Pipeline(Graph& g) : g_(g) {}

  // A pass that reports whether it changed the graph.
  void run(bool changed) { dirty_ |= changed; }

  void eliminate_dead_code() {
    if (dirty_) jit::eliminate_dead_code(g_);
    dirty_ = false;
  }

  // Constants, and the branches and loops they decide, to a fixpoint.
  void fold_constants() {
    bool folded = false;
    while (propagate_constants(g_) | fold_constant_control_flow(g_)) folded = true;
    if (folded) {
      dirty_ = true;
      eliminate_dead_code();
    }
  }

 private:
  Graph& g_;
  bool dirty_ = true;  // the graph as given may hold dead code
};

}  // namespace

void optimize_for_execution(Graph& g) {
  Pipeline p(g);
  // Phase 0-2 of torch's compileSpec: inline, pool the constants each inlined function
  // brought, then carry what the spec knows forward. (Shape propagation only refines
  // types: it makes no dead code.)
  p.run(inline_calls(g));
  p.run(pool_constants(g));
  p.fold_constants();
  propagate_shapes(g);
  // Frozen graphs' linears fold their batch norms once the spec tells their ranks.
  p.run(fold_frozen_linear_batch_norm(g));
  // runOptimization.
  p.eliminate_dead_code();
  p.run(eliminate_common_subexpressions(g));
  p.run(peephole(g));
  p.fold_constants();
  p.run(pool_constants(g));
  p.run(unroll_loops(g));
  p.run(remove_list_mutation(g));
  // Unrolling and list folding give the shape rules and peephole more to answer.
  propagate_shapes(g);
  p.run(peephole(g));
  p.fold_constants();
  p.run(eliminate_common_subexpressions(g));
  p.eliminate_dead_code();
#ifndef NDEBUG
  g.lint();
#endif
}

void enable_graph_executor(CompilationUnit& unit) { unit.set_graph_optimizer(optimize_for_execution); }

}  // namespace torchlet::jit

// The pipeline the graph executor runs on each specialised plan (torch's legacy
// executor: GraphExecutorImpl::compileSpec and runOptimization), and the hook that
// gives it to a CompilationUnit.
#pragma once

#include <memory>

#include "jit/ir/ir.h"

namespace torchlet::jit {

class CompilationUnit;

// Inlines calls, pools constants, folds constants and the control flow they decide,
// propagates shapes and dtypes from the input types, then torch's runOptimization: dead
// code, CSE, peephole, constant pooling, loop unrolling, list mutation removal. Changes
// only how the graph computes, never what.
void optimize_for_execution(Graph& graph);

// Makes the unit's functions run on optimised plans (graph_executor.h).
void enable_graph_executor(CompilationUnit& unit);

}  // namespace torchlet::jit

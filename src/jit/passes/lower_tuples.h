// torch's tuple lowering (torch._C._jit_pass_lower_all_tuples): every tuple value is
// replaced by its elements -- in graph inputs and outputs, block parameters and
// results, If and Loop outputs -- so the graph computes on the elements alone, as
// fusers and exporters want it.
#pragma once

#include "jit/ir/ir.h"

namespace torchlet::jit {

// Tuple inputs and outputs of the graph, of If and Loop, and tuple constants become
// their elements; TupleUnpack, TupleIndex with a constant index and TupleSlice are
// answered from the TupleConstruct they read; then dead code goes (keeping writes).
// ValueError naming the node when a tuple cannot be lowered (one a call returns, an
// index known only at run time): the graph is then left part-lowered, as torch's is.
// Returns whether it changed anything.
bool lower_all_tuples(Graph& graph);

}  // namespace torchlet::jit

// torch's loop unrolling (torch._C._jit_pass_loop_unrolling and
// _jit_pass_constant_loop_unrolling): for-loops (constant True conditions) with small
// bodies repeat their body 8 times per iteration, with an epilogue loop for the rest;
// loops of a constant trip count under 64 become straight-line code.
#pragma once

#include "jit/ir/ir.h"

namespace torchlet::jit {

// Every for-loop whose body holds at most 32 nodes (constants aside, nested blocks
// counted, as torch counts): unrolled 8 times with an epilogue, or fully when its trip
// count is a constant under 64. A body that reads the loop counter gets a counter of its
// own carried through both loops. Dead code goes after (alias-aware). Returns whether it
// changed anything.
bool unroll_loops(Graph& graph);

// The same for for-loops of a constant trip count only, whatever their body's size.
bool unroll_constant_loops(Graph& graph);

}  // namespace torchlet::jit

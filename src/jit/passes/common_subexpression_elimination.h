// Common-subexpression elimination, as torch's EliminateCommonSubexpression: a node
// equal to one before it (node_hashing.h) in its block or an enclosing one is replaced
// by that one, unless alias analysis says someone could tell.
#pragma once

#include "jit/ir/ir.h"

namespace torchlet::jit {

// Skips nodes with side effects, random ones, nodes that write memory or whose outputs
// something writes, nodes with blocks (their blocks are searched inside, seeing what
// comes before them), and pairs whose outputs both escape the graph (returning one
// tensor twice where the program returned two equal ones would let a caller's write
// through one show in the other). Returns whether it changed anything.
bool eliminate_common_subexpressions(Graph& graph);

}  // namespace torchlet::jit

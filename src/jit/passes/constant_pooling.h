// Constant pooling, as torch's ConstantPooling: every prim::Constant moves to the top
// of the graph, and equal ones (node_hashing.h: same value and type) become one.
#pragma once

#include "jit/ir/ir.h"

namespace torchlet::jit {

// Constants inside If and Loop blocks are hoisted too. Each newly seen constant is
// placed before the graph's first node, so the pooled constants come out in reverse
// order of their first appearance, as torch's do. Returns whether it changed anything.
bool pool_constants(Graph& graph);

}  // namespace torchlet::jit

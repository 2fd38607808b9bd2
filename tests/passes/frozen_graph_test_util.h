// Helpers for the tests of frozen-graph folding: IR text whose weight inputs become
// constants, as freezing leaves them, and counting a graph's nodes of one kind.
#pragma once

#include <string>
#include <vector>

#include <torchlet/tensor.h>

#include "jit/ir/ir_parser.h"

namespace torchlet::jit {

// The graph's inputs after the first become constants of these tensors.
inline GraphPtr with_constant_weights(const std::string& ir, const std::vector<Tensor>& weights) {
  GraphPtr g = parse_ir(ir);
  InsertPointGuard guard(*g, g->nodes().front());
  for (size_t i = 0; i < weights.size(); ++i) g->inputs()[i + 1]->replace_all_uses_with(g->insert_constant(IValue(weights[i])));
  for (size_t i = 0; i < weights.size(); ++i) g->erase_input(1);
  return g;
}

// Top-level nodes of `kind` ("aten::linear").
inline size_t count_nodes(const Graph& g, const char* kind) {
  size_t n = 0;
  for (const Node* node : g.nodes()) n += node->kind().qual_string() == kind;
  return n;
}

}  // namespace torchlet::jit

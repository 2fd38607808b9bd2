// Constant pooling (constant_pooling.h).
#include "jit/passes/constant_pooling.h"

#include <unordered_set>
#include <vector>

#include "jit/passes/node_hashing.h"

namespace torchlet::jit {

namespace {

using NodeSet = std::unordered_set<Node*, HashNode, EqualNode>;

void pool(Graph& graph, Block* block, NodeSet& constants, bool& changed) {
  std::vector<Node*> nodes(block->nodes().begin(), block->nodes().end());
  for (Node* n : nodes) {
    for (Block* sub : n->blocks()) pool(graph, sub, constants, changed);
    if (n->kind() != sym::prim_Constant) continue;
    auto [it, inserted] = constants.insert(n);
    if (!inserted) {
      n->replace_all_uses_with(*it);
      n->destroy();
      changed = true;
      continue;
    }
    Node* first = graph.nodes().front();
    if (n != first) {
      n->move_before(first);
      changed = true;
    }
  }
}

}  // namespace

bool pool_constants(Graph& graph) {
  NodeSet constants;
  bool changed = false;
  pool(graph, graph.block(), constants, changed);
  return changed;
}

}  // namespace torchlet::jit

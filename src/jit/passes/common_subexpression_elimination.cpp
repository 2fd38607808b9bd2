// Common-subexpression elimination (common_subexpression_elimination.h).
#include "jit/passes/common_subexpression_elimination.h"

#include <unordered_set>
#include <vector>

#include "jit/passes/alias_analysis.h"
#include "jit/passes/node_effects.h"
#include "jit/passes/node_hashing.h"

namespace torchlet::jit {

namespace {

using NodeSet = std::unordered_set<Node*, HashNode, EqualNode>;

class CommonSubexpressionEliminator {
 public:
  explicit CommonSubexpressionEliminator(Graph& graph) : alias_db_(graph) {}

  bool run(Block* block) {
    std::vector<const NodeSet*> enclosing;
    eliminate(block, enclosing);
    return changed_;
  }

 private:
  void eliminate(Block* block, std::vector<const NodeSet*>& enclosing) {
    NodeSet seen;
    std::vector<Node*> nodes(block->nodes().begin(), block->nodes().end());
    for (Node* n : nodes) {
      if (has_side_effects(*n) || is_nondeterministic(*n) || alias_db_.is_mutable(n) || alias_db_.has_writers(n))
        continue;
      if (!n->blocks().empty()) {
        enclosing.push_back(&seen);
        for (Block* sub : n->blocks()) eliminate(sub, enclosing);
        enclosing.pop_back();
        continue;
      }
      Node* existing = nullptr;
      for (const NodeSet* outer : enclosing) {
        auto it = outer->find(n);
        if (it != outer->end()) {
          existing = *it;
          break;
        }
      }
      if (!existing) {
        auto [it, inserted] = seen.insert(n);
        if (inserted) continue;
        existing = *it;
      }
      if (!alias_db_.safe_to_change_aliasing_relationship(n->outputs(), existing->outputs())) continue;
      n->replace_all_uses_with(existing);
      n->destroy();
      changed_ = true;
    }
  }

  AliasDb alias_db_;
  bool changed_ = false;
};

}  // namespace

bool eliminate_common_subexpressions(Graph& graph) { return CommonSubexpressionEliminator(graph).run(graph.block()); }

}  // namespace torchlet::jit

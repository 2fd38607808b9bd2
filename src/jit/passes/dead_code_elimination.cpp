// Dead code elimination (dead_code_elimination.h).
#include "jit/passes/dead_code_elimination.h"

#include <memory>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include <torchlet/error.h>

#include "jit/passes/alias_analysis.h"
#include "jit/passes/node_effects.h"
#include "jit/runtime/operator.h"
#include "jit/runtime/schema_matching.h"

namespace torchlet::jit {

// Note [Dead code]
// Marking starts from the graph's return node (every graph output is live) and from
// every node with side effects; a marked node makes its inputs live, and so marks their
// producers, and the nodes owning its block. A block's return node passes liveness
// inward: an If's result i makes each branch's result i live; a loop's carried value is
// live inside the body when the loop's result is live or the body reads it, and the
// continue condition always is. With alias analysis, a node that writes memory a live
// value may point to is marked too, which can make more values live, so marking repeats
// until nothing changes. (Only writes need that: a value is used only after it is made,
// so one round from the block's end, inner blocks before the node holding them, sees
// every use of a value before its producer.) The sweep then destroys, innermost and
// last first, unmarked nodes with no uses, after dropping If and loop outputs nothing
// uses. torch's order and rules, so the same graph comes out.
namespace {

class DeadCodeEliminator {
 public:
  DeadCodeEliminator(Graph& graph, DeadCodeWrites writes) : graph_(graph) {
    if (writes == DeadCodeWrites::AliasAware) alias_db_ = std::make_unique<AliasDb>(graph);
  }

  bool run() {
    mark_return(graph_.return_node());
    mark(graph_.block());
    // Another round can only find writers to values found live after the writer was
    // passed; without writes, one round from the end reaches the fixpoint.
    if (alias_db_ && alias_db_->graph_writes_anything()) {
      while (mark(graph_.block())) {
      }
    } else {
#ifndef NDEBUG
      TL_INTERNAL_ASSERT(!mark(graph_.block()), "dead code: a second round marked more in a graph without writes");
#endif
    }
    sweep(graph_.block());
    return changed_;
  }

  // torch's EliminateDeadCode(block, recurse=false): without the rest of the graph
  // nothing in the block is known live but by its uses and effects, so a node goes when
  // nothing uses it and it has no effect (writes count), last first.
  bool run_block(Block* b) {
    std::vector<Node*> nodes(b->nodes().begin(), b->nodes().end());
    for (auto it = nodes.rbegin(); it != nodes.rend(); ++it) {
      Node* n = *it;
      remove_dead_if_outputs(n);
      remove_dead_loop_outputs(n);
      if (!n->has_uses() && !has_effects(n)) {
        n->destroy();
        changed_ = true;
      }
    }
    return changed_;
  }

 private:
  bool writes_memory(const Node* n) const {
    if (alias_db_) return false;  // judged by what the write reaches (mark_if_live)
    const Operator* op = n->op() ? n->op() : resolve_node_operator(*n);
    return op && op->is_mutating();
  }

  bool has_effects(const Node* n) {
    auto it = effects_.find(n);
    if (it != effects_.end()) return it->second;
    bool effects = has_side_effects(*n) || writes_memory(n) || (alias_db_ && alias_db_->writes_to_wildcard(n));
    for (const Block* b : n->blocks())
      for (const Node* inner : b->nodes()) effects = has_effects(inner) || effects;
    effects_.emplace(n, effects);
    return effects;
  }

  void mark_return(const Node* ret) {
    if (marked_.count(ret)) return;
    const Node* outer = ret->owning_block()->owning_node();
    if (!outer) {
      mark_node(ret);
      return;
    }
    if (outer->kind() == sym::prim_Loop) {
      const Block* body = ret->owning_block();
      for (size_t i = 0; i < outer->outputs().size(); ++i) {
        const Value* inner_input = body->inputs().at(i + 1);
        if (live_.count(outer->output(i)) || inner_input->has_uses()) live_.insert(ret->input(i + 1));
      }
      live_.insert(ret->input(0));
    } else {
      for (size_t i = 0; i < outer->outputs().size() && i < ret->inputs().size(); ++i)
        if (live_.count(outer->output(i))) live_.insert(ret->input(i));
    }
    marked_.insert(ret);
  }

  bool mark_node(const Node* n) {
    if (!marked_.insert(n).second) return false;
    for (const Node* owner = n->owning_block() ? n->owning_block()->owning_node() : nullptr; owner;
         owner = owner->owning_block() ? owner->owning_block()->owning_node() : nullptr)
      mark_node(owner);
    for (const Value* in : n->inputs()) live_.insert(in);
    return true;
  }

  bool mark_if_live(const Node* n) {
    for (const Value* out : n->outputs())
      if (live_.count(out)) return mark_node(n);
    // (Only writers can make themselves live: asking every node would copy the live set
    // once a node, quadratic in the graph.)
    if (alias_db_ && !marked_.count(n) && alias_db_->writes_anything(n)) {
      std::vector<const Value*> live(live_.begin(), live_.end());
      if (alias_db_->writes_to_alias(n, live)) return mark_node(n);
    }
    return false;
  }

  bool mark(const Block* b) {
    bool any = false;
    for (const Node* n : b->nodes())
      if (has_effects(n)) any |= mark_node(n);
    mark_return(b->return_node());
    std::vector<const Node*> nodes(b->nodes().begin(), b->nodes().end());
    for (auto it = nodes.rbegin(); it != nodes.rend(); ++it) {
      for (const Block* sub : (*it)->blocks()) any |= mark(sub);
      any |= mark_if_live(*it);
    }
    return any;
  }

  void remove_dead_if_outputs(Node* n) {
    if (n->kind() != sym::prim_If) return;
    for (size_t i = n->outputs().size(); i-- > 0;) {
      if (n->output(i)->has_uses()) continue;
      n->erase_output(i);
      for (Block* b : n->blocks()) b->erase_output(i);
      changed_ = true;
    }
  }

  void remove_dead_loop_outputs(Node* n) {
    if (n->kind() != sym::prim_Loop) return;
    Block* body = n->blocks().at(0);
    for (size_t i = n->outputs().size(); i-- > 0;) {
      if (n->output(i)->has_uses() || body->inputs().at(i + 1)->has_uses()) continue;
      n->erase_output(i);
      n->remove_input(i + 2);
      body->erase_input(i + 1);
      body->erase_output(i + 1);
      changed_ = true;
    }
  }

  void sweep(Block* b) {
    std::vector<Node*> nodes(b->nodes().begin(), b->nodes().end());
    for (auto it = nodes.rbegin(); it != nodes.rend(); ++it) {
      Node* n = *it;
      remove_dead_if_outputs(n);
      remove_dead_loop_outputs(n);
      for (Block* sub : n->blocks()) sweep(sub);
      if (!marked_.count(n) && !n->has_uses()) {
        n->destroy();
        changed_ = true;
      }
    }
  }

  Graph& graph_;
  std::unique_ptr<AliasDb> alias_db_;
  std::unordered_set<const Node*> marked_;
  std::unordered_set<const Value*> live_;
  std::unordered_map<const Node*, bool> effects_;
  bool changed_ = false;
};

}  // namespace

bool eliminate_dead_code(Graph& graph, DeadCodeWrites writes) { return DeadCodeEliminator(graph, writes).run(); }

bool eliminate_dead_code_in_block(Block* block) {
  return DeadCodeEliminator(*block->owning_graph(), DeadCodeWrites::KeepAll).run_block(block);
}

}  // namespace torchlet::jit

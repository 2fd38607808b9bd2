// Inlining of function and method calls (inliner.h).
#include "jit/passes/inliner.h"

#include <unordered_map>
#include <unordered_set>
#include <vector>

#include <torchlet/error.h>

#include "jit/runtime/function.h"

namespace torchlet::jit {

namespace {

// The call stacks of one call's inlined nodes: the call's own stack, then the call,
// then the stack the node already had in the callee. Nodes that shared a stack share
// the new one.
struct CallStacks {
  const Node* call;
  std::string function;
  std::unordered_map<const InlinedCallStack*, std::shared_ptr<const InlinedCallStack>> made;

  void stamp(Node* n) {
    const InlinedCallStack* old = n->callstack().get();
    auto it = made.find(old);
    if (it == made.end()) {
      InlinedCallStack s = call->callstack() ? *call->callstack() : InlinedCallStack{};
      s.push_back({function, call->source_range()});
      if (old) s.insert(s.end(), old->begin(), old->end());
      it = made.emplace(old, std::make_shared<const InlinedCallStack>(std::move(s))).first;
    }
    n->set_callstack(it->second);
    for (Block* b : n->blocks())
      for (Node* inner : b->nodes()) stamp(inner);
  }
};

class Inliner {
 public:
  bool run(Graph& graph) { return inline_block(graph, graph.block()); }

 private:
  const GraphFunction* callee(const Node* n) const {
    const Function* fn = nullptr;
    if (n->kind() == sym::prim_CallFunction) {
      if (const FunctionType* ft = n->input(0)->type()->as_function()) fn = ft->function();
    } else if (const ClassType* cls = n->input(0)->type()->as_class()) {
      fn = cls->find_method(n->s(sym::attr_name));
    }
    const auto* gf = dynamic_cast<const GraphFunction*>(fn);
    if (!gf || in_progress_.count(gf)) return nullptr;  // not a graph, or recursive
    return gf;
  }

  // The callee's nodes go before the call, its inputs bound to the call's arguments
  // (a function's first input is the function value itself, which it does not take).
  // Returns the nodes now standing where the call was.
  std::vector<Node*> inline_call(Graph& graph, Node* call, const GraphFunction& fn, const Graph& body) {
    const size_t first_arg = call->kind() == sym::prim_CallFunction ? 1 : 0;
    TL_INTERNAL_ASSERT(call->inputs().size() - first_arg == body.inputs().size(),
                       "inline: the call's arguments do not match the callee's inputs");
    // Cloned into a block of a placeholder node, then moved out: the block's copy of
    // the callee's inputs is rewired to the arguments.
    Node* holder = graph.create(sym::prim_If, 0);
    holder->insert_before(call);
    Block* staging = holder->add_block();
    staging->clone_from(body.block(), [](Value* v) -> Value* { return v; });
    for (size_t i = 0; i < body.inputs().size(); ++i)
      staging->inputs()[i]->replace_all_uses_with(call->input(first_arg + i));
    std::vector<Node*> nodes(staging->nodes().begin(), staging->nodes().end());
    CallStacks stacks{call, fn.qualname(), {}};
    for (Node* n : nodes) {
      stacks.stamp(n);
      n->move_before(holder);
    }
    for (size_t i = 0; i < call->outputs().size(); ++i) call->output(i)->replace_all_uses_with(staging->outputs()[i]);
    call->destroy();
    holder->destroy();
    return nodes;
  }

  bool inline_block(Graph& graph, Block* block) {
    bool changed = false;
    std::vector<Node*> nodes(block->nodes().begin(), block->nodes().end());
    for (Node* n : nodes) changed |= inline_node(graph, n);
    return changed;
  }

  // Top down: a call's body goes in as written and its own calls are inlined where they
  // now stand, so every node is copied once, from the function that defines it. (Inlining
  // each callee into a copy of itself first copies a deep module's nodes once per level.)
  bool inline_node(Graph& graph, Node* n) {
    bool changed = false;
    for (Block* sub : n->blocks()) changed |= inline_block(graph, sub);
    if (n->kind() != sym::prim_CallFunction && n->kind() != sym::prim_CallMethod) return changed;
    const GraphFunction* fn = callee(n);
    if (!fn) return changed;
    std::vector<Node*> inlined = inline_call(graph, n, *fn, *fn->graph());
    in_progress_.insert(fn);
    for (Node* m : inlined) inline_node(graph, m);
    in_progress_.erase(fn);
    return true;
  }

  std::unordered_set<const GraphFunction*> in_progress_;
};

}  // namespace

bool inline_calls(Graph& graph) { return Inliner().run(graph); }

}  // namespace torchlet::jit

// Constant propagation over immutable types (constant_propagation.h).
#include "jit/passes/constant_propagation.h"

#include <algorithm>
#include <cstdint>
#include <new>
#include <optional>
#include <stdexcept>
#include <vector>

#include <torchlet/error.h>

#include "values/type.h"
#include "jit/passes/alias_analysis.h"
#include "jit/runtime/operator.h"
#include "jit/runtime/schema_matching.h"

namespace torchlet::jit {

// Note [Constant propagation]
// After compiling, as torch does (its ConstantPropagation over immutable types): a node
// whose inputs are all constants of immutable types (numbers, bool, str, None, tuples
// of those) and whose outputs are immutable too is run once now and replaced by its
// results as constants: 1 + 2, range lengths, (5, 6) tuples and their unpacking.
// Operators that write an argument, take varargs, or raise here are left alone (torch
// leaves those that raise too, so the error happens when the code runs).
namespace {

bool immutable_type(const Type& t) {
  switch (t.kind()) {
    case TypeKind::Int:
    case TypeKind::Float:
    case TypeKind::Bool:
    case TypeKind::Str:
    case TypeKind::None:
    case TypeKind::Complex:
      return true;
    case TypeKind::Tuple:
      return !t.is_named_tuple() &&
             std::all_of(t.contained().begin(), t.contained().end(), [](const TypePtr& c) { return immutable_type(*c); });
    default:
      return false;
  }
}

// A constant list of immutable values nothing writes to ("batch" in ["batch", "row"]):
// what freezing may fold as well (`unwritten` is the graph's alias analysis).
bool unwritten_constant_list(const Value* v, const AliasDb* unwritten) {
  return unwritten && v->type()->kind() == TypeKind::List && immutable_type(*v->type()->contained()[0]) &&
         !unwritten->has_writers(v);
}

std::optional<std::vector<IValue>> evaluate_constant_node(const Node* n, const AliasDb* unwritten) {
  // An operator without inputs reads the runtime's state (torch.is_grad_enabled()),
  // which folding would freeze; torch leaves them too.
  if (n->inputs().empty()) return std::nullopt;
  std::vector<IValue> in;
  for (const Value* v : n->inputs()) {
    if (!immutable_type(*v->type()) && !unwritten_constant_list(v, unwritten)) return std::nullopt;
    auto c = to_ivalue(v);
    if (!c) return std::nullopt;
    in.push_back(*c);
  }
  // A list built from constants and never written: one constant list (frozen graphs).
  if (n->kind() == sym::prim_ListConstruct) {
    if (!unwritten || unwritten->has_writers(n->output())) return std::nullopt;
    return std::vector<IValue>{IValue::list(in, n->output()->type()->contained()[0])};
  }
  for (const Value* v : n->outputs())
    if (!immutable_type(*v->type())) return std::nullopt;
  if (n->kind() == sym::prim_TupleConstruct) return std::vector<IValue>{IValue::tuple(in)};
  if (n->kind() == sym::prim_TupleUnpack) return in[0].tupleRef().elements;
  if (n->kind() == sym::prim_TupleIndex) {
    const auto& elems = in[0].tupleRef().elements;
    const int64_t i = in[1].toInt();
    if (i < 0 || static_cast<size_t>(i) >= elems.size()) return std::nullopt;
    return std::vector<IValue>{elems[static_cast<size_t>(i)]};
  }
  const Operator* op = n->op() ? n->op() : resolve_node_operator(*n);
  if (!op || op->is_mutating() || op->schema().is_vararg || op->schema().is_varret) return std::nullopt;
  // Folding runs the op while compiling, which is also while loading an archive's code:
  // a string whose length comes from an int ("a".ljust(1 << 33), s.expandtabs(n)) would
  // be built then, from a few bytes of a file. Large ones are left to run when the
  // program does.
  constexpr int64_t kMaxFoldedWidth = int64_t{1} << 16;
  const bool makes_str = std::any_of(n->outputs().begin(), n->outputs().end(),
                                     [](const Value* v) { return v->type()->kind() == TypeKind::Str; });
  if (makes_str && std::any_of(in.begin(), in.end(), [&](const IValue& v) {
        return v.isInt() && (v.toInt() > kMaxFoldedWidth || v.toInt() < -kMaxFoldedWidth);
      }))
    return std::nullopt;
  Stack stack(in.begin(), in.end());
  try {
    op->operation()(stack);
  } catch (const Error&) {
    return std::nullopt;
  } catch (const std::bad_alloc&) {  // as above, for what the guard does not foresee:
    return std::nullopt;             // the program meets the same refusal when it runs
  } catch (const std::length_error&) {
    return std::nullopt;
  }
  if (stack.size() != n->outputs().size()) return std::nullopt;
  for (size_t i = 0; i < stack.size(); ++i)  // a result must be what the node's type says
    if (!type_of(stack[i])->is_subtype_of(*n->output(i)->type())) return std::nullopt;
  return std::vector<IValue>(stack.begin(), stack.end());
}

// Tuples built and then only read field by field (torch.max(x, 1).values) end up
// unused; torch's dead code elimination drops them, and so does this.
bool remove_unused_tuples(Block* b) {
  bool changed = false;
  std::vector<Node*> nodes(b->nodes().begin(), b->nodes().end());
  for (auto it = nodes.rbegin(); it != nodes.rend(); ++it) {
    Node* n = *it;
    for (Block* sub : n->blocks()) changed |= remove_unused_tuples(sub);
    if (n->kind() == sym::prim_TupleConstruct && !n->output()->has_uses()) {
      n->destroy();
      changed = true;
    }
  }
  return changed;
}

bool propagate_constants(Graph& g, Block* b, const AliasDb* unwritten) {
  bool changed = false;
  for (Node* n = b->nodes().begin() == b->nodes().end() ? nullptr : *b->nodes().begin(); n && n != b->return_node();) {
    Node* next = n->next();
    for (Block* sub : n->blocks()) changed |= propagate_constants(g, sub, unwritten);
    if (n->kind() != sym::prim_Constant && n->blocks().empty() && !n->outputs().empty()) {
      if (auto values = evaluate_constant_node(n, unwritten)) {
        InsertPointGuard guard(g, n);
        for (size_t i = 0; i < values->size(); ++i) {
          Value* c = g.insert_constant((*values)[i], n->source_range());
          c->set_type(n->output(i)->type());
          n->output(i)->replace_all_uses_with(c);
        }
        n->destroy();
        changed = true;
      }
    }
    n = next;
  }
  return changed;
}

// The branch taken: its nodes move before the If, whose results become the branch's.
void inline_if_branch(Node* n, Block* branch) {
  std::vector<Node*> body(branch->nodes().begin(), branch->nodes().end());
  for (Node* inner : body) inner->move_before(n);
  for (size_t i = 0; i < n->outputs().size(); ++i) n->output(i)->replace_all_uses_with(branch->outputs()[i]);
  n->destroy();
}

bool remove_extra_if_outputs(Node* n) {
  bool changed = false;
  Block* a = n->blocks()[0];
  Block* b = n->blocks()[1];
  for (size_t i = n->outputs().size(); i-- > 0;) {
    if (a->outputs()[i] != b->outputs()[i]) continue;
    n->output(i)->replace_all_uses_with(a->outputs()[i]);
    a->erase_output(i);
    b->erase_output(i);
    n->erase_output(i);
    changed = true;
  }
  return changed;
}

bool remove_extra_loop_outputs(Node* n) {
  bool changed = false;
  Block* body = n->blocks()[0];
  for (size_t i = n->outputs().size(); i-- > 0;) {
    if (body->outputs()[i + 1] != body->inputs()[i + 1]) continue;
    Value* initial = n->input(i + 2);
    body->inputs()[i + 1]->replace_all_uses_with(initial);
    n->output(i)->replace_all_uses_with(initial);
    body->erase_output(i + 1);
    body->erase_input(i + 1);
    n->erase_output(i);
    n->remove_input(i + 2);
    changed = true;
  }
  return changed;
}

bool runs_zero_times(const Node* loop) {
  auto trips = to_ivalue(loop->input(0));
  auto cond = to_ivalue(loop->input(1));
  return (trips && trips->isInt() && trips->toInt() <= 0) || (cond && cond->isBool() && !cond->toBool());
}

bool fold_control_flow(Block* b) {
  bool changed = false;
  std::vector<Node*> nodes(b->nodes().begin(), b->nodes().end());
  for (Node* n : nodes) {
    for (Block* sub : n->blocks()) changed |= fold_control_flow(sub);
    if (n->kind() == sym::prim_If && n->blocks().size() == 2) {
      auto cond = to_ivalue(n->input(0));
      if (cond && cond->isBool()) {
        inline_if_branch(n, n->blocks()[cond->toBool() ? 0 : 1]);
        changed = true;
      } else {
        changed |= remove_extra_if_outputs(n);
      }
    } else if (n->kind() == sym::prim_Loop && n->blocks().size() == 1) {
      if (runs_zero_times(n)) {
        for (size_t i = 0; i < n->outputs().size(); ++i) n->output(i)->replace_all_uses_with(n->input(i + 2));
        n->destroy();
        changed = true;
      } else {
        changed |= remove_extra_loop_outputs(n);
      }
    }
  }
  return changed;
}

}  // namespace

bool fold_constant_control_flow(Graph& graph) { return fold_control_flow(graph.block()); }

bool propagate_constants(Graph& graph) { return propagate_constants(graph, graph.block(), nullptr); }

bool propagate_frozen_constants(Graph& graph) {
  const AliasDb unwritten(graph);
  return propagate_constants(graph, graph.block(), &unwritten);
}

bool remove_unused_tuples(Graph& graph) { return remove_unused_tuples(graph.block()); }

}  // namespace torchlet::jit

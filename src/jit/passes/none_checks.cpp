// None checks and redundant casts folded (none_checks.h).
#include "jit/passes/none_checks.h"

#include <algorithm>
#include <optional>
#include <vector>

namespace torchlet::jit {

bool may_be_none(const TypePtr& t) {
  switch (t->kind()) {
    case TypeKind::None:
    case TypeKind::Optional:
    case TypeKind::Any:
    case TypeKind::Var:
      return true;
    case TypeKind::Union:
      return std::any_of(t->contained().begin(), t->contained().end(), [](const TypePtr& m) { return may_be_none(m); });
    default:
      return false;
  }
}

bool must_be_none(const Value* v) {
  if (v->type()->kind() == TypeKind::None) return true;
  const Node* n = v->node();
  return n->kind() == sym::prim_Constant && !n->has_attributes() && v->type()->kind() == TypeKind::Optional;
}

std::optional<bool> identity_answer(const Value* a, const Value* b) {
  const bool a_none = must_be_none(a);
  const bool b_none = must_be_none(b);
  if (a_none && b_none) return true;
  if ((a_none && !may_be_none(b->type())) || (b_none && !may_be_none(a->type()))) return false;
  return std::nullopt;
}

bool is_redundant_cast(const Node* n) {
  return n->kind() == sym::prim_unchecked_cast && n->inputs().size() == 1 &&
         unshaped_type(n->input()->type())->is_subtype_of(*unshaped_type(n->output()->type()));
}

namespace {

bool fold(Graph& graph, Block* block) {
  bool changed = false;
  std::vector<Node*> nodes(block->nodes().begin(), block->nodes().end());
  for (Node* n : nodes) {
    for (Block* sub : n->blocks()) changed |= fold(graph, sub);
    const std::string& kind = n->kind().qual_string();
    if ((kind == "aten::__is__" || kind == "aten::__isnot__") && n->inputs().size() == 2) {
      if (auto same = identity_answer(n->input(0), n->input(1))) {
        InsertPointGuard guard(graph, n);
        Value* c = graph.insert_constant(IValue(kind == "aten::__is__" ? *same : !*same), n->source_range());
        n->output()->replace_all_uses_with(c);
        n->destroy();
        changed = true;
      }
    } else if (is_redundant_cast(n)) {
      n->output()->replace_all_uses_with(n->input());
      n->destroy();
      changed = true;
    }
  }
  return changed;
}

}  // namespace

bool fold_none_checks(Graph& graph) { return fold(graph, graph.block()); }

}  // namespace torchlet::jit

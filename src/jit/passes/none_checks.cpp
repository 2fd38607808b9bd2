// None checks and redundant casts folded (none_checks.h).
#include "jit/passes/none_checks.h"

#include <algorithm>
#include <optional>
#include <vector>

namespace torchlet::jit {

namespace {

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

// The answer of `a is b` when the types alone decide it.
std::optional<bool> is_answer(const Value* a, const Value* b) {
  const bool a_none = a->type()->kind() == TypeKind::None;
  const bool b_none = b->type()->kind() == TypeKind::None;
  if (a_none && b_none) return true;
  if ((a_none && !may_be_none(b->type())) || (b_none && !may_be_none(a->type()))) return false;
  return std::nullopt;
}

bool fold(Graph& graph, Block* block) {
  bool changed = false;
  std::vector<Node*> nodes(block->nodes().begin(), block->nodes().end());
  for (Node* n : nodes) {
    for (Block* sub : n->blocks()) changed |= fold(graph, sub);
    const std::string& kind = n->kind().qual_string();
    if ((kind == "aten::__is__" || kind == "aten::__isnot__") && n->inputs().size() == 2) {
      if (auto same = is_answer(n->input(0), n->input(1))) {
        InsertPointGuard guard(graph, n);
        Value* c = graph.insert_constant(IValue(kind == "aten::__is__" ? *same : !*same), n->source_range());
        n->output()->replace_all_uses_with(c);
        n->destroy();
        changed = true;
      }
    } else if (n->kind() == sym::prim_unchecked_cast && n->inputs().size() == 1 &&
               n->input()->type()->is_subtype_of(*n->output()->type())) {
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

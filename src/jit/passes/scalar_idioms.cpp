// The rules of torch's peephole pass on values that are not tensors
// (PeepholeOptimizeNonTensor; fold_scalar_idioms in peephole.h).
#include <cstdint>
#include <optional>
#include <vector>

#include "jit/passes/constant_values.h"
#include "jit/passes/none_checks.h"
#include "jit/passes/peephole.h"

namespace torchlet::jit {

namespace {

const Symbol kCeil = Symbol::from_qual_string("aten::ceil");
const Symbol kUnwrapOptional = Symbol::from_qual_string("aten::_unwrap_optional");

// Types whose == cannot throw and is reflexive: torch leaves out tensors (elementwise)
// and everything else that might compare unequal to itself or raise.
bool compares_to_itself(const TypePtr& t) {
  auto plain = [](const TypePtr& e) {
    const TypeKind k = e->kind();
    return k == TypeKind::Bool || k == TypeKind::Int || k == TypeKind::Float || k == TypeKind::None;
  };
  if (t->kind() == TypeKind::List) return plain(t->contained()[0]);
  if (t->kind() == TypeKind::Dict) return plain(t->contained()[0]) && plain(t->contained()[1]);
  return plain(t);
}

// An int binary op with one constant operand: the constant, after moving it second for
// + and * (torch's checkArithNode).
std::optional<int64_t> constant_operand(Node* n) {
  if (n->inputs().size() != 2 || n->input(0)->type()->kind() != TypeKind::Int ||
      n->input(1)->type()->kind() != TypeKind::Int) {
    return std::nullopt;
  }
  if (n->kind() == sym::aten_mul || n->kind() == sym::aten_add) {
    if (std::optional<int64_t> first = constant_int(n->input(0))) {
      Value* a = n->input(0);
      n->replace_input(0, n->input(1));
      n->replace_input(1, a);
      return first;
    }
  }
  return constant_int(n->input(1));
}

// TorchScript ints wrap at 64 bits; so does merging their constants.
int64_t wrapping(int64_t a, int64_t b, bool add) {
  const auto ua = static_cast<uint64_t>(a);
  const auto ub = static_cast<uint64_t>(b);
  return static_cast<int64_t>(add ? ua + ub : ua - ub);
}

class ScalarIdioms {
 public:
  explicit ScalarIdioms(Graph& graph) : graph_(graph) {}

  bool run(Block* block) {
    bool changed = false;
    for (Node* n : block->nodes()) {
      for (Block* sub : n->blocks()) changed |= run(sub);
      if (n->kind() != sym::prim_Constant) changed |= none_outputs_to_constant(n);
      changed |= fold(n);
    }
    return changed;
  }

 private:
  Value* constant_before(Node* n, const IValue& v) {
    InsertPointGuard guard(graph_, n);
    return graph_.insert_constant(v, n->source_range());
  }

  // torch counts every None-typed output as a change, used or not (so the DCE after
  // peephole runs); a constant is only worth inserting for one that is used.
  bool none_outputs_to_constant(Node* n) {
    bool changed = false;
    for (Value* out : n->outputs()) {
      if (out->type()->kind() != TypeKind::None) continue;
      if (out->has_uses()) out->replace_all_uses_with(constant_before(n, IValue()));
      changed = true;
    }
    return changed;
  }

  bool fold(Node* n) {
    const Symbol k = n->kind();
    if (k == sym::prim_If) return fold_if(n);
    if (n->outputs().size() != 1) return false;  // the rules below answer one result
    if ((k == sym::aten___is__ || k == sym::aten___isnot__) && n->inputs().size() == 2) {
      std::optional<bool> same = identity_answer(n->input(0), n->input(1));
      if (!same) return false;
      n->output()->replace_all_uses_with(constant_before(n, IValue(k == sym::aten___is__ ? *same : !*same)));
      return true;
    }
    if ((k == sym::prim_unchecked_unwrap_optional || k == kUnwrapOptional) && n->inputs().size() == 1) {
      if (may_be_none(n->input()->type())) return false;
      n->output()->replace_all_uses_with(n->input());
      return true;
    }
    if (is_redundant_cast(n) || ((k == sym::aten_Int || k == kCeil) && n->inputs().size() == 1 &&
                                 n->input()->type()->kind() == TypeKind::Int)) {
      n->output()->replace_all_uses_with(n->input());
      return true;
    }
    if (k == sym::aten_eq || k == sym::aten_ne) {
      if (n->inputs().size() != 2 || n->input(0) != n->input(1) || !compares_to_itself(n->input(0)->type())) {
        return false;
      }
      n->output()->replace_all_uses_with(constant_before(n, IValue(k == sym::aten_eq)));
      return true;
    }
    // Not aten::div: int / 1 is a float, and torch's rule, which rewires it to the
    // int, changes the program's types.
    if (k == sym::aten_mul || k == sym::aten_floordiv) {
      if (constant_operand(n) != 1) return false;
      n->output()->replace_all_uses_with(n->input(0));
      return true;
    }
    if (k == sym::aten_add || k == sym::aten_sub) return merge_constants(n);
    return false;
  }

  bool fold_if(Node* n) {
    bool changed = false;
    Block* then_block = n->blocks()[0];
    Block* else_block = n->blocks()[1];
    for (size_t i = 0; i < n->outputs().size(); ++i) {
      Value* out = n->output(i);
      // `c and True`, `c or False`: the output is the condition.
      if (out->type()->kind() == TypeKind::Bool && constant_bool(then_block->outputs()[i]).value_or(false) &&
          !constant_bool(else_block->outputs()[i]).value_or(true)) {
        out->replace_all_uses_with(n->input(0));
        changed = true;
      }
    }
    for (size_t i = 0; i < n->outputs().size(); ++i) {
      const TypePtr& a = then_block->outputs()[i]->type();
      const TypePtr& b = else_block->outputs()[i]->type();
      if (n->output(i)->type()->kind() != TypeKind::Optional || a->kind() == TypeKind::Optional ||
          b->kind() == TypeKind::Optional) {
        continue;
      }
      if (std::optional<TypePtr> unified = unify_types(a, b)) {
        n->output(i)->set_type(*unified);
        changed = true;
      }
    }
    return changed;
  }

  // x + 0, x - 0 -> x; (x + a) + b -> x + (a + b) and the like; a sum of 0 -> x.
  bool merge_constants(Node* n) {
    std::optional<int64_t> c = constant_operand(n);
    if (!c) return false;
    if (*c == 0) {
      n->output()->replace_all_uses_with(n->input(0));
      return true;
    }
    Node* dep = n->input(0)->node();
    if (dep->kind() != sym::aten_add && dep->kind() != sym::aten_sub) return false;
    std::optional<int64_t> delta = constant_operand(dep);
    if (!delta) return false;
    const int64_t merged = wrapping(*c, *delta, dep->kind() == n->kind());
    if (merged == 0) {
      n->output()->replace_all_uses_with(dep->input(0));
    } else {
      n->replace_input(0, dep->input(0));
      n->replace_input(1, constant_before(n, IValue(merged)));
    }
    return true;
  }

  Graph& graph_;
};

}  // namespace

bool fold_scalar_idioms(Graph& graph) { return ScalarIdioms(graph).run(graph.block()); }

}  // namespace torchlet::jit

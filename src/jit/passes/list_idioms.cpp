// The list rules of torch's peephole pass (list_idioms.h).
#include "jit/passes/list_idioms.h"

#include <algorithm>
#include <optional>
#include <unordered_set>
#include <vector>

#include "jit/passes/alias_analysis.h"

namespace torchlet::jit {

namespace {

bool is_list(const Value* v) { return v->type()->kind() == TypeKind::List; }

std::optional<int64_t> constant_int(const Value* v) {
  std::optional<IValue> iv = to_ivalue(v);
  if (!iv || !iv->isInt()) return std::nullopt;
  return iv->toInt();
}

// A slice bound: a constant int, a constant None (the default), or unknown.
struct Bound {
  bool known = false;
  std::optional<int64_t> value;  // nullopt: None
};
Bound slice_bound(const Value* v) {
  std::optional<IValue> iv = to_ivalue(v);
  if (!iv) return {};
  if (iv->isNone()) return {true, std::nullopt};
  if (iv->isInt()) return {true, iv->toInt()};
  return {};
}

// Python's slice(start, end, step).indices(size) walk, step non-zero.
std::vector<size_t> slice_positions(int64_t size, std::optional<int64_t> start, std::optional<int64_t> end,
                                    int64_t step) {
  auto clamp = [&](std::optional<int64_t> b, int64_t dflt) {
    if (!b) return dflt;
    int64_t i = *b < 0 ? *b + size : *b;
    if (step > 0) return std::clamp<int64_t>(i, 0, size);
    return std::clamp<int64_t>(i, -1, size - 1);
  };
  const int64_t lo = clamp(start, step > 0 ? 0 : size - 1);
  const int64_t hi = clamp(end, step > 0 ? size : -1);
  std::vector<size_t> out;
  for (int64_t i = lo; step > 0 ? i < hi : i > hi; i += step) out.push_back(static_cast<size_t>(i));
  return out;
}

class ListIdioms {
 public:
  explicit ListIdioms(Graph& g) : graph_(g) {
    AliasDb db(g);
    collect_mutated(db, g.block());
  }

  bool run(Block* block) {
    bool changed = false;
    for (Node* n : block->nodes()) {
      for (Block* sub : n->blocks()) changed |= run(sub);
      if (n->inputs().empty() || !is_list(n->input(0)) || mutated_.count(n->input(0))) continue;
      Node* construct = n->input(0)->node();
      if (construct->kind() != sym::prim_ListConstruct) continue;
      changed |= fold(n, construct);
    }
    return changed;
  }

 private:
  void collect_mutated(const AliasDb& db, Block* b) {
    for (Value* v : b->inputs())
      if (is_list(v) && db.has_writers(v)) mutated_.insert(v);
    for (Node* n : b->nodes()) {
      for (Value* v : n->outputs())
        if (is_list(v) && db.has_writers(v)) mutated_.insert(v);
      for (Block* sub : n->blocks()) collect_mutated(db, sub);
    }
  }

  // A new construct of `values` standing in for n's output, inherits its mutation mark.
  void replace_by_construct(Node* n, const std::vector<Value*>& values) {
    InsertPointGuard guard(graph_, n);
    Node* list = graph_.insert_node(graph_.create(sym::prim_ListConstruct, values));
    list->output()->set_type(n->output()->type());
    list->set_source_range(n->source_range());
    n->output()->replace_all_uses_with(list->output());
    if (mutated_.count(n->output())) mutated_.insert(list->output());
  }

  bool fold(Node* n, Node* construct) {
    const std::vector<Value*>& elems = construct->inputs();
    const int64_t size = static_cast<int64_t>(elems.size());
    if (n->kind() == sym::aten_len && n->inputs().size() == 1) {
      InsertPointGuard guard(graph_, n);
      n->output()->replace_all_uses_with(graph_.insert_constant(IValue(size), n->source_range()));
      return true;
    }
    if (n->kind() == sym::aten___getitem__ && n->inputs().size() == 2) {
      std::optional<int64_t> index = constant_int(n->input(1));
      if (!index) return false;
      const int64_t i = *index < 0 ? *index + size : *index;
      if (i < 0 || i >= size) return false;  // the program's IndexError stays
      n->output()->replace_all_uses_with(elems[static_cast<size_t>(i)]);
      return true;
    }
    if (n->kind() == sym::prim_ListUnpack) {
      if (n->outputs().size() != elems.size()) return false;  // the program's error stays
      for (size_t i = 0; i < elems.size(); ++i) n->output(i)->replace_all_uses_with(elems[i]);
      return !elems.empty();
    }
    if (n->kind() == sym::aten_add && n->inputs().size() == 2 && n->outputs().size() == 1) {
      Value* second = n->input(1);
      if (mutated_.count(second) || second->node()->kind() != sym::prim_ListConstruct) return false;
      std::vector<Value*> joined = elems;
      joined.insert(joined.end(), second->node()->inputs().begin(), second->node()->inputs().end());
      replace_by_construct(n, joined);
      return true;
    }
    if (n->kind() == sym::aten_slice && n->inputs().size() == 4 && n->outputs().size() == 1) {
      const Bound start = slice_bound(n->input(1)), end = slice_bound(n->input(2));
      const std::optional<int64_t> step = constant_int(n->input(3));
      if (!start.known || !end.known || !step || *step == 0) return false;
      std::vector<Value*> picked;
      for (size_t i : slice_positions(size, start.value, end.value, *step)) picked.push_back(elems[i]);
      replace_by_construct(n, picked);
      return true;
    }
    return false;
  }

  Graph& graph_;
  std::unordered_set<const Value*> mutated_;
};

}  // namespace

bool fold_list_idioms(Graph& graph) { return ListIdioms(graph).run(graph.block()); }

}  // namespace torchlet::jit

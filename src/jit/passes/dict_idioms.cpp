// The dict rules of torch's peephole pass (dict_idioms.h).
#include "jit/passes/dict_idioms.h"

#include <optional>
#include <unordered_set>
#include <utility>
#include <vector>

#include "jit/passes/alias_analysis.h"

namespace torchlet::jit {

namespace {

bool is_dict(const Value* v) { return v->type()->kind() == TypeKind::Dict; }

// Keys compare as the key type's == does (so -0. and 0. are one key, NaN none).
bool same_key(const IValue& a, const IValue& b) {
  if (a.isInt() && b.isInt()) return a.toInt() == b.toInt();
  if (a.isDouble() && b.isDouble()) return a.toDouble() == b.toDouble();
  if (a.isString() && b.isString()) return a.toStringRef() == b.toStringRef();
  return false;
}

// A construct's entries when every key is a constant and no two are equal.
std::optional<std::vector<std::pair<IValue, Value*>>> known_entries(const Node* construct) {
  const TypeKind key_kind = construct->output()->type()->contained().at(0)->kind();
  if (key_kind != TypeKind::Int && key_kind != TypeKind::Float && key_kind != TypeKind::Str) return std::nullopt;
  std::vector<std::pair<IValue, Value*>> entries;
  for (size_t i = 0; i + 1 < construct->inputs().size(); i += 2) {
    std::optional<IValue> key = to_ivalue(construct->input(i));
    if (!key) return std::nullopt;
    for (const auto& e : entries)
      if (same_key(e.first, *key)) return std::nullopt;
    entries.emplace_back(*key, construct->input(i + 1));
  }
  return entries;
}

class DictIdioms {
 public:
  explicit DictIdioms(Graph& g) : graph_(g) {
    AliasDb db(g);
    collect_mutated(db, g.block());
  }

  bool run(Block* block) {
    bool changed = false;
    for (Node* n : block->nodes()) {
      for (Block* sub : n->blocks()) changed |= run(sub);
      if (n->inputs().empty() || !is_dict(n->input(0)) || mutated_.count(n->input(0))) continue;
      Node* construct = n->input(0)->node();
      if (construct->kind() != sym::prim_DictConstruct) continue;
      if (n->kind() == sym::aten_len && n->inputs().size() == 1) {
        if (auto entries = known_entries(construct)) {
          InsertPointGuard guard(graph_, n);
          n->output()->replace_all_uses_with(
              graph_.insert_constant(IValue(static_cast<int64_t>(entries->size())), n->source_range()));
          changed = true;
        }
      } else if (n->kind() == sym::aten___getitem__ && n->inputs().size() == 2) {
        std::optional<IValue> key = to_ivalue(n->input(1));
        auto entries = key ? known_entries(construct) : std::nullopt;
        if (!entries) continue;
        for (const auto& e : *entries) {
          if (!same_key(e.first, *key)) continue;
          n->output()->replace_all_uses_with(e.second);
          changed = true;
          break;
        }
      }
    }
    return changed;
  }

 private:
  void collect_mutated(const AliasDb& db, Block* b) {
    for (Value* v : b->inputs())
      if (is_dict(v) && db.has_writers(v)) mutated_.insert(v);
    for (Node* n : b->nodes()) {
      for (Value* v : n->outputs())
        if (is_dict(v) && db.has_writers(v)) mutated_.insert(v);
      for (Block* sub : n->blocks()) collect_mutated(db, sub);
    }
  }

  Graph& graph_;
  std::unordered_set<const Value*> mutated_;
};

}  // namespace

bool fold_dict_idioms(Graph& graph) { return DictIdioms(graph).run(graph.block()); }

}  // namespace torchlet::jit

// The list and dict rules of torch's peephole pass (container_idioms.h).
#include "jit/passes/container_idioms.h"

#include <algorithm>
#include <optional>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "jit/passes/alias_analysis.h"
#include "jit/passes/constant_values.h"

namespace torchlet::jit {

namespace {

using ValueSet = std::unordered_set<const Value*>;

// Values of `kind` that some node writes (alias analysis of the graph as it is now).
void collect_written(const AliasDb& db, TypeKind kind, Block* b, ValueSet& written) {
  auto note = [&](const Value* v) {
    if (v->type()->kind() == kind && db.has_writers(v)) written.insert(v);
  };
  for (Value* v : b->inputs()) note(v);
  for (Node* n : b->nodes()) {
    for (Value* v : n->outputs()) note(v);
    for (Block* sub : n->blocks()) collect_written(db, kind, sub, written);
  }
}

// The values of `kind` some node writes, by the alias analysis of the graph as it was
// when first asked: every fold follows a question, so that is the graph before any fold
// (asking costs an alias analysis, and most graphs have nothing to fold).
class WrittenValues {
 public:
  WrittenValues(Graph& graph, TypeKind kind) : graph_(graph), kind_(kind) {}
  bool contains(const Value* v) {
    if (!collected_) {
      collect_written(AliasDb(graph_), kind_, graph_.block(), written_);
      collected_ = true;
    }
    return written_.count(v) != 0;
  }
  // A value standing in for a written one is written too.
  void add(const Value* v) { written_.insert(v); }

 private:
  Graph& graph_;
  TypeKind kind_;
  bool collected_ = false;
  ValueSet written_;
};

// Calls fold(node, construct) for every node whose first input is a `kind` value built
// by a `construct_kind` node and not written, blocks first, in order.
template <typename Fold>
bool fold_construct_uses(Block* block, TypeKind kind, Symbol construct_kind, WrittenValues& written, Fold& fold) {
  bool changed = false;
  for (Node* n : block->nodes()) {
    for (Block* sub : n->blocks()) changed |= fold_construct_uses(sub, kind, construct_kind, written, fold);
    if (n->inputs().empty() || n->input(0)->type()->kind() != kind) continue;
    Node* construct = n->input(0)->node();
    if (construct->kind() == construct_kind && !written.contains(n->input(0))) changed |= fold(n, construct);
  }
  return changed;
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
  explicit ListIdioms(Graph& g) : graph_(g), written_(g, TypeKind::List) {}

  bool run() {
    auto fold_node = [this](Node* n, Node* construct) { return fold(n, construct); };
    return fold_construct_uses(graph_.block(), TypeKind::List, sym::prim_ListConstruct, written_, fold_node);
  }

 private:
  // A new construct of `values` standing in for n's output, inherits its written mark.
  void replace_by_construct(Node* n, const std::vector<Value*>& values) {
    InsertPointGuard guard(graph_, n);
    Node* list = graph_.insert_node(graph_.create(sym::prim_ListConstruct, values));
    list->output()->set_type(n->output()->type());
    list->set_source_range(n->source_range());
    n->output()->replace_all_uses_with(list->output());
    if (written_.contains(n->output())) written_.add(list->output());
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
      if (second->node()->kind() != sym::prim_ListConstruct || written_.contains(second)) return false;
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
  WrittenValues written_;  // grows as new constructs stand in for written results
};

// Keys compare as the key type's == does (so -0. and 0. are one key, NaN none).
bool same_key(const IValue& a, const IValue& b) {
  if (a.isInt() && b.isInt()) return a.toInt() == b.toInt();
  if (a.isDouble() && b.isDouble()) return a.toDouble() == b.toDouble();
  if (a.isString() && b.isString()) return a.toStringRef() == b.toStringRef();
  return false;
}

using DictEntries = std::vector<std::pair<IValue, Value*>>;

// A construct's entries when every key is a constant and no two are equal.
std::optional<DictEntries> known_entries(const Node* construct) {
  const TypeKind key_kind = construct->output()->type()->contained().at(0)->kind();
  if (key_kind != TypeKind::Int && key_kind != TypeKind::Float && key_kind != TypeKind::Str) return std::nullopt;
  DictEntries entries;
  for (size_t i = 0; i + 1 < construct->inputs().size(); i += 2) {
    std::optional<IValue> key = to_ivalue(construct->input(i));
    if (!key) return std::nullopt;
    for (const auto& e : entries)
      if (same_key(e.first, *key)) return std::nullopt;
    entries.emplace_back(*key, construct->input(i + 1));
  }
  return entries;
}

// A construct is read once however many lookups use it: checking its keys is quadratic,
// and a graph can hold thousands of lookups of one dict.
class DictIdioms {
 public:
  explicit DictIdioms(Graph& g) : graph_(g), written_(g, TypeKind::Dict) {}

  bool run() {
    auto fold_node = [this](Node* n, Node* construct) { return fold(n, construct); };
    return fold_construct_uses(graph_.block(), TypeKind::Dict, sym::prim_DictConstruct, written_, fold_node);
  }

 private:
  const std::optional<DictEntries>& entries_of(const Node* construct) {
    auto it = entries_.find(construct);
    if (it == entries_.end()) it = entries_.emplace(construct, known_entries(construct)).first;
    return it->second;
  }

  bool fold(Node* n, Node* construct) {
    if (n->kind() == sym::aten_len && n->inputs().size() == 1) {
      const auto& entries = entries_of(construct);
      if (!entries) return false;
      InsertPointGuard guard(graph_, n);
      n->output()->replace_all_uses_with(
          graph_.insert_constant(IValue(static_cast<int64_t>(entries->size())), n->source_range()));
      return true;
    }
    if (n->kind() == sym::aten___getitem__ && n->inputs().size() == 2) {
      std::optional<IValue> key = to_ivalue(n->input(1));
      if (!key) return false;
      const auto& entries = entries_of(construct);
      if (!entries) return false;
      for (const auto& e : *entries) {
        if (!same_key(e.first, *key)) continue;
        n->output()->replace_all_uses_with(e.second);
        return true;
      }
    }
    return false;
  }

  Graph& graph_;
  WrittenValues written_;
  std::unordered_map<const Node*, std::optional<DictEntries>> entries_;
};

}  // namespace

bool fold_list_idioms(Graph& graph) { return ListIdioms(graph).run(); }

bool fold_dict_idioms(Graph& graph) { return DictIdioms(graph).run(); }

}  // namespace torchlet::jit

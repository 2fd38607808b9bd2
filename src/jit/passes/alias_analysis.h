// AliasDb: which values of a graph may share memory and which nodes write to it, as
// ../shared/reference/jit-technical-overview.txt (Handling Mutability) describes torch's
// alias analysis. Note [Alias analysis] in alias_analysis.cpp says how it is built.
//
// Passes that reorder, merge or drop nodes ask it first: may two values alias, does
// anything write to this value, may this node move past that one. The analysis is
// flow-insensitive and taken once, from the graph as it is when the AliasDb is made; a
// pass may destroy nodes afterwards (the answers for the values left stay right) but
// must build a new AliasDb after adding nodes it wants to ask about.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "jit/ir/ir.h"

namespace torchlet::jit {

class AliasDb {
 public:
  explicit AliasDb(const Graph& graph);

  // Values of types that cannot hold mutable memory (int, float, str, tuples of those)
  // alias nothing.
  static bool is_mutable_type(const TypePtr& type);
  bool is_mutable_type(const Value* v) const { return is_mutable_type(v->type()); }

  // Might a and b point to the same memory (tensor storage, list, dict, object)?
  bool may_alias(const Value* a, const Value* b) const;
  bool may_alias(const std::vector<const Value*>& a, const std::vector<const Value*>& b) const;
  // ... counting what they contain: a list of tensors may contain an alias of a tensor.
  bool may_contain_alias(const Value* a, const Value* b) const;
  bool may_contain_alias(const std::vector<const Value*>& a, const std::vector<const Value*>& b) const;

  // Does any node of the graph write to memory v may point to?
  bool has_writers(const Value* v) const;
  // ... to any input or output of n? (What CSE asks: a node reading memory that
  // something writes may compute something else at another point.)
  bool has_writers(const Node* n) const;
  // Does n (or a node in its blocks) write to any memory at all?
  bool writes_anything(const Node* n) const;
  // Does any node of the graph?
  bool graph_writes_anything() const { return !writes_.empty(); }
  // Does n (or a node in its blocks) write to memory its inputs may point to?
  bool is_mutable(const Node* n) const;
  // Does n (or a node in its blocks) write to memory one of `values` may point to?
  bool writes_to_alias(const Node* n, const std::vector<const Value*>& values) const;
  // Does n write to memory the graph's inputs (or anything unknown) may point to?
  bool writes_to_wildcard(const Node* n) const;
  // Might v be seen from outside the graph: a graph input or output may alias it.
  bool escapes_scope(const Value* v) const;
  // May uses of `a` be rewired to `b` (or the other way) without anyone noticing: no
  // writes to either, and they do not both escape the graph.
  bool safe_to_change_aliasing_relationship(const std::vector<Value*>& a, const std::vector<Value*>& b) const;

  // Moves n (with the nodes between that must move with it) just after / before
  // move_point in the same block, if that keeps every data dependency and the order of
  // every write and read of the same memory (no WAW, WAR or RAW hazard); returns false
  // and changes nothing when it cannot.
  bool move_after_topologically_valid(Node* n, Node* move_point);
  bool move_before_topologically_valid(Node* n, Node* move_point);
  // The same checks without moving.
  bool could_move_after_topologically(Node* n, Node* move_point) const;
  bool could_move_before_topologically(Node* n, Node* move_point) const;

  // A readable dump: each mutable value and where it points, what containers hold,
  // which nodes write where (torchlet graph --alias).
  std::string dump() const;

 private:
  using ElementId = uint32_t;
  struct Element {
    const Value* value = nullptr;     // null for a wildcard
    std::string wildcard_of;          // the alias type of a wildcard element
    std::vector<ElementId> points_to;
    std::vector<ElementId> contained;  // what a container element holds
  };
  enum class Side { Before, After };

  void analyze_block(const Block* block);
  void analyze_node(const Node* node);
  void analyze_with_schema(const Node* node);
  void analyze_conservative(const Node* node);
  void analyze_if(const Node* node);
  void analyze_loop(const Node* node);

  ElementId element_for(const Value* v);
  ElementId wildcard_for(const TypePtr& type);
  void give_fresh_alias(const Value* v, bool wildcard_contents);
  void set_wildcard(const Value* v);
  void make_pointer_to(const Value* from, const Value* to);
  void add_contained(const Value* container, const Value* element);
  void register_write(const Value* v, const Node* writer, bool with_contents = false);
  // The elements a container holds (through what it points to, e.g. a wildcard tuple).
  std::vector<ElementId> contents_of(const Value* container);

  // Memory locations: the elements reached by following points_to to its ends.
  const std::vector<ElementId>& locations(ElementId e) const;
  std::vector<ElementId> locations_of(const Value* v, bool with_contents) const;
  std::vector<ElementId> written_by(const Node* n) const;  // blocks included
  std::vector<ElementId> read_by(const Node* n) const;     // inputs' memory, blocks included
  bool depends_on(const Node* later, const Node* earlier) const;
  bool overlaps(const std::vector<ElementId>& a, const std::vector<ElementId>& b) const;
  bool is_wildcard(ElementId e) const { return !elements_[e].wildcard_of.empty(); }
  std::string element_name(ElementId e) const;
  bool try_move(Node* n, Node* move_point, Side side, bool dry_run) const;

  std::vector<Element> elements_;
  std::unordered_map<const Value*, ElementId> element_of_;
  std::unordered_map<std::string, ElementId> wildcards_;
  struct Write {
    ElementId element;
    bool with_contents;  // what a container holds is written too
  };
  std::unordered_map<const Node*, std::vector<Write>> writes_;
  std::vector<const Node*> write_order_;  // nodes in writes_, in analysis order
  const Graph& graph_;
  mutable std::unordered_map<ElementId, std::vector<ElementId>> location_cache_;
  mutable std::vector<ElementId> all_written_;
  mutable bool all_written_ready_ = false;
};

// An AliasDb of a graph made when first asked for: building one walks the whole graph,
// and most graphs give a pass nothing to ask about. reset() forgets it after a rewrite
// the pass wants the next answers to see.
class LazyAliasDb {
 public:
  explicit LazyAliasDb(const Graph& graph) : graph_(graph) {}
  AliasDb& operator*() {
    if (!db_) db_ = std::make_unique<AliasDb>(graph_);
    return *db_;
  }
  AliasDb* operator->() { return &**this; }
  void reset() { db_.reset(); }

 private:
  const Graph& graph_;
  std::unique_ptr<AliasDb> db_;
};

}  // namespace torchlet::jit

// Alias analysis (alias_analysis.h).
#include "jit/passes/alias_analysis.h"

#include <algorithm>
#include <sstream>
#include <unordered_set>

#include <torchlet/error.h>

#include "jit/passes/node_effects.h"
#include "jit/runtime/operator.h"
#include "jit/runtime/schema_matching.h"

namespace torchlet::jit {

// Note [Alias analysis]
// Every value of a mutable type (tensors, lists, dicts, objects, futures, tuples or
// optionals holding those) gets an element; an element may point to others ("may be
// the same memory as"), and a container element lists the elements it holds. An
// element that points nowhere is a memory location of its own; a value's memory is the
// set of locations its pointers end at. Each node adds edges from what its schema's
// alias annotations say (`Tensor(a) self -> Tensor(a)`: the output points to self;
// `Tensor(a!)`: a write to self's memory; `*`: the wildcard), or from what its prim::
// kind means (containers hold their inputs, If outputs point to both branches' results,
// loop-carried values to the initial and the next ones). What the analysis cannot see
// into -- graph inputs, attributes read from objects, elements taken out of lists (a
// tuple's are what it was built from), results of calls -- points to the wildcard of its
// alias type: one location per
// type ("Tensor", "int[]"), standing for all memory of that type nobody in the graph
// created. Values of type Any share the wildcard "Any", which may alias anything.
// Like torch's, the analysis is flow-insensitive: edges are added per node, never
// removed, so answers hold for the whole graph.
namespace {

constexpr const char* kAnyAlias = "Any";

// The alias type key: values of different keys never share memory.
std::string alias_key(const TypePtr& t) {
  switch (t->kind()) {
    case TypeKind::Optional:
      return alias_key(t->contained()[0]);
    case TypeKind::Union: {
      std::string key;
      for (const TypePtr& m : t->contained()) {
        if (!AliasDb::is_mutable_type(m)) continue;
        const std::string k = alias_key(m);
        if (!key.empty() && key != k) return kAnyAlias;
        key = k;
      }
      return key.empty() ? kAnyAlias : key;
    }
    case TypeKind::Any:
    case TypeKind::AnyList:
    case TypeKind::AnyTuple:
    case TypeKind::AnyClass:
    case TypeKind::Var:
      return kAnyAlias;
    case TypeKind::Tensor:
      return "Tensor";
    default:
      return t->str();
  }
}

// The mutable types a container's elements have (List[Tensor] -> Tensor).
std::vector<TypePtr> mutable_contents(const TypePtr& t) {
  std::vector<TypePtr> out;
  switch (t->kind()) {
    case TypeKind::Optional:
      return mutable_contents(t->contained()[0]);
    case TypeKind::List:
    case TypeKind::Future:
    case TypeKind::RRef:
    case TypeKind::Tuple:
      for (const TypePtr& c : t->contained())
        if (AliasDb::is_mutable_type(c)) out.push_back(c);
      break;
    case TypeKind::Dict:
      for (const TypePtr& c : t->contained())
        if (AliasDb::is_mutable_type(c)) out.push_back(c);
      break;
    default:
      break;
  }
  return out;
}

bool contains_set(const AliasAnnotation& a, const std::string& set, bool after) {
  const auto& sets = after ? a.after : a.before;
  return std::find(sets.begin(), sets.end(), set) != sets.end();
}

void sort_unique(std::vector<uint32_t>& v) {
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
}

// Is `inner` n itself or nested in one of n's blocks?
bool is_within(const Node* inner, const Node* n) {
  for (const Node* x = inner; x; x = x->owning_block() ? x->owning_block()->owning_node() : nullptr)
    if (x == n) return true;
  return false;
}

// Is every use of `container` an operator argument without alias annotations (read,
// not kept, written or returned) or the graph's own return?
bool only_read_by_operators(const Value* container) {
  if (!container->has_uses()) return false;
  for (const Use& u : container->uses()) {
    const Node* user = u.user;
    // Returned from the graph itself: nothing after takes an element back out (torch's
    // functionalNonEscapingListUse says the same).
    if (user->kind() == sym::prim_Return && !user->owning_block()->owning_node()) continue;
    if (user->kind().ns() == "prim") return false;
    const Operator* op = user->op() ? user->op() : resolve_node_operator(*user);
    if (!op || op->schema().is_vararg || u.offset >= op->schema().arguments.size()) return false;
    const SchemaType& formal = *op->schema().arguments[u.offset].type;
    if (formal.alias) return false;
    for (const auto& c : formal.contained)
      if (c->alias) return false;
  }
  return true;
}

// The operators whose result is their first argument though their schema says nothing:
// torch 1.13's `aten::add_.t(t[](a!) self, t[] b) -> t[]`, the only one.
bool returns_self_unannotated(const FunctionSchema& schema) {
  return schema.name == "aten::add_" && schema.overload == "t";
}

bool has_side_effects_within(const Node* n) {
  if (has_side_effects(*n)) return true;
  for (const Block* b : n->blocks())
    for (const Node* inner : b->nodes())
      if (has_side_effects_within(inner)) return true;
  return false;
}

}  // namespace

bool AliasDb::is_mutable_type(const TypePtr& type) {
  switch (type->kind()) {
    case TypeKind::Tensor:
    case TypeKind::List:
    case TypeKind::Dict:
    case TypeKind::Class:
    case TypeKind::Interface:
    case TypeKind::Future:
    case TypeKind::RRef:
    case TypeKind::Capsule:
    case TypeKind::Any:
    case TypeKind::AnyList:
    case TypeKind::AnyTuple:
    case TypeKind::AnyClass:
    case TypeKind::Var:
      return true;
    case TypeKind::Optional:
    case TypeKind::Union:
    case TypeKind::Tuple:
      return std::any_of(type->contained().begin(), type->contained().end(),
                         [](const TypePtr& c) { return is_mutable_type(c); });
    default:
      return false;
  }
}

AliasDb::AliasDb(const Graph& graph) : graph_(graph) {
  for (const Value* in : graph.inputs())
    if (is_mutable_type(in)) set_wildcard(in);
  analyze_block(graph.block());
}

// --- building -------------------------------------------------------------------------

AliasDb::ElementId AliasDb::element_for(const Value* v) {
  auto it = element_of_.find(v);
  if (it != element_of_.end()) return it->second;
  const auto id = static_cast<ElementId>(elements_.size());
  elements_.push_back(Element{v, "", {}, {}});
  element_of_.emplace(v, id);
  return id;
}

AliasDb::ElementId AliasDb::wildcard_for(const TypePtr& type) {
  const std::string key = alias_key(type);
  auto it = wildcards_.find(key);
  if (it != wildcards_.end()) return it->second;
  const auto id = static_cast<ElementId>(elements_.size());
  elements_.push_back(Element{nullptr, key, {}, {}});
  wildcards_.emplace(key, id);
  // What unknown memory holds is unknown memory too.
  for (const TypePtr& c : mutable_contents(type)) {
    const ElementId inner = wildcard_for(c);
    elements_[id].contained.push_back(inner);
  }
  return id;
}

void AliasDb::give_fresh_alias(const Value* v, bool wildcard_contents) {
  if (!is_mutable_type(v)) return;
  const ElementId e = element_for(v);
  if (!wildcard_contents) return;
  for (const TypePtr& c : mutable_contents(v->type())) {
    const ElementId inner = wildcard_for(c);
    elements_[e].contained.push_back(inner);
  }
}

void AliasDb::set_wildcard(const Value* v) {
  if (!is_mutable_type(v)) return;
  const ElementId w = wildcard_for(v->type());
  const ElementId e = element_for(v);
  elements_[e].points_to.push_back(w);
}

void AliasDb::make_pointer_to(const Value* from, const Value* to) {
  if (from == to || !is_mutable_type(from) || !is_mutable_type(to)) return;
  const ElementId t = element_for(to);
  const ElementId f = element_for(from);
  elements_[f].points_to.push_back(t);
}

void AliasDb::add_contained(const Value* container, const Value* element) {
  if (!is_mutable_type(element)) return;
  const ElementId inner = element_for(element);
  const ElementId c = element_for(container);
  elements_[c].contained.push_back(inner);
}

std::vector<AliasDb::ElementId> AliasDb::contents_of(const Value* container) {
  std::vector<ElementId> out;
  if (!is_mutable_type(container)) return out;
  std::vector<ElementId> stack{element_for(container)};
  std::unordered_set<ElementId> seen{stack.back()};
  while (!stack.empty()) {
    const ElementId x = stack.back();
    stack.pop_back();
    out.insert(out.end(), elements_[x].contained.begin(), elements_[x].contained.end());
    for (ElementId t : elements_[x].points_to)
      if (seen.insert(t).second) stack.push_back(t);
  }
  sort_unique(out);
  return out;
}

void AliasDb::register_write(const Value* v, const Node* writer, bool with_contents) {
  if (!is_mutable_type(v)) return;
  auto [it, fresh] = writes_.try_emplace(writer);
  if (fresh) write_order_.push_back(writer);
  it->second.push_back(Write{element_for(v), with_contents});
  all_written_ready_ = false;
}

void AliasDb::analyze_block(const Block* block) {
  for (const Node* n : block->nodes()) analyze_node(n);
}

void AliasDb::analyze_node(const Node* node) {
  const Symbol k = node->kind();
  if (k == sym::prim_If) return analyze_if(node);
  if (k == sym::prim_Loop) return analyze_loop(node);
  if (k == sym::prim_Constant || k == sym::prim_CreateObject || k == sym::prim_Uninitialized) {
    for (const Value* out : node->outputs()) give_fresh_alias(out, true);
    return;
  }
  if (k == sym::prim_TupleConstruct) {
    // A tuple cannot change what it holds, so its elements stay tracked: reading one
    // back (TupleIndex, TupleUnpack) gives something that may be any of them.
    for (const Value* out : node->outputs()) {
      give_fresh_alias(out, false);
      if (!is_mutable_type(out)) continue;
      for (const Value* in : node->inputs()) add_contained(out, in);
    }
    return;
  }
  if (k == sym::prim_TupleUnpack || k == sym::prim_TupleIndex) {
    const std::vector<ElementId> held = contents_of(node->input(0));
    for (const Value* out : node->outputs()) {
      if (!is_mutable_type(out)) continue;
      const ElementId e = element_for(out);
      for (ElementId h : held) elements_[e].points_to.push_back(h);
      if (held.empty()) set_wildcard(out);
    }
    return;
  }
  if (k == sym::prim_ListConstruct || k == sym::prim_DictConstruct) {
    // The container is new, but what goes into it is not tracked once inside: torch
    // makes each mutable input a wildcard (an element read back from a list may be any
    // of them), and so does this -- unless every use of the container is an operator
    // that only reads it (aten::cat(tensors), aten::lstm(hx)) or the graph's return,
    // where nothing can be taken back out.
    for (const Value* out : node->outputs()) {
      give_fresh_alias(out, false);
      const bool only_read = only_read_by_operators(out);
      for (const Value* in : node->inputs()) {
        if (!only_read) set_wildcard(in);
        if (is_mutable_type(out)) add_contained(out, in);
      }
    }
    return;
  }
  if (k == sym::prim_TupleSlice || k == sym::prim_ListUnpack || k == sym::prim_GetAttr || k == sym::prim_ModuleContainerIndex ||
      k == sym::prim_DictIndex) {
    for (const Value* out : node->outputs()) set_wildcard(out);
    return;
  }
  if (k == sym::prim_SetAttr) {
    register_write(node->input(0), node);
    set_wildcard(node->input(1));
    return;
  }
  if (k == sym::prim_unchecked_cast || k == sym::prim_unchecked_unwrap_optional) {
    make_pointer_to(node->output(), node->input(0));
    return;
  }
  if (k == sym::prim_Print || k == sym::prim_RaiseException) return;  // they read only
  if (k == sym::prim_CallFunction || k == sym::prim_CallMethod || k == sym::prim_fork ||
      k == sym::prim_Enter || k == sym::prim_Exit || k == sym::prim_IgnoredPythonOp || !node->blocks().empty())
    return analyze_conservative(node);
  analyze_with_schema(node);
}

void AliasDb::analyze_conservative(const Node* node) {
  for (const Value* in : node->inputs()) {
    register_write(in, node, /*with_contents=*/true);
    set_wildcard(in);
  }
  for (const Block* b : node->blocks()) analyze_block(b);
  for (const Value* out : node->outputs()) set_wildcard(out);
}

void AliasDb::analyze_with_schema(const Node* node) {
  const Operator* op = node->op() ? node->op() : resolve_node_operator(*node);
  if (!op) return analyze_conservative(node);
  const FunctionSchema& schema = op->schema();
  std::unordered_map<std::string, std::vector<const Value*>> actual_of_set;
  const size_t n_args = std::min(schema.arguments.size(), node->inputs().size());
  for (size_t i = 0; i < n_args; ++i) {
    const Value* actual = node->input(i);
    if (!is_mutable_type(actual)) continue;
    const SchemaType& formal = *schema.arguments[i].type;
    if (formal.alias) {
      for (const std::string& set : formal.alias->before)
        if (set != "*") actual_of_set[set].push_back(actual);
      if (formal.alias->is_write) register_write(actual, node);
      // `(a -> *)`: after the call the value may be anywhere (appended to a list).
      if (contains_set(*formal.alias, "*", true) || contains_set(*formal.alias, "*", false)) set_wildcard(actual);
    }
    // Tensor(a!)[]: the list's tensors are written.
    for (const auto& c : formal.contained)
      if (c->alias && c->alias->is_write) register_write(actual, node, /*with_contents=*/true);
  }
  for (size_t i = 0; i < node->outputs().size() && i < schema.returns.size(); ++i) {
    const Value* out = node->output(i);
    if (!is_mutable_type(out)) continue;
    const SchemaType& formal = *schema.returns[i].type;
    if (formal.alias) {
      if (contains_set(*formal.alias, "*", false)) {
        set_wildcard(out);
        continue;
      }
      bool bound = false;
      for (const std::string& set : formal.alias->before)
        for (const Value* actual : actual_of_set[set]) {
          make_pointer_to(out, actual);
          bound = true;
        }
      if (!bound) give_fresh_alias(out, true);
      continue;
    }
    // Tensor(a)[]: a new list whose tensors are views of the argument in set a.
    if (!formal.contained.empty() && formal.contained[0]->alias) {
      give_fresh_alias(out, false);
      const auto inner = static_cast<ElementId>(elements_.size());
      elements_.push_back(Element{});
      for (const std::string& set : formal.contained[0]->alias->before)
        for (const Value* actual : actual_of_set[set]) elements_[inner].points_to.push_back(element_for(actual));
      if (elements_[inner].points_to.empty() && !mutable_contents(out->type()).empty())
        elements_[inner].points_to.push_back(wildcard_for(mutable_contents(out->type())[0]));
      elements_[element_for(out)].contained.push_back(inner);
      continue;
    }
    // `a += b` on a list: aten::add_.t returns self, which torch's schema omits ("->
    // t[]"), so torch's alias analysis takes the result for a new list, and its mutation
    // removal then rewrites a later in-place op on it as if nothing else saw it.
    if (i == 0 && returns_self_unannotated(schema) && !node->inputs().empty()) {
      make_pointer_to(out, node->input(0));
      continue;
    }
    give_fresh_alias(out, true);
  }
}

void AliasDb::analyze_if(const Node* node) {
  for (const Block* b : node->blocks()) analyze_block(b);
  for (size_t i = 0; i < node->outputs().size(); ++i)
    for (const Block* b : node->blocks())
      if (i < b->outputs().size()) make_pointer_to(node->output(i), b->outputs()[i]);
}

void AliasDb::analyze_loop(const Node* node) {
  // inputs: max trip count, initial condition, carried...; body inputs: counter,
  // carried...; body outputs: next condition, carried...; outputs: carried...
  const Block* body = node->blocks().at(0);
  const size_t carried = node->outputs().size();
  for (size_t i = 0; i < carried; ++i)
    if (i + 1 < body->inputs().size() && i + 2 < node->inputs().size())
      make_pointer_to(body->inputs()[i + 1], node->input(i + 2));
  analyze_block(body);
  for (size_t i = 0; i < carried; ++i) {
    if (i + 1 < body->outputs().size()) {
      if (i + 1 < body->inputs().size()) make_pointer_to(body->inputs()[i + 1], body->outputs()[i + 1]);
      make_pointer_to(node->output(i), body->outputs()[i + 1]);
    }
    if (i + 2 < node->inputs().size()) make_pointer_to(node->output(i), node->input(i + 2));
  }
}

// --- queries ------------------------------------------------------------------------

const std::vector<AliasDb::ElementId>& AliasDb::locations(ElementId e) const {
  auto it = location_cache_.find(e);
  if (it != location_cache_.end()) return it->second;
  std::vector<ElementId> out;
  std::vector<ElementId> stack{e};
  std::unordered_set<ElementId> seen{e};
  while (!stack.empty()) {
    const ElementId x = stack.back();
    stack.pop_back();
    if (elements_[x].points_to.empty()) out.push_back(x);
    for (ElementId t : elements_[x].points_to)
      if (seen.insert(t).second) stack.push_back(t);
  }
  if (out.empty()) out.push_back(e);  // a cycle with no way out is memory of its own
  sort_unique(out);
  return location_cache_.emplace(e, std::move(out)).first->second;
}

std::vector<AliasDb::ElementId> AliasDb::locations_of(const Value* v, bool with_contents) const {
  if (!is_mutable_type(v)) return {};
  auto it = element_of_.find(v);
  // A value made after the analysis: unknown, so anything of its type.
  if (it == element_of_.end()) return {wildcards_.count(alias_key(v->type())) ? wildcards_.at(alias_key(v->type()))
                                                                               : static_cast<ElementId>(-1)};
  if (!with_contents) return locations(it->second);
  std::vector<ElementId> out;
  std::vector<ElementId> stack{it->second};
  std::unordered_set<ElementId> seen{it->second};
  while (!stack.empty()) {
    const ElementId x = stack.back();
    stack.pop_back();
    if (elements_[x].points_to.empty()) out.push_back(x);
    for (ElementId t : elements_[x].points_to)
      if (seen.insert(t).second) stack.push_back(t);
    for (ElementId t : elements_[x].contained)
      if (seen.insert(t).second) stack.push_back(t);
  }
  sort_unique(out);
  return out;
}

bool AliasDb::overlaps(const std::vector<ElementId>& a, const std::vector<ElementId>& b) const {
  if (a.empty() || b.empty()) return false;
  const auto any_alias = wildcards_.find(kAnyAlias);
  auto has = [](const std::vector<ElementId>& v, ElementId e) { return std::binary_search(v.begin(), v.end(), e); };
  if (any_alias != wildcards_.end() && (has(a, any_alias->second) || has(b, any_alias->second))) return true;
  // Unknown elements (values made after the analysis, with no wildcard of their type).
  if (has(a, static_cast<ElementId>(-1)) || has(b, static_cast<ElementId>(-1))) return true;
  size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    if (a[i] == b[j]) return true;
    if (a[i] < b[j]) ++i;
    else ++j;
  }
  return false;
}

bool AliasDb::may_alias(const Value* a, const Value* b) const {
  return overlaps(locations_of(a, false), locations_of(b, false));
}

bool AliasDb::may_alias(const std::vector<const Value*>& a, const std::vector<const Value*>& b) const {
  for (const Value* x : a)
    for (const Value* y : b)
      if (may_alias(x, y)) return true;
  return false;
}

bool AliasDb::may_contain_alias(const Value* a, const Value* b) const {
  return overlaps(locations_of(a, true), locations_of(b, true));
}

bool AliasDb::may_contain_alias(const std::vector<const Value*>& a, const std::vector<const Value*>& b) const {
  for (const Value* x : a)
    for (const Value* y : b)
      if (may_contain_alias(x, y)) return true;
  return false;
}

std::vector<AliasDb::ElementId> AliasDb::written_by(const Node* n) const {
  std::vector<ElementId> out;
  auto add = [&](const Node* w) {
    auto it = writes_.find(w);
    if (it == writes_.end()) return;
    for (const Write& wr : it->second) {
      const Value* v = elements_[wr.element].value;
      std::vector<ElementId> locs = v ? locations_of(v, wr.with_contents) : locations(wr.element);
      out.insert(out.end(), locs.begin(), locs.end());
    }
  };
  std::vector<const Node*> stack{n};
  while (!stack.empty()) {
    const Node* x = stack.back();
    stack.pop_back();
    add(x);
    for (const Block* b : x->blocks())
      for (const Node* inner : b->nodes()) stack.push_back(inner);
  }
  sort_unique(out);
  return out;
}

std::vector<AliasDb::ElementId> AliasDb::read_by(const Node* n) const {
  std::vector<ElementId> out;
  std::vector<const Node*> stack{n};
  while (!stack.empty()) {
    const Node* x = stack.back();
    stack.pop_back();
    for (const Value* in : x->inputs()) {
      std::vector<ElementId> locs = locations_of(in, true);
      out.insert(out.end(), locs.begin(), locs.end());
    }
    for (const Block* b : x->blocks()) {
      for (const Node* inner : b->nodes()) stack.push_back(inner);
      stack.push_back(b->return_node());
    }
  }
  sort_unique(out);
  return out;
}

bool AliasDb::has_writers(const Value* v) const {
  if (!is_mutable_type(v)) return false;
  if (!all_written_ready_) {
    all_written_.clear();
    for (const Node* w : write_order_) {
      auto locs = written_by(w);
      all_written_.insert(all_written_.end(), locs.begin(), locs.end());
    }
    sort_unique(all_written_);
    all_written_ready_ = true;
  }
  return overlaps(locations_of(v, false), all_written_);
}

bool AliasDb::has_writers(const Node* n) const {
  auto written = [&](const Value* v) { return has_writers(v); };
  return std::any_of(n->inputs().begin(), n->inputs().end(), written) ||
         std::any_of(n->outputs().begin(), n->outputs().end(), written);
}

bool AliasDb::writes_anything(const Node* n) const {
  if (writes_.empty()) return false;
  if (writes_.count(n)) return true;
  for (const Block* b : n->blocks())
    for (const Node* inner : b->nodes())
      if (writes_anything(inner)) return true;
  return false;
}

bool AliasDb::is_mutable(const Node* n) const {
  std::vector<const Value*> inputs(n->inputs().begin(), n->inputs().end());
  return writes_to_alias(n, inputs);
}

bool AliasDb::writes_to_alias(const Node* n, const std::vector<const Value*>& values) const {
  if (!writes_anything(n)) return false;  // (what most nodes answer, without collecting)
  const std::vector<ElementId> written = written_by(n);
  if (written.empty()) return false;
  std::vector<ElementId> locs;
  for (const Value* v : values) {
    auto l = locations_of(v, false);
    locs.insert(locs.end(), l.begin(), l.end());
  }
  sort_unique(locs);
  return overlaps(written, locs);
}

bool AliasDb::writes_to_wildcard(const Node* n) const {
  if (!writes_anything(n)) return false;
  const std::vector<ElementId> written = written_by(n);
  return std::any_of(written.begin(), written.end(),
                     [&](ElementId e) { return e == static_cast<ElementId>(-1) || is_wildcard(e); });
}

bool AliasDb::escapes_scope(const Value* v) const {
  const auto locs = locations_of(v, false);
  if (std::any_of(locs.begin(), locs.end(), [&](ElementId e) { return e == static_cast<ElementId>(-1) || is_wildcard(e); }))
    return true;
  // Returned, or held by something returned (a tuple of results).
  // The graph's outputs now, not at analysis time: a pass may have replaced one (CSE
  // destroys the duplicate node whose output was returned).
  return std::any_of(graph_.outputs().begin(), graph_.outputs().end(),
                     [&](const Value* o) { return may_contain_alias(o, v); });
}

bool AliasDb::safe_to_change_aliasing_relationship(const std::vector<Value*>& a, const std::vector<Value*>& b) const {
  auto writers = [&](const std::vector<Value*>& vs) {
    return std::any_of(vs.begin(), vs.end(), [&](const Value* v) { return has_writers(v); });
  };
  if (writers(a) || writers(b)) return false;
  auto escapes = [&](const std::vector<Value*>& vs) {
    return std::any_of(vs.begin(), vs.end(), [&](const Value* v) { return escapes_scope(v); });
  };
  return !(escapes(a) && escapes(b));
}

// --- moving nodes -------------------------------------------------------------------

bool AliasDb::depends_on(const Node* later, const Node* earlier) const {
  for (const Value* out : earlier->outputs())
    for (const Use& u : out->uses())
      if (is_within(u.user, later)) return true;
  if (has_side_effects_within(later) && has_side_effects_within(earlier)) return true;
  const auto w_earlier = written_by(earlier);
  const auto w_later = written_by(later);
  if (w_earlier.empty() && w_later.empty()) return false;
  return overlaps(w_earlier, read_by(later)) || overlaps(w_earlier, w_later) || overlaps(w_later, read_by(earlier));
}

// torch's tryMove. The nodes between n and move_point that depend on n (moving later)
// or that n depends on (moving earlier) move too. When n ends on the side of move_point
// it starts on (before a later point, after an earlier one), only n goes there and those
// nodes go to move_point's far side; otherwise they all pass move_point together. Either
// way move_point must not depend on what passes it (or it on move_point).
bool AliasDb::try_move(Node* n, Node* move_point, Side side, bool dry_run) const {
  if (n == move_point) return true;
  if (n->owning_block() != move_point->owning_block()) return false;
  const bool later = n->is_before(move_point);
  const bool split = later == (side == Side::Before);
  std::vector<Node*> group{n};  // n and what moves with it, in program order
  for (Node* cur = later ? n->next() : n->prev(); cur != move_point; cur = later ? cur->next() : cur->prev()) {
    const bool tied = std::any_of(group.begin(), group.end(),
                                  [&](const Node* g) { return later ? depends_on(cur, g) : depends_on(g, cur); });
    if (!tied) continue;
    if (later) group.push_back(cur);
    else group.insert(group.begin(), cur);
  }
  auto passes = [&](const Node* g) {
    return (!split || g != n) && (later ? depends_on(move_point, g) : depends_on(g, move_point));
  };
  if (std::any_of(group.begin(), group.end(), passes)) return false;
  if (dry_run) return true;
  if (split) {
    // n beside move_point on its own side; the rest beyond, in order.
    if (later) {
      n->move_before(move_point);
      Node* anchor = move_point;
      for (Node* g : group) {
        if (g == n) continue;
        g->move_after(anchor);
        anchor = g;
      }
    } else {
      n->move_after(move_point);
      for (Node* g : group) {
        if (g != n) g->move_before(move_point);
      }
    }
  } else if (side == Side::Before) {
    for (Node* g : group) g->move_before(move_point);
  } else {
    Node* anchor = move_point;
    for (Node* g : group) {
      g->move_after(anchor);
      anchor = g;
    }
  }
  return true;
}

bool AliasDb::move_after_topologically_valid(Node* n, Node* move_point) {
  return try_move(n, move_point, Side::After, false);
}
bool AliasDb::move_before_topologically_valid(Node* n, Node* move_point) {
  return try_move(n, move_point, Side::Before, false);
}
bool AliasDb::could_move_after_topologically(Node* n, Node* move_point) const {
  return try_move(n, move_point, Side::After, true);
}
bool AliasDb::could_move_before_topologically(Node* n, Node* move_point) const {
  return try_move(n, move_point, Side::Before, true);
}

// --- dump ---------------------------------------------------------------------------

std::string AliasDb::element_name(ElementId e) const {
  if (e == static_cast<ElementId>(-1)) return "<unknown>";
  const Element& el = elements_[e];
  if (!el.wildcard_of.empty()) return "*" + el.wildcard_of;
  if (el.value) return "%" + el.value->debug_name();
  return "<element " + std::to_string(e) + ">";
}

std::string AliasDb::dump() const {
  std::ostringstream out;
  auto names = [&](const std::vector<ElementId>& ids) {
    std::string s;
    for (ElementId id : ids) s += (s.empty() ? "" : ", ") + element_name(id);
    return "{" + s + "}";
  };
  out << "memory of each mutable value:\n";
  std::vector<std::pair<const Value*, ElementId>> values;
  for (const auto& [v, id] : element_of_) values.emplace_back(v, id);
  std::sort(values.begin(), values.end(), [](const auto& a, const auto& b) { return a.second < b.second; });
  for (const auto& [v, id] : values) {
    out << "  %" << v->debug_name() << " : " << v->type()->str() << " -> " << names(locations(id));
    std::vector<ElementId> contents;
    for (ElementId c : elements_[id].contained) {
      auto l = locations(c);
      contents.insert(contents.end(), l.begin(), l.end());
    }
    sort_unique(contents);
    if (!contents.empty()) out << ", holds " << names(contents);
    out << "\n";
  }
  out << "writes:\n";
  if (write_order_.empty()) out << "  (none)\n";
  for (const Node* w : write_order_) {
    out << "  " << w->kind().qual_string();
    if (!w->outputs().empty()) out << " -> %" << w->output(0)->debug_name();
    out << " writes " << names(written_by(w)) << "\n";
  }
  return out.str();
}

}  // namespace torchlet::jit

// Mutation removal (remove_mutation.h), torch's MutationRemover: the same writes
// removed in the same order, so the same graph comes out.
#include "jit/passes/remove_mutation.h"

#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "jit/passes/alias_analysis.h"
#include "jit/passes/constant_values.h"
#include "jit/passes/node_effects.h"
#include "jit/runtime/operator.h"
#include "jit/runtime/schema_matching.h"

namespace torchlet::jit {

namespace {

const Symbol kInsert = Symbol::from_qual_string("aten::insert");
const Symbol kFill = Symbol::from_qual_string("aten::fill_");
const Symbol kZero = Symbol::from_qual_string("aten::zero_");
const Symbol kFullLike = Symbol::from_qual_string("aten::full_like");
const Symbol kZerosLike = Symbol::from_qual_string("aten::zeros_like");

// fill_(Tensor, Scalar) and zero_: the in-place operators whose functional forms have
// other names (full_like, zeros_like).
bool is_specially_mapped(const Node* n) {
  return (n->kind() == kFill && n->inputs().size() == 2 && is_number_type(n->input(1)->type())) ||
         (n->kind() == kZero && n->inputs().size() == 1);
}

class MutationRemover {
 public:
  explicit MutationRemover(Graph& graph) : graph_(graph), db_(graph) {}

  bool remove_lists(Block* block) {
    bool changed = false;
    const std::vector<Node*> nodes(block->nodes().begin(), block->nodes().end());
    for (Node* n : nodes) {
      for (Block* sub : n->blocks()) changed |= remove_lists(sub);
      if (!is_list_write_after_construct(n)) continue;
      Value* list = n->input(0);
      // x.append(x) (or a value holding x): the list would have to hold itself when it is
      // made (torch 1.13 rewrites it to a ListConstruct reading its own output).
      if (may_hold_a_list(n->inputs().back()->type()) && db().may_contain_alias(n->inputs().back(), list)) continue;
      if (!make_creation_and_write_atomic(list, n)) continue;
      Node* construct = list->node();
      const auto size = static_cast<int64_t>(construct->inputs().size());
      if (n->kind() == sym::aten_append) {
        construct->add_input(n->input(1));
      } else {
        // insert before a negative position counts from the end; past the end appends.
        int64_t at = *constant_int(n->input(1));
        if (at < 0) at = std::max<int64_t>(at + size, 0);
        if (n->kind() == kInsert) {
          construct->insert_input(static_cast<size_t>(std::min(at, size)), n->input(2));
        } else {
          construct->replace_input(static_cast<size_t>(at), n->input(2));
        }
      }
      if (!n->outputs().empty()) n->output()->replace_all_uses_with(list);
      n->destroy();
      db_.reset();
      changed = true;
    }
    return changed;
  }

  bool remove_tensor_writes(Block* block) {
    bool changed = false;
    const std::vector<Node*> nodes(block->nodes().begin(), block->nodes().end());
    for (Node* n : nodes) {
      for (Block* sub : n->blocks()) changed |= remove_tensor_writes(sub);
      if (!is_in_place_variant(n)) continue;
      Value* written = n->input(0);
      if (!make_creation_and_write_atomic(written, n) && !make_if_output_and_write_atomic(written, n)) continue;
      Node* pure = is_specially_mapped(n) ? insert_special_functional(n) : insert_functional(n);
      if (!pure) continue;
      written->replace_all_uses_after_node_with(n, pure->output());
      n->output()->replace_all_uses_with(pure->output());
      n->destroy();
      db_.reset();
      changed = true;
    }
    return changed;
  }

 private:
  // The alias analysis of the graph as it is now: rebuilt after every rewrite.
  AliasDb& db() { return *db_; }

  // Whether a value of this type can be (or hold) a list (an object may, in an
  // attribute): a tensor never can, and then the alias question, which wildcards answer
  // coarsely, is not asked.
  static bool may_hold_a_list(const TypePtr& t) {
    if (t->kind() == TypeKind::List || t->kind() == TypeKind::Any || t->as_class()) return true;
    for (const TypePtr& c : t->contained())
      if (may_hold_a_list(c)) return true;
    return false;
  }

  static bool is_list_write_after_construct(const Node* n) {
    if (n->outputs().size() > 1 || n->inputs().empty() || n->input(0)->node()->kind() != sym::prim_ListConstruct) return false;
    if (n->kind() == sym::aten_append) return n->inputs().size() == 2;
    if (n->kind() == kInsert) return n->inputs().size() == 3 && constant_int(n->input(1)).has_value();
    if (n->kind() != sym::aten__set_item || n->inputs().size() != 3) return false;
    std::optional<int64_t> at = constant_int(n->input(1));
    const auto size = static_cast<int64_t>(n->input(0)->node()->inputs().size());
    if (!at) return false;
    const int64_t i = *at < 0 ? *at + size : *at;
    return i >= 0 && i < size;
  }

  // Nodes with blocks, subgraphs or effects, graph and block inputs, and values that may
  // hold what their node's inputs hold are not known to be seen only here.
  bool has_effect_or_alias(const Value* v) {
    const Node* n = v->node();
    if (!n->blocks().empty() || n->has_attribute(sym::attr_Subgraph) || has_side_effects(*n) ||
        n->kind() == sym::prim_Param) {
      return true;
    }
    if (n->kind() == sym::prim_ListConstruct) return false;
    const std::vector<const Value*> inputs(n->inputs().begin(), n->inputs().end());
    return db().may_contain_alias(inputs, {v});
  }

  // The creation and the write become one step: the creation moves to just before it.
  bool make_creation_and_write_atomic(Value* v, Node* write) {
    if (has_effect_or_alias(v)) return false;
    return db().move_before_topologically_valid(v->node(), write);
  }

  // x = op() in both branches of an If, each used only there, then x.op_(): the If and
  // the write become one step.
  bool make_if_output_and_write_atomic(Value* v, Node* write) {
    Node* if_node = v->node();
    if (if_node->kind() != sym::prim_If) return false;
    const size_t i = v->offset();
    const Value* then_value = if_node->blocks()[0]->outputs()[i];
    const Value* else_value = if_node->blocks()[1]->outputs()[i];
    if (then_value->uses().size() > 1 || else_value->uses().size() > 1) return false;
    if (has_effect_or_alias(then_value) || has_effect_or_alias(else_value)) return false;
    return db().move_before_topologically_valid(if_node, write);
  }

  // An aten:: operator named with a trailing '_' that writes its first input and only
  // that, returns one value, and has a functional form of the same name without it.
  bool is_in_place_variant(const Node* n) {
    if (n->kind().ns() != "aten" || n->outputs().size() != 1) return false;
    if (is_specially_mapped(n)) return true;
    const std::string_view name = n->kind().name();
    if (name.empty() || name.back() != '_' || n->outputs().size() != 1 || n->inputs().empty()) return false;
    if (!resolve_node_operator(*n)) return false;
    if (!db().writes_to_alias(n, {n->input(0)})) return false;
    const std::vector<const Value*> rest(n->inputs().begin() + 1, n->inputs().end());
    if (db().writes_to_alias(n, rest)) return false;
    const std::string pure = std::string(n->kind().ns()) + "::" + std::string(name.substr(0, name.size() - 1));
    return !OperatorRegistry::global().overloads(Symbol::from_qual_string(pure)).empty();
  }

  Node* finish(Node* pure, const Node* n) {
    pure->set_source_range(n->source_range());
    pure->output()->set_type(n->output()->type());
    return pure;
  }

  // The functional form of the same arguments, or null when none takes them (an
  // in-place overload whose functional twin has another schema).
  Node* insert_functional(Node* n) {
    const std::string_view name = n->kind().name();
    const Symbol kind = Symbol::make(n->kind().ns(), name.substr(0, name.size() - 1));
    Node* pure = graph_.create(kind, n->inputs(), 1);
    pure->insert_before(n);
    if (!resolve_node_operator(*pure)) {
      pure->destroy();
      return nullptr;
    }
    return finish(pure, n);
  }

  // fill_(x, v) -> full_like(x, v, dtype=x.dtype); zero_(x) -> zeros_like(x); the
  // other keyword arguments given as their None defaults, each its own constant, as
  // torch's call emission writes them.
  Node* insert_special_functional(Node* n) {
    InsertPointGuard guard(graph_, n);
    Value* self = n->input(0);
    std::vector<Value*> args{self};
    size_t nones = 5;
    Symbol kind = kZerosLike;
    if (n->kind() == kFill) {
      Value* dtype = graph_.insert(sym::prim_dtype, {self})->output();
      dtype->set_type(Type::int_());
      args = {self, n->input(1), dtype};
      nones = 4;
      kind = kFullLike;
    }
    for (size_t i = 0; i < nones; ++i) args.push_back(graph_.insert_constant(IValue()));
    return finish(graph_.insert(kind, args), n);
  }

  Graph& graph_;
  LazyAliasDb db_;
};

}  // namespace

bool remove_list_mutation(Graph& graph) { return MutationRemover(graph).remove_lists(graph.block()); }

bool remove_tensor_mutation(Graph& graph) { return MutationRemover(graph).remove_tensor_writes(graph.block()); }

bool remove_mutation(Graph& graph) {
  remove_list_mutation(graph);
  return remove_tensor_mutation(graph);
}

}  // namespace torchlet::jit

// The parts of torch's peephole pass that ask alias analysis (peephole.h): the alias-
// sensitive rules (PeepholeOptimizeAliasSensitive) and concat combining (CombineConcats).
#include <algorithm>
#include <unordered_map>
#include <vector>

#include "jit/passes/alias_analysis.h"
#include "jit/passes/constant_values.h"
#include "jit/passes/dead_code_elimination.h"
#include "jit/passes/peephole.h"

namespace torchlet::jit {

namespace {

const Symbol kConv1d = Symbol::from_qual_string("aten::conv1d");
const Symbol kConv2d = Symbol::from_qual_string("aten::conv2d");
const Symbol kConv3d = Symbol::from_qual_string("aten::conv3d");
const Symbol kCat = Symbol::from_qual_string("aten::cat");

std::optional<double> constant_number(const Value* v) {
  std::optional<IValue> iv = to_ivalue(v);
  if (!iv) return std::nullopt;
  if (iv->isInt()) return static_cast<double>(iv->toInt());
  if (iv->isDouble()) return iv->toDouble();
  return std::nullopt;
}

class AliasSensitiveIdioms {
 public:
  // The alias analysis is made when first asked for; every rewrite follows a question,
  // so it still sees the graph as it was before any.
  AliasSensitiveIdioms(Graph& graph, bool shape_peepholes) : graph_(graph), db_(graph), shapes_(shape_peepholes) {}

  bool run(Block* block) {
    bool changed = false;
    // A snapshot: moving a convolution past its dim() uses reorders the block.
    const std::vector<Node*> nodes(block->nodes().begin(), block->nodes().end());
    for (Node* n : nodes) {
      for (Block* sub : n->blocks()) changed |= run(sub);
      if (n->outputs().size() != 1) continue;  // each rule rewires one result
      const Symbol k = n->kind();
      if (k == kConv1d || k == kConv2d || k == kConv3d) {
        changed |= fold_conv_dim(n, k == kConv1d ? 3 : k == kConv2d ? 4 : 5);
      } else if ((k == sym::aten_add || k == sym::aten_sub) && arithmetic(n, 3)) {
        // Without a known floating dtype, a float `other` or `alpha` could promote an
        // integer tensor: only int ones leave the result's dtype alone.
        if (!floating(n->input(0)) && (n->input(1)->type()->kind() != TypeKind::Int ||
                                       n->input(2)->type()->kind() != TypeKind::Int)) {
          continue;
        }
        if (constant_number(n->input(2)) == 1.0 && constant_number(n->input(1)) == 0.0) {
          changed |= replace_output_with_input(n);
        }
      } else if ((k == sym::aten_mul || k == sym::aten_div) && arithmetic(n, 2)) {
        // x / 1 of an integer tensor is a float tensor.
        if (!floating(n->input(0)) && (k == sym::aten_div || n->input(1)->type()->kind() != TypeKind::Int)) continue;
        if (constant_number(n->input(1)) == 1.0) changed |= replace_output_with_input(n);
      }
    }
    return changed;
  }

 private:
  // aten::add/sub(Tensor self, Scalar other, Scalar alpha) and aten::mul/div(Tensor
  // self, Scalar other) with constant scalars.
  static bool arithmetic(const Node* n, size_t inputs) {
    if (n->inputs().size() != inputs || n->input(0)->type()->kind() != TypeKind::Tensor) return false;
    for (size_t i = 1; i < inputs; ++i) {
      if (!is_number_type(n->input(i)->type()) || !constant_number(n->input(i))) return false;
    }
    return true;
  }
  bool floating(const Value* v) const {
    const TensorDetails* d = v->type()->tensor_details();
    return shapes_ && d && d->dtype && is_floating(*d->dtype);
  }

  bool fold_conv_dim(Node* conv, int64_t rank) {
    std::vector<Node*> dims;
    for (const Use& u : conv->output()->uses()) {
      if (u.user->kind() == sym::aten_dim) dims.push_back(u.user);
    }
    if (dims.empty()) return false;
    // A write to the result (a resize_, however unlikely) must not come between.
    const bool written = db_->has_writers(conv->output());
    bool changed = false;
    for (Node* dim : dims) {
      if (written && !db_->move_after_topologically_valid(conv, dim)) continue;
      InsertPointGuard guard(graph_, dim);
      dim->output()->replace_all_uses_with(graph_.insert_constant(IValue(rank), dim->source_range()));
      changed = true;
    }
    // torch reports a change whenever nothing writes, even if no dim() had uses.
    return changed || !written;
  }

  // The alias analysis is not redone after each rewrite: values whose aliasing changed
  // are remembered instead, and nothing that may alias them is rewired again.
  bool replace_output_with_input(Node* n) {
    Value* in = n->input(0);
    Value* out = n->output();
    if (!db_->safe_to_change_aliasing_relationship({in}, {out})) return false;
    if (db_->may_alias({in, out}, stale_)) return false;
    out->replace_all_uses_with(in);
    stale_.push_back(in);
    stale_.push_back(out);
    return true;
  }

  Graph& graph_;
  LazyAliasDb db_;
  bool shapes_;
  std::vector<const Value*> stale_;
};

// A cat whose inputs go into another cat along the same constant dimension.
struct CombinableConcat {
  Node* first;
  Node* second;
  size_t index;  // where first's result stands in second's list
};

class ConcatCombiner {
 public:
  explicit ConcatCombiner(Graph& graph) : graph_(graph), db_(graph) {}

  bool run() {
    collect(graph_.block());
    if (pairs_.empty()) return false;
    combine();
    eliminate_dead_code(graph_, DeadCodeWrites::AliasAware);
    return true;
  }

 private:
  static std::optional<int64_t> constant_dim(const Node* cat) {
    std::optional<IValue> iv = to_ivalue(cat->input(1));
    if (!iv || !iv->isInt()) return std::nullopt;
    return iv->toInt();
  }
  static bool is_cat(const Node* n) {
    return n->kind() == kCat && n->inputs().size() == 2 && n->outputs().size() == 1 &&
           n->input(0)->node()->kind() == sym::prim_ListConstruct;
  }

  void collect(Block* block) {
    for (Node* n : block->nodes()) {
      if (n->kind() == kCat && n->inputs().size() == 2 && n->outputs().size() == 1) consider(n);
      for (Block* sub : n->blocks()) collect(sub);
    }
  }
  void consider(Node* cat) {
    std::optional<int64_t> dim = constant_dim(cat);
    Node* list = cat->input(0)->node();
    if (!dim || list->kind() != sym::prim_ListConstruct || cat->output()->uses().size() != 1) return;
    Node* next_list = cat->output()->uses()[0].user;
    if (next_list->kind() != sym::prim_ListConstruct || next_list->outputs().size() != 1 ||
        next_list->output()->uses().size() != 1) {
      return;
    }
    Node* next_cat = next_list->output()->uses()[0].user;
    if (!is_cat(next_cat) || next_cat->input(0) != next_list->output() || constant_dim(next_cat) != dim) return;
    if (!db_->could_move_before_topologically(list, cat)) return;
    const auto& in = next_list->inputs();
    const size_t index = static_cast<size_t>(std::find(in.begin(), in.end(), cat->output()) - in.begin());
    pairs_.push_back({cat, next_cat, index});
  }

  // Each pair moves the first cat's inputs into the second's list, in place of its
  // result; a chain of pairs moves them on to the last cat.
  void combine() {
    std::unordered_map<Node*, std::vector<Value*>> lists;
    std::vector<Node*> order;
    for (const CombinableConcat& p : pairs_) {
      std::vector<Value*> merged;
      auto it = lists.find(p.first);
      if (it != lists.end()) {
        merged = std::move(it->second);
        lists.erase(it);
        std::erase(order, p.first);
      } else {
        merged = p.first->input(0)->node()->inputs();
      }
      const auto& outer = p.second->input(0)->node()->inputs();
      merged.insert(merged.begin(), outer.begin(), outer.begin() + static_cast<std::ptrdiff_t>(p.index));
      merged.insert(merged.end(), outer.begin() + static_cast<std::ptrdiff_t>(p.index) + 1, outer.end());
      lists[p.second] = std::move(merged);
      order.push_back(p.second);
    }
    for (Node* cat : order) {
      Node* old_list = cat->input(0)->node();
      Node* fresh = graph_.create(sym::prim_ListConstruct, lists[cat]);
      fresh->output()->set_type(old_list->output()->type());
      fresh->insert_before(cat);
      old_list->replace_all_uses_with(fresh);
    }
  }

  Graph& graph_;
  LazyAliasDb db_;  // asked only about cats that could combine
  std::vector<CombinableConcat> pairs_;
};

}  // namespace

bool fold_alias_sensitive_idioms(Graph& graph, bool shape_peepholes) {
  return AliasSensitiveIdioms(graph, shape_peepholes).run(graph.block());
}

bool combine_concats(Graph& graph) { return ConcatCombiner(graph).run(); }

}  // namespace torchlet::jit

// Concatenation of frozen linear layers sharing an input (frozen_linear_folding.h), in
// torch's order: groups by input in reverse order of first use, layers in graph order.
#include "jit/passes/frozen_linear_folding.h"

#include <memory>
#include <optional>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include <torchlet/ops.h>

#include "jit/passes/alias_analysis.h"
#include "jit/passes/constant_values.h"

namespace torchlet::jit {

namespace {

const Symbol kLinear = Symbol::from_qual_string("aten::linear");

struct Layer {
  Node* node;
  Tensor weight;
  Tensor bias;
};

class LinearConcatenation {
 public:
  explicit LinearConcatenation(Graph& graph) : graph_(graph), db_(graph) {}

  bool run(Block* block) {
    for (Node* n : block->nodes()) {
      for (Block* sub : n->blocks()) run(sub);
    }
    std::unordered_map<const Value*, std::vector<Layer>> by_input;
    std::vector<const Value*> inputs;  // in order of first use
    for (Node* n : block->nodes()) {
      std::optional<Layer> layer = constant_layer(n);
      if (!layer) continue;
      auto [it, fresh] = by_input.try_emplace(n->input(0));
      if (fresh) inputs.push_back(n->input(0));
      it->second.push_back(*layer);
    }
    // Later groups first: merging adds nodes, and the earlier groups' alias questions
    // are about nodes before those.
    for (auto it = inputs.rbegin(); it != inputs.rend(); ++it) merge_compatible(by_input.at(*it));
    return changed_;
  }

 private:
  static std::optional<Layer> constant_layer(Node* n) {
    if (n->kind() != kLinear || n->inputs().size() != 3 || n->outputs().size() != 1) return std::nullopt;
    std::optional<Tensor> w = constant_tensor(n->input(1));
    std::optional<Tensor> b = constant_tensor(n->input(2));
    if (!w || !b || w->dim() != 2 || b->dim() != 1 || b->sizes()[0] != w->sizes()[0]) return std::nullopt;
    return Layer{n, *w, *b};
  }

  AliasDb& db() { return *db_; }

  void merge_compatible(const std::vector<Layer>& group) {
    std::unordered_set<const Node*> taken;
    for (size_t i = 0; i < group.size(); ++i) {
      if (taken.count(group[i].node)) continue;
      std::vector<const Layer*> merged{&group[i]};
      for (size_t j = i + 1; j < group.size(); ++j) {
        const Layer& l = group[j];
        if (taken.count(l.node)) continue;
        // The same dtypes (a promotion could make it slower) and input widths (the
        // weights are [out, in], the biases [out]: they stack along their first dim).
        if (l.weight.dtype() != group[i].weight.dtype() || l.bias.dtype() != group[i].bias.dtype() ||
            l.weight.sizes()[1] != group[i].weight.sizes()[1]) {
          continue;
        }
        // The merged product runs where the first layer did: nothing between may write
        // what this one reads.
        bool movable = true;
        for (const Layer* m : merged) movable = movable && db().could_move_before_topologically(l.node, m->node);
        if (!movable) continue;
        merged.push_back(&l);
        taken.insert(l.node);
      }
      if (merged.size() > 1) merge(merged);
    }
  }

  void merge(const std::vector<const Layer*>& layers) {
    Node* first = layers.front()->node;
    std::vector<Tensor> weights, biases;
    for (const Layer* l : layers) {
      weights.push_back(l->weight);
      biases.push_back(l->bias);
    }
    Node* product = nullptr;
    {
      InsertPointGuard guard(graph_, first);
      Value* w = graph_.insert_constant(IValue(cat(weights, 0)), first->source_range());
      Value* b = graph_.insert_constant(IValue(cat(biases, 0)), first->source_range());
      product = graph_.create(kLinear, {first->input(0), w, b});
      product->output()->set_type(Type::tensor());
      product->set_source_range(first->source_range());
      product->insert_before(first);
    }
    InsertPointGuard guard(graph_, product);
    Value* last_dim = graph_.insert_constant(IValue(int64_t{-1}));
    Value* step = graph_.insert_constant(IValue(int64_t{1}));
    int64_t start = 0;
    Value* start_value = graph_.insert_constant(IValue(int64_t{0}));
    for (const Layer* l : layers) {
      const int64_t end = start + l->weight.sizes()[0];
      Value* end_value = graph_.insert_constant(IValue(end));
      Node* slice = graph_.create(sym::aten_slice, {product->output(), last_dim, start_value, end_value, step});
      slice->output()->set_type(l->node->output()->type());
      slice->insert_after(product);
      l->node->replace_all_uses_with(slice);
      l->node->destroy();
      start = end;
      start_value = end_value;
    }
    db_.reset();
    changed_ = true;
  }

  Graph& graph_;
  LazyAliasDb db_;
  bool changed_ = false;
};

}  // namespace

bool concat_frozen_linears(Graph& graph) { return LinearConcatenation(graph).run(graph.block()); }

}  // namespace torchlet::jit

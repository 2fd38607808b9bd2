// Conv / batch-norm folding of frozen graphs (frozen_folding.h).
#include "jit/passes/frozen_folding.h"

#include <optional>
#include <vector>

#include <torchlet/ops.h>

namespace torchlet::jit {

namespace {

std::optional<Tensor> tensor_constant(const Value* v) {
  auto c = to_ivalue(v);
  if (!c || !c->isTensor()) return std::nullopt;
  return c->toTensor();
}

bool is_none_constant(const Value* v) {
  auto c = to_ivalue(v);
  return c && c->isNone();
}

bool is_conv(const Node* n) {
  const std::string& k = n->kind().qual_string();
  return (k == "aten::conv1d" || k == "aten::conv2d" || k == "aten::conv3d") && n->inputs().size() == 7;
}

// The folded weight and bias, or nullopt when the pattern's parts are not constants.
std::optional<std::pair<Tensor, Tensor>> folded(const Node* conv, const Node* bn) {
  auto w = tensor_constant(conv->input(1));
  auto mean = tensor_constant(bn->input(3));
  auto var = tensor_constant(bn->input(4));
  auto eps = to_ivalue(bn->input(7));
  auto training = to_ivalue(bn->input(5));
  if (!w || !mean || !var || !eps || !eps->isDouble() || !training || !training->isBool() || training->toBool())
    return std::nullopt;
  if (!is_floating(w->dtype()) || mean->dim() != 1 || mean->numel() != w->sizes()[0]) return std::nullopt;
  std::optional<Tensor> b = is_none_constant(conv->input(2)) ? std::optional<Tensor>(zeros(mean->sizes(), mean->dtype()))
                                                              : tensor_constant(conv->input(2));
  std::optional<Tensor> gamma = is_none_constant(bn->input(1)) ? std::optional<Tensor>(ones(mean->sizes(), mean->dtype()))
                                                                : tensor_constant(bn->input(1));
  std::optional<Tensor> beta = is_none_constant(bn->input(2)) ? std::optional<Tensor>(zeros(mean->sizes(), mean->dtype()))
                                                               : tensor_constant(bn->input(2));
  if (!b || !gamma || !beta) return std::nullopt;
  const Tensor var_rsqrt = rsqrt(add(*var, Scalar(eps->toDouble())));
  Shape sizes(static_cast<size_t>(w->dim()), 1);
  sizes[0] = -1;
  Tensor new_w = mul(*w, mul(*gamma, var_rsqrt).reshape(sizes)).to(w->dtype());
  Tensor new_b = add(mul(mul(sub(*b, *mean), var_rsqrt), *gamma), *beta).to(b->dtype());
  return std::make_pair(new_w, new_b);
}

// The batch norm is the one use of the convolution's result that reads its values; the
// others only ask its shape (BatchNorm's "expected 4D input" check), which folding keeps.
bool only_shape_read_besides(const Value* conv_out, const Node* bn) {
  for (const Use& u : conv_out->uses()) {
    if (u.user == bn) continue;
    const std::string& k = u.user->kind().qual_string();
    if (k != "aten::dim" && k != "aten::size" && k != "aten::numel") return false;
  }
  return true;
}

bool fold(Graph& graph, Block* block) {
  bool changed = false;
  std::vector<Node*> nodes(block->nodes().begin(), block->nodes().end());
  for (Node* bn : nodes) {
    for (Block* sub : bn->blocks()) changed |= fold(graph, sub);
    if (bn->kind().qual_string() != "aten::batch_norm" || bn->inputs().size() != 9) continue;
    Node* conv = bn->input(0)->node();
    if (!is_conv(conv) || conv->owning_block() != bn->owning_block() || !only_shape_read_besides(conv->output(), bn))
      continue;
    auto wb = folded(conv, bn);
    if (!wb) continue;
    InsertPointGuard guard(graph, conv);
    Value* w = graph.insert_constant(IValue(wb->first), conv->source_range());
    Value* b = graph.insert_constant(IValue(wb->second), conv->source_range());
    conv->replace_input(1, w);
    conv->replace_input(2, b);
    bn->output()->replace_all_uses_with(conv->output());
    bn->destroy();
    changed = true;
  }
  return changed;
}

}  // namespace

bool fold_frozen_conv_batch_norm(Graph& graph) { return fold(graph, graph.block()); }

}  // namespace torchlet::jit

// Conv and linear / batch-norm folding, pointwise-op folding and dropout removal of
// frozen graphs (frozen_folding.h).
#include "jit/passes/frozen_folding.h"

#include <algorithm>
#include <iterator>
#include <optional>
#include <vector>

#include <torchlet/ops.h>

#include "jit/passes/constant_values.h"

namespace torchlet::jit {

namespace {

bool is_none_constant(const Value* v) {
  auto c = to_ivalue(v);
  return c && c->isNone();
}

bool is_conv(const Node* n) {
  const std::string& k = n->kind().qual_string();
  return (k == "aten::conv1d" || k == "aten::conv2d" || k == "aten::conv3d") && n->inputs().size() == 7;
}

// aten::linear whose result has rank 2, so that batch norm's channels (dimension 1) are
// its output features; of a result of any other rank they are not, or the norm raises.
bool is_rank2_linear(const Node* n) {
  if (n->kind().qual_string() != "aten::linear" || n->inputs().size() != 3) return false;
  const TensorDetails* d = n->output()->type()->tensor_details();
  return d && d->rank() == 2u;
}

// The folded weight and bias, or nullopt when the pattern's parts are not constants.
// `layer` is a convolution or a linear: both hold one weight row per output channel.
std::optional<std::pair<Tensor, Tensor>> folded(const Node* layer, const Node* bn) {
  auto w = constant_tensor(layer->input(1));
  auto mean = constant_tensor(bn->input(3));
  auto var = constant_tensor(bn->input(4));
  auto eps = to_ivalue(bn->input(7));
  auto training = to_ivalue(bn->input(5));
  if (!w || !mean || !var || !eps || !eps->isDouble() || !training || !training->isBool() || training->toBool())
    return std::nullopt;
  if (!is_floating(w->dtype()) || w->dim() < 2 || mean->dim() != 1 || mean->numel() != w->sizes()[0])
    return std::nullopt;
  std::optional<Tensor> b = is_none_constant(layer->input(2)) ? std::optional<Tensor>(zeros(mean->sizes(), mean->dtype()))
                                                              : constant_tensor(layer->input(2));
  std::optional<Tensor> gamma = is_none_constant(bn->input(1)) ? std::optional<Tensor>(ones(mean->sizes(), mean->dtype()))
                                                                : constant_tensor(bn->input(1));
  std::optional<Tensor> beta = is_none_constant(bn->input(2)) ? std::optional<Tensor>(zeros(mean->sizes(), mean->dtype()))
                                                               : constant_tensor(bn->input(2));
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

enum class Layer { Conv, Linear };

bool fold(Graph& graph, Block* block, Layer layer) {
  bool changed = false;
  std::vector<Node*> nodes(block->nodes().begin(), block->nodes().end());
  for (Node* bn : nodes) {
    for (Block* sub : bn->blocks()) changed |= fold(graph, sub, layer);
    if (bn->kind().qual_string() != "aten::batch_norm" || bn->inputs().size() != 9) continue;
    Node* producer = bn->input(0)->node();
    if (!(layer == Layer::Conv ? is_conv(producer) : is_rank2_linear(producer)) ||
        producer->owning_block() != bn->owning_block() ||
        !only_shape_read_besides(producer->output(), bn))
      continue;
    auto wb = folded(producer, bn);
    if (!wb) continue;
    InsertPointGuard guard(graph, producer);
    Value* w = graph.insert_constant(IValue(wb->first), producer->source_range());
    Value* b = graph.insert_constant(IValue(wb->second), producer->source_range());
    producer->replace_input(1, w);
    producer->replace_input(2, b);
    bn->output()->replace_all_uses_with(producer->output());
    bn->destroy();
    changed = true;
  }
  return changed;
}

// The constant operand of a pointwise op after a convolution as one value per output
// channel ([C_out]), in the weight's dtype; nullopt when it would broadcast the
// convolution's output to another shape or promote its dtype (torch's preconditions).
std::optional<Tensor> per_channel(const Value* operand, const Tensor& weight) {
  const int64_t channels = weight.sizes()[0];
  auto c = to_ivalue(operand);
  if (!c) return std::nullopt;
  if (c->isDouble() || c->isInt()) return full({channels}, c->isDouble() ? Scalar(c->toDouble()) : Scalar(c->toInt()),
                                               weight.dtype());
  if (!c->isTensor()) return std::nullopt;
  const Tensor& t = c->toTensor();
  if (t.dim() > weight.dim() || !is_floating(t.dtype())) return std::nullopt;
  for (int64_t i = t.dim() - 1; i >= 0; --i)
    if (!(i == 1 && t.sizes()[1] == channels) && t.sizes()[i] != 1) return std::nullopt;
  const Tensor flat = t.reshape({-1}).to(weight.dtype());
  return flat.numel() == channels ? flat.contiguous() : flat.expand({channels}).contiguous();
}

enum class Pointwise { AddOrSub, MulOrDiv };

bool fold_pointwise(Graph& graph, Block* block, Pointwise kind) {
  bool changed = false;
  std::vector<Node*> nodes(block->nodes().begin(), block->nodes().end());
  for (Node* op : nodes) {
    for (Block* sub : op->blocks()) changed |= fold_pointwise(graph, sub, kind);
    const std::string& k = op->kind().qual_string();
    const bool add_or_sub = k == "aten::add" || k == "aten::sub";
    const bool mul_or_div = k == "aten::mul" || k == "aten::div";
    if ((kind == Pointwise::AddOrSub ? !add_or_sub : !mul_or_div) || op->inputs().size() != (add_or_sub ? 3u : 2u))
      continue;
    Node* conv = op->input(0)->node();
    if (!is_conv(conv) || conv->owning_block() != op->owning_block() || !only_shape_read_besides(conv->output(), op))
      continue;
    auto w = constant_tensor(conv->input(1));
    if (!w || !is_floating(w->dtype())) continue;
    std::optional<Tensor> b = is_none_constant(conv->input(2)) ? std::optional<Tensor>(zeros({w->sizes()[0]}, w->dtype()))
                                                              : constant_tensor(conv->input(2));
    auto c = per_channel(op->input(1), *w);
    if (!b || !c) continue;
    Tensor new_w = *w, new_b;
    if (add_or_sub) {
      auto alpha = to_ivalue(op->input(2));
      if (!alpha || !(alpha->isInt() || alpha->isDouble())) continue;
      const Scalar a = alpha->isInt() ? Scalar(alpha->toInt()) : Scalar(alpha->toDouble());
      new_b = k == "aten::add" ? add(*b, *c, a) : sub(*b, *c, a);
    } else {
      Shape sizes(static_cast<size_t>(w->dim()), 1);
      sizes[0] = -1;
      const Tensor scale = c->reshape(sizes);
      new_w = k == "aten::mul" ? mul(*w, scale) : div(*w, scale);
      new_b = k == "aten::mul" ? mul(*b, *c) : div(*b, *c);
    }
    InsertPointGuard guard(graph, conv);
    conv->replace_input(1, graph.insert_constant(IValue(new_w.to(w->dtype())), conv->source_range()));
    conv->replace_input(2, graph.insert_constant(IValue(new_b.to(b->dtype())), conv->source_range()));
    op->output()->replace_all_uses_with(conv->output());
    op->destroy();
    changed = true;
  }
  return changed;
}

bool remove_dropout(Block* block) {
  static const char* const kDropouts[] = {"aten::dropout",        "aten::dropout_",       "aten::feature_dropout",
                                          "aten::feature_dropout_", "aten::alpha_dropout",  "aten::alpha_dropout_",
                                          "aten::feature_alpha_dropout", "aten::feature_alpha_dropout_"};
  bool changed = false;
  std::vector<Node*> nodes(block->nodes().begin(), block->nodes().end());
  for (Node* n : nodes) {
    for (Block* sub : n->blocks()) changed |= remove_dropout(sub);
    const std::string& k = n->kind().qual_string();
    if (std::find(std::begin(kDropouts), std::end(kDropouts), k) == std::end(kDropouts) || n->inputs().size() != 3)
      continue;
    auto train = to_ivalue(n->input(2));
    if (!train || !train->isBool() || train->toBool()) continue;
    n->output()->replace_all_uses_with(n->input(0));
    n->destroy();
    changed = true;
  }
  return changed;
}

}  // namespace

bool fold_frozen_conv_batch_norm(Graph& graph) { return fold(graph, graph.block(), Layer::Conv); }
bool fold_frozen_linear_batch_norm(Graph& graph) { return fold(graph, graph.block(), Layer::Linear); }
bool fold_frozen_conv_add_or_sub(Graph& graph) { return fold_pointwise(graph, graph.block(), Pointwise::AddOrSub); }
bool fold_frozen_conv_mul_or_div(Graph& graph) { return fold_pointwise(graph, graph.block(), Pointwise::MulOrDiv); }
bool remove_eval_dropout(Graph& graph) { return remove_dropout(graph.block()); }

}  // namespace torchlet::jit

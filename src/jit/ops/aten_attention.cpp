// aten::_native_multi_head_attention and aten::_transformer_encoder_layer_fwd: the
// fused operators nn.MultiheadAttention and nn.TransformerEncoderLayer call in eval
// mode on batch-first inputs. Composed
// from the kernels: one projection per input from the packed qkv weight, scaled dot
// products per head, a masked softmax (rows masked entirely give zeros, as torch's
// _masked_softmax does, instead of NaN), the output projection, and the attention
// weights averaged over heads when asked.
#include <cmath>

#include <torchlet/ops.h>

#include "jit/ops/ops_util.h"

namespace torchlet::jit::ops {
namespace {

// (B, L, E) -> (B, H, L, D)
Tensor split_heads(const Tensor& x, int64_t heads) {
  const int64_t b = x.size(0), l = x.size(1), e = x.size(2);
  return x.reshape({b, l, heads, e / heads}).transpose(1, 2);
}

// The mask broadcast to (B, H, L, S); True (or an additive float) per key. torch 1.13
// takes a 2-d mask as a key padding mask (B, S) whatever mask_type says, and checks
// its first size against the batch.
Tensor broadcast_mask(const Tensor& mask, int64_t batch) {
  if (mask.dim() == 2) {
    TL_CHECK(mask.size(0) == batch, ValueError,
             "Expected attn_mask->sizes()[0] == batch_size to be true, but got false.");
    return mask.unsqueeze(1).unsqueeze(1);
  }
  if (mask.dim() == 3) return mask.unsqueeze(1);
  return mask;
}

// Self or cross attention with packed projections; the weights (B, H, L, S) are
// returned through `weights` when asked for.
Tensor attention(const Tensor& query, const Tensor& key, const Tensor& value, int64_t embed, int64_t heads,
                 const Tensor& qkv_weight, const Tensor& qkv_bias, const Tensor& proj_weight,
                 const Tensor& proj_bias, const std::optional<Tensor>& mask, Tensor* weights) {
  TL_CHECK(query.dim() == 3, ValueError, "_native_multi_head_attention: expected query to be 3-D, got {}-D",
           query.dim());
  TL_CHECK(query.sizes() == key.sizes() && key.sizes() == value.sizes(), ValueError,
           "expected `query`/`key`/`value` shapes to match");
  TL_CHECK(heads > 0 && embed % heads == 0, ValueError,
           "_native_multi_head_attention: embed_dim {} is not divisible by num_head {}", embed, heads);
  auto w = torchlet::chunk(qkv_weight, 3, 0);
  auto bias = torchlet::chunk(qkv_bias, 3, 0);
  Tensor q = split_heads(torchlet::linear(query, w[0], bias[0]), heads);
  Tensor k = split_heads(torchlet::linear(key, w[1], bias[1]), heads);
  Tensor v = split_heads(torchlet::linear(value, w[2], bias[2]), heads);
  const double scale = 1.0 / std::sqrt(static_cast<double>(embed / heads));
  Tensor scores = torchlet::matmul(torchlet::mul(q, Scalar(scale)), k.transpose(-2, -1));  // (B, H, L, S)
  if (mask) {
    Tensor m = broadcast_mask(*mask, query.size(0));
    if (m.dtype() == DType::Bool) {
      scores = torchlet::masked_fill(scores, m, -std::numeric_limits<double>::infinity());
    } else {
      scores = torchlet::add(scores, m);
    }
  }
  Tensor attn = torchlet::softmax(scores, -1);
  attn = torchlet::masked_fill(attn, torchlet::ne(attn, attn), 0);  // fully masked rows
  if (weights) *weights = attn;
  Tensor out = torchlet::matmul(attn, v).transpose(1, 2);  // (B, L, H, D)
  out = out.reshape({query.size(0), query.size(1), embed});
  return torchlet::linear(out, proj_weight, proj_bias);
}

void native_mha(Stack& s) {
  pop_opt_int(s);  // mask_type: see broadcast_mask
  bool average = pop_bool(s);
  bool need_weights = pop_bool(s);
  auto mask = pop_opt_tensor(s);
  Tensor proj_bias = pop_tensor(s);
  Tensor proj_weight = pop_tensor(s);
  Tensor qkv_bias = pop_tensor(s);
  Tensor qkv_weight = pop_tensor(s);
  int64_t heads = pop_int(s);
  int64_t embed = pop_int(s);
  Tensor value = pop_tensor(s);
  Tensor key = pop_tensor(s);
  Tensor query = pop_tensor(s);
  Tensor weights;
  Tensor out = attention(query, key, value, embed, heads, qkv_weight, qkv_bias, proj_weight, proj_bias, mask,
                         need_weights ? &weights : nullptr);
  if (!need_weights) return push(s, out, IValue());  // torch returns an undefined tensor
  push(s, out, average ? torchlet::mean(weights, {1}) : weights);
}

// aten::_transformer_encoder_layer_fwd: TransformerEncoderLayer's eval fast path.
//   norm_first: x = x + sa(ln1(x)); x = x + ff(ln2(x))
//   otherwise:  x = ln1(x + sa(x)); x = ln2(x + ff(x))
// with ff(x) = linear2(act(linear1(x))), act gelu or relu.
void encoder_layer(Stack& s) {
  pop_opt_int(s);  // mask_type
  auto mask = pop_opt_tensor(s);
  Tensor fb2 = pop_tensor(s), fw2 = pop_tensor(s), fb1 = pop_tensor(s), fw1 = pop_tensor(s);
  Tensor nb2 = pop_tensor(s), nw2 = pop_tensor(s), nb1 = pop_tensor(s), nw1 = pop_tensor(s);
  double eps = pop_double(s);
  bool norm_first = pop_bool(s);
  bool use_gelu = pop_bool(s);
  Tensor proj_bias = pop_tensor(s), proj_weight = pop_tensor(s);
  Tensor qkv_bias = pop_tensor(s), qkv_weight = pop_tensor(s);
  int64_t heads = pop_int(s);
  int64_t embed = pop_int(s);
  Tensor x = pop_tensor(s);
  const int64_t e = x.size(-1);
  auto ln = [&](const Tensor& t, const Tensor& w, const Tensor& b) { return torchlet::layer_norm(t, {e}, w, b, eps); };
  auto sa = [&](const Tensor& t) {
    return attention(t, t, t, embed, heads, qkv_weight, qkv_bias, proj_weight, proj_bias, mask, nullptr);
  };
  auto ff = [&](const Tensor& t) {
    Tensor h = torchlet::linear(t, fw1, fb1);
    h = use_gelu ? torchlet::gelu(h) : torchlet::relu(h);
    return torchlet::linear(h, fw2, fb2);
  };
  if (norm_first) {
    x = torchlet::add(x, sa(ln(x, nw1, nb1)));
    x = torchlet::add(x, ff(ln(x, nw2, nb2)));
  } else {
    x = ln(torchlet::add(x, sa(x)), nw1, nb1);
    x = ln(torchlet::add(x, ff(x)), nw2, nb2);
  }
  push(s, x);
}

}  // namespace

static RegisterOps reg({
    {"aten::_transformer_encoder_layer_fwd(Tensor src, int embed_dim, int num_heads, Tensor qkv_weight, Tensor qkv_bias, Tensor proj_weight, Tensor proj_bias, bool use_gelu, bool norm_first, float eps, Tensor norm_weight_1, Tensor norm_bias_1, Tensor norm_weight_2, Tensor norm_bias_2, Tensor ffn_weight_1, Tensor ffn_bias_1, Tensor ffn_weight_2, Tensor ffn_bias_2, Tensor? mask=None, int? mask_type=None) -> Tensor", encoder_layer},
    {"aten::_native_multi_head_attention(Tensor query, Tensor key, Tensor value, int embed_dim, int num_head, Tensor qkv_weight, Tensor qkv_bias, Tensor proj_weight, Tensor proj_bias, Tensor? mask=None, bool need_weights=True, bool average_attn_weights=True, int? mask_type=None) -> (Tensor, Tensor)", native_mha},
});

}  // namespace torchlet::jit::ops

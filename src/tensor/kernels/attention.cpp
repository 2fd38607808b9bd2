// The fused attention operators nn.MultiheadAttention and nn.TransformerEncoderLayer
// call in eval mode on batch-first inputs (aten::_native_multi_head_attention and
// aten::_transformer_encoder_layer_fwd). Composed from the kernels: one projection per
// input from the packed qkv weight, scaled dot products per head, a masked softmax (rows
// masked entirely give zeros, as torch's _masked_softmax does, instead of NaN), the
// output projection, and the attention weights averaged over heads when asked.
#include <cmath>
#include <limits>
#include <optional>
#include <utility>

#include <torchlet/error.h>
#include <torchlet/ops.h>

namespace torchlet {
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
  auto w = chunk(qkv_weight, 3, 0);
  auto bias = chunk(qkv_bias, 3, 0);
  Tensor q = split_heads(linear(query, w[0], bias[0]), heads);
  Tensor k = split_heads(linear(key, w[1], bias[1]), heads);
  Tensor v = split_heads(linear(value, w[2], bias[2]), heads);
  const double scale = 1.0 / std::sqrt(static_cast<double>(embed / heads));
  Tensor scores = matmul(mul(q, Scalar(scale)), k.transpose(-2, -1));  // (B, H, L, S)
  if (mask) {
    Tensor m = broadcast_mask(*mask, query.size(0));
    if (m.dtype() == DType::Bool) {
      scores = masked_fill(scores, m, -std::numeric_limits<double>::infinity());
    } else {
      scores = add(scores, m);
    }
  }
  Tensor attn = softmax(scores, -1);
  attn = masked_fill(attn, ne(attn, attn), 0);  // fully masked rows
  if (weights) *weights = attn;
  Tensor out = matmul(attn, v).transpose(1, 2);  // (B, L, H, D)
  out = out.reshape({query.size(0), query.size(1), embed});
  return linear(out, proj_weight, proj_bias);
}

}  // namespace

std::pair<Tensor, std::optional<Tensor>> native_multi_head_attention(
    const Tensor& query, const Tensor& key, const Tensor& value, int64_t embed_dim, int64_t num_head,
    const Tensor& qkv_weight, const Tensor& qkv_bias, const Tensor& proj_weight, const Tensor& proj_bias,
    const std::optional<Tensor>& mask, bool need_weights, bool average_attn_weights) {
  Tensor weights;
  Tensor out = attention(query, key, value, embed_dim, num_head, qkv_weight, qkv_bias, proj_weight, proj_bias, mask,
                         need_weights ? &weights : nullptr);
  if (!need_weights) return {out, std::nullopt};
  return {out, average_attn_weights ? mean(weights, {1}) : weights};
}

// TransformerEncoderLayer's eval fast path:
//   norm_first: x = x + sa(ln1(x)); x = x + ff(ln2(x))
//   otherwise:  x = ln1(x + sa(x)); x = ln2(x + ff(x))
// with ff(x) = linear2(act(linear1(x))), act gelu or relu.
Tensor transformer_encoder_layer_fwd(const Tensor& src, int64_t embed_dim, int64_t num_heads, const Tensor& qkv_weight,
                                     const Tensor& qkv_bias, const Tensor& proj_weight, const Tensor& proj_bias,
                                     bool use_gelu, bool norm_first, double eps, const Tensor& norm_weight_1,
                                     const Tensor& norm_bias_1, const Tensor& norm_weight_2, const Tensor& norm_bias_2,
                                     const Tensor& ffn_weight_1, const Tensor& ffn_bias_1, const Tensor& ffn_weight_2,
                                     const Tensor& ffn_bias_2, const std::optional<Tensor>& mask) {
  const int64_t e = src.size(-1);
  auto ln = [&](const Tensor& t, const Tensor& w, const Tensor& b) { return layer_norm(t, {e}, w, b, eps); };
  auto sa = [&](const Tensor& t) {
    return attention(t, t, t, embed_dim, num_heads, qkv_weight, qkv_bias, proj_weight, proj_bias, mask, nullptr);
  };
  auto ff = [&](const Tensor& t) {
    Tensor h = linear(t, ffn_weight_1, ffn_bias_1);
    h = use_gelu ? gelu(h) : relu(h);
    return linear(h, ffn_weight_2, ffn_bias_2);
  };
  Tensor x = src;
  if (norm_first) {
    x = add(x, sa(ln(x, norm_weight_1, norm_bias_1)));
    x = add(x, ff(ln(x, norm_weight_2, norm_bias_2)));
  } else {
    x = ln(add(x, sa(x)), norm_weight_1, norm_bias_1);
    x = ln(add(x, ff(x)), norm_weight_2, norm_bias_2);
  }
  return x;
}

}  // namespace torchlet

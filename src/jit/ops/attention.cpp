// The fused attention operators nn.MultiheadAttention and nn.TransformerEncoderLayer call
// in eval mode (aten::_native_multi_head_attention, aten::_transformer_encoder_layer_fwd),
// registered from their kernels' signatures (Note [Boxing] in boxing.h; the kernels are
// attention.cpp's in src/tensor/kernels).
#include <optional>
#include <utility>

#include <torchlet/ops.h>

#include "jit/ops/boxing.h"
#include "jit/ops/out_forms.h"

namespace torchlet::jit::ops {
namespace {

// mask_type is read and not passed on: torch 1.13 takes a 2-d mask as a key padding mask
// whatever it says (the kernel's broadcast_mask). Without need_weights the second result
// is None (torch returns an undefined tensor).
std::pair<Tensor, std::optional<Tensor>> native_multi_head_attention(
    const Tensor& query, const Tensor& key, const Tensor& value, int64_t embed_dim, int64_t num_head,
    const Tensor& qkv_weight, const Tensor& qkv_bias, const Tensor& proj_weight, const Tensor& proj_bias,
    const std::optional<Tensor>& mask, bool need_weights, bool average_attn_weights,
    std::optional<int64_t> /*mask_type*/) {
  return torchlet::native_multi_head_attention(query, key, value, embed_dim, num_head, qkv_weight, qkv_bias,
                                               proj_weight, proj_bias, mask, need_weights, average_attn_weights);
}

Tensor transformer_encoder_layer_fwd(const Tensor& src, int64_t embed_dim, int64_t num_heads, const Tensor& qkv_weight,
                                     const Tensor& qkv_bias, const Tensor& proj_weight, const Tensor& proj_bias,
                                     bool use_gelu, bool norm_first, double eps, const Tensor& norm_weight_1,
                                     const Tensor& norm_bias_1, const Tensor& norm_weight_2, const Tensor& norm_bias_2,
                                     const Tensor& ffn_weight_1, const Tensor& ffn_bias_1, const Tensor& ffn_weight_2,
                                     const Tensor& ffn_bias_2, const std::optional<Tensor>& mask,
                                     std::optional<int64_t> /*mask_type*/) {
  return torchlet::transformer_encoder_layer_fwd(src, embed_dim, num_heads, qkv_weight, qkv_bias, proj_weight,
                                                 proj_bias, use_gelu, norm_first, eps, norm_weight_1, norm_bias_1,
                                                 norm_weight_2, norm_bias_2, ffn_weight_1, ffn_bias_1, ffn_weight_2,
                                                 ffn_bias_2, mask);
}

static RegisterOps reg({
    {"aten::_transformer_encoder_layer_fwd(Tensor src, int embed_dim, int num_heads, Tensor qkv_weight, Tensor qkv_bias, Tensor proj_weight, Tensor proj_bias, bool use_gelu, bool norm_first, float eps, Tensor norm_weight_1, Tensor norm_bias_1, Tensor norm_weight_2, Tensor norm_bias_2, Tensor ffn_weight_1, Tensor ffn_bias_1, Tensor ffn_weight_2, Tensor ffn_bias_2, Tensor? mask=None, int? mask_type=None) -> Tensor", boxed<&transformer_encoder_layer_fwd>},
    {"aten::_transformer_encoder_layer_fwd.out(Tensor src, int embed_dim, int num_heads, Tensor qkv_weight, Tensor qkv_bias, Tensor proj_weight, Tensor proj_bias, bool use_gelu, bool norm_first, float eps, Tensor norm_weight_1, Tensor norm_bias_1, Tensor norm_weight_2, Tensor norm_bias_2, Tensor ffn_weight_1, Tensor ffn_bias_1, Tensor ffn_weight_2, Tensor ffn_bias_2, Tensor? mask=None, int? mask_type=None, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::_transformer_encoder_layer_fwd", 1, any_dtype>},
    {"aten::_native_multi_head_attention(Tensor query, Tensor key, Tensor value, int embed_dim, int num_head, Tensor qkv_weight, Tensor qkv_bias, Tensor proj_weight, Tensor proj_bias, Tensor? mask=None, bool need_weights=True, bool average_attn_weights=True, int? mask_type=None) -> (Tensor, Tensor)", boxed<&native_multi_head_attention>},
});

}  // namespace
}  // namespace torchlet::jit::ops

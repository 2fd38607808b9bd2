// Neural-network layers: activations, convolution, padding, pooling, normalisation,
// dropout, embeddings, recurrent layers, attention, interpolation, fold, shuffles,
// grid sampling and distances.
// Part of ops.h, the numeric operators on Tensor.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include <torchlet/tensor.h>

namespace torchlet {

class Generator;  // torch's CPU generator (random.h)

// activation.cpp: the rest of torch.nn.functional's activations. relu6, softsign,
// tanhshrink and threshold take what torch's compositions take (threshold keeps
// integer dtypes; its bounds convert to the input's type first).
Tensor relu6(const Tensor& self);
Tensor selu(const Tensor& self);
Tensor celu(const Tensor& self, const Scalar& alpha = 1.0);
Tensor mish(const Tensor& self);
Tensor softsign(const Tensor& self);
Tensor softshrink(const Tensor& self, const Scalar& lambd = 0.5);
Tensor hardshrink(const Tensor& self, const Scalar& lambd = 0.5);
Tensor tanhshrink(const Tensor& self);
Tensor threshold(const Tensor& self, const Scalar& threshold, const Scalar& value);
Tensor log_sigmoid(const Tensor& self);
// First half of `dim` times the sigmoid of the second half.
Tensor glu(const Tensor& self, int64_t dim = -1);
// weight has 1 element or one per channel (dim 1).
Tensor prelu(const Tensor& self, const Tensor& weight);
// F.rrelu: in training, each element <= 0 times a slope drawn uniformly from [lower,
// upper] with torch's generator (float, double, bfloat16; random.cpp); otherwise
// leaky_relu with their mean.
Tensor rrelu(const Tensor& self, const Scalar& lower = 1.0 / 8, const Scalar& upper = 1.0 / 3,
             bool training = false, Generator* gen = nullptr);
// softmax(-self), as F.softmin.
Tensor softmin(const Tensor& self, int64_t dim, std::optional<DType> dtype = std::nullopt);
// F.normalize: self / max(||self||_p over dim, eps).
Tensor normalize(const Tensor& self, double p = 2.0, int64_t dim = 1, double eps = 1e-12);
// clamp keeps self's dtype for Scalar bounds; at least one bound is required.
Tensor clamp(const Tensor& self, const std::optional<Scalar>& min,
             const std::optional<Scalar>& max = std::nullopt);
Tensor& clamp_(Tensor& self, const std::optional<Scalar>& min,
               const std::optional<Scalar>& max = std::nullopt);


// --- neural network --------------------------------------------------------------------
Tensor conv1d(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias,
              IntList stride = {1}, IntList padding = {0}, IntList dilation = {1}, int64_t groups = 1);
Tensor conv2d(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias,
              IntList stride = {1}, IntList padding = {0}, IntList dilation = {1}, int64_t groups = 1);
Tensor conv3d(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias,
              IntList stride = {1}, IntList padding = {0}, IntList dilation = {1}, int64_t groups = 1);
// aten::conv2d.padding: padding "same" or "valid" (its own name, since a braced list
// would make an overload of conv2d ambiguous).
Tensor conv2d_padding(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias,
                      IntList stride, std::string_view padding, IntList dilation = {1}, int64_t groups = 1);
// aten::conv1d.padding / conv3d.padding: "same" pads d * (k - 1) per spatial dim, the odd
// element on the right, as torch does (stride 1 only).
Tensor conv1d_padding(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias,
                      IntList stride, std::string_view padding, IntList dilation = {1}, int64_t groups = 1);
Tensor conv3d_padding(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias,
                      IntList stride, std::string_view padding, IntList dilation = {1}, int64_t groups = 1);
// aten::convolution (what aten::_convolution and traced modules call): 1-, 2- or 3-d by
// the weight's rank; transposed only in 2-d.
Tensor convolution(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias, IntList stride,
                   IntList padding, IntList dilation, bool transposed, IntList output_padding, int64_t groups);
Tensor conv_transpose2d(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias,
                        IntList stride = {1}, IntList padding = {0}, IntList output_padding = {0},
                        int64_t groups = 1, IntList dilation = {1});
Tensor conv_transpose1d(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias,
                        IntList stride = {1}, IntList padding = {0}, IntList output_padding = {0},
                        int64_t groups = 1, IntList dilation = {1});
Tensor conv_transpose3d(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias,
                        IntList stride = {1}, IntList padding = {0}, IntList output_padding = {0},
                        int64_t groups = 1, IntList dilation = {1});
// torch.nn.functional.pad: mode "constant" (any number of dims, negative pads crop;
// value defaults to 0), "reflect", "replicate" or "circular" (the last 1-3 dims of
// a batched or unbatched input). `pad` lists (left, right) pairs from the last dim.
Tensor pad(const Tensor& self, IntList pad, std::string_view mode = "constant",
           std::optional<double> value = std::nullopt);
Tensor max_pool2d(const Tensor& self, IntList kernel_size, IntList stride = {}, IntList padding = {0},
                  IntList dilation = {1}, bool ceil_mode = false);
Tensor avg_pool2d(const Tensor& self, IntList kernel_size, IntList stride = {}, IntList padding = {0},
                  bool ceil_mode = false, bool count_include_pad = true,
                  std::optional<int64_t> divisor_override = std::nullopt);
Tensor adaptive_avg_pool2d(const Tensor& self, IntList output_size);
std::tuple<Tensor, Tensor> adaptive_max_pool2d(const Tensor& self, IntList output_size);
// 1-d and 3-d pooling (pool.cpp); stride {} means the kernel size, as in torch.
Tensor max_pool1d(const Tensor& self, IntList kernel_size, IntList stride = {}, IntList padding = {0},
                  IntList dilation = {1}, bool ceil_mode = false);
Tensor max_pool3d(const Tensor& self, IntList kernel_size, IntList stride = {}, IntList padding = {0},
                  IntList dilation = {1}, bool ceil_mode = false);
// (values, indices): each index is the flat position of the maximum within its
// input plane (W, H*W or T*H*W elements), as torch's return_indices gives it.
std::tuple<Tensor, Tensor> max_pool1d_with_indices(const Tensor& self, IntList kernel_size, IntList stride = {},
                                                   IntList padding = {0}, IntList dilation = {1},
                                                   bool ceil_mode = false);
std::tuple<Tensor, Tensor> max_pool2d_with_indices(const Tensor& self, IntList kernel_size, IntList stride = {},
                                                   IntList padding = {0}, IntList dilation = {1},
                                                   bool ceil_mode = false);
std::tuple<Tensor, Tensor> max_pool3d_with_indices(const Tensor& self, IntList kernel_size, IntList stride = {},
                                                   IntList padding = {0}, IntList dilation = {1},
                                                   bool ceil_mode = false);
Tensor avg_pool1d(const Tensor& self, IntList kernel_size, IntList stride = {}, IntList padding = {0},
                  bool ceil_mode = false, bool count_include_pad = true);
Tensor avg_pool3d(const Tensor& self, IntList kernel_size, IntList stride = {}, IntList padding = {0},
                  bool ceil_mode = false, bool count_include_pad = true,
                  std::optional<int64_t> divisor_override = std::nullopt);
Tensor adaptive_avg_pool1d(const Tensor& self, IntList output_size);
Tensor adaptive_avg_pool3d(const Tensor& self, IntList output_size);
std::tuple<Tensor, Tensor> adaptive_max_pool1d(const Tensor& self, IntList output_size);
std::tuple<Tensor, Tensor> adaptive_max_pool3d(const Tensor& self, IntList output_size);
// nn.MaxUnpool2d / 3d: each value written at the flat position its int64 index names
// within its output plane (output_size: the last 2 or 3 dims), zeros elsewhere; a later
// value for the same position wins.
Tensor max_unpool2d(const Tensor& self, const Tensor& indices, IntList output_size);
Tensor max_unpool3d(const Tensor& self, const Tensor& indices, IntList output_size, IntList stride, IntList padding);
// Eval: normalises with the running statistics. Training: with the input's per-channel
// statistics, and moves the running ones (when given) by momentum, in place, as torch.
Tensor batch_norm(const Tensor& input, const std::optional<Tensor>& weight,
                  const std::optional<Tensor>& bias, const std::optional<Tensor>& running_mean,
                  const std::optional<Tensor>& running_var, bool training, double momentum, double eps);
// batch_norm, and in training the batch's mean and 1 / sqrt(var + eps) per channel
// (empty tensors in eval, as torch's CPU kernel returns).
std::tuple<Tensor, Tensor, Tensor> native_batch_norm(const Tensor& input, const std::optional<Tensor>& weight,
                                                     const std::optional<Tensor>& bias,
                                                     const std::optional<Tensor>& running_mean,
                                                     const std::optional<Tensor>& running_var, bool training,
                                                     double momentum, double eps);
Tensor layer_norm(const Tensor& input, IntList normalized_shape, const std::optional<Tensor>& weight,
                  const std::optional<Tensor>& bias, double eps = 1e-5);
Tensor group_norm(const Tensor& input, int64_t num_groups, const std::optional<Tensor>& weight,
                  const std::optional<Tensor>& bias, double eps = 1e-5);
// The native forms (instance_norm.cpp) also return the mean and 1 / sqrt(var + eps): over the
// normalised dims kept as size 1 (layer norm), or per [N, group] of the input viewed as
// [N, C, HxW] by the arguments (group norm, with torch's checks of that view).
std::tuple<Tensor, Tensor, Tensor> native_layer_norm(const Tensor& input, IntList normalized_shape,
                                                     const std::optional<Tensor>& weight,
                                                     const std::optional<Tensor>& bias, double eps);
std::tuple<Tensor, Tensor, Tensor> native_group_norm(const Tensor& input, const std::optional<Tensor>& weight,
                                                     const std::optional<Tensor>& bias, int64_t n, int64_t c,
                                                     int64_t hxw, int64_t group, double eps);
// aten::instance_norm: per-(sample, channel) statistics when use_input_stats, else
// the running ones (batch_norm in eval).
Tensor instance_norm(const Tensor& input, const std::optional<Tensor>& weight, const std::optional<Tensor>& bias,
                     const std::optional<Tensor>& running_mean, const std::optional<Tensor>& running_var,
                     bool use_input_stats, double momentum = 0.1, double eps = 1e-5, bool cudnn_enabled = false);
Tensor softmax(const Tensor& self, int64_t dim, std::optional<DType> dtype = std::nullopt);
Tensor log_softmax(const Tensor& self, int64_t dim, std::optional<DType> dtype = std::nullopt);
// torch's dropout family: in training, a mask drawn from the default generator
// (manual_seed gives torch's mask), per element or (feature_*) per sample and channel;
// the alpha forms keep SELU's mean and variance. Not training, or p = 0: the input.
Tensor dropout(const Tensor& input, double p, bool train);
Tensor feature_dropout(const Tensor& input, double p, bool train);
Tensor alpha_dropout(const Tensor& input, double p, bool train);
Tensor feature_alpha_dropout(const Tensor& input, double p, bool train);
Tensor embedding(const Tensor& weight, const Tensor& indices, int64_t padding_idx = -1);
// F.embedding_bag's result (aten::embedding_bag's first output): mode 0 sum, 1 mean,
// 2 max over each bag of `indices` (1-D with `offsets`, or 2-D fixed-length bags);
// per_sample_weights scale rows (sum only); empty bags give zeros; rows equal to
// padding_idx are skipped (and not counted by mean).
Tensor embedding_bag(const Tensor& weight, const Tensor& indices, const std::optional<Tensor>& offsets,
                     int64_t mode = 0, const std::optional<Tensor>& per_sample_weights = std::nullopt,
                     bool include_last_offset = false, std::optional<int64_t> padding_idx = std::nullopt);
// F.one_hot of int64 class indices: int64, one more dim of num_classes (-1: the largest
// index + 1).
Tensor one_hot(const Tensor& self, int64_t num_classes = -1);
// recurrent.cpp: nn.LSTM / nn.GRU / nn.RNN (tanh or relu) over a 3-D input, in torch's
// flat parameter order (per layer and direction: w_ih, w_hh, then b_ih, b_hh when
// has_biases, then the LSTM's w_hr when it has projections); hx is (h0, c0) for the
// LSTM, h0 otherwise. Results: the output, then the final states stacked per layer and
// direction. Dropout between layers draws from the default generator, in training only.
std::tuple<Tensor, Tensor, Tensor> lstm(const Tensor& input, const std::vector<Tensor>& hx,
                                        const std::vector<Tensor>& params, bool has_biases, int64_t num_layers,
                                        double dropout, bool train, bool bidirectional, bool batch_first);
std::tuple<Tensor, Tensor> gru(const Tensor& input, const Tensor& hx, const std::vector<Tensor>& params,
                               bool has_biases, int64_t num_layers, double dropout, bool train, bool bidirectional,
                               bool batch_first);
std::tuple<Tensor, Tensor> rnn_tanh(const Tensor& input, const Tensor& hx, const std::vector<Tensor>& params,
                                    bool has_biases, int64_t num_layers, double dropout, bool train,
                                    bool bidirectional, bool batch_first);
std::tuple<Tensor, Tensor> rnn_relu(const Tensor& input, const Tensor& hx, const std::vector<Tensor>& params,
                                    bool has_biases, int64_t num_layers, double dropout, bool train,
                                    bool bidirectional, bool batch_first);
// attention.cpp: nn.MultiheadAttention's and nn.TransformerEncoderLayer's fused eval
// paths on batch-first (B, L, E) input, with torch's packed qkv projection. The mask is
// boolean (True masks a key) or additive; a 2-d mask is a (B, S) key padding mask.
// The attention weights come back only when need_weights (averaged over heads when
// average_attn_weights).
std::pair<Tensor, std::optional<Tensor>> native_multi_head_attention(
    const Tensor& query, const Tensor& key, const Tensor& value, int64_t embed_dim, int64_t num_head,
    const Tensor& qkv_weight, const Tensor& qkv_bias, const Tensor& proj_weight, const Tensor& proj_bias,
    const std::optional<Tensor>& mask = std::nullopt, bool need_weights = true, bool average_attn_weights = true);
Tensor transformer_encoder_layer_fwd(const Tensor& src, int64_t embed_dim, int64_t num_heads, const Tensor& qkv_weight,
                                     const Tensor& qkv_bias, const Tensor& proj_weight, const Tensor& proj_bias,
                                     bool use_gelu, bool norm_first, double eps, const Tensor& norm_weight_1,
                                     const Tensor& norm_bias_1, const Tensor& norm_weight_2, const Tensor& norm_bias_2,
                                     const Tensor& ffn_weight_1, const Tensor& ffn_bias_1, const Tensor& ffn_weight_2,
                                     const Tensor& ffn_bias_2, const std::optional<Tensor>& mask = std::nullopt);
// aten::upsample_nearest2d / upsample_bilinear2d on NCHW input.
Tensor upsample_nearest2d(const Tensor& self, IntList output_size);
Tensor upsample_bilinear2d(const Tensor& self, IntList output_size, bool align_corners);

// interp.cpp: `scales` are torch's optional scale factors (used, when positive, for
// the source positions instead of in/out, as interpolate(scale_factor=) passes them).
Tensor upsample_nearest1d(const Tensor& self, IntList output_size, std::optional<double> scales = std::nullopt);
Tensor upsample_nearest3d(const Tensor& self, IntList output_size, std::optional<double> scales_d = std::nullopt,
                          std::optional<double> scales_h = std::nullopt, std::optional<double> scales_w = std::nullopt);
// interpolate(mode="nearest-exact"): the source pixel is the one under the output
// pixel's centre; 1 to 3 spatial dims (output_size's length), their scales in order.
Tensor upsample_nearest_exact(const Tensor& self, IntList output_size, std::array<std::optional<double>, 3> scales = {});
Tensor upsample_linear1d(const Tensor& self, IntList output_size, bool align_corners,
                         std::optional<double> scales = std::nullopt);
Tensor upsample_trilinear3d(const Tensor& self, IntList output_size, bool align_corners,
                            std::optional<double> scales_d = std::nullopt, std::optional<double> scales_h = std::nullopt,
                            std::optional<double> scales_w = std::nullopt);
// Cubic convolution with torch's coefficient A = -0.75; taps clamp at the borders.
Tensor upsample_bicubic2d(const Tensor& self, IntList output_size, bool align_corners,
                          std::optional<double> scales_h = std::nullopt, std::optional<double> scales_w = std::nullopt);
// interpolate(antialias=True): PIL-style resampling, every input pixel under the output
// pixel's (downscaled) footprint weighted by a triangle or a Keys a = -0.5 cubic filter.
Tensor upsample_bilinear2d_aa(const Tensor& self, IntList output_size, bool align_corners,
                              std::optional<double> scales_h = std::nullopt, std::optional<double> scales_w = std::nullopt);
Tensor upsample_bicubic2d_aa(const Tensor& self, IntList output_size, bool align_corners,
                             std::optional<double> scales_h = std::nullopt, std::optional<double> scales_w = std::nullopt);

// fold.cpp: F.unfold / F.fold. im2col turns (N,) C, H, W into (N,) C*kh*kw, L columns,
// one per sliding block (zeros where the block reaches into the padding); col2im sums
// such columns back into (N,) C, out_h, out_w, in torch's order. Each list has 2 entries.
Tensor im2col(const Tensor& self, IntList kernel_size, IntList dilation, IntList padding, IntList stride);
Tensor col2im(const Tensor& self, IntList output_size, IntList kernel_size, IntList dilation, IntList padding,
              IntList stride);
// shuffle.cpp: nn.PixelShuffle / PixelUnshuffle (C*r*r, H, W <-> C, H*r, W*r over the last
// three dims) and nn.ChannelShuffle (dim 1 regrouped as [C / groups, groups]).
Tensor pixel_shuffle(const Tensor& self, int64_t upscale_factor);
Tensor pixel_unshuffle(const Tensor& self, int64_t downscale_factor);
Tensor channel_shuffle(const Tensor& self, int64_t groups);

// grid_sample.cpp: F.affine_grid's generator (size [N, C, H, W] or [N, C, D, H, W]; theta
// N x 2 x 3 or N x 3 x 4) and F.grid_sample on 4-D and 5-D input: interpolation 0 bilinear
// (trilinear in 5-D), 1 nearest, 2 bicubic (4-D only); padding 0 zeros, 1 border,
// 2 reflection.
Tensor affine_grid_generator(const Tensor& theta, IntList size, bool align_corners);
Tensor grid_sampler_2d(const Tensor& input, const Tensor& grid, int64_t interpolation, int64_t padding,
                       bool align_corners);
Tensor grid_sampler_3d(const Tensor& input, const Tensor& grid, int64_t interpolation, int64_t padding,
                       bool align_corners);

// distance.cpp: torch.pdist (the p-norm distance of every row pair i < j of a 2-D float
// or double matrix, row-major; pdist_forward is aten::_pdist_forward, which takes a
// contiguous input and skips pdist's argument checks), torch.cdist (rows of x1 against
// rows of x2, batched; compute_mode as torch's: None/0 uses a matrix product for p = 2
// past 25 rows, 1 always, 2 never), F.cosine_similarity, F.pairwise_distance (the
// p-norm of x1 - x2 + eps over the last dim) and torch.dist.
Tensor pdist(const Tensor& self, double p = 2);
Tensor pdist_forward(const Tensor& self, double p = 2);
Tensor cdist(const Tensor& x1, const Tensor& x2, double p = 2, std::optional<int64_t> compute_mode = std::nullopt);
Tensor cosine_similarity(const Tensor& x1, const Tensor& x2, int64_t dim = 1, double eps = 1e-8);
Tensor pairwise_distance(const Tensor& x1, const Tensor& x2, double p = 2, double eps = 1e-6, bool keepdim = false);
Tensor dist(const Tensor& self, const Tensor& other, const Scalar& p = 2);

}  // namespace torchlet

// The numeric operators on Tensor: typed C++ functions whose signatures follow their
// aten:: schemas (add(self, other, alpha), conv2d(input, weight, bias, stride, ...)),
// implemented in src/tensor/kernels/. They know nothing of IValues or the interpreter;
// src/jit/ops binds schemas to them. Errors name the operator as torch does.
#pragma once

#include <array>
#include <cstdint>
#include <mutex>
#include <optional>
#include <random>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include <torchlet/tensor.h>

namespace torchlet {

class Generator;  // torch's CPU generator (random sampling, below)

// --- binary elementwise ------------------------------------------------------------
// One row per binary operator without extra arguments (STYLE #4):
//   _(function name, category)
// Arith: result_type(self, other); Compare: computes in result_type, returns bool;
// Logical: returns bool, any input dtype; Bitwise: integral and bool only.
// Each row declares name(Tensor, Tensor), name(Tensor, Scalar) with torch's
// wrapped-number promotion, name_(Tensor&, ...) in place and name_out(out, ...).
#define TL_BINARY_OPS(_)                                              \
  _(mul, Arith)                 /* bool: logical and */               \
  _(floor_divide, Arith)        /* rounds toward -inf (torch >= 1.13) */ \
  _(remainder, Arith)           /* sign of the divisor, as Python % */ \
  _(fmod, Arith)                /* sign of the dividend, as C fmod */ \
  _(pow, Arith)                 /* integer powers exact */            \
  _(maximum, Arith)             /* NaN propagates */                  \
  _(minimum, Arith)             /* NaN propagates */                  \
  _(fmax, Arith)                /* NaN ignored, as C fmax */          \
  _(fmin, Arith)                /* NaN ignored, as C fmin */          \
  _(eq, Compare)                                                      \
  _(ne, Compare)                                                      \
  _(lt, Compare)                                                      \
  _(le, Compare)                                                      \
  _(gt, Compare)                                                      \
  _(ge, Compare)                                                      \
  _(logical_and, Logical)                                             \
  _(logical_or, Logical)                                              \
  _(logical_xor, Logical)                                             \
  _(bitwise_and, Bitwise)                                             \
  _(bitwise_or, Bitwise)                                              \
  _(bitwise_xor, Bitwise)                                             \
  _(bitwise_left_shift, Bitwise)                                      \
  _(bitwise_right_shift, Bitwise)                                     \
  _(gcd, Bitwise)               /* integers only, as torch's kernel */ \
  _(lcm, Bitwise)

#define TL_DECLARE_BINARY(name, category)                               \
  Tensor name(const Tensor& self, const Tensor& other);                 \
  Tensor name(const Tensor& self, const Scalar& other);                 \
  Tensor& name##_(Tensor& self, const Tensor& other);                   \
  Tensor& name##_(Tensor& self, const Scalar& other);                   \
  Tensor& name##_out(Tensor& out, const Tensor& self, const Tensor& other);
TL_BINARY_OPS(TL_DECLARE_BINARY)
#undef TL_DECLARE_BINARY

// self + alpha * other; alpha must be integral for integral results, bool only for bool.
Tensor add(const Tensor& self, const Tensor& other, const Scalar& alpha = 1);
Tensor add(const Tensor& self, const Scalar& other, const Scalar& alpha = 1);
Tensor& add_(Tensor& self, const Tensor& other, const Scalar& alpha = 1);
Tensor& add_(Tensor& self, const Scalar& other, const Scalar& alpha = 1);
Tensor& add_out(Tensor& out, const Tensor& self, const Tensor& other, const Scalar& alpha = 1);
Tensor sub(const Tensor& self, const Tensor& other, const Scalar& alpha = 1);
Tensor sub(const Tensor& self, const Scalar& other, const Scalar& alpha = 1);
Tensor& sub_(Tensor& self, const Tensor& other, const Scalar& alpha = 1);
Tensor& sub_(Tensor& self, const Scalar& other, const Scalar& alpha = 1);
Tensor& sub_out(Tensor& out, const Tensor& self, const Tensor& other, const Scalar& alpha = 1);
// aten::rsub: other - alpha * self.
Tensor rsub(const Tensor& self, const Tensor& other, const Scalar& alpha = 1);
Tensor rsub(const Tensor& self, const Scalar& other, const Scalar& alpha = 1);

// True division (integers give float32) or rounding_mode "trunc" / "floor".
Tensor div(const Tensor& self, const Tensor& other,
           std::optional<std::string_view> rounding_mode = std::nullopt);
Tensor div(const Tensor& self, const Scalar& other,
           std::optional<std::string_view> rounding_mode = std::nullopt);
Tensor& div_(Tensor& self, const Tensor& other,
             std::optional<std::string_view> rounding_mode = std::nullopt);
Tensor& div_(Tensor& self, const Scalar& other,
             std::optional<std::string_view> rounding_mode = std::nullopt);
Tensor& div_out(Tensor& out, const Tensor& self, const Tensor& other,
                std::optional<std::string_view> rounding_mode = std::nullopt);
// aten::pow.Scalar: a Python number raised to a tensor.
Tensor pow(const Scalar& self, const Tensor& exponent);

// aten::where.self: condition ? self : other, all three broadcast.
Tensor where(const Tensor& condition, const Tensor& self, const Tensor& other);
Tensor where(const Tensor& condition, const Scalar& self, const Tensor& other);
Tensor where(const Tensor& condition, const Tensor& self, const Scalar& other);

// --- unary elementwise ---------------------------------------------------------------
//   _(function name, category)
// IntToFloat: integral and bool inputs give float32 (torch's int->float promotion);
// FloatOnly: floating inputs only; Real: every real dtype, result keeps it;
// Integral: integral and bool only; ToBool: any input, bool result. The last two
// columns say whether torch 1.13's CPU kernel exists for float16 and for bool (it
// refuses the others with "not implemented for 'Half'", and torchlet does the same).
#define TL_UNARY_OPS(_)                            \
  _(neg, Real, true, true)                    \
  _(abs, Real, true, false)                   \
  _(sign, Real, true, true)                   \
  _(floor, Real, false, false)                \
  _(ceil, Real, false, false)                 \
  _(round, Real, false, false)                \
  _(trunc, Real, false, false)                \
  _(relu, Real, false, false)                 \
  _(exp, IntToFloat, false, true)             \
  _(expm1, IntToFloat, false, true)           \
  _(log, IntToFloat, false, true)             \
  _(log1p, IntToFloat, false, true)           \
  _(log2, IntToFloat, false, true)            \
  _(log10, IntToFloat, false, true)           \
  _(sqrt, IntToFloat, false, true)            \
  _(rsqrt, IntToFloat, false, true)           \
  _(sin, IntToFloat, false, true)             \
  _(cos, IntToFloat, false, true)             \
  _(tan, IntToFloat, false, true)             \
  _(asin, IntToFloat, false, true)            \
  _(acos, IntToFloat, false, true)            \
  _(atan, IntToFloat, false, true)            \
  _(sinh, IntToFloat, false, true)            \
  _(cosh, IntToFloat, false, true)            \
  _(tanh, IntToFloat, false, true)            \
  _(sigmoid, IntToFloat, false, true)         \
  _(erf, IntToFloat, false, true)             \
  _(erfc, IntToFloat, false, true)            \
  _(erfinv, IntToFloat, false, true)          \
  _(acosh, IntToFloat, false, true)           \
  _(asinh, IntToFloat, false, true)           \
  _(atanh, IntToFloat, false, true)           \
  _(lgamma, IntToFloat, false, true)          \
  _(digamma, IntToFloat, false, true)         \
  _(sinc, IntToFloat, false, true)            \
  _(reciprocal, IntToFloat, true, true)       \
  _(silu, FloatOnly, false, true)             \
  _(hardswish, FloatOnly, false, true)        \
  _(hardsigmoid, FloatOnly, false, true)      \
  _(logical_not, ToBool, true, true)          \
  _(signbit, ToBool, true, true)              \
  _(bitwise_not, Integral, true, true)

#define TL_DECLARE_UNARY(name, category, half, boolean) \
  Tensor name(const Tensor& self);       \
  Tensor& name##_(Tensor& self);         \
  Tensor& name##_out(Tensor& out, const Tensor& self);
TL_UNARY_OPS(TL_DECLARE_UNARY)
#undef TL_DECLARE_UNARY

// Activations with arguments (floating inputs only, as in torch.nn.functional).
Tensor gelu(const Tensor& self, std::string_view approximate = "none");  // "none" | "tanh"
Tensor leaky_relu(const Tensor& self, const Scalar& negative_slope = 0.01);
Tensor elu(const Tensor& self, const Scalar& alpha = 1, const Scalar& scale = 1,
           const Scalar& input_scale = 1);
Tensor softplus(const Tensor& self, const Scalar& beta = 1, const Scalar& threshold = 20);
Tensor hardtanh(const Tensor& self, const Scalar& min_val = -1, const Scalar& max_val = 1);
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

// --- reductions ------------------------------------------------------------------
// `dim` empty means every dimension (torch's dim=None / dim=[]).
Tensor sum(const Tensor& self, IntList dim = {}, bool keepdim = false,
           std::optional<DType> dtype = std::nullopt);
Tensor mean(const Tensor& self, IntList dim = {}, bool keepdim = false,
            std::optional<DType> dtype = std::nullopt);
Tensor prod(const Tensor& self, std::optional<int64_t> dim = std::nullopt, bool keepdim = false,
            std::optional<DType> dtype = std::nullopt);
Tensor amax(const Tensor& self, IntList dim = {}, bool keepdim = false);
Tensor amin(const Tensor& self, IntList dim = {}, bool keepdim = false);
Tensor max(const Tensor& self);  // every element
Tensor min(const Tensor& self);
// aten::max.dim: (values, indices); the index of the first extreme (NaN counts as max).
std::tuple<Tensor, Tensor> max(const Tensor& self, int64_t dim, bool keepdim = false);
std::tuple<Tensor, Tensor> min(const Tensor& self, int64_t dim, bool keepdim = false);
Tensor argmax(const Tensor& self, std::optional<int64_t> dim = std::nullopt, bool keepdim = false);
Tensor argmin(const Tensor& self, std::optional<int64_t> dim = std::nullopt, bool keepdim = false);
// bool result (uint8 stays uint8, as in torch 1.13).
Tensor all(const Tensor& self, std::optional<int64_t> dim = std::nullopt, bool keepdim = false);
Tensor any(const Tensor& self, std::optional<int64_t> dim = std::nullopt, bool keepdim = false);
Tensor var(const Tensor& self, IntList dim = {}, int64_t correction = 1, bool keepdim = false);
Tensor std(const Tensor& self, IntList dim = {}, int64_t correction = 1, bool keepdim = false);
// torch.linalg.vector_norm: ord 2, 1, inf, -inf or any other p; `dtype` (floating, not
// narrower than self's) is the type computed in and returned.
Tensor norm(const Tensor& self, double p = 2, IntList dim = {}, bool keepdim = false,
            std::optional<DType> dtype = std::nullopt);
Tensor logsumexp(const Tensor& self, IntList dim, bool keepdim = false);
// torch.histc: counts of the elements in `bins` equal bins over [min, max] (the data's
// own range when min == max), in the input's dtype; elements outside are not counted.
Tensor histc(const Tensor& self, int64_t bins = 100, const Scalar& min = 0, const Scalar& max = 0);
Tensor cumsum(const Tensor& self, int64_t dim, std::optional<DType> dtype = std::nullopt);
Tensor cumprod(const Tensor& self, int64_t dim, std::optional<DType> dtype = std::nullopt);

// --- linear algebra (oneDNN for float32) -------------------------------------------
Tensor mm(const Tensor& self, const Tensor& mat2);
Tensor bmm(const Tensor& self, const Tensor& mat2);
// torch.dot of two vectors: products added in order in the element type (each product
// and sum rounded, as BLAS sdot/ddot and c10::BFloat16 do; integers wrapping), so the
// result is torch's.
Tensor dot(const Tensor& self, const Tensor& other);
// torch.matmul: 1-d dot, matrix-vector, batched with broadcast batch dimensions.
Tensor matmul(const Tensor& self, const Tensor& other);
// beta * self + alpha * (mat1 @ mat2)
Tensor addmm(const Tensor& self, const Tensor& mat1, const Tensor& mat2, const Scalar& beta = 1,
             const Scalar& alpha = 1);
// torch.linalg.matrix_power: A^n for square batches by repeated squaring (n < 0 inverts
// first), as torch orders the products.
Tensor matrix_power(const Tensor& a, int64_t n);
// torch.linalg.matrix_exp: e^A for square float/double batches, by torch's Taylor
// degrees with scaling and squaring (Note [matrix_exp] in linalg.cpp).
Tensor matrix_exp(const Tensor& a);
// torch.linalg.multi_dot: the product of a chain of matrices (first and last may be
// vectors) in the order that needs the fewest multiplications, torch's order.
Tensor multi_dot(const std::vector<Tensor>& tensors);
// torch.linalg.vecdot: the dot products of x and y along `dim`, broadcast.
Tensor vecdot(const Tensor& x, const Tensor& y, int64_t dim = -1);
// torch.linalg.vander: powers x^0 .. x^(N-1) of every element along a new last dim
// (N defaults to x's last size); vander is the older torch.vander (1-D x, decreasing
// powers unless `increasing`, integers as int64), both through cumprod as torch's are.
Tensor linalg_vander(const Tensor& x, std::optional<int64_t> n = std::nullopt);
Tensor vander(const Tensor& x, std::optional<int64_t> n = std::nullopt, bool increasing = false);
// torch.einsum: letters and "...", implicit or explicit output; contracts left to
// right through bmm (einsum.cpp).
Tensor einsum(std::string_view equation, const std::vector<Tensor>& operands);
// input @ weight^T + bias
Tensor linear(const Tensor& input, const Tensor& weight,
              const std::optional<Tensor>& bias = std::nullopt);

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

// grid_sample.cpp: F.affine_grid's generator (size [N, C, H, W] or [N, C, D, H, W]; theta
// N x 2 x 3 or N x 3 x 4) and F.grid_sample on 4-D and 5-D input: interpolation 0 bilinear
// (trilinear in 5-D), 1 nearest, 2 bicubic (4-D only); padding 0 zeros, 1 border,
// 2 reflection.
Tensor affine_grid_generator(const Tensor& theta, IntList size, bool align_corners);
Tensor grid_sampler_2d(const Tensor& input, const Tensor& grid, int64_t interpolation, int64_t padding,
                       bool align_corners);
Tensor grid_sampler_3d(const Tensor& input, const Tensor& grid, int64_t interpolation, int64_t padding,
                       bool align_corners);

// lu.cpp: LU-based linear algebra on float32/float64 batches of matrices (*, m, n),
// through LAPACK as torch does, results torch's bit for bit. info holds LAPACK's getrf
// status per matrix (k > 0: U[k, k] is zero); the _ex forms return it where the others
// raise torch's "singular" errors. Results come back column-major, as torch's do.
struct LuFactors {
  Tensor LU, pivots, info;  // pivots: int32, 1-based (LAPACK's)
};
LuFactors lu_factor_ex(const Tensor& a, bool pivot = true, bool check_errors = false);
LuFactors lu_factor(const Tensor& a, bool pivot = true);
// torch.lu_unpack: A = P L U from lu_factor's result; L unit lower (m x k), U upper
// (k x n), P the permutation matrix of the row swaps `pivots` records (k = min(m, n)).
// Without unpack_data L and U are empty, without unpack_pivots P is. linalg_lu factors
// and unpacks in one go (torch.linalg.lu).
struct LuUnpacked {
  Tensor P, L, U;
};
LuUnpacked lu_unpack(const Tensor& lu, const Tensor& pivots, bool unpack_data = true, bool unpack_pivots = true);
LuUnpacked linalg_lu(const Tensor& a, bool pivot = true);
// Solves op(A) X = B (left) or X op(A) = B given A's factors; op transposes if adjoint.
Tensor lu_solve(const Tensor& lu, const Tensor& pivots, const Tensor& b, bool left = true, bool adjoint = false);
struct SolveResult {
  Tensor result;
  LuFactors factors;
};
SolveResult solve_ex(const Tensor& a, const Tensor& b, bool left = true, bool check_errors = false);
Tensor solve(const Tensor& a, const Tensor& b, bool left = true);
std::pair<Tensor, Tensor> inv_ex(const Tensor& a, bool check_errors = false);  // inverse, info
Tensor inverse(const Tensor& a);
// torch.linalg.tensorinv: the inverse of `a` read as the matrix (a.shape[ind:] x
// a.shape[:ind]), shaped a.shape[ind:] + a.shape[:ind]; tensorsolve solves a x = b with
// b's dims contracted against a's leading ones (after `dims` are moved to the end).
Tensor tensorinv(const Tensor& a, int64_t ind = 2);
Tensor tensorsolve(const Tensor& a, const Tensor& b, const std::optional<std::vector<int64_t>>& dims = std::nullopt);
struct DetResult {
  Tensor det;
  LuFactors factors;
};
DetResult det_with_factors(const Tensor& a);
Tensor det(const Tensor& a);
struct SlogdetResult {
  Tensor sign, logabsdet;
  LuFactors factors;
};
// `api` names the caller in refusals (linalg.slogdet or logdet).
SlogdetResult slogdet_with_factors(const Tensor& a, std::string_view api = "linalg.slogdet");
std::pair<Tensor, Tensor> slogdet(const Tensor& a);  // sign, logabsdet
Tensor logdet(const Tensor& a);

// cholesky.cpp: the Cholesky family, float32/float64 batches, LAPACK as torch calls it.
// cholesky_ex returns (factor, info); info k > 0: the leading minor of order k is not
// positive-definite. cholesky_legacy is torch.cholesky (deprecated in torch, kept for
// archives that call it): it names itself "cholesky" in errors.
std::pair<Tensor, Tensor> cholesky_ex(const Tensor& a, bool upper = false, bool check_errors = false);
// torch.linalg.ldl_factor(_ex): LAPACK sytrf's L D L^T of symmetric matrices (the lower
// triangle is read), with its int32 pivots (and info); ldl_solve solves with them,
// refusing pivots sytrf could not have made.
std::tuple<Tensor, Tensor, Tensor> ldl_factor_ex(const Tensor& a, bool hermitian = false, bool check_errors = false);
std::pair<Tensor, Tensor> ldl_factor(const Tensor& a, bool hermitian = false);
Tensor ldl_solve(const Tensor& factor, const Tensor& pivots, const Tensor& b, bool hermitian = false);
Tensor cholesky(const Tensor& a, bool upper = false);
Tensor cholesky_legacy(const Tensor& a, bool upper = false);
Tensor cholesky_solve(const Tensor& b, const Tensor& factor, bool upper = false);
Tensor cholesky_inverse(const Tensor& factor, bool upper = false);

// triangular.cpp: triangular solves through BLAS trsm, passed the layouts and flags torch
// passes, so solutions are torch's bit for bit. solve_triangular is
// torch.linalg.solve_triangular (A X = B, or X A = B with left false; batches broadcast;
// B is converted to A's dtype, as torch's out is made from A); triangular_solve is the
// older torch.triangular_solve(b, A, ...), returning the solution and a copy of A.
Tensor solve_triangular(const Tensor& a, const Tensor& b, bool upper, bool left = true, bool unitriangular = false);
std::pair<Tensor, Tensor> triangular_solve(const Tensor& b, const Tensor& a, bool upper = true, bool transpose = false,
                                           bool unitriangular = false);

// decompositions.cpp: eigh of symmetric float32/float64 batches (values ascending, real;
// vectors column-major; compute_vectors false returns an empty second tensor, as
// eigvalsh needs only values), and svd (U, S, Vh; compute_uv false leaves U and Vh
// empty). svd_legacy is torch.svd: V rather than Vh, zeros without compute_uv; qr is
// Householder QR (geqrf + orgqr).
std::pair<Tensor, Tensor> eigh(const Tensor& a, std::string_view uplo = "L", bool compute_vectors = true);
struct SvdResult {
  Tensor U, S, Vh;
};
SvdResult svd(const Tensor& a, bool full_matrices = true, bool compute_uv = true);
SvdResult svd_legacy(const Tensor& a, bool some = true, bool compute_uv = true);
// (Q, R) for mode "reduced", "complete" or "r" (Q empty), column-major as torch's.
std::pair<Tensor, Tensor> qr(const Tensor& a, std::string_view mode = "reduced");
// lstsq.cpp: torch.linalg.lstsq, the least squares solution of A X = B (B a matrix or,
// shaped as A.shape[:-1], a vector; batches broadcast) by LAPACK's gels, gelsy (the
// default), gelsd or gelss (`driver`, any case). rank is empty for gels, singular_values
// for gels and gelsy; residuals (squared, per column) only for tall A without gelsy,
// and with the SVD drivers only when every A has full column rank, as torch reports them.
struct LstsqResult {
  Tensor solution, residuals, rank, singular_values;
};
LstsqResult lstsq(const Tensor& a, const Tensor& b, std::optional<double> rcond = std::nullopt,
                  std::optional<std::string_view> driver = std::nullopt);
// QR's building blocks, as torch exposes them: geqrf is LAPACK's compact form (R on and
// above the diagonal, the Householder vectors below) and the reflectors' scales tau;
// householder_product (torch.orgqr) forms the first n columns of Q from them; ormqr
// multiplies `other` by Q (or Q^T) from the left or the right without forming Q.
std::pair<Tensor, Tensor> geqrf(const Tensor& a);
Tensor householder_product(const Tensor& a, const Tensor& tau);
Tensor ormqr(const Tensor& a, const Tensor& tau, const Tensor& other, bool left = true, bool transpose = false);

// spectral.cpp: what torch builds on the singular values (the eigenvalues' magnitudes
// when `hermitian`). Tolerances are float64 tensors broadcast over the batch (a value
// counts when above max(atol, rtol * largest); rtol defaults to eps * max(m, n), or 0
// with atol given). pinv is torch.linalg.pinv, matrix_rank torch.linalg.matrix_rank
// (int64), cond torch.linalg.cond (ord None, ±2 from singular values; ±1, ±inf, "fro",
// "nuc" from the norms of A and its inverse, inf where A is singular).
Tensor pinv(const Tensor& a, const std::optional<Tensor>& atol = std::nullopt,
            const std::optional<Tensor>& rtol = std::nullopt, bool hermitian = false);
Tensor matrix_rank(const Tensor& a, const std::optional<Tensor>& atol = std::nullopt,
                   const std::optional<Tensor>& rtol = std::nullopt, bool hermitian = false);
Tensor cond(const Tensor& a, const std::optional<Scalar>& ord = std::nullopt);
Tensor cond(const Tensor& a, std::string_view ord);

// matrix_norm.cpp: torch.linalg.matrix_norm over the matrices spanned by `dim`: ord 1,
// -1, inf, -inf through column/row sums, 2, -2 and "nuc" through singular values, "fro"
// a vector 2-norm. linalg_norm is torch.linalg.norm, which picks a vector or a matrix
// norm by ord and dim (std::nullopt: torch's None).
Tensor matrix_norm(const Tensor& a, double ord, IntList dim = {-2, -1}, bool keepdim = false,
                   std::optional<DType> dtype = std::nullopt);
Tensor matrix_norm(const Tensor& a, std::string_view ord = "fro", IntList dim = {-2, -1}, bool keepdim = false,
                   std::optional<DType> dtype = std::nullopt);
Tensor linalg_norm(const Tensor& a, std::optional<double> ord = std::nullopt,
                   std::optional<std::vector<int64_t>> dim = std::nullopt, bool keepdim = false,
                   std::optional<DType> dtype = std::nullopt);
Tensor linalg_norm(const Tensor& a, std::string_view ord, std::optional<std::vector<int64_t>> dim = std::nullopt,
                   bool keepdim = false, std::optional<DType> dtype = std::nullopt);
// The legacy torch.nuclear_norm: the sum of torch.svd's singular values over the two
// dims in `dim` (so its refusals are svd's).
Tensor nuclear_norm(const Tensor& a, IntList dim, bool keepdim = false);

// --- losses (loss.cpp) --------------------------------------------------------------
// `reduction` as aten numbers it (torch.nn._reduction): none, mean, sum.
inline constexpr int64_t kReductionNone = 0;
inline constexpr int64_t kReductionMean = 1;
inline constexpr int64_t kReductionSum = 2;
Tensor mse_loss(const Tensor& self, const Tensor& target, int64_t reduction = kReductionMean);
Tensor l1_loss(const Tensor& self, const Tensor& target, int64_t reduction = kReductionMean);
Tensor smooth_l1_loss(const Tensor& self, const Tensor& target, int64_t reduction = kReductionMean,
                      double beta = 1.0);
Tensor huber_loss(const Tensor& self, const Tensor& target, int64_t reduction = kReductionMean, double delta = 1.0);
// Input [C], [N, C] or [N, C, d...] of log-probabilities; int64 class targets.
Tensor nll_loss(const Tensor& self, const Tensor& target, const std::optional<Tensor>& weight = std::nullopt,
                int64_t reduction = kReductionMean, int64_t ignore_index = -100);
// Class-index (int64) or probability (floating, input-shaped) targets.
Tensor cross_entropy(const Tensor& self, const Tensor& target, const std::optional<Tensor>& weight = std::nullopt,
                     int64_t reduction = kReductionMean, int64_t ignore_index = -100, double label_smoothing = 0.0);
// torch.ctc_loss: log_probs [T, N, C] (or [T, C]); targets padded [N, S] or concatenated
// [sum of target_lengths], labels in [0, C) other than blank.
Tensor ctc_loss(const Tensor& log_probs, const Tensor& targets, IntList input_lengths, IntList target_lengths,
                int64_t blank = 0, int64_t reduction = kReductionMean, bool zero_infinity = false);
Tensor binary_cross_entropy(const Tensor& self, const Tensor& target,
                            const std::optional<Tensor>& weight = std::nullopt, int64_t reduction = kReductionMean);
Tensor binary_cross_entropy_with_logits(const Tensor& self, const Tensor& target,
                                        const std::optional<Tensor>& weight = std::nullopt,
                                        const std::optional<Tensor>& pos_weight = std::nullopt,
                                        int64_t reduction = kReductionMean);
// aten::kl_div: pointwise target * (log target - input) (or exp(t) * (t - input) with
// log_target); 'batchmean' is F.kl_div's sum divided by the batch size.
Tensor kl_div(const Tensor& self, const Tensor& target, int64_t reduction = kReductionMean, bool log_target = false);

// --- random sampling (random.cpp) ------------------------------------------------------
// torch's CPU generator: mt19937 seeded with the seed's low 32 bits, so
// manual_seed(s) followed by rand/randn/randint gives torch.manual_seed(s)'s values.
class Generator {
 public:
  static constexpr uint64_t kDefaultSeed = 67280421310721;  // torch's default_rng_seed_val
  explicit Generator(uint64_t seed = kDefaultSeed);
  void manual_seed(uint64_t seed);  // also drops the cached normal sample, as torch does
  uint64_t initial_seed() const { return seed_; }
  uint32_t random();    // one engine draw
  uint64_t random64();  // two draws, the first as the high word
  // Box-Muller's second sample, kept for the next normal draw (torch's
  // next_double_normal_sample); sampling kernels hold mutex_ for a whole fill.
  std::optional<double> next_double_normal_;
  std::mutex mutex_;

 private:
  // std::mt19937's parameters on 32-bit words (std::mt19937 stores 64-bit ones here,
  // which makes every draw slower; the sequence is the same).
  std::mersenne_twister_engine<uint32_t, 32, 624, 397, 31, 0x9908b0df, 11, 0xffffffff, 7, 0x9d2c5680, 15, 0xefc60000,
                               18, 1812433253>
      engine_;
  uint64_t seed_ = 0;
};
// The process-wide generator the functions below use when `gen` is null.
Generator& default_generator();
void manual_seed(uint64_t seed);
// In place, in torch's element order (storage order for strided views).
Tensor& uniform_(Tensor& self, double from = 0, double to = 1, Generator* gen = nullptr);
Tensor& normal_(Tensor& self, double mean = 0, double std = 1, Generator* gen = nullptr);
// 1 with probability p, else 0 (any real dtype).
Tensor& bernoulli_(Tensor& self, double p = 0.5, Generator* gen = nullptr);
// Integers uniform in [from, to); without `to`, up to the type's largest (2^digits for
// floating types).
Tensor& random_(Tensor& self, int64_t from, std::optional<int64_t> to, Generator* gen = nullptr);
// Without bounds: [0, max] for integers, [0, 2^mantissa digits] for floating types.
Tensor& random_(Tensor& self, Generator* gen = nullptr);
// Exponential(lambd), Cauchy(median, sigma), exp(Normal(mean, std)) and the number of
// Bernoulli(p) trials to the first success (any real dtype but bool; the others floating).
Tensor& exponential_(Tensor& self, double lambd = 1, Generator* gen = nullptr);
Tensor& cauchy_(Tensor& self, double median = 0, double sigma = 1, Generator* gen = nullptr);
Tensor& log_normal_(Tensor& self, double mean = 1, double std = 2, Generator* gen = nullptr);
Tensor& geometric_(Tensor& self, double p, Generator* gen = nullptr);
Tensor rand(IntList size, DType dtype = kDefaultFloatDType, Generator* gen = nullptr);
Tensor randn(IntList size, DType dtype = kDefaultFloatDType, Generator* gen = nullptr);
Tensor randint(int64_t low, int64_t high, IntList size, DType dtype = DType::Long, Generator* gen = nullptr);
// Identity matrix n x m (m defaults to n).
Tensor eye(int64_t n, std::optional<int64_t> m = std::nullopt, DType dtype = kDefaultFloatDType);

// --- shape operators that copy -----------------------------------------------------
Tensor cat(const std::vector<Tensor>& tensors, int64_t dim = 0);
Tensor stack(const std::vector<Tensor>& tensors, int64_t dim = 0);
std::vector<Tensor> split(const Tensor& self, int64_t split_size, int64_t dim = 0);  // views
std::vector<Tensor> chunk(const Tensor& self, int64_t chunks, int64_t dim = 0);      // views
Tensor index_select(const Tensor& self, int64_t dim, const Tensor& index);
Tensor gather(const Tensor& self, int64_t dim, const Tensor& index);
Tensor scatter(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src);
Tensor masked_fill(const Tensor& self, const Tensor& mask, const Scalar& value);
Tensor flip(const Tensor& self, IntList dims);
Tensor roll(const Tensor& self, IntList shifts, IntList dims = {});
Tensor tril(const Tensor& self, int64_t diagonal = 0);
Tensor triu(const Tensor& self, int64_t diagonal = 0);
Tensor repeat(const Tensor& self, IntList repeats);
Tensor nonzero(const Tensor& self);
// Stable sort; NaN sorts as the largest value, as in torch.
std::tuple<Tensor, Tensor> sort(const Tensor& self, int64_t dim = -1, bool descending = false);
Tensor argsort(const Tensor& self, int64_t dim = -1, bool descending = false);
std::tuple<Tensor, Tensor> topk(const Tensor& self, int64_t k, int64_t dim = -1, bool largest = true,
                                bool sorted = true);

// order.cpp: order statistics and running extrema along dim. Equal values give the
// index torch's CPU algorithms give (see the file's comment). ignore_nan: nanmedian.
std::tuple<Tensor, Tensor> median(const Tensor& self, int64_t dim, bool keepdim = false, bool ignore_nan = false);
Tensor median(const Tensor& self, bool ignore_nan = false);  // of every element; NaN when empty
std::tuple<Tensor, Tensor> kthvalue(const Tensor& self, int64_t k, int64_t dim = -1, bool keepdim = false);
std::tuple<Tensor, Tensor> mode(const Tensor& self, int64_t dim = -1, bool keepdim = false);
std::tuple<Tensor, Tensor> cummax(const Tensor& self, int64_t dim);
std::tuple<Tensor, Tensor> cummin(const Tensor& self, int64_t dim);
Tensor logcumsumexp(const Tensor& self, int64_t dim);
// torch.unique's operators: values, inverse (empty unless asked for; also computed
// when counts are) and counts (empty unless asked for). unique_dim keeps whole slices
// along dim (consecutive: only neighbours merge) and always fills inverse and counts.
struct UniqueResult {
  Tensor values, inverse, counts;
};
UniqueResult unique(const Tensor& self, bool sorted, bool return_inverse, bool return_counts);
UniqueResult unique_consecutive(const Tensor& self, bool return_inverse, bool return_counts);
UniqueResult unique_dim(const Tensor& self, int64_t dim, bool consecutive);
// Insertion points of values in the last dim of sorted_sequence (1-D, or one row per
// leading index of values); right: after equal elements; sorter: the order to read it in.
Tensor searchsorted(const Tensor& sorted_sequence, const Tensor& values, bool out_int32 = false, bool right = false,
                    const std::optional<Tensor>& sorter = std::nullopt);

}  // namespace torchlet

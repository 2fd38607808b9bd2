// The second batch of neural-network operators: more activations, einsum, 1-d/3-d
// transposed convolution, max_unpool, F.pad, the other upsampling modes,
// embedding_bag, losses (the multi-class margin ones too), random tensors from torchlet's
// seedable default generator, eye, baddbmm, and the runtime queries scripted modules
// make (is_grad_enabled, ...).
// Generator arguments must be None: the default generator is used, seeded by
// aten::manual_seed, so results match torch.manual_seed's.
#include <limits>
#include <optional>

#include <fmt/ranges.h>

#include <torchlet/ops.h>

#include "jit/ops/ops_util.h"
#include "jit/runtime/grad_mode.h"

namespace torchlet::jit::ops {
namespace {

// --- activations --------------------------------------------------------------------------
template <Tensor (*F)(const Tensor&)>
void unary(Stack& s) { push(s, F(pop_tensor(s))); }
template <Tensor (*F)(const Tensor&)>
void unary_(Stack& s) {
  Tensor self = pop_tensor(s);
  assign_inplace(self, F(self), "activation_");
  push(s, self);
}
template <Tensor (*F)(const Tensor&, const Scalar&)>
void unary_scalar(Stack& s) {
  Scalar a = pop_scalar(s);
  push(s, F(pop_tensor(s), a));
}
template <Tensor (*F)(const Tensor&, const Scalar&)>
void unary_scalar_(Stack& s) {
  Scalar a = pop_scalar(s);
  Tensor self = pop_tensor(s);
  assign_inplace(self, F(self, a), "activation_");
  push(s, self);
}
void threshold(Stack& s) {
  Scalar value = pop_scalar(s);
  Scalar th = pop_scalar(s);
  push(s, torchlet::threshold(pop_tensor(s), th, value));
}
void threshold_(Stack& s) {
  Scalar value = pop_scalar(s);
  Scalar th = pop_scalar(s);
  Tensor self = pop_tensor(s);
  assign_inplace(self, torchlet::threshold(self, th, value), "threshold_");
  push(s, self);
}
// rrelu: random slopes in training (torch's generator), their mean otherwise.
Tensor rrelu_impl(Stack& s, Tensor* self_out) {
  pop_no_generator(s, "rrelu");
  bool training = pop_bool(s);
  Scalar upper = pop_scalar(s);
  Scalar lower = pop_scalar(s);
  Tensor self = pop_tensor(s);
  if (self_out) *self_out = self;
  return torchlet::rrelu(self, lower, upper, training);
}
void rrelu(Stack& s) { push(s, rrelu_impl(s, nullptr)); }
void rrelu_(Stack& s) {
  Tensor self;
  Tensor r = rrelu_impl(s, &self);
  assign_inplace(self, r, "rrelu_");
  push(s, self);
}
void glu(Stack& s) {
  int64_t dim = pop_int(s);
  push(s, torchlet::glu(pop_tensor(s), dim));
}
void prelu(Stack& s) {
  Tensor w = pop_tensor(s);
  push(s, torchlet::prelu(pop_tensor(s), w));
}
void einsum(Stack& s) {
  IValue path = pop(s);
  TL_CHECK(path.isNone(), UnsupportedError, "einsum: an explicit contraction path is not supported");
  auto operands = pop_tensor_list(s);
  push(s, torchlet::einsum(pop_str(s), operands));
}

// --- transposed convolution, padding --------------------------------------------------------
template <Tensor (*F)(const Tensor&, const Tensor&, const std::optional<Tensor>&, IntList, IntList, IntList,
                      int64_t, IntList)>
void conv_transpose(Stack& s) {
  auto dilation = pop_int_list(s);
  int64_t groups = pop_int(s);
  auto output_padding = pop_int_list(s);
  auto padding = pop_int_list(s);
  auto stride = pop_int_list(s);
  auto bias = pop_opt_tensor(s);
  Tensor w = pop_tensor(s);
  push(s, F(pop_tensor(s), w, bias, stride, padding, output_padding, groups, dilation));
}
// conv1d/conv3d with padding "valid" or "same": "same" pads (dilation * (k - 1)) in
// total per spatial dimension, the odd one on the right as torch does, and needs
// stride 1.
template <Tensor (*F)(const Tensor&, const Tensor&, const std::optional<Tensor>&, IntList, IntList, IntList,
                      int64_t)>
void conv_padding_str(Stack& s) {
  int64_t groups = pop_int(s);
  auto dilation = pop_int_list(s);
  std::string padding = pop_str(s);
  auto stride = pop_int_list(s);
  auto bias = pop_opt_tensor(s);
  Tensor w = pop_tensor(s);
  Tensor input = pop_tensor(s);
  const size_t spatial = static_cast<size_t>(w.dim() - 2);
  auto expand = [&](std::vector<int64_t> v) { return v.size() == 1 ? std::vector<int64_t>(spatial, v[0]) : v; };
  stride = expand(stride);
  dilation = expand(dilation);
  std::vector<int64_t> zeros_pad(spatial, 0);
  if (padding == "valid") return push(s, F(input, w, bias, stride, zeros_pad, dilation, groups));
  TL_CHECK(padding == "same", ValueError, "Invalid padding string: '{}'", padding);
  for (int64_t st : stride) {
    TL_CHECK(st == 1, ValueError, "padding='same' is not supported for strided convolutions");
  }
  std::vector<int64_t> pads;  // F.pad order: last dimension first, (left, right)
  bool symmetric = true;
  std::vector<int64_t> sym(spatial);
  for (size_t i = spatial; i-- > 0;) {
    int64_t total = dilation[i] * (w.size(static_cast<int64_t>(i) + 2) - 1);
    pads.push_back(total / 2);
    pads.push_back(total - total / 2);
    symmetric = symmetric && total % 2 == 0;
    sym[i] = total / 2;
  }
  if (symmetric) return push(s, F(input, w, bias, stride, sym, dilation, groups));
  push(s, F(torchlet::pad(input, pads), w, bias, stride, zeros_pad, dilation, groups));
}
void pad(Stack& s) {
  auto value = pop_opt_double(s);
  std::string mode = pop_str(s);
  auto p = pop_int_list(s);
  push(s, torchlet::pad(pop_tensor(s), p, mode, value));
}

// --- upsampling ---------------------------------------------------------------------------------
std::optional<std::vector<double>> pop_opt_doubles(Stack& s) {
  if (s.back().isNone()) {
    pop(s);
    return std::nullopt;
  }
  return pop_double_list(s);
}
// upsample_*.vec: output_size, or floor(input size * scale); the scales are passed on
// so the kernels map coordinates as torch does (by 1/scale).
struct VecArgs {
  Tensor input;
  std::vector<int64_t> size;
  std::vector<std::optional<double>> scales;
};
VecArgs vec_args(Tensor input, const std::optional<std::vector<int64_t>>& size,
                 const std::optional<std::vector<double>>& scales, size_t spatial, const char* op) {
  TL_CHECK(size.has_value() != scales.has_value(), ValueError,
           "{}: must specify exactly one of output_size and scale_factors", op);
  VecArgs a{std::move(input), {}, std::vector<std::optional<double>>(spatial)};
  if (size) {
    a.size = *size;
    return a;
  }
  TL_CHECK(scales->size() == spatial, ValueError, "{}: expected {} scale factors, got {}", op, spatial,
           scales->size());
  for (size_t i = 0; i < spatial; ++i) {
    int64_t in = a.input.size(a.input.dim() - static_cast<int64_t>(spatial) + static_cast<int64_t>(i));
    a.size.push_back(static_cast<int64_t>(std::floor(static_cast<double>(in) * (*scales)[i])));
    a.scales[i] = (*scales)[i];
  }
  return a;
}
void nearest1d(Stack& s) {
  auto sc = pop_opt_double(s);
  auto size = pop_int_list(s);
  push(s, torchlet::upsample_nearest1d(pop_tensor(s), size, sc));
}
void nearest1d_vec(Stack& s) {
  auto scales = pop_opt_doubles(s);
  auto size = pop_opt_int_list(s);
  VecArgs a = vec_args(pop_tensor(s), size, scales, 1, "upsample_nearest1d");
  push(s, torchlet::upsample_nearest1d(a.input, a.size, a.scales[0]));
}
void nearest3d(Stack& s) {
  auto sw = pop_opt_double(s);
  auto sh = pop_opt_double(s);
  auto sd = pop_opt_double(s);
  auto size = pop_int_list(s);
  push(s, torchlet::upsample_nearest3d(pop_tensor(s), size, sd, sh, sw));
}
void nearest3d_vec(Stack& s) {
  auto scales = pop_opt_doubles(s);
  auto size = pop_opt_int_list(s);
  VecArgs a = vec_args(pop_tensor(s), size, scales, 3, "upsample_nearest3d");
  push(s, torchlet::upsample_nearest3d(a.input, a.size, a.scales[0], a.scales[1], a.scales[2]));
}
template <size_t kDims>
void nearest_exact(Stack& s) {
  std::array<std::optional<double>, 3> scales{};
  for (size_t i = kDims; i-- > 0;) scales[i] = pop_opt_double(s);
  auto size = pop_int_list(s);
  TL_CHECK(size.size() == kDims, ValueError, "_upsample_nearest_exact{}d expects {} output sizes, got {}", kDims, kDims,
           size.size());
  push(s, torchlet::upsample_nearest_exact(pop_tensor(s), size, scales));
}
template <size_t kDims>
void nearest_exact_vec(Stack& s) {
  static constexpr const char* kNames[] = {"", "_upsample_nearest_exact1d", "_upsample_nearest_exact2d",
                                           "_upsample_nearest_exact3d"};
  auto scales = pop_opt_doubles(s);
  auto size = pop_opt_int_list(s);
  VecArgs a = vec_args(pop_tensor(s), size, scales, kDims, kNames[kDims]);
  std::array<std::optional<double>, 3> sc{};
  for (size_t i = 0; i < kDims && i < a.scales.size(); ++i) sc[i] = a.scales[i];
  push(s, torchlet::upsample_nearest_exact(a.input, a.size, sc));
}
// interpolate(antialias=True).
template <bool kCubic>
void upsample_aa(Stack& s) {
  auto sw = pop_opt_double(s);
  auto sh = pop_opt_double(s);
  bool align = pop_bool(s);
  auto size = pop_int_list(s);
  Tensor self = pop_tensor(s);
  push(s, kCubic ? torchlet::upsample_bicubic2d_aa(self, size, align, sh, sw)
                 : torchlet::upsample_bilinear2d_aa(self, size, align, sh, sw));
}
template <bool kCubic>
void upsample_aa_vec(Stack& s) {
  auto scales = pop_opt_doubles(s);
  bool align = pop_bool(s);
  auto size = pop_opt_int_list(s);
  VecArgs a = vec_args(pop_tensor(s), size, scales, 2, kCubic ? "_upsample_bicubic2d_aa" : "_upsample_bilinear2d_aa");
  push(s, kCubic ? torchlet::upsample_bicubic2d_aa(a.input, a.size, align, a.scales[0], a.scales[1])
                 : torchlet::upsample_bilinear2d_aa(a.input, a.size, align, a.scales[0], a.scales[1]));
}
void linear1d(Stack& s) {
  auto sc = pop_opt_double(s);
  bool align = pop_bool(s);
  auto size = pop_int_list(s);
  push(s, torchlet::upsample_linear1d(pop_tensor(s), size, align, sc));
}
void linear1d_vec(Stack& s) {
  auto scales = pop_opt_doubles(s);
  bool align = pop_bool(s);
  auto size = pop_opt_int_list(s);
  VecArgs a = vec_args(pop_tensor(s), size, scales, 1, "upsample_linear1d");
  push(s, torchlet::upsample_linear1d(a.input, a.size, align, a.scales[0]));
}
void trilinear3d(Stack& s) {
  auto sw = pop_opt_double(s);
  auto sh = pop_opt_double(s);
  auto sd = pop_opt_double(s);
  bool align = pop_bool(s);
  auto size = pop_int_list(s);
  push(s, torchlet::upsample_trilinear3d(pop_tensor(s), size, align, sd, sh, sw));
}
void trilinear3d_vec(Stack& s) {
  auto scales = pop_opt_doubles(s);
  bool align = pop_bool(s);
  auto size = pop_opt_int_list(s);
  VecArgs a = vec_args(pop_tensor(s), size, scales, 3, "upsample_trilinear3d");
  push(s, torchlet::upsample_trilinear3d(a.input, a.size, align, a.scales[0], a.scales[1], a.scales[2]));
}
void bicubic2d(Stack& s) {
  auto sw = pop_opt_double(s);
  auto sh = pop_opt_double(s);
  bool align = pop_bool(s);
  auto size = pop_int_list(s);
  push(s, torchlet::upsample_bicubic2d(pop_tensor(s), size, align, sh, sw));
}
void bicubic2d_vec(Stack& s) {
  auto scales = pop_opt_doubles(s);
  bool align = pop_bool(s);
  auto size = pop_opt_int_list(s);
  VecArgs a = vec_args(pop_tensor(s), size, scales, 2, "upsample_bicubic2d");
  push(s, torchlet::upsample_bicubic2d(a.input, a.size, align, a.scales[0], a.scales[1]));
}

// embedding_bag: the bags' output; the three auxiliary returns (offset2bag, bag_size,
// max_indices, used only by autograd) come back empty.
void embedding_bag_impl(Stack& s, std::optional<int64_t> padding_idx) {
  bool include_last_offset = pop_bool(s);
  auto per_sample_weights = pop_opt_tensor(s);
  pop_bool(s);  // sparse: a gradient option
  int64_t mode = pop_int(s);
  pop_bool(s);  // scale_grad_by_freq: a gradient option
  Tensor offsets = pop_tensor(s);
  Tensor indices = pop_tensor(s);
  Tensor weight = pop_tensor(s);
  Tensor out = torchlet::embedding_bag(weight, indices, offsets, mode, per_sample_weights, include_last_offset,
                                       padding_idx);
  push(s, out, empty({0}, DType::Long), empty({0}, DType::Long), empty({0}, DType::Long));
}
void embedding_bag(Stack& s) { embedding_bag_impl(s, std::nullopt); }
void embedding_bag_padding_idx(Stack& s) {
  auto padding_idx = pop_opt_int(s);
  embedding_bag_impl(s, padding_idx);
}

// --- losses ------------------------------------------------------------------------------------
void ctc_loss_int_list(Stack& s) {
  const bool zero_infinity = pop_bool(s);
  const int64_t reduction = pop_int(s), blank = pop_int(s);
  const auto target_lengths = pop_int_list(s), input_lengths = pop_int_list(s);
  Tensor targets = pop_tensor(s);
  push(s, torchlet::ctc_loss(pop_tensor(s), targets, input_lengths, target_lengths, blank, reduction, zero_infinity));
}
// The lengths as tensors: any integer dtype, read as int64.
void ctc_loss_tensor(Stack& s) {
  const bool zero_infinity = pop_bool(s);
  const int64_t reduction = pop_int(s), blank = pop_int(s);
  Tensor target_lengths = pop_tensor(s), input_lengths = pop_tensor(s), targets = pop_tensor(s);
  TL_CHECK(is_integral(input_lengths.dtype(), false), TypeError, "input_lengths must be integral");
  TL_CHECK(is_integral(target_lengths.dtype(), false), TypeError, "target_lengths must be integral");
  const std::vector<int64_t> il = input_lengths.to_vector<int64_t>(), tl = target_lengths.to_vector<int64_t>();
  push(s, torchlet::ctc_loss(pop_tensor(s), targets, IntList(il.data(), il.size()), IntList(tl.data(), tl.size()), blank,
                             reduction, zero_infinity));
}
template <Tensor (*F)(const Tensor&, const Tensor&, int64_t)>
void loss(Stack& s) {
  int64_t reduction = pop_int(s);
  Tensor target = pop_tensor(s);
  push(s, F(pop_tensor(s), target, reduction));
}
template <Tensor (*F)(const Tensor&, const Tensor&, int64_t, double)>
void loss_param(Stack& s) {
  double p = pop_double(s);
  int64_t reduction = pop_int(s);
  Tensor target = pop_tensor(s);
  push(s, F(pop_tensor(s), target, reduction, p));
}
void nll_loss(Stack& s) {
  int64_t ignore = pop_int(s);
  int64_t reduction = pop_int(s);
  auto weight = pop_opt_tensor(s);
  Tensor target = pop_tensor(s);
  push(s, torchlet::nll_loss(pop_tensor(s), target, weight, reduction, ignore));
}
void cross_entropy(Stack& s) {
  double smoothing = pop_double(s);
  int64_t ignore = pop_int(s);
  int64_t reduction = pop_int(s);
  auto weight = pop_opt_tensor(s);
  Tensor target = pop_tensor(s);
  push(s, torchlet::cross_entropy(pop_tensor(s), target, weight, reduction, ignore, smoothing));
}
void bce(Stack& s) {
  int64_t reduction = pop_int(s);
  auto weight = pop_opt_tensor(s);
  Tensor target = pop_tensor(s);
  push(s, torchlet::binary_cross_entropy(pop_tensor(s), target, weight, reduction));
}
void bce_logits(Stack& s) {
  int64_t reduction = pop_int(s);
  auto pos_weight = pop_opt_tensor(s);
  auto weight = pop_opt_tensor(s);
  Tensor target = pop_tensor(s);
  push(s, torchlet::binary_cross_entropy_with_logits(pop_tensor(s), target, weight, pos_weight, reduction));
}
void kl_div(Stack& s) {
  bool log_target = pop_bool(s);
  int64_t reduction = pop_int(s);
  Tensor target = pop_tensor(s);
  push(s, torchlet::kl_div(pop_tensor(s), target, reduction, log_target));
}

// The multi-class margin losses keep torch's CPU kernels' arithmetic: per-sample sums in
// the element type (multi_margin) or in double rounded to it (multilabel), the batch sum
// in double. Both read class indices from the target, so every index is checked before
// it is used; torch 1.13 reads a too-short weight past its end, torchlet refuses it.
struct MarginLossFrames {
  int64_t nframe = 1, dim = 1;
};
MarginLossFrames margin_loss_frames(const Tensor& input) {
  const int64_t nd = input.dim();
  TL_CHECK((nd == 2 && input.size(1) != 0) || (nd == 1 && input.size(0) != 0) || nd == 0, ValueError,
           "Expected non-empty vector or matrix with optional 0-dim batch size, but got: {}", shape_repr(input.sizes()));
  if (nd == 2) return {input.size(0), input.size(1)};
  return {1, nd == 0 ? 1 : input.size(0)};
}

// Runs fn<float> or fn<double>: the margin kernels' dtypes (checked before).
template <typename Fn>
void float_or_double(DType d, Fn&& fn) {
  if (d == DType::Float) fn.template operator()<float>();
  else fn.template operator()<double>();
}

template <typename T>
const T* typed_data(const Tensor& t) {
  TL_CHECK(t.dtype() == dtype_of<T>, TypeError, "expected scalar type {} but found {}",
           dtype_info(dtype_of<T>).scalar_type_name, dtype_info(t.dtype()).scalar_type_name);
  return t.data<T>();
}

// An empty input leaves torch's output uninitialized; here it is what the kernel's own
// arithmetic gives over no samples: 0 summed, NaN averaged.
Tensor empty_margin_loss(const Tensor& input, bool unreduced, int64_t reduction) {
  if (unreduced) return empty({0}, input.dtype());
  const bool nan = reduction == kReductionMean && is_floating(input.dtype());
  return full({}, nan ? Scalar(std::numeric_limits<double>::quiet_NaN()) : Scalar(int64_t{0}), input.dtype());
}

void multi_margin_loss(Stack& s) {
  const int64_t reduction = pop_int(s);
  const auto weight = pop_opt_tensor(s);
  const Scalar margin = pop_scalar(s);
  const int64_t p = pop_scalar(s).to_int();
  const Tensor target = pop_tensor(s), input = pop_tensor(s);
  TL_CHECK(p == 1 || p == 2, ValueError, "only p == 1 and p == 2 supported");
  const MarginLossFrames frames = margin_loss_frames(input);
  const int64_t nframe = frames.nframe, dim = frames.dim;  // (clang 14 lambdas capture no bindings)
  TL_CHECK(target.dim() <= 1 && target.numel() == nframe, ValueError, "inconsistent target size, got: {}",
           shape_repr(target.sizes()));
  if (weight)
    TL_CHECK(weight->numel() == dim, ValueError, "inconsistent weight size, expected {} but got {}", dim,
             shape_repr(weight->sizes()));
  const bool unreduced = reduction == kReductionNone && target.dim() > 0;
  if (input.numel() == 0) return push(s, empty_margin_loss(input, unreduced, reduction));
  TL_CHECK(input.dtype() == DType::Float || input.dtype() == DType::Double, UnsupportedError,
           "\"multi_margin_loss_cpu_kernel\" not implemented for '{}'", dtype_info(input.dtype()).scalar_type_name);
  const Tensor x = input.contiguous(), t = target.contiguous();
  const Tensor w = weight ? weight->contiguous() : Tensor();
  Tensor out = unreduced ? empty({nframe}, input.dtype()) : empty({}, input.dtype());
  float_or_double(input.dtype(), [&]<typename T>() {
    const T* xp = x.data<T>();
    const int64_t* tp = typed_data<int64_t>(t);
    const T* wp = weight ? typed_data<T>(w) : nullptr;
    const T m = margin.to<T>();
    double total = 0;
    for (int64_t i = 0; i < nframe; ++i, xp += dim) {
      const int64_t y = tp[i];
      TL_CHECK(y >= 0 && y < dim, IndexError, "target out of range");
      T sum = 0;
      for (int64_t d = 0; d < dim; ++d) {
        if (d == y) continue;
        const T z = m - xp[y] + xp[d];
        if (!(z > 0)) continue;
        T h = p == 1 ? z : z * z;
        if (wp) h *= wp[y];
        sum += h;
      }
      sum /= static_cast<T>(dim);
      if (unreduced) out.data<T>()[i] = sum;
      else total += sum;
    }
    if (!unreduced) {
      if (reduction == kReductionMean) total /= static_cast<double>(nframe);
      *out.data<T>() = static_cast<T>(total);
    }
  });
  push(s, out);
}

// aten::multilabel_margin_loss_forward: the loss and is_target (1 where a class is one of
// its sample's targets, listed before the first -1).
std::pair<Tensor, Tensor> multilabel_margin_loss_impl(const Tensor& input, const Tensor& target, int64_t reduction) {
  const MarginLossFrames frames = margin_loss_frames(input);
  const int64_t nframe = frames.nframe, dim = frames.dim;  // (clang 14 lambdas capture no bindings)
  const bool target_fits = input.dim() == 2 ? target.dim() == 2 && target.size(0) == nframe && target.size(1) == dim
                                            : target.dim() <= 1 && target.numel() == dim;
  TL_CHECK(target_fits, ValueError, "inconsistent size {} for argument #2 'target'", shape_repr(target.sizes()));
  const bool unreduced = reduction == kReductionNone && target.dim() > 1;
  Tensor is_target = zeros(target.sizes(), input.dtype());
  if (input.numel() == 0) return {empty_margin_loss(input, unreduced, reduction), is_target};
  const Tensor t = target.contiguous();
  const Tensor as_long = t.to(DType::Long);  // torch checks the range before the dtype
  const int64_t* tp = as_long.data<int64_t>();
  for (int64_t i = 0, n = t.numel(); i < n; ++i)
    TL_CHECK(tp[i] >= -1 && tp[i] < dim, IndexError, "argument #2 'target' is out of range");
  TL_CHECK(input.dtype() == DType::Float || input.dtype() == DType::Double, UnsupportedError,
           "\"multilabel_margin_loss_forward_out_frame\" not implemented for '{}'",
           dtype_info(input.dtype()).scalar_type_name);
  const int64_t* targets = typed_data<int64_t>(t);
  const Tensor x = input.contiguous();
  Tensor out = unreduced ? empty({nframe}, input.dtype()) : empty({}, input.dtype());
  float_or_double(input.dtype(), [&]<typename T>() {
    const T* xp = x.data<T>();
    const int64_t* yp = targets;
    T* marks = is_target.data<T>();
    double total = 0;
    for (int64_t i = 0; i < nframe; ++i, xp += dim, yp += dim, marks += dim) {
      for (int64_t k = 0; k < dim && yp[k] >= 0; ++k) marks[yp[k]] = 1;
      double frame = 0;
      for (int64_t k = 0; k < dim && yp[k] >= 0; ++k) {
        const T x_target = xp[yp[k]];
        for (int64_t d = 0; d < dim; ++d) {
          if (marks[d] != 0) continue;
          const T z = 1 - x_target + xp[d];
          if (z > 0) frame += z;
        }
      }
      const T sum = static_cast<T>(frame);
      if (unreduced) out.data<T>()[i] = sum / static_cast<T>(dim);
      else total += sum;
    }
    if (!unreduced) {
      total /= static_cast<double>(dim);
      if (reduction == kReductionMean) total /= static_cast<double>(nframe);
      *out.data<T>() = static_cast<T>(total);
    }
  });
  return {out, is_target};
}
void multilabel_margin_loss(Stack& s) {
  const int64_t reduction = pop_int(s);
  const Tensor target = pop_tensor(s);
  push(s, multilabel_margin_loss_impl(pop_tensor(s), target, reduction).first);
}
void multilabel_margin_loss_forward(Stack& s) {
  const int64_t reduction = pop_int(s);
  const Tensor target = pop_tensor(s);
  auto [out, is_target] = multilabel_margin_loss_impl(pop_tensor(s), target, reduction);
  push(s, out, is_target);
}

// --- max_unpool -----------------------------------------------------------------------------
// max_unpool2d/3d scatter each input value to the flat position its index names within
// its (batch, channel) plane of the output, zeros elsewhere. Planes are walked in order
// and, as in torch's single-threaded kernel, a later value for the same position wins and
// the error names the last invalid index met. Checks and wording follow torch 1.13's.
void max_unpool_impl(Stack& s, int spatial) {
  const bool is3d = spatial == 3;
  std::vector<int64_t> stride, padding;
  if (is3d) {
    padding = pop_int_list(s);
    stride = pop_int_list(s);
  }
  const std::vector<int64_t> output_size = pop_int_list(s);
  const Tensor indices = pop_tensor(s), input = pop_tensor(s);
  const int64_t nd = input.dim();
  const char* op = is3d ? "max_unpool3d" : "max_unpool2d";
  if (is3d) {
    TL_CHECK(indices.dtype() == DType::Long, TypeError, "elements in indices should be type int64");
    TL_CHECK(nd == 4 || nd == 5, ValueError,
             "Input to max_unpooling3d should be a 4d or 5d Tensor, but got a tensor with {} dimensions.", nd);
    TL_CHECK(output_size.size() == 3, ValueError,
             "There should be exactly three elements (depth, height, width) in output_size, but got: {} elements.",
             output_size.size());
    TL_CHECK(stride.size() == 3, ValueError,
             "There should be exactly three elements (depth, height, width) in stride, but got: {} elements.", stride.size());
    TL_CHECK(padding.size() == 3, ValueError,
             "There should be exactly three elements (depth, height, width) in padding, but got: {} elements.",
             padding.size());
  } else {
    TL_CHECK(indices.dtype() == DType::Long, TypeError, "elements in indices should be type int64 but got: {}",
             dtype_info(indices.dtype()).scalar_type_name);
    TL_CHECK(output_size.size() == 2, ValueError,
             "There should be exactly two elements (height, width) in output_size, but got {} elements.", output_size.size());
    TL_CHECK(nd == 3 || nd == 4, ValueError,
             "Input to max_unpooling2d should be a 3d or 4d Tensor, but got a tensor with {} dimensions.", nd);
  }
  TL_CHECK(input.sizes() == indices.sizes(), ValueError,
           "Expected shape of indices to be same as that of the input tensor ({}) but got indices tensor with shape: {}",
           shape_repr(input.sizes()), shape_repr(indices.sizes()));
  for (int64_t i = 1; i < nd; ++i)
    TL_CHECK(input.size(i) > 0, ValueError,
             "max_unpooling{}d_forward_out_cpu(): Expected input to have non-zero size for non-batch dimensions, but got {} "
             "with dimension {} being empty.",
             spatial, shape_repr(input.sizes()), i);
  if (is3d)
    TL_CHECK(stride[0] > 0 && stride[1] > 0 && stride[2] > 0, ValueError,
             "strides should be greater than zero, but got stride: {}", shape_repr(stride));
  for (int64_t v : output_size)
    TL_CHECK(v >= 0, ValueError, "{}: output_size {} has a negative size", op, shape_repr(output_size));
  Shape out_shape(input.sizes().begin(), input.sizes().end() - spatial);
  out_shape.insert(out_shape.end(), output_size.begin(), output_size.end());
  Tensor out = zeros(out_shape, input.dtype());
  if (out.numel() == 0) return push(s, out);
  TL_CHECK(input.dtype() == DType::Float || input.dtype() == DType::Double, UnsupportedError,
           "\"{}\" not implemented for '{}'", op, dtype_info(input.dtype()).scalar_type_name);
  int64_t out_plane = 1, in_plane = 1;
  for (int k = 0; k < spatial; ++k) {
    out_plane *= output_size[static_cast<size_t>(k)];
    in_plane *= input.size(nd - spatial + k);
  }
  const int64_t planes = input.numel() / in_plane;
  const Tensor x = input.contiguous(), ix = indices.contiguous();
  std::optional<int64_t> invalid;
  float_or_double(input.dtype(), [&]<typename T>() {
    const T* xp = x.data<T>();
    const int64_t* ip = ix.data<int64_t>();
    T* op_data = out.data<T>();
    for (int64_t p = 0; p < planes; ++p, xp += in_plane, ip += in_plane, op_data += out_plane)
      for (int64_t i = 0; i < in_plane; ++i) {
        if (ip[i] < 0 || ip[i] >= out_plane) invalid = ip[i];
        else op_data[ip[i]] = xp[i];
      }
  });
  if (invalid) {
    TL_FAIL(IndexError, "Found an invalid max index: {} (output volumes are of size {}", *invalid,
            fmt::join(output_size, "x"));
  }
  push(s, out);
}
void max_unpool2d(Stack& s) { max_unpool_impl(s, 2); }
void max_unpool3d(Stack& s) { max_unpool_impl(s, 3); }

// --- random and eye -------------------------------------------------------------------------
template <bool kNormal, bool kGenerator>
void rand_like_torch(Stack& s) {
  std::optional<DType> d;
  pop_tensor_options(s, kNormal ? "randn" : "rand", &d);
  if constexpr (kGenerator) pop_no_generator(s, kNormal ? "randn" : "rand");
  auto size = pop_int_list(s);
  DType dt = d.value_or(kDefaultFloatDType);
  push(s, kNormal ? torchlet::randn(size, dt) : torchlet::rand(size, dt));
}
template <bool kLow, bool kGenerator>
void randint(Stack& s) {
  std::optional<DType> d;
  pop_tensor_options(s, "randint", &d);
  if constexpr (kGenerator) pop_no_generator(s, "randint");
  auto size = pop_int_list(s);
  int64_t high = pop_int(s);
  int64_t low = kLow ? pop_int(s) : 0;
  push(s, torchlet::randint(low, high, size, d.value_or(DType::Long)));
}
template <bool kNormal>
void rand_like(Stack& s) {
  pop_memory_format(s, kNormal ? "randn_like" : "rand_like");
  std::optional<DType> d;
  pop_tensor_options(s, kNormal ? "randn_like" : "rand_like", &d);
  Tensor self = pop_tensor(s);
  DType dt = d.value_or(self.dtype());
  push(s, kNormal ? torchlet::randn(self.sizes(), dt) : torchlet::rand(self.sizes(), dt));
}
template <bool kLow>
void randint_like(Stack& s) {
  pop_memory_format(s, "randint_like");
  std::optional<DType> d;
  pop_tensor_options(s, "randint_like", &d);
  int64_t high = pop_int(s);
  int64_t low = kLow ? pop_int(s) : 0;
  Tensor self = pop_tensor(s);
  push(s, torchlet::randint(low, high, self.sizes(), d.value_or(self.dtype())));
}
void manual_seed(Stack& s) { torchlet::manual_seed(static_cast<uint64_t>(pop_int(s))); }
void uniform_(Stack& s) {
  pop_no_generator(s, "uniform_");
  double to = pop_double(s);
  double from = pop_double(s);
  Tensor self = pop_tensor(s);
  torchlet::uniform_(self, from, to);
  push(s, self);
}
void normal_(Stack& s) {
  pop_no_generator(s, "normal_");
  double std = pop_double(s);
  double mean = pop_double(s);
  Tensor self = pop_tensor(s);
  torchlet::normal_(self, mean, std);
  push(s, self);
}
void random_from(Stack& s) {
  pop_no_generator(s, "random_");
  auto to = pop_opt_int(s);
  int64_t from = pop_int(s);
  Tensor self = pop_tensor(s);
  torchlet::random_(self, from, to);
  push(s, self);
}
void random_full(Stack& s) {
  pop_no_generator(s, "random_");
  Tensor self = pop_tensor(s);
  torchlet::random_(self);
  push(s, self);
}
void random_to(Stack& s) {
  pop_no_generator(s, "random_");
  int64_t to = pop_int(s);
  Tensor self = pop_tensor(s);
  torchlet::random_(self, 0, to);
  push(s, self);
}
void bernoulli_(Stack& s) {
  pop_no_generator(s, "bernoulli_");
  double p = pop_double(s);
  Tensor self = pop_tensor(s);
  torchlet::bernoulli_(self, p);
  push(s, self);
}
void exponential_(Stack& s) {
  pop_no_generator(s, "exponential_");
  double lambd = pop_double(s);
  Tensor self = pop_tensor(s);
  torchlet::exponential_(self, lambd);
  push(s, self);
}
void cauchy_(Stack& s) {
  pop_no_generator(s, "cauchy_");
  double sigma = pop_double(s);
  double median = pop_double(s);
  Tensor self = pop_tensor(s);
  torchlet::cauchy_(self, median, sigma);
  push(s, self);
}
void log_normal_(Stack& s) {
  pop_no_generator(s, "log_normal_");
  double std = pop_double(s);
  double mean = pop_double(s);
  Tensor self = pop_tensor(s);
  torchlet::log_normal_(self, mean, std);
  push(s, self);
}
void geometric_(Stack& s) {
  pop_no_generator(s, "geometric_");
  double p = pop_double(s);
  Tensor self = pop_tensor(s);
  torchlet::geometric_(self, p);
  push(s, self);
}
template <bool kM>
void eye(Stack& s) {
  std::optional<DType> d;
  pop_tensor_options(s, "eye", &d);
  std::optional<int64_t> m;
  if constexpr (kM) m = pop_int(s);
  int64_t n = pop_int(s);
  push(s, torchlet::eye(n, m, d.value_or(kDefaultFloatDType)));
}

// --- matrix ---------------------------------------------------------------------------------
// baddbmm: beta * self + alpha * (batch1 @ batch2); beta 0 ignores self (NaN included).
void baddbmm(Stack& s) {
  Scalar alpha = pop_scalar(s);
  Scalar beta = pop_scalar(s);
  Tensor b2 = pop_tensor(s);
  Tensor b1 = pop_tensor(s);
  Tensor self = pop_tensor(s);
  Tensor prod = torchlet::bmm(b1, b2);
  if (!(alpha == Scalar(1))) prod = torchlet::mul(prod, alpha);
  if (beta.to_double() == 0 && !beta.is_complex()) return push(s, torchlet::add(prod, torchlet::mul(self, 0)));
  Tensor scaled = beta == Scalar(1) ? self : torchlet::mul(self, beta);
  push(s, torchlet::add(scaled, prod));
}

// --- runtime queries and small list reductions ------------------------------------------------
// No autograd here, but the grad mode is kept (grad_mode.h): scripted modules' fast paths
// read it, and torch.no_grad() sets it.
void is_grad_enabled(Stack& s) { push(s, grad_enabled()); }
void set_grad_enabled_op(Stack& s) { set_grad_enabled(pop_bool(s)); }
// torch.autograd.profiler.record_function's operators (its class calls them in
// __enter__/__exit__). torchlet has no profiler for a range to report to: entering gives
// an empty handle (torch's is a tensor wrapping its RecordFunction), exiting and the
// end-of-future callback do nothing.
void record_function_enter(Stack& s) {
  drop(s, 2);  // name, args
  push(s, torchlet::empty({0}, DType::Byte));
}
void record_function_exit(Stack& s) { drop(s, 1); }
void call_end_callbacks_on_jit_fut(Stack& s) {
  IValue future = pop(s);
  drop(s, 1);  // the handle
  s.push_back(std::move(future));
}
void is_autocast_enabled(Stack& s) { push(s, false); }
template <bool kAll>
void list_all(Stack& s) {
  IValue l = pop(s);
  bool r = kAll;
  for (const auto& v : l.listRef().elements) {
    bool t = v.isString() ? !v.toStringRef().empty() : v.isDouble() ? v.toDouble() != 0
                                                                   : (v.isBool() ? v.toBool() : v.toInt() != 0);
    if (kAll ? !t : t) {
      r = !kAll;
      break;
    }
  }
  push(s, r);
}
void enum_name(Stack& s) { push(s, pop(s).toEnum()->name); }
void enum_value(Stack& s) { push(s, pop(s).toEnum()->value); }

// F.unfold / F.fold (fold.cpp).
void im2col_op(Stack& s) {
  auto stride = pop_int_list(s), padding = pop_int_list(s), dilation = pop_int_list(s), kernel = pop_int_list(s);
  push(s, torchlet::im2col(pop_tensor(s), kernel, dilation, padding, stride));
}
void col2im_op(Stack& s) {
  auto stride = pop_int_list(s), padding = pop_int_list(s), dilation = pop_int_list(s), kernel = pop_int_list(s);
  auto output_size = pop_int_list(s);
  push(s, torchlet::col2im(pop_tensor(s), output_size, kernel, dilation, padding, stride));
}

// F.affine_grid / F.grid_sample (grid_sample.cpp).
void affine_grid_generator_op(Stack& s) {
  const bool align_corners = pop_bool(s);
  auto size = pop_int_list(s);
  push(s, torchlet::affine_grid_generator(pop_tensor(s), size, align_corners));
}
// aten::grid_sampler picks the kernel by rank as torch's does: 4-D input is planar, any
// other rank goes to the volumetric kernel, whose checks name what is wrong.
enum class SamplerKernel { ByRank, Planar, Volumetric };
template <SamplerKernel kernel>
void grid_sampler_op(Stack& s) {
  const bool align_corners = pop_bool(s);
  const int64_t padding = pop_int(s), interpolation = pop_int(s);
  Tensor grid = pop_tensor(s), input = pop_tensor(s);
  const bool planar = kernel == SamplerKernel::Planar || (kernel == SamplerKernel::ByRank && input.dim() == 4);
  push(s, planar ? torchlet::grid_sampler_2d(input, grid, interpolation, padding, align_corners)
                 : torchlet::grid_sampler_3d(input, grid, interpolation, padding, align_corners));
}

}  // namespace

static RegisterOps reg({
    {"aten::selu(Tensor self) -> Tensor", unary<torchlet::selu>},
    {"aten::selu_(Tensor(a!) self) -> Tensor(a!)", unary_<torchlet::selu>},
    {"aten::celu(Tensor self, Scalar alpha=1.) -> Tensor", unary_scalar<torchlet::celu>},
    {"aten::celu_(Tensor(a!) self, Scalar alpha=1.) -> Tensor(a!)", unary_scalar_<torchlet::celu>},
    {"aten::mish(Tensor self) -> Tensor", unary<torchlet::mish>},
    {"aten::mish_(Tensor(a!) self) -> Tensor(a!)", unary_<torchlet::mish>},
    {"aten::softshrink(Tensor self, Scalar lambd=0.5) -> Tensor", unary_scalar<torchlet::softshrink>},
    {"aten::hardshrink(Tensor self, Scalar lambd=0.5) -> Tensor", unary_scalar<torchlet::hardshrink>},
    {"aten::threshold(Tensor self, Scalar threshold, Scalar value) -> Tensor", threshold},
    {"aten::threshold_(Tensor(a!) self, Scalar threshold, Scalar value) -> Tensor(a!)", threshold_},
    {"aten::log_sigmoid(Tensor self) -> Tensor", unary<torchlet::log_sigmoid>},
    {"aten::glu(Tensor self, int dim=-1) -> Tensor", glu},
    {"aten::rrelu(Tensor self, Scalar lower=0.125, Scalar upper=0.33333333333333331, bool training=False, Generator? generator=None) -> Tensor", rrelu},
    {"aten::rrelu_(Tensor(a!) self, Scalar lower=0.125, Scalar upper=0.33333333333333331, bool training=False, Generator? generator=None) -> Tensor(a!)", rrelu_},
    {"aten::conv1d.padding(Tensor input, Tensor weight, Tensor? bias=None, int[1] stride=[1], str padding=\"valid\", int[1] dilation=[1], int groups=1) -> Tensor", conv_padding_str<torchlet::conv1d>},
    {"aten::conv3d.padding(Tensor input, Tensor weight, Tensor? bias=None, int[3] stride=1, str padding=\"valid\", int[3] dilation=1, int groups=1) -> Tensor", conv_padding_str<torchlet::conv3d>},
    {"aten::rand_like(Tensor self, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None, MemoryFormat? memory_format=None) -> Tensor", rand_like<false>},
    {"aten::randn_like(Tensor self, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None, MemoryFormat? memory_format=None) -> Tensor", rand_like<true>},
    {"aten::randint_like(Tensor self, int high, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None, MemoryFormat? memory_format=None) -> Tensor", randint_like<false>},
    {"aten::randint_like.low_dtype(Tensor self, int low, int high, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None, MemoryFormat? memory_format=None) -> Tensor", randint_like<true>},
    {"aten::prelu(Tensor self, Tensor weight) -> Tensor", prelu},
    {"aten::einsum(str equation, Tensor[] tensors, *, int[]? path=None) -> Tensor", einsum},
    {"aten::conv_transpose1d(Tensor input, Tensor weight, Tensor? bias=None, int[1] stride=[1], int[1] padding=[0], int[1] output_padding=[0], int groups=1, int[1] dilation=[1]) -> Tensor", conv_transpose<torchlet::conv_transpose1d>},
    {"aten::conv_transpose3d.input(Tensor input, Tensor weight, Tensor? bias=None, int[3] stride=1, int[3] padding=0, int[3] output_padding=0, int groups=1, int[3] dilation=1) -> Tensor", conv_transpose<torchlet::conv_transpose3d>},
    {"aten::pad(Tensor self, int[] pad, str mode=\"constant\", float? value=None) -> Tensor", pad},
    {"aten::upsample_nearest1d(Tensor self, SymInt[1] output_size, float? scales=None) -> Tensor", nearest1d},
    {"aten::upsample_nearest1d.vec(Tensor input, SymInt[]? output_size, float[]? scale_factors) -> Tensor", nearest1d_vec},
    {"aten::upsample_nearest3d(Tensor self, SymInt[3] output_size, float? scales_d=None, float? scales_h=None, float? scales_w=None) -> Tensor", nearest3d},
    {"aten::upsample_nearest3d.vec(Tensor input, SymInt[]? output_size, float[]? scale_factors) -> Tensor", nearest3d_vec},
    {"aten::_upsample_bilinear2d_aa(Tensor self, SymInt[2] output_size, bool align_corners, float? scales_h=None, float? scales_w=None) -> Tensor", upsample_aa<false>},
    {"aten::_upsample_bilinear2d_aa.vec(Tensor input, SymInt[]? output_size, bool align_corners, float[]? scale_factors) -> Tensor", upsample_aa_vec<false>},
    {"aten::_upsample_bicubic2d_aa(Tensor self, SymInt[2] output_size, bool align_corners, float? scales_h=None, float? scales_w=None) -> Tensor", upsample_aa<true>},
    {"aten::_upsample_bicubic2d_aa.vec(Tensor input, SymInt[]? output_size, bool align_corners, float[]? scale_factors) -> Tensor", upsample_aa_vec<true>},
    {"aten::_upsample_nearest_exact1d(Tensor self, SymInt[1] output_size, float? scales=None) -> Tensor", nearest_exact<1>},
    {"aten::_upsample_nearest_exact1d.vec(Tensor input, SymInt[]? output_size, float[]? scale_factors) -> Tensor", nearest_exact_vec<1>},
    {"aten::_upsample_nearest_exact2d(Tensor self, SymInt[2] output_size, float? scales_h=None, float? scales_w=None) -> Tensor", nearest_exact<2>},
    {"aten::_upsample_nearest_exact2d.vec(Tensor input, SymInt[]? output_size, float[]? scale_factors) -> Tensor", nearest_exact_vec<2>},
    {"aten::_upsample_nearest_exact3d(Tensor self, SymInt[3] output_size, float? scales_d=None, float? scales_h=None, float? scales_w=None) -> Tensor", nearest_exact<3>},
    {"aten::_upsample_nearest_exact3d.vec(Tensor input, SymInt[]? output_size, float[]? scale_factors) -> Tensor", nearest_exact_vec<3>},
    {"aten::upsample_linear1d(Tensor self, SymInt[1] output_size, bool align_corners, float? scales=None) -> Tensor", linear1d},
    {"aten::upsample_linear1d.vec(Tensor input, SymInt[]? output_size, bool align_corners, float[]? scale_factors) -> Tensor", linear1d_vec},
    {"aten::upsample_trilinear3d(Tensor self, SymInt[3] output_size, bool align_corners, float? scales_d=None, float? scales_h=None, float? scales_w=None) -> Tensor", trilinear3d},
    {"aten::upsample_trilinear3d.vec(Tensor input, SymInt[]? output_size, bool align_corners, float[]? scale_factors) -> Tensor", trilinear3d_vec},
    {"aten::upsample_bicubic2d(Tensor self, SymInt[2] output_size, bool align_corners, float? scales_h=None, float? scales_w=None) -> Tensor", bicubic2d},
    {"aten::upsample_bicubic2d.vec(Tensor input, SymInt[]? output_size, bool align_corners, float[]? scale_factors) -> Tensor", bicubic2d_vec},
    {"aten::embedding_bag(Tensor weight, Tensor indices, Tensor offsets, bool scale_grad_by_freq=False, int mode=0, bool sparse=False, Tensor? per_sample_weights=None, bool include_last_offset=False) -> (Tensor, Tensor, Tensor, Tensor)", embedding_bag},
    {"aten::embedding_bag.padding_idx(Tensor weight, Tensor indices, Tensor offsets, bool scale_grad_by_freq, int mode, bool sparse, Tensor? per_sample_weights, bool include_last_offset, int? padding_idx) -> (Tensor, Tensor, Tensor, Tensor)", embedding_bag_padding_idx},
    {"aten::ctc_loss.IntList(Tensor log_probs, Tensor targets, int[] input_lengths, int[] target_lengths, int blank=0, int reduction=1, bool zero_infinity=False) -> Tensor", ctc_loss_int_list},
    {"aten::ctc_loss.Tensor(Tensor log_probs, Tensor targets, Tensor input_lengths, Tensor target_lengths, int blank=0, int reduction=1, bool zero_infinity=False) -> Tensor", ctc_loss_tensor},
    {"aten::mse_loss(Tensor self, Tensor target, int reduction=1) -> Tensor", loss<torchlet::mse_loss>},
    {"aten::l1_loss(Tensor self, Tensor target, int reduction=1) -> Tensor", loss<torchlet::l1_loss>},
    {"aten::smooth_l1_loss(Tensor self, Tensor target, int reduction=1, float beta=1.) -> Tensor", loss_param<torchlet::smooth_l1_loss>},
    {"aten::huber_loss(Tensor self, Tensor target, int reduction=1, float delta=1.) -> Tensor", loss_param<torchlet::huber_loss>},
    {"aten::affine_grid_generator(Tensor theta, int[] size, bool align_corners) -> Tensor", affine_grid_generator_op},
    {"aten::grid_sampler(Tensor input, Tensor grid, int interpolation_mode, int padding_mode, bool align_corners) -> Tensor", grid_sampler_op<SamplerKernel::ByRank>},
    {"aten::grid_sampler_2d(Tensor input, Tensor grid, int interpolation_mode, int padding_mode, bool align_corners) -> Tensor", grid_sampler_op<SamplerKernel::Planar>},
    {"aten::grid_sampler_3d(Tensor input, Tensor grid, int interpolation_mode, int padding_mode, bool align_corners) -> Tensor", grid_sampler_op<SamplerKernel::Volumetric>},
    {"aten::im2col(Tensor self, int[2] kernel_size, int[2] dilation, int[2] padding, int[2] stride) -> Tensor", im2col_op},
    {"aten::col2im(Tensor self, SymInt[2] output_size, int[2] kernel_size, int[2] dilation, int[2] padding, int[2] stride) -> Tensor", col2im_op},
    {"aten::nll_loss(Tensor self, Tensor target, Tensor? weight=None, int reduction=1, int ignore_index=-100) -> Tensor", nll_loss},
    // What F.nll_loss calls: torch's nll_loss takes 1-D/2-D input and this any (N, C, d1, ...);
    // torchlet's nll_loss takes every layout already.
    {"aten::nll_loss_nd(Tensor self, Tensor target, Tensor? weight=None, int reduction=1, int ignore_index=-100) -> Tensor", nll_loss},
    {"aten::cross_entropy_loss(Tensor self, Tensor target, Tensor? weight=None, int reduction=1, int ignore_index=-100, float label_smoothing=0.) -> Tensor", cross_entropy},
    {"aten::binary_cross_entropy(Tensor self, Tensor target, Tensor? weight=None, int reduction=1) -> Tensor", bce},
    {"aten::binary_cross_entropy_with_logits(Tensor self, Tensor target, Tensor? weight=None, Tensor? pos_weight=None, int reduction=1) -> Tensor", bce_logits},
    {"aten::max_unpool2d(Tensor self, Tensor indices, int[2] output_size) -> Tensor", max_unpool2d},
    {"aten::max_unpool3d(Tensor self, Tensor indices, int[3] output_size, int[3] stride, int[3] padding) -> Tensor", max_unpool3d},
    {"aten::multi_margin_loss(Tensor self, Tensor target, Scalar p=1, Scalar margin=1, Tensor? weight=None, int reduction=1) -> Tensor", multi_margin_loss},
    {"aten::multilabel_margin_loss(Tensor self, Tensor target, int reduction=1) -> Tensor", multilabel_margin_loss},
    {"aten::multilabel_margin_loss_forward(Tensor self, Tensor target, int reduction) -> (Tensor output, Tensor is_target)", multilabel_margin_loss_forward},
    {"aten::kl_div(Tensor self, Tensor target, int reduction=1, *, bool log_target=False) -> Tensor", kl_div},
    {"aten::rand(int[] size, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor", rand_like_torch<false, false>},
    {"aten::rand.generator(int[] size, *, Generator? generator, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor", rand_like_torch<false, true>},
    {"aten::randn(int[] size, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor", rand_like_torch<true, false>},
    {"aten::randn.generator(int[] size, *, Generator? generator, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor", rand_like_torch<true, true>},
    {"aten::randint(int high, int[] size, *, ScalarType? dtype=4, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor", randint<false, false>},
    {"aten::randint.generator(int high, int[] size, *, Generator? generator, ScalarType? dtype=4, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor", randint<false, true>},
    {"aten::randint.low(int low, int high, int[] size, *, ScalarType? dtype=4, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor", randint<true, false>},
    {"aten::randint.low_generator(int low, int high, int[] size, *, Generator? generator, ScalarType? dtype=4, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor", randint<true, true>},
    {"aten::manual_seed(int seed) -> ()", manual_seed},
    {"aten::uniform_(Tensor(a!) self, float from=0., float to=1., *, Generator? generator=None) -> Tensor(a!)", uniform_},
    {"aten::normal_(Tensor(a!) self, float mean=0., float std=1., *, Generator? generator=None) -> Tensor(a!)", normal_},
    {"aten::random_.from(Tensor(a!) self, int from, int? to, *, Generator? generator=None) -> Tensor(a!)", random_from},
    {"aten::random_.to(Tensor(a!) self, int to, *, Generator? generator=None) -> Tensor(a!)", random_to},
    {"aten::random_(Tensor(a!) self, *, Generator? generator=None) -> Tensor(a!)", random_full},
    {"aten::bernoulli_.float(Tensor(a!) self, float p=0.5, *, Generator? generator=None) -> Tensor(a!)", bernoulli_},
    {"aten::exponential_(Tensor(a!) self, float lambd=1., *, Generator? generator=None) -> Tensor(a!)", exponential_},
    {"aten::cauchy_(Tensor(a!) self, float median=0., float sigma=1., *, Generator? generator=None) -> Tensor(a!)", cauchy_},
    {"aten::log_normal_(Tensor(a!) self, float mean=1., float std=2., *, Generator? generator=None) -> Tensor(a!)", log_normal_},
    {"aten::geometric_(Tensor(a!) self, float p, *, Generator? generator=None) -> Tensor(a!)", geometric_},
    {"aten::eye(int n, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor", eye<false>},
    {"aten::eye.m(int n, int m, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor", eye<true>},
    {"aten::baddbmm(Tensor self, Tensor batch1, Tensor batch2, *, Scalar beta=1, Scalar alpha=1) -> Tensor", baddbmm},
    {"aten::is_grad_enabled() -> bool", is_grad_enabled},
    {"aten::set_grad_enabled(bool val) -> ()", set_grad_enabled_op},
    {"profiler::_record_function_enter(str name, str? args=None) -> Tensor", record_function_enter},
    {"profiler::_record_function_exit(Tensor _0) -> ()", record_function_exit},
    {"profiler::_call_end_callbacks_on_jit_fut(Tensor x, Future(t) y) -> Future(t)", call_end_callbacks_on_jit_fut},
    {"aten::is_autocast_enabled() -> bool", is_autocast_enabled},
    {"aten::all.int(int[] self) -> bool", list_all<true>},
    {"aten::all.float(float[] self) -> bool", list_all<true>},
    {"aten::all.bool(bool[] self) -> bool", list_all<true>},
    {"aten::any.int(int[] self) -> bool", list_all<false>},
    {"aten::any.float(float[] self) -> bool", list_all<false>},
    {"aten::any.bool(bool[] self) -> bool", list_all<false>},
    {"aten::any.str(str[] self) -> bool", list_all<false>},
    {"prim::EnumName(AnyEnumType enum) -> str", enum_name},
    {"prim::EnumValue.int(AnyEnumType enum) -> int", enum_value},
    {"prim::EnumValue.float(AnyEnumType enum) -> float", enum_value},
    {"prim::EnumValue.str(AnyEnumType enum) -> str", enum_value},
});

}  // namespace torchlet::jit::ops

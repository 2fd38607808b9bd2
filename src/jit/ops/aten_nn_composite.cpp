// torch.nn operators torch composes from others, composed here the same way (so modules
// such as nn.PixelShuffle, nn.ChannelShuffle, nn.Bilinear, nn.CosineSimilarity,
// nn.PairwiseDistance and the margin/embedding/triplet/Poisson losses run from archives):
// pixel_shuffle/unshuffle, channel_shuffle, bilinear, cosine_similarity,
// pairwise_distance, dist, hinge_embedding_loss, cosine_embedding_loss,
// margin_ranking_loss, soft_margin_loss, triplet_margin_loss, poisson_nll_loss.
// Formulas and refusals follow torch 1.13's; cases run through torch in
// tests/fixtures/gen_ops.py (nn_composite_ops).
#include <cmath>
#include <numbers>

#include <torchlet/ops.h>

#include "jit/ops/ops_util.h"

namespace torchlet::jit::ops {
namespace {

// torch's apply_loss_reduction: any value but mean and sum leaves the loss unreduced.
Tensor reduce_loss(const Tensor& loss, int64_t reduction) {
  if (reduction == kReductionMean) return torchlet::mean(loss);
  if (reduction == kReductionSum) return torchlet::sum(loss);
  return loss;
}

// --- rearrangements ------------------------------------------------------------------------------

Tensor pixel_shuffle_impl(const Tensor& x, int64_t r, bool shuffle) {
  const char* op = shuffle ? "pixel_shuffle" : "pixel_unshuffle";
  TL_CHECK(x.dim() >= 3, ValueError, "{} expects input to have at least 3 dimensions, but got input with {} dimension(s)", op,
           x.dim());
  TL_CHECK(r > 0, ValueError, "{} expects a positive {}, but got {}", op, shuffle ? "upscale_factor" : "downscale_factor", r);
  Shape lead(x.sizes().begin(), x.sizes().end() - 3);
  const int64_t c = x.size(-3), h = x.size(-2), w = x.size(-1);
  const auto nd = static_cast<int64_t>(lead.size());
  Shape view = lead, perm, out = lead;
  for (int64_t i = 0; i < nd; ++i) perm.push_back(i);
  if (shuffle) {
    TL_CHECK(c % (r * r) == 0, ValueError,
             "pixel_shuffle expects its input's 'channel' dimension to be divisible by the square of upscale_factor, but "
             "input.size(-3)={} is not divisible by {}", c, r * r);
    view.insert(view.end(), {c / (r * r), r, r, h, w});
    perm.insert(perm.end(), {nd, nd + 3, nd + 1, nd + 4, nd + 2});
    out.insert(out.end(), {c / (r * r), h * r, w * r});
  } else {
    TL_CHECK(h % r == 0, ValueError,
             "pixel_unshuffle expects height to be divisible by downscale_factor, but input.size(-2)={} is not divisible by {}", h, r);
    TL_CHECK(w % r == 0, ValueError,
             "pixel_unshuffle expects width to be divisible by downscale_factor, but input.size(-1)={} is not divisible by {}", w, r);
    view.insert(view.end(), {c, h / r, r, w / r, r});
    perm.insert(perm.end(), {nd, nd + 2, nd + 4, nd + 1, nd + 3});
    out.insert(out.end(), {c * r * r, h / r, w / r});
  }
  return x.reshape(view).permute(perm).contiguous().reshape(out);
}
template <bool kShuffle>
void pixel_shuffle(Stack& s) {
  const int64_t r = pop_int(s);
  push(s, pixel_shuffle_impl(pop_tensor(s), r, kShuffle));
}

void channel_shuffle(Stack& s) {
  const int64_t groups = pop_int(s);
  Tensor x = pop_tensor(s);
  TL_CHECK(x.dim() > 2, ValueError, "channel_shuffle expects input to have at least 3 dimensions, but got input with {} dimension(s)",
           x.dim());
  TL_CHECK(groups > 0, ValueError, "Number of groups to divide channels in must be positive. Value of groups:{}", groups);
  const int64_t c = x.size(1);
  TL_CHECK(c % groups == 0, ValueError, "Number of channels must be divisible by groups. Got {} channels and {} groups.", c, groups);
  Shape view{x.size(0), groups, c / groups};
  view.insert(view.end(), x.sizes().begin() + 2, x.sizes().end());
  push(s, x.reshape(view).transpose(1, 2).contiguous().reshape(x.sizes()));
}

// y[..., o] = x1[..., i] W[o, i, j] x2[..., j] + b[o]
void bilinear(Stack& s) {
  auto bias = pop_opt_tensor(s);
  Tensor w = pop_tensor(s), x2 = pop_tensor(s), x1 = pop_tensor(s);
  TL_CHECK(x1.dim() == x2.dim(), ValueError, "bilinear(): input dimensions do not match: got {} and {}", x1.dim(), x2.dim());
  TL_CHECK(x1.dim() >= 1 && w.dim() == 3, ValueError, "bilinear(): weight must be 3-D and inputs at least 1-D");
  for (int64_t i = 0; i + 1 < x1.dim(); ++i)
    TL_CHECK(x1.size(i) == x2.size(i), ValueError, "bilinear(): input batch dimensions do not match: got {} and {}",
             shape_repr(x1.sizes()), shape_repr(x2.sizes()));
  TL_CHECK(x1.size(-1) == w.size(1), ValueError, "bilinear(): input1 size does not match weight size: got {} but expected {}",
           x1.size(-1), w.size(1));
  TL_CHECK(x2.size(-1) == w.size(2), ValueError, "bilinear(): input2 size does not match weight size: got {} but expected {}",
           x2.size(-1), w.size(2));
  const int64_t in1 = w.size(1), in2 = w.size(2), outs = w.size(0);
  Tensor a = x1.reshape({-1, in1}), b = x2.reshape({-1, in2});
  Tensor t = torchlet::matmul(a, w.permute({1, 0, 2}).reshape({in1, outs * in2})).reshape({-1, outs, in2});
  Tensor y = torchlet::sum(torchlet::mul(t, b.unsqueeze(1)), {-1});
  if (bias) y = torchlet::add(y, *bias);
  Shape shape(x1.sizes().begin(), x1.sizes().end() - 1);
  shape.push_back(outs);
  push(s, y.reshape(shape));
}

// --- distances ---------------------------------------------------------------------------------------

// torch 1.13: each input divided by its (eps-clamped) 2-norm over dim, then the sum of
// their product; integral inputs in the default float type.
void cosine_similarity(Stack& s) {
  const double eps = pop_double(s);
  const int64_t dim = pop_int(s);
  Tensor x2 = pop_tensor(s), x1 = pop_tensor(s);
  DType d = result_type(x1, x2);
  if (is_integral(d, true)) d = kDefaultFloatDType;
  const Shape shape = broadcast_shapes(x1.sizes(), x2.sizes());
  Tensor a = x1.to(d).expand(shape), b = x2.to(d).expand(shape);
  const int64_t at = wrap_dim(dim, static_cast<int64_t>(shape.size()), "cosine_similarity");
  Tensor na = torchlet::clamp(torchlet::norm(a, 2, {at}, true), Scalar(eps));
  Tensor nb = torchlet::clamp(torchlet::norm(b, 2, {at}, true), Scalar(eps));
  push(s, torchlet::sum(torchlet::mul(torchlet::div(a, na), torchlet::div(b, nb)), {at}));
}

Tensor pairwise_distance_impl(const Tensor& x1, const Tensor& x2, double p, double eps, bool keepdim) {
  const int64_t last = std::max(x1.dim(), x2.dim()) - 1;
  Tensor diff = torchlet::add(torchlet::sub(x1, x2), Scalar(eps));
  return torchlet::norm(diff, p, {std::max<int64_t>(last, 0)}, keepdim);
}
void pairwise_distance(Stack& s) {
  const bool keepdim = pop_bool(s);
  const double eps = pop_double(s), p = pop_double(s);
  Tensor x2 = pop_tensor(s), x1 = pop_tensor(s);
  push(s, pairwise_distance_impl(x1, x2, p, eps, keepdim));
}
void dist(Stack& s) {
  Scalar p = pop_scalar(s);
  Tensor other = pop_tensor(s), self = pop_tensor(s);
  push(s, torchlet::norm(torchlet::sub(self, other), p.to<double>()));
}

// --- losses ---------------------------------------------------------------------------------------

void hinge_embedding_loss(Stack& s) {
  const int64_t reduction = pop_int(s);
  const double margin = pop_double(s);
  Tensor target = pop_tensor(s), self = pop_tensor(s);
  Tensor zero = zeros(self.sizes(), self.dtype());
  Tensor margin_part = torchlet::where(torchlet::ne(target, Scalar(int64_t{1})),
                                       torchlet::clamp(torchlet::rsub(self, Scalar(margin)), Scalar(int64_t{0})), zero);
  Tensor self_part = torchlet::where(torchlet::ne(target, Scalar(int64_t{-1})), self, zero);
  push(s, reduce_loss(torchlet::add(margin_part, self_part), reduction));
}

void cosine_embedding_loss(Stack& s) {
  const int64_t reduction = pop_int(s);
  const double margin = pop_double(s);
  Tensor target = pop_tensor(s), x2 = pop_tensor(s), x1 = pop_tensor(s);
  const int64_t td = target.dim();
  TL_CHECK(td == 1 || td == 0, ValueError, "0D or 1D target tensor expected, multi-target not supported");
  if (td == 1)
    TL_CHECK(x1.dim() == 2 && x2.dim() == 2, ValueError,
             "1D target tensor expects 2D input tensors, but found inputs with sizes {} and {}.", shape_repr(x1.sizes()),
             shape_repr(x2.sizes()));
  else
    TL_CHECK(x1.dim() == 1 && x2.dim() == 1, ValueError,
             "0D target tensor expects 1D input tensors, but found inputs with sizes {} and {}.", shape_repr(x1.sizes()),
             shape_repr(x2.sizes()));
  constexpr double kEpsilon = 1e-12;
  Tensor prod = torchlet::sum(torchlet::mul(x1, x2), {td});
  Tensor mag1 = torchlet::add(torchlet::sum(torchlet::mul(x1, x1), {td}), Scalar(kEpsilon));
  Tensor mag2 = torchlet::add(torchlet::sum(torchlet::mul(x2, x2), {td}), Scalar(kEpsilon));
  Tensor cos = torchlet::div(prod, torchlet::sqrt(torchlet::mul(mag1, mag2)));
  Tensor zero = zeros(cos.sizes(), cos.dtype());
  Tensor pos = torchlet::rsub(cos, Scalar(int64_t{1}));
  Tensor neg = torchlet::clamp(torchlet::sub(cos, Scalar(margin)), Scalar(int64_t{0}));
  Tensor out = torchlet::add(torchlet::where(torchlet::eq(target, Scalar(int64_t{1})), pos, zero),
                             torchlet::where(torchlet::eq(target, Scalar(int64_t{-1})), neg, zero));
  push(s, reduce_loss(out, reduction));
}

void margin_ranking_loss(Stack& s) {
  const int64_t reduction = pop_int(s);
  const double margin = pop_double(s);
  Tensor target = pop_tensor(s), x2 = pop_tensor(s), x1 = pop_tensor(s);
  Tensor out = torchlet::add(torchlet::mul(torchlet::neg(target), torchlet::sub(x1, x2)), Scalar(margin));
  push(s, reduce_loss(torchlet::clamp(out, Scalar(int64_t{0})), reduction));
}

void soft_margin_loss(Stack& s) {
  const int64_t reduction = pop_int(s);
  Tensor target = pop_tensor(s), self = pop_tensor(s);
  push(s, reduce_loss(torchlet::log1p(torchlet::exp(torchlet::mul(torchlet::neg(self), target))), reduction));
}

void triplet_margin_loss(Stack& s) {
  const int64_t reduction = pop_int(s);
  const bool swap = pop_bool(s);
  const double eps = pop_double(s), p = pop_double(s), margin = pop_double(s);
  Tensor negative = pop_tensor(s), positive = pop_tensor(s), anchor = pop_tensor(s);
  TL_CHECK(anchor.dim() == positive.dim() && anchor.dim() == negative.dim(), ValueError,
           "The anchor, positive, and negative tensors are expected to have the same number of dimensions, but got: anchor {}D, "
           "positive {}D, and negative {}D inputs", anchor.dim(), positive.dim(), negative.dim());
  Tensor d_pos = pairwise_distance_impl(anchor, positive, p, eps, false);
  Tensor d_neg = pairwise_distance_impl(anchor, negative, p, eps, false);
  if (swap) d_neg = torchlet::minimum(d_neg, pairwise_distance_impl(positive, negative, p, eps, false));
  Tensor out = torchlet::clamp(torchlet::sub(torchlet::add(d_pos, Scalar(margin)), d_neg), Scalar(int64_t{0}));
  push(s, reduce_loss(out, reduction));
}

void poisson_nll_loss(Stack& s) {
  const int64_t reduction = pop_int(s);
  const double eps = pop_double(s);
  const bool full = pop_bool(s), log_input = pop_bool(s);
  Tensor target = pop_tensor(s), input = pop_tensor(s);
  Tensor loss = log_input ? torchlet::sub(torchlet::exp(input), torchlet::mul(target, input))
                          : torchlet::sub(input, torchlet::mul(target, torchlet::log(torchlet::add(input, Scalar(eps)))));
  if (full) {  // Stirling's term, for targets above 1
    Tensor stirling = torchlet::add(
        torchlet::sub(torchlet::mul(target, torchlet::log(target)), target),
        torchlet::mul(torchlet::log(torchlet::mul(target, Scalar(2 * std::numbers::pi))), Scalar(0.5)));
    loss = torchlet::add(loss, torchlet::masked_fill(stirling, torchlet::le(target, Scalar(int64_t{1})), Scalar(int64_t{0})));
  }
  push(s, reduce_loss(loss, reduction));
}

}  // namespace

static RegisterOps reg({
    {"aten::pixel_shuffle(Tensor self, int upscale_factor) -> Tensor", pixel_shuffle<true>},
    {"aten::pixel_unshuffle(Tensor self, int downscale_factor) -> Tensor", pixel_shuffle<false>},
    {"aten::channel_shuffle(Tensor self, int groups) -> Tensor", channel_shuffle},
    {"aten::native_channel_shuffle(Tensor self, int groups) -> Tensor", channel_shuffle},
    {"aten::bilinear(Tensor input1, Tensor input2, Tensor weight, Tensor? bias=None) -> Tensor", bilinear},
    {"aten::cosine_similarity(Tensor x1, Tensor x2, int dim=1, float eps=1e-08) -> Tensor", cosine_similarity},
    {"aten::pairwise_distance(Tensor x1, Tensor x2, float p=2., float eps=9.9999999999999995e-07, bool keepdim=False) -> Tensor", pairwise_distance},
    {"aten::dist(Tensor self, Tensor other, Scalar p=2) -> Tensor", dist},
    {"aten::hinge_embedding_loss(Tensor self, Tensor target, float margin=1., int reduction=1) -> Tensor", hinge_embedding_loss},
    {"aten::cosine_embedding_loss(Tensor input1, Tensor input2, Tensor target, float margin=0., int reduction=1) -> Tensor", cosine_embedding_loss},
    {"aten::margin_ranking_loss(Tensor input1, Tensor input2, Tensor target, float margin=0., int reduction=1) -> Tensor", margin_ranking_loss},
    {"aten::soft_margin_loss(Tensor self, Tensor target, int reduction=1) -> Tensor", soft_margin_loss},
    {"aten::triplet_margin_loss(Tensor anchor, Tensor positive, Tensor negative, float margin=1., float p=2., float eps=9.9999999999999995e-07, bool swap=False, int reduction=1) -> Tensor", triplet_margin_loss},
    {"aten::poisson_nll_loss(Tensor input, Tensor target, bool log_input, bool full, float eps, int reduction) -> Tensor", poisson_nll_loss},
});

}  // namespace torchlet::jit::ops

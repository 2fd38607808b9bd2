// The margin and embedding losses. multi_margin_loss and multilabel_margin_loss keep
// torch's CPU kernels' arithmetic: per-sample sums in the element type (multi_margin) or
// in double rounded to it (multilabel), the batch sum in double. Both read class
// indices from the target, so every index is checked before it is used; torch 1.13
// reads a too-short weight past its end, torchlet refuses it. hinge_embedding,
// cosine_embedding, margin_ranking, soft_margin and triplet_margin are composed from
// the other kernels as torch composes them, with its apply_loss_reduction (any value but
// mean and sum leaves the loss unreduced).
#include <limits>
#include <tuple>

#include <torchlet/error.h>
#include <torchlet/ops.h>

namespace torchlet {
namespace {

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

Tensor reduce_loss(const Tensor& loss, int64_t reduction) {
  if (reduction == kReductionMean) return mean(loss);
  if (reduction == kReductionSum) return sum(loss);
  return loss;
}

}  // namespace

Tensor multi_margin_loss(const Tensor& input, const Tensor& target, const Scalar& p_scalar, const Scalar& margin,
                         const std::optional<Tensor>& weight, int64_t reduction) {
  const int64_t p = p_scalar.to_int();
  TL_CHECK(p == 1 || p == 2, ValueError, "only p == 1 and p == 2 supported");
  const MarginLossFrames frames = margin_loss_frames(input);
  const int64_t nframe = frames.nframe, dim = frames.dim;  // (clang 14 lambdas capture no bindings)
  TL_CHECK(target.dim() <= 1 && target.numel() == nframe, ValueError, "inconsistent target size, got: {}",
           shape_repr(target.sizes()));
  if (weight)
    TL_CHECK(weight->numel() == dim, ValueError, "inconsistent weight size, expected {} but got {}", dim,
             shape_repr(weight->sizes()));
  const bool unreduced = reduction == kReductionNone && target.dim() > 0;
  if (input.numel() == 0) return empty_margin_loss(input, unreduced, reduction);
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
      T sum_ = 0;
      for (int64_t d = 0; d < dim; ++d) {
        if (d == y) continue;
        const T z = m - xp[y] + xp[d];
        if (!(z > 0)) continue;
        T h = p == 1 ? z : z * z;
        if (wp) h *= wp[y];
        sum_ += h;
      }
      sum_ /= static_cast<T>(dim);
      if (unreduced) out.data<T>()[i] = sum_;
      else total += sum_;
    }
    if (!unreduced) {
      if (reduction == kReductionMean) total /= static_cast<double>(nframe);
      *out.data<T>() = static_cast<T>(total);
    }
  });
  return out;
}

std::tuple<Tensor, Tensor> multilabel_margin_loss_forward(const Tensor& input, const Tensor& target,
                                                          int64_t reduction) {
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
      const T sum_ = static_cast<T>(frame);
      if (unreduced) out.data<T>()[i] = sum_ / static_cast<T>(dim);
      else total += sum_;
    }
    if (!unreduced) {
      total /= static_cast<double>(dim);
      if (reduction == kReductionMean) total /= static_cast<double>(nframe);
      *out.data<T>() = static_cast<T>(total);
    }
  });
  return {out, is_target};
}

Tensor multilabel_margin_loss(const Tensor& input, const Tensor& target, int64_t reduction) {
  return std::get<0>(multilabel_margin_loss_forward(input, target, reduction));
}

Tensor hinge_embedding_loss(const Tensor& self, const Tensor& target, double margin, int64_t reduction) {
  Tensor zero = zeros(self.sizes(), self.dtype());
  Tensor margin_part =
      where(ne(target, Scalar(int64_t{1})), clamp(rsub(self, Scalar(margin)), Scalar(int64_t{0})), zero);
  Tensor self_part = where(ne(target, Scalar(int64_t{-1})), self, zero);
  return reduce_loss(add(margin_part, self_part), reduction);
}

Tensor cosine_embedding_loss(const Tensor& x1, const Tensor& x2, const Tensor& target, double margin,
                             int64_t reduction) {
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
  Tensor prod = sum(mul(x1, x2), {td});
  Tensor mag1 = add(sum(mul(x1, x1), {td}), Scalar(kEpsilon));
  Tensor mag2 = add(sum(mul(x2, x2), {td}), Scalar(kEpsilon));
  Tensor cos_ = div(prod, sqrt(mul(mag1, mag2)));
  Tensor zero = zeros(cos_.sizes(), cos_.dtype());
  Tensor pos = rsub(cos_, Scalar(int64_t{1}));
  Tensor neg_ = clamp(sub(cos_, Scalar(margin)), Scalar(int64_t{0}));
  Tensor out = add(where(eq(target, Scalar(int64_t{1})), pos, zero), where(eq(target, Scalar(int64_t{-1})), neg_, zero));
  return reduce_loss(out, reduction);
}

Tensor margin_ranking_loss(const Tensor& x1, const Tensor& x2, const Tensor& target, double margin,
                           int64_t reduction) {
  Tensor out = add(mul(neg(target), sub(x1, x2)), Scalar(margin));
  return reduce_loss(clamp(out, Scalar(int64_t{0})), reduction);
}

Tensor soft_margin_loss(const Tensor& self, const Tensor& target, int64_t reduction) {
  return reduce_loss(log1p(exp(mul(neg(self), target))), reduction);
}

Tensor triplet_margin_loss(const Tensor& anchor, const Tensor& positive, const Tensor& negative, double margin,
                           double p, double eps, bool swap, int64_t reduction) {
  TL_CHECK(anchor.dim() == positive.dim() && anchor.dim() == negative.dim(), ValueError,
           "The anchor, positive, and negative tensors are expected to have the same number of dimensions, but got: "
           "anchor {}D, positive {}D, and negative {}D inputs",
           anchor.dim(), positive.dim(), negative.dim());
  Tensor d_pos = pairwise_distance(anchor, positive, p, eps, false);
  Tensor d_neg = pairwise_distance(anchor, negative, p, eps, false);
  if (swap) d_neg = minimum(d_neg, pairwise_distance(positive, negative, p, eps, false));
  Tensor out = clamp(sub(add(d_pos, Scalar(margin)), d_neg), Scalar(int64_t{0}));
  return reduce_loss(out, reduction);
}

}  // namespace torchlet

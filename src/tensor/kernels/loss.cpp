// The torch.nn.functional losses: pointwise ones (mse, l1, smooth_l1, huber,
// binary_cross_entropy, binary_cross_entropy_with_logits, kl_div) as one broadcast
// loop each followed by the reduction, and the class losses (nll_loss, cross_entropy
// with class-index or probability targets and label smoothing) over [N, C, d...]
// as torch's nll_loss_nd lays them out. Reductions reuse sum/mean from reduce.cpp.
#include <algorithm>
#include <cmath>

#include <torchlet/error.h>
#include <torchlet/ops.h>

#include "tensor/kernels/loop.h"

namespace torchlet {
namespace {

using kernels::opmath_t;

Tensor apply_reduction(const Tensor& loss, int64_t reduction) {
  TL_CHECK(reduction >= 0 && reduction <= 2, ValueError, "{} is not a valid value for reduction", reduction);
  if (reduction == kReductionNone) return loss;
  if (reduction == kReductionMean) return mean(loss);
  return sum(loss);
}

// f(x, y) over self and target broadcast together, in their promoted floating dtype.
template <typename F>
Tensor pointwise_loss(const Tensor& self, const Tensor& target, const char* kernel, const F& f) {
  DType d = promote_types(self.dtype(), target.dtype());
  TL_CHECK(d == DType::Float || d == DType::Double || d == DType::BFloat16, UnsupportedError,
           "\"{}\" not implemented for '{}'", kernel, dtype_info(d).scalar_type_name);
  Shape shape = broadcast_shapes(self.sizes(), target.sizes());
  Tensor a = self.to(d).expand(shape), b = target.to(d).expand(shape);
  Tensor out = empty(shape, d);
  auto loop = kernels::make_loop({&out, &a, &b});
  kernels::dispatch_floating(d, kernel, [&]<typename T>() {
    using M = opmath_t<T>;
    kernels::run_loop(loop, [&](char** p, const int64_t* s, int64_t n) {
      kernels::binary_row<T, T, T>(p, s, n, [&](T x, T y) {
        return static_cast<T>(f(static_cast<M>(x), static_cast<M>(y)));
      });
    });
  });
  return out;
}

}  // namespace

Tensor mse_loss(const Tensor& self, const Tensor& target, int64_t reduction) {
  return apply_reduction(pointwise_loss(self, target, "mse_cpu", [](auto x, auto y) { return (x - y) * (x - y); }),
                         reduction);
}

Tensor l1_loss(const Tensor& self, const Tensor& target, int64_t reduction) {
  return apply_reduction(pointwise_loss(self, target, "abs_cpu", [](auto x, auto y) { return std::abs(x - y); }),
                         reduction);
}

Tensor smooth_l1_loss(const Tensor& self, const Tensor& target, int64_t reduction, double beta) {
  TL_CHECK(beta >= 0, ValueError, "smooth_l1_loss does not support negative values for beta.");
  if (beta == 0) return l1_loss(self, target, reduction);
  return apply_reduction(pointwise_loss(self, target, "smooth_l1_cpu",
                                        [beta](auto x, auto y) {
                                          using M = decltype(x);
                                          const M b = static_cast<M>(beta);
                                          M z = std::abs(x - y);
                                          return z < b ? M(0.5) * z * z / b : z - M(0.5) * b;
                                        }),
                         reduction);
}

Tensor huber_loss(const Tensor& self, const Tensor& target, int64_t reduction, double delta) {
  TL_CHECK(delta > 0, ValueError, "huber_loss does not support non-positive values for delta.");
  return apply_reduction(pointwise_loss(self, target, "huber_cpu",
                                        [delta](auto x, auto y) {
                                          using M = decltype(x);
                                          const M dl = static_cast<M>(delta);
                                          M z = std::abs(x - y);
                                          return z < dl ? M(0.5) * z * z : dl * (z - M(0.5) * dl);
                                        }),
                         reduction);
}

Tensor binary_cross_entropy(const Tensor& self, const Tensor& target, const std::optional<Tensor>& weight,
                            int64_t reduction) {
  TL_CHECK(is_floating(self.dtype()) && self.dtype() != DType::Half, UnsupportedError,
           "\"binary_cross_entropy\" not implemented for '{}'", dtype_info(self.dtype()).scalar_type_name);
  auto v = self.to_vector<double>();
  for (double x : v) TL_CHECK(x >= 0 && x <= 1, ValueError, "all elements of input should be between 0 and 1");
  // log terms clamp at -100, as torch does, so 0 and 1 give finite losses.
  Tensor loss = pointwise_loss(self, target, "binary_cross_entropy", [](auto x, auto y) {
    using M = decltype(x);
    M lx = std::max(std::log(x), M(-100)), l1x = std::max(std::log1p(-x), M(-100));
    return -(y * lx + (M(1) - y) * l1x);
  });
  if (weight && weight->defined()) loss = mul(loss, *weight);
  return apply_reduction(loss, reduction);
}

Tensor binary_cross_entropy_with_logits(const Tensor& self, const Tensor& target, const std::optional<Tensor>& weight,
                                        const std::optional<Tensor>& pos_weight, int64_t reduction) {
  // torch computes in place on a target-shaped tensor, so the target must hold the broadcast.
  TL_CHECK(broadcast_shapes(self.sizes(), target.sizes()) == target.sizes(), ValueError,
           "output with shape {} doesn't match the broadcast shape {}", shape_repr(target.sizes()),
           shape_repr(broadcast_shapes(self.sizes(), target.sizes())));
  Tensor loss;
  if (pos_weight && pos_weight->defined()) {
    // (1 - t) x + (1 + (pw - 1) t) (log1p(exp(-|x|)) + max(-x, 0))
    Tensor lw = add(mul(sub(*pos_weight, Scalar(1)), target), Scalar(1));
    Tensor soft = pointwise_loss(self, self, "binary_cross_entropy_with_logits", [](auto x, auto) {
      using M = decltype(x);
      return std::log1p(std::exp(-std::abs(x))) + std::max(-x, M(0));
    });
    loss = add(mul(rsub(target, Scalar(1)), self), mul(lw, soft));
  } else {
    loss = pointwise_loss(self, target, "binary_cross_entropy_with_logits", [](auto x, auto y) {
      using M = decltype(x);
      return (M(1) - y) * x + std::log1p(std::exp(-std::abs(x))) + std::max(-x, M(0));
    });
  }
  if (weight && weight->defined()) loss = mul(loss, *weight);
  return apply_reduction(loss, reduction);
}

Tensor kl_div(const Tensor& self, const Tensor& target, int64_t reduction, bool log_target) {
  Tensor loss;
  if (log_target) {
    loss = pointwise_loss(self, target, "kl_div", [](auto x, auto y) { return std::exp(y) * (y - x); });
  } else {
    // xlogy(t, t) - t * x, with 0 log 0 = 0.
    loss = pointwise_loss(self, target, "kl_div", [](auto x, auto y) {
      using M = decltype(x);
      M tl = y == M(0) ? M(0) : y * std::log(y);
      return tl - y * x;
    });
  }
  return apply_reduction(loss, reduction);
}

namespace {

// [N, C, S] view of nll/cross_entropy input (N = 1 for a 1-D input, S the spatial
// product) and the matching [N, S] target.
struct ClassLayout {
  Tensor x;  // [N, C, S] contiguous
  int64_t n = 1, c = 1, s = 1;
  Shape target_shape;  // the shape of reduction='none' results
};

ClassLayout class_layout(const Tensor& self, const Tensor& target, bool prob_target) {
  TL_CHECK(self.dim() >= 1, ValueError, "Expected 1 or more dimensions (got {})", self.dim());
  ClassLayout l;
  if (self.dim() == 1) {
    l.c = self.size(0);
  } else {
    l.n = self.size(0);
    l.c = self.size(1);
    for (int64_t d = 2; d < self.dim(); ++d) l.s *= self.size(d);
  }
  if (prob_target) {
    TL_CHECK(target.sizes() == self.sizes(), ValueError,
             "Expected target size {}, got {}", shape_repr(self.sizes()), shape_repr(target.sizes()));
  } else {
    // torch's nll_loss_nd order: batch sizes, then the target's rank or shape.
    if (self.dim() >= 2) {
      int64_t tn = target.dim() ? target.size(0) : 1;
      TL_CHECK(tn == l.n, ValueError, "Expected input batch_size ({}) to match target batch_size ({}).", l.n, tn);
    }
    if (self.dim() <= 2) {
      TL_CHECK(target.dim() <= 1, ValueError, "0D or 1D target tensor expected, multi-target not supported");
    } else {
      Shape want{l.n};
      for (int64_t d = 2; d < self.dim(); ++d) want.push_back(self.size(d));
      TL_CHECK(target.sizes() == IntList(want), ValueError, "Expected target size {}, got {}", shape_repr(want),
               shape_repr(target.sizes()));
    }
  }
  for (int64_t d = 0; d < self.dim(); ++d) {
    if (d != (self.dim() == 1 ? 0 : 1)) l.target_shape.push_back(self.size(d));
  }
  l.x = self.contiguous().reshape({l.n, l.c, l.s});
  return l;
}

std::vector<double> class_weights(const std::optional<Tensor>& weight, int64_t c) {
  if (!weight || !weight->defined()) return std::vector<double>(static_cast<size_t>(c), 1.0);
  TL_CHECK(weight->numel() == c, ValueError,
           "weight tensor should be defined either for all {} classes or no classes but got weight tensor of shape: {}",
           c, shape_repr(weight->sizes()));
  return weight->reshape({-1}).to_vector<double>();
}

// The nll terms -w[t] * x[t] per target position (0 where ignored) and the summed
// weight of the counted positions. `x` holds log-probabilities [N, C, S].
template <typename T>
void nll_terms(const ClassLayout& l, const std::vector<int64_t>& tgt, const std::vector<double>& w, int64_t ignore_index,
               std::vector<double>& terms, double& wsum) {
  const T* px = l.x.data<T>();
  terms.assign(static_cast<size_t>(l.n * l.s), 0.0);
  wsum = 0;
  for (int64_t i = 0; i < l.n; ++i) {
    for (int64_t j = 0; j < l.s; ++j) {
      size_t k = static_cast<size_t>(i * l.s + j);
      int64_t t = tgt[k];
      if (t == ignore_index) continue;
      TL_CHECK(t >= 0 && t < l.c, IndexError, "Target {} is out of bounds.", t);
      double wt = w[static_cast<size_t>(t)];
      terms[k] = -wt * static_cast<double>(px[(i * l.c + t) * l.s + j]);
      wsum += wt;
    }
  }
}

Tensor terms_tensor(const std::vector<double>& terms, const Shape& shape, DType d) {
  return tensor<double>(std::span<const double>(terms.data(), terms.size()), {static_cast<int64_t>(terms.size())})
      .reshape(shape)
      .to(d);
}

void check_class_input(DType d, const char* kernel) {
  TL_CHECK(d == DType::Float || d == DType::Double || d == DType::BFloat16, UnsupportedError,
           "\"{}\" not implemented for '{}'", kernel, dtype_info(d).scalar_type_name);
}

void check_index_target(const Tensor& target) {
  TL_CHECK(target.dtype() == DType::Long, TypeError, "expected scalar type Long but found {}",
           dtype_info(target.dtype()).scalar_type_name);
}

// nll over log-probabilities; sum/mean done in double (a 0/0 mean is NaN, as torch).
Tensor nll_from_logp(const ClassLayout& l, const Tensor& target, const std::vector<double>& w, int64_t reduction,
                     int64_t ignore_index, DType d, std::vector<double>* terms_out = nullptr, double* wsum_out = nullptr) {
  std::vector<int64_t> tgt = target.reshape({-1}).to_vector<int64_t>();
  std::vector<double> terms;
  double wsum = 0;
  kernels::dispatch_floating(d, "nll_loss", [&]<typename T>() { nll_terms<T>(l, tgt, w, ignore_index, terms, wsum); });
  if (terms_out) *terms_out = terms;
  if (wsum_out) *wsum_out = wsum;
  if (reduction == kReductionNone) return terms_tensor(terms, l.target_shape, d);
  double total = 0;
  for (double v : terms) total += v;
  if (reduction == kReductionMean) total /= wsum;
  return scalar_tensor(total, d);
}

}  // namespace

Tensor nll_loss(const Tensor& self, const Tensor& target, const std::optional<Tensor>& weight, int64_t reduction,
                int64_t ignore_index) {
  TL_CHECK(reduction >= 0 && reduction <= 2, ValueError, "{} is not a valid value for reduction", reduction);
  ClassLayout l = class_layout(self, target, false);
  check_index_target(target);
  auto w = class_weights(weight, l.c);
  check_class_input(self.dtype(), "nll_loss_out_frame");
  return nll_from_logp(l, target, w, reduction, ignore_index, self.dtype());
}

Tensor cross_entropy(const Tensor& self, const Tensor& target, const std::optional<Tensor>& weight,
                     int64_t reduction, int64_t ignore_index, double label_smoothing) {
  TL_CHECK(reduction >= 0 && reduction <= 2, ValueError, "{} is not a valid value for reduction", reduction);
  TL_CHECK(label_smoothing >= 0 && label_smoothing <= 1, ValueError,
           "label_smoothing must be between 0.0 and 1.0. Got: {}", label_smoothing);
  const int64_t class_dim = self.dim() == 1 ? 0 : 1;
  // Probability targets have the input's shape; anything else is class indices.
  const bool prob = is_floating(target.dtype()) && target.sizes() == self.sizes();
  ClassLayout probe = class_layout(self, target, prob);
  if (!prob) check_index_target(target);
  auto w = class_weights(weight, probe.c);
  Tensor logp = log_softmax(self, class_dim);
  ClassLayout l = class_layout(logp, target, prob);
  const DType d = self.dtype();
  const double eps = label_smoothing, c = static_cast<double>(l.c);
  if (prob) {
    // -sum_c w_c logp_c t'_c with t' = t (1 - eps) + eps / C; mean divides by N*S.
    Tensor t = target.contiguous().reshape({l.n, l.c, l.s}).to(DType::Double);
    auto tv = t.to_vector<double>();
    auto xv = l.x.to_vector<double>();
    std::vector<double> terms(static_cast<size_t>(l.n * l.s), 0.0);
    for (int64_t i = 0; i < l.n; ++i) {
      for (int64_t k = 0; k < l.c; ++k) {
        for (int64_t j = 0; j < l.s; ++j) {
          size_t at = static_cast<size_t>((i * l.c + k) * l.s + j);
          double tt = tv[at] * (1 - eps) + eps / c;
          terms[static_cast<size_t>(i * l.s + j)] -= w[static_cast<size_t>(k)] * xv[at] * tt;
        }
      }
    }
    if (reduction == kReductionNone) return terms_tensor(terms, l.target_shape, d);
    double total = 0;
    for (double v : terms) total += v;
    if (reduction == kReductionMean) total /= static_cast<double>(l.n * l.s);
    return scalar_tensor(total, d);
  }
  std::vector<double> nll;
  double wsum = 0;
  Tensor base = nll_from_logp(l, target, w, reduction, ignore_index, d, &nll, &wsum);
  if (eps == 0) return base;
  // Label smoothing adds eps/C times -sum_c w_c logp_c per counted position.
  std::vector<int64_t> tgt = target.reshape({-1}).to_vector<int64_t>();
  auto xv = l.x.to_vector<double>();
  std::vector<double> smooth(static_cast<size_t>(l.n * l.s), 0.0);
  for (int64_t i = 0; i < l.n; ++i) {
    for (int64_t j = 0; j < l.s; ++j) {
      size_t k = static_cast<size_t>(i * l.s + j);
      if (tgt[k] == ignore_index) continue;
      double acc = 0;
      for (int64_t cl = 0; cl < l.c; ++cl) acc -= w[static_cast<size_t>(cl)] * xv[static_cast<size_t>((i * l.c + cl) * l.s + j)];
      smooth[k] = acc;
    }
  }
  std::vector<double> combined(nll.size());
  for (size_t k = 0; k < nll.size(); ++k) combined[k] = (1 - eps) * nll[k] + eps / c * smooth[k];
  if (reduction == kReductionNone) return terms_tensor(combined, l.target_shape, d);
  double nll_total = 0, smooth_total = 0;
  for (size_t k = 0; k < nll.size(); ++k) {
    nll_total += nll[k];
    smooth_total += smooth[k];
  }
  if (reduction == kReductionSum) return scalar_tensor((1 - eps) * nll_total + eps / c * smooth_total, d);
  // Mean: both parts over the counted weight (the number of counted positions when
  // there are no class weights).
  double smooth_mean = smooth_total / wsum;
  return scalar_tensor((1 - eps) * (nll_total / wsum) + eps / c * smooth_mean, d);
}

}  // namespace torchlet

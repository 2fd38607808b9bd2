// The torch.nn.functional losses: pointwise ones (mse, l1, smooth_l1, huber,
// binary_cross_entropy, binary_cross_entropy_with_logits, kl_div) as one broadcast
// loop each followed by the reduction, and the class losses (nll_loss, cross_entropy
// with class-index or probability targets and label smoothing) over [N, C, d...]
// as torch's nll_loss_nd lays them out, and ctc_loss (torch's forward recursion over
// the blank-interleaved target), and poisson_nll_loss as torch composes it. Reductions
// reuse sum/mean from reduce.cpp; the margin and embedding losses are margin_loss.cpp's.
#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <vector>

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

namespace {

// One sequence's negative log-likelihood: torch's alpha recursion over the target with
// blanks between and around its labels (2L + 1 states), in T, each step a log-sum-exp
// of up to three predecessors shifted by their maximum (0 when all are -inf).
template <typename T>
T ctc_nll(const T* lp, int64_t time_stride, int64_t input_length, const int64_t* target, int64_t target_length,
          int64_t blank) {
  const T neg_inf = -std::numeric_limits<T>::infinity();
  if (input_length == 0) return target_length == 0 ? T(0) : std::numeric_limits<T>::infinity();
  const int64_t states = 2 * target_length + 1;
  auto label = [&](int64_t s) { return s % 2 == 0 ? blank : target[s / 2]; };
  std::vector<T> alpha(static_cast<size_t>(states), neg_inf), next(static_cast<size_t>(states));
  alpha[0] = lp[blank];
  if (target_length > 0) alpha[1] = lp[target[0]];
  for (int64_t t = 1; t < input_length; ++t) {
    const T* row = lp + t * time_stride;
    for (int64_t s = 0; s < states; ++s) {
      const int64_t l = label(s);
      const T a1 = alpha[static_cast<size_t>(s)];
      const T a2 = s > 0 ? alpha[static_cast<size_t>(s - 1)] : neg_inf;
      const T a3 = s > 1 && label(s - 2) != l ? alpha[static_cast<size_t>(s - 2)] : neg_inf;
      T m = std::max({a1, a2, a3});
      if (m == neg_inf) m = 0;
      next[static_cast<size_t>(s)] = std::log(std::exp(a1 - m) + std::exp(a2 - m) + std::exp(a3 - m)) + m + row[l];
    }
    std::swap(alpha, next);
  }
  const T l1 = alpha[static_cast<size_t>(states - 1)];
  const T l2 = target_length > 0 ? alpha[static_cast<size_t>(states - 2)] : neg_inf;
  T m = std::max(l1, l2);
  if (m == neg_inf) m = 0;
  return -(std::log(std::exp(l1 - m) + std::exp(l2 - m)) + m);
}

}  // namespace

Tensor ctc_loss(const Tensor& log_probs, const Tensor& targets, IntList input_lengths, IntList target_lengths,
                int64_t blank, int64_t reduction, bool zero_infinity) {
  const bool batched = log_probs.dim() == 3;
  const Tensor lp = (batched ? log_probs : log_probs.unsqueeze(1)).contiguous();
  TL_CHECK(is_floating(lp.dtype()) && lp.dtype() != DType::Half && lp.dtype() != DType::BFloat16, UnsupportedError,
           "\"ctc_loss_cpu\" not implemented for '{}'", dtype_info(lp.dtype()).scalar_type_name);
  TL_CHECK(lp.dim() == 3, ValueError, "Expected 3-dimensional tensor, but got {}-dimensional tensor for argument #1 "
           "'log_probs' (while checking arguments for ctc_loss_cpu)", lp.dim());
  const Tensor tg = targets.to(DType::Long).contiguous();
  TL_CHECK(tg.dim() >= 1 && tg.dim() <= 2, ValueError, "Expected 1 to 2 dimensions, but got {}-dimensional tensor for "
           "argument #2 'targets' (while checking arguments for ctc_loss_cpu)", tg.dim());
  const int64_t max_time = lp.size(0), batch = lp.size(1), labels = lp.size(2);
  TL_CHECK(blank >= 0 && blank < labels, ValueError, "blank must be in label range");
  TL_CHECK(static_cast<int64_t>(input_lengths.size()) == batch, ValueError, "input_lengths must be of size batch_size");
  TL_CHECK(static_cast<int64_t>(target_lengths.size()) == batch, ValueError, "target_lengths must be of size batch_size");
  // torch reads past the data for negative lengths and for labels outside [0, C) (the
  // next sequence's probabilities, or beyond): refused by name here.
  std::vector<int64_t> offsets(static_cast<size_t>(batch));
  int64_t total = 0, longest = 0;
  for (int64_t b = 0; b < batch; ++b) {
    TL_CHECK(input_lengths[b] >= 0 && target_lengths[b] >= 0, ValueError,
             "ctc_loss: input and target lengths must not be negative, but sequence {} has {} and {}", b,
             input_lengths[b], target_lengths[b]);
    offsets[static_cast<size_t>(b)] = tg.dim() == 1 ? total : b * (tg.size(-1));
    // Past the targets' own size the checks below refuse it; summing on could overflow.
    total = target_lengths[b] > tg.numel() - total ? tg.numel() + 1 : total + target_lengths[b];
    longest = std::max(longest, target_lengths[b]);
  }
  if (tg.dim() == 1) {
    TL_CHECK(tg.size(0) == total, ValueError, "Expected tensor to have size {} at dimension 0, but got size {} for "
             "argument #2 'targets' (while checking arguments for ctc_loss_cpu)", total, tg.size(0));
  } else {
    TL_CHECK(tg.size(0) == batch, ValueError, "Expected tensor to have size {} at dimension 0, but got size {} for "
             "argument #2 'targets' (while checking arguments for ctc_loss_cpu)", batch, tg.size(0));
    TL_CHECK(tg.size(1) >= longest, ValueError, "Expected tensor to have size at least {} at dimension 1, but got size {} "
             "for argument #2 'targets' (while checking arguments for ctc_loss_cpu)", longest, tg.size(1));
  }
  for (int64_t b = 0; b < batch; ++b)
    TL_CHECK(input_lengths[b] <= max_time, ValueError, "Expected input_lengths to have value at most {}, but got value {} "
             "(while checking arguments for ctc_loss_cpu)", max_time, input_lengths[b]);
  const int64_t* tp = tg.data<int64_t>();
  for (int64_t b = 0; b < batch; ++b)
    for (int64_t i = 0; i < target_lengths[b]; ++i) {
      const int64_t l = tp[offsets[static_cast<size_t>(b)] + i];
      TL_CHECK(l >= 0 && l < labels, ValueError, "ctc_loss: target label {} of sequence {} is outside [0, {})", l, b,
               labels);
    }
  Tensor nll = empty({batch}, lp.dtype());
  kernels::dispatch_floating(lp.dtype(), "ctc_loss_cpu", [&]<typename T>() {
    const T* p = lp.data<T>();
    T* out = nll.data<T>();
    for (int64_t b = 0; b < batch; ++b)
      out[b] = ctc_nll<T>(p + b * labels, batch * labels, input_lengths[b], tp + offsets[static_cast<size_t>(b)],
                          target_lengths[b], blank);
  });
  if (zero_infinity) nll = where(eq(nll, std::numeric_limits<double>::infinity()), Scalar(0.0), nll);
  if (reduction == kReductionMean) {
    Tensor lengths = empty({batch}, nll.dtype());
    for (int64_t b = 0; b < batch; ++b) lengths.select(0, b).fill_(std::max<int64_t>(target_lengths[b], 1));
    return mean(div(nll, lengths));
  }
  if (reduction == kReductionSum) return sum(nll);
  return batched ? nll : nll.squeeze(0);
}

// The lengths as tensors: any integer dtype, read as int64.
Tensor ctc_loss(const Tensor& log_probs, const Tensor& targets, const Tensor& input_lengths,
                const Tensor& target_lengths, int64_t blank, int64_t reduction, bool zero_infinity) {
  TL_CHECK(is_integral(input_lengths.dtype(), false), TypeError, "input_lengths must be integral");
  TL_CHECK(is_integral(target_lengths.dtype(), false), TypeError, "target_lengths must be integral");
  const std::vector<int64_t> il = input_lengths.to_vector<int64_t>(), tl = target_lengths.to_vector<int64_t>();
  return ctc_loss(log_probs, targets, IntList(il.data(), il.size()), IntList(tl.data(), tl.size()), blank, reduction,
                  zero_infinity);
}

// torch composes poisson_nll_loss from other operators (so the reduction is its
// apply_loss_reduction: any value but mean and sum leaves the loss unreduced).
Tensor poisson_nll_loss(const Tensor& input, const Tensor& target, bool log_input, bool full, double eps,
                        int64_t reduction) {
  Tensor loss = log_input ? sub(exp(input), mul(target, input)) : sub(input, mul(target, log(add(input, Scalar(eps)))));
  if (full) {  // Stirling's term, for targets above 1
    Tensor stirling = add(sub(mul(target, log(target)), target),
                          mul(log(mul(target, Scalar(2 * std::numbers::pi))), Scalar(0.5)));
    loss = add(loss, masked_fill(stirling, le(target, Scalar(int64_t{1})), Scalar(int64_t{0})));
  }
  if (reduction == kReductionMean) return mean(loss);
  if (reduction == kReductionSum) return sum(loss);
  return loss;
}

}  // namespace torchlet

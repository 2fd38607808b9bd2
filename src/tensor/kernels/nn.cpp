// Neural-network operators that are our own loops: batch_norm (eval), layer_norm,
// group_norm, softmax/log_softmax, dropout, embedding and 2-d upsampling
// (nearest, bilinear). Statistics and exponentials are computed in float for
// float16/bfloat16 inputs, as torch does. Convolution and pooling are in conv.cpp.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>

#include <torchlet/error.h>
#include <torchlet/ops.h>

#include "tensor/kernels/loop.h"
#include "tensor/kernels/out_variants.h"
#include "tensor/kernels/vec_math.h"

namespace torchlet {
namespace {

using kernels::opmath_t;

// Floating types only; torch 1.13's CPU build has no float16 kernel for most of these
// operators either (`half_ok` marks the exceptions).
void check_floating(DType d, const char* kernel, bool half_ok = false) {
  TL_CHECK(is_floating(d) && (half_ok || d != DType::Half), UnsupportedError, "\"{}\" not implemented for '{}'",
           kernel, dtype_info(d).scalar_type_name);
}

// Per-channel vector as float64 values (weights, biases, running statistics), or
// `fill` when absent.
std::vector<double> channel_values(const std::optional<Tensor>& t, int64_t n, double fill, const char* what,
                                   const char* op) {
  if (!t || !t->defined()) return std::vector<double>(static_cast<size_t>(n), fill);
  TL_CHECK(t->numel() == n, ValueError, "{}: expected {} to have {} elements, but got {}", op, what, n,
           t->numel());
  return t->reshape({-1}).to_vector<double>();
}

}  // namespace

namespace {

// Per-channel statistics of a training-mode batch_norm, as torch's
// batch_norm_cpu_update_stats_template computes them for a contiguous input: the sum
// in double, the mean rounded to the element type, the squared deviations from that
// mean summed in double and rounded too; invstd = 1 / sqrt(var_sum / n + eps). The
// running statistics move by momentum (the variance unbiased) in their own dtype.
struct BatchStats {
  Tensor mean, invstd;  // [C], input's dtype
};
BatchStats batch_statistics(const Tensor& x, const std::optional<Tensor>& running_mean,
                            const std::optional<Tensor>& running_var, double momentum, double eps) {
  const int64_t n = x.size(0), c = x.size(1), inner = c ? x.numel() / std::max<int64_t>(1, n * c) : 0;
  const int64_t count = n * inner;
  BatchStats st{empty({c}, x.dtype()), empty({c}, x.dtype())};
  std::vector<double> mean_d(static_cast<size_t>(c)), var_sum_d(static_cast<size_t>(c));
  kernels::dispatch_floating(x.dtype(), "batch_norm", [&]<typename T>() {
    using M = opmath_t<T>;
    const T* src = x.data<T>();
    T* mean_out = st.mean.data<T>();
    T* invstd_out = st.invstd.data<T>();
    parallel_for(0, c, 1, [&](int64_t lo, int64_t hi) {
      for (int64_t ch = lo; ch < hi; ++ch) {
        double sum = 0;
        for (int64_t b = 0; b < n; ++b) {
          const T* p = src + (b * c + ch) * inner;
          for (int64_t i = 0; i < inner; ++i) sum += static_cast<double>(static_cast<M>(p[i]));
        }
        const T mean = static_cast<T>(sum / static_cast<double>(count));
        double var_sum = 0;
        for (int64_t b = 0; b < n; ++b) {
          const T* p = src + (b * c + ch) * inner;
          for (int64_t i = 0; i < inner; ++i) {
            const M d = static_cast<M>(p[i]) - static_cast<M>(mean);
            var_sum += static_cast<double>(d * d);
          }
        }
        const T var_sum_t = static_cast<T>(var_sum);
        const double var = static_cast<double>(static_cast<M>(var_sum_t) / static_cast<M>(count));
        mean_out[ch] = mean;
        invstd_out[ch] = static_cast<T>(var == 0 && eps == 0 ? 0.0 : 1.0 / std::sqrt(var + eps));
        mean_d[static_cast<size_t>(ch)] = static_cast<double>(static_cast<M>(mean));
        var_sum_d[static_cast<size_t>(ch)] = static_cast<double>(static_cast<M>(var_sum_t));
      }
    });
  });
  auto update = [&](const std::optional<Tensor>& running, const char* what, bool variance) {
    if (!running || !running->defined()) return;
    Tensor r = *running;
    TL_CHECK(r.numel() == c, ValueError, "batch_norm: expected {} to have {} elements, but got {}", what, c, r.numel());
    Tensor next = r.contiguous().clone();
    kernels::dispatch_floating(r.dtype(), "batch_norm", [&]<typename P>() {
      using M = opmath_t<P>;
      P* v = next.data<P>();
      const M m = static_cast<M>(static_cast<P>(momentum));
      for (int64_t ch = 0; ch < c; ++ch) {
        const size_t i = static_cast<size_t>(ch);
        if (variance) {
          // torch: var_sum / (n - 1) in the parameter type, then momentum * it in double.
          const double unbiased = static_cast<double>(static_cast<M>(var_sum_d[i]) / static_cast<M>(count - 1));
          v[ch] = static_cast<P>(static_cast<double>(m) * unbiased + static_cast<double>((M(1) - m) * static_cast<M>(v[ch])));
        } else {
          v[ch] = static_cast<P>(m * static_cast<M>(mean_d[i]) + (M(1) - m) * static_cast<M>(v[ch]));
        }
      }
    });
    r.copy_(next.reshape(r.sizes()));
  };
  update(running_mean, "running_mean", false);
  update(running_var, "running_var", true);
  return st;
}

// batch_norm of `input` into `out` (input's shape and dtype, contiguous); `out` may be
// `input` itself (each element is read once, then written in place). In training the
// statistics come from the input (returned) and the running ones are updated.
std::optional<BatchStats> batch_norm_impl(Tensor& out, const Tensor& input, const std::optional<Tensor>& weight,
                                          const std::optional<Tensor>& bias, const std::optional<Tensor>& running_mean,
                                          const std::optional<Tensor>& running_var, bool training, double momentum,
                                          double eps) {
  TL_CHECK(training || (running_mean && running_var && running_mean->defined() && running_var->defined()), ValueError,
           "batch_norm: running_mean and running_var must be defined in evaluation mode");
  TL_CHECK(input.dim() >= 2, ValueError, "batch_norm: expected at least 2D input (got {}D input)", input.dim());
  check_floating(input.dtype(), "batch_norm");
  int64_t c = input.size(1);
  Tensor x = input.contiguous();
  // Fold the statistics into one scale and shift per channel: y = x * scale + shift.
  auto w = channel_values(weight, c, 1, "weight", "batch_norm");
  auto b = channel_values(bias, c, 0, "bias", "batch_norm");
  std::vector<double> scale(static_cast<size_t>(c)), shift(static_cast<size_t>(c));
  std::optional<BatchStats> stats;
  if (training) {
    stats = batch_statistics(x, running_mean, running_var, momentum, eps);
    auto mean = stats->mean.to_vector<double>(), invstd = stats->invstd.to_vector<double>();
    for (size_t i = 0; i < scale.size(); ++i) {
      scale[i] = invstd[i] * w[i];
      shift[i] = b[i] - mean[i] * scale[i];
    }
  } else {
    auto mean = channel_values(running_mean, c, 0, "running_mean", "batch_norm");
    auto var = channel_values(running_var, c, 1, "running_var", "batch_norm");
    for (size_t i = 0; i < scale.size(); ++i) {
      scale[i] = w[i] / std::sqrt(var[i] + eps);
      shift[i] = b[i] - mean[i] * scale[i];
    }
  }
  TL_INTERNAL_ASSERT(out.is_contiguous() && out.sizes() == x.sizes() && out.dtype() == x.dtype(),
                     "batch_norm's output matches its input");
  int64_t n = x.size(0), inner = c ? x.numel() / std::max<int64_t>(1, n * c) : 0;
  kernels::dispatch_floating(x.dtype(), "batch_norm", [&]<typename T>() {
    using M = opmath_t<T>;
    const T* src = x.data<T>();
    T* dst = out.data<T>();
    parallel_for(0, n * c, std::max<int64_t>(1, kernels::kGrainSize / std::max<int64_t>(inner, 1)),
                 [&](int64_t lo, int64_t hi) {
                   for (int64_t plane = lo; plane < hi; ++plane) {
                     size_t ch = static_cast<size_t>(plane % c);
                     const M sc = static_cast<M>(scale[ch]), sh = static_cast<M>(shift[ch]);
                     // No __restrict: ps and pd are the same row when writing in place.
                     const T* ps = src + plane * inner;
                     T* pd = dst + plane * inner;
                     for (int64_t i = 0; i < inner; ++i) pd[i] = static_cast<T>(static_cast<M>(ps[i]) * sc + sh);
                   }
                 });
  });
  return stats;
}

}  // namespace

std::tuple<Tensor, Tensor, Tensor> native_batch_norm(const Tensor& input, const std::optional<Tensor>& weight,
                                                     const std::optional<Tensor>& bias,
                                                     const std::optional<Tensor>& running_mean,
                                                     const std::optional<Tensor>& running_var, bool training,
                                                     double momentum, double eps) {
  Tensor out = empty(input.sizes(), input.dtype());
  auto stats = batch_norm_impl(out, input, weight, bias, running_mean, running_var, training, momentum, eps);
  if (!stats) return {out, empty({0}, input.dtype()), empty({0}, input.dtype())};
  return {out, stats->mean, stats->invstd};
}

Tensor batch_norm(const Tensor& input, const std::optional<Tensor>& weight, const std::optional<Tensor>& bias,
                  const std::optional<Tensor>& running_mean, const std::optional<Tensor>& running_var,
                  bool training, double momentum, double eps) {
  return std::get<0>(native_batch_norm(input, weight, bias, running_mean, running_var, training, momentum, eps));
}

void kernels::batch_norm_into(Tensor& out, const Tensor& input, const std::optional<Tensor>& weight,
                              const std::optional<Tensor>& bias, const std::optional<Tensor>& running_mean,
                              const std::optional<Tensor>& running_var, double eps) {
  (void)batch_norm_impl(out, input, weight, bias, running_mean, running_var, false, 0, eps);
}

namespace {

// Normalises each of `rows` contiguous rows of `len` elements to zero mean and unit
// variance (biased), then applies per-element affine params `w`/`b` indexed by
// (row % affine_rows) * len... through the `affine` callback.
template <typename T, typename Affine>
void normalize_rows(const T* src, T* dst, int64_t rows, int64_t len, double eps, const Affine& affine) {
  using M = opmath_t<T>;
  parallel_for(0, rows, std::max<int64_t>(1, kernels::kGrainSize / std::max<int64_t>(len, 1)),
               [&](int64_t lo, int64_t hi) {
                 for (int64_t r = lo; r < hi; ++r) {
                   const T* p = src + r * len;
                   double s = 0;
                   for (int64_t i = 0; i < len; ++i) s += static_cast<double>(static_cast<M>(p[i]));
                   double mean = s / static_cast<double>(len);
                   double ss = 0;
                   for (int64_t i = 0; i < len; ++i) {
                     double d = static_cast<double>(static_cast<M>(p[i])) - mean;
                     ss += d * d;
                   }
                   M rstd = static_cast<M>(1.0 / std::sqrt(ss / static_cast<double>(len) + eps));
                   M m = static_cast<M>(mean);
                   T* q = dst + r * len;
                   for (int64_t i = 0; i < len; ++i) q[i] = static_cast<T>(affine(r, i, (static_cast<M>(p[i]) - m) * rstd));
                 }
               });
}

// One layer_norm row: two-pass statistics with pairwise sums in the compute type
// (float for float/bfloat16, as torch), then a branch-free affine pass.
template <typename T>
TL_VECTOR_CLONES void layer_norm_row(const T* p, T* q, const opmath_t<T>* w, const opmath_t<T>* b, int64_t len,
                                     double eps) {
  using M = opmath_t<T>;
  const M mean = kernels::cascade_sum<M>(p, len, [](M v) { return v; }) / static_cast<M>(len);
  const M var = kernels::cascade_sum<M>(p, len, [mean](M v) { return (v - mean) * (v - mean); }) / static_cast<M>(len);
  const M rstd = static_cast<M>(1.0 / std::sqrt(static_cast<double>(var) + eps));
  for (int64_t i = 0; i < len; ++i) q[i] = static_cast<T>((static_cast<M>(p[i]) - mean) * rstd * w[i] + b[i]);
}

}  // namespace

Tensor layer_norm(const Tensor& input, IntList normalized_shape, const std::optional<Tensor>& weight,
                  const std::optional<Tensor>& bias, double eps) {
  int64_t nd = static_cast<int64_t>(normalized_shape.size());
  TL_CHECK(nd >= 1 && input.dim() >= nd, ValueError,
           "Given normalized_shape={}, expected input with shape [*, {}, but got input of size{}",
           shape_repr(normalized_shape), shape_repr(normalized_shape).substr(1), shape_repr(input.sizes()));
  for (int64_t i = 0; i < nd; ++i) {
    TL_CHECK(input.size(input.dim() - nd + i) == normalized_shape[static_cast<size_t>(i)], ValueError,
             "Given normalized_shape={}, expected input with shape [*, {}, but got input of size{}",
             shape_repr(normalized_shape), shape_repr(normalized_shape).substr(1), shape_repr(input.sizes()));
  }
  check_floating(input.dtype(), "LayerNormKernelImpl");
  TL_CHECK(input.dtype() != DType::Half, UnsupportedError, "\"LayerNormKernelImpl\" not implemented for 'Half'");
  int64_t len = 1;
  for (int64_t s : normalized_shape) len *= s;
  Tensor x = input.contiguous();
  Tensor out = empty(x.sizes(), x.dtype());
  if (x.numel() == 0) return out;
  kernels::dispatch_floating(x.dtype(), "LayerNormKernelImpl", [&]<typename T>() {
    using M = opmath_t<T>;
    // Affine parameters in the compute type, ones/zeros when absent, so every row is
    // the same branch-free loop.
    auto param = [&](const std::optional<Tensor>& t, double fill) {
      Tensor v = t && t->defined() ? t->reshape({-1}).to(dtype_of<M>).contiguous() : full({len}, fill, dtype_of<M>);
      TL_CHECK(v.numel() == len, ValueError, "layer_norm: expected weight and bias of {} elements, got {}", len,
               v.numel());
      return v;
    };
    Tensor w = param(weight, 1.0), b = param(bias, 0.0);
    const M* pw = w.data<M>();
    const M* pb = b.data<M>();
    const T* src = x.data<T>();
    T* dst = out.data<T>();
    int64_t rows = x.numel() / len;
    parallel_for(0, rows, std::max<int64_t>(1, kernels::kGrainSize / std::max<int64_t>(len, 1)),
                 [&](int64_t lo, int64_t hi) {
                   for (int64_t r = lo; r < hi; ++r) layer_norm_row(src + r * len, dst + r * len, pw, pb, len, eps);
                 });
  });
  return out;
}

Tensor group_norm(const Tensor& input, int64_t num_groups, const std::optional<Tensor>& weight,
                  const std::optional<Tensor>& bias, double eps) {
  TL_CHECK(input.dim() >= 2, ValueError, "group_norm: expected at least 2D input");
  int64_t n = input.size(0), c = input.size(1);
  TL_CHECK(num_groups > 0 && c % num_groups == 0, ValueError,
           "Expected number of channels in input to be divisible by num_groups, but got input of shape {} and "
           "num_groups={}",
           shape_repr(input.sizes()), num_groups);
  check_floating(input.dtype(), "GroupNormKernelImpl");
  TL_CHECK(input.dtype() != DType::Half, UnsupportedError, "\"GroupNormKernelImpl\" not implemented for 'Half'");
  Tensor x = input.contiguous();
  Tensor out = empty(x.sizes(), x.dtype());
  if (x.numel() == 0) return out;
  int64_t spatial = x.numel() / (n * c);
  int64_t len = (c / num_groups) * spatial;
  auto w = channel_values(weight, c, 1, "weight", "group_norm");
  auto b = channel_values(bias, c, 0, "bias", "group_norm");
  int64_t cg = c / num_groups;
  kernels::dispatch_floating(x.dtype(), "GroupNormKernelImpl", [&]<typename T>() {
    using M = opmath_t<T>;
    normalize_rows<T>(x.data<T>(), out.data<T>(), n * num_groups, len, eps, [&](int64_t row, int64_t i, M v) {
      size_t ch = static_cast<size_t>((row % num_groups) * cg + i / spatial);
      return v * static_cast<M>(w[ch]) + static_cast<M>(b[ch]);
    });
  });
  return out;
}

namespace {

// Softmax of a row: its max, the exponentials of x - max and their sum, then the scale
// by 1 / sum, or for log_softmax (x - max) - log sum (torch's order: x - max is exact
// for x near the max, where max + log sum would round at the max's magnitude).
//
// Float rows go through these steps a chunk of rows at a time, each step for every row
// of the chunk before the next step (as torch's _vec_log_softmax_lastdim does): one row's
// steps depend on each other (the sum needs every exponential, the output the log of
// the sum), so row by row the core sat on one row's chain of latencies, while the same
// step on consecutive rows is independent work it overlaps. BERT's 128-wide score rows
// ran 1.35x torch row by row. The exponentials are computed eight lanes at a time and
// summed into two vector accumulators in the same pass; softmax stores them in the
// output, log_softmax never does. Other dtypes go row by row and stage them in `buf`.

// Rows per chunk: enough to overlap (16), few enough that the chunk stays in L1 (16 KB)
// between the steps.
int64_t softmax_chunk_rows(int64_t len) { return std::clamp<int64_t>(16384 / (4 * std::max<int64_t>(len, 1)), 1, 16); }

// Sum of e^(p[j] - m) over a float row; softmax (store) also writes each to q[j].
template <bool store>
inline __attribute__((always_inline)) float exp_sum_f32(const float* p, float* q, int64_t len, float m) {
  using kernels::Float8;
  Float8 acc0 = {}, acc1 = {};
  int64_t j = 0;
  for (; j + 16 <= len; j += 16) {
    Float8 e0, e1;
    std::memcpy(&e0, p + j, sizeof(e0));
    std::memcpy(&e1, p + j + 8, sizeof(e1));
    e0 -= m;
    e1 -= m;
    kernels::exp_in_place<true>(e0);
    kernels::exp_in_place<true>(e1);
    if constexpr (store) {
      std::memcpy(q + j, &e0, sizeof(e0));
      std::memcpy(q + j + 8, &e1, sizeof(e1));
    }
    acc0 += e0;
    acc1 += e1;
  }
  if (j + 8 <= len) {
    Float8 e0;
    std::memcpy(&e0, p + j, sizeof(e0));
    e0 -= m;
    kernels::exp_in_place<true>(e0);
    if constexpr (store) std::memcpy(q + j, &e0, sizeof(e0));
    acc0 += e0;
    j += 8;
  }
  acc0 += acc1;
  float s = ((acc0[0] + acc0[1]) + (acc0[2] + acc0[3])) + ((acc0[4] + acc0[5]) + (acc0[6] + acc0[7]));
  for (; j < len; ++j) {
    const float e = kernels::exp_f32(p[j] - m);
    if constexpr (store) q[j] = e;
    s += e;
  }
  return s;
}

template <bool log>
TL_VECTOR_CLONES void softmax_rows_f32(const float* src, float* dst, int64_t len, int64_t lo, int64_t hi) {
  constexpr int64_t kMaxChunk = 16;
  const int64_t chunk = softmax_chunk_rows(len);
  float maxes[kMaxChunk], sums[kMaxChunk];
  for (int64_t r0 = lo; r0 < hi; r0 += chunk) {
    const int64_t n = std::min(chunk, hi - r0);
    const float* p = src + r0 * len;
    float* q = dst + r0 * len;
    for (int64_t i = 0; i < n; ++i) maxes[i] = kernels::row_max<float>(p + i * len, len);
    for (int64_t i = 0; i < n; ++i) sums[i] = exp_sum_f32<!log>(p + i * len, q + i * len, len, maxes[i]);
    for (int64_t i = 0; i < n; ++i) sums[i] = log ? std::log(sums[i]) : 1.0f / sums[i];
    for (int64_t i = 0; i < n; ++i) {
      const float* pi = p + i * len;
      float* qi = q + i * len;
      const float m = maxes[i], t = sums[i];
      if constexpr (log) {
        for (int64_t j = 0; j < len; ++j) qi[j] = (pi[j] - m) - t;
      } else {
        for (int64_t j = 0; j < len; ++j) qi[j] = qi[j] * t;
      }
    }
  }
}

template <typename T, bool log>
TL_VECTOR_CLONES void softmax_rows(const T* src, T* dst, opmath_t<T>* buf, int64_t len, int64_t lo, int64_t hi) {
  using M = opmath_t<T>;
  for (int64_t r = lo; r < hi; ++r) {
    const T* p = src + r * len;
    T* q = dst + r * len;
    const M m = kernels::row_max<M>(p, len);
    for (int64_t j = 0; j < len; ++j) buf[j] = kernels::vexp(static_cast<M>(p[j]) - m);
    const M s = kernels::block_sum<M>(buf, len, [](M v) { return v; });
    if constexpr (log) {
      const M log_sum = std::log(s);
      for (int64_t j = 0; j < len; ++j) q[j] = static_cast<T>((static_cast<M>(p[j]) - m) - log_sum);
    } else {
      const M inv = M(1) / s;
      for (int64_t j = 0; j < len; ++j) q[j] = static_cast<T>(buf[j] * inv);
    }
  }
}

Tensor softmax_impl(const Tensor& self, int64_t dim, std::optional<DType> dtype, bool log, const char* op) {
  Tensor x = dtype ? self.to(*dtype) : self;
  int64_t nd = std::max<int64_t>(x.dim(), 1);
  int64_t d = wrap_dim(dim, nd, op);
  bool lastdim = d == nd - 1;
  if (x.numel() == 0) return empty(x.sizes(), x.dtype());  // torch returns before its kernel
  check_floating(x.dtype(), lastdim ? (log ? "log_softmax_lastdim_kernel_impl" : "softmax_lastdim_kernel_impl")
                                    : "softmax_kernel_impl");
  if (x.dim() == 0) x = x.reshape({1});
  Tensor lines = x.transpose(d, x.dim() - 1).contiguous();
  Tensor out = empty(lines.sizes(), lines.dtype());
  int64_t len = lines.size(-1);
  int64_t rows = len ? lines.numel() / len : 0;
  kernels::dispatch_floating(x.dtype(), op, [&]<typename T>() {
    const T* src = lines.data<T>();
    T* dst = out.data<T>();
    parallel_for(0, rows, std::max<int64_t>(1, kernels::kGrainSize / std::max<int64_t>(len, 1)),
                 [&](int64_t lo, int64_t hi) {
                   if constexpr (std::is_same_v<T, float>) {
                     if (log) softmax_rows_f32<true>(src, dst, len, lo, hi);
                     else softmax_rows_f32<false>(src, dst, len, lo, hi);
                     return;
                   }
                   std::vector<opmath_t<T>> buf(static_cast<size_t>(len));
                   if (log) softmax_rows<T, true>(src, dst, buf.data(), len, lo, hi);
                   else softmax_rows<T, false>(src, dst, buf.data(), len, lo, hi);
                 });
  });
  Tensor result = out.transpose(d, x.dim() - 1).contiguous();
  return self.dim() == 0 ? result.reshape({}) : result;
}

}  // namespace

Tensor softmax(const Tensor& self, int64_t dim, std::optional<DType> dtype) {
  return softmax_impl(self, dim, dtype, false, "softmax");
}
Tensor log_softmax(const Tensor& self, int64_t dim, std::optional<DType> dtype) {
  return softmax_impl(self, dim, dtype, true, "log_softmax");
}

namespace {

// torch's CPU _dropout_impl: a mask m from bernoulli_(1 - p) over the input's shape, or
// (feature forms) one per sample and channel, broadcast over the rest. Plain and feature
// dropout give x * m / (1 - p); the alpha forms, which keep SELU's mean and variance,
// a * (x * m + alpha * (m - 1 + p)). Each step is the tensor op torch runs, in the
// input's dtype and order, so one seed gives torch's bits.
template <bool kFeature, bool kAlpha>
Tensor dropout_impl(const Tensor& input, double p, bool train) {
  TL_CHECK(p >= 0 && p <= 1, ValueError, "dropout probability has to be between 0 and 1, but got {}", p);
  if (p == 0 || !train || input.numel() == 0) return input;
  if (p == 1) return mul(input, zeros({}, input.dtype()));
  Shape noise_shape = input.sizes().vec();
  if constexpr (kFeature) {
    TL_CHECK(input.dim() >= 2, ValueError, "Feature dropout requires at least 2 dimensions in the input");
    std::fill(noise_shape.begin() + 2, noise_shape.end(), 1);
  }
  Tensor noise = empty(noise_shape, input.dtype());
  bernoulli_(noise, 1 - p);
  if constexpr (kAlpha) {
    constexpr double alpha = 1.7580993408473766;  // SELU's alpha * scale
    const double a = 1. / std::sqrt((alpha * alpha * p + 1) * (1 - p));
    Tensor b = add(noise, Scalar(-1));
    mul_(b, Scalar(alpha * a));
    add_(b, Scalar(alpha * a * p));
    mul_(noise, Scalar(a));
    Tensor out = mul(input, noise);
    return add_(out, b);
  } else {
    div_(noise, Scalar(1 - p));
    return mul(input, noise);
  }
}

}  // namespace

Tensor dropout(const Tensor& input, double p, bool train) { return dropout_impl<false, false>(input, p, train); }
Tensor feature_dropout(const Tensor& input, double p, bool train) { return dropout_impl<true, false>(input, p, train); }
Tensor alpha_dropout(const Tensor& input, double p, bool train) { return dropout_impl<false, true>(input, p, train); }
Tensor feature_alpha_dropout(const Tensor& input, double p, bool train) {
  return dropout_impl<true, true>(input, p, train);
}

Tensor embedding(const Tensor& weight, const Tensor& indices, int64_t /*padding_idx*/) {
  TL_CHECK(weight.dim() == 2, ValueError, "'weight' must be 2-D");
  TL_CHECK(indices.dtype() == DType::Long || indices.dtype() == DType::Int, TypeError,
           "Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, Int; but "
           "got {} instead (while checking arguments for embedding)",
           dtype_info(indices.dtype()).scalar_type_name);
  std::vector<int64_t> idx = indices.to_vector<int64_t>();
  int64_t v = weight.size(0), d = weight.size(1);
  for (int64_t i : idx) TL_CHECK(i >= 0 && i < v, IndexError, "index out of range in self");
  Shape out_shape = indices.sizes().vec();
  out_shape.push_back(d);
  Tensor out = empty(out_shape, weight.dtype());
  const int64_t n = static_cast<int64_t>(idx.size());
  if (weight.stride(1) == 1 || d <= 1) {
    // Rows are contiguous runs: one memcpy each (a view and a strided copy per row
    // cost 3x torch's time on BERT's 128 lookups).
    const size_t es = weight.element_size();
    const size_t row_bytes = static_cast<size_t>(d) * es;
    const int64_t row_stride = weight.stride(0) * static_cast<int64_t>(es);
    const char* src = static_cast<const char*>(weight.data_ptr());
    char* dst = static_cast<char*>(out.data_ptr());
    parallel_for(0, n, std::max<int64_t>(1, kernels::kGrainSize / std::max<int64_t>(d, 1)), [&](int64_t lo, int64_t hi) {
      for (int64_t i = lo; i < hi; ++i) {
        std::memcpy(dst + static_cast<size_t>(i) * row_bytes, src + idx[static_cast<size_t>(i)] * row_stride, row_bytes);
      }
    });
    return out;
  }
  Tensor rows = out.reshape({n, d});
  for (int64_t i = 0; i < n; ++i) rows.select(0, i).copy_(weight.select(0, idx[static_cast<size_t>(i)]));
  return out;
}

namespace {

struct Planes {
  Tensor x;
  int64_t planes, h, w;
  Shape lead;
};

Planes nchw_planes(const Tensor& self, IntList output_size, const char* op) {
  TL_CHECK(self.dim() == 4, ValueError, "{}: expected 4-D input, got {}-D", op, self.dim());
  TL_CHECK(output_size.size() == 2, ValueError, "{}: output_size must have 2 elements", op);
  TL_CHECK(output_size[0] > 0 && output_size[1] > 0, ValueError,
           "Input and output sizes should be greater than 0, but got input (H: {}, W: {}) output (H: {}, W: {})",
           self.size(2), self.size(3), output_size[0], output_size[1]);
  Planes p;
  p.h = self.size(2);
  p.w = self.size(3);
  p.planes = self.size(0) * self.size(1);
  p.lead = {self.size(0), self.size(1)};
  p.x = self.contiguous();
  return p;
}

}  // namespace

Tensor upsample_nearest2d(const Tensor& self, IntList output_size) {
  Planes p = nchw_planes(self, output_size, "upsample_nearest2d");
  check_floating(self.dtype(), "compute_indices_weights_nearest");
  int64_t oh = output_size[0], ow = output_size[1];
  Tensor out = empty({p.lead[0], p.lead[1], oh, ow}, self.dtype());
  // torch's nearest index: floor(dst * (in / out)) in float, clamped to in - 1.
  const float sh = static_cast<float>(p.h) / static_cast<float>(oh), sw = static_cast<float>(p.w) / static_cast<float>(ow);
  std::vector<int64_t> ys(static_cast<size_t>(oh)), xs(static_cast<size_t>(ow));
  for (int64_t y = 0; y < oh; ++y) ys[static_cast<size_t>(y)] = std::min(static_cast<int64_t>(std::floor(static_cast<float>(y) * sh)), p.h - 1);
  for (int64_t x = 0; x < ow; ++x) xs[static_cast<size_t>(x)] = std::min(static_cast<int64_t>(std::floor(static_cast<float>(x) * sw)), p.w - 1);
  kernels::dispatch_floating(self.dtype(), "upsample_nearest2d", [&]<typename T>() {
    const T* in = p.x.data<T>();
    T* o = out.data<T>();
    parallel_for(0, p.planes, 1, [&](int64_t b, int64_t e) {
      for (int64_t pl = b; pl < e; ++pl) {
        for (int64_t y = 0; y < oh; ++y) {
          const T* row = in + (pl * p.h + ys[static_cast<size_t>(y)]) * p.w;
          T* orow = o + (pl * oh + y) * ow;
          for (int64_t x = 0; x < ow; ++x) orow[x] = row[xs[static_cast<size_t>(x)]];
        }
      }
    });
  });
  return out;
}

namespace {

// Source coordinate of a bilinear output index (torch's area_pixel_compute_source_index).
struct Lerp {
  int64_t i0, i1;
  double l1;
};

std::vector<Lerp> lerp_table(int64_t in, int64_t out, bool align_corners) {
  std::vector<Lerp> t(static_cast<size_t>(out));
  double scale = align_corners ? (out > 1 ? static_cast<double>(in - 1) / static_cast<double>(out - 1) : 0.0)
                               : static_cast<double>(in) / static_cast<double>(out);
  for (int64_t o = 0; o < out; ++o) {
    double src = align_corners ? scale * static_cast<double>(o)
                               : std::max(scale * (static_cast<double>(o) + 0.5) - 0.5, 0.0);
    int64_t i0 = std::min(static_cast<int64_t>(src), in - 1);
    int64_t i1 = i0 + (i0 < in - 1 ? 1 : 0);
    t[static_cast<size_t>(o)] = {i0, i1, src - static_cast<double>(i0)};
  }
  return t;
}

}  // namespace

Tensor upsample_bilinear2d(const Tensor& self, IntList output_size, bool align_corners) {
  Planes p = nchw_planes(self, output_size, "upsample_bilinear2d");
  check_floating(self.dtype(), "compute_indices_weights_linear");
  int64_t oh = output_size[0], ow = output_size[1];
  Tensor out = empty({p.lead[0], p.lead[1], oh, ow}, self.dtype());
  auto ty = lerp_table(p.h, oh, align_corners), tx = lerp_table(p.w, ow, align_corners);
  kernels::dispatch_floating(self.dtype(), "upsample_bilinear2d", [&]<typename T>() {
    using M = opmath_t<T>;
    const T* in = p.x.data<T>();
    T* o = out.data<T>();
    parallel_for(0, p.planes, 1, [&](int64_t b, int64_t e) {
      for (int64_t pl = b; pl < e; ++pl) {
        const T* plane = in + pl * p.h * p.w;
        for (int64_t y = 0; y < oh; ++y) {
          const Lerp& ly = ty[static_cast<size_t>(y)];
          M wy1 = static_cast<M>(ly.l1), wy0 = M(1) - wy1;
          for (int64_t x = 0; x < ow; ++x) {
            const Lerp& lx = tx[static_cast<size_t>(x)];
            M wx1 = static_cast<M>(lx.l1), wx0 = M(1) - wx1;
            auto at = [&](int64_t yy, int64_t xx) { return static_cast<M>(plane[yy * p.w + xx]); };
            M v = wy0 * (wx0 * at(ly.i0, lx.i0) + wx1 * at(ly.i0, lx.i1)) +
                  wy1 * (wx0 * at(ly.i1, lx.i0) + wx1 * at(ly.i1, lx.i1));
            o[(pl * oh + y) * ow + x] = static_cast<T>(v);
          }
        }
      }
    });
  });
  return out;
}

}  // namespace torchlet

// instance_norm and the native_ forms of layer and group norm (which also return their
// statistics): the normalisations torch composes from batch, layer and group norm
// (nn.cpp). instance_norm with input statistics normalises each (sample, channel) plane
// itself; with running statistics tracked (and so moved) it goes through batch_norm, as
// torch does.
#include <algorithm>
#include <cmath>
#include <limits>
#include <tuple>
#include <utility>
#include <vector>

#include <torchlet/error.h>
#include <torchlet/ops.h>

#include "tensor/kernels/loop.h"

namespace torchlet {
namespace {

using kernels::opmath_t;

}  // namespace

Tensor instance_norm(const Tensor& input, const std::optional<Tensor>& weight, const std::optional<Tensor>& bias,
                     const std::optional<Tensor>& running_mean, const std::optional<Tensor>& running_var,
                     bool use_input_stats, double momentum, double eps, bool /*cudnn_enabled*/) {
  bool have_stats = running_mean && running_var && running_mean->defined() && running_var->defined();
  TL_CHECK(use_input_stats || have_stats, ValueError,
           "Expected running_mean and running_var to be defined when use_input_stats is false");
  TL_CHECK(input.dim() >= 2, ValueError, "instance_norm: expected at least 2D input (got {}D input)", input.dim());
  int64_t n = input.size(0), c = input.size(1);
  // torch repeats the affine parameters per sample and runs batch_norm on [1, N*C, ...].
  auto check_affine = [&](const std::optional<Tensor>& t, const char* what) {
    if (!t || !t->defined()) return;
    TL_CHECK(t->numel() * n == n * c, ValueError, "{} should contain {} elements not {}", what, n * c, t->numel() * n);
  };
  check_affine(weight, "weight");
  check_affine(bias, "bias");
  // torch repeats the parameters n times and reads element 0 of the result.
  bool has_param = (weight && weight->defined()) || (bias && bias->defined()) || have_stats;
  TL_CHECK(n > 0 || !has_param, IndexError, "select(): index 0 out of range for tensor of size [0] at dimension 0");
  if (!use_input_stats) {
    // Eval with tracked statistics is batch_norm with the running ones.
    return batch_norm(input, weight, bias, running_mean, running_var, false, momentum, eps);
  }
  if (have_stats) {
    // Tracked statistics move too: torch runs batch_norm in training over the
    // [1, N*C, ...] view with each parameter repeated per sample, then averages the
    // repeated running statistics over the samples into the module's.
    auto repeated = [&](const std::optional<Tensor>& t) -> std::optional<Tensor> {
      if (!t || !t->defined()) return std::nullopt;
      return repeat(*t, {n});
    };
    std::optional<Tensor> mean_n = repeated(running_mean), var_n = repeated(running_var);
    Shape flat = input.sizes().vec();
    flat[0] = 1;
    flat[1] = n * c;
    Tensor out = batch_norm(input.contiguous().view(flat), repeated(weight), repeated(bias), mean_n, var_n, true,
                            momentum, eps);
    Tensor rm = *running_mean, rv = *running_var;
    rm.copy_(mean(mean_n->view({n, c}), {0}));
    rv.copy_(mean(var_n->view({n, c}), {0}));
    return out.view(input.sizes());
  }
  DType d = input.dtype();
  Tensor x = input.contiguous();
  Tensor out = empty(x.sizes(), d);
  if (x.numel() == 0) return out;  // before torch's kernel, so before its dtype check
  TL_CHECK(is_floating(d) && d != DType::Half, UnsupportedError, "\"batch_norm\" not implemented for '{}'",
           dtype_info(d).scalar_type_name);
  const int64_t planes = n * c, len = x.numel() / planes;
  std::vector<double> w = weight && weight->defined() ? weight->reshape({-1}).to_vector<double>()
                                                      : std::vector<double>(static_cast<size_t>(c), 1.0);
  std::vector<double> b = bias && bias->defined() ? bias->reshape({-1}).to_vector<double>()
                                                  : std::vector<double>(static_cast<size_t>(c), 0.0);
  kernels::dispatch_floating(d, "instance_norm", [&]<typename T>() {
    using M = opmath_t<T>;
    const T* src = x.data<T>();
    T* dst = out.data<T>();
    parallel_for(0, planes, std::max<int64_t>(1, kernels::kGrainSize / std::max<int64_t>(len, 1)),
                 [&](int64_t lo, int64_t hi) {
                   for (int64_t pl = lo; pl < hi; ++pl) {
                     const T* p = src + pl * len;
                     // Two passes in double: mean, then the biased variance.
                     double s = 0;
                     for (int64_t i = 0; i < len; ++i) s += static_cast<double>(static_cast<M>(p[i]));
                     double mean = s / static_cast<double>(len), ss = 0;
                     for (int64_t i = 0; i < len; ++i) {
                       double dv = static_cast<double>(static_cast<M>(p[i])) - mean;
                       ss += dv * dv;
                     }
                     size_t ch = static_cast<size_t>(pl % c);
                     double rstd = 1.0 / std::sqrt(ss / static_cast<double>(len) + eps);
                     const M scale = static_cast<M>(rstd * w[ch]), shift = static_cast<M>(b[ch] - mean * rstd * w[ch]);
                     T* __restrict q = dst + pl * len;
                     for (int64_t i = 0; i < len; ++i) q[i] = static_cast<T>(static_cast<M>(p[i]) * scale + shift);
                   }
                 });
  });
  return out;
}

// The normalised result, then the statistics torch's native forms also return: the mean
// and 1/sqrt(var + eps) over the normalised dimensions, kept as size-1 dimensions.
std::tuple<Tensor, Tensor, Tensor> native_layer_norm(const Tensor& input, IntList normalized_shape,
                                                     const std::optional<Tensor>& weight,
                                                     const std::optional<Tensor>& bias, double eps) {
  Tensor out = layer_norm(input, normalized_shape, weight, bias, eps);
  std::vector<int64_t> dims;
  for (size_t i = 0; i < normalized_shape.size(); ++i) dims.push_back(input.dim() - 1 - static_cast<int64_t>(i));
  Tensor mean_ = mean(input, dims, true);
  Tensor rstd = rsqrt(add(var(input, dims, 0, true), Scalar(eps)));
  return {out, mean_, rstd};
}

// The input is viewed as [N, C, HxW] by the arguments (not by its own dimensions), each
// of `group` groups of channels normalised; the statistics come back shaped [N, group].
std::tuple<Tensor, Tensor, Tensor> native_group_norm(const Tensor& input, const std::optional<Tensor>& weight,
                                                     const std::optional<Tensor>& bias, int64_t n, int64_t c,
                                                     int64_t hxw, int64_t group, double eps) {
  const auto product = static_cast<uint64_t>(n) * static_cast<uint64_t>(c) * static_cast<uint64_t>(hxw);
  // torch's checks, in its order and words (its TORCH_CHECK appends the suffix).
  constexpr const char* kSuffix =
      "  (Could this error message be improved?  If so, please report an enhancement request to PyTorch.)";
  TL_CHECK(input.is_contiguous(), ValueError, "Expected X.is_contiguous(memory_format) to be true, but got false.{}",
           kSuffix);
  TL_CHECK(n >= 0 && c >= 0 && hxw >= 0 && product == static_cast<uint64_t>(input.numel()), ValueError,
           "Expected X.numel() == N * C * HxW to be true, but got false.{}", kSuffix);
  TL_CHECK(group > 0 && c % group == 0, ValueError,
           "Expected number of channels in input to be divisible by num_groups, but got input of shape {} and "
           "num_groups={}",
           shape_repr(input.sizes()), group);
  for (const auto& [t, name] : {std::pair{&weight, "weight"}, std::pair{&bias, "bias"}})
    TL_CHECK(!*t || !(*t)->defined() || ((*t)->dim() == 1 && (*t)->numel() == c), ValueError,
             "Expected {} to be a vector of size equal to the number of channels in input, but got {} of shape {} and "
             "input of shape {}",
             name, name, shape_repr((*t)->sizes()), shape_repr(input.sizes()));
  const Tensor x = input.reshape({n, c, hxw});
  Tensor out = group_norm(x, group, weight, bias, eps).reshape(input.sizes());
  const Tensor grouped = x.reshape({n, group, (c / group) * hxw});
  Tensor mean_ = mean(grouped, {2});
  Tensor rstd = rsqrt(add(var(grouped, {2}, 0), Scalar(eps)));
  return {out, mean_, rstd};
}

}  // namespace torchlet

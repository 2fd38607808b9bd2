// Statistics torch composes from other operators, composed the same way so dtypes,
// rounding and refusals are torch 1.13's: quantile/nanquantile, cov/corrcoef and
// bincount.
#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include <torchlet/error.h>
#include <torchlet/ops.h>

namespace torchlet {
namespace {

std::string_view type_name(DType d) { return dtype_info(d).scalar_type_name; }

// --- quantile ------------------------------------------------------------------------------

enum class Interpolation { kLinear, kLower, kHigher, kMidpoint, kNearest };

Interpolation interpolation_mode(std::string_view name) {
  if (name == "linear") return Interpolation::kLinear;
  if (name == "lower") return Interpolation::kLower;
  if (name == "higher") return Interpolation::kHigher;
  if (name == "midpoint") return Interpolation::kMidpoint;
  if (name == "nearest") return Interpolation::kNearest;
  TL_FAIL(ValueError, "quantile() interpolation must be one of linear, lower, higher, midpoint or nearest, but got {}", name);
}

// torch's quantile_impl: sort the reduced dim last, turn each q into a fractional rank
// (the last index for a row holding NaN, or, ignoring NaN, a rank among the row's
// numbers), then read the neighbours and lerp. The checks run in torch's order.
Tensor quantile_of(const Tensor& self, const Tensor& q, std::optional<int64_t> dim_arg, bool keepdim,
                   std::string_view interpolation, bool ignore_nan, std::optional<DType> out_dtype) {
  const Interpolation mode = interpolation_mode(interpolation);
  const int64_t dim = wrap_dim(dim_arg.value_or(0), self.dim(), "quantile");
  TL_CHECK(self.numel() > 0, ValueError, "quantile() input tensor must be non-empty");
  TL_CHECK(q.dim() <= 1, ValueError, "quantile() q must be a scalar or 1D tensor");
  TL_CHECK(self.dtype() == DType::Float || self.dtype() == DType::Double, TypeError,
           "quantile() input tensor must be either float or double dtype");
  TL_CHECK(self.dtype() == q.dtype(), TypeError, "quantile() q tensor must be same dtype as the input tensor");
  TL_CHECK(!out_dtype || *out_dtype == self.dtype(), TypeError, "quantile() out tensor must be same dtype as the input tensor");

  std::vector<int64_t> reduced_shape;  // the result's shape without q's dim
  if (dim_arg && self.dim() > 0) {
    reduced_shape.assign(self.sizes().begin(), self.sizes().end());
    if (keepdim) reduced_shape[dim] = 1;
    else reduced_shape.erase(reduced_shape.begin() + dim);
  } else if (keepdim) {
    reduced_shape.assign(self.dim(), 1);
  }
  TL_CHECK(torchlet::all(torchlet::logical_and(torchlet::ge(q, Scalar(int64_t{0})), torchlet::le(q, Scalar(int64_t{1}))))
               .item()
               .to<bool>(),
           ValueError, "quantile() q values must be in the range [0, 1]");

  Tensor sorted;
  if (!dim_arg) sorted = std::get<0>(torchlet::sort(self.flatten()));
  else if (dim == self.dim() - 1) sorted = std::get<0>(torchlet::sort(self));
  else sorted = std::get<0>(torchlet::sort(self.unsqueeze(-1).transpose(dim, -1)));
  std::vector<int64_t> rows_shape = reduced_shape;
  rows_shape.push_back(sorted.size(-1));
  sorted = sorted.reshape(rows_shape);
  // torch's limit: ranks are computed in q's floating type and must stay exact integers.
  TL_CHECK(sorted.size(-1) <= (int64_t{1} << 24), LimitError, "quantile() input tensor is too large");

  Tensor ranks;
  if (ignore_nan) {
    const Tensor numbers = torchlet::sum(torchlet::logical_not(torchlet::isnan(sorted)), {-1}, true);
    ranks = torchlet::mul(q, torchlet::sub(numbers, Scalar(int64_t{1})));
    ranks = torchlet::masked_fill(ranks, torchlet::lt(ranks, Scalar(int64_t{0})), Scalar(int64_t{0}));
  } else {
    const int64_t last = sorted.size(-1) - 1;
    ranks = torchlet::where(torchlet::any(torchlet::isnan(sorted), -1, true), Scalar(last), torchlet::mul(q, Scalar(last)));
  }
  if (mode == Interpolation::kLower) ranks = torchlet::floor(ranks);
  else if (mode == Interpolation::kHigher) ranks = torchlet::ceil(ranks);
  else if (mode == Interpolation::kNearest) ranks = torchlet::round(ranks);

  const Tensor ranks_below = ranks.to(DType::Long);
  Tensor values = torchlet::gather(sorted, -1, ranks_below);
  if (mode == Interpolation::kLinear || mode == Interpolation::kMidpoint) {
    const Tensor weights = mode == Interpolation::kMidpoint ? torchlet::full(ranks.sizes(), Scalar(0.5), ranks.dtype())
                                                            : torchlet::sub(ranks, ranks_below);
    const Tensor values_above = torchlet::gather(sorted, -1, torchlet::ceil(ranks).to(DType::Long));
    values = torchlet::lerp(values, values_above, weights);
  }
  // The q dim is last here; torch's result puts it first.
  if (q.dim() == 0) return values.squeeze(-1);
  return values.unsqueeze(0).transpose(0, -1).squeeze(-1);
}

// q as a Python float: range-checked first, then a 0-dim tensor of self's dtype.
Tensor scalar_q(double q, const Tensor& self) {
  TL_CHECK(q >= 0 && q <= 1, ValueError, "quantile() q must be in the range [0, 1] but got {}", q);
  return scalar_tensor(Scalar(q), self.dtype());
}

// --- covariance ----------------------------------------------------------------------------

// One weight vector's checks (fweights or aweights), torch's messages.
void check_weights(const Tensor& w, const char* name, int64_t observations) {
  TL_CHECK(w.dim() <= 1, ValueError, "cov(): expected {} to have one or fewer dimensions but got {} with {} dimensions", name,
           name, w.dim());
  TL_CHECK(w.numel() == observations, ValueError,
           "cov(): expected {} to have the same numel as there are observations in the input but got {} != {}", name,
           w.numel(), observations);
  TL_CHECK(observations == 0 || torchlet::ge(torchlet::min(w), Scalar(int64_t{0})).item().to<bool>(), ValueError,
           "cov(): {} cannot be negative", name);
}

}  // namespace

Tensor quantile(const Tensor& self, const Tensor& q, std::optional<int64_t> dim, bool keepdim, std::string_view interpolation,
                std::optional<DType> out_dtype) {
  return quantile_of(self, q, dim, keepdim, interpolation, false, out_dtype);
}
Tensor quantile(const Tensor& self, double q, std::optional<int64_t> dim, bool keepdim, std::string_view interpolation,
                std::optional<DType> out_dtype) {
  return quantile_of(self, scalar_q(q, self), dim, keepdim, interpolation, false, out_dtype);
}
Tensor nanquantile(const Tensor& self, const Tensor& q, std::optional<int64_t> dim, bool keepdim,
                   std::string_view interpolation, std::optional<DType> out_dtype) {
  return quantile_of(self, q, dim, keepdim, interpolation, true, out_dtype);
}
Tensor nanquantile(const Tensor& self, double q, std::optional<int64_t> dim, bool keepdim, std::string_view interpolation,
                   std::optional<DType> out_dtype) {
  return quantile_of(self, scalar_q(q, self), dim, keepdim, interpolation, true, out_dtype);
}

// Rows are variables, columns observations; fweights (integer counts) and aweights
// (floating) multiply into one weight per observation.
Tensor cov(const Tensor& self, int64_t correction, const std::optional<Tensor>& fweights,
           const std::optional<Tensor>& aweights) {
  TL_CHECK(self.dim() <= 2, ValueError,
           "cov(): expected input to have two or fewer dimensions but got an input with {} dimensions", self.dim());
  TL_CHECK(self.dtype() != DType::Bool, TypeError, "cov(): bool dtype is not supported for input");
  Tensor in = self.dim() < 2 ? self.reshape({1, -1}) : self;
  const int64_t observations = in.size(1);
  std::optional<Tensor> w;
  if (fweights) {
    // torch checks the dimension count before the dtype.
    TL_CHECK(fweights->dim() <= 1, ValueError,
             "cov(): expected fweights to have one or fewer dimensions but got fweights with {} dimensions", fweights->dim());
    TL_CHECK(is_integral(fweights->dtype(), false), TypeError,
             "cov(): expected fweights to have integral dtype but got fweights with {} dtype", type_name(fweights->dtype()));
    check_weights(*fweights, "fweights", observations);
    w = *fweights;
  }
  if (aweights) {
    TL_CHECK(aweights->dim() <= 1, ValueError,
             "cov(): expected aweights to have one or fewer dimensions but got aweights with {} dimensions", aweights->dim());
    TL_CHECK(is_floating(aweights->dtype()), TypeError,
             "cov(): expected aweights to have floating point dtype but got aweights with {} dtype",
             type_name(aweights->dtype()));
    check_weights(*aweights, "aweights", observations);
    w = w ? torchlet::mul(*w, *aweights) : *aweights;
  }
  const Tensor w_sum = w ? torchlet::sum(*w) : scalar_tensor(Scalar(observations), DType::Long);
  TL_CHECK(!w || torchlet::ne(w_sum, Scalar(int64_t{0})).item().to<bool>(), ValueError,
           "cov(): weights sum to zero, can't be normalized");
  const Tensor avg = torchlet::div(torchlet::sum(w ? torchlet::mul(in, *w) : in, {1}), w_sum);
  Tensor norm_factor =
      w && aweights && correction != 0
          ? torchlet::sub(w_sum, torchlet::div(torchlet::mul(torchlet::sum(torchlet::mul(*w, *aweights)), Scalar(correction)), w_sum))
          : torchlet::sub(w_sum, Scalar(correction));
  // torch warns "degrees of freedom is <= 0" and divides by zero (inf or NaN).
  if (torchlet::le(norm_factor, Scalar(int64_t{0})).item().to<bool>()) norm_factor = zeros({}, norm_factor.dtype());
  in = torchlet::sub(in, avg.unsqueeze(1));
  const Tensor c = torchlet::mm(in, (w ? torchlet::mul(in, *w) : in).t());
  return torchlet::div(c, norm_factor).squeeze();
}

// cov normalised by both variables' standard deviations, clipped to [-1, 1] against
// rounding; a single variable gives c / c (1, or NaN for 0, inf, NaN).
Tensor corrcoef(const Tensor& self) {
  TL_CHECK(self.dim() <= 2, ValueError,
           "corrcoef(): expected input to have two or fewer dimensions but got an input with {} dimensions", self.dim());
  Tensor c = cov(self, 1, std::nullopt, std::nullopt);
  if (c.dim() == 0) return torchlet::div(c, c);
  const Tensor stddev = torchlet::sqrt(c.diagonal());
  c = torchlet::div(c, stddev.reshape({-1, 1}));
  c = torchlet::div(c, stddev.reshape({1, -1}));
  return torchlet::clamp(c, Scalar(int64_t{-1}), Scalar(int64_t{1}));
}

Tensor bincount(const Tensor& self, const std::optional<Tensor>& weights, int64_t minlength) {
  TL_CHECK(minlength >= 0, ValueError, "minlength should be >= 0");
  TL_CHECK(self.dim() == 1 && is_integral(self.dtype(), false), ValueError,
           "bincount only supports 1-d non-negative integral inputs.");
  const auto v = self.to_vector<int64_t>();
  for (int64_t e : v) TL_CHECK(e >= 0, ValueError, "bincount only supports 1-d non-negative integral inputs.");
  if (weights)
    TL_CHECK(weights->dim() == 1 && weights->numel() == self.numel(), ValueError,
             "weights should be 1-d and have the same length as input");
  int64_t bins = minlength;
  for (int64_t e : v) bins = std::max(bins, e + 1);
  TL_CHECK(bins <= (int64_t{1} << 31), LimitError, "bincount: {} bins is more than torchlet allocates", bins);
  if (!weights) {
    std::vector<int64_t> counts(static_cast<size_t>(bins), 0);
    for (int64_t e : v) ++counts[static_cast<size_t>(e)];
    return tensor<int64_t>(counts, {bins});
  }
  const DType out_type = weights->dtype() == DType::Float ? DType::Float : DType::Double;
  const auto w = weights->to_vector<double>();
  std::vector<double> sums(static_cast<size_t>(bins), 0.0);
  for (size_t i = 0; i < v.size(); ++i) sums[static_cast<size_t>(v[i])] += w[i];
  return tensor<double>(sums, {bins}).to(out_type);
}

}  // namespace torchlet

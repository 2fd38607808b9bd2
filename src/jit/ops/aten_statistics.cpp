// Statistics and numerical integration torch composes from other operators, composed the
// same way so dtypes, rounding and refusals are torch 1.13's: quantile/nanquantile,
// cov/corrcoef, pairwise distances (pdist), and the trapezoid rule (trapezoid, trapz,
// cumulative_trapezoid). Every schema has cases run through torch in
// tests/fixtures/gen_ops.py (statistics_ops).
#include <algorithm>
#include <cmath>
#include <optional>
#include <string>

#include <torchlet/ops.h>

#include "jit/ops/composites.h"
#include "jit/ops/ops_util.h"

namespace torchlet::jit::ops {
namespace {

// --- quantile ------------------------------------------------------------------------------

enum class Interpolation { kLinear, kLower, kHigher, kMidpoint, kNearest };

Interpolation interpolation_mode(const std::string& name) {
  if (name == "linear") return Interpolation::kLinear;
  if (name == "lower") return Interpolation::kLower;
  if (name == "higher") return Interpolation::kHigher;
  if (name == "midpoint") return Interpolation::kMidpoint;
  if (name == "nearest") return Interpolation::kNearest;
  TL_FAIL(ValueError, "quantile() interpolation must be one of linear, lower, higher, midpoint or nearest, but got {}", name);
}

// torch's quantile_impl: sort the reduced dim last, turn each q into a fractional rank
// (the last index for a row holding NaN, or, ignoring NaN, a rank among the row's
// numbers), then read the neighbours and lerp. The checks run in torch's order; `out`,
// when given, only takes part in the dtype check (assign_out resizes it afterwards).
Tensor quantile_of(const Tensor& self, const Tensor& q, std::optional<int64_t> dim_arg, bool keepdim,
                   const std::string& interpolation, bool ignore_nan, const Tensor* out) {
  const Interpolation mode = interpolation_mode(interpolation);
  const int64_t dim = wrap_dim(dim_arg.value_or(0), self.dim(), "quantile");
  TL_CHECK(self.numel() > 0, ValueError, "quantile() input tensor must be non-empty");
  TL_CHECK(q.dim() <= 1, ValueError, "quantile() q must be a scalar or 1D tensor");
  TL_CHECK(self.dtype() == DType::Float || self.dtype() == DType::Double, TypeError,
           "quantile() input tensor must be either float or double dtype");
  TL_CHECK(self.dtype() == q.dtype(), TypeError, "quantile() q tensor must be same dtype as the input tensor");
  TL_CHECK(out == nullptr || out->dtype() == self.dtype(), TypeError,
           "quantile() out tensor must be same dtype as the input tensor");

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
    const Tensor numbers = torchlet::sum(torchlet::logical_not(isnan_of(sorted)), {-1}, true);
    ranks = torchlet::mul(q, torchlet::sub(numbers, Scalar(int64_t{1})));
    ranks = torchlet::masked_fill(ranks, torchlet::lt(ranks, Scalar(int64_t{0})), Scalar(int64_t{0}));
  } else {
    const int64_t last = sorted.size(-1) - 1;
    ranks = torchlet::where(torchlet::any(isnan_of(sorted), -1, true), Scalar(last), torchlet::mul(q, Scalar(last)));
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
    values = lerp_of(values, values_above, weights);
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

template <bool kIgnoreNan>
void quantile(Stack& s) {
  const std::string interpolation = pop_str(s);
  const bool keepdim = pop_bool(s);
  const auto dim = pop_opt_int(s);
  const Tensor q = pop_tensor(s);
  const Tensor self = pop_tensor(s);
  push(s, quantile_of(self, q, dim, keepdim, interpolation, kIgnoreNan, nullptr));
}
template <bool kIgnoreNan>
void quantile_scalar(Stack& s) {
  const std::string interpolation = pop_str(s);
  const bool keepdim = pop_bool(s);
  const auto dim = pop_opt_int(s);
  const double q = pop_double(s);
  const Tensor self = pop_tensor(s);
  push(s, quantile_of(self, scalar_q(q, self), dim, keepdim, interpolation, kIgnoreNan, nullptr));
}
template <bool kIgnoreNan>
void quantile_out(Stack& s) {
  Tensor out = pop_tensor(s);
  const std::string interpolation = pop_str(s);
  const bool keepdim = pop_bool(s);
  const auto dim = pop_opt_int(s);
  const Tensor q = pop_tensor(s);
  const Tensor self = pop_tensor(s);
  assign_out(out, quantile_of(self, q, dim, keepdim, interpolation, kIgnoreNan, &out), "quantile");
  push(s, out);
}
template <bool kIgnoreNan>
void quantile_scalar_out(Stack& s) {
  Tensor out = pop_tensor(s);
  const std::string interpolation = pop_str(s);
  const bool keepdim = pop_bool(s);
  const auto dim = pop_opt_int(s);
  const double q = pop_double(s);
  const Tensor self = pop_tensor(s);
  assign_out(out, quantile_of(self, scalar_q(q, self), dim, keepdim, interpolation, kIgnoreNan, &out), "quantile");
  push(s, out);
}

// --- covariance ----------------------------------------------------------------------------

std::string_view type_name(DType d) { return dtype_info(d).scalar_type_name; }

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

// torch.cov: rows are variables, columns observations; fweights (integer counts) and
// aweights (floating) multiply into one weight per observation.
Tensor cov_of(const Tensor& self, int64_t correction, const std::optional<Tensor>& fweights,
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

void cov(Stack& s) {
  const auto aweights = pop_opt_tensor(s);
  const auto fweights = pop_opt_tensor(s);
  const int64_t correction = pop_int(s);
  push(s, cov_of(pop_tensor(s), correction, fweights, aweights));
}

// torch.corrcoef: cov normalised by both variables' standard deviations, clipped to
// [-1, 1] against rounding; a single variable gives c / c (1, or NaN for 0, inf, NaN).
void corrcoef(Stack& s) {
  const Tensor self = pop_tensor(s);
  TL_CHECK(self.dim() <= 2, ValueError,
           "corrcoef(): expected input to have two or fewer dimensions but got an input with {} dimensions", self.dim());
  Tensor c = cov_of(self, 1, std::nullopt, std::nullopt);
  if (c.dim() == 0) {
    push(s, torchlet::div(c, c));
    return;
  }
  const Tensor stddev = torchlet::sqrt(c.diagonal());
  c = torchlet::div(c, stddev.reshape({-1, 1}));
  c = torchlet::div(c, stddev.reshape({1, -1}));
  push(s, torchlet::clamp(c, Scalar(int64_t{-1}), Scalar(int64_t{1})));
}

// --- pairwise distances --------------------------------------------------------------------

// The p-norm of one row pair's difference, accumulated in T as torch's kernel does
// (p 0 counts the differing elements, inf takes the largest); a NaN difference makes the
// distance NaN for every p, as torch's vector min/max propagate it.
template <typename T>
T pair_distance(const T* a, const T* b, int64_t m, double p) {
  T acc = 0;
  if (p == 0) {
    for (int64_t k = 0; k < m; ++k) {
      const T d = a[k] - b[k];
      acc += std::isnan(d) ? d : d != 0 ? T(1) : T(0);
    }
    return acc;
  }
  if (std::isinf(p)) {
    for (int64_t k = 0; k < m; ++k) {
      const T d = std::abs(a[k] - b[k]);
      acc = std::isnan(acc) || d <= acc ? acc : d;  // a NaN d fails d <= acc and is kept
    }
    return acc;
  }
  if (p == 1) {
    for (int64_t k = 0; k < m; ++k) acc += std::abs(a[k] - b[k]);
    return acc;
  }
  if (p == 2) {
    for (int64_t k = 0; k < m; ++k) acc += (a[k] - b[k]) * (a[k] - b[k]);
    return std::sqrt(acc);
  }
  for (int64_t k = 0; k < m; ++k) acc += std::pow(std::abs(a[k] - b[k]), T(p));
  return std::pow(acc, T(1.0 / p));
}

// torch's _pdist_forward: the distances of every row pair i < j in row-major order, read
// straight from the rows (no pairs x columns intermediate). Its dtype refusal comes from
// the kernel, so one row or no columns return before it, as in torch.
Tensor pdist_forward_of(const Tensor& self, double p) {
  TL_CHECK(self.is_contiguous(), ValueError, "_pdist_forward requires contiguous input");
  const int64_t n = self.size(0);
  if (n <= 1) return empty({0}, self.dtype());
  const int64_t m = self.size(1);
  // A tensor with no columns holds no bytes whatever its row count, so n(n-1) can
  // overflow int64 (torch's does, undefined behaviour); refuse by name instead.
  int64_t twice_pairs = 0;
  TL_CHECK(!__builtin_mul_overflow(n, n - 1, &twice_pairs), LimitError,
           "pdist: {} rows make more row pairs than an int64 can count", n);
  const int64_t pairs = twice_pairs / 2;
  if (m == 0) return zeros({pairs}, self.dtype());
  TL_CHECK(self.dtype() == DType::Float || self.dtype() == DType::Double, UnsupportedError,
           "\"pdist\" not implemented for '{}'", type_name(self.dtype()));
  Tensor result = empty({pairs}, self.dtype());
  auto run = [&]<typename T>(const T* rows, T* out) {
    for (int64_t i = 0, k = 0; i < n; ++i)
      for (int64_t j = i + 1; j < n; ++j) out[k++] = pair_distance(rows + i * m, rows + j * m, m, p);
  };
  if (self.dtype() == DType::Float) run(self.data<float>(), result.data<float>());
  else run(self.data<double>(), result.data<double>());
  return result;
}

void pdist(Stack& s) {
  const double p = pop_double(s);
  const Tensor self = pop_tensor(s);
  TL_CHECK(self.dim() == 2, ValueError, "pdist only supports 2D tensors, got: {}D", self.dim());
  TL_CHECK(is_floating(self.dtype()), TypeError, "pdist only supports floating-point dtypes");
  TL_CHECK(p >= 0, ValueError, "pdist only supports non-negative p values");
  push(s, pdist_forward_of(self.contiguous(), p));
}
void pdist_forward(Stack& s) {
  const double p = pop_double(s);
  push(s, pdist_forward_of(pop_tensor(s), p));
}
void pdist_forward_out(Stack& s) {
  Tensor out = pop_tensor(s);
  const double p = pop_double(s);
  assign_out(out, pdist_forward_of(pop_tensor(s), p), "_pdist_forward");
  push(s, out);
}

// --- trapezoid rule ------------------------------------------------------------------------

// An empty integration dim integrates to zeros of y's dtype (NumPy's answer).
Tensor zeros_except(const Tensor& y, int64_t dim) {
  std::vector<int64_t> sizes(y.sizes().begin(), y.sizes().end());
  sizes.erase(sizes.begin() + wrap_dim(dim, y.dim(), "trapezoid"));
  return zeros(sizes, y.dtype());
}

// The spacing between x's samples along `dim`, shaped to broadcast against y's: a 1-D x
// lies along dim, a lower-dimensional x gains leading 1s (NumPy's rule: x is not
// broadcast to y before differencing).
Tensor sample_spacing(const Tensor& y, const Tensor& x, int64_t dim, const char* op) {
  Tensor x_viewed = x;
  if (x.dim() == 1) {
    TL_CHECK(x.size(0) == y.size(dim), ValueError, "{}: There must be one `x` value for each sample point", op);
    std::vector<int64_t> sizes(y.dim(), 1);
    sizes[dim] = x.size(0);
    x_viewed = x.reshape(sizes);
  } else if (x.dim() < y.dim()) {
    std::vector<int64_t> sizes(y.dim(), 1);
    std::copy(x.sizes().begin(), x.sizes().end(), sizes.end() - x.dim());
    x_viewed = x.reshape(sizes);
  }
  return torchlet::sub(x_viewed.slice(dim, 1), x_viewed.slice(dim, 0, -1));
}

void check_not_bool(const Tensor& y, const Tensor* x, const char* op) {
  if (x) {
    TL_CHECK(y.dtype() != DType::Bool && x->dtype() != DType::Bool, TypeError,
             "{}: received a bool input for `x` or `y`, but bool is not supported", op);
  } else {
    TL_CHECK(y.dtype() != DType::Bool, TypeError, "{}: received a bool input for `y`, but bool is not supported", op);
  }
}

// The neighbouring samples' sums (y_i + y_{i+1}) along dim.
Tensor pair_sums(const Tensor& y, int64_t dim) { return torchlet::add(y.slice(dim, 0, -1), y.slice(dim, 1)); }

Tensor trapezoid_x(const Tensor& y, const Tensor& x, int64_t dim_given) {
  const int64_t dim = wrap_dim(dim_given, y.dim(), "trapezoid");
  if (y.size(dim) == 0) return zeros_except(y, dim);
  check_not_bool(y, &x, "trapezoid");
  const Tensor dx = sample_spacing(y, x, dim, "trapezoid");
  return torchlet::div(torchlet::sum(torchlet::mul(pair_sums(y, dim), dx), {dim}), Scalar(2.0));
}

// Constant spacing: torch's dx * (sum(y) - (y_first + y_last) / 2).
Tensor trapezoid_dx(const Tensor& y, const Scalar& dx, int64_t dim) {
  if (y.size(dim) == 0) return zeros_except(y, dim);
  check_not_bool(y, nullptr, "trapezoid");
  TL_CHECK(!dx.is_bool(), TypeError, "trapezoid: Currently, we only support dx as a real number.");
  const Tensor ends = torchlet::mul(torchlet::add(y.select(dim, 0), y.select(dim, -1)), Scalar(0.5));
  return torchlet::mul(torchlet::sub(torchlet::sum(y, {dim}), ends), Scalar(dx.to<double>()));
}

void trapezoid_x_op(Stack& s) {
  const int64_t dim = pop_int(s);
  const Tensor x = pop_tensor(s);
  push(s, trapezoid_x(pop_tensor(s), x, dim));
}
void trapezoid_dx_op(Stack& s) {
  const int64_t dim = pop_int(s);
  const Scalar dx = pop_scalar(s);
  push(s, trapezoid_dx(pop_tensor(s), dx, dim));
}
void trapz_dx_op(Stack& s) {
  const int64_t dim = pop_int(s);
  const double dx = pop_double(s);
  push(s, trapezoid_dx(pop_tensor(s), Scalar(dx), dim));
}

void cumulative_trapezoid_x(Stack& s) {
  const int64_t dim_given = pop_int(s);
  const Tensor x = pop_tensor(s);
  const Tensor y = pop_tensor(s);
  const int64_t dim = wrap_dim(dim_given, y.dim(), "cumulative_trapezoid");
  check_not_bool(y, &x, "cumulative_trapezoid");
  const Tensor dx = sample_spacing(y, x, dim, "cumulative_trapezoid");
  push(s, torchlet::div(torchlet::cumsum(torchlet::mul(pair_sums(y, dim), dx), dim), Scalar(2.0)));
}
void cumulative_trapezoid_dx(Stack& s) {
  const int64_t dim = pop_int(s);
  const Scalar dx = pop_scalar(s);
  const Tensor y = pop_tensor(s);
  check_not_bool(y, nullptr, "cumulative_trapezoid");
  TL_CHECK(!dx.is_bool(), TypeError, "cumulative_trapezoid: Currently, we only support dx as a real number.");
  push(s, torchlet::cumsum(torchlet::mul(pair_sums(y, dim), Scalar(dx.to<double>() / 2.0)), dim));
}

}  // namespace

static RegisterOps reg({
    {"aten::quantile(Tensor self, Tensor q, int? dim=None, bool keepdim=False, *, str interpolation=\"linear\") -> Tensor", quantile<false>},
    {"aten::quantile.scalar(Tensor self, float q, int? dim=None, bool keepdim=False, *, str interpolation=\"linear\") -> Tensor", quantile_scalar<false>},
    {"aten::quantile.out(Tensor self, Tensor q, int? dim=None, bool keepdim=False, *, str interpolation=\"linear\", Tensor(a!) out) -> Tensor(a!)", quantile_out<false>},
    {"aten::quantile.scalar_out(Tensor self, float q, int? dim=None, bool keepdim=False, *, str interpolation=\"linear\", Tensor(a!) out) -> Tensor(a!)", quantile_scalar_out<false>},
    {"aten::nanquantile(Tensor self, Tensor q, int? dim=None, bool keepdim=False, *, str interpolation=\"linear\") -> Tensor", quantile<true>},
    {"aten::nanquantile.scalar(Tensor self, float q, int? dim=None, bool keepdim=False, *, str interpolation=\"linear\") -> Tensor", quantile_scalar<true>},
    {"aten::nanquantile.out(Tensor self, Tensor q, int? dim=None, bool keepdim=False, *, str interpolation=\"linear\", Tensor(a!) out) -> Tensor(a!)", quantile_out<true>},
    {"aten::nanquantile.scalar_out(Tensor self, float q, int? dim=None, bool keepdim=False, *, str interpolation=\"linear\", Tensor(a!) out) -> Tensor(a!)", quantile_scalar_out<true>},
    {"aten::cov(Tensor self, *, int correction=1, Tensor? fweights=None, Tensor? aweights=None) -> Tensor", cov},
    {"aten::corrcoef(Tensor self) -> Tensor", corrcoef},
    {"aten::pdist(Tensor self, float p=2.) -> Tensor", pdist},
    {"aten::_pdist_forward(Tensor self, float p=2.) -> Tensor", pdist_forward},
    {"aten::_pdist_forward.out(Tensor self, float p=2., *, Tensor(a!) out) -> Tensor(a!)", pdist_forward_out},
    {"aten::trapezoid.x(Tensor y, Tensor x, *, int dim=-1) -> Tensor", trapezoid_x_op},
    {"aten::trapezoid.dx(Tensor y, *, Scalar dx=1, int dim=-1) -> Tensor", trapezoid_dx_op},
    {"aten::trapz.x(Tensor y, Tensor x, *, int dim=-1) -> Tensor", trapezoid_x_op},
    {"aten::trapz.dx(Tensor y, *, float dx=1., int dim=-1) -> Tensor", trapz_dx_op},
    {"aten::cumulative_trapezoid.x(Tensor y, Tensor x, *, int dim=-1) -> Tensor", cumulative_trapezoid_x},
    {"aten::cumulative_trapezoid.dx(Tensor y, *, Scalar dx=1, int dim=-1) -> Tensor", cumulative_trapezoid_dx},
});

}  // namespace torchlet::jit::ops

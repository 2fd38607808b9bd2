// Numerical integration by the trapezoid rule: trapezoid and trapz (sample points x or a
// constant spacing dx) and cumulative_trapezoid, composed as torch 1.13 composes them so
// dtypes, rounding and refusals are torch's, registered from typed functions (Note
// [Boxing] in boxing.h). Every schema has cases run through torch in
// tests/fixtures/gen_ops.py (statistics_ops).
#include <algorithm>
#include <vector>

#include <torchlet/ops.h>

#include "jit/ops/boxing.h"

namespace torchlet::jit::ops {
namespace {

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

Tensor trapz_dx(const Tensor& y, double dx, int64_t dim) { return trapezoid_dx(y, Scalar(dx), dim); }

Tensor cumulative_trapezoid_x(const Tensor& y, const Tensor& x, int64_t dim_given) {
  const int64_t dim = wrap_dim(dim_given, y.dim(), "cumulative_trapezoid");
  check_not_bool(y, &x, "cumulative_trapezoid");
  const Tensor dx = sample_spacing(y, x, dim, "cumulative_trapezoid");
  return torchlet::div(torchlet::cumsum(torchlet::mul(pair_sums(y, dim), dx), dim), Scalar(2.0));
}
Tensor cumulative_trapezoid_dx(const Tensor& y, const Scalar& dx, int64_t dim) {
  check_not_bool(y, nullptr, "cumulative_trapezoid");
  TL_CHECK(!dx.is_bool(), TypeError, "cumulative_trapezoid: Currently, we only support dx as a real number.");
  return torchlet::cumsum(torchlet::mul(pair_sums(y, dim), Scalar(dx.to<double>() / 2.0)), dim);
}

static RegisterOps reg({
    {"aten::trapezoid.x(Tensor y, Tensor x, *, int dim=-1) -> Tensor", boxed<&trapezoid_x>},
    {"aten::trapezoid.dx(Tensor y, *, Scalar dx=1, int dim=-1) -> Tensor", boxed<&trapezoid_dx>},
    {"aten::trapz.x(Tensor y, Tensor x, *, int dim=-1) -> Tensor", boxed<&trapezoid_x>},
    {"aten::trapz.dx(Tensor y, *, float dx=1., int dim=-1) -> Tensor", boxed<&trapz_dx>},
    {"aten::cumulative_trapezoid.x(Tensor y, Tensor x, *, int dim=-1) -> Tensor", boxed<&cumulative_trapezoid_x>},
    {"aten::cumulative_trapezoid.dx(Tensor y, *, Scalar dx=1, int dim=-1) -> Tensor", boxed<&cumulative_trapezoid_dx>},
});

}  // namespace
}  // namespace torchlet::jit::ops

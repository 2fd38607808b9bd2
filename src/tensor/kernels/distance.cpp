// Distances between rows and vectors: pdist (every row pair of one matrix, straight from
// the rows), cdist (every row of one batch against every row of another, through a
// matrix product for large p = 2 inputs as torch), cosine_similarity, pairwise_distance
// and dist, composed from the other kernels as torch 1.13 composes them.
#include <algorithm>
#include <cmath>
#include <optional>
#include <string_view>

#include <torchlet/error.h>
#include <torchlet/ops.h>

namespace torchlet {
namespace {

std::string_view type_name(DType d) { return dtype_info(d).scalar_type_name; }

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

}  // namespace

// Every row pair i < j in row-major order. Its dtype refusal comes from the kernel, so
// one row or no columns return before it, as in torch.
Tensor pdist_forward(const Tensor& self, double p) {
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

Tensor pdist(const Tensor& self, double p) {
  TL_CHECK(self.dim() == 2, ValueError, "pdist only supports 2D tensors, got: {}D", self.dim());
  TL_CHECK(is_floating(self.dtype()), TypeError, "pdist only supports floating-point dtypes");
  TL_CHECK(p >= 0, ValueError, "pdist only supports non-negative p values");
  return pdist_forward(self.contiguous(), p);
}

// For p = 2 over more than 25 rows (or compute_mode 1) through a matrix product
// (|a|^2 + |b|^2 - 2ab, clamped at 1e-30, then sqrt), else directly.
Tensor cdist(const Tensor& x1, const Tensor& x2, double p, std::optional<int64_t> compute_mode) {
  TL_CHECK(x1.dim() >= 2 && x2.dim() >= 2, ValueError, "cdist only supports at least 2D tensors, X{} got: {}D",
           x1.dim() < 2 ? 1 : 2, x1.dim() < 2 ? x1.dim() : x2.dim());
  TL_CHECK(x1.size(-1) == x2.size(-1), ValueError, "X1 and X2 must have the same number of columns. X1: {} X2: {}",
           x1.size(-1), x2.size(-1));
  TL_CHECK(is_floating(x1.dtype()) && is_floating(x2.dtype()), TypeError,
           "cdist only supports floating-point dtypes, X1 got: {}", type_name(x1.dtype()));
  TL_CHECK(p >= 0, ValueError, "cdist only supports non-negative p values");
  const int64_t r1 = x1.size(-2), r2 = x2.size(-2);
  const int64_t mode = compute_mode.value_or(0);
  const bool mm = p == 2 && (mode == 1 || (mode == 0 && (r1 > 25 || r2 > 25)));
  if (mm) {
    Tensor n1 = sum(mul(x1, x1), {-1}, true), n2 = sum(mul(x2, x2), {-1}, true);
    Tensor a = cat({mul(x1, Scalar(-2.0)), n1, ones(n1.sizes(), n1.dtype())}, -1);
    Tensor b = cat({x2, ones(n2.sizes(), n2.dtype()), n2}, -1);
    Tensor r = matmul(a, b.transpose(-2, -1));
    return sqrt(clamp(r, Scalar(1e-30)));
  }
  Tensor diff = sub(x1.unsqueeze(-2), x2.unsqueeze(-3));
  return norm(diff, p, {-1});
}

// Each input divided by its (eps-clamped) 2-norm over dim, then the sum of their
// product; integral inputs in the default float type.
Tensor cosine_similarity(const Tensor& x1, const Tensor& x2, int64_t dim, double eps) {
  DType d = result_type(x1, x2);
  if (is_integral(d, true)) d = kDefaultFloatDType;
  const Shape shape = broadcast_shapes(x1.sizes(), x2.sizes());
  Tensor a = x1.to(d).expand(shape), b = x2.to(d).expand(shape);
  const int64_t at = wrap_dim(dim, static_cast<int64_t>(shape.size()), "cosine_similarity");
  Tensor na = clamp(norm(a, 2, {at}, true), Scalar(eps));
  Tensor nb = clamp(norm(b, 2, {at}, true), Scalar(eps));
  return sum(mul(div(a, na), div(b, nb)), {at});
}

Tensor pairwise_distance(const Tensor& x1, const Tensor& x2, double p, double eps, bool keepdim) {
  const int64_t last = std::max(x1.dim(), x2.dim()) - 1;
  Tensor diff = add(sub(x1, x2), Scalar(eps));
  return norm(diff, p, {std::max<int64_t>(last, 0)}, keepdim);
}

Tensor dist(const Tensor& self, const Tensor& other, const Scalar& p) { return norm(sub(self, other), p.to<double>()); }

}  // namespace torchlet

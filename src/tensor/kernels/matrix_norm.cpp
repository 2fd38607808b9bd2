// Matrix norms: torch.linalg.matrix_norm, torch.linalg.norm, the legacy
// torch.nuclear_norm and frobenius_norm, and renorm, composed from the vector norm,
// amax/amin and the singular values exactly as torch 1.13 composes them, so the results,
// the checks and their order (which error an input meets first) are torch's.
#include <cmath>
#include <string>
#include <utility>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <torchlet/error.h>
#include <torchlet/ops.h>

#include "tensor/kernels/lapack.h"
#include "tensor/kernels/norm.h"

namespace torchlet {
namespace {

constexpr std::string_view kApi = "linalg.matrix_norm";

// torch's _linalg_matrix_norm_checks; returns `dim` wrapped. `low_precision` false
// refuses float16/bfloat16 (the norms that go through LAPACK).
std::pair<int64_t, int64_t> checked_dims(const Tensor& a, IntList dim, std::optional<DType> dtype, bool low_precision) {
  kernels::lapack::check_is_matrix(a, kApi);
  kernels::lapack::check_floating(a, kApi, low_precision);
  TL_CHECK(dim.size() == 2, ValueError, "{}: dim must be a 2-tuple. Got {}", kApi, fmt::join(dim, " "));
  const int64_t d0 = wrap_dim(dim[0], a.dim(), "matrix_norm"), d1 = wrap_dim(dim[1], a.dim(), "matrix_norm");
  TL_CHECK(d0 != d1, ValueError, "{}: dims must be different. Got ({}, {})", kApi, d0, d1);
  kernels::check_norm_dtype(a.dtype(), dtype, kApi);
  return {d0, d1};
}

// The permutation that moves dims d0 and d1 to the end, in that order, the rest kept in
// order (torch's create_dim_backshift_permutation), and its inverse.
Shape backshift(int64_t d0, int64_t d1, int64_t ndim) {
  Shape perm;
  for (int64_t d = 0; d < ndim; ++d)
    if (d != d0 && d != d1) perm.push_back(d);
  perm.push_back(d0);
  perm.push_back(d1);
  return perm;
}
Shape inverse_permutation(const Shape& perm) {
  Shape inv(perm.size());
  for (size_t i = 0; i < perm.size(); ++i) inv[static_cast<size_t>(perm[i])] = static_cast<int64_t>(i);
  return inv;
}

// `reduce` applied to the singular values of the matrices over (d0, d1) along their last
// dim; with keepdim the reduced dims come back as size-one dims where they were.
template <typename Reduce>
Tensor reduce_singular_values(const Tensor& a, std::pair<int64_t, int64_t> d, bool keepdim,
                              std::optional<DType> dtype, const Reduce& reduce) {
  const Tensor converted = dtype ? a.to(*dtype) : a;
  const Shape perm = backshift(d.first, d.second, a.dim());
  Tensor result = reduce(svd(converted.permute(perm), false, false).S);
  if (keepdim) result = result.unsqueeze(-1).permute(inverse_permutation(perm));
  return result;
}

}  // namespace

Tensor matrix_norm(const Tensor& a, double ord, IntList dim, bool keepdim, std::optional<DType> dtype) {
  const double abs_ord = std::abs(ord);
  TL_CHECK(abs_ord == 2 || abs_ord == 1 || std::isinf(abs_ord), ValueError, "{}: Order {} not supported.", kApi, ord);
  auto d = checked_dims(a, dim, dtype, abs_ord != 2);
  if (abs_ord == 2) {
    return reduce_singular_values(a, d, keepdim, dtype, [&](const Tensor& s) {
      return ord > 0 ? amax(s, {-1}, keepdim) : amin(s, {-1}, keepdim);
    });
  }
  // The 1-norm is the largest column sum; the inf-norm the 1-norm of the transpose.
  if (std::isinf(abs_ord)) std::swap(d.first, d.second);
  // Summing over the first dim removes it, shifting a later second dim down by one.
  if (!keepdim && d.first < d.second) --d.second;
  const Tensor sums = norm(a, 1, {d.first}, keepdim, dtype);
  return ord > 0 ? amax(sums, {d.second}, keepdim) : amin(sums, {d.second}, keepdim);
}

Tensor matrix_norm(const Tensor& a, std::string_view ord, IntList dim, bool keepdim, std::optional<DType> dtype) {
  TL_CHECK(ord == "fro" || ord == "nuc", ValueError, "{}: Order {} not supported.", kApi, ord);
  const auto d = checked_dims(a, dim, dtype, ord != "nuc");
  if (ord == "fro") return norm(a, 2, {d.first, d.second}, keepdim, dtype);
  return reduce_singular_values(a, d, keepdim, dtype, [&](const Tensor& s) { return sum(s, {-1}, keepdim); });
}

namespace {

void check_norm_dims(const Tensor& a, const std::optional<std::vector<int64_t>>& dim, bool ord_given,
                     std::string_view length_message) {
  if (dim) {
    TL_CHECK(dim->size() == 1 || dim->size() == 2, ValueError, "linalg.norm: If dim is specified, {} Got {}",
             length_message, shape_repr(*dim));
  } else if (ord_given) {
    TL_CHECK(a.dim() == 1 || a.dim() == 2, ValueError,
             "linalg.norm: If dim is not specified but ord is, the input must be 1D or 2D. Got {}D.", a.dim());
  }
}

}  // namespace

Tensor linalg_norm(const Tensor& a, std::optional<double> ord, std::optional<std::vector<int64_t>> dim, bool keepdim,
                   std::optional<DType> dtype) {
  check_norm_dims(a, dim, ord.has_value(), "it must be of length 1 or 2.");
  // Without ord every norm is the 2-norm of the flattened elements (Frobenius's for
  // matrices), so only an explicit ord over two dims is a matrix norm.
  if (ord && ((dim && dim->size() == 2) || (!dim && a.dim() == 2)))
    return matrix_norm(a, *ord, dim.value_or(Shape{0, 1}), keepdim, dtype);
  return norm(a, ord.value_or(2), dim.value_or(Shape{}), keepdim, dtype);
}

Tensor linalg_norm(const Tensor& a, std::string_view ord, std::optional<std::vector<int64_t>> dim, bool keepdim,
                   std::optional<DType> dtype) {
  // "mut" is torch 1.13's spelling in this overload.
  check_norm_dims(a, dim, true, "it mut be of length 1 or 2.");
  return matrix_norm(a, ord, dim.value_or(Shape{0, 1}), keepdim, dtype);
}

Tensor nuclear_norm(const Tensor& a, IntList dim, bool keepdim) {
  TL_CHECK(dim.size() == 2, ValueError, "nuclear norm requires a 'dim' argument of size 2");
  const int64_t d0 = wrap_dim(dim[0], a.dim(), "nuclear_norm"), d1 = wrap_dim(dim[1], a.dim(), "nuclear_norm");
  TL_CHECK(d0 != d1, ValueError, "duplicate or invalid dimensions");
  const Shape perm = backshift(d0, d1, a.dim());
  Tensor result = sum(svd_legacy(a.permute(perm), true, false).S, {-1}, keepdim);
  if (keepdim) result = result.unsqueeze(-1).permute(inverse_permutation(perm));
  return result;
}

Tensor nuclear_norm(const Tensor& a, bool keepdim) {
  TL_CHECK(a.dim() == 2, ValueError, "Expected a tensor with 2 dimensions, but got a tensor with {} dimension{} instead.",
           a.dim(), a.dim() == 1 ? "" : "s");
  return nuclear_norm(a, {0, 1}, keepdim);
}

// What torch.norm(p="fro") scripts to: the vector 2-norm for at most one dim, else the
// square root of the summed squares, as torch 1.13 computes it.
Tensor frobenius_norm(const Tensor& a, IntList dim, bool keepdim) {
  TL_CHECK(dim.size() <= 2, ValueError, "Expected at most 2 dimensions, but got {} dimensions instead.", dim.size());
  TL_CHECK(is_floating(a.dtype()), TypeError, "norm(): input dtype should be either floating point or complex. Got {} instead.",
           dtype_info(a.dtype()).scalar_type_name);
  if (dim.size() <= 1) return norm(a, 2, dim, keepdim);
  const int64_t d0 = wrap_dim(dim[0], a.dim(), "frobenius_norm"), d1 = wrap_dim(dim[1], a.dim(), "frobenius_norm");
  TL_CHECK(d0 != d1, ValueError, "Expected dims to be different, got {} instead", shape_repr(dim));
  return sqrt(sum(mul(a, a), {d0, d1}, keepdim));
}

// Each slice along dim scaled by maxnorm / (norm + 1e-7) where its p-norm exceeds
// maxnorm; float16/bfloat16 computed in float and rounded once, as torch.
Tensor renorm(const Tensor& self, const Scalar& p, int64_t dim, const Scalar& maxnorm) {
  const double max_norm = maxnorm.to<double>(), order = p.to<double>();
  TL_CHECK(max_norm >= 0, ValueError, "renorm: expected maxnorm to be >= 0 but got {}", max_norm);
  TL_CHECK(self.dim() > 1, ValueError, "renorm: input needs at least 2 dimensions, got {} dimensions", self.dim());
  TL_CHECK(order > 0, ValueError, "renorm: non-positive-norm not supported");
  TL_CHECK(is_floating(self.dtype()), TypeError,
           "linalg.vector_norm: Expected a floating point or complex tensor as input. Got {}",
           dtype_info(self.dtype()).scalar_type_name);
  const int64_t d = wrap_dim(dim, self.dim(), "renorm");
  Shape others;
  for (int64_t i = 0; i < self.dim(); ++i)
    if (i != d) others.push_back(i);
  const bool low = self.dtype() == DType::Half || self.dtype() == DType::BFloat16;
  const Tensor xf = low ? self.to(DType::Float) : self;
  Tensor slice_norms = norm(xf, order, others, true);
  Tensor scale = div(ones(slice_norms.sizes(), slice_norms.dtype()), add(slice_norms, Scalar(1e-7)));
  Tensor factor = where(gt(slice_norms, Scalar(max_norm)), mul(scale, Scalar(max_norm)),
                        ones(slice_norms.sizes(), slice_norms.dtype()));
  return mul(xf, factor).to(self.dtype());
}

}  // namespace torchlet

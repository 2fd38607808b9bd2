// Matrix norms: torch.linalg.matrix_norm, torch.linalg.norm and the legacy
// torch.nuclear_norm, composed from the vector norm, amax/amin and the singular values
// exactly as torch 1.13 composes them, so the results, the checks and their order (which
// error an input meets first) are torch's.
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

}  // namespace torchlet

// torch.linalg.pinv, matrix_rank and cond (ops.h): compositions over the singular values
// (or, for Hermitian input, the eigenvalues) that torch 1.13 writes in C++, step for
// step: the same decompositions (gesdd/syevd through LAPACK, exact), the same tolerance
// arithmetic in the same dtypes, and the same checks in the same order.
#include <cfloat>
#include <cmath>
#include <limits>
#include <string>

#include <fmt/format.h>

#include <torchlet/error.h>
#include <torchlet/ops.h>

#include "tensor/kernels/lapack.h"

namespace torchlet {

using namespace kernels::lapack;

namespace {

void check_real_tolerance(const std::optional<Tensor>& t, std::string_view api, std::string_view name) {
  if (t)
    TL_CHECK(!is_complex(t->dtype()), TypeError, "{}: {} tensor of complex type is not supported. Got {}", api, name,
             dtype_info(t->dtype()).scalar_type_name);
}

// torch's get_atol_rtol: atol defaults to 0; rtol to eps * max(m, n), or 0 where atol > 0.
std::pair<Tensor, Tensor> tolerances(const Tensor& a, const std::optional<Tensor>& atol, const std::optional<Tensor>& rtol,
                                     std::string_view api) {
  check_real_tolerance(atol, api, "atol");
  Tensor atol_t = atol ? *atol : scalar_tensor(0.0, DType::Double);
  if (rtol) {
    check_real_tolerance(rtol, api, "rtol");
    return {atol_t, *rtol};
  }
  TL_CHECK(a.dtype() == DType::Float || a.dtype() == DType::Double, TypeError,
           "This function doesn't handle types other than float and double");
  const double eps = a.dtype() == DType::Float ? FLT_EPSILON : DBL_EPSILON;
  const Tensor default_rtol = scalar_tensor(eps * static_cast<double>(std::max(a.size(-1), a.size(-2))), DType::Double);
  if (!atol) return {atol_t, default_rtol};
  return {atol_t, where(gt(*atol, Scalar(0)), scalar_tensor(0.0, DType::Double), default_rtol)};
}

// max(atol, rtol * largest), per matrix, as a column against the values.
Tensor threshold(const std::pair<Tensor, Tensor>& tol, const Tensor& largest) {
  return maximum(tol.first.unsqueeze(-1), mul(tol.second.unsqueeze(-1), largest));
}

}  // namespace

Tensor pinv(const Tensor& a, const std::optional<Tensor>& atol, const std::optional<Tensor>& rtol, bool hermitian) {
  // torch works out the tolerances (reading A's last two sizes) before checking A.
  const auto tol = tolerances(a, atol, rtol, "torch.linalg.pinv");
  const DType t = a.dtype();
  TL_CHECK((t == DType::Float || t == DType::Double) && a.dim() >= 2, TypeError,
           "linalg.pinv({}{{{}}}): expected a tensor with 2 or more dimensions of float, double, cfloat or cdouble types",
           dtype_info(t).scalar_type_name, shape_repr(a.sizes()));
  if (a.numel() == 0) {
    SvdResult f = svd_legacy(a, true, true);
    return matmul(mul(f.Vh, reciprocal(f.S).unsqueeze(-2)), f.U.transpose(-2, -1));
  }
  if (!hermitian) {
    SvdResult f = svd_legacy(a, true, true);  // U, S, V (torch's input.svd())
    const Tensor cutoff = threshold(tol, f.S.narrow(-1, 0, 1));
    const Tensor inverted = where(gt(f.S, cutoff), reciprocal(f.S), scalar_tensor(0.0, f.S.dtype())).to(t);
    return matmul(mul(f.Vh, inverted.unsqueeze(-2)), f.U.transpose(-2, -1));
  }
  auto [values, vectors] = eigh(a, "L", true);
  const Tensor magnitude = abs(values);
  const Tensor cutoff = threshold(tol, amax(magnitude, {-1}, true));
  const Tensor inverted = where(gt(magnitude, cutoff), reciprocal(values), scalar_tensor(0.0, values.dtype())).to(t);
  return matmul(mul(vectors, inverted.unsqueeze(-2)), vectors.transpose(-2, -1));
}

Tensor matrix_rank(const Tensor& a, const std::optional<Tensor>& atol, const std::optional<Tensor>& rtol, bool hermitian) {
  constexpr std::string_view kApi = "torch.linalg.matrix_rank";
  check_is_matrix(a, kApi, "input");
  const auto tol = tolerances(a, atol, rtol, kApi);
  // A matrix without elements has no non-zero rows: rank 0.
  if (a.numel() == 0) return zeros(batch_shape(a, 2), DType::Long);
  Tensor values, largest;
  if (!hermitian) {
    values = svd(a, false, false).S;
    largest = values.narrow(-1, 0, 1);
  } else {
    values = abs(eigh(a, "L", false).first);
    largest = amax(values, {-1}, true);
  }
  return sum(gt(values, threshold(tol, largest)), {-1});
}

namespace {

// cond for the norms that need A's inverse: norm(A) * norm(inv(A)), a singular A's inverse
// taken as all infinities, and 0 * inf (NaN) read as inf.
template <typename Ord>
Tensor cond_through_inverse(const Tensor& a, const Ord& ord) {
  auto [inverse, info] = inv_ex(a);
  // In place, as torch's masked_fill_: the inverse keeps LAPACK's column-major layout,
  // which the norms then read in memory order.
  inverse.copy_(masked_fill(inverse, gt(info.unsqueeze(-1).unsqueeze(-1), Scalar(0)), std::numeric_limits<double>::infinity()));
  Tensor result = mul(matrix_norm(a, ord), matrix_norm(inverse, ord));
  return masked_fill(result, ne(result, result), std::numeric_limits<double>::infinity());
}

// torch returns 0 for matrices without elements (NumPy leaves the case undefined).
Tensor empty_matrices_cond(const Tensor& a) { return zeros(batch_shape(a, 2), a.dtype()); }

}  // namespace

Tensor cond(const Tensor& a, const std::optional<Scalar>& opt_ord) {
  TL_CHECK(a.dim() >= 2, ValueError, "linalg.cond: The input tensor must have at least 2 dimensions.");
  const Scalar ord = opt_ord.value_or(Scalar(int64_t{2}));
  const double value = ord.to_double(), magnitude = std::abs(value);
  TL_CHECK(magnitude == 2 || magnitude == 1 || std::isinf(magnitude), ValueError,
           "linalg.cond got an invalid norm type: {}", value);
  if (a.numel() == 0) return empty_matrices_cond(a);
  if (magnitude == 2) {
    const Tensor s = svd(a, false, false).S;
    const Tensor largest = s.narrow(-1, 0, 1), smallest = s.narrow(-1, -1, 1);
    return (value < 0 ? div(smallest, largest) : div(largest, smallest)).squeeze(-1);
  }
  // torch names the order as C++'s std::to_string prints it: "1" for an int, "1.000000"
  // or "inf" for a float.
  const std::string spelled = ord.is_floating() ? (std::isinf(value) ? (value > 0 ? "inf" : "-inf")
                                                                           : fmt::format("{:.6f}", value))
                                                      : std::to_string(ord.to<int64_t>());
  check_square(a, fmt::format("linalg.cond(ord={})", spelled));
  return cond_through_inverse(a, value);
}

Tensor cond(const Tensor& a, std::string_view ord) {
  check_square(a, fmt::format("linalg.cond(ord={})", ord));
  TL_CHECK(ord == "fro" || ord == "nuc", ValueError, "linalg.cond got an invalid norm type: {}", ord);
  if (a.numel() == 0) return empty_matrices_cond(a);
  if (ord == "nuc") {
    // torch sums the singular values and their reciprocals directly: the nuclear norm of
    // an inverse with infinities would fail in LAPACK.
    const Tensor s = svd(a, false, false).S;
    return mul(sum(s, {-1}), sum(reciprocal(s), {-1}));
  }
  return cond_through_inverse(a, ord);
}

}  // namespace torchlet

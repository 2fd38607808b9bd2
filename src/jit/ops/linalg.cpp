// The LAPACK-backed linear algebra and the norms, each beside its out= forms (Note [out=
// forms] in out_forms.h), registered from the kernels' signatures (Note [Boxing] in
// boxing.h). LU (lu.cpp): linalg.lu_factor(_ex), linalg.lu, lu_unpack, linalg.lu_solve
// and the older lu_solve, linalg.solve(_ex), linalg.inv(_ex)/inverse,
// linalg.tensorinv/tensorsolve, det, slogdet, logdet, and the underscored forms torch's
// own decompositions call, which also return the factors. Cholesky (cholesky.cpp):
// linalg.cholesky(_ex), cholesky, cholesky_solve, cholesky_inverse, linalg.ldl_factor(_ex),
// linalg.ldl_solve. Decompositions (decompositions.cpp): linalg.eigh/eigvalsh,
// linalg.svd/svdvals, svd, linalg.qr, qr, geqrf, linalg.householder_product/orgqr, ormqr.
// Least squares (lstsq.cpp), triangular solves (triangular.cpp), pinv/matrix_rank/cond
// (spectral.cpp). Norms: norm, linalg.vector_norm, linalg.matrix_norm, linalg.norm,
// frobenius_norm, nuclear_norm (matrix_norm.cpp) and renorm; and linalg.diagonal. The
// products are matrix_products.cpp's. Cases run through torch in tests/fixtures/gen_ops.py
// (lu_ops, cholesky_ops, decomposition_ops, householder_ops, lstsq_ops, matrix_norm_ops, ...).
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include <torchlet/ops.h>

#include "jit/ops/boxing.h"
#include "jit/ops/out_forms.h"

namespace torchlet::jit::ops {
namespace {

// --- the kernels' result structs as the schemas' tuples --------------------------------------

std::tuple<Tensor, Tensor> lu_factor(const Tensor& a, bool pivot) {
  LuFactors f = torchlet::lu_factor(a, pivot);
  return {std::move(f.LU), std::move(f.pivots)};
}
std::tuple<Tensor, Tensor, Tensor> lu_factor_ex(const Tensor& a, bool pivot, bool check_errors) {
  LuFactors f = torchlet::lu_factor_ex(a, pivot, check_errors);
  return {std::move(f.LU), std::move(f.pivots), std::move(f.info)};
}
std::tuple<Tensor, Tensor, Tensor> unpacked(LuUnpacked u) { return {std::move(u.P), std::move(u.L), std::move(u.U)}; }
std::tuple<Tensor, Tensor, Tensor> linalg_lu(const Tensor& a, bool pivot) { return unpacked(torchlet::linalg_lu(a, pivot)); }
std::tuple<Tensor, Tensor, Tensor> lu_unpack(const Tensor& lu, const Tensor& pivots, bool unpack_data, bool unpack_pivots) {
  return unpacked(torchlet::lu_unpack(lu, pivots, unpack_data, unpack_pivots));
}
// torch.lu_solve(B, LU_data, LU_pivots), the deprecated argument order.
Tensor lu_solve_legacy(const Tensor& self, const Tensor& lu_data, const Tensor& lu_pivots) {
  return torchlet::lu_solve(lu_data, lu_pivots, self);
}
std::tuple<Tensor, Tensor> solve_ex(const Tensor& a, const Tensor& b, bool left, bool check_errors) {
  SolveResult r = torchlet::solve_ex(a, b, left, check_errors);
  return {std::move(r.result), std::move(r.factors.info)};
}
std::tuple<Tensor, Tensor, Tensor, Tensor> solve_ex_with_factors(const Tensor& a, const Tensor& b, bool left,
                                                                 bool check_errors) {
  SolveResult r = torchlet::solve_ex(a, b, left, check_errors);
  return {std::move(r.result), std::move(r.factors.LU), std::move(r.factors.pivots), std::move(r.factors.info)};
}
std::tuple<Tensor, Tensor, Tensor> det_with_factors(const Tensor& a) {
  DetResult r = torchlet::det_with_factors(a);
  return {std::move(r.det), std::move(r.factors.LU), std::move(r.factors.pivots)};
}
std::tuple<Tensor, Tensor, Tensor, Tensor> slogdet_with_factors(const Tensor& a) {
  SlogdetResult r = torchlet::slogdet_with_factors(a);
  return {std::move(r.sign), std::move(r.logabsdet), std::move(r.factors.LU), std::move(r.factors.pivots)};
}

std::pair<Tensor, Tensor> eigh(const Tensor& a, const std::string& uplo) { return torchlet::eigh(a, uplo, true); }
std::pair<Tensor, Tensor> eigh_internal(const Tensor& a, const std::string& uplo, bool compute_v) {
  return torchlet::eigh(a, uplo, compute_v);
}
Tensor eigvalsh(const Tensor& a, const std::string& uplo) { return torchlet::eigh(a, uplo, false).first; }

// torch refuses `driver=` on CPU; torchlet has only LAPACK's gesdd and says the same.
void refuse_driver(const std::optional<std::string>& driver) {
  TL_CHECK(!driver, ValueError,
           "torch.linalg.svd: keyword argument `driver=` is only supported on CUDA inputs with cuSOLVER backend.");
}
std::tuple<Tensor, Tensor, Tensor> svd_factors(SvdResult r) { return {std::move(r.U), std::move(r.S), std::move(r.Vh)}; }
std::tuple<Tensor, Tensor, Tensor> linalg_svd(const Tensor& a, bool full_matrices, const std::optional<std::string>& driver) {
  refuse_driver(driver);
  return svd_factors(torchlet::svd(a, full_matrices, true));
}
std::tuple<Tensor, Tensor, Tensor> linalg_svd_internal(const Tensor& a, bool full_matrices, bool compute_uv,
                                                       const std::optional<std::string>& driver) {
  refuse_driver(driver);
  return svd_factors(torchlet::svd(a, full_matrices, compute_uv));
}
Tensor svdvals(const Tensor& a, const std::optional<std::string>& driver) {
  refuse_driver(driver);
  return torchlet::svd(a, false, false).S;
}
std::tuple<Tensor, Tensor, Tensor> svd_legacy(const Tensor& a, bool some, bool compute_uv) {
  return svd_factors(torchlet::svd_legacy(a, some, compute_uv));
}

std::pair<Tensor, Tensor> qr(const Tensor& a, const std::string& mode) { return torchlet::qr(a, mode); }
std::pair<Tensor, Tensor> qr_legacy(const Tensor& a, bool some) { return torchlet::qr(a, some ? "reduced" : "complete"); }
std::tuple<Tensor, Tensor, Tensor, Tensor> lstsq(const Tensor& self, const Tensor& b, std::optional<double> rcond,
                                                 const std::optional<std::string>& driver) {
  LstsqResult r = torchlet::lstsq(self, b, rcond, driver ? std::optional<std::string_view>(*driver) : std::nullopt);
  return {std::move(r.solution), std::move(r.residuals), std::move(r.rank), std::move(r.singular_values)};
}

// --- pinv, matrix_rank, cond -----------------------------------------------------------------

// A float tolerance as the float64 0-dim tensor torch's float overloads make of it.
std::optional<Tensor> tolerance(std::optional<double> v) {
  return v ? std::optional<Tensor>(scalar_tensor(*v, DType::Double)) : std::nullopt;
}
Tensor zero_tolerance() { return scalar_tensor(0.0, DType::Double); }

// linalg_pinv(self, float rcond, hermitian) and pinverse(self, rcond): rcond is rtol.
Tensor pinv_rcond(const Tensor& self, double rcond, bool hermitian) {
  return torchlet::pinv(self, zero_tolerance(), tolerance(rcond), hermitian);
}
Tensor pinverse(const Tensor& self, double rcond) { return torchlet::pinv(self, zero_tolerance(), tolerance(rcond), false); }
Tensor pinv_rcond_tensor(const Tensor& self, const Tensor& rcond, bool hermitian) {
  TL_CHECK(!is_complex(rcond.dtype()), TypeError, "torch.linalg.pinv: rcond tensor of complex type is not supported. Got {}",
           dtype_info(rcond.dtype()).scalar_type_name);
  return torchlet::pinv(self, zero_tolerance(), rcond, hermitian);
}
Tensor pinv_atol_rtol_float(const Tensor& self, std::optional<double> atol, std::optional<double> rtol, bool hermitian) {
  return torchlet::pinv(self, tolerance(atol), tolerance(rtol), hermitian);
}

// linalg_matrix_rank(self, float tol, hermitian), the deprecated form: tol is atol, rtol 0.
Tensor matrix_rank_tol(const Tensor& self, double tol, bool hermitian) {
  return torchlet::matrix_rank(self, tolerance(tol), zero_tolerance(), hermitian);
}
Tensor matrix_rank_tol_tensor(const Tensor& input, const Tensor& tol, bool hermitian) {
  return torchlet::matrix_rank(input, tol, zero_tolerance(), hermitian);
}
Tensor matrix_rank_atol_rtol_float(const Tensor& self, std::optional<double> atol, std::optional<double> rtol, bool hermitian) {
  return torchlet::matrix_rank(self, tolerance(atol), tolerance(rtol), hermitian);
}

constexpr auto kCond = static_cast<Tensor (*)(const Tensor&, const std::optional<Scalar>&)>(&torchlet::cond);
Tensor cond_str(const Tensor& self, const std::string& p) { return torchlet::cond(self, p); }

// --- norms -----------------------------------------------------------------------------------

Tensor matrix_norm(const Tensor& self, const Scalar& ord, IntList dim, bool keepdim, std::optional<DType> dtype) {
  return torchlet::matrix_norm(self, ord.to_double(), dim, keepdim, dtype);
}
Tensor matrix_norm_str(const Tensor& self, const std::string& ord, IntList dim, bool keepdim, std::optional<DType> dtype) {
  return torchlet::matrix_norm(self, ord, dim, keepdim, dtype);
}
Tensor linalg_norm(const Tensor& self, const std::optional<Scalar>& ord, std::optional<std::vector<int64_t>> dim, bool keepdim,
                   std::optional<DType> dtype) {
  return torchlet::linalg_norm(self, ord ? std::optional<double>(ord->to_double()) : std::nullopt, std::move(dim), keepdim,
                               dtype);
}
Tensor linalg_norm_str(const Tensor& self, const std::string& ord, std::optional<std::vector<int64_t>> dim, bool keepdim,
                       std::optional<DType> dtype) {
  return torchlet::linalg_norm(self, ord, std::move(dim), keepdim, dtype);
}
// `int[1]? dim`: None (or []) reduces every dimension.
Tensor vector_norm(const Tensor& self, const Scalar& ord, std::optional<IntList> dim, bool keepdim, std::optional<DType> dtype) {
  return torchlet::norm(self, ord.to_double(), dim.value_or(IntList{}), keepdim, dtype);
}
Tensor frobenius_norm_all(const Tensor& self) { return torchlet::frobenius_norm(self, {}, false); }
constexpr auto kNuclearNorm = static_cast<Tensor (*)(const Tensor&, bool)>(&torchlet::nuclear_norm);
constexpr auto kNuclearNormDims = static_cast<Tensor (*)(const Tensor&, IntList, bool)>(&torchlet::nuclear_norm);

// The legacy torch.norm overloads: p None is 2; dtype= must be floating or complex
// (torch's check, before any other) and self is cast to it first.
double norm_p(const std::optional<Scalar>& p) { return p ? p->to_double() : 2.0; }
DType checked_norm_dtype(DType d) {
  TL_CHECK(is_floating(d) || is_complex(d), ValueError,
           "norm(): the desired output dtype should be either floating point or complex. Got {} instead.",
           dtype_info(d).scalar_type_name);
  return d;
}
Tensor norm(const Tensor& self, const Scalar& p) { return torchlet::norm(self, p.to_double()); }
Tensor norm_dims(const Tensor& self, const std::optional<Scalar>& p, IntList dim, bool keepdim) {
  return torchlet::norm(self, norm_p(p), dim, keepdim);
}
Tensor norm_dims_dtype(const Tensor& self, const std::optional<Scalar>& p, IntList dim, bool keepdim, DType dtype) {
  const DType d = checked_norm_dtype(dtype);
  return torchlet::norm(self.to(d), norm_p(p), dim, keepdim);
}
Tensor norm_dtype(const Tensor& self, const std::optional<Scalar>& p, DType dtype) {
  const DType d = checked_norm_dtype(dtype);
  return torchlet::norm(self.to(d), norm_p(p));
}

Tensor linalg_diagonal(const Tensor& a, int64_t offset, int64_t dim1, int64_t dim2) { return a.diagonal(offset, dim1, dim2); }

static RegisterOps reg({
    {"aten::linalg_lu_factor(Tensor A, *, bool pivot=True) -> (Tensor LU, Tensor pivots)", boxed<&lu_factor>},
    {"aten::linalg_lu_factor.out(Tensor A, *, bool pivot=True, Tensor(a!) LU, Tensor(b!) pivots) -> (Tensor(a!) LU, Tensor(b!) pivots)", into_outs<"aten::linalg_lu_factor", 2, exact_dtype>},
    {"aten::linalg_lu_factor_ex(Tensor A, *, bool pivot=True, bool check_errors=False) -> (Tensor LU, Tensor pivots, Tensor info)", boxed<&lu_factor_ex>},
    {"aten::linalg_lu_factor_ex.out(Tensor A, *, bool pivot=True, bool check_errors=False, Tensor(a!) LU, Tensor(b!) pivots, Tensor(c!) info) -> (Tensor(a!) LU, Tensor(b!) pivots, Tensor(c!) info)", into_outs<"aten::linalg_lu_factor_ex", 3, exact_dtype>},
    {"aten::linalg_lu(Tensor A, *, bool pivot=True) -> (Tensor P, Tensor L, Tensor U)", boxed<&linalg_lu>},
    {"aten::linalg_lu.out(Tensor A, *, bool pivot=True, Tensor(a!) P, Tensor(b!) L, Tensor(c!) U) -> (Tensor(a!) P, Tensor(b!) L, Tensor(c!) U)", into_outs<"aten::linalg_lu", 3, exact_dtype>},
    {"aten::lu_unpack(Tensor LU_data, Tensor LU_pivots, bool unpack_data=True, bool unpack_pivots=True) -> (Tensor P, Tensor L, Tensor U)", boxed<&lu_unpack>},
    {"aten::lu_unpack.out(Tensor LU_data, Tensor LU_pivots, bool unpack_data=True, bool unpack_pivots=True, *, Tensor(a!) P, Tensor(b!) L, Tensor(c!) U) -> (Tensor(a!) P, Tensor(b!) L, Tensor(c!) U)", into_outs<"aten::lu_unpack", 3, exact_dtype>},
    {"aten::linalg_lu_solve(Tensor LU, Tensor pivots, Tensor B, *, bool left=True, bool adjoint=False) -> Tensor", boxed<&torchlet::lu_solve>},
    {"aten::linalg_lu_solve.out(Tensor LU, Tensor pivots, Tensor B, *, bool left=True, bool adjoint=False, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::linalg_lu_solve", 1, exact_dtype>},
    {"aten::lu_solve(Tensor self, Tensor LU_data, Tensor LU_pivots) -> Tensor", boxed<&lu_solve_legacy>},
    {"aten::lu_solve.out(Tensor self, Tensor LU_data, Tensor LU_pivots, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::lu_solve", 1, exact_dtype>},
    {"aten::linalg_solve(Tensor A, Tensor B, *, bool left=True) -> Tensor", boxed<&torchlet::solve>},
    {"aten::linalg_solve.out(Tensor A, Tensor B, *, bool left=True, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::linalg_solve", 1, exact_dtype>},
    {"aten::linalg_solve_ex(Tensor A, Tensor B, *, bool left=True, bool check_errors=False) -> (Tensor result, Tensor info)", boxed<&solve_ex>},
    {"aten::linalg_solve_ex.out(Tensor A, Tensor B, *, bool left=True, bool check_errors=False, Tensor(a!) result, Tensor(b!) info) -> (Tensor(a!) result, Tensor(b!) info)", into_outs<"aten::linalg_solve_ex", 2, exact_dtype>},
    {"aten::_linalg_solve_ex(Tensor A, Tensor B, *, bool left=True, bool check_errors=False) -> (Tensor result, Tensor LU, Tensor pivots, Tensor info)", boxed<&solve_ex_with_factors>},
    {"aten::linalg_inv(Tensor A) -> Tensor", boxed<&torchlet::inverse>},
    {"aten::linalg_inv.out(Tensor A, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::linalg_inv", 1, exact_dtype>},
    {"aten::inverse(Tensor self) -> Tensor", boxed<&torchlet::inverse>},
    {"aten::inverse.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::inverse", 1, exact_dtype>},
    {"aten::linalg_inv_ex(Tensor A, *, bool check_errors=False) -> (Tensor inverse, Tensor info)", boxed<&torchlet::inv_ex>},
    {"aten::linalg_inv_ex.inverse(Tensor A, *, bool check_errors=False, Tensor(a!) inverse, Tensor(b!) info) -> (Tensor(a!) inverse, Tensor(b!) info)", into_outs<"aten::linalg_inv_ex", 2, exact_dtype>},
    {"aten::linalg_det(Tensor A) -> Tensor", boxed<&torchlet::det>},
    {"aten::linalg_det.out(Tensor A, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::linalg_det", 1, exact_dtype>},
    {"aten::det(Tensor self) -> Tensor", boxed<&torchlet::det>},
    {"aten::_linalg_det(Tensor A) -> (Tensor result, Tensor LU, Tensor pivots)", boxed<&det_with_factors>},
    {"aten::linalg_slogdet(Tensor A) -> (Tensor sign, Tensor logabsdet)", boxed<&torchlet::slogdet>},
    {"aten::linalg_slogdet.out(Tensor A, *, Tensor(a!) sign, Tensor(b!) logabsdet) -> (Tensor(a!) sign, Tensor(b!) logabsdet)", into_outs<"aten::linalg_slogdet", 2, exact_dtype>},
    {"aten::slogdet(Tensor self) -> (Tensor sign, Tensor logabsdet)", boxed<&torchlet::slogdet>},
    {"aten::slogdet.out(Tensor self, *, Tensor(a!) sign, Tensor(b!) logabsdet) -> (Tensor(a!) sign, Tensor(b!) logabsdet)", into_outs<"aten::slogdet", 2, exact_dtype>},
    {"aten::_linalg_slogdet(Tensor A) -> (Tensor sign, Tensor logabsdet, Tensor LU, Tensor pivots)", boxed<&slogdet_with_factors>},
    {"aten::logdet(Tensor self) -> Tensor", boxed<&torchlet::logdet>},
    {"aten::linalg_tensorinv(Tensor self, int ind=2) -> Tensor", boxed<&torchlet::tensorinv>},
    {"aten::linalg_tensorinv.out(Tensor self, int ind=2, *, Tensor(a!) out) -> Tensor(a!)", out_variant<&torchlet::tensorinv>},
    {"aten::linalg_tensorsolve(Tensor self, Tensor other, int[]? dims=None) -> Tensor", boxed<&torchlet::tensorsolve>},
    {"aten::linalg_tensorsolve.out(Tensor self, Tensor other, int[]? dims=None, *, Tensor(a!) out) -> Tensor(a!)", out_variant<&torchlet::tensorsolve>},
    {"aten::linalg_cholesky(Tensor self, *, bool upper=False) -> Tensor", boxed<&torchlet::cholesky>},
    {"aten::linalg_cholesky.out(Tensor self, *, bool upper=False, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::linalg_cholesky", 1, exact_dtype>},
    {"aten::linalg_cholesky_ex(Tensor self, *, bool upper=False, bool check_errors=False) -> (Tensor L, Tensor info)", boxed<&torchlet::cholesky_ex>},
    {"aten::linalg_cholesky_ex.L(Tensor self, *, bool upper=False, bool check_errors=False, Tensor(a!) L, Tensor(b!) info) -> (Tensor(a!) L, Tensor(b!) info)", into_outs<"aten::linalg_cholesky_ex", 2, exact_dtype>},
    {"aten::linalg_ldl_factor_ex(Tensor self, *, bool hermitian=False, bool check_errors=False) -> (Tensor LD, Tensor pivots, Tensor info)", boxed<&torchlet::ldl_factor_ex>},
    {"aten::linalg_ldl_factor_ex.out(Tensor self, *, bool hermitian=False, bool check_errors=False, Tensor(a!) LD, Tensor(b!) pivots, Tensor(c!) info) -> (Tensor(a!) LD, Tensor(b!) pivots, Tensor(c!) info)", into_outs<"aten::linalg_ldl_factor_ex", 3, exact_dtype>},
    {"aten::linalg_ldl_factor(Tensor self, *, bool hermitian=False) -> (Tensor LD, Tensor pivots)", boxed<&torchlet::ldl_factor>},
    {"aten::linalg_ldl_factor.out(Tensor self, *, bool hermitian=False, Tensor(a!) LD, Tensor(b!) pivots) -> (Tensor(a!) LD, Tensor(b!) pivots)", into_outs<"aten::linalg_ldl_factor", 2, exact_dtype>},
    {"aten::linalg_ldl_solve(Tensor LD, Tensor pivots, Tensor B, *, bool hermitian=False) -> Tensor", boxed<&torchlet::ldl_solve>},
    {"aten::linalg_ldl_solve.out(Tensor LD, Tensor pivots, Tensor B, *, bool hermitian=False, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::linalg_ldl_solve", 1, exact_dtype>},
    {"aten::cholesky(Tensor self, bool upper=False) -> Tensor", boxed<&torchlet::cholesky_legacy>},
    {"aten::cholesky.out(Tensor self, bool upper=False, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::cholesky", 1, safely_castable<"cholesky", "result">>},
    {"aten::cholesky_solve(Tensor self, Tensor input2, bool upper=False) -> Tensor", boxed<&torchlet::cholesky_solve>},
    {"aten::cholesky_solve.out(Tensor self, Tensor input2, bool upper=False, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::cholesky_solve", 1, safely_castable<"cholesky_solve", "result">>},
    {"aten::cholesky_inverse(Tensor self, bool upper=False) -> Tensor", boxed<&torchlet::cholesky_inverse>},
    {"aten::cholesky_inverse.out(Tensor self, bool upper=False, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::cholesky_inverse", 1, safely_castable<"cholesky_inverse", "result">>},
    {"aten::linalg_eigh(Tensor self, str UPLO=\"L\") -> (Tensor eigenvalues, Tensor eigenvectors)", boxed<&eigh>},
    {"aten::linalg_eigh.eigvals(Tensor self, str UPLO=\"L\", *, Tensor(a!) eigvals, Tensor(b!) eigvecs) -> (Tensor(a!) eigenvalues, Tensor(b!) eigenvectors)", into_outs<"aten::linalg_eigh", 2, exact_dtype>},
    {"aten::_linalg_eigh(Tensor A, str UPLO=\"L\", bool compute_v=True) -> (Tensor eigenvalues, Tensor eigenvectors)", boxed<&eigh_internal>},
    {"aten::linalg_eigvalsh(Tensor self, str UPLO=\"L\") -> Tensor", boxed<&eigvalsh>},
    {"aten::linalg_eigvalsh.out(Tensor self, str UPLO=\"L\", *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::linalg_eigvalsh", 1, exact_dtype>},
    {"aten::linalg_svd(Tensor A, bool full_matrices=True, *, str? driver=None) -> (Tensor U, Tensor S, Tensor Vh)", boxed<&linalg_svd>},
    {"aten::linalg_svd.U(Tensor A, bool full_matrices=True, *, str? driver=None, Tensor(a!) U, Tensor(b!) S, Tensor(c!) Vh) -> (Tensor(a!) U, Tensor(b!) S, Tensor(c!) Vh)", into_outs<"aten::linalg_svd", 3, exact_dtype>},
    {"aten::_linalg_svd(Tensor A, bool full_matrices=False, bool compute_uv=True, *, str? driver=None) -> (Tensor U, Tensor S, Tensor Vh)", boxed<&linalg_svd_internal>},
    {"aten::linalg_svdvals(Tensor A, *, str? driver=None) -> Tensor", boxed<&svdvals>},
    {"aten::linalg_svdvals.out(Tensor A, *, str? driver=None, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::linalg_svdvals", 1, exact_dtype>},
    {"aten::svd(Tensor self, bool some=True, bool compute_uv=True) -> (Tensor U, Tensor S, Tensor V)", boxed<&svd_legacy>},
    {"aten::svd.U(Tensor self, bool some=True, bool compute_uv=True, *, Tensor(a!) U, Tensor(b!) S, Tensor(c!) V) -> (Tensor(a!) U, Tensor(b!) S, Tensor(c!) V)", into_outs<"aten::svd", 3, exact_dtype>},
    {"aten::linalg_qr(Tensor A, str mode=\"reduced\") -> (Tensor Q, Tensor R)", boxed<&qr>},
    {"aten::linalg_qr.out(Tensor A, str mode=\"reduced\", *, Tensor(a!) Q, Tensor(b!) R) -> (Tensor(a!) Q, Tensor(b!) R)", into_outs<"aten::linalg_qr", 2, exact_dtype>},
    {"aten::qr(Tensor self, bool some=True) -> (Tensor Q, Tensor R)", boxed<&qr_legacy>},
    {"aten::qr.Q(Tensor self, bool some=True, *, Tensor(a!) Q, Tensor(b!) R) -> (Tensor(a!) Q, Tensor(b!) R)", into_outs<"aten::qr", 2, exact_dtype>},
    {"aten::linalg_lstsq(Tensor self, Tensor b, float? rcond=None, *, str? driver=None) -> (Tensor solution, Tensor residuals, Tensor rank, Tensor singular_values)", boxed<&lstsq>},
    {"aten::linalg_lstsq.out(Tensor self, Tensor b, float? rcond=None, *, str? driver=None, Tensor(a!) solution, Tensor(b!) residuals, Tensor(c!) rank, Tensor(d!) singular_values) -> (Tensor(a!) solution, Tensor(b!) residuals, Tensor(c!) rank, Tensor(d!) singular_values)", into_outs<"aten::linalg_lstsq", 4, safely_castable<"torch.linalg.lstsq", "solution", "residuals", "rank", "singular_values">>},
    {"aten::geqrf(Tensor self) -> (Tensor a, Tensor tau)", boxed<&torchlet::geqrf>},
    {"aten::geqrf.a(Tensor self, *, Tensor(a!) a, Tensor(b!) tau) -> (Tensor(a!) a, Tensor(b!) tau)", into_outs<"aten::geqrf", 2, safely_castable<"torch.geqrf", "a", "tau">>},
    {"aten::linalg_householder_product(Tensor input, Tensor tau) -> Tensor", boxed<&torchlet::householder_product>},
    {"aten::linalg_householder_product.out(Tensor input, Tensor tau, *, Tensor(a!) out) -> Tensor(a!)", out_variant<&torchlet::householder_product>},
    {"aten::orgqr(Tensor self, Tensor input2) -> Tensor", boxed<&torchlet::householder_product>},
    {"aten::orgqr.out(Tensor self, Tensor input2, *, Tensor(a!) out) -> Tensor(a!)", out_variant<&torchlet::householder_product>},
    {"aten::ormqr(Tensor self, Tensor input2, Tensor input3, bool left=True, bool transpose=False) -> Tensor", boxed<&torchlet::ormqr>},
    {"aten::ormqr.out(Tensor self, Tensor input2, Tensor input3, bool left=True, bool transpose=False, *, Tensor(a!) out) -> Tensor(a!)", out_variant<&torchlet::ormqr>},
    {"aten::linalg_pinv(Tensor self, float rcond, bool hermitian=False) -> Tensor", boxed<&pinv_rcond>},
    {"aten::linalg_pinv.out(Tensor self, float rcond, bool hermitian=False, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::linalg_pinv", 1, safely_castable<"linalg.pinv", "result">>},
    {"aten::linalg_pinv.rcond_tensor(Tensor self, Tensor rcond, bool hermitian=False) -> Tensor", boxed<&pinv_rcond_tensor>},
    {"aten::linalg_pinv.out_rcond_tensor(Tensor self, Tensor rcond, bool hermitian=False, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::linalg_pinv.rcond_tensor", 1, safely_castable<"linalg.pinv", "result">>},
    {"aten::linalg_pinv.atol_rtol_tensor(Tensor self, *, Tensor? atol=None, Tensor? rtol=None, bool hermitian=False) -> Tensor", boxed<&torchlet::pinv>},
    {"aten::linalg_pinv.atol_rtol_tensor_out(Tensor self, *, Tensor? atol=None, Tensor? rtol=None, bool hermitian=False, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::linalg_pinv.atol_rtol_tensor", 1, safely_castable<"linalg.pinv", "result">>},
    {"aten::linalg_pinv.atol_rtol_float(Tensor self, *, float? atol=None, float? rtol=None, bool hermitian=False) -> Tensor", boxed<&pinv_atol_rtol_float>},
    {"aten::linalg_pinv.atol_rtol_float_out(Tensor self, *, float? atol=None, float? rtol=None, bool hermitian=False, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::linalg_pinv.atol_rtol_float", 1, safely_castable<"linalg.pinv", "result">>},
    {"aten::pinverse(Tensor self, float rcond=1.0000000000000001e-15) -> Tensor", boxed<&pinverse>},
    {"aten::linalg_matrix_rank(Tensor self, float tol, bool hermitian=False) -> Tensor", boxed<&matrix_rank_tol>},
    {"aten::linalg_matrix_rank.out(Tensor self, float tol, bool hermitian=False, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::linalg_matrix_rank", 1, safely_castable<"torch.linalg.matrix_rank", "result">>},
    {"aten::linalg_matrix_rank.tol_tensor(Tensor input, Tensor tol, bool hermitian=False) -> Tensor", boxed<&matrix_rank_tol_tensor>},
    {"aten::linalg_matrix_rank.out_tol_tensor(Tensor input, Tensor tol, bool hermitian=False, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::linalg_matrix_rank.tol_tensor", 1, safely_castable<"torch.linalg.matrix_rank", "result">>},
    {"aten::linalg_matrix_rank.atol_rtol_tensor(Tensor input, *, Tensor? atol=None, Tensor? rtol=None, bool hermitian=False) -> Tensor", boxed<&torchlet::matrix_rank>},
    {"aten::linalg_matrix_rank.atol_rtol_tensor_out(Tensor input, *, Tensor? atol=None, Tensor? rtol=None, bool hermitian=False, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::linalg_matrix_rank.atol_rtol_tensor", 1, safely_castable<"torch.linalg.matrix_rank", "result">>},
    {"aten::linalg_matrix_rank.atol_rtol_float(Tensor self, *, float? atol=None, float? rtol=None, bool hermitian=False) -> Tensor", boxed<&matrix_rank_atol_rtol_float>},
    {"aten::linalg_matrix_rank.atol_rtol_float_out(Tensor self, *, float? atol=None, float? rtol=None, bool hermitian=False, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::linalg_matrix_rank.atol_rtol_float", 1, safely_castable<"torch.linalg.matrix_rank", "result">>},
    {"aten::linalg_cond(Tensor self, Scalar? p=None) -> Tensor", boxed<kCond>},
    {"aten::linalg_cond.out(Tensor self, Scalar? p=None, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::linalg_cond", 1, safely_castable<"linalg.cond", "result">>},
    {"aten::linalg_cond.p_str(Tensor self, str p) -> Tensor", boxed<&cond_str>},
    {"aten::linalg_cond.p_str_out(Tensor self, str p, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::linalg_cond.p_str", 1, safely_castable<"linalg.cond", "result">>},
    {"aten::linalg_solve_triangular(Tensor self, Tensor B, *, bool upper, bool left=True, bool unitriangular=False) -> Tensor", boxed<&torchlet::solve_triangular>},
    {"aten::linalg_solve_triangular.out(Tensor self, Tensor B, *, bool upper, bool left=True, bool unitriangular=False, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::linalg_solve_triangular", 1, expected_scalar_type>},
    {"aten::triangular_solve(Tensor self, Tensor A, bool upper=True, bool transpose=False, bool unitriangular=False) -> (Tensor solution, Tensor cloned_coefficient)", boxed<&torchlet::triangular_solve>},
    {"aten::triangular_solve.X(Tensor self, Tensor A, bool upper=True, bool transpose=False, bool unitriangular=False, *, Tensor(a!) X, Tensor(b!) M) -> (Tensor(a!) solution, Tensor(b!) cloned_coefficient)", into_outs<"aten::triangular_solve", 2, exact_dtype>},
    {"aten::norm.Scalar(Tensor self, Scalar p=2) -> Tensor", boxed<&norm>},
    {"aten::norm.Scalar_out(Tensor self, Scalar p=2, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::norm.Scalar", 1, any_dtype>},
    {"aten::norm.ScalarOpt_dim(Tensor self, Scalar? p, int[1] dim, bool keepdim=False) -> Tensor", boxed<&norm_dims>},
    {"aten::norm.out(Tensor self, Scalar? p, int[1] dim, bool keepdim=False, *, Tensor(a!) out) -> Tensor(a!)", reduce_in_out_dtype<"aten::norm.ScalarOpt_dim", "norm_cpu", false>},
    {"aten::norm.ScalarOpt_dim_dtype(Tensor self, Scalar? p, int[1] dim, bool keepdim, *, ScalarType dtype) -> Tensor", boxed<&norm_dims_dtype>},
    {"aten::norm.dtype_out(Tensor self, Scalar? p, int[1] dim, bool keepdim, *, ScalarType dtype, Tensor(a!) out) -> Tensor(a!)", reduce_in_out_dtype<"aten::norm.ScalarOpt_dim_dtype", "norm_cpu", false>},
    {"aten::norm.ScalarOpt_dtype(Tensor self, Scalar? p, *, ScalarType dtype) -> Tensor", boxed<&norm_dtype>},
    {"aten::norm.ScalarOpt_dtype_out(Tensor self, Scalar? p, *, ScalarType dtype, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::norm.ScalarOpt_dtype", 1, any_dtype>},
    {"aten::linalg_vector_norm(Tensor self, Scalar ord=2, int[1]? dim=None, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor", boxed<&vector_norm>},
    {"aten::linalg_vector_norm.out(Tensor self, Scalar ord=2, int[1]? dim=None, bool keepdim=False, *, ScalarType? dtype=None, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::linalg_vector_norm", 1, exact_dtype>},
    {"aten::linalg_matrix_norm(Tensor self, Scalar ord, int[] dim=[-2, -1], bool keepdim=False, *, ScalarType? dtype=None) -> Tensor", boxed<&matrix_norm>},
    {"aten::linalg_matrix_norm.out(Tensor self, Scalar ord, int[] dim=[-2, -1], bool keepdim=False, *, ScalarType? dtype=None, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::linalg_matrix_norm", 1, norm_out_check<"linalg.matrix_norm">>},
    {"aten::linalg_matrix_norm.str_ord(Tensor self, str ord=\"fro\", int[] dim=[-2, -1], bool keepdim=False, *, ScalarType? dtype=None) -> Tensor", boxed<&matrix_norm_str>},
    {"aten::linalg_matrix_norm.str_ord_out(Tensor self, str ord=\"fro\", int[] dim=[-2, -1], bool keepdim=False, *, ScalarType? dtype=None, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::linalg_matrix_norm.str_ord", 1, norm_out_check<"linalg.matrix_norm">>},
    {"aten::linalg_norm(Tensor self, Scalar? ord=None, int[1]? dim=None, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor", boxed<&linalg_norm>},
    {"aten::linalg_norm.out(Tensor self, Scalar? ord=None, int[1]? dim=None, bool keepdim=False, *, ScalarType? dtype=None, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::linalg_norm", 1, norm_out_check<"linalg.norm">>},
    {"aten::linalg_norm.ord_str(Tensor self, str ord, int[1]? dim=None, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor", boxed<&linalg_norm_str>},
    {"aten::linalg_norm.ord_str_out(Tensor self, str ord, int[1]? dim=None, bool keepdim=False, *, ScalarType? dtype=None, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::linalg_norm.ord_str", 1, norm_out_check<"linalg.norm">>},
    {"aten::frobenius_norm(Tensor self) -> Tensor", boxed<&frobenius_norm_all>},
    {"aten::frobenius_norm.dim(Tensor self, int[1] dim, bool keepdim=False) -> Tensor", boxed<&torchlet::frobenius_norm>},
    {"aten::frobenius_norm.out(Tensor self, int[1] dim, bool keepdim=False, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::frobenius_norm.dim", 1, any_dtype>},
    {"aten::nuclear_norm(Tensor self, bool keepdim=False) -> Tensor", boxed<kNuclearNorm>},
    {"aten::nuclear_norm.out(Tensor self, bool keepdim=False, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::nuclear_norm", 1, any_dtype>},
    {"aten::nuclear_norm.dim(Tensor self, int[2] dim, bool keepdim=False) -> Tensor", boxed<kNuclearNormDims>},
    {"aten::nuclear_norm.dim_out(Tensor self, int[2] dim, bool keepdim=False, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::nuclear_norm.dim", 1, any_dtype>},
    {"aten::renorm(Tensor self, Scalar p, int dim, Scalar maxnorm) -> Tensor", boxed<&torchlet::renorm>},
    {"aten::renorm.out(Tensor self, Scalar p, int dim, Scalar maxnorm, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::renorm", 1, exact_dtype>},
    {"aten::linalg_diagonal(Tensor(a) A, *, int offset=0, int dim1=-2, int dim2=-1) -> Tensor(a)", boxed<&linalg_diagonal>},
});

}  // namespace
}  // namespace torchlet::jit::ops

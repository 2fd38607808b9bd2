// The LAPACK-backed operators. LU (lu.cpp): linalg.lu_factor(_ex), linalg.lu,
// lu_unpack, linalg.lu_solve and the older lu_solve, linalg.solve(_ex),
// linalg.inv(_ex)/inverse, linalg.tensorinv/tensorsolve, det/linalg.det,
// slogdet/linalg.slogdet, logdet, and the underscored forms torch's own decompositions
// call, which also return the factors. Cholesky (cholesky.cpp): linalg.cholesky(_ex),
// cholesky, cholesky_solve, cholesky_inverse, linalg.ldl_factor(_ex), linalg.ldl_solve. Decompositions (decompositions.cpp):
// linalg.eigh/eigvalsh, linalg.svd/svdvals, svd, linalg.qr, qr, geqrf,
// linalg.householder_product/orgqr, ormqr. Least squares (lstsq.cpp): linalg.lstsq.
// Triangular solves (triangular.cpp): linalg.solve_triangular, triangular_solve.
// Spectral (spectral.cpp): linalg.pinv/pinverse, linalg.matrix_rank, linalg.cond. Norms (matrix_norm.cpp): linalg.matrix_norm,
// linalg.norm and the older frobenius_norm/nuclear_norm. Products (linalg.cpp):
// linalg.matrix_power, linalg.matrix_exp, linalg.multi_dot/chain_matmul, linalg.vecdot, linalg.vander/vander;
// and linalg.diagonal. Every schema has cases run through torch in
// tests/fixtures/gen_ops.py (lu_ops, cholesky_ops, decomposition_ops, householder_ops,
// lstsq_ops, tensor_linalg_ops, matrix_norm_ops, matrix_product_ops, ...).
#include <torchlet/ops.h>

#include "jit/ops/ops_util.h"

namespace torchlet::jit::ops {
namespace {

void push_factors(Stack& s, LuFactors f, bool with_info) {
  push(s, std::move(f.LU));
  push(s, std::move(f.pivots));
  if (with_info) push(s, std::move(f.info));
}

template <bool with_info>
void lu_factor_op(Stack& s) {
  const bool check_errors = with_info && pop_bool(s);
  const bool pivot = pop_bool(s);
  Tensor a = pop_tensor(s);
  push_factors(s, with_info ? torchlet::lu_factor_ex(a, pivot, check_errors) : torchlet::lu_factor(a, pivot), with_info);
}

void push_unpacked(Stack& s, LuUnpacked u) {
  push(s, std::move(u.P));
  push(s, std::move(u.L));
  push(s, std::move(u.U));
}
void linalg_lu(Stack& s) {
  const bool pivot = pop_bool(s);
  push_unpacked(s, torchlet::linalg_lu(pop_tensor(s), pivot));
}
void lu_unpack(Stack& s) {
  const bool unpack_pivots = pop_bool(s), unpack_data = pop_bool(s);
  Tensor pivots = pop_tensor(s), lu = pop_tensor(s);
  push_unpacked(s, torchlet::lu_unpack(lu, pivots, unpack_data, unpack_pivots));
}

void linalg_lu_solve(Stack& s) {
  const bool adjoint = pop_bool(s), left = pop_bool(s);
  Tensor b = pop_tensor(s), pivots = pop_tensor(s), lu = pop_tensor(s);
  push(s, torchlet::lu_solve(lu, pivots, b, left, adjoint));
}
// torch.lu_solve(B, LU_data, LU_pivots), the deprecated argument order.
void lu_solve_legacy(Stack& s) {
  Tensor pivots = pop_tensor(s), lu = pop_tensor(s), b = pop_tensor(s);
  push(s, torchlet::lu_solve(lu, pivots, b));
}

void linalg_solve(Stack& s) {
  const bool left = pop_bool(s);
  Tensor b = pop_tensor(s), a = pop_tensor(s);
  push(s, torchlet::solve(a, b, left));
}
template <bool with_factors>
void linalg_solve_ex(Stack& s) {
  const bool check_errors = pop_bool(s), left = pop_bool(s);
  Tensor b = pop_tensor(s), a = pop_tensor(s);
  SolveResult r = torchlet::solve_ex(a, b, left, check_errors);
  push(s, std::move(r.result));
  if (with_factors) push_factors(s, r.factors, false);
  push(s, std::move(r.factors.info));
}

void linalg_inv(Stack& s) { push(s, torchlet::inverse(pop_tensor(s))); }
void linalg_inv_ex(Stack& s) {
  const bool check_errors = pop_bool(s);
  auto [inverse, info] = torchlet::inv_ex(pop_tensor(s), check_errors);
  push(s, std::move(inverse));
  push(s, std::move(info));
}

void linalg_det(Stack& s) { push(s, torchlet::det(pop_tensor(s))); }
void linalg_det_with_factors(Stack& s) {
  DetResult r = torchlet::det_with_factors(pop_tensor(s));
  push(s, std::move(r.det));
  push_factors(s, std::move(r.factors), false);
}

void linalg_slogdet(Stack& s) {
  auto [sign, logabsdet] = torchlet::slogdet(pop_tensor(s));
  push(s, std::move(sign));
  push(s, std::move(logabsdet));
}
void linalg_slogdet_with_factors(Stack& s) {
  SlogdetResult r = torchlet::slogdet_with_factors(pop_tensor(s));
  push(s, std::move(r.sign));
  push(s, std::move(r.logabsdet));
  push_factors(s, std::move(r.factors), false);
}
void logdet(Stack& s) { push(s, torchlet::logdet(pop_tensor(s))); }

void linalg_cholesky(Stack& s) {
  const bool upper = pop_bool(s);
  push(s, torchlet::cholesky(pop_tensor(s), upper));
}
void linalg_cholesky_ex(Stack& s) {
  const bool check_errors = pop_bool(s), upper = pop_bool(s);
  auto [factor, info] = torchlet::cholesky_ex(pop_tensor(s), upper, check_errors);
  push(s, std::move(factor));
  push(s, std::move(info));
}
void linalg_ldl_factor_ex(Stack& s) {
  const bool check_errors = pop_bool(s), hermitian = pop_bool(s);
  auto [factor, pivots, info] = torchlet::ldl_factor_ex(pop_tensor(s), hermitian, check_errors);
  push(s, std::move(factor), std::move(pivots), std::move(info));
}
void linalg_ldl_factor(Stack& s) {
  const bool hermitian = pop_bool(s);
  auto [factor, pivots] = torchlet::ldl_factor(pop_tensor(s), hermitian);
  push(s, std::move(factor), std::move(pivots));
}
void linalg_ldl_solve(Stack& s) {
  const bool hermitian = pop_bool(s);
  Tensor b = pop_tensor(s), pivots = pop_tensor(s), factor = pop_tensor(s);
  push(s, torchlet::ldl_solve(factor, pivots, b, hermitian));
}
void cholesky_legacy(Stack& s) {
  const bool upper = pop_bool(s);
  push(s, torchlet::cholesky_legacy(pop_tensor(s), upper));
}
void cholesky_solve(Stack& s) {
  const bool upper = pop_bool(s);
  Tensor factor = pop_tensor(s), b = pop_tensor(s);
  push(s, torchlet::cholesky_solve(b, factor, upper));
}
void cholesky_inverse(Stack& s) {
  const bool upper = pop_bool(s);
  push(s, torchlet::cholesky_inverse(pop_tensor(s), upper));
}


void linalg_eigh(Stack& s) {
  const std::string uplo = pop_str(s);
  auto [values, vectors] = torchlet::eigh(pop_tensor(s), uplo, true);
  push(s, std::move(values));
  push(s, std::move(vectors));
}
void linalg_eigh_internal(Stack& s) {
  const bool compute_v = pop_bool(s);
  const std::string uplo = pop_str(s);
  auto [values, vectors] = torchlet::eigh(pop_tensor(s), uplo, compute_v);
  push(s, std::move(values));
  push(s, std::move(vectors));
}
void linalg_eigvalsh(Stack& s) {
  const std::string uplo = pop_str(s);
  push(s, torchlet::eigh(pop_tensor(s), uplo, false).first);
}

// torch refuses `driver=` on CPU; torchlet has only LAPACK's gesdd and says the same.
void refuse_driver(const IValue& driver) {
  TL_CHECK(driver.isNone(), ValueError,
           "torch.linalg.svd: keyword argument `driver=` is only supported on CUDA inputs with cuSOLVER backend.");
}
void push_svd(Stack& s, SvdResult r) {
  push(s, std::move(r.U));
  push(s, std::move(r.S));
  push(s, std::move(r.Vh));
}
void linalg_svd(Stack& s) {
  refuse_driver(pop(s));
  const bool full_matrices = pop_bool(s);
  push_svd(s, torchlet::svd(pop_tensor(s), full_matrices, true));
}
void linalg_svd_internal(Stack& s) {
  refuse_driver(pop(s));
  const bool compute_uv = pop_bool(s), full_matrices = pop_bool(s);
  push_svd(s, torchlet::svd(pop_tensor(s), full_matrices, compute_uv));
}
void linalg_svdvals(Stack& s) {
  refuse_driver(pop(s));
  push(s, torchlet::svd(pop_tensor(s), false, false).S);
}
void svd_legacy(Stack& s) {
  const bool compute_uv = pop_bool(s), some = pop_bool(s);
  push_svd(s, torchlet::svd_legacy(pop_tensor(s), some, compute_uv));
}


void push_pair(Stack& s, std::pair<Tensor, Tensor> p) {
  push(s, std::move(p.first));
  push(s, std::move(p.second));
}
void linalg_qr(Stack& s) {
  const std::string mode = pop_str(s);
  push_pair(s, torchlet::qr(pop_tensor(s), mode));
}
void qr_legacy(Stack& s) {
  const bool some = pop_bool(s);
  push_pair(s, torchlet::qr(pop_tensor(s), some ? "reduced" : "complete"));
}
void linalg_lstsq(Stack& s) {
  const auto driver = pop_opt_str(s);
  const auto rcond = pop_opt_double(s);
  Tensor b = pop_tensor(s);
  LstsqResult r = torchlet::lstsq(pop_tensor(s), b, rcond, driver ? std::optional<std::string_view>(*driver) : std::nullopt);
  for (Tensor* t : {&r.solution, &r.residuals, &r.rank, &r.singular_values}) push(s, std::move(*t));
}
void geqrf(Stack& s) { push_pair(s, torchlet::geqrf(pop_tensor(s))); }
Tensor householder_product(Stack& s) {
  Tensor tau = pop_tensor(s);
  return torchlet::householder_product(pop_tensor(s), tau);
}
Tensor ormqr(Stack& s) {
  const bool transpose = pop_bool(s), left = pop_bool(s);
  Tensor other = pop_tensor(s), tau = pop_tensor(s);
  return torchlet::ormqr(pop_tensor(s), tau, other, left, transpose);
}

// An op's out= overload: `out` is last on the stack, the functional op's arguments below
// it. torch's composite linalg out= variants resize `out` and copy into it.
template <Tensor (*F)(Stack&)>
void with_out(Stack& s) {
  Tensor out = pop_tensor(s);
  const Tensor result = F(s);
  assign_out(out, result, "out=");
  push(s, out);
}
template <Tensor (*F)(Stack&)>
void functional(Stack& s) {
  push(s, F(s));
}

// --- pinv, matrix_rank, cond ---------------------------------------------------------------------

// A float tolerance as the float64 0-dim tensor torch's float overloads make of it.
std::optional<Tensor> tolerance(std::optional<double> v) {
  return v ? std::optional<Tensor>(scalar_tensor(*v, DType::Double)) : std::nullopt;
}
Tensor zero_tolerance() { return scalar_tensor(0.0, DType::Double); }

// linalg_pinv(self, float rcond, hermitian) and pinverse(self, rcond): rcond is rtol.
void pinv_rcond(Stack& s) {
  const bool hermitian = pop_bool(s);
  const double rcond = pop_double(s);
  push(s, torchlet::pinv(pop_tensor(s), zero_tolerance(), tolerance(rcond), hermitian));
}
void pinverse(Stack& s) {
  const double rcond = pop_double(s);
  push(s, torchlet::pinv(pop_tensor(s), zero_tolerance(), tolerance(rcond), false));
}
void pinv_rcond_tensor(Stack& s) {
  const bool hermitian = pop_bool(s);
  Tensor rcond = pop_tensor(s);
  TL_CHECK(!is_complex(rcond.dtype()), TypeError, "torch.linalg.pinv: rcond tensor of complex type is not supported. Got {}",
           dtype_info(rcond.dtype()).scalar_type_name);
  push(s, torchlet::pinv(pop_tensor(s), zero_tolerance(), rcond, hermitian));
}
void pinv_atol_rtol_tensor(Stack& s) {
  const bool hermitian = pop_bool(s);
  auto rtol = pop_opt_tensor(s), atol = pop_opt_tensor(s);
  push(s, torchlet::pinv(pop_tensor(s), atol, rtol, hermitian));
}
void pinv_atol_rtol_float(Stack& s) {
  const bool hermitian = pop_bool(s);
  auto rtol = pop_opt_double(s), atol = pop_opt_double(s);
  push(s, torchlet::pinv(pop_tensor(s), tolerance(atol), tolerance(rtol), hermitian));
}

// linalg_matrix_rank(self, float tol, hermitian), the deprecated form: tol is atol, rtol 0.
void matrix_rank_tol(Stack& s) {
  const bool hermitian = pop_bool(s);
  const double tol = pop_double(s);
  push(s, torchlet::matrix_rank(pop_tensor(s), tolerance(tol), zero_tolerance(), hermitian));
}
void matrix_rank_tol_tensor(Stack& s) {
  const bool hermitian = pop_bool(s);
  Tensor tol = pop_tensor(s);
  push(s, torchlet::matrix_rank(pop_tensor(s), tol, zero_tolerance(), hermitian));
}
void matrix_rank_atol_rtol_tensor(Stack& s) {
  const bool hermitian = pop_bool(s);
  auto rtol = pop_opt_tensor(s), atol = pop_opt_tensor(s);
  push(s, torchlet::matrix_rank(pop_tensor(s), atol, rtol, hermitian));
}
void matrix_rank_atol_rtol_float(Stack& s) {
  const bool hermitian = pop_bool(s);
  auto rtol = pop_opt_double(s), atol = pop_opt_double(s);
  push(s, torchlet::matrix_rank(pop_tensor(s), tolerance(atol), tolerance(rtol), hermitian));
}

void cond_scalar(Stack& s) {
  auto ord = pop_opt_scalar(s);
  push(s, torchlet::cond(pop_tensor(s), ord));
}
void cond_str(Stack& s) {
  const std::string ord = pop_str(s);
  push(s, torchlet::cond(pop_tensor(s), ord));
}

// --- triangular solves ------------------------------------------------------------------------

Tensor solve_triangular(Stack& s) {
  const bool unitriangular = pop_bool(s), left = pop_bool(s), upper = pop_bool(s);
  Tensor b = pop_tensor(s), a = pop_tensor(s);
  return torchlet::solve_triangular(a, b, upper, left, unitriangular);
}
void triangular_solve(Stack& s) {
  const bool unitriangular = pop_bool(s), transpose = pop_bool(s), upper = pop_bool(s);
  Tensor a = pop_tensor(s), b = pop_tensor(s);
  push_pair(s, torchlet::triangular_solve(b, a, upper, transpose, unitriangular));
}

// --- norms ----------------------------------------------------------------------------------

Tensor matrix_norm_scalar(Stack& s) {
  const auto dtype = pop_opt_dtype(s);
  const bool keepdim = pop_bool(s);
  const auto dim = pop_int_list(s);
  const double ord = pop_scalar(s).to_double();
  return torchlet::matrix_norm(pop_tensor(s), ord, dim, keepdim, dtype);
}
Tensor matrix_norm_str(Stack& s) {
  const auto dtype = pop_opt_dtype(s);
  const bool keepdim = pop_bool(s);
  const auto dim = pop_int_list(s);
  const std::string ord = pop_str(s);
  return torchlet::matrix_norm(pop_tensor(s), ord, dim, keepdim, dtype);
}
Tensor linalg_norm_scalar(Stack& s) {
  const auto dtype = pop_opt_dtype(s);
  const bool keepdim = pop_bool(s);
  const auto dim = pop_opt_int_list(s);
  const auto ord = pop_opt_scalar(s);
  return torchlet::linalg_norm(pop_tensor(s), ord ? std::optional<double>(ord->to_double()) : std::nullopt, dim,
                               keepdim, dtype);
}
Tensor linalg_norm_str(Stack& s) {
  const auto dtype = pop_opt_dtype(s);
  const bool keepdim = pop_bool(s);
  const auto dim = pop_opt_int_list(s);
  const std::string ord = pop_str(s);
  return torchlet::linalg_norm(pop_tensor(s), ord, dim, keepdim, dtype);
}

// torch.frobenius_norm (what torch.norm(p="fro") scripts to): the vector 2-norm for at
// most one dim, else the square root of the summed squares, as torch 1.13 computes it.
Tensor frobenius_norm_of(const Tensor& self, const std::vector<int64_t>& dim, bool keepdim) {
  TL_CHECK(dim.size() <= 2, ValueError, "Expected at most 2 dimensions, but got {} dimensions instead.", dim.size());
  TL_CHECK(is_floating(self.dtype()), TypeError,
           "norm(): input dtype should be either floating point or complex. Got {} instead.",
           dtype_info(self.dtype()).scalar_type_name);
  if (dim.size() <= 1) return torchlet::norm(self, 2, dim, keepdim);
  const int64_t d0 = wrap_dim(dim[0], self.dim(), "frobenius_norm"), d1 = wrap_dim(dim[1], self.dim(), "frobenius_norm");
  TL_CHECK(d0 != d1, ValueError, "Expected dims to be different, got {} instead", shape_repr(dim));
  return torchlet::sqrt(torchlet::sum(torchlet::mul(self, self), {d0, d1}, keepdim));
}
void frobenius_norm_all(Stack& s) { push(s, frobenius_norm_of(pop_tensor(s), {}, false)); }
Tensor frobenius_norm_dim(Stack& s) {
  const bool keepdim = pop_bool(s);
  const auto dim = pop_int_list(s);
  return frobenius_norm_of(pop_tensor(s), dim, keepdim);
}

Tensor nuclear_norm_matrix(Stack& s) {
  const bool keepdim = pop_bool(s);
  Tensor self = pop_tensor(s);
  TL_CHECK(self.dim() == 2, ValueError, "Expected a tensor with 2 dimensions, but got a tensor with {} dimension{} instead.",
           self.dim(), self.dim() == 1 ? "" : "s");
  return torchlet::nuclear_norm(self, {0, 1}, keepdim);
}
Tensor nuclear_norm_dim(Stack& s) {
  const bool keepdim = pop_bool(s);
  const auto dim = pop_int_list(s);
  return torchlet::nuclear_norm(pop_tensor(s), dim, keepdim);
}

// --- products -------------------------------------------------------------------------------

Tensor matrix_power(Stack& s) {
  const int64_t n = pop_int(s);
  return torchlet::matrix_power(pop_tensor(s), n);
}
Tensor matrix_exp(Stack& s) { return torchlet::matrix_exp(pop_tensor(s)); }
Tensor multi_dot(Stack& s) { return torchlet::multi_dot(pop_tensor_list(s)); }
Tensor linalg_vander(Stack& s) {
  const auto n = pop_opt_int(s);
  return torchlet::linalg_vander(pop_tensor(s), n);
}
Tensor vander(Stack& s) {
  const bool increasing = pop_bool(s);
  const auto n = pop_opt_int(s);
  return torchlet::vander(pop_tensor(s), n, increasing);
}
Tensor tensorinv(Stack& s) {
  const int64_t ind = pop_int(s);
  return torchlet::tensorinv(pop_tensor(s), ind);
}
Tensor tensorsolve(Stack& s) {
  const auto dims = pop_opt_int_list(s);
  Tensor other = pop_tensor(s);
  return torchlet::tensorsolve(pop_tensor(s), other, dims);
}
// torch.chain_matmul, deprecated for multi_dot: matrices only, and one is returned copied.
Tensor chain_matmul(Stack& s) {
  const std::vector<Tensor> matrices = pop_tensor_list(s);
  for (const Tensor& m : matrices)
    TL_CHECK(m.dim() == 2, ValueError, "Tensor dimension is {}, expected 2 instead.", m.dim());
  TL_CHECK(!matrices.empty(), ValueError, "chain_matmul(): Expected one or more matrices");
  return matrices.size() == 1 ? matrices[0].clone() : torchlet::multi_dot(matrices);
}
Tensor vecdot(Stack& s) {
  const int64_t dim = pop_int(s);
  Tensor y = pop_tensor(s), x = pop_tensor(s);
  return torchlet::vecdot(x, y, dim);
}
void linalg_diagonal(Stack& s) {
  const int64_t dim2 = pop_int(s), dim1 = pop_int(s), offset = pop_int(s);
  push(s, pop_tensor(s).diagonal(offset, dim1, dim2));
}

}  // namespace

static RegisterOps reg({
    {"aten::linalg_lu_factor(Tensor A, *, bool pivot=True) -> (Tensor LU, Tensor pivots)", lu_factor_op<false>},
    {"aten::linalg_lu_factor_ex(Tensor A, *, bool pivot=True, bool check_errors=False) -> (Tensor LU, Tensor pivots, Tensor info)", lu_factor_op<true>},
    {"aten::linalg_lu(Tensor A, *, bool pivot=True) -> (Tensor P, Tensor L, Tensor U)", linalg_lu},
    {"aten::lu_unpack(Tensor LU_data, Tensor LU_pivots, bool unpack_data=True, bool unpack_pivots=True) -> (Tensor P, Tensor L, Tensor U)", lu_unpack},
    {"aten::linalg_lu_solve(Tensor LU, Tensor pivots, Tensor B, *, bool left=True, bool adjoint=False) -> Tensor", linalg_lu_solve},
    {"aten::lu_solve(Tensor self, Tensor LU_data, Tensor LU_pivots) -> Tensor", lu_solve_legacy},
    {"aten::linalg_solve(Tensor A, Tensor B, *, bool left=True) -> Tensor", linalg_solve},
    {"aten::linalg_solve_ex(Tensor A, Tensor B, *, bool left=True, bool check_errors=False) -> (Tensor result, Tensor info)", linalg_solve_ex<false>},
    {"aten::_linalg_solve_ex(Tensor A, Tensor B, *, bool left=True, bool check_errors=False) -> (Tensor result, Tensor LU, Tensor pivots, Tensor info)", linalg_solve_ex<true>},
    {"aten::linalg_inv(Tensor A) -> Tensor", linalg_inv},
    {"aten::inverse(Tensor self) -> Tensor", linalg_inv},
    {"aten::linalg_inv_ex(Tensor A, *, bool check_errors=False) -> (Tensor inverse, Tensor info)", linalg_inv_ex},
    {"aten::linalg_det(Tensor A) -> Tensor", linalg_det},
    {"aten::det(Tensor self) -> Tensor", linalg_det},
    {"aten::_linalg_det(Tensor A) -> (Tensor result, Tensor LU, Tensor pivots)", linalg_det_with_factors},
    {"aten::linalg_slogdet(Tensor A) -> (Tensor sign, Tensor logabsdet)", linalg_slogdet},
    {"aten::slogdet(Tensor self) -> (Tensor sign, Tensor logabsdet)", linalg_slogdet},
    {"aten::_linalg_slogdet(Tensor A) -> (Tensor sign, Tensor logabsdet, Tensor LU, Tensor pivots)", linalg_slogdet_with_factors},
    {"aten::logdet(Tensor self) -> Tensor", logdet},
    {"aten::linalg_cholesky(Tensor self, *, bool upper=False) -> Tensor", linalg_cholesky},
    {"aten::linalg_cholesky_ex(Tensor self, *, bool upper=False, bool check_errors=False) -> (Tensor L, Tensor info)", linalg_cholesky_ex},
    {"aten::linalg_ldl_factor_ex(Tensor self, *, bool hermitian=False, bool check_errors=False) -> (Tensor LD, Tensor pivots, Tensor info)", linalg_ldl_factor_ex},
    {"aten::linalg_ldl_factor(Tensor self, *, bool hermitian=False) -> (Tensor LD, Tensor pivots)", linalg_ldl_factor},
    {"aten::linalg_ldl_solve(Tensor LD, Tensor pivots, Tensor B, *, bool hermitian=False) -> Tensor", linalg_ldl_solve},
    {"aten::cholesky(Tensor self, bool upper=False) -> Tensor", cholesky_legacy},
    {"aten::cholesky_solve(Tensor self, Tensor input2, bool upper=False) -> Tensor", cholesky_solve},
    {"aten::cholesky_inverse(Tensor self, bool upper=False) -> Tensor", cholesky_inverse},
    {"aten::linalg_eigh(Tensor self, str UPLO=\"L\") -> (Tensor eigenvalues, Tensor eigenvectors)", linalg_eigh},
    {"aten::_linalg_eigh(Tensor A, str UPLO=\"L\", bool compute_v=True) -> (Tensor eigenvalues, Tensor eigenvectors)", linalg_eigh_internal},
    {"aten::linalg_eigvalsh(Tensor self, str UPLO=\"L\") -> Tensor", linalg_eigvalsh},
    {"aten::linalg_svd(Tensor A, bool full_matrices=True, *, str? driver=None) -> (Tensor U, Tensor S, Tensor Vh)", linalg_svd},
    {"aten::_linalg_svd(Tensor A, bool full_matrices=False, bool compute_uv=True, *, str? driver=None) -> (Tensor U, Tensor S, Tensor Vh)", linalg_svd_internal},
    {"aten::linalg_svdvals(Tensor A, *, str? driver=None) -> Tensor", linalg_svdvals},
    {"aten::svd(Tensor self, bool some=True, bool compute_uv=True) -> (Tensor U, Tensor S, Tensor V)", svd_legacy},
    {"aten::linalg_qr(Tensor A, str mode=\"reduced\") -> (Tensor Q, Tensor R)", linalg_qr},
    {"aten::qr(Tensor self, bool some=True) -> (Tensor Q, Tensor R)", qr_legacy},
    {"aten::linalg_lstsq(Tensor self, Tensor b, float? rcond=None, *, str? driver=None) -> (Tensor solution, Tensor residuals, Tensor rank, Tensor singular_values)", linalg_lstsq},
    {"aten::geqrf(Tensor self) -> (Tensor a, Tensor tau)", geqrf},
    {"aten::linalg_householder_product(Tensor input, Tensor tau) -> Tensor", functional<householder_product>},
    {"aten::linalg_householder_product.out(Tensor input, Tensor tau, *, Tensor(a!) out) -> Tensor(a!)", with_out<householder_product>},
    {"aten::orgqr(Tensor self, Tensor input2) -> Tensor", functional<householder_product>},
    {"aten::orgqr.out(Tensor self, Tensor input2, *, Tensor(a!) out) -> Tensor(a!)", with_out<householder_product>},
    {"aten::ormqr(Tensor self, Tensor input2, Tensor input3, bool left=True, bool transpose=False) -> Tensor", functional<ormqr>},
    {"aten::ormqr.out(Tensor self, Tensor input2, Tensor input3, bool left=True, bool transpose=False, *, Tensor(a!) out) -> Tensor(a!)", with_out<ormqr>},
    {"aten::linalg_pinv(Tensor self, float rcond, bool hermitian=False) -> Tensor", pinv_rcond},
    {"aten::linalg_pinv.rcond_tensor(Tensor self, Tensor rcond, bool hermitian=False) -> Tensor", pinv_rcond_tensor},
    {"aten::linalg_pinv.atol_rtol_tensor(Tensor self, *, Tensor? atol=None, Tensor? rtol=None, bool hermitian=False) -> Tensor", pinv_atol_rtol_tensor},
    {"aten::linalg_pinv.atol_rtol_float(Tensor self, *, float? atol=None, float? rtol=None, bool hermitian=False) -> Tensor", pinv_atol_rtol_float},
    {"aten::pinverse(Tensor self, float rcond=1.0000000000000001e-15) -> Tensor", pinverse},
    {"aten::linalg_matrix_rank(Tensor self, float tol, bool hermitian=False) -> Tensor", matrix_rank_tol},
    {"aten::linalg_matrix_rank.tol_tensor(Tensor input, Tensor tol, bool hermitian=False) -> Tensor", matrix_rank_tol_tensor},
    {"aten::linalg_matrix_rank.atol_rtol_tensor(Tensor input, *, Tensor? atol=None, Tensor? rtol=None, bool hermitian=False) -> Tensor", matrix_rank_atol_rtol_tensor},
    {"aten::linalg_matrix_rank.atol_rtol_float(Tensor self, *, float? atol=None, float? rtol=None, bool hermitian=False) -> Tensor", matrix_rank_atol_rtol_float},
    {"aten::linalg_cond(Tensor self, Scalar? p=None) -> Tensor", cond_scalar},
    {"aten::linalg_cond.p_str(Tensor self, str p) -> Tensor", cond_str},
    {"aten::linalg_solve_triangular(Tensor self, Tensor B, *, bool upper, bool left=True, bool unitriangular=False) -> Tensor", functional<solve_triangular>},
    {"aten::triangular_solve(Tensor self, Tensor A, bool upper=True, bool transpose=False, bool unitriangular=False) -> (Tensor solution, Tensor cloned_coefficient)", triangular_solve},
    {"aten::linalg_matrix_norm(Tensor self, Scalar ord, int[] dim=[-2, -1], bool keepdim=False, *, ScalarType? dtype=None) -> Tensor", functional<matrix_norm_scalar>},
    {"aten::linalg_matrix_norm.str_ord(Tensor self, str ord=\"fro\", int[] dim=[-2, -1], bool keepdim=False, *, ScalarType? dtype=None) -> Tensor", functional<matrix_norm_str>},
    {"aten::linalg_norm(Tensor self, Scalar? ord=None, int[1]? dim=None, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor", functional<linalg_norm_scalar>},
    {"aten::linalg_norm.ord_str(Tensor self, str ord, int[1]? dim=None, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor", functional<linalg_norm_str>},
    {"aten::frobenius_norm(Tensor self) -> Tensor", frobenius_norm_all},
    {"aten::frobenius_norm.dim(Tensor self, int[1] dim, bool keepdim=False) -> Tensor", functional<frobenius_norm_dim>},
    {"aten::nuclear_norm(Tensor self, bool keepdim=False) -> Tensor", functional<nuclear_norm_matrix>},
    {"aten::nuclear_norm.dim(Tensor self, int[2] dim, bool keepdim=False) -> Tensor", functional<nuclear_norm_dim>},
    {"aten::linalg_matrix_power(Tensor self, int n) -> Tensor", functional<matrix_power>},
    {"aten::matrix_power(Tensor self, int n) -> Tensor", functional<matrix_power>},
    {"aten::linalg_matrix_exp(Tensor self) -> Tensor", functional<matrix_exp>},
    {"aten::matrix_exp(Tensor self) -> Tensor", functional<matrix_exp>},
    {"aten::linalg_multi_dot(Tensor[] tensors) -> Tensor", functional<multi_dot>},
    {"aten::chain_matmul(Tensor[] matrices) -> Tensor", functional<chain_matmul>},
    {"aten::linalg_vecdot(Tensor x, Tensor y, *, int dim=-1) -> Tensor", functional<vecdot>},
    {"aten::linalg_vander(Tensor x, *, int? N=None) -> Tensor", functional<linalg_vander>},
    {"aten::vander(Tensor x, int? N=None, bool increasing=False) -> Tensor", functional<vander>},
    {"aten::linalg_tensorinv(Tensor self, int ind=2) -> Tensor", functional<tensorinv>},
    {"aten::linalg_tensorinv.out(Tensor self, int ind=2, *, Tensor(a!) out) -> Tensor(a!)", with_out<tensorinv>},
    {"aten::linalg_tensorsolve(Tensor self, Tensor other, int[]? dims=None) -> Tensor", functional<tensorsolve>},
    {"aten::linalg_tensorsolve.out(Tensor self, Tensor other, int[]? dims=None, *, Tensor(a!) out) -> Tensor(a!)", with_out<tensorsolve>},
    {"aten::linalg_diagonal(Tensor(a) A, *, int offset=0, int dim1=-2, int dim2=-1) -> Tensor(a)", linalg_diagonal},
});

}  // namespace torchlet::jit::ops

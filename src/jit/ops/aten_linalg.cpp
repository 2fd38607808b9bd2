// The LAPACK-backed operators. LU (lu.cpp): linalg.lu_factor(_ex), linalg.lu_solve and
// the older lu_solve, linalg.solve(_ex), linalg.inv(_ex)/inverse, det/linalg.det,
// slogdet/linalg.slogdet, logdet, and the underscored forms torch's own decompositions
// call, which also return the factors. Cholesky (cholesky.cpp): linalg.cholesky(_ex),
// cholesky, cholesky_solve, cholesky_inverse. Decompositions (decompositions.cpp):
// linalg.eigh/eigvalsh, linalg.svd/svdvals, svd, linalg.qr, qr. Every schema has cases run through torch
// in tests/fixtures/gen_ops.py (lu_ops, cholesky_ops, decomposition_ops).
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

}  // namespace

static RegisterOps reg({
    {"aten::linalg_lu_factor(Tensor A, *, bool pivot=True) -> (Tensor LU, Tensor pivots)", lu_factor_op<false>},
    {"aten::linalg_lu_factor_ex(Tensor A, *, bool pivot=True, bool check_errors=False) -> (Tensor LU, Tensor pivots, Tensor info)", lu_factor_op<true>},
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
});

}  // namespace torchlet::jit::ops

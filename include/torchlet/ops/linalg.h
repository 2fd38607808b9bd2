// Linear algebra: matrix products (oneDNN for float32), and the LAPACK-based
// factorisations, solves, decompositions and norms (lu.cpp, cholesky.cpp, triangular.cpp,
// decompositions.cpp, lstsq.cpp, spectral.cpp, matrix_norm.cpp).
// Part of ops.h, the numeric operators on Tensor.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include <torchlet/tensor.h>

namespace torchlet {

// --- linear algebra (oneDNN for float32) -------------------------------------------
Tensor mm(const Tensor& self, const Tensor& mat2);
Tensor bmm(const Tensor& self, const Tensor& mat2);
// torch.dot of two vectors: products added in order in the element type (each product
// and sum rounded, as BLAS sdot/ddot and c10::BFloat16 do; integers wrapping), so the
// result is torch's.
Tensor dot(const Tensor& self, const Tensor& other);
// torch.matmul: 1-d dot, matrix-vector, batched with broadcast batch dimensions.
Tensor matmul(const Tensor& self, const Tensor& other);
// beta * self + alpha * (mat1 @ mat2)
Tensor addmm(const Tensor& self, const Tensor& mat1, const Tensor& mat2, const Scalar& beta = 1,
             const Scalar& alpha = 1);
// torch.linalg.matrix_power: A^n for square batches by repeated squaring (n < 0 inverts
// first), as torch orders the products.
Tensor matrix_power(const Tensor& a, int64_t n);
// torch.linalg.matrix_exp: e^A for square float/double batches, by torch's Taylor
// degrees with scaling and squaring (Note [matrix_exp] in linalg.cpp).
Tensor matrix_exp(const Tensor& a);
// torch.linalg.multi_dot: the product of a chain of matrices (first and last may be
// vectors) in the order that needs the fewest multiplications, torch's order.
Tensor multi_dot(const std::vector<Tensor>& tensors);
// torch.linalg.vecdot: the dot products of x and y along `dim`, broadcast.
Tensor vecdot(const Tensor& x, const Tensor& y, int64_t dim = -1);
// torch.linalg.vander: powers x^0 .. x^(N-1) of every element along a new last dim
// (N defaults to x's last size); vander is the older torch.vander (1-D x, decreasing
// powers unless `increasing`, integers as int64), both through cumprod as torch's are.
Tensor linalg_vander(const Tensor& x, std::optional<int64_t> n = std::nullopt);
Tensor vander(const Tensor& x, std::optional<int64_t> n = std::nullopt, bool increasing = false);
// torch.einsum: letters and "...", implicit or explicit output; contracts left to
// right through bmm (einsum.cpp).
Tensor einsum(std::string_view equation, const std::vector<Tensor>& operands);
// input @ weight^T + bias
Tensor linear(const Tensor& input, const Tensor& weight,
              const std::optional<Tensor>& bias = std::nullopt);
// matrix_products.cpp: what torch composes from the products above. The add* forms are
// beta * self + alpha * product, self ignored when beta is 0 (NaN in it too); addr of
// bool operands is (beta && self) || (alpha && outer); addbmm sums the batch's products.
Tensor mv(const Tensor& self, const Tensor& vec);
Tensor outer(const Tensor& self, const Tensor& vec2);
Tensor vdot(const Tensor& self, const Tensor& other);  // real tensors: dot
Tensor addmv(const Tensor& self, const Tensor& mat, const Tensor& vec, const Scalar& beta = 1, const Scalar& alpha = 1);
Tensor addr(const Tensor& self, const Tensor& vec1, const Tensor& vec2, const Scalar& beta = 1, const Scalar& alpha = 1);
Tensor addbmm(const Tensor& self, const Tensor& batch1, const Tensor& batch2, const Scalar& beta = 1,
              const Scalar& alpha = 1);
Tensor baddbmm(const Tensor& self, const Tensor& batch1, const Tensor& batch2, const Scalar& beta = 1,
               const Scalar& alpha = 1);
// y[..., o] = input1[..., i] weight[o, i, j] input2[..., j] + bias[o]
Tensor bilinear(const Tensor& input1, const Tensor& input2, const Tensor& weight,
                const std::optional<Tensor>& bias = std::nullopt);
// torch.cross without dim takes the first dimension of size 3 (torch 1.13's deprecated
// default); linalg_cross takes dim -1.
Tensor cross(const Tensor& self, const Tensor& other, std::optional<int64_t> dim = std::nullopt);
Tensor linalg_cross(const Tensor& self, const Tensor& other, int64_t dim = -1);
Tensor kron(const Tensor& self, const Tensor& other);
// Contracts dims_self of self against dims_other of other through one mm; inner
// contracts the last dims (a 0-dim operand multiplies).
Tensor tensordot(const Tensor& self, const Tensor& other, IntList dims_self, IntList dims_other);
Tensor inner(const Tensor& self, const Tensor& other);
// torch.chain_matmul, deprecated for multi_dot: matrices only, one matrix returned copied.
Tensor chain_matmul(const std::vector<Tensor>& matrices);


// lu.cpp: LU-based linear algebra on float32/float64 batches of matrices (*, m, n),
// through LAPACK as torch does, results torch's bit for bit. info holds LAPACK's getrf
// status per matrix (k > 0: U[k, k] is zero); the _ex forms return it where the others
// raise torch's "singular" errors. Results come back column-major, as torch's do.
struct LuFactors {
  Tensor LU, pivots, info;  // pivots: int32, 1-based (LAPACK's)
};
LuFactors lu_factor_ex(const Tensor& a, bool pivot = true, bool check_errors = false);
LuFactors lu_factor(const Tensor& a, bool pivot = true);
// torch.lu_unpack: A = P L U from lu_factor's result; L unit lower (m x k), U upper
// (k x n), P the permutation matrix of the row swaps `pivots` records (k = min(m, n)).
// Without unpack_data L and U are empty, without unpack_pivots P is. linalg_lu factors
// and unpacks in one go (torch.linalg.lu).
struct LuUnpacked {
  Tensor P, L, U;
};
LuUnpacked lu_unpack(const Tensor& lu, const Tensor& pivots, bool unpack_data = true, bool unpack_pivots = true);
LuUnpacked linalg_lu(const Tensor& a, bool pivot = true);
// Solves op(A) X = B (left) or X op(A) = B given A's factors; op transposes if adjoint.
Tensor lu_solve(const Tensor& lu, const Tensor& pivots, const Tensor& b, bool left = true, bool adjoint = false);
struct SolveResult {
  Tensor result;
  LuFactors factors;
};
SolveResult solve_ex(const Tensor& a, const Tensor& b, bool left = true, bool check_errors = false);
Tensor solve(const Tensor& a, const Tensor& b, bool left = true);
std::pair<Tensor, Tensor> inv_ex(const Tensor& a, bool check_errors = false);  // inverse, info
Tensor inverse(const Tensor& a);
// torch.linalg.tensorinv: the inverse of `a` read as the matrix (a.shape[ind:] x
// a.shape[:ind]), shaped a.shape[ind:] + a.shape[:ind]; tensorsolve solves a x = b with
// b's dims contracted against a's leading ones (after `dims` are moved to the end).
Tensor tensorinv(const Tensor& a, int64_t ind = 2);
Tensor tensorsolve(const Tensor& a, const Tensor& b, const std::optional<std::vector<int64_t>>& dims = std::nullopt);
struct DetResult {
  Tensor det;
  LuFactors factors;
};
DetResult det_with_factors(const Tensor& a);
Tensor det(const Tensor& a);
struct SlogdetResult {
  Tensor sign, logabsdet;
  LuFactors factors;
};
// `api` names the caller in refusals (linalg.slogdet or logdet).
SlogdetResult slogdet_with_factors(const Tensor& a, std::string_view api = "linalg.slogdet");
std::pair<Tensor, Tensor> slogdet(const Tensor& a);  // sign, logabsdet
Tensor logdet(const Tensor& a);

// cholesky.cpp: the Cholesky family, float32/float64 batches, LAPACK as torch calls it.
// cholesky_ex returns (factor, info); info k > 0: the leading minor of order k is not
// positive-definite. cholesky_legacy is torch.cholesky (deprecated in torch, kept for
// archives that call it): it names itself "cholesky" in errors.
std::pair<Tensor, Tensor> cholesky_ex(const Tensor& a, bool upper = false, bool check_errors = false);
// torch.linalg.ldl_factor(_ex): LAPACK sytrf's L D L^T of symmetric matrices (the lower
// triangle is read), with its int32 pivots (and info); ldl_solve solves with them,
// refusing pivots sytrf could not have made.
std::tuple<Tensor, Tensor, Tensor> ldl_factor_ex(const Tensor& a, bool hermitian = false, bool check_errors = false);
std::pair<Tensor, Tensor> ldl_factor(const Tensor& a, bool hermitian = false);
Tensor ldl_solve(const Tensor& factor, const Tensor& pivots, const Tensor& b, bool hermitian = false);
Tensor cholesky(const Tensor& a, bool upper = false);
Tensor cholesky_legacy(const Tensor& a, bool upper = false);
Tensor cholesky_solve(const Tensor& b, const Tensor& factor, bool upper = false);
Tensor cholesky_inverse(const Tensor& factor, bool upper = false);

// triangular.cpp: triangular solves through BLAS trsm, passed the layouts and flags torch
// passes, so solutions are torch's bit for bit. solve_triangular is
// torch.linalg.solve_triangular (A X = B, or X A = B with left false; batches broadcast;
// B is converted to A's dtype, as torch's out is made from A); triangular_solve is the
// older torch.triangular_solve(b, A, ...), returning the solution and a copy of A.
Tensor solve_triangular(const Tensor& a, const Tensor& b, bool upper, bool left = true, bool unitriangular = false);
std::pair<Tensor, Tensor> triangular_solve(const Tensor& b, const Tensor& a, bool upper = true, bool transpose = false,
                                           bool unitriangular = false);

// decompositions.cpp: eigh of symmetric float32/float64 batches (values ascending, real;
// vectors column-major; compute_vectors false returns an empty second tensor, as
// eigvalsh needs only values), and svd (U, S, Vh; compute_uv false leaves U and Vh
// empty). svd_legacy is torch.svd: V rather than Vh, zeros without compute_uv; qr is
// Householder QR (geqrf + orgqr).
std::pair<Tensor, Tensor> eigh(const Tensor& a, std::string_view uplo = "L", bool compute_vectors = true);
struct SvdResult {
  Tensor U, S, Vh;
};
SvdResult svd(const Tensor& a, bool full_matrices = true, bool compute_uv = true);
SvdResult svd_legacy(const Tensor& a, bool some = true, bool compute_uv = true);
// (Q, R) for mode "reduced", "complete" or "r" (Q empty), column-major as torch's.
std::pair<Tensor, Tensor> qr(const Tensor& a, std::string_view mode = "reduced");
// lstsq.cpp: torch.linalg.lstsq, the least squares solution of A X = B (B a matrix or,
// shaped as A.shape[:-1], a vector; batches broadcast) by LAPACK's gels, gelsy (the
// default), gelsd or gelss (`driver`, any case). rank is empty for gels, singular_values
// for gels and gelsy; residuals (squared, per column) only for tall A without gelsy,
// and with the SVD drivers only when every A has full column rank, as torch reports them.
struct LstsqResult {
  Tensor solution, residuals, rank, singular_values;
};
LstsqResult lstsq(const Tensor& a, const Tensor& b, std::optional<double> rcond = std::nullopt,
                  std::optional<std::string_view> driver = std::nullopt);
// QR's building blocks, as torch exposes them: geqrf is LAPACK's compact form (R on and
// above the diagonal, the Householder vectors below) and the reflectors' scales tau;
// householder_product (torch.orgqr) forms the first n columns of Q from them; ormqr
// multiplies `other` by Q (or Q^T) from the left or the right without forming Q.
std::pair<Tensor, Tensor> geqrf(const Tensor& a);
Tensor householder_product(const Tensor& a, const Tensor& tau);
Tensor ormqr(const Tensor& a, const Tensor& tau, const Tensor& other, bool left = true, bool transpose = false);

// spectral.cpp: what torch builds on the singular values (the eigenvalues' magnitudes
// when `hermitian`). Tolerances are float64 tensors broadcast over the batch (a value
// counts when above max(atol, rtol * largest); rtol defaults to eps * max(m, n), or 0
// with atol given). pinv is torch.linalg.pinv, matrix_rank torch.linalg.matrix_rank
// (int64), cond torch.linalg.cond (ord None, ±2 from singular values; ±1, ±inf, "fro",
// "nuc" from the norms of A and its inverse, inf where A is singular).
Tensor pinv(const Tensor& a, const std::optional<Tensor>& atol = std::nullopt,
            const std::optional<Tensor>& rtol = std::nullopt, bool hermitian = false);
Tensor matrix_rank(const Tensor& a, const std::optional<Tensor>& atol = std::nullopt,
                   const std::optional<Tensor>& rtol = std::nullopt, bool hermitian = false);
Tensor cond(const Tensor& a, const std::optional<Scalar>& ord = std::nullopt);
Tensor cond(const Tensor& a, std::string_view ord);

// matrix_norm.cpp: torch.linalg.matrix_norm over the matrices spanned by `dim`: ord 1,
// -1, inf, -inf through column/row sums, 2, -2 and "nuc" through singular values, "fro"
// a vector 2-norm. linalg_norm is torch.linalg.norm, which picks a vector or a matrix
// norm by ord and dim (std::nullopt: torch's None).
Tensor matrix_norm(const Tensor& a, double ord, IntList dim = {-2, -1}, bool keepdim = false,
                   std::optional<DType> dtype = std::nullopt);
Tensor matrix_norm(const Tensor& a, std::string_view ord = "fro", IntList dim = {-2, -1}, bool keepdim = false,
                   std::optional<DType> dtype = std::nullopt);
Tensor linalg_norm(const Tensor& a, std::optional<double> ord = std::nullopt,
                   std::optional<std::vector<int64_t>> dim = std::nullopt, bool keepdim = false,
                   std::optional<DType> dtype = std::nullopt);
Tensor linalg_norm(const Tensor& a, std::string_view ord, std::optional<std::vector<int64_t>> dim = std::nullopt,
                   bool keepdim = false, std::optional<DType> dtype = std::nullopt);
// The legacy torch.nuclear_norm: the sum of torch.svd's singular values over the two
// dims in `dim` (so its refusals are svd's).
Tensor nuclear_norm(const Tensor& a, IntList dim, bool keepdim = false);
Tensor nuclear_norm(const Tensor& a, bool keepdim = false);  // of a 2-D tensor
// torch.frobenius_norm (what torch.norm(p="fro") scripts to): at most two dims, floating
// input. renorm scales each slice along dim whose p-norm exceeds maxnorm down to it.
Tensor frobenius_norm(const Tensor& a, IntList dim = {}, bool keepdim = false);
Tensor renorm(const Tensor& self, const Scalar& p, int64_t dim, const Scalar& maxnorm);

}  // namespace torchlet

// LU-based linear algebra (ops.h): lu_factor, lu_unpack/linalg.lu, lu_solve, solve,
// inverse (and tensorinv/tensorsolve on them), det, slogdet and logdet. Factorisation and substitution are LAPACK's getrf/getrs, the reference
// LAPACK that Debian's torch 1.13 links too, called on the column-major layout torch
// passes (including its shortcut of factoring a row-major A as the column-major A^T),
// so factors and solutions are torch's bit for bit; determinants reduce the factors'
// diagonal with torchlet's prod/sum, as torch reduces them with its own.
#include <cmath>
#include <numeric>
#include <vector>

#include <torchlet/error.h>
#include <torchlet/ops.h>

#include "tensor/kernels/lapack.h"

namespace torchlet {
namespace {

using namespace kernels::lapack;

// torch's lu_det_P: -1 where the pivots make an odd permutation, else 1, in `dtype`.
Tensor permutation_sign(const Tensor& pivots, DType dtype) {
  const int64_t k = pivots.size(-1), batches = batch_count(pivots, 1);
  Tensor sign = empty(batch_shape(pivots, 1), dtype);
  const int* p = pivots.data<int>();
  for (int64_t b = 0; b < batches; ++b) {
    int64_t swaps = 0;
    for (int64_t i = 0; i < k; ++i) swaps += p[b * k + i] != i + 1;
    sign.view({-1}).select(0, b).fill_(swaps % 2 == 0 ? 1.0 : -1.0);
  }
  return sign;
}

// The factors torch's det/slogdet/solve take: of A^T when A is row-major (the same
// memory read as column-major, no copy), else of A; `transposed` says which.
struct SquareFactors {
  LuFactors lu;
  bool transposed;
};
SquareFactors factor_square(const Tensor& a) {
  const bool transposed = a.is_contiguous();
  return {lu_factor_ex(transposed ? a.transpose(-2, -1) : a), transposed};
}

}  // namespace

LuFactors lu_factor_ex(const Tensor& a, bool pivot, bool check_errors) {
  TL_CHECK(a.dim() >= 2, ValueError, "torch.lu_factor: Expected tensor with 2 or more dimensions. Got size: {} instead",
           shape_repr(a.sizes()));
  TL_CHECK(pivot, UnsupportedError, "linalg.lu_factor: LU without pivoting is not implemented on the CPU");
  check_lapack_operand(a, "lu_cpu");
  const int64_t m = a.size(-2), n = a.size(-1), k = std::min(m, n), batches = batch_count(a, 2);
  Shape pivots_shape = batch_shape(a, 2);
  pivots_shape.push_back(k);
  LuFactors out{column_major(a.sizes(), a.dtype()), empty(pivots_shape, DType::Int), zeros(batch_shape(a, 2), DType::Int)};
  if (out.LU.numel() == 0) return out;
  out.LU.copy_(a);
  const auto factor = [&]<typename T>() {
    T* base = out.LU.data<T>();
    int* piv = out.pivots.data<int>();
    int* info = out.info.data<int>();
    for (int64_t b = 0; b < batches; ++b)
      getrf(static_cast<int>(m), static_cast<int>(n), base + b * m * n, ld(m), piv + b * k, info + b);
  };
  dispatch_real(a.dtype(), factor);
  if (check_errors) check_lapack_info(out.info, "torch.linalg.lu_factor_ex", a.dim() == 2);
  return out;
}

LuFactors lu_factor(const Tensor& a, bool pivot) {
  LuFactors f = lu_factor_ex(a, pivot, false);
  check_lapack_info(f.info, "torch.linalg.lu_factor", a.dim() == 2);
  return f;
}

LuUnpacked lu_unpack(const Tensor& lu, const Tensor& pivots, bool unpack_data, bool unpack_pivots) {
  TL_CHECK(lu.dim() >= 2, ValueError, "torch.lu_unpack: Expected tensor with 2 or more dimensions. Got size: {} instead",
           shape_repr(lu.sizes()));
  TL_CHECK(pivots.dtype() == DType::Int, TypeError,
           "torch.lu_unpack: LU_pivots is expected to be a contiguous tensor of torch.int32 dtype.");
  const int64_t m = lu.size(-2), n = lu.size(-1), k = std::min(m, n);
  LuUnpacked out{empty({0}, lu.dtype()), empty({0}, lu.dtype()), empty({0}, lu.dtype())};
  if (unpack_data) {
    // L: the strictly lower part of the first k columns over a unit diagonal; U: the
    // upper part of the first k rows.
    out.L = tril(lu.narrow(-1, 0, k), -1);
    out.L.diagonal(0, -2, -1).fill_(1);
    out.U = triu(lu.narrow(-2, 0, k));
  }
  if (unpack_pivots) {
    // One row of k pivots per matrix. torch iterates over the pivots' own shape, so with
    // other shapes it swaps rows of the wrong matrices or writes past its permutation
    // buffer; torchlet refuses those.
    Shape batch = batch_shape(lu, 2), with_k = batch;
    with_k.push_back(k);
    TL_CHECK(pivots.sizes() == IntList(with_k), ValueError,
             "torch.lu_unpack: LU_pivots should have shape {} (LU's batch and min(m, n) = {}), got {}", shape_repr(with_k),
             k, shape_repr(pivots.sizes()));
    const Tensor piv = pivots.contiguous();
    Shape p_shape = batch;
    p_shape.insert(p_shape.end(), {m, m});
    Tensor p = zeros(p_shape, DType::Byte);
    const int* swaps = piv.data<int>();
    uint8_t* cells = p.data<uint8_t>();
    std::vector<int64_t> perm(static_cast<size_t>(m));
    for (int64_t b = 0, count = batch_count(lu, 2); b < count; ++b) {
      std::iota(perm.begin(), perm.end(), 0);
      for (int64_t i = 0; i < k; ++i) {
        const int to = swaps[b * k + i];
        TL_CHECK(to >= 1 && to <= m, ValueError,
                 "pivots passed to lu_unpack must be between 1 and LU.size(-2) inclusive.Did you properly pass the "
                 "result of lu_factor?");
        std::swap(perm[static_cast<size_t>(i)], perm[static_cast<size_t>(to - 1)]);
      }
      // Column j of P has its one in row perm[j] (A = P L U), as torch's scatter puts it.
      for (int64_t j = 0; j < m; ++j) cells[b * m * m + perm[static_cast<size_t>(j)] * m + j] = 1;
    }
    out.P = p.to(lu.dtype());
  }
  return out;
}

LuUnpacked linalg_lu(const Tensor& a, bool pivot) {
  TL_CHECK(a.dim() >= 2, ValueError, "linalg.lu: Expected tensor with 2 or more dimensions. Got size: {} instead",
           shape_repr(a.sizes()));
  const LuFactors f = lu_factor_ex(a, pivot, false);
  return lu_unpack(f.LU, f.pivots, true, pivot);
}

Tensor lu_solve(const Tensor& lu, const Tensor& pivots, const Tensor& b, bool left, bool adjoint) {
  check_square(lu, "torch.linalg.lu_solve", "LU");
  check_is_matrix(b, "torch.linalg.lu_solve", "B");
  TL_CHECK(lu.dtype() == b.dtype(), TypeError,
           "linalg.lu_solve: Expected LU and B to have the same dtype, but found LU of type {} and B of type {} instead",
           dtype_info(lu.dtype()).scalar_type_name, dtype_info(b.dtype()).scalar_type_name);
  TL_CHECK(pivots.dtype() == DType::Int, TypeError, "linalg.lu_solve: pivots should be a Tensor of scalar type torch.int32");
  TL_CHECK(pivots.dim() == lu.dim() - 1 && pivots.size(-1) == lu.size(-1), ValueError,
           "linalg.lu_solve: Number of pivots per batch should be same as the dimension of the matrix");
  const int64_t n = lu.size(-1);
  TL_CHECK(left ? b.size(-2) == n : b.size(-1) == n, ValueError,
           "linalg.lu_solve: Incompatible shapes of A and B for the equation {} ({}x{} and {}x{})", left ? "AX = B" : "XA = B",
           n, n, b.size(-2), b.size(-1));
  check_lapack_operand(lu, "lu_cpu");
  Shape batch = broadcast_shapes(batch_shape(b, 2), batch_shape(lu, 2));
  Shape out_shape = batch;
  out_shape.push_back(b.size(-2));
  out_shape.push_back(b.size(-1));
  // X op(M) = B is op(M)^T X^T = B^T: torch solves the transposed system into the
  // transposed result, which leaves X row-major (column-major for left systems).
  Tensor result = left ? column_major(out_shape, b.dtype()) : empty(out_shape, b.dtype());
  if (result.numel() == 0) return result;
  Tensor rhs = left ? result : result.transpose(-2, -1);  // column-major n x nrhs matrices
  rhs.copy_(left ? b.expand(out_shape) : b.expand(out_shape).transpose(-2, -1));
  Shape lu_shape = batch, piv_shape = batch;
  lu_shape.push_back(n);
  lu_shape.push_back(n);
  piv_shape.push_back(n);
  Tensor factors = column_major(lu_shape, lu.dtype());
  factors.copy_(lu.expand(lu_shape));
  const Tensor piv = pivots.expand(piv_shape).contiguous();
  // getrs swaps rows by these indices unchecked: a pivot outside 1..n (a crafted file's
  // argument; torch reads and writes out of bounds) is refused before LAPACK sees it.
  const int* pv = piv.data<int>();
  for (int64_t i = 0; i < piv.numel(); ++i)
    TL_CHECK(pv[i] >= 1 && pv[i] <= n, ValueError,
             "linalg.lu_solve: pivot {} at position {} is outside 1..{} (pivots are 1-based row indices)", pv[i], i, n);
  const char trans = (left ? adjoint : !adjoint) ? 'T' : 'N';
  const int64_t nrhs = rhs.size(-1), batches = factors.numel() / std::max<int64_t>(n * n, 1);
  TL_CHECK(nrhs <= INT_MAX, LimitError, "linear algebra: {} right-hand sides exceed LAPACK's int range", nrhs);
  const auto solve = [&]<typename T>() {
    const T* f = factors.data<T>();
    const int* p = piv.data<int>();
    T* x = rhs.data<T>();
    for (int64_t i = 0; i < batches; ++i) {
      int info = 0;
      getrs(trans, static_cast<int>(n), static_cast<int>(nrhs), f + i * n * n, p + i * n, x + i * n * nrhs, &info);
    }
  };
  dispatch_real(lu.dtype(), solve);
  return result;
}

SolveResult solve_ex(const Tensor& a, const Tensor& b, bool left, bool check_errors) {
  check_floating(a, "linalg.solve");
  TL_CHECK(a.dtype() == b.dtype(), TypeError,
           "linalg.solve: Expected A and B to have the same dtype, but found A of type {} and B of type {} instead",
           dtype_info(a.dtype()).scalar_type_name, dtype_info(b.dtype()).scalar_type_name);
  // NumPy's vector right-hand side: B of A's shape without its last dimension.
  const bool vector_case =
      b.dim() == 1 || (a.dim() >= 1 && a.dim() - 1 == b.dim() &&
                       std::equal(b.sizes().begin(), b.sizes().end(), a.sizes().begin(), a.sizes().end() - 1));
  const Tensor rhs = vector_case ? b.unsqueeze(-1) : b;
  check_square(a, "linalg.solve");
  check_is_matrix(rhs, "linalg.solve", "B");
  TL_CHECK(left ? a.size(-1) == rhs.size(-2) : a.size(-1) == rhs.size(-1), ValueError,
           "linalg.solve: Incompatible shapes of A and B for the equation {} ({}x{} and {}x{})", left ? "AX = B" : "XA = B",
           a.size(-2), a.size(-1), rhs.size(-2), rhs.size(-1));
  broadcast_shapes(batch_shape(rhs, 2), batch_shape(a, 2));  // refuses batches that do not broadcast
  TL_CHECK(left || !vector_case, ValueError,
           "linalg.solve: Vector broadcasting of the left hand side is not supported for left=False. In this case "
           "linalg.solve is equivalent to B / A.squeeze(-1)");
  check_lapack_operand(a, "lu_cpu");
  SquareFactors f = factor_square(a);
  if (check_errors) check_lapack_info(f.lu.info, "torch.linalg.solve_ex", a.dim() == 2);
  Tensor x = lu_solve(f.lu.LU, f.lu.pivots, rhs, left, f.transposed);
  return {vector_case ? x.squeeze(-1) : x, std::move(f.lu)};
}

Tensor solve(const Tensor& a, const Tensor& b, bool left) {
  SolveResult r = solve_ex(a, b, left, false);
  check_lapack_info(r.factors.info, "torch.linalg.solve", a.dim() == 2);
  return r.result;
}

std::pair<Tensor, Tensor> inv_ex(const Tensor& a, bool check_errors) {
  check_square(a, "linalg.inv");
  check_floating(a, "linalg.inv", false);
  Tensor identity = column_major(a.sizes(), a.dtype());
  identity.fill_(0);
  identity.diagonal(0, -2, -1).fill_(1);
  SolveResult r = solve_ex(a, identity, true, false);
  if (check_errors) check_lapack_info(r.factors.info, "linalg.inv_ex", a.dim() == 2);
  return {r.result, r.factors.info};
}

Tensor inverse(const Tensor& a) {
  auto [result, info] = inv_ex(a, false);
  check_lapack_info(info, "linalg.inv", a.dim() == 2);
  return result;
}

namespace {

// The product of some of a tensor's sizes. Those of a tensor with no elements need not
// fit in int64, so overflow is refused by name rather than wrapped.
int64_t size_product(IntList sizes, std::string_view api) {
  int64_t n = 1;
  for (int64_t s : sizes)
    TL_CHECK(!__builtin_mul_overflow(n, s, &n), LimitError, "{}: the product of sizes {} overflows int64", api,
             shape_repr(sizes));
  return n;
}

}  // namespace

Tensor tensorinv(const Tensor& a, int64_t ind) {
  TL_CHECK(ind > 0, ValueError, "Expected a strictly positive integer for 'ind', but got {}", ind);
  // (torch fails here with "cannot create std::vector larger than max_size()".)
  TL_CHECK(ind <= a.dim(), ValueError, "linalg.tensorinv: ind ({}) is larger than the input's number of dimensions ({})",
           ind, a.dim());
  Shape front(a.sizes().begin(), a.sizes().begin() + ind), back(a.sizes().begin() + ind, a.sizes().end());
  const int64_t rows = size_product(back, "linalg.tensorinv"), cols = size_product(front, "linalg.tensorinv");
  TL_CHECK(rows == cols, ValueError,
           "Expected self to satisfy the requirement prod(self.shape[ind:]) == prod(self.shape[:ind]), but got {} != {}",
           rows, cols);
  back.insert(back.end(), front.begin(), front.end());
  auto [result, info] = inv_ex(a.reshape({rows, cols}), false);
  check_lapack_info(info, "inv", true);
  return result.reshape(back);
}

Tensor tensorsolve(const Tensor& a, const Tensor& b, const std::optional<std::vector<int64_t>>& dims) {
  const int64_t ndim = a.dim();
  Tensor moved = a;
  if (dims) {
    Shape destination(dims->size());
    std::iota(destination.begin(), destination.end(), ndim - static_cast<int64_t>(dims->size()));
    moved = a.movedim(*dims, destination);
  }
  // (torch reads past its shape's end here when b has more dims than a.)
  TL_CHECK(b.dim() <= ndim, ValueError, "linalg.tensorsolve: other has more dimensions ({}) than self ({})", b.dim(),
           ndim);
  const Shape result_shape(moved.sizes().begin() + b.dim(), moved.sizes().end());
  const int64_t result_product = size_product(result_shape, "linalg.tensorsolve");
  const int64_t other_product = size_product(b.sizes(), "linalg.tensorsolve");
  TL_CHECK(result_product == other_product, ValueError,
           "Expected self to satisfy the requirement prod(self.shape[other.ndim:]) == prod(self.shape[:other.ndim]), but "
           "got {} != {}", result_product, other_product);
  return solve(moved.reshape({result_product, result_product}), b.flatten()).reshape(result_shape);
}

DetResult det_with_factors(const Tensor& a) {
  check_square(a, "linalg.det");
  check_floating(a, "linalg.det");
  check_lapack_operand(a, "lu_cpu");
  SquareFactors f = factor_square(a);
  Tensor det = mul(permutation_sign(f.lu.pivots, a.dtype()), prod(f.lu.LU.diagonal(0, -2, -1), -1));
  return {det, std::move(f.lu)};
}

Tensor det(const Tensor& a) { return det_with_factors(a).det; }

SlogdetResult slogdet_with_factors(const Tensor& a, std::string_view api) {
  check_square(a, api);
  check_floating(a, api, false);
  check_lapack_operand(a, "lu_cpu");
  SquareFactors f = factor_square(a);
  const Tensor diag = f.lu.LU.diagonal(0, -2, -1);
  Tensor sign = mul(prod(torchlet::sign(diag), -1), permutation_sign(f.lu.pivots, a.dtype()));
  Tensor logabsdet = sum(log(abs(diag)), {-1});
  return {sign, logabsdet, std::move(f.lu)};
}

std::pair<Tensor, Tensor> slogdet(const Tensor& a) {
  SlogdetResult r = slogdet_with_factors(a, "linalg.slogdet");
  return {r.sign, r.logabsdet};
}

Tensor logdet(const Tensor& a) {
  SlogdetResult r = slogdet_with_factors(a, "logdet");
  return where(eq(r.sign, Scalar(-1.0)), full({}, std::nan(""), a.dtype()), r.logabsdet);
}

}  // namespace torchlet

// The Cholesky family (ops.h): linalg.cholesky(_ex), the older cholesky, cholesky_solve
// and cholesky_inverse, through LAPACK's potrf/potrs/potri, and its symmetric-indefinite
// sibling linalg.ldl_factor(_ex)/ldl_solve through sytrf/sytrs, on torch's column-major
// copies, so results are torch's bit for bit (lapack.h says why that holds).
#include <tuple>
#include <vector>

#include <torchlet/error.h>
#include <torchlet/ops.h>

#include "tensor/kernels/lapack.h"

namespace torchlet {

using namespace kernels::lapack;

namespace {

// Factors each matrix of `factor` (column-major, a copy of the input) in place; one
// info per matrix.
Tensor factor_in_place(Tensor& factor, bool upper) {
  const int64_t n = factor.size(-1), batches = batch_count(factor, 2);
  Tensor info = zeros(batch_shape(factor, 2), DType::Int);
  if (factor.numel() == 0) return info;
  dispatch_real(factor.dtype(), [&]<typename T>() {
    T* base = factor.data<T>();
    int* status = info.data<int>();
    for (int64_t b = 0; b < batches; ++b) potrf(upper ? 'U' : 'L', static_cast<int>(n), base + b * n * n, status + b);
  });
  return info;
}

}  // namespace

std::pair<Tensor, Tensor> cholesky_ex(const Tensor& a, bool upper, bool check_errors) {
  check_square(a, "linalg.cholesky");
  check_floating(a, "linalg.cholesky");
  check_lapack_operand(a, "cholesky_cpu");
  // torch copies only the triangle potrf reads, so the other one comes back zero.
  Tensor factor = column_major(a.sizes(), a.dtype());
  factor.copy_(upper ? triu(a) : tril(a));
  Tensor info = factor_in_place(factor, upper);
  if (check_errors) check_lapack_info(info, "linalg.cholesky_ex", a.dim() == 2);
  return {factor, info};
}

Tensor cholesky(const Tensor& a, bool upper) {
  auto [factor, info] = cholesky_ex(a, upper, false);
  check_lapack_info(info, "linalg.cholesky", a.dim() == 2);
  return factor;
}

Tensor cholesky_legacy(const Tensor& a, bool upper) {
  if (a.numel() == 0) return empty(a.sizes(), a.dtype());
  check_square(a, "cholesky");
  check_lapack_operand(a, "cholesky_cpu");
  Tensor factor = column_major(a.sizes(), a.dtype());
  factor.copy_(a);
  Tensor info = factor_in_place(factor, upper);
  check_lapack_info(info, "cholesky", a.dim() == 2);
  // Zeroing the triangle potrf left untouched, in place, as torch's triu_/tril_.
  factor.copy_(upper ? triu(factor) : tril(factor));
  return factor;
}

Tensor cholesky_solve(const Tensor& b, const Tensor& factor, bool upper) {
  TL_CHECK(b.dim() >= 2, ValueError, "b should have at least 2 dimensions, but has {} dimensions instead", b.dim());
  TL_CHECK(factor.dim() >= 2, ValueError, "u should have at least 2 dimensions, but has {} dimensions instead",
           factor.dim());
  TL_CHECK(factor.size(-1) == factor.size(-2), ValueError,
           "A must be batches of square matrices, but they are {} by {} matrices", factor.size(-2), factor.size(-1));
  TL_CHECK(factor.size(-1) == b.size(-2), ValueError,
           "Incompatible matrix sizes for cholesky_solve: each A matrix is {} by {} but each b matrix is {} by {}",
           factor.size(-2), factor.size(-1), b.size(-2), b.size(-1));
  TL_CHECK(b.dtype() == factor.dtype(), TypeError,
           "Expected b and A to have the same dtype, but found b of type {} and A of type {} instead.",
           dtype_info(b.dtype()).scalar_type_name, dtype_info(factor.dtype()).scalar_type_name);
  check_lapack_operand(b, "cholesky_solve_cpu");
  const Shape batch = broadcast_shapes(batch_shape(b, 2), batch_shape(factor, 2));
  Shape b_shape = batch, a_shape = batch;
  b_shape.insert(b_shape.end(), {b.size(-2), b.size(-1)});
  a_shape.insert(a_shape.end(), {factor.size(-2), factor.size(-1)});
  Tensor x = column_major(b_shape, b.dtype()), f = column_major(a_shape, b.dtype());
  x.copy_(b.expand(b_shape));
  f.copy_(factor.expand(a_shape));
  if (x.numel() == 0) return x;
  const int64_t n = f.size(-1), nrhs = x.size(-1), batches = batch_count(x, 2);
  TL_CHECK(nrhs <= INT_MAX, LimitError, "linear algebra: {} right-hand sides exceed LAPACK's int range", nrhs);
  dispatch_real(b.dtype(), [&]<typename T>() {
    const T* fp = f.data<T>();
    T* xp = x.data<T>();
    for (int64_t i = 0; i < batches; ++i) {
      int info = 0;
      potrs(upper ? 'U' : 'L', static_cast<int>(n), static_cast<int>(nrhs), fp + i * n * n, xp + i * n * nrhs, &info);
    }
  });
  return x;
}

Tensor cholesky_inverse(const Tensor& factor, bool upper) {
  check_square(factor, "cholesky_inverse");
  check_lapack_operand(factor, "cholesky_inverse_out_cpu");
  Tensor inverse = column_major(factor.sizes(), factor.dtype());
  inverse.copy_(factor);
  const int64_t n = factor.size(-1), batches = batch_count(factor, 2);
  Tensor info = zeros({std::max<int64_t>(batches, 1)}, DType::Int);
  if (inverse.numel() == 0) return inverse;
  dispatch_real(factor.dtype(), [&]<typename T>() {
    T* base = inverse.data<T>();
    int* status = info.data<int>();
    for (int64_t b = 0; b < batches; ++b) {
      T* m = base + b * n * n;
      potri(upper ? 'U' : 'L', static_cast<int>(n), m, status + b);
      if (status[b] != 0) break;
      // potri writes one triangle; the other is its mirror (column-major: m[i + j n]).
      for (int64_t j = 0; j < n; ++j)
        for (int64_t i = j + 1; i < n; ++i) {
          if (upper) m[i + j * n] = m[j + i * n];
          else m[j + i * n] = m[i + j * n];
        }
    }
  });
  check_lapack_info(info, "cholesky_inverse", factor.dim() == 2);
  return inverse;
}

namespace {

// sytrs walks the pivots forward and back, reading rows k and k + 1 for each 2 x 2 block
// (a negative pair): pivots that are not such a sequence make it read and write outside
// the matrices (torch 1.13 corrupts its heap on a zero pivot). Refused by name instead.
void check_ldl_pivots(const int* piv, int64_t n, int64_t batch) {
  for (int64_t k = 0; k < n;) {
    const int64_t p = piv[k];
    const bool block = p < 0 && k + 1 < n && piv[k + 1] == p;
    TL_CHECK((p > 0 && p <= n) || (block && -p <= n), ValueError,
             "torch.linalg.ldl_solve: pivots (batch element {}) are not a sequence ldl_factor makes: entry {} is {}",
             batch, k, p);
    k += block ? 2 : 1;
  }
}

}  // namespace

std::tuple<Tensor, Tensor, Tensor> ldl_factor_ex(const Tensor& a, bool hermitian, bool check_errors) {
  (void)hermitian;  // real matrices: symmetric and Hermitian are one factorisation (sytrf)
  check_square(a, "torch.linalg.ldl_factor_ex");
  check_floating(a, "torch.linalg.ldl_factor_ex");
  check_lapack_operand(a, "ldl_factor_kernel_cpu");
  const int64_t n = a.size(-1), batches = batch_count(a, 2);
  // torch copies the lower triangle sytrf reads; the upper comes back zero.
  Tensor factor = column_major(a.sizes(), a.dtype());
  factor.copy_(tril(a));
  Shape pivot_shape = batch_shape(a, 2);
  pivot_shape.push_back(n);
  Tensor pivots = zeros(pivot_shape, DType::Int);
  Tensor info = zeros(batch_shape(a, 2), DType::Int);
  if (factor.numel() > 0) {
    dispatch_real(a.dtype(), [&]<typename T>() {
      T query = 0;
      int status = 0;
      sytrf('L', static_cast<int>(n), factor.data<T>(), pivots.data<int>(), &query, -1, &status);
      const int lwork = workspace_size(query, "sytrf");
      std::vector<T> work(static_cast<size_t>(lwork));
      for (int64_t b = 0; b < batches; ++b)
        sytrf('L', static_cast<int>(n), factor.data<T>() + b * n * n, pivots.data<int>() + b * n, work.data(), lwork,
              info.data<int>() + b);
    });
  }
  if (check_errors) check_lapack_info(info, "torch.linalg.ldl_factor_ex", a.dim() == 2);
  return {factor, pivots, info};
}

std::pair<Tensor, Tensor> ldl_factor(const Tensor& a, bool hermitian) {
  auto [factor, pivots, info] = ldl_factor_ex(a, hermitian, false);
  check_lapack_info(info, "torch.linalg.ldl_factor", a.dim() == 2);
  return {factor, pivots};
}

Tensor ldl_solve(const Tensor& factor, const Tensor& pivots, const Tensor& b, bool hermitian) {
  (void)hermitian;
  check_square(factor, "torch.linalg.ldl_solve");
  TL_CHECK(b.dim() >= 2, ValueError, "torch.linalg.ldl_solve: The input tensor B must have at least 2 dimensions.");
  TL_CHECK(b.dtype() == factor.dtype(), TypeError,
           "Expected b and A to have the same dtype, but found b of type {} and A of type {} instead.",
           dtype_info(b.dtype()).scalar_type_name, dtype_info(factor.dtype()).scalar_type_name);
  TL_CHECK(factor.size(-1) == b.size(-2), ValueError,
           "Incompatible matrix sizes for torch.linalg.ldl_solve: each A matrix is {} by {} but each b matrix is {} by {}",
           factor.size(-2), factor.size(-1), b.size(-2), b.size(-1));
  const Shape factor_rows(factor.sizes().begin(), factor.sizes().end() - 1);
  TL_CHECK(Shape(pivots.sizes().begin(), pivots.sizes().end()) == factor_rows, ValueError,
           "torch.linalg.ldl_solve: Expected LD.shape[:-1] and pivots.shape to be the same, but got pivots with shape {} "
           "instead",
           shape_repr(pivots.sizes()));
  TL_CHECK(is_integral(pivots.dtype(), false), TypeError,
           "torch.linalg.ldl_solve: Expected pivots to be integers. Got {}", dtype_info(pivots.dtype()).scalar_type_name);
  check_lapack_operand(b, "ldl_solve_kernel_cpu");
  const int64_t n = factor.size(-1), k = b.size(-1);
  const Shape batch = broadcast_shapes(batch_shape(b, 2), batch_shape(factor, 2));
  Shape x_shape = batch, f_shape = batch, p_shape = batch;
  x_shape.insert(x_shape.end(), {n, k});
  f_shape.insert(f_shape.end(), {n, n});
  p_shape.push_back(n);
  Tensor x = column_major(x_shape, b.dtype()), f = column_major(f_shape, b.dtype());
  x.copy_(b.expand(x_shape));
  f.copy_(factor.expand(f_shape));
  const Tensor piv = pivots.expand(p_shape).to(DType::Int).contiguous();
  if (x.numel() == 0) return x;
  const int64_t batches = batch_count(x, 2);
  for (int64_t i = 0; i < batches; ++i) check_ldl_pivots(piv.data<int>() + i * n, n, i);
  dispatch_real(b.dtype(), [&]<typename T>() {
    for (int64_t i = 0; i < batches; ++i) {
      int status = 0;
      sytrs('L', static_cast<int>(n), static_cast<int>(k), f.data<T>() + i * n * n, piv.data<int>() + i * n,
            x.data<T>() + i * n * k, &status);
    }
  });
  return x;
}

}  // namespace torchlet

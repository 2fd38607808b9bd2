// Triangular solves (ops.h): torch.linalg.solve_triangular and the older
// torch.triangular_solve, through BLAS trsm on the layouts torch hands it. torch solves
// in whichever of B's and A's memory orders saves a copy, turning the equation around
// (X A = B as A^T X^T = B^T) or flipping `upper` and the transpose flag to read a
// row-major A as the column-major A^T; each choice rounds differently, so the same
// choices are made here, in torch's order.
#include <climits>

#include <torchlet/error.h>
#include <torchlet/ops.h>

#include "tensor/kernels/lapack.h"

namespace torchlet {

using namespace kernels::lapack;

namespace {

bool is_row_or_column_contiguous(const Tensor& t) { return t.is_contiguous() || t.transpose(-2, -1).is_contiguous(); }

// A copy of `t` whose matrices are column-major, one after another.
Tensor column_major_copy(const Tensor& t, DType dtype) {
  Tensor c = column_major(t.sizes(), dtype);
  c.copy_(t);
  return c;
}

// `sizes` with its batch dims replaced by `batch`.
Shape with_batch(const Shape& batch, const Tensor& t) {
  Shape s = batch;
  s.insert(s.end(), {t.size(-2), t.size(-1)});
  return s;
}

void check_trsm_sizes(const Tensor& t) {
  for (int64_t d = t.dim() - 2; d < t.dim(); ++d)
    TL_CHECK(t.size(d) <= INT_MAX, LimitError, "linear algebra: a matrix dimension of {} exceeds BLAS's int range", t.size(d));
}

// torch's apply_triangular_solve: trsm over the batch, A's and B's matrices at their
// full-matrix strides. `b` is column-major and written in place; `a` is column-major
// or (read as its transpose) row-major, contiguous over the batch.
void batched_trsm(const Tensor& a, Tensor& b, bool left, bool upper, char trans, bool unitriangular) {
  if (b.numel() == 0) return;
  check_trsm_sizes(a);
  check_trsm_sizes(b);
  const int64_t m = left ? a.size(-1) : b.size(-2), n = b.size(-1);
  const int64_t a_stride = a.size(-1) * a.size(-2), b_stride = b.size(-1) * b.size(-2);
  const int lda = ld(a.size(-2)), ldb = ld(b.size(-2));
  const int64_t batches = batch_count(b, 2);
  dispatch_real(b.dtype(), [&]<typename T>() {
    const T* ap = static_cast<const T*>(a.data_ptr());
    T* bp = static_cast<T*>(b.data_ptr());
    for (int64_t i = 0; i < batches; ++i)
      trsm(left ? 'L' : 'R', upper ? 'U' : 'L', trans, unitriangular ? 'U' : 'N', static_cast<int>(m), static_cast<int>(n),
           ap + i * a_stride, lda, bp + i * b_stride, ldb);
  });
}

}  // namespace

Tensor solve_triangular(const Tensor& a, const Tensor& b, bool upper, bool left, bool unitriangular) {
  constexpr std::string_view kApi = "linalg.solve_triangular";
  check_square(a, kApi, "A");
  check_is_matrix(b, kApi, "B");
  TL_CHECK(left ? a.size(-2) == b.size(-2) : a.size(-1) == b.size(-1), ValueError,
           "{}: Incompatible shapes of A and B for the equation {} ({}x{} and {}x{})", kApi, left ? "AX = B" : "XA = B",
           a.size(-2), a.size(-1), b.size(-2), b.size(-1));
  const Shape batch = broadcast_shapes(batch_shape(b, 2), batch_shape(a, 2));
  const Tensor a_b = a.expand(with_batch(batch, a)), b_b = b.expand(with_batch(batch, b));
  check_lapack_operand(a, "triangular_solve_cpu");
  // torch's out is made from A's options, column-major, and B is copied into it.
  Tensor out = column_major_copy(b_b, a.dtype());
  // A column-major out with one row is also row-major; torch then solves the
  // transposed equation (X A = B as A^T X^T = B^T).
  // (out_f is a view of out, so out holds the solution either way.)
  Tensor out_f = out;
  bool transpose_a = false;
  if (out_f.stride(-1) == 1) {
    left = !left;
    transpose_a = true;
    out_f = out_f.transpose(-2, -1);
  }
  Tensor a_f = a_b;
  bool a_column_major = (a_f.stride(-1) == 1) == transpose_a;
  if (!is_row_or_column_contiguous(a_f)) {
    a_f = transpose_a ? a_f.contiguous() : column_major_copy(a_f, a.dtype());
    a_column_major = true;
  }
  // A row-major buffer read column-major is A^T, whose triangle is the other one.
  if (a_f.stride(-1) == 1) upper = !upper;
  batched_trsm(a_f, out_f, left, upper, a_column_major ? 'N' : 'T', unitriangular);
  return out;
}

std::pair<Tensor, Tensor> triangular_solve(const Tensor& b, const Tensor& a, bool upper, bool transpose,
                                           bool unitriangular) {
  TL_CHECK(b.dim() >= 2, ValueError,
           "torch.triangular_solve: Expected b to have at least 2 dimensions, but it has {} dimensions instead", b.dim());
  TL_CHECK(a.dim() >= 2, ValueError,
           "torch.triangular_solve: Expected A to have at least 2 dimensions, but it has {} dimensions instead", a.dim());
  TL_CHECK(b.dtype() == a.dtype(), TypeError, "Expected b and A to have the same dtype, but found b of type {} and A of type {} instead.",
           dtype_info(b.dtype()).scalar_type_name, dtype_info(a.dtype()).scalar_type_name);
  TL_CHECK(a.size(-1) == a.size(-2), ValueError, "A must be batches of square matrices, but they are {} by {} matrices",
           a.size(-2), a.size(-1));
  TL_CHECK(a.size(-1) == b.size(-2), ValueError,
           "Incompatible matrix sizes for triangular_solve: each A matrix is {} by {} but each b matrix is {} by {}",
           a.size(-1), a.size(-1), b.size(-2), b.size(-1));
  const Shape batch = broadcast_shapes(batch_shape(b, 2), batch_shape(a, 2));
  check_lapack_operand(a, "triangular_solve_cpu");
  Tensor solution = column_major_copy(b.expand(with_batch(batch, b)), b.dtype());
  Tensor a_copy = column_major_copy(a.expand(with_batch(batch, a)), a.dtype());
  batched_trsm(a_copy, solution, true, upper, transpose ? 'T' : 'N', unitriangular);
  return {solution, a_copy};
}

}  // namespace torchlet

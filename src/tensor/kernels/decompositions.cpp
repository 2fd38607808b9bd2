// Matrix decompositions (ops.h): linalg.eigh/eigvalsh through LAPACK's syevd,
// linalg.svd/svdvals (and the older torch.svd) through gesdd, linalg.qr (and torch.qr)
// through geqrf + orgqr, each called as torch 1.13 calls it (column-major copies, the optimal workspace LAPACK reports, the same jobz),
// so values and vectors, signs included, are torch's bit for bit.
#include <cctype>
#include <vector>

#include <torchlet/error.h>
#include <torchlet/ops.h>

#include "tensor/kernels/lapack.h"

namespace torchlet {

using namespace kernels::lapack;

std::pair<Tensor, Tensor> eigh(const Tensor& a, std::string_view uplo, bool compute_vectors) {
  check_square(a, "linalg.eigh");
  const char uplo_upper = uplo.size() == 1 ? static_cast<char>(std::toupper(static_cast<unsigned char>(uplo[0]))) : '?';
  TL_CHECK(uplo_upper == 'U' || uplo_upper == 'L', ValueError, "Expected UPLO argument to be 'L' or 'U', but got {}", uplo);
  check_lapack_operand(a, "linalg_eigh_cpu");
  const int64_t n = a.size(-1), batches = batch_count(a, 2);
  Shape values_shape = batch_shape(a, 2);
  values_shape.push_back(n);
  Tensor values = empty(values_shape, a.dtype());
  // syevd overwrites its input with the vectors (or scratch, when only values are asked).
  Tensor vectors = column_major(a.sizes(), a.dtype());
  if (a.numel() == 0) return {values, compute_vectors ? vectors : empty({0}, a.dtype())};
  vectors.copy_(a);
  Tensor info = zeros(batch_shape(a, 2), DType::Int);
  const char jobz = compute_vectors ? 'V' : 'N';
  dispatch_real(a.dtype(), [&]<typename T>() {
    T* v = vectors.data<T>();
    T* w = values.data<T>();
    int* status = info.data<int>();
    T work_query{};
    int iwork_query = 0;
    syevd(jobz, uplo_upper, static_cast<int>(n), v, ld(n), w, &work_query, -1, &iwork_query, -1, status);
    const int lwork = workspace_size(work_query, "syevd"), liwork = std::max(1, iwork_query);
    std::vector<T> work(static_cast<size_t>(lwork));
    std::vector<int> iwork(static_cast<size_t>(liwork));
    for (int64_t b = 0; b < batches; ++b) {
      syevd(jobz, uplo_upper, static_cast<int>(n), v + b * n * n, ld(n), w + b * n, work.data(), lwork, iwork.data(),
            liwork, status + b);
      if (status[b] != 0) break;
    }
  });
  check_lapack_info(info, "linalg.eigh", a.dim() == 2);
  return {values, compute_vectors ? vectors : empty({0}, a.dtype())};
}

SvdResult svd(const Tensor& a, bool full_matrices, bool compute_uv) {
  check_is_matrix(a, "linalg.svd");
  check_floating(a, "linalg.svd");
  check_lapack_operand(a, "linalg_svd_cpu");
  const int64_t m = a.size(-2), n = a.size(-1), k = std::min(m, n), batches = batch_count(a, 2);
  const Shape batch = batch_shape(a, 2);
  auto with = [&](int64_t rows, int64_t cols) {
    Shape s = batch;
    s.push_back(rows);
    if (cols >= 0) s.push_back(cols);
    return s;
  };
  SvdResult r{compute_uv ? column_major(with(m, full_matrices ? m : k), a.dtype()) : empty({0}, a.dtype()),
              empty(with(k, -1), a.dtype()),
              compute_uv ? column_major(with(full_matrices ? n : k, n), a.dtype()) : empty({0}, a.dtype())};
  if (a.numel() == 0) {
    // The identity is a valid SVD of an empty matrix, as torch fills it in.
    if (compute_uv && full_matrices) {
      for (Tensor* t : {&r.U, &r.Vh}) {
        t->fill_(0);
        if (t->numel() != 0) t->diagonal(0, -2, -1).fill_(1);
      }
    }
    return r;
  }
  Tensor work_a = column_major(a.sizes(), a.dtype());  // gesdd destroys its input
  work_a.copy_(a);
  Tensor info = zeros(batch, DType::Int);
  const char jobz = compute_uv ? (full_matrices ? 'A' : 'S') : 'N';
  const int ldu = compute_uv ? static_cast<int>(r.U.stride(-1)) : 1;
  const int ldvt = compute_uv ? static_cast<int>(r.Vh.stride(-1)) : 1;
  dispatch_real(a.dtype(), [&]<typename T>() {
    T* ap = work_a.data<T>();
    T* sp = r.S.data<T>();
    T* up = compute_uv ? r.U.data<T>() : nullptr;
    T* vp = compute_uv ? r.Vh.data<T>() : nullptr;
    int* status = info.data<int>();
    std::vector<int> iwork(static_cast<size_t>(8 * k));
    T work_query{};
    gesdd(jobz, static_cast<int>(m), static_cast<int>(n), ap, ld(m), sp, up, ldu, vp, ldvt, &work_query, -1,
          iwork.data(), status);
    const int lwork = workspace_size(work_query, "gesdd");
    std::vector<T> work(static_cast<size_t>(lwork));
    const int64_t u_stride = compute_uv ? r.U.size(-1) * m : 0, v_stride = compute_uv ? r.Vh.size(-2) * n : 0;
    for (int64_t b = 0; b < batches; ++b)
      gesdd(jobz, static_cast<int>(m), static_cast<int>(n), ap + b * m * n, ld(m), sp + b * k,
            compute_uv ? up + b * u_stride : nullptr, ldu, compute_uv ? vp + b * v_stride : nullptr, ldvt, work.data(),
            lwork, iwork.data(), status + b);
  });
  check_lapack_info(info, "linalg.svd", a.dim() == 2);
  return r;
}

SvdResult svd_legacy(const Tensor& a, bool some, bool compute_uv) {
  TL_CHECK(a.dim() >= 2, ValueError, "linalg.svd: input should have at least 2 dimensions, but has {} dimensions instead",
           a.dim());
  if (compute_uv) {
    SvdResult r = svd(a, !some, true);
    r.Vh = r.Vh.transpose(-2, -1);  // torch.svd returns V
    return r;
  }
  // Without vectors, torch.svd returns zero U (m x m) and V (n x n).
  SvdResult r = svd(a, false, false);
  Shape u_shape(a.sizes().begin(), a.sizes().end()), v_shape(a.sizes().begin(), a.sizes().end());
  u_shape.back() = a.size(-2);
  v_shape[v_shape.size() - 2] = a.size(-1);
  r.U = zeros(u_shape, a.dtype());
  r.Vh = zeros(v_shape, a.dtype()).transpose(-2, -1);
  return r;
}

std::pair<Tensor, Tensor> qr(const Tensor& a, std::string_view mode) {
  check_is_matrix(a, "linalg.qr");
  check_floating(a, "linalg.qr");
  TL_CHECK(mode == "reduced" || mode == "r" || mode == "complete", ValueError,
           "qr received unrecognized mode '{}' but expected one of 'reduced' (default), 'r', or 'complete'", mode);
  check_lapack_operand(a, "geqrf_cpu");
  const bool compute_q = mode != "r", reduced = mode != "complete";
  const int64_t m = a.size(-2), n = a.size(-1), k = std::min(m, n), batches = batch_count(a, 2);
  Shape q_shape(a.sizes().begin(), a.sizes().end()), r_shape(a.sizes().begin(), a.sizes().end());
  q_shape.back() = reduced ? k : m;
  r_shape[r_shape.size() - 2] = (reduced || !compute_q) ? k : m;
  Tensor q = compute_q ? column_major(q_shape, a.dtype()) : empty({0}, a.dtype());
  Tensor r = column_major(r_shape, a.dtype());
  Shape tau_shape = batch_shape(a, 2);
  tau_shape.push_back(k);
  Tensor tau = empty(tau_shape, a.dtype());
  // geqrf works in place on an m x n copy: Q's or R's memory when one has that shape.
  const bool in_q = compute_q && q.size(-1) == n, in_r = !in_q && r.size(-2) == m;
  Tensor work_qr = in_q ? q : in_r ? r : column_major(a.sizes(), a.dtype());
  work_qr.copy_(a);
  dispatch_real(a.dtype(), [&]<typename T>() {
    if (work_qr.numel() == 0) return;
    T* base = work_qr.data<T>();
    T* tp = tau.data<T>();
    int info = 0;
    T query{};
    geqrf(static_cast<int>(m), static_cast<int>(n), base, ld(m), tp, &query, -1, &info);
    std::vector<T> work(static_cast<size_t>(workspace_size(query, "geqrf")));
    for (int64_t b = 0; b < batches; ++b)
      geqrf(static_cast<int>(m), static_cast<int>(n), base + b * m * n, ld(m), tp + b * k, work.data(),
            static_cast<int>(work.size()), &info);
  });
  if (in_r) {
    if (compute_q) {
      if (m < n) q.copy_(work_qr.narrow(-1, 0, m));
      else q.narrow(-1, 0, n).copy_(work_qr);
    }
    r.copy_(triu(r));
  } else {
    r.copy_(triu(work_qr.narrow(-2, 0, n)));
  }
  if (compute_q && q.numel() != 0) {
    const int64_t cols = q.size(-1);
    dispatch_real(a.dtype(), [&]<typename T>() {
      T* base = q.data<T>();
      const T* tp = tau.data<T>();
      int info = 0;
      T query{};
      orgqr(static_cast<int>(m), static_cast<int>(cols), static_cast<int>(k), base, ld(m), tp, &query, -1, &info);
      std::vector<T> work(static_cast<size_t>(workspace_size(query, "orgqr")));
      for (int64_t b = 0; b < batches; ++b)
        orgqr(static_cast<int>(m), static_cast<int>(cols), static_cast<int>(k), base + b * m * cols, ld(m), tp + b * k,
              work.data(), static_cast<int>(work.size()), &info);
    });
  }
  return {q, r};
}

}  // namespace torchlet

// Matrix decompositions (ops.h): linalg.eigh/eigvalsh through LAPACK's syevd,
// linalg.svd/svdvals (and the older torch.svd) through gesdd, linalg.qr (and torch.qr)
// through geqrf + orgqr, and QR's building blocks themselves (geqrf,
// householder_product/orgqr, ormqr), each called as torch 1.13 calls it (column-major
// copies, the optimal workspace LAPACK reports, the same jobz), so values and vectors,
// signs included, are torch's bit for bit.
#include <vector>

#include <torchlet/error.h>
#include <torchlet/ops.h>

#include "core/ascii.h"
#include "tensor/kernels/lapack.h"

namespace torchlet {

using namespace kernels::lapack;

std::pair<Tensor, Tensor> eigh(const Tensor& a, std::string_view uplo, bool compute_vectors) {
  check_square(a, "linalg.eigh");
  const char uplo_upper = uplo.size() == 1 ? ascii_to_upper(uplo[0]) : '?';
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

namespace {

// geqrf on every matrix of `work` (batched column-major, overwritten with R above the
// diagonal and the reflectors below), with the optimal workspace LAPACK reports, as
// torch's apply_geqrf calls it; `tau` (batch x min(m, n), contiguous) gets the scales.
void geqrf_in_place(Tensor& work, Tensor& tau) {
  if (work.numel() == 0) return;
  const int64_t m = work.size(-2), n = work.size(-1), k = std::min(m, n), batches = batch_count(work, 2);
  dispatch_real(work.dtype(), [&]<typename T>() {
    T* base = work.data<T>();
    T* tp = tau.data<T>();
    int info = 0;
    T query{};
    geqrf(static_cast<int>(m), static_cast<int>(n), base, ld(m), tp, &query, -1, &info);
    std::vector<T> scratch(static_cast<size_t>(workspace_size(query, "geqrf")));
    for (int64_t b = 0; b < batches; ++b)
      geqrf(static_cast<int>(m), static_cast<int>(n), base + b * m * n, ld(m), tp + b * k, scratch.data(),
            static_cast<int>(scratch.size()), &info);
  });
}

// orgqr on every matrix of `q` (batched column-major, m >= n >= k): the product of the k
// reflectors below its diagonals, scaled by `tau` (contiguous), replaces it with the
// first n columns of Q, as torch's apply_orgqr computes them.
void orgqr_in_place(Tensor& q, const Tensor& tau) {
  if (q.numel() == 0) return;
  const int64_t m = q.size(-2), n = q.size(-1), k = tau.size(-1), batches = batch_count(q, 2);
  dispatch_real(q.dtype(), [&]<typename T>() {
    T* base = q.data<T>();
    const T* tp = tau.data<T>();
    int info = 0;
    T query{};
    orgqr(static_cast<int>(m), static_cast<int>(n), static_cast<int>(k), base, ld(m), tp, &query, -1, &info);
    std::vector<T> scratch(static_cast<size_t>(workspace_size(query, "orgqr")));
    for (int64_t b = 0; b < batches; ++b)
      orgqr(static_cast<int>(m), static_cast<int>(n), static_cast<int>(k), base + b * m * n, ld(m), tp + b * k,
            scratch.data(), static_cast<int>(scratch.size()), &info);
  });
}

Shape tau_shape_of(const Tensor& a) {
  Shape shape = batch_shape(a, 2);
  shape.push_back(std::min(a.size(-2), a.size(-1)));
  return shape;
}

// torch's checks that tau's (and other's) leading dims are input's batch dims.
void check_batch_matches(const Tensor& input, const Tensor& t, std::string_view api, std::string_view name,
                         int64_t matrix_dims) {
  if (input.dim() <= 2) return;
  const Shape expected = batch_shape(input, 2), actual = batch_shape(t, matrix_dims);
  TL_CHECK(actual == expected, ValueError, "{}: Expected batch dimensions of {} to be equal to input.shape[:-2], but got {}",
           api, name, shape_repr(actual));
}

}  // namespace

std::pair<Tensor, Tensor> qr(const Tensor& a, std::string_view mode) {
  check_is_matrix(a, "linalg.qr");
  check_floating(a, "linalg.qr");
  TL_CHECK(mode == "reduced" || mode == "r" || mode == "complete", ValueError,
           "qr received unrecognized mode '{}' but expected one of 'reduced' (default), 'r', or 'complete'", mode);
  check_lapack_operand(a, "geqrf_cpu");
  const bool compute_q = mode != "r", reduced = mode != "complete";
  const int64_t m = a.size(-2), n = a.size(-1), k = std::min(m, n);
  Shape q_shape(a.sizes().begin(), a.sizes().end()), r_shape(a.sizes().begin(), a.sizes().end());
  q_shape.back() = reduced ? k : m;
  r_shape[r_shape.size() - 2] = (reduced || !compute_q) ? k : m;
  Tensor q = compute_q ? column_major(q_shape, a.dtype()) : empty({0}, a.dtype());
  Tensor r = column_major(r_shape, a.dtype());
  Tensor tau = empty(tau_shape_of(a), a.dtype());
  // geqrf works in place on an m x n copy: Q's or R's memory when one has that shape.
  const bool in_q = compute_q && q.size(-1) == n, in_r = !in_q && r.size(-2) == m;
  Tensor work_qr = in_q ? q : in_r ? r : column_major(a.sizes(), a.dtype());
  work_qr.copy_(a);
  geqrf_in_place(work_qr, tau);
  if (in_r) {
    if (compute_q) {
      if (m < n) q.copy_(work_qr.narrow(-1, 0, m));
      else q.narrow(-1, 0, n).copy_(work_qr);
    }
    r.copy_(triu(r));
  } else {
    r.copy_(triu(work_qr.narrow(-2, 0, n)));
  }
  if (compute_q) orgqr_in_place(q, tau);
  return {q, r};
}

std::pair<Tensor, Tensor> geqrf(const Tensor& a) {
  TL_CHECK(a.dim() >= 2, ValueError, "torch.geqrf: input must have at least 2 dimensions.");
  check_lapack_operand(a, "geqrf_cpu");
  Tensor compact = column_major(a.sizes(), a.dtype());
  compact.copy_(a);
  Tensor tau = empty(tau_shape_of(a), a.dtype());
  geqrf_in_place(compact, tau);
  return {compact, tau};
}

Tensor householder_product(const Tensor& a, const Tensor& tau) {
  constexpr std::string_view kApi = "torch.linalg.householder_product";
  TL_CHECK(a.dim() >= 2, ValueError, "{}: input must have at least 2 dimensions.", kApi);
  TL_CHECK(a.size(-2) >= a.size(-1), ValueError, "{}: input.shape[-2] must be greater than or equal to input.shape[-1]",
           kApi);
  TL_CHECK(tau.dim() >= 1 && a.size(-1) >= tau.size(-1), ValueError,
           "{}: input.shape[-1] must be greater than or equal to tau.shape[-1]", kApi);
  TL_CHECK(a.dim() - tau.dim() == 1, ValueError,
           "{}: Expected tau to have one dimension less than input, but got tau.ndim equal to {} and input.ndim is equal "
           "to {}", kApi, tau.dim(), a.dim());
  check_batch_matches(a, tau, kApi, "tau", 1);
  TL_CHECK(tau.dtype() == a.dtype(), TypeError, "{}: tau dtype {} does not match input dtype {}", kApi,
           dtype_info(tau.dtype()).scalar_type_name, dtype_info(a.dtype()).scalar_type_name);
  check_lapack_operand(a, "orgqr_cpu");
  Tensor q = column_major(a.sizes(), a.dtype());
  q.copy_(a);
  orgqr_in_place(q, tau.contiguous());
  return q;
}

Tensor ormqr(const Tensor& a, const Tensor& tau, const Tensor& other, bool left, bool transpose) {
  constexpr std::string_view kApi = "torch.ormqr";
  TL_CHECK(a.dim() >= 2, ValueError, "{}: input must have at least 2 dimensions.", kApi);
  TL_CHECK(other.dim() >= 2, ValueError, "{}: other must have at least 2 dimensions.", kApi);
  TL_CHECK(tau.dim() >= 1, ValueError,
           "{}: Expected tau to have one dimension less than input, but got tau.ndim equal to {} and input.ndim is equal "
           "to {}", kApi, tau.dim(), a.dim());
  const int64_t side_dim = left ? -2 : -1;
  TL_CHECK(other.size(side_dim) >= tau.size(-1), ValueError,
           "{}: other.shape[{}] must be greater than or equal to tau.shape[-1]", kApi, side_dim);
  TL_CHECK(other.size(side_dim) == a.size(-2), ValueError, "{}: other.shape[{}] must be equal to input.shape[-2]", kApi,
           side_dim);
  TL_CHECK(tau.size(-1) <= a.size(-1), ValueError, "{}: tau.shape[-1] must be less than or equal to input.shape[-1]",
           kApi);
  TL_CHECK(a.dim() - tau.dim() == 1, ValueError,
           "{}: Expected tau to have one dimension less than input, but got tau.ndim equal to {} and input.ndim is equal "
           "to {}", kApi, tau.dim(), a.dim());
  TL_CHECK(a.dim() == other.dim(), ValueError,
           "{}: Expected other to have the same number of dimensions as input, but got other.ndim equal to {} and "
           "input.ndim is equal to {}", kApi, other.dim(), a.dim());
  check_batch_matches(a, tau, kApi, "tau", 1);
  check_batch_matches(a, other, kApi, "other", 2);
  // (torch's wording, "dtypeFloat" included.)
  for (const auto& [name, t] : {std::pair<std::string_view, const Tensor*>{"tau", &tau}, {"other", &other}})
    TL_CHECK(t->dtype() == a.dtype(), TypeError,
             "{}: Expected input and {} to have the same dtype, but input has dtype{} and {} has dtype {}", kApi, name,
             dtype_info(a.dtype()).scalar_type_name, name, dtype_info(t->dtype()).scalar_type_name);
  check_lapack_operand(a, "ormqr_cpu");
  check_lapack_operand(other, "ormqr_cpu");
  Tensor result = column_major(other.sizes(), other.dtype());
  result.copy_(other);
  if (result.numel() == 0) return result;
  Tensor reflectors = column_major(a.sizes(), a.dtype());
  reflectors.copy_(a);
  const Tensor scales = tau.contiguous();
  const int64_t m = other.size(-2), n = other.size(-1), k = tau.size(-1), batches = batch_count(other, 2);
  const int64_t a_stride = a.size(-2) * a.size(-1);
  const char side = left ? 'L' : 'R', trans = transpose ? 'T' : 'N';
  const int lda = ld(left ? m : n);
  dispatch_real(a.dtype(), [&]<typename T>() {
    const T* ap = reflectors.data<T>();
    const T* tp = scales.data<T>();
    T* cp = result.data<T>();
    int info = 0;
    T query{};
    ormqr(side, trans, static_cast<int>(m), static_cast<int>(n), static_cast<int>(k), ap, lda, tp, cp, ld(m), &query,
          -1, &info);
    std::vector<T> scratch(static_cast<size_t>(workspace_size(query, "ormqr")));
    for (int64_t b = 0; b < batches; ++b)
      ormqr(side, trans, static_cast<int>(m), static_cast<int>(n), static_cast<int>(k), ap + b * a_stride, lda,
            tp + b * k, cp + b * m * n, ld(m), scratch.data(), static_cast<int>(scratch.size()), &info);
  });
  return result;
}

}  // namespace torchlet

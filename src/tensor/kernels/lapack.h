// What the LAPACK-backed kernels (lu.cpp, cholesky.cpp, decompositions.cpp, lstsq.cpp,
// triangular.cpp) share: the Fortran routines' prototypes (Debian's reference LAPACK, the
// one torch 1.13 links, ships no C header), typed wrappers, torch's batched column-major
// layout, and torch's argument checks and singular-input errors (_linalg_check_errors),
// worded as torch words them.
#pragma once

#include <algorithm>
#include <climits>
#include <cstddef>
#include <string>
#include <string_view>

#include <fmt/format.h>

#include <torchlet/error.h>
#include <torchlet/tensor.h>

extern "C" {
// The trailing size_t arguments are gfortran's hidden lengths of the character flags.
void sgetrf_(const int* m, const int* n, float* a, const int* lda, int* ipiv, int* info);
void dgetrf_(const int* m, const int* n, double* a, const int* lda, int* ipiv, int* info);
void sgetrs_(const char* trans, const int* n, const int* nrhs, const float* a, const int* lda, const int* ipiv,
             float* b, const int* ldb, int* info, size_t trans_len);
void dgetrs_(const char* trans, const int* n, const int* nrhs, const double* a, const int* lda, const int* ipiv,
             double* b, const int* ldb, int* info, size_t trans_len);
void spotrf_(const char* uplo, const int* n, float* a, const int* lda, int* info, size_t uplo_len);
void dpotrf_(const char* uplo, const int* n, double* a, const int* lda, int* info, size_t uplo_len);
void spotrs_(const char* uplo, const int* n, const int* nrhs, const float* a, const int* lda, float* b, const int* ldb,
             int* info, size_t uplo_len);
void dpotrs_(const char* uplo, const int* n, const int* nrhs, const double* a, const int* lda, double* b,
             const int* ldb, int* info, size_t uplo_len);
void spotri_(const char* uplo, const int* n, float* a, const int* lda, int* info, size_t uplo_len);
void dpotri_(const char* uplo, const int* n, double* a, const int* lda, int* info, size_t uplo_len);
void ssytrf_(const char* uplo, const int* n, float* a, const int* lda, int* ipiv, float* work, const int* lwork, int* info,
             size_t uplo_len);
void dsytrf_(const char* uplo, const int* n, double* a, const int* lda, int* ipiv, double* work, const int* lwork,
             int* info, size_t uplo_len);
void ssytrs_(const char* uplo, const int* n, const int* nrhs, const float* a, const int* lda, const int* ipiv, float* b,
             const int* ldb, int* info, size_t uplo_len);
void dsytrs_(const char* uplo, const int* n, const int* nrhs, const double* a, const int* lda, const int* ipiv,
             double* b, const int* ldb, int* info, size_t uplo_len);
void ssyevd_(const char* jobz, const char* uplo, const int* n, float* a, const int* lda, float* w, float* work,
             const int* lwork, int* iwork, const int* liwork, int* info, size_t jobz_len, size_t uplo_len);
void dsyevd_(const char* jobz, const char* uplo, const int* n, double* a, const int* lda, double* w, double* work,
             const int* lwork, int* iwork, const int* liwork, int* info, size_t jobz_len, size_t uplo_len);
void sgeqrf_(const int* m, const int* n, float* a, const int* lda, float* tau, float* work, const int* lwork, int* info);
void dgeqrf_(const int* m, const int* n, double* a, const int* lda, double* tau, double* work, const int* lwork,
             int* info);
void sorgqr_(const int* m, const int* n, const int* k, float* a, const int* lda, const float* tau, float* work,
             const int* lwork, int* info);
void dorgqr_(const int* m, const int* n, const int* k, double* a, const int* lda, const double* tau, double* work,
             const int* lwork, int* info);
void sormqr_(const char* side, const char* trans, const int* m, const int* n, const int* k, const float* a,
             const int* lda, const float* tau, float* c, const int* ldc, float* work, const int* lwork, int* info,
             size_t side_len, size_t trans_len);
void dormqr_(const char* side, const char* trans, const int* m, const int* n, const int* k, const double* a,
             const int* lda, const double* tau, double* c, const int* ldc, double* work, const int* lwork, int* info,
             size_t side_len, size_t trans_len);
// Least squares drivers (lstsq.cpp).
void sgels_(const char* trans, const int* m, const int* n, const int* nrhs, float* a, const int* lda, float* b,
            const int* ldb, float* work, const int* lwork, int* info, size_t trans_len);
void dgels_(const char* trans, const int* m, const int* n, const int* nrhs, double* a, const int* lda, double* b,
            const int* ldb, double* work, const int* lwork, int* info, size_t trans_len);
void sgelsy_(const int* m, const int* n, const int* nrhs, float* a, const int* lda, float* b, const int* ldb, int* jpvt,
             const float* rcond, int* rank, float* work, const int* lwork, int* info);
void dgelsy_(const int* m, const int* n, const int* nrhs, double* a, const int* lda, double* b, const int* ldb, int* jpvt,
             const double* rcond, int* rank, double* work, const int* lwork, int* info);
void sgelsd_(const int* m, const int* n, const int* nrhs, float* a, const int* lda, float* b, const int* ldb, float* s,
             const float* rcond, int* rank, float* work, const int* lwork, int* iwork, int* info);
void dgelsd_(const int* m, const int* n, const int* nrhs, double* a, const int* lda, double* b, const int* ldb, double* s,
             const double* rcond, int* rank, double* work, const int* lwork, int* iwork, int* info);
void sgelss_(const int* m, const int* n, const int* nrhs, float* a, const int* lda, float* b, const int* ldb, float* s,
             const float* rcond, int* rank, float* work, const int* lwork, int* info);
void dgelss_(const int* m, const int* n, const int* nrhs, double* a, const int* lda, double* b, const int* ldb, double* s,
             const double* rcond, int* rank, double* work, const int* lwork, int* info);
// BLAS (the reference libblas LAPACK links, as torch's does).
void strsm_(const char* side, const char* uplo, const char* transa, const char* diag, const int* m, const int* n,
            const float* alpha, const float* a, const int* lda, float* b, const int* ldb, size_t side_len, size_t uplo_len,
            size_t transa_len, size_t diag_len);
void dtrsm_(const char* side, const char* uplo, const char* transa, const char* diag, const int* m, const int* n,
            const double* alpha, const double* a, const int* lda, double* b, const int* ldb, size_t side_len,
            size_t uplo_len, size_t transa_len, size_t diag_len);
void sgesdd_(const char* jobz, const int* m, const int* n, float* a, const int* lda, float* s, float* u, const int* ldu,
             float* vt, const int* ldvt, float* work, const int* lwork, int* iwork, int* info, size_t jobz_len);
void dgesdd_(const char* jobz, const int* m, const int* n, double* a, const int* lda, double* s, double* u,
             const int* ldu, double* vt, const int* ldvt, double* work, const int* lwork, int* iwork, int* info,
             size_t jobz_len);
}

namespace torchlet::kernels::lapack {

// Every LAPACK/BLAS call goes through guarded(). Reference LAPACK reports an illegal
// argument by printing and ending the process (status 0); torchlet replaces that handler
// (xerbla_, lapack_errors.cpp) with one that records the routine and returns, and
// guarded() turns the record into an InternalError naming it. An illegal argument is a
// torchlet bug, but it must not take the user's process down with it.
void reset_argument_refusal();
void throw_if_argument_refused();
template <typename Call>
void guarded(const Call& call) {
  reset_argument_refusal();
  call();
  throw_if_argument_refused();
}

// Leading dimensions as LAPACK wants them: at least 1, even for empty matrices.
inline int ld(int64_t n) { return static_cast<int>(std::max<int64_t>(n, 1)); }

inline void getrf(int m, int n, float* a, int lda, int* ipiv, int* info) {
  guarded([&] { sgetrf_(&m, &n, a, &lda, ipiv, info); });
}
inline void getrf(int m, int n, double* a, int lda, int* ipiv, int* info) {
  guarded([&] { dgetrf_(&m, &n, a, &lda, ipiv, info); });
}
inline void getrs(char trans, int n, int nrhs, const float* a, const int* ipiv, float* b, int* info) {
  const int lda = ld(n);
  guarded([&] { sgetrs_(&trans, &n, &nrhs, a, &lda, ipiv, b, &lda, info, 1); });
}
inline void getrs(char trans, int n, int nrhs, const double* a, const int* ipiv, double* b, int* info) {
  const int lda = ld(n);
  guarded([&] { dgetrs_(&trans, &n, &nrhs, a, &lda, ipiv, b, &lda, info, 1); });
}
inline void potrf(char uplo, int n, float* a, int* info) {
  const int lda = ld(n);
  guarded([&] { spotrf_(&uplo, &n, a, &lda, info, 1); });
}
inline void potrf(char uplo, int n, double* a, int* info) {
  const int lda = ld(n);
  guarded([&] { dpotrf_(&uplo, &n, a, &lda, info, 1); });
}
// sytrf with lwork = -1 writes the workspace size it wants into work[0].
inline void sytrf(char uplo, int n, float* a, int* ipiv, float* work, int lwork, int* info) {
  const int lda = ld(n);
  guarded([&] { ssytrf_(&uplo, &n, a, &lda, ipiv, work, &lwork, info, 1); });
}
inline void sytrf(char uplo, int n, double* a, int* ipiv, double* work, int lwork, int* info) {
  const int lda = ld(n);
  guarded([&] { dsytrf_(&uplo, &n, a, &lda, ipiv, work, &lwork, info, 1); });
}
inline void sytrs(char uplo, int n, int nrhs, const float* a, const int* ipiv, float* b, int* info) {
  const int lda = ld(n);
  guarded([&] { ssytrs_(&uplo, &n, &nrhs, a, &lda, ipiv, b, &lda, info, 1); });
}
inline void sytrs(char uplo, int n, int nrhs, const double* a, const int* ipiv, double* b, int* info) {
  const int lda = ld(n);
  guarded([&] { dsytrs_(&uplo, &n, &nrhs, a, &lda, ipiv, b, &lda, info, 1); });
}
inline void potrs(char uplo, int n, int nrhs, const float* a, float* b, int* info) {
  const int lda = ld(n);
  guarded([&] { spotrs_(&uplo, &n, &nrhs, a, &lda, b, &lda, info, 1); });
}
inline void potrs(char uplo, int n, int nrhs, const double* a, double* b, int* info) {
  const int lda = ld(n);
  guarded([&] { dpotrs_(&uplo, &n, &nrhs, a, &lda, b, &lda, info, 1); });
}
inline void potri(char uplo, int n, float* a, int* info) {
  const int lda = ld(n);
  guarded([&] { spotri_(&uplo, &n, a, &lda, info, 1); });
}
inline void potri(char uplo, int n, double* a, int* info) {
  const int lda = ld(n);
  guarded([&] { dpotri_(&uplo, &n, a, &lda, info, 1); });
}

// lwork/liwork -1 asks for the optimal workspace sizes (written to work[0]/iwork[0]).
inline void syevd(char jobz, char uplo, int n, float* a, int lda, float* w, float* work, int lwork, int* iwork,
                  int liwork, int* info) {
  guarded([&] { ssyevd_(&jobz, &uplo, &n, a, &lda, w, work, &lwork, iwork, &liwork, info, 1, 1); });
}
inline void syevd(char jobz, char uplo, int n, double* a, int lda, double* w, double* work, int lwork, int* iwork,
                  int liwork, int* info) {
  guarded([&] { dsyevd_(&jobz, &uplo, &n, a, &lda, w, work, &lwork, iwork, &liwork, info, 1, 1); });
}
inline void gesdd(char jobz, int m, int n, float* a, int lda, float* s, float* u, int ldu, float* vt, int ldvt,
                  float* work, int lwork, int* iwork, int* info) {
  guarded([&] { sgesdd_(&jobz, &m, &n, a, &lda, s, u, &ldu, vt, &ldvt, work, &lwork, iwork, info, 1); });
}
inline void gesdd(char jobz, int m, int n, double* a, int lda, double* s, double* u, int ldu, double* vt, int ldvt,
                  double* work, int lwork, int* iwork, int* info) {
  guarded([&] { dgesdd_(&jobz, &m, &n, a, &lda, s, u, &ldu, vt, &ldvt, work, &lwork, iwork, info, 1); });
}

inline void geqrf(int m, int n, float* a, int lda, float* tau, float* work, int lwork, int* info) {
  guarded([&] { sgeqrf_(&m, &n, a, &lda, tau, work, &lwork, info); });
}
inline void geqrf(int m, int n, double* a, int lda, double* tau, double* work, int lwork, int* info) {
  guarded([&] { dgeqrf_(&m, &n, a, &lda, tau, work, &lwork, info); });
}
// B := op(A)^-1 B (side 'L') or B op(A)^-1 (side 'R'), A triangular; alpha 1.
inline void trsm(char side, char uplo, char trans, char diag, int m, int n, const float* a, int lda, float* b, int ldb) {
  const float one = 1;
  guarded([&] { strsm_(&side, &uplo, &trans, &diag, &m, &n, &one, a, &lda, b, &ldb, 1, 1, 1, 1); });
}
inline void trsm(char side, char uplo, char trans, char diag, int m, int n, const double* a, int lda, double* b,
                 int ldb) {
  const double one = 1;
  guarded([&] { dtrsm_(&side, &uplo, &trans, &diag, &m, &n, &one, a, &lda, b, &ldb, 1, 1, 1, 1); });
}
inline void orgqr(int m, int n, int k, float* a, int lda, const float* tau, float* work, int lwork, int* info) {
  guarded([&] { sorgqr_(&m, &n, &k, a, &lda, tau, work, &lwork, info); });
}
inline void orgqr(int m, int n, int k, double* a, int lda, const double* tau, double* work, int lwork, int* info) {
  guarded([&] { dorgqr_(&m, &n, &k, a, &lda, tau, work, &lwork, info); });
}
// C := op(Q) C (side 'L') or C op(Q) (side 'R'), Q the product of k reflectors in a.
inline void ormqr(char side, char trans, int m, int n, int k, const float* a, int lda, const float* tau, float* c, int ldc,
                  float* work, int lwork, int* info) {
  guarded([&] { sormqr_(&side, &trans, &m, &n, &k, a, &lda, tau, c, &ldc, work, &lwork, info, 1, 1); });
}
inline void ormqr(char side, char trans, int m, int n, int k, const double* a, int lda, const double* tau, double* c,
                  int ldc, double* work, int lwork, int* info) {
  guarded([&] { dormqr_(&side, &trans, &m, &n, &k, a, &lda, tau, c, &ldc, work, &lwork, info, 1, 1); });
}

// The least squares drivers, one signature for all four (arguments a driver does not
// take are ignored): gels (QR/LQ, full rank assumed), gelsy (QR with column pivoting;
// jpvt in/out), gelsd (divide-and-conquer SVD; iwork), gelss (SVD). lwork -1 queries
// the workspace into work[0] (and, for gelsd, iwork[0]).
enum class LstsqDriver { Gels, Gelsy, Gelsd, Gelss };
inline void lstsq_driver(LstsqDriver d, int m, int n, int nrhs, float* a, int lda, float* b, int ldb, int* jpvt,
                         float rcond, int* rank, float* s, float* work, int lwork, int* iwork, int* info) {
  const char trans = 'N';
  guarded([&] {
    switch (d) {
      case LstsqDriver::Gels: return sgels_(&trans, &m, &n, &nrhs, a, &lda, b, &ldb, work, &lwork, info, 1);
      case LstsqDriver::Gelsy: return sgelsy_(&m, &n, &nrhs, a, &lda, b, &ldb, jpvt, &rcond, rank, work, &lwork, info);
      case LstsqDriver::Gelsd: return sgelsd_(&m, &n, &nrhs, a, &lda, b, &ldb, s, &rcond, rank, work, &lwork, iwork, info);
      case LstsqDriver::Gelss: return sgelss_(&m, &n, &nrhs, a, &lda, b, &ldb, s, &rcond, rank, work, &lwork, info);
    }
  });
}
inline void lstsq_driver(LstsqDriver d, int m, int n, int nrhs, double* a, int lda, double* b, int ldb, int* jpvt,
                         double rcond, int* rank, double* s, double* work, int lwork, int* iwork, int* info) {
  const char trans = 'N';
  guarded([&] {
    switch (d) {
      case LstsqDriver::Gels: return dgels_(&trans, &m, &n, &nrhs, a, &lda, b, &ldb, work, &lwork, info, 1);
      case LstsqDriver::Gelsy: return dgelsy_(&m, &n, &nrhs, a, &lda, b, &ldb, jpvt, &rcond, rank, work, &lwork, info);
      case LstsqDriver::Gelsd: return dgelsd_(&m, &n, &nrhs, a, &lda, b, &ldb, s, &rcond, rank, work, &lwork, iwork, info);
      case LstsqDriver::Gelss: return dgelss_(&m, &n, &nrhs, a, &lda, b, &ldb, s, &rcond, rank, work, &lwork, info);
    }
  });
}

// The workspace size LAPACK's query wrote (as a floating-point number), as the int its
// next call takes: at least 1, and refused by name past int's range rather than
// converted with undefined behaviour.
template <typename T>
int workspace_size(T query, std::string_view routine) {
  TL_CHECK(query <= static_cast<T>(INT_MAX), LimitError, "{}: LAPACK asks for a workspace of {} elements, past its int range",
           routine, static_cast<double>(query));
  return std::max(1, static_cast<int>(query));
}

// Runs body.template operator()<T>() for T float or double, per `dtype`.
template <typename Body>
void dispatch_real(DType dtype, const Body& body) {
  if (dtype == DType::Float) body.template operator()<float>();
  else body.template operator()<double>();
}

inline int64_t batch_count(const Tensor& t, int64_t matrix_dims) {
  int64_t count = 1;
  for (int64_t d = 0; d < t.dim() - matrix_dims; ++d) count *= t.size(d);
  return count;
}

inline Shape batch_shape(const Tensor& t, int64_t matrix_dims) {
  return Shape(t.sizes().begin(), t.sizes().end() - matrix_dims);
}

// A tensor of `sizes` whose matrices are stored column-major, one after another: the
// layout LAPACK works in and torch returns.
inline Tensor column_major(IntList sizes, DType dtype) {
  Shape swapped(sizes.begin(), sizes.end());
  std::swap(swapped[swapped.size() - 1], swapped[swapped.size() - 2]);
  return empty(swapped, dtype).transpose(-2, -1);
}

inline void check_is_matrix(const Tensor& a, std::string_view api, std::string_view name = "A") {
  TL_CHECK(a.dim() >= 2, ValueError, "{}: The input tensor {} must have at least 2 dimensions.", api, name);
}

inline void check_square(const Tensor& a, std::string_view api, std::string_view name = "A") {
  check_is_matrix(a, api, name);
  TL_CHECK(a.size(-1) == a.size(-2), ValueError, "{}: {} must be batches of square matrices, but they are {} by {} matrices",
           api, name, a.size(-2), a.size(-1));
}

// torch's checkFloatingOrComplex; `low_precision` false also refuses float16/bfloat16.
inline void check_floating(const Tensor& a, std::string_view api, bool low_precision = true) {
  TL_CHECK(is_floating(a.dtype()) || is_complex(a.dtype()), TypeError,
           "{}: Expected a floating point or complex tensor as input. Got {}", api, dtype_info(a.dtype()).scalar_type_name);
  TL_CHECK(low_precision || (a.dtype() != DType::Half && a.dtype() != DType::BFloat16), TypeError,
           "{}: Low precision dtypes not supported. Got {}", api, dtype_info(a.dtype()).scalar_type_name);
}

// What LAPACK can take: float32/float64 (complex is not in torchlet), sizes within int.
// `kernel` is the name torch's dispatch refuses other dtypes with ("lu_cpu", ...).
inline void check_lapack_operand(const Tensor& a, std::string_view kernel) {
  TL_CHECK(a.dtype() == DType::Float || a.dtype() == DType::Double, UnsupportedError, "\"{}\" not implemented for '{}'",
           kernel, dtype_info(a.dtype()).scalar_type_name);
  for (int64_t d = std::max<int64_t>(a.dim() - 2, 0); d < a.dim(); ++d)
    TL_CHECK(a.size(d) <= INT_MAX, LimitError, "linear algebra: a matrix dimension of {} exceeds LAPACK's int range",
             a.size(d));
}

// torch's _linalg_check_errors: the first batch element LAPACK failed on, named, with
// the message torch picks by the caller's name.
inline void check_lapack_info(const Tensor& info, std::string_view api, bool is_matrix) {
  const Tensor flat = info.contiguous();
  const int* p = flat.data<int>();
  for (int64_t b = 0; b < flat.numel(); ++b) {
    if (p[b] == 0) continue;
    const std::string where = is_matrix ? std::string(api) : fmt::format("{}: (Batch element {})", api, b);
    if (p[b] < 0) {
      // LAPACK 3.10+ gesdd reports a non-finite input as an illegal argument 4.
      TL_CHECK(!(p[b] == -4 && api.find("svd") != std::string_view::npos), ValueError,
               "{}: The algorithm failed to converge because the input matrix contained non-finite values.", where);
      throw InternalError(fmt::format("{}: LAPACK says argument {} has an illegal value", where, -p[b]));
    }
    if (api.find("lstsq") != std::string_view::npos)
      throw ValueError(fmt::format("{}: The least squares solution could not be computed because the input matrix does "
                                   "not have full rank (error code: {}).", where, p[b]));
    if (api.find("inv") != std::string_view::npos)
      throw ValueError(fmt::format("{}: The diagonal element {} is zero, the inversion could not be completed because the "
                                   "input matrix is singular.", where, p[b]));
    if (api.find("solve") != std::string_view::npos)
      throw ValueError(fmt::format("{}: The solver failed because the input matrix is singular.", where));
    if (api.find("svd") != std::string_view::npos)
      throw ValueError(fmt::format("{}: The algorithm failed to converge because the input matrix is ill-conditioned or "
                                   "has too many repeated singular values (error code: {}).", where, p[b]));
    if (api.find("eig") != std::string_view::npos)
      throw ValueError(fmt::format("{}: The algorithm failed to converge because the input matrix is ill-conditioned or "
                                   "has too many repeated eigenvalues (error code: {}).", where, p[b]));
    if (api.find("cholesky") != std::string_view::npos)
      throw ValueError(fmt::format("{}: The factorization could not be completed because the input is not "
                                   "positive-definite (the leading minor of order {} is not positive-definite).",
                                   where, p[b]));
    throw ValueError(fmt::format("{}: U[{},{}] is zero and using it on lu_solve would result in a division by zero. If you "
                                 "still want to perform the factorization, consider calling linalg.lu(A, pivot) or "
                                 "linalg.lu_factor_ex(A, pivot)", where, p[b], p[b]));
  }
}

}  // namespace torchlet::kernels::lapack

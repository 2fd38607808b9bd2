// Least squares (ops.h): torch.linalg.lstsq through LAPACK's gels, gelsy (torch's CPU
// default), gelsd or gelss, called as torch 1.13 calls them — a fresh column-major copy
// of each A for every right-hand side it is broadcast to, B in a max(m, n)-row buffer
// that LAPACK overwrites with the solution (and, below row n, what the residuals are
// summed from), the workspace LAPACK reports — so gels, gelsd and gelss results are
// torch's bit for bit. gelsy's column-pivot array is one buffer for the whole batch, as
// torch's is, and LAPACK leaves a permutation in it, which pins every column in place
// for the matrices after the first; torch's first call reads uninitialised memory there
// (its last bits vary from call to call), torchlet's reads zeros: free pivoting, what
// LAPACK documents.
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include <torchlet/error.h>
#include <torchlet/ops.h>

#include "core/ascii.h"
#include "tensor/kernels/lapack.h"

namespace torchlet {

using namespace kernels::lapack;

namespace {

constexpr std::string_view kApi = "torch.linalg.lstsq";

LstsqDriver driver_named(const std::optional<std::string_view>& name) {
  if (!name) return LstsqDriver::Gelsy;
  std::string lower(*name);
  std::transform(lower.begin(), lower.end(), lower.begin(), ascii_to_lower);
  if (lower == "gels") return LstsqDriver::Gels;
  if (lower == "gelsy") return LstsqDriver::Gelsy;
  if (lower == "gelsd") return LstsqDriver::Gelsd;
  if (lower == "gelss") return LstsqDriver::Gelss;
  throw ValueError(fmt::format("{}: parameter `driver` should be one of (gels, gelsy, gelsd, gelss)", kApi));
}

// gelsd's integer workspace, at least LAPACK's documented minimum (3 * k * levels + 11 * k
// for k = min(m, n)), whatever its query reports.
int64_t gelsd_iwork_size(int64_t m, int64_t n, int iwork_query) {
  const int64_t k = std::min(m, n);
  int64_t levels = 1;
  while ((int64_t{1} << levels) < k) ++levels;
  const int64_t minimum = 3 * k * (levels + 1) + 11 * k;
  TL_CHECK(minimum <= std::numeric_limits<int>::max(), LimitError, "{}: gelsd's workspace for {} x {} exceeds LAPACK's int range",
           kApi, m, n);
  return std::max<int64_t>({1, iwork_query, minimum});
}

}  // namespace

LstsqResult lstsq(const Tensor& a, const Tensor& b, std::optional<double> rcond, std::optional<std::string_view> driver) {
  TL_CHECK(a.dim() >= 2, ValueError, "{}: input must have at least 2 dimensions.", kApi);
  TL_CHECK(b.dim() >= 1, ValueError, "{}: other must have at least 1 dimension.", kApi);
  TL_CHECK(a.dtype() == b.dtype(), TypeError,
           "{}: Expected input and other to have the same dtype, but got input's dtype {} and other's dtype {}", kApi,
           dtype_info(a.dtype()).scalar_type_name, dtype_info(b.dtype()).scalar_type_name);
  const int64_t dim_diff = a.dim() - b.dim();
  TL_CHECK(dim_diff == 0 || dim_diff == 1, ValueError,
           "{}: input.dim() must be greater or equal to other.dim() and (input.dim() - other.dim()) <= 1", kApi);
  const int64_t m = a.size(-2), n = a.size(-1);
  TL_CHECK((dim_diff == 1 ? b.size(-1) : b.size(-2)) == m, ValueError, "{}: input.size(-2) should match other.size({})",
           kApi, dim_diff == 1 ? -1 : -2);
  const LstsqDriver d = driver_named(driver);
  // torch computes the default rcond before it dispatches on the dtype, so other dtypes
  // meet this refusal (_get_epsilon's) first.
  double tolerance = 0;
  if (rcond) {
    tolerance = *rcond;
  } else {
    TL_CHECK(a.dtype() == DType::Float || a.dtype() == DType::Double, TypeError,
             "This function doesn't handle types other than float and double");
    const double eps = a.dtype() == DType::Float ? std::numeric_limits<float>::epsilon() : std::numeric_limits<double>::epsilon();
    tolerance = eps * static_cast<double>(std::max(m, n));
  }
  check_lapack_operand(a, "linalg_lstsq_cpu");

  // torch's linalg_solve_is_vector_rhs: b is a (batch of) vector(s) when 1-D or shaped as
  // input.shape[:-1].
  const bool vector_case =
      b.dim() == 1 || (dim_diff == 1 && std::equal(b.sizes().begin(), b.sizes().end(), a.sizes().begin()));
  const Tensor b2 = vector_case ? b.unsqueeze(-1) : b;
  // (torch fails an internal assertion here: b has one dim fewer than input but is not
  // input.shape[:-1].)
  TL_CHECK(b2.size(-2) == m, ValueError,
           "{}: other of shape {} is neither input.shape[:-1] (vectors) nor matrices of input.size(-2) = {} rows", kApi,
           shape_repr(b.sizes()), m);
  check_lapack_operand(b2, "linalg_lstsq_cpu");
  const int64_t nrhs = b2.size(-1), rows = std::max(m, n), k = std::min(m, n);
  const Shape a_batch = batch_shape(a, 2);
  const Shape batch = broadcast_shapes(a_batch, batch_shape(b2, 2));
  Shape buffer_shape = batch;
  buffer_shape.insert(buffer_shape.end(), {rows, nrhs});
  Tensor buffer = column_major(buffer_shape, a.dtype());
  buffer.fill_(0);
  buffer.narrow(-2, 0, m).copy_(b2);

  const bool has_rank = d != LstsqDriver::Gels, has_singular = d == LstsqDriver::Gelsd || d == LstsqDriver::Gelss;
  Tensor rank = has_rank ? zeros(a_batch, DType::Long) : empty({0}, DType::Long);
  Shape singular_shape = a_batch;
  singular_shape.push_back(k);
  Tensor singular = has_singular ? zeros(singular_shape, a.dtype()) : empty({0}, a.dtype());
  const int64_t a_count = batch_count(a, 2);
  Tensor infos = zeros({std::max<int64_t>(1, a_count)}, DType::Int);

  // Which A each right-hand side's matrix is solved with (broadcasting), in B's order.
  const Tensor a_index = arange(a_count, DType::Long).reshape(a_batch).expand(batch).contiguous();
  Tensor a_columns = column_major(a.sizes(), a.dtype());
  a_columns.copy_(a);
  dispatch_real(a.dtype(), [&]<typename T>() {
    const T* a_all = a_columns.data<T>();
    T* b_all = buffer.data<T>();
    int64_t* rank_all = has_rank ? rank.data<int64_t>() : nullptr;
    T* singular_all = has_singular ? singular.data<T>() : nullptr;
    int* info_all = infos.data<int>();
    std::vector<T> matrix(static_cast<size_t>(std::max<int64_t>(1, m * n)));
    std::vector<int> pivots(static_cast<size_t>(std::max<int64_t>(1, n)), 0);
    std::vector<T> scratch_singular(static_cast<size_t>(std::max<int64_t>(1, k)));
    const int mi = static_cast<int>(m), ni = static_cast<int>(n), nrhsi = static_cast<int>(nrhs), lda = ld(m), ldb = ld(rows);
    const T tol = static_cast<T>(tolerance);
    // The SVD drivers pass zero right-hand sides on to routines that call that an
    // illegal argument, and reference LAPACK ends the process for one (torch 1.13 dies
    // there). With no columns to solve for, one zero column gets the same ranks and
    // singular values.
    const bool widen = has_singular && nrhs == 0;
    std::vector<T> zero_column(widen ? static_cast<size_t>(std::max<int64_t>(1, rows)) : 0);
    const int solve_nrhs = widen ? 1 : nrhsi;
    int rank_32 = 0, info = 0, iwork_query = 0;
    T work_query{};
    lstsq_driver(d, mi, ni, solve_nrhs, matrix.data(), lda, widen ? zero_column.data() : b_all, ldb, pivots.data(), tol,
                 &rank_32, scratch_singular.data(), &work_query, -1, &iwork_query, &info);
    std::vector<T> work(static_cast<size_t>(workspace_size(work_query, "lstsq")));
    std::vector<int> iwork(static_cast<size_t>(d == LstsqDriver::Gelsd ? gelsd_iwork_size(m, n, iwork_query) : 1));
    const int64_t* which = a_index.data<int64_t>();
    for (int64_t j = 0; j < a_index.numel(); ++j) {
      const int64_t ai = which[j];
      std::copy_n(a_all + ai * m * n, m * n, matrix.data());
      std::fill(zero_column.begin(), zero_column.end(), T(0));
      lstsq_driver(d, mi, ni, solve_nrhs, matrix.data(), lda, widen ? zero_column.data() : b_all + j * rows * nrhs, ldb,
                   pivots.data(), tol, &rank_32,
                   has_singular ? singular_all + ai * k : scratch_singular.data(), work.data(), static_cast<int>(work.size()),
                   iwork.data(), info_all + ai);
      if (has_rank) rank_all[ai] = rank_32;
    }
  });

  // LAPACK leaves what the residuals are made of in rows n.. of the buffer; torch reports
  // them for tall A except with gelsy, and with the SVD drivers only when every A has
  // full column rank.
  Tensor residuals = empty({0}, a.dtype());
  if (m > n && d != LstsqDriver::Gelsy) {
    bool full_rank = true;
    if (has_rank) {
      const int64_t* r = rank.data<int64_t>();
      for (int64_t i = 0; i < rank.numel(); ++i) full_rank = full_rank && r[i] == n;
    }
    if (full_rank) {
      const Tensor raw = buffer.narrow(-2, n, m - n);
      residuals = sum(mul(raw, raw), {-2}, false);
    }
  }
  Tensor solution = buffer.narrow(-2, 0, n);
  if (m == 0) solution.fill_(0);
  if (vector_case) solution = solution.squeeze(-1);
  check_lapack_info(infos, kApi, infos.numel() <= 1);
  return {solution, residuals, rank, singular};
}

}  // namespace torchlet

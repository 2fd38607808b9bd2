// Matrix products: mm, bmm, addmm, linear and torch.matmul's broadcasting cases, all
// reduced to one batched GEMM; and what torch composes from them (matrix_power,
// multi_dot, vecdot, matrix_exp) or from cumulative products (vander), in torch's order of operations. float32 runs on oneDNN's matmul primitive (strided
// operands passed as they are, alpha/beta as output scale and sum post-op); float64
// and integer types use a plain blocked loop; float16/bool are refused as torch 1.13's
// CPU build refuses them.
#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <type_traits>

#include <torchlet/error.h>
#include <torchlet/ops.h>

#include "tensor/kernels/dnnl_util.h"
#include "tensor/kernels/lapack.h"
#include "tensor/kernels/loop.h"

namespace torchlet {
namespace {

// oneDNN accepts any strides, but its fast kernels want each matrix row- or column-
// major; anything else (sliced columns, expanded rows) is packed first.
Tensor gemm_ready(const Tensor& t) {
  int64_t r = t.dim();
  int64_t s_row = t.stride(r - 2), s_col = t.stride(r - 1);
  int64_t rows = t.size(r - 2), cols = t.size(r - 1);
  bool row_major = s_col == 1 && (s_row == cols || rows == 1);
  bool col_major = s_row == 1 && (s_col == rows || cols == 1);
  bool batch_ok = r < 3 || t.stride(0) != 0 || t.size(0) == 1;
  if ((row_major || col_major) && batch_ok && t.storage_offset() >= 0) return t;
  return t.contiguous();
}

void check_gemm_dtype(DType d, const char* op) {
  // torch's batched products run its bmm kernel, the rest addmm's; each refuses by name.
  const bool batched = std::string_view(op) == "bmm" || std::string_view(op) == "matmul";
  TL_CHECK(d != DType::Half && d != DType::Bool, UnsupportedError, "\"{}\" not implemented for '{}'",
           batched ? "bmm" : "addmm_impl_cpu_", dtype_info(d).scalar_type_name);
  TL_CHECK(!is_complex(d) && !is_quantized(d), UnsupportedError,
           "{}: dtype {} is not supported by torchlet's kernels", op, dtype_name(d));
}

// c[b] = alpha * a[b] @ w[b] + beta * c[b]; a [B,M,K], w [B,K,N], c [B,M,N] contiguous.
// beta == 0 ignores c's contents (NaN included), as BLAS does.
void gemm_f32(const Tensor& a, const Tensor& w, Tensor& c, float alpha, float beta) {
  using namespace dnnl;
  Tensor a2 = gemm_ready(a), w2 = gemm_ready(w);
  memory::desc a_md = kernels::strided_desc(a2), w_md = kernels::strided_desc(w2),
               c_md = kernels::strided_desc(c);
  primitive_attr attr;
  if (alpha != 1.0f) attr.set_output_scales(0, {alpha});
  if (beta != 0.0f) {
    post_ops po;
    po.append_sum(beta);
    attr.set_post_ops(po);
  }
  matmul::primitive_desc pd(matmul::desc(a_md, w_md, c_md), attr, kernels::dnnl_engine());
  dnnl::matmul(pd).execute(kernels::dnnl_stream(),
                     {{DNNL_ARG_SRC, memory(a_md, kernels::dnnl_engine(), a2.data_ptr())},
                      {DNNL_ARG_WEIGHTS, memory(w_md, kernels::dnnl_engine(), w2.data_ptr())},
                      {DNNL_ARG_DST, memory(c_md, kernels::dnnl_engine(), c.data_ptr())}});
  kernels::dnnl_stream().wait();
}

// The same product for float64 and integer types: i-k-j order so the inner loop
// streams rows of w and c, rows of c split over threads.
template <typename T>
void gemm_loop(const Tensor& a, const Tensor& w, Tensor& c, const Scalar& alpha, const Scalar& beta) {
  using M = kernels::opmath_t<T>;
  Tensor ac = a.contiguous(), wc = w.contiguous();
  int64_t B = c.size(0), Mr = c.size(1), N = c.size(2), K = a.size(2);
  const T* pa = ac.data<T>();
  const T* pw = wc.data<T>();
  T* pc = c.data<T>();
  M al = alpha.to_unchecked<M>(), be = beta.to_unchecked<M>();
  bool use_beta = !(beta.to_double() == 0.0);
  parallel_for(0, B * Mr, std::max<int64_t>(1, kernels::kGrainSize / std::max<int64_t>(1, N * K)),
               [&](int64_t lo, int64_t hi) {
                 std::vector<M> acc(static_cast<size_t>(N));
                 for (int64_t bi = lo; bi < hi; ++bi) {
                   int64_t b = bi / Mr, i = bi % Mr;
                   std::fill(acc.begin(), acc.end(), M(0));
                   const T* arow = pa + (b * Mr + i) * K;
                   const T* wb = pw + b * K * N;
                   for (int64_t k = 0; k < K; ++k) {
                     M av = static_cast<M>(arow[k]);
                     const T* wrow = wb + k * N;
                     for (int64_t j = 0; j < N; ++j) acc[static_cast<size_t>(j)] += av * static_cast<M>(wrow[j]);
                   }
                   T* crow = pc + (b * Mr + i) * N;
                   for (int64_t j = 0; j < N; ++j) {
                     M v = al * acc[static_cast<size_t>(j)];
                     if (use_beta) v += be * static_cast<M>(crow[j]);
                     crow[j] = static_cast<T>(v);
                   }
                 }
               });
}

// a [B,M,K] @ w [B,K,N] -> c [B,M,N]; c holds beta's operand on entry when beta != 0.
void gemm(const Tensor& a, const Tensor& w, Tensor& c, const Scalar& alpha, const Scalar& beta,
          const char* op) {
  DType d = c.dtype();
  // Like torch, empty products return before a kernel (and its dtype check) is chosen.
  if (c.numel() == 0) return;
  if (a.size(2) == 0) {  // empty inner dimension: the product is zero
    if (beta.to_double() == 0.0) c.fill_(0);
    else c.copy_(mul(c, beta));
    return;
  }
  check_gemm_dtype(d, op);
  if (d == DType::Float) {
    return gemm_f32(a, w, c, static_cast<float>(alpha.to_double()), static_cast<float>(beta.to_double()));
  }
  dispatch_real(d, op, [&]<typename T>() {
    if constexpr (!std::is_same_v<T, bool>) gemm_loop<T>(a, w, c, alpha, beta);
  });
}

void check_same_dtype(const Tensor& a, const Tensor& b, const char* op) {
  TL_CHECK(a.dtype() == b.dtype(), TypeError, "{}: expected mat1 and mat2 to have the same dtype, but got: {} != {}",
           op, dtype_name(a.dtype()), dtype_name(b.dtype()));
}

}  // namespace

Tensor mm(const Tensor& self, const Tensor& mat2) {
  TL_CHECK(self.dim() == 2, ValueError, "mm: self must be a matrix");
  TL_CHECK(mat2.dim() == 2, ValueError, "mm: mat2 must be a matrix");
  TL_CHECK(self.size(1) == mat2.size(0), ValueError,
           "mat1 and mat2 shapes cannot be multiplied ({}x{} and {}x{})", self.size(0), self.size(1),
           mat2.size(0), mat2.size(1));
  check_same_dtype(self, mat2, "mm");
  Tensor c = empty({1, self.size(0), mat2.size(1)}, self.dtype());
  gemm(self.unsqueeze(0), mat2.unsqueeze(0), c, 1, 0, "mm");
  return c.squeeze(0);
}

Tensor bmm(const Tensor& self, const Tensor& mat2) {
  TL_CHECK(self.dim() == 3, ValueError, "batch1 must be a 3D tensor");
  TL_CHECK(mat2.dim() == 3, ValueError, "batch2 must be a 3D tensor");
  TL_CHECK(self.size(0) == mat2.size(0) && self.size(2) == mat2.size(1), ValueError,
           "Expected size for first two dimensions of batch2 tensor to be: [{}, {}] but got: [{}, {}].",
           self.size(0), self.size(2), mat2.size(0), mat2.size(1));
  check_same_dtype(self, mat2, "bmm");
  Tensor c = empty({self.size(0), self.size(1), mat2.size(2)}, self.dtype());
  gemm(self, mat2, c, 1, 0, "bmm");
  return c;
}

Tensor addmm(const Tensor& self, const Tensor& mat1, const Tensor& mat2, const Scalar& beta,
             const Scalar& alpha) {
  TL_CHECK(mat1.dim() == 2 && mat2.dim() == 2, ValueError, "addmm: mat1 and mat2 must be matrices");
  TL_CHECK(mat1.size(1) == mat2.size(0), ValueError,
           "mat1 and mat2 shapes cannot be multiplied ({}x{} and {}x{})", mat1.size(0), mat1.size(1),
           mat2.size(0), mat2.size(1));
  check_same_dtype(mat1, mat2, "addmm");
  check_same_dtype(self, mat1, "addmm");
  Tensor c = empty({1, mat1.size(0), mat2.size(1)}, mat1.dtype());
  bool use_self = beta.to_double() != 0.0;
  if (use_self) c.squeeze(0).copy_(self.expand({mat1.size(0), mat2.size(1)}));
  gemm(mat1.unsqueeze(0), mat2.unsqueeze(0), c, alpha, use_self ? beta : Scalar(0), "addmm");
  return c.squeeze(0);
}

Tensor dot(const Tensor& self, const Tensor& other) {
  TL_CHECK(self.dim() == 1 && other.dim() == 1, ValueError, "1D tensors expected, but got {}D and {}D tensors",
           self.dim(), other.dim());
  TL_CHECK(self.dtype() == other.dtype(), TypeError, "dot : expected both vectors to have same dtype, but found {} and {}",
           dtype_info(self.dtype()).scalar_type_name, dtype_info(other.dtype()).scalar_type_name);
  TL_CHECK(self.size(0) == other.size(0), ValueError,
           "inconsistent tensor size, expected tensor [{}] and src [{}] to have the same number of "
           "elements, but got {} and {} elements respectively",
           self.size(0), other.size(0), self.size(0), other.size(0));
  const DType d = self.dtype();
  TL_CHECK(d != DType::Half && d != DType::Bool && !is_complex(d) && !is_quantized(d), UnsupportedError,
           "\"dot\" not implemented for '{}'", dtype_info(d).scalar_type_name);
  Tensor out = empty({}, d);
  const int64_t n = self.size(0), sx = self.stride(0), sy = other.stride(0);
  dispatch_real(d, "dot", [&]<typename T>() {
    const T* x = self.data<T>();
    const T* y = other.data<T>();
    if constexpr (std::is_integral_v<T>) {
      // Integer dots wrap in the element type, as torch's do; unsigned arithmetic is the
      // defined way to wrap.
      using U = std::make_unsigned_t<std::conditional_t<std::is_same_v<T, bool>, uint8_t, T>>;  // (bool: refused above)
      U acc = 0;
      for (int64_t i = 0; i < n; ++i) acc = static_cast<U>(acc + static_cast<U>(x[i * sx]) * static_cast<U>(y[i * sy]));
      *out.data<T>() = static_cast<T>(acc);
    } else if constexpr (std::is_same_v<T, BFloat16> || std::is_same_v<T, Half>) {  // (float16: refused above)
      // torch's bfloat16 dot is c10::BFloat16 arithmetic: each product and each sum rounded.
      float acc = 0;
      for (int64_t i = 0; i < n; ++i) {
        const float product = static_cast<float>(T(static_cast<float>(x[i * sx]) * static_cast<float>(y[i * sy])));
        acc = static_cast<float>(T(acc + product));
      }
      *out.data<T>() = T(acc);
    } else {
      T acc = 0;
      for (int64_t i = 0; i < n; ++i) acc += x[i * sx] * y[i * sy];
      *out.data<T>() = acc;
    }
  });
  return out;
}

Tensor matmul(const Tensor& self, const Tensor& other) {
  int64_t da = self.dim(), db = other.dim();
  TL_CHECK(da > 0 && db > 0, ValueError,
           "both arguments to matmul need to be at least 1D, but they are {}D and {}D", da, db);
  if (da == 1 && db == 1) return dot(self, other);
  if (da == 2 && db == 1) return mm(self, other.unsqueeze(1)).squeeze(1);
  if (da == 1 && db == 2) return mm(self.unsqueeze(0), other).squeeze(0);
  if (da == 2 && db == 2) return mm(self, other);
  // A batched left side times a matrix: fold the batch into rows (one GEMM).
  if (da >= 3 && db <= 2) {
    Tensor b2 = db == 1 ? other.unsqueeze(1) : other;
    Shape out_shape(self.sizes().begin(), self.sizes().end() - 1);
    out_shape.push_back(b2.size(1));
    Tensor rows = self.reshape({-1, self.size(-1)});
    Tensor r = mm(rows, b2).reshape(out_shape);
    return db == 1 ? r.squeeze(-1) : r;
  }
  // General case: broadcast the batch dimensions and run one batched GEMM.
  Tensor a = da == 1 ? self.unsqueeze(0) : self;
  Tensor b = db == 1 ? other.unsqueeze(1) : other;
  TL_CHECK(a.size(-1) == b.size(-2), ValueError,
           "Expected size for first two dimensions of batch2 tensor to be: [{}, {}] but got: [{}, {}].",
           a.size(-1), b.size(-2), b.size(-2), b.size(-1));
  check_same_dtype(a, b, "matmul");
  Shape ba(a.sizes().begin(), a.sizes().end() - 2), bb(b.sizes().begin(), b.sizes().end() - 2);
  Shape batch = broadcast_shapes(ba, bb);
  int64_t nb = 1;
  for (int64_t s : batch) nb *= s;
  Shape ea = batch, eb = batch;
  ea.insert(ea.end(), {a.size(-2), a.size(-1)});
  eb.insert(eb.end(), {b.size(-2), b.size(-1)});
  Tensor a3 = a.expand(ea).reshape({nb, a.size(-2), a.size(-1)});
  Tensor b3 = b.expand(eb).reshape({nb, b.size(-2), b.size(-1)});
  Tensor c = empty({nb, a.size(-2), b.size(-1)}, a.dtype());
  gemm(a3, b3, c, 1, 0, "matmul");
  Shape out = batch;
  if (da > 1) out.push_back(a.size(-2));
  if (db > 1) out.push_back(b.size(-1));
  return c.reshape(out);
}

Tensor linear(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias) {
  TL_CHECK(weight.dim() == 2 || weight.dim() == 1, ValueError, "linear: weight must be 1-D or 2-D");
  if (input.dim() == 2 && weight.dim() == 2 && bias && bias->defined()) {
    return addmm(*bias, input, weight.t());
  }
  Tensor out = matmul(input, weight.t());
  if (bias && bias->defined()) out = add(out, *bias);
  return out;
}

// --- compositions ---------------------------------------------------------------

Tensor matrix_power(const Tensor& a, int64_t n) {
  kernels::lapack::check_square(a, "linalg.matrix_power");
  if (n == 0) return a.clone().copy_(eye(a.size(-2), std::nullopt, a.dtype()));
  if (n == 1) return a.clone();
  if (n == -1) return inverse(a);
  const Tensor base = n < 0 ? inverse(a) : a;
  // n = INT64_MIN has no positive counterpart; its magnitude is still a valid bit count.
  uint64_t k = n < 0 ? 0 - static_cast<uint64_t>(n) : static_cast<uint64_t>(n);
  if (k == 2) return matmul(base, base);
  if (k == 3) return matmul(matmul(base, base), base);
  // Binary powering from the lowest bit, each power of two squared once, as torch does.
  Tensor square, result;
  while (k > 0) {
    const bool bit = k % 2 == 1;
    k /= 2;
    square = square.defined() ? matmul(square, square) : base;
    if (bit) result = result.defined() ? matmul(result, square) : square;
  }
  return result;
}

namespace {

// sum_j c[j] * m[j], added in order, in the matrices' dtype (torch's
// _compute_linear_combination).
template <typename T>
Tensor combination(const std::vector<Tensor>& m, const std::vector<T>& c) {
  Tensor out = mul(m[0], static_cast<double>(c[0]));
  for (size_t j = 1; j < c.size(); ++j) out = add(out, mul(m[j], static_cast<double>(c[j])));
  return out;
}

// Bader, Blanes and Casas's evaluations of the Taylor polynomials of degree 8, 12 and 18
// in 3, 4 and 5 matrix products, with their coefficients as torch rounds them to T.
template <typename T>
Tensor taylor_8(const Tensor& a, const Tensor& id) {
  const T sqrt_177 = static_cast<T>(13.30413469565007072504);
  const T x3 = static_cast<T>(2.0 / 3.0);
  const double r = sqrt_177, t = x3;  // torch's arithmetic on the rounded constants is double
  const T x1 = static_cast<T>(t * ((1.0 + r) / 88.0)), x2 = static_cast<T>(t * ((1.0 + r) / 352.0));
  const T x4 = static_cast<T>((-271.0 + 29.0 * r) / (315.0 * t)), x5 = static_cast<T>((-11.0 + 11.0 * r) / (1260.0 * t));
  const T x6 = static_cast<T>((-99.0 + 11.0 * r) / (5040.0 * t)), x7 = static_cast<T>((89.0 - r) / (5040.0 * t));
  const T y2 = static_cast<T>((857.0 - 58.0 * r) / 630.0);
  const Tensor a2 = mm(a, a);
  const Tensor a4 = mm(a2, combination<T>({a, a2}, {x1, x2}));
  const Tensor a8 = mm(combination<T>({a2, a4}, {x3, T(1)}), combination<T>({id, a, a2, a4}, {x4, x5, x6, x7}));
  return combination<T>({id, a, a2, a4, a8}, {T(1), T(1), y2, T(0), T(1)});
}

template <typename T>
Tensor taylor_12(const Tensor& a, const Tensor& id) {
  static constexpr double kB[4][4] = {
      {9.0198e-16, 0.46932117595418237389, -0.20099424927047284052, -0.04623946134063071740},
      {5.31597895759871264183, 1.19926790417132231573, 0.01179296240992997031, 0.01108844528519167989},
      {0.18188869982170434744, 0.05502798439925399070, 0.09351590770535414968, 0.00610700528898058230},
      {-2.0861320e-13, -0.13181061013830184015, -0.02027855540589259079, -0.00675951846863086359}};
  const Tensor a2 = mm(a, a);
  const std::vector<Tensor> powers = {id, a, a2, mm(a, a2)};
  std::vector<Tensor> b;
  for (const auto& row : kB)
    b.push_back(combination<T>(powers, {static_cast<T>(row[0]), static_cast<T>(row[1]), static_cast<T>(row[2]),
                                        static_cast<T>(row[3])}));
  b[2] = add(b[2], mm(b[3], b[3]));
  return add(b[0], mm(add(b[1], b[2]), b[2]));
}

template <typename T>
Tensor taylor_18(const Tensor& a, const Tensor& id) {
  static constexpr double kB[5][5] = {
      {0., -1.00365581030144618291e-01, -8.02924648241156932449e-03, -8.92138498045729985177e-04, 0.},
      {0., 3.97849749499645077844e-01, 1.36783778460411720168e+00, 4.98289622525382669416e-01,
       -6.37898194594723280150e-04},
      {-1.09676396052962061844e+01, 1.68015813878906206114e+00, 5.71779846478865511061e-02,
       -6.98210122488052056106e-03, 3.34975017086070470649e-05},
      {-9.04316832390810593223e-02, -6.76404519071381882256e-02, 6.75961301770459654925e-02,
       2.95552570429315521194e-02, -1.39180257516060693404e-05},
      {0., 0., -9.23364619367118555360e-02, -1.69364939002081722752e-02, -1.40086798182036094347e-05}};
  const Tensor a2 = mm(a, a);
  const Tensor a3 = mm(a, a2);
  const std::vector<Tensor> powers = {id, a, a2, a3, mm(a3, a3)};
  std::vector<Tensor> b;
  for (const auto& row : kB) {
    std::vector<T> c;
    for (double x : row) c.push_back(static_cast<T>(x));
    b.push_back(combination<T>(powers, c));
  }
  b[3] = add(b[3], mm(b[0], b[4]));
  return add(b[1], mm(add(b[2], b[3]), b[3]));
}

// One matrix's exponential (Note [matrix_exp]); `m` is n x n (n > 1), float or double.
template <typename T>
Tensor matrix_exp_one(const Tensor& m) {
  const int64_t n = m.size(0);
  const Tensor mc = m.contiguous();
  const T* p = mc.data<T>();
  T norm = 0;  // the 1-norm: the largest column sum of magnitudes, in T as torch sums it
  bool nan = false;
  for (int64_t j = 0; j < n; ++j) {
    T col = 0;
    for (int64_t i = 0; i < n; ++i) col += std::abs(p[i * n + j]);
    nan |= std::isnan(col);
    norm = std::max(norm, col);
  }
  // A NaN norm selects no degree: torch never writes that matrix's result (its memory
  // holds whatever it held); torchlet's is zeros.
  if (nan) return zeros({n, n}, m.dtype());
  // The norms up to which each degree (1, 2, 4, 8, 12, 18) is accurate to T's roundoff.
  static constexpr std::array<double, 6> kFloatNorms = {1.192092800768788e-07, 5.978858893805233e-04,
                                                        5.116619363445086e-02, 5.800524627688768e-01,
                                                        1.461661507209034e+00, 3.010066362817634e+00};
  static constexpr std::array<double, 6> kDoubleNorms = {2.220446049250313e-16, 2.580956802971767e-08,
                                                         3.397168839976962e-04, 4.991228871115323e-02,
                                                         2.996158913811580e-01, 1.090863719290036e+00};
  std::array<T, 6> theta{};
  for (size_t i = 0; i < theta.size(); ++i)
    theta[i] = static_cast<T>(std::is_same_v<T, float> ? kFloatNorms[i] : kDoubleNorms[i]);
  const Tensor id = eye(n, std::nullopt, m.dtype());
  if (norm < theta[4]) {
    if (norm <= theta[0]) return add(id, m);
    if (norm <= theta[1]) return add(add(id, m), div(mm(m, m), 2.0));
    if (norm <= theta[2]) {
      const Tensor a2 = mm(m, m);
      const Tensor a3 = mm(a2, combination<T>({id, m, a2}, {T(1 / 2.0), T(1 / 6.0), T(1 / 24.0)}));
      return add(add(id, m), a3);
    }
    if (norm <= theta[3]) return taylor_8<T>(m, id);
    return taylor_12<T>(m, id);
  }
  // Degree 18, past its norm on m / 2^s, squared s times.
  const T scaled_log = std::ceil(std::log2(norm / theta[5]));
  // Past 2^1000 the scale itself overflows a double (torch's int64 2^s wraps earlier);
  // the exponential overflowed long before: NaN, as torch's is for an infinite norm.
  if (std::isinf(norm) || scaled_log > 1000) return full({n, n}, std::numeric_limits<double>::quiet_NaN(), m.dtype());
  const int64_t squarings = scaled_log > 0 ? static_cast<int64_t>(scaled_log) : 0;
  Tensor e = taylor_18<T>(squarings > 0 ? div(m, std::ldexp(1.0, static_cast<int>(squarings))) : m, id);
  for (int64_t i = 0; i < squarings; ++i) e = mm(e, e);
  return e;
}

}  // namespace

// Note [matrix_exp]: torch's algorithm, step for step: each matrix's 1-norm picks the
// Taylor degree (1, 2, 4, 8, 12 or 18) accurate to the dtype's roundoff at that norm,
// evaluated with Bader, Blanes and Casas's few-product formulas (their coefficients
// rounded as torch rounds them); past the degree-18 norm the matrix is scaled by 2^-s
// and the result squared s times. torchlet follows the same formulas rather than a
// plain Taylor sum because torch's degree-8 formula is itself off by up to 2e-12
// (float64) and 2e-5 (float32) relative, and torch's results are what users compare to.
Tensor matrix_exp(const Tensor& a) {
  kernels::lapack::check_square(a, "linalg.matrix_exp");
  // torch 1.13 refuses the low-precision types on CPU in its kernels, with these words.
  TL_CHECK(a.dtype() != DType::Half, UnsupportedError, "\"log2_vml_cpu\" not implemented for 'Half'");
  // torch 1.13's CPU result for BFloat16 is wrong (e^0.3 I comes out as -1.3e30 I):
  // refused rather than matched.
  TL_CHECK(a.dtype() != DType::BFloat16, UnsupportedError,
           "linalg.matrix_exp: torchlet does not compute BFloat16 matrices (torch 1.13's CPU kernel returns wrong "
           "values for them)");
  TL_CHECK(is_floating(a.dtype()) || is_complex(a.dtype()), TypeError,
           "matrix_exp: Expected a floating point or complex tensor as input. Got {}",
           dtype_info(a.dtype()).scalar_type_name);
  TL_CHECK(!is_complex(a.dtype()), UnsupportedError, "linalg.matrix_exp: torchlet has no complex matrix products yet");
  const int64_t n = a.size(-1);
  if (a.numel() == 0) return empty(a.sizes(), a.dtype());
  if (n == 1) return exp(a);  // as torch does
  const Tensor batch = a.contiguous().reshape({-1, n, n});
  std::vector<Tensor> results;
  results.reserve(static_cast<size_t>(batch.size(0)));
  for (int64_t i = 0; i < batch.size(0); ++i) {
    const Tensor m = batch.select(0, i);
    results.push_back(a.dtype() == DType::Float ? matrix_exp_one<float>(m) : matrix_exp_one<double>(m));
  }
  return stack(results).reshape(a.sizes());
}

namespace {

// a * b * c wrapping at 64 bits as torch's int64 cost arithmetic does in practice, without
// signed overflow's undefined behaviour: empty matrices can have huge other sizes.
int64_t cost_product(int64_t a, int64_t b, int64_t c) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) * static_cast<uint64_t>(b) * static_cast<uint64_t>(c));
}
int64_t cost_sum(int64_t a, int64_t b) { return static_cast<int64_t>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b)); }

// The product of chain[i..j] split where `split` says (torch's matrix_chain_multiplication).
Tensor chain_product(const std::vector<Tensor>& chain, const std::vector<std::vector<size_t>>& split, size_t i,
                     size_t j) {
  if (i == j) return chain[i];
  return mm(chain_product(chain, split, i, split[i][j]), chain_product(chain, split, split[i][j] + 1, j));
}

}  // namespace

Tensor multi_dot(const std::vector<Tensor>& tensors) {
  const size_t n = tensors.size();
  TL_CHECK(n >= 2, ValueError, "multi_dot(): expected at least 2 tensors but got {}", n);
  std::vector<Tensor> chain(tensors);
  Shape out_shape;
  // A vector first is a row, a vector last a column; the result drops them again.
  const Tensor& first = tensors.front();
  TL_CHECK(first.dim() == 1 || first.dim() == 2, ValueError, "multi_dot(): the first tensor must be 1D or 2D but got {}D",
           first.dim());
  if (first.dim() == 1) chain.front() = first.unsqueeze(0);
  else out_shape.push_back(first.size(0));
  const Tensor& last = tensors.back();
  TL_CHECK(last.dim() == 1 || last.dim() == 2, ValueError, "multi_dot(): the last tensor must be 1D or 2D but got {}D",
           last.dim());
  if (last.dim() == 1) chain.back() = last.unsqueeze(-1);
  else out_shape.push_back(last.size(1));
  for (size_t i = 1; i + 1 < n; ++i)
    TL_CHECK(tensors[i].dim() == 2, ValueError, "multi_dot(): tensor {} must be 2D but got {}D", i, tensors[i].dim());
  for (size_t i = 1; i < n; ++i) {
    TL_CHECK(chain[i].dtype() == chain[0].dtype(), TypeError,
             "multi_dot(): all tensors must have be the same dtype but tensor 0 is {} and tensor {} {}",
             type_meta_name(chain[0].dtype()), i, type_meta_name(chain[i].dtype()));
    TL_CHECK(chain[i - 1].size(-1) == chain[i].size(0), ValueError,
             "multi_dot(): tensors {} and {} with shapes {} and {} cannot be multiplied", i - 1, i,
             shape_repr(tensors[i - 1].sizes()), shape_repr(tensors[i].sizes()));
  }
  Tensor result;
  if (n == 2) {
    result = mm(chain[0], chain[1]);
  } else if (n == 3) {
    // (a x b)(b x c)(c x d): left first costs a*c*(b+d), right first b*d*(a+c).
    const int64_t a = chain[0].size(0), b = chain[1].size(0), c = chain[2].size(0), d = chain[2].size(1);
    result = cost_product(a, c, cost_sum(b, d)) > cost_product(b, d, cost_sum(a, c)) ? mm(chain[0], mm(chain[1], chain[2])) : mm(mm(chain[0], chain[1]), chain[2]);
  } else {
    // The textbook matrix-chain order: cost[i][j] the fewest multiplications for
    // chain[i..j], split[i][j] where that product splits. Matrix i is dims[i] x dims[i + 1].
    std::vector<int64_t> dims(n + 1);
    for (size_t i = 0; i < n; ++i) dims[i] = chain[i].size(0);
    dims[n] = chain[n - 1].size(1);
    std::vector<std::vector<int64_t>> cost(n, std::vector<int64_t>(n, 0));
    std::vector<std::vector<size_t>> split(n, std::vector<size_t>(n, 0));
    for (size_t len = 1; len < n; ++len) {
      for (size_t i = 0; i + len < n; ++i) {
        const size_t j = i + len;
        cost[i][j] = std::numeric_limits<int64_t>::max();
        for (size_t k = i; k < j; ++k) {
          const int64_t q = cost_sum(cost_sum(cost[i][k], cost[k + 1][j]), cost_product(dims[i], dims[k + 1], dims[j + 1]));
          if (q < cost[i][j]) {
            cost[i][j] = q;
            split[i][j] = k;
          }
        }
      }
    }
    result = chain_product(chain, split, 0, n - 1);
  }
  return result.view(out_shape);
}

Tensor vecdot(const Tensor& x, const Tensor& y, int64_t dim) {
  kernels::lapack::check_floating(x, "linalg.vecdot");
  TL_CHECK(x.dtype() == y.dtype(), TypeError,
           "linalg.vecdot: Expected x and y to have the same dtype, but found x of type {} and y of type {} instead",
           dtype_info(x.dtype()).scalar_type_name, dtype_info(y.dtype()).scalar_type_name);
  if (x.dim() == 1 && y.dim() == 1) return dot(x, y);  // torch takes vdot here
  return sum(mul(x, y), {dim});
}

Tensor linalg_vander(const Tensor& x, std::optional<int64_t> n) {
  const DType t = x.dtype();
  TL_CHECK(t == DType::Float || t == DType::Double || is_complex(t) || is_integral(t, false), TypeError,
           "linalg.vander supports floating point, complex, and integer tensors, but got {}",
           dtype_info(t).scalar_type_name);
  const Tensor x1 = x.dim() == 0 ? x.unsqueeze(-1) : x;
  Shape shape(x1.sizes().begin(), x1.sizes().end());
  const int64_t columns = n.value_or(shape.back());
  TL_CHECK(columns > 1, ValueError, "N must be greater than 1.");
  shape.push_back(columns - 1);
  const Tensor powers = cumprod(x1.unsqueeze(-1).expand(shape), -1);
  shape.back() = 1;
  return cat({ones(shape, powers.dtype()), powers}, -1);
}

Tensor vander(const Tensor& x, std::optional<int64_t> n, bool increasing) {
  TL_CHECK(x.dim() == 1, ValueError, "x must be a one-dimensional tensor.");
  const int64_t columns = n.value_or(x.size(0));
  TL_CHECK(columns >= 0, ValueError, "N must be non-negative.");
  Tensor result = empty({x.size(0), columns}, promote_types(x.dtype(), DType::Long));
  if (columns > 0) {
    result.fill_(1);
    if (columns > 1) {
      Tensor powers = result.slice(1, 1);
      powers.copy_(x.unsqueeze(1));
      powers.copy_(cumprod(powers, 1));
    }
  }
  return increasing ? result : flip(result, {1});
}

}  // namespace torchlet

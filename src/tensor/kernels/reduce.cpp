// Reductions (sum, mean, prod, amax/amin, max/min with indices, argmax/argmin, all/any,
// var/std, norm, logsumexp) and scans (cumsum, cumprod). Each moves the reduced
// dimensions last so every output element reduces one contiguous row, rows run in
// parallel; sums are pairwise so float32 stays accurate on long rows, as torch's
// cascade sum does. Accumulation types follow torch: integer sums accumulate in int64.
#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>

#include <torchlet/error.h>
#include <torchlet/ops.h>

#include "tensor/kernels/loop.h"
#include "tensor/kernels/norm.h"
#include "tensor/kernels/row_sums.h"

namespace torchlet {
namespace {

using kernels::opmath_t;
using kernels::cascade_sum;

// |v| for the norms; bool and uint8 accumulate unsigned, where |v| is v (clang warns
// that std::abs of an unsigned value does nothing).
template <typename A>
A magnitude(A v) {
  if constexpr (std::is_unsigned_v<A>) return v;
  else return std::abs(v);
}

// self viewed as [n_out, n_red] rows (reduced dims last, contiguous), and the shape
// of the result.
struct Rows {
  Tensor rows;
  Shape out_shape;
  int64_t n_out = 1;
  int64_t n_red = 1;
};

// `memory_order`: each row walks its elements in the order they lie in memory (largest
// stride outermost), as torch's reduction iterator does, rather than in index order.
Rows to_rows(const Tensor& self, IntList dims, bool keepdim, const char* op, bool memory_order = false) {
  int64_t nd = self.dim();
  std::vector<bool> reduced(static_cast<size_t>(std::max<int64_t>(nd, 1)), dims.empty());
  for (int64_t d : dims) {
    int64_t w = wrap_dim(d, std::max<int64_t>(nd, 1), op);
    TL_CHECK(!(reduced[static_cast<size_t>(w)] && !dims.empty() && std::count(dims.begin(), dims.end(), d) > 1),
             ValueError, "{}: dim {} appears multiple times in the list of dims", op, w);
    reduced[static_cast<size_t>(w)] = true;
  }
  Rows r;
  Shape perm, kept_sizes;
  int64_t n_red = 1;
  for (int64_t d = 0; d < nd; ++d) {
    if (reduced[static_cast<size_t>(d)]) {
      n_red *= self.size(d);
      if (keepdim) r.out_shape.push_back(1);
    } else {
      perm.push_back(d);
      r.out_shape.push_back(self.size(d));
      r.n_out *= self.size(d);
    }
  }
  const size_t first_reduced = perm.size();
  for (int64_t d = 0; d < nd; ++d) {
    if (reduced[static_cast<size_t>(d)]) perm.push_back(d);
  }
  if (memory_order)
    std::stable_sort(perm.begin() + static_cast<std::ptrdiff_t>(first_reduced), perm.end(),
                     [&](int64_t a, int64_t b) { return self.stride(a) > self.stride(b); });
  r.n_red = n_red;
  Tensor p = nd == 0 ? self : self.permute(perm);
  r.rows = p.reshape({r.n_out, n_red}).contiguous();
  return r;
}

// out[i] = f(row i) for every row, rows split over threads.
template <typename Out, typename In, typename F>
void for_rows(const Rows& r, Tensor& out, const F& f) {
  const In* base = r.rows.data<In>();
  Out* o = out.data<Out>();
  int64_t n = r.n_red;
  int64_t grain = std::max<int64_t>(1, kernels::kGrainSize / std::max<int64_t>(n, 1));
  parallel_for(0, r.n_out, grain, [&](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i) o[i] = f(base + i * n, n);
  });
}

// torch's sum of one row into one value. Past a grain of elements torch splits it over
// its threads (two_pass_reduction): thread t sums the t-th of equal chunks into its own
// slot, then the slots, one per thread, are summed the same way. With as many threads as
// torch has, this is torch's value.
template <typename A, typename T, typename Map>
A parallel_sum(const T* p, int64_t n, const Map& map) {
  const int64_t threads = std::max(1, get_num_threads());
  if (n < kernels::kGrainSize || threads == 1) return cascade_sum<A>(p, n, map);
  const int64_t chunks = std::min(threads, (n + kernels::kGrainSize - 1) / kernels::kGrainSize);
  const int64_t chunk = (n + chunks - 1) / chunks;
  std::vector<A> partial(static_cast<size_t>(threads), A(0));
  parallel_for(0, chunks, 1, [&](int64_t b, int64_t e) {
    for (int64_t c = b; c < e; ++c) {
      const int64_t lo = c * chunk, hi = std::min(n, lo + chunk);
      partial[static_cast<size_t>(c)] = A(0) + cascade_sum<A>(p + lo, hi - lo, map);
    }
  });
  return A(0) + cascade_sum<A>(partial.data(), threads, [](A v) { return v; });
}

// torch's accumulation type of a sum: int64 for integral and bool inputs.
DType sum_result_dtype(DType in, std::optional<DType> dtype) {
  if (dtype) return *dtype;
  return is_integral(in, true) ? DType::Long : in;
}

void check_real(DType d, const char* op) {
  TL_CHECK(!is_complex(d) && !is_quantized(d), UnsupportedError,
           "{}: dtype {} is not supported by torchlet's kernels", op, dtype_name(d));
}

// torch 1.13 has no float16 CPU kernel for prod, cumsum, cumprod and logsumexp (nor
// bfloat16 for prod); like torch, an empty input never reaches the kernel.
void refuse_reduced_float(const Tensor& in, DType d, const char* kernel, bool bfloat16_too = false,
                          bool even_empty = false) {
  if (in.numel() == 0 && !even_empty) return;
  TL_CHECK(d != DType::Half, UnsupportedError, "\"{}\" not implemented for 'Half'", kernel);
  TL_CHECK(!(bfloat16_too && d == DType::BFloat16), UnsupportedError,
           "\"{}\" not implemented for 'BFloat16'", kernel);
}

struct Identity {
  template <typename A>
  A operator()(A v) const {
    return v;
  }
};

// acc[j] (+)= sum over r < rows of p[r * stride + j], j < inner, pairwise over the rows
// (halves until 32 rows remain, summed in order), so the error grows with log(rows) as
// the row sums' does. `tmp` holds one scratch row per level of the recursion.
template <typename A, typename T>
TL_VECTOR_CLONES void add_rows(const T* p, int64_t rows, int64_t stride, int64_t inner, A* __restrict acc, bool init,
                               A* tmp) {
  if (rows <= 32) {
    for (int64_t r = 0; r < rows; ++r) {
      const T* __restrict row = p + r * stride;
      if (init && r == 0) {
        for (int64_t j = 0; j < inner; ++j) acc[j] = static_cast<A>(row[j]);
      } else {
        for (int64_t j = 0; j < inner; ++j) acc[j] += static_cast<A>(row[j]);
      }
    }
    if (rows == 0 && init) std::fill(acc, acc + inner, A(0));
    return;
  }
  const int64_t half = rows / 2;
  add_rows<A, T>(p, half, stride, inner, tmp, true, tmp + inner);
  add_rows<A, T>(p + half * stride, rows - half, stride, inner, tmp, false, tmp + inner);
  if (init) {
    for (int64_t j = 0; j < inner; ++j) acc[j] = tmp[j];
  } else {
    for (int64_t j = 0; j < inner; ++j) acc[j] += tmp[j];
  }
}

// sum/mean over one run of consecutive dimensions with kept dimensions after it, on a
// contiguous float/double tensor: viewed as [outer, rows, inner], out[o, :] is the sum of
// `rows` contiguous rows, added a whole row at a time (vectorised across `inner`) instead
// of transposing the reduced dimensions last. Returns an undefined tensor when the
// shape does not fit.
Tensor sum_outer(const Tensor& x, IntList dims, bool keepdim, bool mean, const char* op) {
  const int64_t nd = x.dim();
  if (nd < 2 || dims.empty() || !x.is_contiguous() || (x.dtype() != DType::Float && x.dtype() != DType::Double)) {
    return Tensor();
  }
  std::vector<bool> reduced(static_cast<size_t>(nd), false);
  for (int64_t d : dims) {
    int64_t w = wrap_dim(d, nd, op);
    if (reduced[static_cast<size_t>(w)]) return Tensor();  // repeated dims: the general path reports it
    reduced[static_cast<size_t>(w)] = true;
  }
  int64_t first = -1, last = -1;
  for (int64_t d = 0; d < nd; ++d) {
    if (!reduced[static_cast<size_t>(d)]) continue;
    if (first < 0) first = d;
    else if (last != d - 1) return Tensor();  // not one run
    last = d;
  }
  if (last == nd - 1) return Tensor();  // reduces the innermost dimension: rows already
  int64_t outer = 1, rows = 1, inner = 1;
  Shape out_shape;
  for (int64_t d = 0; d < nd; ++d) {
    int64_t size = x.size(d);
    if (d < first) outer *= size;
    else if (d <= last) rows *= size;
    else inner *= size;
    if (!reduced[static_cast<size_t>(d)]) out_shape.push_back(size);
    else if (keepdim) out_shape.push_back(1);
  }
  if (rows < 2 || inner < 8) return Tensor();
  Tensor out = empty(out_shape, x.dtype());
  if (out.numel() == 0) return out;
  kernels::dispatch_floating(x.dtype(), op, [&]<typename T>() {
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
      const T* src = x.data<T>();
      T* dst = out.data<T>();
      int depth = 1;
      for (int64_t r = rows; r > 32; r /= 2) ++depth;
      // Split `inner` into column blocks so every thread has work and scratch stays small.
      const int64_t block = std::min<int64_t>(inner, 1024);
      const int64_t blocks_per_row = (inner + block - 1) / block;
      parallel_for(0, outer * blocks_per_row,
                   std::max<int64_t>(1, kernels::kGrainSize / std::max<int64_t>(rows * block, 1)),
                   [&](int64_t lo, int64_t hi) {
                     std::vector<T> tmp(static_cast<size_t>(block * depth));
                     for (int64_t t = lo; t < hi; ++t) {
                       int64_t o = t / blocks_per_row, j0 = (t % blocks_per_row) * block;
                       int64_t w = std::min(block, inner - j0);
                       T* acc = dst + o * inner + j0;
                       add_rows<T, T>(src + o * rows * inner + j0, rows, inner, w, acc, true, tmp.data());
                       if (mean) {
                         const T count = static_cast<T>(rows);
                         for (int64_t j = 0; j < w; ++j) acc[j] /= count;
                       }
                     }
                   });
    }
  });
  return out;
}

Tensor sum_impl(const Tensor& self, IntList dim, bool keepdim, std::optional<DType> dtype,
                bool mean, const char* op) {
  DType rd = sum_result_dtype(self.dtype(), dtype);
  check_real(rd, op);
  Tensor x = self.to(rd);
  if (Tensor out = sum_outer(x, dim, keepdim, mean, op); out.defined()) return out;
  Rows r = to_rows(x, dim, keepdim, op);
  Tensor out = empty(r.out_shape, rd);
  dispatch_real(rd, op, [&]<typename T>() {
    using A = std::conditional_t<std::is_same_v<T, bool>, int64_t, opmath_t<T>>;
    // A sum divides by 1, which changes no value.
    A divisor = 1;
    if constexpr (std::is_floating_point_v<A>) {
      if (mean) divisor = static_cast<A>(static_cast<double>(r.n_red));
    }
    const T* rows = r.rows.data<T>();
    T* o = out.data<T>();
    if (r.n_out == 1) {
      o[0] = static_cast<T>(parallel_sum<A>(rows, r.n_red, Identity{}) / divisor);
      return;
    }
    kernels::parallel_divided_row_sums<A>(rows, r.n_out, r.n_red, divisor, o);
  });
  return out;
}

}  // namespace

Tensor sum(const Tensor& self, IntList dim, bool keepdim, std::optional<DType> dtype) {
  return sum_impl(self, dim, keepdim, dtype, false, "sum");
}

Tensor sum_to_size(const Tensor& self, IntList size) {
  const IntList have = self.sizes();
  const size_t lead = have.size() >= size.size() ? have.size() - size.size() : 0;
  bool expandable = size.size() <= have.size();
  for (size_t i = 0; expandable && i < size.size(); ++i) {
    expandable = size[i] == have[lead + i] || size[i] == 1;
  }
  TL_CHECK(expandable, ValueError, "size {{{}}} is not expandable to size {{{}}}.", shape_repr(size), shape_repr(have));
  // torch's sum_to: the leading dimensions and each one `size` makes 1, kept as 1.
  Shape reduced;
  for (size_t i = 0; i < have.size(); ++i) {
    if (i < lead || (size[i - lead] == 1 && have[i] != 1)) reduced.push_back(static_cast<int64_t>(i));
  }
  if (reduced.empty()) return self;
  Tensor out = sum(self, reduced, true);
  return lead > 0 ? out.view(size) : out;
}

Tensor mean(const Tensor& self, IntList dim, bool keepdim, std::optional<DType> dtype) {
  DType d = dtype.value_or(self.dtype());
  TL_CHECK(is_floating(d) || is_complex(d), TypeError,
           "mean(): could not infer output dtype. Input dtype must be either a floating point or "
           "complex dtype. Got: {}",
           dtype_info(d).scalar_type_name);
  return sum_impl(self, dim, keepdim, d, true, "mean");
}

Tensor prod(const Tensor& self, std::optional<int64_t> dim, bool keepdim, std::optional<DType> dtype) {
  DType rd = sum_result_dtype(self.dtype(), dtype);
  check_real(rd, "prod");
  refuse_reduced_float(self, rd, "prod_cpu", true);
  Tensor x = self.to(rd);
  Shape dims;
  if (dim) dims.push_back(*dim);
  Rows r = to_rows(x, dims, dim ? keepdim : false, "prod");
  Tensor out = empty(r.out_shape, rd);
  dispatch_real(rd, "prod", [&]<typename T>() {
    using A = opmath_t<T>;
    for_rows<T, T>(r, out, [](const T* p, int64_t n) {
      if constexpr (std::is_same_v<T, bool>) {
        bool acc = true;
        for (int64_t i = 0; i < n; ++i) acc = acc && p[i];
        return acc;
      } else {
        A acc = 1;
        for (int64_t i = 0; i < n; ++i) {
          if constexpr (std::is_integral_v<A>) {
            acc = static_cast<A>(static_cast<std::make_unsigned_t<A>>(acc) * static_cast<std::make_unsigned_t<A>>(p[i]));
          } else {
            acc *= static_cast<A>(p[i]);
          }
        }
        return static_cast<T>(acc);
      }
    });
  });
  return out;
}

namespace {

// NaN-propagating extremum of a row; `is_max` chooses the direction.
template <typename T>
T row_extreme(const T* p, int64_t n, bool is_max) {
  using A = opmath_t<T>;
  A best = static_cast<A>(p[0]);
  for (int64_t i = 1; i < n; ++i) {
    A v = static_cast<A>(p[i]);
    if constexpr (std::is_floating_point_v<A>) {
      if (v != v) return p[i];
    }
    if (is_max ? v > best : v < best) best = v;
  }
  return static_cast<T>(best);
}

// Index of the first extremum; a NaN counts as the extremum (torch's rule).
template <typename T>
int64_t row_arg_extreme(const T* p, int64_t n, bool is_max) {
  using A = opmath_t<T>;
  A best = static_cast<A>(p[0]);
  int64_t idx = 0;
  if constexpr (std::is_floating_point_v<A>) {
    if (best != best) return 0;
  }
  for (int64_t i = 1; i < n; ++i) {
    A v = static_cast<A>(p[i]);
    if constexpr (std::is_floating_point_v<A>) {
      if (v != v) return i;
    }
    if (is_max ? v > best : v < best) {
      best = v;
      idx = i;
    }
  }
  return idx;
}

// torch's zero_numel_check_dims: an empty input needs its reduction dims named, and
// each of them non-empty. The dims are quoted as the caller wrote them.
void check_nonempty_reduction(const Tensor& self, IntList dim, const char* op) {
  if (self.numel() != 0) return;
  TL_CHECK(!dim.empty(), ValueError,
           "{}(): Expected reduction dim to be specified for input.numel() == 0. Specify the reduction dim with the "
           "'dim' argument.", op);
  for (int64_t d : dim)
    TL_CHECK(self.size(d) != 0, IndexError, "{}(): Expected reduction dim {} to have non-zero size.", op, d);
}

Tensor extreme_impl(const Tensor& self, IntList dim, bool keepdim, bool is_max, const char* op) {
  check_real(self.dtype(), op);
  Rows r = to_rows(self, dim, keepdim, op);
  check_nonempty_reduction(self, dim, op);
  Tensor out = empty(r.out_shape, self.dtype());
  dispatch_real(self.dtype(), op, [&]<typename T>() {
    for_rows<T, T>(r, out, [is_max](const T* p, int64_t n) { return row_extreme(p, n, is_max); });
  });
  return out;
}

std::tuple<Tensor, Tensor> extreme_dim(const Tensor& self, int64_t dim, bool keepdim, bool is_max,
                                       const char* op) {
  check_real(self.dtype(), op);
  Rows r = to_rows(self, {dim}, keepdim, op);
  TL_CHECK(r.n_red > 0, IndexError,
           "{}(): Expected reduction dim {} to have non-zero size.", op, wrap_dim(dim, std::max<int64_t>(self.dim(), 1), op));
  Tensor values = empty(r.out_shape, self.dtype());
  Tensor indices = empty(r.out_shape, DType::Long);
  dispatch_real(self.dtype(), op, [&]<typename T>() {
    for_rows<int64_t, T>(r, indices, [is_max](const T* p, int64_t n) { return row_arg_extreme(p, n, is_max); });
    const T* base = r.rows.data<T>();
    T* v = values.data<T>();
    const int64_t* ix = indices.data<int64_t>();
    for (int64_t i = 0; i < r.n_out; ++i) v[i] = base[i * r.n_red + ix[i]];
  });
  return {values, indices};
}

Tensor arg_extreme(const Tensor& self, std::optional<int64_t> dim, bool keepdim, bool is_max,
                   const char* op) {
  check_real(self.dtype(), op);
  Tensor x = dim ? self : self.reshape({-1});
  Rows r = to_rows(x, dim ? Shape{*dim} : Shape{0}, dim ? keepdim : false, op);
  TL_CHECK(r.n_red > 0, IndexError,
           "{}(): Expected reduction dim {} to have non-zero size.", op, dim.value_or(0));
  Tensor out = empty(r.out_shape, DType::Long);
  if (!dim && keepdim) out = out.reshape(Shape(static_cast<size_t>(self.dim()), 1));
  if (out.numel() == 0) return out;  // torch returns before choosing a kernel
  TL_CHECK(self.dtype() != DType::Bool, UnsupportedError, "\"{}_cpu\" not implemented for 'Bool'", op);
  dispatch_real(self.dtype(), op, [&]<typename T>() {
    for_rows<int64_t, T>(r, out, [is_max](const T* p, int64_t n) { return row_arg_extreme(p, n, is_max); });
  });
  return out;
}

}  // namespace

Tensor amax(const Tensor& self, IntList dim, bool keepdim) { return extreme_impl(self, dim, keepdim, true, "amax"); }
Tensor amin(const Tensor& self, IntList dim, bool keepdim) { return extreme_impl(self, dim, keepdim, false, "amin"); }

Tensor max(const Tensor& self) {
  TL_CHECK(self.numel() > 0, ValueError,
           "max(): Expected reduction dim to be specified for input.numel() == 0. Specify the "
           "reduction dim with the 'dim' argument.");
  return extreme_impl(self, {}, false, true, "max");
}
Tensor min(const Tensor& self) {
  TL_CHECK(self.numel() > 0, ValueError,
           "min(): Expected reduction dim to be specified for input.numel() == 0. Specify the "
           "reduction dim with the 'dim' argument.");
  return extreme_impl(self, {}, false, false, "min");
}
std::tuple<Tensor, Tensor> max(const Tensor& self, int64_t dim, bool keepdim) {
  return extreme_dim(self, dim, keepdim, true, "max");
}
std::tuple<Tensor, Tensor> min(const Tensor& self, int64_t dim, bool keepdim) {
  return extreme_dim(self, dim, keepdim, false, "min");
}
Tensor argmax(const Tensor& self, std::optional<int64_t> dim, bool keepdim) {
  return arg_extreme(self, dim, keepdim, true, "argmax");
}
Tensor argmin(const Tensor& self, std::optional<int64_t> dim, bool keepdim) {
  return arg_extreme(self, dim, keepdim, false, "argmin");
}

namespace {

Tensor all_any(const Tensor& self, std::optional<int64_t> dim, bool keepdim, bool is_all, const char* op) {
  check_real(self.dtype(), op);
  // torch 1.13 keeps uint8 for uint8 inputs; everything else gives bool.
  DType rd = self.dtype() == DType::Byte ? DType::Byte : DType::Bool;
  Tensor x = self.to(DType::Bool);
  Rows r = to_rows(x, dim ? Shape{*dim} : Shape{}, dim ? keepdim : false, op);
  Tensor out = empty(r.out_shape, DType::Bool);
  for_rows<bool, bool>(r, out, [is_all](const bool* p, int64_t n) {
    for (int64_t i = 0; i < n; ++i) {
      if (p[i] != is_all) return !is_all;
    }
    return is_all;
  });
  return out.to(rd);
}

}  // namespace

Tensor all(const Tensor& self, std::optional<int64_t> dim, bool keepdim) { return all_any(self, dim, keepdim, true, "all"); }
Tensor any(const Tensor& self, std::optional<int64_t> dim, bool keepdim) { return all_any(self, dim, keepdim, false, "any"); }

namespace {

void check_floating(DType d, const char* op) {
  TL_CHECK(is_floating(d), TypeError,
           "{}: {}(): input dtype should be either floating point or complex dtypes. Got {} instead.",
           op, op, dtype_info(d).scalar_type_name);
}

// Two-pass variance in double: the mean first, then the squared deviations.
Tensor var_impl(const Tensor& self, IntList dim, int64_t correction, bool keepdim, bool take_sqrt,
                const char* op) {
  check_floating(self.dtype(), op);
  Rows r = to_rows(self, dim, keepdim, op);
  Tensor out = empty(r.out_shape, self.dtype());
  dispatch_real(self.dtype(), op, [&]<typename T>() {
    for_rows<T, T>(r, out, [&](const T* p, int64_t n) {
      double m = cascade_sum<double>(p, n, Identity{}) / static_cast<double>(n);
      double m2 = cascade_sum<double>(p, n, [m](double v) { return (v - m) * (v - m); });
      double v = m2 / std::max<double>(0.0, static_cast<double>(n - correction));
      return static_cast<T>(take_sqrt ? std::sqrt(v) : v);
    });
  });
  return out;
}

}  // namespace

Tensor var(const Tensor& self, IntList dim, int64_t correction, bool keepdim) {
  return var_impl(self, dim, correction, keepdim, false, "var");
}
Tensor std(const Tensor& self, IntList dim, int64_t correction, bool keepdim) {
  return var_impl(self, dim, correction, keepdim, true, "std");
}

namespace {

// Whether the reduced dims are, in memory order, the innermost contiguous block: then
// torch's TensorIterator sees one reduced last dim (is_reduce_lastdim).
bool reduces_innermost_block(const Tensor& self, IntList dims) {
  const int64_t nd = self.dim();
  std::vector<int64_t> red, kept;
  for (int64_t d = 0; d < nd; ++d) {
    bool r = dims.empty();
    for (int64_t x : dims) r = r || (x < 0 ? x + nd : x) == d;
    if (self.size(d) != 1) (r ? red : kept).push_back(d);
  }
  std::sort(red.begin(), red.end(), [&](int64_t a, int64_t b) { return self.stride(a) < self.stride(b); });
  int64_t expected = 1;
  for (int64_t d : red) {
    if (self.stride(d) != expected) return false;
    expected *= self.size(d);
  }
  for (int64_t d : kept)
    if (self.stride(d) < expected) return false;
  return true;
}

// torch's norm over float16/bfloat16 in the element type: each step's result is rounded
// to T, as c10::Half/BFloat16 arithmetic rounds it (acc + |x|, acc + x*x, acc + |x|^p).
template <typename T>
T reduced_precision_norm(const T* x, int64_t n, double p) {
  auto round = [](float v) { return static_cast<float>(static_cast<T>(v)); };
  if (std::isinf(p)) {
    float best = p > 0 ? 0.0f : std::numeric_limits<float>::infinity();
    for (int64_t i = 0; i < n; ++i) {
      const float v = std::fabs(static_cast<float>(x[i]));
      if (v != v) return static_cast<T>(v);
      best = p > 0 ? std::max(best, v) : std::min(best, v);
    }
    return static_cast<T>(best);
  }
  const float ph = round(static_cast<float>(p));
  float acc = 0;
  for (int64_t i = 0; i < n; ++i) {
    const float a = std::fabs(static_cast<float>(x[i]));
    const float term = p == 0 ? static_cast<float>(a != 0) : p == 1 ? a : p == 2 ? round(a * a) : round(std::pow(a, ph));
    acc = round(acc + term);
  }
  if (p == 0 || p == 1) return static_cast<T>(acc);
  if (p == 2) return static_cast<T>(std::sqrt(acc));
  return static_cast<T>(std::pow(acc, round(1.0f / ph)));
}

// The sum of squares torch's vectorised 2-norm (its AVX2 lastdim kernel) computes: eight
// float lanes of multiply-adds (GCC fused torch's acc + x * x; a bfloat16 step is 16
// elements, two 8-lane steps), the lanes added in order; then the tail, which GCC
// compiled as groups of four squared apart and added in order, and the last up-to-three
// fused.
template <typename T>
float vectorised_sum_of_squares(const T* x, int64_t n) {
  constexpr int64_t kStep = std::is_same_v<T, float> ? 8 : 16;
  float lanes[8] = {};
  int64_t i = 0;
  for (; i + kStep <= n; i += kStep) {
    for (int64_t half = 0; half < kStep; half += 8) {
      for (int64_t k = 0; k < 8; ++k) {
        const float v = static_cast<float>(x[i + half + k]);
        lanes[k] = std::fma(v, v, lanes[k]);
      }
    }
  }
  float acc = lanes[0];
  for (int k = 1; k < 8; ++k) acc += lanes[k];
  for (; i + 4 <= n; i += 4) {
    float squares[4];
    for (int k = 0; k < 4; ++k) squares[k] = static_cast<float>(x[i + k]) * static_cast<float>(x[i + k]);
    for (int k = 0; k < 4; ++k) acc += squares[k];
  }
  for (; i < n; ++i) acc = std::fma(static_cast<float>(x[i]), static_cast<float>(x[i]), acc);
  return acc;
}

}  // namespace
void kernels::check_norm_dtype(DType input, std::optional<DType> dtype, std::string_view api) {
  if (!dtype) return;
  const std::string_view name = dtype_info(*dtype).scalar_type_name;
  TL_CHECK(is_floating(*dtype) || is_complex(*dtype), TypeError, "{}: dtype should be floating point or complex, but got {}",
           api, name);
  TL_CHECK(is_complex(input) == is_complex(*dtype), TypeError, "{}: dtype should be {} for {} inputs, but got {}", api,
           is_complex(input) ? "complex" : "real", is_complex(input) ? "complex" : "real", name);
  TL_CHECK(promote_types(input, *dtype) == *dtype, TypeError,
           "{}: the dtype of the input ({}) should be convertible without narrowing to the specified dtype ({})", api,
           dtype_info(input).scalar_type_name, name);
}

Tensor norm(const Tensor& input, double p, IntList dim, bool keepdim, std::optional<DType> dtype) {
  TL_CHECK(is_floating(input.dtype()), TypeError,
           "linalg.vector_norm: Expected a floating point or complex tensor as input. Got {}",
           dtype_info(input.dtype()).scalar_type_name);
  kernels::check_norm_dtype(input.dtype(), dtype, "linalg.vector_norm");
  const Tensor self = dtype ? input.to(*dtype) : input;
  Rows r = to_rows(self, dim, keepdim, "norm", /*memory_order=*/true);
  TL_CHECK(!(r.n_red == 0 && r.n_out > 0 && (p < 0 || std::isinf(p))), IndexError,
           "linalg.vector_norm cannot compute the {} norm on an empty dimension because the "
           "operation does not have an identity", p);
  Tensor out = empty(r.out_shape, self.dtype());
  // torch's CPU kernel takes its vectorised loop only for a 2-norm of float32/bfloat16
  // rows that lie contiguous innermost; everything else is one sequential fold per row.
  const bool vectorised_two_norm = p == 2 && (self.dtype() == DType::Float || self.dtype() == DType::BFloat16) &&
                                   reduces_innermost_block(self, dim);
  const bool element_type_accumulation =
      self.dtype() == DType::Half || (self.dtype() == DType::BFloat16 && !vectorised_two_norm);
  dispatch_real(self.dtype(), "norm", [&]<typename T>() {
    using A = opmath_t<T>;
    if constexpr (std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>) {
      if (element_type_accumulation) {
        for_rows<T, T>(r, out, [p](const T* x, int64_t n) { return reduced_precision_norm<T>(x, n, p); });
        return;
      }
    }
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, BFloat16>) {
      if (vectorised_two_norm) {
        for_rows<T, T>(r, out, [](const T* x, int64_t n) {
          return static_cast<T>(std::sqrt(vectorised_sum_of_squares(x, n)));
        });
        return;
      }
    }
    for_rows<T, T>(r, out, [p](const T* x, int64_t n) {
      if (std::isinf(p)) {
        TL_CHECK(n > 0 || p > 0, IndexError,
                 "linalg.vector_norm cannot compute the -inf norm on an empty tensor because the "
                 "operation does not have an identity");
        A best = p > 0 ? A(0) : std::numeric_limits<A>::infinity();
        for (int64_t i = 0; i < n; ++i) {
          A v = magnitude(static_cast<A>(x[i]));
          if (v != v) return static_cast<T>(v);
          best = p > 0 ? std::max(best, v) : std::min(best, v);
        }
        return static_cast<T>(best);
      }
      // torch's binary_kernel_reduce: acc = acc + term, element by element; its 2-norm's
      // acc + x * x was compiled to a fused multiply-add.
      A acc = 0;
      if constexpr (std::is_floating_point_v<A>) {  // (other element types are refused above)
        if (p == 2) {
          for (int64_t i = 0; i < n; ++i) acc = std::fma(static_cast<A>(x[i]), static_cast<A>(x[i]), acc);
          return static_cast<T>(std::sqrt(acc));
        }
      }
      for (int64_t i = 0; i < n; ++i) {
        const A v = magnitude(static_cast<A>(x[i]));
        acc += p == 1 ? v : p == 0 ? A(v != A(0)) : static_cast<A>(std::pow(v, static_cast<A>(p)));
      }
      if (p == 1 || p == 0) return static_cast<T>(acc);
      return static_cast<T>(std::pow(acc, static_cast<A>(1.0 / p)));
    });
  });
  return out;
}

Tensor histc(const Tensor& self, int64_t bins, const Scalar& min_value, const Scalar& max_value) {
  TL_CHECK(bins > 0, ValueError, "torch.histogram(): bins must be > 0, but got {} for dimension 0", bins);
  double lo = min_value.to_double(), hi = max_value.to_double();
  if (lo == hi && self.numel() > 0) {  // the data's own range, as torch's aminmax gives it
    TL_CHECK(self.dtype() != DType::Half, UnsupportedError, "\"aminmax_cpu\" not implemented for 'Half'");
    lo = min(self).item().to_double();
    hi = max(self).item().to_double();
  }
  if (lo == hi) {
    lo -= 1;
    hi += 1;
  }
  // (torch prints the range with C++ streams: six significant digits)
  TL_CHECK(std::isfinite(lo) && std::isfinite(hi), ValueError, "torch.histc: range of [{:g}, {:g}] is not finite", lo, hi);
  TL_CHECK(lo < hi, ValueError, "torch.histc: max must be larger than min");
  const DType d = self.dtype();
  TL_CHECK(d == DType::Float || d == DType::Double || d == DType::BFloat16, UnsupportedError,
           "\"histogram_cpu\" not implemented for '{}'", dtype_info(d).scalar_type_name);
  // The counts first: a tensor, so an impossible bin count is refused by the allocation
  // limit (and bins + 1 below cannot overflow) before anything else is allocated.
  Tensor counts = zeros({bins}, DType::Long);
  const Tensor edges = linspace(lo, hi, bins + 1, d);
  const Tensor x = self.contiguous();
  int64_t* c = counts.data<int64_t>();
  kernels::dispatch_floating(d, "histc", [&]<typename T>() {
    using M = opmath_t<T>;
    // torch's LINEAR_INTERPOLATION: (x - left) / (right - left) * bins, truncated, each
    // step in T (c10's float16/bfloat16 arithmetic rounds every result).
    auto r = [](M v) { return static_cast<M>(static_cast<T>(v)); };
    const M left = static_cast<M>(edges.data<T>()[0]), right = static_cast<M>(edges.data<T>()[bins]);
    const T* p = x.data<T>();
    for (int64_t i = 0, n = x.numel(); i < n; ++i) {
      const M v = static_cast<M>(p[i]);
      if (!(v >= left && v <= right)) continue;  // outside the range, or NaN
      const auto pos = static_cast<int64_t>(r(r(r(v - left) / r(right - left)) * static_cast<M>(bins)));
      ++c[std::clamp<int64_t>(pos, 0, bins - 1)];
    }
  });
  return counts.to(d);
}

Tensor logsumexp(const Tensor& self, IntList dim, bool keepdim) {
  Tensor x = is_integral(self.dtype(), true) ? self.to(kDefaultFloatDType) : self;
  check_floating(x.dtype(), "logsumexp");
  refuse_reduced_float(x, x.dtype(), "exp_vml_cpu", false, true);
  Rows r = to_rows(x, dim, keepdim, "logsumexp");
  Tensor out = empty(r.out_shape, x.dtype());
  dispatch_real(x.dtype(), "logsumexp", [&]<typename T>() {
    using A = opmath_t<T>;
    for_rows<T, T>(r, out, [](const T* p, int64_t n) {
      A m = -std::numeric_limits<A>::infinity();
      for (int64_t i = 0; i < n; ++i) m = std::max(m, static_cast<A>(p[i]));
      if (std::isinf(m)) m = 0;  // all -inf (or +inf present): no shift, as torch does
      A s = cascade_sum<A>(p, n, [m](A v) { return std::exp(v - m); });
      return static_cast<T>(std::log(s) + m);
    });
  });
  return out;
}

namespace {

// Inclusive scan along `dim`: each line along dim is moved last and scanned in the
// accumulation type (double for floating inputs, int64 for integers).
Tensor scan(const Tensor& self, int64_t dim, std::optional<DType> dtype, bool is_prod, const char* op) {
  DType rd = sum_result_dtype(self.dtype(), dtype);
  check_real(rd, op);
  refuse_reduced_float(self, rd, is_prod ? "cumprod_out_cpu" : "cumsum_out_cpu");
  int64_t nd = std::max<int64_t>(self.dim(), 1);
  int64_t d = wrap_dim(dim, nd, op);
  Tensor x = self.dim() == 0 ? self.reshape({1}) : self;
  Tensor lines = x.to(rd).transpose(d, x.dim() - 1).contiguous();
  Tensor out = empty(lines.sizes(), rd);
  int64_t n = lines.dim() ? lines.size(-1) : 1;
  int64_t count = n ? lines.numel() / n : 0;
  dispatch_real(rd, op, [&]<typename T>() {
    using A = std::conditional_t<std::is_floating_point_v<opmath_t<T>>, double, int64_t>;
    const T* src = lines.data<T>();
    T* dst = out.data<T>();
    parallel_for(0, count, std::max<int64_t>(1, kernels::kGrainSize / std::max<int64_t>(n, 1)),
                 [&](int64_t b, int64_t e) {
                   for (int64_t l = b; l < e; ++l) {
                     A acc = is_prod ? A(1) : A(0);
                     for (int64_t i = 0; i < n; ++i) {
                       A v = static_cast<A>(src[l * n + i]);
                       if constexpr (std::is_integral_v<A>) {
                         using U = std::make_unsigned_t<A>;
                         acc = is_prod ? static_cast<A>(static_cast<U>(acc) * static_cast<U>(v))
                                       : static_cast<A>(static_cast<U>(acc) + static_cast<U>(v));
                       } else {
                         acc = is_prod ? acc * v : acc + v;
                       }
                       dst[l * n + i] = static_cast<T>(acc);
                     }
                   }
                 });
  });
  Tensor result = out.transpose(d, x.dim() - 1).contiguous();
  return self.dim() == 0 ? result.reshape({}) : result;
}

}  // namespace

Tensor cumsum(const Tensor& self, int64_t dim, std::optional<DType> dtype) {
  return scan(self, dim, dtype, false, "cumsum");
}
Tensor cumprod(const Tensor& self, int64_t dim, std::optional<DType> dtype) {
  return scan(self, dim, dtype, true, "cumprod");
}

}  // namespace torchlet

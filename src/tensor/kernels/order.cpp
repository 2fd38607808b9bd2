// Order statistics and running extrema along a dim: median/nanmedian, kthvalue, mode,
// cummax/cummin and logcumsumexp. Where equal values make the returned index a matter of
// algorithm, torch's CPU algorithm is reproduced so the same index comes back: median
// orders by (value, index); kthvalue is torch's median-of-three quickselect; mode takes
// the last element of the longest run after std::sort of (value, index) pairs compared
// by value; cummax/cummin move to every later equal value. Each line runs in the
// element's opmath type (float for float16/bfloat16), as torch's scalar loops do.
#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <type_traits>
#include <utility>
#include <vector>

#include <torchlet/error.h>
#include <torchlet/ops.h>

#include "tensor/kernels/loop.h"

namespace torchlet {
namespace {

template <typename M>
bool is_nan(M v) {
  if constexpr (std::is_floating_point_v<M>) return std::isnan(v);
  return false;
}

// The lines of `self` along `dim` as rows of a contiguous [count, n] copy.
struct Lines {
  Tensor rows;       // dim moved last, contiguous
  int64_t dim = 0;   // wrapped
  int64_t n = 0;     // line length
  int64_t count = 0; // number of lines
};
Lines lines_of(const Tensor& self, int64_t dim, const char* op) {
  Lines l;
  const Tensor x = self.dim() == 0 ? self.reshape({1}) : self;
  l.dim = wrap_dim(dim, x.dim(), op);
  l.rows = x.transpose(l.dim, x.dim() - 1).contiguous();
  l.n = x.size(l.dim);
  l.count = 1;
  for (int64_t i = 0; i < x.dim(); ++i)
    if (i != l.dim) l.count *= x.size(i);
  return l;
}

// One value and one index per line: the shape of `self` without dim (kept as 1 when
// keepdim; a 0-dim input stays 0-dim).
std::tuple<Tensor, Tensor> reduced(const Tensor& self, const Lines& l, const Tensor& values, const Tensor& indices, bool keepdim) {
  if (self.dim() == 0) return {values.reshape({}), indices.reshape({})};
  Shape shape = self.sizes().vec();
  if (keepdim) shape[static_cast<size_t>(l.dim)] = 1;
  else shape.erase(shape.begin() + l.dim);
  Shape moved = self.sizes().vec();  // the rows' shape less their last dim
  std::swap(moved[static_cast<size_t>(l.dim)], moved.back());
  moved.back() = 1;
  Tensor v = values.reshape(moved).transpose(l.dim, self.dim() - 1).contiguous().reshape(shape);
  Tensor i = indices.reshape(moved).transpose(l.dim, self.dim() - 1).contiguous().reshape(shape);
  return {v, i};
}

// Runs fn(line, n, &value, &index) on each line; value is stored as T.
template <typename T, typename Fn>
std::tuple<Tensor, Tensor> per_line(const Tensor& self, const Lines& l, bool keepdim, Fn fn) {
  Tensor values = empty({l.count}, self.dtype());
  Tensor indices = empty({l.count}, DType::Long);
  const T* src = l.rows.data<T>();
  T* v = values.data<T>();
  int64_t* ix = indices.data<int64_t>();
  parallel_for(0, l.count, std::max<int64_t>(1, kernels::kGrainSize / std::max<int64_t>(l.n, 1)), [&](int64_t b, int64_t e) {
    for (int64_t r = b; r < e; ++r) fn(src + r * l.n, l.n, v + r, ix + r);
  });
  return reduced(self, l, values, indices, keepdim);
}

void check_nonempty_dim(const Lines& l, const char* op) {
  TL_CHECK(l.n > 0, IndexError, "{}(): Expected reduction dim {} to have non-zero size.", op, l.dim);
}

// torch's quick_select_template: Numerical Recipes' select with a median-of-three pivot;
// `after(a, b)` is true when a sorts after b (NaN after every number).
template <typename M, typename Swap>
void quick_select(std::vector<M>& a, int64_t k, Swap swap_at) {
  auto after = [](M x, M y) { return (is_nan(x) && !is_nan(y)) || x > y; };
  int64_t lo = 0, hi = static_cast<int64_t>(a.size()) - 1;
  auto at = [&](int64_t i) { return a[static_cast<size_t>(i)]; };
  while (true) {
    if (hi <= lo) return;
    if (hi == lo + 1) {
      if (after(at(lo), at(hi))) swap_at(lo, hi);
      return;
    }
    const int64_t mid = lo + (hi - lo) / 2;
    swap_at(mid, lo + 1);
    if (after(at(lo + 1), at(hi))) swap_at(lo + 1, hi);
    if (after(at(lo), at(hi))) swap_at(lo, hi);
    if (after(at(lo + 1), at(lo))) swap_at(lo + 1, lo);
    int64_t i = lo + 1, j = hi;
    const M pivot = at(lo);
    while (true) {
      do ++i; while (after(pivot, at(i)));
      do --j; while (after(at(j), pivot));
      if (j < i) break;
      swap_at(i, j);
    }
    swap_at(lo, j);
    if (j <= k) lo = i;
    if (j >= k) hi = j - 1;
  }
}

}  // namespace

std::tuple<Tensor, Tensor> median(const Tensor& self, int64_t dim, bool keepdim, bool ignore_nan) {
  const char* op = ignore_nan ? "nanmedian" : "median";
  TL_CHECK(self.dtype() != DType::Bool && self.dtype() != DType::Half && !is_complex(self.dtype()), UnsupportedError,
           "\"median_out\" not implemented for '{}'", dtype_info(self.dtype()).scalar_type_name);
  const Lines l = lines_of(self, dim, op);
  check_nonempty_dim(l, op);
  return dispatch_real(self.dtype(), op, [&]<typename T>() {
    using M = kernels::opmath_t<T>;
    return per_line<T>(self, l, keepdim, [&](const T* p, int64_t n, T* value, int64_t* index) {
      if (!ignore_nan) {  // a NaN is the median: the first one
        for (int64_t i = 0; i < n; ++i)
          if (is_nan(static_cast<M>(p[i]))) {
            *value = p[i];
            *index = i;
            return;
          }
      }
      // The element at rank k when ordered by (value, index), NaN last.
      int64_t nans = 0;
      for (int64_t i = 0; i < n; ++i) nans += is_nan(static_cast<M>(p[i])) ? 1 : 0;
      const int64_t k = ignore_nan ? (n - nans - 1) / 2 : (n - 1) / 2;
      std::vector<int64_t> order(static_cast<size_t>(n));
      std::iota(order.begin(), order.end(), 0);
      std::nth_element(order.begin(), order.begin() + std::max<int64_t>(k, 0), order.end(), [&](int64_t i, int64_t j) {
        const M a = static_cast<M>(p[i]), b = static_cast<M>(p[j]);
        return a < b || (a == b && i < j) || (is_nan(b) && !is_nan(a));
      });
      const int64_t at = order[static_cast<size_t>(std::max<int64_t>(k, 0))];
      *value = p[at];
      *index = at;
    });
  });
}

Tensor median(const Tensor& self, bool ignore_nan) {
  TL_CHECK(self.dtype() != DType::Bool && self.dtype() != DType::Half && !is_complex(self.dtype()), UnsupportedError,
           "\"median_cpu\" not implemented for '{}'", dtype_info(self.dtype()).scalar_type_name);
  if (self.numel() == 0) return full({}, Scalar(std::numeric_limits<double>::quiet_NaN()), self.dtype());
  auto [v, i] = median(self.reshape({-1}), 0, false, ignore_nan);
  return v;
}

std::tuple<Tensor, Tensor> kthvalue(const Tensor& self, int64_t k, int64_t dim, bool keepdim) {
  const Lines l = lines_of(self, dim, "kthvalue");
  TL_CHECK(k >= 1 && k <= l.n, IndexError, "kthvalue(): selected number k out of range for dimension {}", dim);
  if (self.dim() == 0) return {self.clone(), zeros({}, DType::Long)};  // torch answers before its dtype check
  TL_CHECK(self.dtype() != DType::Half && self.dtype() != DType::Bool && !is_complex(self.dtype()), UnsupportedError,
           "\"kthvalue_cpu\" not implemented for '{}'", dtype_info(self.dtype()).scalar_type_name);
  return dispatch_real(self.dtype(), "kthvalue", [&]<typename T>() {
    using M = kernels::opmath_t<T>;
    return per_line<T>(self, l, keepdim, [&](const T* p, int64_t n, T* value, int64_t* index) {
      // (bool is refused above; char keeps vector<bool>'s proxies out of the swaps)
      using E = std::conditional_t<std::is_same_v<M, bool>, char, M>;
      std::vector<E> vals(p, p + n);
      std::vector<int64_t> idx(static_cast<size_t>(n));
      std::iota(idx.begin(), idx.end(), 0);
      quick_select(vals, k - 1, [&](int64_t a, int64_t b) {
        std::swap(vals[static_cast<size_t>(a)], vals[static_cast<size_t>(b)]);
        std::swap(idx[static_cast<size_t>(a)], idx[static_cast<size_t>(b)]);
      });
      *index = idx[static_cast<size_t>(k - 1)];
      *value = p[*index];
    });
  });
}

std::tuple<Tensor, Tensor> mode(const Tensor& self, int64_t dim, bool keepdim) {
  TL_CHECK(!is_complex(self.dtype()), UnsupportedError, "\"mode\" not implemented for '{}'",
           dtype_info(self.dtype()).scalar_type_name);
  const Lines l = lines_of(self, dim, "mode");
  check_nonempty_dim(l, "mode");
  return dispatch_real(self.dtype(), "mode", [&]<typename T>() {
    using M = kernels::opmath_t<T>;
    return per_line<T>(self, l, keepdim, [&](const T* p, int64_t n, T* value, int64_t* index) {
      std::vector<std::pair<M, int64_t>> e(static_cast<size_t>(n));
      for (int64_t i = 0; i < n; ++i) e[static_cast<size_t>(i)] = {static_cast<M>(p[i]), i};
      std::sort(e.begin(), e.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
      int64_t run = 0, best = 0, at = 0;
      for (size_t i = 0; i < e.size(); ++i) {
        ++run;
        if (i + 1 == e.size() || e[i].first != e[i + 1].first) {
          if (run > best) {
            best = run;
            at = e[i].second;
          }
          run = 0;
        }
      }
      *value = p[at];
      *index = at;
    });
  });
}

namespace {

// A running scan along dim: out has self's shape; fn(line, n, values, indices).
template <typename T, typename Fn>
std::tuple<Tensor, Tensor> scan_lines(const Tensor& self, const Lines& l, DType value_dtype, Fn fn) {
  Tensor values = empty(l.rows.sizes(), value_dtype);
  Tensor indices = empty(l.rows.sizes(), DType::Long);
  const T* src = l.rows.data<T>();
  T* v = values.data<T>();
  int64_t* ix = indices.data<int64_t>();
  parallel_for(0, l.count, std::max<int64_t>(1, kernels::kGrainSize / std::max<int64_t>(l.n, 1)), [&](int64_t b, int64_t e) {
    for (int64_t r = b; r < e; ++r) fn(src + r * l.n, l.n, v + r * l.n, ix + r * l.n);
  });
  if (self.dim() == 0) return {values.reshape({}), indices.reshape({})};
  return {values.transpose(l.dim, self.dim() - 1).contiguous(), indices.transpose(l.dim, self.dim() - 1).contiguous()};
}

template <bool kMax>
std::tuple<Tensor, Tensor> running_extreme(const Tensor& self, int64_t dim) {
  const char* op = kMax ? "cummax" : "cummin";
  const Lines l = lines_of(self, dim, op);
  if (self.dim() == 0) return {self.clone(), zeros({}, DType::Long)};  // torch answers before its dtype check
  TL_CHECK(!is_complex(self.dtype()) && self.dtype() != DType::Half, UnsupportedError, "\"{}_cpu\" not implemented for '{}'", op,
           dtype_info(self.dtype()).scalar_type_name);
  if (l.n == 0) return {empty(self.sizes(), self.dtype()), empty(self.sizes(), DType::Long)};
  return dispatch_real(self.dtype(), op, [&]<typename T>() {
    using M = kernels::opmath_t<T>;
    return scan_lines<T>(self, l, self.dtype(), [&](const T* p, int64_t n, T* v, int64_t* ix) {
      M best = static_cast<M>(p[0]);
      int64_t at = 0;
      for (int64_t i = 0; i < n; ++i) {
        const M x = static_cast<M>(p[i]);
        if (is_nan(x) || (!is_nan(best) && (kMax ? x >= best : x <= best))) {
          best = x;
          at = i;
        }
        v[i] = p[at];
        ix[i] = at;
      }
    });
  });
}

}  // namespace

std::tuple<Tensor, Tensor> cummax(const Tensor& self, int64_t dim) { return running_extreme<true>(self, dim); }
std::tuple<Tensor, Tensor> cummin(const Tensor& self, int64_t dim) { return running_extreme<false>(self, dim); }

Tensor logcumsumexp(const Tensor& self, int64_t dim) {
  const DType d = self.dtype();
  TL_CHECK(d == DType::Float || d == DType::Double || d == DType::BFloat16, UnsupportedError,
           "\"logcumsumexp_out_cpu\" not implemented for '{}'", dtype_info(d).scalar_type_name);
  const Lines l = lines_of(self, dim, "logcumsumexp");
  if (l.n == 0) return empty(self.sizes(), d);
  Tensor out;
  kernels::dispatch_floating(d, "logcumsumexp", [&]<typename T>() {
    using M = kernels::opmath_t<T>;
    out = std::get<0>(scan_lines<T>(self, l, d, [&](const T* p, int64_t n, T* v, int64_t*) {
      // torch's log_add_exp(x, carry), the carry rounded to T each step.
      T carry = static_cast<T>(-std::numeric_limits<M>::infinity());
      for (int64_t i = 0; i < n; ++i) {
        const M x = static_cast<M>(p[i]), y = static_cast<M>(carry);
        const M lo = std::isnan(y) ? y : std::min(x, y);
        const M hi = std::isnan(y) ? y : std::max(x, y);
        const M r = (lo != hi || std::isfinite(lo)) ? static_cast<M>(std::log1p(std::exp(lo - hi)) + hi) : x;
        carry = static_cast<T>(r);
        v[i] = carry;
      }
    }));
  });
  return out;
}

}  // namespace torchlet

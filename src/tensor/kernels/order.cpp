// Order statistics and running extrema along a dim (median/nanmedian, kthvalue, mode,
// cummax/cummin, logcumsumexp), unique values (unique, unique_consecutive, unique_dim)
// and sorted search (searchsorted/bucketize). Where equal values make the returned index a matter of
// algorithm, torch's CPU algorithm is reproduced so the same index comes back: median
// orders by (value, index); kthvalue is torch's median-of-three quickselect; mode takes
// the last element of the longest run after std::sort of (value, index) pairs compared
// by value; cummax/cummin move to every later equal value. Each line runs in the
// element's opmath type (float for float16/bfloat16), as torch's scalar loops do.
// unique builds the same std::unordered_set/unordered_map torch 1.13 builds, so even the
// order of sorted=False output (hash order) and NaN's quirks (every NaN is its own value;
// the inverse of a NaN is 0) come out as torch's.
#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <type_traits>
#include <unordered_map>
#include <unordered_set>
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
      // torch's log_add_exp(x, carry), the carry kept in the accumulation type (float for
      // bfloat16) and each output rounded from it.
      M carry = -std::numeric_limits<M>::infinity();
      for (int64_t i = 0; i < n; ++i) {
        const M x = static_cast<M>(p[i]), y = carry;
        const M lo = std::isnan(y) ? y : std::min(x, y);
        const M hi = std::isnan(y) ? y : std::max(x, y);
        carry = (lo != hi || std::isfinite(lo)) ? static_cast<M>(std::log1p(std::exp(lo - hi)) + hi) : x;
        v[i] = static_cast<T>(carry);
      }
    }));
  });
  return out;
}

namespace {

// The real types unique takes (torch: all but float16; bool has its own path).
void check_unique_dtype(DType d) {
  TL_CHECK(!is_complex(d) && d != DType::Half, UnsupportedError, "\"unique\" not implemented for '{}'",
           dtype_info(d).scalar_type_name);
}

// The hash and equality torch's containers use: std::hash / == for C++ types; c10's
// bfloat16 hashes its bits and compares as float.
template <typename T>
struct UniqueHash : std::hash<T> {};
template <>
struct UniqueHash<BFloat16> {
  size_t operator()(BFloat16 v) const noexcept { return std::hash<uint16_t>()(v.bits); }
};
template <typename T>
struct UniqueEq {
  bool operator()(const T& a, const T& b) const { return a == b; }
};
template <>
struct UniqueEq<BFloat16> {
  bool operator()(BFloat16 a, BFloat16 b) const { return static_cast<float>(a) == static_cast<float>(b); }
};

}  // namespace

UniqueResult unique(const Tensor& self, bool sorted, bool return_inverse, bool return_counts) {
  const DType d = self.dtype();
  check_unique_dtype(d);
  const Tensor in = self.contiguous();
  const int64_t n = in.numel();
  UniqueResult r{Tensor(), empty({0}, DType::Long), empty({0}, DType::Long)};
  if (d == DType::Bool) {  // torch's bool path: False then True, whichever occur
    const bool* p = in.data<bool>();
    int64_t trues = 0;
    for (int64_t i = 0; i < n; ++i) trues += p[i] ? 1 : 0;
    std::vector<bool> values;
    if (n - trues > 0) values.push_back(false);
    if (trues > 0) values.push_back(true);
    r.values = empty({static_cast<int64_t>(values.size())}, DType::Bool);
    for (size_t i = 0; i < values.size(); ++i) r.values.data<bool>()[i] = values[i];
    if (return_inverse || return_counts) {
      r.inverse = empty(self.sizes(), DType::Long);
      for (int64_t i = 0; i < n; ++i) r.inverse.data<int64_t>()[i] = p[i] && n - trues > 0 ? 1 : 0;
    }
    if (return_counts) {
      r.counts = empty({static_cast<int64_t>(values.size())}, DType::Long);
      int64_t at = 0;
      if (n - trues > 0) r.counts.data<int64_t>()[at++] = n - trues;
      if (trues > 0) r.counts.data<int64_t>()[at] = trues;
    }
    return r;
  }
  dispatch_real(d, "unique", [&]<typename T>() {
    if constexpr ((std::is_arithmetic_v<T> && !std::is_same_v<T, bool>) || std::is_same_v<T, BFloat16>) {
      using Set = std::unordered_set<T, UniqueHash<T>, UniqueEq<T>>;
      using Map = std::unordered_map<T, int64_t, UniqueHash<T>, UniqueEq<T>>;
      const T* p = in.data<T>();
      Set set(p, p + n);
      std::vector<T> values(set.begin(), set.end());
      if (sorted)
        std::sort(values.begin(), values.end(),
                  [](const T& a, const T& b) { return static_cast<kernels::opmath_t<T>>(a) < static_cast<kernels::opmath_t<T>>(b); });
      r.values = empty({static_cast<int64_t>(values.size())}, d);
      std::copy(values.begin(), values.end(), r.values.data<T>());
      if (!return_inverse && !return_counts) return;
      Map position;
      position.reserve(values.size());
      for (size_t i = 0; i < values.size(); ++i) position[values[i]] = static_cast<int64_t>(i);
      r.inverse = empty(self.sizes(), DType::Long);
      for (int64_t i = 0; i < n; ++i) r.inverse.data<int64_t>()[i] = position[p[i]];
      if (return_counts) {
        Map count;
        count.reserve(values.size());
        for (const T& v : values) count[v] = 0;
        for (int64_t i = 0; i < n; ++i) count[p[i]] += 1;
        r.counts = empty({static_cast<int64_t>(values.size())}, DType::Long);
        for (size_t i = 0; i < values.size(); ++i) r.counts.data<int64_t>()[i] = count[values[i]];
      }
    } else {
      TL_INTERNAL_ASSERT(false, "unique: a dtype passed the check it should have failed");
    }
  });
  return r;
}

UniqueResult unique_dim(const Tensor& self, int64_t dim, bool consecutive) {
  const DType d = self.dtype();
  TL_CHECK(!is_complex(d) && d != DType::Half, UnsupportedError, "\"unique_dim\" not implemented for '{}'",
           dtype_info(d).scalar_type_name);
  TL_CHECK(self.dim() > 0, IndexError, "Dimension specified as {} but tensor has no dimensions", dim);
  const int64_t n = self.dim();
  const int64_t at = wrap_dim(dim, n, "unique_dim");
  const Tensor x = self.dim() == 0 ? self.reshape({1}) : self;
  const auto zero_dims = std::count(x.sizes().begin(), x.sizes().end(), 0);
  if (x.size(at) == 0) {
    TL_CHECK(zero_dims == 1, ValueError, "Number of zero sized dimensions is more than one, so unique cannot be applied ");
    return {empty(x.sizes(), d), empty({0}, DType::Long), empty({0}, DType::Long)};
  }
  TL_CHECK(zero_dims == 0, ValueError, "There are 0 sized dimensions, and they aren't selected, so unique cannot be applied");
  // dim first, the others in order (moveaxis): rows compare in that element order.
  Shape to_front{at};
  for (int64_t i = 0; i < x.dim(); ++i)
    if (i != at) to_front.push_back(i);
  Shape back(to_front.size());
  for (size_t i = 0; i < to_front.size(); ++i) back[static_cast<size_t>(to_front[i])] = static_cast<int64_t>(i);
  Tensor moved = x.permute(to_front).contiguous();
  const int64_t rows = moved.size(0), width = moved.numel() / rows;
  std::vector<int64_t> order(static_cast<size_t>(rows));
  std::iota(order.begin(), order.end(), 0);
  std::vector<int64_t> group(static_cast<size_t>(rows)), first;  // first: the kept row of each group
  dispatch_real(d, "unique_dim", [&]<typename T>() {
    using M = kernels::opmath_t<T>;
    const T* p = moved.data<T>();
    auto row = [&](int64_t r, int64_t i) { return static_cast<M>(p[r * width + i]); };
    if (!consecutive)
      std::sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
        for (int64_t i = 0; i < width; ++i) {
          if (row(a, i) < row(b, i)) return true;
          if (row(a, i) > row(b, i)) return false;
        }
        return false;
      });
    auto same = [&](int64_t a, int64_t b) {
      for (int64_t i = 0; i < width; ++i)
        if (!(row(a, i) == row(b, i))) return false;
      return true;
    };
    for (size_t k = 0; k < order.size(); ++k) {
      if (k == 0 || !same(order[k], first.back())) first.push_back(order[k]);
      group[static_cast<size_t>(order[k])] = static_cast<int64_t>(first.size()) - 1;
    }
  });
  std::vector<Tensor> kept;
  for (int64_t r : first) kept.push_back(moved.select(0, r));
  // torch computes (and returns) the inverse and counts whatever was asked for.
  UniqueResult r;
  r.values = stack(kept, 0).permute(back).contiguous();
  r.inverse = tensor<int64_t>(group, {rows});
  std::vector<int64_t> counts(first.size(), 0);
  for (int64_t g : group) ++counts[static_cast<size_t>(g)];
  r.counts = tensor<int64_t>(counts, {static_cast<int64_t>(counts.size())});
  return r;
}

UniqueResult unique_consecutive(const Tensor& self, bool return_inverse, bool return_counts) {
  const DType d = self.dtype();
  TL_CHECK(!is_complex(d) && d != DType::Half, UnsupportedError, "\"unique_consecutive\" not implemented for '{}'",
           dtype_info(d).scalar_type_name);
  const Tensor flat = self.reshape({-1}).contiguous();
  const int64_t n = flat.numel();
  std::vector<int64_t> first, group(static_cast<size_t>(n));
  dispatch_real(d, "unique_consecutive", [&]<typename T>() {
    using M = kernels::opmath_t<T>;
    const T* p = flat.data<T>();
    for (int64_t i = 0; i < n; ++i) {
      if (i == 0 || static_cast<M>(p[i]) != static_cast<M>(p[first.back()])) first.push_back(i);
      group[static_cast<size_t>(i)] = static_cast<int64_t>(first.size()) - 1;
    }
  });
  UniqueResult r;
  r.values = index_select(flat, 0, tensor<int64_t>(first, {static_cast<int64_t>(first.size())}));
  r.inverse = return_inverse ? tensor<int64_t>(group, {n}).reshape(self.sizes()) : empty({0}, DType::Long);
  if (return_counts) {
    std::vector<int64_t> counts;
    for (size_t k = 0; k < first.size(); ++k) counts.push_back((k + 1 < first.size() ? first[k + 1] : n) - first[k]);
    r.counts = tensor<int64_t>(counts, {static_cast<int64_t>(counts.size())});
  } else {
    r.counts = empty({0}, DType::Long);
  }
  return r;
}

Tensor searchsorted(const Tensor& sorted_sequence, const Tensor& values, bool out_int32, bool right,
                    const std::optional<Tensor>& sorter) {
  const Tensor& seq = sorted_sequence;
  TL_CHECK(seq.dim() >= 1, ValueError, "torch.searchsorted(): boundaries tensor should be 1 dimension or the first N-1 dimensions "
           "of boundaries tensor and input value tensor must match, but we got boundaries tensor {} and input value tensor {}",
           shape_repr(seq.sizes()), shape_repr(values.sizes()));
  if (seq.dim() > 1) {
    bool match = seq.dim() == values.dim();
    for (int64_t i = 0; match && i + 1 < seq.dim(); ++i) match = seq.size(i) == values.size(i);
    TL_CHECK(match, ValueError, "torch.searchsorted(): boundaries tensor should be 1 dimension or the first N-1 dimensions of "
             "boundaries tensor and input value tensor must match, but we got boundaries tensor {} and input value tensor {}",
             shape_repr(seq.sizes()), shape_repr(values.sizes()));
  }
  if (sorter) {
    TL_CHECK(sorter->dtype() == DType::Long, TypeError, "torch.searchsorted(): sorter must be a tensor of long dtype but got dtype {}",
             dtype_info(sorter->dtype()).scalar_type_name);
    TL_CHECK(sorter->sizes() == seq.sizes(), ValueError, "torch.searchsorted(): boundary and sorter must have the same size, but got "
             "boundary tensor {}and got sorter tensor {}", shape_repr(seq.sizes()), shape_repr(sorter->sizes()));
  }
  const DType common = promote_types(seq.dtype(), values.dtype());
  TL_CHECK(!is_complex(common) && common != DType::Bool, UnsupportedError, "\"searchsorted_out_cpu\" not implemented for '{}'",
           dtype_info(common).scalar_type_name);
  const Tensor b = seq.to(common).contiguous(), v = values.to(common).contiguous();
  const int64_t len = seq.size(-1);
  const int64_t per_row = seq.dim() > 1 ? std::max<int64_t>(values.size(-1), 1) : 0;  // values per boundary row
  Tensor out = empty(values.sizes(), DType::Long);
  const int64_t* order = nullptr;
  Tensor sorter_c;
  if (sorter) {
    sorter_c = sorter->contiguous();
    order = sorter_c.data<int64_t>();
    for (int64_t i = 0; i < sorter_c.numel(); ++i)
      TL_CHECK(order[i] >= 0 && order[i] < len, IndexError, "torch.searchsorted(): sorter index out of range");
  }
  dispatch_real(common, "searchsorted", [&]<typename T>() {
    using M = kernels::opmath_t<T>;
    const T* bp = b.data<T>();
    const T* vp = v.data<T>();
    int64_t* op = out.data<int64_t>();
    for (int64_t i = 0, n = v.numel(); i < n; ++i) {
      const int64_t row = per_row ? i / per_row : 0;
      const T* bd = bp + row * len;
      const int64_t* so = order ? order + row * len : nullptr;
      const M value = static_cast<M>(vp[i]);
      int64_t lo = 0, hi = len;  // torch's cus_lower_bound / cus_upper_bound
      while (lo < hi) {
        const int64_t mid = lo + ((hi - lo) >> 1);
        const M at = static_cast<M>(so ? bd[so[mid]] : bd[mid]);
        if (right ? !(at > value) : !(at >= value)) lo = mid + 1;
        else hi = mid;
      }
      op[i] = lo;
    }
  });
  return out_int32 ? out.to(DType::Int) : out;
}

Tensor bucketize(const Tensor& self, const Tensor& boundaries, bool out_int32, bool right) {
  TL_CHECK(boundaries.dim() == 1, ValueError, "boundaries tensor must be 1 dimension, but got dim({})", boundaries.dim());
  return searchsorted(boundaries, self, out_int32, right);
}

}  // namespace torchlet

// 1-d and 3-d pooling (max with or without indices, average, adaptive average and
// adaptive max), plus max_pool2d_with_indices. Every variant runs one loop over
// [planes, T, H, W] views, a 1-d input being [planes, 1, 1, W]; the 2-d max/avg/adaptive
// forms without indices stay in conv.cpp; max_unpool (the inverse scatter) is at the
// end. Shape rules and messages follow torch 1.13, whose 1-d and 3-d operators each word
// their errors differently.
#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <optional>
#include <type_traits>

#include <fmt/ranges.h>

#include <torchlet/error.h>
#include <torchlet/ops.h>

#include "tensor/kernels/loop.h"

namespace torchlet {
namespace {

using Dims3 = std::array<int64_t, 3>;

// Window parameters of one pooling call, padded to three spatial dims (the missing
// leading dims get kernel 1, stride 1, pad 0, dilation 1).
struct Window {
  Dims3 k{1, 1, 1}, s{1, 1, 1}, p{0, 0, 0}, d{1, 1, 1};
};

// Input seen as planes of [T, H, W]; `lead` are the dims before the spatial ones.
struct Planes3 {
  Tensor x;
  int64_t planes = 1;
  Dims3 in{1, 1, 1};
  Shape lead;
  int64_t nsp = 0;
};

Planes3 as_planes3(const Tensor& self, int64_t nsp) {
  Planes3 p;
  p.nsp = nsp;
  p.lead.assign(self.sizes().begin(), self.sizes().end() - nsp);
  for (int64_t s : p.lead) p.planes *= s;
  for (int64_t i = 0; i < nsp; ++i) p.in[static_cast<size_t>(3 - nsp + i)] = self.size(self.dim() - nsp + i);
  p.x = self.contiguous();
  return p;
}

Shape out_shape(const Planes3& p, const Dims3& o) {
  Shape s = p.lead;
  for (int64_t i = 3 - p.nsp; i < 3; ++i) s.push_back(o[static_cast<size_t>(i)]);
  return s;
}

// Expands an int list of 1 or `n` entries into the last `n` of three slots.
Dims3 fill3(IntList v, int64_t n, int64_t fill) {
  Dims3 r{fill, fill, fill};
  for (int64_t i = 0; i < n; ++i) r[static_cast<size_t>(3 - n + i)] = v.size() == 1 ? v[0] : v[static_cast<size_t>(i)];
  return r;
}

// torch's pooling_output_shape: the numerator rounds toward -inf (div_rtn), and a
// ceil-mode window must start inside the input or left padding.
int64_t pool_out(int64_t in, int64_t k, int64_t pad, int64_t stride, int64_t dil, bool ceil_mode) {
  int64_t num = in + 2 * pad - dil * (k - 1) - 1 + (ceil_mode ? stride - 1 : 0);
  int64_t q = num / stride;
  if ((num % stride != 0) && ((num < 0) != (stride < 0))) --q;
  int64_t out = q + 1;
  if (ceil_mode && (out - 1) * stride >= in + pad) --out;
  return out;
}

// First in-range tap of window `o` along a dim (the position torch reports for a
// window of -inf values), or -1 when the window misses the input.
int64_t first_tap(int64_t o, int64_t s, int64_t p, int64_t k, int64_t d, int64_t in) {
  for (int64_t i = 0; i < k; ++i) {
    int64_t x = o * s - p + i * d;
    if (x >= 0 && x < in) return x;
  }
  return -1;
}

// One tap column of a max-pool output row: out[ow] = max(out[ow], row[ow * s + off])
// over the columns whose input lies in the row. NaN wins, as in torch; with `idx`
// the winner's flat position `base + column` is kept.
template <typename T, typename M>
TL_VECTOR_CLONES void max_tap(const T* row, int64_t base, int64_t off, int64_t s, int64_t lo, int64_t hi, M* best,
                              int64_t* idx) {
  if (!idx) {
    for (int64_t o = lo; o < hi; ++o) {
      M v = static_cast<M>(row[o * s + off]);
      best[o] = (v > best[o] || v != v) ? v : best[o];
    }
    return;
  }
  for (int64_t o = lo; o < hi; ++o) {
    M v = static_cast<M>(row[o * s + off]);
    if (v > best[o] || v != v) {
      best[o] = v;
      idx[o] = base + o * s + off;
    }
  }
}

// The max-pool loop, one output row at a time: every (T, H) tap row of the window
// updates the whole row tap column by tap column, which visits each output's taps
// in torch's (t, h, w) order.
template <typename T>
void max_pool_loop(const Planes3& p, const Window& w, const Dims3& o, T* out, int64_t* idx) {
  using M = kernels::opmath_t<T>;
  const T* in = p.x.data<T>();
  const int64_t plane_in = p.in[0] * p.in[1] * p.in[2], plane_out = o[0] * o[1] * o[2];
  const int64_t rows = p.planes * o[0] * o[1];
  parallel_for(0, rows, std::max<int64_t>(1, kernels::kGrainSize / std::max<int64_t>(o[2] * w.k[2], 1)),
               [&](int64_t b, int64_t e) {
                 std::vector<M> best(static_cast<size_t>(o[2]));
                 std::vector<int64_t> bidx(static_cast<size_t>(o[2]));
                 for (int64_t r = b; r < e; ++r) {
                   const int64_t oh = r % o[1], ot = (r / o[1]) % o[0], pl = r / (o[0] * o[1]);
                   const T* src = in + pl * plane_in;
                   std::fill(best.begin(), best.end(), -std::numeric_limits<M>::infinity());
                   std::fill(bidx.begin(), bidx.end(), -1);
                   for (int64_t i = 0; i < w.k[0]; ++i) {
                     int64_t it = ot * w.s[0] - w.p[0] + i * w.d[0];
                     if (it < 0 || it >= p.in[0]) continue;
                     for (int64_t j = 0; j < w.k[1]; ++j) {
                       int64_t ih = oh * w.s[1] - w.p[1] + j * w.d[1];
                       if (ih < 0 || ih >= p.in[1]) continue;
                       const int64_t base = (it * p.in[1] + ih) * p.in[2];
                       for (int64_t l = 0; l < w.k[2]; ++l) {
                         const int64_t off = l * w.d[2] - w.p[2];
                         // Output columns whose input column ow * s + off lies in [0, W).
                         int64_t lo = off >= 0 ? 0 : (-off + w.s[2] - 1) / w.s[2];
                         int64_t hi = off > p.in[2] - 1 ? 0 : std::min<int64_t>(o[2], (p.in[2] - 1 - off) / w.s[2] + 1);
                         if (lo < hi) max_tap<T, M>(src + base, base, off, w.s[2], lo, hi, best.data(), idx ? bidx.data() : nullptr);
                       }
                     }
                   }
                   T* dst = out + pl * plane_out + (ot * o[1] + oh) * o[2];
                   for (int64_t c = 0; c < o[2]; ++c) dst[c] = static_cast<T>(best[static_cast<size_t>(c)]);
                   if (!idx) continue;
                   int64_t* dix = idx + pl * plane_out + (ot * o[1] + oh) * o[2];
                   const int64_t ft = first_tap(ot, w.s[0], w.p[0], w.k[0], w.d[0], p.in[0]);
                   const int64_t fh = first_tap(oh, w.s[1], w.p[1], w.k[1], w.d[1], p.in[1]);
                   for (int64_t c = 0; c < o[2]; ++c) {
                     int64_t v = bidx[static_cast<size_t>(c)];
                     if (v < 0) v = (ft * p.in[1] + fh) * p.in[2] + first_tap(c, w.s[2], w.p[2], w.k[2], w.d[2], p.in[2]);
                     dix[c] = v;
                   }
                 }
               });
}

// torch's pooling_output_shape checks, per spatial dim in order.
void check_output_shape_args(const Window& w, size_t first) {
  for (size_t i = first; i < 3; ++i) {
    TL_CHECK(w.s[i] != 0, ValueError, "stride should not be zero");
    TL_CHECK(w.p[i] >= 0, ValueError, "pad must be non-negative, but got pad: {}", w.p[i]);
    TL_CHECK(w.p[i] <= w.k[i] / 2, ValueError, "pad should be at most half of kernel size, but got pad={} and kernel_size={}",
             w.p[i], w.k[i]);
  }
}

// torch's own max_pool1d (the form without indices) checks its arguments one by one.
void check_max_pool1d_impl(const Tensor& self, const Window& w, bool ceil_mode) {
  TL_CHECK((self.dim() == 2 && self.size(0) != 0 && self.size(1) != 0) ||
               (self.dim() == 3 && self.size(1) != 0 && self.size(2) != 0),
           ValueError, "max_pool1d: Expected 2D or 3D (batch mode) tensor with optional 0 dim batch size for input, but got:{}",
           shape_repr(self.sizes()));
  TL_CHECK(w.k[2] > 0, ValueError, "max_pool1d() kernel_size must be greater than zero, but got {}", w.k[2]);
  TL_CHECK(w.s[2] > 0, ValueError, "max_pool1d() stride must be greater than zero, but got {}", w.s[2]);
  TL_CHECK(w.p[2] >= 0, ValueError, "max_pool1d() padding must be non-negative, but got {}", w.p[2]);
  TL_CHECK(w.p[2] <= w.k[2] / 2, ValueError,
           "max_pool1d() padding should be at most half of kernel size, but got padding={} and kernel_size={}", w.p[2],
           w.k[2]);
  TL_CHECK(w.d[2] > 0, ValueError, "max_pool1d() dilation must be greater than zero, but got {}", w.d[2]);
  int64_t ow = pool_out(self.size(-1), w.k[2], w.p[2], w.s[2], w.d[2], ceil_mode);
  TL_CHECK(ow >= 0, ValueError, "max_pool1d() Invalid computed output size: {}", ow);
}

// max_pool{1,2}d_with_indices (torch runs 1-d as 2-d over [.., 1, W]).
void check_max_pool2d_indices(const Tensor& self, const Window& w, int64_t nsp, const Dims3& in, const Dims3& o) {
  check_output_shape_args(w, 1);
  TL_CHECK(w.k[1] > 0 && w.k[2] > 0, ValueError, "kernel size should be greater than zero, but got kH: {} kW: {}", w.k[1],
           w.k[2]);
  TL_CHECK(w.s[1] > 0 && w.s[2] > 0, ValueError, "stride should be greater than zero, but got dH: {} dW: {}", w.s[1],
           w.s[2]);
  TL_CHECK(w.d[1] > 0 && w.d[2] > 0, ValueError, "dilation should be greater than zero, but got dilationH: {} dilationW: {}",
           w.d[1], w.d[2]);
  Tensor as2d = nsp == 1 ? self.unsqueeze(-2) : self;
  bool ok = (as2d.dim() == 3 && as2d.size(0) != 0 && as2d.size(1) != 0 && as2d.size(2) != 0) ||
            (as2d.dim() == 4 && as2d.size(1) != 0 && as2d.size(2) != 0 && as2d.size(3) != 0);
  TL_CHECK(ok, ValueError, "Expected 3D or 4D (batch mode) tensor with optional 0 dim batch size for input, but got:{}",
           shape_repr(as2d.sizes()));
  int64_t c = as2d.size(-3);
  TL_CHECK(o[1] >= 1 && o[2] >= 1, ValueError,
           "Given input size: ({}x{}x{}). Calculated output size: ({}x{}x{}). Output size is too small", c, in[1], in[2],
           c, o[1], o[2]);
}

void check_max_pool3d_indices(const Tensor& self, const Window& w, const Dims3& in, const Dims3& o) {
  TL_CHECK(w.k[0] > 0 && w.k[1] > 0 && w.k[2] > 0, ValueError,
           "kernel size should be greater than zero, but got kT: {} kH: {} kW: {}", w.k[0], w.k[1], w.k[2]);
  TL_CHECK(w.s[0] > 0 && w.s[1] > 0 && w.s[2] > 0, ValueError,
           "stride should be greater than zero, but got dT: {} dH: {} dW: {}", w.s[0], w.s[1], w.s[2]);
  TL_CHECK(w.d[0] > 0 && w.d[1] > 0 && w.d[2] > 0, ValueError,
           "dilation should be greater than zero, but got dilationT: {} dilationH: {} dilationW: {}", w.d[0], w.d[1],
           w.d[2]);
  for (int64_t i = self.dim() - 4; i < self.dim(); ++i) {
    TL_CHECK(self.size(i) > 0, ValueError,
             "max_pool3d_with_indices_out_cpu_template(): Expected input's non-batch dimensions to have positive "
             "length, but input has a shape of {} and non-batch dimension {} has length zero!",
             shape_repr(self.sizes()), i - (self.dim() - 4));
  }
  int64_t c = self.size(-4);
  TL_CHECK(o[0] >= 1 && o[1] >= 1 && o[2] >= 1, ValueError,
           "Given input size: ({}x{}x{}x{}). Calculated output size: ({}x{}x{}x{}). Output size is too small", c,
           in[0], in[1], in[2], c, o[0], o[1], o[2]);
}

// Checks in torch's order for each variant, then runs the loop.
std::tuple<Tensor, Tensor> max_pool_nd(const Tensor& self, int64_t nsp, IntList kernel_size, IntList stride,
                                       IntList padding, IntList dilation, bool ceil_mode, bool want_indices,
                                       const char* kernel_name) {
  const auto n = static_cast<size_t>(nsp);
  const char* what = nsp == 1 ? "max_pool1d" : nsp == 2 ? "max_pool2d" : "max_pool3d";
  if (nsp == 1 && want_indices) {
    TL_CHECK(self.dim() == 2 || self.dim() == 3, ValueError,
             "Expected 2 to 3 dimensions, but got {}-dimensional tensor for argument #1 'self' (while checking "
             "arguments for max_pool1d)",
             self.dim());
  }
  if (nsp == 3) TL_CHECK(self.dim() == 4 || self.dim() == 5, ValueError, "non-empty 4D or 5D (batch mode) tensor expected for input");
  auto arity_ok = [&](IntList v) { return v.size() == 1 || v.size() == n; };
  TL_CHECK(arity_ok(kernel_size), ValueError, "{}: kernel_size must either be a single int, or a tuple of {} ints", what, nsp);
  TL_CHECK(stride.empty() || arity_ok(stride), ValueError,
           "{}: stride must either be omitted, a single int, or a tuple of {} ints", what, nsp);
  TL_CHECK(arity_ok(padding), ValueError, "{}: padding must either be a single int, or a tuple of {} ints", what, nsp);
  TL_CHECK(arity_ok(dilation), ValueError, "{}: dilation must be either a single int, or a tuple of {} ints", what, nsp);
  Window w;
  w.k = fill3(kernel_size, nsp, 1);
  w.s = stride.empty() ? w.k : fill3(stride, nsp, 1);
  w.p = fill3(padding, nsp, 0);
  w.d = fill3(dilation, nsp, 1);
  if (nsp == 1 && !want_indices) check_max_pool1d_impl(self, w, ceil_mode);
  if (nsp == 3) check_output_shape_args(w, 0);
  Planes3 p = as_planes3(self, nsp);
  Dims3 o{1, 1, 1};
  for (size_t i = 3 - n; i < 3; ++i) {
    o[i] = w.s[i] == 0 ? 0 : pool_out(p.in[i], w.k[i], w.p[i], w.s[i], w.d[i], ceil_mode);
  }
  if (want_indices && nsp < 3) check_max_pool2d_indices(self, w, nsp, p.in, o);
  if (nsp == 3) check_max_pool3d_indices(self, w, p.in, o);
  TL_CHECK(is_floating(self.dtype()) && self.dtype() != DType::Half && (nsp != 3 || self.dtype() != DType::BFloat16),
           UnsupportedError, "\"{}\" not implemented for '{}'", kernel_name, dtype_info(self.dtype()).scalar_type_name);
  Tensor out = empty(out_shape(p, o), self.dtype());
  Tensor idx = want_indices ? empty(out_shape(p, o), DType::Long) : Tensor();
  if (out.numel() == 0) return {out, idx};
  kernels::dispatch_floating(self.dtype(), kernel_name, [&]<typename T>() {
    max_pool_loop<T>(p, w, o, out.data<T>(), want_indices ? idx.data<int64_t>() : nullptr);
  });
  return {out, idx};
}

}  // namespace

Tensor max_pool1d(const Tensor& self, IntList kernel_size, IntList stride, IntList padding, IntList dilation,
                  bool ceil_mode) {
  return std::get<0>(max_pool_nd(self, 1, kernel_size, stride, padding, dilation, ceil_mode, false, "max_pool1d_impl"));
}
Tensor max_pool3d(const Tensor& self, IntList kernel_size, IntList stride, IntList padding, IntList dilation,
                  bool ceil_mode) {
  return std::get<0>(
      max_pool_nd(self, 3, kernel_size, stride, padding, dilation, ceil_mode, true, "max_pool3d_with_indices_cpu"));
}
std::tuple<Tensor, Tensor> max_pool1d_with_indices(const Tensor& self, IntList kernel_size, IntList stride,
                                                   IntList padding, IntList dilation, bool ceil_mode) {
  return max_pool_nd(self, 1, kernel_size, stride, padding, dilation, ceil_mode, true, "max_pool2d");
}
std::tuple<Tensor, Tensor> max_pool2d_with_indices(const Tensor& self, IntList kernel_size, IntList stride,
                                                   IntList padding, IntList dilation, bool ceil_mode) {
  return max_pool_nd(self, 2, kernel_size, stride, padding, dilation, ceil_mode, true, "max_pool2d");
}
std::tuple<Tensor, Tensor> max_pool3d_with_indices(const Tensor& self, IntList kernel_size, IntList stride,
                                                   IntList padding, IntList dilation, bool ceil_mode) {
  return max_pool_nd(self, 3, kernel_size, stride, padding, dilation, ceil_mode, true, "max_pool3d_with_indices_cpu");
}

Tensor avg_pool1d(const Tensor& self, IntList kernel_size, IntList stride, IntList padding, bool ceil_mode,
                  bool count_include_pad) {
  TL_CHECK(self.dim() == 2 || self.dim() == 3, ValueError,
           "Expected 2 to 3 dimensions, but got {}-dimensional tensor for argument #1 'self' (while checking "
           "arguments for avg_pool1d)",
           self.dim());
  TL_CHECK(kernel_size.size() == 1, ValueError, "avg_pool1d() argument 'kernel_size' should contain one int (got {})",
           kernel_size.size());
  TL_CHECK(stride.size() <= 1, ValueError, "avg_pool1d() argument 'stride' should contain one int (got {})",
           stride.size());
  TL_CHECK(padding.size() == 1, ValueError, "avg_pool1d() argument 'padding' should contain one int (got {})",
           padding.size());
  // torch runs it as avg_pool2d over [.., 1, W].
  int64_t s = stride.empty() ? kernel_size[0] : stride[0];
  Tensor out = avg_pool2d(self.unsqueeze(-2), {1, kernel_size[0]}, {1, s}, {0, padding[0]}, ceil_mode,
                          count_include_pad, std::nullopt);
  return out.squeeze(-2);
}

Tensor avg_pool3d(const Tensor& self, IntList kernel_size, IntList stride, IntList padding, bool ceil_mode,
                  bool count_include_pad, std::optional<int64_t> divisor_override) {
  auto arity_ok = [](IntList v) { return v.size() == 1 || v.size() == 3; };
  TL_CHECK(arity_ok(kernel_size), ValueError,
           "avg_pool3d: kernel_size must be a single int, or a tuple of three ints");
  TL_CHECK(stride.empty() || arity_ok(stride), ValueError,
           "avg_pool3d: stride must be omitted, a single int, or a tuple of three ints");
  TL_CHECK(arity_ok(padding), ValueError, "avg_pool3d: padding must be a single int, or a tuple of three ints");
  TL_CHECK(self.dim() == 4 || self.dim() == 5, ValueError, "non-empty 4D or 5D (batch mode) tensor expected for input");
  TL_CHECK(!divisor_override || *divisor_override != 0, ValueError, "divisor must be not zero");
  Window w;
  w.k = fill3(kernel_size, 3, 1);
  w.s = stride.empty() ? w.k : fill3(stride, 3, 1);
  w.p = fill3(padding, 3, 0);
  check_output_shape_args(w, 0);
  for (size_t i = 0; i < 3; ++i) {
    TL_CHECK(w.k[i] > 0, ValueError, "kernel size should be greater than zero, but got kT: {} kH: {} kW: {}", w.k[0],
             w.k[1], w.k[2]);
    TL_CHECK(w.s[i] > 0, ValueError, "stride should be greater than zero, but got dT: {} dH: {} dW: {}", w.s[0],
             w.s[1], w.s[2]);
  }
  for (int64_t i = self.dim() - 4; i < self.dim(); ++i) {
    TL_CHECK(self.size(i) > 0, ValueError,
             "avg_pool3d(): Expected input's non-batch dimensions to have positive length, but input has a shape of "
             "{} and non-batch dimension {} has length zero!",
             shape_repr(self.sizes()), i - (self.dim() - 4));
  }
  Planes3 p = as_planes3(self, 3);
  TL_CHECK(p.in[0] >= w.k[0] && p.in[1] >= w.k[1] && p.in[2] >= w.k[2], ValueError,
           "input image (T: {} H: {} W: {}) smaller than kernel size (kT: {} kH: {} kW: {})", p.in[0], p.in[1],
           p.in[2], w.k[0], w.k[1], w.k[2]);
  Dims3 o;
  for (size_t i = 0; i < 3; ++i) o[i] = pool_out(p.in[i], w.k[i], w.p[i], w.s[i], 1, ceil_mode);
  TL_CHECK(o[0] > 0 && o[1] > 0 && o[2] > 0, ValueError,
           "Given input size: ({}x{}x{}x{}). Calculated output size: ({}x{}x{}x{}). Output size is too small",
           self.size(-4), p.in[0], p.in[1], p.in[2], self.size(-4), o[0], o[1], o[2]);
  Tensor out = empty(out_shape(p, o), self.dtype());
  DType dt = self.dtype();
  TL_CHECK((is_floating(dt) && dt != DType::Half && dt != DType::BFloat16) || dt == DType::Long, UnsupportedError,
           "\"avg_pool3d_out_frame\" not implemented for '{}'", dtype_info(dt).scalar_type_name);
  if (out.numel() == 0) return out;
  dispatch_real(dt, "avg_pool3d_out_frame", [&]<typename T>() {
    using M = std::conditional_t<std::is_floating_point_v<kernels::opmath_t<T>>, kernels::opmath_t<T>, int64_t>;
    const T* in = p.x.data<T>();
    T* dst = out.data<T>();
    const int64_t plane_in = p.in[0] * p.in[1] * p.in[2], plane_out = o[0] * o[1] * o[2];
    parallel_for(0, p.planes, 1, [&](int64_t b, int64_t e) {
      for (int64_t pl = b; pl < e; ++pl) {
        const T* src = in + pl * plane_in;
        for (int64_t ot = 0; ot < o[0]; ++ot) {
          for (int64_t oh = 0; oh < o[1]; ++oh) {
            for (int64_t ow = 0; ow < o[2]; ++ow) {
              Dims3 lo{ot * w.s[0] - w.p[0], oh * w.s[1] - w.p[1], ow * w.s[2] - w.p[2]}, hi;
              int64_t pool_size = 1, count = 1;
              for (size_t i = 0; i < 3; ++i) {
                hi[i] = std::min(lo[i] + w.k[i], p.in[i] + w.p[i]);
                pool_size *= hi[i] - lo[i];
                lo[i] = std::max<int64_t>(lo[i], 0);
                hi[i] = std::min(hi[i], p.in[i]);
                count *= hi[i] - lo[i];
              }
              M acc = 0;
              for (int64_t it = lo[0]; it < hi[0]; ++it) {
                for (int64_t ih = lo[1]; ih < hi[1]; ++ih) {
                  const T* row = src + (it * p.in[1] + ih) * p.in[2];
                  for (int64_t iw = lo[2]; iw < hi[2]; ++iw) acc += static_cast<M>(row[iw]);
                }
              }
              int64_t divisor = divisor_override ? *divisor_override : count_include_pad ? pool_size : count;
              dst[pl * plane_out + (ot * o[1] + oh) * o[2] + ow] = static_cast<T>(acc / static_cast<M>(divisor));
            }
          }
        }
      }
    });
  });
  return out;
}

namespace {

// Adaptive windows: [floor(o*in/out), ceil((o+1)*in/out)).
int64_t a_start(int64_t o, int64_t in, int64_t out) { return (o * in) / out; }
int64_t a_end(int64_t o, int64_t in, int64_t out) { return ((o + 1) * in + out - 1) / out; }

// Average (`max_idx` null) or max with indices over adaptive windows of [T, H, W] planes.
template <typename T>
void adaptive_loop(const Planes3& p, const Dims3& o, T* out, int64_t* max_idx) {
  using M = kernels::opmath_t<T>;
  const T* in = p.x.data<T>();
  const int64_t plane_in = p.in[0] * p.in[1] * p.in[2], plane_out = o[0] * o[1] * o[2];
  parallel_for(0, p.planes, 1, [&](int64_t b, int64_t e) {
    for (int64_t pl = b; pl < e; ++pl) {
      const T* src = in + pl * plane_in;
      for (int64_t ot = 0; ot < o[0]; ++ot) {
        int64_t t0 = a_start(ot, p.in[0], o[0]), t1 = a_end(ot, p.in[0], o[0]);
        for (int64_t oh = 0; oh < o[1]; ++oh) {
          int64_t h0 = a_start(oh, p.in[1], o[1]), h1 = a_end(oh, p.in[1], o[1]);
          for (int64_t ow = 0; ow < o[2]; ++ow) {
            int64_t w0 = a_start(ow, p.in[2], o[2]), w1 = a_end(ow, p.in[2], o[2]);
            int64_t oi = pl * plane_out + (ot * o[1] + oh) * o[2] + ow;
            if (!max_idx) {
              M acc = 0;
              for (int64_t it = t0; it < t1; ++it) {
                for (int64_t ih = h0; ih < h1; ++ih) {
                  const T* row = src + (it * p.in[1] + ih) * p.in[2];
                  for (int64_t iw = w0; iw < w1; ++iw) acc += static_cast<M>(row[iw]);
                }
              }
              out[oi] = static_cast<T>(acc / static_cast<M>((t1 - t0) * (h1 - h0) * (w1 - w0)));
              continue;
            }
            M best = -std::numeric_limits<M>::infinity();
            int64_t best_i = (t0 * p.in[1] + h0) * p.in[2] + w0;
            // torch's test: every NaN is taken, so the last one in the window wins.
            for (int64_t it = t0; it < t1; ++it) {
              for (int64_t ih = h0; ih < h1; ++ih) {
                for (int64_t iw = w0; iw < w1; ++iw) {
                  int64_t at = (it * p.in[1] + ih) * p.in[2] + iw;
                  M v = static_cast<M>(src[at]);
                  if (v > best || v != v) {
                    best = v;
                    best_i = at;
                  }
                }
              }
            }
            out[oi] = static_cast<T>(best);
            max_idx[oi] = best_i;
          }
        }
      }
    }
  });
}

std::tuple<Tensor, Tensor> adaptive_nd(const Tensor& self, IntList output_size, int64_t nsp, bool is_max) {
  Planes3 p = as_planes3(self, nsp);
  Dims3 o = fill3(output_size, nsp, 1);
  Tensor out = empty(out_shape(p, o), self.dtype());
  Tensor idx = is_max ? empty(out_shape(p, o), DType::Long) : Tensor();
  const char* kernel = is_max ? (nsp == 3 ? "adaptive_max_pool3d_cpu" : "adaptive_max_pool2d")
                              : (nsp == 3 ? "adaptive_avg_pool3d_cpu" : "adaptive_avg_pool2d");
  DType dt = self.dtype();
  // An all-ones average is torch's mean(), which takes every floating type and names itself.
  if (!is_max && o[0] == 1 && o[1] == 1 && o[2] == 1) {
    TL_CHECK(is_floating(dt) || is_complex(dt), UnsupportedError,
             "mean(): could not infer output dtype. Input dtype must be either a floating point or complex dtype. "
             "Got: {}",
             dtype_info(dt).scalar_type_name);
  } else if (!(nsp == 1 && !is_max && self.numel() == 0)) {  // 1-d average returns empty before its kernel
    TL_CHECK(is_floating(dt) && dt != DType::Half && (nsp == 1 || dt != DType::BFloat16), UnsupportedError,
             "\"{}\" not implemented for '{}'", kernel, dtype_info(dt).scalar_type_name);
  }
  if (out.numel() == 0) return {out, idx};
  if (!is_max && o[0] == 1 && o[1] == 1 && o[2] == 1) {
    // torch computes this as mean() over the spatial dims (vectorised, pairwise).
    Shape dims;
    for (int64_t i = 0; i < nsp; ++i) dims.push_back(self.dim() - nsp + i);
    return {mean(self, dims, true), idx};
  }
  kernels::dispatch_floating(self.dtype(), kernel, [&]<typename T>() {
    adaptive_loop<T>(p, o, out.data<T>(), is_max ? idx.data<int64_t>() : nullptr);
  });
  return {out, idx};
}

void check_adaptive_1d(const Tensor& self, IntList output_size, const char* op) {
  TL_CHECK(self.dim() == 2 || self.dim() == 3, ValueError,
           "Expected 2 to 3 dimensions, but got {}-dimensional tensor for argument #1 'self' (while checking "
           "arguments for {})",
           self.dim(), op);
  TL_CHECK(output_size.size() == 1, ValueError, "{}() argument 'output_size' should contain one int (got {})", op,
           output_size.size());
}

// Non-batch dims must be non-empty; `op` and the dim count say which message torch uses.
void check_adaptive_nonempty(const Tensor& self, int64_t nsp, const char* op) {
  for (int64_t i = self.dim() - nsp - 1; i < self.dim(); ++i) {
    TL_CHECK(self.size(i) > 0, ValueError,
             "{}(): Expected input to have non-zero size for non-batch dimensions, but input has sizes {} with "
             "dimension {} being empty",
             op, shape_repr(self.sizes()), i);
  }
}

}  // namespace

Tensor adaptive_avg_pool1d(const Tensor& self, IntList output_size) {
  check_adaptive_1d(self, output_size, "adaptive_avg_pool1d");
  TL_CHECK(output_size[0] >= 0, ValueError,
           "adaptive_avg_pool2d: elements of output_size must be greater than or equal to 0 but received {{1, {}}}",
           output_size[0]);
  // torch runs it as adaptive_avg_pool2d, which allows an empty channel dimension.
  for (int64_t i = 1; i < self.dim(); ++i) {
    TL_CHECK(self.size(i) > 0 || (i == self.dim() - 2), ValueError,
             "adaptive_avg_pool2d(): Expected input to have non-zero size for non-batch dimensions, but input has "
             "sizes {} with dimension {} being empty",
             shape_repr(self.unsqueeze(-2).sizes()), i + (i == self.dim() - 1 ? 1 : 0));
  }
  return std::get<0>(adaptive_nd(self, output_size, 1, false));
}

Tensor adaptive_avg_pool3d(const Tensor& self, IntList output_size) {
  TL_CHECK(output_size.size() == 3, ValueError, "adaptive_avg_pool3d: output_size must be 3");
  TL_CHECK(output_size[0] >= 0 && output_size[1] >= 0 && output_size[2] >= 0, ValueError,
           "adaptive_avg_pool2d: elements of output_size must be greater than or equal to 0 but received {{{}, {},{}}}",
           output_size[0], output_size[1], output_size[2]);
  TL_CHECK(self.dim() == 4 || self.dim() == 5, ValueError, "adaptive_avg_pool3d(): Expected 4D or 5D tensor, but got {}",
           shape_repr(self.sizes()));
  check_adaptive_nonempty(self, 3, "adaptive_avg_pool3d");
  return std::get<0>(adaptive_nd(self, output_size, 3, false));
}

std::tuple<Tensor, Tensor> adaptive_max_pool1d(const Tensor& self, IntList output_size) {
  check_adaptive_1d(self, output_size, "adaptive_max_pool1d");
  // torch runs it as adaptive_max_pool2d over [.., 1, W].
  Tensor as2d = self.unsqueeze(-2);
  check_adaptive_nonempty(as2d, 2, "adaptive_max_pool2d");
  return adaptive_nd(self, output_size, 1, true);
}

std::tuple<Tensor, Tensor> adaptive_max_pool3d(const Tensor& self, IntList output_size) {
  TL_CHECK(output_size.size() == 3, ValueError, "adaptive_max_pool3d: internal error: output_size.size() must be 3");
  TL_CHECK(self.dim() == 4 || self.dim() == 5, ValueError, "adaptive_max_pool3d(): Expected 4D or 5D tensor, but got: {}",
           shape_repr(self.sizes()));
  check_adaptive_nonempty(self, 3, "adaptive_max_pool3d");
  return adaptive_nd(self, output_size, 3, true);
}

// --- max_unpool ---------------------------------------------------------------------------
// max_unpool2d/3d scatter each input value to the flat position its index names within
// its (batch, channel) plane of the output, zeros elsewhere. Planes are walked in order
// and, as in torch's single-threaded kernel, a later value for the same position wins and
// the error names the last invalid index met. Checks and wording follow torch 1.13's.

namespace {

void check_max_unpool3d(const Tensor& input, const Tensor& indices, IntList output_size, IntList stride,
                        IntList padding) {
  const int64_t nd = input.dim();
  TL_CHECK(indices.dtype() == DType::Long, TypeError, "elements in indices should be type int64");
  TL_CHECK(nd == 4 || nd == 5, ValueError,
           "Input to max_unpooling3d should be a 4d or 5d Tensor, but got a tensor with {} dimensions.", nd);
  TL_CHECK(output_size.size() == 3, ValueError,
           "There should be exactly three elements (depth, height, width) in output_size, but got: {} elements.",
           output_size.size());
  TL_CHECK(stride.size() == 3, ValueError,
           "There should be exactly three elements (depth, height, width) in stride, but got: {} elements.",
           stride.size());
  TL_CHECK(padding.size() == 3, ValueError,
           "There should be exactly three elements (depth, height, width) in padding, but got: {} elements.",
           padding.size());
}

void check_max_unpool2d(const Tensor& input, const Tensor& indices, IntList output_size) {
  const int64_t nd = input.dim();
  TL_CHECK(indices.dtype() == DType::Long, TypeError, "elements in indices should be type int64 but got: {}",
           dtype_info(indices.dtype()).scalar_type_name);
  TL_CHECK(output_size.size() == 2, ValueError,
           "There should be exactly two elements (height, width) in output_size, but got {} elements.",
           output_size.size());
  TL_CHECK(nd == 3 || nd == 4, ValueError,
           "Input to max_unpooling2d should be a 3d or 4d Tensor, but got a tensor with {} dimensions.", nd);
}

// After the form's own checks (above): the shared ones, then the scatter.
Tensor max_unpool(const Tensor& input, const Tensor& indices, IntList output_size, const IntList* stride,
                  int spatial) {
  const int64_t nd = input.dim();
  const char* op = spatial == 3 ? "max_unpool3d" : "max_unpool2d";
  TL_CHECK(input.sizes() == indices.sizes(), ValueError,
           "Expected shape of indices to be same as that of the input tensor ({}) but got indices tensor with shape: {}",
           shape_repr(input.sizes()), shape_repr(indices.sizes()));
  for (int64_t i = 1; i < nd; ++i)
    TL_CHECK(input.size(i) > 0, ValueError,
             "max_unpooling{}d_forward_out_cpu(): Expected input to have non-zero size for non-batch dimensions, but got "
             "{} with dimension {} being empty.",
             spatial, shape_repr(input.sizes()), i);
  if (stride)
    TL_CHECK((*stride)[0] > 0 && (*stride)[1] > 0 && (*stride)[2] > 0, ValueError,
             "strides should be greater than zero, but got stride: {}", shape_repr(*stride));
  for (int64_t v : output_size)
    TL_CHECK(v >= 0, ValueError, "{}: output_size {} has a negative size", op, shape_repr(output_size));
  Shape out_shape(input.sizes().begin(), input.sizes().end() - spatial);
  out_shape.insert(out_shape.end(), output_size.begin(), output_size.end());
  Tensor out = zeros(out_shape, input.dtype());
  if (out.numel() == 0) return out;
  TL_CHECK(input.dtype() == DType::Float || input.dtype() == DType::Double, UnsupportedError,
           "\"{}\" not implemented for '{}'", op, dtype_info(input.dtype()).scalar_type_name);
  int64_t out_plane = 1, in_plane = 1;
  for (int k = 0; k < spatial; ++k) {
    out_plane *= output_size[static_cast<size_t>(k)];
    in_plane *= input.size(nd - spatial + k);
  }
  const int64_t planes = input.numel() / in_plane;
  const Tensor x = input.contiguous(), ix = indices.contiguous();
  std::optional<int64_t> invalid;
  auto scatter_planes = [&]<typename T>() {
    const T* xp = x.data<T>();
    const int64_t* ip = ix.data<int64_t>();
    T* op_data = out.data<T>();
    for (int64_t p = 0; p < planes; ++p, xp += in_plane, ip += in_plane, op_data += out_plane)
      for (int64_t i = 0; i < in_plane; ++i) {
        if (ip[i] < 0 || ip[i] >= out_plane) invalid = ip[i];
        else op_data[ip[i]] = xp[i];
      }
  };
  if (input.dtype() == DType::Float) scatter_planes.template operator()<float>();
  else scatter_planes.template operator()<double>();
  if (invalid) {
    TL_FAIL(IndexError, "Found an invalid max index: {} (output volumes are of size {}", *invalid,
            fmt::join(output_size, "x"));
  }
  return out;
}

}  // namespace

Tensor max_unpool2d(const Tensor& self, const Tensor& indices, IntList output_size) {
  check_max_unpool2d(self, indices, output_size);
  return max_unpool(self, indices, output_size, nullptr, 2);
}

Tensor max_unpool3d(const Tensor& self, const Tensor& indices, IntList output_size, IntList stride,
                    IntList padding) {
  check_max_unpool3d(self, indices, output_size, stride, padding);
  return max_unpool(self, indices, output_size, &stride, 3);
}

}  // namespace torchlet

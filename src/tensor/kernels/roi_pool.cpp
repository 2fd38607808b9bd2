// torchvision::roi_pool and torchvision::ps_roi_pool on CPU: RoI pooling over whole-pixel
// bins of the rounded roi, as torchvision 0.14's CPU kernels compute it (max with its
// argmax; the position-sensitive average with its channel mapping). The bilinear forms
// and the argument checks both share are roi_align.cpp's.
#include <algorithm>
#include <cfloat>
#include <climits>
#include <cmath>
#include <cstdint>
#include <vector>

#include <torchlet/error.h>

#include "core/parallel.h"
#include "tensor/kernels/detection.h"
#include "tensor/kernels/loop.h"

namespace torchlet::vision {
namespace {

// roi_pool takes the max of each bin and counts the roi's end pixel in its size;
// ps_roi_pool averages its bins and does not.
enum class PoolKind { Max, PositionSensitiveAverage };

// A bin's pixel window [h0, h1) x [w0, w1), clipped to the image.
struct Window {
  int64_t h0 = 0, h1 = 0, w0 = 0, w1 = 0;
  bool empty() const { return h1 <= h0 || w1 <= w0; }
};

// torchvision rounds the scaled corners to int (halves away from zero); a corner past
// int is refused rather than overflowing.
template <typename A>
int64_t rounded_corner(A v, int64_t k, const char* op) {
  const double r = std::round(static_cast<double>(v));
  TL_CHECK(std::fabs(r) <= INT_MAX / 2, LimitError, "{}: roi {} has a corner at {} (it must be finite and fit in int)",
           op, k, static_cast<double>(v));
  return static_cast<int64_t>(r);
}

template <typename A>
int64_t clip(A edge_in_roi, int64_t start, int64_t last, bool up, const char* op) {
  const double e = up ? std::ceil(static_cast<double>(edge_in_roi)) : std::floor(static_cast<double>(edge_in_roi));
  // A float16 bin of a roi wider than 65504 pixels is infinite (torchvision casts it anyway).
  TL_CHECK(std::isfinite(e), LimitError, "{}: a bin edge of a roi is {} (a roi too large for the dtype)", op, e);
  return std::min(std::max(static_cast<int64_t>(e) + start, int64_t{0}), last);
}

// The windows of every bin of one roi, in bin order.
template <typename A>
std::vector<Window> roi_windows(const A* r, int64_t k, A scale, int ph, int pw, int64_t height, int64_t width,
                                PoolKind kind, const char* op) {
  const int64_t start_w = rounded_corner<A>(r[1] * scale, k, op), start_h = rounded_corner<A>(r[2] * scale, k, op);
  const int64_t end_w = rounded_corner<A>(r[3] * scale, k, op), end_h = rounded_corner<A>(r[4] * scale, k, op);
  const int64_t extra = kind == PoolKind::Max ? 1 : 0;  // malformed rois become 1x1
  const int roi_w = static_cast<int>(std::max<int64_t>(end_w - start_w + extra, 1));
  const int roi_h = static_cast<int>(std::max<int64_t>(end_h - start_h + extra, 1));
  const A bin_h = static_cast<A>(roi_h) / static_cast<A>(ph), bin_w = static_cast<A>(roi_w) / static_cast<A>(pw);
  // torchvision's ps_roi_pool clips its windows to [0, size - 1], so the last row and
  // column of the image never enter a bin; roi_pool clips to [0, size].
  const int64_t last_h = kind == PoolKind::Max ? height : height - 1;
  const int64_t last_w = kind == PoolKind::Max ? width : width - 1;
  std::vector<Window> out;
  out.reserve(static_cast<size_t>(ph) * static_cast<size_t>(pw));
  for (int i = 0; i < ph; ++i)
    for (int j = 0; j < pw; ++j)
      out.push_back({clip<A>(static_cast<A>(i) * bin_h, start_h, last_h, false, op),
                     clip<A>(static_cast<A>(i + 1) * bin_h, start_h, last_h, true, op),
                     clip<A>(static_cast<A>(j) * bin_w, start_w, last_w, false, op),
                     clip<A>(static_cast<A>(j + 1) * bin_w, start_w, last_w, true, op)});
  return out;
}

// The max of a window and its first position (an empty window gives 0 and -1; NaN never
// wins, and a window of values at or below -FLT_MAX keeps -FLT_MAX and -1, as
// torchvision's strict comparison from -FLT_MAX does).
template <typename T, typename A>
void window_max(const T* plane, int64_t width, const Window& w, T* out, int32_t* argmax) {
  A best = w.empty() ? static_cast<A>(0) : static_cast<A>(-FLT_MAX);
  int64_t at = -1;
  for (int64_t h = w.h0; h < w.h1; ++h)
    for (int64_t x = w.w0; x < w.w1; ++x) {
      const A v = static_cast<A>(plane[h * width + x]);
      if (v > best) {
        best = v;
        at = h * width + x;
      }
    }
  *out = detail::stored<T>(best);
  *argmax = static_cast<int32_t>(at);
}

template <typename T, typename A>
T window_average(const T* plane, int64_t width, const Window& w) {
  if (w.empty()) return detail::stored<T>(static_cast<A>(0));
  A sum = 0;
  for (int64_t h = w.h0; h < w.h1; ++h)
    for (int64_t x = w.w0; x < w.w1; ++x) sum += static_cast<A>(plane[h * width + x]);
  const A area = static_cast<A>(static_cast<int>((w.h1 - w.h0) * (w.w1 - w.w0)));
  return detail::stored<T>(sum / area);
}

template <typename T>
void pool_rois(const Tensor& input, const Tensor& rois, const detail::RoiShape& s, double spatial_scale, int ph,
               int pw, PoolKind kind, const char* op, Tensor& out, Tensor& second) {
  using A = detail::arith_t<T>;
  const Tensor x = input.contiguous();
  const Tensor r = rois.contiguous();
  const T* rp = r.data<T>();
  const A scale = static_cast<A>(spatial_scale);
  std::vector<int64_t> batch(static_cast<size_t>(s.k));
  std::vector<std::vector<Window>> windows(static_cast<size_t>(s.k));
  for (int64_t k = 0; k < s.k; ++k) {
    A roi[5];
    for (int i = 0; i < 5; ++i) roi[i] = static_cast<A>(rp[5 * k + i]);
    batch[static_cast<size_t>(k)] = detail::roi_batch_index(static_cast<double>(roi[0]), k, s.n, op);
    windows[static_cast<size_t>(k)] = roi_windows<A>(roi, k, scale, ph, pw, s.h, s.w, kind, op);
  }
  const T* src = x.data<T>();
  T* dst = out.data<T>();
  int32_t* aux = second.data<int32_t>();
  const int64_t plane = s.h * s.w, bins = static_cast<int64_t>(ph) * pw, channels_out = out.size(1);
  parallel_for(0, s.k, std::max<int64_t>(1, kernels::kGrainSize / std::max<int64_t>(1, channels_out * bins)),
               [&](int64_t lo, int64_t hi) {
                 for (int64_t k = lo; k < hi; ++k) {
                   const std::vector<Window>& win = windows[static_cast<size_t>(k)];
                   for (int64_t co = 0; co < channels_out; ++co)
                     for (int64_t b = 0; b < bins; ++b) {
                       const int64_t o = (k * channels_out + co) * bins + b;
                       const Window& w = win[static_cast<size_t>(b)];
                       if (kind == PoolKind::Max) {
                         window_max<T, A>(src + (batch[static_cast<size_t>(k)] * s.c + co) * plane, s.w, w, dst + o,
                                          aux + o);
                         continue;
                       }
                       const int64_t c = co * bins + b;
                       dst[o] = window_average<T, A>(src + (batch[static_cast<size_t>(k)] * s.c + c) * plane, s.w, w);
                       aux[o] = static_cast<int32_t>(c);
                     }
                 }
               });
}

// float, double and half, as torchvision's pooling kernels take.
void dispatch_pool(const Tensor& input, const Tensor& rois, const detail::RoiShape& s, double spatial_scale, int ph,
                   int pw, PoolKind kind, const char* op, const char* kernel, Tensor& out, Tensor& second) {
  const DType d = input.dtype();
  if (d == DType::Float) return pool_rois<float>(input, rois, s, spatial_scale, ph, pw, kind, op, out, second);
  if (d == DType::Double) return pool_rois<double>(input, rois, s, spatial_scale, ph, pw, kind, op, out, second);
  if (d == DType::Half) return pool_rois<Half>(input, rois, s, spatial_scale, ph, pw, kind, op, out, second);
  throw_unsupported_dtype(kernel, d);
}

}  // namespace

std::tuple<Tensor, Tensor> roi_pool(const Tensor& input, const Tensor& rois, double spatial_scale,
                                    int64_t pooled_height, int64_t pooled_width) {
  // torchvision 0.14 does not check the rois' shape here (it reads past [K, 4] rois).
  const detail::RoiShape s = detail::check_roi_args(input, rois, "Tensor rois should have shape as Tensor[K, 5]",
                                                    "roi_pool_forward_kernel", "roi_pool");
  Tensor out = zeros({s.k, s.c, pooled_height, pooled_width}, input.dtype());
  Tensor argmax = zeros({s.k, s.c, pooled_height, pooled_width}, DType::Int);
  if (out.numel() == 0) return {out, argmax};
  dispatch_pool(input, rois, s, spatial_scale, detail::pooled_side(pooled_height, "roi_pool"),
                detail::pooled_side(pooled_width, "roi_pool"), PoolKind::Max, "roi_pool", "roi_pool_forward_kernel",
                out, argmax);
  return {out, argmax};
}

std::tuple<Tensor, Tensor> ps_roi_pool(const Tensor& input, const Tensor& rois, double spatial_scale,
                                       int64_t pooled_height, int64_t pooled_width) {
  const detail::RoiShape s = detail::check_roi_args(input, rois, "Tensor rois should have shape as Tensor[K, 5]",
                                                    "ps_roi_pool_forward_kernel", "ps_roi_pool");
  const int64_t bins = detail::pooled_bins(pooled_height, pooled_width, "ps_roi_pool");
  TL_CHECK(s.c % bins == 0, ValueError, "input channels must be a multiple of pooling height * pooling width");
  Tensor out = zeros({s.k, s.c / bins, pooled_height, pooled_width}, input.dtype());
  Tensor mapping = zeros({s.k, s.c / bins, pooled_height, pooled_width}, DType::Int);
  if (out.numel() == 0) return {out, mapping};
  dispatch_pool(input, rois, s, spatial_scale, detail::pooled_side(pooled_height, "ps_roi_pool"),
                detail::pooled_side(pooled_width, "ps_roi_pool"), PoolKind::PositionSensitiveAverage, "ps_roi_pool",
                "ps_roi_pool_forward_kernel", out, mapping);
  return {out, mapping};
}

}  // namespace torchlet::vision

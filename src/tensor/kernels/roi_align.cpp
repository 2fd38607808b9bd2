// torchvision::roi_align and torchvision::ps_roi_align on CPU: bilinear RoI pooling as
// torchvision 0.14's CPU kernels compute it, in the same arithmetic (float16 included)
// so results agree to the bit. It owns the sampling geometry and the checks torchvision
// makes of its arguments; roi_pool.cpp holds the whole-pixel pooling forms.
#include <algorithm>
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

// One roi's sampling grid, as torchvision derives it before its channel loop.
template <typename A>
struct RoiGeometry {
  int64_t batch = 0;
  A start_h{}, start_w{}, bin_h{}, bin_w{};
  int grid_h = 0, grid_w = 0;  // samples per bin side; none when either is <= 0
  A count{};                   // what each bin's sum is divided by
};

// torchvision keeps the grid in int and multiplies its sides; a grid past that (from a
// huge sampling_ratio or a huge or non-finite roi) is refused instead of overflowing.
int grid_side(int64_t sampling_ratio, double adaptive, int64_t k, const char* op) {
  if (sampling_ratio > 0) return static_cast<int>(sampling_ratio);
  TL_CHECK(std::isfinite(adaptive) && std::fabs(adaptive) <= INT_MAX, LimitError,
           "{}: roi {} needs {} samples per bin side (rois must be finite and the grid must fit in int)", op, k,
           adaptive);
  return static_cast<int>(adaptive);
}

// roi_align and ps_roi_align derive the grid alike except where torchvision's kernels
// differ: ps_roi_align is always aligned, never enlarges a small roi to 1x1, and
// divides by the bare sample count (so a roi without samples gives 0 / 0).
enum class SamplingKind { RoiAlign, PositionSensitive };

template <typename A>
RoiGeometry<A> roi_geometry(const A* r, int64_t k, int64_t batch_size, A scale, int pooled_h, int pooled_w,
                            int64_t sampling_ratio, bool aligned, SamplingKind kind, const char* op) {
  RoiGeometry<A> g;
  g.batch = detail::roi_batch_index(static_cast<double>(r[0]), k, batch_size, op);
  const A offset = aligned ? static_cast<A>(0.5) : static_cast<A>(0.0);
  g.start_w = r[1] * scale - offset;
  g.start_h = r[2] * scale - offset;
  const A end_w = r[3] * scale - offset, end_h = r[4] * scale - offset;
  A roi_w = end_w - g.start_w, roi_h = end_h - g.start_h;
  if (!aligned) {  // torchvision makes malformed rois at least 1x1
    roi_w = std::max(roi_w, static_cast<A>(1.));
    roi_h = std::max(roi_h, static_cast<A>(1.));
  }
  g.bin_h = static_cast<A>(roi_h) / static_cast<A>(pooled_h);
  g.bin_w = static_cast<A>(roi_w) / static_cast<A>(pooled_w);
  g.grid_h = grid_side(sampling_ratio, std::ceil(static_cast<double>(roi_h / pooled_h)), k, op);
  g.grid_w = grid_side(sampling_ratio, std::ceil(static_cast<double>(roi_w / pooled_w)), k, op);
  const int64_t samples = static_cast<int64_t>(g.grid_h) * g.grid_w;
  TL_CHECK(samples <= INT_MAX && samples >= -static_cast<int64_t>(INT_MAX), LimitError,
           "{}: roi {} samples a {}x{} grid per bin, more than an int counts", op, k, g.grid_h, g.grid_w);
  const int count = static_cast<int>(samples);
  g.count = static_cast<A>(kind == SamplingKind::RoiAlign ? std::max(count, 1) : count);
  return g;
}

// One sample coordinate along an axis: the two pixels it lies between and their
// weights, with torchvision's boundary rules (outside [-1, size] samples nothing; below
// 0 clamps to 0; past the last pixel sticks to it). NaN counts as outside.
template <typename A>
struct AxisSample {
  bool inside = false;
  int64_t low = 0, high = 0;
  A l{}, h{};
};

template <typename A>
AxisSample<A> axis_sample(A c, int64_t size) {
  AxisSample<A> s;
  if (!(c >= -1.0 && c <= static_cast<int>(size))) return s;
  s.inside = true;
  if (c <= 0) c = 0;
  int low = static_cast<int>(c);
  int high;
  if (low >= size - 1) {
    high = low = static_cast<int>(size - 1);
    c = static_cast<A>(low);
  } else {
    high = low + 1;
  }
  s.low = low;
  s.high = high;
  s.l = c - low;
  s.h = 1. - s.l;
  return s;
}

// The coordinates of every sample along one axis of a roi: `bins` bins of `grid` samples.
template <typename A>
std::vector<AxisSample<A>> axis_samples(A start, A bin, int bins, int grid, int64_t size) {
  std::vector<AxisSample<A>> out;
  if (grid <= 0) return out;
  out.reserve(static_cast<size_t>(bins) * static_cast<size_t>(grid));
  for (int p = 0; p < bins; ++p)
    for (int i = 0; i < grid; ++i)
      out.push_back(axis_sample<A>(start + p * bin + static_cast<A>(i + .5f) * bin / static_cast<A>(grid), size));
  return out;
}

// The average of one bin's samples over one plane. In roi_align a sample outside the
// image adds 0 * plane[0] four times, as torchvision's zero-weight sample does (so a NaN
// or inf in the plane's first pixel reaches the bin); ps_roi_align's adds nothing.
template <typename T, typename A>
A bin_average(const T* plane, int64_t width, const AxisSample<A>* ys, const AxisSample<A>* xs, int grid_h,
              int grid_w, A count, SamplingKind kind) {
  A val = 0.;
  for (int iy = 0; iy < grid_h; ++iy) {
    const AxisSample<A>& y = ys[iy];
    for (int ix = 0; ix < grid_w; ++ix) {
      const AxisSample<A>& x = xs[ix];
      if (kind == SamplingKind::PositionSensitive && !(y.inside && x.inside)) continue;
      A w1 = 0, w2 = 0, w3 = 0, w4 = 0;
      int64_t p1 = 0, p2 = 0, p3 = 0, p4 = 0;
      if (y.inside && x.inside) {
        w1 = y.h * x.h, w2 = y.h * x.l, w3 = y.l * x.h, w4 = y.l * x.l;
        p1 = y.low * width + x.low, p2 = y.low * width + x.high;
        p3 = y.high * width + x.low, p4 = y.high * width + x.high;
      }
      val += w1 * static_cast<A>(plane[p1]) + w2 * static_cast<A>(plane[p2]) + w3 * static_cast<A>(plane[p3]) +
             w4 * static_cast<A>(plane[p4]);
    }
  }
  val /= count;
  return val;
}

int64_t sampling_side(int64_t v, const char* op) {
  TL_CHECK(v <= INT_MAX && v >= INT_MIN, LimitError, "{}: sampling_ratio {} does not fit in int", op, v);
  return v;
}

// Both operators' loop: output channel co of bin (i, j) reads input channel co
// (roi_align) or (co * ph + i) * pw + j (ps_roi_align, which records it in `mapping`).
struct SamplingCall {
  double spatial_scale = 1.0;
  int ph = 0, pw = 0;
  int64_t sampling_ratio = 0;
  bool aligned = false;
  SamplingKind kind = SamplingKind::RoiAlign;
  const char* op = "";
};

template <typename T>
void sample_rois(const Tensor& input, const Tensor& rois, const detail::RoiShape& s, const SamplingCall& call,
                 Tensor& out, int32_t* mapping) {
  using A = detail::arith_t<T>;
  const Tensor x = input.contiguous();
  const Tensor r = rois.contiguous();
  const T* rp = r.data<T>();
  const A scale = static_cast<A>(call.spatial_scale);
  const int ph = call.ph, pw = call.pw;
  std::vector<RoiGeometry<A>> geometry;
  geometry.reserve(static_cast<size_t>(s.k));
  for (int64_t k = 0; k < s.k; ++k) {
    A roi[5];
    for (int i = 0; i < 5; ++i) roi[i] = static_cast<A>(rp[5 * k + i]);
    geometry.push_back(
        roi_geometry<A>(roi, k, s.n, scale, ph, pw, call.sampling_ratio, call.aligned, call.kind, call.op));
  }
  const bool ps = call.kind == SamplingKind::PositionSensitive;
  const int64_t bins = static_cast<int64_t>(ph) * pw, channels_out = out.size(1);
  if (mapping) {
    for (int64_t k = 0; k < s.k; ++k)
      for (int64_t co = 0; co < channels_out; ++co)
        for (int64_t b = 0; b < bins; ++b) mapping[(k * channels_out + co) * bins + b] = static_cast<int32_t>(co * bins + b);
  }
  // An image without pixels has nothing to sample (torchvision reads out of bounds).
  if (s.h == 0 || s.w == 0) return;
  const T* src = x.data<T>();
  T* dst = out.data<T>();
  const int64_t plane = s.h * s.w;
  parallel_for(0, s.k, std::max<int64_t>(1, kernels::kGrainSize / std::max<int64_t>(1, channels_out * bins)),
               [&](int64_t lo, int64_t hi) {
                 for (int64_t k = lo; k < hi; ++k) {
                   const RoiGeometry<A>& g = geometry[static_cast<size_t>(k)];
                   const auto ys = axis_samples<A>(g.start_h, g.bin_h, ph, g.grid_h, s.h);
                   const auto xs = axis_samples<A>(g.start_w, g.bin_w, pw, g.grid_w, s.w);
                   const bool sampled = g.grid_h > 0 && g.grid_w > 0;
                   for (int64_t co = 0; co < channels_out; ++co) {
                     T* o = dst + (k * channels_out + co) * bins;
                     for (int i = 0; i < ph; ++i)
                       for (int j = 0; j < pw; ++j) {
                         const int64_t c = ps ? co * bins + i * pw + j : co;
                         const T* in = src + (g.batch * s.c + c) * plane;
                         o[i * pw + j] = detail::stored<T>(
                             sampled ? bin_average<T, A>(in, s.w, ys.data() + static_cast<size_t>(i) * g.grid_h,
                                                         xs.data() + static_cast<size_t>(j) * g.grid_w, g.grid_h,
                                                         g.grid_w, g.count, call.kind)
                                     : A(0.) / g.count);
                       }
                   }
                 }
               });
}

// The dtypes torchvision's bilinear kernels take: float, double and half.
void dispatch_sampling(const Tensor& input, const Tensor& rois, const detail::RoiShape& s, const SamplingCall& call,
                       const char* kernel, Tensor& out, int32_t* mapping) {
  const DType d = input.dtype();
  if (d == DType::Float) return sample_rois<float>(input, rois, s, call, out, mapping);
  if (d == DType::Double) return sample_rois<double>(input, rois, s, call, out, mapping);
  if (d == DType::Half) return sample_rois<Half>(input, rois, s, call, out, mapping);
  throw_unsupported_dtype(kernel, d);
}

}  // namespace

namespace detail {

RoiShape check_roi_args(const Tensor& input, const Tensor& rois, const char* rois_message, const char* kernel,
                        const char* op) {
  TL_CHECK(rois.dim() >= 2, IndexError, "Dimension out of range (expected to be in range of [{}, {}], but got 1)",
           -std::max<int64_t>(rois.dim(), 1), std::max<int64_t>(rois.dim(), 1) - 1);
  TL_CHECK(rois.dim() == 2 && rois.size(1) == 5, ValueError, "{}", rois_message);
  TL_CHECK(input.dtype() == rois.dtype(), TypeError,
           "Expected tensor for argument #1 'input' to have the same type as tensor for argument #2 'rois'; but type "
           "torch.{}Tensor does not equal torch.{}Tensor (while checking arguments for {})",
           dtype_info(input.dtype()).scalar_type_name, dtype_info(rois.dtype()).scalar_type_name, kernel);
  TL_CHECK(input.dim() >= 4, IndexError, "Dimension out of range (expected to be in range of [{}, {}], but got {})",
           -std::max<int64_t>(input.dim(), 1), std::max<int64_t>(input.dim(), 1) - 1, std::max<int64_t>(input.dim(), 1));
  // torchvision reads a fifth dimension as part of the planes; torchlet refuses it.
  TL_CHECK(input.dim() == 4, ValueError, "{}: expected a 4-D input [N, C, H, W], got {}-D", op, input.dim());
  return {input.size(0), input.size(1), input.size(2), input.size(3), rois.size(0)};
}

int pooled_side(int64_t v, const char* op) {
  TL_CHECK(v <= INT_MAX, LimitError, "{}: pooled size {} does not fit in int", op, v);
  return static_cast<int>(v);
}

int64_t pooled_bins(int64_t pooled_height, int64_t pooled_width, const char* op) {
  // torchvision divides the channels by the product unchecked (a crash when it is 0).
  TL_CHECK(pooled_height != 0 && pooled_width != 0, ValueError, "{}: pooled_height and pooled_width must not be 0", op);
  TL_CHECK(std::abs(pooled_height) <= INT_MAX && std::abs(pooled_width) <= INT_MAX, LimitError,
           "{}: pooled size {}x{} does not fit in int", op, pooled_height, pooled_width);
  return pooled_height * pooled_width;
}

int64_t roi_batch_index(double b, int64_t k, int64_t batch_size, const char* op) {
  // torchvision reads whatever memory an index outside the batch names.
  TL_CHECK(b > -1.0 && b < static_cast<double>(batch_size), IndexError,
           "{}: roi {} has batch index {}, but the input has {} images", op, k, b, batch_size);
  return static_cast<int64_t>(b);
}

}  // namespace detail

Tensor roi_align(const Tensor& input, const Tensor& rois, double spatial_scale, int64_t pooled_height,
                 int64_t pooled_width, int64_t sampling_ratio, bool aligned) {
  const detail::RoiShape s =
      detail::check_roi_args(input, rois, "rois must have shape as Tensor[K, 5]", "roi_align_forward_kernel", "roi_align");
  Tensor out = zeros({s.k, s.c, pooled_height, pooled_width}, input.dtype());
  // Before the dtype dispatch, as torchvision returns an empty result of any dtype.
  if (out.numel() == 0) return out;
  const SamplingCall call{spatial_scale, detail::pooled_side(pooled_height, "roi_align"),
                          detail::pooled_side(pooled_width, "roi_align"), sampling_side(sampling_ratio, "roi_align"),
                          aligned, SamplingKind::RoiAlign, "roi_align"};
  dispatch_sampling(input, rois, s, call, "roi_align_forward_kernel", out, nullptr);
  return out;
}

std::tuple<Tensor, Tensor> ps_roi_align(const Tensor& input, const Tensor& rois, double spatial_scale,
                                        int64_t pooled_height, int64_t pooled_width, int64_t sampling_ratio) {
  const detail::RoiShape s = detail::check_roi_args(input, rois, "Tensor rois should have shape as Tensor[K, 5]",
                                                    "ps_roi_align_forward_kernel", "ps_roi_align");
  const int64_t bins = detail::pooled_bins(pooled_height, pooled_width, "ps_roi_align");
  TL_CHECK(s.c % bins == 0, ValueError, "input channels must be a multiple of pooling height * pooling width");
  Tensor out = zeros({s.k, s.c / bins, pooled_height, pooled_width}, input.dtype());
  Tensor mapping = zeros({s.k, s.c / bins, pooled_height, pooled_width}, DType::Int);
  if (out.numel() == 0) return {out, mapping};
  const SamplingCall call{spatial_scale, detail::pooled_side(pooled_height, "ps_roi_align"),
                          detail::pooled_side(pooled_width, "ps_roi_align"),
                          sampling_side(sampling_ratio, "ps_roi_align"), true, SamplingKind::PositionSensitive,
                          "ps_roi_align"};
  dispatch_sampling(input, rois, s, call, "ps_roi_align_forward_kernel", out, mapping.data<int32_t>());
  return {out, mapping};
}

}  // namespace torchlet::vision

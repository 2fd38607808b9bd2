// Interpolation beyond the 2-d nearest/bilinear pair in nn.cpp: nearest 1d/3d, linear
// 1d, trilinear 3d, bicubic 2d, and antialiased bilinear/bicubic 2d (interpolate's
// antialias=True, its own separable filter at the end). Each spatial dim gets a table
// of source taps (1 for nearest, 2 for linear, 4 for cubic) and weights computed as
// torch's UpSample.h does (source positions in the compute type, cubic coefficient
// -0.75); one separable loop over [planes, T, H, W] then sums taps x weights per output.
#include <algorithm>
#include <array>
#include <cmath>

#include <torchlet/error.h>
#include <torchlet/ops.h>

#include "tensor/kernels/cubic.h"
#include "tensor/kernels/loop.h"

namespace torchlet {
namespace {

using kernels::opmath_t;

enum class InterpKind { Nearest, NearestExact, Linear, Cubic };

// Source taps of every output position along one dim, `taps` per position.
template <typename M>
struct TapTable {
  int64_t taps = 1;
  std::vector<int64_t> index;
  std::vector<M> weight;
};

// torch's compute_scales_value / area_pixel_compute_scale.
template <typename M>
M pixel_scale(int64_t in, int64_t out, bool align_corners, std::optional<double> scale) {
  if (align_corners) return out > 1 ? static_cast<M>(in - 1) / static_cast<M>(out - 1) : M(0);
  if (scale && *scale > 0) return static_cast<M>(1.0 / *scale);
  return static_cast<M>(in) / static_cast<M>(out);
}

// torch's area_pixel_compute_source_index: the half-pixel shift is in double, as
// torch's `dst_index + 0.5` promotes it.
template <typename M>
M source_pos(M scale, int64_t o, bool align_corners, bool cubic) {
  if (align_corners) return scale * static_cast<M>(o);
  M src = static_cast<M>(static_cast<double>(scale) * (static_cast<double>(o) + 0.5) - 0.5);
  return (!cubic && src < M(0)) ? M(0) : src;
}

template <typename M>
TapTable<M> make_taps(InterpKind kind, int64_t in, int64_t out, bool align_corners, std::optional<double> scale) {
  TapTable<M> t;
  t.taps = kind == InterpKind::Nearest || kind == InterpKind::NearestExact ? 1 : kind == InterpKind::Linear ? 2 : 4;
  t.index.resize(static_cast<size_t>(out * t.taps));
  t.weight.resize(static_cast<size_t>(out * t.taps));
  for (int64_t o = 0; o < out; ++o) {
    int64_t* ix = t.index.data() + o * t.taps;
    M* w = t.weight.data() + o * t.taps;
    switch (kind) {
      case InterpKind::Nearest: {
        // torch's nearest_idx: exact for equal and doubled sizes, else floor in float.
        if (out == in) ix[0] = o;
        else if (out == 2 * in) ix[0] = o >> 1;
        else {
          float s = pixel_scale<float>(in, out, false, scale);
          ix[0] = std::min(static_cast<int64_t>(std::floor(static_cast<float>(o) * s)), in - 1);
        }
        w[0] = 1;
        break;
      }
      case InterpKind::NearestExact: {
        // torch's nearest_neighbor_exact_compute_source_index: the pixel centre, in float.
        float s = pixel_scale<float>(in, out, false, scale);
        ix[0] = std::min(static_cast<int64_t>(std::floor((static_cast<float>(o) + 0.5f) * s)), in - 1);
        w[0] = 1;
        break;
      }
      case InterpKind::Linear: {
        if (out == in) {
          ix[0] = ix[1] = o;
          w[0] = 1;
          w[1] = 0;
          break;
        }
        M src = source_pos<M>(pixel_scale<M>(in, out, align_corners, scale), o, align_corners, false);
        int64_t i0 = static_cast<int64_t>(src);
        ix[0] = i0;
        ix[1] = i0 + (i0 < in - 1 ? 1 : 0);
        M l1 = std::min(std::max(src - static_cast<M>(i0), M(0)), M(1));
        w[0] = M(1) - l1;
        w[1] = l1;
        break;
      }
      case InterpKind::Cubic: {
        M src = source_pos<M>(pixel_scale<M>(in, out, align_corners, scale), o, align_corners, true);
        int64_t i0 = std::min(static_cast<int64_t>(std::floor(src)), in - 1);
        M t1 = std::min(std::max(src - static_cast<M>(i0), M(0)), M(1));
        const std::array<M, 4> cw = kernels::cubic_weights<M>(t1, M(-0.75));
        std::copy(cw.begin(), cw.end(), w);
        for (int64_t j = 0; j < 4; ++j) ix[j] = std::clamp<int64_t>(i0 - 1 + j, 0, in - 1);
        break;
      }
    }
  }
  return t;
}

// One output row: sum over the blended input rows r of row_w[r] times the row's
// W-interpolation with `WT` taps per output column. One tap of weight 1 (nearest)
// copies the value through unchanged.
template <typename T, typename M, int WT>
TL_VECTOR_CLONES void interp_row(const T* const* rows, const M* row_w, int nrows, const int64_t* wi, const M* ww,
                                 T* __restrict out, int64_t width) {
  if (nrows == 1 && WT == 1) {
    const T* r = rows[0];
    for (int64_t o = 0; o < width; ++o) out[o] = r[wi[o]];
    return;
  }
  for (int64_t o = 0; o < width; ++o) {
    M acc = 0;
    for (int r = 0; r < nrows; ++r) {
      const T* row = rows[r];
      M s = 0;
      for (int c = 0; c < WT; ++c) s += ww[o * WT + c] * static_cast<M>(row[wi[o * WT + c]]);
      acc += row_w[r] * s;
    }
    out[o] = static_cast<T>(acc);
  }
}

// [N, C, spatial...] with `nsp` spatial dims; checks and messages of torch's
// upsample_{1,2,3}d_common_check.
void check_upsample(const Tensor& self, IntList output_size, int64_t nsp) {
  TL_CHECK(static_cast<int64_t>(output_size.size()) == nsp, ValueError,
           "It is expected output_size equals to {}, but got size {}", nsp, output_size.size());
  TL_CHECK(self.dim() == nsp + 2, ValueError, "It is expected input_size equals to {}, but got size {}", nsp + 2,
           self.dim());
  bool ok = true;
  for (int64_t i = 0; i < nsp; ++i) ok = ok && self.size(2 + i) > 0 && output_size[static_cast<size_t>(i)] > 0;
  if (nsp == 1) {
    TL_CHECK(ok, ValueError, "Input and output sizes should be greater than 0, but got input (W: {}) and output (W: {})",
             self.size(2), output_size[0]);
  } else if (nsp == 2) {
    TL_CHECK(ok, ValueError,
             "Input and output sizes should be greater than 0, but got input (H: {}, W: {}) output (H: {}, W: {})",
             self.size(2), self.size(3), output_size[0], output_size[1]);
  } else {
    TL_CHECK(ok, ValueError,
             "Input and output sizes should be greater than 0, but got input (D: {}, H: {}, W: {}) output (D: {}, H: "
             "{}, W: {})",
             self.size(2), self.size(3), self.size(4), output_size[0], output_size[1], output_size[2]);
  }
  bool nonempty = self.size(1) != 0;
  for (int64_t i = 0; i < nsp; ++i) nonempty = nonempty && self.size(2 + i) != 0;
  TL_CHECK(nonempty, ValueError, "Non-empty {}D data tensor expected but got a tensor with sizes {}", nsp + 2,
           shape_repr(self.sizes()));
}

Tensor upsample(const Tensor& self, IntList output_size, int64_t nsp, InterpKind kind, bool align_corners,
                std::array<std::optional<double>, 3> scales, const char* kernel) {
  check_upsample(self, output_size, nsp);
  DType dt = self.dtype();
  const bool nearest = kind == InterpKind::Nearest || kind == InterpKind::NearestExact;
  bool dtype_ok = (is_floating(dt) && dt != DType::Half) || (nearest && dt == DType::Byte);
  TL_CHECK(dtype_ok, UnsupportedError, "\"{}\" not implemented for '{}'", kernel, dtype_info(dt).scalar_type_name);
  Shape out_shape{self.size(0), self.size(1)};
  std::array<int64_t, 3> in{1, 1, 1}, out{1, 1, 1};
  for (int64_t i = 0; i < nsp; ++i) {
    in[static_cast<size_t>(3 - nsp + i)] = self.size(2 + i);
    out[static_cast<size_t>(3 - nsp + i)] = output_size[static_cast<size_t>(i)];
    out_shape.push_back(output_size[static_cast<size_t>(i)]);
  }
  Tensor x = self.contiguous();
  Tensor result = empty(out_shape, dt);
  if (result.numel() == 0) return result;
  const int64_t planes = self.size(0) * self.size(1);
  auto run = [&]<typename T>() {
    using M = std::conditional_t<std::is_floating_point_v<opmath_t<T>>, opmath_t<T>, float>;
    std::array<TapTable<M>, 3> tabs;
    for (size_t i = 0; i < 3; ++i) {
      bool used = static_cast<int64_t>(i) >= 3 - nsp;
      auto sc = used ? scales[i - static_cast<size_t>(3 - nsp)] : std::nullopt;
      tabs[i] = make_taps<M>(used ? kind : InterpKind::Nearest, in[i], out[i], align_corners, sc);
    }
    const T* src = x.data<T>();
    T* dst = result.data<T>();
    const int64_t in_plane = in[0] * in[1] * in[2], out_plane = out[0] * out[1] * out[2];
    const int64_t rows = planes * out[0] * out[1];
    const TapTable<M>&tt = tabs[0], &th = tabs[1], &tw = tabs[2];
    parallel_for(0, rows, std::max<int64_t>(1, kernels::kGrainSize / std::max<int64_t>(out[2] * tw.taps, 1)),
                 [&](int64_t lo, int64_t hi) {
                   std::array<const T*, 16> in_rows{};
                   std::array<M, 16> row_w{};
                   for (int64_t row = lo; row < hi; ++row) {
                     int64_t oh = row % out[1], ot = (row / out[1]) % out[0], pl = row / (out[0] * out[1]);
                     // The input rows this output row blends, with their T x H weights.
                     int n = 0;
                     for (int64_t a = 0; a < tt.taps; ++a) {
                       for (int64_t b = 0; b < th.taps; ++b) {
                         size_t ka = static_cast<size_t>(ot * tt.taps + a), kb = static_cast<size_t>(oh * th.taps + b);
                         in_rows[static_cast<size_t>(n)] = src + pl * in_plane + (tt.index[ka] * in[1] + th.index[kb]) * in[2];
                         row_w[static_cast<size_t>(n)] = tt.weight[ka] * th.weight[kb];
                         ++n;
                       }
                     }
                     T* orow = dst + pl * out_plane + (ot * out[1] + oh) * out[2];
                     const int64_t* wi = tw.index.data();
                     const M* ww = tw.weight.data();
                     switch (tw.taps) {
                       case 1: interp_row<T, M, 1>(in_rows.data(), row_w.data(), n, wi, ww, orow, out[2]); break;
                       case 2: interp_row<T, M, 2>(in_rows.data(), row_w.data(), n, wi, ww, orow, out[2]); break;
                       default: interp_row<T, M, 4>(in_rows.data(), row_w.data(), n, wi, ww, orow, out[2]); break;
                     }
                   }
                 });
  };
  if (dt == DType::Byte) run.template operator()<uint8_t>();
  else kernels::dispatch_floating(dt, kernel, run);
  return result;
}

// interpolate(antialias=True) as torch 1.13 computes it (PIL's resampling): each output
// pixel averages the input pixels under its footprint, weighted by a triangle (bilinear)
// or Keys a = -0.5 (bicubic) filter stretched by the downscale factor and normalised to
// sum 1. Width first, then height, each pass in the element type; the expressions keep
// torch's mixed float/double arithmetic so the taps and weights are torch's.
template <typename T>
T aa_filter(bool cubic, T t) {
  double x = t < 0 ? -static_cast<double>(t) : static_cast<double>(t);
  if (!cubic) return static_cast<T>(x < 1.0 ? 1.0 - x : 0.0);
  constexpr double a = -0.5;
  if (x < 1.0) return static_cast<T>(((a + 2.0) * x - (a + 3.0)) * x * x + 1);
  if (x < 2.0) return static_cast<T>((((x - 5) * x + 8) * x - 4) * a);
  return T(0);
}

// One pass along an axis of length `in` -> `out`: `outer` blocks of [axis, inner].
template <typename T>
void aa_pass(const T* src, T* dst, int64_t outer, int64_t in, int64_t out, int64_t inner, bool cubic, T scale) {
  const int interp = cubic ? 4 : 2;
  const T support = scale >= 1.0 ? static_cast<T>(interp * 0.5 * scale) : static_cast<T>(interp * 0.5);
  const T invscale = scale >= 1.0 ? static_cast<T>(1.0 / scale) : T(1);
  std::vector<int64_t> first(static_cast<size_t>(out)), count(static_cast<size_t>(out));
  std::vector<std::vector<T>> weights(static_cast<size_t>(out));
  for (int64_t i = 0; i < out; ++i) {
    const T center = static_cast<T>(scale * (static_cast<double>(i) + 0.5));
    const int64_t xmin = std::max(static_cast<int64_t>(static_cast<double>(center - support) + 0.5), int64_t{0});
    const int64_t xsize = std::min(static_cast<int64_t>(static_cast<double>(center + support) + 0.5), in) - xmin;
    std::vector<T>& w = weights[static_cast<size_t>(i)];
    T total = 0;
    for (int64_t j = 0; j < xsize; ++j) {
      const T offset = static_cast<T>(j + xmin) - center;
      w.push_back(aa_filter<T>(cubic, static_cast<T>((static_cast<double>(offset) + 0.5) * invscale)));
      total += w.back();
    }
    if (total != 0)
      for (T& v : w) v /= total;
    first[static_cast<size_t>(i)] = std::min(xmin, in - 1);
    count[static_cast<size_t>(i)] = xsize;
  }
  parallel_for(0, outer, std::max<int64_t>(1, kernels::kGrainSize / std::max<int64_t>(out * inner, 1)),
               [&](int64_t lo, int64_t hi) {
                 for (int64_t b = lo; b < hi; ++b) {
                   const T* block = src + b * in * inner;
                   T* oblock = dst + b * out * inner;
                   for (int64_t i = 0; i < out; ++i) {
                     const T* w = weights[static_cast<size_t>(i)].data();
                     const T* base = block + first[static_cast<size_t>(i)] * inner;
                     const int64_t n = count[static_cast<size_t>(i)];
                     for (int64_t k = 0; k < inner; ++k) {
                       // torch starts from the first tap even when there is none (weight 0).
                       T acc = base[k] * (n > 0 ? w[0] : T(0));
                       for (int64_t j = 1; j < n; ++j) acc += base[j * inner + k] * w[j];
                       oblock[i * inner + k] = acc;
                     }
                   }
                 }
               });
}

Tensor upsample_antialiased(const Tensor& self, IntList output_size, bool align_corners, std::optional<double> scales_h,
                            std::optional<double> scales_w, bool cubic) {
  check_upsample(self, output_size, 2);
  const DType dt = self.dtype();
  TL_CHECK(dt == DType::Float || dt == DType::Double, UnsupportedError,
           "\"compute_indices_weights_aa\" not implemented for '{}'", dtype_info(dt).scalar_type_name);
  const int64_t planes = self.size(0) * self.size(1), h = self.size(2), w = self.size(3);
  const int64_t oh = output_size[0], ow = output_size[1];
  Tensor result = empty({self.size(0), self.size(1), oh, ow}, dt);
  if (result.numel() == 0) return result;
  const Tensor x = self.contiguous();
  auto run = [&]<typename T>() {
    Tensor wide = empty({planes, h, ow}, dt);
    aa_pass<T>(x.data<T>(), wide.data<T>(), planes * h, w, ow, 1, cubic, pixel_scale<T>(w, ow, align_corners, scales_w));
    aa_pass<T>(wide.data<T>(), result.data<T>(), planes, h, oh, ow, cubic, pixel_scale<T>(h, oh, align_corners, scales_h));
  };
  if (dt == DType::Float) run.template operator()<float>();
  else run.template operator()<double>();
  return result;
}

}  // namespace

Tensor upsample_nearest1d(const Tensor& self, IntList output_size, std::optional<double> scales) {
  return upsample(self, output_size, 1, InterpKind::Nearest, false, {scales}, "upsample_nearest1d");
}
Tensor upsample_nearest3d(const Tensor& self, IntList output_size, std::optional<double> scales_d,
                          std::optional<double> scales_h, std::optional<double> scales_w) {
  return upsample(self, output_size, 3, InterpKind::Nearest, false, {scales_d, scales_h, scales_w},
                  "upsample_nearest3d");
}
Tensor upsample_nearest_exact(const Tensor& self, IntList output_size, std::array<std::optional<double>, 3> scales) {
  static constexpr const char* kKernels[] = {"_upsample_nearest_exact1d", "_upsample_nearest_exact2d",
                                             "_upsample_nearest_exact3d"};
  TL_CHECK(!output_size.empty() && output_size.size() <= 3, ValueError,
           "nearest-exact upsampling takes 1 to 3 output sizes, got {}", output_size.size());
  const auto nsp = static_cast<int64_t>(output_size.size());
  return upsample(self, output_size, nsp, InterpKind::NearestExact, false, scales, kKernels[nsp - 1]);
}
Tensor upsample_linear1d(const Tensor& self, IntList output_size, bool align_corners, std::optional<double> scales) {
  return upsample(self, output_size, 1, InterpKind::Linear, align_corners, {scales}, "upsample_linear1d");
}
Tensor upsample_trilinear3d(const Tensor& self, IntList output_size, bool align_corners,
                            std::optional<double> scales_d, std::optional<double> scales_h,
                            std::optional<double> scales_w) {
  return upsample(self, output_size, 3, InterpKind::Linear, align_corners, {scales_d, scales_h, scales_w},
                  "upsample_trilinear3d");
}
Tensor upsample_bicubic2d(const Tensor& self, IntList output_size, bool align_corners,
                          std::optional<double> scales_h, std::optional<double> scales_w) {
  return upsample(self, output_size, 2, InterpKind::Cubic, align_corners, {scales_h, scales_w}, "upsample_bicubic2d");
}
Tensor upsample_bilinear2d_aa(const Tensor& self, IntList output_size, bool align_corners,
                              std::optional<double> scales_h, std::optional<double> scales_w) {
  return upsample_antialiased(self, output_size, align_corners, scales_h, scales_w, false);
}
Tensor upsample_bicubic2d_aa(const Tensor& self, IntList output_size, bool align_corners,
                             std::optional<double> scales_h, std::optional<double> scales_w) {
  return upsample_antialiased(self, output_size, align_corners, scales_h, scales_w, true);
}

}  // namespace torchlet

// The spatial-transformer pair behind F.affine_grid and F.grid_sample (ops.h):
// affine_grid_generator builds torch's base grid of normalised coordinates and applies
// each sample's affine matrix; grid_sampler_2d/3d read the input at those coordinates
// (bilinear, nearest or, in 4-D, bicubic; zeros, border or reflection padding). torch
// 1.13 samples 4-D input with a vectorised kernel (GridSamplerKernel.cpp) and 5-D input
// with a scalar one (GridSampler.cpp) whose arithmetic differs: unnormalisation order,
// reflection, rounding of nearest ties (to even in 4-D, away from zero in 5-D). Each
// path here follows its kernel, fused multiply-adds, weight products and summation
// order included, so results are torch's bit for bit (the operator tests compare them
// at rtol 0).
#include <algorithm>
#include <cmath>

#include <torchlet/error.h>
#include <torchlet/ops.h>

#include "tensor/kernels/cubic.h"

namespace torchlet {
namespace {

// torch's linspace_from_neg_one: the normalised centres of `steps` pixels.
Tensor coordinates(int64_t steps, bool align_corners, DType dtype) {
  if (steps <= 1) return zeros({}, dtype);
  Tensor range = linspace(-1, 1, steps, dtype);
  if (align_corners) return range;
  return div(mul(range, full({}, static_cast<double>(steps - 1), dtype)), full({}, static_cast<double>(steps), dtype));
}

enum Interpolation : int64_t { kBilinear = 0, kNearest = 1, kBicubic = 2 };
enum Padding : int64_t { kZeros = 0, kBorder = 1, kReflection = 2 };

// Clamp into [0, size - 1]. NaN lands where each torch kernel's operand order puts it:
// on 0 in the vectorised 4-D kernel, on size - 1 in the scalar 5-D one.
template <typename T>
T clip_2d(T x, int64_t size) {
  return std::min(static_cast<T>(size - 1), x > T(0) ? x : T(0));
}
template <typename T>
T clip_3d(T x, int64_t size) {
  return std::min(static_cast<T>(size - 1), std::max(x, T(0)));
}

// The 4-D kernel's reflection (GridSamplerKernel.cpp): fold |x - low| by whole periods
// of twice the span, then mirror the remainder.
template <typename T>
T reflect_2d(T x, int64_t size, bool align_corners) {
  if (align_corners && size <= 1) return T(0);
  const T twice_span = align_corners ? static_cast<T>(size - 1) * 2 : static_cast<T>(size) * 2;
  const T low = align_corners ? T(0) : T(-0.5);
  const T magnitude = std::fabs(x - low);
  const T extra = magnitude - std::trunc(magnitude / twice_span) * twice_span;
  return std::min(extra, twice_span - extra) + low;
}

// The 5-D kernel's reflection (GridSampler.h's reflect_coordinates): bounds passed doubled
// so half-pixel edges stay integers.
template <typename T>
T reflect_3d(T x, int64_t twice_low, int64_t twice_high) {
  if (twice_low == twice_high) return static_cast<T>(0);
  const T low = static_cast<T>(twice_low) / 2;
  const T span = static_cast<T>(twice_high - twice_low) / 2;
  x = std::fabs(x - low);
  const T extra = std::fmod(x, span);
  // The parity of the flip count, kept in floating point: torch converts it to int, which
  // for huge or infinite x yields INT_MIN on x86 (even), as NaN and huge floats give here.
  const bool odd = std::fabs(std::fmod(std::floor(x / span), T(2))) == T(1);
  return odd ? span - extra + low : extra + low;
}

// torch's two samplers unnormalise with differently ordered arithmetic, and the last bit
// of every weight follows from it: the vectorised 4-D kernel scales (coord + 1) by a
// precomputed factor, the scalar 5-D kernel divides at the end. torch's AVX2 build of the
// 4-D kernel has some multiply-adds fused (GCC contracts them under -mfma); std::fma
// marks each one, found by matching torch's results bit for bit.
template <typename T>
T unnormalize_2d(T coord, int64_t size, bool align_corners) {
  return align_corners ? (coord + T(1)) * (static_cast<T>(size - 1) / T(2))
                       : std::fma(coord + T(1), static_cast<T>(size) / T(2), T(-0.5));
}
template <typename T>
T unnormalize_3d(T coord, int64_t size, bool align_corners) {
  return align_corners ? ((coord + T(1)) / T(2)) * static_cast<T>(size - 1)
                       : ((coord + T(1)) * static_cast<T>(size) - T(1)) / T(2);
}

// Padding applied to a pixel position (torch's compute_coordinates): zeros leaves it for
// the bounds check, border clamps, reflection mirrors and then clamps.
template <typename T>
T pad_2d(T x, int64_t size, int64_t padding, bool align_corners) {
  if (padding == kBorder) return clip_2d(x, size);
  if (padding == kReflection) return clip_2d(reflect_2d(x, size, align_corners), size);
  return x;
}
template <typename T>
T pad_3d(T x, int64_t size, int64_t padding, bool align_corners) {
  if (padding == kBorder) return clip_3d(x, size);
  if (padding == kReflection) {
    x = align_corners ? reflect_3d(x, 0, 2 * (size - 1)) : reflect_3d(x, -1, 2 * size - 1);
    return clip_3d(x, size);
  }
  return x;
}

// A whole-numbered pixel position as an index. Positions far outside the image (and NaN)
// are pinned just outside it, so the conversion stays defined and the tap, and its
// right-hand neighbour, still read as padding.
template <typename T>
int64_t tap_index(T pos, int64_t size) {
  if (!(pos >= T(-2))) return -2;
  if (pos > static_cast<T>(size + 1)) return size + 1;
  return static_cast<int64_t>(pos);
}

// torch's check_grid_sampler_common and _2d/_3d, in that order; then what torchlet
// refuses where torch would read uninitialised memory (modes outside 0..2).
void check_sampler_args(const Tensor& input, const Tensor& grid, int64_t spatial, int64_t interpolation,
                        int64_t padding) {
  const auto rank_message = [&] {
    return fmt::format("grid_sampler(): expected {}D input and grid with same number of dimensions, but got input with "
                       "sizes {} and grid with sizes {}", spatial + 2, shape_repr(input.sizes()), shape_repr(grid.sizes()));
  };
  TL_CHECK(input.dim() >= 2 && grid.dim() >= 1, ValueError, "{}", rank_message());
  TL_CHECK(input.size(0) == grid.size(0), ValueError,
           "grid_sampler(): expected grid and input to have same batch size, but got input with sizes {} and grid with "
           "sizes {}", shape_repr(input.sizes()), shape_repr(grid.sizes()));
  TL_CHECK(grid.size(-1) == input.dim() - 2, ValueError,
           "grid_sampler(): expected grid to have size {} in last dimension, but got grid with sizes {}",
           input.dim() - 2, shape_repr(grid.sizes()));
  for (int64_t dim = 2; dim < input.dim(); ++dim)
    TL_CHECK(input.size(dim) > 0, ValueError,
             "grid_sampler(): expected input to have non-empty spatial dimensions, but input has sizes {} with dimension "
             "{} being empty", shape_repr(input.sizes()), dim);
  TL_CHECK(input.dim() == spatial + 2 && grid.dim() == input.dim(), ValueError, "{}", rank_message());
  TL_CHECK(spatial == 2 || interpolation != kBicubic, ValueError,
           "grid_sampler(): bicubic interpolation only supports 4D input");
  TL_CHECK(interpolation >= kBilinear && interpolation <= kBicubic, ValueError,
           "grid_sampler: interpolation mode {} is not one of bilinear, nearest, bicubic", interpolation);
  TL_CHECK(padding >= kZeros && padding <= kReflection, ValueError,
           "grid_sampler: padding mode {} is not one of zeros, border, reflection", padding);
  TL_CHECK(input.dtype() == grid.dtype(), TypeError,
           "grid_sampler(): expected input and grid to have same dtype, but input has {} and grid has {}",
           dtype_name(input.dtype()), dtype_name(grid.dtype()));
}

}  // namespace

Tensor affine_grid_generator(const Tensor& theta, IntList size, bool align_corners) {
  TL_CHECK(size.size() == 4 || size.size() == 5, ValueError,
           "AffineGridGenerator needs 4d (spatial) or 5d (volumetric) inputs.");
  TL_CHECK(is_floating(theta.dtype()), TypeError, "affine_grid_generator: theta must be a floating point tensor");
  const int64_t n = size[0];
  const bool planar = size.size() == 4;
  const int64_t d = planar ? 1 : size[2], h = size[size.size() - 2], w = size[size.size() - 1];
  const int64_t k = planar ? 3 : 4;
  TL_CHECK(theta.dim() == 3 && theta.size(0) == n && theta.size(1) == k - 1 && theta.size(2) == k, ValueError,
           "affine_grid_generator: expected theta of shape [{}, {}, {}], got {}", n, k - 1, k, shape_repr(theta.sizes()));
  if (theta.dtype() == DType::Float || theta.dtype() == DType::Double) {
    // Each output coordinate is theta's row dotted with (x, y[, z], 1), summed left to
    // right with separate roundings, as torch's batched product does for these shapes
    // (a fused multiply-add there would move the last bit).
    Tensor grid = empty(planar ? Shape{n, h, w, 2} : Shape{n, d, h, w, 3}, theta.dtype());
    const Tensor t = theta.contiguous();
    const Tensor xs = coordinates(w, align_corners, theta.dtype()).expand({w}).contiguous();
    const Tensor ys = coordinates(h, align_corners, theta.dtype()).expand({h}).contiguous();
    const Tensor zs = coordinates(d, align_corners, theta.dtype()).expand({d}).contiguous();
    const auto fill = [&]<typename T>() {
      const T *tp = t.data<T>(), *xp = xs.data<T>(), *yp = ys.data<T>(), *zp = zs.data<T>();
      T* out = grid.data<T>();
      for (int64_t b = 0; b < n; ++b)
        for (int64_t zi = 0; zi < d; ++zi)
          for (int64_t yi = 0; yi < h; ++yi)
            for (int64_t xi = 0; xi < w; ++xi) {
              const T point[4] = {xp[xi], yp[yi], planar ? T(1) : zp[zi], T(1)};
              for (int64_t r = 0; r < k - 1; ++r) {
                const T* row = tp + (b * (k - 1) + r) * k;
                T acc = row[0] * point[0];
                for (int64_t j = 1; j < k; ++j) {
                  const T term = row[j] * point[j];
                  acc = acc + term;
                }
                *out++ = acc;
              }
            }
    };
    if (theta.dtype() == DType::Float) fill.template operator()<float>();
    else fill.template operator()<double>();
    return grid;
  }
  Tensor base = empty(planar ? Shape{n, h, w, 3} : Shape{n, d, h, w, 4}, theta.dtype());
  base.select(-1, 0).copy_(coordinates(w, align_corners, theta.dtype()));
  base.select(-1, 1).copy_(coordinates(h, align_corners, theta.dtype()).unsqueeze(-1));
  if (!planar) base.select(-1, 2).copy_(coordinates(d, align_corners, theta.dtype()).unsqueeze(-1).unsqueeze(-1));
  base.select(-1, k - 1).fill_(1);
  Tensor grid = bmm(base.view({n, d * h * w, k}), theta.transpose(1, 2));
  return planar ? grid.view({n, h, w, 2}) : grid.view({n, d, h, w, 3});
}

Tensor grid_sampler_2d(const Tensor& input, const Tensor& grid, int64_t interpolation, int64_t padding,
                       bool align_corners) {
  check_sampler_args(input, grid, 2, interpolation, padding);
  const int64_t n = input.size(0), c = input.size(1), ih = input.size(2), iw = input.size(3);
  const int64_t oh = grid.size(1), ow = grid.size(2);
  TL_CHECK(input.dtype() == DType::Float || input.dtype() == DType::Double, UnsupportedError,
           "grid_sampler_2d_cpu not implemented for {}", dtype_info(input.dtype()).scalar_type_name);
  Tensor out = empty({n, c, oh, ow}, input.dtype());
  if (out.numel() == 0) return out;
  const Tensor x = input.contiguous(), g = grid.contiguous();
  const auto sample = [&]<typename T>() {
    const T* src = x.data<T>();
    const T* gp = g.data<T>();
    T* dst = out.data<T>();
    // A tap at whole-numbered (yy, xx), padding applied as torch's bicubic path does per tap.
    auto at = [&](const T* plane, int64_t yy, int64_t xx) -> T {
      if (yy < 0 || yy >= ih || xx < 0 || xx >= iw) return T(0);
      return plane[yy * iw + xx];
    };
    auto padded_tap = [&](const T* plane, T yy, T xx) -> T {
      return at(plane, tap_index(pad_2d(yy, ih, padding, align_corners), ih),
                tap_index(pad_2d(xx, iw, padding, align_corners), iw));
    };
    for (int64_t b = 0; b < n; ++b) {
      for (int64_t p = 0; p < oh * ow; ++p) {
        const T gx = gp[(b * oh * ow + p) * 2], gy = gp[(b * oh * ow + p) * 2 + 1];
        const T ux = unnormalize_2d(gx, iw, align_corners), uy = unnormalize_2d(gy, ih, align_corners);
        T* out_at = dst + b * c * oh * ow + p;
        const T* planes = src + b * c * ih * iw;
        if (interpolation == kBicubic) {  // padding per tap, not on the position
          const T fx = std::floor(ux), fy = std::floor(uy);
          const auto wx = kernels::cubic_weights_fused<T>(ux - fx, T(-0.75));
          const auto wy = kernels::cubic_weights_fused<T>(uy - fy, T(-0.75));
          for (int64_t ch = 0; ch < c; ++ch) {
            const T* plane = planes + ch * ih * iw;
            T rows[4];
            for (int i = 0; i < 4; ++i) {
              const T yy = fy + static_cast<T>(i - 1);
              rows[i] = std::fma(wx[0], padded_tap(plane, yy, fx - T(1)), wx[1] * padded_tap(plane, yy, fx)) +
                        wx[2] * padded_tap(plane, yy, fx + T(1)) + wx[3] * padded_tap(plane, yy, fx + T(2));
            }
            out_at[ch * oh * ow] =
                std::fma(wy[3], rows[3], std::fma(wy[2], rows[2], std::fma(wy[1], rows[1], wy[0] * rows[0])));
          }
          continue;
        }
        const T sx = pad_2d(ux, iw, padding, align_corners), sy = pad_2d(uy, ih, padding, align_corners);
        if (interpolation == kNearest) {  // ties to even, as the vectorised round
          const int64_t xx = tap_index(std::nearbyint(sx), iw), yy = tap_index(std::nearbyint(sy), ih);
          for (int64_t ch = 0; ch < c; ++ch) out_at[ch * oh * ow] = at(planes + ch * ih * iw, yy, xx);
          continue;
        }
        const T x_w = std::floor(sx), y_n = std::floor(sy);
        const T we = sx - x_w, ww = T(1) - we, ns = sy - y_n, nn = T(1) - ns;
        const T nw = nn * ww, ne = nn * we, sw = ns * ww, se = ns * we;
        const int64_t x0 = tap_index(x_w, iw), y0 = tap_index(y_n, ih);
        for (int64_t ch = 0; ch < c; ++ch) {
          const T* plane = planes + ch * ih * iw;
          out_at[ch * oh * ow] =
              std::fma(at(plane, y0 + 1, x0 + 1), se,
                       std::fma(at(plane, y0 + 1, x0), sw, std::fma(at(plane, y0, x0 + 1), ne, at(plane, y0, x0) * nw)));
        }
      }
    }
  };
  if (input.dtype() == DType::Float) sample.template operator()<float>();
  else sample.template operator()<double>();
  return out;
}

Tensor grid_sampler_3d(const Tensor& input, const Tensor& grid, int64_t interpolation, int64_t padding,
                       bool align_corners) {
  check_sampler_args(input, grid, 3, interpolation, padding);
  const int64_t n = input.size(0), c = input.size(1), id = input.size(2), ih = input.size(3), iw = input.size(4);
  const int64_t od = grid.size(1), oh = grid.size(2), ow = grid.size(3);
  TL_CHECK(input.dtype() == DType::Float || input.dtype() == DType::Double, UnsupportedError,
           "\"grid_sampler3d_cpu\" not implemented for '{}'", dtype_info(input.dtype()).scalar_type_name);
  Tensor out = empty({n, c, od, oh, ow}, input.dtype());
  if (out.numel() == 0) return out;
  const Tensor x = input.contiguous(), g = grid.contiguous();
  const int64_t points = od * oh * ow, volume = id * ih * iw;
  const auto sample = [&]<typename T>() {
    const T* src = x.data<T>();
    const T* gp = g.data<T>();
    T* dst = out.data<T>();
    auto inside = [&](int64_t zz, int64_t yy, int64_t xx) {
      return zz >= 0 && zz < id && yy >= 0 && yy < ih && xx >= 0 && xx < iw;
    };
    for (int64_t b = 0; b < n; ++b) {
      for (int64_t p = 0; p < points; ++p) {
        const T* coord = gp + (b * points + p) * 3;
        const T sx = pad_3d(unnormalize_3d(coord[0], iw, align_corners), iw, padding, align_corners);
        const T sy = pad_3d(unnormalize_3d(coord[1], ih, align_corners), ih, padding, align_corners);
        const T sz = pad_3d(unnormalize_3d(coord[2], id, align_corners), id, padding, align_corners);
        T* out_at = dst + b * c * points + p;
        const T* volumes = src + b * c * volume;
        if (interpolation == kNearest) {  // std::round: ties away from zero, unlike 4-D
          const int64_t xx = tap_index(std::round(sx), iw), yy = tap_index(std::round(sy), ih),
                        zz = tap_index(std::round(sz), id);
          const bool in = inside(zz, yy, xx);
          for (int64_t ch = 0; ch < c; ++ch)
            out_at[ch * points] = in ? volumes[ch * volume + (zz * ih + yy) * iw + xx] : T(0);
          continue;
        }
        // Trilinear: each corner weighted by the volume of the box opposite it.
        const T fx = std::floor(sx), fy = std::floor(sy), fz = std::floor(sz);
        const T e = sx - fx, w = (fx + T(1)) - sx, s = sy - fy, nn = (fy + T(1)) - sy, bt = sz - fz, t = (fz + T(1)) - sz;
        const T weights[8] = {w * nn * t, e * nn * t, w * s * t, e * s * t, w * nn * bt, e * nn * bt, w * s * bt, e * s * bt};
        const int64_t x0 = tap_index(fx, iw), y0 = tap_index(fy, ih), z0 = tap_index(fz, id);
        for (int64_t ch = 0; ch < c; ++ch) {
          const T* vol = volumes + ch * volume;
          T acc = T(0);
          for (int corner = 0; corner < 8; ++corner) {
            const int64_t xx = x0 + (corner & 1), yy = y0 + ((corner >> 1) & 1), zz = z0 + (corner >> 2);
            if (inside(zz, yy, xx)) acc += vol[(zz * ih + yy) * iw + xx] * weights[corner];
          }
          out_at[ch * points] = acc;
        }
      }
    }
  };
  if (input.dtype() == DType::Float) sample.template operator()<float>();
  else sample.template operator()<double>();
  return out;
}

}  // namespace torchlet

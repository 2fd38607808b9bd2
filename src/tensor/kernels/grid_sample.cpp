// The spatial-transformer pair behind F.affine_grid and F.grid_sample (ops.h):
// affine_grid_generator builds torch's base grid of normalised coordinates and applies
// each sample's affine matrix; grid_sampler_2d reads the input at those coordinates
// (bilinear or nearest; zeros, border or reflection padding). The arithmetic follows
// torch 1.13's CPU kernels (GridSamplerKernel.cpp's vectorised unnormalisation, its
// corner-weight products and summation order; rounding half to even for nearest), so
// results agree with torch's to the last bits or within the operator tests' 1e-5.
#include <cmath>

#include <torchlet/error.h>
#include <torchlet/ops.h>

#include "tensor/kernels/loop.h"

namespace torchlet {
namespace {

// torch's linspace_from_neg_one: the normalised centres of `steps` pixels.
Tensor coordinates(int64_t steps, bool align_corners, DType dtype) {
  if (steps <= 1) return zeros({}, dtype);
  Tensor range = linspace(-1, 1, steps, dtype);
  if (align_corners) return range;
  return div(mul(range, full({}, static_cast<double>(steps - 1), dtype)), full({}, static_cast<double>(steps), dtype));
}

template <typename T>
T clip(T x, int64_t size) {
  return std::min(static_cast<T>(size - 1), std::max(x, static_cast<T>(0)));
}

// torch's reflect_coordinates: fold x into [twice_low / 2, twice_high / 2].
template <typename T>
T reflect(T x, int64_t twice_low, int64_t twice_high) {
  if (twice_low == twice_high) return static_cast<T>(0);
  const T low = static_cast<T>(twice_low) / 2;
  const T span = static_cast<T>(twice_high - twice_low) / 2;
  x = std::fabs(x - low);
  const T extra = std::fmod(x, span);
  const auto flips = static_cast<int64_t>(std::floor(x / span));
  return flips % 2 == 0 ? extra + low : span - extra + low;
}

// A normalised coordinate in [-1, 1] to a pixel position, padding applied.
template <typename T>
T source_index(T coord, int64_t size, int64_t padding, bool align_corners) {
  T x = align_corners ? (coord + T(1)) * (static_cast<T>(size - 1) / T(2))
                      : (coord + T(1)) * (static_cast<T>(size) / T(2)) - T(0.5);
  if (padding == 1) return clip(x, size);  // border
  if (padding == 2) {                      // reflection
    if (size == 1) return T(0);
    x = align_corners ? reflect(x, 0, 2 * (size - 1)) : reflect(x, -1, 2 * size - 1);
    return clip(x, size);
  }
  return x;  // zeros: taps outside read as 0
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
  TL_CHECK(input.dtype() == grid.dtype(), TypeError,
           "grid_sampler(): expected input and grid to have same dtype, but input has {} and grid has {}",
           dtype_name(input.dtype()), dtype_name(grid.dtype()));
  TL_CHECK(input.dim() == 4 && grid.dim() == 4, ValueError,
           "grid_sampler(): expected 4D or 5D input and grid with same number of dimensions, but got input with sizes {} "
           "and grid with sizes {}", shape_repr(input.sizes()), shape_repr(grid.sizes()));
  TL_CHECK(input.size(0) == grid.size(0), ValueError,
           "grid_sampler(): expected grid and input to have same batch size, but got input with sizes {} and grid with "
           "sizes {}", shape_repr(input.sizes()), shape_repr(grid.sizes()));
  TL_CHECK(grid.size(3) == 2, ValueError,
           "grid_sampler(): expected grid to have size 2 in last dimension, but got grid with sizes {}",
           shape_repr(grid.sizes()));
  for (int64_t dim = 2; dim < 4; ++dim)
    TL_CHECK(input.size(dim) > 0, ValueError,
             "grid_sampler(): expected input to have non-empty spatial dimensions, but input has sizes {} with dimension "
             "{} being empty", shape_repr(input.sizes()), dim);
  TL_CHECK(interpolation == 0 || interpolation == 1, UnsupportedError,
           "grid_sampler: {} interpolation is not supported by torchlet yet (bilinear and nearest are)",
           interpolation == 2 ? "bicubic" : "this");
  TL_CHECK(padding >= 0 && padding <= 2, ValueError, "grid_sampler: padding mode {} is not one of zeros, border, reflection",
           padding);
  const int64_t n = input.size(0), c = input.size(1), ih = input.size(2), iw = input.size(3);
  const int64_t oh = grid.size(1), ow = grid.size(2);
  Tensor out = empty({n, c, oh, ow}, input.dtype());
  if (out.numel() == 0) return out;
  const Tensor x = input.contiguous(), g = grid.contiguous();
  TL_CHECK(input.dtype() == DType::Float || input.dtype() == DType::Double, UnsupportedError,
           "grid_sampler_2d_cpu not implemented for {}", dtype_info(input.dtype()).scalar_type_name);
  kernels::dispatch_floating(input.dtype(), "grid_sampler_2d", [&]<typename T>() {
    using Acc = kernels::opmath_t<T>;
    const T* src = x.data<T>();
    const T* gp = g.data<T>();
    T* dst = out.data<T>();
    auto at = [&](const T* plane, int64_t yy, int64_t xx) -> Acc {
      if (yy < 0 || yy >= ih || xx < 0 || xx >= iw) return Acc(0);
      return static_cast<Acc>(plane[yy * iw + xx]);
    };
    for (int64_t b = 0; b < n; ++b) {
      for (int64_t p = 0; p < oh * ow; ++p) {
        const Acc gx = static_cast<Acc>(gp[(b * oh * ow + p) * 2]);
        const Acc gy = static_cast<Acc>(gp[(b * oh * ow + p) * 2 + 1]);
        const Acc sx = source_index(gx, iw, padding, align_corners);
        const Acc sy = source_index(gy, ih, padding, align_corners);
        if (interpolation == 1) {  // nearest, ties to even as torch's vectorised round
          const auto xx = static_cast<int64_t>(std::nearbyint(sx)), yy = static_cast<int64_t>(std::nearbyint(sy));
          for (int64_t ch = 0; ch < c; ++ch) {
            const T* plane = src + (b * c + ch) * ih * iw;
            dst[((b * c + ch) * oh * ow) + p] = static_cast<T>(at(plane, yy, xx));
          }
          continue;
        }
        const Acc x_w = std::floor(sx), y_n = std::floor(sy);
        const Acc we = sx - x_w, ww = Acc(1) - we, ns = sy - y_n, nn = Acc(1) - ns;
        const Acc nw = nn * ww, ne = nn * we, sw = ns * ww, se = ns * we;
        const auto x0 = static_cast<int64_t>(x_w), y0 = static_cast<int64_t>(y_n);
        for (int64_t ch = 0; ch < c; ++ch) {
          const T* plane = src + (b * c + ch) * ih * iw;
          const Acc v = at(plane, y0, x0) * nw + at(plane, y0, x0 + 1) * ne + at(plane, y0 + 1, x0) * sw +
                        at(plane, y0 + 1, x0 + 1) * se;
          dst[((b * c + ch) * oh * ow) + p] = static_cast<T>(v);
        }
      }
    }
  });
  return out;
}

}  // namespace torchlet

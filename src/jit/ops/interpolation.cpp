// Resampling operators: upsample_* (nearest, nearest-exact, linear, bilinear, bicubic,
// trilinear, antialiased) with their .vec forms, grid_sampler and affine_grid_generator,
// im2col/col2im (F.unfold / F.fold), and the pixel and channel shuffles, each registered
// from its kernel's signature (Note [Boxing] in boxing.h) with the out= forms torch has.
// The .vec forms turn (output_size, scale_factors) into the kernels' sizes and scales.
#include <array>
#include <cmath>
#include <optional>
#include <vector>

#include <torchlet/ops.h>

#include "jit/ops/boxing.h"
#include "jit/ops/out_forms.h"

namespace torchlet::jit::ops {
namespace {

using OptionalSizes = std::optional<std::vector<int64_t>>;
using OptionalScales = std::optional<std::vector<double>>;

// upsample_*.vec: output_size, or floor(input size * scale); the scales are passed on
// so the kernels map coordinates as torch does (by 1/scale).
struct VecArgs {
  std::vector<int64_t> size;
  std::vector<std::optional<double>> scales;
};
VecArgs vec_args(const Tensor& input, const OptionalSizes& size, const OptionalScales& scales, size_t spatial,
                 const char* op) {
  TL_CHECK(size.has_value() != scales.has_value(), ValueError,
           "{}: must specify exactly one of output_size and scale_factors", op);
  VecArgs a{{}, std::vector<std::optional<double>>(spatial)};
  if (size) {
    a.size = *size;
    return a;
  }
  TL_CHECK(scales->size() == spatial, ValueError, "{}: expected {} scale factors, got {}", op, spatial,
           scales->size());
  for (size_t i = 0; i < spatial; ++i) {
    int64_t in = input.size(input.dim() - static_cast<int64_t>(spatial) + static_cast<int64_t>(i));
    a.size.push_back(static_cast<int64_t>(std::floor(static_cast<double>(in) * (*scales)[i])));
    a.scales[i] = (*scales)[i];
  }
  return a;
}

Tensor upsample_nearest1d_vec(const Tensor& input, const OptionalSizes& size, const OptionalScales& scales) {
  VecArgs a = vec_args(input, size, scales, 1, "upsample_nearest1d");
  return torchlet::upsample_nearest1d(input, a.size, a.scales[0]);
}
Tensor upsample_nearest3d_vec(const Tensor& input, const OptionalSizes& size, const OptionalScales& scales) {
  VecArgs a = vec_args(input, size, scales, 3, "upsample_nearest3d");
  return torchlet::upsample_nearest3d(input, a.size, a.scales[0], a.scales[1], a.scales[2]);
}
Tensor upsample_linear1d_vec(const Tensor& input, const OptionalSizes& size, bool align_corners,
                             const OptionalScales& scales) {
  VecArgs a = vec_args(input, size, scales, 1, "upsample_linear1d");
  return torchlet::upsample_linear1d(input, a.size, align_corners, a.scales[0]);
}
Tensor upsample_trilinear3d_vec(const Tensor& input, const OptionalSizes& size, bool align_corners,
                                const OptionalScales& scales) {
  VecArgs a = vec_args(input, size, scales, 3, "upsample_trilinear3d");
  return torchlet::upsample_trilinear3d(input, a.size, align_corners, a.scales[0], a.scales[1], a.scales[2]);
}
Tensor upsample_bicubic2d_vec(const Tensor& input, const OptionalSizes& size, bool align_corners,
                              const OptionalScales& scales) {
  VecArgs a = vec_args(input, size, scales, 2, "upsample_bicubic2d");
  return torchlet::upsample_bicubic2d(input, a.size, align_corners, a.scales[0], a.scales[1]);
}
// interpolate(antialias=True).
Tensor upsample_bilinear2d_aa_vec(const Tensor& input, const OptionalSizes& size, bool align_corners,
                                  const OptionalScales& scales) {
  VecArgs a = vec_args(input, size, scales, 2, "_upsample_bilinear2d_aa");
  return torchlet::upsample_bilinear2d_aa(input, a.size, align_corners, a.scales[0], a.scales[1]);
}
Tensor upsample_bicubic2d_aa_vec(const Tensor& input, const OptionalSizes& size, bool align_corners,
                                 const OptionalScales& scales) {
  VecArgs a = vec_args(input, size, scales, 2, "_upsample_bicubic2d_aa");
  return torchlet::upsample_bicubic2d_aa(input, a.size, align_corners, a.scales[0], a.scales[1]);
}

// interpolate(mode="nearest-exact"): one kernel for 1 to 3 spatial dims.
template <size_t kDims>
Tensor nearest_exact(const Tensor& self, IntList output_size, std::array<std::optional<double>, 3> scales) {
  TL_CHECK(output_size.size() == kDims, ValueError, "_upsample_nearest_exact{}d expects {} output sizes, got {}", kDims,
           kDims, output_size.size());
  return torchlet::upsample_nearest_exact(self, output_size, scales);
}
Tensor upsample_nearest_exact1d(const Tensor& self, IntList output_size, std::optional<double> scales) {
  return nearest_exact<1>(self, output_size, {scales});
}
Tensor upsample_nearest_exact2d(const Tensor& self, IntList output_size, std::optional<double> scales_h,
                                std::optional<double> scales_w) {
  return nearest_exact<2>(self, output_size, {scales_h, scales_w});
}
Tensor upsample_nearest_exact3d(const Tensor& self, IntList output_size, std::optional<double> scales_d,
                                std::optional<double> scales_h, std::optional<double> scales_w) {
  return nearest_exact<3>(self, output_size, {scales_d, scales_h, scales_w});
}
template <size_t kDims>
Tensor upsample_nearest_exact_vec(const Tensor& input, const OptionalSizes& size, const OptionalScales& scales) {
  static constexpr const char* kNames[] = {"", "_upsample_nearest_exact1d", "_upsample_nearest_exact2d",
                                           "_upsample_nearest_exact3d"};
  VecArgs a = vec_args(input, size, scales, kDims, kNames[kDims]);
  std::array<std::optional<double>, 3> sc{};
  for (size_t i = 0; i < kDims && i < a.scales.size(); ++i) sc[i] = a.scales[i];
  return torchlet::upsample_nearest_exact(input, a.size, sc);
}

// The 2-d nearest and bilinear kernels map by sizes alone: their .vec forms compute the
// size as floor(input size * scale) and pass no scales, and the scales_h / scales_w of
// the sized forms are read and not passed on.
std::vector<int64_t> upsample_size(const Tensor& input, const OptionalSizes& size, const OptionalScales& scales,
                                   const char* op) {
  TL_CHECK(size.has_value() != scales.has_value(), ValueError,
           "{}: must specify exactly one of output_size and scale_factors", op);
  if (size) return *size;
  std::vector<int64_t> out;
  for (size_t i = 0; i < scales->size(); ++i) {
    int64_t in = input.size(input.dim() - static_cast<int64_t>(scales->size()) + static_cast<int64_t>(i));
    out.push_back(static_cast<int64_t>(std::floor(static_cast<double>(in) * (*scales)[i])));
  }
  return out;
}
Tensor upsample_nearest2d(const Tensor& self, IntList output_size, std::optional<double> /*scales_h*/,
                          std::optional<double> /*scales_w*/) {
  return torchlet::upsample_nearest2d(self, output_size);
}
Tensor upsample_nearest2d_vec(const Tensor& input, const OptionalSizes& size, const OptionalScales& scales) {
  return torchlet::upsample_nearest2d(input, upsample_size(input, size, scales, "upsample_nearest2d"));
}
Tensor upsample_bilinear2d(const Tensor& self, IntList output_size, bool align_corners,
                           std::optional<double> /*scales_h*/, std::optional<double> /*scales_w*/) {
  return torchlet::upsample_bilinear2d(self, output_size, align_corners);
}
Tensor upsample_bilinear2d_vec(const Tensor& input, const OptionalSizes& size, bool align_corners,
                               const OptionalScales& scales) {
  return torchlet::upsample_bilinear2d(input, upsample_size(input, size, scales, "upsample_bilinear2d"), align_corners);
}

// aten::grid_sampler picks the kernel by rank as torch's does: 4-D input is planar, any
// other rank goes to the volumetric kernel, whose checks name what is wrong.
Tensor grid_sampler(const Tensor& input, const Tensor& grid, int64_t interpolation_mode, int64_t padding_mode,
                    bool align_corners) {
  return input.dim() == 4 ? torchlet::grid_sampler_2d(input, grid, interpolation_mode, padding_mode, align_corners)
                          : torchlet::grid_sampler_3d(input, grid, interpolation_mode, padding_mode, align_corners);
}

static RegisterOps reg({
    {"aten::upsample_nearest1d(Tensor self, SymInt[1] output_size, float? scales=None) -> Tensor", boxed<&torchlet::upsample_nearest1d>},
    {"aten::upsample_nearest1d.vec(Tensor input, SymInt[]? output_size, float[]? scale_factors) -> Tensor", boxed<&upsample_nearest1d_vec>},
    {"aten::upsample_nearest1d.out(Tensor self, SymInt[1] output_size, float? scales=None, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::upsample_nearest1d", 1, exact_dtype>},
    {"aten::upsample_nearest1d.vec_out(Tensor input, SymInt[]? output_size, float[]? scale_factors, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::upsample_nearest1d.vec", 1, any_dtype>},
    {"aten::upsample_nearest2d(Tensor self, SymInt[2] output_size, float? scales_h=None, float? scales_w=None) -> Tensor", boxed<&upsample_nearest2d>},
    {"aten::upsample_nearest2d.vec(Tensor input, SymInt[]? output_size, float[]? scale_factors) -> Tensor", boxed<&upsample_nearest2d_vec>},
    {"aten::upsample_nearest2d.out(Tensor self, SymInt[2] output_size, float? scales_h=None, float? scales_w=None, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::upsample_nearest2d", 1, exact_dtype>},
    {"aten::upsample_nearest2d.vec_out(Tensor input, SymInt[]? output_size, float[]? scale_factors, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::upsample_nearest2d.vec", 1, any_dtype>},
    {"aten::upsample_nearest3d(Tensor self, SymInt[3] output_size, float? scales_d=None, float? scales_h=None, float? scales_w=None) -> Tensor", boxed<&torchlet::upsample_nearest3d>},
    {"aten::upsample_nearest3d.vec(Tensor input, SymInt[]? output_size, float[]? scale_factors) -> Tensor", boxed<&upsample_nearest3d_vec>},
    {"aten::upsample_nearest3d.out(Tensor self, SymInt[3] output_size, float? scales_d=None, float? scales_h=None, float? scales_w=None, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::upsample_nearest3d", 1, exact_dtype>},
    {"aten::upsample_nearest3d.vec_out(Tensor input, SymInt[]? output_size, float[]? scale_factors, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::upsample_nearest3d.vec", 1, any_dtype>},
    {"aten::_upsample_nearest_exact1d(Tensor self, SymInt[1] output_size, float? scales=None) -> Tensor", boxed<&upsample_nearest_exact1d>},
    {"aten::_upsample_nearest_exact1d.vec(Tensor input, SymInt[]? output_size, float[]? scale_factors) -> Tensor", boxed<&upsample_nearest_exact_vec<1>>},
    {"aten::_upsample_nearest_exact1d.out(Tensor self, SymInt[1] output_size, float? scales=None, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::_upsample_nearest_exact1d", 1, exact_dtype>},
    {"aten::_upsample_nearest_exact1d.vec_out(Tensor input, SymInt[]? output_size, float[]? scale_factors, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::_upsample_nearest_exact1d.vec", 1, any_dtype>},
    {"aten::_upsample_nearest_exact2d(Tensor self, SymInt[2] output_size, float? scales_h=None, float? scales_w=None) -> Tensor", boxed<&upsample_nearest_exact2d>},
    {"aten::_upsample_nearest_exact2d.vec(Tensor input, SymInt[]? output_size, float[]? scale_factors) -> Tensor", boxed<&upsample_nearest_exact_vec<2>>},
    {"aten::_upsample_nearest_exact2d.out(Tensor self, SymInt[2] output_size, float? scales_h=None, float? scales_w=None, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::_upsample_nearest_exact2d", 1, exact_dtype>},
    {"aten::_upsample_nearest_exact2d.vec_out(Tensor input, SymInt[]? output_size, float[]? scale_factors, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::_upsample_nearest_exact2d.vec", 1, any_dtype>},
    {"aten::_upsample_nearest_exact3d(Tensor self, SymInt[3] output_size, float? scales_d=None, float? scales_h=None, float? scales_w=None) -> Tensor", boxed<&upsample_nearest_exact3d>},
    {"aten::_upsample_nearest_exact3d.vec(Tensor input, SymInt[]? output_size, float[]? scale_factors) -> Tensor", boxed<&upsample_nearest_exact_vec<3>>},
    {"aten::_upsample_nearest_exact3d.out(Tensor self, SymInt[3] output_size, float? scales_d=None, float? scales_h=None, float? scales_w=None, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::_upsample_nearest_exact3d", 1, exact_dtype>},
    {"aten::_upsample_nearest_exact3d.vec_out(Tensor input, SymInt[]? output_size, float[]? scale_factors, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::_upsample_nearest_exact3d.vec", 1, any_dtype>},
    {"aten::upsample_linear1d(Tensor self, SymInt[1] output_size, bool align_corners, float? scales=None) -> Tensor", boxed<&torchlet::upsample_linear1d>},
    {"aten::upsample_linear1d.vec(Tensor input, SymInt[]? output_size, bool align_corners, float[]? scale_factors) -> Tensor", boxed<&upsample_linear1d_vec>},
    {"aten::upsample_linear1d.out(Tensor self, SymInt[1] output_size, bool align_corners, float? scales=None, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::upsample_linear1d", 1, exact_dtype>},
    {"aten::upsample_linear1d.vec_out(Tensor input, SymInt[]? output_size, bool align_corners, float[]? scale_factors, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::upsample_linear1d.vec", 1, any_dtype>},
    {"aten::upsample_bilinear2d(Tensor self, SymInt[2] output_size, bool align_corners, float? scales_h=None, float? scales_w=None) -> Tensor", boxed<&upsample_bilinear2d>},
    {"aten::upsample_bilinear2d.vec(Tensor input, SymInt[]? output_size, bool align_corners, float[]? scale_factors) -> Tensor", boxed<&upsample_bilinear2d_vec>},
    {"aten::upsample_bilinear2d.out(Tensor self, SymInt[2] output_size, bool align_corners, float? scales_h=None, float? scales_w=None, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::upsample_bilinear2d", 1, exact_dtype>},
    {"aten::upsample_bilinear2d.vec_out(Tensor input, SymInt[]? output_size, bool align_corners, float[]? scale_factors, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::upsample_bilinear2d.vec", 1, any_dtype>},
    {"aten::_upsample_bilinear2d_aa(Tensor self, SymInt[2] output_size, bool align_corners, float? scales_h=None, float? scales_w=None) -> Tensor", boxed<&torchlet::upsample_bilinear2d_aa>},
    {"aten::_upsample_bilinear2d_aa.vec(Tensor input, SymInt[]? output_size, bool align_corners, float[]? scale_factors) -> Tensor", boxed<&upsample_bilinear2d_aa_vec>},
    {"aten::_upsample_bilinear2d_aa.out(Tensor self, SymInt[2] output_size, bool align_corners, float? scales_h=None, float? scales_w=None, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::_upsample_bilinear2d_aa", 1, exact_dtype>},
    {"aten::_upsample_bilinear2d_aa.vec_out(Tensor input, SymInt[]? output_size, bool align_corners, float[]? scale_factors, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::_upsample_bilinear2d_aa.vec", 1, any_dtype>},
    {"aten::upsample_bicubic2d(Tensor self, SymInt[2] output_size, bool align_corners, float? scales_h=None, float? scales_w=None) -> Tensor", boxed<&torchlet::upsample_bicubic2d>},
    {"aten::upsample_bicubic2d.vec(Tensor input, SymInt[]? output_size, bool align_corners, float[]? scale_factors) -> Tensor", boxed<&upsample_bicubic2d_vec>},
    {"aten::upsample_bicubic2d.out(Tensor self, SymInt[2] output_size, bool align_corners, float? scales_h=None, float? scales_w=None, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::upsample_bicubic2d", 1, exact_dtype>},
    {"aten::upsample_bicubic2d.vec_out(Tensor input, SymInt[]? output_size, bool align_corners, float[]? scale_factors, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::upsample_bicubic2d.vec", 1, any_dtype>},
    {"aten::_upsample_bicubic2d_aa(Tensor self, SymInt[2] output_size, bool align_corners, float? scales_h=None, float? scales_w=None) -> Tensor", boxed<&torchlet::upsample_bicubic2d_aa>},
    {"aten::_upsample_bicubic2d_aa.vec(Tensor input, SymInt[]? output_size, bool align_corners, float[]? scale_factors) -> Tensor", boxed<&upsample_bicubic2d_aa_vec>},
    {"aten::_upsample_bicubic2d_aa.out(Tensor self, SymInt[2] output_size, bool align_corners, float? scales_h=None, float? scales_w=None, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::_upsample_bicubic2d_aa", 1, exact_dtype>},
    {"aten::_upsample_bicubic2d_aa.vec_out(Tensor input, SymInt[]? output_size, bool align_corners, float[]? scale_factors, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::_upsample_bicubic2d_aa.vec", 1, any_dtype>},
    {"aten::upsample_trilinear3d(Tensor self, SymInt[3] output_size, bool align_corners, float? scales_d=None, float? scales_h=None, float? scales_w=None) -> Tensor", boxed<&torchlet::upsample_trilinear3d>},
    {"aten::upsample_trilinear3d.vec(Tensor input, SymInt[]? output_size, bool align_corners, float[]? scale_factors) -> Tensor", boxed<&upsample_trilinear3d_vec>},
    {"aten::upsample_trilinear3d.out(Tensor self, SymInt[3] output_size, bool align_corners, float? scales_d=None, float? scales_h=None, float? scales_w=None, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::upsample_trilinear3d", 1, exact_dtype>},
    {"aten::upsample_trilinear3d.vec_out(Tensor input, SymInt[]? output_size, bool align_corners, float[]? scale_factors, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::upsample_trilinear3d.vec", 1, any_dtype>},
    {"aten::affine_grid_generator(Tensor theta, int[] size, bool align_corners) -> Tensor", boxed<&torchlet::affine_grid_generator>},
    {"aten::affine_grid_generator.out(Tensor theta, int[] size, bool align_corners, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::affine_grid_generator", 1, any_dtype>},
    {"aten::grid_sampler(Tensor input, Tensor grid, int interpolation_mode, int padding_mode, bool align_corners) -> Tensor", boxed<&grid_sampler>},
    {"aten::grid_sampler_2d(Tensor input, Tensor grid, int interpolation_mode, int padding_mode, bool align_corners) -> Tensor", boxed<&torchlet::grid_sampler_2d>},
    {"aten::grid_sampler_2d.out(Tensor input, Tensor grid, int interpolation_mode, int padding_mode, bool align_corners, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::grid_sampler_2d", 1, any_dtype>},
    {"aten::grid_sampler_3d(Tensor input, Tensor grid, int interpolation_mode, int padding_mode, bool align_corners) -> Tensor", boxed<&torchlet::grid_sampler_3d>},
    {"aten::grid_sampler_3d.out(Tensor input, Tensor grid, int interpolation_mode, int padding_mode, bool align_corners, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::grid_sampler_3d", 1, any_dtype>},
    {"aten::im2col(Tensor self, int[2] kernel_size, int[2] dilation, int[2] padding, int[2] stride) -> Tensor", boxed<&torchlet::im2col>},
    {"aten::col2im(Tensor self, SymInt[2] output_size, int[2] kernel_size, int[2] dilation, int[2] padding, int[2] stride) -> Tensor", boxed<&torchlet::col2im>},
    {"aten::col2im.out(Tensor self, SymInt[2] output_size, int[2] kernel_size, int[2] dilation, int[2] padding, int[2] stride, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::col2im", 1, expected_scalar_type>},
    {"aten::pixel_shuffle(Tensor self, int upscale_factor) -> Tensor", boxed<&torchlet::pixel_shuffle>},
    {"aten::pixel_shuffle.out(Tensor self, int upscale_factor, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::pixel_shuffle", 1, any_dtype>},
    {"aten::pixel_unshuffle(Tensor self, int downscale_factor) -> Tensor", boxed<&torchlet::pixel_unshuffle>},
    {"aten::pixel_unshuffle.out(Tensor self, int downscale_factor, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::pixel_unshuffle", 1, any_dtype>},
    {"aten::channel_shuffle(Tensor self, int groups) -> Tensor", boxed<&torchlet::channel_shuffle>},
    {"aten::channel_shuffle.out(Tensor self, int groups, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::channel_shuffle", 1, any_dtype>},
    {"aten::native_channel_shuffle(Tensor self, int groups) -> Tensor", boxed<&torchlet::channel_shuffle>},
});

}  // namespace
}  // namespace torchlet::jit::ops

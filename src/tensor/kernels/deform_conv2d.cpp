// torchvision::deform_conv2d forward on CPU (deformable convolution v1/v2): each kernel
// tap samples the input bilinearly at its offset position, scaled by the mask, into
// torchvision's column matrix, and each weight group multiplies its block of it. The
// columns are torchvision's to the bit; the products run on torchlet's mm, so float
// results agree to the BLAS's rounding, not bit for bit. No backward.
#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdint>
#include <string>

#include <torchlet/error.h>
#include <torchlet/ops.h>

#include "core/parallel.h"
#include "tensor/kernels/detection.h"
#include "tensor/kernels/loop.h"

namespace torchlet::vision {
namespace {

// torchvision's bare TORCH_CHECKs print the condition and this suffix.
constexpr const char* kTorchCheckSuffix =
    "  (Could this error message be improved?  If so, please report an enhancement request to PyTorch.)";

struct DeformShape {
  int64_t batch = 0, in_c = 0, in_h = 0, in_w = 0, out_c = 0, kh = 0, kw = 0, out_h = 0, out_w = 0;
  int64_t stride_h = 1, stride_w = 1, pad_h = 0, pad_w = 0, dil_h = 1, dil_w = 1, groups = 1, offset_groups = 1;
  bool use_mask = false;
};

// The input's value at (h, w) by bilinear interpolation, each of the four pixels outside
// the image counting 0, and 0 for a point a whole pixel or more outside (or NaN).
template <typename T>
T deform_sample(const T* in, int64_t height, int64_t width, T h, T w) {
  if (!(h > -1 && h < height && w > -1 && w < width)) return 0;
  const int64_t h_low = static_cast<int64_t>(std::floor(h)), w_low = static_cast<int64_t>(std::floor(w));
  const int64_t h_high = h_low + 1, w_high = w_low + 1;
  const T lh = h - static_cast<T>(h_low), lw = w - static_cast<T>(w_low);
  const T hh = 1 - lh, hw = 1 - lw;
  const T v1 = h_low >= 0 && w_low >= 0 ? in[h_low * width + w_low] : T(0);
  const T v2 = h_low >= 0 && w_high <= width - 1 ? in[h_low * width + w_high] : T(0);
  const T v3 = h_high <= height - 1 && w_low >= 0 ? in[h_high * width + w_low] : T(0);
  const T v4 = h_high <= height - 1 && w_high <= width - 1 ? in[h_high * width + w_high] : T(0);
  const T w1 = hh * hw, w2 = hh * lw, w3 = lh * hw, w4 = lh * lw;
  return w1 * v1 + w2 * v2 + w3 * v3 + w4 * v4;
}

// Image b's columns: row (c * kh + i) * kw + j, column oy * out_w + ox, the tap (i, j)
// of output position (oy, ox) sampled from channel c.
template <typename T>
void deform_columns(const T* input, const T* offset, const T* mask, const DeformShape& s, T* cols) {
  const int64_t taps = s.kh * s.kw, plane = s.out_h * s.out_w, per_group = s.in_c / s.offset_groups;
  parallel_for(0, s.in_c, std::max<int64_t>(1, kernels::kGrainSize / std::max<int64_t>(1, taps * plane)),
               [&](int64_t lo, int64_t hi) {
                 for (int64_t c = lo; c < hi; ++c) {
                   const int64_t grp = c / per_group;
                   const T* in = input + c * s.in_h * s.in_w;
                   const T* off = offset + grp * 2 * taps * plane;
                   const T* msk = s.use_mask ? mask + grp * taps * plane : nullptr;
                   for (int64_t i = 0; i < s.kh; ++i)
                     for (int64_t j = 0; j < s.kw; ++j) {
                       const int64_t tap = i * s.kw + j;
                       T* col = cols + (c * taps + tap) * plane;
                       for (int64_t oy = 0; oy < s.out_h; ++oy)
                         for (int64_t ox = 0; ox < s.out_w; ++ox) {
                           const int64_t at = oy * s.out_w + ox;
                           const T mask_value = msk ? msk[tap * plane + at] : T(1);
                           const T y = static_cast<T>((oy * s.stride_h - s.pad_h) + i * s.dil_h) + off[2 * tap * plane + at];
                           const T x =
                               static_cast<T>((ox * s.stride_w - s.pad_w) + j * s.dil_w) + off[(2 * tap + 1) * plane + at];
                           col[at] = mask_value * deform_sample(in, s.in_h, s.in_w, y, x);
                         }
                     }
                 }
               });
}

// torchvision's checks, in its order and words; the ones torchvision makes after
// dividing by a stride or a group count (a crash there) come first here.
DeformShape check_deform_args(const Tensor& input, const Tensor& weight, const Tensor& offset, const Tensor& mask,
                              const DeformShape& args) {
  for (const auto& [t, name] : {std::pair{&input, "input_c"}, std::pair{&offset, "offset_c"}})
    TL_CHECK(t->dim() == 4, ValueError, "Expected {}.ndimension() == 4 to be true, but got false.{}", name,
             kTorchCheckSuffix);
  TL_CHECK(!args.use_mask || mask.dim() == 4, ValueError,
           "Expected !use_mask || mask_c.ndimension() == 4 to be true, but got false.{}", kTorchCheckSuffix);
  TL_CHECK(weight.dim() == 4, ValueError, "Expected weight_c.ndimension() == 4 to be true, but got false.{}",
           kTorchCheckSuffix);
  DeformShape s = args;
  s.batch = input.size(0), s.in_c = input.size(1), s.in_h = input.size(2), s.in_w = input.size(3);
  s.out_c = weight.size(0), s.kh = weight.size(2), s.kw = weight.size(3);
  TL_CHECK(s.stride_h > 0 && s.stride_w > 0, ValueError, "stride_h: {} stride_w: {}", s.stride_h, s.stride_w);
  TL_CHECK(s.groups > 0 && s.offset_groups > 0, ValueError,
           "deform_conv2d: groups ({}) and offset_groups ({}) must be positive", s.groups, s.offset_groups);
  for (int64_t v : {s.in_h, s.in_w, s.kh, s.kw, s.pad_h, s.pad_w, s.dil_h, s.dil_w, s.stride_h, s.stride_w})
    TL_CHECK(std::abs(v) <= INT_MAX / 4, LimitError, "deform_conv2d: size or parameter {} does not fit torchvision's int",
             v);
  s.out_h = (s.in_h + 2 * s.pad_h - (s.dil_h * (s.kh - 1) + 1)) / s.stride_h + 1;
  s.out_w = (s.in_w + 2 * s.pad_w - (s.dil_w * (s.kw - 1) + 1)) / s.stride_w + 1;
  TL_CHECK(s.kh > 0 && s.kw > 0, ValueError, "weight_h: {} weight_w: {}", s.kh, s.kw);
  TL_CHECK(s.pad_h >= 0 && s.pad_w >= 0, ValueError, "pad_h: {} pad_w: {}", s.pad_h, s.pad_w);
  TL_CHECK(s.dil_h > 0 && s.dil_w > 0, ValueError, "dilation_h: {} dilation_w: {}", s.dil_h, s.dil_w);
  TL_CHECK(weight.size(1) * s.groups == s.in_c, ValueError,
           "Expected weight_c.size(1) * n_weight_grps == input_c.size(1) to be true, but got false.{}", kTorchCheckSuffix);
  TL_CHECK(s.out_c % s.groups == 0, ValueError,
           "Expected weight_c.size(0) % n_weight_grps == 0 to be true, but got false.{}", kTorchCheckSuffix);
  const int64_t taps = s.kh * s.kw;
  TL_CHECK(offset.size(1) == s.offset_groups * 2 * taps, ValueError, "offset.shape[1] is not valid: got: {} expected: {}",
           offset.size(1), s.offset_groups * 2 * taps);
  TL_CHECK(!s.use_mask || mask.size(1) == s.offset_groups * taps, ValueError,
           "mask.shape[1] is not valid: got: {} expected: {}", mask.size(1), s.offset_groups * taps);
  TL_CHECK(s.in_c % s.offset_groups == 0, ValueError,
           "Expected input_c.size(1) % n_offset_grps == 0 to be true, but got false.{}", kTorchCheckSuffix);
  TL_CHECK(offset.size(0) == s.batch, ValueError, "invalid batch size of offset");
  TL_CHECK(offset.size(2) == s.out_h && offset.size(3) == s.out_w, ValueError,
           "offset output dims: ({}, {}) - computed output dims: ({}, {})", offset.size(2), offset.size(3), s.out_h,
           s.out_w);
  TL_CHECK(mask.size(0) == s.batch, ValueError, "invalid batch size of mask");
  TL_CHECK(!s.use_mask || (mask.size(2) == s.out_h && mask.size(3) == s.out_w), ValueError,
           "mask output dims: ({}, {}) - computed output dims: ({}, {})", mask.size(2), mask.size(3), s.out_h, s.out_w);
  TL_CHECK(s.out_h > 0 && s.out_w > 0, ValueError, "Calculated output size too small - out_h: {} out_w: {}", s.out_h,
           s.out_w);
  return s;
}

// The dtype checks torchvision's kernels make on the way (im2col's dispatch and data
// pointers, then addmm's), in that order.
void check_deform_dtypes(const Tensor& input, const Tensor& weight, const Tensor& offset, const Tensor& mask) {
  const DType d = input.dtype();
  if (d != DType::Float && d != DType::Double && d != DType::Half) throw_unsupported_dtype("deformable_im2col", d);
  for (const Tensor* t : {&offset, &mask})
    TL_CHECK(t->dtype() == d, TypeError, "expected scalar type {} but found {}", dtype_info(d).scalar_type_name,
             dtype_info(t->dtype()).scalar_type_name);
  if (d == DType::Half) throw_unsupported_dtype("addmm_impl_cpu_", d);  // torch 1.13 has no CPU half addmm
  TL_CHECK(weight.dtype() == d, TypeError, "mat1 and mat2 must have the same dtype");
}

template <typename T>
void deform_conv2d_typed(const Tensor& input, const Tensor& weight, const Tensor& offset, const Tensor& mask,
                         const DeformShape& s, Tensor& out) {
  const Tensor x = input.contiguous(), off = offset.contiguous(), msk = mask.contiguous();
  const int64_t cout_g = s.out_c / s.groups, rows_g = (s.in_c / s.groups) * s.kh * s.kw, plane = s.out_h * s.out_w;
  const Tensor w = weight.contiguous().reshape({s.groups, cout_g, rows_g});
  Tensor cols = empty({s.in_c * s.kh * s.kw, plane}, input.dtype());
  const int64_t offset_image = off.numel() / s.batch, mask_image = s.use_mask ? msk.numel() / s.batch : 0;
  for (int64_t b = 0; b < s.batch; ++b) {
    deform_columns<T>(x.data<T>() + b * s.in_c * s.in_h * s.in_w, off.data<T>() + b * offset_image,
                      s.use_mask ? msk.data<T>() + b * mask_image : nullptr, s, cols.data<T>());
    for (int64_t g = 0; g < s.groups; ++g) {
      const Tensor product = mm(w.select(0, g), cols.narrow(0, g * rows_g, rows_g));
      out.select(0, b).narrow(0, g * cout_g, cout_g).copy_(product.view({cout_g, s.out_h, s.out_w}));
    }
  }
}

}  // namespace

Tensor deform_conv2d(const Tensor& input, const Tensor& weight, const Tensor& offset, const Tensor& mask,
                     const Tensor& bias, int64_t stride_h, int64_t stride_w, int64_t pad_h, int64_t pad_w,
                     int64_t dilation_h, int64_t dilation_w, int64_t groups, int64_t offset_groups, bool use_mask) {
  DeformShape args;
  args.stride_h = stride_h, args.stride_w = stride_w, args.pad_h = pad_h, args.pad_w = pad_w;
  args.dil_h = dilation_h, args.dil_w = dilation_w, args.groups = groups, args.offset_groups = offset_groups;
  args.use_mask = use_mask;
  const DeformShape s = check_deform_args(input, weight, offset, mask, args);
  Tensor out = zeros({s.batch, s.out_c, s.out_h, s.out_w}, input.dtype());
  if (s.batch == 0) return out;  // before any dtype check, as torchvision returns
  check_deform_dtypes(input, weight, offset, mask);
  if (input.dtype() == DType::Float) deform_conv2d_typed<float>(input, weight, offset, mask, s, out);
  else deform_conv2d_typed<double>(input, weight, offset, mask, s, out);
  TL_CHECK(bias.numel() == s.out_c, ValueError, "shape '[1, {}, 1, 1]' is invalid for input of size {}", s.out_c,
           bias.numel());
  return add(out, bias.reshape({1, s.out_c, 1, 1}));
}

}  // namespace torchlet::vision

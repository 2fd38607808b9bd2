// The detection operators torchvision registers under `torchvision::` (torchvision 0.14's
// CPU kernels): non-maximum suppression (nms.cpp), RoIAlign and its position-sensitive
// form (roi_align.cpp), RoI pooling and its position-sensitive form (roi_pool.cpp),
// deformable convolution (deform_conv2d.cpp). Forward only: torchlet runs inference.
// Their registrations are src/jit/ops/torchvision.cpp.
#pragma once

#include <cstdint>
#include <tuple>
#include <type_traits>

#include <torchlet/tensor.h>

namespace torchlet::vision {

// Indices (int64) of the boxes kept, highest score first. dets is [N, 4] as
// (x1, y1, x2, y2), scores [N], both float32 or float64; a box is dropped when its IoU
// with a kept, higher-scored box exceeds iou_threshold. Equal scores are visited in
// index order (torchvision sorts stably), NaN scores first.
Tensor nms(const Tensor& dets, const Tensor& scores, double iou_threshold);

// [K, C, pooled_height, pooled_width]: each roi (batch index, x1, y1, x2, y2) of rois
// [K, 5], scaled by spatial_scale, split into bins averaged over a grid of bilinear
// samples of input [N, C, H, W] (sampling_ratio per side, or ceil(bin size) when <= 0).
// aligned shifts the roi by half a pixel, as torchvision's aligned=True does. These and
// the pooling forms below take float32, float64 and float16, as torchvision's do.
Tensor roi_align(const Tensor& input, const Tensor& rois, double spatial_scale, int64_t pooled_height,
                 int64_t pooled_width, int64_t sampling_ratio, bool aligned);

// Max over each bin of the rounded roi, and the argmax (flat h * W + w within its
// plane, -1 for an empty bin) as int32, as torchvision returns it.
std::tuple<Tensor, Tensor> roi_pool(const Tensor& input, const Tensor& rois, double spatial_scale,
                                    int64_t pooled_height, int64_t pooled_width);

// Position-sensitive forms: input has C_out * pooled_height * pooled_width channels and
// bin (ph, pw) of output channel c reads input channel (c * pooled_height + ph) *
// pooled_width + pw, the second result (int32) holding that channel for each output.
std::tuple<Tensor, Tensor> ps_roi_align(const Tensor& input, const Tensor& rois, double spatial_scale,
                                        int64_t pooled_height, int64_t pooled_width, int64_t sampling_ratio);
std::tuple<Tensor, Tensor> ps_roi_pool(const Tensor& input, const Tensor& rois, double spatial_scale,
                                       int64_t pooled_height, int64_t pooled_width);

// Deformable convolution (deform_conv2d.cpp): weight [C_out, C_in / groups, kh, kw];
// offset [N, offset_groups * 2 * kh * kw, H_out, W_out] holds each tap's (dy, dx);
// mask [N, offset_groups * kh * kw, H_out, W_out] scales each tap when use_mask (its
// batch size is checked even when not); bias [C_out]. float32 and float64.
Tensor deform_conv2d(const Tensor& input, const Tensor& weight, const Tensor& offset, const Tensor& mask,
                     const Tensor& bias, int64_t stride_h, int64_t stride_w, int64_t pad_h, int64_t pad_w,
                     int64_t dilation_h, int64_t dilation_w, int64_t groups, int64_t offset_groups, bool use_mask);

// What the RoI kernels (roi_align.cpp, roi_pool.cpp) share; not part of the operators.
namespace detail {

// Note [c10::Half arithmetic]: torchvision's half kernels compute in c10::Half, whose
// operators round every Half-Half result back to half (an int operand is first made a
// Half), while a float or double operand makes the result float or double. A sample
// sums its four weighted pixels in half, so computing in float and rounding once would
// not give torchvision's values; this type has c10::Half's overload set so the same
// expressions round in the same places. float and double compute as themselves.
struct HalfArith {
  Half v;
  HalfArith() = default;
  HalfArith(float f) : v(f) {}  // NOLINT: implicit, like c10::Half
  HalfArith(Half h) : v(h) {}   // NOLINT
  operator float() const { return v; }  // NOLINT
};

#define TL_HALF_ARITH_OP(op)                                                                      \
  inline HalfArith operator op(HalfArith a, HalfArith b) { return float(a) op float(b); }       \
  inline float operator op(HalfArith a, float b) { return float(a) op b; }                      \
  inline float operator op(float a, HalfArith b) { return a op float(b); }                      \
  inline double operator op(HalfArith a, double b) { return static_cast<double>(float(a)) op b; } \
  inline double operator op(double a, HalfArith b) { return a op static_cast<double>(float(b)); } \
  inline HalfArith operator op(HalfArith a, int b) { return a op HalfArith(static_cast<float>(b)); } \
  inline HalfArith operator op(int a, HalfArith b) { return HalfArith(static_cast<float>(a)) op b; } \
  inline HalfArith& operator op##=(HalfArith& a, HalfArith b) { return a = a op b; }
TL_HALF_ARITH_OP(+)
TL_HALF_ARITH_OP(-)
TL_HALF_ARITH_OP(*)
TL_HALF_ARITH_OP(/)
#undef TL_HALF_ARITH_OP

template <typename T>
struct Arith {
  using type = T;
};
template <>
struct Arith<Half> {
  using type = HalfArith;
};
template <typename T>
using arith_t = typename Arith<T>::type;

template <typename T>
T stored(arith_t<T> a) {
  if constexpr (std::is_same_v<T, Half>) return a.v;
  else return a;
}

struct RoiShape {
  int64_t n = 0, c = 0, h = 0, w = 0, k = 0;  // input [N, C, H, W], K rois
};

// torchvision's checks, in its order and (where it has one) its words: rois [K, 5]
// (rois_message otherwise) of the input's dtype, input [N, C, H, W]. kernel names
// torchvision's kernel in the dtype message, op the operator in torchlet's own.
RoiShape check_roi_args(const Tensor& input, const Tensor& rois, const char* rois_message, const char* kernel,
                        const char* op);
// torchvision's kernels count in int: a pooled size past it is refused.
int pooled_side(int64_t v, const char* op);
// pooled_height * pooled_width for the position-sensitive forms, which divide the
// input's channels among the bins; a 0 side is refused.
int64_t pooled_bins(int64_t pooled_height, int64_t pooled_width, const char* op);
// The image roi k names (torchvision truncates it to int); IndexError outside the batch.
int64_t roi_batch_index(double b, int64_t k, int64_t batch_size, const char* op);

}  // namespace detail

}  // namespace torchlet::vision

// torchvision's detection operators against torchvision 0.14 (kernels/detection.txt from
// gen_kernels_detection.py): nms (tied, NaN and strided scores; all suppressed; IoU at
// the threshold; empty input), roi_align and ps_roi_align (aligned or not, adaptive and
// fixed sampling, rois past the image, float16, strided inputs), roi_pool and
// ps_roi_pool, deform_conv2d (groups, offset groups, with and without mask), and
// torchvision's messages for bad arguments. The inputs torchvision
// itself crashes on or misreads are checked here for torchlet's own errors.
#include <cmath>
#include <limits>

#include <gtest/gtest.h>

#include "oracle.h"
#include "tensor/kernels/detection.h"

namespace torchlet {
namespace {

using testing::OpFn;
using testing::Params;

std::map<std::string, OpFn> detection_ops() {
  std::map<std::string, OpFn> ops;
  ops["nms"] = [](std::vector<Tensor>& in, const Params& p) {
    return std::vector{vision::nms(in[0], in[1], p.real("iou_threshold"))};
  };
  ops["roi_align"] = [](std::vector<Tensor>& in, const Params& p) {
    return std::vector{vision::roi_align(in[0], in[1], p.real("spatial_scale"), p.integer("pooled_height"),
                                         p.integer("pooled_width"), p.integer("sampling_ratio"), p.flag("aligned"))};
  };
  ops["ps_roi_align"] = [](std::vector<Tensor>& in, const Params& p) {
    auto [out, mapping] = vision::ps_roi_align(in[0], in[1], p.real("spatial_scale"), p.integer("pooled_height"),
                                               p.integer("pooled_width"), p.integer("sampling_ratio"));
    return std::vector{out, mapping};
  };
  ops["roi_pool"] = [](std::vector<Tensor>& in, const Params& p) {
    auto [out, argmax] = vision::roi_pool(in[0], in[1], p.real("spatial_scale"), p.integer("pooled_height"),
                                          p.integer("pooled_width"));
    return std::vector{out, argmax};
  };
  ops["ps_roi_pool"] = [](std::vector<Tensor>& in, const Params& p) {
    auto [out, mapping] = vision::ps_roi_pool(in[0], in[1], p.real("spatial_scale"), p.integer("pooled_height"),
                                              p.integer("pooled_width"));
    return std::vector{out, mapping};
  };
  ops["deform_conv2d"] = [](std::vector<Tensor>& in, const Params& p) {
    const Shape stride = p.ints("stride"), pad = p.ints("padding"), dil = p.ints("dilation");
    return std::vector{vision::deform_conv2d(in[0], in[1], in[2], in[3], in[4], stride[0], stride[1], pad[0], pad[1],
                                             dil[0], dil[1], p.integer("groups"), p.integer("offset_groups"),
                                             p.flag("use_mask"))};
  };
  return ops;
}

// Exact: the kernels compute in torchvision's types and order, float16 included (Note
// [c10::Half arithmetic] in detection.h). deform_conv2d's columns are exact too, but its
// products run on torchlet's mm, which rounds as its own BLAS does, not torch's (a
// float64 result may be a float32 product plus a float64 bias, so one bound for both).
TEST(DetectionKernels, MatchTorchvisionExactly) {
  testing::run_fixture(
      "detection.txt", detection_ops(),
      [](const std::string& op, DType) {
        return op == "deform_conv2d" ? testing::Tolerance{1e-5, 1e-6} : testing::Tolerance{0, 0};
      },
      /*match_messages=*/true);
}

Tensor image(int64_t n, int64_t c, int64_t h, int64_t w) { return ones({n, c, h, w}); }
Tensor one_roi(float b, float x1, float y1, float x2, float y2) { return tensor<float>({b, x1, y1, x2, y2}, {1, 5}); }

// torchvision reads whatever memory a batch index outside the input names.
TEST(DetectionKernels, BatchIndexOutsideTheInputIsRefused) {
  for (float b : {2.0f, -1.0f, 7.5f, std::numeric_limits<float>::quiet_NaN()}) {
    const Tensor r = one_roi(b, 0, 0, 2, 2);
    EXPECT_THROW(vision::roi_align(image(2, 3, 4, 4), r, 1.0, 2, 2, 0, false), IndexError) << b;
    EXPECT_THROW(vision::ps_roi_align(image(2, 4, 4, 4), r, 1.0, 2, 2, 0), IndexError) << b;
    EXPECT_THROW(vision::roi_pool(image(2, 3, 4, 4), r, 1.0, 2, 2), IndexError) << b;
    EXPECT_THROW(vision::ps_roi_pool(image(2, 4, 4, 4), r, 1.0, 2, 2), IndexError) << b;
  }
  // Truncated toward zero as torchvision does: -0.5 and 1.9 name images 0 and 1.
  EXPECT_NO_THROW(vision::roi_align(image(2, 3, 4, 4), one_roi(-0.5f, 0, 0, 2, 2), 1.0, 2, 2, 0, false));
  EXPECT_NO_THROW(vision::roi_align(image(2, 3, 4, 4), one_roi(1.9f, 0, 0, 2, 2), 1.0, 2, 2, 0, false));
}

// torchvision's kernel reads out of bounds on an image without pixels: nothing is
// sampled, so every bin is the empty bin's 0.
TEST(DetectionKernels, EmptyImageGivesEmptyBins) {
  for (const Tensor& x : {image(1, 2, 0, 5), image(1, 2, 5, 0)}) {
    const Tensor out = vision::roi_align(x, one_roi(0, 0, 0, 1, 1), 1.0, 2, 2, 0, false);
    EXPECT_EQ(out.sizes(), IntList({1, 2, 2, 2}));
    for (double v : out.to_vector<double>()) EXPECT_EQ(v, 0.0);
  }
}

TEST(DetectionKernels, ShapesTorchvisionMisreadsAreRefused) {
  const Tensor r = one_roi(0, 0, 0, 2, 2);
  // A fifth input dimension would be read as part of each plane.
  EXPECT_THROW(vision::roi_align(ones({1, 2, 3, 3, 3}), r, 1.0, 2, 2, 0, false), ValueError);
  // roi_pool in torchvision 0.14 does not check that rois are [K, 5].
  EXPECT_THROW(vision::roi_pool(image(1, 2, 4, 4), zeros({1, 4}), 1.0, 2, 2), ValueError);
  EXPECT_THROW(vision::roi_pool(image(1, 2, 4, 4), zeros({5}), 1.0, 2, 2), IndexError);
  // The position-sensitive forms divide the channels by pooled_height * pooled_width.
  EXPECT_THROW(vision::ps_roi_align(image(1, 4, 4, 4), r, 1.0, 0, 2, 0), ValueError);
  EXPECT_THROW(vision::ps_roi_pool(image(1, 4, 4, 4), r, 1.0, 2, 0), ValueError);
  // torchvision divides by the stride and the group counts before checking them.
  const Tensor x = image(1, 2, 5, 5), w = ones({2, 2, 3, 3}), off = zeros({1, 18, 3, 3}), m = ones({1, 9, 3, 3});
  EXPECT_THROW(vision::deform_conv2d(x, w, off, m, zeros({2}), 0, 1, 0, 0, 1, 1, 1, 1, true), ValueError);
  EXPECT_THROW(vision::deform_conv2d(x, w, off, m, zeros({2}), 1, 1, 0, 0, 1, 1, 0, 1, true), ValueError);
  EXPECT_THROW(vision::deform_conv2d(x, w, zeros({1, 0, 3, 3}), m, zeros({2}), 1, 1, 0, 0, 1, 1, 1, 0, true),
               ValueError);
}

// Grids past int (torchvision overflows) and non-finite adaptive grids are LimitErrors.
TEST(DetectionKernels, UnboundedSamplingGridsAreRefused) {
  const Tensor x = image(1, 1, 4, 4);
  EXPECT_THROW(vision::roi_align(x, one_roi(0, 0, 0, 2, 2), 1.0, 1, 1, int64_t{1} << 40, false), LimitError);
  EXPECT_THROW(vision::roi_align(x, one_roi(0, 0, 0, 2, 2), 1.0, 1, 1, 65536, false), LimitError);
  const float inf = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
  EXPECT_THROW(vision::roi_align(x, one_roi(0, 0, 0, inf, 2), 1.0, 1, 1, 0, false), LimitError);
  EXPECT_THROW(vision::roi_align(x, one_roi(0, nan, 0, 2, 2), 1.0, 1, 1, 0, true), LimitError);
  EXPECT_THROW(vision::ps_roi_align(x, one_roi(0, 0, 0, 3e38f, 2), 1.0, 1, 1, 0), LimitError);
  EXPECT_THROW(vision::roi_pool(x, one_roi(0, 0, 0, 3e38f, 2), 1.0, 1, 1), LimitError);
  // A float16 roi 120000 pixels wide has infinite bins.
  EXPECT_THROW(vision::roi_pool(x.to(DType::Half), one_roi(0, -60000, 0, 60000, 2).to(DType::Half), 1.0, 2, 2),
               LimitError);
}

}  // namespace
}  // namespace torchlet

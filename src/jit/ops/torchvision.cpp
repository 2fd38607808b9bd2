// torchvision's operators (the `torchvision::` namespace torchvision 0.14 registers from
// its C++ library), forward only: nms, the RoI pooling family and deform_conv2d, each registered from
// its kernel's signature (Note [Boxing] in boxing.h). Kernels: tensor/kernels/detection.h.
// The Python-level ops (batched_nms, box_iou, ...) script to these and aten:: operators.
#include "jit/ops/boxing.h"
#include "tensor/kernels/detection.h"

namespace torchlet::jit::ops {
namespace {

static RegisterOps reg({
    {"torchvision::nms(Tensor dets, Tensor scores, float iou_threshold) -> Tensor", boxed<&torchlet::vision::nms>},
    {"torchvision::roi_align(Tensor input, Tensor rois, float spatial_scale, int pooled_height, int pooled_width, int sampling_ratio, bool aligned) -> Tensor", boxed<&torchlet::vision::roi_align>},
    {"torchvision::roi_pool(Tensor input, Tensor rois, float spatial_scale, int pooled_height, int pooled_width) -> (Tensor, Tensor)", boxed<&torchlet::vision::roi_pool>},
    {"torchvision::ps_roi_align(Tensor input, Tensor rois, float spatial_scale, int pooled_height, int pooled_width, int sampling_ratio) -> (Tensor, Tensor)", boxed<&torchlet::vision::ps_roi_align>},
    {"torchvision::ps_roi_pool(Tensor input, Tensor rois, float spatial_scale, int pooled_height, int pooled_width) -> (Tensor, Tensor)", boxed<&torchlet::vision::ps_roi_pool>},
    {"torchvision::deform_conv2d(Tensor input, Tensor weight, Tensor offset, Tensor mask, Tensor bias, int stride_h, int stride_w, int pad_h, int pad_w, int dilation_h, int dilation_w, int groups, int offset_groups, bool use_mask) -> Tensor", boxed<&torchlet::vision::deform_conv2d>},
});

}  // namespace
}  // namespace torchlet::jit::ops

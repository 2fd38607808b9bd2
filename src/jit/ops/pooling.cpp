// Pooling operators: max, average and adaptive pooling in one to three dimensions, and
// max_unpool, each registered from its kernel's signature (Note [Boxing] in boxing.h),
// with the out= forms torch has for them (Note [out= forms]).
#include <torchlet/ops.h>

#include "jit/ops/boxing.h"
#include "jit/ops/out_forms.h"

namespace torchlet::jit::ops {
namespace {

static RegisterOps reg({
    {"aten::max_pool2d(Tensor self, int[2] kernel_size, int[2] stride=[], int[2] padding=0, int[2] dilation=1, bool ceil_mode=False) -> Tensor", boxed<&torchlet::max_pool2d>},
    {"aten::avg_pool2d(Tensor self, int[2] kernel_size, int[2] stride=[], int[2] padding=0, bool ceil_mode=False, bool count_include_pad=True, int? divisor_override=None) -> Tensor", boxed<&torchlet::avg_pool2d>},
    {"aten::avg_pool2d.out(Tensor self, int[2] kernel_size, int[2] stride=[], int[2] padding=0, bool ceil_mode=False, bool count_include_pad=True, int? divisor_override=None, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::avg_pool2d", 1, exact_dtype>},
    {"aten::adaptive_avg_pool2d(Tensor self, SymInt[2] output_size) -> Tensor", boxed<&torchlet::adaptive_avg_pool2d>},
    {"aten::adaptive_avg_pool2d.out(Tensor self, SymInt[2] output_size, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::adaptive_avg_pool2d", 1, pooling_output_check>},
    {"aten::adaptive_max_pool2d(Tensor self, int[2] output_size) -> (Tensor, Tensor)", boxed<&torchlet::adaptive_max_pool2d>},
    {"aten::adaptive_max_pool2d.out(Tensor self, int[2] output_size, *, Tensor(a!) out, Tensor(b!) indices) -> (Tensor(a!), Tensor(b!))", into_outs<"aten::adaptive_max_pool2d", 2, exact_dtype>},
    {"aten::max_pool1d(Tensor self, int[1] kernel_size, int[1] stride=[], int[1] padding=[0], int[1] dilation=[1], bool ceil_mode=False) -> Tensor", boxed<&torchlet::max_pool1d>},
    {"aten::max_pool3d(Tensor self, int[3] kernel_size, int[3] stride=[], int[3] padding=0, int[3] dilation=1, bool ceil_mode=False) -> Tensor", boxed<&torchlet::max_pool3d>},
    {"aten::max_pool1d_with_indices(Tensor self, int[1] kernel_size, int[1] stride=[], int[1] padding=[0], int[1] dilation=[1], bool ceil_mode=False) -> (Tensor, Tensor)", boxed<&torchlet::max_pool1d_with_indices>},
    {"aten::max_pool2d_with_indices(Tensor self, int[2] kernel_size, int[2] stride=[], int[2] padding=0, int[2] dilation=1, bool ceil_mode=False) -> (Tensor, Tensor)", boxed<&torchlet::max_pool2d_with_indices>},
    {"aten::max_pool2d_with_indices.out(Tensor self, int[2] kernel_size, int[2] stride=[], int[2] padding=0, int[2] dilation=1, bool ceil_mode=False, *, Tensor(a!) out, Tensor(b!) indices) -> (Tensor(a!), Tensor(b!))", into_outs<"aten::max_pool2d_with_indices", 2, exact_dtype>},
    {"aten::max_pool3d_with_indices(Tensor self, int[3] kernel_size, int[3] stride=[], int[3] padding=0, int[3] dilation=1, bool ceil_mode=False) -> (Tensor, Tensor)", boxed<&torchlet::max_pool3d_with_indices>},
    {"aten::max_pool3d_with_indices.out(Tensor self, int[3] kernel_size, int[3] stride=[], int[3] padding=0, int[3] dilation=1, bool ceil_mode=False, *, Tensor(a!) out, Tensor(b!) indices) -> (Tensor(a!), Tensor(b!))", into_outs<"aten::max_pool3d_with_indices", 2, expected_scalar_type>},
    {"aten::avg_pool1d(Tensor self, int[1] kernel_size, int[1] stride=[], int[1] padding=[0], bool ceil_mode=False, bool count_include_pad=True) -> Tensor", boxed<&torchlet::avg_pool1d>},
    {"aten::avg_pool3d(Tensor self, int[3] kernel_size, int[3] stride=[], int[3] padding=0, bool ceil_mode=False, bool count_include_pad=True, int? divisor_override=None) -> Tensor", boxed<&torchlet::avg_pool3d>},
    {"aten::avg_pool3d.out(Tensor self, int[3] kernel_size, int[3] stride=[], int[3] padding=0, bool ceil_mode=False, bool count_include_pad=True, int? divisor_override=None, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::avg_pool3d", 1, exact_dtype>},
    {"aten::adaptive_avg_pool1d(Tensor self, int[1] output_size) -> Tensor", boxed<&torchlet::adaptive_avg_pool1d>},
    {"aten::adaptive_avg_pool3d(Tensor self, int[3] output_size) -> Tensor", boxed<&torchlet::adaptive_avg_pool3d>},
    {"aten::adaptive_avg_pool3d.out(Tensor self, int[3] output_size, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::adaptive_avg_pool3d", 1, pooling_output_check>},
    {"aten::adaptive_max_pool1d(Tensor self, int[1] output_size) -> (Tensor, Tensor)", boxed<&torchlet::adaptive_max_pool1d>},
    {"aten::adaptive_max_pool3d(Tensor self, int[3] output_size) -> (Tensor, Tensor)", boxed<&torchlet::adaptive_max_pool3d>},
    {"aten::adaptive_max_pool3d.out(Tensor self, int[3] output_size, *, Tensor(a!) out, Tensor(b!) indices) -> (Tensor(a!), Tensor(b!))", into_outs<"aten::adaptive_max_pool3d", 2, exact_dtype>},
    {"aten::max_unpool2d(Tensor self, Tensor indices, int[2] output_size) -> Tensor", boxed<&torchlet::max_unpool2d>},
    {"aten::max_unpool2d.out(Tensor self, Tensor indices, int[2] output_size, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::max_unpool2d", 1, expected_scalar_type>},
    {"aten::max_unpool3d(Tensor self, Tensor indices, int[3] output_size, int[3] stride, int[3] padding) -> Tensor", boxed<&torchlet::max_unpool3d>},
    {"aten::max_unpool3d.out(Tensor self, Tensor indices, int[3] output_size, int[3] stride, int[3] padding, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::max_unpool3d", 1, expected_scalar_type>},
});

}  // namespace
}  // namespace torchlet::jit::ops

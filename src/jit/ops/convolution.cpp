// Convolution operators: conv1d/2d/3d (with int or "same"/"valid" padding), the
// transposed convolutions, and aten::convolution / aten::_convolution, which scripted and
// traced modules call and which pick the kernel by the weight's rank (Note [Boxing] in
// boxing.h for the rows). im2col/col2im are interpolation.cpp's.
#include <string>

#include <torchlet/ops.h>

#include "jit/ops/boxing.h"
#include "jit/ops/out_forms.h"

namespace torchlet::jit::ops {
namespace {

using PaddingStringConv = Tensor (*)(const Tensor&, const Tensor&, const std::optional<Tensor>&, IntList,
                                     std::string_view, IntList, int64_t);
template <PaddingStringConv F>
Tensor conv_padding(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias, IntList stride,
                    const std::string& padding, IntList dilation, int64_t groups) {
  return F(input, weight, bias, stride, padding, dilation, groups);
}

// aten::_convolution's trailing flags (benchmark, deterministic, cudnn_enabled,
// allow_tf32) choose among backends torchlet does not have; the result is the same.
template <typename... BackendFlags>
Tensor convolution_with_flags(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias,
                              IntList stride, IntList padding, IntList dilation, bool transposed,
                              IntList output_padding, int64_t groups, BackendFlags...) {
  return torchlet::convolution(input, weight, bias, stride, padding, dilation, transposed, output_padding, groups);
}

static RegisterOps reg({
    {"aten::conv1d(Tensor input, Tensor weight, Tensor? bias=None, int[1] stride=[1], int[1] padding=[0], int[1] dilation=[1], int groups=1) -> Tensor", boxed<&torchlet::conv1d>},
    {"aten::conv1d.padding(Tensor input, Tensor weight, Tensor? bias=None, int[1] stride=[1], str padding=\"valid\", int[1] dilation=[1], int groups=1) -> Tensor", boxed<&conv_padding<&torchlet::conv1d_padding>>},
    {"aten::conv2d(Tensor input, Tensor weight, Tensor? bias=None, int[2] stride=1, int[2] padding=0, int[2] dilation=1, int groups=1) -> Tensor", boxed<&torchlet::conv2d>},
    {"aten::conv2d.padding(Tensor input, Tensor weight, Tensor? bias=None, int[2] stride=1, str padding=\"valid\", int[2] dilation=1, int groups=1) -> Tensor", boxed<&conv_padding<&torchlet::conv2d_padding>>},
    {"aten::conv3d(Tensor input, Tensor weight, Tensor? bias=None, int[3] stride=1, int[3] padding=0, int[3] dilation=1, int groups=1) -> Tensor", boxed<&torchlet::conv3d>},
    {"aten::conv3d.padding(Tensor input, Tensor weight, Tensor? bias=None, int[3] stride=1, str padding=\"valid\", int[3] dilation=1, int groups=1) -> Tensor", boxed<&conv_padding<&torchlet::conv3d_padding>>},
    {"aten::conv_transpose1d(Tensor input, Tensor weight, Tensor? bias=None, int[1] stride=[1], int[1] padding=[0], int[1] output_padding=[0], int groups=1, int[1] dilation=[1]) -> Tensor", boxed<&torchlet::conv_transpose1d>},
    {"aten::conv_transpose2d.input(Tensor input, Tensor weight, Tensor? bias=None, int[2] stride=1, int[2] padding=0, int[2] output_padding=0, int groups=1, int[2] dilation=1) -> Tensor", boxed<&torchlet::conv_transpose2d>},
    {"aten::conv_transpose3d.input(Tensor input, Tensor weight, Tensor? bias=None, int[3] stride=1, int[3] padding=0, int[3] output_padding=0, int groups=1, int[3] dilation=1) -> Tensor", boxed<&torchlet::conv_transpose3d>},
    {"aten::_convolution(Tensor input, Tensor weight, Tensor? bias, int[] stride, int[] padding, int[] dilation, bool transposed, int[] output_padding, int groups, bool benchmark, bool deterministic, bool cudnn_enabled, bool allow_tf32) -> Tensor", boxed<&convolution_with_flags<bool, bool, bool, bool>>},
    {"aten::_convolution.deprecated(Tensor input, Tensor weight, Tensor? bias, int[] stride, int[] padding, int[] dilation, bool transposed, int[] output_padding, int groups, bool benchmark, bool deterministic, bool cudnn_enabled) -> Tensor", boxed<&convolution_with_flags<bool, bool, bool>>},
    {"aten::_convolution.out(Tensor input, Tensor weight, Tensor? bias, int[] stride, int[] padding, int[] dilation, bool transposed, int[] output_padding, int groups, bool benchmark, bool deterministic, bool cudnn_enabled, bool allow_tf32, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::_convolution", 1, any_dtype>},
    {"aten::convolution(Tensor input, Tensor weight, Tensor? bias, int[] stride, int[] padding, int[] dilation, bool transposed, int[] output_padding, int groups) -> Tensor", boxed<&torchlet::convolution>},
    {"aten::convolution.out(Tensor input, Tensor weight, Tensor? bias, int[] stride, int[] padding, int[] dilation, bool transposed, int[] output_padding, int groups, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::convolution", 1, any_dtype>},
});

}  // namespace
}  // namespace torchlet::jit::ops

// Normalisation operators: batch_norm, instance_norm, layer_norm and group_norm, and the
// native_* forms that also return their statistics, each registered from its kernel's
// signature (Note [Boxing] in boxing.h). The cudnn flags choose a backend torchlet does
// not have and are read but not passed on.
#include <torchlet/ops.h>

#include "jit/ops/boxing.h"
#include "jit/ops/out_forms.h"
#include "tensor/kernels/out_variants.h"

namespace torchlet::jit::ops {
namespace {

// In eval mode a floating input no one else holds is normalised in place (Note [Reusing
// a dying input]): every conv-bn block of a scripted CNN would otherwise allocate here.
Tensor batch_norm(Tensor input, const std::optional<Tensor>& weight, const std::optional<Tensor>& bias,
                  const std::optional<Tensor>& running_mean, const std::optional<Tensor>& running_var, bool training,
                  double momentum, double eps, bool /*cudnn_enabled*/) {
  if (!training && is_dying(input) && is_floating(input.dtype())) {
    kernels::batch_norm_into(input, input, weight, bias, running_mean, running_var, eps);
    return input;
  }
  return torchlet::batch_norm(input, weight, bias, running_mean, running_var, training, momentum, eps);
}

Tensor layer_norm(const Tensor& input, IntList normalized_shape, const std::optional<Tensor>& weight,
                  const std::optional<Tensor>& bias, double eps, bool /*cudnn_enable*/) {
  return torchlet::layer_norm(input, normalized_shape, weight, bias, eps);
}

Tensor group_norm(const Tensor& input, int64_t num_groups, const std::optional<Tensor>& weight,
                  const std::optional<Tensor>& bias, double eps, bool /*cudnn_enabled*/) {
  return torchlet::group_norm(input, num_groups, weight, bias, eps);
}

static RegisterOps reg({
    {"aten::batch_norm(Tensor input, Tensor? weight, Tensor? bias, Tensor? running_mean, Tensor? running_var, bool training, float momentum, float eps, bool cudnn_enabled) -> Tensor", boxed<&batch_norm>},
    {"aten::native_batch_norm(Tensor input, Tensor? weight, Tensor? bias, Tensor? running_mean, Tensor? running_var, bool training, float momentum, float eps) -> (Tensor, Tensor, Tensor)", boxed<&torchlet::native_batch_norm>},
    {"aten::instance_norm(Tensor input, Tensor? weight, Tensor? bias, Tensor? running_mean, Tensor? running_var, bool use_input_stats, float momentum, float eps, bool cudnn_enabled) -> Tensor", boxed<&torchlet::instance_norm>},
    {"aten::layer_norm(Tensor input, int[] normalized_shape, Tensor? weight=None, Tensor? bias=None, float eps=1.0000000000000001e-05, bool cudnn_enable=True) -> Tensor", boxed<&layer_norm>},
    {"aten::native_layer_norm(Tensor input, SymInt[] normalized_shape, Tensor? weight, Tensor? bias, float eps) -> (Tensor, Tensor, Tensor)", boxed<&torchlet::native_layer_norm>},
    // torch's out wrapper copies each result into whatever it is given.
    {"aten::native_layer_norm.out(Tensor input, SymInt[] normalized_shape, Tensor? weight, Tensor? bias, float eps, *, Tensor(a!) out0, Tensor(b!) out1, Tensor(c!) out2) -> (Tensor(a!), Tensor(b!), Tensor(c!))", into_outs<"aten::native_layer_norm", 3, any_dtype>},
    {"aten::native_group_norm(Tensor input, Tensor? weight, Tensor? bias, SymInt N, SymInt C, SymInt HxW, int group, float eps) -> (Tensor, Tensor, Tensor)", boxed<&torchlet::native_group_norm>},
    {"aten::group_norm(Tensor input, int num_groups, Tensor? weight=None, Tensor? bias=None, float eps=1.0000000000000001e-05, bool cudnn_enabled=True) -> Tensor", boxed<&group_norm>},
});

}  // namespace
}  // namespace torchlet::jit::ops

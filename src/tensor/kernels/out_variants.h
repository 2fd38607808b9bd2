// Kernels that write into a tensor the caller supplies instead of allocating their
// result. They exist for the operator adapters in src/jit/ops that own an input no one
// else can see (Note [Reusing a dying input] in src/jit/ops/ops_util.h) and write the
// result over it; they are not public API and check only what the adapters cannot.
#pragma once

#include <optional>

#include <torchlet/tensor.h>

namespace torchlet::kernels {

// torchlet::batch_norm in eval mode (same checks and errors) into `out`, a contiguous
// tensor of input's shape and dtype that may be `input` itself.
void batch_norm_into(Tensor& out, const Tensor& input, const std::optional<Tensor>& weight,
                     const std::optional<Tensor>& bias, const std::optional<Tensor>& running_mean,
                     const std::optional<Tensor>& running_var, double eps);

}  // namespace torchlet::kernels

// The folding torch's optimize_frozen_graph does on frozen graphs, whose weights are
// constants: a convolution followed by an eval-mode batch norm becomes one convolution
// with the norm folded into its weight and bias.
#pragma once

#include "jit/ir/ir.h"

namespace torchlet::jit {

// aten::batch_norm(aten::conv{1,2,3}d(x, W, b, ...), gamma, beta, mean, var, False, _,
// eps, _) with every tensor a constant and the convolution's result read only there
// (or by shape queries: aten::dim, aten::size, aten::numel) becomes
// aten::conv{1,2,3}d(x, W', b', ...), as torch's FoldFrozenConvBatchnorm computes it:
// W' = W * (gamma * rsqrt(var + eps)) per output channel, b' = (b - mean) * rsqrt(var +
// eps) * gamma + beta (a missing b, gamma or beta counting as 0, 1, 0), in W's and b's
// dtype. Returns whether it folded any.
bool fold_frozen_conv_batch_norm(Graph& graph);

}  // namespace torchlet::jit

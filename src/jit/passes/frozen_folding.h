// The folding torch's freezing and optimize_frozen_graph do on frozen graphs, whose
// weights are constants: a convolution or linear followed by an eval-mode batch norm, or
// a convolution followed by an add, subtract, multiply or divide by a per-channel
// constant, becomes one convolution or linear with that folded into its weight and
// bias; dropout in eval mode goes.
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

// aten::batch_norm(aten::linear(x, W, b), ...) likewise (torch 2.x's
// FoldFrozenLinearBatchnorm), W' and b' by the same formulas, but only where the linear's
// result is known to have rank 2 (from propagate_shapes): only then are batch norm's
// channels the linear's output features. torch folds whatever the rank, and also when
// the linear's result has other readers; torchlet does neither, since both change what
// the program computes.
bool fold_frozen_linear_batch_norm(Graph& graph);

// aten::add/sub(conv(x, W, b, ...), c[, alpha]) and aten::mul/div(conv(...), c) with c a
// constant float tensor of shape [1, C_out, 1, ...] (or one element) or a number, W
// floating: the convolution takes b' = b +- alpha * c, or W' = W * c and b' = b * c
// (per output channel; division likewise), as torch's FoldFrozenConvAddOrSub and
// FoldFrozenConvMulOrDiv do. Returns whether it folded any.
bool fold_frozen_conv_add_or_sub(Graph& graph);
bool fold_frozen_conv_mul_or_div(Graph& graph);

// aten::dropout, feature_dropout, alpha_dropout and feature_alpha_dropout (and their
// in-place forms) with train a constant False are the identity: replaced by their input,
// as freezing and torch's remove_dropout do in eval mode. Returns whether it removed any.
bool remove_eval_dropout(Graph& graph);

}  // namespace torchlet::jit

// Folding of frozen graphs' linear layers (torch's FrozenConcatLinear, run by
// optimize_frozen_graph): linears that read the same input with constant weights
// become one matrix product, whose result is sliced back into theirs.
#pragma once

#include "jit/ir/ir.h"

namespace torchlet::jit {

// aten::linear(x, W_i, b_i) for i = 1..n in one block, all with the same x, constant
// W_i and b_i of one dtype and one input width, and nothing between them writing what
// they read: one aten::linear(x, cat(W_i), cat(b_i)) before the first, each result an
// aten::slice of its columns. torch does this for CUDA weights only; torchlet for every
// weight, since one wider product also runs faster on CPU. Returns whether it merged any.
bool concat_frozen_linears(Graph& graph);

}  // namespace torchlet::jit

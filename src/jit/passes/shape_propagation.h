// Shape and dtype propagation (torch's PropagateInputShapes, the legacy executor's
// shape analysis): from the graph's input types — a spec's dtypes and ranks, or the
// complete sizes IR text gives — refined tensor types for what each operator returns,
// so later passes (peephole's size, dim and dtype answers) and planners know them.
#pragma once

#include <optional>

#include "jit/ir/ir.h"

namespace torchlet::jit {

// Narrows the types of node outputs and of control flow's block parameters and results
// to what their inputs' types imply: dtype, rank, the sizes that are known, and the
// device. requires_grad and strides are left unknown on what an operator returns (torch
// knows autograd's rules; torchlet does not run autograd), except for constants, which
// are known whole. A value's type is only ever narrowed, to a type the value has on
// every run that reaches it. Returns whether any type changed.
bool propagate_shapes(Graph& graph);

// The refined tensor type of one operator's single tensor result, from its inputs'
// types and constants (shape_rules.cpp); nullopt when no rule knows the operator or
// the inputs say too little. For the pass above and its tests.
std::optional<TensorDetails> tensor_result_details(const Node* node);

}  // namespace torchlet::jit

// Operator-alias normalisation (Note [Operator aliases] in normalize_ops.cpp), as torch's
// passes/normalize_ops: an alias such as aten::multiply or aten::special_expit names the
// same operation as its canonical operator (aten::mul, aten::sigmoid), and graphs, saved
// code and the operators a program needs name only the canonical one.
#pragma once

#include "jit/ir/ir.h"
#include "jit/ir/symbol.h"

namespace torchlet::jit {

// The canonical operator for `name`; `name` itself when it is not an alias.
Symbol canonical_operator(Symbol name);

// Replaces every node of the graph (nested blocks included) that calls an alias by a
// call of its canonical operator with the same inputs, outputs and source range. The
// frontend maps names before matching a call, so its graphs never need this; graphs from
// elsewhere (IR text, archives written by other tools) do. Returns whether it changed
// anything.
bool normalize_ops(Graph& graph);

}  // namespace torchlet::jit

// Constant propagation (Note [Constant propagation] in constant_propagation.cpp), as
// torch's ConstantPropagation restricted to immutable types, which is what torch's
// frontend runs on every graph it emits.
#pragma once

#include "jit/ir/ir.h"

namespace torchlet::jit {

// Runs once every node whose inputs are all constants of immutable types (numbers,
// bool, str, None, complex, tuples of those) and whose outputs are immutable too, and
// replaces it by its results as constants: 1 + 2, len of a constant tuple, (5, 6)[0].
// Nodes with blocks, operators that write an argument, take varargs, read the runtime's
// state (no inputs) or raise here are left to run when the program does. A node's
// operator is the one it was compiled with, else the overload its input types select
// (graphs parsed from text). Returns whether it changed anything.
bool propagate_constants(Graph& graph);

// The same, also folding nodes whose inputs include constant lists of immutable values
// that nothing in the graph writes to (`mode in ["batch", "row"]`), as torch's full
// constant propagation does on frozen graphs.
bool propagate_frozen_constants(Graph& graph);

// Removes tuples built and never used (what is left when code reads a result's fields,
// torch.max(x, 1).values), as torch's dead code elimination does after propagation.
// Returns whether it removed any.
bool remove_unused_tuples(Graph& graph);

// Control flow whose outcome is known, as torch's constant propagation folds it: an If
// on a constant condition becomes the nodes of the branch taken; a loop that runs zero
// times (constant trip count <= 0 or initial condition false) becomes its initial
// values; If outputs both branches give as the same value, and loop-carried values the
// body passes on unchanged, become that value. Returns whether it changed anything.
bool fold_constant_control_flow(Graph& graph);

}  // namespace torchlet::jit

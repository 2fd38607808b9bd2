// What a node does besides computing its outputs, as torch's Node::hasSideEffects and
// Node::isNondeterministic say: the facts that keep a node alive in dead code
// elimination and out of common-subexpression elimination, whatever its aliasing.
#pragma once

#include "jit/ir/ir.h"

namespace torchlet::jit {

// Printing, raising, setting attributes, calling functions and methods (whose bodies
// may do any of these), warnings, seeding, waiting on futures, entering and leaving
// `with` blocks, reading or setting grad mode: removing or merging such a node changes what the program does even
// when nothing reads its outputs. A node torchlet cannot resolve to an operator counts
// too, as torch's conservative operators do.
bool has_side_effects(const Node& node);

// Operators that draw random numbers (rand, randn, dropout in training, bernoulli …):
// two equal calls give different results, so they are never merged. torch lists some
// overloads only (aten::rand.generator is missing from its list); torchlet treats every
// overload of these names alike, which merges less, never more.
bool is_nondeterministic(const Node& node);

}  // namespace torchlet::jit

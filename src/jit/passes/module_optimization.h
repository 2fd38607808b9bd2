// Optimizing a module's methods without freezing it (`torchlet optimize` without
// --freeze): the part of the graph executor's pipeline that holds for every call, kept
// in the methods' graphs so that jit::save writes the optimized code.
#pragma once

#include <string>
#include <vector>

#include "jit/ir/ir.h"
#include "jit/runtime/module.h"

namespace torchlet::jit {

// What optimize_for_execution does before it knows a spec, minus loop unrolling (which
// would grow the saved code): calls inlined, constants and the control flow they decide
// folded, dead and common code removed, peephole rules, constants pooled, list mutation
// removed. Changes only how the graph computes, never what.
void optimize_for_every_call(Graph& graph);

// Runs optimize_for_every_call on `module`'s methods in place (its class's functions,
// shared with any other instance of that class); attributes, parameters and submodules
// stay as they are, and the unit drops the code it was loaded from, so that jit::save
// prints the optimized graphs. ValueError naming the method if one is missing or has
// already been called; UnsupportedError naming a method of the unit that did not compile
// (the archive could not be printed), before anything changes.
void optimize_module(Module& module, const std::vector<std::string>& methods);

}  // namespace torchlet::jit

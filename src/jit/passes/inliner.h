// Inlining, as torch's Inline pass: every prim::CallFunction and prim::CallMethod whose
// callee is known from the types (a function constant, a method of a class) is replaced
// by the callee's graph, and the calls that brings are inlined where they land.
#pragma once

#include "jit/ir/ir.h"

namespace torchlet::jit {

// Calls through interfaces (the method is known only at run time) and recursive calls
// stay calls. Inlined values keep the callee's names with fresh .N suffixes. Returns
// whether it inlined anything.
bool inline_calls(Graph& graph);

}  // namespace torchlet::jit

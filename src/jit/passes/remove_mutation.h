// torch's mutation removal (torch._C._jit_pass_remove_mutation): writes to values
// nothing else can see become pure operations, which later passes may reorder, merge
// and fold.
#pragma once

#include "jit/ir/ir.h"

namespace torchlet::jit {

// append, insert at a constant index and _set_item at a constant in-range index on a
// list built by prim::ListConstruct that nothing else aliases: the element joins the
// construct instead. Returns whether it changed anything.
bool remove_list_mutation(Graph& graph);

// In-place tensor operators (add_, relu_, ... and fill_, zero_) writing only their
// first input, where that input is a fresh value (or an If output fresh in both
// branches) nothing else aliases and its creation can move to just before the write:
// the functional operator instead, its result used from then on. torch also rewrites
// normal_ (to normal with the tensor's size, dtype and device); torchlet leaves it.
// Returns whether it changed anything.
bool remove_tensor_mutation(Graph& graph);

// Both, lists first (torch's pass); returns remove_tensor_mutation's answer, as torch's.
bool remove_mutation(Graph& graph);

}  // namespace torchlet::jit

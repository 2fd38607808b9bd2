// The list rules of torch's peephole pass (torch._C._jit_pass_peephole_list_idioms):
// operations on a list built by prim::ListConstruct that nothing writes are answered from
// the construct's inputs.
#pragma once

#include "jit/ir/ir.h"

namespace torchlet::jit {

// On lists no node writes (alias analysis): len(ListConstruct) becomes a constant,
// __getitem__ with a constant in-range index the element, ListUnpack of as many values
// the elements, the sum of two constructs and a slice with constant bounds a new
// construct. The nodes replaced stay for DCE to remove, as in torch. Returns whether it
// changed anything.
bool fold_list_idioms(Graph& graph);

}  // namespace torchlet::jit

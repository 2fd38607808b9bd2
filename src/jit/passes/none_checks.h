// The None rules of torch's peephole pass: `x is None` / `x is not None` where x's type
// decides the answer become constants, and unchecked casts to a type the value already
// has go. What freezing needs to fold `if self.bias is not None:` away once the bias is
// a constant tensor.
#pragma once

#include "jit/ir/ir.h"

namespace torchlet::jit {

// aten::__is__ / aten::__isnot__ with a None operand: the other operand's type is None
// (answer True / False) or cannot hold None (False / True). prim::unchecked_cast of a
// value whose type is already a subtype of the cast's. Returns whether it changed
// anything.
bool fold_none_checks(Graph& graph);

}  // namespace torchlet::jit

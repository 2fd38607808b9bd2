// torch's peephole pass (torch._C._jit_pass_peephole): small local rewrites that need
// no more than a node, its inputs' producers and its values' types. The whole pass runs
// its parts in torch's order, then removes what they left dead; each part is also a
// function of its own, so a pipeline or a test can run one alone.
#pragma once

#include "jit/ir/ir.h"

namespace torchlet::jit {

// The whole pass: the tensor rules, list and dict idioms (container_idioms.h), the
// alias-sensitive rules, the scalar rules, concat combining, then dead-code elimination
// keeping every write (as torch's, run on the graph's block) when anything changed.
// shape_peepholes = false is torch's disable_shape_peepholes: nothing is answered from
// refined tensor types. Returns whether it changed anything.
bool peephole(Graph& graph, bool shape_peepholes = true);

// Tensor rules: x.t().t() -> x; aten::Int/Float/IntImplicit/FloatImplicit/
// ScalarImplicit of prim::NumToTensor -> the number; _grad_sum_to_size(x, None) -> x
// and chains of it sum to the last size only. From refined types (shape_peepholes):
// x.expand(its own sizes) and x.type_as(y) with the same dtype and device -> x;
// size(), size(d), dim(), len(size()) of a value used once, dtype, device, is_cuda,
// is_floating_point and is_complex -> constants where the type knows them.
bool fold_tensor_idioms(Graph& graph, bool shape_peepholes = true);

// Rules that need alias analysis: dim(conv1d/2d/3d(...)) -> 3/4/5 (unless a write to the
// convolution's result could resize it first); x + 0, x - 0, x * 1, x / 1 -> x where no
// dtype promotion can change the result and rewiring the uses changes nothing anyone
// can observe through aliases.
bool fold_alias_sensitive_idioms(Graph& graph, bool shape_peepholes = true);

// Rules on values that are not tensors: outputs typed None -> the None constant; If
// outputs that equal the condition -> the condition; Optional If outputs refined when
// neither branch is Optional; `is` / `is not` None and unwraps the types decide;
// redundant unchecked casts; Int/ceil of an int; x == x and x != x for bool, int,
// float and None (and lists and dicts of them); int x * 1, x // 1 -> x; int additions
// and subtractions of constants merged ((x + 1) + 2 -> x + 3), a constant first
// operand of + and * moved second.
bool fold_scalar_idioms(Graph& graph);

// cat(ListConstruct(a, cat(ListConstruct(b, c), d), e), d) with the same constant
// dimension and single uses -> cat(ListConstruct(a, b, c, e), d), when no write comes
// between a list and its cat; dead code removed after (alias-aware).
bool combine_concats(Graph& graph);

}  // namespace torchlet::jit

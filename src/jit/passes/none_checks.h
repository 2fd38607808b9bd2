// The None rules of torch's peephole pass: `x is None` / `x is not None` where x's type
// decides the answer become constants, and unchecked casts to a type the value already
// has go. What freezing needs to fold `if self.bias is not None:` away once the bias is
// a constant tensor; peephole's scalar rules (scalar_idioms.cpp) ask the same questions.
#pragma once

#include <optional>

#include "jit/ir/ir.h"

namespace torchlet::jit {

// Whether a value of type t might be None. Any and type variables might: torch's
// peephole takes them for never None and folds `x is None` of an Any to False, which
// torchlet does not.
bool may_be_none(const TypePtr& t);

// Whether v is None whatever runs: typed None, or a None constant typed Optional.
bool must_be_none(const Value* v);

// `a is b` when the types alone decide it: both None (True), or one None and the other
// of a type that cannot hold None (False).
std::optional<bool> identity_answer(const Value* a, const Value* b);

// A prim::unchecked_cast whose input's type is already a subtype of the cast's, tensor
// details aside (torch compares unshaped types).
bool is_redundant_cast(const Node* n);

// aten::__is__ / aten::__isnot__ whose answer identity_answer knows, and redundant
// unchecked casts, folded. Returns whether it changed anything.
bool fold_none_checks(Graph& graph);

}  // namespace torchlet::jit

// When two nodes compute the same thing: the same kind, the same input values, equal
// attributes (constants compared by value and type) and outputs of the same types, as
// torch's HashNode / EqualNode decide for common-subexpression elimination and
// constant pooling.
#pragma once

#include <cstddef>

#include "jit/ir/ir.h"

namespace torchlet::jit {

struct HashNode {
  size_t operator()(const Node* n) const;
};

struct EqualNode {
  bool operator()(const Node* a, const Node* b) const;
};

}  // namespace torchlet::jit

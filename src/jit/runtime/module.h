// Module and Method (declared in the public <torchlet/jit.h>, like torch::jit::Module)
// together with the runtime types they name, for the library's own code: a Module's
// class (ClassType), its CompilationUnit and its methods' Functions.
#pragma once

#include <torchlet/jit.h>

#include "jit/runtime/compilation_unit.h"

namespace torchlet::jit {

// SlotKind is ClassAttribute::Kind spelled for the public API.
static_assert(static_cast<int>(SlotKind::Regular) == static_cast<int>(ClassAttribute::Kind::Regular) &&
              static_cast<int>(SlotKind::Parameter) == static_cast<int>(ClassAttribute::Kind::Parameter) &&
              static_cast<int>(SlotKind::Buffer) == static_cast<int>(ClassAttribute::Kind::Buffer));

}  // namespace torchlet::jit

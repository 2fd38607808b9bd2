// Import aliases in TorchScript source: `import torch.nn.functional as nnf`, `from torch
// import nn`, `from math import sqrt`. torch resolves such names through the Python
// module's globals; torchlet has no Python, so the compiler knows modules by their
// dotted names (torch, math, torch.nn.functional, ...). This file owns the step between:
// it rewrites each use of an alias inside the file's functions and classes into the
// dotted name it stands for, so the compiler sees `torch.nn.functional.relu(x)` where
// the user wrote `nnf.relu(x)`.
#pragma once

#include "jit/frontend/ast.h"

namespace torchlet::jit {

// `file` with every free use of a top-level import alias of a torch or math module, or
// of a function of one, spelled out in full (a name a function binds itself, as a
// parameter or an assignment target anywhere in it, keeps its local meaning; so does a
// name the file defines as a function or class). Inside a function, a statement of its
// body binding a name it binds nowhere else to such a module (`F = torch.nn.functional`)
// makes the name an alias from there on, and is dropped (a module is never a value). Aliases of anything else (typing,
// numpy, math's constants, which torch refuses as closed-over globals) stay unresolved:
// their uses fail in the compiler as unknown names. LimitError if a spelled-out name
// would make a tree deeper than kMaxTreeDepth.
ParsedFile resolve_module_aliases(const ParsedFile& file);

// The source text of a type annotation, which the compiler parses as text, with each
// alias resolve_module_aliases spelled out written in full (`List[th.Tensor]` becomes
// `List[torch.Tensor]`); the plain source text when the tree holds none.
std::string annotation_source(const Tree& annotation);

}  // namespace torchlet::jit

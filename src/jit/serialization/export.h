// torch.jit.save for C++ (declared with its options in the public <torchlet/jit.h>):
// writes a Module as an archive real torch.jit.load reads — data.pkl (the object graph,
// script objects as torch pickles them), constants.pkl, code/ (the classes' source),
// data/ and constants/ (tensor bytes), version, extra/.
//
// The code/ files: a module loaded from an archive writes back the code it was loaded
// from (kept by the importer), so re-saving is byte-identical; a module compiled by
// torchlet is printed by the python printer (python_print.h). Implemented in
// export.cpp; this header gives the library's own callers the runtime types with it.
#pragma once

#include <torchlet/jit.h>

#include "jit/runtime/module.h"

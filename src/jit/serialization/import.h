// torch.jit.load for C++ (declared with its options in the public <torchlet/jit.h>):
// reads a torch.jit.save archive (version, constants.pkl, data.pkl, code/) into a
// Module, as ../shared/reference/torchscript-serialization-format.txt describes. Classes
// are compiled from their code/ files on first use, only those the object graph or the
// code needs; tensors alias the mapped file unless copies are asked for. Implemented in
// import.cpp; this header gives the library's own callers the runtime types with it.
#pragma once

#include <torchlet/jit.h>

#include "jit/runtime/module.h"

// All of torchlet's public API in one include: tensors and their operators, IValue,
// errors, torch.save/torch.load checkpoints and the plain data in their inert records,
// safetensors, TorchScript (jit.h), torch.export programs (exported_program.h), looking
// inside files (inspect.h), intra-op threads (parallel.h) and the per-thread allocation limit.
#pragma once

#include <torchlet/allocation_limit.h>
#include <torchlet/checkpoint.h>
#include <torchlet/dtype.h>
#include <torchlet/error.h>
#include <torchlet/exported_program.h>
#include <torchlet/graph_passes.h>
#include <torchlet/inert_records.h>
#include <torchlet/inspect.h>
#include <torchlet/ivalue.h>
#include <torchlet/jit.h>
#include <torchlet/ops.h>
#include <torchlet/parallel.h>
#include <torchlet/safetensors.h>
#include <torchlet/scalar.h>
#include <torchlet/tensor.h>

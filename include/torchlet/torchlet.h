// All of torchlet's public API in one include: tensors and their operators, IValue,
// errors, torch.save/torch.load checkpoints, and TorchScript (jit.h).
#pragma once

#include <torchlet/checkpoint.h>
#include <torchlet/dtype.h>
#include <torchlet/error.h>
#include <torchlet/ivalue.h>
#include <torchlet/jit.h>
#include <torchlet/ops.h>
#include <torchlet/scalar.h>
#include <torchlet/tensor.h>

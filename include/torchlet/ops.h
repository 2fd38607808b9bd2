// The numeric operators on Tensor: typed C++ functions whose signatures follow their
// aten:: schemas (add(self, other, alpha), conv2d(input, weight, bias, stride, ...)),
// implemented in src/tensor/kernels/. They know nothing of IValues or the interpreter;
// src/jit/ops binds schemas to them. Errors name the operator as torch does. One
// header per operator family under torchlet/ops/; this one includes them all.
#pragma once

#include <torchlet/ops/elementwise.h>
#include <torchlet/ops/factory.h>
#include <torchlet/ops/indexing.h>
#include <torchlet/ops/linalg.h>
#include <torchlet/ops/loss.h>
#include <torchlet/ops/nn.h>
#include <torchlet/ops/random.h>
#include <torchlet/ops/reduction.h>
#include <torchlet/ops/shape.h>
#include <torchlet/ops/sorting.h>
#include <torchlet/ops/statistics.h>

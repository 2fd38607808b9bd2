// Tensor compositions that more than one adapter file in src/jit/ops builds on, so each
// has one definition (torch composes them the same way in each place they appear).
// Defined in aten_composite_extra.cpp.
#pragma once

#include <torchlet/tensor.h>

namespace torchlet::jit::ops {

// x != x: true exactly where x is NaN (false for every integer and bool element).
Tensor isnan_of(const Tensor& x);
// torch.lerp with a tensor weight, torch's formula and refusals (float, double, bfloat16).
Tensor lerp_of(const Tensor& self, const Tensor& end, const Tensor& weight);
// torch.diag: a 2-D input's `offset` diagonal (copied), or a 1-D input placed on the
// `offset` diagonal of a new square matrix; float16 refused as torch's kernel is missing.
Tensor diag_of(const Tensor& x, int64_t offset);

}  // namespace torchlet::jit::ops

// What the vector norm (reduce.cpp) and the matrix norms (matrix_norm.cpp) share:
// torch's check of the dtype a caller asks a norm to compute in.
#pragma once

#include <optional>
#include <string_view>

#include <torchlet/dtype.h>

namespace torchlet::kernels {

// torch's check_linalg_norm_dtype: `dtype`, when given, must be floating (or complex for
// complex input) and reachable from `input` without narrowing. `api` names the caller.
void check_norm_dtype(DType input, std::optional<DType> dtype, std::string_view api);

}  // namespace torchlet::kernels

// Factories beyond tensor.h's (zeros, ones, full, arange): eye, logspace, the
// triangle index tensors (factory.cpp).
// Part of ops.h, the numeric operators on Tensor.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include <torchlet/tensor.h>

namespace torchlet {

// Identity matrix n x m (m defaults to n).
Tensor eye(int64_t n, std::optional<int64_t> m = std::nullopt, DType dtype = kDefaultFloatDType);

// factory.cpp: logspace is base ** linspace(start, end, steps) computed in double;
// tril_indices / triu_indices are the (2, N) row and column indices of a row x col
// matrix's lower / upper triangle from the `offset` diagonal (int64 or int32).
Tensor logspace(const Scalar& start, const Scalar& end, int64_t steps, double base = 10.0,
                std::optional<DType> dtype = std::nullopt);
Tensor tril_indices(int64_t row, int64_t col, int64_t offset = 0, std::optional<DType> dtype = std::nullopt);
Tensor triu_indices(int64_t row, int64_t col, int64_t offset = 0, std::optional<DType> dtype = std::nullopt);

}  // namespace torchlet

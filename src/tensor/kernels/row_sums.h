// Sums of many contiguous rows in one call: reductions over trailing dimensions (mean
// over a feature map's H and W) and global average pooling. Each row is torch's cascade
// sum (loop.h); the rows run inside one vector clone rather than calling cascade_sum's
// clone resolver once per row.
#pragma once

#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "tensor/kernels/loop.h"

namespace torchlet::kernels {

// out[r] = (sum of row r) / divisor for `rows` rows of n elements stored back to back.
template <typename A, typename T, typename Out>
TL_VECTOR_CLONES void divided_row_sums(const T* p, int64_t rows, int64_t n, A divisor, Out* out) {
  const auto same = [](A v) { return v; };
  for (int64_t r = 0; r < rows; ++r) out[r] = static_cast<Out>(cascade_row_sum<A>(p + r * n, n, same) / divisor);
}

// divided_row_sums with the rows split over threads, about kGrainSize elements a task.
template <typename A, typename T, typename Out>
void parallel_divided_row_sums(const T* p, int64_t rows, int64_t n, A divisor, Out* out) {
  parallel_for(0, rows, std::max<int64_t>(1, kGrainSize / std::max<int64_t>(n, 1)),
               [&](int64_t b, int64_t e) { divided_row_sums<A>(p + b * n, e - b, n, divisor, out + b); });
}

}  // namespace torchlet::kernels

// Sums of many short contiguous rows in one call: reductions over trailing dimensions
// (mean over a feature map's H and W) and global average pooling. pairwise_sum is a
// vector clone of its own, so calling it per row went through the clones' resolver once
// per row; and for short rows its block_sum is mostly the part after the 32-element
// loop, which GCC compiles to scalar adds lane by lane.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "tensor/kernels/loop.h"

namespace torchlet::kernels {

// block_sum's arithmetic, operation for operation (so the same value to the last bit),
// written with GCC's vector extension so that the 8-lane steps stay vector operations.
// Rows of the accumulation type only: block_sum converts other element types lane by lane.
template <typename A>
inline __attribute__((always_inline)) A short_row_sum(const A* p, int64_t n) {
  typedef A Lanes __attribute__((vector_size(8 * sizeof(A))));
  Lanes a0 = {}, a1 = {}, a2 = {}, a3 = {}, v;
  int64_t i = 0;
  for (; i + 32 <= n; i += 32) {
    std::memcpy(&v, p + i, sizeof v);
    a0 += v;
    std::memcpy(&v, p + i + 8, sizeof v);
    a1 += v;
    std::memcpy(&v, p + i + 16, sizeof v);
    a2 += v;
    std::memcpy(&v, p + i + 24, sizeof v);
    a3 += v;
  }
  a0 = (a0 + a1) + (a2 + a3);
  for (; i + 8 <= n; i += 8) {
    std::memcpy(&v, p + i, sizeof v);
    a0 += v;
  }
  A tail = 0;
  for (; i < n; ++i) tail += p[i];
  return ((a0[0] + a0[1]) + (a0[2] + a0[3])) + ((a0[4] + a0[5]) + (a0[6] + a0[7])) + tail;
}

// out[r] = (sum of row r) / divisor for `rows` rows of n elements stored back to back;
// each sum is the one pairwise_sum gives (one block below its 1024-element block).
template <typename A, typename T, typename Out>
TL_VECTOR_CLONES void divided_row_sums(const T* p, int64_t rows, int64_t n, A divisor, Out* out) {
  const auto same = [](A v) { return v; };
  for (int64_t r = 0; r < rows; ++r) {
    const T* row = p + r * n;
    A s;
    if (n >= 1024) s = pairwise_sum<A>(row, n, same);
    else if constexpr (std::is_same_v<T, A> && std::is_arithmetic_v<A>) s = short_row_sum(row, n);
    else s = block_sum<A>(row, n, same);
    out[r] = static_cast<Out>(s / divisor);
  }
}

// divided_row_sums with the rows split over threads, about kGrainSize elements a task.
template <typename A, typename T, typename Out>
void parallel_divided_row_sums(const T* p, int64_t rows, int64_t n, A divisor, Out* out) {
  parallel_for(0, rows, std::max<int64_t>(1, kGrainSize / std::max<int64_t>(n, 1)),
               [&](int64_t b, int64_t e) { divided_row_sums<A>(p + b * n, e - b, n, divisor, out + b); });
}

}  // namespace torchlet::kernels

// Iteration over N operands that share one shape but have their own strides: the
// loop every non-contiguous copy and elementwise kernel is built on. Dimensions are
// coalesced first, so a contiguous (or uniformly strided) case becomes one inner run.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include <torchlet/tensor.h>

namespace torchlet::detail {

// Describes N operands over `sizes`; strides in elements, one array per operand.
template <size_t N>
struct StridedLayout {
  Shape sizes;
  std::array<Shape, N> strides;
};

// Merges adjacent dimensions that are contiguous with each other in every operand
// and drops size-1 dimensions, preserving the visiting order (row-major).
template <size_t N>
StridedLayout<N> coalesce(IntList sizes, const std::array<IntList, N>& strides) {
  StridedLayout<N> out;
  for (size_t d = 0; d < sizes.size(); ++d) {
    if (sizes[d] == 1) continue;
    if (!out.sizes.empty()) {
      bool mergeable = true;
      for (size_t k = 0; k < N; ++k) {
        if (out.strides[k].back() != strides[k][d] * sizes[d]) mergeable = false;
      }
      if (mergeable) {
        out.sizes.back() *= sizes[d];
        for (size_t k = 0; k < N; ++k) out.strides[k].back() = strides[k][d];
        continue;
      }
    }
    out.sizes.push_back(sizes[d]);
    for (size_t k = 0; k < N; ++k) out.strides[k].push_back(strides[k][d]);
  }
  if (out.sizes.empty()) {  // a single element
    out.sizes.push_back(1);
    for (size_t k = 0; k < N; ++k) out.strides[k].push_back(0);
  }
  return out;
}

// Calls fn(offsets, n, inner_strides) for each innermost run of `n` elements, over
// linear element positions [begin, end) of the coalesced layout. Offsets and strides
// are in elements, per operand.
template <size_t N, typename Fn>
void for_each_run(const StridedLayout<N>& layout, int64_t begin, int64_t end, Fn&& fn) {
  const size_t nd = layout.sizes.size();
  const int64_t inner = layout.sizes[nd - 1];
  std::array<int64_t, N> inner_strides;
  for (size_t k = 0; k < N; ++k) inner_strides[k] = layout.strides[k][nd - 1];
  // Decompose `begin` into a multi-index.
  std::vector<int64_t> index(nd, 0);
  int64_t rem = begin;
  for (size_t d = nd; d-- > 0;) {
    index[d] = rem % layout.sizes[d];
    rem /= layout.sizes[d];
  }
  int64_t pos = begin;
  while (pos < end) {
    std::array<int64_t, N> offsets{};
    for (size_t k = 0; k < N; ++k) {
      for (size_t d = 0; d < nd; ++d) offsets[k] += index[d] * layout.strides[k][d];
    }
    int64_t n = std::min(inner - index[nd - 1], end - pos);
    fn(offsets, n, inner_strides);
    pos += n;
    index[nd - 1] += n;
    for (size_t d = nd - 1; d > 0 && index[d] >= layout.sizes[d]; --d) {
      index[d] = 0;
      ++index[d - 1];
    }
  }
}

}  // namespace torchlet::detail

// The one description of N operands that share a shape but have their own strides,
// and the coalescing every strided walk starts from: copies (tensor_copy.cpp) and the
// elementwise and reduction kernels (kernels/loop.h's parallel run_loop) both build
// on it. Dimensions are coalesced first, so a contiguous (or uniformly strided) case
// becomes one inner run.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

#include <torchlet/tensor.h>

namespace torchlet::detail {

// The most operands one walk takes (an output and three inputs: addcmul, where).
inline constexpr int kMaxOperands = 4;

// N operands over `sizes` (outermost first). strides[d][k] is operand k's stride along
// dimension d, in whatever unit the caller gave (elements for copies, bytes for the
// kernels): coalescing only compares strides with each other.
struct StridedLayout {
  int operands = 0;
  Shape sizes;
  std::vector<std::array<int64_t, kMaxOperands>> strides;

  Shape operand_strides(int k) const {
    Shape s(sizes.size());
    for (size_t d = 0; d < sizes.size(); ++d) s[d] = strides[d][static_cast<size_t>(k)];
    return s;
  }
};

// Drops size-1 dimensions and merges a dimension into its inner neighbour when every
// operand steps over it exactly as one run of the inner one, preserving row-major
// visiting order. stride_of(k, d) is operand k's stride along dimension d of `sizes`.
template <typename StrideOf>
StridedLayout coalesce(IntList sizes, int operands, StrideOf&& stride_of) {
  StridedLayout out;
  out.operands = operands;
  for (size_t d = 0; d < sizes.size(); ++d) {
    if (sizes[d] == 1) continue;
    std::array<int64_t, kMaxOperands> st{};
    for (int k = 0; k < operands; ++k) st[static_cast<size_t>(k)] = stride_of(k, d);
    if (!out.sizes.empty()) {
      bool mergeable = true;
      for (int k = 0; k < operands; ++k) {
        const auto kk = static_cast<size_t>(k);
        if (out.strides.back()[kk] != st[kk] * sizes[d]) mergeable = false;
      }
      if (mergeable) {
        out.sizes.back() *= sizes[d];
        out.strides.back() = st;
        continue;
      }
    }
    out.sizes.push_back(sizes[d]);
    out.strides.push_back(st);
  }
  if (out.sizes.empty()) {  // a single element
    out.sizes.push_back(1);
    out.strides.push_back({});
  }
  return out;
}

// Calls fn(offsets, n, inner_strides) for each innermost run of `n` elements, over
// linear element positions [begin, end) of a coalesced layout of N operands, serially
// (the caller splits the range over threads). Offsets and strides are per operand.
template <size_t N, typename Fn>
void for_each_run(const StridedLayout& layout, int64_t begin, int64_t end, Fn&& fn) {
  static_assert(N <= static_cast<size_t>(kMaxOperands));
  const size_t nd = layout.sizes.size();
  const int64_t inner = layout.sizes[nd - 1];
  std::array<int64_t, N> inner_strides;
  for (size_t k = 0; k < N; ++k) inner_strides[k] = layout.strides[nd - 1][k];
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
      for (size_t d = 0; d < nd; ++d) offsets[k] += index[d] * layout.strides[d][k];
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

// The parallel strided walk every elementwise kernel runs on: operands of one shape (the
// output first, inputs already expanded to it) are coalesced (strided_loop.h) into as few dimensions
// as their strides allow, split over parallel_for, and handed to a leaf loop one inner
// row at a time. It owns iteration only; dtypes, promotion and allocation are the
// callers' (elementwise.cpp, reduce.cpp, ...).
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>
#include <vector>

#include <torchlet/convert.h>
#include <torchlet/tensor.h>

#include "core/parallel.h"
#include "tensor/strided_loop.h"

namespace torchlet::kernels {

// Elements per parallel chunk: below this one thread is faster than waking others
// (the same grain torch's TensorIterator uses, at::internal::GRAIN_SIZE).
inline constexpr int64_t kGrainSize = 32768;

// The grain of the cheapest maps (add, sub, mul, true division: one vector operation per
// eight elements). A fork-join costs about 5 us on the 2-vCPU VMs torchlet is measured
// on (3.6 us for an empty OpenMP region, plus moving half of the operands to the other
// core); a float add over 50k elements takes 3.8 us on one core and 8.0 on two, and two
// threads only win from about 90k (80k: 7.8 vs 10.7 us; 96k: 13.1 vs 11.9, where the
// operands leave one core's L2).
inline constexpr int64_t kCheapGrainSize = 81920;

using detail::kMaxOperands;

// The type arithmetic runs in: half and bfloat16 compute in float, as torch's
// opmath_type does, so results round once, when stored.
template <typename T>
struct OpMath {
  using type = T;
};
template <>
struct OpMath<Half> {
  using type = float;
};
template <>
struct OpMath<BFloat16> {
  using type = float;
};
template <typename T>
using opmath_t = typename OpMath<T>::type;

// Like dispatch_real, for kernels defined on floating types only (normalisation,
// softmax, interpolation, pooling): other dtypes raise UnsupportedError naming `op`.
template <typename Fn>
void dispatch_floating(DType d, std::string_view op, Fn&& fn) {
  if (d == DType::Float) return fn.template operator()<float>();
  if (d == DType::Double) return fn.template operator()<double>();
  if (d == DType::BFloat16) return fn.template operator()<BFloat16>();
  if (d == DType::Half) return fn.template operator()<Half>();
  throw_unsupported_dtype(op, d);
}

// Operands (output first) that all have `sizes`, coalesced (strided_loop.h) with byte
// strides, and where each one's data starts.
struct StridedLoop : detail::StridedLayout {
  std::array<char*, kMaxOperands> base{};
  int64_t numel = 1;
};

inline StridedLoop make_loop(std::initializer_list<const Tensor*> operands) {
  const Tensor* const* ts = operands.begin();
  const Tensor& first = *ts[0];
  StridedLoop l;
  static_cast<detail::StridedLayout&>(l) =
      detail::coalesce(first.sizes(), static_cast<int>(operands.size()), [&](int k, size_t d) {
        return ts[k]->stride(static_cast<int64_t>(d)) * static_cast<int64_t>(ts[k]->element_size());
      });
  l.numel = first.numel();
  for (size_t k = 0; k < operands.size(); ++k) l.base[k] = static_cast<char*>(ts[k]->data_ptr());
  return l;
}

// Calls row(ptrs, inner_strides, n) for consecutive runs of the innermost dimension,
// in parallel chunks of at least `grain` elements. A `row` that also takes
// (rows, outer_strides) gets as many whole consecutive runs of the second-innermost
// dimension per call as the chunk holds (run r starts at ptrs + r * outer_strides), so
// a vectorised leaf loops over them itself: broadcasts give many short runs (a [C,1,1]
// gate over 7x7 planes is 960 runs of 49), and one dispatched call per run cost more
// than the run.
template <typename Row>
void run_loop(const StridedLoop& l, Row&& row, int64_t grain = kGrainSize) {
  if (l.numel == 0) return;
  constexpr bool kRows = requires(char** p, const int64_t* s) { row(p, s, int64_t{}, int64_t{}, s); };
  const int nt = l.operands;
  const int64_t nd = static_cast<int64_t>(l.sizes.size());
  const int64_t inner = l.sizes.back();
  const int64_t* inner_strides = l.strides.back().data();
  parallel_for(0, l.numel, grain, [&](int64_t begin, int64_t end) {
    // Multi-index of `begin` over the outer dimensions.
    std::array<int64_t, 16> small_idx{};
    std::vector<int64_t> big_idx;
    int64_t* idx = small_idx.data();
    if (nd > 16) {
      big_idx.assign(static_cast<size_t>(nd), 0);
      idx = big_idx.data();
    }
    int64_t rem = begin;
    for (int64_t d = nd - 1; d >= 0; --d) {
      idx[d] = rem % l.sizes[d];
      rem /= l.sizes[d];
    }
    std::array<char*, kMaxOperands> ptrs{};
    for (int k = 0; k < nt; ++k) {
      char* p = l.base[k];
      for (int64_t d = 0; d < nd; ++d) p += idx[d] * l.strides[d][k];
      ptrs[k] = p;
    }
    // Pointers advance with the index instead of being recomputed from it per run.
    // `carry` moves the index (and pointers) on after dimension `from` filled up.
    auto carry = [&](int64_t from) {
      for (int64_t d = from; d > 0 && idx[d] == l.sizes[d]; --d) {
        idx[d] = 0;
        ++idx[d - 1];
        for (int k = 0; k < nt; ++k) ptrs[k] += l.strides[d - 1][k] - l.sizes[d] * l.strides[d][k];
      }
    };
    for (int64_t pos = begin; pos < end;) {
      if constexpr (kRows) {
        if (nd >= 2 && idx[nd - 1] == 0) {
          const int64_t rows = std::min(l.sizes[nd - 2] - idx[nd - 2], (end - pos) / inner);
          if (rows > 0) {
            const int64_t* outer_strides = l.strides[nd - 2].data();
            row(ptrs.data(), inner_strides, inner, rows, outer_strides);
            pos += rows * inner;
            idx[nd - 2] += rows;
            for (int k = 0; k < nt; ++k) ptrs[k] += rows * outer_strides[k];
            carry(nd - 2);
            continue;
          }
        }
      }
      int64_t n = std::min(inner - idx[nd - 1], end - pos);
      if constexpr (kRows) row(ptrs.data(), inner_strides, n, int64_t{1}, inner_strides);
      else row(ptrs.data(), inner_strides, n);
      pos += n;
      idx[nd - 1] += n;
      for (int k = 0; k < nt; ++k) ptrs[k] += n * inner_strides[k];
      carry(nd - 1);
    }
  });
}

// --- leaf rows -----------------------------------------------------------------
// Each has a contiguous path the compiler vectorises (explicit check first, STYLE #22)
// beside the strided one. The build targets baseline x86-64 (SSE2), so rows are also
// compiled for AVX2 and picked at load time by the CPU (GCC function multiversioning),
// the way torch dispatches its vectorised kernels; AVX2 without FMA keeps every result
// bit-identical to the baseline clone. Not under ThreadSanitizer: the clones' IFUNC
// resolvers run before its runtime is up and crash the instrumented program at load.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && !defined(__SANITIZE_THREAD__)
#define TL_VECTOR_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define TL_VECTOR_CLONES
#endif

template <typename out_t, typename a_t, typename F>
inline __attribute__((always_inline)) void unary_row_body(char** p, const int64_t* s, int64_t n, const F& f) {
  if (s[0] == sizeof(out_t) && s[1] == sizeof(a_t)) {
    auto* __restrict o = reinterpret_cast<out_t*>(p[0]);
    const auto* __restrict a = reinterpret_cast<const a_t*>(p[1]);
    for (int64_t i = 0; i < n; ++i) o[i] = f(a[i]);
    return;
  }
  for (int64_t i = 0; i < n; ++i) {
    *reinterpret_cast<out_t*>(p[0] + i * s[0]) = f(*reinterpret_cast<const a_t*>(p[1] + i * s[1]));
  }
}

template <typename out_t, typename a_t, typename b_t, typename F>
inline __attribute__((always_inline)) void binary_row_body(char** p, const int64_t* s, int64_t n, const F& f) {
  if (s[0] == sizeof(out_t) && s[1] == sizeof(a_t) && s[2] == sizeof(b_t)) {
    auto* __restrict o = reinterpret_cast<out_t*>(p[0]);
    const auto* __restrict a = reinterpret_cast<const a_t*>(p[1]);
    const auto* __restrict b = reinterpret_cast<const b_t*>(p[2]);
    for (int64_t i = 0; i < n; ++i) o[i] = f(a[i], b[i]);
    return;
  }
  if (s[0] == sizeof(out_t) && s[1] == sizeof(a_t) && s[2] == 0) {  // tensor op scalar
    auto* __restrict o = reinterpret_cast<out_t*>(p[0]);
    const auto* __restrict a = reinterpret_cast<const a_t*>(p[1]);
    const b_t b = *reinterpret_cast<const b_t*>(p[2]);
    for (int64_t i = 0; i < n; ++i) o[i] = f(a[i], b);
    return;
  }
  if (s[0] == sizeof(out_t) && s[1] == 0 && s[2] == sizeof(b_t)) {  // scalar op tensor
    auto* __restrict o = reinterpret_cast<out_t*>(p[0]);
    const a_t a = *reinterpret_cast<const a_t*>(p[1]);
    const auto* __restrict b = reinterpret_cast<const b_t*>(p[2]);
    for (int64_t i = 0; i < n; ++i) o[i] = f(a, b[i]);
    return;
  }
  for (int64_t i = 0; i < n; ++i) {
    *reinterpret_cast<out_t*>(p[0] + i * s[0]) =
        f(*reinterpret_cast<const a_t*>(p[1] + i * s[1]), *reinterpret_cast<const b_t*>(p[2] + i * s[2]));
  }
}

// One run: the bodies above compiled into each vector clone.
template <typename out_t, typename a_t, typename F>
TL_VECTOR_CLONES inline void unary_row(char** p, const int64_t* s, int64_t n, const F& f) {
  unary_row_body<out_t, a_t>(p, s, n, f);
}
template <typename out_t, typename a_t, typename b_t, typename F>
TL_VECTOR_CLONES inline void binary_row(char** p, const int64_t* s, int64_t n, const F& f) {
  binary_row_body<out_t, a_t, b_t>(p, s, n, f);
}

// The same leaves over `rows` runs spaced by `os` (see run_loop), inside one clone.
template <typename out_t, typename a_t, typename F>
TL_VECTOR_CLONES inline void unary_rows(char** p, const int64_t* s, int64_t n, int64_t rows, const int64_t* os,
                                        const F& f) {
  for (int64_t r = 0; r < rows; ++r) {
    char* q[2] = {p[0] + r * os[0], p[1] + r * os[1]};
    unary_row_body<out_t, a_t>(q, s, n, f);
  }
}

template <typename out_t, typename a_t, typename b_t, typename F>
TL_VECTOR_CLONES inline void binary_rows(char** p, const int64_t* s, int64_t n, int64_t rows, const int64_t* os,
                                         const F& f) {
  // One value of b per run, contiguous runs of out and a: a [C,1,1] gate or a per-row
  // scale. The run shape is checked once, not per run (mobilenet's 7x7 gates are 960
  // runs of 49, where binary_row_body's checks and pointer set-up per run cost as much
  // as the run's six vector multiplies).
  if (s[0] == sizeof(out_t) && s[1] == sizeof(a_t) && s[2] == 0) {
    for (int64_t r = 0; r < rows; ++r) {
      auto* __restrict o = reinterpret_cast<out_t*>(p[0] + r * os[0]);
      const auto* __restrict a = reinterpret_cast<const a_t*>(p[1] + r * os[1]);
      const b_t b = *reinterpret_cast<const b_t*>(p[2] + r * os[2]);
      for (int64_t i = 0; i < n; ++i) o[i] = f(a[i], b);
    }
    return;
  }
  for (int64_t r = 0; r < rows; ++r) {
    char* q[3] = {p[0] + r * os[0], p[1] + r * os[1], p[2] + r * os[2]};
    binary_row_body<out_t, a_t, b_t>(q, s, n, f);
  }
}

template <typename out_t, typename a_t, typename b_t, typename c_t, typename F>
TL_VECTOR_CLONES inline void ternary_row(char** p, const int64_t* s, int64_t n, const F& f) {
  if (s[0] == sizeof(out_t) && s[1] == sizeof(a_t) && s[2] == sizeof(b_t) && s[3] == sizeof(c_t)) {
    auto* __restrict o = reinterpret_cast<out_t*>(p[0]);
    const auto* __restrict a = reinterpret_cast<const a_t*>(p[1]);
    const auto* __restrict b = reinterpret_cast<const b_t*>(p[2]);
    const auto* __restrict c = reinterpret_cast<const c_t*>(p[3]);
    for (int64_t i = 0; i < n; ++i) o[i] = f(a[i], b[i], c[i]);
    return;
  }
  for (int64_t i = 0; i < n; ++i) {
    *reinterpret_cast<out_t*>(p[0] + i * s[0]) =
        f(*reinterpret_cast<const a_t*>(p[1] + i * s[1]), *reinterpret_cast<const b_t*>(p[2] + i * s[2]),
          *reinterpret_cast<const c_t*>(p[3] + i * s[3]));
  }
}

// One block of a pairwise sum: four groups of 8 independent accumulators (four vector
// chains, so the adds do not wait on each other's latency), folded to 8 lanes for the
// rest of the block, then a fixed tree. Inlined into the callers' vector clones.
template <typename A, typename T, typename Map>
inline __attribute__((always_inline)) A block_sum(const T* p, int64_t n, const Map& map) {
  A a0[8] = {}, a1[8] = {}, a2[8] = {}, a3[8] = {};
  int64_t i = 0;
  for (; i + 32 <= n; i += 32) {
    for (int k = 0; k < 8; ++k) a0[k] += map(static_cast<A>(p[i + k]));
    for (int k = 0; k < 8; ++k) a1[k] += map(static_cast<A>(p[i + 8 + k]));
    for (int k = 0; k < 8; ++k) a2[k] += map(static_cast<A>(p[i + 16 + k]));
    for (int k = 0; k < 8; ++k) a3[k] += map(static_cast<A>(p[i + 24 + k]));
  }
  for (int k = 0; k < 8; ++k) a0[k] = (a0[k] + a1[k]) + (a2[k] + a3[k]);
  for (; i + 8 <= n; i += 8) {
    for (int k = 0; k < 8; ++k) a0[k] += map(static_cast<A>(p[i + k]));
  }
  A tail = 0;
  for (; i < n; ++i) tail += map(static_cast<A>(p[i]));
  return ((a0[0] + a0[1]) + (a0[2] + a0[3])) + ((a0[4] + a0[5]) + (a0[6] + a0[7])) + tail;
}

// Largest element of a row (a NaN may or may not win; callers that care see it through
// the values they compute from the max). One 32-byte vector of lanes, written with
// GCC's vector extension: the same loop with an array of 8 lanes stayed scalar. Inlined
// into the callers' vector clones.
template <typename M, typename T>
inline __attribute__((always_inline)) M row_max(const T* p, int64_t len) {
  constexpr int kLanes = 32 / sizeof(M);
  typedef M Vec __attribute__((vector_size(32)));
  Vec acc;
  for (int k = 0; k < kLanes; ++k) acc[k] = -std::numeric_limits<M>::infinity();
  int64_t i = 0;
  for (; i + kLanes <= len; i += kLanes) {
    Vec v;
    if constexpr (std::is_same_v<T, M>) {
      std::memcpy(&v, p + i, sizeof(v));
    } else {
      for (int k = 0; k < kLanes; ++k) v[k] = static_cast<M>(p[i + k]);
    }
    acc = acc > v ? acc : v;
  }
  M m = acc[0];
  for (int k = 1; k < kLanes; ++k) m = m > acc[k] ? m : acc[k];
  for (; i < len; ++i) m = m > static_cast<M>(p[i]) ? m : static_cast<M>(p[i]);
  return m;
}

// torch's cascade sum of one contiguous row (its SumKernel.cpp: vectorized_inner_sum,
// or scalar_inner_sum for rows shorter than a vector), operation for operation, so a
// sum or mean over the innermost elements is torch's to the last bit. Elements are read
// as map(A(p[i])). A row of at least one AVX2 vector (32 bytes of T) is summed as
// vectors: four interleaved vector sums (row_sum), each a cascade of four levels
// (multi_row_sum); then the elements after the last whole vector, then the lanes, are
// added to 0 in order. A 16-bit T fills a vector of 8 float lanes from 16 elements,
// float16 pairing neighbours and bfloat16 the two halves, as torch's loads do.
namespace cascade {

inline int64_t ceil_log2(int64_t x) { return x <= 2 ? 1 : 64 - __builtin_clzll(static_cast<uint64_t>(x - 1)); }

// R interleaved running sums of the values load(v, i, k) stores in v (k < R) over `size`
// steps: the first level takes level_step steps, then carries into the next level up,
// and so on. (Values pass by reference: a 32-byte vector returned by value would have
// another calling convention in the default clone than in the AVX2 one.)
template <typename E, int R, typename Load>
inline __attribute__((always_inline)) void multi_row_sum(E (&out)[R], int64_t size, const Load& load) {
  constexpr int kLevels = 4;
  const int64_t level_power = std::max<int64_t>(4, ceil_log2(size) / kLevels);
  const int64_t level_step = int64_t{1} << level_power, level_mask = level_step - 1;
  E acc[kLevels][R];
  for (auto& level : acc)
    for (auto& a : level) a = E{};
  E v{};
  int64_t i = 0;
  while (i + level_step <= size) {
    for (int64_t j = 0; j < level_step; ++j, ++i)
      for (int k = 0; k < R; ++k) {
        load(v, i, k);
        acc[0][k] += v;
      }
    for (int j = 1; j < kLevels; ++j) {
      for (int k = 0; k < R; ++k) {
        acc[j][k] += acc[j - 1][k];
        acc[j - 1][k] = E{};
      }
      if ((i & (level_mask << (j * level_power))) != 0) break;
    }
  }
  for (; i < size; ++i)
    for (int k = 0; k < R; ++k) {
      load(v, i, k);
      acc[0][k] += v;
    }
  for (int j = 1; j < kLevels; ++j)
    for (int k = 0; k < R; ++k) acc[0][k] += acc[j][k];
  for (int k = 0; k < R; ++k) out[k] = acc[0][k];
}

// torch's row_sum: the row as rows of four (instruction-level parallelism), summed by
// multi_row_sum, the leftover elements into the first, then the four in order.
template <typename E, typename Load>
inline __attribute__((always_inline)) void row_sum(E& result, int64_t size, const Load& load) {
  const int64_t quads = size / 4;
  E partial[4];
  multi_row_sum<E, 4>(partial, quads, [&](E& v, int64_t i, int k) { load(v, i * 4 + k); });
  E v{};
  for (int64_t i = quads * 4; i < size; ++i) {
    load(v, i);
    partial[0] += v;
  }
  for (int k = 1; k < 4; ++k) partial[0] += partial[k];
  result = partial[0];
}

}  // namespace cascade

// cascade_row_sum's rows of at least one vector.
template <typename A, int64_t kLanes, int64_t kStep, bool kHalfWidth, typename T, typename Scalar>
inline __attribute__((always_inline)) A cascade_vector_sum(int64_t n, const Scalar& scalar) {
  typedef A Vec __attribute__((vector_size(kLanes * sizeof(A))));
  const auto vector = [&](Vec& x, int64_t v) {
    const int64_t base = v * kStep;
    for (int64_t k = 0; k < kLanes; ++k) {
      if constexpr (!kHalfWidth) {
        x[k] = scalar(base + k);
      } else if constexpr (std::is_same_v<T, BFloat16>) {
        x[k] = scalar(base + k) + scalar(base + 8 + k);
      } else {
        x[k] = (A(0) + scalar(base + 2 * k)) + scalar(base + 2 * k + 1);
      }
    }
  };
  const int64_t vectors = n / kStep;
  Vec lanes;
  cascade::row_sum<Vec>(lanes, vectors, vector);
  A total = 0;
  for (int64_t i = vectors * kStep; i < n; ++i) total += scalar(i);
  for (int64_t k = 0; k < kLanes; ++k) total += lanes[k];
  return total;
}

// The row itself, inlined into its callers' vector clones (row_sums.h sums many rows in
// one clone); cascade_sum below is the same as a clone of its own.
template <typename A, typename T, typename Map>
inline __attribute__((always_inline)) A cascade_row_sum(const T* p, int64_t n, const Map& map) {
  constexpr int64_t kLanes = 32 / static_cast<int64_t>(sizeof(A));
  constexpr bool kHalfWidth = sizeof(T) == 2 && sizeof(A) == 4;
  constexpr int64_t kStep = kHalfWidth ? 16 : kLanes;  // elements of T one vector load reads
  const auto scalar = [&](int64_t i) { return map(static_cast<A>(p[i])); };
  // (Sums of non-arithmetic accumulators, which torch does not vectorise, take the
  // scalar path at every length.)
  constexpr bool kVectorisable = std::is_arithmetic_v<A> && !std::is_same_v<A, bool>;
  if (!kVectorisable || n < kStep) {
    A total;
    cascade::row_sum<A>(total, n, [&](A& v, int64_t i) { v = scalar(i); });
    return total;
  }
  if constexpr (kVectorisable) return cascade_vector_sum<A, kLanes, kStep, kHalfWidth, T>(n, scalar);
  return A{};
}

template <typename A, typename T, typename Map>
TL_VECTOR_CLONES A cascade_sum(const T* p, int64_t n, const Map& map) {
  return cascade_row_sum<A>(p, n, map);
}

}  // namespace torchlet::kernels

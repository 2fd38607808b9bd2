// Copies between tensors of any dtypes and layouts (copy_, contiguous, clone, to),
// fill_, and element access, with torch's refusals (overlapping writes, shapes that do
// not broadcast). Conversions use convert<To>(From) (convert.h), where torch's casting
// rules live; the strided iteration is strided_loop.h.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <vector>

#include <torchlet/error.h>
#include <torchlet/tensor.h>

#include "core/parallel.h"
#include "tensor/strided_loop.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace torchlet {

namespace {

// Elements per parallel chunk: below this, threading costs more than it saves.
constexpr int64_t kCopyGrain = 32768;

// A bool byte read from a file may be any value; torch treats every nonzero byte as
// True when converting, and loading such a byte as C++ bool is undefined (the compiler
// may pass 52 through as 52.0). So conversions read bools as bytes.
template <typename From>
struct ElementReader {
  using Stored = From;
  static From read(From v) { return v; }
};
template <>
struct ElementReader<bool> {
  using Stored = uint8_t;
  static bool read(uint8_t v) { return v != 0; }
};

template <typename To, typename From>
void copy_run(std::byte* dst, const std::byte* src, int64_t n, int64_t dst_stride,
              int64_t src_stride) {
  using Reader = ElementReader<From>;
  To* d = reinterpret_cast<To*>(dst);
  const auto* s = reinterpret_cast<const typename Reader::Stored*>(src);
  if (dst_stride == 1 && src_stride == 1) {
    // Overlapping dense operands were refused (Note [copy_ overlap]); overlap torch
    // cannot decide is unordered in torch's vectorised loops too. So promise no
    // aliasing and let the loop vectorise without a runtime check.
    To* __restrict dr = d;
    const typename Reader::Stored* __restrict sr = s;
    for (int64_t i = 0; i < n; ++i) dr[i] = convert<To>(Reader::read(sr[i]));
  } else {
    for (int64_t i = 0; i < n; ++i) d[i * dst_stride] = convert<To>(Reader::read(s[i * src_stride]));
  }
}

// Same-dtype copies move elements as opaque bits, so their loops are picked by element
// size, not dtype: a NaN payload or a bool byte is copied as it is (as the contiguous
// memmove does), and five instantiations cover every dtype.
struct Bits128 {
  uint64_t lo, hi;
};
template <typename Fn>
void dispatch_element_size(int64_t size, Fn&& fn) {
  switch (size) {
    case 1: return fn.template operator()<uint8_t>();
    case 2: return fn.template operator()<uint16_t>();
    case 4: return fn.template operator()<uint32_t>();
    case 8: return fn.template operator()<uint64_t>();
    case 16: return fn.template operator()<Bits128>();
    default: TL_INTERNAL_ASSERT(false, "no element is this size");
  }
}

// Note [tiled copy]: a 2-d copy whose operands run along different dimensions (a
// transpose made contiguous) would stream one side with a large stride and miss the
// cache on nearly every element. Like torch's copy_same_type_transpose_, each tile is
// gathered into a small buffer walking the source's contiguous dimension, then
// scattered walking the destination's, so both sides move through memory in order.
// The tile is 60, not a power of two, so that a tile's lines (a power-of-two stride
// apart in the usual case) do not all fall into the same cache set. Transposes whose
// source is contiguous down the destination's rows take transpose_rows below instead;
// this handles the rest (a strided slice on one side).
constexpr int64_t kTile = 60;

// Copies rows [row_begin, row_end) of a rows x cols layout tile by tile; strides are
// in elements, [0] the row stride and [1] the column stride of each operand. The
// buffer keeps the source's order: buf[j][i] when the source runs down rows.
template <typename T, bool SrcDownRows>
void copy_tiled(std::byte* dst, const std::byte* src, int64_t row_begin, int64_t row_end,
                int64_t cols, const std::array<int64_t, 2>& ds, const std::array<int64_t, 2>& ss) {
  T* d = reinterpret_cast<T*>(dst);
  const T* s = reinterpret_cast<const T*>(src);
  const bool dst_down_rows = std::abs(ds[0]) < std::abs(ds[1]);
  auto storage = std::make_unique<T[]>(static_cast<size_t>(kTile * kTile));
  T* buf = storage.get();
  auto at = [&](int64_t i, int64_t j) -> T& {
    return SrcDownRows ? buf[j * kTile + i] : buf[i * kTile + j];
  };
  for (int64_t i0 = row_begin; i0 < row_end; i0 += kTile) {
    const int64_t ni = std::min(kTile, row_end - i0);
    for (int64_t j0 = 0; j0 < cols; j0 += kTile) {
      const int64_t nj = std::min(kTile, cols - j0);
      const T* st = s + i0 * ss[0] + j0 * ss[1];
      T* dt = d + i0 * ds[0] + j0 * ds[1];
      if constexpr (SrcDownRows) {
        for (int64_t j = 0; j < nj; ++j) {
          for (int64_t i = 0; i < ni; ++i) at(i, j) = st[i * ss[0] + j * ss[1]];
        }
      } else {
        for (int64_t i = 0; i < ni; ++i) {
          for (int64_t j = 0; j < nj; ++j) at(i, j) = st[i * ss[0] + j * ss[1]];
        }
      }
      if (dst_down_rows) {
        for (int64_t j = 0; j < nj; ++j) {
          for (int64_t i = 0; i < ni; ++i) dt[i * ds[0] + j * ds[1]] = at(i, j);
        }
      } else {
        for (int64_t i = 0; i < ni; ++i) {
          for (int64_t j = 0; j < nj; ++j) dt[i * ds[0] + j * ds[1]] = at(i, j);
        }
      }
    }
  }
}

// A coalesced 2-d layout where one operand is contiguous along rows and the other
// along columns, big enough for tiling to pay.
bool wants_tiling(const detail::StridedLayout& layout) {
  if (layout.sizes.size() != 2 || layout.sizes[0] < kTile || layout.sizes[1] < kTile) return false;
  const int64_t d_inner = std::abs(layout.strides[1][0]), s_inner = std::abs(layout.strides[1][1]);
  return (d_inner == 1) != (s_inner == 1);
}

// Note [transpose copy]: the common transpose (x.t().contiguous(), NCHW -> NHWC, and
// every permute that moves the innermost dimension) has the destination contiguous
// along its rows and the source contiguous down them: b[i * ldb + j] = a[i + j * lda].
// It is copied in square blocks held in registers: a block's source rows are loaded as
// vectors, transposed by unpack instructions, and stored as the destination's rows, so
// both sides are read and written a vector at a time with no buffer in between. The
// blocks are walked in tiles of kTileRows destination rows by kTileCols columns, so a
// destination line is filled while it is still in L1 and the source rows are read
// in runs of whole lines (16 x 64 was the fastest of 8..128 in either direction for
// the 768x3072 .t() and NCHW -> NHWC of bench/ops_bench).
constexpr int64_t kTileRows = 16, kTileCols = 64;

// One block of kBlock x kBlock elements: b[i * ldb + j] = a[i + j * lda]. SSE2 is in
// every x86-64 CPU (the build's baseline), so no dispatch is needed; elsewhere, and for
// 1- and 16-byte elements, element by element.
template <typename U>
struct TransposeBlock {
  static constexpr int64_t kBlock = 1;
  static void run(U* b, int64_t, const U* a, int64_t) { *b = *a; }
};

#if defined(__SSE2__)
inline __m128i load128(const void* p) { return _mm_loadu_si128(static_cast<const __m128i*>(p)); }
inline void store128(void* p, __m128i v) { _mm_storeu_si128(static_cast<__m128i*>(p), v); }

template <>
struct TransposeBlock<uint64_t> {
  static constexpr int64_t kBlock = 2;
  static void run(uint64_t* b, int64_t ldb, const uint64_t* a, int64_t lda) {
    const __m128i r0 = load128(a), r1 = load128(a + lda);
    store128(b, _mm_unpacklo_epi64(r0, r1));
    store128(b + ldb, _mm_unpackhi_epi64(r0, r1));
  }
};

template <>
struct TransposeBlock<uint32_t> {
  static constexpr int64_t kBlock = 4;
  static void run(uint32_t* b, int64_t ldb, const uint32_t* a, int64_t lda) {
    const __m128i r0 = load128(a), r1 = load128(a + lda), r2 = load128(a + 2 * lda), r3 = load128(a + 3 * lda);
    const __m128i t0 = _mm_unpacklo_epi32(r0, r1), t1 = _mm_unpacklo_epi32(r2, r3);
    const __m128i t2 = _mm_unpackhi_epi32(r0, r1), t3 = _mm_unpackhi_epi32(r2, r3);
    store128(b, _mm_unpacklo_epi64(t0, t1));
    store128(b + ldb, _mm_unpackhi_epi64(t0, t1));
    store128(b + 2 * ldb, _mm_unpacklo_epi64(t2, t3));
    store128(b + 3 * ldb, _mm_unpackhi_epi64(t2, t3));
  }
};

template <>
struct TransposeBlock<uint16_t> {
  static constexpr int64_t kBlock = 8;
  static void run(uint16_t* b, int64_t ldb, const uint16_t* a, int64_t lda) {
    __m128i r[8], t[8];
    for (int k = 0; k < 8; ++k) r[k] = load128(a + k * lda);
    for (int k = 0; k < 4; ++k) {
      t[k] = _mm_unpacklo_epi16(r[2 * k], r[2 * k + 1]);
      t[k + 4] = _mm_unpackhi_epi16(r[2 * k], r[2 * k + 1]);
    }
    // t[0..3] hold columns 0-3 of row pairs (0,1) .. (6,7); t[4..7] columns 4-7.
    for (int h = 0; h < 2; ++h) {
      const __m128i* q = t + 4 * h;
      const __m128i u0 = _mm_unpacklo_epi32(q[0], q[1]), u1 = _mm_unpackhi_epi32(q[0], q[1]);
      const __m128i u2 = _mm_unpacklo_epi32(q[2], q[3]), u3 = _mm_unpackhi_epi32(q[2], q[3]);
      uint16_t* o = b + 4 * h * ldb;
      store128(o, _mm_unpacklo_epi64(u0, u2));
      store128(o + ldb, _mm_unpackhi_epi64(u0, u2));
      store128(o + 2 * ldb, _mm_unpacklo_epi64(u1, u3));
      store128(o + 3 * ldb, _mm_unpackhi_epi64(u1, u3));
    }
  }
};
#endif

// Rows [row_begin, row_end) of b = a^T (Note [transpose copy]), b rows x cols.
template <typename U>
void transpose_rows(U* b, int64_t ldb, const U* a, int64_t lda, int64_t row_begin, int64_t row_end,
                    int64_t cols) {
  constexpr int64_t kB = TransposeBlock<U>::kBlock;
  for (int64_t i0 = row_begin; i0 < row_end; i0 += kTileRows) {
    const int64_t i1 = std::min(i0 + kTileRows, row_end);
    const int64_t i_blocks = i0 + (i1 - i0) / kB * kB;
    for (int64_t j0 = 0; j0 < cols; j0 += kTileCols) {
      const int64_t j1 = std::min(j0 + kTileCols, cols);
      const int64_t j_blocks = j0 + (j1 - j0) / kB * kB;
      for (int64_t j = j0; j < j_blocks; j += kB) {
        for (int64_t i = i0; i < i_blocks; i += kB) TransposeBlock<U>::run(b + i * ldb + j, ldb, a + i + j * lda, lda);
        for (int64_t i = i_blocks; i < i1; ++i) {
          for (int64_t jj = j; jj < j + kB; ++jj) b[i * ldb + jj] = a[i + jj * lda];
        }
      }
      for (int64_t j = j_blocks; j < j1; ++j) {
        for (int64_t i = i0; i < i1; ++i) b[i * ldb + j] = a[i + j * lda];
      }
    }
  }
}

// The innermost two dimensions of a coalesced layout form Note [transpose copy]'s
// transpose: destination contiguous along the last, source along the one before.
bool is_transpose(const detail::StridedLayout& layout) {
  const size_t nd = layout.sizes.size();
  if (nd < 2) return false;
  const Shape ds = layout.operand_strides(0);
  const Shape ss = layout.operand_strides(1);
  return ds[nd - 1] == 1 && ss[nd - 2] == 1 && ss[nd - 1] != 1 && layout.sizes[nd - 1] >= 8 &&
         layout.sizes[nd - 2] >= 8;
}

// Copies layout.sizes's outer index range [begin, end) of whole matrices x row tiles
// (Note [transpose copy]); the dimensions before the last two are walked here.
template <typename U>
void copy_transposed(std::byte* dst, const std::byte* src, const detail::StridedLayout& layout) {
  const size_t nd = layout.sizes.size();
  const auto& sizes = layout.sizes;
  const Shape ds = layout.operand_strides(0);
  const Shape ss = layout.operand_strides(1);
  const int64_t rows = sizes[nd - 2], cols = sizes[nd - 1];
  const int64_t ldb = ds[nd - 2], lda = ss[nd - 1];
  int64_t matrices = 1;
  for (size_t d = 0; d + 2 < nd; ++d) matrices *= sizes[d];
  const int64_t tiles = (rows + kTileRows - 1) / kTileRows;
  const int64_t grain = std::max<int64_t>(1, kCopyGrain / (kTileRows * cols));
  U* b = reinterpret_cast<U*>(dst);
  const U* a = reinterpret_cast<const U*>(src);
  parallel_for(0, matrices * tiles, grain, [&](int64_t begin, int64_t end) {
    for (int64_t unit = begin; unit < end;) {
      const int64_t m = unit / tiles, t = unit % tiles;
      const int64_t t_end = std::min(tiles, t + (end - unit));
      int64_t d_off = 0, s_off = 0, rem = m;
      for (size_t d = nd - 2; d-- > 0;) {
        const int64_t i = rem % sizes[d];
        rem /= sizes[d];
        d_off += i * ds[d];
        s_off += i * ss[d];
      }
      transpose_rows<U>(b + d_off, ldb, a + s_off, lda, t * kTileRows,
                        std::min(rows, t_end * kTileRows), cols);
      unit += t_end - t;
    }
  });
}

// Runs [run_begin, run_end) of a coalesced layout (a run is one pass of the innermost
// dimension), same dtype on both sides. Pointers advance like an odometer instead of
// being recomputed per run; runs contiguous on both sides are one memcpy.
template <typename U>
void copy_same_runs(std::byte* dst, const std::byte* src, const detail::StridedLayout& layout,
                    int64_t run_begin, int64_t run_end) {
  const size_t nd = layout.sizes.size();
  const auto& sizes = layout.sizes;
  const Shape ds = layout.operand_strides(0);
  const Shape ss = layout.operand_strides(1);
  const int64_t len = sizes[nd - 1], d_inner = ds[nd - 1], s_inner = ss[nd - 1];
  std::vector<int64_t> idx(nd, 0);
  U* d = reinterpret_cast<U*>(dst);
  const U* s = reinterpret_cast<const U*>(src);
  int64_t rem = run_begin;
  for (size_t k = nd - 1; k-- > 0;) {
    idx[k] = rem % sizes[k];
    rem /= sizes[k];
    d += idx[k] * ds[k];
    s += idx[k] * ss[k];
  }
  for (int64_t r = run_begin; r < run_end; ++r) {
    if (d_inner == 1 && s_inner == 1) {
      std::memcpy(d, s, static_cast<size_t>(len) * sizeof(U));
    } else {
      for (int64_t i = 0; i < len; ++i) d[i * d_inner] = s[i * s_inner];
    }
    for (size_t k = nd - 1; k-- > 0;) {
      d += ds[k];
      s += ss[k];
      if (++idx[k] < sizes[k]) break;
      d -= sizes[k] * ds[k];
      s -= sizes[k] * ss[k];
      idx[k] = 0;
    }
  }
}

// Every same-dtype copy that is not one contiguous block.
template <typename U>
void copy_same_dtype(std::byte* dst, const std::byte* src, const detail::StridedLayout& layout, int64_t n) {
  if (is_transpose(layout)) return copy_transposed<U>(dst, src, layout);
  if (wants_tiling(layout)) {
    const int64_t rows = layout.sizes[0], cols = layout.sizes[1];
    const std::array<int64_t, 2> ds = {layout.strides[0][0], layout.strides[1][0]};
    const std::array<int64_t, 2> ss = {layout.strides[0][1], layout.strides[1][1]};
    const int64_t grain_rows = std::max<int64_t>(kTile, kCopyGrain / cols / kTile * kTile);
    parallel_for(0, rows, grain_rows, [&](int64_t begin, int64_t end) {
      if (std::abs(ss[0]) < std::abs(ss[1])) copy_tiled<U, true>(dst, src, begin, end, cols, ds, ss);
      else copy_tiled<U, false>(dst, src, begin, end, cols, ds, ss);
    });
    return;
  }
  const int64_t len = layout.sizes.back();
  parallel_for(0, n / len, std::max<int64_t>(1, kCopyGrain / len), [&](int64_t begin, int64_t end) {
    copy_same_runs<U>(dst, src, layout, begin, end);
  });
}

void check_copyable(DType d, const char* op) {
  if (is_quantized(d)) throw_unsupported_dtype(op, d);
}

// c10's is_non_overlapping_and_dense: some permutation of the dims (size-1 dims
// ignored) is contiguous, so the elements tile one gap-free block exactly once.
bool non_overlapping_and_dense(const Tensor& t) {
  if (t.is_contiguous()) return true;  // c10 tests contiguity first: empty tensors pass
  const int64_t nd = t.dim();
  if (nd == 1) return t.size(0) < 2 || t.stride(0) == 1;
  std::vector<int64_t> perm(static_cast<size_t>(nd));
  for (int64_t i = 0; i < nd; ++i) perm[static_cast<size_t>(i)] = i;
  std::sort(perm.begin(), perm.end(), [&](int64_t a, int64_t b) {
    if (t.size(a) < 2) return false;
    if (t.size(b) < 2) return true;
    return t.stride(a) < t.stride(b);
  });
  int64_t required = 1;
  for (int64_t d : perm) {
    if (t.size(d) < 2) return true;
    if (t.stride(d) != required) return false;
    required *= t.size(d);
  }
  return true;
}

// Note [copy_ overlap]: torch refuses a copy whose destination writes one memory
// location twice (an expanded destination), or whose source and destination are dense
// blocks that overlap without being the same view (t[1:].copy_(t[:-1])), since the
// result would depend on the loop order. Like torch, layouts too irregular to decide
// (strided, non-dense) are allowed.
void check_copy_overlap(const Tensor& dst, const Tensor& src) {
  bool dst_dense = non_overlapping_and_dense(dst);
  if (!dst_dense) {
    for (int64_t d = 0; d < dst.dim(); ++d) {
      TL_CHECK(!(dst.stride(d) == 0 && dst.size(d) > 1), ValueError,
               "unsupported operation: more than one element of the written-to tensor refers "
               "to a single memory location. Please clone() the tensor before performing the "
               "operation.");
    }
  }
  if (dst.numel() == 0 || src.numel() == 0 || !dst_dense || !non_overlapping_and_dense(src)) return;
  if (dst.storage().get() != src.storage().get()) return;
  const auto* a_begin = static_cast<const std::byte*>(dst.data_ptr());
  const auto* a_end = a_begin + dst.nbytes();
  const auto* b_begin = static_cast<const std::byte*>(src.data_ptr());
  const auto* b_end = b_begin + src.nbytes();
  bool partial = a_begin == b_begin && a_end == b_end ? !(dst.strides() == src.strides())
                                                      : a_begin < b_end && b_begin < a_end;
  TL_CHECK(!partial, ValueError,
           "unsupported operation: some elements of the input tensor and the written-to tensor "
           "refer to a single memory location. Please clone() the tensor before performing the "
           "operation.");
}

// TensorIterator's dimension order for a copy, outermost first: dimensions sorted by
// the destination's strides, the source's breaking ties, a stride-0 dimension never
// moving past another (insertion sort, as TensorIterator::reorder_dimensions). Walking
// in this order writes the destination in memory order and finds the same innermost
// run torch's loops see.
detail::StridedLayout torch_ordered_layout(const Tensor& dst, const Tensor& src) {
  const size_t nd = static_cast<size_t>(dst.dim());
  std::vector<size_t> perm(nd);  // innermost first: n-1, ..., 0
  for (size_t i = 0; i < nd; ++i) perm[i] = nd - 1 - i;
  const std::array<IntList, 2> strides = {dst.strides(), src.strides()};
  auto should_swap = [&](size_t d0, size_t d1) {
    for (const IntList& st : strides) {
      if (st[d0] == 0 || st[d1] == 0) continue;
      if (st[d0] != st[d1]) return st[d0] < st[d1] ? -1 : 1;
      if (dst.sizes()[d0] > dst.sizes()[d1]) return 1;
    }
    return 0;
  };
  for (size_t i = 1; i < nd; ++i) {
    size_t d1 = i;
    for (size_t j = 1; j <= i; ++j) {
      size_t d0 = i - j;
      int c = should_swap(perm[d0], perm[d1]);
      if (c > 0) {
        std::swap(perm[d0], perm[d1]);
        d1 = d0;
      } else if (c < 0) {
        break;
      }
    }
  }
  Shape sizes, dst_strides, src_strides;
  for (size_t k = nd; k-- > 0;) {
    sizes.push_back(dst.sizes()[perm[k]]);
    dst_strides.push_back(strides[0][perm[k]]);
    src_strides.push_back(strides[1][perm[k]]);
  }
  return detail::coalesce(sizes, 2, [&](int k, size_t d) { return k == 0 ? dst_strides[d] : src_strides[d]; });
}

// Note [bfloat16 NaN]: torch converts float32 and float64 to bfloat16 with vectorised
// routines that write NaN as 0xffff, and element by element (c10::convert) as 0x7fc0.
// Only the NaN bits differ, but they are saved to files, so the copy reproduces both.
// The vectorised routine runs when the innermost run (torch_ordered_layout) is
// contiguous in both operands, never for 0-dim tensors. float32 runs take it for every
// element; float64 runs only for whole blocks of 16 from the start of each run, the
// rest going element by element. (Runs longer than torch's 32768-element grain are
// split per thread in torch, so past that the float64 block boundaries depend on its
// thread count; torchlet keeps them per run.)
constexpr int64_t kBFloat16Block = 16;

bool torch_copies_vectorised(const Tensor& dst, const detail::StridedLayout& layout) {
  if (dst.dim() == 0) return false;
  if (dst.numel() == 1) return true;
  return layout.strides.back()[0] == 1 && layout.strides.back()[1] == 1;
}

template <typename From>
void copy_to_bfloat16_run(BFloat16* d, const From* s, int64_t len, int64_t ds, int64_t ss,
                          bool vectorised) {
  int64_t vector_end = 0;
  if (vectorised) {
    vector_end = std::is_same_v<From, float> ? len : len / kBFloat16Block * kBFloat16Block;
  }
  for (int64_t i = 0; i < vector_end; ++i) {
    d[i * ds] = std::isnan(s[i * ss]) ? BFloat16::from_bits(0xffff) : BFloat16(float(s[i * ss]));
  }
  for (int64_t i = vector_end; i < len; ++i) d[i * ds] = BFloat16(float(s[i * ss]));
}

// float32/float64 -> bfloat16 copies, with the NaN bits of Note [bfloat16 NaN]. Runs
// are walked whole (not split at parallel chunk boundaries) so blocks start where torch
// starts them.
template <typename From>
void copy_to_bfloat16(std::byte* dst_base, const std::byte* src_base,
                      const detail::StridedLayout& layout, int64_t n, bool vectorised) {
  const int64_t inner = layout.sizes.back();
  const int64_t runs = n / inner;
  parallel_for(0, runs, std::max<int64_t>(1, kCopyGrain / inner), [&](int64_t begin, int64_t end) {
    detail::for_each_run<2>(layout, begin * inner, end * inner, [&](const auto& off, int64_t len,
                                                                    const auto& step) {
      copy_to_bfloat16_run(reinterpret_cast<BFloat16*>(dst_base) + off[0],
                           reinterpret_cast<const From*>(src_base) + off[1], len, step[0], step[1],
                           vectorised);
    });
  });
}

}  // namespace

Tensor& Tensor::copy_(const Tensor& src) {
  TL_CHECK(defined() && src.defined(), ValueError, "copy_: undefined tensor");
  if (is_same(src)) return *this;
  Shape shape = broadcast_shapes(sizes(), src.sizes());
  TL_CHECK(IntList(shape) == sizes(), ValueError,
           "output with shape {} doesn't match the broadcast shape {}", shape_repr(sizes()),
           shape_repr(shape));
  check_copy_overlap(*this, src);
  Tensor source = src.expand(sizes());
  const int64_t n = numel();
  if (n == 0) return *this;
  const DType dt = dtype(), st = source.dtype();
  if (dt == st && is_quantized(dt)) {
    // Quantized storage bytes are copied verbatim; nothing computes on them.
    TL_CHECK(is_contiguous() && source.is_contiguous(), UnsupportedError,
             "copy_: non-contiguous quantized tensors are not supported");
    std::memmove(data_ptr(), source.data_ptr(), nbytes());
    return *this;
  }
  check_copyable(dt, "copy_");
  check_copyable(st, "copy_");
  if (dt == st && is_contiguous() && source.is_contiguous()) {
    std::memmove(data_ptr(), source.data_ptr(), nbytes());
    return *this;
  }
  const auto layout = torch_ordered_layout(*this, source);
  std::byte* dst_base = static_cast<std::byte*>(data_ptr());
  const std::byte* src_base = static_cast<const std::byte*>(source.data_ptr());
  const int64_t dsize = static_cast<int64_t>(element_size());
  const int64_t ssize = static_cast<int64_t>(source.element_size());
  if (dt == st) {
    dispatch_element_size(dsize, [&]<typename U>() { copy_same_dtype<U>(dst_base, src_base, layout, n); });
    return *this;
  }
  if (dt == DType::BFloat16 && (st == DType::Float || st == DType::Double)) {
    const bool vectorised = torch_copies_vectorised(*this, layout);
    if (st == DType::Float) copy_to_bfloat16<float>(dst_base, src_base, layout, n, vectorised);
    else copy_to_bfloat16<double>(dst_base, src_base, layout, n, vectorised);
    return *this;
  }
  dispatch_all(dt, "copy_", [&]<typename To>() {
    dispatch_all(st, "copy_", [&]<typename From>() {
      parallel_for(0, n, kCopyGrain, [&](int64_t begin, int64_t end) {
        detail::for_each_run<2>(layout, begin, end, [&](const auto& off, int64_t len,
                                                        const auto& inner) {
          copy_run<To, From>(dst_base + off[0] * dsize, src_base + off[1] * ssize, len,
                             inner[0], inner[1]);
        });
      });
    });
  });
  return *this;
}

Tensor& Tensor::fill_(const Scalar& value) {
  check_copyable(dtype(), "fill_");
  if (numel() == 0) return *this;
  const IntList st = strides();
  auto layout = detail::coalesce(sizes(), 1, [&](int, size_t d) { return st[d]; });
  std::byte* base = static_cast<std::byte*>(data_ptr());
  const int64_t esize = static_cast<int64_t>(element_size());
  dispatch_all(dtype(), "fill_", [&]<typename T>() {
    // torch 1.13 range-checks the fill value (Scalar::to), except for complex32 tensors
    // of more than one element, whose fill kernel converts unchecked: 70000 fills inf.
    T v = std::is_same_v<T, ComplexHalf> && numel() != 1 ? value.to_unchecked<T>() : value.to<T>();
    detail::for_each_run<1>(layout, 0, numel(), [&](const auto& off, int64_t len,
                                                    const auto& inner) {
      T* p = reinterpret_cast<T*>(base + off[0] * esize);
      for (int64_t i = 0; i < len; ++i) p[i * inner[0]] = v;
    });
  });
  return *this;
}

Tensor Tensor::contiguous() const {
  if (is_contiguous()) return *this;
  return clone();
}

Tensor Tensor::clone() const {
  Tensor out = empty(sizes(), dtype());
  out.copy_(*this);
  out.impl()->requires_grad_ = requires_grad();
  return out;
}

// c10's infer_dense_strides: contiguous strides laid out in the order of the input's
// strides, so a permuted input keeps its permutation. Dimensions are insertion-sorted
// by stride, smaller size first on ties, and a stride-0 dimension compares as
// ambiguous and stays where it is (TensorIterator's ordering).
static Shape infer_dense_strides(IntList sizes, IntList strides) {
  const size_t nd = sizes.size();
  if (nd < 2) return Shape(nd, 1);
  std::vector<size_t> perm(nd);  // innermost first: n-1, ..., 0
  for (size_t i = 0; i < nd; ++i) perm[i] = nd - 1 - i;
  auto should_swap = [&](size_t d0, size_t d1) {
    if (strides[d0] == 0 || strides[d1] == 0) return 0;
    if (strides[d0] != strides[d1]) return strides[d0] < strides[d1] ? -1 : 1;
    return sizes[d0] > sizes[d1] ? 1 : 0;
  };
  for (size_t i = 1; i < nd; ++i) {
    size_t d1 = i;
    for (size_t j = 1; j <= i; ++j) {
      size_t d0 = i - j;
      int c = should_swap(perm[d0], perm[d1]);
      if (c > 0) {
        std::swap(perm[d0], perm[d1]);
        d1 = d0;
      } else if (c < 0) {
        break;
      }
    }
  }
  Shape out(nd);
  int64_t stride = 1;
  for (size_t idx : perm) {
    out[idx] = stride;
    if (sizes[idx] > 1) stride *= sizes[idx];
  }
  return out;
}

Tensor Tensor::to(DType target, bool copy) const {
  if (target == dtype() && !copy) return *this;
  // torch's _to_copy keeps the input's layout (MemoryFormat::Preserve): a dense input's
  // strides as they are, others made dense in the same dimension order. The strides
  // show in saved files and decide which conversion loop torch runs.
  Shape out_strides = non_overlapping_and_dense(*this)
                          ? strides().vec()
                          : infer_dense_strides(sizes(), strides());
  Tensor out = empty_strided(sizes(), out_strides, target);
  out.copy_(*this);
  // Autograd follows a conversion to a type that can carry gradients.
  out.impl()->requires_grad_ = requires_grad() && (is_floating(target) || is_complex(target));
  return out;
}

Scalar Tensor::item() const {
  TL_CHECK(numel() == 1, ValueError,
           "a Tensor with {} elements cannot be converted to Scalar", numel());
  return dispatch_all(dtype(), "item", [&]<typename T>() -> Scalar {
    return Scalar(*data<T>());
  });
}

Scalar Tensor::at(IntList index) const {
  TL_CHECK(static_cast<int64_t>(index.size()) == dim(), IndexError,
           "at: expected {} indices, got {}", dim(), index.size());
  int64_t offset = 0;
  for (int64_t d = 0; d < dim(); ++d) {
    int64_t i = index[d];
    int64_t n = impl_->sizes_[d];
    TL_CHECK(i >= -n && i < n, IndexError,
             "index {} is out of bounds for dimension {} with size {}", i, d, n);
    if (i < 0) i += n;
    offset += i * impl_->strides_[d];
  }
  const std::byte* p = static_cast<const std::byte*>(data_ptr()) +
                       offset * static_cast<int64_t>(element_size());
  return dispatch_all(dtype(), "at", [&]<typename T>() -> Scalar {
    return Scalar(*reinterpret_cast<const T*>(p));
  });
}

}  // namespace torchlet

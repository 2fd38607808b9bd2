// Copies between tensors of any dtypes and layouts (copy_, contiguous, clone, to),
// fill_, and element access. Conversions use convert<To>(From) (convert.h), which is
// where torch's casting rules live.
#include <algorithm>
#include <cstring>
#include <vector>

#include <torchlet/error.h>
#include <torchlet/tensor.h>

#include "core/parallel.h"
#include "tensor/strided_loop.h"

namespace torchlet {

namespace {

// Elements per parallel chunk: below this, threading costs more than it saves.
constexpr int64_t kCopyGrain = 32768;

template <typename To, typename From>
void copy_run(std::byte* dst, const std::byte* src, int64_t n, int64_t dst_stride,
              int64_t src_stride) {
  To* d = reinterpret_cast<To*>(dst);
  const From* s = reinterpret_cast<const From*>(src);
  if (dst_stride == 1 && src_stride == 1) {
    for (int64_t i = 0; i < n; ++i) d[i] = convert<To>(s[i]);
  } else {
    for (int64_t i = 0; i < n; ++i) d[i * dst_stride] = convert<To>(s[i * src_stride]);
  }
}

void check_copyable(DType d, const char* op) {
  if (is_quantized(d)) throw_unsupported_dtype(op, d);
}

// c10's is_non_overlapping_and_dense: some permutation of the dims (size-1 dims
// ignored) is contiguous, so the elements tile one gap-free block exactly once.
bool non_overlapping_and_dense(const Tensor& t) {
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
  auto layout = detail::coalesce<2>(sizes(), {strides(), source.strides()});
  std::byte* dst_base = static_cast<std::byte*>(data_ptr());
  const std::byte* src_base = static_cast<const std::byte*>(source.data_ptr());
  const int64_t dsize = static_cast<int64_t>(element_size());
  const int64_t ssize = static_cast<int64_t>(source.element_size());
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
  auto layout = detail::coalesce<1>(sizes(), {strides()});
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

Tensor Tensor::to(DType target, bool copy) const {
  if (target == dtype() && !copy) return *this;
  Tensor out = empty(sizes(), target);
  out.copy_(*this);
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

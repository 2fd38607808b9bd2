// Tensor: a strided view (sizes, strides, storage offset, dtype) of a Storage, with
// torch's view semantics: every view op shares the storage, so aliasing and in-place
// writes behave as in torch. Numeric kernels live in src/tensor/kernels/; this header
// is the tensor type, its views, copies and dtype conversion, factories and printing.
#pragma once

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <ostream>
#include <span>
#include <string>
#include <vector>

#include <torchlet/dtype.h>
#include <torchlet/intrusive_ptr.h>
#include <torchlet/scalar.h>
#include <torchlet/storage.h>

namespace torchlet {

using Shape = std::vector<int64_t>;

// A borrowed list of int64 (sizes, strides, dims), like c10::IntArrayRef: accepts a
// braced list, a vector or a span; valid only for the duration of the call.
class IntList {
 public:
  IntList() = default;
  // The braced list lives until the end of the full expression, which covers the call.
  IntList(std::initializer_list<int64_t> l) {  // NOLINT
    data_ = l.begin();
    size_ = l.size();
  }
  IntList(const Shape& v) : data_(v.data()), size_(v.size()) {}                      // NOLINT
  IntList(std::span<const int64_t> s) : data_(s.data()), size_(s.size()) {}          // NOLINT
  IntList(const int64_t* data, size_t size) : data_(data), size_(size) {}
  const int64_t* begin() const { return data_; }
  const int64_t* end() const { return data_ + size_; }
  const int64_t* data() const { return data_; }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  int64_t operator[](size_t i) const { return data_[i]; }
  int64_t back() const { return data_[size_ - 1]; }
  Shape vec() const { return Shape(begin(), end()); }
  bool operator==(const IntList& o) const {
    return size_ == o.size_ && std::equal(begin(), end(), o.begin());
  }

 private:
  const int64_t* data_ = nullptr;
  size_t size_ = 0;
};

class TensorImpl : public RefCounted {
 public:
  TensorImpl(Storage storage, int64_t offset, Shape sizes, Shape strides, DType dtype)
      : storage_(std::move(storage)), offset_(offset), sizes_(std::move(sizes)),
        strides_(std::move(strides)), dtype_(dtype) {}
  Storage storage_;
  int64_t offset_;  // in elements, as torch counts it
  Shape sizes_;
  Shape strides_;   // in elements
  DType dtype_;
  bool requires_grad_ = false;
  bool is_parameter_ = false;  // built by torch.nn.Parameter (kept so saves round-trip)
};

class Tensor {
 public:
  Tensor() = default;
  explicit Tensor(intrusive_ptr<TensorImpl> impl) : impl_(std::move(impl)) {}

  bool defined() const { return static_cast<bool>(impl_); }
  TensorImpl* impl() const { return impl_.get(); }
  // Same TensorImpl (Python's `is`).
  bool is_same(const Tensor& o) const { return impl_ == o.impl_; }

  // --- metadata -------------------------------------------------------------
  DType dtype() const { return impl_->dtype_; }
  IntList sizes() const { return impl_->sizes_; }
  IntList strides() const { return impl_->strides_; }
  int64_t dim() const { return static_cast<int64_t>(impl_->sizes_.size()); }
  int64_t size(int64_t d) const;    // negative d counts from the end
  int64_t stride(int64_t d) const;
  int64_t numel() const;
  size_t element_size() const { return torchlet::element_size(dtype()); }
  size_t nbytes() const { return static_cast<size_t>(numel()) * element_size(); }
  int64_t storage_offset() const { return impl_->offset_; }
  const Storage& storage() const { return impl_->storage_; }
  bool shares_storage(const Tensor& o) const { return storage().get() == o.storage().get(); }
  bool requires_grad() const { return impl_->requires_grad_; }
  Tensor& set_requires_grad(bool r) {
    impl_->requires_grad_ = r;
    return *this;
  }
  bool is_contiguous() const;

  // Pointer to element [0,...,0] (storage data + offset).
  void* data_ptr() const;
  template <typename T>
  T* data() const {
    return static_cast<T*>(data_ptr());
  }

  // --- views (share storage) ------------------------------------------------
  Tensor as_strided(IntList sizes, IntList strides, std::optional<int64_t> offset = {}) const;
  Tensor view(IntList sizes) const;  // -1 infers one size; throws if strides forbid
  Tensor reshape(IntList sizes) const;  // view when possible, else a contiguous copy
  Tensor permute(IntList dims) const;
  // torch.movedim: dims `source` moved to positions `destination`, the others kept in order.
  Tensor movedim(IntList source, IntList destination) const;
  Tensor transpose(int64_t d0, int64_t d1) const;
  Tensor t() const;  // 0-2 dims only
  Tensor select(int64_t dim, int64_t index) const;
  Tensor slice(int64_t dim, std::optional<int64_t> start = {}, std::optional<int64_t> end = {},
               int64_t step = 1) const;
  Tensor narrow(int64_t dim, int64_t start, int64_t length) const;
  // torch.diagonal: the `offset` diagonal of the matrices spanned by dim1 and dim2, as a
  // last dimension (offset > 0 above the main diagonal).
  Tensor diagonal(int64_t offset = 0, int64_t dim1 = 0, int64_t dim2 = 1) const;
  Tensor expand(IntList sizes) const;  // -1 keeps a size
  Tensor squeeze() const;
  Tensor squeeze(int64_t dim) const;
  Tensor unsqueeze(int64_t dim) const;
  Tensor flatten(int64_t start_dim = 0, int64_t end_dim = -1) const;
  Tensor alias() const;  // a new TensorImpl over the same view

  // --- copies ---------------------------------------------------------------
  Tensor contiguous() const;  // self when already contiguous
  Tensor clone() const;       // contiguous copy
  // self when the dtype matches and copy is false; otherwise a copy that keeps self's
  // layout as torch's preserve_format does (dense strides kept, others made dense in
  // the same dimension order), so it need not be contiguous. requires_grad carries
  // over to floating and complex results.
  Tensor to(DType dtype, bool copy = false) const;
  // Copies src (broadcast to this shape, any dtype) into this view; returns *this.
  // Like torch, refuses (ValueError) a destination that aliases itself (expanded) and
  // dense operands that partly overlap.
  Tensor& copy_(const Tensor& src);
  // Throws ValueError when the value does not fit the dtype (see Scalar::to).
  Tensor& fill_(const Scalar& value);

  // --- element access (tests, printing, TorchScript's item()) ----------------
  Scalar item() const;  // exactly one element
  Scalar at(IntList index) const;
  template <typename T>
  std::vector<T> to_vector() const;  // row-major, converting with convert<T>

  std::string repr() const;  // torch's repr: tensor([1., 2.], dtype=torch.float64)

 private:
  intrusive_ptr<TensorImpl> impl_;
};

std::ostream& operator<<(std::ostream& os, const Tensor& t);

// --- factories ----------------------------------------------------------------
Tensor empty(IntList sizes, DType dtype = kDefaultFloatDType);
Tensor empty_strided(IntList sizes, IntList strides, DType dtype = kDefaultFloatDType);
Tensor zeros(IntList sizes, DType dtype = kDefaultFloatDType);
Tensor ones(IntList sizes, DType dtype = kDefaultFloatDType);
// dtype defaults to the scalar's own (torch.full infers it from the fill value).
Tensor full(IntList sizes, const Scalar& value, std::optional<DType> dtype = {});
// dtype defaults to int64 when all of start/end/step are integers, else float32.
Tensor arange(const Scalar& end, std::optional<DType> dtype = {});
Tensor arange(const Scalar& start, const Scalar& end, const Scalar& step = 1,
              std::optional<DType> dtype = {});
Tensor linspace(const Scalar& start, const Scalar& end, int64_t steps,
                std::optional<DType> dtype = {});
// A tensor over memory the caller owns; nothing is copied or freed.
Tensor from_blob(void* data, IntList sizes, DType dtype);
Tensor from_blob(void* data, IntList sizes, IntList strides, DType dtype);
// A contiguous tensor holding a copy of `values` with shape `sizes` (empty: 1-d).
template <typename T>
Tensor tensor(std::span<const T> values, Shape sizes = {}) {
  Shape s = !sizes.empty() ? std::move(sizes) : Shape{static_cast<int64_t>(values.size())};
  Tensor t = empty(s, dtype_of<T>);
  T* out = t.data<T>();
  for (size_t i = 0; i < values.size() && i < static_cast<size_t>(t.numel()); ++i) out[i] = values[i];
  return t;
}
template <typename T>
Tensor tensor(std::initializer_list<T> values, Shape sizes = {}) {
  return tensor<T>(std::span<const T>(values.begin(), values.size()), std::move(sizes));
}
// A 0-dim tensor; like torch.scalar_tensor, dtype defaults to float32 whatever the
// value's kind (torch.tensor(3) would be int64). Values that do not fit throw.
Tensor scalar_tensor(const Scalar& value, std::optional<DType> dtype = {});

// Contiguous strides for `sizes` (torch's default row-major strides).
Shape contiguous_strides(IntList sizes);

// Normalises a possibly negative dim against `ndim`; IndexError names `op`.
int64_t wrap_dim(int64_t dim, int64_t ndim, const char* op);

// --- broadcasting and type promotion ---------------------------------------------
// Broadcast shape of a and b (numpy rules); ValueError naming both shapes otherwise.
Shape broadcast_shapes(IntList a, IntList b);
// torch.promote_types: the lattice over dtypes, independent of values.
DType promote_types(DType a, DType b);

// torch.result_type over a mix of tensors and scalars: dimensioned tensors decide
// first, then zero-dim tensors, then Python scalars, each only raising the category
// (bool < integer < floating < complex) beyond what the higher priority chose.
class ResultTypeState {
 public:
  void add(const Tensor& t);
  void add(const Scalar& s);
  DType result() const;

 private:
  std::optional<DType> dim_result_, zero_dim_result_, wrapped_result_;
};
DType result_type(const Tensor& a, const Tensor& b);
DType result_type(const Tensor& a, const Scalar& b);

// Shape as torch prints it: [2, 3]
std::string shape_repr(IntList sizes);

}  // namespace torchlet

#include <torchlet/convert.h>

template <typename T>
std::vector<T> torchlet::Tensor::to_vector() const {
  Tensor c = to(dtype_of<T>).contiguous();
  const T* p = c.data<T>();
  return std::vector<T>(p, p + c.numel());
}

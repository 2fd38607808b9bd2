// Tensor metadata and view operations: everything here shares storage and moves no
// element. Rules (errors, -1 inference, stride computation for view) follow torch.
#include <torchlet/tensor.h>

#include <algorithm>
#include <numeric>
#include <optional>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <torchlet/error.h>

namespace torchlet {

namespace {

// The product of `sizes`, or nothing when it does not fit in int64.
std::optional<int64_t> checked_product(IntList sizes) {
  int64_t n = 1;
  for (int64_t s : sizes) {
    if (__builtin_mul_overflow(n, s, &n)) return std::nullopt;
  }
  return n;
}

// Checks that sizes are non-negative and that numel*itemsize fits in 63 bits. Overflow
// messages are torch's words, so a program probing the limits sees the same error.
int64_t checked_numel(IntList sizes, size_t itemsize) {
  for (int64_t s : sizes) {
    TL_CHECK(s >= 0, ValueError, "Trying to create tensor with negative dimension {}: {}", s, shape_repr(sizes));
  }
  const std::optional<int64_t> n = checked_product(sizes);
  int64_t bytes;
  TL_CHECK(n && !__builtin_mul_overflow(*n, static_cast<int64_t>(itemsize), &bytes), LimitError,
           "Storage size calculation overflowed with sizes={}", shape_repr(sizes));
  return *n;
}

// Bytes of storage a (sizes, strides, offset) view needs: up to and including its furthest
// element, 0 when it has none. Overflow is an error, not a wrapped extent that would pass
// a bounds check.
int64_t storage_bytes_needed(IntList sizes, IntList strides, int64_t offset, size_t itemsize,
                             const char* op) {
  bool empty = false;  // still check every size: [0, -1] is an error, not an empty view
  for (int64_t s : sizes) {
    TL_CHECK(s >= 0, ValueError, "Trying to create tensor with negative dimension {}: {}", s,
             shape_repr(sizes));
    empty = empty || s == 0;
  }
  if (empty) return 0;
  int64_t last = offset;
  for (size_t i = 0; i < sizes.size(); ++i) {
    TL_CHECK(strides[i] >= 0, ValueError,
             "{}: Negative strides are not supported at the moment, got strides: {}", op,
             shape_repr(strides));
    int64_t span;
    TL_CHECK(!__builtin_mul_overflow(sizes[i] - 1, strides[i], &span) &&
                 !__builtin_add_overflow(last, span, &last),
             LimitError, "Storage size calculation overflowed with sizes={} and strides={}",
             shape_repr(sizes), shape_repr(strides));
  }
  int64_t bytes;
  TL_CHECK(!__builtin_mul_overflow(last + 1, static_cast<int64_t>(itemsize), &bytes), LimitError,
           "Storage size calculation overflowed with sizes={} and strides={}", shape_repr(sizes),
           shape_repr(strides));
  return bytes;
}

// Every view goes through here, so every tensor's numel() fits in int64 (expand and
// friends take sizes from the caller; torch refuses the same shapes).
Tensor make_view(const Tensor& base, Shape sizes, Shape strides, int64_t offset) {
  TL_CHECK(checked_product(sizes).has_value(), LimitError, "numel: integer multiplication overflow");
  auto impl = make_intrusive<TensorImpl>(base.storage(), offset, std::move(sizes),
                                         std::move(strides), base.dtype());
  impl->requires_grad_ = base.requires_grad();
  return Tensor(std::move(impl));
}

// Infers a single -1 in `shape` so that the product equals numel (torch's infer_size).
Shape infer_size(IntList shape, int64_t numel) {
  Shape out(shape.begin(), shape.end());
  std::optional<size_t> infer;
  int64_t product = 1;
  bool overflow = false;  // a product past int64 can never equal numel, unless a size is 0
  bool has_zero = false;
  for (size_t i = 0; i < out.size(); ++i) {
    if (out[i] == -1) {
      TL_CHECK(!infer, ValueError, "only one dimension can be inferred");
      infer = i;
    } else {
      TL_CHECK(out[i] >= 0, ValueError, "invalid shape dimension {}", out[i]);
      has_zero |= out[i] == 0;
      overflow |= __builtin_mul_overflow(product, out[i], &product);
    }
  }
  if (has_zero) product = 0;
  TL_CHECK(!overflow || has_zero, ValueError, "shape '{}' is invalid for input of size {}",
           shape_repr(shape), numel);
  if (infer) {
    TL_CHECK(product != 0 && numel % product == 0, ValueError,
             "shape '{}' is invalid for input of size {}", shape_repr(shape), numel);
    out[*infer] = numel / product;
  } else {
    TL_CHECK(product == numel, ValueError, "shape '{}' is invalid for input of size {}",
             shape_repr(shape), numel);
  }
  return out;
}

// torch's computeStride: strides for viewing (old sizes/strides) as new sizes without
// copying, or nullopt when the memory layout does not allow it.
std::optional<Shape> compute_view_strides(IntList old_sizes, IntList old_strides,
                                          IntList new_sizes) {
  Shape new_strides(new_sizes.size());
  if (old_sizes.empty()) {
    std::fill(new_strides.begin(), new_strides.end(), 1);
    return new_strides;
  }
  int64_t numel = 1;
  for (int64_t s : old_sizes) numel *= s;
  if (numel == 0 && std::equal(old_sizes.begin(), old_sizes.end(), new_sizes.begin(),
                               new_sizes.end())) {
    return Shape(old_strides.begin(), old_strides.end());
  }
  if (numel == 0) return contiguous_strides(new_sizes);

  int64_t view_d = static_cast<int64_t>(new_sizes.size()) - 1;
  int64_t chunk_base_stride = old_strides.back();
  int64_t tensor_numel = 1;
  int64_t view_numel = 1;
  for (int64_t tensor_d = static_cast<int64_t>(old_sizes.size()) - 1; tensor_d >= 0; tensor_d--) {
    tensor_numel *= old_sizes[tensor_d];
    // Size-1 dims may carry any stride, so these products can leave int64: an overflowing
    // chunk span equals no real stride, and an overflowing view stride means "copy instead".
    int64_t chunk_span;
    bool span_overflows = __builtin_mul_overflow(tensor_numel, chunk_base_stride, &chunk_span);
    if (tensor_d == 0 ||
        (old_sizes[tensor_d - 1] != 1 &&
         (span_overflows || old_strides[tensor_d - 1] != chunk_span))) {
      while (view_d >= 0 && (view_numel < tensor_numel || new_sizes[view_d] == 1)) {
        if (__builtin_mul_overflow(view_numel, chunk_base_stride, &new_strides[view_d])) {
          return std::nullopt;
        }
        view_numel *= new_sizes[view_d];
        view_d--;
      }
      if (view_numel != tensor_numel) return std::nullopt;
      if (tensor_d > 0) {
        chunk_base_stride = old_strides[tensor_d - 1];
        tensor_numel = 1;
        view_numel = 1;
      }
    }
  }
  if (view_d != -1) return std::nullopt;
  return new_strides;
}

}  // namespace

std::string shape_repr(IntList sizes) { return fmt::format("[{}]", fmt::join(sizes, ", ")); }

Shape contiguous_strides(IntList sizes) {
  Shape strides(sizes.size());
  // A tensor with no elements may have sizes whose product overflows (0 x 2^40 x 2^40 x
  // 2^40): the strides wrap modulo 2^64, as torch's do ((0, 0, 2^40, 1) there), without
  // signed overflow.
  uint64_t s = 1;
  for (size_t i = sizes.size(); i-- > 0;) {
    strides[i] = static_cast<int64_t>(s);
    s *= static_cast<uint64_t>(std::max<int64_t>(sizes[i], 1));
  }
  return strides;
}

int64_t wrap_dim(int64_t dim, int64_t ndim, const char* op) {
  int64_t n = std::max<int64_t>(ndim, 1);  // scalars accept dim 0 and -1, as torch does
  TL_CHECK(dim >= -n && dim < n, IndexError,
           "{}: dimension out of range (expected to be in range of [{}, {}], but got {})", op,
           -n, n - 1, dim);
  return dim < 0 ? dim + n : dim;
}

// (wrap_dim lets a 0-dim tensor's reductions name dim 0 or -1; its sizes have no entry.)
int64_t Tensor::size(int64_t d) const {
  TL_CHECK(dim() > 0, IndexError, "Dimension specified as {} but tensor has no dimensions", d);
  return impl_->sizes_[wrap_dim(d, dim(), "size")];
}
int64_t Tensor::stride(int64_t d) const {
  TL_CHECK(dim() > 0, IndexError, "Dimension specified as {} but tensor has no dimensions", d);
  return impl_->strides_[wrap_dim(d, dim(), "stride")];
}

int64_t Tensor::numel() const {
  int64_t n = 1;
  for (int64_t s : impl_->sizes_) n *= s;
  return n;
}

bool Tensor::is_contiguous() const {
  // As c10's compute_contiguous: an empty tensor is contiguous whatever its strides.
  if (numel() == 0) return true;
  int64_t expected = 1;
  for (int64_t i = dim() - 1; i >= 0; --i) {
    int64_t s = impl_->sizes_[i];
    if (s == 0) return true;
    if (s != 1 && impl_->strides_[i] != expected) return false;
    expected *= s;
  }
  return true;
}

void* Tensor::data_ptr() const {
  return storage()->data() + storage_offset() * static_cast<int64_t>(element_size());
}

Tensor Tensor::as_strided(IntList sizes, IntList strides, std::optional<int64_t> offset) const {
  TL_CHECK(sizes.size() == strides.size(), ValueError,
           "as_strided: mismatch in length of strides and shape ({} vs {})", strides.size(),
           sizes.size());
  int64_t off = offset.value_or(storage_offset());
  TL_CHECK(off >= 0, ValueError, "as_strided: negative storage offset {}", off);
  // The furthest element must lie inside the storage (torch checks the same).
  int64_t need = storage_bytes_needed(sizes, strides, off, element_size(), "as_strided");
  TL_CHECK(static_cast<uint64_t>(need) <= storage()->nbytes(), ValueError,
           "setStorage: sizes {}, strides {}, storage offset {}, and itemsize {} requiring a "
           "storage size of {} are out of bounds for storage of size {}",
           shape_repr(sizes), shape_repr(strides), off, element_size(), need,
           storage()->nbytes());
  return make_view(*this, Shape(sizes.begin(), sizes.end()), Shape(strides.begin(), strides.end()),
                   off);
}

Tensor Tensor::view(IntList sizes) const {
  Shape new_sizes = infer_size(sizes, numel());
  auto strides = compute_view_strides(this->sizes(), this->strides(), new_sizes);
  TL_CHECK(strides.has_value(), ValueError,
           "view size is not compatible with input tensor's size and stride (at least one "
           "dimension spans across two contiguous subspaces). Use .reshape(...) instead.");
  return make_view(*this, std::move(new_sizes), std::move(*strides), storage_offset());
}

Tensor Tensor::reshape(IntList sizes) const {
  Shape new_sizes = infer_size(sizes, numel());
  if (auto strides = compute_view_strides(this->sizes(), this->strides(), new_sizes)) {
    return make_view(*this, std::move(new_sizes), std::move(*strides), storage_offset());
  }
  return clone().view(new_sizes);
}

Tensor Tensor::permute(IntList dims) const {
  TL_CHECK(static_cast<int64_t>(dims.size()) == dim(), ValueError,
           "permute(sparse_coo): number of dimensions in the tensor input does not match the "
           "length of the desired ordering of dimensions i.e. input.dim() = {} is not equal to "
           "len(dims) = {}",
           dim(), dims.size());
  Shape sizes(dims.size()), strides(dims.size());
  std::vector<bool> seen(dims.size(), false);
  for (size_t i = 0; i < dims.size(); ++i) {
    int64_t d = wrap_dim(dims[i], dim(), "permute");
    TL_CHECK(!seen[d], ValueError, "permute(): duplicate dims are not allowed.");
    seen[d] = true;
    sizes[i] = impl_->sizes_[d];
    strides[i] = impl_->strides_[d];
  }
  return make_view(*this, std::move(sizes), std::move(strides), storage_offset());
}

Tensor Tensor::movedim(IntList source, IntList destination) const {
  TL_CHECK(source.size() == destination.size(), ValueError,
           "movedim: Invalid source or destination dims: source ({} dims) should contain the same number of dims "
           "as destination ({} dims)", shape_repr(source), shape_repr(destination));
  // torch wraps every source dim, then every destination dim, then looks for repeats.
  auto wrapped = [&](IntList dims, std::string_view which) {
    Shape w;
    for (int64_t d : dims) w.push_back(wrap_dim(d, dim(), "movedim"));
    for (size_t i = 0; i < w.size(); ++i)
      TL_CHECK(std::find(w.begin() + static_cast<std::ptrdiff_t>(i) + 1, w.end(), w[i]) == w.end(), ValueError,
               "movedim: repeated dim in `{}` ({})", which, shape_repr(dims));
    return w;
  };
  const Shape from = wrapped(source, "source"), to = wrapped(destination, "destination");
  if (dim() == 0) return alias();
  Shape order(static_cast<size_t>(dim()), -1);
  std::vector<bool> moved(static_cast<size_t>(dim()), false);
  for (size_t i = 0; i < from.size(); ++i) {
    order[static_cast<size_t>(to[i])] = from[i];
    moved[static_cast<size_t>(from[i])] = true;
  }
  int64_t next = 0;
  for (int64_t& o : order) {
    if (o != -1) continue;
    while (moved[static_cast<size_t>(next)]) ++next;
    o = next++;
  }
  return permute(order);
}

Tensor Tensor::transpose(int64_t d0, int64_t d1) const {
  if (dim() == 0) {
    wrap_dim(d0, 0, "transpose");
    wrap_dim(d1, 0, "transpose");
    return alias();
  }
  d0 = wrap_dim(d0, dim(), "transpose");
  d1 = wrap_dim(d1, dim(), "transpose");
  Shape sizes = impl_->sizes_, strides = impl_->strides_;
  std::swap(sizes[d0], sizes[d1]);
  std::swap(strides[d0], strides[d1]);
  return make_view(*this, std::move(sizes), std::move(strides), storage_offset());
}

Tensor Tensor::t() const {
  TL_CHECK(dim() <= 2, ValueError, "t() expects a tensor with <= 2 dimensions, but self is {}D",
           dim());
  return dim() < 2 ? alias() : transpose(0, 1);
}

Tensor Tensor::select(int64_t d, int64_t index) const {
  TL_CHECK(dim() > 0, IndexError, "select() cannot be applied to a 0-dim tensor.");
  d = wrap_dim(d, dim(), "select");
  int64_t n = impl_->sizes_[d];
  TL_CHECK(index >= -n && index < n, IndexError,
           "select(): index {} out of range for tensor of size {} at dimension {}", index,
           shape_repr(sizes()), d);
  if (index < 0) index += n;
  Shape sizes = impl_->sizes_, strides = impl_->strides_;
  int64_t offset = storage_offset() + index * strides[d];
  sizes.erase(sizes.begin() + d);
  strides.erase(strides.begin() + d);
  return make_view(*this, std::move(sizes), std::move(strides), offset);
}

Tensor Tensor::slice(int64_t d, std::optional<int64_t> start_opt, std::optional<int64_t> end_opt,
                     int64_t step) const {
  TL_CHECK(dim() > 0, IndexError, "slice() cannot be applied to a 0-dim tensor.");
  TL_CHECK(step > 0, ValueError, "slice step must be positive");
  d = wrap_dim(d, dim(), "slice");
  int64_t n = impl_->sizes_[d];
  // Python slice clamping, as torch applies it.
  int64_t start = start_opt.value_or(0);
  int64_t end = end_opt.value_or(n);
  if (start < 0) start += n;
  if (end < 0) end += n;
  start = std::clamp<int64_t>(start, 0, n);
  end = std::clamp<int64_t>(end, start, n);
  Shape sizes = impl_->sizes_, strides = impl_->strides_;
  int64_t offset = storage_offset() + start * strides[d];
  sizes[d] = (end - start + step - 1) / step;
  strides[d] *= step;
  return make_view(*this, std::move(sizes), std::move(strides), offset);
}

Tensor Tensor::narrow(int64_t d, int64_t start, int64_t length) const {
  TL_CHECK(dim() > 0, IndexError, "narrow() cannot be applied to a 0-dim tensor.");
  d = wrap_dim(d, dim(), "narrow");
  int64_t n = impl_->sizes_[d];
  TL_CHECK(start >= -n && start <= n, IndexError,
           "start out of range (expected to be in range of [{}, {}], but got {})", -n, n, start);
  if (start < 0) start += n;
  TL_CHECK(length >= 0 && start <= n - length, IndexError,
           "start ({}) + length ({}) exceeds dimension size ({}).", start, length, n);
  return slice(d, start, start + length, 1);
}

Tensor Tensor::diagonal(int64_t offset, int64_t dim1, int64_t dim2) const {
  const int64_t d1 = wrap_dim(dim1, dim(), "diagonal"), d2 = wrap_dim(dim2, dim(), "diagonal");
  TL_CHECK(d1 != d2, ValueError, "diagonal dimensions cannot be identical {}, {}", dim1, dim2);
  const int64_t n1 = impl_->sizes_[d1], n2 = impl_->sizes_[d2];
  const int64_t length = offset >= 0 ? std::max<int64_t>(std::min(n1, n2 - offset), 0)
                                     : std::max<int64_t>(std::min(n1 + offset, n2), 0);
  int64_t start = storage_offset();
  // An empty diagonal keeps the base offset: an offset past the matrix must not point
  // outside the storage.
  if (length > 0) start += offset >= 0 ? offset * impl_->strides_[d2] : -offset * impl_->strides_[d1];
  Shape sizes, strides;
  for (int64_t i = 0; i < dim(); ++i) {
    if (i == d1 || i == d2) continue;
    sizes.push_back(impl_->sizes_[i]);
    strides.push_back(impl_->strides_[i]);
  }
  sizes.push_back(length);
  strides.push_back(impl_->strides_[d1] + impl_->strides_[d2]);
  return make_view(*this, std::move(sizes), std::move(strides), start);
}

Tensor Tensor::expand(IntList sizes) const {
  TL_CHECK(static_cast<int64_t>(sizes.size()) >= dim(), ValueError,
           "expand: the number of sizes provided ({}) must be greater or equal to the number "
           "of dimensions in the tensor ({})",
           sizes.size(), dim());
  size_t nd = sizes.size();
  Shape out_sizes(nd), out_strides(nd);
  int64_t offset_dims = static_cast<int64_t>(nd) - dim();
  for (int64_t i = static_cast<int64_t>(nd) - 1; i >= 0; --i) {
    int64_t j = i - offset_dims;
    int64_t target = sizes[i];
    if (j < 0) {
      TL_CHECK(target >= 0, ValueError,
               "expand: -1 is not allowed in a leading, non-existing dimension {}", i);
      out_sizes[i] = target;
      out_strides[i] = 0;
      continue;
    }
    int64_t cur = impl_->sizes_[j];
    if (target == -1) target = cur;
    if (cur == target) {
      out_sizes[i] = cur;
      out_strides[i] = impl_->strides_[j];
    } else {
      TL_CHECK(cur == 1, ValueError,
               "The expanded size of the tensor ({}) must match the existing size ({}) at "
               "non-singleton dimension {}.  Target sizes: {}.  Tensor sizes: {}",
               target, cur, i, shape_repr(sizes), shape_repr(this->sizes()));
      out_sizes[i] = target;
      out_strides[i] = 0;
    }
  }
  return make_view(*this, std::move(out_sizes), std::move(out_strides), storage_offset());
}

Tensor Tensor::squeeze() const {
  Shape sizes, strides;
  for (int64_t i = 0; i < dim(); ++i) {
    if (impl_->sizes_[i] != 1) {
      sizes.push_back(impl_->sizes_[i]);
      strides.push_back(impl_->strides_[i]);
    }
  }
  return make_view(*this, std::move(sizes), std::move(strides), storage_offset());
}

Tensor Tensor::squeeze(int64_t d) const {
  if (dim() == 0) {
    wrap_dim(d, 0, "squeeze");
    return alias();
  }
  d = wrap_dim(d, dim(), "squeeze");
  if (impl_->sizes_[d] != 1) return alias();
  Shape sizes = impl_->sizes_, strides = impl_->strides_;
  sizes.erase(sizes.begin() + d);
  strides.erase(strides.begin() + d);
  return make_view(*this, std::move(sizes), std::move(strides), storage_offset());
}

Tensor Tensor::unsqueeze(int64_t d) const {
  d = wrap_dim(d, dim() + 1, "unsqueeze");
  Shape sizes = impl_->sizes_, strides = impl_->strides_;
  int64_t new_stride = d >= dim() ? 1 : sizes[d] * strides[d];
  sizes.insert(sizes.begin() + d, 1);
  strides.insert(strides.begin() + d, new_stride);
  return make_view(*this, std::move(sizes), std::move(strides), storage_offset());
}

Tensor Tensor::flatten(int64_t start_dim, int64_t end_dim) const {
  if (dim() == 0) return reshape(std::vector<int64_t>{1});
  start_dim = wrap_dim(start_dim, dim(), "flatten");
  end_dim = wrap_dim(end_dim, dim(), "flatten");
  TL_CHECK(start_dim <= end_dim, ValueError,
           "flatten() has invalid args: start_dim cannot come after end_dim");
  if (start_dim == end_dim) return alias();
  Shape sizes(impl_->sizes_.begin(), impl_->sizes_.begin() + start_dim);
  int64_t prod = 1;
  for (int64_t i = start_dim; i <= end_dim; ++i) prod *= impl_->sizes_[i];
  sizes.push_back(prod);
  sizes.insert(sizes.end(), impl_->sizes_.begin() + end_dim + 1, impl_->sizes_.end());
  return reshape(sizes);
}

Tensor Tensor::alias() const {
  return make_view(*this, impl_->sizes_, impl_->strides_, storage_offset());
}

Tensor empty(IntList sizes, DType dtype) {
  int64_t n = checked_numel(sizes, element_size(dtype));
  Storage s = make_storage(static_cast<size_t>(n) * element_size(dtype));
  return Tensor(make_intrusive<TensorImpl>(std::move(s), 0, Shape(sizes.begin(), sizes.end()),
                                           contiguous_strides(sizes), dtype));
}

Tensor empty_strided(IntList sizes, IntList strides, DType dtype) {
  TL_CHECK(sizes.size() == strides.size(), ValueError,
           "empty_strided: mismatch in length of strides and shape");
  checked_numel(sizes, element_size(dtype));
  auto nbytes = static_cast<size_t>(
      storage_bytes_needed(sizes, strides, 0, element_size(dtype), "empty_strided"));
  return Tensor(make_intrusive<TensorImpl>(make_storage(nbytes), 0,
                                           Shape(sizes.begin(), sizes.end()),
                                           Shape(strides.begin(), strides.end()), dtype));
}

Tensor from_blob(void* data, IntList sizes, DType dtype) {
  return from_blob(data, sizes, contiguous_strides(sizes), dtype);
}

Tensor from_blob(void* data, IntList sizes, IntList strides, DType dtype) {
  TL_CHECK(sizes.size() == strides.size(), ValueError,
           "from_blob: mismatch in length of strides and shape");
  checked_numel(sizes, element_size(dtype));
  auto nbytes = static_cast<size_t>(
      storage_bytes_needed(sizes, strides, 0, element_size(dtype), "from_blob"));
  auto storage = make_intrusive<StorageImpl>(static_cast<std::byte*>(data), nbytes, nullptr);
  return Tensor(make_intrusive<TensorImpl>(std::move(storage), 0,
                                           Shape(sizes.begin(), sizes.end()),
                                           Shape(strides.begin(), strides.end()), dtype));
}

}  // namespace torchlet

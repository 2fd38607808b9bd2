// Shape operators that copy or select data: cat, stack, split/chunk (views),
// index_select, gather, scatter, masked_fill, flip, roll, tril/triu, repeat, nonzero,
// the views and copies torch composes (unflatten, Tensor.unfold, diag/diagflat/
// diag_embed/trace, fliplr/flipud/rot90, tile, repeat_interleave), and sorting (sort,
// argsort, topk). Pure data movement is dtype-agnostic (elements
// moved by size); only comparisons dispatch on dtype. View-only ops live on Tensor.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <numeric>
#include <type_traits>

#include <torchlet/error.h>
#include <torchlet/ops.h>

#include "tensor/kernels/loop.h"

namespace torchlet {

Tensor cat(const std::vector<Tensor>& tensors, int64_t dim) {
  TL_CHECK(!tensors.empty(), ValueError, "torch.cat(): expected a non-empty list of Tensors");
  // torch skips legacy empty 1-d tensors ([0]) when deciding shapes.
  const Tensor* ref = nullptr;
  for (const Tensor& t : tensors) {
    if (!(t.dim() == 1 && t.size(0) == 0)) {
      ref = &t;
      break;
    }
  }
  ResultTypeState state;
  for (const Tensor& t : tensors) state.add(t);
  DType out_dtype = state.result();
  if (ref == nullptr) return empty({0}, out_dtype);
  TL_CHECK(ref->dim() > 0, ValueError, "zero-dimensional tensor (at position 0) cannot be concatenated");
  int64_t d = wrap_dim(dim, ref->dim(), "cat");
  Shape out_shape = ref->sizes().vec();
  out_shape[static_cast<size_t>(d)] = 0;
  for (size_t i = 0; i < tensors.size(); ++i) {
    const Tensor& t = tensors[i];
    if (t.dim() == 1 && t.size(0) == 0) continue;
    TL_CHECK(t.dim() == ref->dim(), ValueError,
             "Tensors must have same number of dimensions: got {} and {}", ref->dim(), t.dim());
    for (int64_t k = 0; k < t.dim(); ++k) {
      TL_CHECK(k == d || t.size(k) == ref->size(k), ValueError,
               "Sizes of tensors must match except in dimension {}. Expected size {} but got size {} for tensor "
               "number {} in the list.",
               d, ref->size(k), t.size(k), i);
    }
    out_shape[static_cast<size_t>(d)] += t.size(d);
  }
  Tensor out = empty(out_shape, out_dtype);
  // Contiguous inputs of the output's dtype: every input is `outer` blocks of
  // size(d) * inner elements, each landing at its offset in an output row, so a row is
  // a few memcpys (a narrowed copy_ per input walked BERT's q|k|v rows 1.4x slower
  // than torch).
  bool plain = true;
  for (const Tensor& t : tensors) {
    if (t.dim() == 1 && t.size(0) == 0) continue;
    plain = plain && t.is_contiguous() && t.dtype() == out_dtype;
  }
  if (plain && out.numel() > 0) {
    int64_t outer = 1, inner = 1;
    for (int64_t k = 0; k < d; ++k) outer *= out_shape[static_cast<size_t>(k)];
    for (size_t k = static_cast<size_t>(d) + 1; k < out_shape.size(); ++k) inner *= out_shape[k];
    const size_t es = element_size(out_dtype);
    const size_t out_row = static_cast<size_t>(out_shape[static_cast<size_t>(d)] * inner) * es;
    struct Part {
      const char* src;
      size_t bytes, offset;
    };
    std::vector<Part> parts;
    size_t offset = 0;
    for (const Tensor& t : tensors) {
      if ((t.dim() == 1 && t.size(0) == 0) || t.size(d) == 0) continue;
      size_t bytes = static_cast<size_t>(t.size(d) * inner) * es;
      parts.push_back({static_cast<const char*>(t.data_ptr()), bytes, offset});
      offset += bytes;
    }
    char* dst = static_cast<char*>(out.data_ptr());
    const int64_t row_elems = out_shape[static_cast<size_t>(d)] * inner;
    parallel_for(0, outer, std::max<int64_t>(1, kernels::kGrainSize / std::max<int64_t>(row_elems, 1)),
                 [&](int64_t lo, int64_t hi) {
                   for (int64_t o = lo; o < hi; ++o) {
                     for (const Part& part : parts) {
                       std::memcpy(dst + static_cast<size_t>(o) * out_row + part.offset,
                                   part.src + static_cast<size_t>(o) * part.bytes, part.bytes);
                     }
                   }
                 });
    return out;
  }
  int64_t offset = 0;
  for (const Tensor& t : tensors) {
    if (t.dim() == 1 && t.size(0) == 0) continue;
    if (t.size(d) > 0) out.narrow(d, offset, t.size(d)).copy_(t);
    offset += t.size(d);
  }
  return out;
}

Tensor stack(const std::vector<Tensor>& tensors, int64_t dim) {
  TL_CHECK(!tensors.empty(), ValueError, "stack expects a non-empty TensorList");
  int64_t d = wrap_dim(dim, tensors[0].dim() + 1, "stack");
  std::vector<Tensor> parts;
  for (size_t i = 0; i < tensors.size(); ++i) {
    TL_CHECK(tensors[i].sizes() == tensors[0].sizes(), ValueError,
             "stack expects each tensor to be equal size, but got {} at entry 0 and {} at entry {}",
             shape_repr(tensors[0].sizes()), shape_repr(tensors[i].sizes()), i);
    parts.push_back(tensors[i].unsqueeze(d));
  }
  return cat(parts, d);
}

std::vector<Tensor> split(const Tensor& self, int64_t split_size, int64_t dim) {
  TL_CHECK(self.dim() > 0, ValueError, "split expects at least a 1-dimensional tensor");
  TL_CHECK(split_size >= 0, ValueError, "split expects split_size be non-negative, but got split_size={}", split_size);
  int64_t d = wrap_dim(dim, self.dim(), "split");
  int64_t n = self.size(d);
  TL_CHECK(split_size > 0 || n == 0, ValueError,
           "split_size can only be 0 if dimension size is 0, but got dimension size of {}", n);
  std::vector<Tensor> out;
  if (n == 0) return {self};
  for (int64_t start = 0; start < n; start += split_size) out.push_back(self.narrow(d, start, std::min(split_size, n - start)));
  return out;
}

std::vector<Tensor> chunk(const Tensor& self, int64_t chunks, int64_t dim) {
  TL_CHECK(self.dim() > 0, ValueError, "chunk expects at least a 1-dimensional tensor");
  TL_CHECK(chunks > 0, ValueError, "chunk expects `chunks` to be greater than 0, got: {}", chunks);
  int64_t d = wrap_dim(dim, self.dim(), "chunk");
  int64_t n = self.size(d);
  int64_t split_size = (n + chunks - 1) / chunks;
  if (split_size == 0 && n == 0) {
    std::vector<Tensor> out;
    for (int64_t i = 0; i < chunks; ++i) out.push_back(self);
    return out;
  }
  return split(self, split_size, d);
}

namespace {

std::vector<int64_t> index_values(const Tensor& index, const char* op) {
  TL_CHECK(index.dtype() == DType::Long || index.dtype() == DType::Int, TypeError,
           "{}(): Expected dtype int32/int64 for index", op);
  return index.to_vector<int64_t>();
}

// Moves one element of `size` bytes.
inline void move_element(char* dst, const char* src, size_t size) { std::memcpy(dst, src, size); }

// Visits every position of `sizes` (row-major) with its multi-index.
template <typename F>
void for_each_index(IntList sizes, const F& f) {
  int64_t nd = static_cast<int64_t>(sizes.size());
  int64_t total = 1;
  for (int64_t s : sizes) total *= s;
  if (total == 0) return;
  Shape idx(static_cast<size_t>(nd), 0);
  for (int64_t lin = 0; lin < total; ++lin) {
    f(idx);
    for (int64_t d = nd - 1; d >= 0; --d) {
      if (++idx[static_cast<size_t>(d)] < sizes[static_cast<size_t>(d)]) break;
      idx[static_cast<size_t>(d)] = 0;
    }
  }
}

int64_t byte_offset(const Tensor& t, const Shape& idx) {
  int64_t off = 0;
  for (size_t d = 0; d < idx.size(); ++d) off += idx[d] * t.stride(static_cast<int64_t>(d));
  return off * static_cast<int64_t>(t.element_size());
}

}  // namespace

Tensor index_select(const Tensor& self, int64_t dim, const Tensor& index) {
  TL_CHECK(index.dim() <= 1, ValueError, "index_select(): Index is supposed to be a vector");
  int64_t nd = std::max<int64_t>(self.dim(), 1);
  int64_t d = wrap_dim(dim, nd, "index_select");
  auto idx = index_values(index, "index_select");
  Tensor x = self.dim() == 0 ? self.reshape({1}) : self;
  int64_t n = x.size(d);
  for (int64_t i : idx) {
    TL_CHECK(i >= -n && i < n, IndexError, "index out of range in self");
  }
  Shape out_shape = x.sizes().vec();
  out_shape[static_cast<size_t>(d)] = static_cast<int64_t>(idx.size());
  Tensor out = empty(out_shape, self.dtype());
  for (size_t i = 0; i < idx.size(); ++i) {
    int64_t k = idx[i] < 0 ? idx[i] + n : idx[i];
    out.select(d, static_cast<int64_t>(i)).copy_(x.select(d, k));
  }
  return self.dim() == 0 ? out.reshape({}) : out;
}

Tensor gather(const Tensor& self, int64_t dim, const Tensor& index) {
  int64_t nd = std::max<int64_t>(self.dim(), 1);
  int64_t d = wrap_dim(dim, nd, "gather");
  TL_CHECK(index.dtype() == DType::Long, TypeError, "gather(): Expected dtype int64 for index");
  TL_CHECK(std::max<int64_t>(index.dim(), 1) == nd || index.numel() == 0, ValueError,
           "Index tensor must have the same number of dimensions as input tensor");
  Tensor x = self.dim() == 0 ? self.reshape({1}) : self;
  Tensor ix = (index.dim() == 0 ? index.reshape({1}) : index).contiguous();
  for (int64_t k = 0; k < ix.dim(); ++k) {
    TL_CHECK(k == d || ix.size(k) <= x.size(k), ValueError,
             "Size does not match at dimension {} expected index {} to be smaller than self {} apart from "
             "dimension {}",
             k, shape_repr(ix.sizes()), shape_repr(x.sizes()), d);
  }
  Tensor out = empty(ix.sizes(), self.dtype());
  const int64_t* ip = ix.data<int64_t>();
  const char* src = static_cast<const char*>(x.data_ptr());
  char* dst = static_cast<char*>(out.data_ptr());
  size_t es = self.element_size();
  int64_t lin = 0, n = x.size(d);
  for_each_index(ix.sizes(), [&](const Shape& pos) {
    int64_t k = ip[lin];
    // torch's gather/scatter take no negative indices (index_select and take do).
    TL_CHECK(k >= 0 && k < n, IndexError, "index {} is out of bounds for dimension {} with size {}", k, d, n);
    Shape at = pos;
    at[static_cast<size_t>(d)] = k;
    move_element(dst + lin * static_cast<int64_t>(es), src + byte_offset(x, at), es);
    ++lin;
  });
  return self.dim() == 0 ? out.reshape(index.sizes()) : out;
}

Tensor scatter(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src) {
  int64_t nd = std::max<int64_t>(self.dim(), 1);
  int64_t d = wrap_dim(dim, nd, "scatter");
  TL_CHECK(index.dtype() == DType::Long, TypeError, "scatter(): Expected dtype int64 for index");
  TL_CHECK(src.dtype() == self.dtype(), TypeError,
           "scatter(): Expected self.dtype to be equal to src.dtype");
  Tensor out = self.clone();
  Tensor o = out.dim() == 0 ? out.reshape({1}) : out;
  Tensor ix = (index.dim() == 0 ? index.reshape({1}) : index).contiguous();
  Tensor s = src.dim() == 0 ? src.reshape({1}) : src;
  for (int64_t k = 0; k < ix.dim(); ++k) {
    TL_CHECK(ix.size(k) <= s.size(k) && (k == d || ix.size(k) <= o.size(k)), ValueError,
             "Expected index {} to be smaller than self {} apart from dimension {} and to be smaller size than "
             "src {}",
             shape_repr(ix.sizes()), shape_repr(o.sizes()), d, shape_repr(s.sizes()));
  }
  const int64_t* ip = ix.data<int64_t>();
  char* dst = static_cast<char*>(o.data_ptr());
  const char* sp = static_cast<const char*>(s.data_ptr());
  size_t es = self.element_size();
  int64_t lin = 0, n = o.size(d);
  for_each_index(ix.sizes(), [&](const Shape& pos) {
    int64_t k = ip[lin++];
    TL_CHECK(k >= 0 && k < n, IndexError, "index {} is out of bounds for dimension {} with size {}", k, d, n);
    Shape at = pos;
    at[static_cast<size_t>(d)] = k;
    move_element(dst + byte_offset(o, at), sp + byte_offset(s, pos), es);
  });
  return out;
}

Tensor masked_fill(const Tensor& self, const Tensor& mask, const Scalar& value) {
  TL_CHECK(mask.dtype() == DType::Bool, TypeError,
           "masked_fill_ only supports boolean masks, but got mask with dtype {}", dtype_name(mask.dtype()));
  Shape b = broadcast_shapes(self.sizes(), mask.sizes());
  TL_CHECK(IntList(b) == self.sizes(), ValueError,
           "masked_fill: mask of shape {} cannot be broadcast to self's shape {}", shape_repr(mask.sizes()),
           shape_repr(self.sizes()));
  Tensor fill = empty({}, self.dtype());
  fill.fill_(value);
  return where(mask, fill, self);
}

Tensor flip(const Tensor& self, IntList dims) {
  std::vector<bool> flipped(static_cast<size_t>(std::max<int64_t>(self.dim(), 1)), false);
  for (int64_t d : dims) {
    int64_t w = wrap_dim(d, std::max<int64_t>(self.dim(), 1), "flip");
    TL_CHECK(!flipped[static_cast<size_t>(w)], ValueError, "dims has duplicates, original flip dims size={}",
             dims.size());
    flipped[static_cast<size_t>(w)] = true;
  }
  Tensor out = empty(self.sizes(), self.dtype());
  const char* src = static_cast<const char*>(self.data_ptr());
  char* dst = static_cast<char*>(out.data_ptr());
  size_t es = self.element_size();
  int64_t lin = 0;
  for_each_index(self.sizes(), [&](const Shape& pos) {
    Shape at = pos;
    for (size_t d = 0; d < at.size(); ++d) {
      if (flipped[d]) at[d] = self.size(static_cast<int64_t>(d)) - 1 - at[d];
    }
    move_element(dst + lin++ * static_cast<int64_t>(es), src + byte_offset(self, at), es);
  });
  return out;
}

Tensor roll(const Tensor& self, IntList shifts, IntList dims) {
  if (dims.empty()) {
    TL_CHECK(shifts.size() == 1, ValueError, "roll: shifts must be a single value when dims is empty");
    return roll(self.flatten(), shifts, {0}).view(self.sizes());
  }
  TL_CHECK(shifts.size() == dims.size(), ValueError,
           "shifts and dimensions must align. shifts: {}, dims:{}", shifts.size(), dims.size());
  Tensor out = self;
  for (size_t i = 0; i < dims.size(); ++i) {
    int64_t d = wrap_dim(dims[i], out.dim(), "roll");
    int64_t n = out.size(d);
    if (n == 0) continue;
    int64_t s = ((shifts[i] % n) + n) % n;
    if (s == 0) {
      out = out.clone();
      continue;
    }
    out = cat({out.narrow(d, n - s, s), out.narrow(d, 0, n - s)}, d);
  }
  return out;
}

namespace {

Tensor triangle(const Tensor& self, int64_t diagonal, bool lower, const char* op) {
  TL_CHECK(self.dim() >= 2, ValueError, "{}: input tensor must have at least 2 dimensions", op);
  Tensor out = self.clone();
  int64_t rows = self.size(-2), cols = self.size(-1);
  int64_t batch = rows * cols != 0 ? self.numel() / (rows * cols) : 0;
  char* p = static_cast<char*>(out.data_ptr());
  size_t es = self.element_size();
  for (int64_t b = 0; b < batch; ++b) {
    for (int64_t i = 0; i < rows; ++i) {
      for (int64_t j = 0; j < cols; ++j) {
        bool keep = lower ? j - i <= diagonal : j - i >= diagonal;
        if (!keep) std::memset(p + ((b * rows + i) * cols + j) * static_cast<int64_t>(es), 0, es);
      }
    }
  }
  return out;
}

}  // namespace

Tensor tril(const Tensor& self, int64_t diagonal) { return triangle(self, diagonal, true, "tril"); }
Tensor triu(const Tensor& self, int64_t diagonal) { return triangle(self, diagonal, false, "triu"); }

Tensor repeat(const Tensor& self, IntList repeats) {
  TL_CHECK(static_cast<int64_t>(repeats.size()) >= self.dim(), ValueError,
           "Number of dimensions of repeat dims can not be smaller than number of dimensions of tensor");
  for (int64_t r : repeats) TL_CHECK(r >= 0, ValueError, "Trying to create tensor with negative dimension {}", r);
  // Pad self's shape with leading 1s, then view it as [r0, s0, r1, s1, ...] with zero
  // strides on the repeat dims and copy that view out.
  size_t n = repeats.size();
  Shape padded(n - static_cast<size_t>(self.dim()), 1);
  for (int64_t s : self.sizes()) padded.push_back(s);
  Tensor x = self.contiguous().reshape(padded);
  Shape sizes, strides, out_shape;
  for (size_t i = 0; i < n; ++i) {
    sizes.push_back(repeats[i]);
    strides.push_back(0);
    sizes.push_back(padded[i]);
    strides.push_back(x.stride(static_cast<int64_t>(i)));
    out_shape.push_back(repeats[i] * padded[i]);
  }
  Tensor expanded = x.as_strided(sizes, strides, x.storage_offset());
  Tensor out = empty(sizes, self.dtype());
  if (out.numel() > 0) out.copy_(expanded);
  return out.reshape(out_shape);
}

Tensor nonzero(const Tensor& self) {
  TL_CHECK(!is_complex(self.dtype()) && !is_quantized(self.dtype()), UnsupportedError,
           "nonzero: dtype {} is not supported by torchlet's kernels", dtype_name(self.dtype()));
  Tensor mask = self.to(DType::Bool).contiguous();
  const bool* m = mask.data<bool>();
  int64_t count = 0;
  for (int64_t i = 0; i < mask.numel(); ++i) count += m[i];
  int64_t nd = self.dim();
  Tensor out = empty({count, nd}, DType::Long);
  int64_t* o = out.data<int64_t>();
  int64_t lin = 0, row = 0;
  for_each_index(self.sizes(), [&](const Shape& pos) {
    if (m[lin++]) {
      for (int64_t d = 0; d < nd; ++d) o[row * nd + d] = pos[static_cast<size_t>(d)];
      ++row;
    }
  });
  if (nd == 0 && mask.numel() == 1) return empty({count, 0}, DType::Long);
  return out;
}

// --- views torch composes ----------------------------------------------------------------

Tensor unflatten(const Tensor& self, int64_t dim, IntList sizes_in) {
  Shape sizes(sizes_in.begin(), sizes_in.end());
  dim = wrap_dim(dim, self.dim(), "unflatten");
  Shape shape(self.sizes().begin(), self.sizes().begin() + dim);
  int64_t known = 1, infer = -1;
  for (size_t i = 0; i < sizes.size(); ++i) {
    if (sizes[i] == -1) infer = static_cast<int64_t>(i);
    else known *= sizes[i];
  }
  if (infer >= 0 && known != 0) sizes[static_cast<size_t>(infer)] = self.size(dim) / known;
  int64_t prod = std::accumulate(sizes.begin(), sizes.end(), int64_t{1}, std::multiplies<>());
  TL_CHECK(prod == self.size(dim), ValueError,
           "unflatten: Provided sizes {} don't multiply up to the size of dim {} ({}) in the input tensor",
           shape_repr(sizes), dim, self.size(dim));
  shape.insert(shape.end(), sizes.begin(), sizes.end());
  shape.insert(shape.end(), self.sizes().begin() + dim + 1, self.sizes().end());
  return self.view(shape);
}

Tensor unfold(const Tensor& self, int64_t dimension, int64_t size, int64_t step) {
  const int64_t d = wrap_dim(dimension, std::max<int64_t>(self.dim(), 1), "unfold");
  const int64_t len = self.dim() == 0 ? 1 : self.size(d);
  const int64_t stride = self.dim() == 0 ? 1 : self.stride(d);
  TL_CHECK(size <= len, ValueError, "maximum size for tensor at dimension {} is {} but size is {}", d, len, size);
  TL_CHECK(step > 0, ValueError, "step is {} but must be > 0", step);
  Shape sizes = self.sizes().vec(), strides = self.strides().vec();
  if (self.dim() > 0) {
    sizes[static_cast<size_t>(d)] = (len - size) / step + 1;
    strides[static_cast<size_t>(d)] = step * stride;
  }
  sizes.push_back(size);
  strides.push_back(stride);
  return self.as_strided(sizes, strides, self.storage_offset());
}

// --- diagonals -----------------------------------------------------------------------------

Tensor diag(const Tensor& self, int64_t diagonal) {
  TL_CHECK(self.dim() == 1 || self.dim() == 2, ValueError, "diag(): Supports 1D or 2D tensors. Got {}D", self.dim());
  TL_CHECK(self.dtype() != DType::Half, UnsupportedError, "\"diag\" not implemented for 'Half'");
  if (self.dim() == 2) return self.diagonal(diagonal).clone();
  const int64_t n = self.size(0) + (diagonal < 0 ? -diagonal : diagonal);
  Tensor result = zeros({n, n}, self.dtype());
  result.diagonal(diagonal).copy_(self);
  return result;
}

Tensor diagflat(const Tensor& self, int64_t offset) { return diag(self.contiguous().view({-1}), offset); }

Tensor diag_embed(const Tensor& self, int64_t offset, int64_t dim1_given, int64_t dim2_given) {
  const int64_t dims = self.dim() + 1;
  const int64_t dim1 = wrap_dim(dim1_given, dims, "diag_embed"), dim2 = wrap_dim(dim2_given, dims, "diag_embed");
  TL_CHECK(dim1 != dim2, ValueError, "diagonal dimensions cannot be identical {}, {}", dim1_given, dim2_given);
  const int64_t length = (offset < 0 ? -offset : offset) + self.size(-1);
  Shape sizes(self.sizes().begin(), self.sizes().end());
  sizes.pop_back();
  sizes.insert(sizes.begin() + std::min(dim1, dim2), length);
  sizes.insert(sizes.begin() + std::max(dim1, dim2), length);
  Tensor result = zeros(sizes, self.dtype());
  result.diagonal(offset, dim1, dim2).copy_(self);
  return result;
}

Tensor trace(const Tensor& self) {
  TL_CHECK(self.dim() == 2, ValueError, "trace: expected a matrix, but got tensor with dim {}", self.dim());
  TL_CHECK(self.dtype() != DType::Bool && self.dtype() != DType::Half && self.dtype() != DType::BFloat16, UnsupportedError,
           "\"trace\" not implemented for '{}'", dtype_info(self.dtype()).scalar_type_name);
  return sum(self.diagonal(), {}, false, std::nullopt);
}

// --- flips, rotations, repetition ------------------------------------------------------------

Tensor fliplr(const Tensor& self) {
  TL_CHECK(self.dim() >= 2, ValueError, "Input must be >= 2-d.");
  return flip(self, {1});
}
Tensor flipud(const Tensor& self) {
  TL_CHECK(self.dim() >= 1, ValueError, "Input must be >= 1-d.");
  return flip(self, {0});
}

Tensor rot90(const Tensor& self, int64_t k, IntList dims) {
  const int64_t n = self.dim();
  TL_CHECK(dims.size() == 2, ValueError, "expected total rotation dims == 2, but got dims = {}", dims.size());
  TL_CHECK(n >= 2, ValueError, "expected total dims >= 2, but got total dims = {}", n);
  TL_CHECK(dims[0] != dims[1] && std::abs(dims[0] - dims[1]) != n, ValueError,
           "expected rotation dims to be different, but got dim0 = {} and dim1 = {}", dims[0], dims[1]);
  TL_CHECK(dims[0] < n && dims[0] >= -n, IndexError, "Rotation dim0 out of range, dim0 = {}", dims[0]);
  TL_CHECK(dims[1] < n && dims[1] >= -n, IndexError, "Rotation dim1 out of range, dim1 = {}", dims[1]);
  k = (4 + k % 4) % 4;
  const int64_t d0 = wrap_dim(dims[0], n, "rot90"), d1 = wrap_dim(dims[1], n, "rot90");
  switch (k) {
    case 1: return flip(self, {d1}).transpose(d0, d1);
    case 2: return flip(self, {d0, d1});
    case 3: return flip(self, {d0}).transpose(d0, d1);
    default: return self.clone();
  }
}

// numpy.tile: dims shorter than the input's are padded with leading ones.
Tensor tile(const Tensor& self, IntList dims) {
  Shape reps(dims.begin(), dims.end());
  if (self.dim() > static_cast<int64_t>(reps.size())) reps.insert(reps.begin(), self.dim() - static_cast<int64_t>(reps.size()), 1);
  return repeat(self, reps);
}

// Index i written repeats[i] times, in repeats' dtype. Deliberate difference: torch
// trusts an output_size that is not the repeats' sum (it writes past its buffer for a
// smaller one, leaves garbage for a larger); torchlet refuses it.
Tensor repeat_interleave(const Tensor& repeats, std::optional<int64_t> output_size) {
  TL_CHECK(repeats.dim() == 1, ValueError, "repeat_interleave only accept 1D vector as repeat");
  TL_CHECK(repeats.dtype() == DType::Long || repeats.dtype() == DType::Int, UnsupportedError,
           "\"repeat_interleave_cpu\" not implemented for '{}'", dtype_info(repeats.dtype()).scalar_type_name);
  if (repeats.size(0) == 0) return empty({0}, repeats.dtype());
  const Tensor counts = repeats.to(DType::Long).contiguous();
  const int64_t* c = counts.data<int64_t>();
  int64_t total = 0;
  for (int64_t i = 0; i < counts.numel(); ++i) {
    TL_CHECK(c[i] >= 0, ValueError, "repeats can not be negative");
    TL_CHECK(!__builtin_add_overflow(total, c[i], &total), LimitError, "repeat_interleave: the repeats' sum overflows int64");
  }
  TL_CHECK(!output_size || *output_size == total, ValueError,
           "repeat_interleave: output_size {} is not the sum of the repeats ({})", output_size.value_or(0), total);
  Tensor result = empty({total}, repeats.dtype());
  auto fill = [&]<typename T>(T* out) {
    for (int64_t i = 0, at = 0; i < counts.numel(); ++i)
      for (int64_t k = 0; k < c[i]; ++k) out[at++] = static_cast<T>(i);
  };
  if (repeats.dtype() == DType::Long) fill(result.data<int64_t>());
  else fill(result.data<int32_t>());
  return result;
}

Tensor repeat_interleave(const Tensor& self, const Tensor& repeats, std::optional<int64_t> dim,
                         std::optional<int64_t> output_size) {
  const Tensor input = dim ? self : self.flatten();
  const int64_t d = dim.value_or(0);
  Tensor counts = repeats;
  if (repeats.dim() == 0 || (repeats.dim() == 1 && repeats.size(0) == 1)) {
    counts = repeats.reshape({1}).expand({input.size(d)});
  } else {
    TL_CHECK(repeats.dim() == 1, ValueError, "repeats must be 0-dim or 1-dim tensor");
    TL_CHECK(repeats.size(0) == input.size(d), ValueError, "repeats must have the same size as input along dim");
  }
  return index_select(input, d, repeat_interleave(counts, output_size));
}

Tensor repeat_interleave(const Tensor& self, int64_t repeats, std::optional<int64_t> dim, std::optional<int64_t> output_size) {
  return repeat_interleave(self, full({1}, Scalar(repeats), DType::Long), dim, output_size);
}

namespace {

// Sorts every line along `dim`; NaN is larger than every number. Unstable is torch's
// CPU kernel exactly: std::sort of (value, index) pairs under torch's KeyValueComp
// comparators, so equal values come out in the order torch gives (std::sort's moves
// depend only on the comparisons, not on how the pairs are stored). Stable is
// std::stable_sort, as torch's stable=True.
template <typename T>
void sort_lines(const Tensor& lines, Tensor& values, Tensor& indices, bool descending, int64_t keep, bool stable) {
  using M = kernels::opmath_t<T>;
  int64_t n = lines.size(-1);
  int64_t count = n ? lines.numel() / n : 0;
  const T* src = lines.data<T>();
  T* v = values.data<T>();
  int64_t* ix = indices.data<int64_t>();
  auto less = [](M a, M c) {
    if constexpr (std::is_floating_point_v<M>) return (!std::isnan(a) && std::isnan(c)) || a < c;
    else return a < c;
  };
  auto greater = [](M a, M c) {
    if constexpr (std::is_floating_point_v<M>) return (std::isnan(a) && !std::isnan(c)) || a > c;
    else return a > c;
  };
  parallel_for(0, count, std::max<int64_t>(1, kernels::kGrainSize / std::max<int64_t>(n, 1)), [&](int64_t b, int64_t e) {
    std::vector<std::pair<T, int64_t>> line(static_cast<size_t>(n));
    for (int64_t l = b; l < e; ++l) {
      const T* p = src + l * n;
      for (int64_t i = 0; i < n; ++i) line[static_cast<size_t>(i)] = {p[i], i};
      auto asc = [&](const std::pair<T, int64_t>& x, const std::pair<T, int64_t>& y) {
        return less(static_cast<M>(x.first), static_cast<M>(y.first));
      };
      auto desc = [&](const std::pair<T, int64_t>& x, const std::pair<T, int64_t>& y) {
        return greater(static_cast<M>(x.first), static_cast<M>(y.first));
      };
      if (stable) {
        if (descending) std::stable_sort(line.begin(), line.end(), desc);
        else std::stable_sort(line.begin(), line.end(), asc);
      } else {
        if (descending) std::sort(line.begin(), line.end(), desc);
        else std::sort(line.begin(), line.end(), asc);
      }
      for (int64_t i = 0; i < keep; ++i) {
        v[l * keep + i] = line[static_cast<size_t>(i)].first;
        ix[l * keep + i] = line[static_cast<size_t>(i)].second;
      }
    }
  });
}

std::tuple<Tensor, Tensor> sort_impl(const Tensor& self, int64_t dim, bool descending, int64_t keep, bool stable,
                                     const char* op) {
  TL_CHECK(!is_complex(self.dtype()) && !is_quantized(self.dtype()), UnsupportedError,
           "{}: dtype {} is not supported by torchlet's kernels", op, dtype_name(self.dtype()));
  int64_t nd = std::max<int64_t>(self.dim(), 1);
  int64_t d = wrap_dim(dim, nd, op);
  Tensor x = self.dim() == 0 ? self.reshape({1}) : self;
  Tensor lines = x.transpose(d, x.dim() - 1).contiguous();
  Shape out_shape = lines.sizes().vec();
  out_shape.back() = keep;
  Tensor values = empty(out_shape, self.dtype());
  Tensor indices = empty(out_shape, DType::Long);
  dispatch_real(self.dtype(), op, [&]<typename T>() { sort_lines<T>(lines, values, indices, descending, keep, stable); });
  values = values.transpose(d, x.dim() - 1).contiguous();
  indices = indices.transpose(d, x.dim() - 1).contiguous();
  if (self.dim() == 0) return {values.reshape({}), indices.reshape({})};
  return {values, indices};
}

}  // namespace

std::tuple<Tensor, Tensor> sort(const Tensor& self, int64_t dim, bool descending, bool stable) {
  int64_t d = wrap_dim(dim, std::max<int64_t>(self.dim(), 1), "sort");
  return sort_impl(self, dim, descending, self.dim() == 0 ? 1 : self.size(d), stable, "sort");
}

Tensor argsort(const Tensor& self, int64_t dim, bool descending, bool stable) {
  return std::get<1>(sort(self, dim, descending, stable));
}

std::tuple<Tensor, Tensor> topk(const Tensor& self, int64_t k, int64_t dim, bool largest, bool /*sorted*/) {
  int64_t d = wrap_dim(dim, std::max<int64_t>(self.dim(), 1), "topk");
  int64_t n = self.dim() == 0 ? 1 : self.size(d);
  TL_CHECK(k >= 0 && k <= n, IndexError, "selected index k out of range");
  TL_CHECK(self.dtype() != DType::Bool && self.dtype() != DType::Half, UnsupportedError,
           "\"topk_cpu\" not implemented for '{}'", dtype_info(self.dtype()).scalar_type_name);
  // The k first of a stable sort: sorted output, as torch returns for sorted=True
  // (and a valid order for sorted=False).
  return sort_impl(self, dim, largest, k, /*stable=*/true, "topk");
}

}  // namespace torchlet

// Joining and splitting beyond cat/stack/split/chunk (shape.cpp), as torch 1.13 composes
// them: split_with_sizes, unbind, tensor_split and numpy's h/v/dsplit (views), the
// atleast_Nd family and the stacks built on cat (hstack, vstack, dstack,
// column_stack), broadcast_tensors, meshgrid, block_diag, cartesian_prod and
// combinations. Cases run through torch in tests/fixtures/gen_ops.py
// (extra_composite_ops, index_extra_ops).
#include <algorithm>
#include <functional>
#include <numeric>
#include <string_view>

#include <torchlet/error.h>
#include <torchlet/ops.h>

namespace torchlet {

// --- splitting (views) ---------------------------------------------------------------------

std::vector<Tensor> split_with_sizes(const Tensor& self, IntList split_sizes, int64_t dim) {
  dim = wrap_dim(dim, self.dim(), "split_with_sizes");
  int64_t total = std::accumulate(split_sizes.begin(), split_sizes.end(), int64_t{0});
  TL_CHECK(total == self.size(dim), ValueError,
           "split_with_sizes expects split_sizes to sum exactly to {} (input tensor's size at dimension {}), but got "
           "split_sizes={}", self.size(dim), dim, shape_repr(split_sizes));
  std::vector<Tensor> out;
  int64_t start = 0;
  for (int64_t n : split_sizes) {
    out.push_back(self.narrow(dim, start, n));
    start += n;
  }
  return out;
}

std::vector<Tensor> unbind(const Tensor& self, int64_t dim) {
  dim = wrap_dim(dim, self.dim(), "unbind");
  std::vector<Tensor> out;
  for (int64_t i = 0; i < self.size(dim); ++i) out.push_back(self.select(dim, i));
  return out;
}

namespace {

std::vector<Tensor> split_at(const Tensor& self, IntList indices, int64_t dim) {
  const int64_t size = self.size(dim);
  std::vector<Tensor> out;
  int64_t start = 0;
  for (int64_t idx : indices) {
    const int64_t stop = std::clamp<int64_t>(idx < 0 ? idx + size : idx, 0, size);
    const int64_t from = std::min(start, size);
    out.push_back(self.narrow(dim, from, std::max<int64_t>(stop - from, 0)));
    start = stop;  // torch: each piece starts at the previous index, even past a later one
  }
  out.push_back(self.narrow(dim, std::min(start, size), size - std::min(start, size)));
  return out;
}

// torch.hsplit/vsplit/dsplit: tensor_split along dim 1 (0 for 1-D input), 0 or 2, with
// torch's own checks first.
template <int kMinDims>
int64_t numpy_split_dim(const Tensor& x, const char* api) {
  TL_CHECK(x.dim() >= kMinDims, ValueError, "torch.{} requires a tensor with at least {} dimension, but got a tensor with {} dimensions!",
           api, kMinDims, x.dim());
  if constexpr (kMinDims == 1) return x.dim() == 1 ? 0 : 1;
  return kMinDims == 2 ? 0 : 2;
}
template <int kMinDims>
std::vector<Tensor> numpy_split_sections(const Tensor& x, int64_t sections, const char* api) {
  const int64_t dim = numpy_split_dim<kMinDims>(x, api);
  TL_CHECK(sections != 0 && x.size(dim) % sections == 0, ValueError,
           "torch.{} attempted to split along dimension {}, but the size of the dimension {} is not divisible by the "
           "split_size {}!",
           api, dim, x.size(dim), sections);
  return tensor_split(x, sections, dim);
}
template <int kMinDims>
std::vector<Tensor> numpy_split_indices(const Tensor& x, IntList indices, const char* api) {
  return split_at(x, indices, numpy_split_dim<kMinDims>(x, api));
}

}  // namespace

std::vector<Tensor> tensor_split(const Tensor& self, int64_t sections, int64_t dim) {
  TL_CHECK(self.dim() > 0, ValueError, "tensor_split expected at least a 1-dimensional tensor, but got a tensor with 0 dims");
  TL_CHECK(sections > 0, ValueError, "number of sections must be larger than 0, got {}", sections);
  const int64_t d = wrap_dim(dim, self.dim(), "tensor_split"), size = self.size(d);
  const int64_t base = size / sections, extra = size % sections;
  std::vector<Tensor> out;
  int64_t start = 0;
  for (int64_t i = 0; i < sections; ++i) {
    const int64_t len = base + (i < extra ? 1 : 0);
    out.push_back(self.narrow(d, start, len));
    start += len;
  }
  return out;
}
std::vector<Tensor> tensor_split(const Tensor& self, IntList indices, int64_t dim) {
  TL_CHECK(self.dim() > 0, ValueError, "tensor_split expected at least a 1-dimensional tensor, but got a tensor with 0 dims");
  return split_at(self, indices, wrap_dim(dim, self.dim(), "tensor_split"));
}
std::vector<Tensor> hsplit(const Tensor& self, int64_t sections) { return numpy_split_sections<1>(self, sections, "hsplit"); }
std::vector<Tensor> vsplit(const Tensor& self, int64_t sections) { return numpy_split_sections<2>(self, sections, "vsplit"); }
std::vector<Tensor> dsplit(const Tensor& self, int64_t sections) { return numpy_split_sections<3>(self, sections, "dsplit"); }
std::vector<Tensor> hsplit(const Tensor& self, IntList indices) { return numpy_split_indices<1>(self, indices, "hsplit"); }
std::vector<Tensor> vsplit(const Tensor& self, IntList indices) { return numpy_split_indices<2>(self, indices, "vsplit"); }
std::vector<Tensor> dsplit(const Tensor& self, IntList indices) { return numpy_split_indices<3>(self, indices, "dsplit"); }

// --- at least N dims, the cat-based stacks ---------------------------------------------------
namespace {

Tensor atleast(const Tensor& t, int n) {
  if (t.dim() >= n) return t;
  if (t.dim() == 0) return t.reshape(Shape(static_cast<size_t>(n), 1));
  if (n == 2) return t.unsqueeze(0);
  return t.dim() == 1 ? t.unsqueeze(0).unsqueeze(-1) : t.unsqueeze(-1);  // (n) -> (1, n, 1); (m, n) -> (m, n, 1)
}
std::vector<Tensor> all_atleast(const std::vector<Tensor>& ts, int n) {
  std::vector<Tensor> out;
  for (const Tensor& t : ts) out.push_back(atleast(t, n));
  return out;
}

}  // namespace

Tensor atleast_1d(const Tensor& self) { return atleast(self, 1); }
Tensor atleast_2d(const Tensor& self) { return atleast(self, 2); }
Tensor atleast_3d(const Tensor& self) { return atleast(self, 3); }
std::vector<Tensor> atleast_1d(const std::vector<Tensor>& tensors) { return all_atleast(tensors, 1); }
std::vector<Tensor> atleast_2d(const std::vector<Tensor>& tensors) { return all_atleast(tensors, 2); }
std::vector<Tensor> atleast_3d(const std::vector<Tensor>& tensors) { return all_atleast(tensors, 3); }

Tensor hstack(const std::vector<Tensor>& tensors) {
  auto ts = all_atleast(tensors, 1);
  TL_CHECK(!ts.empty(), ValueError, "hstack expects a non-empty TensorList");
  return cat(ts, ts[0].dim() == 1 ? 0 : 1);
}
Tensor vstack(const std::vector<Tensor>& tensors) {
  auto ts = all_atleast(tensors, 2);
  TL_CHECK(!ts.empty(), ValueError, "vstack expects a non-empty TensorList");
  return cat(ts, 0);
}
Tensor dstack(const std::vector<Tensor>& tensors) {
  auto ts = all_atleast(tensors, 3);
  TL_CHECK(!ts.empty(), ValueError, "dstack expects a non-empty TensorList");
  return cat(ts, 2);
}
Tensor column_stack(const std::vector<Tensor>& tensors) {
  std::vector<Tensor> ts = tensors;
  TL_CHECK(!ts.empty(), ValueError, "column_stack expects a non-empty TensorList");
  for (Tensor& t : ts)
    if (t.dim() <= 1) t = t.reshape({t.numel(), 1});
  return cat(ts, 1);
}

// --- broadcasting and grids --------------------------------------------------------------------

std::vector<Tensor> broadcast_tensors(const std::vector<Tensor>& tensors) {
  Shape shape;
  for (const Tensor& t : tensors) shape = broadcast_shapes(shape, t.sizes());
  std::vector<Tensor> out;
  for (const Tensor& t : tensors) out.push_back(t.expand(shape));
  return out;
}

std::vector<Tensor> meshgrid(const std::vector<Tensor>& tensors, std::string_view indexing) {
  std::vector<Tensor> ts = tensors;
  TL_CHECK(!ts.empty(), ValueError, "meshgrid expects a non-empty TensorList");
  TL_CHECK(indexing == "ij" || indexing == "xy", ValueError,
           "torch.meshgrid: indexing must be one of \"xy\" or \"ij\", but received: {}", indexing);
  for (const Tensor& t : ts) {
    TL_CHECK(t.dim() <= 1, ValueError, "torch.meshgrid: Expected 0D or 1D tensor in the tensor list but got: {}", t.repr());
    TL_CHECK(t.dtype() == ts[0].dtype(), TypeError,
             "torch.meshgrid: Expected all tensors in the tensor list to have the same dtype");
  }
  // "xy" is "ij" with the first two inputs, and then outputs, swapped (torch's way).
  const bool swap = indexing == "xy" && ts.size() >= 2;
  if (swap) std::swap(ts[0], ts[1]);
  Shape shape;
  for (const Tensor& t : ts) shape.push_back(t.numel());
  std::vector<Tensor> grids;
  for (size_t i = 0; i < ts.size(); ++i) {
    Shape view(ts.size(), 1);
    view[i] = -1;
    grids.push_back(ts[i].view(view).expand(shape));
  }
  if (swap) std::swap(grids[0], grids[1]);
  return grids;
}

Tensor block_diag(const std::vector<Tensor>& tensors) {
  if (tensors.empty()) return empty({1, 0}, kDefaultFloatDType);  // torch's answer for no blocks
  DType d = tensors[0].dtype();
  int64_t rows = 0, cols = 0;
  std::vector<Tensor> mats;
  for (size_t i = 0; i < tensors.size(); ++i) {
    const Tensor& t = tensors[i];
    TL_CHECK(t.dim() <= 2, ValueError, "torch.block_diag: Input tensors must have 2 or fewer dimensions. Input {} has {} dimensions", i,
             t.dim());
    d = promote_types(d, t.dtype());
    mats.push_back(t.dim() == 2 ? t : t.reshape({1, t.numel()}));
    rows += mats.back().size(0);
    cols += mats.back().size(1);
  }
  Tensor out = zeros({rows, cols}, d);
  int64_t r = 0, c = 0;
  for (const Tensor& m : mats) {
    out.narrow(0, r, m.size(0)).narrow(1, c, m.size(1)).copy_(m);
    r += m.size(0);
    c += m.size(1);
  }
  return out;
}

Tensor cartesian_prod(const std::vector<Tensor>& tensors) {
  for (const Tensor& t : tensors) TL_CHECK(t.dim() == 1, ValueError, "Expect a 1D vector, but got shape {}", shape_repr(t.sizes()));
  TL_CHECK(!tensors.empty(), ValueError, "cartesian_prod expects a non-empty TensorList");
  if (tensors.size() == 1) return tensors[0];
  Shape shape;
  for (const Tensor& t : tensors) shape.push_back(t.numel());
  std::vector<Tensor> cols;
  for (size_t i = 0; i < tensors.size(); ++i) {
    Shape view(tensors.size(), 1);
    view[i] = -1;
    cols.push_back(tensors[i].view(view).expand(shape).reshape({-1}));
  }
  return stack(cols, 1);
}

// The r-element index tuples of a 1-D tensor in lexicographic order (non-decreasing
// with replacement), as rows.
Tensor combinations(const Tensor& self, int64_t r, bool with_replacement) {
  TL_CHECK(self.dim() == 1, ValueError, "Expect a 1D vector, but got shape {}", shape_repr(self.sizes()));
  TL_CHECK(r >= 0, ValueError, "Expect a non-negative number, but got {}", r);
  if (r == 0) return empty({0}, self.dtype());
  const int64_t n = self.numel();
  std::vector<int64_t> picks, tuple(static_cast<size_t>(r));
  std::function<void(int64_t, int64_t)> pick = [&](int64_t slot, int64_t from) {
    if (slot == r) {
      TL_CHECK(picks.size() < (size_t{1} << 26), LimitError, "combinations: more than 2^26 indices");
      picks.insert(picks.end(), tuple.begin(), tuple.end());
      return;
    }
    for (int64_t i = from; i < n; ++i) {
      tuple[static_cast<size_t>(slot)] = i;
      pick(slot + 1, with_replacement ? i : i + 1);
    }
  };
  pick(0, 0);
  const auto rows = static_cast<int64_t>(picks.size()) / r;
  Tensor idx = tensor<int64_t>(picks, {std::max<int64_t>(rows * r, 0)});
  return index_select(self, 0, idx).reshape({rows, r});
}

}  // namespace torchlet

// aten::index.Tensor and index_put(_): advanced indexing (x[idx], x[mask],
// x[:, idx1, idx2], and assignment to them) composed from the kernels. Bool masks become long indices (nonzero); the index tensors
// broadcast to one shape S; the indexed dimensions are gathered through one
// index_select on a view with those dimensions flattened first; S then takes the place
// of the indexed dimensions when they are adjacent, else leads, as numpy and torch
// place it.
#include <numeric>

#include <torchlet/ops.h>

#include "jit/ops/ops_util.h"

namespace torchlet::jit::ops {
namespace {

// Each list entry: None (the whole dimension) or a tensor indexing as many dimensions
// as it has (bool) or one (integer).
struct Indexed {
  std::vector<int64_t> dims;        // the self dimensions being indexed, in order
  std::vector<Tensor> indices;      // one long tensor per dim, broadcast to one shape
};

Indexed expand_indices(const Tensor& self, const IValue& list) {
  Indexed out;
  int64_t d = 0;
  for (const IValue& v : list.listRef().elements) {
    if (v.isNone()) {
      ++d;
      continue;
    }
    Tensor idx = v.toTensor();
    if (idx.dtype() == DType::Bool || idx.dtype() == DType::Byte) {
      TL_CHECK(d + idx.dim() <= self.dim(), IndexError, "too many indices for tensor of dimension {} (got {})",
               self.dim(), d + idx.dim());
      for (int64_t k = 0; k < idx.dim(); ++k) {
        TL_CHECK(idx.size(k) == self.size(d + k), IndexError,
                 "The shape of the mask {} at index {} does not match the shape of the indexed tensor {} at index {}",
                 shape_repr(idx.sizes()), k, shape_repr(self.sizes()), d + k);
      }
      Tensor nz = torchlet::nonzero(idx);
      for (int64_t k = 0; k < idx.dim(); ++k) {
        out.dims.push_back(d + k);
        out.indices.push_back(nz.select(1, k));
      }
      d += idx.dim();
      continue;
    }
    TL_CHECK(is_integral(idx.dtype(), false), IndexError,
             "tensors used as indices must be long, int, byte or bool tensors");
    TL_CHECK(d < self.dim(), IndexError, "too many indices for tensor of dimension {} (got {})", self.dim(), d + 1);
    out.dims.push_back(d++);
    out.indices.push_back(idx.to(DType::Long));
  }
  TL_CHECK(d <= self.dim(), IndexError, "too many indices for tensor of dimension {} (got {})", self.dim(), d);
  if (out.indices.empty()) return out;
  Shape shape = out.indices.front().sizes().vec();
  for (const auto& t : out.indices) shape = broadcast_shapes(shape, t.sizes());
  for (auto& t : out.indices) t = t.expand(shape);
  return out;
}

// The plan both reading and writing follow: linear offsets into the indexed
// dimensions (row-major over them), the remaining dimensions, and where the index
// shape S lands in the result.
struct Plan {
  Indexed ix;
  Tensor linear;              // shape S, values in [0, block)
  int64_t block = 1;
  std::vector<int64_t> rest;  // the dimensions not indexed
  std::vector<int64_t> order;  // indexed dims first, then rest
  std::vector<int64_t> perm;   // from [S..., rest...] to the result's layout (empty: identity)
};

Plan make_plan(const Tensor& self, const IValue& list) {
  Plan p;
  p.ix = expand_indices(self, list);
  Indexed& ix = p.ix;
  if (ix.indices.empty()) return p;
  const Shape index_shape = ix.indices[0].sizes().vec();
  Tensor linear = zeros(index_shape, DType::Long);
  int64_t block = 1;
  for (size_t k = ix.dims.size(); k-- > 0;) {
    const int64_t size = self.size(ix.dims[k]);
    Tensor idx = ix.indices[k];
    Tensor wrapped = torchlet::where(torchlet::lt(idx, 0), torchlet::add(idx, size), idx);
    Tensor bad = torchlet::logical_or(torchlet::lt(wrapped, 0), torchlet::ge(wrapped, size));
    if (bad.numel() && torchlet::any(bad).item().to_bool()) {
      // Name the first offending index, as torch does.
      int64_t at = torchlet::argmax(bad.reshape({-1}).to(DType::Long)).item().to_int();
      int64_t value = idx.reshape({-1}).select(0, at).item().to_int();
      TL_FAIL(IndexError, "index {} is out of bounds for dimension {} with size {}", value, ix.dims[k], size);
    }
    linear = torchlet::add(linear, torchlet::mul(wrapped, block));
    block *= size;
  }
  p.linear = linear;
  p.block = block;
  p.order.assign(ix.dims.begin(), ix.dims.end());
  for (int64_t d = 0; d < self.dim(); ++d) {
    if (std::find(ix.dims.begin(), ix.dims.end(), d) == ix.dims.end()) p.rest.push_back(d);
  }
  p.order.insert(p.order.end(), p.rest.begin(), p.rest.end());
  bool adjacent = true;
  for (size_t k = 1; k < ix.dims.size(); ++k) adjacent = adjacent && ix.dims[k] == ix.dims[k - 1] + 1;
  const int64_t lead = ix.dims.front();
  if (adjacent && lead != 0) {
    const auto s = static_cast<int64_t>(index_shape.size());
    const auto n = s + static_cast<int64_t>(p.rest.size());
    for (int64_t i = 0; i < lead; ++i) p.perm.push_back(s + i);
    for (int64_t i = 0; i < s; ++i) p.perm.push_back(i);
    for (int64_t i = s + lead; i < n; ++i) p.perm.push_back(i);
  }
  return p;
}

// index_put_: values broadcast to the indexing result's shape, then each indexed
// position's slice of self (a view) takes (or, accumulating, adds) its values.
void index_put_impl(Tensor& self, const IValue& list, const Tensor& values, bool accumulate) {
  Plan p = make_plan(self, list);
  TL_CHECK(!p.ix.indices.empty(), UnsupportedError, "index_put_: at least one index tensor is required");
  Shape sr = p.linear.sizes().vec();
  for (int64_t d : p.rest) sr.push_back(self.size(d));
  Shape result_shape = sr;
  if (!p.perm.empty()) {
    for (size_t i = 0; i < p.perm.size(); ++i) result_shape[i] = sr[static_cast<size_t>(p.perm[i])];
  }
  Tensor v = values.to(self.dtype()).expand(result_shape);
  if (!p.perm.empty()) {
    std::vector<int64_t> inverse(p.perm.size());
    for (size_t i = 0; i < p.perm.size(); ++i) inverse[static_cast<size_t>(p.perm[i])] = static_cast<int64_t>(i);
    v = v.permute(inverse);
  }
  Shape rows{p.linear.numel()};
  for (int64_t d : p.rest) rows.push_back(self.size(d));
  v = v.reshape(rows);
  Tensor target = self.permute(p.order);  // a view: writes reach self
  std::vector<int64_t> offsets = p.linear.reshape({-1}).to_vector<int64_t>();
  for (size_t n = 0; n < offsets.size(); ++n) {
    Tensor slot = target;
    int64_t rem = offsets[n];
    int64_t stride = p.block;
    for (int64_t d : p.ix.dims) {
      stride /= self.size(d);
      slot = slot.select(0, rem / stride);
      rem %= stride;
    }
    Tensor src = v.select(0, static_cast<int64_t>(n));
    slot.copy_(accumulate ? torchlet::add(slot, src) : src);
  }
}

Tensor index_impl(const Tensor& self, const IValue& list) {
  Plan p = make_plan(self, list);
  if (p.ix.indices.empty()) return self.alias();
  Shape flat_shape{p.block};
  Shape out_shape = p.linear.sizes().vec();
  for (int64_t d : p.rest) {
    flat_shape.push_back(self.size(d));
    out_shape.push_back(self.size(d));
  }
  Tensor flat = self.permute(p.order).reshape(flat_shape);  // indexed dims flattened first
  Tensor out = torchlet::index_select(flat, 0, p.linear.reshape({-1})).view(out_shape);
  return p.perm.empty() ? out : out.permute(p.perm).contiguous();
}

void index(Stack& s) {
  IValue list = pop(s);
  push(s, index_impl(pop_tensor(s), list));
}
void index_put_(Stack& s) {
  bool accumulate = pop_bool(s);
  Tensor values = pop_tensor(s);
  IValue list = pop(s);
  Tensor self = pop_tensor(s);
  index_put_impl(self, list, values, accumulate);
  push(s, self);
}
void index_put(Stack& s) {
  bool accumulate = pop_bool(s);
  Tensor values = pop_tensor(s);
  IValue list = pop(s);
  Tensor self = pop_tensor(s).clone();
  index_put_impl(self, list, values, accumulate);
  push(s, self);
}

}  // namespace

static RegisterOps reg({
    {"aten::index.Tensor(Tensor self, Tensor?[] indices) -> Tensor", index},
    {"aten::index.Tensor_hacked_twin(Tensor self, Tensor[] indices) -> Tensor", index},
    {"aten::index_put_(Tensor(a!) self, Tensor?[] indices, Tensor values, bool accumulate=False) -> Tensor(a!)", index_put_},
    {"aten::index_put_.hacked_twin(Tensor(a!) self, Tensor[] indices, Tensor values, bool accumulate=False) -> Tensor(a!)", index_put_},
    {"aten::index_put(Tensor self, Tensor?[] indices, Tensor values, bool accumulate=False) -> Tensor", index_put},
    {"aten::index_put.hacked_twin(Tensor self, Tensor[] indices, Tensor values, bool accumulate=False) -> Tensor", index_put},
});

}  // namespace torchlet::jit::ops

// aten::index.Tensor: advanced indexing (x[idx], x[mask], x[:, idx1, idx2]) composed
// from the kernels. Bool masks become long indices (nonzero); the index tensors
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

Tensor index_impl(const Tensor& self, const IValue& list) {
  Indexed ix = expand_indices(self, list);
  if (ix.indices.empty()) return self.alias();
  const Shape index_shape = ix.indices[0].sizes().vec();
  // Linear offsets into the indexed dimensions, flattened row-major.
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
  // self with the indexed dims first, flattened into one.
  std::vector<int64_t> order(ix.dims.begin(), ix.dims.end());
  std::vector<int64_t> rest;
  for (int64_t d = 0; d < self.dim(); ++d) {
    if (std::find(ix.dims.begin(), ix.dims.end(), d) == ix.dims.end()) rest.push_back(d);
  }
  order.insert(order.end(), rest.begin(), rest.end());
  Shape flat_shape{block};
  for (int64_t d : rest) flat_shape.push_back(self.size(d));
  Tensor flat = self.permute(order).reshape(flat_shape);
  Tensor gathered = torchlet::index_select(flat, 0, linear.reshape({-1}));
  Shape out_shape = index_shape;
  for (int64_t d : rest) out_shape.push_back(self.size(d));
  Tensor out = gathered.view(out_shape);
  // Adjacent indexed dims keep their place: move S after the rest dims that preceded them.
  bool adjacent = true;
  for (size_t k = 1; k < ix.dims.size(); ++k) adjacent = adjacent && ix.dims[k] == ix.dims[k - 1] + 1;
  const int64_t lead = ix.dims.front();
  if (!adjacent || lead == 0) return out;
  const auto s = static_cast<int64_t>(index_shape.size());
  std::vector<int64_t> perm;
  for (int64_t i = 0; i < lead; ++i) perm.push_back(s + i);
  for (int64_t i = 0; i < s; ++i) perm.push_back(i);
  for (int64_t i = s + lead; i < out.dim(); ++i) perm.push_back(i);
  return out.permute(perm).contiguous();
}

void index(Stack& s) {
  IValue list = pop(s);
  push(s, index_impl(pop_tensor(s), list));
}
void index_out(Stack& s) {
  Tensor out = pop_tensor(s);
  IValue list = pop(s);
  assign_out(out, index_impl(pop_tensor(s), list), "index");
  push(s, out);
}

}  // namespace

static RegisterOps reg({
    {"aten::index.Tensor(Tensor self, Tensor?[] indices) -> Tensor", index},
    {"aten::index.Tensor_hacked_twin(Tensor self, Tensor[] indices) -> Tensor", index},
    {"aten::index.Tensor_out(Tensor self, Tensor?[] indices, *, Tensor(a!) out) -> Tensor(a!)", index_out},
});

}  // namespace torchlet::jit::ops

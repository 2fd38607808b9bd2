// NumPy-style tensor operators torch composes from others, composed the same way so
// their dtypes, layouts and refusals are torch 1.13's: repeat_interleave (np.repeat),
// tile, ravel, msort, take_along_dim, diag_embed/diagflat, vdot and addbmm. Every
// schema has cases run through torch in tests/fixtures/gen_ops.py (numpy_style_ops).
#include <algorithm>
#include <optional>

#include <torchlet/ops.h>

#include "jit/ops/composites.h"
#include "jit/ops/ops_util.h"

namespace torchlet::jit::ops {
namespace {

// repeat_interleave(repeats): index i written repeats[i] times, in repeats' dtype.
// Deliberate difference: torch trusts an output_size that is not the repeats' sum (it
// writes past its buffer for a smaller one, leaves garbage for a larger); torchlet
// refuses it.
Tensor repeat_interleave_counts(const Tensor& repeats, std::optional<int64_t> output_size) {
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

Tensor repeat_interleave_self(const Tensor& self, const Tensor& repeats, std::optional<int64_t> dim,
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
  return torchlet::index_select(input, d, repeat_interleave_counts(counts, output_size));
}

void repeat_interleave_tensor(Stack& s) {
  const auto output_size = pop_opt_int(s);
  push(s, repeat_interleave_counts(pop_tensor(s), output_size));
}
void repeat_interleave_tensor_out(Stack& s) {
  Tensor out = pop_tensor(s);
  const auto output_size = pop_opt_int(s);
  assign_out(out, repeat_interleave_counts(pop_tensor(s), output_size), "repeat_interleave");
  push(s, out);
}
void repeat_interleave_self_tensor(Stack& s) {
  const auto output_size = pop_opt_int(s);
  const auto dim = pop_opt_int(s);
  Tensor repeats = pop_tensor(s);
  push(s, repeat_interleave_self(pop_tensor(s), repeats, dim, output_size));
}
void repeat_interleave_self_int(Stack& s) {
  const auto output_size = pop_opt_int(s);
  const auto dim = pop_opt_int(s);
  const int64_t repeats = pop_int(s);
  push(s, repeat_interleave_self(pop_tensor(s), full({1}, Scalar(repeats), DType::Long), dim, output_size));
}

// numpy.tile: reps shorter than the input's dims are padded with leading ones.
void tile(Stack& s) {
  auto reps = pop_int_list(s);
  Tensor self = pop_tensor(s);
  if (self.dim() > static_cast<int64_t>(reps.size())) reps.insert(reps.begin(), self.dim() - static_cast<int64_t>(reps.size()), 1);
  push(s, torchlet::repeat(self, reps));
}

void ravel(Stack& s) { push(s, pop_tensor(s).contiguous().view({-1})); }

Tensor msort_of(const Tensor& self) { return std::get<0>(torchlet::sort(self, 0, false)); }
void msort(Stack& s) { push(s, msort_of(pop_tensor(s))); }
void msort_out(Stack& s) {
  Tensor out = pop_tensor(s);
  assign_out(out, msort_of(pop_tensor(s)), "msort");
  push(s, out);
}

// torch.take_along_dim: gather along dim after broadcasting the other dims of input and
// indices against each other; without dim, over the flattened input (a view, so a
// non-contiguous input is refused as torch's view refuses it).
Tensor take_along_dim_of(const Tensor& self, const Tensor& indices, std::optional<int64_t> dim) {
  if (!dim) return torchlet::gather(self.view({-1}), 0, indices.view({-1}));
  TL_CHECK(self.dim() == indices.dim(), ValueError,
           "torch.take_along_dim(): input and indices should have the same number of dimensions, but got {} dimensions "
           "for input, and {} dimensions for indices",
           self.dim(), indices.dim());
  TL_CHECK(indices.dtype() == DType::Long, TypeError, "torch.take_along_dim(): dtype of indices should be Long but got {}",
           dtype_info(indices.dtype()).scalar_type_name);
  const int64_t d = wrap_dim(*dim, self.dim(), "take_along_dim");
  Shape self_sizes(self.sizes().begin(), self.sizes().end());
  self_sizes[static_cast<size_t>(d)] = indices.size(d);
  const Tensor indices_broadcast = indices.expand(broadcast_shapes(self_sizes, indices.sizes()));
  Shape indices_sizes(indices.sizes().begin(), indices.sizes().end());
  indices_sizes[static_cast<size_t>(d)] = self.size(d);
  const Tensor self_broadcast = self.expand(broadcast_shapes(indices_sizes, self.sizes()));
  return torchlet::gather(self_broadcast, d, indices_broadcast);
}
void take_along_dim(Stack& s) {
  const auto dim = pop_opt_int(s);
  Tensor indices = pop_tensor(s);
  push(s, take_along_dim_of(pop_tensor(s), indices, dim));
}
void take_along_dim_out(Stack& s) {
  Tensor out = pop_tensor(s);
  const auto dim = pop_opt_int(s);
  Tensor indices = pop_tensor(s);
  assign_out(out, take_along_dim_of(pop_tensor(s), indices, dim), "take_along_dim");
  push(s, out);
}

// torch.diag_embed: the last dim of self on the `offset` diagonal of new (dim1, dim2)
// matrices, zeros elsewhere.
Tensor diag_embed_of(const Tensor& self, int64_t offset, int64_t dim1_given, int64_t dim2_given) {
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
void diag_embed(Stack& s) {
  const int64_t dim2 = pop_int(s), dim1 = pop_int(s), offset = pop_int(s);
  push(s, diag_embed_of(pop_tensor(s), offset, dim1, dim2));
}
void diag_embed_out(Stack& s) {
  Tensor out = pop_tensor(s);
  const int64_t dim2 = pop_int(s), dim1 = pop_int(s), offset = pop_int(s);
  assign_out(out, diag_embed_of(pop_tensor(s), offset, dim1, dim2), "diag_embed");
  push(s, out);
}

// torch.diagflat: torch's contiguous().view(-1).diag(offset).
void diagflat(Stack& s) {
  const int64_t offset = pop_int(s);
  push(s, diag_of(pop_tensor(s).contiguous().view({-1}), offset));
}

// torch.vdot of real tensors is torch.dot (the conjugate is the identity).
void vdot(Stack& s) {
  Tensor other = pop_tensor(s);
  push(s, torchlet::dot(pop_tensor(s), other));
}
void vdot_out(Stack& s) {
  Tensor out = pop_tensor(s);
  Tensor other = pop_tensor(s);
  assign_out(out, torchlet::dot(pop_tensor(s), other), "vdot");
  push(s, out);
}

// torch.addbmm: beta * self + alpha * (sum over the batch of batch1[i] @ batch2[i]),
// accumulated as torch's loop of addmm_ calls (beta applied at the first).
Tensor addbmm_of(const Tensor& self, const Tensor& batch1, const Tensor& batch2, const Scalar& beta, const Scalar& alpha) {
  const Tensor target = self.expand({batch1.size(1), batch2.size(2)});
  TL_CHECK(batch1.dim() == 3, ValueError, "batch1 must be a 3D tensor");
  TL_CHECK(batch2.dim() == 3, ValueError, "batch2 must be a 3D tensor");
  TL_CHECK(batch1.size(0) == batch2.size(0), ValueError, "batch1 and batch2 must have same number of batches, got {} and {}",
           batch1.size(0), batch2.size(0));
  TL_CHECK(batch1.size(2) == batch2.size(1), ValueError, "Incompatible matrix sizes for bmm ({}x{} and {}x{})", batch1.size(1),
           batch1.size(2), batch2.size(1), batch2.size(2));
  const bool keep_self = beta.is_complex() ? beta.to_complex() != 0.0 : beta.to_double() != 0;
  if (batch1.size(0) == 0) return keep_self ? torchlet::mul(target, beta) : zeros(target.sizes(), self.dtype());
  Tensor result = keep_self ? target.contiguous() : zeros(target.sizes(), self.dtype());
  // (torch's addmm_ on its result checks these in this order.)
  TL_CHECK(batch1.dtype() == batch2.dtype(), TypeError, "expected mat1 and mat2 to have the same dtype, but got: {} != {}",
           dtype_name(batch1.dtype()), dtype_name(batch2.dtype()));
  TL_CHECK(result.dtype() == batch2.dtype(), TypeError, "self and mat2 must have the same dtype");
  for (int64_t b = 0; b < batch1.size(0); ++b)
    result = torchlet::addmm(result, batch1.select(0, b), batch2.select(0, b), b == 0 ? beta : Scalar(1), alpha);
  return result;
}
void addbmm(Stack& s) {
  Scalar alpha = pop_scalar(s), beta = pop_scalar(s);
  Tensor batch2 = pop_tensor(s), batch1 = pop_tensor(s);
  push(s, addbmm_of(pop_tensor(s), batch1, batch2, beta, alpha));
}
void addbmm_(Stack& s) {
  Scalar alpha = pop_scalar(s), beta = pop_scalar(s);
  Tensor batch2 = pop_tensor(s), batch1 = pop_tensor(s);
  Tensor self = pop_tensor(s);
  assign_inplace(self, addbmm_of(self, batch1, batch2, beta, alpha), "addbmm_");
  push(s, self);
}
void addbmm_out(Stack& s) {
  Tensor out = pop_tensor(s);
  Scalar alpha = pop_scalar(s), beta = pop_scalar(s);
  Tensor batch2 = pop_tensor(s), batch1 = pop_tensor(s);
  assign_out(out, addbmm_of(pop_tensor(s), batch1, batch2, beta, alpha), "addbmm");
  push(s, out);
}

}  // namespace

static RegisterOps reg({
    {"aten::repeat_interleave.Tensor(Tensor repeats, *, int? output_size=None) -> Tensor", repeat_interleave_tensor},
    {"aten::repeat_interleave.Tensor_out(Tensor repeats, *, int? output_size=None, Tensor(a!) out) -> Tensor(a!)", repeat_interleave_tensor_out},
    {"aten::repeat_interleave.self_Tensor(Tensor self, Tensor repeats, int? dim=None, *, int? output_size=None) -> Tensor", repeat_interleave_self_tensor},
    {"aten::repeat_interleave.self_int(Tensor self, int repeats, int? dim=None, *, int? output_size=None) -> Tensor", repeat_interleave_self_int},
    {"aten::tile(Tensor self, int[] dims) -> Tensor", tile},
    {"aten::ravel(Tensor(a) self) -> Tensor(a)", ravel},
    {"aten::msort(Tensor self) -> Tensor", msort},
    {"aten::msort.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", msort_out},
    {"aten::take_along_dim(Tensor self, Tensor indices, int? dim=None) -> Tensor", take_along_dim},
    {"aten::take_along_dim.out(Tensor self, Tensor indices, int? dim=None, *, Tensor(a!) out) -> Tensor(a!)", take_along_dim_out},
    {"aten::diag_embed(Tensor self, int offset=0, int dim1=-2, int dim2=-1) -> Tensor", diag_embed},
    {"aten::diag_embed.out(Tensor self, int offset=0, int dim1=-2, int dim2=-1, *, Tensor(a!) out) -> Tensor(a!)", diag_embed_out},
    {"aten::diagflat(Tensor self, int offset=0) -> Tensor", diagflat},
    {"aten::vdot(Tensor self, Tensor other) -> Tensor", vdot},
    {"aten::vdot.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", vdot_out},
    {"aten::addbmm(Tensor self, Tensor batch1, Tensor batch2, *, Scalar beta=1, Scalar alpha=1) -> Tensor", addbmm},
    {"aten::addbmm_(Tensor(a!) self, Tensor batch1, Tensor batch2, *, Scalar beta=1, Scalar alpha=1) -> Tensor(a!)", addbmm_},
    {"aten::addbmm.out(Tensor self, Tensor batch1, Tensor batch2, *, Scalar beta=1, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)", addbmm_out},
});

}  // namespace torchlet::jit::ops

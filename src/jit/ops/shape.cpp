// Shape operators: views (view, reshape, permute, transpose, select, slice, narrow,
// expand, squeeze/unsqueeze, flatten/unflatten, movedim, as_strided, diagonal,
// Tensor.unfold, ...) share storage as in torch, and the in-place view ops
// (transpose_, squeeze_, ...) rewrite the TensorImpl every alias sees; joining and
// splitting (cat, stack and the numpy stacks, atleast_Nd, split/chunk/unbind,
// tensor_split, h/v/dsplit, meshgrid, block_diag, cartesian_prod, combinations);
// reordering (flip, roll, rot90), triangles, diagonals (diag, diag_embed, trace) and
// repetition (repeat, tile, repeat_interleave). Each is registered from its kernel's
// signature (Note [Boxing] in boxing.h); the kernels are Tensor's views and
// src/tensor/kernels/shape.cpp and joining.cpp. The list and str slices (slice.t,
// slice.str) and str.split (split.str) sit before the tensor rows of their names, the
// order they register in (docs/operators.md); kernels in list_builtins.h and
// str_builtins.h.
#include <numeric>
#include <optional>
#include <string>
#include <vector>

#include <torchlet/ops.h>

#include "jit/ops/boxing.h"
#include "jit/ops/list_builtins.h"
#include "jit/ops/out_forms.h"
#include "jit/ops/str_builtins.h"

namespace torchlet::jit::ops {
namespace {

// --- views ------------------------------------------------------------------------------------
Tensor view(const Tensor& self, IntList size) { return self.view(size); }
Tensor reshape(const Tensor& self, IntList shape) { return self.reshape(shape); }
Tensor permute(const Tensor& self, IntList dims) { return self.permute(dims); }
Tensor transpose(const Tensor& self, int64_t dim0, int64_t dim1) { return self.transpose(dim0, dim1); }
Tensor t(const Tensor& self) { return self.t(); }
// numpy_T / .T: every dimension reversed.
Tensor numpy_t(const Tensor& self) {
  std::vector<int64_t> dims(static_cast<size_t>(self.dim()));
  std::iota(dims.rbegin(), dims.rend(), int64_t{0});
  return self.permute(dims);
}
// .mT / .mH: the last two dimensions swapped (real tensors: no conjugation); .H: a
// matrix's transpose; a 0-dim tensor is its own.
template <bool kMatrixOnly>
Tensor matrix_transpose(const Tensor& self) {
  TL_CHECK(!is_complex(self.dtype()), UnsupportedError, "conjugate transposes of complex tensors are not supported");
  if (self.dim() == 0) return self;  // torch lets a 0-dim tensor through as it is
  if (kMatrixOnly)
    TL_CHECK(self.dim() == 2, ValueError, "tensor.H is only supported on matrices (2-D tensors). Got {}-D tensor.", self.dim());
  else
    TL_CHECK(self.dim() >= 2, ValueError, "tensor.mT is only supported on matrices or batches of matrices. Got {}-D tensor.",
             self.dim());
  return self.transpose(-2, -1);
}
Tensor select(const Tensor& self, int64_t dim, int64_t index) { return self.select(dim, index); }
Tensor slice(const Tensor& self, int64_t dim, std::optional<int64_t> start, std::optional<int64_t> end, int64_t step) {
  return self.slice(dim, start, end, step);
}
Tensor narrow(const Tensor& self, int64_t dim, int64_t start, int64_t length) { return self.narrow(dim, start, length); }
Tensor narrow_at(const Tensor& self, int64_t dim, const Tensor& start, int64_t length) {
  return self.narrow(dim, start.item().to_int(), length);
}
Tensor expand(const Tensor& self, IntList size, bool /*implicit: only a tracing hint*/) { return self.expand(size); }
Tensor expand_to(const Tensor& self, IntList size) { return self.expand(size); }
Tensor expand_as(const Tensor& self, const Tensor& other) { return self.expand(other.sizes()); }
Tensor view_as(const Tensor& self, const Tensor& other) { return self.view(other.sizes()); }
Tensor reshape_as(const Tensor& self, const Tensor& other) { return self.reshape(other.sizes()); }
Tensor squeeze(const Tensor& self) { return self.squeeze(); }
Tensor squeeze_dim(const Tensor& self, int64_t dim) { return self.squeeze(dim); }
Tensor unsqueeze(const Tensor& self, int64_t dim) { return self.unsqueeze(dim); }
Tensor flatten(const Tensor& self, int64_t start_dim, int64_t end_dim) { return self.flatten(start_dim, end_dim); }
Tensor ravel(const Tensor& self) { return self.contiguous().view({-1}); }
// movedim.int and moveaxis.int read their bare ints as one-element lists.
Tensor movedim(const Tensor& self, IntList source, IntList destination) { return self.movedim(source, destination); }
Tensor as_strided(const Tensor& self, IntList size, IntList stride, std::optional<int64_t> storage_offset) {
  return self.as_strided(size, stride, storage_offset);
}
Tensor alias(const Tensor& self) { return self.alias(); }
Tensor diagonal(const Tensor& self, int64_t offset, int64_t dim1, int64_t dim2) { return self.diagonal(offset, dim1, dim2); }

// The in-place view ops: self's TensorImpl takes the view's geometry, so every alias of
// self sees the new shape.
Tensor set_view(Tensor self, const Tensor& v) {
  TensorImpl* impl = self.impl();
  impl->offset_ = v.storage_offset();
  impl->sizes_ = v.sizes().vec();
  impl->strides_ = v.strides().vec();
  return self;
}
Tensor transpose_(Tensor self, int64_t dim0, int64_t dim1) {
  const Tensor v = self.transpose(dim0, dim1);
  return set_view(std::move(self), v);
}
Tensor t_(Tensor self) {
  const Tensor v = self.t();
  return set_view(std::move(self), v);
}
Tensor squeeze_(Tensor self) {
  const Tensor v = self.squeeze();
  return set_view(std::move(self), v);
}
Tensor squeeze_dim_(Tensor self, int64_t dim) {
  const Tensor v = self.squeeze(dim);
  return set_view(std::move(self), v);
}
Tensor unsqueeze_(Tensor self, int64_t dim) {
  const Tensor v = self.unsqueeze(dim);
  return set_view(std::move(self), v);
}
Tensor as_strided_(Tensor self, IntList size, IntList stride, std::optional<int64_t> storage_offset) {
  const Tensor v = self.as_strided(size, stride, storage_offset);
  return set_view(std::move(self), v);
}

// --- joining and splitting ------------------------------------------------------------------
std::vector<Tensor> meshgrid_ij(const std::vector<Tensor>& tensors) { return torchlet::meshgrid(tensors, "ij"); }
std::vector<Tensor> meshgrid_indexing(const std::vector<Tensor>& tensors, const std::string& indexing) {
  return torchlet::meshgrid(tensors, indexing);
}

using Split = std::vector<Tensor> (*)(const Tensor&, int64_t);
using SplitAt = std::vector<Tensor> (*)(const Tensor&, IntList);
constexpr auto tensor_split_sections =
    static_cast<std::vector<Tensor> (*)(const Tensor&, int64_t, int64_t)>(&torchlet::tensor_split);
constexpr auto tensor_split_indices =
    static_cast<std::vector<Tensor> (*)(const Tensor&, IntList, int64_t)>(&torchlet::tensor_split);
constexpr auto hsplit_sections = static_cast<Split>(&torchlet::hsplit);
constexpr auto hsplit_indices = static_cast<SplitAt>(&torchlet::hsplit);
constexpr auto vsplit_sections = static_cast<Split>(&torchlet::vsplit);
constexpr auto vsplit_indices = static_cast<SplitAt>(&torchlet::vsplit);
constexpr auto dsplit_sections = static_cast<Split>(&torchlet::dsplit);
constexpr auto dsplit_indices = static_cast<SplitAt>(&torchlet::dsplit);

using AtLeast = Tensor (*)(const Tensor&);
using AtLeastAll = std::vector<Tensor> (*)(const std::vector<Tensor>&);
constexpr auto atleast_1d = static_cast<AtLeast>(&torchlet::atleast_1d);
constexpr auto atleast_2d = static_cast<AtLeast>(&torchlet::atleast_2d);
constexpr auto atleast_3d = static_cast<AtLeast>(&torchlet::atleast_3d);
constexpr auto atleast_1d_all = static_cast<AtLeastAll>(&torchlet::atleast_1d);
constexpr auto atleast_2d_all = static_cast<AtLeastAll>(&torchlet::atleast_2d);
constexpr auto atleast_3d_all = static_cast<AtLeastAll>(&torchlet::atleast_3d);

// --- repetition -----------------------------------------------------------------------------
constexpr auto repeat_interleave_counts =
    static_cast<Tensor (*)(const Tensor&, std::optional<int64_t>)>(&torchlet::repeat_interleave);
constexpr auto repeat_interleave_tensor =
    static_cast<Tensor (*)(const Tensor&, const Tensor&, std::optional<int64_t>, std::optional<int64_t>)>(
        &torchlet::repeat_interleave);
constexpr auto repeat_interleave_int =
    static_cast<Tensor (*)(const Tensor&, int64_t, std::optional<int64_t>, std::optional<int64_t>)>(
        &torchlet::repeat_interleave);

static RegisterOps reg({
    // --- views
    {"aten::view(Tensor(a) self, SymInt[] size) -> Tensor(a)", boxed<&view>},
    {"aten::reshape(Tensor(a) self, SymInt[] shape) -> Tensor(a)", boxed<&reshape>},
    {"aten::permute(Tensor(a) self, int[] dims) -> Tensor(a)", boxed<&permute>},
    {"aten::transpose.int(Tensor(a) self, int dim0, int dim1) -> Tensor(a)", boxed<&transpose>},
    {"aten::transpose_(Tensor(a!) self, int dim0, int dim1) -> Tensor(a!)", boxed<&transpose_>},
    {"aten::swapaxes(Tensor(a) self, int axis0, int axis1) -> Tensor(a)", boxed<&transpose>},
    {"aten::swapaxes_(Tensor(a!) self, int axis0, int axis1) -> Tensor(a!)", boxed<&transpose_>},
    {"aten::swapdims(Tensor(a) self, int dim0, int dim1) -> Tensor(a)", boxed<&transpose>},
    {"aten::swapdims_(Tensor(a!) self, int dim0, int dim1) -> Tensor(a!)", boxed<&transpose_>},
    {"aten::t(Tensor(a) self) -> Tensor(a)", boxed<&t>},
    {"aten::t_(Tensor(a!) self) -> Tensor(a!)", boxed<&t_>},
    {"aten::numpy_T(Tensor(a) self) -> Tensor(a)", boxed<&numpy_t>},
    {"aten::mT(Tensor(a) self) -> Tensor(a)", boxed<&matrix_transpose<false>>},
    {"aten::mH(Tensor(a) self) -> Tensor(a)", boxed<&matrix_transpose<false>>},
    {"aten::matrix_H(Tensor(a) self) -> Tensor(a)", boxed<&matrix_transpose<true>>},
    {"aten::select.int(Tensor(a) self, int dim, int index) -> Tensor(a)", boxed<&select>},
    {"aten::slice.t(t[] l, int? start=None, int? end=None, int step=1) -> t[]", boxed<&list_slice>},
    {"aten::slice.str(str string, int? start=None, int? end=None, int step=1) -> str", boxed<&str_slice>},
    {"aten::slice.Tensor(Tensor(a) self, int dim=0, SymInt? start=None, SymInt? end=None, SymInt step=1) -> Tensor(a)", boxed<&slice>},
    {"aten::narrow(Tensor(a) self, int dim, int start, int length) -> Tensor(a)", boxed<&narrow>},
    {"aten::narrow.Tensor(Tensor(a) self, int dim, Tensor start, int length) -> Tensor(a)", boxed<&narrow_at>},
    {"aten::expand(Tensor(a) self, SymInt[] size, *, bool implicit=False) -> Tensor(a)", boxed<&expand>},
    {"aten::expand_as(Tensor(a) self, Tensor other) -> Tensor(a)", boxed<&expand_as>},
    {"aten::view_as(Tensor(a) self, Tensor other) -> Tensor(a)", boxed<&view_as>},
    {"aten::reshape_as(Tensor(a) self, Tensor other) -> Tensor(a)", boxed<&reshape_as>},
    {"aten::squeeze(Tensor(a) self) -> Tensor(a)", boxed<&squeeze>},
    {"aten::squeeze.dim(Tensor(a) self, int dim) -> Tensor(a)", boxed<&squeeze_dim>},
    {"aten::squeeze_(Tensor(a!) self) -> Tensor(a!)", boxed<&squeeze_>},
    {"aten::squeeze_.dim(Tensor(a!) self, int dim) -> Tensor(a!)", boxed<&squeeze_dim_>},
    {"aten::unsqueeze(Tensor(a) self, int dim) -> Tensor(a)", boxed<&unsqueeze>},
    {"aten::unsqueeze_(Tensor(a!) self, int dim) -> Tensor(a!)", boxed<&unsqueeze_>},
    {"aten::flatten.using_ints(Tensor(a) self, int start_dim=0, int end_dim=-1) -> Tensor(a)", boxed<&flatten>},
    {"aten::unflatten.int(Tensor(a) self, int dim, int[] sizes) -> Tensor(a)", boxed<&torchlet::unflatten>},
    {"aten::ravel(Tensor(a) self) -> Tensor(a)", boxed<&ravel>},
    {"aten::movedim.intlist(Tensor(a) self, int[] source, int[] destination) -> Tensor(a)", boxed<&movedim>},
    {"aten::movedim.int(Tensor(a) self, int source, int destination) -> Tensor(a)", boxed<&movedim>},
    {"aten::moveaxis.intlist(Tensor(a) self, int[] source, int[] destination) -> Tensor(a)", boxed<&movedim>},
    {"aten::moveaxis.int(Tensor(a) self, int source, int destination) -> Tensor(a)", boxed<&movedim>},
    {"aten::as_strided(Tensor(a) self, SymInt[] size, SymInt[] stride, SymInt? storage_offset=None) -> Tensor(a)", boxed<&as_strided>},
    {"aten::as_strided_(Tensor(a!) self, SymInt[] size, SymInt[] stride, SymInt? storage_offset=None) -> Tensor(a!)", boxed<&as_strided_>},
    {"aten::alias(Tensor(a) self) -> Tensor(a)", boxed<&alias>},
    {"aten::unfold(Tensor(a) self, int dimension, int size, int step) -> Tensor(a)", boxed<&torchlet::unfold>},
    {"aten::diagonal(Tensor(a) self, int offset=0, int dim1=0, int dim2=1) -> Tensor(a)", boxed<&diagonal>},
    {"aten::broadcast_to(Tensor(a) self, int[] size) -> Tensor(a)", boxed<&expand_to>},
    {"aten::broadcast_tensors(Tensor[] tensors) -> Tensor[]", boxed<&torchlet::broadcast_tensors>},
    // --- joining and splitting
    {"aten::cat(Tensor[] tensors, int dim=0) -> Tensor", boxed<&torchlet::cat>},
    {"aten::cat.out(Tensor[] tensors, int dim=0, *, Tensor(a!) out) -> Tensor(a!)", out_variant<&torchlet::cat>},
    {"aten::stack(Tensor[] tensors, int dim=0) -> Tensor", boxed<&torchlet::stack>},
    {"aten::stack.out(Tensor[] tensors, int dim=0, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::stack", 1, cat_castable>},
    {"aten::hstack(Tensor[] tensors) -> Tensor", boxed<&torchlet::hstack>},
    {"aten::hstack.out(Tensor[] tensors, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::hstack", 1, cat_castable>},
    {"aten::vstack(Tensor[] tensors) -> Tensor", boxed<&torchlet::vstack>},
    {"aten::vstack.out(Tensor[] tensors, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::vstack", 1, cat_castable>},
    {"aten::row_stack(Tensor[] tensors) -> Tensor", boxed<&torchlet::vstack>},
    {"aten::row_stack.out(Tensor[] tensors, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::row_stack", 1, cat_castable>},
    {"aten::dstack(Tensor[] tensors) -> Tensor", boxed<&torchlet::dstack>},
    {"aten::dstack.out(Tensor[] tensors, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::dstack", 1, cat_castable>},
    {"aten::column_stack(Tensor[] tensors) -> Tensor", boxed<&torchlet::column_stack>},
    {"aten::column_stack.out(Tensor[] tensors, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::column_stack", 1, cat_castable>},
    {"aten::atleast_1d(Tensor self) -> Tensor", boxed<atleast_1d>},
    {"aten::atleast_2d(Tensor self) -> Tensor", boxed<atleast_2d>},
    {"aten::atleast_3d(Tensor self) -> Tensor", boxed<atleast_3d>},
    {"aten::atleast_1d.Sequence(Tensor[] tensors) -> Tensor[]", boxed<atleast_1d_all>},
    {"aten::atleast_2d.Sequence(Tensor[] tensors) -> Tensor[]", boxed<atleast_2d_all>},
    {"aten::atleast_3d.Sequence(Tensor[] tensors) -> Tensor[]", boxed<atleast_3d_all>},
    {"aten::block_diag(Tensor[] tensors) -> Tensor", boxed<&torchlet::block_diag>},
    {"aten::block_diag.out(Tensor[] tensors, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::block_diag", 1, any_dtype>},
    {"aten::cartesian_prod(Tensor[] tensors) -> Tensor", boxed<&torchlet::cartesian_prod>},
    {"aten::combinations(Tensor self, int r=2, bool with_replacement=False) -> Tensor", boxed<&torchlet::combinations>},
    {"aten::meshgrid(Tensor[] tensors) -> Tensor[]", boxed<&meshgrid_ij>},
    {"aten::meshgrid.indexing(Tensor[] tensors, *, str indexing) -> Tensor[]", boxed<&meshgrid_indexing>},
    {"aten::split.str(str self, str? separator=None, int max=-1) -> str[]", boxed<&str_split>},
    {"aten::split.Tensor(Tensor(a -> *) self, int split_size, int dim=0) -> Tensor(a)[]", boxed<&torchlet::split>},
    {"aten::unsafe_split.Tensor(Tensor self, int split_size, int dim=0) -> Tensor[]", boxed<&torchlet::split>},
    {"aten::split.sizes(Tensor(a -> *) self, int[] split_size, int dim=0) -> Tensor(a)[]", boxed<&torchlet::split_with_sizes>},
    {"aten::split(Tensor(a -> *) self, int[] split_sizes, int dim=0) -> Tensor(a)[]", boxed<&torchlet::split_with_sizes>},
    {"aten::split_with_sizes(Tensor(a -> *) self, int[] split_sizes, int dim=0) -> Tensor(a)[]", boxed<&torchlet::split_with_sizes>},
    {"aten::chunk(Tensor(a -> *) self, int chunks, int dim=0) -> Tensor(a)[]", boxed<&torchlet::chunk>},
    {"aten::unbind.int(Tensor(a -> *) self, int dim=0) -> Tensor(a)[]", boxed<&torchlet::unbind>},
    {"aten::tensor_split.sections(Tensor(a -> *) self, int sections, int dim=0) -> Tensor(a)[]", boxed<tensor_split_sections>},
    {"aten::tensor_split.indices(Tensor(a -> *) self, int[] indices, int dim=0) -> Tensor(a)[]", boxed<tensor_split_indices>},
    {"aten::hsplit.int(Tensor(a -> *) self, int sections) -> Tensor(a)[]", boxed<hsplit_sections>},
    {"aten::hsplit.array(Tensor(a -> *) self, int[] indices) -> Tensor(a)[]", boxed<hsplit_indices>},
    {"aten::vsplit.int(Tensor(a -> *) self, int sections) -> Tensor(a)[]", boxed<vsplit_sections>},
    {"aten::vsplit.array(Tensor(a -> *) self, int[] indices) -> Tensor(a)[]", boxed<vsplit_indices>},
    {"aten::dsplit.int(Tensor(a -> *) self, int sections) -> Tensor(a)[]", boxed<dsplit_sections>},
    {"aten::dsplit.array(Tensor(a -> *) self, int[] indices) -> Tensor(a)[]", boxed<dsplit_indices>},
    // --- reordering, triangles, diagonals, repetition
    {"aten::flip(Tensor self, int[] dims) -> Tensor", boxed<&torchlet::flip>},
    {"aten::flip.out(Tensor self, int[] dims, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::flip", 1, any_dtype>},
    {"aten::fliplr(Tensor self) -> Tensor", boxed<&torchlet::fliplr>},
    {"aten::flipud(Tensor self) -> Tensor", boxed<&torchlet::flipud>},
    {"aten::roll(Tensor self, int[1] shifts, int[1] dims=[]) -> Tensor", boxed<&torchlet::roll>},
    {"aten::roll.out(Tensor self, int[1] shifts, int[1] dims=[], *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::roll", 1, any_dtype>},
    {"aten::rot90(Tensor self, int k=1, int[] dims=[0, 1]) -> Tensor", boxed<&torchlet::rot90>},
    {"aten::rot90.out(Tensor self, int k=1, int[] dims=[0, 1], *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::rot90", 1, any_dtype>},
    {"aten::tril(Tensor self, int diagonal=0) -> Tensor", boxed<&torchlet::tril>},
    {"aten::tril_(Tensor(a!) self, int diagonal=0) -> Tensor(a!)", inplace<&torchlet::tril>},
    {"aten::tril.out(Tensor self, int diagonal=0, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::tril", 1, exact_dtype>},
    {"aten::triu(Tensor self, int diagonal=0) -> Tensor", boxed<&torchlet::triu>},
    {"aten::triu_(Tensor(a!) self, int diagonal=0) -> Tensor(a!)", inplace<&torchlet::triu>},
    {"aten::triu.out(Tensor self, int diagonal=0, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::triu", 1, exact_dtype>},
    {"aten::diag(Tensor self, int diagonal=0) -> Tensor", boxed<&torchlet::diag>},
    {"aten::diag.out(Tensor self, int diagonal=0, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::diag", 1, expected_scalar_type>},
    {"aten::diagflat(Tensor self, int offset=0) -> Tensor", boxed<&torchlet::diagflat>},
    {"aten::diag_embed(Tensor self, int offset=0, int dim1=-2, int dim2=-1) -> Tensor", boxed<&torchlet::diag_embed>},
    {"aten::diag_embed.out(Tensor self, int offset=0, int dim1=-2, int dim2=-1, *, Tensor(a!) out) -> Tensor(a!)", out_variant<&torchlet::diag_embed>},
    {"aten::trace(Tensor self) -> Tensor", boxed<&torchlet::trace>},
    {"aten::trace.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::trace", 1, any_dtype>},
    {"aten::repeat(Tensor self, SymInt[] repeats) -> Tensor", boxed<&torchlet::repeat>},
    {"aten::repeat.out(Tensor self, SymInt[] repeats, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::repeat", 1, any_dtype>},
    {"aten::tile(Tensor self, int[] dims) -> Tensor", boxed<&torchlet::tile>},
    {"aten::repeat_interleave.Tensor(Tensor repeats, *, int? output_size=None) -> Tensor", boxed<repeat_interleave_counts>},
    {"aten::repeat_interleave.Tensor_out(Tensor repeats, *, int? output_size=None, Tensor(a!) out) -> Tensor(a!)", out_variant<repeat_interleave_counts>},
    {"aten::repeat_interleave.self_Tensor(Tensor self, Tensor repeats, int? dim=None, *, int? output_size=None) -> Tensor", boxed<repeat_interleave_tensor>},
    {"aten::repeat_interleave.self_int(Tensor self, int repeats, int? dim=None, *, int? output_size=None) -> Tensor", boxed<repeat_interleave_int>},
});

}  // namespace
}  // namespace torchlet::jit::ops

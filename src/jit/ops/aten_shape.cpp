// Shape, view, copy and indexing operators: views (view, reshape, permute, transpose,
// select, slice, narrow, expand, squeeze/unsqueeze, flatten, ...) share storage as in
// torch; in-place view ops (transpose_, squeeze_, ...) rewrite the TensorImpl every
// alias sees; conversions (to.*, type_as), copies and fills; cat/stack/split/chunk/
// unbind; gather/scatter/index_select/masked_fill; flip/roll/tril/triu/repeat/nonzero.
#include <numeric>

#include <torchlet/ops.h>

#include "jit/ops/ops_util.h"

namespace torchlet::jit::ops {
namespace {

void finish_out(Stack& s, Tensor out, const Tensor& r, const char* op) {
  assign_out(out, r, op);
  push(s, out);
}
// An in-place view op: self's TensorImpl takes the view's geometry.
void set_view(Tensor& self, const Tensor& v) {
  TensorImpl* impl = self.impl();
  impl->offset_ = v.storage_offset();
  impl->sizes_ = v.sizes().vec();
  impl->strides_ = v.strides().vec();
}

// --- views ----------------------------------------------------------------------------------
void view(Stack& s) {
  auto size = pop_int_list(s);
  push(s, pop_tensor(s).view(size));
}
void reshape(Stack& s) {
  auto size = pop_int_list(s);
  push(s, pop_tensor(s).reshape(size));
}
void permute(Stack& s) {
  auto dims = pop_int_list(s);
  push(s, pop_tensor(s).permute(dims));
}
Tensor transpose_impl(Stack& s, Tensor* self) {
  int64_t d1 = pop_int(s);
  int64_t d0 = pop_int(s);
  *self = pop_tensor(s);
  return self->transpose(d0, d1);
}
void transpose(Stack& s) {
  Tensor self;
  push(s, transpose_impl(s, &self));
}
void transpose_(Stack& s) {
  Tensor self;
  Tensor v = transpose_impl(s, &self);
  set_view(self, v);
  push(s, self);
}
void t(Stack& s) { push(s, pop_tensor(s).t()); }
void t_(Stack& s) {
  Tensor self = pop_tensor(s);
  set_view(self, self.t());
  push(s, self);
}
// numpy_T / .T: every dimension reversed.
void numpy_t(Stack& s) {
  Tensor self = pop_tensor(s);
  std::vector<int64_t> dims(static_cast<size_t>(self.dim()));
  std::iota(dims.rbegin(), dims.rend(), int64_t{0});
  push(s, self.permute(dims));
}
// .mT / .mH: the last two dimensions swapped (real tensors: no conjugation); .H: a
// matrix's transpose; a 0-dim tensor is its own.
template <bool kMatrixOnly>
void matrix_transpose(Stack& s) {
  Tensor self = pop_tensor(s);
  TL_CHECK(!is_complex(self.dtype()), UnsupportedError, "conjugate transposes of complex tensors are not supported");
  if (self.dim() == 0) {  // torch lets a 0-dim tensor through as it is
    push(s, self);
    return;
  }
  if (kMatrixOnly)
    TL_CHECK(self.dim() == 2, ValueError, "tensor.H is only supported on matrices (2-D tensors). Got {}-D tensor.", self.dim());
  else
    TL_CHECK(self.dim() >= 2, ValueError, "tensor.mT is only supported on matrices or batches of matrices. Got {}-D tensor.",
             self.dim());
  push(s, self.transpose(-2, -1));
}
// .real of a real tensor is the tensor; .imag has none.
void real(Stack& s) {
  TL_CHECK(!is_complex(s.back().toTensor().dtype()), UnsupportedError, "real: complex tensors are not supported");
}
void imag(Stack& s) {
  Tensor self = pop_tensor(s);
  TL_CHECK(is_complex(self.dtype()), TypeError, "imag is not implemented for tensors with non-complex dtypes.");
  TL_CHECK(false, UnsupportedError, "imag: complex tensors are not supported");
}
void select(Stack& s) {
  int64_t index = pop_int(s);
  int64_t dim = pop_int(s);
  push(s, pop_tensor(s).select(dim, index));
}
void slice(Stack& s) {
  int64_t step = pop_int(s);
  auto end = pop_opt_int(s);
  auto start = pop_opt_int(s);
  int64_t dim = pop_int(s);
  push(s, pop_tensor(s).slice(dim, start, end, step));
}
void narrow(Stack& s) {
  int64_t length = pop_int(s);
  IValue start = pop(s);
  int64_t dim = pop_int(s);
  int64_t st = start.isTensor() ? start.toTensor().item().to_int() : start.toInt();
  push(s, pop_tensor(s).narrow(dim, st, length));
}
void expand(Stack& s) {
  pop_bool(s);  // implicit: only a tracing hint
  auto size = pop_int_list(s);
  push(s, pop_tensor(s).expand(size));
}
void expand_as(Stack& s) {
  Tensor other = pop_tensor(s);
  push(s, pop_tensor(s).expand(other.sizes()));
}
void view_as(Stack& s) {
  Tensor other = pop_tensor(s);
  push(s, pop_tensor(s).view(other.sizes()));
}
void reshape_as(Stack& s) {
  Tensor other = pop_tensor(s);
  push(s, pop_tensor(s).reshape(other.sizes()));
}
void squeeze(Stack& s) { push(s, pop_tensor(s).squeeze()); }
void squeeze_dim(Stack& s) {
  int64_t dim = pop_int(s);
  push(s, pop_tensor(s).squeeze(dim));
}
void squeeze_(Stack& s) {
  Tensor self = pop_tensor(s);
  set_view(self, self.squeeze());
  push(s, self);
}
void squeeze_dim_(Stack& s) {
  int64_t dim = pop_int(s);
  Tensor self = pop_tensor(s);
  set_view(self, self.squeeze(dim));
  push(s, self);
}
void unsqueeze(Stack& s) {
  int64_t dim = pop_int(s);
  push(s, pop_tensor(s).unsqueeze(dim));
}
void unsqueeze_(Stack& s) {
  int64_t dim = pop_int(s);
  Tensor self = pop_tensor(s);
  set_view(self, self.unsqueeze(dim));
  push(s, self);
}
void flatten(Stack& s) {
  int64_t end = pop_int(s);
  int64_t start = pop_int(s);
  push(s, pop_tensor(s).flatten(start, end));
}
// unflatten(dim, sizes): dim replaced by sizes (one of them may be -1).
void unflatten(Stack& s) {
  auto sizes = pop_int_list(s);
  int64_t dim = pop_int(s);
  Tensor self = pop_tensor(s);
  dim = wrap_dim(dim, self.dim(), "unflatten");
  std::vector<int64_t> shape(self.sizes().begin(), self.sizes().begin() + dim);
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
  push(s, self.view(shape));
}
void movedim(Stack& s) {
  auto dst = pop_int_list(s);
  auto src = pop_int_list(s);
  push(s, pop_tensor(s).movedim(src, dst));
}
void as_strided(Stack& s) {
  auto offset = pop_opt_int(s);
  auto stride = pop_int_list(s);
  auto size = pop_int_list(s);
  push(s, pop_tensor(s).as_strided(size, stride, offset));
}
void as_strided_(Stack& s) {
  auto offset = pop_opt_int(s);
  auto stride = pop_int_list(s);
  auto size = pop_int_list(s);
  Tensor self = pop_tensor(s);
  set_view(self, self.as_strided(size, stride, offset));
  push(s, self);
}
void alias(Stack& s) { push(s, pop_tensor(s).alias()); }
void identity(Stack&) {}

// --- copies and conversions -------------------------------------------------------------------
void contiguous(Stack& s) {
  pop_memory_format(s, "contiguous");
  push(s, pop_tensor(s).contiguous());
}
void clone(Stack& s) {
  pop_memory_format(s, "clone");
  push(s, pop_tensor(s).clone());
}
void clone_out(Stack& s) {
  Tensor out = pop_tensor(s);
  pop_memory_format(s, "clone");
  finish_out(s, out, pop_tensor(s).clone(), "clone");
}
// to(dtype): self when nothing changes and copy is false, as torch returns it.
Tensor convert(const Tensor& t, std::optional<DType> dtype, bool copy) {
  if (!dtype) return copy ? t.clone() : t;
  return t.to(*dtype, copy);
}
void check_cpu(const IValue& device) {
  TL_CHECK(device.isNone() || device.toDevice().kind == Device::Kind::CPU, UnsupportedError,
           "to: device '{}' is not available (torchlet has only the CPU)", device.isNone() ? "" : device.toDevice().str());
}
void to_dtype_op(Stack& s) {
  pop_memory_format(s, "to");
  bool copy = pop_bool(s);
  pop_bool(s);  // non_blocking
  DType d = to_dtype(pop_int(s));
  push(s, convert(pop_tensor(s), d, copy));
}
void to_device(Stack& s) {
  pop_memory_format(s, "to");
  bool copy = pop_bool(s);
  pop_bool(s);
  DType d = to_dtype(pop_int(s));
  check_cpu(pop(s));
  push(s, convert(pop_tensor(s), d, copy));
}
void to_other(Stack& s) {
  pop_memory_format(s, "to");
  bool copy = pop_bool(s);
  pop_bool(s);
  Tensor other = pop_tensor(s);
  push(s, convert(pop_tensor(s), other.dtype(), copy));
}
void to_dtype_layout(Stack& s) {
  pop_memory_format(s, "to");
  bool copy = pop_bool(s);
  pop_bool(s);
  std::optional<DType> d;
  pop_tensor_options(s, "to", &d);
  push(s, convert(pop_tensor(s), d, copy));
}
void to_prim_device(Stack& s) {
  bool copy = pop_bool(s);
  pop_bool(s);
  auto d = pop_opt_dtype(s);
  check_cpu(pop(s));
  push(s, convert(pop_tensor(s), d, copy));
}
void to_prim_dtype(Stack& s) {
  bool copy = pop_bool(s);
  pop_bool(s);
  auto d = pop_opt_dtype(s);
  push(s, convert(pop_tensor(s), d, copy));
}
void to_prim_other(Stack& s) {
  bool copy = pop_bool(s);
  pop_bool(s);
  push(s, convert(pop_tensor(s), std::nullopt, copy));
}
void type_as(Stack& s) {
  Tensor other = pop_tensor(s);
  push(s, pop_tensor(s).to(other.dtype()));
}
void copy_(Stack& s) {
  pop_bool(s);  // non_blocking
  Tensor src = pop_tensor(s);
  Tensor self = pop_tensor(s);
  self.copy_(src);
  push(s, self);
}
void copy_tensor_(Stack& s) {
  Tensor src = pop_tensor(s);
  Tensor self = pop_tensor(s);
  self.copy_(src);
  push(s, self);
}
void copy_number_(Stack& s) {
  Scalar v = pop_scalar(s);
  Tensor self = pop_tensor(s);
  self.fill_(v);
  push(s, self);
}
// aten::copy(self, src): a new tensor shaped and typed like self holding src.
void copy_functional(Stack& s) {
  pop_bool(s);
  Tensor src = pop_tensor(s);
  Tensor self = pop_tensor(s);
  Tensor r = self.clone();
  r.copy_(src);
  push(s, r);
}
Scalar fill_value(const IValue& v) {
  if (!v.isTensor()) return v.toScalar();
  Tensor t = v.toTensor();
  TL_CHECK(t.dim() == 0, ValueError,
           "fill_ only supports 0-dimension value tensor but got tensor with {} dimensions.", t.dim());
  return t.item();
}
void fill_(Stack& s) {
  Scalar v = fill_value(pop(s));
  Tensor self = pop_tensor(s);
  self.fill_(v);
  push(s, self);
}
void fill(Stack& s) {
  Scalar v = fill_value(pop(s));
  Tensor r = pop_tensor(s).clone();
  r.fill_(v);
  push(s, r);
}
void zero_(Stack& s) {
  Tensor self = pop_tensor(s);
  self.fill_(0);
  push(s, self);
}
void zero(Stack& s) {
  Tensor r = pop_tensor(s).clone();
  r.fill_(0);
  push(s, r);
}

// --- joining and splitting ----------------------------------------------------------------------
template <Tensor (*F)(const std::vector<Tensor>&, int64_t)>
void join(Stack& s) {
  int64_t dim = pop_int(s);
  push(s, F(pop_tensor_list(s), dim));
}
template <Tensor (*F)(const std::vector<Tensor>&, int64_t)>
void join_out(Stack& s) {
  Tensor out = pop_tensor(s);
  int64_t dim = pop_int(s);
  finish_out(s, out, F(pop_tensor_list(s), dim), "cat");
}
void split(Stack& s) {
  int64_t dim = pop_int(s);
  int64_t size = pop_int(s);
  push(s, tensor_list(torchlet::split(pop_tensor(s), size, dim)));
}
void split_sizes(Stack& s) {
  int64_t dim = pop_int(s);
  auto sizes = pop_int_list(s);
  Tensor self = pop_tensor(s);
  dim = wrap_dim(dim, self.dim(), "split_with_sizes");
  int64_t total = std::accumulate(sizes.begin(), sizes.end(), int64_t{0});
  TL_CHECK(total == self.size(dim), ValueError,
           "split_with_sizes expects split_sizes to sum exactly to {} (input tensor's size at dimension {}), but got "
           "split_sizes={}", self.size(dim), dim, shape_repr(sizes));
  std::vector<Tensor> out;
  int64_t start = 0;
  for (int64_t n : sizes) {
    out.push_back(self.narrow(dim, start, n));
    start += n;
  }
  push(s, tensor_list(out));
}
void chunk(Stack& s) {
  int64_t dim = pop_int(s);
  int64_t chunks = pop_int(s);
  push(s, tensor_list(torchlet::chunk(pop_tensor(s), chunks, dim)));
}
void unbind(Stack& s) {
  int64_t dim = pop_int(s);
  Tensor self = pop_tensor(s);
  dim = wrap_dim(dim, self.dim(), "unbind");
  std::vector<Tensor> out;
  for (int64_t i = 0; i < self.size(dim); ++i) out.push_back(self.select(dim, i));
  push(s, tensor_list(out));
}

// --- indexing ----------------------------------------------------------------------------------
Tensor index_select_impl(Stack& s) {
  Tensor index = pop_tensor(s);
  int64_t dim = pop_int(s);
  // torch's index_select refuses negative indices; the kernel wraps them for the callers
  // that mean them (take, advanced indexing).
  if (index.dtype() == DType::Long || index.dtype() == DType::Int)
    for (int64_t i : index.reshape({-1}).to_vector<int64_t>()) TL_CHECK(i >= 0, IndexError, "index out of range in self");
  return torchlet::index_select(pop_tensor(s), dim, index);
}
void index_select(Stack& s) { push(s, index_select_impl(s)); }
Tensor gather_impl(Stack& s) {
  pop_bool(s);  // sparse_grad
  Tensor index = pop_tensor(s);
  int64_t dim = pop_int(s);
  return torchlet::gather(pop_tensor(s), dim, index);
}
void gather(Stack& s) { push(s, gather_impl(s)); }
// scatter with a Scalar value scatters a tensor of that value shaped like index.
Tensor scatter_impl(Stack& s, Tensor* self_out = nullptr) {
  IValue src = pop(s);
  Tensor index = pop_tensor(s);
  int64_t dim = pop_int(s);
  Tensor self = pop_tensor(s);
  if (self_out) *self_out = self;
  Tensor source = src.isTensor() ? src.toTensor() : full(index.sizes(), src.toScalar(), self.dtype());
  return torchlet::scatter(self, dim, index, source);
}
void scatter(Stack& s) { push(s, scatter_impl(s)); }
void scatter_(Stack& s) {
  Tensor self;
  Tensor r = scatter_impl(s, &self);
  assign_inplace(self, r, "scatter_");
  push(s, self);
}
Tensor masked_fill_impl(Stack& s, Tensor* self_out = nullptr) {
  IValue v = pop(s);
  Tensor mask = pop_tensor(s);
  Tensor self = pop_tensor(s);
  if (self_out) *self_out = self;
  Scalar value = v.isTensor() ? v.toTensor().item() : v.toScalar();
  if (v.isTensor()) {
    TL_CHECK(v.toTensor().dim() == 0, ValueError,
             "masked_fill_ only supports a 0-dimensional value tensor, but got tensor with {} dimension(s).",
             v.toTensor().dim());
  }
  return torchlet::masked_fill(self, mask, value);
}
void masked_fill(Stack& s) { push(s, masked_fill_impl(s)); }
void masked_fill_(Stack& s) {
  Tensor self;
  Tensor r = masked_fill_impl(s, &self);
  assign_inplace(self, r, "masked_fill_");
  push(s, self);
}

// --- reordering ---------------------------------------------------------------------------------
Tensor flip_impl(Stack& s) {
  auto dims = pop_int_list(s);
  return torchlet::flip(pop_tensor(s), dims);
}
void flip(Stack& s) { push(s, flip_impl(s)); }
Tensor roll_impl(Stack& s) {
  auto dims = pop_int_list(s);
  auto shifts = pop_int_list(s);
  return torchlet::roll(pop_tensor(s), shifts, dims);
}
void roll(Stack& s) { push(s, roll_impl(s)); }
template <bool kLower>
Tensor tri_impl(Stack& s, Tensor* self_out = nullptr) {
  int64_t diagonal = pop_int(s);
  Tensor self = pop_tensor(s);
  if (self_out) *self_out = self;
  return kLower ? torchlet::tril(self, diagonal) : torchlet::triu(self, diagonal);
}
template <bool kLower>
void tri(Stack& s) { push(s, tri_impl<kLower>(s)); }
template <bool kLower>
void tri_(Stack& s) {
  Tensor self;
  Tensor r = tri_impl<kLower>(s, &self);
  assign_inplace(self, r, kLower ? "tril_" : "triu_");
  push(s, self);
}
Tensor repeat_impl(Stack& s) {
  auto repeats = pop_int_list(s);
  return torchlet::repeat(pop_tensor(s), repeats);
}
void repeat(Stack& s) { push(s, repeat_impl(s)); }
void nonzero(Stack& s) { push(s, torchlet::nonzero(pop_tensor(s))); }

}  // namespace

static RegisterOps reg({
    {"aten::view(Tensor(a) self, SymInt[] size) -> Tensor(a)", view},
    {"aten::reshape(Tensor(a) self, SymInt[] shape) -> Tensor(a)", reshape},
    {"aten::permute(Tensor(a) self, int[] dims) -> Tensor(a)", permute},
    {"aten::transpose.int(Tensor(a) self, int dim0, int dim1) -> Tensor(a)", transpose},
    {"aten::transpose_(Tensor(a!) self, int dim0, int dim1) -> Tensor(a!)", transpose_},
    {"aten::swapaxes(Tensor(a) self, int axis0, int axis1) -> Tensor(a)", transpose},
    {"aten::swapaxes_(Tensor(a!) self, int axis0, int axis1) -> Tensor(a!)", transpose_},
    {"aten::swapdims(Tensor(a) self, int dim0, int dim1) -> Tensor(a)", transpose},
    {"aten::swapdims_(Tensor(a!) self, int dim0, int dim1) -> Tensor(a!)", transpose_},
    {"aten::t(Tensor(a) self) -> Tensor(a)", t},
    {"aten::t_(Tensor(a!) self) -> Tensor(a!)", t_},
    {"aten::numpy_T(Tensor(a) self) -> Tensor(a)", numpy_t},
    {"aten::mT(Tensor(a) self) -> Tensor(a)", matrix_transpose<false>},
    {"aten::mH(Tensor(a) self) -> Tensor(a)", matrix_transpose<false>},
    {"aten::matrix_H(Tensor(a) self) -> Tensor(a)", matrix_transpose<true>},
    {"aten::real(Tensor(a) self) -> Tensor(a)", real},
    {"aten::imag(Tensor(a) self) -> Tensor(a)", imag},
    {"aten::select.int(Tensor(a) self, int dim, int index) -> Tensor(a)", select},
    {"aten::slice.Tensor(Tensor(a) self, int dim=0, SymInt? start=None, SymInt? end=None, SymInt step=1) -> Tensor(a)", slice},
    {"aten::narrow(Tensor(a) self, int dim, int start, int length) -> Tensor(a)", narrow},
    {"aten::narrow.Tensor(Tensor(a) self, int dim, Tensor start, int length) -> Tensor(a)", narrow},
    {"aten::expand(Tensor(a) self, SymInt[] size, *, bool implicit=False) -> Tensor(a)", expand},
    {"aten::expand_as(Tensor(a) self, Tensor other) -> Tensor(a)", expand_as},
    {"aten::view_as(Tensor(a) self, Tensor other) -> Tensor(a)", view_as},
    {"aten::reshape_as(Tensor(a) self, Tensor other) -> Tensor(a)", reshape_as},
    {"aten::squeeze(Tensor(a) self) -> Tensor(a)", squeeze},
    {"aten::squeeze.dim(Tensor(a) self, int dim) -> Tensor(a)", squeeze_dim},
    {"aten::squeeze_(Tensor(a!) self) -> Tensor(a!)", squeeze_},
    {"aten::squeeze_.dim(Tensor(a!) self, int dim) -> Tensor(a!)", squeeze_dim_},
    {"aten::unsqueeze(Tensor(a) self, int dim) -> Tensor(a)", unsqueeze},
    {"aten::unsqueeze_(Tensor(a!) self, int dim) -> Tensor(a!)", unsqueeze_},
    {"aten::flatten.using_ints(Tensor(a) self, int start_dim=0, int end_dim=-1) -> Tensor(a)", flatten},
    {"aten::unflatten.int(Tensor(a) self, int dim, int[] sizes) -> Tensor(a)", unflatten},
    {"aten::movedim.intlist(Tensor(a) self, int[] source, int[] destination) -> Tensor(a)", movedim},
    {"aten::movedim.int(Tensor(a) self, int source, int destination) -> Tensor(a)", movedim},
    {"aten::moveaxis.intlist(Tensor(a) self, int[] source, int[] destination) -> Tensor(a)", movedim},
    {"aten::moveaxis.int(Tensor(a) self, int source, int destination) -> Tensor(a)", movedim},
    {"aten::as_strided(Tensor(a) self, SymInt[] size, SymInt[] stride, SymInt? storage_offset=None) -> Tensor(a)", as_strided},
    {"aten::as_strided_(Tensor(a!) self, SymInt[] size, SymInt[] stride, SymInt? storage_offset=None) -> Tensor(a!)", as_strided_},
    {"aten::alias(Tensor(a) self) -> Tensor(a)", alias},
    {"aten::detach(Tensor(a) self) -> Tensor(a)", alias},
    {"aten::detach_(Tensor(a!) self) -> Tensor(a!)", identity},
    {"aten::contiguous(Tensor(a) self, *, MemoryFormat memory_format=0) -> Tensor(a)", contiguous},
    {"aten::clone(Tensor self, *, MemoryFormat? memory_format=None) -> Tensor", clone},
    {"aten::clone.out(Tensor self, *, MemoryFormat? memory_format=None, Tensor(a!) out) -> Tensor(a!)", clone_out},
    {"aten::to.dtype(Tensor(a) self, ScalarType dtype, bool non_blocking=False, bool copy=False, MemoryFormat? memory_format=None) -> Tensor(a)", to_dtype_op},
    {"aten::to.device(Tensor(a) self, Device device, ScalarType dtype, bool non_blocking=False, bool copy=False, MemoryFormat? memory_format=None) -> Tensor(a)", to_device},
    {"aten::to.other(Tensor(a) self, Tensor other, bool non_blocking=False, bool copy=False, MemoryFormat? memory_format=None) -> Tensor(a)", to_other},
    {"aten::to.dtype_layout(Tensor(a) self, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None, bool non_blocking=False, bool copy=False, MemoryFormat? memory_format=None) -> Tensor(a)", to_dtype_layout},
    {"aten::to.prim_Device(Tensor(a) self, Device? device, int? dtype=None, bool non_blocking=False, bool copy=False) -> Tensor(b|a)", to_prim_device},
    {"aten::to.prim_dtype(Tensor(a) self, int? dtype=None, bool non_blocking=False, bool copy=False) -> Tensor(b|a)", to_prim_dtype},
    {"aten::to.prim_other(Tensor(a) self, bool non_blocking=False, bool copy=False) -> Tensor(b|a)", to_prim_other},
    {"aten::type_as(Tensor self, Tensor other) -> Tensor", type_as},
    {"aten::copy_(Tensor(a!) self, Tensor src, bool non_blocking=False) -> Tensor(a!)", copy_},
    {"aten::copy_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)", copy_tensor_},
    {"aten::copy_.int(Tensor(a!) self, int other) -> Tensor(a!)", copy_number_},
    {"aten::copy_.float(Tensor(a!) self, float other) -> Tensor(a!)", copy_number_},
    {"aten::copy(Tensor self, Tensor src, bool non_blocking=False) -> Tensor", copy_functional},
    {"aten::fill_.Scalar(Tensor(a!) self, Scalar value) -> Tensor(a!)", fill_},
    {"aten::fill_.Tensor(Tensor(a!) self, Tensor value) -> Tensor(a!)", fill_},
    {"aten::fill.Scalar(Tensor self, Scalar value) -> Tensor", fill},
    {"aten::fill.Tensor(Tensor self, Tensor value) -> Tensor", fill},
    {"aten::zero_(Tensor(a!) self) -> Tensor(a!)", zero_},
    {"aten::zero(Tensor self) -> Tensor", zero},
    {"aten::cat(Tensor[] tensors, int dim=0) -> Tensor", join<torchlet::cat>},
    {"aten::cat.out(Tensor[] tensors, int dim=0, *, Tensor(a!) out) -> Tensor(a!)", join_out<torchlet::cat>},
    {"aten::stack(Tensor[] tensors, int dim=0) -> Tensor", join<torchlet::stack>},
    {"aten::split.Tensor(Tensor(a -> *) self, int split_size, int dim=0) -> Tensor(a)[]", split},
    {"aten::unsafe_split.Tensor(Tensor self, int split_size, int dim=0) -> Tensor[]", split},
    {"aten::split.sizes(Tensor(a -> *) self, int[] split_size, int dim=0) -> Tensor(a)[]", split_sizes},
    {"aten::split(Tensor(a -> *) self, int[] split_sizes, int dim=0) -> Tensor(a)[]", split_sizes},
    {"aten::split_with_sizes(Tensor(a -> *) self, int[] split_sizes, int dim=0) -> Tensor(a)[]", split_sizes},
    {"aten::chunk(Tensor(a -> *) self, int chunks, int dim=0) -> Tensor(a)[]", chunk},
    {"aten::unbind.int(Tensor(a -> *) self, int dim=0) -> Tensor(a)[]", unbind},
    {"aten::index_select(Tensor self, int dim, Tensor index) -> Tensor", index_select},
    {"aten::gather(Tensor self, int dim, Tensor index, *, bool sparse_grad=False) -> Tensor", gather},
    {"aten::scatter.src(Tensor self, int dim, Tensor index, Tensor src) -> Tensor", scatter},
    {"aten::scatter.value(Tensor self, int dim, Tensor index, Scalar value) -> Tensor", scatter},
    {"aten::scatter_.src(Tensor(a!) self, int dim, Tensor index, Tensor src) -> Tensor(a!)", scatter_},
    {"aten::scatter_.value(Tensor(a!) self, int dim, Tensor index, Scalar value) -> Tensor(a!)", scatter_},
    {"aten::masked_fill.Scalar(Tensor self, Tensor mask, Scalar value) -> Tensor", masked_fill},
    {"aten::masked_fill.Tensor(Tensor self, Tensor mask, Tensor value) -> Tensor", masked_fill},
    {"aten::masked_fill_.Scalar(Tensor(a!) self, Tensor mask, Scalar value) -> Tensor(a!)", masked_fill_},
    {"aten::masked_fill_.Tensor(Tensor(a!) self, Tensor mask, Tensor value) -> Tensor(a!)", masked_fill_},
    {"aten::flip(Tensor self, int[] dims) -> Tensor", flip},
    {"aten::roll(Tensor self, int[1] shifts, int[1] dims=[]) -> Tensor", roll},
    {"aten::tril(Tensor self, int diagonal=0) -> Tensor", tri<true>},
    {"aten::tril_(Tensor(a!) self, int diagonal=0) -> Tensor(a!)", tri_<true>},
    {"aten::triu(Tensor self, int diagonal=0) -> Tensor", tri<false>},
    {"aten::triu_(Tensor(a!) self, int diagonal=0) -> Tensor(a!)", tri_<false>},
    {"aten::repeat(Tensor self, SymInt[] repeats) -> Tensor", repeat},
    {"aten::nonzero(Tensor self) -> Tensor", nonzero},
});

}  // namespace torchlet::jit::ops

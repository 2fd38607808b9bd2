// Indexing operators: advanced indexing (index.Tensor, index_put(_)), index_select,
// index_add/index_copy/index_fill, gather, scatter (with its older reductions),
// scatter_add, scatter_reduce, masked_fill/masked_scatter/masked_select, put, take,
// take_along_dim, nonzero and argwhere, with their in-place and out= forms, each
// registered from its kernel's signature (Note [Boxing] in boxing.h; kernels in
// src/tensor/kernels/indexing.cpp and shape.cpp), and TorchScript's list.index and
// str.index (index.list_*, index.str: list_builtins.h, str_builtins.h), before
// index.Tensor, the order they register in (docs/operators.md). where and isin are the
// comparison family's.
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

// torch's index_select refuses negative indices; the kernel wraps them for the callers
// that mean them (take, advanced indexing).
Tensor index_select_checked(const Tensor& self, int64_t dim, const Tensor& index) {
  if (index.dtype() == DType::Long || index.dtype() == DType::Int)
    for (int64_t i : index.reshape({-1}).to_vector<int64_t>()) TL_CHECK(i >= 0, IndexError, "index out of range in self");
  return torchlet::index_select(self, dim, index);
}
Tensor gather_row(const Tensor& self, int64_t dim, const Tensor& index, bool /*sparse_grad*/) {
  return torchlet::gather(self, dim, index);
}
// index_put_ writes through views of self, so the row returns self itself.
Tensor index_put_row(Tensor self, const std::vector<std::optional<Tensor>>& indices, const Tensor& values, bool accumulate) {
  return torchlet::index_put_(self, indices, values, accumulate);
}
Tensor scatter_src_reduce(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src, const std::string& reduce) {
  return torchlet::scatter(self, dim, index, src, reduce);
}
Tensor scatter_value_reduce(const Tensor& self, int64_t dim, const Tensor& index, const Scalar& value,
                            const std::string& reduce) {
  return torchlet::scatter(self, dim, index, value, reduce);
}
Tensor scatter_reduce_two(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src, const std::string& reduce,
                          bool include_self) {
  return torchlet::scatter_reduce(self, dim, index, src, reduce, include_self);
}

constexpr auto scatter_src = static_cast<Tensor (*)(const Tensor&, int64_t, const Tensor&, const Tensor&)>(&torchlet::scatter);
constexpr auto scatter_value = static_cast<Tensor (*)(const Tensor&, int64_t, const Tensor&, const Scalar&)>(&torchlet::scatter);
constexpr auto index_fill_scalar =
    static_cast<Tensor (*)(const Tensor&, int64_t, const Tensor&, const Scalar&)>(&torchlet::index_fill);
constexpr auto index_fill_tensor =
    static_cast<Tensor (*)(const Tensor&, int64_t, const Tensor&, const Tensor&)>(&torchlet::index_fill);
constexpr auto masked_fill_scalar = static_cast<Tensor (*)(const Tensor&, const Tensor&, const Scalar&)>(&torchlet::masked_fill);
constexpr auto masked_fill_tensor = static_cast<Tensor (*)(const Tensor&, const Tensor&, const Tensor&)>(&torchlet::masked_fill);

static RegisterOps reg({
    {"aten::index.list_Tensor(Tensor[] self, Tensor el) -> int", boxed<&list_index>},
    {"aten::index.list_bool(bool[] self, bool el) -> int", boxed<&list_index>},
    {"aten::index.list_float(float[] self, float el) -> int", boxed<&list_index>},
    {"aten::index.list_int(int[] self, int el) -> int", boxed<&list_index>},
    {"aten::index.list_str(str[] self, str el) -> int", boxed<&list_index>},
    {"aten::index.str(str self, str substr, int start=0, int end=-1) -> int", boxed<&str_find<false, true>>},
    {"aten::index.Tensor(Tensor self, Tensor?[] indices) -> Tensor", boxed<&torchlet::index>},
    {"aten::index.Tensor_hacked_twin(Tensor self, Tensor[] indices) -> Tensor", boxed<&torchlet::index>},
    {"aten::index.Tensor_out(Tensor self, Tensor?[] indices, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::index.Tensor", 1, any_dtype>},
    {"aten::index_put_(Tensor(a!) self, Tensor?[] indices, Tensor values, bool accumulate=False) -> Tensor(a!)", boxed<&index_put_row>},
    {"aten::index_put_.hacked_twin(Tensor(a!) self, Tensor[] indices, Tensor values, bool accumulate=False) -> Tensor(a!)", boxed<&index_put_row>},
    {"aten::index_put(Tensor self, Tensor?[] indices, Tensor values, bool accumulate=False) -> Tensor", boxed<&torchlet::index_put>},
    {"aten::index_put.hacked_twin(Tensor self, Tensor[] indices, Tensor values, bool accumulate=False) -> Tensor", boxed<&torchlet::index_put>},
    {"aten::index_put.out(Tensor self, Tensor?[] indices, Tensor values, bool accumulate=False, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::index_put", 1, any_dtype>},
    {"aten::index_select(Tensor self, int dim, Tensor index) -> Tensor", boxed<&index_select_checked>},
    {"aten::index_select.out(Tensor self, int dim, Tensor index, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::index_select", 1, index_select_check>},
    {"aten::index_add(Tensor self, int dim, Tensor index, Tensor source, *, Scalar alpha=1) -> Tensor", boxed<&torchlet::index_add>},
    {"aten::index_add_(Tensor(a!) self, int dim, Tensor index, Tensor source, *, Scalar alpha=1) -> Tensor(a!)", inplace<&torchlet::index_add>},
    {"aten::index_add.out(Tensor self, int dim, Tensor index, Tensor source, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::index_add", 1, exact_dtype>},
    {"aten::index_copy(Tensor self, int dim, Tensor index, Tensor source) -> Tensor", boxed<&torchlet::index_copy>},
    {"aten::index_copy_(Tensor(a!) self, int dim, Tensor index, Tensor source) -> Tensor(a!)", inplace<&torchlet::index_copy>},
    {"aten::index_copy.out(Tensor self, int dim, Tensor index, Tensor source, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::index_copy", 1, exact_dtype>},
    {"aten::index_fill.int_Scalar(Tensor self, int dim, Tensor index, Scalar value) -> Tensor", boxed<index_fill_scalar>},
    {"aten::index_fill.int_Tensor(Tensor self, int dim, Tensor index, Tensor value) -> Tensor", boxed<index_fill_tensor>},
    {"aten::index_fill_.int_Scalar(Tensor(a!) self, int dim, Tensor index, Scalar value) -> Tensor(a!)", inplace<index_fill_scalar>},
    {"aten::index_fill_.int_Tensor(Tensor(a!) self, int dim, Tensor index, Tensor value) -> Tensor(a!)", inplace<index_fill_tensor>},
    {"aten::index_fill.int_Scalar_out(Tensor self, int dim, Tensor index, Scalar value, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::index_fill.int_Scalar", 1, any_dtype>},
    {"aten::index_fill.int_Tensor_out(Tensor self, int dim, Tensor index, Tensor value, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::index_fill.int_Tensor", 1, any_dtype>},
    {"aten::gather(Tensor self, int dim, Tensor index, *, bool sparse_grad=False) -> Tensor", boxed<&gather_row>},
    {"aten::gather.out(Tensor self, int dim, Tensor index, *, bool sparse_grad=False, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::gather", 1, exact_dtype>},
    {"aten::scatter.src(Tensor self, int dim, Tensor index, Tensor src) -> Tensor", boxed<scatter_src>},
    {"aten::scatter.value(Tensor self, int dim, Tensor index, Scalar value) -> Tensor", boxed<scatter_value>},
    {"aten::scatter_.src(Tensor(a!) self, int dim, Tensor index, Tensor src) -> Tensor(a!)", inplace<scatter_src>},
    {"aten::scatter_.value(Tensor(a!) self, int dim, Tensor index, Scalar value) -> Tensor(a!)", inplace<scatter_value>},
    {"aten::scatter.reduce(Tensor self, int dim, Tensor index, Tensor src, *, str reduce) -> Tensor", boxed<&scatter_src_reduce>},
    {"aten::scatter.value_reduce(Tensor self, int dim, Tensor index, Scalar value, *, str reduce) -> Tensor", boxed<&scatter_value_reduce>},
    {"aten::scatter_.reduce(Tensor(a!) self, int dim, Tensor index, Tensor src, *, str reduce) -> Tensor(a!)", inplace<&scatter_src_reduce>},
    {"aten::scatter_.value_reduce(Tensor(a!) self, int dim, Tensor index, Scalar value, *, str reduce) -> Tensor(a!)", inplace<&scatter_value_reduce>},
    {"aten::scatter.src_out(Tensor self, int dim, Tensor index, Tensor src, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::scatter.src", 1, exact_dtype>},
    {"aten::scatter.value_out(Tensor self, int dim, Tensor index, Scalar value, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::scatter.value", 1, exact_dtype>},
    {"aten::scatter.reduce_out(Tensor self, int dim, Tensor index, Tensor src, *, str reduce, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::scatter.reduce", 1, exact_dtype>},
    {"aten::scatter.value_reduce_out(Tensor self, int dim, Tensor index, Scalar value, *, str reduce, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::scatter.value_reduce", 1, exact_dtype>},
    {"aten::scatter_add(Tensor self, int dim, Tensor index, Tensor src) -> Tensor", boxed<&torchlet::scatter_add>},
    {"aten::scatter_add_(Tensor(a!) self, int dim, Tensor index, Tensor src) -> Tensor(a!)", inplace<&torchlet::scatter_add>},
    {"aten::scatter_add.out(Tensor self, int dim, Tensor index, Tensor src, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::scatter_add", 1, exact_dtype>},
    {"aten::scatter_reduce.two(Tensor self, int dim, Tensor index, Tensor src, str reduce, *, bool include_self=True) -> Tensor", boxed<&scatter_reduce_two>},
    {"aten::scatter_reduce_.two(Tensor(a!) self, int dim, Tensor index, Tensor src, str reduce, *, bool include_self=True) -> Tensor(a!)", inplace<&scatter_reduce_two>},
    {"aten::scatter_reduce.two_out(Tensor self, int dim, Tensor index, Tensor src, str reduce, *, bool include_self=True, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::scatter_reduce.two", 1, exact_dtype>},
    {"aten::masked_fill.Scalar(Tensor self, Tensor mask, Scalar value) -> Tensor", boxed<masked_fill_scalar>},
    {"aten::masked_fill.Tensor(Tensor self, Tensor mask, Tensor value) -> Tensor", boxed<masked_fill_tensor>},
    {"aten::masked_fill_.Scalar(Tensor(a!) self, Tensor mask, Scalar value) -> Tensor(a!)", inplace<masked_fill_scalar>},
    {"aten::masked_fill_.Tensor(Tensor(a!) self, Tensor mask, Tensor value) -> Tensor(a!)", inplace<masked_fill_tensor>},
    {"aten::masked_fill.Scalar_out(Tensor self, Tensor mask, Scalar value, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::masked_fill.Scalar", 1, any_dtype>},
    {"aten::masked_fill.Tensor_out(Tensor self, Tensor mask, Tensor value, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::masked_fill.Tensor", 1, any_dtype>},
    {"aten::masked_scatter(Tensor self, Tensor mask, Tensor source) -> Tensor", boxed<&torchlet::masked_scatter>},
    {"aten::masked_scatter_(Tensor(a!) self, Tensor mask, Tensor source) -> Tensor(a!)", inplace<&torchlet::masked_scatter>},
    {"aten::masked_scatter.out(Tensor self, Tensor mask, Tensor source, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::masked_scatter", 1, any_dtype>},
    {"aten::masked_select(Tensor self, Tensor mask) -> Tensor", boxed<&torchlet::masked_select>},
    {"aten::masked_select.out(Tensor self, Tensor mask, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::masked_select", 1, masked_select_check>},
    {"aten::put(Tensor self, Tensor index, Tensor source, bool accumulate=False) -> Tensor", boxed<&torchlet::put>},
    {"aten::put_(Tensor(a!) self, Tensor index, Tensor source, bool accumulate=False) -> Tensor(a!)", inplace<&torchlet::put>},
    {"aten::put.out(Tensor self, Tensor index, Tensor source, bool accumulate=False, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::put", 1, any_dtype>},
    {"aten::take(Tensor self, Tensor index) -> Tensor", boxed<&torchlet::take>},
    {"aten::take.out(Tensor self, Tensor index, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::take", 1, take_check>},
    {"aten::take_along_dim(Tensor self, Tensor indices, int? dim=None) -> Tensor", boxed<&torchlet::take_along_dim>},
    {"aten::take_along_dim.out(Tensor self, Tensor indices, int? dim=None, *, Tensor(a!) out) -> Tensor(a!)", out_variant<&torchlet::take_along_dim>},
    {"aten::nonzero(Tensor self) -> Tensor", boxed<&torchlet::nonzero>},
    {"aten::nonzero.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::nonzero", 1, nonzero_check>},
    {"aten::argwhere(Tensor self) -> Tensor", boxed<&torchlet::nonzero>},
});

}  // namespace
}  // namespace torchlet::jit::ops

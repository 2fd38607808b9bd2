// Sorting and what builds on it: sort/argsort/msort, topk, the unique family (_unique,
// _unique2, unique_consecutive, unique_dim, unique_dim_consecutive) and sorted search
// (searchsorted, bucketize), each beside its out= forms (Note [out= forms] in
// out_forms.h), registered from the kernels' signatures (Note [Boxing] in boxing.h).
// list.sort (sort.int, sort.str, sort.any, ...; list_builtins.h) sits before the
// tensor sort, the order they register in (docs/operators.md); sorted(l) is
// builtins_containers.cpp's. Cases run through torch in tests/fixtures/gen_ops.py.
#include <optional>
#include <string>
#include <tuple>

#include <torchlet/error.h>
#include <torchlet/ops.h>

#include "jit/ops/boxing.h"
#include "jit/ops/list_builtins.h"
#include "jit/ops/out_forms.h"

namespace torchlet::jit::ops {
namespace {

// The plain forms are torch's unstable sort. torch 1.13 refuses stable=None (an internal
// assert, which its callers never reach: torch.sort passes a bool).
std::tuple<Tensor, Tensor> sort_default(const Tensor& self, int64_t dim, bool descending) {
  return torchlet::sort(self, dim, descending, false);
}
std::tuple<Tensor, Tensor> sort_stable(const Tensor& self, std::optional<bool> stable, int64_t dim, bool descending) {
  TL_CHECK(stable.has_value(), ValueError, "sort(): c10::optional<bool> for stable has to have value.");
  return torchlet::sort(self, dim, descending, *stable);
}
Tensor argsort_default(const Tensor& self, int64_t dim, bool descending) { return torchlet::argsort(self, dim, descending, false); }
Tensor argsort_stable(const Tensor& self, bool stable, int64_t dim, bool descending) {
  return torchlet::argsort(self, dim, descending, stable);
}
Tensor msort(const Tensor& self) { return std::get<0>(torchlet::sort(self, 0, false, false)); }

std::tuple<Tensor, Tensor, Tensor> all_three(UniqueResult r) {
  return {std::move(r.values), std::move(r.inverse), std::move(r.counts)};
}
std::tuple<Tensor, Tensor, Tensor> unique2(const Tensor& self, bool sorted, bool return_inverse, bool return_counts) {
  return all_three(torchlet::unique(self, sorted, return_inverse, return_counts));
}
std::tuple<Tensor, Tensor> unique1(const Tensor& self, bool sorted, bool return_inverse) {
  UniqueResult r = torchlet::unique(self, sorted, return_inverse, false);
  return {std::move(r.values), std::move(r.inverse)};
}
std::tuple<Tensor, Tensor, Tensor> unique_consecutive_of(const Tensor& self, bool return_inverse, bool return_counts,
                                                         std::optional<int64_t> dim) {
  return all_three(dim ? torchlet::unique_dim(self, *dim, true)
                       : torchlet::unique_consecutive(self, return_inverse, return_counts));
}
// torch fills inverse and counts whatever return_inverse and return_counts say, and
// sorts whatever `sorted` says.
std::tuple<Tensor, Tensor, Tensor> unique_dim_of(const Tensor& self, int64_t dim, bool, bool, bool) {
  return all_three(torchlet::unique_dim(self, dim, false));
}
std::tuple<Tensor, Tensor, Tensor> unique_dim_consecutive_of(const Tensor& self, int64_t dim, bool, bool) {
  return all_three(torchlet::unique_dim(self, dim, true));
}

// right, reconciled with side ("left" / "right") as torch does.
bool search_right(bool right, const std::optional<std::string>& side) {
  if (!side) return right;
  TL_CHECK(*side == "left" || *side == "right", ValueError, "torch.searchsorted(): side can only be 'left' or 'right' but got {}",
           *side);
  TL_CHECK(!(right && *side == "left"), ValueError,
           "torch.searchsorted(): side and right can't be set to opposites, got side of left while right was True");
  return *side == "right";
}
Tensor searchsorted_tensor(const Tensor& sorted_sequence, const Tensor& self, bool out_int32, bool right,
                           const std::optional<std::string>& side, const std::optional<Tensor>& sorter) {
  return torchlet::searchsorted(sorted_sequence, self, out_int32, search_right(right, side), sorter);
}
Tensor searchsorted_scalar(const Tensor& sorted_sequence, const Scalar& self, bool out_int32, bool right,
                           const std::optional<std::string>& side, const std::optional<Tensor>& sorter) {
  TL_CHECK(sorted_sequence.dim() == 1, ValueError,
           "torch.searchsorted(): input value can be a scalar only when boundaries tensor dimension is 1, "
           "but we got boundaries tensor dim({}) and input value's dim(0) numel(1)",
           sorted_sequence.dim());
  return torchlet::searchsorted(sorted_sequence, scalar_tensor(self), out_int32, search_right(right, side), sorter);
}
Tensor bucketize_scalar(const Scalar& self, const Tensor& boundaries, bool out_int32, bool right) {
  return torchlet::bucketize(scalar_tensor(self), boundaries, out_int32, right);
}

static RegisterOps reg({
    {"aten::sort.Tensor(Tensor[](a!) self, bool reverse=False) -> ()", boxed<&list_sort>},
    {"aten::sort.any(t[](a!) self, bool reverse=False) -> ()", boxed<&list_sort>},
    {"aten::sort.bool(bool[](a!) self, bool reverse=False) -> ()", boxed<&list_sort>},
    {"aten::sort.float(float[](a!) self, bool reverse=False) -> ()", boxed<&list_sort>},
    {"aten::sort.int(int[](a!) self, bool reverse=False) -> ()", boxed<&list_sort>},
    {"aten::sort.str(str[](a!) self, bool reverse=False) -> ()", boxed<&list_sort>},
    {"aten::sort(Tensor self, int dim=-1, bool descending=False) -> (Tensor values, Tensor indices)", boxed<&sort_default>},
    {"aten::sort.values(Tensor self, int dim=-1, bool descending=False, *, Tensor(a!) values, Tensor(b!) indices) -> (Tensor(a!) values, Tensor(b!) indices)", into_outs<"aten::sort", 2, exact_dtype>},
    {"aten::sort.stable(Tensor self, *, bool? stable, int dim=-1, bool descending=False) -> (Tensor values, Tensor indices)", boxed<&sort_stable>},
    {"aten::sort.values_stable(Tensor self, *, bool? stable, int dim=-1, bool descending=False, Tensor(a!) values, Tensor(b!) indices) -> (Tensor(a!) values, Tensor(b!) indices)", into_outs<"aten::sort.stable", 2, exact_dtype>},
    {"aten::argsort(Tensor self, int dim=-1, bool descending=False) -> Tensor", boxed<&argsort_default>},
    {"aten::argsort.stable(Tensor self, *, bool stable, int dim=-1, bool descending=False) -> Tensor", boxed<&argsort_stable>},
    {"aten::argsort.stable_out(Tensor self, *, bool stable, int dim=-1, bool descending=False, Tensor(a!) out) -> Tensor(a!)", out_variant<&argsort_stable>},
    {"aten::msort(Tensor self) -> Tensor", boxed<&msort>},
    {"aten::msort.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", out_variant<&msort>},
    {"aten::topk(Tensor self, int k, int dim=-1, bool largest=True, bool sorted=True) -> (Tensor values, Tensor indices)", boxed<&torchlet::topk>},
    {"aten::topk.values(Tensor self, int k, int dim=-1, bool largest=True, bool sorted=True, *, Tensor(a!) values, Tensor(b!) indices) -> (Tensor(a!) values, Tensor(b!) indices)", into_outs<"aten::topk", 2, exact_dtype>},
    {"aten::_unique2(Tensor self, bool sorted=True, bool return_inverse=False, bool return_counts=False) -> (Tensor, Tensor, Tensor)", boxed<&unique2>},
    {"aten::_unique2.out(Tensor self, bool sorted=True, bool return_inverse=False, bool return_counts=False, *, Tensor(a!) out0, Tensor(b!) out1, Tensor(c!) out2) -> (Tensor(a!), Tensor(b!), Tensor(c!))", into_outs<"aten::_unique2", 3, any_dtype>},
    {"aten::_unique(Tensor self, bool sorted=True, bool return_inverse=False) -> (Tensor, Tensor)", boxed<&unique1>},
    {"aten::_unique.out(Tensor self, bool sorted=True, bool return_inverse=False, *, Tensor(a!) out0, Tensor(b!) out1) -> (Tensor(a!), Tensor(b!))", into_outs<"aten::_unique", 2, any_dtype>},
    {"aten::unique_consecutive(Tensor self, bool return_inverse=False, bool return_counts=False, int? dim=None) -> (Tensor, Tensor, Tensor)", boxed<&unique_consecutive_of>},
    {"aten::unique_consecutive.out(Tensor self, bool return_inverse=False, bool return_counts=False, int? dim=None, *, Tensor(a!) out0, Tensor(b!) out1, Tensor(c!) out2) -> (Tensor(a!), Tensor(b!), Tensor(c!))", into_outs<"aten::unique_consecutive", 3, any_dtype>},
    {"aten::unique_dim(Tensor self, int dim, bool sorted=True, bool return_inverse=False, bool return_counts=False) -> (Tensor, Tensor, Tensor)", boxed<&unique_dim_of>},
    {"aten::unique_dim.out(Tensor self, int dim, bool sorted=True, bool return_inverse=False, bool return_counts=False, *, Tensor(a!) out0, Tensor(b!) out1, Tensor(c!) out2) -> (Tensor(a!), Tensor(b!), Tensor(c!))", into_outs<"aten::unique_dim", 3, any_dtype>},
    {"aten::unique_dim_consecutive(Tensor self, int dim, bool return_inverse=False, bool return_counts=False) -> (Tensor, Tensor, Tensor)", boxed<&unique_dim_consecutive_of>},
    {"aten::unique_dim_consecutive.out(Tensor self, int dim, bool return_inverse=False, bool return_counts=False, *, Tensor(a!) out0, Tensor(b!) out1, Tensor(c!) out2) -> (Tensor(a!), Tensor(b!), Tensor(c!))", into_outs<"aten::unique_dim_consecutive", 3, any_dtype>},
    {"aten::searchsorted.Tensor(Tensor sorted_sequence, Tensor self, *, bool out_int32=False, bool right=False, str? side=None, Tensor? sorter=None) -> Tensor", boxed<&searchsorted_tensor>},
    {"aten::searchsorted.Tensor_out(Tensor sorted_sequence, Tensor self, *, bool out_int32=False, bool right=False, str? side=None, Tensor? sorter=None, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::searchsorted.Tensor", 1, searchsorted_check>},
    {"aten::searchsorted.Scalar(Tensor sorted_sequence, Scalar self, *, bool out_int32=False, bool right=False, str? side=None, Tensor? sorter=None) -> Tensor", boxed<&searchsorted_scalar>},
    {"aten::searchsorted.Scalar_out(Tensor sorted_sequence, Scalar self, *, bool out_int32=False, bool right=False, str? side=None, Tensor? sorter=None, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::searchsorted.Scalar", 1, any_dtype>},
    {"aten::bucketize.Tensor(Tensor self, Tensor boundaries, *, bool out_int32=False, bool right=False) -> Tensor", boxed<&torchlet::bucketize>},
    {"aten::bucketize.Tensor_out(Tensor self, Tensor boundaries, *, bool out_int32=False, bool right=False, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::bucketize.Tensor", 1, searchsorted_check>},
    {"aten::bucketize.Scalar(Scalar self, Tensor boundaries, *, bool out_int32=False, bool right=False) -> Tensor", boxed<&bucketize_scalar>},
    {"aten::bucketize.Scalar_out(Scalar self, Tensor boundaries, *, bool out_int32=False, bool right=False, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::bucketize.Scalar", 1, any_dtype>},
});

}  // namespace
}  // namespace torchlet::jit::ops

// Reductions: sum, mean, prod, amax/amin, max/min (every overload: of every element, by
// dim with indices, and the binary .other form), argmax/argmin, all/any (of tensors and
// of lists), sum_to_size (and autodiff's _grad_sum_to_size), var/std, std_mean/var_mean,
// aminmax, logsumexp, count_nonzero, nansum/nanmean and equal, each beside its out= forms
// (Note [out= forms] in out_forms.h), registered from the kernels' signatures (Note
// [Boxing] in boxing.h).
// sum of a number list (sum.int, sum.float, ...; list_builtins.h) sits before the
// tensor sum, the order they register in (docs/operators.md). The norms are
// linalg.cpp's, the scans cumulative.cpp's. Cases run through torch in
// tests/fixtures/gen_ops.py.
#include <optional>

#include <torchlet/ops.h>

#include "jit/ops/boxing.h"
#include "jit/ops/list_builtins.h"
#include "jit/ops/out_forms.h"

namespace torchlet::jit::ops {
namespace {

// `int[1]? dim`: None (or []) reduces every dimension.
IntList dims_or_all(const std::optional<IntList>& dim) { return dim.value_or(IntList{}); }

Tensor sum_all(const Tensor& self, std::optional<DType> dtype) { return torchlet::sum(self, {}, false, dtype); }
Tensor sum_dims(const Tensor& self, std::optional<IntList> dim, bool keepdim, std::optional<DType> dtype) {
  return torchlet::sum(self, dims_or_all(dim), keepdim, dtype);
}
// The autodiff form: None sums nothing (the tensor itself, as the alias says).
Tensor grad_sum_to_size(const Tensor& self, std::optional<IntList> size) {
  return size ? torchlet::sum_to_size(self, *size) : self;
}
Tensor mean_all(const Tensor& self, std::optional<DType> dtype) { return torchlet::mean(self, {}, false, dtype); }
Tensor mean_dims(const Tensor& self, std::optional<IntList> dim, bool keepdim, std::optional<DType> dtype) {
  return torchlet::mean(self, dims_or_all(dim), keepdim, dtype);
}
Tensor prod_all(const Tensor& self, std::optional<DType> dtype) { return torchlet::prod(self, std::nullopt, false, dtype); }
Tensor nansum_dims(const Tensor& self, std::optional<IntList> dim, bool keepdim, std::optional<DType> dtype) {
  return torchlet::nansum(self, dims_or_all(dim), keepdim, dtype);
}
Tensor nanmean_dims(const Tensor& self, std::optional<IntList> dim, bool keepdim, std::optional<DType> dtype) {
  return torchlet::nanmean(self, dims_or_all(dim), keepdim, dtype);
}

constexpr auto kMaxAll = static_cast<Tensor (*)(const Tensor&)>(&torchlet::max);
constexpr auto kMinAll = static_cast<Tensor (*)(const Tensor&)>(&torchlet::min);
constexpr auto kMaxDim = static_cast<std::tuple<Tensor, Tensor> (*)(const Tensor&, int64_t, bool)>(&torchlet::max);
constexpr auto kMinDim = static_cast<std::tuple<Tensor, Tensor> (*)(const Tensor&, int64_t, bool)>(&torchlet::min);
constexpr auto kMaximum = static_cast<Tensor (*)(const Tensor&, const Tensor&)>(&torchlet::maximum);
constexpr auto kMinimum = static_cast<Tensor (*)(const Tensor&, const Tensor&)>(&torchlet::minimum);

Tensor all_elements(const Tensor& self) { return torchlet::all(self); }
Tensor any_element(const Tensor& self) { return torchlet::any(self); }
// all/any of a list of int, float, bool or str: each element's truth as Python's (a str
// is true when not empty). The element type is the list's, read at run time.
template <bool kAll>
bool list_truth(IValue list) {
  for (const IValue& v : list.listRef().elements) {
    const bool t = v.isString() ? !v.toStringRef().empty()
                                : v.isDouble() ? v.toDouble() != 0 : (v.isBool() ? v.toBool() : v.toInt() != 0);
    if (t != kAll) return !kAll;
  }
  return kAll;
}

// var/std and std_mean/var_mean: `bool unbiased` is correction 1 or 0; `int? correction`
// None is 1.
template <bool kStd>
Tensor spread(const Tensor& self, IntList dim, int64_t correction, bool keepdim) {
  return kStd ? torchlet::std(self, dim, correction, keepdim) : torchlet::var(self, dim, correction, keepdim);
}
template <bool kStd>
Tensor spread_all(const Tensor& self, bool unbiased) {
  return spread<kStd>(self, {}, unbiased ? 1 : 0, false);
}
template <bool kStd>
Tensor spread_dims(const Tensor& self, std::optional<IntList> dim, bool unbiased, bool keepdim) {
  return spread<kStd>(self, dims_or_all(dim), unbiased ? 1 : 0, keepdim);
}
template <bool kStd>
Tensor spread_correction(const Tensor& self, std::optional<IntList> dim, std::optional<int64_t> correction, bool keepdim) {
  return spread<kStd>(self, dims_or_all(dim), correction.value_or(1), keepdim);
}
template <bool kStd>
std::pair<Tensor, Tensor> moments(const Tensor& self, IntList dim, int64_t correction, bool keepdim) {
  return kStd ? torchlet::std_mean(self, dim, correction, keepdim) : torchlet::var_mean(self, dim, correction, keepdim);
}
template <bool kStd>
std::pair<Tensor, Tensor> moments_all(const Tensor& self, bool unbiased) {
  return moments<kStd>(self, {}, unbiased ? 1 : 0, false);
}
template <bool kStd>
std::pair<Tensor, Tensor> moments_dims(const Tensor& self, std::optional<IntList> dim, bool unbiased, bool keepdim) {
  return moments<kStd>(self, dims_or_all(dim), unbiased ? 1 : 0, keepdim);
}
template <bool kStd>
std::pair<Tensor, Tensor> moments_correction(const Tensor& self, std::optional<IntList> dim, std::optional<int64_t> correction,
                                             bool keepdim) {
  return moments<kStd>(self, dims_or_all(dim), correction.value_or(1), keepdim);
}

Tensor count_nonzero_at(const Tensor& self, std::optional<int64_t> dim) {
  return dim ? torchlet::count_nonzero(self, {*dim}) : torchlet::count_nonzero(self);
}

static RegisterOps reg({
    {"aten::sum.bool(bool[] self) -> int", boxed<&list_sum>},
    {"aten::sum.complex(complex[] self) -> complex", boxed<&list_sum>},
    {"aten::sum.float(float[] self) -> float", boxed<&list_sum_float>},
    {"aten::sum.int(int[] self) -> int", boxed<&list_sum>},
    {"aten::sum(Tensor self, *, ScalarType? dtype=None) -> Tensor", boxed<&sum_all>},
    {"aten::sum.out(Tensor self, *, ScalarType? dtype=None, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::sum", 1, any_dtype>},
    {"aten::sum.dim_IntList(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor", boxed<&sum_dims>},
    {"aten::sum_to_size(Tensor self, int[] size) -> Tensor", boxed<&torchlet::sum_to_size>},
    {"aten::_grad_sum_to_size(Tensor(a) self, int[]? size) -> Tensor(a)", boxed<&grad_sum_to_size>},
    {"aten::sum.IntList_out(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None, Tensor(a!) out) -> Tensor(a!)", out_variant<&sum_dims>},
    {"aten::mean(Tensor self, *, ScalarType? dtype=None) -> Tensor", boxed<&mean_all>},
    {"aten::mean.dim(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor", boxed<&mean_dims>},
    {"aten::mean.out(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None, Tensor(a!) out) -> Tensor(a!)", out_variant<&mean_dims>},
    {"aten::prod(Tensor self, *, ScalarType? dtype=None) -> Tensor", boxed<&prod_all>},
    {"aten::prod.out(Tensor self, *, ScalarType? dtype=None, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::prod", 1, any_dtype>},
    {"aten::prod.dim_int(Tensor self, int dim, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor", boxed<&torchlet::prod>},
    {"aten::prod.int_out(Tensor self, int dim, bool keepdim=False, *, ScalarType? dtype=None, Tensor(a!) out) -> Tensor(a!)", in_out_dtype<"aten::prod.dim_int">},
    {"aten::amax(Tensor self, int[1] dim=[], bool keepdim=False) -> Tensor", boxed<&torchlet::amax>},
    {"aten::amax.out(Tensor self, int[1] dim=[], bool keepdim=False, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::amax", 1, input_dtype_match>},
    {"aten::amin(Tensor self, int[1] dim=[], bool keepdim=False) -> Tensor", boxed<&torchlet::amin>},
    {"aten::amin.out(Tensor self, int[1] dim=[], bool keepdim=False, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::amin", 1, input_dtype_match>},
    {"aten::max(Tensor self) -> Tensor", boxed<kMaxAll>},
    {"aten::max.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)", boxed<kMaxDim>},
    {"aten::max.dim_max(Tensor self, int dim, bool keepdim=False, *, Tensor(a!) max, Tensor(b!) max_values) -> (Tensor(a!) values, Tensor(b!) indices)", into_outs<"aten::max.dim", 2, exact_dtype>},
    {"aten::max.other(Tensor self, Tensor other) -> Tensor", boxed<kMaximum>},
    {"aten::max.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", out_variant<kMaximum>},
    {"aten::min(Tensor self) -> Tensor", boxed<kMinAll>},
    {"aten::min.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)", boxed<kMinDim>},
    {"aten::min.dim_min(Tensor self, int dim, bool keepdim=False, *, Tensor(a!) min, Tensor(b!) min_indices) -> (Tensor(a!) values, Tensor(b!) indices)", into_outs<"aten::min.dim", 2, exact_dtype>},
    {"aten::min.other(Tensor self, Tensor other) -> Tensor", boxed<kMinimum>},
    {"aten::min.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", out_variant<kMinimum>},
    {"aten::argmax(Tensor self, int? dim=None, bool keepdim=False) -> Tensor", boxed<&torchlet::argmax>},
    {"aten::argmax.out(Tensor self, int? dim=None, bool keepdim=False, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::argmax", 1, exact_dtype>},
    {"aten::argmin(Tensor self, int? dim=None, bool keepdim=False) -> Tensor", boxed<&torchlet::argmin>},
    {"aten::argmin.out(Tensor self, int? dim=None, bool keepdim=False, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::argmin", 1, exact_dtype>},
    {"aten::all(Tensor self) -> Tensor", boxed<&all_elements>},
    {"aten::all.all_out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::all", 1, bool_result<"all">>},
    {"aten::all.dim(Tensor self, int dim, bool keepdim=False) -> Tensor", boxed<&torchlet::all>},
    {"aten::all.out(Tensor self, int dim, bool keepdim=False, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::all.dim", 1, bool_result<"all">>},
    {"aten::all.int(int[] self) -> bool", boxed<&list_truth<true>>},
    {"aten::all.float(float[] self) -> bool", boxed<&list_truth<true>>},
    {"aten::all.bool(bool[] self) -> bool", boxed<&list_truth<true>>},
    {"aten::any(Tensor self) -> Tensor", boxed<&any_element>},
    {"aten::any.all_out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::any", 1, bool_result<"any">>},
    {"aten::any.dim(Tensor self, int dim, bool keepdim=False) -> Tensor", boxed<&torchlet::any>},
    {"aten::any.out(Tensor self, int dim, bool keepdim=False, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::any.dim", 1, bool_result<"any">>},
    {"aten::any.int(int[] self) -> bool", boxed<&list_truth<false>>},
    {"aten::any.float(float[] self) -> bool", boxed<&list_truth<false>>},
    {"aten::any.bool(bool[] self) -> bool", boxed<&list_truth<false>>},
    {"aten::any.str(str[] self) -> bool", boxed<&list_truth<false>>},
    {"aten::var(Tensor self, bool unbiased=True) -> Tensor", boxed<&spread_all<false>>},
    {"aten::var.dim(Tensor self, int[1]? dim, bool unbiased=True, bool keepdim=False) -> Tensor", boxed<&spread_dims<false>>},
    {"aten::var.out(Tensor self, int[1]? dim, bool unbiased=True, bool keepdim=False, *, Tensor(a!) out) -> Tensor(a!)", reduce_in_out_dtype<"aten::var.dim", "std_cpu", true>},
    {"aten::var.correction(Tensor self, int[1]? dim, *, int? correction, bool keepdim=False) -> Tensor", boxed<&spread_correction<false>>},
    {"aten::var.correction_out(Tensor self, int[1]? dim, *, int? correction, bool keepdim=False, Tensor(a!) out) -> Tensor(a!)", reduce_in_out_dtype<"aten::var.correction", "std_cpu", true>},
    {"aten::std(Tensor self, bool unbiased=True) -> Tensor", boxed<&spread_all<true>>},
    {"aten::std.dim(Tensor self, int[1]? dim, bool unbiased=True, bool keepdim=False) -> Tensor", boxed<&spread_dims<true>>},
    {"aten::std.out(Tensor self, int[1]? dim, bool unbiased=True, bool keepdim=False, *, Tensor(a!) out) -> Tensor(a!)", reduce_in_out_dtype<"aten::std.dim", "std_cpu", true>},
    {"aten::std.correction(Tensor self, int[1]? dim, *, int? correction, bool keepdim=False) -> Tensor", boxed<&spread_correction<true>>},
    {"aten::std.correction_out(Tensor self, int[1]? dim, *, int? correction, bool keepdim=False, Tensor(a!) out) -> Tensor(a!)", reduce_in_out_dtype<"aten::std.correction", "std_cpu", true>},
    {"aten::std_mean(Tensor self, bool unbiased=True) -> (Tensor, Tensor)", boxed<&moments_all<true>>},
    {"aten::std_mean.dim(Tensor self, int[1]? dim, bool unbiased=True, bool keepdim=False) -> (Tensor, Tensor)", boxed<&moments_dims<true>>},
    {"aten::std_mean.correction(Tensor self, int[1]? dim, *, int? correction, bool keepdim=False) -> (Tensor, Tensor)", boxed<&moments_correction<true>>},
    {"aten::std_mean.correction_out(Tensor self, int[1]? dim, *, int? correction, bool keepdim=False, Tensor(a!) out0, Tensor(b!) out1) -> (Tensor(a!), Tensor(b!))", into_outs<"aten::std_mean.correction", 2, any_dtype>},
    {"aten::var_mean(Tensor self, bool unbiased=True) -> (Tensor, Tensor)", boxed<&moments_all<false>>},
    {"aten::var_mean.dim(Tensor self, int[1]? dim, bool unbiased=True, bool keepdim=False) -> (Tensor, Tensor)", boxed<&moments_dims<false>>},
    {"aten::var_mean.correction(Tensor self, int[1]? dim, *, int? correction, bool keepdim=False) -> (Tensor, Tensor)", boxed<&moments_correction<false>>},
    {"aten::var_mean.correction_out(Tensor self, int[1]? dim, *, int? correction, bool keepdim=False, Tensor(a!) out0, Tensor(b!) out1) -> (Tensor(a!), Tensor(b!))", into_outs<"aten::var_mean.correction", 2, any_dtype>},
    {"aten::aminmax(Tensor self, *, int? dim=None, bool keepdim=False) -> (Tensor min, Tensor max)", boxed<&torchlet::aminmax>},
    {"aten::aminmax.out(Tensor self, *, int? dim=None, bool keepdim=False, Tensor(a!) min, Tensor(b!) max) -> (Tensor(a!) min, Tensor(b!) max)", into_outs<"aten::aminmax", 2, exact_dtype>},
    {"aten::logsumexp(Tensor self, int[1] dim, bool keepdim=False) -> Tensor", boxed<&torchlet::logsumexp>},
    {"aten::logsumexp.out(Tensor self, int[1] dim, bool keepdim=False, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::logsumexp", 1, floating_result>},
    {"aten::count_nonzero(Tensor self, int? dim=None) -> Tensor", boxed<&count_nonzero_at>},
    {"aten::count_nonzero.out(Tensor self, int? dim=None, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::count_nonzero", 1, any_dtype>},
    {"aten::count_nonzero.dim_IntList(Tensor self, int[] dim) -> Tensor", boxed<&torchlet::count_nonzero>},
    {"aten::count_nonzero.dim_IntList_out(Tensor self, int[] dim, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::count_nonzero.dim_IntList", 1, any_dtype>},
    {"aten::nansum(Tensor self, int[1]? dim=None, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor", boxed<&nansum_dims>},
    {"aten::nansum.out(Tensor self, int[1]? dim=None, bool keepdim=False, *, ScalarType? dtype=None, Tensor(a!) out) -> Tensor(a!)", in_out_dtype<"aten::nansum">},
    {"aten::nanmean(Tensor self, int[1]? dim=None, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor", boxed<&nanmean_dims>},
    {"aten::nanmean.out(Tensor self, int[1]? dim=None, bool keepdim=False, *, ScalarType? dtype=None, Tensor(a!) out) -> Tensor(a!)", in_out_dtype<"aten::nanmean">},
    {"aten::equal(Tensor self, Tensor other) -> bool", boxed<&torchlet::equal>},
});

}  // namespace
}  // namespace torchlet::jit::ops

// Reductions, scans and sorting on tensors: sum/mean/prod, amax/amin, max/min (all,
// by dim, and the binary .other forms), argmax/argmin, all/any, var/std (unbiased or
// correction), norm and linalg_vector_norm, logsumexp, histc, cumsum/cumprod, sort/
// argsort/topk. Multi-return schemas push one value per return (values, then indices).
#include <algorithm>
#include <torchlet/ops.h>

#include "jit/ops/ops_util.h"

namespace torchlet::jit::ops {
namespace {

// `int[1]? dim`: None (or []) reduces every dimension.
std::vector<int64_t> pop_dims(Stack& s) { return pop_opt_int_list(s).value_or(std::vector<int64_t>{}); }

Tensor maybe_to(const Tensor& t, std::optional<DType> d) { return d ? t.to(*d) : t; }

// Pops `*, Tensor(a!) out` and writes `r` into it; pushes out.
void finish_out(Stack& s, Tensor out, const Tensor& r, const char* op) {
  assign_out(out, r, op);
  push(s, out);
}

void sum_all(Stack& s) {
  auto dtype = pop_opt_dtype(s);
  push(s, torchlet::sum(pop_tensor(s), {}, false, dtype));
}
Tensor sum_dim_impl(Stack& s) {
  auto dtype = pop_opt_dtype(s);
  bool keepdim = pop_bool(s);
  auto dims = pop_dims(s);
  return torchlet::sum(pop_tensor(s), dims, keepdim, dtype);
}
void sum_dim(Stack& s) { push(s, sum_dim_impl(s)); }
void sum_dim_out(Stack& s) {
  Tensor out = pop_tensor(s);
  finish_out(s, out, sum_dim_impl(s), "sum");
}
void mean_all(Stack& s) {
  auto dtype = pop_opt_dtype(s);
  push(s, torchlet::mean(pop_tensor(s), {}, false, dtype));
}
Tensor mean_dim_impl(Stack& s) {
  auto dtype = pop_opt_dtype(s);
  bool keepdim = pop_bool(s);
  auto dims = pop_dims(s);
  return torchlet::mean(pop_tensor(s), dims, keepdim, dtype);
}
void mean_dim(Stack& s) { push(s, mean_dim_impl(s)); }
void mean_dim_out(Stack& s) {
  Tensor out = pop_tensor(s);
  finish_out(s, out, mean_dim_impl(s), "mean");
}
void prod_all(Stack& s) {
  auto dtype = pop_opt_dtype(s);
  push(s, torchlet::prod(pop_tensor(s), std::nullopt, false, dtype));
}
Tensor prod_dim_impl(Stack& s) {
  auto dtype = pop_opt_dtype(s);
  bool keepdim = pop_bool(s);
  int64_t dim = pop_int(s);
  return torchlet::prod(pop_tensor(s), dim, keepdim, dtype);
}
void prod_dim(Stack& s) { push(s, prod_dim_impl(s)); }

template <bool kMax>
Tensor amax_impl(Stack& s) {
  bool keepdim = pop_bool(s);
  auto dims = pop_int_list(s);
  Tensor t = pop_tensor(s);
  return kMax ? torchlet::amax(t, dims, keepdim) : torchlet::amin(t, dims, keepdim);
}
template <bool kMax>
void amax(Stack& s) { push(s, amax_impl<kMax>(s)); }

template <bool kMax>
void max_all(Stack& s) {
  Tensor t = pop_tensor(s);
  push(s, kMax ? torchlet::max(t) : torchlet::min(t));
}
template <bool kMax>
std::tuple<Tensor, Tensor> max_dim_impl(Stack& s) {
  bool keepdim = pop_bool(s);
  int64_t dim = pop_int(s);
  Tensor t = pop_tensor(s);
  return kMax ? torchlet::max(t, dim, keepdim) : torchlet::min(t, dim, keepdim);
}
template <bool kMax>
void max_dim(Stack& s) {
  auto [v, i] = max_dim_impl<kMax>(s);
  push(s, v, i);
}
template <bool kMax>
void max_other(Stack& s) {
  Tensor o = pop_tensor(s);
  Tensor a = pop_tensor(s);
  push(s, kMax ? torchlet::maximum(a, o) : torchlet::minimum(a, o));
}
template <bool kMax>
void max_other_out(Stack& s) {
  Tensor out = pop_tensor(s);
  Tensor o = pop_tensor(s);
  Tensor a = pop_tensor(s);
  finish_out(s, out, kMax ? torchlet::maximum(a, o) : torchlet::minimum(a, o), kMax ? "max" : "min");
}

template <bool kMax>
Tensor argmax_impl(Stack& s) {
  bool keepdim = pop_bool(s);
  auto dim = pop_opt_int(s);
  Tensor t = pop_tensor(s);
  return kMax ? torchlet::argmax(t, dim, keepdim) : torchlet::argmin(t, dim, keepdim);
}
template <bool kMax>
void argmax(Stack& s) { push(s, argmax_impl<kMax>(s)); }

template <bool kAll>
void all_all(Stack& s) {
  Tensor t = pop_tensor(s);
  push(s, kAll ? torchlet::all(t) : torchlet::any(t));
}
// aten::equal: the same sizes and every element equal (values compared after promotion).
void equal(Stack& s) {
  Tensor b = pop_tensor(s);
  Tensor a = pop_tensor(s);
  const IntList sa = a.sizes(), sb = b.sizes();
  if (!std::equal(sa.begin(), sa.end(), sb.begin(), sb.end())) return push(s, false);
  push(s, torchlet::all(torchlet::eq(a, b)).item().to_bool());
}

template <bool kAll>
Tensor all_dim_impl(Stack& s) {
  bool keepdim = pop_bool(s);
  int64_t dim = pop_int(s);
  Tensor t = pop_tensor(s);
  return kAll ? torchlet::all(t, dim, keepdim) : torchlet::any(t, dim, keepdim);
}
template <bool kAll>
void all_dim(Stack& s) { push(s, all_dim_impl<kAll>(s)); }

// var/std: `bool unbiased` is correction 1 or 0; `int? correction` None is 1.
template <bool kStd>
Tensor var_apply(const Tensor& t, const std::vector<int64_t>& dims, int64_t correction, bool keepdim) {
  return kStd ? torchlet::std(t, dims, correction, keepdim) : torchlet::var(t, dims, correction, keepdim);
}
template <bool kStd>
void var_all(Stack& s) {
  bool unbiased = pop_bool(s);
  push(s, var_apply<kStd>(pop_tensor(s), {}, unbiased ? 1 : 0, false));
}
template <bool kStd>
Tensor var_dim_impl(Stack& s) {
  bool keepdim = pop_bool(s);
  bool unbiased = pop_bool(s);
  auto dims = pop_dims(s);
  return var_apply<kStd>(pop_tensor(s), dims, unbiased ? 1 : 0, keepdim);
}
template <bool kStd>
void var_dim(Stack& s) { push(s, var_dim_impl<kStd>(s)); }
template <bool kStd>
Tensor var_corr_impl(Stack& s) {
  bool keepdim = pop_bool(s);
  auto correction = pop_opt_int(s);
  auto dims = pop_dims(s);
  return var_apply<kStd>(pop_tensor(s), dims, correction.value_or(1), keepdim);
}
template <bool kStd>
void var_corr(Stack& s) { push(s, var_corr_impl<kStd>(s)); }

double norm_p(const std::optional<Scalar>& p) { return p ? p->to_double() : 2.0; }
void norm_scalar(Stack& s) {
  Scalar p = pop_scalar(s);
  push(s, torchlet::norm(pop_tensor(s), p.to_double()));
}
Tensor norm_dim_impl(Stack& s, std::optional<DType> dtype) {
  bool keepdim = pop_bool(s);
  auto dims = pop_int_list(s);
  auto p = pop_opt_scalar(s);
  return torchlet::norm(maybe_to(pop_tensor(s), dtype), norm_p(p), dims, keepdim);
}
void norm_dim(Stack& s) { push(s, norm_dim_impl(s, std::nullopt)); }
// norm's dtype= must be floating or complex (torch's check, before any other).
DType norm_out_dtype(Stack& s) {
  DType d = to_dtype(pop_int(s));
  TL_CHECK(is_floating(d) || is_complex(d), ValueError,
           "norm(): the desired output dtype should be either floating point or complex. Got {} instead.",
           dtype_info(d).scalar_type_name);
  return d;
}
void norm_dim_dtype(Stack& s) {
  DType d = norm_out_dtype(s);
  push(s, norm_dim_impl(s, d));
}
Tensor norm_dtype_impl(Stack& s) {
  DType d = norm_out_dtype(s);
  auto p = pop_opt_scalar(s);
  return torchlet::norm(pop_tensor(s).to(d), norm_p(p));
}
void norm_dtype(Stack& s) { push(s, norm_dtype_impl(s)); }
Tensor vector_norm_impl(Stack& s) {
  auto dtype = pop_opt_dtype(s);
  bool keepdim = pop_bool(s);
  auto dims = pop_dims(s);
  Scalar ord = pop_scalar(s);
  return torchlet::norm(pop_tensor(s), ord.to_double(), dims, keepdim, dtype);
}
void vector_norm(Stack& s) { push(s, vector_norm_impl(s)); }

Tensor logsumexp_impl(Stack& s) {
  bool keepdim = pop_bool(s);
  auto dims = pop_int_list(s);
  return torchlet::logsumexp(pop_tensor(s), dims, keepdim);
}
void histc(Stack& s) {
  Scalar hi = pop_scalar(s), lo = pop_scalar(s);
  const int64_t bins = pop_int(s);
  push(s, torchlet::histc(pop_tensor(s), bins, lo, hi));
}
void logsumexp(Stack& s) { push(s, logsumexp_impl(s)); }

template <bool kSum>
Tensor cum_impl(Stack& s, Tensor* self = nullptr) {
  auto dtype = pop_opt_dtype(s);
  int64_t dim = pop_int(s);
  Tensor t = pop_tensor(s);
  if (self) *self = t;
  return kSum ? torchlet::cumsum(t, dim, dtype) : torchlet::cumprod(t, dim, dtype);
}
template <bool kSum>
void cum(Stack& s) { push(s, cum_impl<kSum>(s)); }
template <bool kSum>
void cum_(Stack& s) {
  Tensor self;
  Tensor r = cum_impl<kSum>(s, &self);
  assign_inplace(self, r, kSum ? "cumsum_" : "cumprod_");
  push(s, self);
}

// sort is always stable here, so `stable` only needs popping.
template <bool kStableArg>
std::tuple<Tensor, Tensor> sort_impl(Stack& s) {
  bool descending = pop_bool(s);
  int64_t dim = pop_int(s);
  if constexpr (kStableArg) pop(s);
  return torchlet::sort(pop_tensor(s), dim, descending);
}
template <bool kStableArg>
void sort(Stack& s) {
  auto [v, i] = sort_impl<kStableArg>(s);
  push(s, v, i);
}
template <bool kStableArg>
Tensor argsort_impl(Stack& s) {
  bool descending = pop_bool(s);
  int64_t dim = pop_int(s);
  if constexpr (kStableArg) pop(s);
  return torchlet::argsort(pop_tensor(s), dim, descending);
}
template <bool kStableArg>
void argsort(Stack& s) { push(s, argsort_impl<kStableArg>(s)); }
void argsort_out(Stack& s) {
  Tensor out = pop_tensor(s);
  finish_out(s, out, argsort_impl<true>(s), "argsort");
}
std::tuple<Tensor, Tensor> topk_impl(Stack& s) {
  bool sorted = pop_bool(s);
  bool largest = pop_bool(s);
  int64_t dim = pop_int(s);
  int64_t k = pop_int(s);
  return torchlet::topk(pop_tensor(s), k, dim, largest, sorted);
}
void topk(Stack& s) {
  auto [v, i] = topk_impl(s);
  push(s, v, i);
}

}  // namespace

static RegisterOps reg({
    {"aten::sum(Tensor self, *, ScalarType? dtype=None) -> Tensor", sum_all},
    {"aten::sum.dim_IntList(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor", sum_dim},
    {"aten::sum.IntList_out(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None, Tensor(a!) out) -> Tensor(a!)", sum_dim_out},
    {"aten::mean(Tensor self, *, ScalarType? dtype=None) -> Tensor", mean_all},
    {"aten::mean.dim(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor", mean_dim},
    {"aten::mean.out(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None, Tensor(a!) out) -> Tensor(a!)", mean_dim_out},
    {"aten::prod(Tensor self, *, ScalarType? dtype=None) -> Tensor", prod_all},
    {"aten::prod.dim_int(Tensor self, int dim, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor", prod_dim},
    {"aten::amax(Tensor self, int[1] dim=[], bool keepdim=False) -> Tensor", amax<true>},
    {"aten::amin(Tensor self, int[1] dim=[], bool keepdim=False) -> Tensor", amax<false>},
    {"aten::max(Tensor self) -> Tensor", max_all<true>},
    {"aten::max.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)", max_dim<true>},
    {"aten::max.other(Tensor self, Tensor other) -> Tensor", max_other<true>},
    {"aten::max.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", max_other_out<true>},
    {"aten::min(Tensor self) -> Tensor", max_all<false>},
    {"aten::min.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)", max_dim<false>},
    {"aten::min.other(Tensor self, Tensor other) -> Tensor", max_other<false>},
    {"aten::min.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", max_other_out<false>},
    {"aten::argmax(Tensor self, int? dim=None, bool keepdim=False) -> Tensor", argmax<true>},
    {"aten::argmin(Tensor self, int? dim=None, bool keepdim=False) -> Tensor", argmax<false>},
    {"aten::all(Tensor self) -> Tensor", all_all<true>},
    {"aten::equal(Tensor self, Tensor other) -> bool", equal},
    {"aten::all.dim(Tensor self, int dim, bool keepdim=False) -> Tensor", all_dim<true>},
    {"aten::any(Tensor self) -> Tensor", all_all<false>},
    {"aten::any.dim(Tensor self, int dim, bool keepdim=False) -> Tensor", all_dim<false>},
    {"aten::var(Tensor self, bool unbiased=True) -> Tensor", var_all<false>},
    {"aten::var.dim(Tensor self, int[1]? dim, bool unbiased=True, bool keepdim=False) -> Tensor", var_dim<false>},
    {"aten::var.correction(Tensor self, int[1]? dim, *, int? correction, bool keepdim=False) -> Tensor", var_corr<false>},
    {"aten::std(Tensor self, bool unbiased=True) -> Tensor", var_all<true>},
    {"aten::std.dim(Tensor self, int[1]? dim, bool unbiased=True, bool keepdim=False) -> Tensor", var_dim<true>},
    {"aten::std.correction(Tensor self, int[1]? dim, *, int? correction, bool keepdim=False) -> Tensor", var_corr<true>},
    {"aten::norm.Scalar(Tensor self, Scalar p=2) -> Tensor", norm_scalar},
    {"aten::norm.ScalarOpt_dim(Tensor self, Scalar? p, int[1] dim, bool keepdim=False) -> Tensor", norm_dim},
    {"aten::norm.ScalarOpt_dim_dtype(Tensor self, Scalar? p, int[1] dim, bool keepdim, *, ScalarType dtype) -> Tensor", norm_dim_dtype},
    {"aten::norm.ScalarOpt_dtype(Tensor self, Scalar? p, *, ScalarType dtype) -> Tensor", norm_dtype},
    {"aten::linalg_vector_norm(Tensor self, Scalar ord=2, int[1]? dim=None, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor", vector_norm},
    {"aten::histc(Tensor self, int bins=100, Scalar min=0, Scalar max=0) -> Tensor", histc},
    {"aten::logsumexp(Tensor self, int[1] dim, bool keepdim=False) -> Tensor", logsumexp},
    {"aten::cumsum(Tensor self, int dim, *, ScalarType? dtype=None) -> Tensor", cum<true>},
    {"aten::cumsum_(Tensor(a!) self, int dim, *, ScalarType? dtype=None) -> Tensor(a!)", cum_<true>},
    {"aten::cumprod(Tensor self, int dim, *, ScalarType? dtype=None) -> Tensor", cum<false>},
    {"aten::cumprod_(Tensor(a!) self, int dim, *, ScalarType? dtype=None) -> Tensor(a!)", cum_<false>},
    {"aten::sort(Tensor self, int dim=-1, bool descending=False) -> (Tensor values, Tensor indices)", sort<false>},
    {"aten::sort.stable(Tensor self, *, bool? stable, int dim=-1, bool descending=False) -> (Tensor values, Tensor indices)", sort<true>},
    {"aten::argsort(Tensor self, int dim=-1, bool descending=False) -> Tensor", argsort<false>},
    {"aten::argsort.stable(Tensor self, *, bool stable, int dim=-1, bool descending=False) -> Tensor", argsort<true>},
    {"aten::argsort.stable_out(Tensor self, *, bool stable, int dim=-1, bool descending=False, Tensor(a!) out) -> Tensor(a!)", argsort_out},
    {"aten::topk(Tensor self, int k, int dim=-1, bool largest=True, bool sorted=True) -> (Tensor values, Tensor indices)", topk},
});

}  // namespace torchlet::jit::ops

// Statistics: quantile/nanquantile, median/nanmedian, mode, kthvalue, histc, bincount
// and cov/corrcoef, each beside its out= forms (Note [out= forms] in out_forms.h),
// registered from the kernels' signatures (Note [Boxing] in boxing.h). Cases run
// through torch in tests/fixtures/gen_ops.py (statistics_ops, multi_out_ops, ...).
#include <optional>
#include <string>
#include <tuple>

#include <torchlet/ops.h>

#include "jit/ops/boxing.h"
#include "jit/ops/out_forms.h"

namespace torchlet::jit::ops {
namespace {

template <bool kIgnoreNan, typename Q>
Tensor quantile_of(const Tensor& self, const Q& q, std::optional<int64_t> dim, bool keepdim, const std::string& interpolation,
                   std::optional<DType> out_dtype = std::nullopt) {
  return kIgnoreNan ? torchlet::nanquantile(self, q, dim, keepdim, interpolation, out_dtype)
                    : torchlet::quantile(self, q, dim, keepdim, interpolation, out_dtype);
}
template <bool kIgnoreNan, typename Q>
Tensor quantile(const Tensor& self, Q q, std::optional<int64_t> dim, bool keepdim, const std::string& interpolation) {
  return quantile_of<kIgnoreNan>(self, q, dim, keepdim, interpolation);
}
// torch checks the out tensor's dtype among the functional's own checks (before q's
// range), so the kernel is given it.
template <bool kIgnoreNan, typename Q>
Tensor quantile_out(const Tensor& self, Q q, std::optional<int64_t> dim, bool keepdim, const std::string& interpolation,
                    Tensor out) {
  assign_out(out, quantile_of<kIgnoreNan>(self, q, dim, keepdim, interpolation, out.dtype()), "quantile");
  return out;
}

template <bool kIgnoreNan>
Tensor median_all(const Tensor& self) {
  return torchlet::median(self, kIgnoreNan);
}
template <bool kIgnoreNan>
std::tuple<Tensor, Tensor> median_dim(const Tensor& self, int64_t dim, bool keepdim) {
  return torchlet::median(self, dim, keepdim, kIgnoreNan);
}

static RegisterOps reg({
    {"aten::quantile(Tensor self, Tensor q, int? dim=None, bool keepdim=False, *, str interpolation=\"linear\") -> Tensor", boxed<&quantile<false, Tensor>>},
    {"aten::quantile.scalar(Tensor self, float q, int? dim=None, bool keepdim=False, *, str interpolation=\"linear\") -> Tensor", boxed<&quantile<false, double>>},
    {"aten::quantile.out(Tensor self, Tensor q, int? dim=None, bool keepdim=False, *, str interpolation=\"linear\", Tensor(a!) out) -> Tensor(a!)", boxed<&quantile_out<false, Tensor>>},
    {"aten::quantile.scalar_out(Tensor self, float q, int? dim=None, bool keepdim=False, *, str interpolation=\"linear\", Tensor(a!) out) -> Tensor(a!)", boxed<&quantile_out<false, double>>},
    {"aten::nanquantile(Tensor self, Tensor q, int? dim=None, bool keepdim=False, *, str interpolation=\"linear\") -> Tensor", boxed<&quantile<true, Tensor>>},
    {"aten::nanquantile.scalar(Tensor self, float q, int? dim=None, bool keepdim=False, *, str interpolation=\"linear\") -> Tensor", boxed<&quantile<true, double>>},
    {"aten::nanquantile.out(Tensor self, Tensor q, int? dim=None, bool keepdim=False, *, str interpolation=\"linear\", Tensor(a!) out) -> Tensor(a!)", boxed<&quantile_out<true, Tensor>>},
    {"aten::nanquantile.scalar_out(Tensor self, float q, int? dim=None, bool keepdim=False, *, str interpolation=\"linear\", Tensor(a!) out) -> Tensor(a!)", boxed<&quantile_out<true, double>>},
    {"aten::median(Tensor self) -> Tensor", boxed<&median_all<false>>},
    {"aten::median.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::median", 1, any_dtype>},
    {"aten::median.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)", boxed<&median_dim<false>>},
    {"aten::median.dim_values(Tensor self, int dim, bool keepdim=False, *, Tensor(a!) values, Tensor(b!) indices) -> (Tensor(a!) values, Tensor(b!) indices)", into_outs<"aten::median.dim", 2, median_check>},
    {"aten::nanmedian(Tensor self) -> Tensor", boxed<&median_all<true>>},
    {"aten::nanmedian.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::nanmedian", 1, any_dtype>},
    {"aten::nanmedian.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)", boxed<&median_dim<true>>},
    {"aten::nanmedian.dim_values(Tensor self, int dim, bool keepdim=False, *, Tensor(a!) values, Tensor(b!) indices) -> (Tensor(a!) values, Tensor(b!) indices)", into_outs<"aten::nanmedian.dim", 2, median_check>},
    {"aten::kthvalue(Tensor self, int k, int dim=-1, bool keepdim=False) -> (Tensor values, Tensor indices)", boxed<&torchlet::kthvalue>},
    {"aten::kthvalue.values(Tensor self, int k, int dim=-1, bool keepdim=False, *, Tensor(a!) values, Tensor(b!) indices) -> (Tensor(a!) values, Tensor(b!) indices)", into_outs<"aten::kthvalue", 2, kthvalue_check>},
    {"aten::mode(Tensor self, int dim=-1, bool keepdim=False) -> (Tensor values, Tensor indices)", boxed<&torchlet::mode>},
    {"aten::mode.values(Tensor self, int dim=-1, bool keepdim=False, *, Tensor(a!) values, Tensor(b!) indices) -> (Tensor(a!) values, Tensor(b!) indices)", into_outs<"aten::mode", 2, mode_check>},
    {"aten::histc(Tensor self, int bins=100, Scalar min=0, Scalar max=0) -> Tensor", boxed<&torchlet::histc>},
    {"aten::histc.out(Tensor self, int bins=100, Scalar min=0, Scalar max=0, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::histc", 1, histc_check>},
    {"aten::bincount(Tensor self, Tensor? weights=None, int minlength=0) -> Tensor", boxed<&torchlet::bincount>},
    {"aten::bincount.out(Tensor self, Tensor? weights=None, int minlength=0, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::bincount", 1, any_dtype>},
    {"aten::cov(Tensor self, *, int correction=1, Tensor? fweights=None, Tensor? aweights=None) -> Tensor", boxed<&torchlet::cov>},
    {"aten::corrcoef(Tensor self) -> Tensor", boxed<&torchlet::corrcoef>},
});

}  // namespace
}  // namespace torchlet::jit::ops

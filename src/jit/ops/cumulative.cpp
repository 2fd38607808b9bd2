// Scans along a dim: cumsum/cumprod (and in place), cummax/cummin with indices,
// logcumsumexp, and diff, each beside its out= forms (Note [out= forms] in
// out_forms.h), registered from the kernels' signatures (Note [Boxing] in boxing.h).
// Cases run through torch in tests/fixtures/gen_ops.py.
#include <optional>

#include <torchlet/ops.h>

#include "jit/ops/boxing.h"
#include "jit/ops/out_forms.h"

namespace torchlet::jit::ops {
namespace {

// diff.out: torch's out= path narrows the input (prepend and append joined) to its
// length less n, so a negative n, which the functional answers with that joined input,
// is narrow's refusal here.
Tensor diff_for_out(const Tensor& self, int64_t n, int64_t dim, const std::optional<Tensor>& prepend,
                    const std::optional<Tensor>& append) {
  Tensor result = torchlet::diff(self, n, dim, prepend, append);
  if (n < 0) {
    const int64_t d = wrap_dim(dim, result.dim(), "diff");
    (void)result.narrow(d, 0, result.size(d) - n);
  }
  return result;
}

static RegisterOps reg({
    {"aten::cumsum(Tensor self, int dim, *, ScalarType? dtype=None) -> Tensor", boxed<&torchlet::cumsum>},
    {"aten::cumsum_(Tensor(a!) self, int dim, *, ScalarType? dtype=None) -> Tensor(a!)", inplace<&torchlet::cumsum>},
    {"aten::cumsum.out(Tensor self, int dim, *, ScalarType? dtype=None, Tensor(a!) out) -> Tensor(a!)", in_out_dtype<"aten::cumsum">},
    {"aten::cumprod(Tensor self, int dim, *, ScalarType? dtype=None) -> Tensor", boxed<&torchlet::cumprod>},
    {"aten::cumprod_(Tensor(a!) self, int dim, *, ScalarType? dtype=None) -> Tensor(a!)", inplace<&torchlet::cumprod>},
    {"aten::cumprod.out(Tensor self, int dim, *, ScalarType? dtype=None, Tensor(a!) out) -> Tensor(a!)", in_out_dtype<"aten::cumprod">},
    {"aten::cummax(Tensor self, int dim) -> (Tensor values, Tensor indices)", boxed<&torchlet::cummax>},
    {"aten::cummax.out(Tensor self, int dim, *, Tensor(a!) values, Tensor(b!) indices) -> (Tensor(a!) values, Tensor(b!) indices)", into_outs<"aten::cummax", 2, cumulative_extreme_check>},
    {"aten::cummin(Tensor self, int dim) -> (Tensor values, Tensor indices)", boxed<&torchlet::cummin>},
    {"aten::cummin.out(Tensor self, int dim, *, Tensor(a!) values, Tensor(b!) indices) -> (Tensor(a!) values, Tensor(b!) indices)", into_outs<"aten::cummin", 2, cumulative_extreme_check>},
    {"aten::logcumsumexp(Tensor self, int dim) -> Tensor", boxed<&torchlet::logcumsumexp>},
    {"aten::logcumsumexp.out(Tensor self, int dim, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::logcumsumexp", 1, cumulative_extreme_check>},
    {"aten::diff(Tensor self, int n=1, int dim=-1, Tensor? prepend=None, Tensor? append=None) -> Tensor", boxed<&torchlet::diff>},
    {"aten::diff.out(Tensor self, int n=1, int dim=-1, Tensor? prepend=None, Tensor? append=None, *, Tensor(a!) out) -> Tensor(a!)", out_variant<&diff_for_out>},
});

}  // namespace
}  // namespace torchlet::jit::ops

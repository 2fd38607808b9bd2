// The special functions: lgamma, digamma, polygamma and mvlgamma, the regularized
// incomplete gamma functions igamma/igammac, i0, and torch.special's elementwise
// functions (entr, ndtr, log_ndtr, ndtri, erfcx, xlog1py, zeta, the modified Bessel
// functions i0e/i1/i1e and the Bessel functions j0/j1), with their in-place and out=
// forms, each registered from its kernel (kernels/special.cpp; Note [Boxing], Note
// [Elementwise forms]). Cases run through torch in tests/fixtures/gen_ops.py
// (special_extra_ops). math.lgamma (lgamma.int/float/Scalar) is boxed_inline from
// scalar_builtins.h's math table, before lgamma's tensor rows.
#include <torchlet/ops.h>

#include "jit/ops/boxing.h"
#include "jit/ops/elementwise_forms.h"
#include "jit/ops/scalar_builtins.h"

namespace torchlet::jit::ops {
namespace {

// polygamma_ takes self first, the functional n first.
Tensor polygamma_of_self(const Tensor& self, int64_t n) { return torchlet::polygamma(n, self); }

static RegisterOps reg({
    // the gamma family (lgamma and digamma are the unary table's)
    {"aten::lgamma.Scalar(Scalar a) -> Scalar", boxed_inline<&math1_scalar<Math_lgamma>>},
    {"aten::lgamma.float(float a) -> float", boxed_inline<&math1<Math_lgamma, double>>},
    {"aten::lgamma.int(int a) -> float", boxed_inline<&math1<Math_lgamma, int64_t>>},
    {"aten::lgamma(Tensor self) -> Tensor", boxed<&torchlet::lgamma>},
    {"aten::lgamma_(Tensor(a!) self) -> Tensor(a!)", writes_self<&torchlet::lgamma_>},
    {"aten::lgamma.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", out_variant<&torchlet::lgamma>},
    {"aten::digamma(Tensor self) -> Tensor", boxed<&torchlet::digamma>},
    {"aten::digamma_(Tensor(a!) self) -> Tensor(a!)", writes_self<&torchlet::digamma_>},
    {"aten::digamma.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", out_variant<&torchlet::digamma>},
    {"aten::polygamma(int n, Tensor self) -> Tensor", boxed<&torchlet::polygamma>},
    {"aten::polygamma.out(int n, Tensor self, *, Tensor(a!) out) -> Tensor(a!)", out_variant<&torchlet::polygamma>},
    {"aten::polygamma_(Tensor(a!) self, int n) -> Tensor(a!)", inplace<&polygamma_of_self>},
    {"aten::mvlgamma(Tensor self, int p) -> Tensor", boxed<&torchlet::mvlgamma>},
    {"aten::mvlgamma_(Tensor(a!) self, int p) -> Tensor(a!)", writes_self<&torchlet::mvlgamma_>},
    {"aten::mvlgamma.out(Tensor self, int p, *, Tensor(a!) out) -> Tensor(a!)", out_variant<&torchlet::mvlgamma>},
    // torch.special
    {"aten::special_entr(Tensor self) -> Tensor", boxed<&torchlet::special_entr>},
    {"aten::special_entr.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", out_variant<&torchlet::special_entr>},
    {"aten::special_ndtr(Tensor self) -> Tensor", boxed<&torchlet::special_ndtr>},
    {"aten::special_ndtr.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", out_variant<&torchlet::special_ndtr>},
    {"aten::special_log_ndtr(Tensor self) -> Tensor", boxed<&torchlet::special_log_ndtr>},
    {"aten::special_log_ndtr.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", out_variant<&torchlet::special_log_ndtr>},
    {"aten::special_ndtri(Tensor self) -> Tensor", boxed<&torchlet::special_ndtri>},
    {"aten::special_ndtri.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", out_variant<&torchlet::special_ndtri>},
    {"aten::special_erfcx(Tensor self) -> Tensor", boxed<&torchlet::special_erfcx>},
    {"aten::special_erfcx.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", out_variant<&torchlet::special_erfcx>},
    {"aten::special_xlog1py(Tensor self, Tensor other) -> Tensor", boxed<tt(&torchlet::special_xlog1py)>},
    {"aten::special_xlog1py.other_scalar(Tensor self, Scalar other) -> Tensor", boxed<ts(&torchlet::special_xlog1py)>},
    {"aten::special_xlog1py.self_scalar(Scalar self, Tensor other) -> Tensor", boxed<st(&torchlet::special_xlog1py)>},
    {"aten::special_xlog1py.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", out_variant<tt(&torchlet::special_xlog1py)>},
    {"aten::special_xlog1py.self_scalar_out(Scalar self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", out_variant<st(&torchlet::special_xlog1py)>},
    {"aten::special_xlog1py.other_scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)", out_variant<ts(&torchlet::special_xlog1py)>},
    {"aten::special_zeta(Tensor self, Tensor other) -> Tensor", boxed<tt(&torchlet::special_zeta)>},
    {"aten::special_zeta.other_scalar(Tensor self, Scalar other) -> Tensor", boxed<ts(&torchlet::special_zeta)>},
    {"aten::special_zeta.self_scalar(Scalar self, Tensor other) -> Tensor", boxed<st(&torchlet::special_zeta)>},
    {"aten::special_zeta.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", out_variant<tt(&torchlet::special_zeta)>},
    {"aten::special_zeta.self_scalar_out(Scalar self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", out_variant<st(&torchlet::special_zeta)>},
    {"aten::special_zeta.other_scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)", out_variant<ts(&torchlet::special_zeta)>},
    {"aten::igamma(Tensor self, Tensor other) -> Tensor", boxed<&torchlet::igamma>},
    {"aten::igamma_(Tensor(a!) self, Tensor other) -> Tensor(a!)", inplace<&torchlet::igamma>},
    {"aten::igamma.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", out_variant<&torchlet::igamma>},
    {"aten::igammac(Tensor self, Tensor other) -> Tensor", boxed<&torchlet::igammac>},
    {"aten::igammac_(Tensor(a!) self, Tensor other) -> Tensor(a!)", inplace<&torchlet::igammac>},
    {"aten::igammac.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", out_variant<&torchlet::igammac>},
    {"aten::i0(Tensor self) -> Tensor", boxed<&torchlet::i0>},
    {"aten::i0_(Tensor(a!) self) -> Tensor(a!)", inplace<&torchlet::i0>},
    {"aten::i0.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", out_variant<&torchlet::i0>},
    {"aten::special_i0e(Tensor self) -> Tensor", boxed<&torchlet::special_i0e>},
    {"aten::special_i0e.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", out_variant<&torchlet::special_i0e>},
    {"aten::special_i1(Tensor self) -> Tensor", boxed<&torchlet::special_i1>},
    {"aten::special_i1.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", out_variant<&torchlet::special_i1>},
    {"aten::special_i1e(Tensor self) -> Tensor", boxed<&torchlet::special_i1e>},
    {"aten::special_i1e.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", out_variant<&torchlet::special_i1e>},
    {"aten::special_bessel_j0(Tensor self) -> Tensor", boxed<&torchlet::special_bessel_j0>},
    {"aten::special_bessel_j0.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", out_variant<&torchlet::special_bessel_j0>},
    {"aten::special_bessel_j1(Tensor self) -> Tensor", boxed<&torchlet::special_bessel_j1>},
    {"aten::special_bessel_j1.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", out_variant<&torchlet::special_bessel_j1>},
});

}  // namespace
}  // namespace torchlet::jit::ops

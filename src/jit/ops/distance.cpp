// Distance operators: pdist, cdist, cosine_similarity, pairwise_distance and dist,
// registered from their kernels' signatures (Note [Boxing] in boxing.h).
#include <torchlet/ops.h>

#include "jit/ops/boxing.h"
#include "jit/ops/out_forms.h"

namespace torchlet::jit::ops {
namespace {

static RegisterOps reg({
    {"aten::pdist(Tensor self, float p=2.) -> Tensor", boxed<&torchlet::pdist>},
    {"aten::_pdist_forward(Tensor self, float p=2.) -> Tensor", boxed<&torchlet::pdist_forward>},
    {"aten::_pdist_forward.out(Tensor self, float p=2., *, Tensor(a!) out) -> Tensor(a!)", out_variant<&torchlet::pdist_forward>},
    {"aten::cdist(Tensor x1, Tensor x2, float p=2., int? compute_mode=None) -> Tensor", boxed<&torchlet::cdist>},
    {"aten::cosine_similarity(Tensor x1, Tensor x2, int dim=1, float eps=1e-08) -> Tensor", boxed<&torchlet::cosine_similarity>},
    {"aten::pairwise_distance(Tensor x1, Tensor x2, float p=2., float eps=9.9999999999999995e-07, bool keepdim=False) -> Tensor", boxed<&torchlet::pairwise_distance>},
    {"aten::dist(Tensor self, Tensor other, Scalar p=2) -> Tensor", boxed<&torchlet::dist>},
    {"aten::dist.out(Tensor self, Tensor other, Scalar p=2, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::dist", 1, any_dtype>},
});

}  // namespace
}  // namespace torchlet::jit::ops

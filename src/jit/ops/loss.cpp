// Loss operators: the regression losses (mse, l1, smooth_l1, huber), the class losses
// (nll, cross_entropy, binary_cross_entropy(_with_logits), kl_div, poisson_nll, ctc),
// and the margin and embedding losses, each registered from its kernel's signature
// (Note [Boxing] in boxing.h), with the out= forms torch has for them.
#include <torchlet/ops.h>

#include "jit/ops/boxing.h"
#include "jit/ops/out_forms.h"

namespace torchlet::jit::ops {
namespace {

using CtcLossOfLists = Tensor (*)(const Tensor&, const Tensor&, IntList, IntList, int64_t, int64_t, bool);
using CtcLossOfTensors = Tensor (*)(const Tensor&, const Tensor&, const Tensor&, const Tensor&, int64_t, int64_t, bool);

static RegisterOps reg({
    {"aten::ctc_loss.IntList(Tensor log_probs, Tensor targets, int[] input_lengths, int[] target_lengths, int blank=0, int reduction=1, bool zero_infinity=False) -> Tensor", boxed<static_cast<CtcLossOfLists>(&torchlet::ctc_loss)>},
    {"aten::ctc_loss.Tensor(Tensor log_probs, Tensor targets, Tensor input_lengths, Tensor target_lengths, int blank=0, int reduction=1, bool zero_infinity=False) -> Tensor", boxed<static_cast<CtcLossOfTensors>(&torchlet::ctc_loss)>},
    {"aten::mse_loss(Tensor self, Tensor target, int reduction=1) -> Tensor", boxed<&torchlet::mse_loss>},
    {"aten::mse_loss.out(Tensor self, Tensor target, int reduction=1, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::mse_loss", 1, castable>},
    {"aten::l1_loss(Tensor self, Tensor target, int reduction=1) -> Tensor", boxed<&torchlet::l1_loss>},
    {"aten::smooth_l1_loss(Tensor self, Tensor target, int reduction=1, float beta=1.) -> Tensor", boxed<&torchlet::smooth_l1_loss>},
    {"aten::smooth_l1_loss.out(Tensor self, Tensor target, int reduction=1, float beta=1., *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::smooth_l1_loss", 1, castable>},
    {"aten::huber_loss(Tensor self, Tensor target, int reduction=1, float delta=1.) -> Tensor", boxed<&torchlet::huber_loss>},
    {"aten::huber_loss.out(Tensor self, Tensor target, int reduction=1, float delta=1., *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::huber_loss", 1, castable>},
    {"aten::nll_loss(Tensor self, Tensor target, Tensor? weight=None, int reduction=1, int ignore_index=-100) -> Tensor", boxed<&torchlet::nll_loss>},
    {"aten::nll_loss.out(Tensor self, Tensor target, Tensor? weight=None, int reduction=1, int ignore_index=-100, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::nll_loss", 1, exact_dtype>},
    // What F.nll_loss calls: torch's nll_loss takes 1-D/2-D input and this any (N, C, d1, ...);
    // torchlet's nll_loss takes every layout already.
    {"aten::nll_loss_nd(Tensor self, Tensor target, Tensor? weight=None, int reduction=1, int ignore_index=-100) -> Tensor", boxed<&torchlet::nll_loss>},
    {"aten::cross_entropy_loss(Tensor self, Tensor target, Tensor? weight=None, int reduction=1, int ignore_index=-100, float label_smoothing=0.) -> Tensor", boxed<&torchlet::cross_entropy>},
    {"aten::binary_cross_entropy(Tensor self, Tensor target, Tensor? weight=None, int reduction=1) -> Tensor", boxed<&torchlet::binary_cross_entropy>},
    {"aten::binary_cross_entropy_with_logits(Tensor self, Tensor target, Tensor? weight=None, Tensor? pos_weight=None, int reduction=1) -> Tensor", boxed<&torchlet::binary_cross_entropy_with_logits>},
    {"aten::binary_cross_entropy_with_logits.out(Tensor self, Tensor target, Tensor? weight=None, Tensor? pos_weight=None, int reduction=1, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::binary_cross_entropy_with_logits", 1, any_dtype>},
    {"aten::multi_margin_loss(Tensor self, Tensor target, Scalar p=1, Scalar margin=1, Tensor? weight=None, int reduction=1) -> Tensor", boxed<&torchlet::multi_margin_loss>},
    {"aten::multi_margin_loss.out(Tensor self, Tensor target, Scalar p=1, Scalar margin=1, Tensor? weight=None, int reduction=1, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::multi_margin_loss", 1, expected_scalar_type>},
    {"aten::multilabel_margin_loss(Tensor self, Tensor target, int reduction=1) -> Tensor", boxed<&torchlet::multilabel_margin_loss>},
    {"aten::multilabel_margin_loss.out(Tensor self, Tensor target, int reduction=1, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::multilabel_margin_loss", 1, expected_scalar_type>},
    {"aten::multilabel_margin_loss_forward(Tensor self, Tensor target, int reduction) -> (Tensor output, Tensor is_target)", boxed<&torchlet::multilabel_margin_loss_forward>},
    {"aten::kl_div(Tensor self, Tensor target, int reduction=1, *, bool log_target=False) -> Tensor", boxed<&torchlet::kl_div>},
    {"aten::hinge_embedding_loss(Tensor self, Tensor target, float margin=1., int reduction=1) -> Tensor", boxed<&torchlet::hinge_embedding_loss>},
    {"aten::cosine_embedding_loss(Tensor input1, Tensor input2, Tensor target, float margin=0., int reduction=1) -> Tensor", boxed<&torchlet::cosine_embedding_loss>},
    {"aten::margin_ranking_loss(Tensor input1, Tensor input2, Tensor target, float margin=0., int reduction=1) -> Tensor", boxed<&torchlet::margin_ranking_loss>},
    {"aten::soft_margin_loss(Tensor self, Tensor target, int reduction=1) -> Tensor", boxed<&torchlet::soft_margin_loss>},
    {"aten::soft_margin_loss.out(Tensor self, Tensor target, int reduction=1, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::soft_margin_loss", 1, found_dtype>},
    {"aten::triplet_margin_loss(Tensor anchor, Tensor positive, Tensor negative, float margin=1., float p=2., float eps=9.9999999999999995e-07, bool swap=False, int reduction=1) -> Tensor", boxed<&torchlet::triplet_margin_loss>},
    {"aten::poisson_nll_loss(Tensor input, Tensor target, bool log_input, bool full, float eps, int reduction) -> Tensor", boxed<&torchlet::poisson_nll_loss>},
});

}  // namespace
}  // namespace torchlet::jit::ops

// The dropout family: dropout, feature_dropout, alpha_dropout and feature_alpha_dropout,
// functional and in place, each registered from its kernel's signature (Note [Boxing] in
// boxing.h). The in-place forms write the functional's result into self (torch
// multiplies in place: the same values).
#include <torchlet/ops.h>

#include "jit/ops/boxing.h"

namespace torchlet::jit::ops {
namespace {

static RegisterOps reg({
    {"aten::dropout(Tensor input, float p, bool train) -> Tensor", boxed<&torchlet::dropout>},
    {"aten::dropout_(Tensor(a!) self, float p, bool train) -> Tensor(a!)", inplace<&torchlet::dropout>},
    {"aten::feature_dropout(Tensor input, float p, bool train) -> Tensor", boxed<&torchlet::feature_dropout>},
    {"aten::feature_dropout_(Tensor(a!) self, float p, bool train) -> Tensor(a!)", inplace<&torchlet::feature_dropout>},
    {"aten::alpha_dropout(Tensor input, float p, bool train) -> Tensor", boxed<&torchlet::alpha_dropout>},
    {"aten::alpha_dropout_(Tensor(a!) self, float p, bool train) -> Tensor(a!)", inplace<&torchlet::alpha_dropout>},
    {"aten::feature_alpha_dropout(Tensor input, float p, bool train) -> Tensor", boxed<&torchlet::feature_alpha_dropout>},
    {"aten::feature_alpha_dropout_(Tensor(a!) self, float p, bool train) -> Tensor(a!)", inplace<&torchlet::feature_alpha_dropout>},
});

}  // namespace
}  // namespace torchlet::jit::ops

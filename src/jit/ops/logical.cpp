// Logical operators: logical_and, logical_or, logical_xor and logical_not on tensors of
// any dtype (bool results, or out's dtype for out=), with their in-place and out= forms,
// each registered from its kernel (the binary and unary tables in ops.h; Note
// [Elementwise forms]).
#include <torchlet/ops.h>

#include "jit/ops/boxing.h"
#include "jit/ops/elementwise_forms.h"

namespace torchlet::jit::ops {
namespace {

static RegisterOps reg({
    {"aten::logical_and(Tensor self, Tensor other) -> Tensor", boxed<tt(&torchlet::logical_and)>},
    {"aten::logical_and_(Tensor(a!) self, Tensor other) -> Tensor(a!)", writes_self<tt_(&torchlet::logical_and_)>},
    {"aten::logical_and.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", out_variant<tt(&torchlet::logical_and)>},
    {"aten::logical_or(Tensor self, Tensor other) -> Tensor", boxed<tt(&torchlet::logical_or)>},
    {"aten::logical_or_(Tensor(a!) self, Tensor other) -> Tensor(a!)", writes_self<tt_(&torchlet::logical_or_)>},
    {"aten::logical_or.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", out_variant<tt(&torchlet::logical_or)>},
    {"aten::logical_xor(Tensor self, Tensor other) -> Tensor", boxed<tt(&torchlet::logical_xor)>},
    {"aten::logical_xor_(Tensor(a!) self, Tensor other) -> Tensor(a!)", writes_self<tt_(&torchlet::logical_xor_)>},
    {"aten::logical_xor.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", out_variant<tt(&torchlet::logical_xor)>},
    {"aten::logical_not(Tensor self) -> Tensor", boxed<&torchlet::logical_not>},
    {"aten::logical_not_(Tensor(a!) self) -> Tensor(a!)", writes_self<&torchlet::logical_not_>},
    {"aten::logical_not.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", out_variant<&torchlet::logical_not>},
});

}  // namespace
}  // namespace torchlet::jit::ops

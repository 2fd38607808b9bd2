// Bitwise operators on integral and bool tensors: and, or, xor, not and the shifts, with
// their in-place, out= and Scalar-first forms and Python's operator names for them
// (__and__, __lshift__, __irshift__, ...), each registered from its kernel (the binary and
// unary tables in ops.h; Note [Elementwise forms]). The int and bool overloads of the
// operator names (__and__.bool, __lshift__.int, ...) follow their tensor rows,
// boxed_inline from scalar_builtins.h's kernels.
#include <torchlet/ops.h>

#include "jit/ops/boxing.h"
#include "jit/ops/elementwise_forms.h"
#include "jit/ops/scalar_builtins.h"

namespace torchlet::jit::ops {
namespace {

static RegisterOps reg({
    {"aten::bitwise_and.Tensor(Tensor self, Tensor other) -> Tensor", boxed<tt(&torchlet::bitwise_and)>},
    {"aten::bitwise_and.Scalar(Tensor self, Scalar other) -> Tensor", boxed<ts(&torchlet::bitwise_and)>},
    {"aten::bitwise_and.Scalar_Tensor(Scalar self, Tensor other) -> Tensor", boxed<&scalar_first<tt(&torchlet::bitwise_and)>>},
    {"aten::bitwise_and_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)", writes_self<tt_(&torchlet::bitwise_and_)>},
    {"aten::bitwise_and_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)", writes_self<ts_(&torchlet::bitwise_and_)>},
    {"aten::bitwise_and.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", out_variant<tt(&torchlet::bitwise_and)>},
    {"aten::bitwise_and.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)", out_variant<ts(&torchlet::bitwise_and)>},
    {"aten::bitwise_and.Scalar_Tensor_out(Scalar self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", out_unchecked<&scalar_first<tt(&torchlet::bitwise_and)>>},
    {"aten::bitwise_or.Tensor(Tensor self, Tensor other) -> Tensor", boxed<tt(&torchlet::bitwise_or)>},
    {"aten::bitwise_or.Scalar(Tensor self, Scalar other) -> Tensor", boxed<ts(&torchlet::bitwise_or)>},
    {"aten::bitwise_or.Scalar_Tensor(Scalar self, Tensor other) -> Tensor", boxed<&scalar_first<tt(&torchlet::bitwise_or)>>},
    {"aten::bitwise_or_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)", writes_self<tt_(&torchlet::bitwise_or_)>},
    {"aten::bitwise_or_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)", writes_self<ts_(&torchlet::bitwise_or_)>},
    {"aten::bitwise_or.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", out_variant<tt(&torchlet::bitwise_or)>},
    {"aten::bitwise_or.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)", out_variant<ts(&torchlet::bitwise_or)>},
    {"aten::bitwise_or.Scalar_Tensor_out(Scalar self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", out_unchecked<&scalar_first<tt(&torchlet::bitwise_or)>>},
    {"aten::bitwise_xor.Tensor(Tensor self, Tensor other) -> Tensor", boxed<tt(&torchlet::bitwise_xor)>},
    {"aten::bitwise_xor.Scalar(Tensor self, Scalar other) -> Tensor", boxed<ts(&torchlet::bitwise_xor)>},
    {"aten::bitwise_xor.Scalar_Tensor(Scalar self, Tensor other) -> Tensor", boxed<&scalar_first<tt(&torchlet::bitwise_xor)>>},
    {"aten::bitwise_xor_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)", writes_self<tt_(&torchlet::bitwise_xor_)>},
    {"aten::bitwise_xor_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)", writes_self<ts_(&torchlet::bitwise_xor_)>},
    {"aten::bitwise_xor.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", out_variant<tt(&torchlet::bitwise_xor)>},
    {"aten::bitwise_xor.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)", out_variant<ts(&torchlet::bitwise_xor)>},
    {"aten::bitwise_xor.Scalar_Tensor_out(Scalar self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", out_unchecked<&scalar_first<tt(&torchlet::bitwise_xor)>>},
    {"aten::bitwise_not(Tensor self) -> Tensor", boxed<&torchlet::bitwise_not>},
    {"aten::bitwise_not_(Tensor(a!) self) -> Tensor(a!)", writes_self<&torchlet::bitwise_not_>},
    {"aten::bitwise_not.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", out_variant<&torchlet::bitwise_not>},
    {"aten::bitwise_left_shift.Tensor(Tensor self, Tensor other) -> Tensor", boxed<tt(&torchlet::bitwise_left_shift)>},
    {"aten::bitwise_left_shift.Tensor_Scalar(Tensor self, Scalar other) -> Tensor", boxed<ts(&torchlet::bitwise_left_shift)>},
    {"aten::bitwise_left_shift.Scalar_Tensor(Scalar self, Tensor other) -> Tensor", boxed<&scalar_first<tt(&torchlet::bitwise_left_shift)>>},
    {"aten::bitwise_left_shift_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)", writes_self<tt_(&torchlet::bitwise_left_shift_)>},
    {"aten::bitwise_left_shift_.Tensor_Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)", writes_self<ts_(&torchlet::bitwise_left_shift_)>},
    {"aten::bitwise_left_shift.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", out_variant<tt(&torchlet::bitwise_left_shift)>},
    {"aten::bitwise_left_shift.Tensor_Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)", out_variant<ts(&torchlet::bitwise_left_shift)>},
    {"aten::bitwise_left_shift.Scalar_Tensor_out(Scalar self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", out_unchecked<&scalar_first<tt(&torchlet::bitwise_left_shift)>>},
    {"aten::bitwise_right_shift.Tensor(Tensor self, Tensor other) -> Tensor", boxed<tt(&torchlet::bitwise_right_shift)>},
    {"aten::bitwise_right_shift.Tensor_Scalar(Tensor self, Scalar other) -> Tensor", boxed<ts(&torchlet::bitwise_right_shift)>},
    {"aten::bitwise_right_shift.Scalar_Tensor(Scalar self, Tensor other) -> Tensor", boxed<&scalar_first<tt(&torchlet::bitwise_right_shift)>>},
    {"aten::bitwise_right_shift_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)", writes_self<tt_(&torchlet::bitwise_right_shift_)>},
    {"aten::bitwise_right_shift_.Tensor_Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)", writes_self<ts_(&torchlet::bitwise_right_shift_)>},
    {"aten::bitwise_right_shift.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", out_variant<tt(&torchlet::bitwise_right_shift)>},
    {"aten::bitwise_right_shift.Tensor_Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)", out_variant<ts(&torchlet::bitwise_right_shift)>},
    {"aten::bitwise_right_shift.Scalar_Tensor_out(Scalar self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", out_unchecked<&scalar_first<tt(&torchlet::bitwise_right_shift)>>},
    // a & b, a | b, a ^ b on tensors: the same operations under Python's operator names.
    {"aten::__and__.Tensor(Tensor self, Tensor other) -> Tensor", boxed<tt(&torchlet::bitwise_and)>},
    {"aten::__and__.Scalar(Tensor self, Scalar other) -> Tensor", boxed<ts(&torchlet::bitwise_and)>},
    {"aten::__and__.bool(bool a, bool b) -> bool", boxed_inline<&bitwise<std::bit_and<>, bool>>},
    {"aten::__and__.int(int a, int b) -> int", boxed_inline<&bitwise<std::bit_and<>, int64_t>>},
    {"aten::__or__.Tensor(Tensor self, Tensor other) -> Tensor", boxed<tt(&torchlet::bitwise_or)>},
    {"aten::__or__.Scalar(Tensor self, Scalar other) -> Tensor", boxed<ts(&torchlet::bitwise_or)>},
    {"aten::__or__.bool(bool a, bool b) -> bool", boxed_inline<&bitwise<std::bit_or<>, bool>>},
    {"aten::__or__.int(int a, int b) -> int", boxed_inline<&bitwise<std::bit_or<>, int64_t>>},
    {"aten::__xor__.Tensor(Tensor self, Tensor other) -> Tensor", boxed<tt(&torchlet::bitwise_xor)>},
    {"aten::__xor__.Scalar(Tensor self, Scalar other) -> Tensor", boxed<ts(&torchlet::bitwise_xor)>},
    {"aten::__xor__.bool(bool a, bool b) -> bool", boxed_inline<&bitwise<std::bit_xor<>, bool>>},
    {"aten::__xor__.int(int a, int b) -> int", boxed_inline<&bitwise<std::bit_xor<>, int64_t>>},
    // x << n, x >> n and torch's augmented >>= (<<= rebinds, as torch compiles it): the
    // shift operations under Python's operator names.
    {"aten::__lshift__.Tensor(Tensor self, Tensor other) -> Tensor", boxed<tt(&torchlet::bitwise_left_shift)>},
    {"aten::__lshift__.Scalar(Tensor self, Scalar other) -> Tensor", boxed<ts(&torchlet::bitwise_left_shift)>},
    {"aten::__lshift__.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", out_variant<tt(&torchlet::bitwise_left_shift)>},
    {"aten::__lshift__.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)", out_variant<ts(&torchlet::bitwise_left_shift)>},
    {"aten::__lshift__.int(int a, int b) -> int", boxed_inline<&lshift>},
    {"aten::__rshift__.Tensor(Tensor self, Tensor other) -> Tensor", boxed<tt(&torchlet::bitwise_right_shift)>},
    {"aten::__rshift__.Scalar(Tensor self, Scalar other) -> Tensor", boxed<ts(&torchlet::bitwise_right_shift)>},
    {"aten::__rshift__.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", out_variant<tt(&torchlet::bitwise_right_shift)>},
    {"aten::__rshift__.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)", out_variant<ts(&torchlet::bitwise_right_shift)>},
    {"aten::__rshift__.int(int a, int b) -> int", boxed_inline<&rshift>},
    {"aten::__ilshift__.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)", writes_self<tt_(&torchlet::bitwise_left_shift_)>},
    {"aten::__ilshift__.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)", writes_self<ts_(&torchlet::bitwise_left_shift_)>},
    {"aten::__irshift__.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)", writes_self<tt_(&torchlet::bitwise_right_shift_)>},
    {"aten::__irshift__.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)", writes_self<ts_(&torchlet::bitwise_right_shift_)>},
});

}  // namespace
}  // namespace torchlet::jit::ops

// Activation operators: relu and its variants (relu6, leaky_relu, rrelu, prelu, elu,
// selu, celu), gelu, silu, mish, the hard ones (hardtanh, hardswish, hardsigmoid,
// hardshrink), softplus, softshrink, threshold, glu, log_sigmoid and softmax /
// log_softmax, with their in-place and out= forms, each registered from its kernel's
// signature (Note [Boxing] in boxing.h). sigmoid and tanh are unary math
// (unary_math.cpp). The out= forms that check the out tensor's dtype as torch does
// for that operator go through into_outs (Note [out= forms]).
#include <string>

#include <torchlet/ops.h>

#include "jit/ops/boxing.h"
#include "jit/ops/elementwise_forms.h"
#include "jit/ops/out_forms.h"

namespace torchlet::jit::ops {
namespace {

Tensor gelu(const Tensor& self, const std::string& approximate) { return torchlet::gelu(self, approximate); }

// hardtanh_ (nn.ReLU6(inplace=True), the activation of every mobilenet block): for
// float, double and bfloat16 self the bounds do not promote, so hardtanh is clamp in
// self's dtype and runs in place; the generic path computes a new tensor and copies it
// back, one allocation and two extra passes per call. Other dtypes keep it.
Tensor hardtanh_(Tensor self, const Scalar& min_val, const Scalar& max_val) {
  const DType d = self.dtype();
  if (d != DType::Float && d != DType::Double && d != DType::BFloat16) {
    assign_inplace(self, torchlet::hardtanh(self, min_val, max_val), "hardtanh");
    return self;
  }
  torchlet::clamp_(self, min_val, max_val);
  return self;
}

// rrelu's generator must be None (the row checks it): slopes come from the default one.
Tensor rrelu(const Tensor& self, const Scalar& lower, const Scalar& upper, bool training) {
  return torchlet::rrelu(self, lower, upper, training);
}

// aten::_softmax(self, dim, half_to_float): half_to_float asks for a float32 result
// from a float16 input.
template <bool kLog>
Tensor softmax_internal(const Tensor& self, int64_t dim, bool half_to_float) {
  const std::optional<DType> d = half_to_float ? std::optional<DType>(DType::Float) : std::nullopt;
  return kLog ? torchlet::log_softmax(self, dim, d) : torchlet::softmax(self, dim, d);
}

static RegisterOps reg({
    {"aten::relu(Tensor self) -> Tensor", boxed<&torchlet::relu>},
    {"aten::relu_(Tensor(a!) self) -> Tensor(a!)", writes_self<&torchlet::relu_>},
    {"aten::relu.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", out_variant<&torchlet::relu>},
    {"aten::silu(Tensor self) -> Tensor", boxed<&torchlet::silu>},
    {"aten::silu_(Tensor(a!) self) -> Tensor(a!)", writes_self<&torchlet::silu_>},
    {"aten::silu.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", out_variant<&torchlet::silu>},
    {"aten::hardswish(Tensor self) -> Tensor", boxed<&torchlet::hardswish>},
    {"aten::hardswish_(Tensor(a!) self) -> Tensor(a!)", writes_self<&torchlet::hardswish_>},
    {"aten::hardswish.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", out_variant<&torchlet::hardswish>},
    {"aten::hardsigmoid(Tensor self) -> Tensor", boxed<&torchlet::hardsigmoid>},
    {"aten::hardsigmoid_(Tensor(a!) self) -> Tensor(a!)", writes_self<&torchlet::hardsigmoid_>},
    {"aten::hardsigmoid.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", out_variant<&torchlet::hardsigmoid>},
    {"aten::gelu(Tensor self, *, str approximate=\"none\") -> Tensor", boxed<&gelu>},
    {"aten::gelu_(Tensor(a!) self, *, str approximate=\"none\") -> Tensor(a!)", inplace<&gelu>},
    {"aten::gelu.out(Tensor self, *, str approximate=\"none\", Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::gelu", 1, found_dtype>},
    {"aten::leaky_relu(Tensor self, Scalar negative_slope=0.01) -> Tensor", boxed<&torchlet::leaky_relu>},
    {"aten::leaky_relu_(Tensor(a!) self, Scalar negative_slope=0.01) -> Tensor(a!)", inplace<&torchlet::leaky_relu>},
    {"aten::leaky_relu.out(Tensor self, Scalar negative_slope=0.01, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::leaky_relu", 1, found_dtype>},
    {"aten::elu(Tensor self, Scalar alpha=1, Scalar scale=1, Scalar input_scale=1) -> Tensor", boxed<&torchlet::elu>},
    {"aten::elu_(Tensor(a!) self, Scalar alpha=1, Scalar scale=1, Scalar input_scale=1) -> Tensor(a!)", inplace<&torchlet::elu>},
    {"aten::elu.out(Tensor self, Scalar alpha=1, Scalar scale=1, Scalar input_scale=1, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::elu", 1, found_dtype>},
    {"aten::softplus(Tensor self, Scalar beta=1, Scalar threshold=20) -> Tensor", boxed<&torchlet::softplus>},
    {"aten::softplus.out(Tensor self, Scalar beta=1, Scalar threshold=20, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::softplus", 1, found_dtype>},
    {"aten::hardtanh(Tensor self, Scalar min_val=-1, Scalar max_val=1) -> Tensor", boxed<&torchlet::hardtanh>},
    {"aten::hardtanh_(Tensor(a!) self, Scalar min_val=-1, Scalar max_val=1) -> Tensor(a!)", boxed<&hardtanh_>},
    {"aten::hardtanh.out(Tensor self, Scalar min_val=-1, Scalar max_val=1, *, Tensor(a!) out) -> Tensor(a!)", out_variant<&torchlet::hardtanh>},
    {"aten::relu6(Tensor self) -> Tensor", boxed<&torchlet::relu6>},
    {"aten::relu6_(Tensor(a!) self) -> Tensor(a!)", inplace<&torchlet::relu6>},
    {"aten::selu(Tensor self) -> Tensor", boxed<&torchlet::selu>},
    {"aten::selu_(Tensor(a!) self) -> Tensor(a!)", inplace<&torchlet::selu>},
    {"aten::celu(Tensor self, Scalar alpha=1.) -> Tensor", boxed<&torchlet::celu>},
    {"aten::celu_(Tensor(a!) self, Scalar alpha=1.) -> Tensor(a!)", inplace<&torchlet::celu>},
    {"aten::celu.out(Tensor self, Scalar alpha=1., *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::celu", 1, any_dtype>},
    {"aten::mish(Tensor self) -> Tensor", boxed<&torchlet::mish>},
    {"aten::mish_(Tensor(a!) self) -> Tensor(a!)", inplace<&torchlet::mish>},
    {"aten::mish.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::mish", 1, found_dtype>},
    {"aten::softshrink(Tensor self, Scalar lambd=0.5) -> Tensor", boxed<&torchlet::softshrink>},
    {"aten::softshrink.out(Tensor self, Scalar lambd=0.5, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::softshrink", 1, found_dtype>},
    {"aten::hardshrink(Tensor self, Scalar lambd=0.5) -> Tensor", boxed<&torchlet::hardshrink>},
    {"aten::hardshrink.out(Tensor self, Scalar lambd=0.5, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::hardshrink", 1, found_dtype>},
    {"aten::threshold(Tensor self, Scalar threshold, Scalar value) -> Tensor", boxed<&torchlet::threshold>},
    {"aten::threshold_(Tensor(a!) self, Scalar threshold, Scalar value) -> Tensor(a!)", inplace<&torchlet::threshold>},
    {"aten::threshold.out(Tensor self, Scalar threshold, Scalar value, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::threshold", 1, castable>},
    {"aten::log_sigmoid(Tensor self) -> Tensor", boxed<&torchlet::log_sigmoid>},
    {"aten::log_sigmoid.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::log_sigmoid", 1, expected_scalar_type>},
    {"aten::glu(Tensor self, int dim=-1) -> Tensor", boxed<&torchlet::glu>},
    {"aten::glu.out(Tensor self, int dim=-1, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::glu", 1, castable>},
    {"aten::rrelu(Tensor self, Scalar lower=0.125, Scalar upper=0.33333333333333331, bool training=False, Generator? generator=None) -> Tensor", boxed<&rrelu, NoGenerator>},
    {"aten::rrelu_(Tensor(a!) self, Scalar lower=0.125, Scalar upper=0.33333333333333331, bool training=False, Generator? generator=None) -> Tensor(a!)", inplace<&rrelu, NoGenerator>},
    {"aten::prelu(Tensor self, Tensor weight) -> Tensor", boxed<&torchlet::prelu>},
    {"aten::prelu.out(Tensor self, Tensor weight, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::prelu", 1, any_dtype>},
    {"aten::softmax.int(Tensor self, int dim, ScalarType? dtype=None) -> Tensor", boxed<&torchlet::softmax>},
    {"aten::softmax.int_out(Tensor self, int dim, ScalarType? dtype=None, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::softmax.int", 1, exact_dtype>},
    {"aten::log_softmax.int(Tensor self, int dim, ScalarType? dtype=None) -> Tensor", boxed<&torchlet::log_softmax>},
    {"aten::log_softmax.int_out(Tensor self, int dim, ScalarType? dtype=None, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::log_softmax.int", 1, exact_dtype>},
    {"aten::_softmax(Tensor self, int dim, bool half_to_float) -> Tensor", boxed<&softmax_internal<false>>},
    {"aten::_softmax.out(Tensor self, int dim, bool half_to_float, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::_softmax", 1, exact_dtype>},
    {"aten::_log_softmax(Tensor self, int dim, bool half_to_float) -> Tensor", boxed<&softmax_internal<true>>},
    {"aten::_log_softmax.out(Tensor self, int dim, bool half_to_float, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::_log_softmax", 1, exact_dtype>},
});

}  // namespace
}  // namespace torchlet::jit::ops

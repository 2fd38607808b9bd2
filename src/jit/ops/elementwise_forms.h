// Note [Elementwise forms]
// The variants torch gives its elementwise operators beyond boxing.h's, each a template
// over the kernel, so that a row stays its schema and its kernel:
// - writes_self<tt_(&torchlet::mul_)>: `f_(Tensor(a!) self, ...)` through a kernel that
//   writes self itself (`Tensor& f_(Tensor& self, ...)`), which runs torch's in-place
//   loop without a temporary; boxing.h's inplace<&F> computes F, then copies.
// - out_unchecked<&F>: the out= variants torch generates rather than writes
//   (mul.Scalar_out, div.Scalar_out, the Scalar-first out= forms but pow's): out is
//   resized and F's result copied into it, cast whatever its dtype.
// - scalar_first<tt(&F)>: F with a Python number in the first operand's place
//   (remainder.Scalar_Tensor). torch wraps the number as a 0-dim "wrapped number"; a
//   0-dim tensor of the promoted dtype gives the same result type through the kernels'
//   promotion.
// - tt, ts, st, tt_, ts_: pick a binary kernel's overload by its operands (Tensor-Tensor,
//   Tensor-Scalar, Scalar-Tensor; functional or in place), for a template argument.
#pragma once

#include <utility>

#include <torchlet/tensor.h>

#include "jit/ops/boxing.h"
#include "jit/ops/ops_util.h"

namespace torchlet::jit::ops {

using TensorTensorKernel = Tensor (*)(const Tensor&, const Tensor&);
using TensorScalarKernel = Tensor (*)(const Tensor&, const Scalar&);
using ScalarTensorKernel = Tensor (*)(const Scalar&, const Tensor&);
using TensorTensorInPlace = Tensor& (*)(Tensor&, const Tensor&);
using TensorScalarInPlace = Tensor& (*)(Tensor&, const Scalar&);
constexpr TensorTensorKernel tt(TensorTensorKernel f) { return f; }
constexpr TensorScalarKernel ts(TensorScalarKernel f) { return f; }
constexpr ScalarTensorKernel st(ScalarTensorKernel f) { return f; }
constexpr TensorTensorInPlace tt_(TensorTensorInPlace f) { return f; }
constexpr TensorScalarInPlace ts_(TensorScalarInPlace f) { return f; }

// self is taken by value (the stack's reference, moved), written by the kernel and
// returned: the same TensorImpl, as torch's in-place operators return self.
template <typename F>
struct SelfWriting;
template <typename... A>
struct SelfWriting<Tensor& (*)(Tensor&, A...)> {
  template <Tensor& (*kKernel)(Tensor&, A...)>
  static Tensor call(Tensor self, A... args) {
    kKernel(self, std::forward<A>(args)...);
    return self;
  }
};
template <auto kKernel>
inline constexpr BoxedOperation writes_self = boxed<&SelfWriting<decltype(kKernel)>::template call<kKernel>>;

template <auto kKernel>
void call_out_unchecked(Stack& s) {
  Tensor out = pop(s).toTensor();
  auto held = BoxedCall<kKernel>::take(s);
  assign_out_unchecked(out, BoxedCall<kKernel>::invoke(held));
  s.emplace_back(std::move(out));
}
template <auto kKernel>
inline constexpr BoxedOperation out_unchecked{&call_out_unchecked<kKernel>, BoxedCall<kKernel>::kSlots + 1};

template <TensorTensorKernel kKernel>
Tensor scalar_first(const Scalar& self, const Tensor& other) {
  return kKernel(scalar_tensor(self, result_type(other, self)), other);
}

}  // namespace torchlet::jit::ops

// The torch.nn.functional activations beyond unary.cpp's: relu6, selu, celu, mish,
// softsign, softshrink, hardshrink, tanhshrink, threshold, logsigmoid, glu, prelu,
// softmin and normalize (rrelu is in random.cpp). Elementwise ones map through the shared strided loop; those torch itself
// composes from other operators (relu6, selu, celu, softsign, tanhshrink) are
// composed the same way, so their dtype rules and messages come out as torch's.
#include <algorithm>
#include <cmath>

#include <torchlet/error.h>
#include <torchlet/ops.h>

#include "tensor/kernels/elementwise.h"
#include "tensor/kernels/vec_math.h"

namespace torchlet {
namespace {

using kernels::opmath_t;

// float, double and (unless `bf16` is false) bfloat16; torch 1.13 has no CPU float16
// kernel for these.
void check_activation_dtype(DType d, const char* kernel, bool bf16 = true) {
  TL_CHECK(d == DType::Float || d == DType::Double || (bf16 && d == DType::BFloat16), UnsupportedError,
           "\"{}\" not implemented for '{}'", kernel, dtype_info(d).scalar_type_name);
}

// self op other over broadcast operands of self's floating dtype.
template <typename F>
Tensor map_binary_floating(const Tensor& a, const Tensor& b, const Shape& shape, const F& f) {
  Tensor out = empty(shape, a.dtype());
  Tensor ea = a.expand(shape), eb = b.expand(shape);
  auto loop = kernels::make_loop({&out, &ea, &eb});
  kernels::dispatch_floating(a.dtype(), "binary activation", [&]<typename T>() {
    using M = opmath_t<T>;
    kernels::run_loop(loop, [&](char** p, const int64_t* s, int64_t n) {
      kernels::binary_row<T, T, T>(p, s, n, [&](T x, T y) {
        return static_cast<T>(f(static_cast<M>(x), static_cast<M>(y)));
      });
    });
  });
  return out;
}

}  // namespace

Tensor relu6(const Tensor& self) { return hardtanh(self, 0, 6); }

Tensor selu(const Tensor& self) {
  // torch's constants (Klambauer et al.), applied through elu as torch does.
  constexpr double kAlpha = 1.6732632423543772848170429916717;
  constexpr double kScale = 1.0507009873554804934193349852946;
  return elu(self, kAlpha, kScale, 1);
}

Tensor celu(const Tensor& self, const Scalar& alpha) {
  double a = alpha.to_double();
  TL_CHECK(a != 0, ValueError, "ZeroDivisionError: alpha cannot be 0 for CELU");
  return elu(self, alpha, 1, 1.0 / a);
}

Tensor mish(const Tensor& self) {
  check_activation_dtype(self.dtype(), "mish_cpu", false);
  // tanh(log1p(e^x)) = n / (n + 2) with n = e^x (e^x + 2): one vectorisable exp
  // instead of three libm calls. Past x = 20 the factor is 1 in float and double.
  return kernels::map_floating(self, "mish_cpu", [](auto x) {
    using M = decltype(x);
    const M ex = kernels::vexp(std::min(x, M(20)));
    const M n = ex * (ex + M(2));
    return x > M(20) ? x : x * n / (n + M(2));
  });
}

Tensor softsign(const Tensor& self) { return div(self, add(abs(self), Scalar(1))); }

Tensor softshrink(const Tensor& self, const Scalar& lambd) {
  double l = lambd.to_double();
  TL_CHECK(l >= 0, ValueError, "lambda must be greater or equal to 0, but found to be {}.", lambd.to_double());
  check_activation_dtype(self.dtype(), "softshrink_cpu");
  return kernels::map_floating(self, "softshrink_cpu", [l](auto x) {
    using M = decltype(x);
    const M lm = static_cast<M>(l);
    return x > lm ? x - lm : (x < -lm ? x + lm : M(0));
  });
}

Tensor hardshrink(const Tensor& self, const Scalar& lambd) {
  double l = lambd.to_double();
  check_activation_dtype(self.dtype(), "hardshrink_cpu");
  return kernels::map_floating(self, "hardshrink_cpu", [l](auto x) {
    using M = decltype(x);
    const M lm = static_cast<M>(l);
    return (x >= -lm && x <= lm) ? M(0) : x;
  });
}

Tensor tanhshrink(const Tensor& self) { return sub(self, tanh(self)); }

Tensor threshold(const Tensor& self, const Scalar& threshold, const Scalar& value) {
  DType d = self.dtype();
  TL_CHECK(d != DType::Bool && d != DType::Half && !is_complex(d), UnsupportedError, "\"threshold_cpu\" not implemented for '{}'",
           dtype_info(d).scalar_type_name);
  Tensor out = empty(self.sizes(), d);
  auto loop = kernels::make_loop({&out, &self});
  dispatch_real(d, "threshold_cpu", [&]<typename T>() {
    using M = opmath_t<T>;
    // Both scalars convert to the tensor's type first (2.5 thresholds int64 at 2).
    const M th = static_cast<M>(threshold.to_unchecked<T>());
    const M v = static_cast<M>(value.to_unchecked<T>());
    kernels::run_loop(loop, [&](char** p, const int64_t* s, int64_t n) {
      kernels::unary_row<T, T>(p, s, n, [&](T x) { return static_cast<M>(x) <= th ? static_cast<T>(v) : x; });
    });
  });
  return out;
}

Tensor log_sigmoid(const Tensor& self) {
  check_activation_dtype(self.dtype(), "log_sigmoid_cpu");
  return kernels::map_floating(self, "log_sigmoid_cpu", [](auto x) {
    using M = decltype(x);
    // min(x, 0) - log1p(exp(-|x|)): no overflow for either sign.
    return std::min(x, M(0)) - std::log1p(std::exp(-std::abs(x)));
  });
}

Tensor glu(const Tensor& self, int64_t dim) {
  TL_CHECK(self.dim() > 0, ValueError, "glu does not support scalars because halving size must be even");
  int64_t d = wrap_dim(dim, self.dim(), "glu");
  int64_t n = self.size(d);
  TL_CHECK(n % 2 == 0, ValueError, "Halving dimension must be even, but dimension {} is size {}", d, n);
  check_activation_dtype(self.dtype(), "glu_cpu");
  Tensor a = self.narrow(d, 0, n / 2), b = self.narrow(d, n / 2, n / 2);
  return map_binary_floating(a, b, a.sizes().vec(), [](auto x, auto y) {
    using M = decltype(x);
    return x / (M(1) + std::exp(-y));
  });
}

Tensor prelu(const Tensor& self, const Tensor& weight) {
  TL_CHECK(weight.dim() <= 1, ValueError, "prelu: Expected `weight` to be a scalar or 1D tensor, but got ndim = {}",
           weight.dim());
  int64_t channels = self.dim() >= 2 ? self.size(1) : 1;
  int64_t wn = weight.numel();
  TL_CHECK(wn == 1 || wn == channels, ValueError,
           "Mismatch of parameter numbers and input channel size. Found parameter numbers = {} and channel size = {}.",
           wn, channels);
  check_activation_dtype(self.dtype(), "prelu_cpu");
  TL_CHECK(weight.dtype() == self.dtype(), TypeError, "prelu: expected weight of dtype {}, got {}",
           dtype_name(self.dtype()), dtype_name(weight.dtype()));
  // The weight broadcasts along dim 1 (its one element everywhere when numel is 1).
  Shape wshape(static_cast<size_t>(self.dim()), 1);
  Tensor w = weight.reshape({-1});
  if (wn > 1) wshape[1] = wn;
  if (self.dim() > 0) w = w.view(wshape);
  else w = w.reshape({});
  return map_binary_floating(self, w, self.sizes().vec(), [](auto x, auto a) {
    using M = decltype(x);
    return x > M(0) ? x : a * x;
  });
}

Tensor softmin(const Tensor& self, int64_t dim, std::optional<DType> dtype) {
  return softmax(neg(self), dim, dtype);
}

Tensor normalize(const Tensor& self, double p, int64_t dim, double eps) {
  // x / max(||x||_p along dim, eps), the norm kept as a broadcast dim.
  TL_CHECK(is_floating(self.dtype()) || is_complex(self.dtype()), TypeError,
           "norm(): input dtype should be either floating point or complex. Got {} instead.",
           dtype_info(self.dtype()).scalar_type_name);
  Tensor n = norm(self, p, {dim}, true);
  return div(self, clamp(n, Scalar(eps)).expand(self.sizes()));
}

}  // namespace torchlet

// Arithmetic torch defines in terms of other operators, or evaluates by a formula of
// its own, beyond binary.cpp's table: hypot, addcmul/addcdiv, lerp, logaddexp(2),
// xlogy, atan2, float_power, copysign, heaviside and the floating-point bit tools
// ldexp, nextafter and frexp. Compositions are torch's (so are their dtype rules and
// refusals), checked against torch in tests/fixtures/gen_ops.py.
#include <cmath>
#include <limits>
#include <numbers>
#include <string_view>

#include <torchlet/error.h>
#include <torchlet/half.h>
#include <torchlet/ops.h>

#include "tensor/kernels/elementwise.h"
#include "tensor/kernels/special_math.h"

namespace torchlet {
namespace {

std::string_view type_name(DType d) { return dtype_info(d).scalar_type_name; }

// addcmul: self + value * t1 * t2; addcdiv: self + value * t1 / t2 (true division,
// which torch refuses for integer tensors).
template <bool kDiv>
Tensor addc(const Tensor& self, const Tensor& t1, const Tensor& t2, const Scalar& value) {
  if constexpr (kDiv) {
    TL_CHECK(!(is_integral(t1.dtype(), true) && is_integral(t2.dtype(), true)), ValueError,
             "Integer division with addcdiv is no longer supported, and in a future release addcdiv will perform "
             "a true division of tensor1 and tensor2. The historic addcdiv behavior can be implemented as "
             "(input + value * torch.trunc(tensor1 / tensor2)).to(input.dtype) for integer inputs and as "
             "(input + value * tensor1 / tensor2) for float inputs. The future addcdiv behavior is just the "
             "latter implementation: (input + value * tensor1 / tensor2), for all dtypes.");
  }
  Tensor prod = kDiv ? torchlet::div(t1, t2) : torchlet::mul(t1, t2);
  return torchlet::add(self, prod, value);
}

// torch 1.13's lerp kernel: one fused multiply-add, fma(w, end - self, self) for
// w < 0.5 (negative weights included, whatever their size), else
// fma(w - 1, end - self, end). Read off torch's results: rounding the product
// separately, or testing |w|, differs from torch in the last bit.
template <typename T>
void lerp_elements(const T* self, const T* end, const T* weight, T* out, int64_t n) {
  for (int64_t i = 0; i < n; ++i) {
    const T diff = end[i] - self[i];
    out[i] = weight[i] < T(0.5) ? std::fma(weight[i], diff, self[i]) : std::fma(weight[i] - T(1), diff, end[i]);
  }
}

// torch's logaddexp(2): a when a and b are the same infinity, else
// max + log1p(exp(-|a - b|)) (base 2: log1p(exp2(-|a - b|)) / ln 2).
template <bool kBase2>
Tensor logaddexp_of(const Tensor& a0, const Tensor& b0) {
  const DType r = result_type(a0, b0);
  TL_CHECK(r == DType::Float || r == DType::Double || r == DType::BFloat16, UnsupportedError,
           "\"{}\" not implemented for '{}'", kBase2 ? "logaddexp2_cpu" : "logaddexp_cpu", type_name(r));
  Tensor a = a0.to(r), b = b0.to(r);
  Tensor m = torchlet::maximum(a, b);
  Tensor gap = torchlet::neg(torchlet::abs(torchlet::sub(a, b)));
  Tensor r2 = kBase2 ? torchlet::mul(torchlet::log1p(torchlet::pow(Scalar(2.0), gap)), Scalar(1.0 / std::numbers::ln2))
                     : torchlet::log1p(torchlet::exp(gap));
  Tensor same_inf = torchlet::logical_and(torchlet::eq(a, b), torchlet::eq(torchlet::abs(a), Scalar(std::numeric_limits<double>::infinity())));
  return torchlet::where(same_inf, a.expand(m.sizes()), torchlet::add(m, r2));
}

// torch's xlogy: NaN where y is NaN, else 0 where x == 0, else x * log(y); integral
// inputs compute in float.
Tensor xlogy_of(const Tensor& x0, const Tensor& y0, DType r) {
  if (!is_floating(r)) r = kDefaultFloatDType;
  // float16/bfloat16 compute in float and round once, as torch's scalar kernel does.
  const DType compute = r == DType::Half || r == DType::BFloat16 ? DType::Float : r;
  Tensor x = x0.to(r).to(compute), y = y0.to(r).to(compute);
  Tensor out = torchlet::mul(x, torchlet::log(y));
  out = torchlet::masked_fill(out, torchlet::eq(x, Scalar(0.0)).expand(out.sizes()), Scalar(0.0));
  return torchlet::masked_fill(out, torchlet::ne(y, y).expand(out.sizes()), Scalar(std::numeric_limits<double>::quiet_NaN())).to(r);
}

// float_power: both operands in double (complex128 when either is complex).
DType float_power_type(bool complex) { return complex ? DType::ComplexDouble : DType::Double; }
void check_float_power_base(const Tensor& self, bool complex) {
  const DType want = float_power_type(complex);
  TL_CHECK(self.dtype() == want, TypeError,
           "the base given to float_power_ has dtype {} but the operation's result requires dtype {}", type_name(self.dtype()),
           type_name(want));
}

// |self| with other's sign bit, in the promoted floating type (integers become
// float32); NaN and -0.0 keep or take a sign as C's copysign gives them.
Tensor copysign_of(const Tensor& self, const Tensor& other, DType promoted) {
  const DType t = is_floating(promoted) ? promoted : kDefaultFloatDType;
  const Tensor magnitude = torchlet::abs(self.to(t));
  return torchlet::where(torchlet::signbit(other.to(t)), torchlet::neg(magnitude), magnitude);
}

}  // namespace

Tensor hypot(const Tensor& self, const Tensor& other) {
  const DType r = result_type(self, other);
  TL_CHECK(is_floating(r), UnsupportedError, "\"hypot_cpu\" not implemented for '{}'", type_name(r));
  return torchlet::sqrt(torchlet::add(torchlet::mul(self, self), torchlet::mul(other, other)));
}

Tensor addcmul(const Tensor& self, const Tensor& tensor1, const Tensor& tensor2, const Scalar& value) {
  return addc<false>(self, tensor1, tensor2, value);
}
Tensor addcdiv(const Tensor& self, const Tensor& tensor1, const Tensor& tensor2, const Scalar& value) {
  return addc<true>(self, tensor1, tensor2, value);
}

Tensor lerp(const Tensor& self, const Tensor& end, const Tensor& weight) {
  TL_CHECK(self.dtype() == end.dtype(), TypeError, "expected dtype {} for `end` but got dtype {}", dtype_info(self.dtype()).name,
           dtype_info(end.dtype()).name);
  TL_CHECK(self.dtype() == weight.dtype(), TypeError, "expected dtype {} for `weight` but got dtype {}",
           dtype_info(self.dtype()).name, dtype_info(weight.dtype()).name);
  TL_CHECK(self.dtype() == DType::Float || self.dtype() == DType::Double || self.dtype() == DType::BFloat16, UnsupportedError,
           "\"lerp_kernel_tensor\" not implemented for '{}'", type_name(self.dtype()));
  if (self.dtype() == DType::BFloat16)  // computed in float, rounded once (torch's opmath)
    return lerp(self.to(DType::Float), end.to(DType::Float), weight.to(DType::Float)).to(DType::BFloat16);
  const Shape shape = broadcast_shapes(broadcast_shapes(self.sizes(), end.sizes()), weight.sizes());
  const Tensor a = self.expand(shape).contiguous(), b = end.expand(shape).contiguous(), w = weight.expand(shape).contiguous();
  Tensor result = empty(shape, self.dtype());
  if (self.dtype() == DType::Float)
    lerp_elements(a.data<float>(), b.data<float>(), w.data<float>(), result.data<float>(), result.numel());
  else
    lerp_elements(a.data<double>(), b.data<double>(), w.data<double>(), result.data<double>(), result.numel());
  return result;
}
Tensor lerp(const Tensor& self, const Tensor& end, const Scalar& weight) {
  TL_CHECK(self.dtype() == end.dtype(), TypeError, "expected dtype {} for `end` but got dtype {}", dtype_info(self.dtype()).name,
           dtype_info(end.dtype()).name);
  TL_CHECK(self.dtype() == DType::Float || self.dtype() == DType::Double || self.dtype() == DType::BFloat16, UnsupportedError,
           "\"lerp_kernel_scalar\" not implemented for '{}'", type_name(self.dtype()));
  // The weight in the type torch computes in (float for bfloat16), then the tensor kernel.
  const DType compute = self.dtype() == DType::BFloat16 ? DType::Float : self.dtype();
  const Tensor result = lerp(self.to(compute), end.to(compute), scalar_tensor(weight, compute));
  return result.to(self.dtype());
}

Tensor logaddexp(const Tensor& self, const Tensor& other) { return logaddexp_of<false>(self, other); }
Tensor logaddexp2(const Tensor& self, const Tensor& other) { return logaddexp_of<true>(self, other); }

Tensor xlogy(const Tensor& self, const Tensor& other) { return xlogy_of(self, other, result_type(self, other)); }
Tensor xlogy(const Tensor& self, const Scalar& other) {
  return xlogy_of(self, scalar_tensor(other), result_type(self, other));
}
Tensor xlogy(const Scalar& self, const Tensor& other) {
  return xlogy_of(scalar_tensor(self), other, result_type(other, self));
}

// atan2 in double, rounded once to the result type (integral inputs give float32);
// torch has no float16 kernel for it.
Tensor atan2(const Tensor& self, const Tensor& other) {
  DType r = result_type(self, other);
  if (is_integral(r, true)) r = kDefaultFloatDType;
  TL_CHECK(r == DType::Float || r == DType::Double || r == DType::BFloat16, UnsupportedError,
           "\"atan2_cpu\" not implemented for '{}'", type_name(r));
  const Shape shape = broadcast_shapes(self.sizes(), other.sizes());
  Tensor y = self.to(DType::Double).expand(shape).contiguous(), x = other.to(DType::Double).expand(shape).contiguous();
  Tensor out = empty(shape, DType::Double);
  const double* py = y.data<double>();
  const double* px = x.data<double>();
  double* po = out.data<double>();
  for (int64_t i = 0, n = out.numel(); i < n; ++i) po[i] = std::atan2(py[i], px[i]);
  return out.to(r);
}

Tensor float_power(const Tensor& self, const Tensor& exponent) {
  const DType d = float_power_type(is_complex(self.dtype()) || is_complex(exponent.dtype()));
  return torchlet::pow(self.to(d), exponent.to(d));
}
Tensor float_power(const Tensor& self, const Scalar& exponent) {
  TL_CHECK(!is_complex(self.dtype()) && !exponent.is_complex(), UnsupportedError,
           "float_power: complex operands are not supported");
  return torchlet::pow(self.to(DType::Double), Scalar(exponent.to<double>()));
}
Tensor float_power(const Scalar& self, const Tensor& exponent) {
  TL_CHECK(!is_complex(exponent.dtype()) && !self.is_complex(), UnsupportedError,
           "float_power: complex operands are not supported");
  return torchlet::pow(Scalar(self.to<double>()), exponent.to(DType::Double));
}
Tensor& float_power_(Tensor& self, const Tensor& exponent) {
  const bool complex = is_complex(self.dtype()) || is_complex(exponent.dtype());
  check_float_power_base(self, complex);
  return kernels::write_in_place(self, torchlet::pow(self, exponent.to(float_power_type(complex))));
}
Tensor& float_power_(Tensor& self, const Scalar& exponent) {
  check_float_power_base(self, is_complex(self.dtype()) || exponent.is_complex());
  return kernels::write_in_place(self, torchlet::pow(self, Scalar(exponent.to<double>())));
}

Tensor copysign(const Tensor& self, const Tensor& other) { return copysign_of(self, other, result_type(self, other)); }
Tensor copysign(const Tensor& self, const Scalar& other) {
  return copysign_of(self, scalar_tensor(other), result_type(self, other));
}

Tensor heaviside(const Tensor& self, const Tensor& values) {
  TL_CHECK(self.dtype() == values.dtype(), TypeError, "heaviside is not yet implemented for tensors with different dtypes.");
  return torchlet::where(torchlet::eq(self, Scalar(0)), values, torchlet::gt(self, Scalar(0)).to(self.dtype()));
}

// torch's ldexp is self * pow(2.0, other), so it takes that product's dtype (integers
// give float32, float16 * int exponents float32 too) and its values.
Tensor ldexp(const Tensor& self, const Tensor& other) { return torchlet::mul(self, torchlet::pow(Scalar(2.0), other)); }

// The next representable value after self toward other, in their promoted type, which
// must be float32, float64 or bfloat16 (torch's kernel has no other; integers are not
// promoted). bfloat16 steps on its own 16-bit grid.
Tensor nextafter(const Tensor& self, const Tensor& other) {
  const DType r = result_type(self, other);
  TL_CHECK(r == DType::Float || r == DType::Double || r == DType::BFloat16, UnsupportedError,
           "\"nextafter_cpu\" not implemented for '{}'", type_name(r));
  const Shape shape = broadcast_shapes(self.sizes(), other.sizes());
  const Tensor a = self.to(r).expand(shape).contiguous();
  const Tensor b = other.to(r).expand(shape).contiguous();
  Tensor out = empty(shape, r);
  const int64_t n = out.numel();
  if (r == DType::Float) {
    const float* pa = a.data<float>();
    const float* pb = b.data<float>();
    float* po = out.data<float>();
    for (int64_t i = 0; i < n; ++i) po[i] = std::nextafter(pa[i], pb[i]);
  } else if (r == DType::Double) {
    const double* pa = a.data<double>();
    const double* pb = b.data<double>();
    double* po = out.data<double>();
    for (int64_t i = 0; i < n; ++i) po[i] = std::nextafter(pa[i], pb[i]);
  } else {
    const BFloat16* pa = a.data<BFloat16>();
    const BFloat16* pb = b.data<BFloat16>();
    BFloat16* po = out.data<BFloat16>();
    for (int64_t i = 0; i < n; ++i) {
      const float fa = pa[i], fb = pb[i];
      // A NaN operand gives from + to, as torch's bfloat16 nextafter returns.
      const uint16_t nan_bits = BFloat16(fa + fb).bits;
      po[i] = BFloat16::from_bits(
          kernels::special::nextafter_bf16_bits(pa[i].bits, pb[i].bits, std::isnan(fa), std::isnan(fb), nan_bits));
    }
  }
  return out;
}

// self = mantissa * 2^exponent with |mantissa| in [0.5, 1) (0, inf and NaN give
// themselves and exponent 0); the mantissa keeps self's dtype (exact: it has no more
// digits than self), the exponent is int32.
std::tuple<Tensor, Tensor> frexp(const Tensor& self) {
  TL_CHECK(is_floating(self.dtype()), TypeError, "torch.frexp() only supports floating-point dtypes");
  const DType compute = self.dtype() == DType::Double ? DType::Double : DType::Float;
  const Tensor x = self.to(compute).contiguous();
  Tensor mantissa = empty(self.sizes(), compute);
  Tensor exponent = empty(self.sizes(), DType::Int);
  int32_t* pe = exponent.data<int32_t>();
  const int64_t n = x.numel();
  auto split = [&]<typename T>() {
    const T* in = x.data<T>();
    T* pm = mantissa.data<T>();
    for (int64_t i = 0; i < n; ++i) {
      int e = 0;
      pm[i] = std::frexp(in[i], &e);
      pe[i] = e;
    }
  };
  if (compute == DType::Double) split.template operator()<double>();
  else split.template operator()<float>();
  return {mantissa.to(self.dtype()), exponent};
}

}  // namespace torchlet

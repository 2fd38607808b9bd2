// The torch.special functions torch evaluates element by element (entr, ndtr, log_ndtr,
// ndtri, erfcx, xlog1py, zeta, the modified Bessel functions i0/i0e/i1/i1e and the
// Bessel functions of the first kind j0/j1), polygamma, the regularized incomplete
// gamma functions igamma/igammac and mvlgamma. The scalar formulas are in
// special_math.h; this file owns the dtype rules (torch 1.13's: integers and bool
// compute in float32, each kernel's own list of floating types and its "not implemented
// for" refusal) and broadcasting. Cases run through torch in tests/fixtures/gen_ops.py
// (special_extra_ops).
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

namespace sp = kernels::special;

std::string_view type_name(DType d) { return dtype_info(d).scalar_type_name; }

[[noreturn]] void not_implemented(std::string_view kernel, DType d) {
  TL_FAIL(UnsupportedError, "\"{}\" not implemented for '{}'", kernel, type_name(d));
}

// Where torch's bfloat16 kernels call a std:: function of c10::BFloat16
// (c10/util/BFloat16-math.h), that result is rounded before the rest of the formula
// uses it (round_bf16).
using kernels::round_bf16;

// Applies f to every element of a contiguous float or double tensor of `x`'s shape.
template <typename F>
Tensor map_contiguous(const Tensor& x, const F& f) {
  Tensor src = x.contiguous();
  Tensor out = empty(x.sizes(), x.dtype());
  const int64_t n = src.numel();
  if (x.dtype() == DType::Float) {
    const float* in = src.data<float>();
    float* o = out.data<float>();
    for (int64_t i = 0; i < n; ++i) o[i] = f(in[i]);
  } else {
    TL_INTERNAL_ASSERT(x.dtype() == DType::Double, "map_contiguous: float or double only");
    const double* in = src.data<double>();
    double* o = out.data<double>();
    for (int64_t i = 0; i < n; ++i) o[i] = f(in[i]);
  }
  return out;
}

// A unary float function as torch's unary_float_op builds it: integral and bool inputs
// are read as float32; float16 is never implemented and bfloat16 only where torch's
// kernel has it (computed in float, rounded once, unless `bf16` says otherwise).
template <typename F, typename G>
Tensor unary_float(const Tensor& self, const char* kernel, bool has_bf16, const F& f, const G& bf16) {
  const DType in = self.dtype();
  if (is_complex(in) || is_quantized(in)) not_implemented(kernel, in);
  const DType r = is_integral(in, true) ? kDefaultFloatDType : in;
  if (r == DType::Half || (r == DType::BFloat16 && !has_bf16)) not_implemented(kernel, r);
  if (r == DType::BFloat16) return map_contiguous(self.to(DType::Float), bf16).to(DType::BFloat16);
  return map_contiguous(self.to(r), f);
}
template <typename F>
Tensor unary_float(const Tensor& self, const char* kernel, bool has_bf16, const F& f) {
  return unary_float(self, kernel, has_bf16, f, [&](float x) { return f(x); });
}

// The operands of a torch.special binary function given a Scalar on one side: the
// Scalar as a float32 0-dim tensor, the result type promoted as a wrapped number.
struct Operands {
  Tensor self, other;
  DType promoted;
};
Operands with_scalar_other(const Tensor& self, const Scalar& other) {
  return {self, scalar_tensor(other), result_type(self, other)};
}
Operands with_scalar_self(const Scalar& self, const Tensor& other) {
  return {scalar_tensor(self), other, result_type(other, self)};
}

// x * log1p(y), NaN where y is NaN and 0 where x is 0; both broadcast, in the promoted
// floating type (integers: float32). float16 computes in float and rounds once;
// bfloat16 rounds log1p(y) to bfloat16 first, as torch's std::log1p of c10::BFloat16 does.
Tensor xlog1py_in(const Tensor& x0, const Tensor& y0, DType r) {
  if (is_complex(r) || is_quantized(r)) not_implemented("xlog1py_cpu", r);
  if (!is_floating(r)) r = kDefaultFloatDType;
  const DType compute = r == DType::Half || r == DType::BFloat16 ? DType::Float : r;
  const Shape shape = broadcast_shapes(x0.sizes(), y0.sizes());
  const Tensor x = x0.to(r).to(compute).expand(shape).contiguous();
  const Tensor y = y0.to(r).to(compute).expand(shape).contiguous();
  Tensor out = empty(shape, compute);
  const int64_t n = out.numel();
  if (compute == DType::Float) {
    const float* px = x.data<float>();
    const float* py = y.data<float>();
    float* po = out.data<float>();
    if (r == DType::BFloat16) {
      for (int64_t i = 0; i < n; ++i) {
        po[i] = std::isnan(py[i]) ? py[i] : px[i] == 0.0f ? 0.0f : px[i] * round_bf16(std::log1p(py[i]));
      }
    } else {
      for (int64_t i = 0; i < n; ++i) po[i] = sp::xlog1py(px[i], py[i]);
    }
  } else {
    const double* px = x.data<double>();
    const double* py = y.data<double>();
    double* po = out.data<double>();
    for (int64_t i = 0; i < n; ++i) po[i] = sp::xlog1py(px[i], py[i]);
  }
  return out.to(r);
}

// Broadcasts a and b, reads both as `compute` (float or double) and applies f element by
// element: the loop of torch's binary kernels that evaluate a scalar formula per element
// (zeta, igamma, igammac).
template <typename F>
Tensor map_binary(const Tensor& a0, const Tensor& b0, DType compute, const F& f) {
  const Shape shape = broadcast_shapes(a0.sizes(), b0.sizes());
  const Tensor a = a0.to(compute).expand(shape).contiguous();
  const Tensor b = b0.to(compute).expand(shape).contiguous();
  Tensor out = empty(shape, compute);
  auto run = [&]<typename T>(const T* pa, const T* pb, T* po) {
    for (int64_t i = 0; i < out.numel(); ++i) po[i] = f(pa[i], pb[i]);
  };
  if (compute == DType::Float) {
    run(a.data<float>(), b.data<float>(), out.data<float>());
  } else {
    TL_INTERNAL_ASSERT(compute == DType::Double, "map_binary: float or double only");
    run(a.data<double>(), b.data<double>(), out.data<double>());
  }
  return out;
}

// torch.special.zeta(x, q): float32 and float64 only (integers promote to float32).
Tensor zeta_in(const Tensor& x0, const Tensor& q0, DType r) {
  if (!is_floating(r) && !is_complex(r) && !is_quantized(r)) r = kDefaultFloatDType;
  if (r != DType::Float && r != DType::Double) not_implemented("zeta_cpu", r);
  return map_binary(x0.to(r), q0.to(r), r, [](auto x, auto q) { return sp::zeta(x, q); });
}

// Unlike the torch.special unary functions these are plain binary ops: the operands'
// promoted type must itself be floating (integers are refused, not promoted); float16
// and bfloat16 round the operands to that type, compute in float and round the result
// once.
template <bool kUpper>
Tensor incomplete_gamma(const Tensor& a, const Tensor& x) {
  const DType r = result_type(a, x);
  if (!is_floating(r)) not_implemented(kUpper ? "igammac_cpu" : "igamma_cpu", r);
  const DType compute = r == DType::Double ? DType::Double : DType::Float;
  const Tensor result = map_binary(a.to(r), x.to(r), compute, [](auto av, auto xv) {
    return kUpper ? sp::igammac(av, xv) : sp::igamma(av, xv);
  });
  return result.to(r);
}

// torch.mvlgamma composed as torch composes it (an arange of the offsets added to x,
// lgamma, a sum over the offsets). The offsets' type: the default float type for an
// integer input, but self's own for the in-place form, whose integer arange then has a
// zero step (torch's refusal).
Tensor mvlgamma_of(const Tensor& self, int64_t p, bool in_place) {
  TL_CHECK(self.dtype() != DType::Bool, TypeError, "The input tensor may not be a boolean tensor.");
  TL_CHECK(p >= 1, ValueError, "p has to be greater than or equal to 1");
  const DType t = is_integral(self.dtype(), true) && !in_place ? kDefaultFloatDType : self.dtype();
  const Tensor offsets = arange(Scalar(static_cast<double>(-p) * 0.5 + 0.5), Scalar(0.5), Scalar(0.5), t);
  const Tensor terms = torchlet::lgamma(torchlet::add(offsets, self.unsqueeze(-1)));
  const double p2_sub_p = static_cast<double>(p) * static_cast<double>(p - 1);
  return torchlet::add(torchlet::sum(terms, {-1}), Scalar(p2_sub_p * std::log(std::numbers::pi) * 0.25));
}

}  // namespace

Tensor special_entr(const Tensor& self) {
  // -x * log(x) with log rounded to bfloat16 first (see round_bf16).
  return unary_float(self, "entr_cpu", true, [](auto x) { return sp::entr(x); }, [](float x) {
    if (std::isnan(x) || x <= 0.0f) return sp::entr(x);
    return -x * round_bf16(std::log(x));
  });
}
Tensor special_erfcx(const Tensor& self) {
  return unary_float(self, "erfcx_cpu", false, [](auto x) { return sp::erfcx(x); });
}
Tensor special_log_ndtr(const Tensor& self) {
  return unary_float(self, "log_ndtr_cpu", false, [](auto x) { return sp::log_ndtr(x); });
}
Tensor special_ndtri(const Tensor& self) {
  return unary_float(self, "ndtri_cpu", false, [](auto x) { return sp::ndtri(x); });
}
// torch 1.13's special_ndtr is a composition, (1 + erf(x / sqrt 2)) / 2, each step in
// the result dtype (so float16 fails in erf, as torch's does).
Tensor special_ndtr(const Tensor& self) {
  const DType in = self.dtype();
  if (is_complex(in) || is_quantized(in)) not_implemented("erf_vml_cpu", in);
  const DType r = is_integral(in, true) ? kDefaultFloatDType : in;
  if (r == DType::Half) not_implemented("erf_vml_cpu", r);
  const Tensor scaled = torchlet::mul(self.to(r), Scalar(M_SQRT1_2));
  return torchlet::mul(torchlet::add(torchlet::erf(scaled), Scalar(1.0)), Scalar(0.5));
}
Tensor i0(const Tensor& self) { return unary_float(self, "i0_vml_cpu", true, [](auto x) { return sp::i0(x); }); }
// bfloat16 as torch's vectorised loop computes it (in float); torch's scalar loop, which
// takes short tensors and the tail of long ones, evaluates the series in bfloat16 itself.
Tensor special_i0e(const Tensor& self) {
  return unary_float(self, "i0e_cpu", true, [](auto x) { return sp::i0e(x); });
}
Tensor special_i1(const Tensor& self) { return unary_float(self, "i1_cpu", false, [](auto x) { return sp::i1(x); }); }
Tensor special_i1e(const Tensor& self) {
  return unary_float(self, "i1e_cpu", false, [](auto x) { return sp::i1e(x); });
}
// Bessel functions of the first kind: float32 and float64 only in torch 1.13's kernels.
Tensor special_bessel_j0(const Tensor& self) {
  return unary_float(self, "bessel_j0_cpu", false, [](auto x) { return sp::bessel_j0(x); });
}
Tensor special_bessel_j1(const Tensor& self) {
  return unary_float(self, "bessel_j1_cpu", false, [](auto x) { return sp::bessel_j1(x); });
}

Tensor special_xlog1py(const Tensor& self, const Tensor& other) { return xlog1py_in(self, other, result_type(self, other)); }
Tensor special_xlog1py(const Tensor& self, const Scalar& other) {
  const Operands o = with_scalar_other(self, other);
  return xlog1py_in(o.self, o.other, o.promoted);
}
Tensor special_xlog1py(const Scalar& self, const Tensor& other) {
  const Operands o = with_scalar_self(self, other);
  return xlog1py_in(o.self, o.other, o.promoted);
}
Tensor special_zeta(const Tensor& self, const Tensor& other) { return zeta_in(self, other, result_type(self, other)); }
Tensor special_zeta(const Tensor& self, const Scalar& other) {
  const Operands o = with_scalar_other(self, other);
  return zeta_in(o.self, o.other, o.promoted);
}
Tensor special_zeta(const Scalar& self, const Tensor& other) {
  const Operands o = with_scalar_self(self, other);
  return zeta_in(o.self, o.other, o.promoted);
}

Tensor igamma(const Tensor& self, const Tensor& other) { return incomplete_gamma<false>(self, other); }
Tensor igammac(const Tensor& self, const Tensor& other) { return incomplete_gamma<true>(self, other); }

// digamma for n = 0, trigamma for 1, (-1)^(n+1) n! zeta(n + 1, x) beyond; integers in
// float32, bfloat16 computed in float and rounded once, float16 refused by the kernel
// each n reaches.
Tensor polygamma(int64_t n, const Tensor& self) {
  TL_CHECK(n >= 0, ValueError, "polygamma(n, x) does not support negative n.");
  if (n == 0) return torchlet::digamma(self);
  const char* kernel = n == 1 ? "trigamma" : "polygamma";
  return unary_float(self, kernel, true, [n](auto x) { return n == 1 ? sp::trigamma(x) : sp::polygamma(n, x); });
}

Tensor mvlgamma(const Tensor& self, int64_t p) { return mvlgamma_of(self, p, false); }
Tensor& mvlgamma_(Tensor& self, int64_t p) { return kernels::write_in_place(self, mvlgamma_of(self, p, true)); }

}  // namespace torchlet

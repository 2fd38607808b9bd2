// The torch.special functions torch evaluates element by element (entr, ndtr, log_ndtr,
// ndtri, erfcx, xlog1py, zeta, polygamma, the regularized incomplete gamma functions
// igamma/igammac, the modified Bessel functions i0/i0e/i1/i1e and the Bessel functions
// of the first kind j0/j1) and the
// floating-point bit tools ldexp, nextafter and frexp, with their in-place and out=
// forms. The scalar formulas are in src/tensor/kernels/special_math.h; this file owns
// the dtype rules (torch 1.13's: integers and bool compute in float32, each kernel's
// own list of floating types and its "not implemented for" refusal), broadcasting and
// the schema bindings. Cases run through torch in tests/fixtures/gen_ops.py
// (special_extra_ops).
#include <cmath>
#include <limits>
#include <string_view>
#include <tuple>

#include <torchlet/ops.h>

#include "jit/ops/ops_util.h"
#include "tensor/kernels/special_math.h"

namespace torchlet::jit::ops {
namespace {

namespace sp = kernels::special;

std::string_view type_name(DType d) { return dtype_info(d).scalar_type_name; }

[[noreturn]] void not_implemented(std::string_view kernel, DType d) {
  TL_FAIL(UnsupportedError, "\"{}\" not implemented for '{}'", kernel, type_name(d));
}

// Rounds a float to bfloat16 and back: where torch's bfloat16 kernels call a std::
// function of c10::BFloat16 (c10/util/BFloat16-math.h), that result is rounded before
// the rest of the formula uses it.
float round_bf16(float x) { return static_cast<float>(BFloat16(x)); }

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

Tensor entr(const Tensor& self) {
  // -x * log(x) with log rounded to bfloat16 first (see round_bf16).
  return unary_float(self, "entr_cpu", true, [](auto x) { return sp::entr(x); }, [](float x) {
    if (std::isnan(x) || x <= 0.0f) return sp::entr(x);
    return -x * round_bf16(std::log(x));
  });
}
Tensor erfcx(const Tensor& self) { return unary_float(self, "erfcx_cpu", false, [](auto x) { return sp::erfcx(x); }); }
Tensor log_ndtr(const Tensor& self) {
  return unary_float(self, "log_ndtr_cpu", false, [](auto x) { return sp::log_ndtr(x); });
}
Tensor ndtri(const Tensor& self) { return unary_float(self, "ndtri_cpu", false, [](auto x) { return sp::ndtri(x); }); }
Tensor i0(const Tensor& self) { return unary_float(self, "i0_vml_cpu", true, [](auto x) { return sp::i0(x); }); }
// bfloat16 as torch's vectorised loop computes it (in float); torch's scalar loop, which
// takes short tensors and the tail of long ones, evaluates the series in bfloat16 itself.
Tensor i0e(const Tensor& self) { return unary_float(self, "i0e_cpu", true, [](auto x) { return sp::i0e(x); }); }
Tensor i1(const Tensor& self) { return unary_float(self, "i1_cpu", false, [](auto x) { return sp::i1(x); }); }
Tensor i1e(const Tensor& self) { return unary_float(self, "i1e_cpu", false, [](auto x) { return sp::i1e(x); }); }
// Bessel functions of the first kind: float32 and float64 only in torch 1.13's kernels.
Tensor bessel_j0(const Tensor& self) {
  return unary_float(self, "bessel_j0_cpu", false, [](auto x) { return sp::bessel_j0(x); });
}
Tensor bessel_j1(const Tensor& self) {
  return unary_float(self, "bessel_j1_cpu", false, [](auto x) { return sp::bessel_j1(x); });
}

// torch 1.13's special_ndtr is a composition, (1 + erf(x / sqrt 2)) / 2, each step in
// the result dtype (so float16 fails in erf, as torch's does).
Tensor ndtr(const Tensor& self) {
  const DType in = self.dtype();
  if (is_complex(in) || is_quantized(in)) not_implemented("erf_vml_cpu", in);
  const DType r = is_integral(in, true) ? kDefaultFloatDType : in;
  if (r == DType::Half) not_implemented("erf_vml_cpu", r);
  const Tensor scaled = torchlet::mul(self.to(r), Scalar(M_SQRT1_2));
  return torchlet::mul(torchlet::add(torchlet::erf(scaled), Scalar(1.0)), Scalar(0.5));
}

template <Tensor (*F)(const Tensor&)>
void unary(Stack& s) {
  push(s, F(pop_tensor(s)));
}
template <Tensor (*F)(const Tensor&), const char* kName>
void unary_out(Stack& s) {
  Tensor out = pop_tensor(s);
  Tensor self = pop_tensor(s);
  assign_out(out, F(self), kName);
  push(s, out);
}
constexpr char kEntr[] = "special_entr", kErfcx[] = "special_erfcx", kLogNdtr[] = "special_log_ndtr",
               kNdtri[] = "special_ndtri", kNdtr[] = "special_ndtr", kI0[] = "i0", kI0e[] = "special_i0e",
               kI1[] = "special_i1", kI1e[] = "special_i1e", kBesselJ0[] = "special_bessel_j0",
               kBesselJ1[] = "special_bessel_j1";

void i0_(Stack& s) {
  Tensor self = pop_tensor(s);
  assign_inplace(self, i0(self), "i0_");
  push(s, self);
}

// --- xlog1py ---------------------------------------------------------------------------------

// x * log1p(y), NaN where y is NaN and 0 where x is 0; both broadcast, in the promoted
// floating type (integers: float32). float16 computes in float and rounds once;
// bfloat16 rounds log1p(y) to bfloat16 first, as torch's std::log1p of c10::BFloat16 does.
Tensor xlog1py(const Tensor& x0, const Tensor& y0, DType r) {
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

// The six schemas of a torch.special binary function: a Tensor or a Scalar on either
// side, the result returned or written into out=.
template <Tensor (*F)(const Tensor&, const Tensor&, DType), BinaryOperands kOperands, bool kOut, const char* kName>
void special_binary(Stack& s) {
  Tensor out;
  if constexpr (kOut) out = pop_tensor(s);
  const auto [self, other, promoted] = pop_binary_operands<kOperands>(s);
  Tensor result = F(self, other, promoted);
  if constexpr (kOut) {
    assign_out(out, result, kName);
    push(s, out);
  } else {
    push(s, result);
  }
}
constexpr char kXlog1py[] = "special_xlog1py", kZeta[] = "special_zeta";

// --- zeta, polygamma, igamma and igammac -----------------------------------------------------

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
Tensor zeta(const Tensor& x0, const Tensor& q0, DType r) {
  if (!is_floating(r) && !is_complex(r) && !is_quantized(r)) r = kDefaultFloatDType;
  if (r != DType::Float && r != DType::Double) not_implemented("zeta_cpu", r);
  return map_binary(x0.to(r), q0.to(r), r, [](auto x, auto q) { return sp::zeta(x, q); });
}

// torch.igamma / igammac (torch.special.gammainc / gammaincc): the regularized lower and
// upper incomplete gamma functions of (a = self, x = other). Unlike the torch.special
// unary functions these are plain binary ops: the operands' promoted type must itself be
// floating (integers are refused, not promoted); float16 and bfloat16 round the operands
// to that type, compute in float and round the result once.
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
template <bool kUpper>
void incomplete_gamma_op(Stack& s) {
  const Tensor x = pop_tensor(s);
  push(s, incomplete_gamma<kUpper>(pop_tensor(s), x));
}
template <bool kUpper>
void incomplete_gamma_(Stack& s) {
  const Tensor x = pop_tensor(s);
  Tensor self = pop_tensor(s);
  assign_inplace(self, incomplete_gamma<kUpper>(self, x), kUpper ? "igammac_" : "igamma_");
  push(s, self);
}
template <bool kUpper>
void incomplete_gamma_out(Stack& s) {
  Tensor out = pop_tensor(s);
  const Tensor x = pop_tensor(s);
  const Tensor a = pop_tensor(s);
  assign_out(out, incomplete_gamma<kUpper>(a, x), kUpper ? "igammac" : "igamma");
  push(s, out);
}

// torch.polygamma(n, x): digamma for n = 0, trigamma for 1, (-1)^(n+1) n! zeta(n + 1, x)
// beyond; integers in float32, bfloat16 computed in float and rounded once, float16
// refused by the kernel each n reaches.
Tensor polygamma(int64_t n, const Tensor& self) {
  TL_CHECK(n >= 0, ValueError, "polygamma(n, x) does not support negative n.");
  if (n == 0) return torchlet::digamma(self);
  const char* kernel = n == 1 ? "trigamma" : "polygamma";
  return unary_float(self, kernel, true, [n](auto x) { return n == 1 ? sp::trigamma(x) : sp::polygamma(n, x); });
}
void polygamma_op(Stack& s) {
  const Tensor self = pop_tensor(s);
  push(s, polygamma(pop_int(s), self));
}
void polygamma_out(Stack& s) {
  Tensor out = pop_tensor(s);
  const Tensor self = pop_tensor(s);
  assign_out(out, polygamma(pop_int(s), self), "polygamma");
  push(s, out);
}
void polygamma_(Stack& s) {
  const int64_t n = pop_int(s);
  Tensor self = pop_tensor(s);
  assign_inplace(self, polygamma(n, self), "polygamma_");
  push(s, self);
}

// --- ldexp, nextafter, frexp ---------------------------------------------------------------------

// torch's ldexp is self * pow(2.0, other), so it takes that product's dtype (integers
// give float32, float16 * int exponents float32 too) and its values.
Tensor ldexp(const Tensor& self, const Tensor& other) { return torchlet::mul(self, torchlet::pow(Scalar(2.0), other)); }
void ldexp_op(Stack& s) {
  Tensor other = pop_tensor(s);
  push(s, ldexp(pop_tensor(s), other));
}
void ldexp_(Stack& s) {
  Tensor other = pop_tensor(s);
  Tensor self = pop_tensor(s);
  assign_inplace(self, ldexp(self, other), "ldexp_");
  push(s, self);
}
void ldexp_out(Stack& s) {
  Tensor out = pop_tensor(s);
  Tensor other = pop_tensor(s);
  Tensor self = pop_tensor(s);
  assign_out(out, ldexp(self, other), "ldexp");
  push(s, out);
}

// The next representable value after self toward other, in their promoted type, which
// must be float32, float64 or bfloat16 (torch's kernel has no other; integers are not
// promoted). bfloat16 steps on its own 16-bit grid.
Tensor nextafter(const Tensor& a0, const Tensor& b0) {
  const DType r = result_type(a0, b0);
  if (r != DType::Float && r != DType::Double && r != DType::BFloat16) not_implemented("nextafter_cpu", r);
  const Shape shape = broadcast_shapes(a0.sizes(), b0.sizes());
  const Tensor a = a0.to(r).expand(shape).contiguous();
  const Tensor b = b0.to(r).expand(shape).contiguous();
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
          sp::nextafter_bf16_bits(pa[i].bits, pb[i].bits, std::isnan(fa), std::isnan(fb), nan_bits));
    }
  }
  return out;
}
void nextafter_op(Stack& s) {
  Tensor other = pop_tensor(s);
  push(s, nextafter(pop_tensor(s), other));
}
void nextafter_(Stack& s) {
  Tensor other = pop_tensor(s);
  Tensor self = pop_tensor(s);
  assign_inplace(self, nextafter(self, other), "nextafter_");
  push(s, self);
}
void nextafter_out(Stack& s) {
  Tensor out = pop_tensor(s);
  Tensor other = pop_tensor(s);
  Tensor self = pop_tensor(s);
  assign_out(out, nextafter(self, other), "nextafter");
  push(s, out);
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
void frexp_op(Stack& s) {
  auto [mantissa, exponent] = frexp(pop_tensor(s));
  push(s, mantissa, exponent);
}
void frexp_out(Stack& s) {
  Tensor exponent = pop_tensor(s);
  Tensor mantissa = pop_tensor(s);
  Tensor self = pop_tensor(s);
  TL_CHECK(is_floating(self.dtype()), TypeError, "torch.frexp() only supports floating-point dtypes");
  TL_CHECK(mantissa.dtype() == self.dtype(), TypeError, "torch.frexp() expects mantissa to have dtype {} but got {}",
           type_meta_name(self.dtype()), type_meta_name(mantissa.dtype()));
  TL_CHECK(exponent.dtype() == DType::Int, TypeError, "torch.frexp() expects exponent to have int dtype but got {}",
           type_meta_name(exponent.dtype()));
  auto [m, e] = frexp(self);
  assign_out(mantissa, m, "frexp");
  assign_out(exponent, e, "frexp");
  push(s, mantissa, exponent);
}

}  // namespace

static RegisterOps reg({
    {"aten::special_entr(Tensor self) -> Tensor", unary<entr>},
    {"aten::special_entr.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", unary_out<entr, kEntr>},
    {"aten::special_ndtr(Tensor self) -> Tensor", unary<ndtr>},
    {"aten::special_ndtr.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", unary_out<ndtr, kNdtr>},
    {"aten::special_log_ndtr(Tensor self) -> Tensor", unary<log_ndtr>},
    {"aten::special_log_ndtr.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", unary_out<log_ndtr, kLogNdtr>},
    {"aten::special_ndtri(Tensor self) -> Tensor", unary<ndtri>},
    {"aten::special_ndtri.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", unary_out<ndtri, kNdtri>},
    {"aten::special_erfcx(Tensor self) -> Tensor", unary<erfcx>},
    {"aten::special_erfcx.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", unary_out<erfcx, kErfcx>},
    {"aten::special_xlog1py(Tensor self, Tensor other) -> Tensor", special_binary<xlog1py, BinaryOperands::kTensors, false, kXlog1py>},
    {"aten::special_xlog1py.other_scalar(Tensor self, Scalar other) -> Tensor", special_binary<xlog1py, BinaryOperands::kScalarOther, false, kXlog1py>},
    {"aten::special_xlog1py.self_scalar(Scalar self, Tensor other) -> Tensor", special_binary<xlog1py, BinaryOperands::kScalarSelf, false, kXlog1py>},
    {"aten::special_xlog1py.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", special_binary<xlog1py, BinaryOperands::kTensors, true, kXlog1py>},
    {"aten::special_xlog1py.self_scalar_out(Scalar self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", special_binary<xlog1py, BinaryOperands::kScalarSelf, true, kXlog1py>},
    {"aten::special_xlog1py.other_scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)", special_binary<xlog1py, BinaryOperands::kScalarOther, true, kXlog1py>},
    {"aten::special_zeta(Tensor self, Tensor other) -> Tensor", special_binary<zeta, BinaryOperands::kTensors, false, kZeta>},
    {"aten::special_zeta.other_scalar(Tensor self, Scalar other) -> Tensor", special_binary<zeta, BinaryOperands::kScalarOther, false, kZeta>},
    {"aten::special_zeta.self_scalar(Scalar self, Tensor other) -> Tensor", special_binary<zeta, BinaryOperands::kScalarSelf, false, kZeta>},
    {"aten::special_zeta.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", special_binary<zeta, BinaryOperands::kTensors, true, kZeta>},
    {"aten::special_zeta.self_scalar_out(Scalar self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", special_binary<zeta, BinaryOperands::kScalarSelf, true, kZeta>},
    {"aten::special_zeta.other_scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)", special_binary<zeta, BinaryOperands::kScalarOther, true, kZeta>},
    {"aten::igamma(Tensor self, Tensor other) -> Tensor", incomplete_gamma_op<false>},
    {"aten::igamma_(Tensor(a!) self, Tensor other) -> Tensor(a!)", incomplete_gamma_<false>},
    {"aten::igamma.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", incomplete_gamma_out<false>},
    {"aten::igammac(Tensor self, Tensor other) -> Tensor", incomplete_gamma_op<true>},
    {"aten::igammac_(Tensor(a!) self, Tensor other) -> Tensor(a!)", incomplete_gamma_<true>},
    {"aten::igammac.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", incomplete_gamma_out<true>},
    {"aten::polygamma(int n, Tensor self) -> Tensor", polygamma_op},
    {"aten::polygamma.out(int n, Tensor self, *, Tensor(a!) out) -> Tensor(a!)", polygamma_out},
    {"aten::polygamma_(Tensor(a!) self, int n) -> Tensor(a!)", polygamma_},
    {"aten::i0(Tensor self) -> Tensor", unary<i0>},
    {"aten::i0_(Tensor(a!) self) -> Tensor(a!)", i0_},
    {"aten::i0.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", unary_out<i0, kI0>},
    {"aten::special_i0e(Tensor self) -> Tensor", unary<i0e>},
    {"aten::special_i0e.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", unary_out<i0e, kI0e>},
    {"aten::special_i1(Tensor self) -> Tensor", unary<i1>},
    {"aten::special_i1.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", unary_out<i1, kI1>},
    {"aten::special_i1e(Tensor self) -> Tensor", unary<i1e>},
    {"aten::special_i1e.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", unary_out<i1e, kI1e>},
    {"aten::special_bessel_j0(Tensor self) -> Tensor", unary<bessel_j0>},
    {"aten::special_bessel_j0.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", unary_out<bessel_j0, kBesselJ0>},
    {"aten::special_bessel_j1(Tensor self) -> Tensor", unary<bessel_j1>},
    {"aten::special_bessel_j1.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", unary_out<bessel_j1, kBesselJ1>},
    {"aten::ldexp.Tensor(Tensor self, Tensor other) -> Tensor", ldexp_op},
    {"aten::ldexp_(Tensor(a!) self, Tensor other) -> Tensor(a!)", ldexp_},
    {"aten::ldexp.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", ldexp_out},
    {"aten::nextafter(Tensor self, Tensor other) -> Tensor", nextafter_op},
    {"aten::nextafter_(Tensor(a!) self, Tensor other) -> Tensor(a!)", nextafter_},
    {"aten::nextafter.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", nextafter_out},
    {"aten::frexp.Tensor(Tensor self) -> (Tensor mantissa, Tensor exponent)", frexp_op},
    {"aten::frexp.Tensor_out(Tensor self, *, Tensor(a!) mantissa, Tensor(b!) exponent) -> (Tensor(a!) mantissa, Tensor(b!) exponent)", frexp_out},
});

}  // namespace torchlet::jit::ops

// Unary math torch defines in terms of other operators, beyond unary.cpp's table:
// square, frac, exp2, sgn, positive, round(decimals=), deg2rad/rad2deg, logit,
// nan_to_num, and clamp with tensor bounds and its one-sided forms. Result dtypes and
// refusals follow torch's definitions (square is pow(x, 2), exp2 is a float op, ...),
// checked against torch in tests/fixtures/gen_ops.py.
#include <cmath>
#include <limits>
#include <numbers>
#include <string_view>

#include <torchlet/error.h>
#include <torchlet/half.h>
#include <torchlet/ops.h>

#include "tensor/kernels/elementwise.h"

namespace torchlet {
namespace {

std::string_view type_name(DType d) { return dtype_info(d).scalar_type_name; }

bool is_float_like(DType d) { return is_floating(d) || is_complex(d); }
// Integral and bool inputs compute in the default float type (torch's int -> float ops).
Tensor as_floating(const Tensor& x) { return is_float_like(x.dtype()) ? x : x.to(kDefaultFloatDType); }

// torch.round(x, decimals=d) for d != 0: torch's kernel scales by 10^|d| in the input's
// own type (a bfloat16 product rounded to bfloat16), rounds half to even and scales
// back, one element at a time.
Tensor round_scaled(const Tensor& x, int64_t decimals) {
  const DType t = x.dtype();
  const bool shrink = decimals < 0;
  const double scale = std::pow(10.0, shrink ? -static_cast<double>(decimals) : static_cast<double>(decimals));
  auto apply = [shrink](auto a, auto s, auto narrow) {
    return shrink ? narrow(std::nearbyint(narrow(a / s)) * s) : narrow(std::nearbyint(narrow(a * s)) / s);
  };
  if (t == DType::Double) {
    const Tensor src = x.contiguous();
    Tensor out = empty(x.sizes(), t);
    const double* px = src.data<double>();
    double* po = out.data<double>();
    for (int64_t i = 0; i < out.numel(); ++i) po[i] = apply(px[i], scale, [](double v) { return v; });
    return out;
  }
  // float, and bfloat16 held in float with each step rounded to bfloat16.
  const Tensor src = x.to(DType::Float).contiguous();
  Tensor out = empty(x.sizes(), DType::Float);
  const float* px = src.data<float>();
  float* po = out.data<float>();
  if (t == DType::Float) {
    const auto s = static_cast<float>(scale);
    for (int64_t i = 0; i < out.numel(); ++i) po[i] = apply(px[i], s, [](float v) { return v; });
    return out;
  }
  const float s = kernels::round_bf16(static_cast<float>(scale));
  for (int64_t i = 0; i < out.numel(); ++i) po[i] = apply(px[i], s, kernels::round_bf16);
  return out.to(DType::BFloat16);
}

template <bool kToRadians>
Tensor angle_units(const Tensor& x) {
  TL_CHECK(!is_complex(x.dtype()), UnsupportedError, "{} is not supported for complex tensors.", kToRadians ? "deg2rad" : "rad2deg");
  return torchlet::mul(as_floating(x), Scalar(kToRadians ? std::numbers::pi / 180.0 : 180.0 / std::numbers::pi));
}
template <bool kToRadians>
Tensor& angle_units_(Tensor& self) {
  TL_CHECK(!is_integral(self.dtype(), true), TypeError, "{} is not supported for integer tensors.",
           kToRadians ? "deg2rad" : "rad2deg");
  return kernels::write_in_place(self, angle_units<kToRadians>(self));
}

double largest_finite(DType d) {
  switch (d) {
    case DType::Half: return 65504.0;
    case DType::BFloat16: return 3.38953138925153547590470800371487866880e+38;
    case DType::Float: return std::numeric_limits<float>::max();
    default: return std::numeric_limits<double>::max();
  }
}

}  // namespace

Tensor square(const Tensor& self) { return torchlet::pow(self, Scalar(int64_t{2})); }

// Floating inputs only, as torch's kernel; float16 through float32 (trunc has no
// float16 loop), rounding once at the end as torch's half arithmetic does.
Tensor frac(const Tensor& self) {
  TL_CHECK(is_floating(self.dtype()), UnsupportedError, "\"frac_cpu\" not implemented for '{}'", type_name(self.dtype()));
  if (self.dtype() == DType::Half || self.dtype() == DType::BFloat16) {
    Tensor f = self.to(DType::Float);
    return torchlet::sub(f, torchlet::trunc(f)).to(self.dtype());
  }
  return torchlet::sub(self, torchlet::trunc(self));
}

// A floating op: integral and bool inputs compute in the default float type.
Tensor exp2(const Tensor& self) { return torchlet::pow(Scalar(2.0), as_floating(self)); }

Tensor sgn(const Tensor& self) {
  TL_CHECK(!is_complex(self.dtype()), UnsupportedError, "sgn: complex tensors are not supported");
  return torchlet::sign(self);
}

Tensor positive(const Tensor& self) {
  TL_CHECK(self.dtype() != DType::Bool, TypeError, "The `+` operator, on a bool tensor is not supported.");
  return self;
}

// decimals = 0 is round() through a kernel without round()'s shortcut for integers, so
// every non-floating input is refused, by one kernel name or the other.
Tensor round(const Tensor& self, int64_t decimals) {
  const DType t = self.dtype();
  const bool supported = t == DType::Float || t == DType::Double || t == DType::BFloat16;
  TL_CHECK(supported, UnsupportedError, "\"{}\" not implemented for '{}'", decimals == 0 ? "round_vml_cpu" : "round_cpu",
           type_name(t));
  if (decimals == 0) return torchlet::round(self);
  return round_scaled(self, decimals);
}

Tensor deg2rad(const Tensor& self) { return angle_units<true>(self); }
Tensor rad2deg(const Tensor& self) { return angle_units<false>(self); }
Tensor& deg2rad_(Tensor& self) { return angle_units_<true>(self); }
Tensor& rad2deg_(Tensor& self) { return angle_units_<false>(self); }

Tensor logit(const Tensor& self, std::optional<double> eps) {
  Tensor x = as_floating(self);
  if (eps && *eps >= 0) x = torchlet::clamp(x, Scalar(*eps), Scalar(1.0 - *eps));
  return torchlet::log(torchlet::div(x, torchlet::rsub(x, Scalar(int64_t{1}))));
}

Tensor nan_to_num(const Tensor& self, std::optional<double> nan, std::optional<double> posinf,
                  std::optional<double> neginf) {
  TL_CHECK(!is_complex(self.dtype()), UnsupportedError, "nan_to_num: complex tensors are not supported");
  if (!is_floating(self.dtype())) return self.clone();
  const double big = largest_finite(self.dtype());
  const double inf = std::numeric_limits<double>::infinity();
  Tensor r = torchlet::masked_fill(self, torchlet::ne(self, self), Scalar(nan.value_or(0.0)));
  r = torchlet::masked_fill(r, torchlet::eq(self, Scalar(inf)), Scalar(posinf.value_or(big)));
  return torchlet::masked_fill(r, torchlet::eq(self, Scalar(-inf)), Scalar(neginf.value_or(-big)));
}

// maximum with min, then minimum with max (NaN in any operand propagates, dtype is the
// promotion of all three, as torch's clamp.Tensor).
Tensor clamp(const Tensor& self, const std::optional<Tensor>& min, const std::optional<Tensor>& max) {
  TL_CHECK(min || max, ValueError, "torch.clamp: At least one of 'min' or 'max' must not be None");
  Tensor r = self;
  if (min) r = torchlet::maximum(r, *min);
  if (max) r = torchlet::minimum(r, *max);
  return r;
}
Tensor clamp_min(const Tensor& self, const Scalar& min) { return torchlet::clamp(self, min, std::nullopt); }
Tensor clamp_max(const Tensor& self, const Scalar& max) { return torchlet::clamp(self, std::nullopt, max); }
Tensor clamp_min(const Tensor& self, const Tensor& min) { return torchlet::clamp(self, min, std::nullopt); }
Tensor clamp_max(const Tensor& self, const Tensor& max) { return torchlet::clamp(self, std::nullopt, max); }

}  // namespace torchlet

// Comparisons torch defines in terms of other operators, beyond binary.cpp's table:
// the NaN and infinity tests, isreal, isclose/allclose and isin, composed as
// torch composes them (bool results; integers are never NaN or infinite), checked
// against torch in tests/fixtures/gen_ops.py.
#include <limits>
#include <string_view>

#include <torchlet/error.h>
#include <torchlet/ops.h>

namespace torchlet {
namespace {

std::string_view type_name(DType d) { return dtype_info(d).scalar_type_name; }

bool is_float_like(DType d) { return is_floating(d) || is_complex(d); }

// isclose's own finiteness test: inf - inf and nan - nan are nan.
Tensor finite_difference(const Tensor& x) {
  if (!is_float_like(x.dtype())) return ones(x.sizes(), DType::Bool);
  return torchlet::eq(torchlet::sub(x, x), Scalar(0.0));
}

void check_isin_dtype(DType d) {
  TL_CHECK(d != DType::Bool && d != DType::BFloat16 && !is_complex(d), UnsupportedError,
           "Unsupported input type encountered for isin(): {}", type_name(d));
}

template <bool kPositive>
Tensor isinf_signed(const Tensor& self) {
  if (!is_floating(self.dtype())) return zeros(self.sizes(), DType::Bool);
  const double inf = std::numeric_limits<double>::infinity();
  return torchlet::eq(self, Scalar(kPositive ? inf : -inf));
}

}  // namespace

// x != x: true exactly where x is NaN (false for every integer and bool element).
Tensor isnan(const Tensor& self) { return torchlet::ne(self, self); }
Tensor isinf(const Tensor& self) {
  if (!is_float_like(self.dtype())) return zeros(self.sizes(), DType::Bool);
  return torchlet::eq(torchlet::abs(self), Scalar(std::numeric_limits<double>::infinity()));
}
Tensor isfinite(const Tensor& self) {
  if (!is_float_like(self.dtype())) return ones(self.sizes(), DType::Bool);
  return torchlet::logical_not(torchlet::logical_or(torchlet::isnan(self), torchlet::isinf(self)));
}
Tensor isposinf(const Tensor& self) { return isinf_signed<true>(self); }
Tensor isneginf(const Tensor& self) { return isinf_signed<false>(self); }
// Real tensors are real (torchlet has no complex tensors to say otherwise of).
Tensor isreal(const Tensor& self) { return ones(self.sizes(), DType::Bool); }

// torch's isclose: equal, or both NaN when equal_nan, or a finite |self - other| within
// atol + rtol * |other| (computed in float for integral inputs, as rtol * other is).
Tensor isclose(const Tensor& self, const Tensor& other, double rtol, double atol, bool equal_nan) {
  TL_CHECK(self.dtype() == other.dtype(), TypeError, "{} did not match {}", type_name(self.dtype()), type_name(other.dtype()));
  TL_CHECK(!(is_complex(self.dtype()) && equal_nan), UnsupportedError, "isclose with equal_nan=True is not supported for complex inputs");
  TL_CHECK(rtol >= 0, ValueError, "rtol must be greater than or equal to zero, but got {}", rtol);
  TL_CHECK(atol >= 0, ValueError, "atol must be greater than or equal to zero, but got {}", atol);
  Tensor close = torchlet::eq(self, other);
  if (equal_nan && is_floating(self.dtype()))
    close = torchlet::logical_or(close, torchlet::logical_and(torchlet::isnan(self), torchlet::isnan(other)));
  if (rtol == 0 && atol == 0) return close;
  const Tensor a = self.dtype() == DType::Bool ? self.to(kDefaultFloatDType) : self;
  const Tensor b = other.dtype() == DType::Bool ? other.to(kDefaultFloatDType) : other;
  Tensor allowed = torchlet::add(torchlet::abs(torchlet::mul(b, Scalar(rtol))), Scalar(atol));
  Tensor actual = torchlet::abs(torchlet::sub(a, b));
  return torchlet::logical_or(close, torchlet::logical_and(finite_difference(actual), torchlet::le(actual, allowed)));
}
bool allclose(const Tensor& self, const Tensor& other, double rtol, double atol, bool equal_nan) {
  return torchlet::all(torchlet::isclose(self, other, rtol, atol, equal_nan)).item().to<bool>();
}

// elements.unsqueeze(-1) == test_elements.flatten(), any over the last dim: what torch's
// default (non-sorting) isin computes for small test sets, for every size here.
// assume_unique is a speed hint.
Tensor isin(const Tensor& elements, const Tensor& test_elements, bool /*assume_unique*/, bool invert) {
  for (DType d : {elements.dtype(), test_elements.dtype()}) {
    check_isin_dtype(d);
    TL_CHECK(d != DType::Half, UnsupportedError, "\"isin_default_cpu\" not implemented for 'Half'");
  }
  Tensor flat = test_elements.reshape({-1});
  Tensor hit = flat.numel() == 0 ? zeros(elements.sizes(), DType::Bool)
                                 : torchlet::any(torchlet::eq(elements.unsqueeze(-1), flat), -1);
  return invert ? torchlet::logical_not(hit) : hit;
}
// torch: elements == test_element (float16 allowed here).
Tensor isin(const Tensor& elements, const Scalar& test_element, bool /*assume_unique*/, bool invert) {
  check_isin_dtype(elements.dtype());
  return invert ? torchlet::ne(elements, test_element) : torchlet::eq(elements, test_element);
}
Tensor isin(const Scalar& element, const Tensor& test_elements, bool assume_unique, bool invert) {
  return torchlet::isin(scalar_tensor(element), test_elements, assume_unique, invert);
}

}  // namespace torchlet

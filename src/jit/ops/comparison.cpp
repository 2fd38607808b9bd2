// Comparison operators on tensors: eq, ne, lt, le, gt, ge, maximum/minimum, fmax/fmin,
// isclose/allclose, the NaN and infinity tests (isnan, isinf, isfinite, isposinf,
// isneginf), isreal, isin and where, with their in-place, out= and Scalar forms, each
// registered from its kernel (Note [Boxing], Note [Elementwise forms]). The out= forms
// that check the out tensor's dtype as torch does for that operator go through into_outs
// (Note [out= forms]). The comparisons' overloads on numbers, strs, lists, devices and
// enums (eq.int, lt.str, ne.int_list, ...) and isnan/isinf/isfinite of a float or
// complex are boxed_inline from scalar_builtins.h's kernels and sit before each name's
// tensor rows, the order they register in (docs/operators.md); equal is reduction.cpp's.
#include <vector>

#include <torchlet/ops.h>

#include "jit/ops/boxing.h"
#include "jit/ops/elementwise_forms.h"
#include "jit/ops/out_forms.h"
#include "jit/ops/scalar_builtins.h"

namespace torchlet::jit::ops {
namespace {

constexpr auto kIsinTensors = static_cast<Tensor (*)(const Tensor&, const Tensor&, bool, bool)>(&torchlet::isin);
constexpr auto kIsinScalarOther = static_cast<Tensor (*)(const Tensor&, const Scalar&, bool, bool)>(&torchlet::isin);
constexpr auto kIsinScalarSelf = static_cast<Tensor (*)(const Scalar&, const Tensor&, bool, bool)>(&torchlet::isin);
constexpr auto kWhere = static_cast<Tensor (*)(const Tensor&, const Tensor&, const Tensor&)>(&torchlet::where);
constexpr auto kWhereScalarOther = static_cast<Tensor (*)(const Tensor&, const Tensor&, const Scalar&)>(&torchlet::where);
constexpr auto kWhereScalarSelf = static_cast<Tensor (*)(const Tensor&, const Scalar&, const Tensor&)>(&torchlet::where);
constexpr auto kWhereScalars = static_cast<Tensor (*)(const Tensor&, const Scalar&, const Scalar&)>(&torchlet::where);
constexpr auto kWhereTrue = static_cast<std::vector<Tensor> (*)(const Tensor&)>(&torchlet::where);

// isposinf/isneginf's out= forms take only a bool out, as torch's.
template <bool kPositive>
Tensor into_bool_out(const Tensor& self, Tensor out) {
  const char* name = kPositive ? "isposinf" : "isneginf";
  TL_CHECK(out.dtype() == DType::Bool, TypeError, "{} does not support non-boolean outputs.", name);
  assign_out(out, kPositive ? torchlet::isposinf(self) : torchlet::isneginf(self), name);
  return out;
}

static RegisterOps reg({
    // the comparisons of the binary table: bool results, computed in the promoted dtype
    {"aten::eq(Scalar a, Scalar b) -> bool", boxed_inline<&equal<IValue, IValue>>},
    {"aten::eq.bool(bool a, bool b) -> bool", boxed_inline<&equal<bool, bool>>},
    {"aten::eq.bool_list(bool[] a, bool[] b) -> bool", boxed_inline<&equal<IValue, IValue>>},
    {"aten::eq.complex(complex a, complex b) -> bool", boxed_inline<&equal<IValue, IValue>>},
    {"aten::eq.complex_float(complex a, float b) -> bool", boxed_inline<&equal<IValue, IValue>>},
    {"aten::eq.device(Device a, Device b) -> bool", boxed_inline<&equal<IValue, IValue>>},
    {"aten::eq.enum(AnyEnumType a, AnyEnumType b) -> bool", boxed_inline<&equal<IValue, IValue>>},
    {"aten::eq.float(float a, float b) -> bool", boxed_inline<&equal<double, double>>},
    {"aten::eq.float_complex(float a, complex b) -> bool", boxed_inline<&equal<IValue, IValue>>},
    {"aten::eq.float_int(float a, int b) -> bool", boxed_inline<&equal<double, int64_t>>},
    {"aten::eq.float_list(float[] a, float[] b) -> bool", boxed_inline<&equal<IValue, IValue>>},
    {"aten::eq.int(int a, int b) -> bool", boxed_inline<&equal<int64_t, int64_t>>},
    {"aten::eq.int_float(int a, float b) -> bool", boxed_inline<&equal<int64_t, double>>},
    {"aten::eq.int_list(int[] a, int[] b) -> bool", boxed_inline<&equal<IValue, IValue>>},
    {"aten::eq.str(str a, str b) -> bool", boxed_inline<&equal<std::string, std::string>>},
    {"aten::eq.str_list(str[] a, str[] b) -> bool", boxed_inline<&equal<IValue, IValue>>},
    {"aten::eq.Tensor(Tensor self, Tensor other) -> Tensor", boxed<tt(&torchlet::eq)>},
    {"aten::eq.Scalar(Tensor self, Scalar other) -> Tensor", boxed<ts(&torchlet::eq)>},
    {"aten::eq_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)", writes_self<tt_(&torchlet::eq_)>},
    {"aten::eq_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)", writes_self<ts_(&torchlet::eq_)>},
    {"aten::eq.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", out_variant<tt(&torchlet::eq)>},
    {"aten::eq.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)", out_variant<ts(&torchlet::eq)>},
    {"aten::ne(Scalar a, Scalar b) -> bool", boxed_inline<&not_equal<IValue, IValue>>},
    {"aten::ne.bool(bool a, bool b) -> bool", boxed_inline<&not_equal<bool, bool>>},
    {"aten::ne.bool_list(bool[] a, bool[] b) -> bool", boxed_inline<&not_equal<IValue, IValue>>},
    {"aten::ne.complex(complex a, complex b) -> bool", boxed_inline<&not_equal<IValue, IValue>>},
    {"aten::ne.complex_float(complex a, float b) -> bool", boxed_inline<&not_equal<IValue, IValue>>},
    {"aten::ne.device(Device a, Device b) -> bool", boxed_inline<&not_equal<IValue, IValue>>},
    {"aten::ne.enum(AnyEnumType a, AnyEnumType b) -> bool", boxed_inline<&not_equal<IValue, IValue>>},
    {"aten::ne.float(float a, float b) -> bool", boxed_inline<&not_equal<double, double>>},
    {"aten::ne.float_complex(float a, complex b) -> bool", boxed_inline<&not_equal<IValue, IValue>>},
    {"aten::ne.float_int(float a, int b) -> bool", boxed_inline<&not_equal<double, int64_t>>},
    {"aten::ne.float_list(float[] a, float[] b) -> bool", boxed_inline<&not_equal<IValue, IValue>>},
    {"aten::ne.int(int a, int b) -> bool", boxed_inline<&not_equal<int64_t, int64_t>>},
    {"aten::ne.int_float(int a, float b) -> bool", boxed_inline<&not_equal<int64_t, double>>},
    {"aten::ne.int_list(int[] a, int[] b) -> bool", boxed_inline<&not_equal<IValue, IValue>>},
    {"aten::ne.str(str a, str b) -> bool", boxed_inline<&not_equal<std::string, std::string>>},
    {"aten::ne.str_list(str[] a, str[] b) -> bool", boxed_inline<&not_equal<IValue, IValue>>},
    {"aten::ne.Tensor(Tensor self, Tensor other) -> Tensor", boxed<tt(&torchlet::ne)>},
    {"aten::ne.Scalar(Tensor self, Scalar other) -> Tensor", boxed<ts(&torchlet::ne)>},
    {"aten::ne_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)", writes_self<tt_(&torchlet::ne_)>},
    {"aten::ne_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)", writes_self<ts_(&torchlet::ne_)>},
    {"aten::ne.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", out_variant<tt(&torchlet::ne)>},
    {"aten::ne.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)", out_variant<ts(&torchlet::ne)>},
    {"aten::lt(Scalar a, Scalar b) -> bool", boxed_inline<&compare_scalar<std::less<>>>},
    {"aten::lt.float(float a, float b) -> bool", boxed_inline<&compare<std::less<>, double, double>>},
    {"aten::lt.float_int(float a, int b) -> bool", boxed_inline<&compare<std::less<>, double, int64_t>>},
    {"aten::lt.int(int a, int b) -> bool", boxed_inline<&compare<std::less<>, int64_t, int64_t>>},
    {"aten::lt.int_float(int a, float b) -> bool", boxed_inline<&compare<std::less<>, int64_t, double>>},
    {"aten::lt.str(str a, str b) -> bool", boxed_inline<&compare_str<std::less<>>>},
    {"aten::lt.Tensor(Tensor self, Tensor other) -> Tensor", boxed<tt(&torchlet::lt)>},
    {"aten::lt.Scalar(Tensor self, Scalar other) -> Tensor", boxed<ts(&torchlet::lt)>},
    {"aten::lt_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)", writes_self<tt_(&torchlet::lt_)>},
    {"aten::lt_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)", writes_self<ts_(&torchlet::lt_)>},
    {"aten::lt.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", out_variant<tt(&torchlet::lt)>},
    {"aten::lt.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)", out_variant<ts(&torchlet::lt)>},
    {"aten::le(Scalar a, Scalar b) -> bool", boxed_inline<&compare_scalar<std::less_equal<>>>},
    {"aten::le.float(float a, float b) -> bool", boxed_inline<&compare<std::less_equal<>, double, double>>},
    {"aten::le.float_int(float a, int b) -> bool", boxed_inline<&compare<std::less_equal<>, double, int64_t>>},
    {"aten::le.int(int a, int b) -> bool", boxed_inline<&compare<std::less_equal<>, int64_t, int64_t>>},
    {"aten::le.int_float(int a, float b) -> bool", boxed_inline<&compare<std::less_equal<>, int64_t, double>>},
    {"aten::le.str(str a, str b) -> bool", boxed_inline<&compare_str<std::less_equal<>>>},
    {"aten::le.Tensor(Tensor self, Tensor other) -> Tensor", boxed<tt(&torchlet::le)>},
    {"aten::le.Scalar(Tensor self, Scalar other) -> Tensor", boxed<ts(&torchlet::le)>},
    {"aten::le_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)", writes_self<tt_(&torchlet::le_)>},
    {"aten::le_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)", writes_self<ts_(&torchlet::le_)>},
    {"aten::le.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", out_variant<tt(&torchlet::le)>},
    {"aten::le.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)", out_variant<ts(&torchlet::le)>},
    {"aten::gt(Scalar a, Scalar b) -> bool", boxed_inline<&compare_scalar<std::greater<>>>},
    {"aten::gt.float(float a, float b) -> bool", boxed_inline<&compare<std::greater<>, double, double>>},
    {"aten::gt.float_int(float a, int b) -> bool", boxed_inline<&compare<std::greater<>, double, int64_t>>},
    {"aten::gt.int(int a, int b) -> bool", boxed_inline<&compare<std::greater<>, int64_t, int64_t>>},
    {"aten::gt.int_float(int a, float b) -> bool", boxed_inline<&compare<std::greater<>, int64_t, double>>},
    {"aten::gt.str(str a, str b) -> bool", boxed_inline<&compare_str<std::greater<>>>},
    {"aten::gt.Tensor(Tensor self, Tensor other) -> Tensor", boxed<tt(&torchlet::gt)>},
    {"aten::gt.Scalar(Tensor self, Scalar other) -> Tensor", boxed<ts(&torchlet::gt)>},
    {"aten::gt_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)", writes_self<tt_(&torchlet::gt_)>},
    {"aten::gt_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)", writes_self<ts_(&torchlet::gt_)>},
    {"aten::gt.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", out_variant<tt(&torchlet::gt)>},
    {"aten::gt.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)", out_variant<ts(&torchlet::gt)>},
    {"aten::ge(Scalar a, Scalar b) -> bool", boxed_inline<&compare_scalar<std::greater_equal<>>>},
    {"aten::ge.float(float a, float b) -> bool", boxed_inline<&compare<std::greater_equal<>, double, double>>},
    {"aten::ge.float_int(float a, int b) -> bool", boxed_inline<&compare<std::greater_equal<>, double, int64_t>>},
    {"aten::ge.int(int a, int b) -> bool", boxed_inline<&compare<std::greater_equal<>, int64_t, int64_t>>},
    {"aten::ge.int_float(int a, float b) -> bool", boxed_inline<&compare<std::greater_equal<>, int64_t, double>>},
    {"aten::ge.str(str a, str b) -> bool", boxed_inline<&compare_str<std::greater_equal<>>>},
    {"aten::ge.Tensor(Tensor self, Tensor other) -> Tensor", boxed<tt(&torchlet::ge)>},
    {"aten::ge.Scalar(Tensor self, Scalar other) -> Tensor", boxed<ts(&torchlet::ge)>},
    {"aten::ge_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)", writes_self<tt_(&torchlet::ge_)>},
    {"aten::ge_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)", writes_self<ts_(&torchlet::ge_)>},
    {"aten::ge.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", out_variant<tt(&torchlet::ge)>},
    {"aten::ge.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)", out_variant<ts(&torchlet::ge)>},
    // elementwise extremes (maximum/minimum propagate NaN, fmax/fmin ignore it)
    {"aten::maximum(Tensor self, Tensor other) -> Tensor", boxed<tt(&torchlet::maximum)>},
    {"aten::maximum.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", out_variant<tt(&torchlet::maximum)>},
    {"aten::minimum(Tensor self, Tensor other) -> Tensor", boxed<tt(&torchlet::minimum)>},
    {"aten::minimum.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", out_variant<tt(&torchlet::minimum)>},
    {"aten::fmax(Tensor self, Tensor other) -> Tensor", boxed<tt(&torchlet::fmax)>},
    {"aten::fmax.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", out_variant<tt(&torchlet::fmax)>},
    {"aten::fmin(Tensor self, Tensor other) -> Tensor", boxed<tt(&torchlet::fmin)>},
    {"aten::fmin.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", out_variant<tt(&torchlet::fmin)>},
    // compositions (kernels/comparison.cpp)
    {"aten::isclose(Tensor self, Tensor other, float rtol=1.0000000000000001e-05, float atol=1e-08, bool equal_nan=False) -> Tensor", boxed<&torchlet::isclose>},
    {"aten::allclose(Tensor self, Tensor other, float rtol=1.0000000000000001e-05, float atol=1e-08, bool equal_nan=False) -> bool", boxed<&torchlet::allclose>},
    {"aten::isnan.complex(complex a) -> bool", boxed_inline<&float_predicate<FloatClass::NaN, Complex>>},
    {"aten::isnan.float(float a) -> bool", boxed_inline<&float_predicate<FloatClass::NaN, double>>},
    {"aten::isnan(Tensor self) -> Tensor", boxed<&torchlet::isnan>},
    {"aten::isnan.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::isnan", 1, castable>},
    {"aten::isinf.complex(complex a) -> bool", boxed_inline<&float_predicate<FloatClass::Inf, Complex>>},
    {"aten::isinf.float(float a) -> bool", boxed_inline<&float_predicate<FloatClass::Inf, double>>},
    {"aten::isinf(Tensor self) -> Tensor", boxed<&torchlet::isinf>},
    {"aten::isinf.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::isinf", 1, castable>},
    {"aten::isfinite.complex(complex a) -> bool", boxed_inline<&float_predicate<FloatClass::Finite, Complex>>},
    {"aten::isfinite.float(float a) -> bool", boxed_inline<&float_predicate<FloatClass::Finite, double>>},
    {"aten::isfinite(Tensor self) -> Tensor", boxed<&torchlet::isfinite>},
    {"aten::isposinf(Tensor self) -> Tensor", boxed<&torchlet::isposinf>},
    {"aten::isposinf.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", boxed<&into_bool_out<true>>},
    {"aten::isneginf(Tensor self) -> Tensor", boxed<&torchlet::isneginf>},
    {"aten::isneginf.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", boxed<&into_bool_out<false>>},
    {"aten::isreal(Tensor self) -> Tensor", boxed<&torchlet::isreal>},
    {"aten::isin.Tensor_Tensor(Tensor elements, Tensor test_elements, *, bool assume_unique=False, bool invert=False) -> Tensor", boxed<kIsinTensors>},
    {"aten::isin.Tensor_Scalar(Tensor elements, Scalar test_element, *, bool assume_unique=False, bool invert=False) -> Tensor", boxed<kIsinScalarOther>},
    {"aten::isin.Scalar_Tensor(Scalar element, Tensor test_elements, *, bool assume_unique=False, bool invert=False) -> Tensor", boxed<kIsinScalarSelf>},
    {"aten::isin.Scalar_Tensor_out(Scalar element, Tensor test_elements, *, bool assume_unique=False, bool invert=False, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::isin.Scalar_Tensor", 1, exact_dtype>},
    {"aten::isin.Tensor_Scalar_out(Tensor elements, Scalar test_element, *, bool assume_unique=False, bool invert=False, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::isin.Tensor_Scalar", 1, exact_dtype>},
    {"aten::isin.Tensor_Tensor_out(Tensor elements, Tensor test_elements, *, bool assume_unique=False, bool invert=False, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::isin.Tensor_Tensor", 1, exact_dtype>},
    {"aten::where.self(Tensor condition, Tensor self, Tensor other) -> Tensor", boxed<kWhere>},
    {"aten::where.ScalarOther(Tensor condition, Tensor self, Scalar other) -> Tensor", boxed<kWhereScalarOther>},
    {"aten::where.ScalarSelf(Tensor condition, Scalar self, Tensor other) -> Tensor", boxed<kWhereScalarSelf>},
    {"aten::where.Scalar(Tensor condition, Scalar self, Scalar other) -> Tensor", boxed<kWhereScalars>},
    {"aten::where.self_out(Tensor condition, Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", out_variant<kWhere>},
    {"aten::where(Tensor condition) -> Tensor[]", boxed<kWhereTrue>},
});

}  // namespace
}  // namespace torchlet::jit::ops

// The torch.special operators of src/jit/ops/special.cpp checked against the
// mathematics rather than against torch (the interop fixtures do that): the Bessel
// functions against their power series, erfcx and log_ndtr against erfc in long double,
// ndtri as ndtr's inverse, zeta and polygamma against Riemann zeta values and the
// recurrences that define them, igamma/igammac against their closed forms and
// recurrence, j0/j1 against their power series and zeros, and the exact values and
// edges each definition fixes.
#include <cmath>
#include <cstdint>
#include <limits>
#include <numbers>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <torchlet/tensor.h>

#include "ops_test_util.h"

namespace torchlet {
namespace {

using testing::call_op;
using testing::call_op_all;
using testing::op_error;

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

std::vector<double> run(const std::string& op, const std::vector<double>& x) {
  return call_op(op, {tensor<double>(std::span<const double>(x))}).toTensor().to_vector<double>();
}

// I_nu(x) = sum_k (x/2)^(2k + nu) / (k! (k + nu)!), summed in long double until the
// terms stop mattering.
long double bessel_series(int nu, long double x) {
  const long double h = x / 2;
  long double term = nu == 0 ? 1.0L : h;  // k = 0
  long double sum = term;
  for (int k = 1; k < 400; ++k) {
    term *= h * h / (static_cast<long double>(k) * (k + nu));
    sum += term;
    if (term < sum * 1e-22L) break;
  }
  return sum;
}

TEST(Special, BesselFunctionsMatchTheirPowerSeries) {
  const std::vector<double> xs = {0.0, 1e-8, 0.25, 0.5, 1.0, 2.5, 5.0, 7.99, 8.0, 8.01, 12.0, 20.0, 30.0};
  std::vector<double> both;
  for (double x : xs) {
    both.push_back(x);
    both.push_back(-x);
  }
  const auto i0 = run("aten::i0", both), i0e = run("aten::special_i0e", both);
  const auto i1 = run("aten::special_i1", both), i1e = run("aten::special_i1e", both);
  for (size_t j = 0; j < both.size(); ++j) {
    const double x = both[j];
    const long double scale = std::exp(-std::fabs(static_cast<long double>(x)));
    const double want0 = static_cast<double>(bessel_series(0, std::fabs(x)));
    const double want1 = std::copysign(static_cast<double>(bessel_series(1, std::fabs(x))), x);
    // Cephes' expansions are good to a few units in the last place of double.
    EXPECT_NEAR(i0[j], want0, 1e-15 * want0) << "i0(" << x << ")";
    EXPECT_NEAR(i0e[j], static_cast<double>(want0 * scale), 1e-15) << "i0e(" << x << ")";
    EXPECT_NEAR(i1[j], want1, 1e-15 * std::fabs(want1) + 1e-300) << "i1(" << x << ")";
    EXPECT_NEAR(i1e[j], static_cast<double>(want1 * scale), 1e-15) << "i1e(" << x << ")";
  }
  // I0 is even and I1 odd, exactly: both take |x| and restore the sign.
  for (size_t j = 0; j < both.size(); j += 2) {
    EXPECT_EQ(i0[j], i0[j + 1]);
    EXPECT_EQ(i1[j], -i1[j + 1]);
  }
}

TEST(Special, BesselEdgesAndDtypes) {
  const auto i0 = run("aten::i0", {0.0, 800.0, kInf, kNaN});
  EXPECT_EQ(i0[0], 1.0);
  EXPECT_EQ(i0[1], kInf);
  // exp(inf) * c / sqrt(inf) is inf / inf: torch's formula gives NaN at infinity.
  EXPECT_TRUE(std::isnan(i0[2]));
  EXPECT_TRUE(std::isnan(i0[3]));
  const auto i1e = run("aten::special_i1e", {kInf, -kInf});
  EXPECT_EQ(i1e[0], 0.0);
  EXPECT_TRUE(std::signbit(i1e[1]));
  // Integers are read as float32; torch has no float16 kernel, nor bfloat16 for i1. The
  // float series (its coefficients rounded to float) sums to 1 - 2^-24 at 0, not 1.
  const Tensor ints = call_op("aten::i0", {tensor<int64_t>({0, 1, 2})}).toTensor();
  EXPECT_EQ(ints.dtype(), DType::Float);
  EXPECT_NEAR(ints.to_vector<float>()[0], 1.0f, 1e-7f);
  EXPECT_NE(op_error("aten::i0", {ones({2}, DType::Half)}).find("\"i0_vml_cpu\" not implemented for 'Half'"),
            std::string::npos);
  EXPECT_NE(op_error("aten::special_i1", {ones({2}, DType::BFloat16)}).find("\"i1_cpu\" not implemented for 'BFloat16'"),
            std::string::npos);
  // i0_ writes into self, which must hold a float.
  Tensor self = tensor<double>({0.0, 1.0});
  call_op("aten::i0_", {self});
  EXPECT_EQ(self.to_vector<double>()[0], 1.0);
  EXPECT_NE(op_error("aten::i0_", {tensor<int64_t>({1})}).find("can't be cast to the desired output type Long"),
            std::string::npos);
}

TEST(Special, ErfcxIsExpTimesErfc) {
  const std::vector<double> xs = {-6.0, -3.0, -1.0, -0.5, 0.0, 0.3, 1.0, 2.0, 5.0, 10.0, 20.0};
  const auto got = run("aten::special_erfcx", xs);
  for (size_t j = 0; j < xs.size(); ++j) {
    const long double x = xs[j];
    const double want = static_cast<double>(std::exp(x * x) * std::erfc(x));
    EXPECT_NEAR(got[j], want, 4e-15 * want) << "erfcx(" << xs[j] << ")";
  }
  // Beyond 50 the continued fraction: erfcx(x) -> 1 / (x sqrt(pi)).
  const auto far = run("aten::special_erfcx", {1e9, kInf, -kInf, -30.0, kNaN});
  EXPECT_NEAR(far[0], 1.0 / (1e9 * std::sqrt(std::numbers::pi)), 1e-24);
  EXPECT_EQ(far[1], 0.0);
  EXPECT_EQ(far[2], kInf);
  EXPECT_EQ(far[3], kInf);  // 2 exp(900) overflows
  EXPECT_TRUE(std::isnan(far[4]));
}

TEST(Special, NdtrLogNdtrAndNdtriAgree) {
  const std::vector<double> xs = {-8.0, -3.0, -1.5, -0.5, 0.0, 0.5, 1.0, 2.0, 3.0};
  const auto phi = run("aten::special_ndtr", xs);
  const auto log_phi = run("aten::special_log_ndtr", xs);
  const auto back = run("aten::special_ndtri", phi);
  for (size_t j = 0; j < xs.size(); ++j) {
    const long double want = std::erfc(-static_cast<long double>(xs[j]) / std::sqrt(2.0L)) / 2;
    EXPECT_NEAR(phi[j], static_cast<double>(want), 1e-15);
    EXPECT_NEAR(log_phi[j], static_cast<double>(std::log(want)), 1e-14 * std::fabs(static_cast<double>(std::log(want))));
    // (ndtr's 1 + erf cancels in the far left tail, so only the middle round-trips.)
    if (std::fabs(xs[j]) <= 3) {
      EXPECT_NEAR(back[j], xs[j], 1e-9);
    }
  }
  // Far in the left tail Phi underflows, log_ndtr does not: -x^2/2 - log(-x sqrt(2 pi)).
  const double x = -40.0;
  const double tail = run("aten::special_log_ndtr", {x})[0];
  EXPECT_NEAR(tail, -x * x / 2 - std::log(-x * std::sqrt(2 * std::numbers::pi)), 1e-3);
  const auto edges = run("aten::special_ndtri", {0.0, 1.0, 0.5, 1.5, -0.25});
  EXPECT_EQ(edges[0], -kInf);
  EXPECT_EQ(edges[1], kInf);
  EXPECT_EQ(edges[2], 0.0);
  EXPECT_TRUE(std::isnan(edges[3]) && std::isnan(edges[4]));
}

TEST(Special, EntrAndXlog1py) {
  const auto e = run("aten::special_entr", {0.0, 0.5, 1.0, -1.0, kNaN});
  EXPECT_EQ(e[0], 0.0);
  EXPECT_DOUBLE_EQ(e[1], 0.5 * std::numbers::ln2);
  EXPECT_EQ(e[2], 0.0);
  EXPECT_EQ(e[3], -kInf);
  EXPECT_TRUE(std::isnan(e[4]));

  const Tensor x = tensor<double>({0.0, 0.0, 2.0, 3.0});
  const Tensor y = tensor<double>({kNaN, -1.0, std::numbers::e - 1, -1.0});
  const auto r = call_op("aten::special_xlog1py", {x, y}).toTensor().to_vector<double>();
  EXPECT_TRUE(std::isnan(r[0]));  // NaN in y wins over x == 0
  EXPECT_EQ(r[1], 0.0);           // 0 * log(0) is taken as 0
  EXPECT_DOUBLE_EQ(r[2], 2.0);
  EXPECT_EQ(r[3], -kInf);
  // A Python number on either side; integers compute in float32.
  const Tensor s = call_op("aten::special_xlog1py.self_scalar", {IValue(int64_t{2}), tensor<int64_t>({0, 1})}).toTensor();
  EXPECT_EQ(s.dtype(), DType::Float);
  EXPECT_FLOAT_EQ(s.to_vector<float>()[1], 2.0f * std::log1p(1.0f));
}

TEST(Special, LdexpIsAProductWithAPowerOfTwo) {
  const Tensor m = tensor<double>({1.0, 0.75, 0.0, 1.0});
  const Tensor e = tensor<int64_t>({10, -2, 1024, -1074});
  const auto r = call_op("aten::ldexp.Tensor", {m, e}).toTensor().to_vector<double>();
  EXPECT_EQ(r[0], 1024.0);
  EXPECT_EQ(r[1], 0.1875);
  // 2.0 ** 1024 overflows before the product: 0 * inf (torch's composition says NaN).
  EXPECT_TRUE(std::isnan(r[2]));
  // An integral exponent tensor makes the power float32, where 2^-1074 is 0 ...
  EXPECT_EQ(r[3], 0.0);
  // ... and a float64 one keeps double's range.
  const Tensor e64 = tensor<double>({-1074.0});
  EXPECT_EQ(call_op("aten::ldexp.Tensor", {tensor<double>({1.0}), e64}).toTensor().to_vector<double>()[0],
            std::numeric_limits<double>::denorm_min());
  // Integers give float32, as pow(2.0, int tensor) does.
  EXPECT_EQ(call_op("aten::ldexp.Tensor", {tensor<int32_t>({3}), tensor<int32_t>({2})}).toTensor().dtype(), DType::Float);
}

TEST(Special, NextafterStepsOneUnit) {
  const auto f = call_op("aten::nextafter", {tensor<float>({1.0f, 0.0f, 1.0f}), tensor<float>({2.0f, -1.0f, 1.0f})})
                     .toTensor()
                     .to_vector<float>();
  EXPECT_EQ(f[0], 1.0f + std::numeric_limits<float>::epsilon());
  EXPECT_EQ(f[1], -std::numeric_limits<float>::denorm_min());
  EXPECT_EQ(f[2], 1.0f);
  // bfloat16 steps on its own 16-bit grid: 1.0 is 0x3F80, the value below it 0x3F7F.
  const Tensor one = tensor<float>({1.0f, 0.0f}).to(DType::BFloat16);
  const Tensor toward = tensor<float>({0.0f, 1.0f}).to(DType::BFloat16);
  const Tensor b = call_op("aten::nextafter", {one, toward}).toTensor();
  ASSERT_EQ(b.dtype(), DType::BFloat16);
  EXPECT_EQ(b.data<BFloat16>()[0].bits, 0x3F7F);
  EXPECT_EQ(b.data<BFloat16>()[1].bits, 0x0001);
  EXPECT_NE(op_error("aten::nextafter", {tensor<int64_t>({1}), tensor<int64_t>({2})})
                .find("\"nextafter_cpu\" not implemented for 'Long'"),
            std::string::npos);
}

TEST(Special, FrexpSplitsMantissaAndExponent) {
  const auto out = call_op_all("aten::frexp.Tensor", {tensor<double>({3.0, -0.0, 1024.0, kInf})});
  ASSERT_EQ(out.size(), 2u);
  const auto m = out[0].toTensor().to_vector<double>();
  const Tensor e = out[1].toTensor();
  EXPECT_EQ(e.dtype(), DType::Int);
  const auto ev = e.to_vector<int32_t>();
  EXPECT_EQ(m[0], 0.75);
  EXPECT_EQ(ev[0], 2);
  EXPECT_TRUE(m[1] == 0.0 && std::signbit(m[1]));
  EXPECT_EQ(m[2], 0.5);
  EXPECT_EQ(ev[2], 11);
  EXPECT_EQ(m[3], kInf);
  EXPECT_NE(op_error("aten::frexp.Tensor", {tensor<int64_t>({1})}).find("torch.frexp() only supports floating-point dtypes"),
            std::string::npos);
  const std::string wrong = op_error("aten::frexp.Tensor_out",
                                     {tensor<float>({1.0f}), empty({1}, DType::Float), empty({1}, DType::Long)});
  EXPECT_NE(wrong.find("expects exponent to have int dtype but got long int"), std::string::npos);
}

}  // namespace
}  // namespace torchlet

namespace torchlet {
namespace {

double zeta_of(double x, double q) {
  return call_op("aten::special_zeta", {tensor<double>({x}), tensor<double>({q})}).toTensor().to_vector<double>()[0];
}
double polygamma_of(int64_t n, double x) {
  return call_op("aten::polygamma", {IValue(n), tensor<double>({x})}).toTensor().to_vector<double>()[0];
}

TEST(Special, ZetaMatchesRiemannValuesAndItsRecurrence) {
  constexpr double kPi2 = std::numbers::pi * std::numbers::pi;
  EXPECT_NEAR(zeta_of(2.0, 1.0), kPi2 / 6, 1e-15);
  EXPECT_NEAR(zeta_of(4.0, 1.0), kPi2 * kPi2 / 90, 1e-15);
  EXPECT_NEAR(zeta_of(2.0, 0.5), kPi2 / 2, 1e-14);  // (2^2 - 1) zeta(2)
  // zeta(x, q) = q^-x + zeta(x, q + 1), the sum's first term split off.
  for (double x : {1.5, 2.5, 7.0}) {
    for (double q : {0.3, 2.0, 11.5}) EXPECT_NEAR(zeta_of(x, q), std::pow(q, -x) + zeta_of(x, q + 1), 1e-12 * zeta_of(x, q));
  }
  EXPECT_EQ(zeta_of(1.0, 2.0), kInf);
  EXPECT_TRUE(std::isnan(zeta_of(0.5, 2.0)));
  EXPECT_EQ(zeta_of(2.0, -3.0), kInf);              // a pole of (k + q)^-2
  EXPECT_TRUE(std::isnan(zeta_of(2.5, -1.5)));       // a negative base to a fractional power
  EXPECT_NEAR(zeta_of(2.0, -1.5), 1 / 2.25 + 4.0 + zeta_of(2.0, 0.5), 1e-12);  // (-1.5)^-2 + (-0.5)^-2 + ...
  // A q far below zero would take one step per unit up to 9: refused, not a hang.
  EXPECT_NE(op_error("aten::special_zeta", {tensor<double>({2.0}), tensor<double>({-2e8 + 0.5})}).find("zeta: q ="),
            std::string::npos);
}

TEST(Special, PolygammaIsTheDerivativeSeries) {
  constexpr double kPi2 = std::numbers::pi * std::numbers::pi;
  constexpr double kApery = 1.2020569031595942854;  // zeta(3)
  // trigamma is torch's short asymptotic series after six recurrence steps: it is good
  // to about 1e-9 relative (its truncation, kept for torch's bits), not to the last bit.
  EXPECT_NEAR(polygamma_of(1, 1.0), kPi2 / 6, 2e-9 * kPi2 / 6);
  EXPECT_NEAR(polygamma_of(1, 0.5), kPi2 / 2, 2e-9 * kPi2 / 2);
  EXPECT_NEAR(polygamma_of(2, 1.0), -2 * kApery, 1e-14);
  EXPECT_NEAR(polygamma_of(3, 1.0), 6 * kPi2 * kPi2 / 90, 1e-13);
  // psi^(n)(x + 1) = psi^(n)(x) + (-1)^n n! / x^(n + 1).
  const double factorial[] = {1, 1, 2, 6, 24};
  for (int64_t n = 1; n <= 4; ++n) {
    for (double x : {0.75, 3.0, 12.5}) {
      const double step = (n % 2 ? 1.0 : -1.0) * -factorial[n] / std::pow(x, n + 1);
      const double tolerance = (n == 1 ? 2e-9 : 1e-11) * std::abs(polygamma_of(n, x));
      EXPECT_NEAR(polygamma_of(n, x + 1), polygamma_of(n, x) + step, tolerance);
    }
  }
  // n = 0 is digamma; a negative n is refused with torch's message.
  const double digamma_2 = call_op("aten::digamma", {tensor<double>({2.0})}).toTensor().to_vector<double>()[0];
  EXPECT_EQ(polygamma_of(0, 2.0), digamma_2);
  EXPECT_NE(op_error("aten::polygamma", {IValue(int64_t{-1}), tensor<double>({1.0})}).find("does not support negative n"),
            std::string::npos);
}

// P(a, x) and Q(a, x) for many pairs at once (a and x broadcast).
std::vector<double> incomplete_gamma(const char* op, const std::vector<double>& a, const std::vector<double>& x) {
  return call_op(op, {tensor<double>(std::span<const double>(a)), tensor<double>(std::span<const double>(x))})
      .toTensor()
      .to_vector<double>();
}

// Where torch's uniform asymptotic expansion runs. It divides by sqrt(2 pi a) with pi
// rounded to float (c10::pi<float>), a relative error of 1.4e-8 in a correction term
// below 0.1: results there are good to about 2e-9, not to double's last bits (kept for
// torch's bits).
bool in_uniform_expansion(double a, double x) {
  const double r = std::fabs(x - a) / a;
  return (a > 20 && a < 200 && r < 0.3) || (a > 200 && r < 4.5 / std::sqrt(a));
}

// Q(n, x) = e^-x sum_{k < n} x^k / k! for integer n, in long double.
long double upper_gamma_integer(int n, long double x) {
  long double term = 1, sum = 0;
  for (int k = 0; k < n; ++k) {
    sum += term;
    term *= x / (k + 1);
  }
  return std::exp(-x) * sum;
}

TEST(Special, IncompleteGammaClosedForms) {
  // Pairs reaching every branch: both series, the continued fraction, and the uniform
  // expansion (20 < a < 200 with x within 30% of a; a > 200 with x within 4.5 sqrt(a)).
  std::vector<double> as, xs;
  for (double a : {0.5, 1.0, 3.0, 30.0, 150.0, 250.0, 1e4}) {
    for (double r : {0.01, 0.3, 0.8, 0.95, 1.0, 1.05, 1.25, 2.0, 5.0}) {
      as.push_back(a);
      xs.push_back(a * r);
    }
  }
  const auto p = incomplete_gamma("aten::igamma", as, xs), q = incomplete_gamma("aten::igammac", as, xs);
  for (size_t i = 0; i < as.size(); ++i) {
    const double a = as[i], x = xs[i];
    EXPECT_NEAR(p[i] + q[i], 1.0, 1e-13) << "a=" << a << " x=" << x;
    if (a == 0.5) {  // P(1/2, x) = erf(sqrt x)
      EXPECT_NEAR(p[i], std::erf(std::sqrt(x)), 1e-15) << x;
      EXPECT_NEAR(q[i], std::erfc(std::sqrt(x)), 1e-14 * std::erfc(std::sqrt(x))) << x;
    } else if (a == 1.0) {  // P(1, x) = 1 - e^-x
      EXPECT_NEAR(p[i], -std::expm1(-x), 1e-15) << x;
      EXPECT_NEAR(q[i], std::exp(-x), 1e-14 * std::exp(-x)) << x;
    } else if (a == std::floor(a) && a < 300) {  // the finite sum for integer a
      const double want = static_cast<double>(upper_gamma_integer(static_cast<int>(a), x));
      const double tolerance = in_uniform_expansion(a, x) ? 2e-9 : 1e-12 * want + 1e-300;
      EXPECT_NEAR(q[i], want, tolerance) << "a=" << a << " x=" << x;
    }
  }
}

TEST(Special, IncompleteGammaRecurrence) {
  // P(a + 1, x) = P(a, x) - x^a e^-x / Gamma(a + 1).
  std::vector<double> as, xs;
  for (double a : {0.3, 2.7, 19.5, 24.0, 180.0}) {
    for (double x : {0.2, 0.9, 1.5, 6.0, 22.0, 170.0}) {
      as.push_back(a);
      xs.push_back(x);
    }
  }
  std::vector<double> as1(as);
  for (double& a : as1) a += 1;
  const auto p = incomplete_gamma("aten::igamma", as, xs), p1 = incomplete_gamma("aten::igamma", as1, xs);
  for (size_t i = 0; i < as.size(); ++i) {
    const double a = as[i], x = xs[i];
    const double step = std::exp(a * std::log(x) - x - std::lgamma(a + 1));
    const double tolerance = in_uniform_expansion(a, x) || in_uniform_expansion(a + 1, x) ? 4e-9 : 1e-13;
    EXPECT_NEAR(p1[i], p[i] - step, tolerance) << "a=" << a << " x=" << x;
  }
}

TEST(Special, IncompleteGammaEdgesAndDtypes) {
  // SciPy's boundary values: a = 0 is a unit step at x = 0, x = 0 gives P = 0, negative
  // arguments and a = x = 0 or both infinite are NaN.
  const std::vector<double> a = {0.0, 0.0, 2.0, -1.0, 2.0, kInf, kInf, 2.0, kNaN};
  const std::vector<double> x = {3.0, 0.0, 0.0, 1.0, -1.0, 5.0, kInf, kInf, 1.0};
  const auto p = incomplete_gamma("aten::igamma", a, x), q = incomplete_gamma("aten::igammac", a, x);
  EXPECT_EQ(p[0], 1.0);
  EXPECT_EQ(q[0], 0.0);
  EXPECT_TRUE(std::isnan(p[1]) && std::isnan(q[1]));
  EXPECT_EQ(p[2], 0.0);
  EXPECT_EQ(q[2], 1.0);
  EXPECT_TRUE(std::isnan(p[3]) && std::isnan(q[3]) && std::isnan(p[4]) && std::isnan(q[4]));
  EXPECT_EQ(p[5], 0.0);
  EXPECT_EQ(q[5], 1.0);
  EXPECT_TRUE(std::isnan(p[6]) && std::isnan(q[6]));
  EXPECT_EQ(p[7], 1.0);
  EXPECT_EQ(q[7], 0.0);
  EXPECT_TRUE(std::isnan(p[8]) && std::isnan(q[8]));  // NaN runs the bounded series to its cap
  // A plain binary op: two integer operands are refused, not promoted; float16 is
  // computed in float and keeps its dtype.
  const Tensor ints = tensor<int64_t>({1, 2});
  EXPECT_NE(op_error("aten::igamma", {ints, ints}).find("\"igamma_cpu\" not implemented for 'Long'"), std::string::npos);
  EXPECT_NE(op_error("aten::igammac", {ints, ints}).find("\"igammac_cpu\" not implemented for 'Long'"), std::string::npos);
  const Tensor half = tensor<double>({1.0, 2.0}).to(DType::Half);
  const Tensor r = call_op("aten::igamma", {half, half}).toTensor();
  EXPECT_EQ(r.dtype(), DType::Half);
  EXPECT_NEAR(r.to(DType::Double).to_vector<double>()[0], 1 - std::exp(-1.0), 1e-3);
}

// J_nu(x) = sum_k (-1)^k (x/2)^(2k + nu) / (k! (k + nu)!), in long double: the
// alternating terms cancel, so it is used only where they stay below ~1e6.
long double bessel_j_series(int nu, long double x) {
  const long double h = x / 2;
  long double term = nu == 0 ? 1.0L : h;
  long double sum = term;
  for (int k = 1; k < 400; ++k) {
    term *= -h * h / (static_cast<long double>(k) * (k + nu));
    sum += term;
    if (std::fabs(term) < 1e-25L) break;
  }
  return sum;
}

TEST(Special, BesselJMatchesItsSeriesAndZeros) {
  // torch 1.13's j0/j1 evaluate Cephes' denominators RQ (x <= 5) and QQ (beyond) as
  // ordinary polynomials, without the implicit leading coefficient 1 Cephes' p1evl
  // adds: reproduced for torch's bits, it costs up to ~1e-8 below 5 and ~5e-7 just
  // past it, which bounds how close to the true functions these results can be.
  std::vector<double> xs;
  for (double x = -12.0; x <= 12.0; x += 0.37) xs.push_back(x);
  for (double x : {1e-6, 1e-3, 0.5, 4.99, 5.0, 5.01}) xs.push_back(x);
  const auto j0 = run("aten::special_bessel_j0", xs), j1 = run("aten::special_bessel_j1", xs);
  for (size_t i = 0; i < xs.size(); ++i) {
    const long double x = xs[i];
    const double tolerance = std::fabs(xs[i]) <= 5 ? 2e-8 : 5e-7;
    EXPECT_NEAR(j0[i], static_cast<double>(bessel_j_series(0, x)), tolerance) << "j0(" << xs[i] << ")";
    EXPECT_NEAR(j1[i], static_cast<double>(bessel_j_series(1, x)), tolerance) << "j1(" << xs[i] << ")";
    // J0 is even and J1 odd, exactly: both evaluate at |x|.
    EXPECT_EQ(run("aten::special_bessel_j0", {-xs[i]})[0], j0[i]);
    EXPECT_EQ(run("aten::special_bessel_j1", {-xs[i]})[0], -j1[i]);
  }
  // Near 0 the leading terms are exact: J0 = 1 - x^2/4, J1 = x/2.
  EXPECT_EQ(run("aten::special_bessel_j0", {0.0})[0], 1.0);
  EXPECT_NEAR(run("aten::special_bessel_j1", {1e-8})[0], 5e-9, 1e-24);
  // The first zeros of J0 and J1 (j_{0,1}, j_{1,1} below 5; j_{0,2}, j_{1,2} above).
  const auto z0 = run("aten::special_bessel_j0", {2.404825557695773, 5.520078110286311});
  const auto z1 = run("aten::special_bessel_j1", {3.8317059702075125, 7.015586669815619});
  EXPECT_NEAR(z0[0], 0.0, 1e-15);
  EXPECT_NEAR(z1[0], 0.0, 1e-15);
  EXPECT_NEAR(z0[1], 0.0, 5e-7);
  EXPECT_NEAR(z1[1], 0.0, 5e-7);
  // Far out both follow sqrt(2 / (pi x)) cos(x - (2 nu + 1) pi / 4), to within that
  // leading term's own error, about amplitude / (8 x).
  const double big = 1e6 + 0.5;
  const double amp = std::sqrt(2 / (std::numbers::pi * big));
  EXPECT_NEAR(run("aten::special_bessel_j0", {big})[0], amp * std::cos(big - std::numbers::pi / 4), amp / big);
  EXPECT_NEAR(run("aten::special_bessel_j1", {big})[0], amp * std::cos(big - 3 * std::numbers::pi / 4), amp / big);
  // Integers read as float32; float16 is refused with torch's message.
  EXPECT_EQ(call_op("aten::special_bessel_j0", {tensor<int64_t>({0, 1})}).toTensor().dtype(), DType::Float);
  EXPECT_NE(op_error("aten::special_bessel_j1", {tensor<double>({1.0}).to(DType::Half)})
                .find("\"bessel_j1_cpu\" not implemented for 'Half'"),
            std::string::npos);
}

}  // namespace
}  // namespace torchlet

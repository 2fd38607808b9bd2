// Scalar: accessors, the dtype a lone scalar gets, equality across kinds, Python's
// repr (checked against Python itself), and to<T>'s c10-style range check.
#include <cmath>
#include <cstring>

#include <gtest/gtest.h>
#include <torchlet/error.h>
#include <torchlet/scalar.h>

#include "../common/fixtures.h"

namespace torchlet {
namespace {

double double_from_hex(const std::string& hex) {
  auto bytes = testing::from_hex(hex);
  double v = 0;
  EXPECT_EQ(bytes.size(), sizeof v) << hex;
  if (bytes.size() == sizeof v) std::memcpy(&v, bytes.data(), sizeof v);
  return v;
}

TEST(Scalar, AccessorsConvertBetweenKinds) {
  Scalar b(true), i(int64_t{-7}), d(2.75), c(std::complex<double>(1.5, -2));
  EXPECT_TRUE(b.is_bool());
  EXPECT_EQ(b.to_int(), 1);
  EXPECT_EQ(i.to_double(), -7.0);
  EXPECT_TRUE(i.to_bool());
  EXPECT_EQ(d.to_int(), 2);  // truncates toward zero, like int(2.75)
  EXPECT_EQ(Scalar(-2.75).to_int(), -2);
  EXPECT_FALSE(Scalar(0.0).to_bool());
  EXPECT_EQ(c.to_double(), 1.5);  // the real part
  EXPECT_EQ(c.to_complex(), std::complex<double>(1.5, -2));
  EXPECT_EQ(d.to_complex(), std::complex<double>(2.75, 0));
  EXPECT_TRUE(Scalar(std::complex<double>(0, 1)).to_bool());
  EXPECT_TRUE(Scalar(int8_t{-3}).is_integral());
  EXPECT_TRUE(Scalar(1.5f).is_floating());
}

TEST(Scalar, DTypeOfALoneScalarIsTorchs) {
  EXPECT_EQ(Scalar(true).dtype(), DType::Bool);
  EXPECT_EQ(Scalar(3).dtype(), DType::Long);
  EXPECT_EQ(Scalar(3.0).dtype(), DType::Float);
  EXPECT_EQ(Scalar(std::complex<double>(1, 1)).dtype(), DType::ComplexFloat);
}

TEST(Scalar, EqualityComparesValuesAcrossKinds) {
  EXPECT_EQ(Scalar(1), Scalar(true));
  EXPECT_EQ(Scalar(2), Scalar(2.0));
  EXPECT_EQ(Scalar(2.0), Scalar(std::complex<double>(2, 0)));
  EXPECT_FALSE(Scalar(2) == Scalar(std::complex<double>(2, 1)));
  EXPECT_FALSE(Scalar(0.1) == Scalar(0));
  EXPECT_FALSE(Scalar(NAN) == Scalar(NAN));
  // int64 values beyond 2^53 compare exactly, not through double.
  EXPECT_FALSE(Scalar(int64_t{9007199254740993}) == Scalar(int64_t{9007199254740992}));
}

TEST(Scalar, ReprMatchesPython) {
  EXPECT_EQ(Scalar(true).repr(), "True");
  EXPECT_EQ(Scalar(false).repr(), "False");
  EXPECT_EQ(Scalar(int64_t{-9223372036854775807 - 1}).repr(), "-9223372036854775808");
  auto lines = testing::fixture_lines("tensor/scalar.txt");
  for (const auto& line : lines) {
    auto f = testing::split(line, '|');
    ASSERT_EQ(f.size(), 4u) << line;
    Scalar s = f[0] == "float" ? Scalar(double_from_hex(f[1]))
                               : Scalar(std::complex<double>(double_from_hex(f[1]),
                                                             double_from_hex(f[2])));
    EXPECT_EQ(s.repr(), f[3]) << line;
  }
}

TEST(Scalar, CheckedConversionFollowsC10) {
  EXPECT_EQ(Scalar(-7).to<uint8_t>(), 249);  // negative integers wrap into unsigned
  EXPECT_EQ(Scalar(-255).to<uint8_t>(), 1);
  EXPECT_THROW(Scalar(-256).to<uint8_t>(), ValueError);
  EXPECT_THROW(Scalar(256).to<uint8_t>(), ValueError);
  EXPECT_THROW(Scalar(-0.5).to<uint8_t>(), ValueError);  // floats compare, then truncate
  EXPECT_EQ(Scalar(255.0).to<uint8_t>(), 255);
  EXPECT_THROW(Scalar(255.5).to<uint8_t>(), ValueError);  // compared before truncation
  EXPECT_EQ(Scalar(127.0).to<int8_t>(), 127);
  EXPECT_THROW(Scalar(127.5).to<int8_t>(), ValueError);
  EXPECT_EQ(Scalar(9223372036854775808.0).to<int64_t>(), INT64_MIN);  // 2^63 == (double)max
  EXPECT_THROW(Scalar(NAN).to<int32_t>(), ValueError);
  EXPECT_TRUE(std::isnan(Scalar(NAN).to<float>()));
  EXPECT_EQ(Scalar(INFINITY).to<Half>().bits, Half(INFINITY).bits);
  EXPECT_THROW(Scalar(65505.0).to<Half>(), ValueError);
  EXPECT_THROW(Scalar(1e39).to<float>(), ValueError);
  EXPECT_THROW(Scalar(std::complex<double>(1, 1)).to<double>(), ValueError);
  EXPECT_EQ(Scalar(std::complex<double>(1, 0)).to<double>(), 1.0);
  EXPECT_FALSE(Scalar(std::complex<double>(0, 1)).to<bool>());  // bool reads the real part
  EXPECT_TRUE(Scalar(-3.0).to<bool>());
  try {
    Scalar(300).to<uint8_t>();
    FAIL() << "300 fits no uint8";
  } catch (const ValueError& e) {
    EXPECT_NE(std::string(e.what()).find("value cannot be converted to type uint8_t without overflow"),
              std::string::npos)
        << e.what();
  }
  // The unchecked conversion is convert.h's element cast.
  EXPECT_EQ(Scalar(300).to_unchecked<uint8_t>(), 44);
}

}  // namespace
}  // namespace torchlet

// scan_number: the numbers of IR text and schema defaults, as torch prints them.
#include "values/number_text.h"

#include <cmath>
#include <limits>
#include <string>

#include <gtest/gtest.h>

namespace torchlet::jit {
namespace {

NumberText scan(std::string_view s, size_t* end = nullptr) {
  size_t pos = 0;
  NumberText n = scan_number(s, pos);
  if (end) *end = pos;
  return n;
}

TEST(ScanNumber, ReadsWhatTorchPrints) {
  size_t end = 0;
  NumberText n = scan("-3]", &end);
  EXPECT_TRUE(n.ok && !n.is_float);
  EXPECT_EQ(n.i, -3);
  EXPECT_EQ(end, 2u);  // stops before the ']'
  n = scan("1.0000000000000001e-05, ");
  EXPECT_TRUE(n.ok && n.is_float);
  EXPECT_EQ(n.d, 1.0000000000000001e-05);
  EXPECT_EQ(n.text, "1.0000000000000001e-05");
  n = scan("1.");
  EXPECT_TRUE(n.ok && n.is_float);
  EXPECT_EQ(n.d, 1.0);
  n = scan("-inf");
  EXPECT_TRUE(n.ok && n.is_float);
  EXPECT_EQ(n.d, -std::numeric_limits<double>::infinity());
  n = scan("4.9406564584124654e-324");  // the smallest subnormal, as repr() prints it
  EXPECT_TRUE(n.ok);
  EXPECT_EQ(n.d, std::numeric_limits<double>::denorm_min());
  n = scan("9223372036854775807");
  EXPECT_TRUE(n.ok);
  EXPECT_EQ(n.i, std::numeric_limits<int64_t>::max());
}

TEST(ScanNumber, RefusesWhatIsNotOneNumber) {
  for (std::string bad : {"-", ".", "1.5.3", "1e", "9223372036854775808", "-e5"}) {
    NumberText n = scan(bad);
    EXPECT_FALSE(n.ok) << bad;
    EXPECT_EQ(n.text, bad);  // reported whole
  }
}

}  // namespace
}  // namespace torchlet::jit

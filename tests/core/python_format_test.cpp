// The shared text helpers of core/python_format.h: UTF-8 encoding at every length
// boundary, Latin-1 decoding, and the C-locale strtod (locale_test.cpp checks it under a
// decimal-comma locale).
#include "core/python_format.h"

#include <string>

#include <gtest/gtest.h>

namespace torchlet {
namespace {

TEST(PythonFormat, AppendUtf8EncodesEachLengthAsPythonDoes) {
  // chr(cp).encode('utf-8') for the first and last code point of each length.
  const std::pair<uint32_t, std::string> cases[] = {
      {0x00, std::string(1, '\0')}, {0x7f, "\x7f"},         {0x80, "\xc2\x80"},         {0x7ff, "\xdf\xbf"},
      {0x800, "\xe0\xa0\x80"},      {0xffff, "\xef\xbf\xbf"}, {0x10000, "\xf0\x90\x80\x80"}, {0x10ffff, "\xf4\x8f\xbf\xbf"},
  };
  for (const auto& [cp, utf8] : cases) {
    std::string out = "x";
    append_utf8(out, cp);
    EXPECT_EQ(out, "x" + utf8) << std::hex << cp;
  }
}

TEST(PythonFormat, Latin1BytesBecomeTheirCodePoints) {
  // b'a\xe9\xff'.decode('latin1').encode('utf-8')
  EXPECT_EQ(latin1_to_utf8("a\xe9\xff"), "a\xc3\xa9\xc3\xbf");
  EXPECT_EQ(latin1_to_utf8(""), "");
}

TEST(PythonFormat, StrtodInTheCLocaleReportsWhereItStopped) {
  char* end = nullptr;
  const char* text = "2.5e3x";
  EXPECT_EQ(strtod_c_locale(text, &end), 2500.0);
  EXPECT_EQ(end, text + 5);
}

}  // namespace
}  // namespace torchlet

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

// printable_text: what Python's repr() shows inside the quotes, for every kind of byte a
// file can hold (repr('\x1b\x7f\x85\xa0\u202e') == "'\\x1b\\x7f\\x85\\xa0\\u202e'").
TEST(PythonFormat, PrintableTextEscapesWhatATerminalWouldActOn) {
  EXPECT_EQ(printable_text("plain text"), "plain text");
  EXPECT_EQ(printable_text(std::string("a\0b", 3)), "a\\x00b");
  EXPECT_EQ(printable_text("\x1b[2J\x7f\n\t\r\\"), "\\x1b[2J\\x7f\\n\\t\\r\\\\");
  EXPECT_EQ(printable_text("\xc2\x85\xc2\x9b\xc2\xa0"), "\\x85\\x9b\\xa0");          // C1, NBSP
  EXPECT_EQ(printable_text("\xe2\x80\xae\xe2\x80\x8b\xef\xbb\xbf"), "\\u202e\\u200b\\ufeff");  // bidi, zero-width
  EXPECT_EQ(printable_text("\xf3\xa0\x80\x81"), "\\U000e0001");                  // a tag character
  EXPECT_EQ(printable_text("\xed\xa0\x80"), "\\ud800");                           // a lone surrogate
  EXPECT_EQ(printable_text("caf\xc3\xa9 \xf0\x9f\x98\x80"), "caf\xc3\xa9 \xf0\x9f\x98\x80");  // printable stays
  EXPECT_EQ(printable_text("\xff\x80\xc3"), "\\xff\\x80\\xc3");                  // not UTF-8: bytes
  EXPECT_EQ(printable_text("'a\\nb'", /*escape_backslash=*/false), "'a\\nb'");   // already a repr
  // Nothing below 0x20 and no DEL/C1 byte survives, whatever the input.
  std::string all;
  for (int b = 0; b < 256; ++b) all.push_back(static_cast<char>(b));
  for (int b = 0x80; b < 0xa0; ++b) all += "\xc2" + std::string(1, static_cast<char>(b));
  for (unsigned char c : printable_text(all)) EXPECT_FALSE(c < 0x20 || (c >= 0x7f && c <= 0x9f)) << int(c);
}

// utf8_error: Python's UnicodeDecodeError text for the same bytes.
TEST(PythonFormat, Utf8ErrorsReadAsPythonsCodecWritesThem) {
  EXPECT_EQ(utf8_error("ok \xc3\xa9", false), std::nullopt);
  EXPECT_EQ(*utf8_error("\xff", false), "'utf-8' codec can't decode byte 0xff in position 0: invalid start byte");
  EXPECT_EQ(*utf8_error("ab\xe2\x82", false),
            "'utf-8' codec can't decode bytes in position 2-3: unexpected end of data");
  EXPECT_EQ(*utf8_error("\xe2\x28\xa1", false),
            "'utf-8' codec can't decode byte 0xe2 in position 0: invalid continuation byte");
  EXPECT_EQ(*utf8_error("\xe0\x80\x80", false),  // overlong
            "'utf-8' codec can't decode byte 0xe0 in position 0: invalid continuation byte");
  EXPECT_EQ(utf8_error("\xed\xa0\x80", true), std::nullopt);  // 'surrogatepass'
  EXPECT_NE(utf8_error("\xed\xa0\x80", false), std::nullopt);
  EXPECT_EQ(utf8_error("\xf4\x8f\xbf\xbf", false), std::nullopt);  // U+10FFFF
  EXPECT_NE(utf8_error("\xf4\x90\x80\x80", false), std::nullopt);  // beyond it
}

}  // namespace
}  // namespace torchlet

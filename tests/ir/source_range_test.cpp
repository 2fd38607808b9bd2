// SourceRange: line lookup and torch 1.13's error highlight, captured from torch's
// messages for the same sources (torch.jit.CompilationUnit on the text below).
#include <gtest/gtest.h>

#include "jit/ir/source_range.h"

namespace torchlet::jit {
namespace {

TEST(SourceRange, HighlightsLikeTorch) {
  // torch: "undefined value foo:" + this excerpt.
  std::string text =
      "\ndef f(x: int) -> int:\n    a = 1\n    b = 2\n    c = 3\n    d = foo(x)\n    e = 5\n    g = 6\n"
      "    h = 7\n    return x\n";
  auto src = std::make_shared<Source>(text, "<string>");
  size_t at = text.find("foo");
  SourceRange r(src, at, at + 3);
  EXPECT_EQ(r.text(), "foo");
  EXPECT_EQ(r.str(),
            "  File \"<string>\", line 6\n"
            "    b = 2\n"
            "    c = 3\n"
            "    d = foo(x)\n"
            "        ~~~ <--- HERE\n"
            "    e = 5\n"
            "    g = 6\n");
  auto flc = r.file_line_col();
  ASSERT_TRUE(flc.has_value());
  EXPECT_EQ(std::get<1>(*flc), 6u);
  EXPECT_EQ(std::get<2>(*flc), 8u);
}

TEST(SourceRange, MultiLineRangesUnderlineEachLine) {
  // torch: the call `1 +\n      "a"` spanning two lines.
  std::string text = "\ndef f(x: int) -> int:\n    d = x + (1 +\n      \"a\")\n    return x\n";
  auto src = std::make_shared<Source>(text, "<string>");
  size_t b = text.find("1 +");
  size_t e = text.find("\"a\"") + 3;
  EXPECT_EQ(SourceRange(src, b, e).str(),
            "  File \"<string>\", line 3\n"
            "\n"
            "def f(x: int) -> int:\n"
            "    d = x + (1 +\n"
            "             ~~~\n"
            "      \"a\")\n"
            "      ~~~ <--- HERE\n"
            "    return x\n");
  // No file name: no header, and no file_line_col.
  SourceRange anon(std::make_shared<Source>("x = 1\n"), 4, 5);
  EXPECT_EQ(anon.str(), "x = 1\n    ~ <--- HERE\n");
  EXPECT_FALSE(anon.file_line_col().has_value());
}

}  // namespace
}  // namespace torchlet::jit

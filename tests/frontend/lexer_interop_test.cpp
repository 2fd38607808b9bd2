// The lexer against CPython's tokenize (fixtures from tests/fixtures/gen_frontend.py):
// for every code/ file of the torch.jit.save archives and every hand-written program,
// the token kinds, texts, decoded string values and line:column positions, including
// where NEWLINE, INDENT and DEDENT fall, equal CPython's.
#include <fstream>
#include <sstream>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <torchlet/error.h>

#include "../common/fixtures.h"
#include "jit/frontend/lexer.h"

namespace torchlet::jit {
namespace {

using torchlet::testing::fixture_dir;
using torchlet::testing::fixture_lines;
using torchlet::testing::from_hex;
using torchlet::testing::to_hex;

std::string unhex(const std::string& hex) {
  std::vector<unsigned char> bytes = from_hex(hex);
  return std::string(bytes.begin(), bytes.end());
}

// Our tokens in gen_frontend.py's token_listing format.
std::string listing(const std::string& text) {
  auto source = std::make_shared<const Source>(text);
  std::string out;
  for (const Token& t : tokenize(source)) {
    std::string kind, body;
    switch (token_kind_category(t.kind)) {
      case TokenCategory::Special:
        if (t.kind == TokenKind::TypeComment) continue;  // a comment to CPython
        kind = token_kind_spelling(t.kind);
        break;
      case TokenCategory::Literal:
        if (t.kind == TokenKind::StringLiteral) {
          kind = "STR";
          body = to_hex(t.value.data(), t.value.size());
        } else {
          kind = t.kind == TokenKind::Ident ? "ID" : "NUM";
          body = std::string(t.text());
        }
        break;
      case TokenCategory::Keyword:
        kind = "KW";
        body = std::string(t.text());
        break;
      case TokenCategory::Operator:
        kind = "OP";
        body = std::string(t.text());
        break;
    }
    size_t line = source->line_index(t.range.start());
    out += fmt::format("{} {} {}:{}\n", kind, body, line + 1, t.range.start() - source->line_start(line));
  }
  return out;
}

TEST(LexerInterop, TokensMatchCPythonTokenize) {
  std::vector<std::string> programs = fixture_lines("frontend/programs.txt");
  std::vector<std::string> lines = fixture_lines("frontend/tokens.txt");
  size_t files = 0;
  for (const std::string& line : lines) {
    size_t bar = line.find('|');
    ASSERT_NE(bar, std::string::npos);
    std::string name = line.substr(0, bar);
    std::string text;
    if (name.starts_with("program")) {
      size_t index = std::stoul(name.substr(7));
      ASSERT_LT(index, programs.size());
      text = unhex(programs[index].substr(0, programs[index].find('|')));
    } else {
      std::ifstream in(fixture_dir() / "frontend" / name);
      ASSERT_TRUE(in) << "missing fixture " << name;
      std::stringstream ss;
      ss << in.rdbuf();
      text = ss.str();
    }
    try {
      EXPECT_EQ(listing(text), unhex(line.substr(bar + 1))) << name;
    } catch (const Error& e) {
      ADD_FAILURE() << name << ": " << e.what();
    }
    ++files;
  }
  EXPECT_GE(files, 20u);
}

}  // namespace
}  // namespace torchlet::jit

// The lexer against CPython's tokenize (fixtures from tests/fixtures/gen_frontend.py):
// for every code/ file of the torch.jit.save archives and every hand-written program,
// the token kinds, texts, decoded string values and line:column positions, including
// where NEWLINE, INDENT and DEDENT fall, equal CPython's; and 600 seeded random layouts
// (nested and one-line blocks, stray blank/comment lines, continuations, tabs, CRLF,
// some with one line's indentation nudged) tokenize and parse as CPython does, or are
// refused where CPython refuses them.
#include <fstream>
#include <sstream>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <torchlet/error.h>

#include "../common/fixtures.h"
#include "jit/frontend/lexer.h"
#include "jit/frontend/parser.h"

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
    size_t col = t.range.start() - source->line_start(line);
    // CPython puts ENDMARKER and the closing DEDENTs at the start of a line after the
    // last; ours sit at the end of the text (a range cannot point past it), which is
    // the same place unless the text lacks a final newline.
    bool at_end = t.range.start() == text.size() && (t.kind == TokenKind::Eof || t.kind == TokenKind::Dedent);
    if (at_end && !text.empty() && text.back() != '\n') {
      line += 1;
      col = 0;
    }
    out += fmt::format("{} {} {}:{}\n", kind, body, line + 1, col);
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

TEST(LexerInterop, RandomLayoutsMatchCPython) {
  std::vector<std::string> lines = fixture_lines("frontend/layouts.txt");
  size_t accepted = 0, refused = 0;
  for (const std::string& line : lines) {
    std::vector<std::string> fields = torchlet::testing::split(line, '|');
    ASSERT_GE(fields.size(), 2u) << line;
    std::string src = unhex(fields[0]);
    if (fields[1] == "ERROR") {
      EXPECT_THROW(parse_file(src), CompileError) << src;
      ++refused;
      continue;
    }
    ASSERT_EQ(fields.size(), 3u) << line;
    try {
      ParsedFile parsed = parse_file(src);
      for (const TreeRef& stmt : parsed.statements) lint_tree(*stmt);
      EXPECT_EQ(to_sexpr(parsed), unhex(fields[1])) << src;
      EXPECT_EQ(listing(src), unhex(fields[2])) << src;
      ++accepted;
    } catch (const Error& e) {
      ADD_FAILURE() << src << "\n" << e.what();
    }
  }
  EXPECT_GE(accepted, 300u);
  EXPECT_GE(refused, 50u);
}

}  // namespace
}  // namespace torchlet::jit

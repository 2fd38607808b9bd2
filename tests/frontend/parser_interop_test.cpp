// The parser against real PyTorch and CPython (fixtures from tests/fixtures/gen_frontend.py):
// every code/ file of torch.jit.save archives (scripted control flow, a class, a
// NamedTuple, an Enum, torchvision resnet18 and mobilenet_v2) parses, and its tree equals
// CPython's ast of the same file; hand-written programs and ~1600 expressions (precedence
// cases and seeded random ones, some invalid) parse to CPython's tree or fail where
// CPython fails or where TorchScript lacks the construct.
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include <torchlet/error.h>

#include "../common/fixtures.h"
#include "jit/frontend/parser.h"

namespace torchlet::jit {
namespace {

using torchlet::testing::fixture_dir;
using torchlet::testing::fixture_lines;
using torchlet::testing::from_hex;

std::string unhex(const std::string& hex) {
  std::vector<unsigned char> bytes = from_hex(hex);
  return std::string(bytes.begin(), bytes.end());
}

std::pair<std::string, std::string> split_once(const std::string& line) {
  size_t bar = line.find('|');
  EXPECT_NE(bar, std::string::npos) << line;
  return {line.substr(0, bar), line.substr(bar + 1)};
}

TEST(ParserInterop, EveryArchiveCodeFileParsesLikeCPython) {
  std::vector<std::string> lines = fixture_lines("frontend/code_files.txt");
  size_t models_seen = 0;
  for (const std::string& line : lines) {
    auto [path, expected_hex] = split_once(line);
    std::ifstream in(fixture_dir() / "frontend" / path);
    ASSERT_TRUE(in) << "missing fixture " << path;
    std::stringstream text;
    text << in.rdbuf();
    ParsedFile parsed;
    try {
      parsed = parse_file(text.str(), path);
    } catch (const Error& e) {
      ADD_FAILURE() << path << ": " << e.what();
      continue;
    }
    EXPECT_FALSE(parsed.statements.empty()) << path;
    for (const TreeRef& stmt : parsed.statements) EXPECT_NO_THROW(lint_tree(*stmt)) << path;
    EXPECT_EQ(to_sexpr(parsed), unhex(expected_hex)) << path;
    if (path.find("/__torch__/torchvision/models/") != std::string::npos) ++models_seen;
  }
  EXPECT_GE(lines.size(), 20u);
  EXPECT_GE(models_seen, 2u);  // resnet18's and mobilenet_v2's own classes were among them
}

TEST(ParserInterop, ProgramsParseLikeCPython) {
  std::vector<std::string> lines = fixture_lines("frontend/programs.txt");
  EXPECT_GE(lines.size(), 6u);
  for (const std::string& line : lines) {
    auto [src_hex, expected_hex] = split_once(line);
    std::string src = unhex(src_hex);
    try {
      ParsedFile parsed = parse_file(src);
      for (const TreeRef& stmt : parsed.statements) EXPECT_NO_THROW(lint_tree(*stmt)) << src;
      EXPECT_EQ(to_sexpr(parsed), unhex(expected_hex)) << src;
    } catch (const Error& e) {
      ADD_FAILURE() << src << "\n" << e.what();
    }
  }
}

TEST(ParserInterop, ExpressionsParseLikeCPython) {
  std::vector<std::string> lines = fixture_lines("frontend/exprs.txt");
  size_t accepted = 0, rejected = 0;
  for (const std::string& line : lines) {
    auto [src_hex, expected] = split_once(line);
    std::string src = unhex(src_hex);
    if (expected == "ERROR" || expected == "REFUSED") {
      EXPECT_THROW(parse_expression(src), CompileError) << src << " (CPython: " << expected << ")";
      ++rejected;
      continue;
    }
    try {
      TreeRef parsed = parse_expression(src);
      EXPECT_NO_THROW(lint_tree(*parsed)) << src;
      EXPECT_EQ(to_sexpr(*parsed), expected) << src;
      ++accepted;
    } catch (const Error& e) {
      ADD_FAILURE() << src << "\n" << e.what();
    }
  }
  EXPECT_GE(accepted, 1000u);
  EXPECT_GE(rejected, 100u);
}

}  // namespace
}  // namespace torchlet::jit

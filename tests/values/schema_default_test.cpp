// Schema defaults as values: every default torch 1.13's registry declares converts to
// the value torch's Argument.default_value holds (compared through Python's repr),
// plus the enum spellings registration strings use.
#include <gtest/gtest.h>
#include <torchlet/error.h>

#include "../common/fixtures.h"
#include "values/function_schema.h"

namespace torchlet::jit {
namespace {

TEST(SchemaDefault, EveryTorchDefaultMatches) {
  auto lines = testing::fixture_lines("ir/schema_defaults.txt");
  EXPECT_GT(lines.size(), 2000u);
  for (const auto& line : lines) {
    size_t b = line.rfind('|'), a = line.rfind('|', b - 1);
    FunctionSchema s = parse_schema(line.substr(0, a));
    size_t index = std::stoul(line.substr(a + 1, b - a - 1));
    ASSERT_LT(index, s.arguments.size()) << line;
    std::optional<IValue> v;
    try {
      v = default_value(s.arguments[index]);
    } catch (const Error& e) {
      ADD_FAILURE() << line << ": " << e.what();
      continue;
    }
    ASSERT_TRUE(v.has_value()) << line;
    EXPECT_EQ(v->repr(), line.substr(b + 1)) << line;
  }
}

TEST(SchemaDefault, RegistrationSpellings) {
  auto arg = [](const std::string& decl) {
    return parse_schema("x::f(" + decl + ") -> ()").arguments.at(0);
  };
  EXPECT_EQ(default_value(arg("int reduction=Mean"))->toInt(), 1);
  EXPECT_EQ(default_value(arg("MemoryFormat? memory_format=contiguous_format"))->toInt(), 0);
  EXPECT_EQ(default_value(arg("MemoryFormat memory_format=channels_last"))->toInt(), 2);
  EXPECT_EQ(default_value(arg("Layout layout=strided"))->toInt(), 0);
  EXPECT_EQ(default_value(arg("ScalarType dtype=long"))->toInt(), 4);
  EXPECT_EQ(default_value(arg("float eps=1"))->toDouble(), 1.0);
  EXPECT_TRUE(default_value(arg("Scalar alpha=1"))->isInt());
  EXPECT_EQ(default_value(arg("int[2] stride=1"))->repr(), "[1, 1]");
  EXPECT_EQ(default_value(arg("int[]? size=None"))->isNone(), true);
  EXPECT_EQ(default_value(arg("str mode='reflect'"))->toStringRef(), "reflect");
  EXPECT_EQ(default_value(arg("Device device=\"cpu\""))->toDevice().str(), "cpu");
  EXPECT_FALSE(default_value(arg("Tensor self")).has_value());
  EXPECT_THROW(default_value(arg("int x=1.5")), CompileError);
  EXPECT_THROW(default_value(arg("bool x=1")), CompileError);
  EXPECT_THROW(default_value(arg("int x=Bogus")), CompileError);
}

}  // namespace
}  // namespace torchlet::jit

// The schema parser: every schema real PyTorch registers parses and prints back
// identically; the parsed structure is right on representative cases; bad text is
// refused with the column.
#include <gtest/gtest.h>
#include <torchlet/error.h>

#include "../common/fixtures.h"
#include "values/function_schema.h"

namespace torchlet::jit {
namespace {

TEST(FunctionSchema, EveryTorchSchemaRoundTrips) {
  auto lines = testing::fixture_lines("ir/schemas.txt");
  size_t ok = 0;
  for (const auto& line : lines) {
    try {
      FunctionSchema s = parse_schema(line);
      EXPECT_EQ(s.str(), line);
      if (s.str() == line) ++ok;
    } catch (const Error& e) {
      ADD_FAILURE() << line << "\n" << e.what();
    }
  }
  EXPECT_GT(lines.size(), 4000u);
  EXPECT_EQ(ok, lines.size());
}

TEST(FunctionSchema, ParsesStructure) {
  FunctionSchema s = parse_schema("aten::add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)");
  EXPECT_EQ(s.name, "aten::add");
  EXPECT_EQ(s.overload, "out");
  ASSERT_EQ(s.arguments.size(), 4u);
  EXPECT_FALSE(s.arguments[1].kwarg_only);
  EXPECT_TRUE(s.arguments[2].kwarg_only);
  EXPECT_EQ(s.arguments[2].default_text.value_or(""), "1");
  ASSERT_TRUE(s.arguments[3].type->alias.has_value());
  EXPECT_TRUE(s.arguments[3].type->alias->is_write);
  EXPECT_EQ(s.arguments[3].type->alias->before, std::vector<std::string>{"a"});
  ASSERT_EQ(s.returns.size(), 1u);

  FunctionSchema l = parse_schema("aten::index.Tensor(Tensor self, Tensor?[] indices) -> Tensor");
  const auto& t = *l.arguments[1].type;
  ASSERT_EQ(t.kind, SchemaType::Kind::List);
  EXPECT_EQ(t.contained[0]->kind, SchemaType::Kind::Optional);

  FunctionSchema d = parse_schema("aten::max_pool2d(Tensor self, int[2] kernel_size, int[2] stride=[], bool ceil_mode=False) -> Tensor");
  EXPECT_EQ(d.arguments[1].type->fixed_size.value_or(-1), 2);
  EXPECT_EQ(d.arguments[2].default_text.value_or(""), "[]");

  FunctionSchema r = parse_schema("aten::split(str self, str? separator=None, int max=-1) -> str[]");
  EXPECT_EQ(r.arguments[1].default_text.value_or(""), "None");

  FunctionSchema v = parse_schema("prim::TupleConstruct(...) -> ...");
  EXPECT_TRUE(v.is_vararg);
  EXPECT_TRUE(v.is_varret);

  FunctionSchema m = parse_schema("aten::sort(Tensor self, int dim=-1, bool descending=False) -> (Tensor values, Tensor indices)");
  ASSERT_EQ(m.returns.size(), 2u);
  EXPECT_EQ(m.returns[1].name, "indices");

  FunctionSchema dict = parse_schema("aten::keys.str(Dict(str, t) self) -> str[](*)");
  EXPECT_EQ(dict.arguments[0].type->kind, SchemaType::Kind::Dict);
}

TEST(FunctionSchema, BadTextIsRefusedWithTheColumn) {
  for (const char* bad : {"aten::f(Tensor x", "aten::f(Tensor x) ->", "aten::f(Tensor(a x) -> Tensor",
                          "aten::f(int x=) -> int", "(Tensor x) -> Tensor", "aten::f(int x) -> int junk more", "aten::f(int[x] y) -> int"}) {
    try {
      parse_schema(bad);
      ADD_FAILURE() << "accepted: " << bad;
    } catch (const CompileError& e) {
      EXPECT_NE(std::string(e.what()).find("column"), std::string::npos) << e.what();
    }
  }
}

}  // namespace
}  // namespace torchlet::jit

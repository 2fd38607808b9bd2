// The type system against torch 1.13: the Type every schema argument denotes prints as
// torch prints it, subtyping agrees with Type.isSubtypeOf on every pair of the types
// schemas use, and annotations parse and print back.
#include <map>

#include <gtest/gtest.h>
#include <torchlet/error.h>

#include "../common/fixtures.h"
#include "jit/ir/function_schema.h"
#include "jit/ir/type.h"

namespace torchlet::jit {
namespace {

std::vector<SchemaArgument> all_args(const FunctionSchema& s) {
  std::vector<SchemaArgument> v = s.arguments;
  v.insert(v.end(), s.returns.begin(), s.returns.end());
  return v;
}

TEST(Type, SchemaTypesPrintLikeTorch) {
  auto lines = testing::fixture_lines("ir/schema_types.txt");
  size_t checked = 0;
  for (const auto& line : lines) {
    size_t b = line.rfind('|'), a = line.rfind('|', b - 1);
    FunctionSchema s = parse_schema(line.substr(0, a));
    size_t index = std::stoul(line.substr(a + 1, b - a - 1));
    auto args = all_args(s);
    ASSERT_LT(index, args.size()) << line;
    EXPECT_EQ(type_from_schema(*args[index].type)->str(), line.substr(b + 1)) << line;
    ++checked;
  }
  EXPECT_GT(checked, 10000u);
}

TEST(Type, SubtypingMatchesTorchOnEveryPair) {
  auto lines = testing::fixture_lines("ir/subtypes.txt");
  std::map<std::string, TypePtr> parsed;
  auto get = [&](const std::string& text) {
    auto it = parsed.find(text);
    if (it == parsed.end()) it = parsed.emplace(text, parse_type_annotation(text, /*allow_type_variables=*/true)).first;
    EXPECT_EQ(it->second->str(), text);
    return it->second;
  };
  for (const auto& line : lines) {
    auto f = testing::split(line, '|');
    ASSERT_EQ(f.size(), 3u) << line;
    TypePtr a = get(f[0]), b = get(f[1]);
    EXPECT_EQ(a->is_subtype_of(*b), f[2] == "1") << f[0] << " <= " << f[1];
  }
  EXPECT_GT(parsed.size(), 80u);
}

TEST(Type, AnnotationsParseAndPrint) {
  EXPECT_EQ(parse_type_annotation("Dict[str, List[Tuple[int, Tensor]]]")->str(),
            "Dict[str, List[Tuple[int, Tensor]]]");
  EXPECT_EQ(parse_type_annotation("Optional[ Tensor ]")->str(), "Optional[Tensor]");
  EXPECT_EQ(parse_type_annotation("None")->str(), "NoneType");
  EXPECT_EQ(parse_type_annotation("__torch__.foo.Bar")->str(), "__torch__.foo.Bar");
  EXPECT_FALSE(parse_type_annotation("int")->is_subtype_of(*parse_type_annotation("float")));
  EXPECT_FALSE(parse_type_annotation("List[int]")->is_subtype_of(*parse_type_annotation("List[number]")));
  EXPECT_TRUE(parse_type_annotation("Tuple[int, None]")
                  ->is_subtype_of(*parse_type_annotation("Tuple[number, Optional[int]]")));
  EXPECT_TRUE(parse_type_annotation("int")->is_subtype_of(*parse_type_annotation("Union[str, int]")));
  EXPECT_THROW(parse_type_annotation("List[t]"), CompileError);  // variables only in schemas
  for (const char* bad : {"List[int", "Dict[int]", "Frob", "List[int]]", ""}) {
    EXPECT_THROW(parse_type_annotation(bad), CompileError) << bad;
  }
}

}  // namespace
}  // namespace torchlet::jit

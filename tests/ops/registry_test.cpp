// The operator table (STYLE #8): every schema registered in src/jit/ops parses, is
// registered once, prints back exactly as written, and exists in torch 1.13's own
// registry (so no schema is invented or misspelt), and every operator has a function.
#include <set>
#include <string>
#include <unordered_set>

#include <gtest/gtest.h>

#include "../common/fixtures.h"
#include "jit/ops/ops_util.h"
#include "jit/runtime/operator.h"

namespace torchlet {
namespace {

using jit::OperatorRegistry;

TEST(OpsRegistry, EverySchemaPrintsBackAsRegistered) {
  const auto& texts = jit::ops::registered_schema_texts();
  ASSERT_GT(texts.size(), 500u);
  for (const std::string& text : texts) {
    jit::FunctionSchema schema = jit::parse_schema(text);
    EXPECT_EQ(schema.str(), text);
  }
}

TEST(OpsRegistry, NamesAreUniqueAndFindable) {
  std::set<std::string> keys;
  for (const jit::Operator* op : OperatorRegistry::global().all()) {
    EXPECT_TRUE(keys.insert(op->qualified_overload()).second) << op->qualified_overload();
    EXPECT_EQ(OperatorRegistry::global().find(op->qualified_overload()), op);
    EXPECT_NE(op->operation(), nullptr) << op->qualified_overload();
  }
  // Everything src/jit/ops registered is in the registry (others may register more).
  for (const std::string& text : jit::ops::registered_schema_texts()) {
    jit::FunctionSchema s = jit::parse_schema(text);
    std::string key = s.overload.empty() ? s.name : s.name + "." + s.overload;
    EXPECT_TRUE(keys.count(key)) << key;
  }
}

TEST(OpsRegistry, EverySchemaExistsInTorch) {
  auto lines = testing::fixture_lines("ir/schemas.txt");
  ASSERT_GT(lines.size(), 4000u);
  std::unordered_set<std::string> torch(lines.begin(), lines.end());
  size_t missing = 0;
  for (const std::string& text : jit::ops::registered_schema_texts()) {
    if (!torch.count(text)) {
      ++missing;
      ADD_FAILURE() << "not a torch 1.13 schema: " << text;
    }
  }
  EXPECT_EQ(missing, 0u);
}

// The interpreter's own node kinds are not operators (the brief's list).
TEST(OpsRegistry, InterpreterNodeKindsAreNotRegistered) {
  for (const char* name : {"prim::Constant", "prim::If", "prim::Loop", "prim::TupleConstruct", "prim::TupleUnpack",
                           "prim::ListConstruct", "prim::ListUnpack", "prim::DictConstruct", "prim::GetAttr",
                           "prim::SetAttr", "prim::CallFunction", "prim::CallMethod", "prim::CreateObject",
                           "prim::isinstance", "prim::unchecked_cast", "prim::Uninitialized",
                           "prim::RaiseException", "prim::fork", "aten::wait"}) {
    for (const std::string& text : jit::ops::registered_schema_texts()) {
      EXPECT_NE(text.rfind(std::string(name) + "(", 0), 0u) << text;
      EXPECT_NE(text.rfind(std::string(name) + ".", 0), 0u) << text;
    }
  }
}

}  // namespace
}  // namespace torchlet

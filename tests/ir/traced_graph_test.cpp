// Traced graphs (torch.jit.trace) print complete tensor types on every value:
// Float(2, 3, strides=[3, 1], requires_grad=0, device=cpu). They parse, print back
// byte for byte, and (for a traced function) run to torch's result.
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>
#include <torchlet/checkpoint.h>

#include "../common/fixtures.h"
#include "jit/ir/ir_parser.h"
#include "jit/runtime/compilation_unit.h"

namespace torchlet::jit {
namespace {

std::string read_traced(const std::string& name) {
  std::ifstream in(torchlet::testing::fixture_dir() / "traced" / name);
  EXPECT_TRUE(in) << "missing fixture traced/" << name;
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(TracedGraphs, CompleteTensorTypesRoundTrip) {
  for (const char* name : {"fn.txt", "resnet18.txt"}) {
    const std::string text = read_traced(name);
    ASSERT_NE(text.find("strides=["), std::string::npos) << name;
    GraphPtr g = parse_ir(text);
    g->lint();
    EXPECT_EQ(g->str(), text) << name;
    const Type& t = *g->inputs().back()->type();
    EXPECT_EQ(t.kind(), TypeKind::Tensor);
    EXPECT_TRUE(t.is_subtype_of(*Type::tensor()));
    EXPECT_FALSE(Type::tensor()->is_subtype_of(t)) << "a plain Tensor is not known to be a Float(2, 3)";
  }
}

TEST(TracedGraphs, TracedFunctionRunsLikeTorch) {
  CompilationUnit cu;
  auto* fn = cu.create_function("fn", parse_ir(read_traced("fn.txt")));
  IValue data = torchlet::load((torchlet::testing::fixture_dir() / "traced" / "fn.pt").string());
  const auto& inputs = data.dictRef().find(IValue("inputs"))->tupleRef().elements;
  Tensor want = data.dictRef().find(IValue("output"))->toTensor();
  Tensor got = (*fn)(inputs).toTensor();
  ASSERT_EQ(shape_repr(got.sizes()), shape_repr(want.sizes()));
  for (int64_t i = 0; i < want.numel(); ++i) EXPECT_NEAR(got.at({i}).to_double(), want.at({i}).to_double(), 1e-5);
}

}  // namespace
}  // namespace torchlet::jit

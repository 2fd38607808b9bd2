// Tuple lowering beyond what torch's own shows (tests/interop/test_graph_passes.py
// compares the graphs with torch's): tuple constants, which torch's IR parser cannot
// read, and the tuples no lowering can remove, refused by name.
#include <gtest/gtest.h>
#include <torchlet/error.h>

#include "jit/ir/ir_parser.h"
#include "jit/passes/lower_tuples.h"

namespace torchlet::jit {
namespace {

TEST(LowerTuples, NestedTupleConstantsBecomeTheirElements) {
  GraphPtr g = parse_ir(
      "graph():\n"
      "  %k : (int, (float, str)) = prim::Constant[value=(1, (2., \"a\"))]()\n"
      "  return (%k)\n");
  EXPECT_TRUE(lower_all_tuples(*g));
  g->lint();
  const std::string text = g->str(false);
  EXPECT_EQ(text.find("prim::Tuple"), std::string::npos) << text;
  EXPECT_NE(text.find("value=1]"), std::string::npos) << text;
  EXPECT_NE(text.find("value=2.]"), std::string::npos) << text;
  EXPECT_NE(text.find("value=\"a\"]"), std::string::npos) << text;
  EXPECT_EQ(g->outputs().size(), 3u);
}

TEST(LowerTuples, TuplesThatCannotBeLoweredAreRefusedByName) {
  const std::pair<const char*, const char*> cases[] = {
      {"graph(%p : (int, int), %i : int):\n"
       "  %tp : (int, int) = prim::TupleConstruct(%i, %i)\n"
       "  %e : int = prim::TupleIndex(%tp, %i)\n"
       "  return (%e)\n",
       "a tuple index known only at run time (prim::TupleIndex)"},
      {"graph(%l : (int, int)[]):\n"
       "  %t : (int, int) = prim::ListUnpack(%l)\n"
       "  %a : int, %b : int = prim::TupleUnpack(%t)\n"
       "  return (%a)\n",
       "a tuple that no TupleConstruct in the graph built (prim::TupleUnpack)"},
  };
  for (const auto& [ir, message] : cases) {
    GraphPtr g = parse_ir(ir);
    try {
      lower_all_tuples(*g);
      ADD_FAILURE() << ir << "lowered";
    } catch (const ValueError& e) {
      EXPECT_NE(std::string(e.what()).find(message), std::string::npos) << e.what();
    }
  }
}

}  // namespace
}  // namespace torchlet::jit

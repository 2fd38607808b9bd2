// Loop unrolling beyond what torch's own shows (tests/interop/test_graph_passes.py
// compares the graphs with torch's): loops torch would get wrong, and effects kept in
// order.
#include <gtest/gtest.h>

#include "jit/ir/ir_parser.h"
#include "jit/passes/loop_unrolling.h"

namespace torchlet::jit {
namespace {

size_t count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

TEST(LoopUnrolling, NegativeConstantTripCountRunsNoIteration) {
  // torch repeats the body (size_t)-2 times: it never finishes.
  GraphPtr g = parse_ir(
      "graph(%x : Tensor):\n"
      "  %t : bool = prim::Constant[value=1]()\n"
      "  %m : int = prim::Constant[value=-2]()\n"
      "  %a : Tensor = prim::Loop(%m, %t, %x)\n"
      "    block0(%i : int, %p : Tensor):\n"
      "      %q : Tensor = aten::neg(%p)\n"
      "      -> (%t, %q)\n"
      "  return (%a)\n");
  EXPECT_TRUE(unroll_constant_loops(*g));
  g->lint();
  EXPECT_EQ(g->str(false), "graph(%x : Tensor):\n  return (%x)\n");
}

TEST(LoopUnrolling, EffectsRepeatInOrderAndWhileLoopsStay) {
  GraphPtr g = parse_ir(
      "graph(%n : int, %c : bool):\n"
      "  %t : bool = prim::Constant[value=1]()\n"
      "  %three : int = prim::Constant[value=3]()\n"
      "  prim::Loop(%three, %t)\n"
      "    block0(%i : int):\n"
      "      prim::Print(%i)\n"
      "      -> (%t)\n"
      "  prim::Loop(%n, %c)\n"
      "    block0(%j : int):\n"
      "      prim::Print(%j)\n"
      "      -> (%c)\n"
      "  return ()\n");
  EXPECT_TRUE(unroll_loops(*g));
  g->lint();
  const std::string text = g->str(false);
  // Three prints of a counter carried from 0 by +1 (the last increment is dead), then
  // the while loop's own.
  EXPECT_EQ(count(text, "prim::Print"), 4u) << text;
  EXPECT_EQ(count(text, "aten::add"), 2u) << text;
  const std::string before_first_add = text.substr(0, text.find("aten::add"));
  EXPECT_NE(before_first_add.find("value=0]"), std::string::npos) << text;
  EXPECT_NE(before_first_add.find("prim::Print"), std::string::npos) << "the first print shows the counter's 0";
  EXPECT_EQ(count(text, "prim::Loop"), 1u) << text;
}

TEST(LoopUnrolling, NestedConstantLoopsStopGrowingAtABudget) {
  // Four nested loops of 63 trips: unrolled as torch would, 15 million copies of the
  // body. The innermost loops unroll until the copies would pass the budget.
  std::string ir = "graph(%x : Tensor):\n  %t : bool = prim::Constant[value=1]()\n"
                   "  %n : int = prim::Constant[value=63]()\n";
  std::string close;
  std::string indent = "  ";
  std::string carried = "%x";
  for (int level = 0; level < 4; ++level) {
    const std::string v = "%l" + std::to_string(level);
    ir += indent + v + " : Tensor = prim::Loop(%n, %t, " + carried + ")\n" + indent + "  block0(%i" +
          std::to_string(level) + " : int, %p" + std::to_string(level) + " : Tensor):\n";
    carried = "%p" + std::to_string(level);
    indent += "    ";
  }
  ir += indent + "%y : Tensor = aten::neg(" + carried + ")\n";
  std::string result = "%y";
  for (int level = 3; level >= 0; --level) {
    ir += indent + "-> (%t, " + result + ")\n";
    indent.resize(indent.size() - 4);
    result = "%l" + std::to_string(level);
  }
  ir += "  return (%l0)\n";
  GraphPtr g = parse_ir(ir);
  EXPECT_TRUE(unroll_constant_loops(*g));
  g->lint();
  const std::string text = g->str(false);
  EXPECT_LT(count(text, "aten::neg"), size_t{1} << 17) << "copies past the budget";
  EXPECT_GE(count(text, "aten::neg"), 63u * 63u) << "the two inner levels unroll";
  EXPECT_GE(count(text, "prim::Loop"), 1u);
}

}  // namespace
}  // namespace torchlet::jit

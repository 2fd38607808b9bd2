// Constant propagation and unused-tuple removal as passes over IR text: parse_ir, the
// pass, the printed graph. The graphs here are parsed, so no node has its operator
// bound yet; the pass finds each by its inputs' types, as the interpreter does.
#include <gtest/gtest.h>

#include "jit/ir/ir_parser.h"
#include "jit/passes/constant_propagation.h"

namespace torchlet::jit {
namespace {

std::string after_propagation(const std::string& text, bool* changed = nullptr) {
  GraphPtr g = parse_ir(text);
  const bool c = propagate_constants(*g);
  if (changed) *changed = c;
  g->lint();
  return g->str(false);
}

TEST(ConstantPropagation, FoldsArithmeticAndStringsIntoConstants) {
  bool changed = false;
  const std::string out = after_propagation(
      "graph(%n : int):\n"
      "  %1 : int = prim::Constant[value=1]()\n"
      "  %2 : int = prim::Constant[value=2]()\n"
      "  %s : str = prim::Constant[value=\"abc\"]()\n"
      "  %a : int = aten::add(%1, %2)\n"
      "  %l : int = aten::len(%s)\n"
      "  %m : int = aten::mul(%a, %l)\n"
      "  %r : int = aten::add(%m, %n)\n"
      "  return (%r)\n",
      &changed);
  EXPECT_TRUE(changed);
  // 1 + 2 = 3, len("abc") = 3, 3 * 3 = 9, each folded where its node was; the add of
  // the input %n stays. Constants left unused stay too: removing them is dead code
  // elimination's work, which torch's ConstantPropagation also runs (issue #36).
  EXPECT_EQ(out,
            "graph(%n : int):\n"
            "  %1 : int = prim::Constant[value=1]()\n"
            "  %2 : int = prim::Constant[value=2]()\n"
            "  %s : str = prim::Constant[value=\"abc\"]()\n"
            "  %11 : int = prim::Constant[value=3]()\n"
            "  %12 : int = prim::Constant[value=3]()\n"
            "  %13 : int = prim::Constant[value=9]()\n"
            "  %r : int = aten::add(%13, %n)\n"
            "  return (%r)\n");
}

TEST(ConstantPropagation, FoldsTuplesOfImmutableValues) {
  const std::string out = after_propagation(
      "graph():\n"
      "  %1 : int = prim::Constant[value=1]()\n"
      "  %f : float = prim::Constant[value=2.5]()\n"
      "  %t : (int, float) = prim::TupleConstruct(%1, %f)\n"
      "  %x : float = prim::TupleIndex(%t, %1)\n"
      "  %a : int, %b : float = prim::TupleUnpack(%t)\n"
      "  %r : (float, int) = prim::TupleConstruct(%x, %a)\n"
      "  return (%r)\n");
  EXPECT_NE(out.find("prim::Constant[value=(2.5, 1)]()"), std::string::npos) << out;
  EXPECT_EQ(out.find("prim::TupleIndex"), std::string::npos) << out;
  EXPECT_EQ(out.find("prim::TupleUnpack"), std::string::npos) << out;
}

TEST(ConstantPropagation, LeavesWhatMustRunWithTheProgram) {
  const std::string text =
      "graph(%x : Tensor):\n"
      "  %0 : int = prim::Constant[value=0]()\n"
      "  %1 : int = prim::Constant[value=1]()\n"
      // raises ZeroDivisionError: left so the program raises it when it runs
      "  %q : int = aten::floordiv(%1, %0)\n"
      // a list is mutable: a constant would be shared by every run
      "  %l : int[] = prim::ListConstruct(%0, %1)\n"
      // no inputs: reads the runtime's state
      "  %g : bool = aten::is_grad_enabled()\n"
      // a tensor input is not an immutable constant
      "  %y : Tensor = aten::add(%x, %1, %1)\n"
      "  %r : (int, int[], bool, Tensor) = prim::TupleConstruct(%q, %l, %g, %y)\n"
      "  return (%r)\n";
  bool changed = true;
  EXPECT_EQ(after_propagation(text, &changed), parse_ir(text)->str(false));
  EXPECT_FALSE(changed);
}

TEST(ConstantPropagation, FoldsInsideBlocks) {
  const std::string out = after_propagation(
      "graph(%c : bool):\n"
      "  %2 : int = prim::Constant[value=2]()\n"
      "  %r : int = prim::If(%c)\n"
      "    block0():\n"
      "      %4 : int = aten::mul(%2, %2)\n"
      "      -> (%4)\n"
      "    block1():\n"
      "      %5 : int = aten::neg(%2)\n"
      "      -> (%5)\n"
      "  return (%r)\n");
  EXPECT_NE(out.find("prim::Constant[value=4]()"), std::string::npos) << out;
  EXPECT_NE(out.find("prim::Constant[value=-2]()"), std::string::npos) << out;
  EXPECT_EQ(out.find("aten::mul"), std::string::npos) << out;
  EXPECT_EQ(out.find("aten::neg"), std::string::npos) << out;
  // The If itself has a block: it is not folded, even with a constant result.
  EXPECT_NE(out.find("prim::If"), std::string::npos) << out;
}

TEST(ConstantPropagation, LeavesStringsAnIntWouldMakeHuge) {
  // Folding runs while an archive loads: "a".ljust(2**33) would be built from a few
  // bytes of a file. It is left to the program.
  const std::string text =
      "graph():\n"
      "  %s : str = prim::Constant[value=\"a\"]()\n"
      "  %n : int = prim::Constant[value=8589934592]()\n"
      "  %c : str = prim::Constant[value=\" \"]()\n"
      "  %r : str = aten::ljust(%s, %n, %c)\n"
      "  return (%r)\n";
  EXPECT_EQ(after_propagation(text), parse_ir(text)->str(false));
}

TEST(RemoveUnusedTuples, DropsTuplesNothingReads) {
  GraphPtr g = parse_ir(
      "graph(%x : Tensor, %y : Tensor):\n"
      "  %t : (Tensor, Tensor) = prim::TupleConstruct(%x, %y)\n"
      "  %u : (Tensor, Tensor) = prim::TupleConstruct(%y, %x)\n"
      "  return (%u)\n");
  EXPECT_TRUE(remove_unused_tuples(*g));
  EXPECT_EQ(g->str(false),
            "graph(%x : Tensor,\n"
            "      %y : Tensor):\n"
            "  %u : (Tensor, Tensor) = prim::TupleConstruct(%y, %x)\n"
            "  return (%u)\n");
  EXPECT_FALSE(remove_unused_tuples(*g));
}

}  // namespace
}  // namespace torchlet::jit

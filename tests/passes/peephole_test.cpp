// The peephole pass beyond what torch's own shows (tests/interop/test_graph_passes.py
// compares it with torch rule by rule): what it must not rewrite because the program
// would then compute something else, constants merged without overflow, and the shape
// rules switched off.
#include <cstdint>

#include <gtest/gtest.h>

#include "jit/ir/ir_parser.h"
#include "jit/passes/peephole.h"

namespace torchlet::jit {
namespace {

std::string after(const std::string& ir, bool shape_peepholes = true) {
  GraphPtr g = parse_ir(ir);
  peephole(*g, shape_peepholes);
  g->lint();
  return g->str(false);
}

TEST(Peephole, IntConstantsMergeWrappingAs64BitInts) {
  EXPECT_EQ(after("graph(%x : int):\n"
                  "  %big : int = prim::Constant[value=9223372036854775807]()\n"
                  "  %one : int = prim::Constant[value=1]()\n"
                  "  %a : int = aten::add(%x, %big)\n"
                  "  %b : int = aten::add(%a, %one)\n"
                  "  return (%b)\n"),
            "graph(%x : int):\n"
            "  %5 : int = prim::Constant[value=-9223372036854775808]()\n"
            "  %b : int = aten::add(%x, %5)\n"
            "  return (%b)\n");
}

TEST(Peephole, KeepsWhatWouldChangeTheProgram) {
  // int / 1 is a float; an Any may hold None; a float added to a tensor of unknown
  // dtype may promote it; a conv's rank is not answered past a write to its result.
  const std::string ir =
      "graph(%n : int, %a : Any, %x : Tensor, %w : Tensor):\n"
      "  %none : NoneType = prim::Constant()\n"
      "  %one : int = prim::Constant[value=1]()\n"
      "  %zero : float = prim::Constant[value=0.]()\n"
      "  %q : float = aten::div(%n, %one)\n"
      "  %b : bool = aten::__is__(%a, %none)\n"
      "  %y : Tensor = aten::add(%x, %zero, %one)\n"
      "  %c : Tensor = aten::conv1d(%x, %w, %none, %one, %one, %one, %one)\n"
      "  %r : Tensor = aten::unsqueeze_(%c, %one)\n"
      "  %d : int = aten::dim(%c)\n"
      "  %t : (float, bool, Tensor, int) = prim::TupleConstruct(%q, %b, %y, %d)\n"
      "  return (%t)\n";
  EXPECT_EQ(after(ir), parse_ir(ir)->str(false));
}

TEST(Peephole, ShapeRulesNeedRefinedTypesAndCanBeSwitchedOff) {
  const std::string ir =
      "graph(%x : Float(2, 3), %y : Tensor):\n"
      "  %d : int = aten::dim(%x)\n"
      "  %e : int = aten::dim(%y)\n"
      "  %t : (int, int) = prim::TupleConstruct(%d, %e)\n"
      "  return (%t)\n";
  EXPECT_EQ(after(ir),
            "graph(%x : Float(2, 3),\n"
            "      %y : Tensor):\n"
            "  %5 : int = prim::Constant[value=2]()\n"
            "  %e : int = aten::dim(%y)\n"
            "  %t : (int, int) = prim::TupleConstruct(%5, %e)\n"
            "  return (%t)\n");
  EXPECT_EQ(after(ir, /*shape_peepholes=*/false), parse_ir(ir)->str(false));
}

}  // namespace
}  // namespace torchlet::jit

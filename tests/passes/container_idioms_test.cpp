// The list and dict rules of the peephole pass: what they fold, and what they must leave
// to the program (written containers, lists from outside, out-of-range indices and
// missing keys, slices with unknown bounds, repeated or non-constant keys).
#include <gtest/gtest.h>

#include "jit/ir/ir_parser.h"
#include "jit/passes/container_idioms.h"
#include "jit/passes/dead_code_elimination.h"

namespace torchlet::jit {
namespace {

std::string after(const std::string& ir) {
  GraphPtr g = parse_ir(ir);
  fold_list_idioms(*g);
  eliminate_dead_code(*g, DeadCodeWrites::KeepAll);
  g->lint();
  return g->str(false);
}

TEST(ListIdioms, AnswersFromTheConstruct) {
  EXPECT_EQ(after("graph(%n : int):\n"
                  "  %0 : int = prim::Constant[value=0]()\n"
                  "  %m1 : int = prim::Constant[value=-1]()\n"
                  "  %a : int[] = prim::ListConstruct(%n, %0)\n"
                  "  %b : int[] = aten::add(%a, %a)\n"
                  "  %l : int = aten::len(%b)\n"
                  "  %g : int = aten::__getitem__(%a, %m1)\n"
                  "  %t : (int, int) = prim::TupleConstruct(%l, %g)\n"
                  "  return (%t)\n"),
            "graph(%n : int):\n"
            "  %0 : int = prim::Constant[value=0]()\n"
            "  %10 : int = prim::Constant[value=4]()\n"
            "  %t : (int, int) = prim::TupleConstruct(%10, %0)\n"
            "  return (%t)\n");
}

TEST(ListIdioms, SlicesWithConstantBoundsOnly) {
  // Python's semantics: [n, 1, z][-1::-2] is [z, n]. A bound only known at run time
  // keeps the slice (as torch's rule does).
  const std::string got = after(
      "graph(%n : int, %z : int, %i : int):\n"
      "  %none : NoneType = prim::Constant()\n"
      "  %m1 : int = prim::Constant[value=-1]()\n"
      "  %m2 : int = prim::Constant[value=-2]()\n"
      "  %one : int = prim::Constant[value=1]()\n"
      "  %a : int[] = prim::ListConstruct(%n, %one, %z)\n"
      "  %s : int[] = aten::slice(%a, %m1, %none, %m2)\n"
      "  %u : int[] = aten::slice(%a, %i, %none, %one)\n"
      "  %t : (int[], int[]) = prim::TupleConstruct(%s, %u)\n"
      "  return (%t)\n");
  EXPECT_NE(got.find("prim::ListConstruct(%z, %n)"), std::string::npos) << got;
  EXPECT_NE(got.find("aten::slice(%a, %i, %none, %one)"), std::string::npos) << got;
}

TEST(ListIdioms, LeavesWrittenAndOutsideListsAndErrorsAlone) {
  const std::string ir =
      "graph(%n : int, %li : int[]):\n"
      "  %0 : int = prim::Constant[value=0]()\n"
      "  %5 : int = prim::Constant[value=5]()\n"
      "  %w : int[] = prim::ListConstruct(%n)\n"
      "  %w2 : int[] = aten::append(%w, %5)\n"
      "  %wl : int = aten::len(%w)\n"
      "  %ll : int = aten::len(%li)\n"
      "  %a : int[] = prim::ListConstruct(%n)\n"
      "  %out : int = aten::__getitem__(%a, %5)\n"
      "  %p : int, %q : int = prim::ListUnpack(%a)\n"
      "  %t : (int, int, int, int, int) = prim::TupleConstruct(%wl, %ll, %out, %p, %q)\n"
      "  return (%t)\n";
  GraphPtr g = parse_ir(ir);
  EXPECT_FALSE(fold_list_idioms(*g));
  EXPECT_EQ(g->str(false), parse_ir(ir)->str(false));
}

TEST(DictIdioms, AnswersLenAndPresentKeys) {
  GraphPtr g = parse_ir(
      "graph(%x : Tensor, %y : Tensor):\n"
      "  %a : int = prim::Constant[value=1]()\n"
      "  %b : int = prim::Constant[value=-2]()\n"
      "  %d : Dict(int, Tensor) = prim::DictConstruct(%a, %x, %b, %y)\n"
      "  %g : Tensor = aten::__getitem__(%d, %b)\n"
      "  %l : int = aten::len(%d)\n"
      "  %t : (Tensor, int) = prim::TupleConstruct(%g, %l)\n"
      "  return (%t)\n");
  EXPECT_TRUE(fold_dict_idioms(*g));
  g->lint();
  const Node* tuple = g->outputs()[0]->node();
  EXPECT_EQ(tuple->input(0), g->inputs()[1]);
  std::optional<IValue> len = to_ivalue(tuple->input(1));
  ASSERT_TRUE(len.has_value());
  EXPECT_EQ(len->toInt(), 2);
}

TEST(DictIdioms, LeavesWhatTheProgramMustDecide) {
  const std::string ir =
      "graph(%x : Tensor, %k : str):\n"
      "  %a : str = prim::Constant[value=\"a\"]()\n"
      "  %z : str = prim::Constant[value=\"z\"]()\n"
      "  %f0 : float = prim::Constant[value=0.]()\n"
      "  %fm0 : float = prim::Constant[value=-0.]()\n"
      "  %s : Dict(str, Tensor) = prim::DictConstruct(%a, %x)\n"
      "  %missing : Tensor = aten::__getitem__(%s, %z)\n"
      "  %dup : Dict(float, Tensor) = prim::DictConstruct(%f0, %x, %fm0, %x)\n"
      "  %dl : int = aten::len(%dup)\n"
      "  %nk : Dict(str, Tensor) = prim::DictConstruct(%k, %x)\n"
      "  %nl : int = aten::len(%nk)\n"
      "  %w : Dict(str, Tensor) = prim::DictConstruct(%a, %x)\n"
      "  aten::_set_item(%w, %z, %x)\n"
      "  %wl : int = aten::len(%w)\n"
      "  %t : (Tensor, int, int, int) = prim::TupleConstruct(%missing, %dl, %nl, %wl)\n"
      "  return (%t)\n";
  GraphPtr g = parse_ir(ir);
  EXPECT_FALSE(fold_dict_idioms(*g));
  EXPECT_EQ(g->str(false), parse_ir(ir)->str(false));
}

}  // namespace
}  // namespace torchlet::jit

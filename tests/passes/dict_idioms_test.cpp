// The dict rules of the peephole pass: what they fold, and what they leave for the
// program (missing keys, written dicts, repeated or non-constant keys).
#include <gtest/gtest.h>

#include "jit/ir/ir_parser.h"
#include "jit/passes/dict_idioms.h"

namespace torchlet::jit {
namespace {

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

// Mutation removal beyond what torch's own shows (tests/interop/test_graph_passes.py
// compares the graphs with torch's): writes it must leave, and what the rewritten
// graph computes.
#include <gtest/gtest.h>
#include <torchlet/ops.h>

#include "jit/ir/ir_parser.h"
#include "jit/passes/remove_mutation.h"
#include "jit/runtime/compilation_unit.h"

namespace torchlet::jit {
namespace {

TEST(RemoveMutation, LeavesWritesSomethingElseCanSee) {
  // A list another list holds, a tensor a list holds, a random fill (torch rewrites
  // normal_; torchlet keeps it), a graph input.
  const std::string ir =
      "graph(%x : Tensor, %y : Tensor):\n"
      "  %one : int = prim::Constant[value=1]()\n"
      "  %l : Tensor[] = prim::ListConstruct(%x)\n"
      "  %ll : Tensor[][] = prim::ListConstruct(%l)\n"
      "  %a : Tensor[] = aten::append(%l, %y)\n"
      "  %t : Tensor = aten::neg(%y)\n"
      "  %h : Tensor[] = prim::ListConstruct(%t)\n"
      "  %t2 : Tensor = aten::relu_(%t)\n"
      "  %r : Tensor = aten::neg(%y)\n"
      "  %n : float = prim::Constant[value=0.]()\n"
      "  %r2 : Tensor = aten::normal_(%r, %n, %n)\n"
      "  %i : Tensor = aten::add_(%x, %y, %one)\n"
      "  %out : (Tensor[][], Tensor[], Tensor, Tensor) = prim::TupleConstruct(%ll, %h, %r2, %i)\n"
      "  return (%out)\n";
  GraphPtr g = parse_ir(ir);
  EXPECT_FALSE(remove_mutation(*g));
  g->lint();
  EXPECT_EQ(g->str(false), parse_ir(ir)->str(false));
}

TEST(RemoveMutation, KeepsAListAppendedOrInsertedIntoItself) {
  // torch 1.13 rewrites the first into a ListConstruct reading its own output.
  const std::string ir =
      "graph(%n : int):\n"
      "  %zero : int = prim::Constant[value=0]()\n"
      "  %x : Any[] = prim::ListConstruct(%n)\n"
      "  %a : Any[] = aten::append(%x, %x)\n"
      "  %y : Any[] = prim::ListConstruct(%n)\n"
      "  %h : Any[][] = prim::ListConstruct(%y)\n"
      "  aten::insert(%y, %zero, %h)\n"
      "  %out : (Any[], Any[]) = prim::TupleConstruct(%x, %y)\n"
      "  return (%out)\n";
  GraphPtr g = parse_ir(ir);
  EXPECT_FALSE(remove_list_mutation(*g));
  g->lint();
  EXPECT_EQ(g->str(false), parse_ir(ir)->str(false));
}

TEST(RemoveMutation, TheRewrittenGraphComputesTheSame) {
  const char* ir =
      "graph(%x : Tensor):\n"
      "  %one : int = prim::Constant[value=1]()\n"
      "  %f : float = prim::Constant[value=2.5]()\n"
      "  %a : Tensor = aten::mul(%x, %x)\n"
      "  %a2 : Tensor = aten::add_(%a, %x, %one)\n"
      "  %b : Tensor = aten::neg(%x)\n"
      "  %b2 : Tensor = aten::fill_(%b, %f)\n"
      "  %c : Tensor = aten::add(%a, %b, %one)\n"
      "  return (%c)\n";
  GraphPtr before = parse_ir(ir);
  GraphPtr after = parse_ir(ir);
  EXPECT_TRUE(remove_mutation(*after));
  after->lint();
  EXPECT_EQ(after->str(false).find("aten::add_"), std::string::npos) << after->str(false);
  EXPECT_EQ(after->str(false).find("aten::fill_"), std::string::npos) << after->str(false);
  CompilationUnit cu;
  Tensor x = torchlet::arange(6.0).reshape({2, 3});
  Tensor want = (*cu.create_function("before", before))({x}).toTensor();
  Tensor got = (*cu.create_function("after", after))({x}).toTensor();
  EXPECT_TRUE(torchlet::equal(got, want));
  EXPECT_EQ(got.at({1, 2}).to_double(), 5.0 * 5.0 + 5.0 + 2.5);
}

}  // namespace
}  // namespace torchlet::jit

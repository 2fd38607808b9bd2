// Concatenating frozen linears (tests/interop/test_freeze.py runs the merged archives
// in torch): what may merge, what must not, and that the merged product computes each
// layer's result.
#include <gtest/gtest.h>
#include <torchlet/ops.h>

#include "jit/passes/frozen_linear_folding.h"
#include "jit/runtime/compilation_unit.h"
#include "frozen_graph_test_util.h"

namespace torchlet::jit {
namespace {

TEST(ConcatFrozenLinears, MergedLayersComputeTheirOwnResults) {
  const std::vector<Tensor> weights = {randn({3, 4}), randn({3}), randn({5, 4}), randn({5})};
  const char* ir =
      "graph(%x : Tensor, %w1 : Tensor, %b1 : Tensor, %w2 : Tensor, %b2 : Tensor):\n"
      "  %y1 : Tensor = aten::linear(%x, %w1, %b1)\n"
      "  %y2 : Tensor = aten::linear(%x, %w2, %b2)\n"
      "  %out : (Tensor, Tensor) = prim::TupleConstruct(%y1, %y2)\n"
      "  return (%out)\n";
  GraphPtr before = with_constant_weights(ir, weights);
  GraphPtr after = with_constant_weights(ir, weights);
  EXPECT_TRUE(concat_frozen_linears(*after));
  after->lint();
  EXPECT_EQ(count_nodes(*after, "aten::linear"), 1u) << after->str(false);
  EXPECT_EQ(count_nodes(*after, "aten::slice"), 2u) << after->str(false);
  CompilationUnit cu;
  Tensor x = randn({2, 6, 4});
  IValue want = (*cu.create_function("before", before))({x});
  IValue got = (*cu.create_function("after", after))({x});
  for (size_t i = 0; i < 2; ++i) {
    const Tensor a = got.tupleRef().elements[i].toTensor(), b = want.tupleRef().elements[i].toTensor();
    EXPECT_EQ(shape_repr(a.sizes()), shape_repr(b.sizes()));
    EXPECT_TRUE(allclose(a, b, 1e-5, 1e-6)) << i;
  }
}

TEST(ConcatFrozenLinears, KeepsLayersAWriteSeparatesOrWidthsDiffer) {
  const std::vector<Tensor> weights = {randn({3, 4}), randn({3}), randn({5, 4}), randn({5}), randn({2, 6}), randn({2})};
  GraphPtr g = with_constant_weights(
      "graph(%x : Tensor, %w1 : Tensor, %b1 : Tensor, %w2 : Tensor, %b2 : Tensor, %w3 : Tensor, %b3 : Tensor):\n"
      "  %one : int = prim::Constant[value=1]()\n"
      "  %y1 : Tensor = aten::linear(%x, %w1, %b1)\n"
      "  %x2 : Tensor = aten::add_(%x, %one, %one)\n"
      "  %y2 : Tensor = aten::linear(%x, %w2, %b2)\n"
      "  %y3 : Tensor = aten::linear(%y2, %w3, %b3)\n"
      "  %out : (Tensor, Tensor) = prim::TupleConstruct(%y1, %y3)\n"
      "  return (%out)\n",
      weights);
  EXPECT_FALSE(concat_frozen_linears(*g));
  EXPECT_EQ(count_nodes(*g, "aten::linear"), 3u);
}

}  // namespace
}  // namespace torchlet::jit

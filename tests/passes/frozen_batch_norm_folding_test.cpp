// Linear / batch-norm folding of frozen graphs (tests/interop/test_freeze.py runs the
// folded archives in torch): it folds where the linear's result is known to have rank 2,
// computes what the norm did, and keeps the norm wherever folding would change results.
#include <gtest/gtest.h>
#include <torchlet/ops.h>

#include "jit/ir/ir_parser.h"
#include "jit/passes/frozen_folding.h"
#include "jit/passes/shape_propagation.h"
#include "jit/runtime/compilation_unit.h"
#include "frozen_graph_test_util.h"

namespace torchlet::jit {
namespace {

// Linear weight [6, 4], bias [6], then the norm's weight, bias, mean and var [6].
std::vector<Tensor> layer_weights() {
  return {randn({6, 4}), randn({6}), randn({6}), randn({6}), mul(randn({6}), Scalar(0.1)),
          add(rand({6}), Scalar(0.5))};
}

// `x_type` is the input's type; the weights become constants, as freezing leaves them.
GraphPtr linear_norm(const std::string& x_type, const std::vector<Tensor>& weights, const char* more_readers = "") {
  return with_constant_weights(
      "graph(%x : " + x_type + ", %w : Tensor, %b : Tensor, %g : Tensor, %beta : Tensor, %m : Tensor, %v : Tensor):\n"
      "  %false : bool = prim::Constant[value=0]()\n"
      "  %true : bool = prim::Constant[value=1]()\n"
      "  %mom : float = prim::Constant[value=0.1]()\n"
      "  %eps : float = prim::Constant[value=1e-05]()\n"
      "  %y : Tensor = aten::linear(%x, %w, %b)\n"
      "  %n : Tensor = aten::batch_norm(%y, %g, %beta, %m, %v, %false, %mom, %eps, %true)\n" +
          std::string(more_readers) + "  return (%n)\n",
      weights);
}

Tensor run(const GraphPtr& g, const Tensor& x) {
  CompilationUnit cu;
  return (*cu.create_function("f", g->copy()))({x}).toTensor();
}

TEST(FoldFrozenLinearBatchNorm, FoldsARank2LinearAndComputesTheNormsResult) {
  const std::vector<Tensor> weights = layer_weights();
  GraphPtr before = linear_norm("Float(3, 4)", weights);
  GraphPtr after = linear_norm("Float(3, 4)", weights);
  propagate_shapes(*after);
  EXPECT_TRUE(fold_frozen_linear_batch_norm(*after));
  after->lint();
  EXPECT_EQ(count_nodes(*after, "aten::batch_norm"), 0u) << after->str(false);
  EXPECT_EQ(count_nodes(*after, "aten::linear"), 1u);
  const Tensor x = randn({3, 4});
  EXPECT_TRUE(allclose(run(after, x), run(before, x), 1e-5, 1e-5));
}

TEST(FoldFrozenLinearBatchNorm, KeepsTheNormUnlessTheRankIsKnownToBe2) {
  const std::vector<Tensor> weights = layer_weights();
  // Rank 3: the norm normalises dimension 1, here of size 6 like the features, so the
  // norm runs without error and folding would silently compute something else.
  for (const char* type : {"Tensor", "Float(2, 6, 4)"}) {
    GraphPtr g = linear_norm(type, weights);
    propagate_shapes(*g);
    EXPECT_FALSE(fold_frozen_linear_batch_norm(*g)) << type;
    EXPECT_EQ(count_nodes(*g, "aten::batch_norm"), 1u) << type;
  }
  // Without propagated types the linear's result is plain Tensor: nothing to fold on.
  GraphPtr untyped = linear_norm("Float(3, 4)", weights);
  EXPECT_FALSE(fold_frozen_linear_batch_norm(*untyped));
}

TEST(FoldFrozenLinearBatchNorm, KeepsTheNormWhenTheLinearsResultHasOtherReaders) {
  GraphPtr g = linear_norm("Float(3, 4)", layer_weights(),
                           "  %r : Tensor = aten::relu(%y)\n  %s : Tensor = aten::add(%n, %r, %mom)\n");
  propagate_shapes(*g);
  EXPECT_FALSE(fold_frozen_linear_batch_norm(*g)) << g->str(false);
}

TEST(FoldFrozenLinearBatchNorm, FlattenFromAKnownDimTellsTheRank) {
  // flatten(x, 1) of an input of unknown rank has rank 2 when it runs at all.
  const std::vector<Tensor> weights = layer_weights();
  GraphPtr g = parse_ir(
      "graph(%x : Tensor):\n"
      "  %one : int = prim::Constant[value=1]()\n"
      "  %last : int = prim::Constant[value=-1]()\n"
      "  %f : Tensor = aten::flatten(%x, %one, %last)\n"
      "  return (%f)\n");
  propagate_shapes(*g);
  const TensorDetails* d = g->outputs()[0]->type()->tensor_details();
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(d->rank().value_or(0), 2u);
}

}  // namespace
}  // namespace torchlet::jit

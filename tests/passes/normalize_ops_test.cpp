// Operator-alias normalisation: the alias table the frontend matches calls through, and
// the pass over IR text that names an alias.
#include <gtest/gtest.h>

#include "jit/ir/ir_parser.h"
#include "jit/passes/normalize_ops.h"

namespace torchlet::jit {
namespace {

TEST(NormalizeOps, MapsAliasesToTheirCanonicalOperator) {
  EXPECT_EQ(canonical_operator(Symbol::from_qual_string("aten::multiply")).qual_string(), "aten::mul");
  EXPECT_EQ(canonical_operator(Symbol::from_qual_string("aten::multiply_")).qual_string(), "aten::mul_");
  EXPECT_EQ(canonical_operator(Symbol::from_qual_string("aten::special_expit")).qual_string(), "aten::sigmoid");
  EXPECT_EQ(canonical_operator(Symbol::from_qual_string("aten::swapaxes")).qual_string(), "aten::transpose");
  // Not aliases: unchanged.
  EXPECT_EQ(canonical_operator(Symbol::from_qual_string("aten::mul")).qual_string(), "aten::mul");
  EXPECT_EQ(canonical_operator(Symbol::from_qual_string("prim::If")).qual_string(), "prim::If");
}

TEST(NormalizeOps, RewritesAliasNodesKeepingNamesAndTypes) {
  GraphPtr g = parse_ir(
      "graph(%x : Tensor, %c : bool):\n"
      "  %m : Tensor = aten::multiply(%x, %x)\n"
      "  %r : Tensor = prim::If(%c)\n"
      "    block0():\n"
      "      %s : Tensor = aten::special_expit(%m)\n"
      "      -> (%s)\n"
      "    block1():\n"
      "      -> (%m)\n"
      "  return (%r)\n");
  EXPECT_TRUE(normalize_ops(*g));
  g->lint();
  EXPECT_EQ(g->str(false),
            "graph(%x : Tensor,\n"
            "      %c : bool):\n"
            "  %m : Tensor = aten::mul(%x, %x)\n"
            "  %r : Tensor = prim::If(%c)\n"
            "    block0():\n"
            "      %s : Tensor = aten::sigmoid(%m)\n"
            "      -> (%s)\n"
            "    block1():\n"
            "      -> (%m)\n"
            "  return (%r)\n");
  EXPECT_FALSE(normalize_ops(*g));
}

}  // namespace
}  // namespace torchlet::jit

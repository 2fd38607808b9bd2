// Shape propagation beyond what tests/interop/test_shape_propagation.py compares with
// torch: sizes graph text may give that overflow int64 arithmetic stay unknown (the
// operator refuses them at run time), values an in-place resize may reach gain nothing,
// and loop-carried values keep only what every iteration agrees on.
#include <gtest/gtest.h>

#include "jit/ir/ir_parser.h"
#include "jit/passes/shape_propagation.h"

namespace torchlet::jit {
namespace {

std::string after(const std::string& ir) {
  GraphPtr g = parse_ir(ir);
  propagate_shapes(*g);
  g->lint();
  return g->str(false);
}

TEST(ShapePropagation, SizesWhoseArithmeticOverflowsStayUnknown) {
  const std::string out = after(
      "graph(%x : Float(1099511627776, 1099511627776, 8, 8), %w : Float(4, 1099511627776, 3, 3)):\n"
      "  %m1 : int = prim::Constant[value=-1]()\n"
      "  %big : int = prim::Constant[value=1099511627776]()\n"
      "  %huge : int = prim::Constant[value=9223372036854775807]()\n"
      "  %one : int = prim::Constant[value=1]()\n"
      "  %none : NoneType = prim::Constant()\n"
      "  %false : bool = prim::Constant[value=0]()\n"
      "  %s : int[] = prim::ListConstruct(%big, %big, %m1)\n"
      "  %v : Tensor = aten::view(%x, %s)\n"
      "  %zero : int = prim::Constant[value=0]()\n"
      "  %f : Tensor = aten::flatten(%x, %zero, %m1)\n"
      "  %hs : int[] = prim::ListConstruct(%huge, %huge)\n"
      "  %ones : int[] = prim::ListConstruct(%one, %one)\n"
      "  %c : Tensor = aten::conv2d(%x, %w, %none, %ones, %hs, %ones, %one)\n"
      "  %p : Tensor = aten::max_pool2d(%x, %ones, %ones, %hs, %hs, %false)\n"
      "  %tl : Tensor[] = prim::ListConstruct(%x, %x, %x, %x, %x, %x, %x, %x, %x)\n"
      "  %k : Tensor = aten::cat(%tl, %m1)\n"
      "  %sl : Tensor = aten::slice(%x, %one, %none, %none, %huge)\n"
      "  %t : (Tensor, Tensor, Tensor, Tensor, Tensor, Tensor) = prim::TupleConstruct(%v, %f, %c, %p, %k, %sl)\n"
      "  return (%t)\n");
  // Ranks and dtypes still follow; the overflowing sizes do not.
  EXPECT_NE(out.find("%v : Float(1099511627776, 1099511627776, *) = aten::view"), std::string::npos) << out;
  EXPECT_NE(out.find("%f : Float(*) = aten::flatten"), std::string::npos) << out;
  EXPECT_NE(out.find("%c : Float(1099511627776, 4, *, *) = aten::conv2d"), std::string::npos) << out;
  EXPECT_NE(out.find("%p : Float(1099511627776, 1099511627776, *, *) = aten::max_pool2d"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("%k : Float(1099511627776, 1099511627776, 8, 72) = aten::cat"), std::string::npos)
      << out;
  EXPECT_NE(out.find("%sl : Float(1099511627776, 1, 8, 8) = aten::slice"), std::string::npos) << out;
}

TEST(ShapePropagation, WhatAnInPlaceResizeMayReachGainsNothing) {
  const std::string out = after(
      "graph(%x : Float(2, 3)):\n"
      "  %zero : int = prim::Constant[value=0]()\n"
      "  %a : Tensor = aten::relu(%x)\n"
      "  %b : Tensor = aten::neg(%x)\n"
      "  %r : Tensor = aten::unsqueeze_(%a, %zero)\n"
      "  %t : (Tensor, Tensor) = prim::TupleConstruct(%a, %b)\n"
      "  return (%t)\n");
  EXPECT_NE(out.find("%a : Tensor = aten::relu"), std::string::npos) << out;
  EXPECT_NE(out.find("%b : Float(2, 3) = aten::neg"), std::string::npos) << out;
}

TEST(ShapePropagation, LoopCarriedValuesKeepWhatEveryIterationAgreesOn) {
  // y starts (2, 3) and each iteration doubles its first dimension: the rank and dtype
  // hold, the first size does not, the second does.
  const std::string out = after(
      "graph(%x : Float(2, 3), %n : int):\n"
      "  %t : bool = prim::Constant[value=1]()\n"
      "  %zero : int = prim::Constant[value=0]()\n"
      "  %y : Tensor = prim::Loop(%n, %t, %x)\n"
      "    block0(%i : int, %c : Tensor):\n"
      "      %l : Tensor[] = prim::ListConstruct(%c, %c)\n"
      "      %d : Tensor = aten::cat(%l, %zero)\n"
      "      -> (%t, %d)\n"
      "  return (%y)\n");
  EXPECT_NE(out.find("%y : Float(*, 3) = prim::Loop"), std::string::npos) << out;
  EXPECT_NE(out.find("%c : Float(*, 3)"), std::string::npos) << out;
}

}  // namespace
}  // namespace torchlet::jit

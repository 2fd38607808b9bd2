// Shape operators that copy (shape.cpp) against real PyTorch over every real dtype:
// cat/stack with promotion and legacy empty tensors, split/chunk views, index_select,
// gather/scatter, masked_fill, flip, roll, tril/triu, repeat, nonzero, stable sort
// (NaN last), argsort and topk.
#include <gtest/gtest.h>
#include <torchlet/ops.h>

#include "oracle.h"

namespace torchlet {
namespace {

using testing::OpFn;
using testing::Params;

std::map<std::string, OpFn> shape_ops() {
  std::map<std::string, OpFn> ops;
  ops["cat"] = [](std::vector<Tensor>& in, const Params& p) { return std::vector{cat(in, p.integer("dim"))}; };
  ops["stack"] = [](std::vector<Tensor>& in, const Params& p) { return std::vector{stack(in, p.integer("dim"))}; };
  ops["split"] = [](std::vector<Tensor>& in, const Params& p) {
    return split(in[0], p.integer("split_size"), p.integer("dim"));
  };
  ops["chunk"] = [](std::vector<Tensor>& in, const Params& p) { return chunk(in[0], p.integer("chunks"), p.integer("dim")); };
  ops["index_select"] = [](std::vector<Tensor>& in, const Params& p) {
    return std::vector{index_select(in[0], p.integer("dim"), in[1])};
  };
  ops["gather"] = [](std::vector<Tensor>& in, const Params& p) { return std::vector{gather(in[0], p.integer("dim"), in[1])}; };
  ops["scatter"] = [](std::vector<Tensor>& in, const Params& p) {
    return std::vector{scatter(in[0], p.integer("dim"), in[1], in[2])};
  };
  ops["masked_fill"] = [](std::vector<Tensor>& in, const Params& p) {
    return std::vector{masked_fill(in[0], in[1], p.scalar("value"))};
  };
  ops["flip"] = [](std::vector<Tensor>& in, const Params& p) { return std::vector{flip(in[0], p.ints("dims"))}; };
  ops["roll"] = [](std::vector<Tensor>& in, const Params& p) {
    return std::vector{roll(in[0], p.ints("shifts"), p.ints("dims"))};
  };
  ops["tril"] = [](std::vector<Tensor>& in, const Params& p) { return std::vector{tril(in[0], p.integer("diagonal"))}; };
  ops["triu"] = [](std::vector<Tensor>& in, const Params& p) { return std::vector{triu(in[0], p.integer("diagonal"))}; };
  ops["repeat"] = [](std::vector<Tensor>& in, const Params& p) { return std::vector{repeat(in[0], p.ints("repeats"))}; };
  ops["nonzero"] = [](std::vector<Tensor>& in, const Params&) { return std::vector{nonzero(in[0])}; };
  ops["sort"] = [](std::vector<Tensor>& in, const Params& p) {
    auto [v, i] = sort(in[0], p.integer("dim"), p.flag("descending"));
    return std::vector{v, i};
  };
  ops["argsort"] = [](std::vector<Tensor>& in, const Params& p) {
    return std::vector{argsort(in[0], p.integer("dim"), p.flag("descending"))};
  };
  ops["topk"] = [](std::vector<Tensor>& in, const Params& p) {
    auto [v, i] = topk(in[0], p.integer("k"), p.integer("dim"), p.flag("largest"));
    return std::vector{v, i};
  };
  return ops;
}

TEST(ShapeOracle, MatchesTorch) { testing::run_fixture("shape.txt", shape_ops()); }

TEST(Shape, SplitAndChunkAreViews) {
  Tensor x = arange(12).reshape({3, 4});
  auto parts = chunk(x, 2, 1);
  ASSERT_EQ(parts.size(), 2u);
  EXPECT_TRUE(parts[1].shares_storage(x));
  parts[1].fill_(7);
  EXPECT_EQ(x.at({2, 3}).to_int(), 7);
}

}  // namespace
}  // namespace torchlet

// Reductions and scans (reduce.cpp) against real PyTorch: dim lists, keepdim, dtype
// arguments, 0-dim and empty inputs, transposed inputs, NaN/inf handling, every real
// dtype, and long rows where the summation order matters.
#include <cstring>

#include <gtest/gtest.h>
#include <torchlet/ops.h>

#include "oracle.h"

namespace torchlet {
namespace {

using testing::OpFn;
using testing::Params;

std::optional<int64_t> opt_dim(const Params& p) {
  if (!p.has("dim")) return std::nullopt;
  return p.integer("dim");
}

std::map<std::string, OpFn> reduce_ops() {
  std::map<std::string, OpFn> ops;
  ops["sum"] = [](std::vector<Tensor>& in, const Params& p) {
    return std::vector{sum(in[0], p.ints("dim"), p.flag("keepdim"), p.dtype("dtype"))};
  };
  ops["mean"] = [](std::vector<Tensor>& in, const Params& p) {
    return std::vector{mean(in[0], p.ints("dim"), p.flag("keepdim"))};
  };
  ops["amax"] = [](std::vector<Tensor>& in, const Params& p) {
    return std::vector{amax(in[0], p.ints("dim"), p.flag("keepdim"))};
  };
  ops["amin"] = [](std::vector<Tensor>& in, const Params& p) {
    return std::vector{amin(in[0], p.ints("dim"), p.flag("keepdim"))};
  };
  ops["var"] = [](std::vector<Tensor>& in, const Params& p) {
    return std::vector{var(in[0], p.ints("dim"), p.integer("correction"), p.flag("keepdim"))};
  };
  ops["std"] = [](std::vector<Tensor>& in, const Params& p) {
    return std::vector{torchlet::std(in[0], p.ints("dim"), p.integer("correction"), p.flag("keepdim"))};
  };
  ops["logsumexp"] = [](std::vector<Tensor>& in, const Params& p) {
    return std::vector{logsumexp(in[0], p.ints("dim"), p.flag("keepdim"))};
  };
  ops["norm"] = [](std::vector<Tensor>& in, const Params& p) {
    return std::vector{norm(in[0], p.real("p"), p.ints("dim"), p.flag("keepdim"))};
  };
  ops["max.dim"] = [](std::vector<Tensor>& in, const Params& p) {
    auto [v, i] = max(in[0], p.integer("dim"), p.flag("keepdim"));
    return std::vector{v, i};
  };
  ops["min.dim"] = [](std::vector<Tensor>& in, const Params& p) {
    auto [v, i] = min(in[0], p.integer("dim"), p.flag("keepdim"));
    return std::vector{v, i};
  };
  auto keep = [](const Params& p) { return p.has("keepdim") && p.flag("keepdim"); };
  ops["argmax"] = [=](std::vector<Tensor>& in, const Params& p) { return std::vector{argmax(in[0], opt_dim(p), keep(p))}; };
  ops["argmin"] = [=](std::vector<Tensor>& in, const Params& p) { return std::vector{argmin(in[0], opt_dim(p), keep(p))}; };
  ops["all"] = [=](std::vector<Tensor>& in, const Params& p) { return std::vector{all(in[0], opt_dim(p), keep(p))}; };
  ops["any"] = [=](std::vector<Tensor>& in, const Params& p) { return std::vector{any(in[0], opt_dim(p), keep(p))}; };
  ops["prod"] = [=](std::vector<Tensor>& in, const Params& p) { return std::vector{prod(in[0], opt_dim(p), keep(p))}; };
  ops["max"] = [](std::vector<Tensor>& in, const Params&) { return std::vector{max(in[0])}; };
  ops["min"] = [](std::vector<Tensor>& in, const Params&) { return std::vector{min(in[0])}; };
  ops["cumsum"] = [](std::vector<Tensor>& in, const Params& p) {
    return std::vector{cumsum(in[0], p.integer("dim"), p.dtype("dtype"))};
  };
  ops["cumprod"] = [](std::vector<Tensor>& in, const Params& p) {
    return std::vector{cumprod(in[0], p.integer("dim"), p.dtype("dtype"))};
  };
  return ops;
}

// Reductions add in a different order from torch's vectorised cascade, so float32
// results agree to 1e-4 relative (sums of up to 2^18 terms) plus 1e-4 absolute for
// sums that cancel (300 terms of magnitude ~3 summing to ~0.01), float16/bfloat16 to a
// couple of steps of their precision; integers stay exact.
// torch 1.13 accumulates float16 norms in float16, which loses up to ~0.5%.
std::optional<testing::Tolerance> reduce_tolerance(const std::string& op, DType d) {
  if (op == "norm" && d == DType::Half) return testing::Tolerance{1e-2, 1e-2};
  switch (d) {
    case DType::Float: return testing::Tolerance{1e-4, 1e-4};
    case DType::Double: return testing::Tolerance{1e-9, 1e-12};
    case DType::Half: return testing::Tolerance{4e-3, 1e-3};
    case DType::BFloat16: return testing::Tolerance{3e-2, 1e-2};
    default: return std::nullopt;
  }
}

TEST(ReduceOracle, MatchesTorch) { testing::run_fixture("reduce.txt", reduce_ops(), reduce_tolerance); }

// Many rows are summed in one call (row_sums.h) and a single row by pairwise_sum; both
// must give the same value to the last bit, whatever the row length (every branch of the
// 32- and 8-element steps, the tail, and the 1024-element block boundary).
TEST(Reduce, RowsSumToTheBitAsASingleRowDoes) {
  for (DType d : {DType::Float, DType::Double}) {
    for (int64_t n : {0, 1, 7, 8, 9, 31, 32, 33, 40, 49, 63, 64, 100, 255, 777, 1023, 1024, 1025, 3000}) {
      Tensor x = randn({6, n}, d);
      Tensor rows = sum(x, {1});
      Tensor means = mean(x, {1});
      for (int64_t r = 0; r < 6; ++r) {
        // Bits, not values: an empty row's mean is NaN on both paths.
        const size_t bytes = element_size(d);
        EXPECT_EQ(std::memcmp(rows.data<char>() + r * bytes, sum(x.select(0, r), {}).data<char>(), bytes), 0) << "n=" << n;
        EXPECT_EQ(std::memcmp(means.data<char>() + r * bytes, mean(x.select(0, r), {}).data<char>(), bytes), 0)
            << "n=" << n;
      }
    }
  }
}

TEST(Reduce, RepeatedDimIsRefused) {
  EXPECT_THROW(sum(ones({2, 3}), {1, 1}), ValueError);
  EXPECT_THROW(sum(ones({2, 3}), {2}), IndexError);
}

}  // namespace
}  // namespace torchlet

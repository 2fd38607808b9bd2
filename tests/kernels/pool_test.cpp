// 1-d and 3-d pooling and the with-indices forms (pool.cpp) against real PyTorch
// (tests/fixtures/gen_kernels_nn_layers.py: kernels/pool.txt): batched, unbatched,
// non-contiguous and empty-batch inputs, ceil_mode, count_include_pad,
// divisor_override, NaN windows, float32/float64/bfloat16/int64, and torch's error
// messages for invalid arguments.
#include <gtest/gtest.h>
#include <torchlet/ops.h>

#include "oracle.h"

namespace torchlet {
namespace {

using testing::OpFn;
using testing::Params;

Shape stride_of(const Params& p) { return p.has("stride") ? p.ints("stride") : Shape{}; }

std::vector<Tensor> pair(const std::tuple<Tensor, Tensor>& t) { return {std::get<0>(t), std::get<1>(t)}; }

std::map<std::string, OpFn> pool_ops() {
  std::map<std::string, OpFn> ops;
  auto max_pool = [](auto fn) {
    return [fn](std::vector<Tensor>& in, const Params& p) {
      return fn(in[0], p.ints("kernel_size"), stride_of(p), p.ints("padding"), p.ints("dilation"), p.flag("ceil_mode"));
    };
  };
  ops["max_pool1d"] = max_pool([](auto&&... a) { return std::vector{max_pool1d(a...)}; });
  ops["max_pool3d"] = max_pool([](auto&&... a) { return std::vector{max_pool3d(a...)}; });
  ops["max_pool1d_with_indices"] = max_pool([](auto&&... a) { return pair(max_pool1d_with_indices(a...)); });
  ops["max_pool2d_with_indices"] = max_pool([](auto&&... a) { return pair(max_pool2d_with_indices(a...)); });
  ops["max_pool3d_with_indices"] = max_pool([](auto&&... a) { return pair(max_pool3d_with_indices(a...)); });
  ops["avg_pool1d"] = [](std::vector<Tensor>& in, const Params& p) {
    return std::vector{avg_pool1d(in[0], p.ints("kernel_size"), stride_of(p), p.ints("padding"), p.flag("ceil_mode"),
                                  p.flag("count_include_pad"))};
  };
  ops["avg_pool3d"] = [](std::vector<Tensor>& in, const Params& p) {
    std::optional<int64_t> div;
    if (p.has("divisor_override")) div = p.integer("divisor_override");
    return std::vector{avg_pool3d(in[0], p.ints("kernel_size"), stride_of(p), p.ints("padding"), p.flag("ceil_mode"),
                                  p.flag("count_include_pad"), div)};
  };
  ops["adaptive_avg_pool1d"] = [](std::vector<Tensor>& in, const Params& p) {
    return std::vector{adaptive_avg_pool1d(in[0], p.ints("output_size"))};
  };
  ops["adaptive_avg_pool3d"] = [](std::vector<Tensor>& in, const Params& p) {
    return std::vector{adaptive_avg_pool3d(in[0], p.ints("output_size"))};
  };
  ops["adaptive_max_pool1d"] = [](std::vector<Tensor>& in, const Params& p) {
    return pair(adaptive_max_pool1d(in[0], p.ints("output_size")));
  };
  ops["adaptive_max_pool3d"] = [](std::vector<Tensor>& in, const Params& p) {
    return pair(adaptive_max_pool3d(in[0], p.ints("output_size")));
  };
  ops["adaptive_max_pool2d"] = [](std::vector<Tensor>& in, const Params& p) {
    return pair(adaptive_max_pool2d(in[0], p.ints("output_size")));
  };
  return ops;
}

// Averages sum up to 27 terms in float32; bfloat16 rounds once at the end.
std::optional<testing::Tolerance> pool_tolerance(const std::string&, DType d) {
  if (d == DType::Float) return testing::Tolerance{1e-5, 1e-5};
  if (d == DType::BFloat16) return testing::Tolerance{1e-2, 1e-2};
  return std::nullopt;
}

TEST(PoolOracle, MatchesTorch) { testing::run_fixture("pool.txt", pool_ops(), pool_tolerance, true); }

}  // namespace
}  // namespace torchlet

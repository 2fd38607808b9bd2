// Neural-network kernels (conv.cpp, nn.cpp) against real PyTorch: convolutions with
// stride/padding/dilation/groups, 'same'/'valid', transposed convolution, the pooling
// family with ceil_mode and count_include_pad, normalisations, softmax, embedding and
// interpolation, over every dtype torch accepts for them.
#include <gtest/gtest.h>
#include <torchlet/ops.h>

#include "oracle.h"

namespace torchlet {
namespace {

using testing::OpFn;
using testing::Params;

std::optional<Tensor> arg(const std::vector<Tensor>& in, size_t i) {
  if (i < in.size()) return in[i];
  return std::nullopt;
}

std::map<std::string, OpFn> nn_ops() {
  std::map<std::string, OpFn> ops;
  auto conv = [](auto fn) {
    return [fn](std::vector<Tensor>& in, const Params& p) {
      return std::vector{fn(in[0], in[1], arg(in, 2), p.ints("stride"), p.ints("padding"), p.ints("dilation"),
                            p.integer("groups"))};
    };
  };
  ops["conv1d"] = conv([](auto&&... a) { return conv1d(a...); });
  ops["conv2d"] = conv([](auto&&... a) { return conv2d(a...); });
  ops["conv3d"] = conv([](auto&&... a) { return conv3d(a...); });
  ops["conv2d.padding"] = [](std::vector<Tensor>& in, const Params& p) {
    return std::vector{conv2d_padding(in[0], in[1], std::nullopt, {1}, p.str("padding"), p.ints("dilation"), 1)};
  };
  ops["conv_transpose2d"] = [](std::vector<Tensor>& in, const Params& p) {
    return std::vector{conv_transpose2d(in[0], in[1], arg(in, 2), p.ints("stride"), p.ints("padding"),
                                        p.ints("output_padding"), p.integer("groups"), p.ints("dilation"))};
  };
  ops["max_pool2d"] = [](std::vector<Tensor>& in, const Params& p) {
    return std::vector{max_pool2d(in[0], p.ints("kernel_size"), p.ints("stride"), p.ints("padding"),
                                  p.ints("dilation"), p.flag("ceil_mode"))};
  };
  ops["avg_pool2d"] = [](std::vector<Tensor>& in, const Params& p) {
    std::optional<int64_t> div;
    if (p.has("divisor_override")) div = p.integer("divisor_override");
    return std::vector{avg_pool2d(in[0], p.ints("kernel_size"), p.ints("stride"), p.ints("padding"),
                                  p.flag("ceil_mode"), p.flag("count_include_pad"), div)};
  };
  ops["adaptive_avg_pool2d"] = [](std::vector<Tensor>& in, const Params& p) {
    return std::vector{adaptive_avg_pool2d(in[0], p.ints("output_size"))};
  };
  ops["adaptive_max_pool2d"] = [](std::vector<Tensor>& in, const Params& p) {
    auto [v, i] = adaptive_max_pool2d(in[0], p.ints("output_size"));
    return std::vector{v, i};
  };
  ops["batch_norm"] = [](std::vector<Tensor>& in, const Params& p) {
    if (in.size() == 3) {
      return std::vector{batch_norm(in[0], std::nullopt, std::nullopt, in[1], in[2], false, 0.1, p.real("eps"))};
    }
    return std::vector{batch_norm(in[0], in[1], in[2], in[3], in[4], false, 0.1, p.real("eps"))};
  };
  ops["layer_norm"] = [](std::vector<Tensor>& in, const Params& p) {
    return std::vector{layer_norm(in[0], p.ints("normalized_shape"), arg(in, 1), arg(in, 2), p.real("eps"))};
  };
  ops["group_norm"] = [](std::vector<Tensor>& in, const Params& p) {
    return std::vector{group_norm(in[0], p.integer("num_groups"), arg(in, 1), arg(in, 2), p.real("eps"))};
  };
  ops["softmax"] = [](std::vector<Tensor>& in, const Params& p) {
    return std::vector{softmax(in[0], p.integer("dim"), p.dtype("dtype"))};
  };
  ops["log_softmax"] = [](std::vector<Tensor>& in, const Params& p) {
    return std::vector{log_softmax(in[0], p.integer("dim"))};
  };
  ops["dropout"] = [](std::vector<Tensor>& in, const Params& p) {
    return std::vector{dropout(in[0], p.real("p"), p.flag("train"))};
  };
  ops["embedding"] = [](std::vector<Tensor>& in, const Params&) { return std::vector{embedding(in[0], in[1])}; };
  ops["upsample_nearest2d"] = [](std::vector<Tensor>& in, const Params& p) {
    return std::vector{upsample_nearest2d(in[0], p.ints("output_size"))};
  };
  ops["upsample_bilinear2d"] = [](std::vector<Tensor>& in, const Params& p) {
    return std::vector{upsample_bilinear2d(in[0], p.ints("output_size"), p.flag("align_corners"))};
  };
  return ops;
}

// Convolutions sum up to 9*49 products in an order oneDNN picks (Winograd or direct),
// so float32 agrees to 1e-4 relative plus 1e-4 absolute; normalisations compute their
// statistics in float64 where torch uses float32 (bfloat16/float16 within a few steps).
std::optional<testing::Tolerance> nn_tolerance(const std::string&, DType d) {
  switch (d) {
    case DType::Float: return testing::Tolerance{1e-4, 1e-4};
    case DType::Half: return testing::Tolerance{4e-3, 4e-3};
    case DType::BFloat16: return testing::Tolerance{2e-2, 2e-2};
    default: return std::nullopt;
  }
}

TEST(NNOracle, MatchesTorch) { testing::run_fixture("nn.txt", nn_ops(), nn_tolerance); }

// Largest |a - b| over two same-shaped float tensors.
double max_abs_diff(const Tensor& a, const Tensor& b) {
  EXPECT_EQ(a.sizes(), b.sizes());
  return amax(abs(sub(a, b))).item().to_double();
}

// Note [Pointwise convolution as GEMM] in conv.cpp: 1x1, stride 1, unpadded, one group
// runs as a GEMM on the NC* layout. The same product through oneDNN's convolution:
// pad by one and keep the interior (a 1-tap kernel reads only the centre), which
// sends the layer down the primitive path. Batches, bias, a non-contiguous input
// and 1-d/3-d variants take the GEMM path; the torch fixtures hold one more case.
TEST(NN, PointwiseConvolutionMatchesThePrimitivePath) {
  Generator gen(7);
  struct Case {
    Shape x, w;
    bool bias;
  };
  for (const Case& c : {Case{{2, 16, 9, 7}, {24, 16, 1, 1}, false}, Case{{3, 5, 4, 6}, {7, 5, 1, 1}, true},
                        Case{{1, 32, 14, 14}, {96, 32, 1, 1}, false}}) {
    Tensor x = randn(c.x, DType::Float, &gen), w = randn(c.w, DType::Float, &gen);
    std::optional<Tensor> b;
    if (c.bias) b = randn({c.w[0]}, DType::Float, &gen);
    Tensor fast = conv2d(x, w, b);
    Tensor padded = conv2d(x, w, b, {1}, {1});
    Tensor ref = padded.narrow(2, 1, x.size(2)).narrow(3, 1, x.size(3));
    EXPECT_LT(max_abs_diff(fast, ref), 1e-4) << shape_repr(c.x);
    // A channels-last view of the same values: the GEMM runs on a contiguous copy.
    Tensor nhwc = x.permute({0, 2, 3, 1}).contiguous().permute({0, 3, 1, 2});
    ASSERT_FALSE(nhwc.is_contiguous());
    EXPECT_LT(max_abs_diff(conv2d(nhwc, w, b), fast), 1e-5);
    // Dilation does not change a 1-tap kernel; unbatched input is one sample.
    EXPECT_LT(max_abs_diff(conv2d(x, w, b, {1}, {0}, {2}), fast), 1e-5);
    EXPECT_LT(max_abs_diff(conv2d(x.select(0, 0), w, b), fast.select(0, 0)), 1e-5);
  }
  Tensor x1 = randn({2, 6, 11}, DType::Float, &gen), w1 = randn({4, 6, 1}, DType::Float, &gen);
  Tensor b1 = randn({4}, DType::Float, &gen);
  EXPECT_LT(max_abs_diff(conv1d(x1, w1, b1), conv1d(x1, w1, b1, {1}, {1}).narrow(2, 1, 11)), 1e-4);
  Tensor x3 = randn({1, 3, 4, 5, 6}, DType::Float, &gen), w3 = randn({5, 3, 1, 1, 1}, DType::Float, &gen);
  Tensor ref3 = conv3d(x3, w3, std::nullopt, {1}, {1}).narrow(2, 1, 4).narrow(3, 1, 5).narrow(4, 1, 6);
  EXPECT_LT(max_abs_diff(conv3d(x3, w3, std::nullopt), ref3), 1e-4);
}

// 1x1 convolutions that must not take the GEMM path still agree with it where the
// result is the same product: stride 2 equals the GEMM on every other row and column,
// and groups equal separate GEMMs over each group's channels.
TEST(NN, PointwiseConvolutionFallbacksAgree) {
  Generator gen(11);
  Tensor x = randn({2, 8, 9, 10}, DType::Float, &gen), w = randn({6, 8, 1, 1}, DType::Float, &gen);
  Tensor strided = conv2d(x, w, std::nullopt, {2});
  Tensor sub_sampled = conv2d(x.slice(2, 0, std::nullopt, 2).slice(3, 0, std::nullopt, 2), w, std::nullopt);
  EXPECT_LT(max_abs_diff(strided, sub_sampled), 1e-4);
  Tensor wg = randn({6, 4, 1, 1}, DType::Float, &gen);
  Tensor grouped = conv2d(x, wg, std::nullopt, {1}, {0}, {1}, 2);
  Tensor per_group = cat({conv2d(x.narrow(1, 0, 4), wg.narrow(0, 0, 3), std::nullopt),
                          conv2d(x.narrow(1, 4, 4), wg.narrow(0, 3, 3), std::nullopt)},
                         1);
  EXPECT_LT(max_abs_diff(grouped, per_group), 1e-4);
}

TEST(NN, ConvolutionRefusesNonFloat32ByName) {
  try {
    conv2d(ones({1, 1, 3, 3}, DType::Double), ones({1, 1, 1, 1}, DType::Double), std::nullopt);
    ADD_FAILURE() << "float64 convolution accepted";
  } catch (const UnsupportedError& e) {
    EXPECT_NE(std::string(e.what()).find("conv2d"), std::string::npos) << e.what();
  }
}

TEST(NN, TrainingBatchNormUsesTheBatchAndMovesTheRunningStatistics) {
  // Exact values are checked against torch's in the ops replay and the conformance
  // programs; here the definition: channel c of x holds two values 2 apart (biased
  // variance 1, unbiased 2), so the output is -1 and +1 (eps 0), and the running stats
  // move halfway (momentum 0.5) from 0 and 1.
  const Tensor x = div(arange(0, 6, 1, DType::Float).reshape({2, 3}), Scalar(1.5));  // channel c: {c/1.5, c/1.5 + 2}
  Tensor rm = zeros({3}), rv = ones({3});
  auto [y, mean, invstd] = native_batch_norm(x, std::nullopt, std::nullopt, rm, rv, true, 0.5, 0.0);
  for (int64_t c = 0; c < 3; ++c) {
    EXPECT_NEAR(y.at({0, c}).to_double(), -1.0, 1e-6);
    EXPECT_NEAR(y.at({1, c}).to_double(), 1.0, 1e-6);
    EXPECT_NEAR(mean.at({c}).to_double(), static_cast<double>(c) / 1.5 + 1, 1e-6);
    EXPECT_NEAR(invstd.at({c}).to_double(), 1.0, 1e-6);
    EXPECT_NEAR(rm.at({c}).to_double(), 0.5 * (static_cast<double>(c) / 1.5 + 1), 1e-6);
    EXPECT_NEAR(rv.at({c}).to_double(), 0.5 * 2 + 0.5 * 1, 1e-6);
  }
}

TEST(NN, TrainingDropoutKeepsScaledValuesAndRepeatsUnderTheSameSeed) {
  // Exact masks are checked against torch's in the ops replay (gen_ops.py); here the
  // shape of the result: every element is 0 or x / (1 - p), the same seed gives the same
  // mask, and eval mode (or p = 0) is the input itself.
  Tensor x = ones({1000});
  manual_seed(7);
  Tensor a = dropout(x, 0.25, true);
  manual_seed(7);
  Tensor b = dropout(x, 0.25, true);
  int64_t kept = 0;
  for (int64_t i = 0; i < 1000; ++i) {
    const double v = a.at({i}).to_double();
    EXPECT_TRUE(v == 0.0 || v == static_cast<double>(1.0f / 0.75f)) << v;
    EXPECT_EQ(v, b.at({i}).to_double());
    kept += v != 0.0;
  }
  EXPECT_GT(kept, 650);  // about 750 of 1000
  EXPECT_LT(kept, 850);
  EXPECT_EQ(dropout(x, 0.5, false).data_ptr(), x.data_ptr());
  EXPECT_THROW(dropout(x, 1.5, true), ValueError);
  Tensor flags = empty({64}, DType::Bool);
  EXPECT_THROW(bernoulli_(flags, -0.1), ValueError);
}

}  // namespace
}  // namespace torchlet

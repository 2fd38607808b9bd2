// F.pad (pad.cpp), conv_transpose1d/3d (conv.cpp) and the interpolation kernels of
// interp.cpp against real PyTorch (kernels/pad_interp.txt from gen_kernels_nn_layers.py):
// every pad mode over 1-3 dims with negative and non-contiguous cases, transposed
// convolutions with groups/dilation/output_padding, nearest/linear/bicubic/trilinear
// with align_corners and scale factors, and torch's messages for invalid arguments.
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

// scales=none or one per spatial dim.
std::optional<double> scale_at(const Params& p, size_t i) {
  if (!p.has("scales")) return std::nullopt;
  auto parts = testing::split(p.str("scales"), '|');
  return std::stod(parts.at(i));
}

std::map<std::string, OpFn> pad_interp_ops() {
  std::map<std::string, OpFn> ops;
  auto conv_t = [](auto fn) {
    return [fn](std::vector<Tensor>& in, const Params& p) {
      return std::vector{fn(in[0], in[1], arg(in, 2), p.ints("stride"), p.ints("padding"), p.ints("output_padding"),
                            p.integer("groups"), p.ints("dilation"))};
    };
  };
  ops["conv_transpose1d"] = conv_t([](auto&&... a) { return conv_transpose1d(a...); });
  ops["conv_transpose3d"] = conv_t([](auto&&... a) { return conv_transpose3d(a...); });
  ops["pad"] = [](std::vector<Tensor>& in, const Params& p) {
    std::optional<double> value;
    if (p.has("value")) value = p.real("value");
    return std::vector{pad(in[0], p.ints("pad"), p.str("mode"), value)};
  };
  // nn.ConvNd(padding_mode=m) as F.pad(x, p on every side, m) and an unpadded conv
  // ("zeros" is the convolution's own padding).
  ops["conv_padding_mode"] = [](std::vector<Tensor>& in, const Params& p) {
    const int64_t nsp = in[0].dim() - 2, pd = p.integer("padding"), st = p.integer("stride");
    std::string mode = p.str("mode");
    Tensor x = in[0];
    int64_t conv_pad = pd;
    if (mode != "zeros") {
      x = pad(x, Shape(static_cast<size_t>(2 * nsp), pd), mode);
      conv_pad = 0;
    }
    auto run = nsp == 1 ? conv1d : nsp == 2 ? conv2d : conv3d;
    return std::vector{run(x, in[1], in[2], {st}, {conv_pad}, {1}, 1)};
  };
  ops["upsample_nearest1d"] = [](std::vector<Tensor>& in, const Params& p) {
    return std::vector{upsample_nearest1d(in[0], p.ints("output_size"), scale_at(p, 0))};
  };
  ops["upsample_nearest3d"] = [](std::vector<Tensor>& in, const Params& p) {
    return std::vector{
        upsample_nearest3d(in[0], p.ints("output_size"), scale_at(p, 0), scale_at(p, 1), scale_at(p, 2))};
  };
  ops["upsample_linear1d"] = [](std::vector<Tensor>& in, const Params& p) {
    return std::vector{upsample_linear1d(in[0], p.ints("output_size"), p.flag("align_corners"), scale_at(p, 0))};
  };
  ops["upsample_trilinear3d"] = [](std::vector<Tensor>& in, const Params& p) {
    return std::vector{upsample_trilinear3d(in[0], p.ints("output_size"), p.flag("align_corners"), scale_at(p, 0),
                                            scale_at(p, 1), scale_at(p, 2))};
  };
  ops["upsample_bicubic2d"] = [](std::vector<Tensor>& in, const Params& p) {
    return std::vector{
        upsample_bicubic2d(in[0], p.ints("output_size"), p.flag("align_corners"), scale_at(p, 0), scale_at(p, 1))};
  };
  return ops;
}

// Transposed convolutions sum in oneDNN's order (as nn_test's convolutions);
// interpolation weights agree to rounding in the compute type.
std::optional<testing::Tolerance> pad_interp_tolerance(const std::string& op, DType d) {
  bool conv = op.rfind("conv", 0) == 0;
  if (d == DType::Float) return conv ? testing::Tolerance{1e-4, 1e-4} : testing::Tolerance{1e-5, 1e-5};
  if (d == DType::BFloat16) return testing::Tolerance{1e-2, 2e-2};
  return std::nullopt;
}

// torch 1.13 returns uninitialised memory for (-6, 2) on 6 elements and refuses (-4, 3)
// for overlapping memory; torchlet refuses both rather than divide by the empty rest.
TEST(Pad, CircularPadWiderThanWhatCroppingLeavesIsRefused) {
  Tensor x = arange(6, DType::Float).view({1, 1, 6});
  EXPECT_THROW(pad(x, {-6, 2}, "circular"), ValueError);
  EXPECT_THROW(pad(x, {-4, 3}, "circular"), ValueError);
  EXPECT_EQ(pad(x, {-3, -3}, "circular").numel(), 0);
  // torch 1.13 prints tensor([[[3., 4., 5., 3., 4.]]]) for this one.
  EXPECT_EQ(pad(x, {-3, 2}, "circular").to_vector<float>(), (std::vector<float>{3, 4, 5, 3, 4}));
}

TEST(PadInterpOracle, MatchesTorch) {
  testing::run_fixture("pad_interp.txt", pad_interp_ops(), pad_interp_tolerance, true);
}

}  // namespace
}  // namespace torchlet

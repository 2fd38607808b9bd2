// End-to-end checks that the kernels compose into the networks the first milestone
// targets: a resnet BasicBlock with downsample and classifier head, a mobilenet_v2
// inverted residual, and nn.TransformerEncoderLayer (eval), each built here from
// torchlet operators exactly as torch's modules compute them and compared with
// torch's own outputs (tests/fixtures/gen_kernels.py, gen_models).
#include <cmath>

#include <gtest/gtest.h>
#include <torchlet/ops.h>

#include "oracle.h"

namespace torchlet {
namespace {

using testing::OpFn;
using testing::Params;

// params at p[i..i+3]: weight, bias, running_mean, running_var.
Tensor bn(const Tensor& x, const std::vector<Tensor>& p, size_t i) {
  return batch_norm(x, p[i], p[i + 1], p[i + 2], p[i + 3], false, 0.1, 1e-5);
}

std::vector<Tensor> resnet_basic_block(std::vector<Tensor>& in, const Params&) {
  const Tensor& x = in[0];
  Tensor y = relu(bn(conv2d(x, in[1], std::nullopt, {2}, {1}), in, 2));
  y = bn(conv2d(y, in[6], std::nullopt, {1}, {1}), in, 7);
  Tensor shortcut = bn(conv2d(x, in[11], std::nullopt, {2}, {0}), in, 12);
  y = relu(add(y, shortcut));
  y = max_pool2d(y, {3}, {2}, {1});
  y = adaptive_avg_pool2d(y, {1, 1}).flatten(1);
  return {linear(y, in[16], in[17])};
}

std::vector<Tensor> mobilenet_inverted_residual(std::vector<Tensor>& in, const Params&) {
  const Tensor& x = in[0];
  Tensor y = hardtanh(bn(conv2d(x, in[1], std::nullopt), in, 2), 0.0, 6.0);  // relu6
  y = hardtanh(bn(conv2d(y, in[6], std::nullopt, {1}, {1}, {1}, 96), in, 7), 0.0, 6.0);
  y = bn(conv2d(y, in[11], std::nullopt), in, 12);
  return {add(x, y)};
}

// nn.TransformerEncoderLayer(batch_first=True, norm_first=False, relu), eval mode.
std::vector<Tensor> transformer_encoder_layer(std::vector<Tensor>& in, const Params& p) {
  const Tensor& x = in[0];
  int64_t b = x.size(0), s = x.size(1), d = x.size(2), heads = p.integer("nhead"), hd = d / heads;
  Tensor qkv = linear(x, in[1], in[2]);
  auto parts = chunk(qkv, 3, -1);
  auto heads_of = [&](const Tensor& t) { return t.reshape({b, s, heads, hd}).transpose(1, 2); };
  Tensor q = heads_of(parts[0]), k = heads_of(parts[1]), v = heads_of(parts[2]);
  Tensor scores = div(matmul(q, k.transpose(-2, -1)), std::sqrt(static_cast<double>(hd)));
  Tensor attn = matmul(softmax(scores, -1), v).transpose(1, 2).reshape({b, s, d});
  Tensor h = layer_norm(add(x, linear(attn, in[3], in[4])), {d}, in[9], in[10]);
  Tensor ff = linear(dropout(relu(linear(h, in[5], in[6])), 0.1, false), in[7], in[8]);
  return {layer_norm(add(h, ff), {d}, in[11], in[12])};
}

// Several layers of float32 accumulation in a different order from torch's (oneDNN
// convolutions, fused attention): 1e-4 relative plus 1e-4 absolute.
std::optional<testing::Tolerance> model_tolerance(const std::string&, DType) {
  return testing::Tolerance{1e-4, 1e-4};
}

TEST(ModelsOracle, BlocksMatchTorch) {
  std::map<std::string, OpFn> ops{{"resnet_basic_block", resnet_basic_block},
                                  {"mobilenet_inverted_residual", mobilenet_inverted_residual},
                                  {"transformer_encoder_layer", transformer_encoder_layer}};
  testing::run_fixture("models.txt", ops, model_tolerance);
}

}  // namespace
}  // namespace torchlet

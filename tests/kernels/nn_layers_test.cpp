// Neural-network layers against real PyTorch (kernels/nn_layers.txt from
// gen_kernels_nn_layers.py): activations of activation.cpp, instance_norm
// (instance_norm.cpp), embedding_bag (embedding_bag.cpp), einsum (einsum.cpp) and the
// losses of loss.cpp over
// every reduction, float32/float64 plus the dtypes torch refuses, non-contiguous and
// empty inputs, and torch's messages for invalid arguments.
#include <cmath>
#include <limits>

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

std::map<std::string, OpFn> nn_layers_ops() {
  std::map<std::string, OpFn> ops;
  auto unary = [](auto fn) {
    return [fn](std::vector<Tensor>& in, const Params&) { return std::vector{fn(in[0])}; };
  };
  ops["relu6"] = unary([](const Tensor& x) { return relu6(x); });
  ops["selu"] = unary([](const Tensor& x) { return selu(x); });
  ops["mish"] = unary([](const Tensor& x) { return mish(x); });
  ops["softsign"] = unary([](const Tensor& x) { return softsign(x); });
  ops["tanhshrink"] = unary([](const Tensor& x) { return tanhshrink(x); });
  ops["log_sigmoid"] = unary([](const Tensor& x) { return log_sigmoid(x); });
  ops["celu"] = [](std::vector<Tensor>& in, const Params& p) { return std::vector{celu(in[0], p.scalar("alpha"))}; };
  ops["softshrink"] = [](std::vector<Tensor>& in, const Params& p) {
    return std::vector{softshrink(in[0], p.scalar("lambd"))};
  };
  ops["hardshrink"] = [](std::vector<Tensor>& in, const Params& p) {
    return std::vector{hardshrink(in[0], p.scalar("lambd"))};
  };
  ops["threshold"] = [](std::vector<Tensor>& in, const Params& p) {
    return std::vector{threshold(in[0], p.scalar("threshold"), p.scalar("value"))};
  };
  ops["glu"] = [](std::vector<Tensor>& in, const Params& p) { return std::vector{glu(in[0], p.integer("dim"))}; };
  ops["rrelu"] = [](std::vector<Tensor>& in, const Params& p) {
    return std::vector{rrelu(in[0], p.scalar("lower"), p.scalar("upper"), false)};
  };
  ops["softmin"] = [](std::vector<Tensor>& in, const Params& p) {
    return std::vector{softmin(in[0], p.integer("dim"), p.dtype("dtype"))};
  };
  ops["normalize"] = [](std::vector<Tensor>& in, const Params& p) {
    return std::vector{normalize(in[0], p.real("p"), p.integer("dim"), p.real("eps"))};
  };
  ops["prelu"] = [](std::vector<Tensor>& in, const Params&) { return std::vector{prelu(in[0], in[1])}; };
  ops["instance_norm"] = [](std::vector<Tensor>& in, const Params& p) {
    return std::vector{instance_norm(in[0], arg(in, 1), arg(in, 2), arg(in, 3), arg(in, 4), p.flag("use_input_stats"),
                                     0.1, p.real("eps"))};
  };
  ops["embedding_bag"] = [](std::vector<Tensor>& in, const Params& p) {
    std::optional<int64_t> pad;
    if (p.has("padding_idx")) pad = p.integer("padding_idx");
    return std::vector{embedding_bag(in[0], in[1], arg(in, 2), p.integer("mode"), arg(in, 3),
                                     p.flag("include_last_offset"), pad)};
  };
  ops["einsum"] = [](std::vector<Tensor>& in, const Params& p) {
    std::string eq = p.str("equation");
    std::replace(eq.begin(), eq.end(), '+', ',');  // ',' cannot appear in a fixture list
    return std::vector{einsum(eq, in)};
  };
  auto pair_loss = [](auto fn) {
    return [fn](std::vector<Tensor>& in, const Params& p) { return std::vector{fn(in[0], in[1], p)}; };
  };
  ops["mse_loss"] = pair_loss([](auto& a, auto& b, auto& p) { return mse_loss(a, b, p.integer("reduction")); });
  ops["l1_loss"] = pair_loss([](auto& a, auto& b, auto& p) { return l1_loss(a, b, p.integer("reduction")); });
  ops["smooth_l1_loss"] = pair_loss(
      [](auto& a, auto& b, auto& p) { return smooth_l1_loss(a, b, p.integer("reduction"), p.real("beta")); });
  ops["huber_loss"] =
      pair_loss([](auto& a, auto& b, auto& p) { return huber_loss(a, b, p.integer("reduction"), p.real("delta")); });
  ops["kl_div"] = pair_loss(
      [](auto& a, auto& b, auto& p) { return kl_div(a, b, p.integer("reduction"), p.flag("log_target")); });
  ops["binary_cross_entropy"] = [](std::vector<Tensor>& in, const Params& p) {
    return std::vector{binary_cross_entropy(in[0], in[1], arg(in, 2), p.integer("reduction"))};
  };
  ops["binary_cross_entropy_with_logits"] = [](std::vector<Tensor>& in, const Params& p) {
    return std::vector{binary_cross_entropy_with_logits(in[0], in[1], arg(in, 2), arg(in, 3), p.integer("reduction"))};
  };
  ops["nll_loss"] = [](std::vector<Tensor>& in, const Params& p) {
    return std::vector{nll_loss(in[0], in[1], arg(in, 2), p.integer("reduction"), p.integer("ignore_index"))};
  };
  ops["cross_entropy"] = [](std::vector<Tensor>& in, const Params& p) {
    return std::vector{cross_entropy(in[0], in[1], arg(in, 2), p.integer("reduction"), p.integer("ignore_index"),
                                     p.real("label_smoothing"))};
  };
  return ops;
}

// einsum contracts through bmm in an order of its own; losses reduce in double where
// torch reduces in the input type; bfloat16 rounds per step.
std::optional<testing::Tolerance> nn_layers_tolerance(const std::string& op, DType d) {
  if (d == DType::Float) return op == "einsum" ? testing::Tolerance{1e-4, 1e-5} : testing::Tolerance{1e-5, 1e-5};
  if (d == DType::BFloat16) return testing::Tolerance{1e-2, 1e-2};
  return std::nullopt;
}

TEST(NNLayersOracle, MatchesTorch) { testing::run_fixture("nn_layers.txt", nn_layers_ops(), nn_layers_tolerance, true); }

// What torch 1.13 reads past its data for (labels outside [0, C), negative lengths) is
// refused by name; a zero input length, uninitialized in torch, is defined: no frames
// align an empty target with probability 1 (loss 0) and nothing else (inf).
TEST(CtcLoss, RefusesWhatTorchReadsOutOfBoundsAndDefinesEmptyInputs) {
  const Tensor lp = log_softmax(div(arange(30, DType::Float).reshape({3, 2, 5}), 7.0), 2);
  const Tensor targets = tensor<int64_t>({1, 2, 3, 0}, {2, 2});
  auto refusal = [&](const Tensor& t, std::vector<int64_t> il, std::vector<int64_t> tl) {
    try {
      ctc_loss(lp, t, IntList(il.data(), il.size()), IntList(tl.data(), tl.size()), 0, kReductionNone);
    } catch (const ValueError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(refusal(tensor<int64_t>({1, 5, 3, 0}, {2, 2}), {3, 3}, {2, 1}).find("target label 5 of sequence 0 is outside [0, 5)"),
            std::string::npos);
  EXPECT_NE(refusal(tensor<int64_t>({1, 2, -1, 0}, {2, 2}), {3, 3}, {2, 1}).find("target label -1 of sequence 1"),
            std::string::npos);
  EXPECT_NE(refusal(targets, {-1, 3}, {2, 1}).find("must not be negative"), std::string::npos);
  EXPECT_NE(refusal(targets, {3, 3}, {2, -1}).find("must not be negative"), std::string::npos);
  // Lengths whose sum overflows int64 are refused by the size checks, not summed on.
  const int64_t huge = std::numeric_limits<int64_t>::max();
  EXPECT_NE(refusal(tensor<int64_t>({1, 2, 3}, {3}), {3, 3}, {huge, huge}).find("at dimension 0"), std::string::npos);
  EXPECT_NE(refusal(targets, {3, 3}, {huge, 1}).find("at least"), std::string::npos);
  const std::vector<int64_t> il = {0, 0}, tl = {0, 1};
  const Tensor loss = ctc_loss(lp, targets, IntList(il.data(), il.size()), IntList(tl.data(), tl.size()), 0, kReductionNone);
  EXPECT_EQ(loss.to_vector<float>()[0], 0.0f);
  EXPECT_TRUE(std::isinf(loss.to_vector<float>()[1]));
}

}  // namespace
}  // namespace torchlet

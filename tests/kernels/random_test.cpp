// Random sampling (random.cpp) against real PyTorch (kernels/random.txt from
// gen_kernels_nn_layers.py): after manual_seed(s), rand/randn/randint/uniform_/normal_
// must give torch.manual_seed(s)'s values exactly, bit for bit, including randn's
// cached Box-Muller sample across calls, the 16-element float path with its tail,
// 64-bit randint ranges and strided (transposed) destinations; and eye.
#include <gtest/gtest.h>
#include <torchlet/ops.h>

#include "oracle.h"

namespace torchlet {
namespace {

using testing::OpFn;
using testing::Params;

Generator seeded(const Params& p) { return Generator(static_cast<uint64_t>(std::stoull(p.str("seed")))); }

// A fresh tensor with the template's sizes, strides and dtype.
Tensor like(const Tensor& t) { return empty_strided(t.sizes(), t.strides(), t.dtype()); }

std::map<std::string, OpFn> random_ops() {
  std::map<std::string, OpFn> ops;
  ops["rand"] = [](std::vector<Tensor>& in, const Params& p) {
    Generator g = seeded(p);
    return std::vector{rand(in[0].sizes(), in[0].dtype(), &g)};
  };
  ops["randn"] = [](std::vector<Tensor>& in, const Params& p) {
    Generator g = seeded(p);
    return std::vector{randn(in[0].sizes(), in[0].dtype(), &g)};
  };
  ops["randn_pair"] = [](std::vector<Tensor>& in, const Params& p) {
    // Through the default generator, as torch.manual_seed + torch.randn use it.
    manual_seed(static_cast<uint64_t>(std::stoull(p.str("seed"))));
    Tensor a = randn(in[0].sizes(), in[0].dtype());
    Tensor b = randn(in[0].sizes(), in[0].dtype());
    return std::vector{a, b};
  };
  ops["randint"] = [](std::vector<Tensor>& in, const Params& p) {
    Generator g = seeded(p);
    return std::vector{randint(p.integer("low"), p.integer("high"), in[0].sizes(), in[0].dtype(), &g)};
  };
  ops["uniform_"] = [](std::vector<Tensor>& in, const Params& p) {
    Generator g = seeded(p);
    Tensor t = like(in[0]);
    uniform_(t, p.real("low"), p.real("high"), &g);
    return std::vector{t};
  };
  ops["normal_"] = [](std::vector<Tensor>& in, const Params& p) {
    Generator g = seeded(p);
    Tensor t = like(in[0]);
    normal_(t, p.real("mean"), p.real("std"), &g);
    return std::vector{t};
  };
  ops["eye"] = [](std::vector<Tensor>&, const Params& p) {
    std::optional<int64_t> m;
    if (p.has("m")) m = p.integer("m");
    return std::vector{eye(p.integer("n"), m, *p.dtype("dtype"))};
  };
  return ops;
}

// Exact: the generator and its transforms reproduce torch's bits.
std::optional<testing::Tolerance> exact(const std::string&, DType) { return testing::Tolerance{0, 0}; }

TEST(RandomOracle, ReproducesTorchBitForBit) { testing::run_fixture("random.txt", random_ops(), exact, true); }

TEST(Random, GeneratorsWithTheSameSeedAgreeAndReseedingRestarts) {
  Generator a(42), b(42);
  Tensor x = randn({50}, DType::Float, &a);
  EXPECT_TRUE(testing::compare_tensors(x, randn({50}, DType::Float, &b), testing::Tolerance{0, 0}).empty());
  a.manual_seed(42);
  EXPECT_TRUE(testing::compare_tensors(randn({50}, DType::Float, &a), x, testing::Tolerance{0, 0}).empty());
  EXPECT_EQ(a.initial_seed(), 42u);
}

}  // namespace
}  // namespace torchlet

// Elementwise kernels (binary.cpp, unary.cpp) against real PyTorch: every binary and
// unary operator over every real dtype, broadcast, 0-dim, empty, transposed and sliced
// inputs, Python-number operands, in-place and out= forms, and torch's errors.
#include <cmath>
#include <vector>

#include <gtest/gtest.h>
#include <torchlet/ops.h>

#include "oracle.h"

namespace torchlet {
namespace {

using testing::OpFn;
using testing::Params;

std::map<std::string, OpFn> elementwise_ops() {
  std::map<std::string, OpFn> ops;
#define TL_BINARY_CASE(name, category)                                                       \
  ops[#name] = [](std::vector<Tensor>& in, const Params&) { return std::vector{name(in[0], in[1])}; }; \
  ops[#name ".Scalar"] = [](std::vector<Tensor>& in, const Params& p) {                       \
    return std::vector{name(in[0], p.scalar("other"))};                                       \
  };
  TL_BINARY_OPS(TL_BINARY_CASE)
#undef TL_BINARY_CASE
#define TL_UNARY_CASE(name, category, half, boolean)                                                          \
  ops[#name] = [](std::vector<Tensor>& in, const Params&) { return std::vector{name(in[0])}; }; \
  ops[#name "_"] = [](std::vector<Tensor>& in, const Params&) { return std::vector{name##_(in[0])}; };
  TL_UNARY_OPS(TL_UNARY_CASE)
#undef TL_UNARY_CASE
  auto alpha = [](const Params& p) { return p.has("alpha") ? p.scalar("alpha") : Scalar(1); };
  ops["add"] = [=](std::vector<Tensor>& in, const Params& p) { return std::vector{add(in[0], in[1], alpha(p))}; };
  ops["sub"] = [=](std::vector<Tensor>& in, const Params& p) { return std::vector{sub(in[0], in[1], alpha(p))}; };
  ops["rsub"] = [=](std::vector<Tensor>& in, const Params& p) { return std::vector{rsub(in[0], in[1], alpha(p))}; };
  ops["add.Scalar"] = [](std::vector<Tensor>& in, const Params& p) { return std::vector{add(in[0], p.scalar("other"))}; };
  ops["sub.Scalar"] = [](std::vector<Tensor>& in, const Params& p) { return std::vector{sub(in[0], p.scalar("other"))}; };
  ops["div"] = [](std::vector<Tensor>& in, const Params& p) {
    std::optional<std::string_view> mode;
    if (p.has("rounding_mode")) mode = p.str("rounding_mode");
    return std::vector{div(in[0], in[1], mode)};
  };
  ops["div.Scalar"] = [](std::vector<Tensor>& in, const Params& p) { return std::vector{div(in[0], p.scalar("other"))}; };
  ops["pow.Scalar_base"] = [](std::vector<Tensor>& in, const Params& p) { return std::vector{pow(p.scalar("base"), in[0])}; };
  ops["where"] = [](std::vector<Tensor>& in, const Params&) { return std::vector{where(in[0], in[1], in[2])}; };
  ops["add_"] = [](std::vector<Tensor>& in, const Params&) { return std::vector{add_(in[0], in[1])}; };
  ops["div_"] = [](std::vector<Tensor>& in, const Params&) { return std::vector{div_(in[0], in[1])}; };
  ops["mul_out"] = [](std::vector<Tensor>& in, const Params&) {
    Tensor out = in[0];
    mul_out(out, in[1], in[2]);
    return std::vector{out};
  };
  ops["gelu"] = [](std::vector<Tensor>& in, const Params& p) { return std::vector{gelu(in[0], p.str("approximate"))}; };
  ops["gelu_dnnl"] = [](std::vector<Tensor>& in, const Params&) { return std::vector{gelu(in[0])}; };
  ops["gelu_strided"] = ops["gelu"];
  ops["leaky_relu"] = [](std::vector<Tensor>& in, const Params& p) {
    return std::vector{leaky_relu(in[0], p.scalar("negative_slope"))};
  };
  ops["elu"] = [](std::vector<Tensor>& in, const Params& p) { return std::vector{elu(in[0], p.scalar("alpha"))}; };
  ops["softplus"] = [](std::vector<Tensor>& in, const Params& p) {
    return std::vector{softplus(in[0], p.scalar("beta"), p.scalar("threshold"))};
  };
  ops["hardtanh"] = [](std::vector<Tensor>& in, const Params& p) {
    return std::vector{hardtanh(in[0], p.scalar("min_val"), p.scalar("max_val"))};
  };
  ops["clamp"] = [](std::vector<Tensor>& in, const Params& p) {
    return std::vector{clamp(in[0], p.opt_scalar("min"), p.opt_scalar("max"))};
  };
  return ops;
}

// gelu bit for bit where torchlet takes torch's path on every CPU: contiguous float32
// (and bfloat16 where onednn_takes_bfloat16) through oneDNN's primitive on both sides,
// bfloat16 elsewhere with torch's per-operation roundings (unary.cpp,
// bfloat16_gelu_erf). float32 and float64 off oneDNN keep the default tolerance.
std::optional<testing::Tolerance> elementwise_tolerance(const std::string& op, DType d) {
  const bool gelu = op == "gelu" || op == "gelu_strided";
  if (op == "gelu_dnnl" || (gelu && d == DType::BFloat16)) return testing::Tolerance{0, 0};
  return std::nullopt;
}

TEST(ElementwiseOracle, MatchesTorch) {
  testing::run_fixture("elementwise.txt", elementwise_ops(), elementwise_tolerance);
}

TEST(Elementwise, ErrorsNameTheOperator) {
  Tensor a = ones({2, 3});
  Tensor b = ones({4});
  try {
    add(a, b);
    ADD_FAILURE() << "broadcast mismatch accepted";
  } catch (const ValueError& e) {
    EXPECT_NE(std::string(e.what()).find("must match the size"), std::string::npos) << e.what();
  }
  try {
    bitwise_and(a, a);
    ADD_FAILURE() << "float bitwise_and accepted";
  } catch (const UnsupportedError& e) {
    EXPECT_NE(std::string(e.what()).find("bitwise_and"), std::string::npos) << e.what();
  }
  Tensor i = ones({2, 3}, DType::Long);
  try {
    exp_(i);
    ADD_FAILURE() << "float result written into int64 in place";
  } catch (const TypeError& e) {
    EXPECT_NE(std::string(e.what()).find("exp"), std::string::npos) << e.what();
  }
  Tensor c = ones({2}, DType::ComplexFloat);
  EXPECT_THROW(add(c, c), UnsupportedError);
}

// float32 exp (vec_math.h) at the ends of its range, where the exponent field it builds
// reaches inf's bits (n = 128) and zero's (n = -127) and nothing else fixes the result up.
TEST(Elementwise, Float32ExpAtTheEndsOfItsRange) {
  const std::vector<float> xs = {-1e30f, -1000.0f, -88.5f, -88.0f, -87.9f, -87.7f, -87.5f, -87.34f, -87.0f,
                                 0.0f,   -0.0f,    1.0f,   88.0f,  88.37f, 88.38f, 88.5f,  89.0f,   1000.0f,
                                 1e30f};
  std::vector<float> got = exp(tensor<float>(xs)).to_vector<float>();
  for (size_t i = 0; i < xs.size(); ++i) {
    const float x = xs[i];
    const double want = std::exp(static_cast<double>(x));
    if (x > 88.377f) {  // 127.5 ln 2: n rounds to 128
      EXPECT_TRUE(std::isinf(got[i]) && got[i] > 0) << x << " -> " << got[i];
    } else if (x < -87.69f) {  // -126.5 ln 2: n rounds to -127
      EXPECT_EQ(got[i], 0.0f) << x;
    } else {
      EXPECT_NEAR(got[i], want, 2e-7 * want + 2e-39) << x;  // subnormals to about one ulp of 2^-126
    }
  }
  std::vector<float> special = exp(tensor<float>({std::nanf(""), INFINITY, -INFINITY})).to_vector<float>();
  EXPECT_TRUE(std::isnan(special[0]));
  EXPECT_EQ(special[1], INFINITY);
  EXPECT_EQ(special[2], 0.0f);
}

TEST(Elementwise, InPlaceRefusesExpandedDestination) {
  Tensor row = zeros({3});
  Tensor expanded = row.expand({4, 3});
  EXPECT_THROW(add_(expanded, ones({4, 3})), ValueError);
  EXPECT_THROW(relu_(expanded), ValueError);
}

TEST(Elementwise, InPlaceWritesThroughViews) {
  Tensor base = zeros({4, 4});
  Tensor col = base.select(1, 2);  // stride 4
  add_(col, ones({4}), 3);
  auto v = base.to_vector<float>();
  for (int r = 0; r < 4; ++r) {
    for (int c = 0; c < 4; ++c) EXPECT_EQ(v[r * 4 + c], c == 2 ? 3.0f : 0.0f);
  }
}

}  // namespace
}  // namespace torchlet

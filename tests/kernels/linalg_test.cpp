// Matrix products (linalg.cpp) against real PyTorch: every torch.matmul rank case with
// broadcast batches, transposed and empty operands, addmm's alpha/beta, linear with
// and without bias, over float32 (oneDNN), float64, integer and refused dtypes.
#include <cstdlib>

#include <gtest/gtest.h>
#include <torchlet/ops.h>

#include "oracle.h"

extern "C" void dgetrf_(const int* m, const int* n, double* a, const int* lda, int* ipiv, int* info);

namespace torchlet {
namespace {

using testing::OpFn;
using testing::Params;

std::map<std::string, OpFn> linalg_ops() {
  std::map<std::string, OpFn> ops;
  ops["mm"] = [](std::vector<Tensor>& in, const Params&) { return std::vector{mm(in[0], in[1])}; };
  ops["bmm"] = [](std::vector<Tensor>& in, const Params&) { return std::vector{bmm(in[0], in[1])}; };
  ops["matmul"] = [](std::vector<Tensor>& in, const Params&) { return std::vector{matmul(in[0], in[1])}; };
  ops["addmm"] = [](std::vector<Tensor>& in, const Params& p) {
    return std::vector{addmm(in[0], in[1], in[2], p.scalar("beta"), p.scalar("alpha"))};
  };
  ops["linear"] = [](std::vector<Tensor>& in, const Params&) {
    std::optional<Tensor> bias;
    if (in.size() > 2) bias = in[2];
    return std::vector{linear(in[0], in[1], bias)};
  };
  return ops;
}

// oneDNN and torch's BLAS add the K products in different orders: float32 agrees to
// 1e-4 relative plus 1e-4 absolute (dot products of 300 terms of magnitude ~9);
// bfloat16 is computed in float and rounded once by torchlet.
std::optional<testing::Tolerance> linalg_tolerance(const std::string&, DType d) {
  switch (d) {
    case DType::Float: return testing::Tolerance{1e-4, 1e-4};
    case DType::BFloat16: return testing::Tolerance{2e-2, 1e-1};
    default: return std::nullopt;
  }
}

TEST(LinalgOracle, MatchesTorch) { testing::run_fixture("linalg.txt", linalg_ops(), linalg_tolerance); }

TEST(Linalg, ShapeErrorNamesBothShapes) {
  try {
    mm(ones({2, 3}), ones({4, 5}));
    ADD_FAILURE() << "mismatched mm accepted";
  } catch (const ValueError& e) {
    EXPECT_NE(std::string(e.what()).find("(2x3 and 4x5)"), std::string::npos) << e.what();
  }
}

// The chain-order costs multiply sizes, and empty matrices may have any other size:
// here 2^40 cubed. The arithmetic wraps as torch's does in practice (UBSan checks it is
// defined), so the order is torch's, which multiplies only empty matrices: torch 1.13
// returns a 0 x 0 result for this chain.
TEST(Linalg, MultiDotCostsPastInt64) {
  const int64_t h = int64_t{1} << 40;
  Tensor r = multi_dot({empty({0, h}), empty({h, 0}), empty({0, h}), empty({h, 0}), empty({0, h}), empty({h, 0})});
  EXPECT_EQ(r.sizes(), IntList({0, 0}));
}

TEST(Linalg, MatrixPowerSquaresAndInverts) {
  Tensor a = tensor<float>({2, 1, 0, 1}, {2, 2});  // [[2, 1], [0, 1]]: a^n = [[2^n, 2^n - 1], [0, 1]]
  EXPECT_EQ(matrix_power(a, 10).to_vector<float>(), (std::vector<float>{1024, 1023, 0, 1}));
  EXPECT_EQ(matrix_power(a, 0).to_vector<float>(), (std::vector<float>{1, 0, 0, 1}));
  EXPECT_EQ(matrix_power(a, -2).to_vector<float>(), (std::vector<float>{0.25, -0.75, 0, 1}));
  EXPECT_THROW(matrix_power(ones({2, 3}), 2), ValueError);
}

// torch reduces in memory order: a transposed input's 2-norm over every element is the
// contiguous one's, bit for bit.
TEST(Linalg, VectorNormWalksMemoryOrder) {
  Tensor x = mul(arange(60, DType::Float).reshape({6, 10}), Scalar(0.37));
  EXPECT_EQ(norm(x.t(), 2).item().to_double(), norm(x, 2).item().to_double());
  EXPECT_EQ(norm(x.t(), 2, {0, 1}).item().to_double(), norm(x.reshape({60}), 2, {0}).item().to_double());
  EXPECT_THROW(norm(x, 2, {}, false, DType::Half), TypeError);  // narrowing
}

// Where torch's tensorinv/tensorsolve read past a shape (torch 1.13: "cannot create
// std::vector larger than max_size()", or garbage sizes), torchlet names the problem;
// sizes of an empty tensor whose product overflows are refused, not wrapped.
TEST(Linalg, TensorInvAndSolveRefuseImpossibleShapes) {
  auto message_of = [](const auto& call) {
    try {
      call();
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message_of([] { tensorinv(ones({2, 2}), 3); }).find("ind (3) is larger than the input's number of dimensions (2)"),
            std::string::npos);
  EXPECT_NE(message_of([] { tensorsolve(ones({2, 2}), ones({2, 2, 2})); }).find("other has more dimensions (3) than self (2)"),
            std::string::npos);
  const int64_t h = int64_t{1} << 40;
  EXPECT_NE(message_of([] { tensorinv(empty({0, h, h, h}), 1); }).find("overflows int64"), std::string::npos);
  // (Such a tensor's strides wrap as torch's do: torch.empty(0, 2**40, 2**40, 2**40).stride().)
  EXPECT_EQ(empty({0, h, h, h}).strides(), IntList({0, 0, h, 1}));
  // The ordinary case, checked by value: the inverse of diag(2, 4) read as a 2 x 2 tensor.
  Tensor a = tensor<double>({2, 0, 0, 4}, {2, 2});
  EXPECT_EQ(tensorinv(a, 1).to_vector<double>(), (std::vector<double>{0.5, 0, 0, 0.25}));
  EXPECT_EQ(tensorsolve(a, tensor<double>({1, 1}, {2})).to_vector<double>(), (std::vector<double>{0.5, 0.25}));
}

// Pivots ldl_factor could not have made send LAPACK's sytrs outside the matrix (torch
// 1.13 corrupted its heap on a zero pivot): each is refused by name, and the real
// pivots of a 2 x 2-block factorisation solve the system.
TEST(Linalg, LdlSolveRefusesPivotsSytrfCouldNotMake) {
  const Tensor a = tensor<double>({0, 1, 2, 1, 0, 3, 2, 3, 0}, {3, 3});  // zero diagonal: a 2 x 2 block
  const auto factored = ldl_factor(a);  // (clang 14 lambdas cannot capture structured bindings)
  const Tensor ld = factored.first, pivots = factored.second;
  const Tensor b = tensor<double>({1, 2, 3}, {3, 1});
  const Tensor x = ldl_solve(ld, pivots, b);
  const std::vector<double> back = matmul(a, x).to_vector<double>();
  for (size_t i = 0; i < 3; ++i) EXPECT_NEAR(back[i], b.to_vector<double>()[i], 1e-12);
  auto refusal = [&](std::vector<int> bad) {
    try {
      ldl_solve(ld, tensor<int>(bad, {3}), b);
    } catch (const ValueError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(refusal({0, 2, 3}).find("entry 0 is 0"), std::string::npos);
  EXPECT_NE(refusal({1, 2, 4}).find("entry 2 is 4"), std::string::npos);
  EXPECT_NE(refusal({1, 2, -3}).find("entry 2 is -3"), std::string::npos);  // a block with no second row
  EXPECT_NE(refusal({-2, -3, 3}).find("entry 0 is -2"), std::string::npos);  // a pair that does not match
}

// b with one dim fewer than A that is not A.shape[:-1]: torch 1.13 fails an internal
// assertion; torchlet says what b should have been.
TEST(Linalg, LstsqNamesAnUnusableRightHandSide) {
  try {
    lstsq(ones({2, 5, 3}), ones({1, 5}));
    ADD_FAILURE() << "accepted";
  } catch (const ValueError& e) {
    EXPECT_NE(std::string(e.what()).find("other of shape [1, 5] is neither input.shape[:-1]"), std::string::npos) << e.what();
  }
  // The ordinary case by value: x = 1 fits [1, 2, 3] ~ x * [1, 2, 3] exactly, residual 0.
  const LstsqResult r = lstsq(tensor<double>({1, 2, 3}, {3, 1}), tensor<double>({1, 2, 3}, {3}), std::nullopt, "gelsd");
  ASSERT_EQ(r.solution.numel(), 1);
  EXPECT_NEAR(r.solution.to_vector<double>()[0], 1, 1e-15);
  EXPECT_EQ(r.rank.item().to_double(), 1);
  EXPECT_NEAR(r.residuals.to_vector<double>().at(0), 0, 1e-28);
}

// The SVD drivers with no right-hand sides: torch 1.13's process ends inside LAPACK (an
// illegal-argument report stops it); torchlet still returns A's rank and singular values.
TEST(Linalg, LstsqSvdDriversWithoutRightHandSides) {
  const Tensor a = tensor<double>({3, 0, 0, 2, 0, 0}, {3, 2});
  for (const char* driver : {"gelsd", "gelss"}) {
    const LstsqResult r = lstsq(a, empty({3, 0}, DType::Double), std::nullopt, driver);
    EXPECT_EQ(r.solution.sizes(), IntList({2, 0})) << driver;
    EXPECT_EQ(r.rank.item().to_double(), 2) << driver;
    EXPECT_EQ(r.singular_values.to_vector<double>(), (std::vector<double>{3, 2})) << driver;
  }
}

// Reference LAPACK answers an illegal argument by ending the process with status 0 (so
// a test binary would even "pass"); torchlet's xerbla_ records it and returns instead:
// LAPACK reports it in info, and the next LAPACK-backed operator runs normally.
[[noreturn]] void call_lapack_illegally_then_exit() {
  const int m = -1, n = 1, lda = 1;
  double a = 0;
  int pivot = 0, info = 0;
  dgetrf_(&m, &n, &a, &lda, &pivot, &info);
  const bool reported = info == -1;
  const bool still_works = inverse(tensor<double>({2}, {1, 1})).item().to_double() == 0.5;
  std::exit(reported && still_works ? 42 : 1);
}

TEST(LinalgDeathTest, IllegalLapackArgumentDoesNotEndTheProcess) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(call_lapack_illegally_then_exit(), ::testing::ExitedWithCode(42), "");
}

}  // namespace
}  // namespace torchlet

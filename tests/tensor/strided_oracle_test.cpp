// copy_ and printing of strided views checked against real PyTorch: random permuted,
// stepped, offset, broadcast and expanded views of every dtype pair, compared byte for
// byte over the whole destination storage (tests/fixtures/gen_tensor.py, copy_strided.txt).
#include <cstring>
#include <limits>
#include <vector>

#include <gtest/gtest.h>
#include <torchlet/error.h>
#include <torchlet/tensor.h>

#include "../common/fixtures.h"

namespace torchlet {
namespace {

using testing::fixture_lines;
using testing::from_hex;
using testing::split;
using testing::to_hex;

Shape parse_ints(const std::string& s) {
  Shape out;
  for (const auto& part : split(s, ',')) {
    if (!part.empty()) out.push_back(std::stoll(part));
  }
  return out;
}

DType dtype_named(const std::string& n) {
  auto d = dtype_from_name(n);
  if (!d) ADD_FAILURE() << "unknown dtype in fixture: " << n;
  return d.value_or(DType::Float);
}

std::string escape_newlines(const std::string& s) {
  std::string out;
  for (char c : s) out += c == '\n' ? std::string("\\n") : std::string(1, c);
  return out;
}

TEST(TensorStridedOracle, CopyBetweenStridedViewsMatchesTorchByteForByte) {
  auto lines = fixture_lines("tensor/copy_strided.txt");
  EXPECT_GE(lines.size(), 500u);
  for (const auto& line : lines) {
    auto f = split(line, '|');
    ASSERT_GE(f.size(), 12u) << line;
    std::string expected_repr = f[11];
    for (size_t i = 12; i < f.size(); ++i) expected_repr += "|" + f[i];

    const DType dst_dtype = dtype_named(f[0]), src_dtype = dtype_named(f[5]);
    const auto src_bytes = from_hex(f[9]);
    Tensor src_storage = empty({static_cast<int64_t>(src_bytes.size() / element_size(src_dtype))},
                               src_dtype);
    if (!src_bytes.empty()) std::memcpy(src_storage.data_ptr(), src_bytes.data(), src_bytes.size());
    Tensor dst_storage = zeros({std::stoll(f[4])}, dst_dtype);

    Tensor src = src_storage.as_strided(parse_ints(f[6]), parse_ints(f[7]), std::stoll(f[8]));
    Tensor dst = dst_storage.as_strided(parse_ints(f[1]), parse_ints(f[2]), std::stoll(f[3]));
    dst.copy_(src);
    EXPECT_EQ(to_hex(dst_storage.data_ptr(), dst_storage.nbytes()), f[10])
        << dtype_name(src_dtype) << " " << shape_repr(src.sizes()) << " strides "
        << shape_repr(src.strides()) << " -> " << dtype_name(dst_dtype) << " "
        << shape_repr(dst.sizes()) << " strides " << shape_repr(dst.strides());
    EXPECT_EQ(escape_newlines(src.repr()), expected_repr);
  }
}

TEST(TensorStridedOracle, ToKeepsTheLayoutAsTorchDoes) {
  auto lines = fixture_lines("tensor/to_layout.txt");
  EXPECT_GE(lines.size(), 500u);
  Tensor base = zeros({4000});
  for (const auto& line : lines) {
    auto f = split(line, '|');
    ASSERT_EQ(f.size(), 3u) << line;
    Tensor v = base.as_strided(parse_ints(f[0]), parse_ints(f[1]), 1);
    Tensor converted = v.to(DType::Double);
    EXPECT_EQ(shape_repr(converted.strides()), shape_repr(parse_ints(f[2])))
        << "sizes " << f[0] << " strides " << f[1];
    EXPECT_EQ(shape_repr(converted.sizes()), shape_repr(v.sizes()));
  }
}

TEST(TensorStridedOracle, ToCarriesRequiresGradOnlyToTypesWithGradients) {
  // torch 1.13: ones(2, requires_grad=True).to(dtype).requires_grad
  Tensor t = ones({2});
  t.set_requires_grad(true);
  EXPECT_TRUE(t.to(DType::Double).requires_grad());
  EXPECT_TRUE(t.to(DType::Half).requires_grad());
  EXPECT_TRUE(t.to(DType::ComplexFloat).requires_grad());
  EXPECT_TRUE(t.to(DType::Float, /*copy=*/true).requires_grad());
  EXPECT_FALSE(t.to(DType::Long).requires_grad());
  EXPECT_FALSE(t.to(DType::Bool).requires_grad());
}

// Note [bfloat16 NaN] in tensor_copy.cpp, spelled out on the layouts that decide it
// (each expectation was read from torch 1.13 on this machine's AVX2 build).
TEST(TensorStridedOracle, Float32ToBFloat16NaNBitsFollowTorchsLoopChoice) {
  auto nan_bits = [](const Tensor& t) {
    Tensor c = t.contiguous();
    return static_cast<const uint16_t*>(c.data_ptr())[0];
  };
  const float nan = std::numeric_limits<float>::quiet_NaN();
  Tensor src = full({4, 5}, nan, DType::Float);
  // Contiguous, or the same permutation on both sides: the vectorised routine.
  EXPECT_EQ(nan_bits(empty({4, 5}, DType::BFloat16).copy_(src)), 0xffff);
  Tensor dst_t = empty({5, 4}, DType::BFloat16).t();
  EXPECT_EQ(nan_bits(dst_t.copy_(full({5, 4}, nan, DType::Float).t())), 0xffff);
  // The destination's innermost dimension is strided in the source: element-wise.
  EXPECT_EQ(nan_bits(empty({5, 4}, DType::BFloat16).t().copy_(src)), 0x7fc0);
  // A stride-0 innermost source dimension is element-wise; a stride-0 outer one is not.
  EXPECT_EQ(nan_bits(empty({4, 5}, DType::BFloat16).copy_(full({4, 1}, nan).expand({4, 5}))),
            0x7fc0);
  EXPECT_EQ(nan_bits(empty({4, 5}, DType::BFloat16).copy_(full({5}, nan).expand({4, 5}))),
            0xffff);
  // to() keeps a transposed input's layout, so both sides run the same way.
  EXPECT_EQ(nan_bits(src.t().to(DType::BFloat16)), 0xffff);
  // 0-dim tensors go element-wise; one element in a dimensioned tensor does not.
  EXPECT_EQ(nan_bits(empty({}, DType::BFloat16).copy_(scalar_tensor(nan))), 0x7fc0);
  EXPECT_EQ(nan_bits(empty({1}, DType::BFloat16).copy_(full({3}, nan).slice(0, 1, 2))), 0xffff);
  // float64 runs take the vectorised routine in whole blocks of 16 from each run's start.
  auto bits_of = [](const Tensor& t) {
    Tensor c = t.contiguous();
    const auto* p = static_cast<const uint16_t*>(c.data_ptr());
    return std::vector<uint16_t>(p, p + c.numel());
  };
  Tensor nan64 = full({3, 20}, static_cast<double>(nan), DType::Double);
  Tensor rows = zeros({3, 40}, DType::BFloat16).slice(1, 0, 20);
  rows.copy_(nan64);  // three runs of 20: 16 vectorised, 4 element-wise each
  Tensor whole = zeros({3, 20}, DType::BFloat16);
  whole.copy_(nan64);  // one run of 60: 48 vectorised, 12 element-wise
  Tensor both_t = zeros({20, 3}, DType::BFloat16).t();
  both_t.copy_(full({20, 3}, static_cast<double>(nan), DType::Double).t());  // as `whole`
  auto row_bits = bits_of(rows), whole_bits = bits_of(whole), t_bits = bits_of(both_t.t());
  for (size_t i = 0; i < 60; ++i) {
    EXPECT_EQ(row_bits[i], i % 20 < 16 ? 0xffff : 0x7fc0) << "row copy, element " << i;
    EXPECT_EQ(whole_bits[i], i < 48 ? 0xffff : 0x7fc0) << "contiguous copy, element " << i;
    EXPECT_EQ(t_bits[i], i < 48 ? 0xffff : 0x7fc0) << "transposed copy, memory element " << i;
  }
  // Printing ignores the sign bit 0xffff carries, as Python does.
  EXPECT_EQ(empty({2}, DType::BFloat16).copy_(full({2}, nan)).repr(),
            "tensor([nan, nan], dtype=torch.bfloat16)");
}

}  // namespace
}  // namespace torchlet

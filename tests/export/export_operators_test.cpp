// The export-only operators (src/export/export_operators.h): torch's runtime assertions
// refuse what torch's eager kernels refuse, and scaled_dot_product_attention's mask
// forms agree with each other and with the formula computed from torchlet's operators.
#include <cmath>
#include <limits>

#include <gtest/gtest.h>
#include <torchlet/error.h>
#include <torchlet/ops.h>

#include "export/export_operators.h"

namespace torchlet {
namespace {

using jit::Stack;

const jit::Operator& op(const char* key) {
  const jit::Operator* o = exported::find_export_operator(key);
  if (!o) throw std::runtime_error(std::string("no export operator ") + key);
  return *o;
}

Stack call(const char* key, Stack args) {
  op(key).operation()(args);
  return args;
}

TEST(ExportOperators, OnlyTorch2SchemasAreHere) {
  EXPECT_EQ(exported::find_export_operator("aten::linear"), nullptr);
  EXPECT_EQ(op("aten::scaled_dot_product_attention").schema().arguments.size(), 8u);
  EXPECT_TRUE(op("aten::scaled_dot_product_attention").schema().arguments[6].kwarg_only);  // scale
}

TEST(ExportOperators, AssertScalarRaisesTheProgramsMessage) {
  EXPECT_TRUE(call("aten::_assert_scalar", {IValue(true), IValue("fine")}).empty());
  EXPECT_TRUE(call("aten::_assert_scalar", {IValue(int64_t{3}), IValue("fine")}).empty());
  try {
    call("aten::_assert_scalar", {IValue(false), IValue("Runtime assertion failed for expression 2 <= s0")});
    FAIL() << "a false assertion passed";
  } catch (const ValueError& e) {
    EXPECT_NE(std::string(e.what()).find("2 <= s0"), std::string::npos) << e.what();
  }
}

TEST(ExportOperators, AssertAsyncReadsOneElement) {
  EXPECT_TRUE(call("aten::_assert_async.msg", {IValue(ones({1}, DType::Bool)), IValue("ok")}).empty());
  EXPECT_THROW(call("aten::_assert_async.msg", {IValue(zeros({1}, DType::Bool)), IValue("no")}), ValueError);
  EXPECT_THROW(call("aten::_assert_async.msg", {IValue(ones({2}, DType::Bool)), IValue("two")}), ValueError);
}

TEST(ExportOperators, ConstrainRangeChecksBothEnds) {
  EXPECT_TRUE(call("aten::sym_constrain_range", {IValue(int64_t{5}), IValue(int64_t{2}), IValue(int64_t{8})}).empty());
  EXPECT_TRUE(call("aten::sym_constrain_range_for_size", {IValue(int64_t{5}), IValue(), IValue()}).empty());
  EXPECT_THROW(call("aten::sym_constrain_range", {IValue(int64_t{1}), IValue(int64_t{2}), IValue()}), ValueError);
  EXPECT_THROW(call("aten::sym_constrain_range_for_size", {IValue(int64_t{9}), IValue(), IValue(int64_t{8})}), ValueError);
}

TEST(ExportOperators, AssertTensorMetadataComparesWhatIsGiven) {
  const Tensor t = zeros({2, 3});
  auto ints = [](std::vector<IValue> v) { return IValue::list(std::move(v)); };
  const IValue float_code(int64_t{6}), long_code(int64_t{4});
  EXPECT_TRUE(call("aten::_assert_tensor_metadata", {IValue(t), ints({int64_t{2}, int64_t{3}}), ints({int64_t{3}, int64_t{1}}),
                                                     float_code, IValue(), IValue()})
                  .empty());
  EXPECT_THROW(call("aten::_assert_tensor_metadata", {IValue(t), ints({int64_t{3}, int64_t{2}}), IValue(), IValue(), IValue(), IValue()}),
               ValueError);
  EXPECT_THROW(call("aten::_assert_tensor_metadata", {IValue(t), IValue(), ints({int64_t{1}, int64_t{2}}), IValue(), IValue(), IValue()}),
               ValueError);
  EXPECT_THROW(call("aten::_assert_tensor_metadata", {IValue(t), IValue(), IValue(), long_code, IValue(), IValue()}), ValueError);
}

Tensor attention(const Tensor& q, const Tensor& k, const Tensor& v, IValue mask, bool causal, IValue scale,
                 bool gqa = false) {
  Stack s = call("aten::scaled_dot_product_attention",
                 {IValue(q), IValue(k), IValue(v), std::move(mask), IValue(0.0), IValue(causal), std::move(scale), IValue(gqa)});
  return s.at(0).toTensor();
}

TEST(ExportOperators, AttentionMaskFormsAgree) {
  manual_seed(7);
  const Tensor q = randn({2, 3, 4, 8}), k = randn({2, 3, 6, 8}), v = randn({2, 3, 6, 5});
  // The formula, with the default scale 1/sqrt(8).
  const Tensor plain = matmul(softmax(mul(matmul(q, k.transpose(-2, -1)), Scalar(1 / std::sqrt(8.0))), -1), v);
  EXPECT_TRUE(allclose(attention(q, k, v, IValue(), false, IValue()), plain, 1e-6, 1e-6));
  // A bool mask keeps where true; the float mask that is 0 there and -inf elsewhere is the same.
  const Tensor keep = gt(randn({4, 6}), Scalar(-0.5));
  const Tensor bias = masked_fill(zeros({4, 6}), logical_not(keep), Scalar(-std::numeric_limits<double>::infinity()));
  const Tensor by_bool = attention(q, k, v, IValue(keep), false, IValue(0.25));
  EXPECT_TRUE(allclose(by_bool, attention(q, k, v, IValue(bias), false, IValue(0.25)), 1e-6, 1e-6));
  EXPECT_FALSE(allclose(by_bool, attention(q, k, v, IValue(), false, IValue(0.25)), 1e-6, 1e-6));
  // Causal is the lower-triangular bool mask, and refuses an explicit mask beside it.
  const Tensor tri = tril(ones({4, 6}, DType::Bool));
  EXPECT_TRUE(allclose(attention(q, k, v, IValue(), true, IValue()), attention(q, k, v, IValue(tri), false, IValue()), 1e-6, 1e-6));
  EXPECT_THROW(attention(q, k, v, IValue(tri), true, IValue()), ValueError);
}

TEST(ExportOperators, GroupedQueryAttentionRepeatsKeyHeads) {
  manual_seed(8);
  const Tensor q = randn({1, 4, 3, 8}), k = randn({1, 2, 5, 8}), v = randn({1, 2, 5, 8});
  const Tensor repeated = attention(q, repeat_interleave(k, 2, 1), repeat_interleave(v, 2, 1), IValue(), false, IValue());
  EXPECT_TRUE(allclose(attention(q, k, v, IValue(), false, IValue(), /*gqa=*/true), repeated, 1e-6, 1e-6));
}

}  // namespace
}  // namespace torchlet

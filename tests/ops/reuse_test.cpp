// Note [Reusing a dying input] (src/jit/ops/ops_util.h): batch_norm and add.Tensor write
// their result over an input tensor only the stack references. Each case runs the
// registered operator on a stack that owns (or does not solely own) the input and
// checks both where the result lives and that it equals the allocating kernel's
// result (itself checked against torch by the kernel and ops fixtures); a tensor
// anyone else can still see must come out unchanged.
#include <cstring>
#include <vector>

#include <gtest/gtest.h>
#include <torchlet/error.h>
#include <torchlet/ops.h>
#include <torchlet/tensor.h>

#include "jit/runtime/operator.h"

namespace torchlet {
namespace {

// Runs `key` on `stack` (which the caller builds so that it may hold the only
// reference to a tensor) and returns the first result.
IValue run_op(const std::string& key, jit::Stack stack) {
  const jit::Operator* op = jit::OperatorRegistry::global().find(key);
  if (!op) throw std::runtime_error("operator not registered: " + key);
  op->operation()(stack);
  return stack.front();
}

bool same_values(const Tensor& a, const Tensor& b) {
  return a.sizes() == b.sizes() && a.dtype() == b.dtype() && a.to_vector<double>() == b.to_vector<double>();
}

struct BatchNormParams {
  Tensor weight, bias, mean, var;
};

BatchNormParams bn_params(int64_t c, Generator& gen) {
  return {randn({c}, DType::Float, &gen), randn({c}, DType::Float, &gen), randn({c}, DType::Float, &gen),
          add(rand({c}, DType::Float, &gen), Scalar(0.5))};
}

IValue run_batch_norm(Tensor input, const BatchNormParams& p) {
  jit::Stack s;
  s.emplace_back(std::move(input));
  for (const Tensor& t : {p.weight, p.bias, p.mean, p.var}) s.emplace_back(t);
  s.emplace_back(false);  // training
  s.emplace_back(0.1);    // momentum
  s.emplace_back(1e-5);   // eps
  s.emplace_back(true);   // cudnn_enabled
  return run_op("aten::batch_norm", std::move(s));
}

TEST(ReuseDyingInput, BatchNormWritesOverAnInputOnlyTheStackHolds) {
  Generator gen(3);
  Tensor x = randn({2, 5, 4, 3}, DType::Float, &gen);
  BatchNormParams p = bn_params(5, gen);
  Tensor expected = batch_norm(x, p.weight, p.bias, p.mean, p.var, false, 0.1, 1e-5);

  Tensor dying = x.clone();
  void* bytes = dying.data_ptr();
  Tensor r = run_batch_norm(std::move(dying), p).toTensor();
  EXPECT_EQ(r.data_ptr(), bytes);
  EXPECT_TRUE(same_values(r, expected));

  // Still held by the caller: a new tensor, the input untouched.
  Tensor held = x.clone();
  r = run_batch_norm(held, p).toTensor();
  EXPECT_NE(r.data_ptr(), held.data_ptr());
  EXPECT_TRUE(same_values(r, expected));
  EXPECT_TRUE(same_values(held, x));

  // Another view shares the bytes: it must still read the input.
  Tensor viewed = x.clone();
  Tensor flat = viewed.view({-1});
  r = run_batch_norm(std::move(viewed), p).toTensor();
  EXPECT_NE(r.data_ptr(), flat.data_ptr());
  EXPECT_TRUE(same_values(r, expected));
  EXPECT_TRUE(same_values(flat, x.reshape({-1})));

  // Not contiguous: the allocating path.
  Tensor t = x.transpose(2, 3).contiguous().transpose(2, 3);
  ASSERT_FALSE(t.is_contiguous());
  void* t_bytes = t.data_ptr();
  r = run_batch_norm(std::move(t), p).toTensor();
  EXPECT_NE(r.data_ptr(), t_bytes);
  EXPECT_TRUE(same_values(r, expected));

  // Borrowed bytes (a caller's buffer, as a mapped file's) are never written.
  std::vector<float> buffer = x.to_vector<float>();
  Tensor borrowed = from_blob(buffer.data(), x.sizes(), DType::Float);
  r = run_batch_norm(std::move(borrowed), p).toTensor();
  EXPECT_NE(r.data_ptr(), static_cast<void*>(buffer.data()));
  EXPECT_TRUE(same_values(r, expected));
  EXPECT_EQ(buffer, x.to_vector<float>());

  // A dying input still gets the allocating kernel's checks.
  jit::Stack bad;
  bad.emplace_back(x.clone());
  for (int i = 0; i < 4; ++i) bad.emplace_back();  // no running statistics
  bad.emplace_back(false);
  bad.emplace_back(0.1);
  bad.emplace_back(1e-5);
  bad.emplace_back(true);
  EXPECT_THROW(run_op("aten::batch_norm", std::move(bad)), ValueError);
}

IValue run_add(Tensor self, Tensor other, Scalar alpha) {
  jit::Stack s;
  s.emplace_back(std::move(self));
  s.emplace_back(std::move(other));
  s.emplace_back(alpha);
  return run_op("aten::add.Tensor", std::move(s));
}

TEST(ReuseDyingInput, AddWritesOverADyingSelfOnlyWhenTheSumKeepsItsShapeAndDtype) {
  Generator gen(5);
  Tensor a = randn({3, 4}, DType::Float, &gen), b = randn({3, 4}, DType::Float, &gen);
  Tensor row = randn({4}, DType::Float, &gen);

  Tensor dying = a.clone();
  void* bytes = dying.data_ptr();
  Tensor r = run_add(std::move(dying), b, Scalar(2)).toTensor();
  EXPECT_EQ(r.data_ptr(), bytes);
  EXPECT_TRUE(same_values(r, add(a, b, 2)));

  // other broadcasts into self's shape: still in place.
  dying = a.clone();
  bytes = dying.data_ptr();
  r = run_add(std::move(dying), row, Scalar(1)).toTensor();
  EXPECT_EQ(r.data_ptr(), bytes);
  EXPECT_TRUE(same_values(r, add(a, row)));

  // self would have to grow: a new [3, 4] tensor.
  Tensor small = row.clone();
  r = run_add(std::move(small), a, Scalar(1)).toTensor();
  EXPECT_TRUE(same_values(r, add(row, a)));

  // int64 self + float32 other is float32: a new tensor of the promoted dtype.
  Tensor ints = arange(12, DType::Long).reshape({3, 4});
  Tensor ints_dying = ints.clone();
  r = run_add(std::move(ints_dying), b, Scalar(1)).toTensor();
  EXPECT_EQ(r.dtype(), DType::Float);
  EXPECT_TRUE(same_values(r, add(ints, b)));

  // self held elsewhere: untouched.
  Tensor held = a.clone();
  r = run_add(held, b, Scalar(1)).toTensor();
  EXPECT_TRUE(same_values(held, a));
  EXPECT_TRUE(same_values(r, add(a, b)));
}

}  // namespace
}  // namespace torchlet

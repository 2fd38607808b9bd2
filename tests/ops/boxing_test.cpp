// Note [Boxing]: a kernel's C++ signature read off the stack in schema order, each
// parameter type by its schema type, the results pushed one value per element, the
// stack below the arguments untouched, and a schema whose argument count differs from
// the kernel's refused when it is registered.
#include <optional>
#include <string>
#include <tuple>

#include <gtest/gtest.h>
#include <torchlet/error.h>
#include <torchlet/ops.h>

#include "jit/ops/boxing.h"

namespace torchlet::jit::ops {
namespace {

struct Seen {
  int64_t i = 0;
  double d = 0;
  bool b = false;
  std::vector<int64_t> list;
  std::optional<int64_t> absent, present;
  bool tensor_given = false;
  Scalar scalar;
  DType dtype = DType::Float;
  std::string str;
  bool input_was_dying = false;
};
Seen seen;

std::tuple<Tensor, int64_t> probe(const Tensor& t, int64_t i, double d, bool b, IntList list, std::optional<int64_t> absent,
                                  std::optional<int64_t> present, const std::optional<Tensor>& maybe, const Scalar& scalar,
                                  DType dtype, const std::string& str) {
  seen.input_was_dying = is_dying(t);
  seen.i = i;
  seen.d = d;
  seen.b = b;
  seen.list.assign(list.begin(), list.end());
  seen.absent = absent;
  seen.present = present;
  seen.tensor_given = maybe.has_value();
  seen.scalar = scalar;
  seen.dtype = dtype;
  seen.str = str;
  return {torchlet::mul(t, 2), i + 1};
}

TEST(Boxing, ReadsEveryArgumentInSchemaOrderAndPushesEachResult) {
  Stack s;
  s.emplace_back(IValue(std::string("below")));  // not an argument: must survive
  s.emplace_back(torchlet::ones({2, 3}));
  s.emplace_back(int64_t{7});
  s.emplace_back(2.5);
  s.emplace_back(true);
  s.push_back(int_list(std::vector<int64_t>{4, 5}));
  s.emplace_back();  // None
  s.emplace_back(int64_t{9});
  s.emplace_back(torchlet::zeros({1}));
  s.emplace_back(IValue(Scalar(int64_t{3})));
  s.emplace_back(int64_t{6});  // torch's ScalarType index 6: float32
  s.emplace_back(IValue(std::string("mode")));
  boxed<&probe>.op(s);
  EXPECT_EQ(boxed<&probe>.arguments, 11u);
  ASSERT_EQ(s.size(), 3u);
  EXPECT_EQ(s[0].toStringRef(), "below");
  EXPECT_EQ(s[1].toTensor().sizes(), (Shape{2, 3}));
  EXPECT_EQ(torchlet::sum(s[1].toTensor()).item().to_double(), 12.0);
  EXPECT_EQ(s[2].toInt(), 8);
  EXPECT_EQ(seen.i, 7);
  EXPECT_EQ(seen.d, 2.5);
  EXPECT_TRUE(seen.b);
  EXPECT_EQ(seen.list, (std::vector<int64_t>{4, 5}));
  EXPECT_FALSE(seen.absent.has_value());
  EXPECT_EQ(seen.present, 9);
  EXPECT_TRUE(seen.tensor_given);
  EXPECT_EQ(seen.scalar.to_double(), 3.0);
  EXPECT_EQ(seen.dtype, DType::Float);
  EXPECT_EQ(seen.str, "mode");
  // The stack held the only reference to the input, so the kernel may reuse it.
  EXPECT_TRUE(seen.input_was_dying);
}

TEST(Boxing, ABareIntIsAnIntListOfOne) {
  // int[2] kernel_size=3: torch passes the bare int; the kernel broadcasts it.
  Stack s;
  s.emplace_back(torchlet::ones({1, 1, 4, 4}));
  s.emplace_back(int64_t{2});
  s.push_back(int_list(std::vector<int64_t>{}));
  s.emplace_back(int64_t{0});
  s.emplace_back(int64_t{1});
  s.emplace_back(false);
  boxed<&torchlet::max_pool2d>.op(s);
  ASSERT_EQ(s.size(), 1u);
  EXPECT_EQ(s[0].toTensor().sizes(), (Shape{1, 1, 2, 2}));
}

Tensor two_arguments(const Tensor& a, const Tensor&) { return a; }

TEST(Boxing, RegistrationRefusesASchemaOfAnotherArity) {
  EXPECT_THROW(RegisterOps({{"boxing_test::wrong_arity(Tensor a) -> Tensor", boxed<&two_arguments>}}), InternalError);
}

Tensor scaled(const Tensor& t, double factor) { return torchlet::mul(t, factor); }

TEST(Boxing, TrailingCheckedArgumentsAreReadButNotPassed) {
  // scaled(Tensor t, float factor, *, Generator? generator, Layout?, Device?, bool?)
  using Row = BoxedCall<&scaled, NoGenerator, StridedCpu>;
  EXPECT_EQ(Row::kSlots, 6u);
  auto stack_with = [](IValue generator, IValue pin_memory) {
    Stack s;
    s.emplace_back(torchlet::ones({2}));
    s.emplace_back(3.0);
    s.push_back(std::move(generator));
    s.emplace_back();  // layout
    s.emplace_back();  // device
    s.push_back(std::move(pin_memory));
    return s;
  };
  constexpr BoxedOperation row = boxed<&scaled, NoGenerator, StridedCpu>;
  Stack s = stack_with(IValue(), IValue(false));
  row.op(s);
  ASSERT_EQ(s.size(), 1u);
  EXPECT_EQ(torchlet::sum(s[0].toTensor()).item().to_double(), 6.0);

  Stack with_generator = stack_with(IValue(int64_t{1}), IValue());
  EXPECT_THROW(row.op(with_generator), UnsupportedError);
  Stack pinned = stack_with(IValue(), IValue(true));
  EXPECT_THROW(row.op(pinned), UnsupportedError);
}

TEST(Boxing, InplaceWritesTheFunctionalResultIntoSelf) {
  Tensor self = torchlet::ones({3});
  Stack s;
  s.emplace_back(self);
  s.emplace_back(4.0);
  inplace<&scaled>.op(s);
  ASSERT_EQ(s.size(), 1u);
  EXPECT_TRUE(s[0].toTensor().is_same(self));
  EXPECT_EQ(torchlet::sum(self).item().to_double(), 12.0);

  // torch's in-place rules: a float result does not go into an int tensor.
  Stack ints;
  ints.emplace_back(torchlet::ones({3}, DType::Long));
  ints.emplace_back(0.5);
  EXPECT_THROW(inplace<&scaled>.op(ints), TypeError);
}

TEST(Boxing, OutVariantResizesOutAndWritesIntoIt) {
  Tensor out = torchlet::zeros({1});
  Stack s;
  s.emplace_back(torchlet::ones({2, 2}));
  s.emplace_back(2.0);
  s.emplace_back(out);
  EXPECT_EQ(out_variant<&scaled>.arguments, 3u);
  out_variant<&scaled>.op(s);
  ASSERT_EQ(s.size(), 1u);
  EXPECT_TRUE(s[0].toTensor().is_same(out));
  EXPECT_EQ(out.sizes(), (Shape{2, 2}));
  EXPECT_EQ(torchlet::sum(out).item().to_double(), 8.0);
}

}  // namespace
}  // namespace torchlet::jit::ops

// Refined tensor types against torch 1.13: the types torch makes (from tensors, and with
// a dtype, sizes or device set) parse from torch's own printing and print back the same;
// subtyping and unification agree with TensorType.isSubtypeOf and unify_type_list on
// every pair (fixture ir/tensor_types.txt). Plus what the IR text may get wrong.
#include <map>

#include <gtest/gtest.h>
#include <torchlet/error.h>

#include "../common/fixtures.h"
#include "values/type.h"

namespace torchlet::jit {
namespace {

TEST(TensorDetails, SubtypesAndUnificationAsTorch) {
  auto lines = testing::fixture_lines("ir/tensor_types.txt");
  std::map<std::string, TypePtr> parsed;
  auto get = [&](const std::string& text) {
    auto it = parsed.find(text);
    if (it == parsed.end()) it = parsed.emplace(text, parse_graph_type(text)).first;
    EXPECT_EQ(it->second->str(), text);
    EXPECT_EQ(it->second->kind(), TypeKind::Tensor);
    EXPECT_EQ(it->second->annotation_str(), "Tensor") << "details are the graph spelling only";
    return it->second;
  };
  for (const auto& line : lines) {
    auto f = testing::split(line, '|');
    ASSERT_EQ(f.size(), 4u) << line;
    TypePtr a = get(f[0]), b = get(f[1]);
    EXPECT_EQ(a->is_subtype_of(*b), f[2] == "1") << f[0] << " <= " << f[1];
    std::optional<TypePtr> u = unify_types(a, b);
    ASSERT_TRUE(u) << f[0] << " with " << f[1];
    EXPECT_EQ((*u)->str(), f[3]) << f[0] << " with " << f[1];
  }
  EXPECT_GE(parsed.size(), 25u);
}

TEST(TensorDetails, WhatTheSpellingSays) {
  const TypePtr t = parse_graph_type("Float(2, *, strides=[3, 1], requires_grad=1, device=cpu)");
  const TensorDetails& d = *t->tensor_details();
  EXPECT_EQ(d.dtype, DType::Float);
  ASSERT_TRUE(d.rank());
  EXPECT_EQ(*d.rank(), 2u);
  EXPECT_EQ((*d.sizes)[0], 2);
  EXPECT_FALSE((*d.sizes)[1]);
  EXPECT_FALSE(d.concrete_sizes());
  EXPECT_EQ(d.strides, (std::vector<int64_t>{3, 1}));
  EXPECT_EQ(d.requires_grad, true);
  EXPECT_EQ(d.device, Device{});
  // Rank 0 from an empty list of sizes; a dtype with "Tensor" leaves the rank unknown.
  EXPECT_EQ(parse_graph_type("Float(device=cpu)")->tensor_details()->rank(), 0u);
  EXPECT_FALSE(parse_graph_type("LongTensor(device=cpu)")->tensor_details()->rank());
  EXPECT_EQ(parse_graph_type("Float(SS(-3), 4)")->str(), "Float(*, 4)");  // symbolic sizes are unknown here
  // What torch's parser reads besides: cuda devices, a requires_grad of any number.
  EXPECT_EQ(parse_graph_type("Float(1, requires_grad=2, device=cuda:1)")->str(), "Float(1, requires_grad=1, device=cuda:1)");
  // Nothing known is plain Tensor, and a refined type in a container prints inside it.
  EXPECT_EQ(Type::refined_tensor({}), Type::tensor());
  EXPECT_EQ(parse_graph_type("Float(2, 3)[]")->str(), "Float(2, 3)[]");
  EXPECT_EQ(unshaped_type(parse_graph_type("Dict(str, Float(2, 3)?)"))->str(), "Dict(str, Tensor?)");
}

TEST(TensorDetails, MalformedSpellingsAreRefusedByName) {
  const std::pair<const char*, const char*> cases[] = {
      {"Float(2, strides=[1, 1])", "strides are given for 2 dimension(s) of 1"},
      {"Float(device=cpu, 2)", "should come after dimensions"},
      {"Float(2, layout=1)", "unexpected specifier 'layout'"},
      {"Float(-1)", "expected a non-negative number for the size"},
      {"Float(2, device=cpu, device=cpu)", "'device' is specified twice"},
      {"Float(99999999999999999999)", "the size is too big"},
      {"Float(2,)", "expected a dimension or a specifier after ','"},
      {"Float(device=tpu)", "device type"},
      {"Float(2, strides=[1 2])", "expected ','"},
      {"FloatTensor(2)", "has no sizes"},
  };
  for (const auto& [text, message] : cases) {
    try {
      parse_graph_type(text);
      ADD_FAILURE() << text << " parsed";
    } catch (const CompileError& e) {
      EXPECT_NE(std::string(e.what()).find(message), std::string::npos) << text << ": " << e.what();
    }
  }
}

}  // namespace
}  // namespace torchlet::jit

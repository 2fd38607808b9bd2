// Objects, modules and calls from C++: GetAttr/SetAttr/CallMethod over ClassTypes,
// the Module view (attributes, parameters, buffers, children, train/eval), argument
// binding (keywords, defaults, errors torch words the same way), mangling, and the
// fast scalar path agreeing with the registered operators it stands in for.
#include <cmath>
#include <limits>

#include <gtest/gtest.h>

#include "jit/ir/ir_parser.h"
#include "jit/runtime/code.h"
#include "jit/runtime/interpreter.h"
#include "jit/runtime/module.h"
#include "jit/runtime/operator.h"

namespace torchlet::jit {
namespace {

// A Counter module with a Linear-like child, built through the Module API, its methods
// given as IR text that resolves class names through the unit.
struct Fixture {
  std::shared_ptr<CompilationUnit> cu = std::make_shared<CompilationUnit>();
  Module child{cu, "__torch__.Child"};
  Module root{cu, "__torch__.Root"};
  TypeResolver resolve = [this](std::string_view name) { return cu->find_type(name); };

  Fixture() {
    child.register_parameter("weight", full({2}, 3.0, DType::Float));
    child.register_buffer("running", zeros({2}, DType::Float));
    child.register_attribute("scale", Type::int_(), IValue(4));
    root.register_module("child", child);
    root.register_attribute("count", Type::int_(), IValue(0));
    root.register_parameter("bias", ones({1}, DType::Float));
    // child.forward(x: int) -> int: x * self.scale
    cu->create_method(child.type(), "forward", parse_ir(R"IR(
graph(%self : __torch__.Child, %x : int):
  %s : int = prim::GetAttr[name="scale"](%self)
  %r : int = aten::mul(%x, %s)
  return (%r)
)IR", resolve));
    // root.forward(x: int, step: int = 1) -> int: self.count += step; return self.child(x) + self.count
    cu->create_method(root.type(), "forward", parse_ir(R"IR(
graph(%self : __torch__.Root, %x : int, %step : int):
  %c : int = prim::GetAttr[name="count"](%self)
  %c2 : int = aten::add(%c, %step)
   = prim::SetAttr[name="count"](%self, %c2)
  %m : __torch__.Child = prim::GetAttr[name="child"](%self)
  %y : int = prim::CallMethod[name="forward"](%m, %x)
  %z : int = aten::add(%y, %c2)
  return (%z)
)IR", resolve), {std::nullopt, std::nullopt, IValue(1)});
  }
};

TEST(Module, MethodsReadAndWriteAttributesAndCallChildren) {
  Fixture f;
  EXPECT_EQ(f.root.forward({IValue(5)}).toInt(), 5 * 4 + 1);
  EXPECT_EQ(f.root.forward({IValue(5)}, {{"step", IValue(10)}}).toInt(), 5 * 4 + 11);
  EXPECT_EQ(f.root.attr("count").toInt(), 11);  // the object was mutated in place
  f.child.setattr("scale", IValue(-1));
  EXPECT_EQ(f.root.forward({IValue(2)}).toInt(), -2 + 12);  // a shared object, not a copy
}

TEST(Module, ParametersBuffersAndChildrenInTorchsOrder) {
  Fixture f;
  std::vector<std::string> params, buffers, modules;
  for (const auto& [name, t] : f.root.named_parameters()) params.push_back(name);
  for (const auto& [name, t] : f.root.named_buffers()) buffers.push_back(name);
  for (const auto& [name, m] : f.root.named_modules()) modules.push_back(name);
  EXPECT_EQ(params, (std::vector<std::string>{"bias", "child.weight"}));
  EXPECT_EQ(buffers, (std::vector<std::string>{"child.running"}));
  EXPECT_EQ(modules, (std::vector<std::string>{"", "child"}));
  EXPECT_EQ(f.root.named_parameters(/*recurse=*/false).size(), 1u);
  EXPECT_TRUE(f.root.is_training());
  f.root.eval();
  EXPECT_FALSE(f.root.is_training());
  EXPECT_FALSE(f.child.is_training());
  f.root.train();
  EXPECT_TRUE(f.child.is_training());
}

TEST(Module, ArgumentErrorsNameTheArgument) {
  Fixture f;
  auto message = [&](std::vector<IValue> args, Kwargs kwargs) {
    try {
      f.root.forward(std::move(args), kwargs);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message({}, {}).find("forward() is missing value for argument 'x'"), std::string::npos);
  EXPECT_NE(message({IValue(1)}, {{"stp", IValue(1)}}).find("unexpected keyword argument 'stp'"), std::string::npos);
  EXPECT_NE(message({IValue(1)}, {{"x", IValue(1)}}).find("multiple values for argument 'x'"), std::string::npos);
  EXPECT_NE(message({IValue("a")}, {}).find("expected a value of type 'int' for argument 'x' but instead found type 'str'"),
            std::string::npos);
  EXPECT_NE(message({IValue(1), IValue(2), IValue(3)}, {}).find("expected at most 3 argument(s) but received 4"),
            std::string::npos);
  try {
    f.root.attr("nope");
    FAIL();
  } catch (const ValueError& e) {
    EXPECT_NE(std::string(e.what()).find("has no attribute 'nope'"), std::string::npos);
  }
  EXPECT_THROW(f.root.setattr("count", IValue("not an int")), TypeError);
}

TEST(CompilationUnit, MangledNamesFollowTorch) {
  CompilationUnit cu;
  EXPECT_EQ(cu.mangle("__torch__.foo.Bar"), "__torch__.foo.Bar");
  cu.register_type(ClassType::create("__torch__.foo.Bar"));
  const std::string m0 = cu.mangle("__torch__.foo.Bar");
  EXPECT_EQ(m0, "__torch__.foo.___torch_mangle_0.Bar");
  cu.register_type(ClassType::create(m0));
  // Mangling a mangled name replaces its mangle namespace instead of nesting another.
  EXPECT_EQ(cu.mangle(m0), "__torch__.foo.___torch_mangle_1.Bar");
  EXPECT_THROW(cu.register_type(ClassType::create("__torch__.foo.Bar")), ValueError);
}

// Each fast-path row (fast_ops.def) against the registered operator it replaces, on
// edge-case operands; division by zero must fail the same way.
TEST(FastOps, AgreeWithTheRegisteredOperators) {
  const int64_t big = std::numeric_limits<int64_t>::max(), small = std::numeric_limits<int64_t>::min();
  const std::vector<int64_t> ints = {0, 1, -1, 7, -7, 3, -3, big, small};
  const std::vector<double> floats = {0.0, -0.0, 1.5, -2.25, 1e308, -1e-300};
  size_t compared = 0;
  auto run_graph = [](const std::string& overload, const std::string& type, IValue a, IValue b) {
    const Operator* op = OperatorRegistry::global().find(overload);
    EXPECT_NE(op, nullptr) << overload;
    const std::string ret = op ? op->return_types()[0]->str() : "int";
    auto g = parse_ir("graph(%a : " + type + ", %b : " + type + "):\n  %r : " + ret + " = " +
                      overload.substr(0, overload.find('.', 6)) + "(%a, %b)\n  return (%r)\n");
    CompilationUnit cu;
    auto* fn = cu.create_function("f", g);
    // The graph must take the fast path (instruction 1, after the argument STOREN).
    EXPECT_NE(fn->code().instructions[1].op, OpCode::OP) << fn->code().dump();
    EXPECT_NE(fn->code().instructions[1].op, OpCode::LOAD) << fn->code().dump();
    return (*fn)({std::move(a), std::move(b)});
  };
  auto check = [&](const std::string& overload, const std::string& type, const IValue& a, const IValue& b) {
    const Operator* op = OperatorRegistry::global().find(overload);
    ASSERT_NE(op, nullptr) << overload;
    Stack s{a, b};
    std::string want, got;
    try {
      op->operation()(s);
      want = s.back().repr();
    } catch (const Error& e) {
      want = std::string("error: ") + e.what();
    }
    try {
      got = run_graph(overload, type, a, b).repr();
    } catch (const ScriptException& e) {
      got = "error: " + e.message();
    }
    EXPECT_EQ(got, want) << overload << "(" << a.repr() << ", " << b.repr() << ")";
    ++compared;
  };
#define TL_FAST_OP(opcode, overload, type, expr)                                              \
  if (std::string(#type) == "Int")                                                            \
    for (int64_t x : ints)                                                                    \
      for (int64_t y : ints) check(overload, "int", IValue(x), IValue(y));                    \
  if (std::string(#type) == "Double")                                                         \
    for (double x : floats)                                                                   \
      for (double y : floats) check(overload, "float", IValue(x), IValue(y));                 \
  if (std::string(#type) == "Bool")                                                           \
    for (bool x : {false, true})                                                              \
      for (bool y : {false, true}) check(overload, "bool", IValue(x), IValue(y));
#include "jit/runtime/fast_ops.def"
#undef TL_FAST_OP
  EXPECT_GT(compared, 900u);
}

}  // namespace
}  // namespace torchlet::jit

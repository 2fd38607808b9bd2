// The interpreter against torch's: functions torch scripted (tests/fixtures/gen_runtime.py)
// are parsed from their graph text, run by torchlet and compared with what torch's
// interpreter returned; plus the emitter's last-use moves, tracebacks, fork/wait and
// concurrent calls.
#include <atomic>
#include <thread>

#include <gtest/gtest.h>
#include <torchlet/checkpoint.h>

#include "../common/fixtures.h"
#include "jit/runtime/code.h"
#include "jit/runtime/interpreter.h"
#include "runtime_test_util.h"

namespace torchlet::jit {
namespace {

using testing::compare_values;

std::string read_fixture(const std::string& rel) {
  std::string text;
  for (const auto& line : torchlet::testing::fixture_lines(rel)) text += line + "\n";
  return text;
}

// Every function of the fixture in one compilation unit, under its Python name (the
// name torch's prim::Constant[name=...] uses for calls).
std::shared_ptr<CompilationUnit> load_fixture_functions() {
  auto cu = std::make_shared<CompilationUnit>();
  for (const auto& name : torchlet::testing::fixture_lines("runtime/functions.txt"))
    if (!name.empty()) cu->create_function(name, parse_ir(read_fixture("runtime/" + name + ".graph.txt")));
  return cu;
}

TEST(Interpreter, MatchesTorchOnScriptedFunctions) {
  auto cu = load_fixture_functions();
  IValue cases = torchlet::load((torchlet::testing::fixture_dir() / "runtime" / "cases.pt").string());
  size_t checked = 0;
  for (const auto& [name, list] : cases.dictRef().items()) {
    const Function* fn = cu->find_function(name.toStringRef());
    ASSERT_NE(fn, nullptr) << name.toStringRef();
    for (const IValue& c : list.listRef().elements) {
      const auto& pair = c.tupleRef().elements;
      std::vector<IValue> args = pair[0].tupleRef().elements;
      const IValue& expected = pair[1];
      const std::string label = name.toStringRef() + IValue::tuple(args).repr();
      const bool raises = expected.isTuple() && expected.tupleRef().elements.size() == 2 &&
                          expected.tupleRef().elements[0].isString() &&
                          expected.tupleRef().elements[0].toStringRef() == "raises";
      if (raises) {
        const std::string want = expected.tupleRef().elements[1].toStringRef();
        try {
          (*fn)(args);
          ADD_FAILURE() << label << " returned instead of raising " << want;
        } catch (const ScriptException& e) {
          const std::string what = e.what();
          EXPECT_EQ(what.substr(what.rfind('\n') + 1), want) << label;
        }
      } else {
        IValue got;
        try {
          got = (*fn)(args);
        } catch (const Error& e) {
          ADD_FAILURE() << label << " threw: " << e.what() << "\n" << static_cast<const GraphFunction*>(fn)->graph()->str();
          continue;
        }
        EXPECT_EQ(compare_values(got, expected), "") << label;
      }
      ++checked;
    }
  }
  EXPECT_GE(checked, 35u);
}

TEST(Interpreter, TracebackNamesEveryFrameOutermostFirst) {
  auto cu = load_fixture_functions();
  try {
    (*cu->find_function("calls_check"))({IValue(7)});
    FAIL() << "expected a ScriptException";
  } catch (const ScriptException& e) {
    const std::string what = e.what();
    EXPECT_EQ(e.exception_class(), "builtins.ValueError");
    EXPECT_EQ(e.message(), "x too big: 7");
    EXPECT_EQ(what.rfind("The following operation failed in the TorchScript interpreter.\n"
                         "Traceback of TorchScript (most recent call last):\n", 0), 0u) << what;
    const size_t outer = what.find("calls_check"), inner = what.find("check_positive");
    ASSERT_NE(outer, std::string::npos) << what;
    ASSERT_NE(inner, std::string::npos) << what;
    EXPECT_LT(outer, inner) << what;
  }
}

TEST(Interpreter, LastUsesMoveAndDeadValuesAreDropped) {
  auto g = parse_ir(R"IR(
graph(%x : Tensor, %unused : Tensor):
  %y : Tensor = aten::mul(%x, %x)
  %z : Tensor = aten::mul(%y, %x)
  return (%z)
)IR");
  CompilationUnit cu;
  const Code& code = cu.create_function("f", g)->code();
  std::vector<std::string> ops;
  for (const auto& ins : code.instructions) ops.push_back(std::string(opcode_name(ins.op)) + " " + std::to_string(ins.x));
  // x is read three times: two loads, then a move at its last use; y moves once; the
  // unused input is dropped on entry.
  const std::vector<std::string> want = {"STOREN 0", "DROPR 1", "LOAD 0", "LOAD 0", "OP 0", "STORE 2",
                                         "MOVE 2", "MOVE 0", "OP 1", "STORE 3", "MOVE 3", "RET 0"};
  EXPECT_EQ(ops, want) << code.dump();

  // The input tensor's storage is released by the time the function returns, except
  // for the caller's own reference.
  Tensor x = ones({2}, DType::Float);
  IValue z = (*cu.find_function("f"))({IValue(x), IValue(x)});
  EXPECT_EQ(z.toTensor().at({1}).to_double(), 1.0);
}

TEST(Interpreter, ValuesDyingInOneBranchAreDroppedInTheOther) {
  auto g = parse_ir(R"IR(
graph(%c : bool, %x : Tensor, %w : Tensor):
  %r : Tensor = prim::If(%c)
    block0():
      %y : Tensor = aten::neg(%x)
      -> (%y)
    block1():
      -> (%w)
  return (%r)
)IR");
  CompilationUnit cu;
  const Code& code = cu.create_function("f", g)->code();
  const std::string dump = code.dump();
  // x dies in the then-branch (moved into neg) and is dropped at the start of the
  // else-branch; w likewise the other way round.
  EXPECT_NE(dump.find("MOVE 1"), std::string::npos) << dump;
  EXPECT_NE(dump.find("DROPR 1"), std::string::npos) << dump;
  EXPECT_NE(dump.find("DROPR 2"), std::string::npos) << dump;
  Tensor x = ones({1}, DType::Float), w = zeros({1}, DType::Float);
  EXPECT_EQ((*cu.find_function("f"))({IValue(true), IValue(x), IValue(w)}).toTensor().at({0}).to_double(), -1.0);
  EXPECT_EQ((*cu.find_function("f"))({IValue(false), IValue(x), IValue(w)}).toTensor().at({0}).to_double(), 0.0);
}

TEST(Interpreter, ValuesReadInsideALoopAreNotMovedThere) {
  auto g = parse_ir(R"IR(
graph(%n : int, %x : int):
  %t : bool = prim::Constant[value=1]()
  %s0 : int = prim::Constant[value=0]()
  %s : int = prim::Loop(%n, %t, %s0)
    block0(%i : int, %acc : int):
      %a : int = aten::add(%acc, %x)
      -> (%t, %a)
  return (%s)
)IR");
  CompilationUnit cu;
  auto* f = cu.create_function("f", g);
  EXPECT_EQ((*f)({IValue(5), IValue(3)}).toInt(), 15);
  EXPECT_EQ((*f)({IValue(0), IValue(3)}).toInt(), 0);
  const std::string dump = f->code().dump();
  EXPECT_EQ(dump.find("MOVE 1 "), std::string::npos) << "x is read every iteration:\n" << dump;
}

TEST(Interpreter, ForkRunsOnThePoolAndErrorsComeBackThroughWait) {
  auto cu = load_fixture_functions();
  Tensor x = full({3}, 2.0, DType::Float);
  IValue r = (*cu->find_function("forked"))({IValue(x)});
  EXPECT_EQ(r.toTensor().at({0}).to_double(), 6.0);

  auto g = parse_ir(R"IR(
graph(%x : int):
  %f : Future[int] = prim::fork_0(%x)
  %r : int = aten::wait(%f)
  return (%r)
with prim::fork_0 = graph(%y : int):
  %msg : str = prim::Constant[value="forked failure"]()
  %cls : str = prim::Constant[value="builtins.RuntimeError"]()
   = prim::RaiseException(%msg, %cls)
  return (%y)
)IR");
  auto* f = cu->create_function("fails_in_fork", g);
  try {
    (*f)({IValue(1)});
    FAIL() << "expected the fork's exception";
  } catch (const ScriptException& e) {
    EXPECT_EQ(e.exception_class(), "builtins.RuntimeError");
    EXPECT_EQ(e.message(), "forked failure");
  }
}

TEST(Interpreter, ManyThreadsCallOneFunction) {
  auto cu = load_fixture_functions();
  const Function* fn = cu->find_function("int_loop");
  const int64_t want = (*fn)({IValue(500)}).toInt();
  std::atomic<int> wrong{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t)
    threads.emplace_back([&] {
      for (int k = 0; k < 50; ++k)
        if ((*fn)({IValue(500)}).toInt() != want) ++wrong;
    });
  for (auto& t : threads) t.join();
  EXPECT_EQ(wrong.load(), 0);
}

TEST(Interpreter, UnknownOperatorsFailAtEmitTimeNamingTheNode) {
  auto g = parse_ir(R"IR(
graph(%x : int):
  %y : int = aten::no_such_op(%x)
  return (%y)
)IR");
  CompilationUnit cu;
  auto* f = cu.create_function("f", g);
  try {
    (*f)({IValue(1)});
    FAIL();
  } catch (const CompileError& e) {
    EXPECT_NE(std::string(e.what()).find("aten::no_such_op"), std::string::npos) << e.what();
  }
  auto g2 = parse_ir(R"IR(
graph(%x : int, %s : str):
  %y : int = aten::add(%x, %s)
  return (%y)
)IR");
  try {
    (*cu.create_function("g", g2))({IValue(1), IValue("a")});
    FAIL();
  } catch (const CompileError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("aten::add(int, str)"), std::string::npos) << what;
    EXPECT_NE(what.find("aten::add.int(int a, int b) -> int"), std::string::npos) << what;
  }
}

TEST(Interpreter, CallsWithTheWrongNumberOfArgumentsFailAtEmitTime) {
  auto cu = load_fixture_functions();
  auto g = parse_ir(R"IR(
graph(%x : int):
  %f : Function = prim::Constant[name="mul_add"]()
  %r : int = prim::CallFunction(%f, %x)
  return (%r)
)IR");
  auto* fn = cu->create_function("short_call", g);
  try {
    (*fn)({IValue(1)});
    FAIL();
  } catch (const CompileError& e) {
    EXPECT_NE(std::string(e.what()).find("prim::CallFunction calls mul_add with 1 argument(s) but it takes 2"),
              std::string::npos) << e.what();
  }
}

TEST(Interpreter, ContainersAndCasts) {
  auto g = parse_ir(R"IR(
graph(%a : int, %b : int, %l : int[]):
  %t : (int, int, int) = prim::TupleConstruct(%a, %b, %a)
  %s : (int, int) = prim::TupleSlice[beg=1, end=3](%t)
  %x : int, %y : int = prim::TupleUnpack(%s)
  %p : int, %q : int = prim::ListUnpack(%l)
  %k : str = prim::Constant[value="k"]()
  %d : Dict(str, int) = prim::DictConstruct(%k, %q)
  %yes : bool = prim::isinstance[types=[int]](%a)
  %no : bool = prim::isinstance[types=[str, float]](%a)
  %u : int = prim::unchecked_cast(%p)
  %out : (int, int, int, Dict(str, int), bool, bool) = prim::TupleConstruct(%x, %y, %u, %d, %yes, %no)
  return (%out)
)IR");
  CompilationUnit cu;
  auto* f = cu.create_function("f", g);
  IValue r = (*f)({IValue(1), IValue(2), IValue::list({IValue(7), IValue(8)}, Type::int_())});
  EXPECT_EQ(r.repr(), "(2, 1, 7, {'k': 8}, True, False)");
  try {
    (*f)({IValue(1), IValue(2), IValue::list({IValue(7)}, Type::int_())});
    FAIL();
  } catch (const ScriptException& e) {
    EXPECT_NE(std::string(e.what()).find("Expected 2 elements in a list but found 1"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace torchlet::jit

namespace torchlet::jit {
namespace {

// The example in docs/supported.md (TorchScript runtime), verbatim, so the documentation
// cannot drift.
TEST(Interpreter, ReadmeExample) {
  auto cu = std::make_shared<torchlet::jit::CompilationUnit>();
  auto* f = cu->create_function("f", torchlet::jit::parse_ir(R"(
graph(%n : int):
  %t : bool = prim::Constant[value=1]()
  %z : int = prim::Constant[value=0]()
  %s : int = prim::Loop(%n, %t, %z)
    block0(%i : int, %acc : int):
      %a : int = aten::add(%acc, %i)
      -> (%t, %a)
  return (%s))"));
  int64_t s = (*f)({torchlet::IValue(10)}).toInt();  // 45
  EXPECT_EQ(s, 45);
}

}  // namespace
}  // namespace torchlet::jit

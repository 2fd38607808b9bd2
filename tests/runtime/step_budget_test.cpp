// The interpreter's bounds on runaway programs. The opt-in step budget (Note [Step
// budget] in interpreter.h): a TorchScript loop that never ends stops with a LimitError
// reported as a ScriptError when a budget is active, bounded work is unaffected, and
// forked tasks inherit the budget of the thread that forked them. And runs nested
// through operators (kMaxNestedRuns): a __lt__ that sorts its own class recursed
// through list.sort until the C++ stack overflowed.
#include <limits>
#include <string>

#include <gtest/gtest.h>

#include "jit/frontend/compiler.h"
#include "jit/ir/ir_parser.h"
#include "jit/runtime/compilation_unit.h"
#include "jit/runtime/interpreter.h"

namespace torchlet::jit {
namespace {

// spin(1) never returns; spin(0) returns at once; count(n) runs n iterations.
const char* kProgram = R"(
def spin(n: int) -> int:
    i = 0
    while n > 0:
        i += 1
    return i

def count(n: int) -> int:
    s = 0
    for i in range(n):
        s += i
    return s
)";

std::string run_error(const Function& fn, int64_t arg) {
  try {
    (void)fn({IValue(arg)});
  } catch (const ScriptError& e) {
    return e.what();
  }
  return "";
}

TEST(StepBudget, StopsAnEndlessLoopWithALimitError) {
  auto cu = compile(kProgram);
  const Function& spin = *cu->find_function("spin");
  StepBudget budget(10'000);
  const std::string err = run_error(spin, 1);
  EXPECT_NE(err.find("step budget ran out"), std::string::npos) << err;
  EXPECT_NE(err.find("limit exceeded"), std::string::npos) << err;
  // The budget stays spent: the next call fails too, however short.
  EXPECT_NE(run_error(*cu->find_function("count"), 5).find("step budget"), std::string::npos);
}

TEST(StepBudget, BoundedWorkRunsAndSpendsItsSteps) {
  auto cu = compile(kProgram);
  const Function& count = *cu->find_function("count");
  {
    StepBudget budget(10'000);
    EXPECT_EQ(count({IValue(int64_t{5000})}).toInt(), 5000 * 4999 / 2);
    const int64_t left = StepBudget::left();
    EXPECT_LE(left, 10'000 - 5000);
    EXPECT_GE(left, 10'000 - 5010);
  }
  // Without a budget the same function runs far past the old one.
  EXPECT_GT(StepBudget::left(), int64_t{1} << 62);
  EXPECT_EQ(count({IValue(int64_t{50'000})}).toInt(), int64_t{50'000} * 49'999 / 2);
}

TEST(StepBudget, InnerBudgetsNeverGrantMoreThanIsLeft) {
  StepBudget outer(100);
  {
    StepBudget inner(1'000'000);
    EXPECT_EQ(StepBudget::left(), 100);
  }
  auto cu = compile(kProgram);
  {
    StepBudget inner(1'000'000);
    (void)(*cu->find_function("count"))({IValue(int64_t{40})});
  }
  EXPECT_LE(StepBudget::left(), 60) << "steps spent under the inner budget count against the outer one";
}

TEST(StepBudget, ForkedTasksInheritTheBudget) {
  auto cu = compile(kProgram);
  // Fork the endless loop through the IR so the task runs on the pool.
  auto spin_graph = parse_ir(R"IR(
graph(%n : int):
  %f : Future[int] = prim::fork_0(%n)
  %r : int = aten::wait(%f)
  return (%r)
with prim::fork_0 = graph(%m : int):
  %zero : int = prim::Constant[value=0]()
  %big : int = prim::Constant[value=9223372036854775807]()
  %t : bool = prim::Constant[value=1]()
  %out : int = prim::Loop(%big, %t, %zero)
    block0(%i : int, %acc : int):
      %one : int = prim::Constant[value=1]()
      %next : int = aten::add(%acc, %one)
      -> (%t, %next)
  return (%out)
)IR");
  auto* forked = cu->create_function("forked_spin", spin_graph);
  StepBudget budget(10'000);
  const std::string err = run_error(*forked, 1);
  EXPECT_NE(err.find("step budget ran out"), std::string::npos) << err;
}

TEST(NestedRuns, AnOperatorCallingBackIntoTorchScriptIsBounded) {
  auto cu = compile(R"(
class A:
    def __init__(self, x: int, deep: bool):
        self.x = x
        self.deep = deep

    def __lt__(self, other: "A") -> bool:
        if self.deep:
            l = [A(other.x, True), A(self.x, True)]
            l.sort()
        return self.x < other.x

def f(deep: bool) -> int:
    l = [A(3, deep), A(1, deep), A(2, deep)]
    l.sort()
    return l[0].x * 100 + l[1].x * 10 + l[2].x
)");
  const Function& f = *cu->find_function("f");
  EXPECT_EQ(f({IValue(false)}).toInt(), 123);
  std::string err;
  try {
    (void)f({IValue(true)});
  } catch (const ScriptError& e) {
    err = e.what();
  }
  EXPECT_NE(err.find("TorchScript run from inside an operator (such as a class's __lt__ called by list.sort) "
                     "nested more than 100 deep"),
            std::string::npos)
      << err.substr(0, 400);
}

}  // namespace
}  // namespace torchlet::jit

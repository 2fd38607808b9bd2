// The interpreter's bounds on runaway programs. The opt-in step budget (Note [Step
// budget] in interpreter.h): a TorchScript loop that never ends stops with a LimitError
// reported as a ScriptError when a budget is active, bounded work is unaffected, and
// forked tasks inherit the budget of the thread that forked them. And runs nested
// through operators (kMaxNestedRuns): a __lt__ that sorts its own class recursed
// through list.sort until the C++ stack overflowed. And memory: an allocation the system
// refuses is a TorchScript error naming what was asked for, as torch's is; below a
// thread's lowered limit on one allocation (Note [Allocation limit]) what a program
// builds is refused by name before anything is allocated.
#include <limits>
#include <string>

#include <gtest/gtest.h>
#include <torchlet/jit.h>

#include "core/allocation_limit.h"
#include "jit/frontend/compiler.h"
#include "jit/ir/ir_parser.h"
#include "jit/runtime/compilation_unit.h"
#include "jit/runtime/interpreter.h"

#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_ASAN 1
#endif
#endif
#ifndef UNDER_ASAN
#define UNDER_ASAN 0
#endif

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

// Steps are the loop iterations of the code that runs: the graph executor's plans unroll
// loops (8 iterations a step), so the tests that count steps run the graphs as written.
struct GraphsAsWritten {
  bool was = graph_executor_optimize();
  GraphsAsWritten() { set_graph_executor_optimize(false); }
  ~GraphsAsWritten() { set_graph_executor_optimize(was); }
};

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
  GraphsAsWritten as_written;
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
  GraphsAsWritten as_written;
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

TEST(OutOfMemory, ARefusedAllocationIsAScriptErrorNamingTheBytes) {
  auto cu = compile(R"(
import torch
def big(n: int) -> float:
    return float(torch.zeros([2] * n).sum())
)");
  const Function& big = *cu->find_function("big");
  EXPECT_EQ(big({IValue(int64_t{3})}).toDouble(), 0.0);
  std::string err;
  try {
    (void)big({IValue(int64_t{45})});  // 2^45 floats: past the 47-bit user address space
  } catch (const ScriptException& e) {
    EXPECT_EQ(e.exception_class(), "out of memory");
    err = e.what();
  }
  EXPECT_NE(err.find("Traceback of TorchScript"), std::string::npos) << err;
  EXPECT_NE(err.find("out of memory: cannot allocate 140737488355328 bytes for a tensor's storage"), std::string::npos)
      << err;
  EXPECT_EQ(big({IValue(int64_t{4})}).toDouble(), 0.0);  // and the next call runs
}

// One operator asked for a result the size of its int argument: list * n grew its list
// element by element until the machine ran out ([0] * (1 << 40)), and [] * (1 << 62)
// looped 2^62 times; a string of tabs expanded by a huge tabsize likewise. Now each
// sizes its result first, as torch does: past the 2^48-byte limit on one allocation it
// is refused by name, below it the system's refusal comes at once.
TEST(OutOfMemory, OperatorsSizeTheirResultFirst) {
  auto cu = compile(R"(
def repeat(l: List[int], n: int) -> int:
    return len(l * n)

def repeat_in_place(l: List[int], n: int) -> int:
    l *= n
    return len(l)

def tabs(s: str, n: int) -> int:
    return len(s.expandtabs(n))

def pad(s: str, n: int) -> int:
    return len(s.ljust(n)) + len(s.center(n)) + len(s.rjust(n)) + len(s.zfill(n))
)");
  auto list = [](std::vector<int64_t> v) {
    std::vector<IValue> e(v.begin(), v.end());
    return IValue::list(std::move(e), Type::int_());
  };
  auto refusal = [&](const char* fn, std::vector<IValue> args) {  // "kind: message"
    try {
      (void)(*cu->find_function(fn))(std::move(args));
    } catch (const ScriptException& e) {
      return e.exception_class() + ": " + e.message();
    }
    return std::string("returned");
  };
  const Function& repeat = *cu->find_function("repeat");
  EXPECT_EQ(repeat({list({1, 2}), IValue(int64_t{3})}).toInt(), 6);
  EXPECT_EQ(repeat({list({1, 2}), IValue(int64_t{-3})}).toInt(), 0);
  EXPECT_EQ(repeat({list({}), IValue(int64_t{1} << 62)}).toInt(), 0);
  EXPECT_EQ(refusal("repeat", {list({0}), IValue(int64_t{1} << 62)}),
            "limit exceeded: list * int: a result of 4611686018427387904 x 1 elements exceeds the "
            "281474976710656-byte limit on one allocation");
#if !UNDER_ASAN  // ASan ends the process when operator new is refused (its
                 // allocator_may_return_null covers malloc, not new): normal builds only.
  // 2^43 16-byte values: the whole 47-bit user address space, under the limit.
  EXPECT_EQ(refusal("repeat", {list({0}), IValue(int64_t{1} << 43)}),
            "out of memory: an allocation failed (std::bad_alloc)");
#endif
  EXPECT_EQ(refusal("repeat_in_place", {list({0, 1}), IValue(int64_t{1} << 62)}),
            "limit exceeded: list * int: a result of 4611686018427387904 x 2 elements exceeds the "
            "281474976710656-byte limit on one allocation");
  const Function& tabs = *cu->find_function("tabs");
  EXPECT_EQ(tabs({IValue(std::string("a\tb\t")), IValue(int64_t{4})}).toInt(), 8);
  EXPECT_EQ(tabs({IValue(std::string("a\tb")), IValue(int64_t{-1})}).toInt(), 2);
  EXPECT_EQ(refusal("tabs", {IValue(std::string("\t\t\t")), IValue(int64_t{1} << 62)}),
            "limit exceeded: str.expandtabs: a result of 4611686018427387904 x 3 elements exceeds the "
            "281474976710656-byte limit on one allocation");
  const Function& pad = *cu->find_function("pad");
  EXPECT_EQ(pad({IValue(std::string("ab")), IValue(int64_t{5})}).toInt(), 20);
  EXPECT_EQ(refusal("pad", {IValue(std::string("a")), IValue(std::numeric_limits<int64_t>::max())}),
            "limit exceeded: str.ljust: a result of 9223372036854775806 x 1 elements exceeds the "
            "281474976710656-byte limit on one allocation");
}


// Every buffer whose size a program controls is checked against the thread's limit
// first. The fuzz targets depend on it: under ASan a refused operator new aborts, and a
// program that ran 'a'.ljust(1 << 33) ended script_archive_fuzz (CI, stop 21).
TEST(AllocationLimit, WhatAProgramBuildsIsRefusedPastTheLimit) {
  auto cu = compile(R"(
import torch

def pad(n: int) -> int:
    return len('a'.ljust(n))

def double_str(k: int) -> int:
    s = 'ab'
    for _ in range(k):
        s = s + s
    return len(s)

def double_list(k: int) -> int:
    l = [0]
    for _ in range(k):
        l = l + l
    return len(l)

def extend_list(k: int) -> int:
    l = [0]
    for _ in range(k):
        l.extend(l)
    return len(l)

def add_in_place(k: int) -> int:
    l = [0]
    for _ in range(k):
        l += l
    return len(l)

def join(k: int) -> int:
    s = 'x'.ljust(1000)
    return len(','.join([s] * k))

def replace(k: int) -> int:
    return len('a'.ljust(k, 'a').replace('a', 'bbbbbbbbbbbbbbbb'))

def format(k: int) -> int:
    s = 'x'.ljust(k)
    return len('{}{}{}{}{}{}{}{}'.format(s, s, s, s, s, s, s, s))

def percent(k: int) -> int:
    s = 'x'.ljust(k)
    return len('%s%s%s%s%s%s%s%s' % (s, s, s, s, s, s, s, s))

def printed(k: int) -> int:
    s = 'x'.ljust(1000)
    return len(str([s] * k))

def zeros(k: int) -> int:
    return torch.zeros([k]).numel()

def listed(k: int) -> int:
    l: List[float] = torch.zeros([1]).expand([k]).tolist()
    return len(l)

def in_task(n: int) -> int:
    return len('a'.ljust(n))

def forked(n: int) -> int:
    return torch.jit.wait(torch.jit.fork(in_task, n))
)");
  auto run = [&](const char* fn, int64_t k) {  // the result, or "kind: message"
    try {
      return std::to_string((*cu->find_function(fn))({IValue(k)}).toInt());
    } catch (const ScriptException& e) {
      return e.exception_class() + ": " + e.message();
    }
  };
  const std::string past = " exceeds the 1048576-byte limit on one allocation";
  {
    const AllocationLimit limit(size_t{1} << 20);
    EXPECT_EQ(AllocationLimit::current(), size_t{1} << 20);
    {
      const AllocationLimit looser(size_t{1} << 30);  // never raises the limit
      EXPECT_EQ(AllocationLimit::current(), size_t{1} << 20);
    }
    // Below the limit each works; past it each names itself.
    EXPECT_EQ(run("pad", 1000), "1000");
    EXPECT_EQ(run("pad", 1 << 21), "limit exceeded: str.ljust: a result of 2097151 x 1 elements" + past);
    EXPECT_EQ(run("double_str", 10), "2048");
    EXPECT_EQ(run("double_str", 40), "limit exceeded: str + str: 2097152 bytes" + past);
    EXPECT_EQ(run("double_list", 10), "1024");
    EXPECT_EQ(run("double_list", 40), "limit exceeded: list + list: 2097152 bytes" + past);
    EXPECT_EQ(run("extend_list", 10), "1024");
    EXPECT_EQ(run("extend_list", 40), "limit exceeded: list.extend: 2097152 bytes" + past);
    EXPECT_EQ(run("add_in_place", 40), "limit exceeded: list += list: 2097152 bytes" + past);
    EXPECT_EQ(run("join", 10), "10009");
    EXPECT_EQ(run("join", 2000), "limit exceeded: str.join: 2001999 bytes" + past);
    EXPECT_EQ(run("replace", 10), "160");
    EXPECT_EQ(run("replace", 100000), "limit exceeded: str.replace: 1048577 bytes" + past);
    EXPECT_EQ(run("format", 1000), "8000");
    EXPECT_EQ(run("format", 400000), "limit exceeded: str.format: 1200000 bytes" + past);
    EXPECT_EQ(run("percent", 1000), "8000");
    EXPECT_EQ(run("percent", 400000), "limit exceeded: str % args: 1200000 bytes" + past);
    EXPECT_EQ(run("printed", 10), "10020");  // torch's str() of a List[str] has no quotes
    // Checked before each element: "[" and 1047 of "x..., " (1002 characters each).
    EXPECT_EQ(run("printed", 2000), "limit exceeded: printing a value: 1049095 bytes" + past);
    EXPECT_EQ(run("zeros", 1000), "1000");
    EXPECT_EQ(run("zeros", 1 << 20), "limit exceeded: a tensor's storage: 4194304 bytes" + past);
    EXPECT_EQ(run("listed", 1000), "1000");
    EXPECT_EQ(run("listed", 1 << 17), "limit exceeded: Tensor.tolist: a result of 1 x 131072 elements" + past);
    // A forked task runs under the limit of the thread that forked it.
    EXPECT_EQ(run("forked", 1 << 21), "limit exceeded: str.ljust: a result of 2097151 x 1 elements" + past);
  }
  // Outside the scope the default (kMaxAllocationBytes) is back.
  EXPECT_EQ(AllocationLimit::current(), kMaxAllocationBytes);
  EXPECT_EQ(run("double_str", 20), "2097152");
  EXPECT_EQ(run("forked", 1 << 21), "2097152");
}

}  // namespace
}  // namespace torchlet::jit

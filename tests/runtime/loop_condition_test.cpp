// Loops whose condition (or trip count) is also one of their carried values: the
// emitter once moved that value into the condition register and then stored an empty
// register as the carried value, so `c = x > 0; while c: ...; c = ...` — the form
// torch's printer writes for every while loop in an archive's code/ — failed with
// "expected a value of type bool but found None". Found by script_archive_fuzz's seeds.
// Expected values are Python's (torch 1.13 returned the same for these functions).
#include <gtest/gtest.h>

#include "jit/frontend/compiler.h"
#include "jit/runtime/compilation_unit.h"

namespace torchlet::jit {
namespace {

const char* kProgram = R"(
def carried_condition(x: int) -> int:
    i = 0
    c = i < x
    while c:
        i += 1
        c = i < x
    return i

def printed_by_torch(x: int) -> int:
    i = 0
    _0 = True
    while _0:
        i0 = i + 1
        _0, i = i0 < x, i0
    return i

def carried_trip_count(n: int) -> int:
    s = 0
    for i in range(n):
        s += n
        n = n - 1
    return s
)";

TEST(LoopCondition, ConditionThatIsAlsoCarried) {
  auto cu = compile(kProgram);
  for (int64_t x : {0, 1, 5}) {
    EXPECT_EQ((*cu->find_function("carried_condition"))({IValue(x)}).toInt(), x) << x;
    EXPECT_EQ((*cu->find_function("printed_by_torch"))({IValue(x)}).toInt(), std::max<int64_t>(x, 1)) << x;
  }
  // range(4) is fixed before the loop: s = 4 + 3 + 2 + 1.
  EXPECT_EQ((*cu->find_function("carried_trip_count"))({IValue(int64_t{4})}).toInt(), 10);
}

}  // namespace
}  // namespace torchlet::jit

// TorchScript can build values of any depth and values that contain themselves
// (torch 1.13 itself crashes printing either). Printing them inside the interpreter
// (str, print, format) must end in a ScriptError or print Python's [...], never overflow
// the stack: Note [Recursion over values] in ivalue.cpp.
#include <string>

#include <gtest/gtest.h>
#include <torchlet/error.h>

#include "jit/frontend/compiler.h"
#include "jit/runtime/compilation_unit.h"
#include "jit/runtime/interpreter.h"

namespace torchlet::jit {
namespace {

const char* kProgram = R"(

def deep(n: int) -> Dict[str, Any]:
    d: Dict[str, Any] = {}
    for i in range(n):
        nd: Dict[str, Any] = {"a": d}
        d = nd
    return d

def str_len(n: int) -> int:
    return len(str(deep(n)))

def cyclic(n: int) -> str:
    x: List[Any] = [n]
    x.append(x)
    y: Dict[str, Any] = {}
    y["self"] = y
    y["x"] = x
    s = str(x) + " " + str(y)
    x.clear()
    y.clear()
    return s
)";

TEST(DeepValues, PrintingTooDeepAValueIsAScriptError) {
  auto cu = compile(kProgram);
  const Function& str_len = *cu->find_function("str_len");
  EXPECT_EQ(str_len({IValue(int64_t{3})}).toInt(), std::string("{a: {a: {a: {}}}}").size());
  std::string err;
  try {
    (void)str_len({IValue(int64_t{100'000})});
  } catch (const ScriptError& e) {
    err = e.what();
  }
  EXPECT_NE(err.find("printing a value: value nested deeper than 1000 levels"), std::string::npos) << err;
  // The value itself is fine to build, return and free at that depth.
  EXPECT_TRUE((*cu->find_function("deep"))({IValue(int64_t{100'000})}).isDict());
}

TEST(DeepValues, SelfContainingValuesPrintAsPythonDoes) {
  auto cu = compile(kProgram);
  EXPECT_EQ((*cu->find_function("cyclic"))({IValue(int64_t{7})}).toStringRef(), "[7, [...]] {self: {...}, x: [7, [...]]}");
}

}  // namespace
}  // namespace torchlet::jit

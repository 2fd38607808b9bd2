// TorchScript can build values of any depth and values that contain themselves
// (torch 1.13 itself crashes printing either). Printing them inside the interpreter
// (str, print, format) must end in a ScriptError or print Python's [...], never overflow
// the stack: Note [Recursion over values] in ivalue.cpp.
#include <string>

#include <gtest/gtest.h>
#include <torchlet/error.h>

#include "jit/frontend/compiler.h"
#include "values/value_recursion.h"
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

def doubled(n: int) -> List[Any]:
    x: List[Any] = [1]
    for i in range(n):
        x = [x, x]
    return x

def str_doubled(n: int) -> int:
    return len(str(doubled(n)))

def takes_list(x: List[List[Any]]) -> int:
    return len(x)

def takes_tensor(x: Tensor) -> Tensor:
    return x

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

// A value that holds the same list twice, n levels down, is 2^n lists to print or
// compare though only n+1 exist: the walk stops after kMaxValueVisits with a ScriptError
// instead of running for hours.
TEST(DeepValues, SharedPartsCannotMultiplyAWalkWithoutBound) {
  auto cu = compile(kProgram);
  const Function& str_doubled = *cu->find_function("str_doubled");
  EXPECT_EQ(str_doubled({IValue(int64_t{2})}).toInt(), std::string("[[[1], [1]], [[1], [1]]]").size());
  std::string err;
  try {
    (void)str_doubled({IValue(int64_t{40})});
  } catch (const ScriptError& e) {
    err = e.what();
  }
  EXPECT_NE(err.find("printing a value: more than 4194304 lists, tuples and dicts to visit"), std::string::npos)
      << err;
  // Two such values built apart (nothing shared between them to shortcut on) compare
  // under the same bound.
  const Function& doubled = *cu->find_function("doubled");
  EXPECT_TRUE(doubled({IValue(int64_t{10})}) == doubled({IValue(int64_t{10})}));
  const IValue a = doubled({IValue(int64_t{40})}), b = doubled({IValue(int64_t{40})});
  err.clear();
  try {
    (void)(a == b);
  } catch (const LimitError& e) {
    err = e.what();
  }
  EXPECT_NE(err.find("comparing values: more than 4194304"), std::string::npos) << err;
}

// Arguments from outside TorchScript (torchlet run --inputs FILE) are type-checked by
// walking lists saved without an element type: bounded the same way.
TEST(DeepValues, CheckingArgumentsThatShareTheirPartsIsBounded) {
  auto cu = compile(kProgram);
  IValue small = IValue::list({IValue(int64_t{1})});
  for (int i = 0; i < 3; ++i) small = IValue::list({small, small});
  EXPECT_EQ((*cu->find_function("takes_list"))({small}).toInt(), 2);
  IValue huge = IValue::list({IValue(int64_t{1})});
  for (int i = 0; i < 40; ++i) huge = IValue::list({huge, huge});
  const ValueVisitBudget budget(1 << 16);  // the same walk, refused sooner (19 s under ASan at 2^22)
  for (const char* f : {"takes_list", "takes_tensor"}) {
    std::string err;
    try {
      (void)(*cu->find_function(f))({huge});
    } catch (const Error& e) {
      err = e.what();
    }
    EXPECT_NE(err.find("more than 65536 lists, tuples and dicts to visit"), std::string::npos) << f << ": " << err;
  }
}

// torch.tensor(a40) where a(i+1) = [a(i), a(i)]: 41 lists naming 2^40 numbers, which
// filled memory collecting them. Up to the bound it builds the tensor they name.
TEST(DeepValues, TensorsFromListsThatShareTheirPartsAreBounded) {
  auto program = [](int n) {
    std::string src = "def f() -> Tensor:\n    a0 = [1.0, 2.0]\n";
    for (int i = 0; i < n; ++i)
      src += "    a" + std::to_string(i + 1) + " = [a" + std::to_string(i) + ", a" + std::to_string(i) + "]\n";
    return src + "    return torch.tensor(a" + std::to_string(n) + ")\n";
  };
  const Tensor t = (*compile(program(3))->find_function("f"))({}).toTensor();
  EXPECT_EQ(t.sizes(), (Shape{2, 2, 2, 2}));
  EXPECT_EQ(t.at({1, 0, 1, 1}).to_double(), 2.0);
  std::string err;
  try {
    (void)(*compile(program(40))->find_function("f"))({});
  } catch (const ScriptError& e) {
    err = e.what();
  }
  EXPECT_NE(err.find("building a tensor from a list: more than 4194304"), std::string::npos) << err;
}

TEST(DeepValues, HashingATupleThatSharesItsPartsIsBounded) {
  IValue t = IValue::tuple({IValue(int64_t{1})});
  for (int i = 0; i < 40; ++i) t = IValue::tuple({t, t});
  std::string err;
  try {
    (void)IValueHash()(t);
  } catch (const LimitError& e) {
    err = e.what();
  }
  EXPECT_NE(err.find("hashing a tuple: more than 4194304"), std::string::npos) << err;
  // Below the bound, equal values still hash equal.
  IValue a = IValue::tuple({IValue(int64_t{1})}), b = IValue::tuple({IValue(int64_t{1})});
  for (int i = 0; i < 20; ++i) {
    a = IValue::tuple({a, a});
    b = IValue::tuple({b, b});
  }
  EXPECT_EQ(IValueHash()(a), IValueHash()(b));
  EXPECT_TRUE(a == b);
  // A ValueVisitBudget lowers the bound while it lives (the fuzz targets use one).
  {
    const ValueVisitBudget budget(100);
    err.clear();
    try {
      (void)IValueHash()(a);
    } catch (const LimitError& e) {
      err = e.what();
    }
    EXPECT_NE(err.find("hashing a tuple: more than 100 lists"), std::string::npos) << err;
  }
  EXPECT_EQ(IValueHash()(a), IValueHash()(b));
}

}  // namespace
}  // namespace torchlet::jit

// with statements at run time (Note [With statements] in jit/frontend/function_compiler.h): what the
// conformance suite cannot see from outside a call — an error leaving a with body still
// runs __exit__ (torch.no_grad's grad mode comes back, a logging manager logs), an
// error __exit__ raises replaces the one unwinding, forked tasks inherit the grad mode,
// and IR text that misuses prim::Enter/prim::Exit is refused by name. Values and graphs
// against torch are the conformance suite's (gen_conformance.py, "with statements").
#include <gtest/gtest.h>

#include <torchlet/error.h>

#include "jit/frontend/compiler.h"
#include "jit/ir/ir_parser.h"
#include "jit/runtime/grad_mode.h"
#include "jit/runtime/interpreter.h"
#include "jit/serialization/python_print.h"

namespace torchlet::jit {
namespace {

const char* const kLoggingManager = R"(
class Ctx:
    def __init__(self, log: List[int], k: int, fail_on_exit: bool):
        self.log = log
        self.k = k
        self.fail_on_exit = fail_on_exit

    def __enter__(self) -> int:
        self.log.append(self.k)
        return self.k

    def __exit__(self, a: Any, b: Any, c: Any):
        self.log.append(-self.k)
        if self.fail_on_exit:
            raise ValueError("exit " + str(self.k))
)";

std::vector<int64_t> ints(const IValue& list) {
  std::vector<int64_t> out;
  for (const IValue& v : list.listRef().elements) out.push_back(v.toInt());
  return out;
}

IValue int_list() { return IValue::list({}, Type::int_()); }

TEST(WithStatement, AnErrorInTheBodyExitsEveryManagerInnermostFirst) {
  auto cu = compile(std::string(kLoggingManager) + R"(
def helper(log: List[int], x: int) -> int:
    with Ctx(log, 3, False):
        if x > 0:
            raise RuntimeError("inner failure")
    return x

def f(log: List[int], x: int) -> int:
    with Ctx(log, 1, False), Ctx(log, 2, False):
        y = helper(log, x)
    log.append(100)
    return y
)");
  IValue log = int_list();
  EXPECT_EQ((*cu->find_function("f"))({log, IValue(int64_t{0})}).toInt(), 0);
  EXPECT_EQ(ints(log), (std::vector<int64_t>{1, 2, 3, -3, -2, -1, 100}));

  log = int_list();
  try {
    (*cu->find_function("f"))({log, IValue(int64_t{1})});
    ADD_FAILURE() << "f(1) returned";
  } catch (const ScriptException& e) {
    EXPECT_NE(std::string(e.what()).find("inner failure"), std::string::npos) << e.what();
  }
  // The frame that raised exits its manager, then the caller's two, innermost first.
  EXPECT_EQ(ints(log), (std::vector<int64_t>{1, 2, 3, -3, -2, -1}));
}

TEST(WithStatement, AnErrorFromExitReplacesTheOneUnwindingAfterEveryExitRan) {
  auto cu = compile(std::string(kLoggingManager) + R"(
def f(log: List[int], x: int) -> int:
    with Ctx(log, 1, False), Ctx(log, 2, True):
        if x > 0:
            raise RuntimeError("body failure")
    return x
)");
  const Function& f = *cu->find_function("f");
  for (int64_t x : {0, 1}) {
    IValue log = int_list();
    try {
      f({log, IValue(x)});
      ADD_FAILURE() << "f(" << x << ") returned";
    } catch (const ScriptException& e) {
      // Python's rule: the exception __exit__ raised is the one that propagates.
      EXPECT_NE(std::string(e.what()).find("exit 2"), std::string::npos) << e.what();
      EXPECT_EQ(std::string(e.what()).find("body failure"), std::string::npos) << e.what();
    }
    EXPECT_EQ(ints(log), (std::vector<int64_t>{1, 2, -2, -1})) << "x = " << x;
  }
}

TEST(WithStatement, NoGradRestoresTheModeOnErrorsAndForksInheritIt) {
  auto cu = compile(R"(
def inside(x: int) -> bool:
    return torch.is_grad_enabled()

def raises_inside(x: int) -> int:
    with torch.no_grad():
        if x > 0:
            raise ValueError("no")
    return x

def forked(x: int) -> Tuple[bool, bool]:
    with torch.no_grad():
        fut = torch.jit.fork(inside, x)
        a = torch.jit.wait(fut)
    return a, torch.jit.wait(torch.jit.fork(inside, x))
)");
  ASSERT_TRUE(grad_enabled());
  EXPECT_THROW((*cu->find_function("raises_inside"))({IValue(int64_t{1})}), ScriptException);
  EXPECT_TRUE(grad_enabled()) << "an error inside `with torch.no_grad():` left grad mode off";
  EXPECT_TRUE((*cu->find_function("inside"))({IValue(int64_t{0})}).toBool());
  for (int i = 0; i < 20; ++i) {  // forks run on the pool or inline in wait: both inherit
    const IValue result = (*cu->find_function("forked"))({IValue(int64_t{0})});
    const auto& r = result.tupleRef().elements;
    EXPECT_FALSE(r[0].toBool());
    EXPECT_TRUE(r[1].toBool());
  }
  EXPECT_TRUE(grad_enabled());
}

TEST(WithStatement, ThePrinterWritesTorchsSpelling) {
  auto cu = compile(std::string(kLoggingManager) + R"(
def f(log: List[int]) -> int:
    with Ctx(log, 1, False) as a:
        pass
    with torch.no_grad():
        b = a + 1
    return b
)");
  PythonPrinter printer;
  printer.add_function(*cu->find_function("f"));
  std::string code;
  for (const auto& [module, text] : printer.files()) code += text;
  EXPECT_NE(code.find("  with _0 as a:\n    pass\n"), std::string::npos) << code;
  EXPECT_NE(code.find("  with _2:\n    b = torch.add(a, 1)\n"), std::string::npos) << code;
}

TEST(WithStatement, EnterAndExitMisusedInIrTextAreRefused) {
  // An Exit without an Enter, in a graph that only IR text could make.
  auto cu = compile("def f(x: int):\n    with torch.no_grad():\n        pass\n    return x\n");
  auto g = parse_ir(R"IR(
graph(%x : int):
  %1 : __torch__.torch.autograd.grad_mode.no_grad = prim::CreateObject()
  %2 : NoneType = prim::CallMethod[name="__init__"](%1)
  %3 : Tensor = prim::Exit(%1)
  return (%x)
)IR",
                    [&](std::string_view name) { return cu->find_type(std::string(name)); });
  Function* fn = cu->create_function("g", g);
  try {
    (*fn)({IValue(int64_t{1})});
    ADD_FAILURE() << "an Exit without its Enter ran";
  } catch (const ScriptException& e) {
    EXPECT_NE(std::string(e.what()).find("no matching prim::Enter"), std::string::npos) << e.what();
  }
  // An Enter of a value without __enter__/__exit__ fails when the graph is emitted.
  auto bad = parse_ir(R"IR(
graph(%x : int):
  %y : int = prim::Enter(%x)
  return (%y)
)IR");
  Function* h = cu->create_function("h", bad);
  EXPECT_THROW((*h)({IValue(int64_t{1})}), CompileError);
}

}  // namespace
}  // namespace torchlet::jit

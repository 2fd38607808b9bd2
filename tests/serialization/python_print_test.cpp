// The python printer, through jit::save of modules torchlet compiled: the archive loads
// back (torchlet's importer compiles the printed code) and computes what the original
// computed; re-saves are byte-identical; the printed text has torch's shape (inlined
// single-use results, kept names, trailing defaults dropped, the right version).
// tests/interop/test_script.py checks the same archives against real torch.jit.load.
#include <filesystem>
#include <fstream>
#include <sstream>

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <torchlet/error.h>

#include "archive/zip_reader.h"
#include "jit/frontend/compiler.h"
#include "jit/runtime/module.h"
#include "jit/serialization/export.h"
#include "jit/serialization/import.h"
#include "archive_records.h"
#include "jit/serialization/python_print.h"
#include "jit/serialization/script_archive.h"

namespace torchlet::jit {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

std::filesystem::path temp_path(const std::string& name) {
  return std::filesystem::temp_directory_path() / ("torchlet_python_print_" + name);
}

// An object of a compiled class with its attributes set by name.
IValue make_object(const CompilationUnit& cu, const std::string& cls_name,
                   const std::vector<std::pair<std::string, IValue>>& attrs) {
  ClassTypePtr cls = cu.find_class(cls_name);
  EXPECT_TRUE(cls) << cls_name;
  auto obj = make_intrusive<ObjectImpl>(cls, cls->attributes().size());
  for (const auto& [name, value] : attrs) obj->slots.at(*cls->find_attribute(name)) = value;
  return IValue(obj);
}

const char* const kModuleSource = R"(
class Pair(NamedTuple):
    a: int
    b: Tensor

class Counter:
    def __init__(self, start: int):
        self.n = start
        self.hist: List[int] = []

    def bump(self, k: int) -> int:
        self.n += k
        self.hist.append(self.n)
        return self.n

def collatz(x: int) -> int:
    steps = 0
    while x > 1:
        if x % 2 == 0:
            x = x // 2
        else:
            x = 3 * x + 1
        steps += 1
    return steps

def first_over(xs: List[int], limit: int = 3) -> int:
    for i in range(len(xs)):
        if xs[i] > limit:
            return i
    return -1

def describe(d: Dict[str, int], prefix: Optional[str] = None) -> str:
    out = "" if prefix is None else prefix
    for k in sorted(d.keys()):
        out += "{}={};".format(k, d[k])
    return out

class Inner(Module):
    __parameters__ = ["w", ]
    __buffers__ = ["offset", ]
    w : Tensor
    offset : Tensor
    training : bool
    def forward(self, x: Tensor) -> Tensor:
        return x * self.w + self.offset

class Outer(Module):
    __parameters__ = []
    __buffers__ = []
    training : bool
    inner : Inner
    names : Dict[str, int]
    scale : float
    k : Final[int] = 3
    def forward(self, x: Tensor, limit: int = 2) -> Tuple[Tensor, Pair, str]:
        y = self.inner(x) * self.scale
        c = Counter(collatz(7))
        c.bump(self.k)
        r: Optional[Tensor] = None
        for i in range(limit):
            if r is None:
                r = y
            else:
                r = r + y
        assert r is not None
        s = torch.sum(r, dim=[0], keepdim=True)
        return s, Pair(first_over(c.hist, limit), y), describe(self.names, "n:")
)";

struct Built {
  std::shared_ptr<CompilationUnit> cu;
  Module module;
};

Built build_outer() {
  auto cu = compile(kModuleSource, "outer.py");
  Tensor w = arange(0, 3, 1, DType::Float), offset = full({3}, Scalar(0.5), DType::Float);
  IValue inner = make_object(*cu, "Inner", {{"w", IValue(w)}, {"offset", IValue(offset)}, {"training", IValue(false)}});
  auto names = make_intrusive<DictImpl>(Type::str_(), Type::int_());
  names->insert_or_assign(IValue("b"), IValue(int64_t{2}));
  names->insert_or_assign(IValue("a"), IValue(int64_t{1}));
  IValue outer = make_object(*cu, "Outer",
                             {{"training", IValue(false)}, {"inner", inner}, {"names", IValue(names)}, {"scale", IValue(1.5)}});
  return {cu, Module(cu, outer.toObject())};
}

TEST(PythonPrint, SavedCompiledModuleLoadsAndComputesTheSame) {
  Built b = build_outer();
  Tensor x = arange(1, 4, 1, DType::Float);
  const IValue want = b.module.forward({IValue(x)});
  const auto path = temp_path("outer.pt");
  save(b.module, path.string());

  Module loaded = load(path.string());
  const IValue got = loaded.forward({IValue(x)});
  EXPECT_EQ(got.repr(), want.repr());
  EXPECT_EQ(loaded.forward({IValue(x), IValue(int64_t{4})}).repr(), b.module.forward({IValue(x), IValue(int64_t{4})}).repr());

  // Everything is qualified under __torch__ and printed as torch prints it.
  const std::string code = record(path, "code/__torch__.py");
  EXPECT_THAT(code, HasSubstr("class Outer(Module):\n  __parameters__ = []\n  __buffers__ = []\n  training : bool\n"));
  EXPECT_THAT(code, HasSubstr("class Inner(Module):\n  __parameters__ = [\"w\", ]\n  __buffers__ = [\"offset\", ]\n"));
  EXPECT_THAT(code, HasSubstr("  k : Final[int] = 3\n"));
  EXPECT_THAT(code, HasSubstr("  inner : __torch__.Inner\n"));
  EXPECT_THAT(code, HasSubstr("class Pair(NamedTuple):\n  a : int\n  b : Tensor\n"));
  EXPECT_THAT(code, HasSubstr("def collatz(x: int) -> int:\n"));
  EXPECT_THAT(code, HasSubstr("__torch__.Counter.__new__(__torch__.Counter)"));
  EXPECT_THAT(code, HasSubstr("r: Optional[Tensor] = None"));
  EXPECT_THAT(code, HasSubstr("torch.sum(unchecked_cast(Tensor, r), [0], True)"));  // dtype=None dropped
  EXPECT_THAT(code, HasSubstr("limit: int=2"));
  EXPECT_EQ(record(path, "/version"), "3\n");  // // is aten::floordiv, which never changed meaning
}

TEST(PythonPrint, ResavesOfAPrintedArchiveAreByteIdentical) {
  Built b = build_outer();
  const auto a = temp_path("a.pt"), bb = temp_path("b.pt"), c = temp_path("c.pt");
  save(b.module, a.string());
  save(load(a.string()), bb.string());
  save(load(bb.string()), c.string());
  EXPECT_EQ(read_bytes(a), read_bytes(bb));
  EXPECT_EQ(read_bytes(bb), read_bytes(c));
}

TEST(PythonPrint, PrintingTheReloadedCodeGivesTheSameText) {
  Built b = build_outer();
  const auto path = temp_path("fix.pt");
  save(b.module, path.string());
  Module loaded = load(path.string());
  PythonPrinter again;
  again.add_type(loaded.type());
  std::string reprinted;
  for (const auto& [module, text] : again.files())
    if (module == "__torch__") reprinted = text;
  const std::string original = record(path, "code/__torch__.py");
  // Loop-free functions print back identically; loops gain nothing either.
  EXPECT_EQ(reprinted.substr(0, reprinted.find("def forward")), original.substr(0, original.find("def forward")));
}

TEST(PythonPrint, VersionIsThreeWithoutChangedOperators) {
  auto cu = compile(
      "class M(Module):\n"
      "  __parameters__ = []\n"
      "  __buffers__ = []\n"
      "  training : bool\n"
      "  def forward(self, x: Tensor) -> Tensor:\n"
      "    return x * 2 + 1\n");
  Module m(cu, make_object(*cu, "M", {{"training", IValue(true)}}).toObject());
  const auto path = temp_path("v3.pt");
  save(m, path.string());
  EXPECT_EQ(record(path, "/version"), "3\n");
  EXPECT_THAT(record(path, "code/__torch__.py"), HasSubstr("    return torch.add(torch.mul(x, 2), 1)\n"));

  auto cu4 = compile(
      "class M(Module):\n"
      "  __parameters__ = []\n"
      "  __buffers__ = []\n"
      "  training : bool\n"
      "  def forward(self, x: Tensor) -> Tensor:\n"
      "    return x / 2\n");
  Module m4(cu4, make_object(*cu4, "M", {{"training", IValue(true)}}).toObject());
  save(m4, path.string());
  EXPECT_EQ(record(path, "/version"), "4\n");
  EXPECT_THAT(record(path, "code/__torch__.py"), Not(HasSubstr("div(x, 2, ")));  // rounding_mode default dropped
}

TEST(PythonPrint, ScriptArchiveCallsEveryFunctionThroughThePlaceholder) {
  const auto path = temp_path("script.pt");
  save_script_archive(
      "import torch\n"
      "def helper(a: int, b: int = 3) -> int:\n"
      "    return a * b\n"
      "def main(x: Tensor, n: int) -> Tensor:\n"
      "    fut = torch.jit.fork(helper, n)\n"
      "    return x + torch.jit.wait(fut)\n",
      "s.py", "main", path.string());
  Module m = load(path.string());
  EXPECT_EQ(m.forward({IValue(zeros({2}, DType::Float)), IValue(int64_t{2})}).repr(),
            "tensor([6., 6.])");
  EXPECT_EQ(m.run_method("helper", {IValue(int64_t{4})}).toInt(), 12);
  EXPECT_THAT(record(path, "code/__torch__.py"), HasSubstr("fut = fork(__torch__.helper, n, 3)"));
}

TEST(PythonPrint, ForkedClosuresRunAndPrintAsTopLevelFunctions) {
  // torch.jit.save writes torch.jit.fork(helper, x + 1, k) this way: the arguments are
  // computed first, a nested def calls helper on them, and fork runs the def.
  auto cu = compile(
      "def helper(a: Tensor, k: int) -> Tensor:\n"
      "  return torch.mul(a, k)\n"
      "class M(Module):\n"
      "  __parameters__ = []\n"
      "  __buffers__ = []\n"
      "  training : bool\n"
      "  def forward(self, x: Tensor, k: int) -> Tensor:\n"
      "    a = torch.add(x, 1)\n"
      "    def __forked_function():\n"
      "      return helper(a, k, )\n"
      "    fut = fork(__forked_function)\n"
      "    k = 100\n"  // rebinding after the def does not change what was captured
      "    def __forked_function0():\n"
      "      return torch.sub(a, k)\n"
      "    fut0 = fork(__forked_function0)\n"
      "    return torch.add(torch.wait(fut), torch.wait(fut0))\n");
  Module m(cu, make_object(*cu, "M", {{"training", IValue(true)}}).toObject());
  const std::vector<IValue> args{IValue(ones({2}, DType::Float)), IValue(int64_t{3})};
  // (1 + 1) * 3 + (1 + 1 - 100)
  EXPECT_EQ(m.forward(args).repr(), "tensor([-92., -92.])");
  const auto path = temp_path("closure.pt");
  save(m, path.string());
  const std::string code = record(path, "code/__torch__.py");
  // The function's name is long: torch's printer gives it a line of its own (as torch
  // writes `_0 = __torch__.torch.nn.functional.relu`).
  EXPECT_THAT(code, HasSubstr("    _0 = __torch__.__forked_function_M_forward\n"));
  EXPECT_THAT(code, HasSubstr("fut = fork(_0, a, k)"));
  EXPECT_THAT(code, HasSubstr("def __forked_function_M_forward(a: Tensor,\n    k: int) -> Tensor:\n"));
  Module again = load(path.string());
  EXPECT_EQ(again.forward(args).repr(), "tensor([-92., -92.])");

  EXPECT_THROW(compile("def f(x: Tensor) -> Tensor:\n"
                       "  def g(y: Tensor):\n"
                       "    return y\n"
                       "  return x\n"),
               CompileError);
}

TEST(Export, ObjectsWithGetstateAreSavedAsTheirStateAndLoadedThroughSetstate) {
  // As torch: data.pkl holds __getstate__'s result, and loading hands it to __setstate__
  // (so a re-save of a loaded module applies both once more, as torch's re-save does).
  auto cu = compile(
      "class M(Module):\n"
      "  __parameters__ = []\n"
      "  __buffers__ = []\n"
      "  training : bool\n"
      "  count : int\n"
      "  def __getstate__(self) -> Tuple[int, bool]:\n"
      "    return (self.count + 1, self.training)\n"
      "  def __setstate__(self, state: Tuple[int, bool]) -> NoneType:\n"
      "    self.count = state[0] * 10\n"
      "    self.training = state[1]\n"
      "    return None\n"
      "  def forward(self, x: int) -> int:\n"
      "    return x + self.count\n");
  Module m(cu, make_object(*cu, "M", {{"training", IValue(false)}, {"count", IValue(int64_t{4})}}).toObject());
  const auto path = temp_path("getstate.pt");
  save(m, path.string());
  EXPECT_THAT(record(path, "data.pkl"), Not(HasSubstr("count")));  // the state tuple, not the attributes
  Module loaded = load(path.string());
  EXPECT_EQ(loaded.attr("count").toInt(), 50);
  EXPECT_FALSE(loaded.is_training());
  EXPECT_EQ(loaded.forward({IValue(int64_t{1})}).toInt(), 51);
}

TEST(PythonPrint, LiteralsReadBackAsTheSameValues) {
  EXPECT_EQ(python_literal(IValue(1.0)), "1.");
  EXPECT_EQ(python_literal(IValue(-0.0)), "-0.");
  EXPECT_EQ(python_literal(IValue(std::numeric_limits<double>::infinity())), "inf");
  EXPECT_EQ(python_literal(IValue("a\"b\n")), "\"a\\\"b\\n\"");
  EXPECT_EQ(python_literal(IValue::tuple({IValue(int64_t{1})})), "(1,)");
  EXPECT_EQ(python_literal(IValue::list({}, Type::int_())), "annotate(List[int], [])");
  EXPECT_THROW(python_literal(IValue(zeros({1}, DType::Float))), UnsupportedError);
}

}  // namespace
}  // namespace torchlet::jit

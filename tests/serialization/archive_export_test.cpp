// jit::save of modules torchlet compiled, checked against real torch 1.13 (the oracle,
// /usr/bin/python3) from both sides:
//  - attributes typed as interfaces (a module interface holding a submodule, a class
//    interface holding a TorchScript object): torch.jit.load runs torchlet's archive with
//    torchlet's outputs, torchlet runs torch's re-save, and re-saves do not jitter;
//  - .debug_pkl for printed code: an exception raised inside the module names the
//    user's own file, line and code, in torch and in torchlet after a reload.
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <torchlet/checkpoint.h>
#include <torchlet/error.h>

#include "archive/zip_reader.h"
#include "jit/frontend/compiler.h"
#include "jit/runtime/interpreter.h"
#include "jit/runtime/module.h"
#include "jit/serialization/export.h"
#include "jit/serialization/import.h"
#include "archive_records.h"

namespace torchlet::jit {
namespace {

using ::testing::HasSubstr;

std::filesystem::path temp_path(const std::string& name) {
  return std::filesystem::temp_directory_path() / ("torchlet_archive_export_" + name);
}

// Runs `script` with real torch; its arguments follow. The exit status (0: passed).
int run_torch(const std::string& name, const std::string& script, const std::vector<std::string>& args) {
  return run_torch_script(temp_path(name + ".py"), script, args);
}

IValue make_object(const CompilationUnit& cu, const std::string& cls_name,
                   const std::vector<std::pair<std::string, IValue>>& attrs) {
  ClassTypePtr cls = cu.find_class(cls_name);
  EXPECT_TRUE(cls) << cls_name;
  auto obj = make_intrusive<ObjectImpl>(cls, cls->attributes().size());
  for (const auto& [name, value] : attrs) obj->slots.at(*cls->find_attribute(name)) = value;
  return IValue(obj);
}

// --- interface-typed attributes ----------------------------------------------------------------

const char* const kInterfaceSource = R"(
class Transform(ModuleInterface):
  def forward(self, x: Tensor) -> Tensor:
    pass

class Scorer(Interface):
  def score(self, x: Tensor) -> Tensor:
    pass

class Squared:
  w : float
  def __init__(self, w: float) -> NoneType:
    self.w = w
  def score(self, x: Tensor) -> Tensor:
    return x * x * self.w

class Doubler(Module):
  __parameters__ = ["k", ]
  __buffers__ = []
  training : bool
  k : Tensor
  def forward(self, x: Tensor) -> Tensor:
    return x * self.k

class Host(Module):
  __parameters__ = []
  __buffers__ = []
  training : bool
  op : Transform
  scorer : Scorer
  more : List[Scorer]
  def forward(self, x: Tensor) -> Tensor:
    y = self.op.forward(x) + self.scorer.score(x) - 1
    for s in self.more:
      y = y + s.score(x)
    return y
)";

Module build_host() {
  auto cu = compile(kInterfaceSource, "host.py");
  IValue doubler = make_object(*cu, "Doubler", {{"training", IValue(false)}, {"k", IValue(full({3}, Scalar(2.0), DType::Float))}});
  IValue squared = make_object(*cu, "Squared", {{"w", IValue(3.0)}});
  // A list typed by the interface, whose type tag in data.pkl names it as the code does.
  IValue more = IValue::list({make_object(*cu, "Squared", {{"w", IValue(0.5)}})}, cu->find_type("Scorer"));
  IValue host =
      make_object(*cu, "Host", {{"training", IValue(false)}, {"op", doubler}, {"scorer", squared}, {"more", more}});
  return Module(cu, host.toObject());
}

const char* const kTorchRunsAndResaves = R"(
import sys, torch
archive, io, resave = sys.argv[1:4]
m = torch.jit.load(archive)
want = torch.load(io)
with torch.no_grad():
    got = m(*want["input"])
torch.testing.assert_close(got, want["output"], rtol=1e-6, atol=1e-6)
assert not m.training and not m.op.training
torch.jit.save(m, resave)
print("torch ran torchlet's archive:", got.tolist())
)";

TEST(ArchiveExport, InterfaceTypedAttributesRoundTripThroughTorch) {
  Module host = build_host();
  Tensor x = arange(-1, 2, 1, DType::Float);
  const IValue want = host.forward({IValue(x)});
  ASSERT_EQ(want.repr(), "tensor([ 0.5000, -1.0000,  4.5000])");  // 2x + 3x^2 - 1 + 0.5x^2

  const auto ours = temp_path("iface.pt"), io = temp_path("iface.io.pt"), theirs = temp_path("iface.torch.pt");
  save(host, ours.string());
  const std::string code = record(ours, "code/__torch__.py");
  EXPECT_THAT(code, HasSubstr("  op : __torch__.Transform\n"));
  EXPECT_THAT(code, HasSubstr("class Transform(ModuleInterface):\n"));
  EXPECT_THAT(code, HasSubstr("class Scorer(Interface):\n"));
  EXPECT_THAT(code, HasSubstr("class Squared:\n"));  // the implementations, which only the objects name
  EXPECT_THAT(code, HasSubstr("class Doubler(Module):\n"));

  // torchlet loads its own archive and runs it the same.
  EXPECT_EQ(load(ours.string()).forward({IValue(x)}).repr(), want.repr());

  // torch runs it and re-saves it; torchlet runs torch's re-save.
  auto io_dict = make_intrusive<DictImpl>(Type::str_(), Type::any());
  io_dict->insert_or_assign(IValue("input"), IValue::tuple({IValue(x)}));
  io_dict->insert_or_assign(IValue("output"), want);
  torchlet::save(IValue(io_dict), io.string());
  ASSERT_EQ(run_torch("iface", kTorchRunsAndResaves, {ours.string(), io.string(), theirs.string()}), 0);
  Module from_torch = load(theirs.string());
  EXPECT_EQ(from_torch.forward({IValue(x)}).repr(), want.repr());

  // No jitter, from torchlet's archive and from torch's.
  for (const auto& start : {ours, theirs}) {
    SCOPED_TRACE(start.string());
    const auto a = temp_path("iface.a.pt"), b = temp_path("iface.b.pt");
    save(load(start.string()), a.string());
    save(load(a.string()), b.string());
    if (start == ours) {
      EXPECT_EQ(read_bytes(ours), read_bytes(a));  // the printed archive re-saves as itself
    }
    EXPECT_EQ(read_bytes(a), read_bytes(b));
    EXPECT_EQ(load(b.string()).forward({IValue(x)}).repr(), want.repr());
    std::filesystem::remove(a);
    std::filesystem::remove(b);
  }
  for (const auto& p : {ours, io, theirs}) std::filesystem::remove(p);
}

// --- .debug_pkl of printed code ----------------------------------------------------------------

// The user's file: the raise is on line 9, the call that reaches it on line 19.
const char* const kRaisingSource =
    "# the user's model\n"                                                   // 1
    "\n"                                                                     // 2
    "class Checker(Module):\n"                                               // 3
    "  __parameters__ = []\n"                                                // 4
    "  __buffers__ = []\n"                                                   // 5
    "  training : bool\n"                                                    // 6
    "  def check(self, x: Tensor, limit: int) -> Tensor:\n"                 // 7
    "    if x.dim() > limit:\n"                                              // 8
    "      raise ValueError(\"too many dims: \" + str(x.dim()))\n"           // 9
    "    return x.sum()\n"                                                   // 10
    "\n"                                                                     // 11
    "class Model(Module):\n"                                                 // 12
    "  __parameters__ = []\n"                                                // 13
    "  __buffers__ = []\n"                                                   // 14
    "  training : bool\n"                                                    // 15
    "  checker : Checker\n"                                                  // 16
    "  def forward(self, x: Tensor) -> Tensor:\n"                           // 17
    "    y = torch.relu(x) * 2\n"                                            // 18
    "    return self.checker.check(y, 2) + torch.ones([1]).view([2, 2])\n";  // 19

Module build_raiser() {
  auto cu = compile(kRaisingSource, "user_model.py");
  IValue checker = make_object(*cu, "Checker", {{"training", IValue(false)}});
  IValue model = make_object(*cu, "Model", {{"training", IValue(false)}, {"checker", checker}});
  return Module(cu, model.toObject());
}

std::string error_of(Module& m, const Tensor& x) {
  try {
    m.forward({IValue(x)});
  } catch (const ScriptException& e) {
    return e.what();
  }
  return "no error";
}

const char* const kTorchReportsTheError = R"(
import sys, torch
archive, out = sys.argv[1:3]
m = torch.jit.load(archive)
reports = []
for shape in ([2, 2, 2], [2, 2]):
    try:
        m(torch.ones(shape))
        reports.append("no error")
    except Exception as e:
        reports.append(str(e))
open(out, "w").write("\n=====\n".join(reports))
)";

TEST(ArchiveExport, PrintedCodeRecordsTheUsersSourceRanges) {
  Module m = build_raiser();
  const auto path = temp_path("raiser.pt");
  save(m, path.string());
  EXPECT_FALSE(record(path, "code/__torch__.py.debug_pkl").empty());

  // torchlet, after a reload: the raise is reported at the user's line 9, its caller at
  // line 19, with their code (not the printed code/ lines).
  Module loaded = load(path.string());
  const std::string ours = error_of(loaded, ones({2, 2, 2}, DType::Float));
  EXPECT_THAT(ours, HasSubstr("File \"user_model.py\", line 9, in check"));
  EXPECT_THAT(ours, HasSubstr("raise ValueError(\"too many dims: \" + str(x.dim()))"));
  EXPECT_THAT(ours, HasSubstr("File \"user_model.py\", line 19, in forward"));
  EXPECT_THAT(ours, HasSubstr("too many dims: 3"));
  // An operator failing inside an inlined expression points at its own span.
  const std::string view = error_of(loaded, ones({2, 2}, DType::Float));
  EXPECT_THAT(view, HasSubstr("File \"user_model.py\", line 19, in forward"));
  EXPECT_THAT(view, HasSubstr("torch.ones([1]).view([2, 2])"));

  // torch: the same file, lines and code (torch inlines check into forward, so its
  // report has the raise's frame only).
  const auto out = temp_path("raiser.torch.txt");
  ASSERT_EQ(run_torch("raiser", kTorchReportsTheError, {path.string(), out.string()}), 0);
  const std::string theirs = read_bytes(out);
  const std::string first = theirs.substr(0, theirs.find("\n=====\n"));
  const std::string second = theirs.substr(theirs.find("\n=====\n") + 7);
  EXPECT_THAT(first, HasSubstr("File \"user_model.py\", line 9"));
  EXPECT_THAT(first, HasSubstr("raise ValueError(\"too many dims: \" + str(x.dim()))"));
  EXPECT_THAT(first, HasSubstr("too many dims: 3"));
  EXPECT_THAT(second, HasSubstr("File \"user_model.py\", line 19"));
  EXPECT_THAT(second, HasSubstr("torch.ones([1]).view([2, 2])"));

  // Re-saves keep the records byte for byte.
  const auto again = temp_path("raiser.again.pt");
  save(loaded, again.string());
  EXPECT_EQ(read_bytes(path), read_bytes(again));
  for (const auto& p : {path, out, again}) std::filesystem::remove(p);
}

}  // namespace
}  // namespace torchlet::jit

// torch.jit.load in C++: archives torch.jit.save wrote (tests/fixtures/gen_script_archives.py)
// load, their forward runs, and the outputs match torch's; extra files, attributes,
// parameters and the errors for the wrong kind of file.
#include <cmath>
#include <functional>

#include <gtest/gtest.h>
#include <torchlet/checkpoint.h>
#include <torchlet/error.h>

#include "../common/fixtures.h"
#include "archive/zip_writer.h"
#include "jit/serialization/export.h"
#include "jit/serialization/import.h"
#include "jit/runtime/interpreter.h"

namespace torchlet::jit {
namespace {

std::filesystem::path script_dir() { return torchlet::testing::fixture_dir() / "script"; }

double max_abs_diff(const Tensor& a, const Tensor& b) {
  double m = 0;
  Tensor fa = a.reshape({-1}), fb = b.reshape({-1});
  for (int64_t i = 0; i < fa.numel(); ++i) m = std::max(m, std::abs(fa.at({i}).to_double() - fb.at({i}).to_double()));
  return m;
}

TEST(Import, ArchivesRunAndMatchTorch) {
  size_t ran = 0;
  for (const auto& name : torchlet::testing::fixture_lines("script/names.txt")) {
    if (name.empty()) continue;
    SCOPED_TRACE(name);
    for (LoadMode mode : {LoadMode::Mapped, LoadMode::Eager}) {
      ScriptLoadOptions opt;
      opt.mode = mode;
      std::map<std::string, std::string> extra;
      opt.extra_files = &extra;
      Module m = load((script_dir() / (name + ".pt")).string(), opt);
      EXPECT_EQ(extra["note.txt"], "archive " + name);
      EXPECT_FALSE(m.is_training());
      IValue io = torchlet::load((script_dir() / (name + ".io.pt")).string());
      std::vector<IValue> args = io.dictRef().find(IValue("input"))->tupleRef().elements;
      Tensor want = io.dictRef().find(IValue("output"))->toTensor();
      Tensor got = m.forward(args).toTensor();
      ASSERT_EQ(shape_repr(got.sizes()), shape_repr(want.sizes()));
      double scale = 1;
      for (int64_t i = 0; i < want.numel(); ++i) scale = std::max(scale, std::abs(want.reshape({-1}).at({i}).to_double()));
      EXPECT_LE(max_abs_diff(got, want), 1e-4 * scale);
    }
    ++ran;
  }
  EXPECT_EQ(ran, 4u);
}

TEST(Import, ModuleAttributesParametersAndBuffers) {
  Module m = load((script_dir() / "small.pt").string());
  EXPECT_EQ(m.attr("scale").toInt(), 2);
  EXPECT_EQ(m.attr("names").repr(), "['a', 'b']");
  std::vector<std::string> params, buffers;
  for (const auto& [n, t] : m.named_parameters()) params.push_back(n);
  for (const auto& [n, t] : m.named_buffers()) buffers.push_back(n);
  EXPECT_EQ(params, (std::vector<std::string>{"lin.weight", "lin.bias"}));
  EXPECT_EQ(buffers, (std::vector<std::string>{"shift"}));
  // Methods other than forward are callable too.
  Tensor y = ones({3}, DType::Float);
  Tensor r = m.run_method("helper", {IValue(y), IValue(1)}).toTensor();
  EXPECT_DOUBLE_EQ(r.at({0}).to_double(), 0.5 + 1.0);
  EXPECT_DOUBLE_EQ(r.at({1}).to_double(), 0.5 - 1.0);
}

TEST(Export, SavedArchivesLoadBackAndRunTheSame) {
  for (const char* name : {"small", "recurrent", "resnet18"}) {
    SCOPED_TRACE(name);
    Module m = load((script_dir() / (std::string(name) + ".pt")).string());
    const auto out = std::filesystem::temp_directory_path() / (std::string("torchlet_export_") + name + ".pt");
    ScriptSaveOptions so;
    so.extra_files["a.txt"] = "x";
    save(m, out.string(), so);
    std::map<std::string, std::string> extra;
    ScriptLoadOptions lo;
    lo.extra_files = &extra;
    Module again = load(out.string(), lo);
    EXPECT_EQ(extra["a.txt"], "x");
    IValue io = torchlet::load((script_dir() / (std::string(name) + ".io.pt")).string());
    std::vector<IValue> args = io.dictRef().find(IValue("input"))->tupleRef().elements;
    EXPECT_EQ(max_abs_diff(again.forward(args).toTensor(), m.forward(args).toTensor()), 0.0);
    EXPECT_EQ(again.named_parameters().size(), m.named_parameters().size());
    std::filesystem::remove(out);
  }
  Module small = load((script_dir() / "small.pt").string());
  const auto out = std::filesystem::temp_directory_path() / "torchlet_export_small2.pt";
  save(small, out.string());
  EXPECT_EQ(load(out.string()).attr("names").repr(), "['a', 'b']");  // typed list survives
  std::filesystem::remove(out);
}

TEST(Export, ModulesWithoutArchiveSourceAreWrittenByThePythonPrinter) {
  // A module built in C++ has no source from any archive; save() prints its class.
  auto cu = std::make_shared<CompilationUnit>();
  Module m(cu, "__torch__.Fresh");
  m.register_attribute("count", Type::int_(), IValue(int64_t{7}));
  m.register_parameter("weight", ones({2}, DType::Float));
  const auto out = std::filesystem::temp_directory_path() / "torchlet_fresh.pt";
  save(m, out.string());
  Module again = load(out.string());
  EXPECT_EQ(again.attr("count").toInt(), 7);
  EXPECT_EQ(again.type()->name(), "__torch__.Fresh");
  ASSERT_EQ(again.named_parameters().size(), 1u);
  EXPECT_EQ(again.named_parameters()[0].first, "weight");
  std::filesystem::remove(out);
}

TEST(Export, AttributesThatShareTheirPartsSaveInProportionToTheirSize) {
  // The same list twice, 40 levels down: 41 lists, 2^40 unfolded. save() walks the
  // attributes for the classes they hold once per list (it walked all 2^40), and the
  // pickle memoizes them, so the reloaded value shares its parts the same way.
  auto cu = std::make_shared<CompilationUnit>();
  Module m(cu, "__torch__.Shared");
  IValue v = IValue::list({IValue(int64_t{1})}, Type::int_());
  TypePtr t = Type::list(Type::int_());
  for (int i = 0; i < 40; ++i) {
    v = IValue::list({v, v}, t);
    t = Type::list(t);
  }
  m.register_attribute("shared", t, v);
  const auto out = std::filesystem::temp_directory_path() / "torchlet_shared.pt";
  save(m, out.string());
  EXPECT_LT(std::filesystem::file_size(out), 100'000u);
  Module again = load(out.string());
  IValue w = again.attr("shared");
  for (int i = 0; i < 40; ++i) {
    ASSERT_EQ(w.listRef().elements.size(), 2u);
    EXPECT_TRUE(w.listRef().elements[0].is(w.listRef().elements[1]));
    w = w.listRef().elements[0];
  }
  EXPECT_EQ(w.repr(), "[1]");
  std::filesystem::remove(out);
}

TEST(Import, ErrorsInLoadedModelsPointAtTheOriginalSource) {
  Module m = load((script_dir() / "raiser.pt").string());
  std::string what;
  try {
    m.forward({IValue(zeros({3}, DType::Float))});
  } catch (const ScriptException& e) {
    what = e.what();
  }
  // torch's report for the same call names the user's file, the line of the raise and
  // its code; torchlet's names the same (and, beyond torch, every calling frame too).
  std::string torch_report;
  for (const auto& line : torchlet::testing::fixture_lines("script/raiser.error.txt")) torch_report += line + "\n";
  const size_t file_at = torch_report.find("  File \"");
  ASSERT_NE(file_at, std::string::npos) << torch_report;
  const std::string location = torch_report.substr(file_at, torch_report.find(", in ", file_at) - file_at);
  EXPECT_NE(location.find("gen_script_archives.py"), std::string::npos) << location;
  EXPECT_NE(what.find(location + ", in check"), std::string::npos) << location << "\n" << what;
  EXPECT_NE(what.find(", in forward"), std::string::npos) << what;
  EXPECT_NE(what.find("self.check(x)"), std::string::npos) << what;
  EXPECT_NE(what.find("raise ValueError(\"expected a matrix, got \" + str(x.dim()) + \" dims\")"), std::string::npos) << what;
  const std::string last = torch_report.substr(torch_report.rfind('\n', torch_report.size() - 2) + 1);
  EXPECT_EQ(what.substr(what.rfind('\n') + 1) + "\n", last);
}

TEST(Export, ResavedModelsKeepTorchsSourceRanges) {
  // The .debug_pkl records travel with the code they describe: errors in a re-saved
  // model still point at the user's file (gen_script_archives.py), not at code/.
  Module m = load((script_dir() / "raiser.pt").string());
  const auto out = std::filesystem::temp_directory_path() / "torchlet_raiser_resaved.pt";
  save(m, out.string());
  Module again = load(out.string());
  std::string what;
  try {
    again.forward({IValue(zeros({3}, DType::Float))});
  } catch (const ScriptException& e) {
    what = e.what();
  }
  EXPECT_NE(what.find("gen_script_archives.py"), std::string::npos) << what;
  EXPECT_NE(what.find("self.check(x)"), std::string::npos) << what;
  std::filesystem::remove(out);
}

// "<kind>: <message>" of what `f` throws, or "no error".
std::string failure_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const torchlet::Error& err) {
    return std::string(error_kind_name(err.kind())) + ": " + err.what();
  }
  return "no error";
}

TEST(Import, WrongKindOfFileSaysWhichLoader) {
  // A torch.save checkpoint given to the TorchScript loader, and the other way round.
  const std::string ckpt = (torchlet::testing::fixture_dir() / "script" / "small.io.pt").string();
  const std::string archive = (script_dir() / "small.pt").string();
  const std::string a = failure_of([&] { (void)jit::load(ckpt); });
  EXPECT_EQ(a.rfind("unsupported: ", 0), 0u) << a;
  EXPECT_NE(a.find("load it with torchlet::load"), std::string::npos) << a;
  const std::string b = failure_of([&] { (void)torchlet::load(archive); });
  EXPECT_EQ(b.rfind("unsupported: ", 0), 0u) << b;
  EXPECT_NE(b.find("torchlet::jit::load"), std::string::npos) << b;
}

}  // namespace
}  // namespace torchlet::jit

namespace torchlet::jit {
namespace {

// A hostile archive whose classes name each other in a chain far deeper than any model:
// refused with a LimitError, not a stack overflow.
TEST(Import, ChainsOfClassDefinitionsAreBounded) {
  const auto path = std::filesystem::temp_directory_path() / "torchlet_class_chain.pt";
  {
    ZipWriter w(path.string(), "archive");
    std::string code;
    const int n = 5000;
    for (int i = 0; i < n; ++i) {
      code += "class C" + std::to_string(i) + "(Module):\n  training : bool\n";
      if (i + 1 < n) code += "  next : __torch__.C" + std::to_string(i + 1) + "\n";
    }
    w.write_record("code/__torch__.py", code);
    // data.pkl: GLOBAL '__torch__ C0', EMPTY_TUPLE, NEWOBJ, EMPTY_DICT, BUILD, STOP
    const std::string pkl = std::string("\x80\x02", 2) + "c__torch__\nC0\n)\x81}b.";
    w.write_record("data.pkl", pkl);
    w.write_record("constants.pkl", std::string("\x80\x02).", 4));
    w.write_record("version", "3\n");
    w.finalize();
  }
  const std::string what = failure_of([&] { (void)load(path.string()); });
  EXPECT_EQ(what.rfind("limit exceeded: ", 0), 0u) << what.substr(0, 300);
  EXPECT_NE(what.find("definitions that name each other nest more than 256 deep"), std::string::npos) << what.substr(0, 300);
  std::filesystem::remove(path);
}

// Functions in different code/ files, each calling the next file's from 90 nested ifs:
// the files' compilers call one another on one C++ stack, so they share one nesting
// bound (150 files overflowed it while each file counted its own 256).
TEST(Import, ChainsAcrossCodeFilesShareOneNestingBound) {
  auto write_chain = [](const std::filesystem::path& path, int files) {
    ZipWriter w(path.string(), "archive");
    w.write_record("code/__torch__.py",
                   "class C(Module):\n  __parameters__ = []\n  __buffers__ = []\n  training : bool\n"
                   "  def forward(self: __torch__.C, x: Tensor) -> Tensor:\n    return __torch__.m0.f(x)\n");
    for (int i = 0; i < files; ++i) {
      std::string code = "def f(x: Tensor) -> Tensor:\n", indent = "  ";
      for (int d = 0; d < 90; ++d, indent += "  ") code += indent + "if bool(x):\n";
      code += indent + "x = " + (i + 1 < files ? "__torch__.m" + std::to_string(i + 1) + ".f(x) + 1" : std::string("x")) +
              "\n  return x\n";
      w.write_record("code/__torch__/m" + std::to_string(i) + ".py", code);
    }
    // data.pkl: GLOBAL '__torch__ C', EMPTY_TUPLE, NEWOBJ, {'training': True}, BUILD, STOP
    const char pkl[] = "\x80\x02" "c__torch__\nC\n)\x81}X\x08\x00\x00\x00training\x88sb.";
    w.write_record("data.pkl", std::string(pkl, sizeof pkl - 1));
    w.write_record("constants.pkl", std::string("\x80\x02).", 4));
    w.write_record("version", "3\n");
    w.finalize();
  };
  const auto path = std::filesystem::temp_directory_path() / "torchlet_file_chain.pt";
  write_chain(path, 2);  // 2 x 91 levels: within the bound, and it runs
  Module m = load(path.string());
  EXPECT_DOUBLE_EQ(m.run_method("forward", {IValue(ones({1}, DType::Float))}).toTensor().at({0}).to_double(), 2.0);
  write_chain(path, 150);
  const std::string what = failure_of([&] { (void)load(path.string()); });
  EXPECT_EQ(what.rfind("limit exceeded: ", 0), 0u) << what.substr(0, 300);
  EXPECT_NE(what.find("nest more than 256 deep"), std::string::npos) << what.substr(0, 300);
  EXPECT_NE(what.find("code/__torch__/m2.py"), std::string::npos) << what.substr(0, 300);
  std::filesystem::remove(path);
}

}  // namespace
}  // namespace torchlet::jit

namespace torchlet::jit {
namespace {

// Archives from before an operator changed meaning run with the old meaning, as torch's
// upgraders make them: the same module saved by torch 1.13 (version 4) and relabelled
// version 3 (as torch <= 1.8 wrote it, linspace without steps) give what torch gives for each.
TEST(Import, OperatorUpgradersFollowTheArchiveVersion) {
  IValue io = torchlet::load((script_dir() / "versioned.io.pt").string());
  const auto& in = io.dictRef().find(IValue("input"))->tupleRef().elements;
  for (const char* name : {"versioned.pt", "versioned_v3.pt", "versioned_out_v3.pt"}) {
    SCOPED_TRACE(name);
    Module m = load((script_dir() / name).string());
    IValue got = m.forward(in);
    const auto& want = io.dictRef().find(IValue(name))->tupleRef().elements;
    ASSERT_EQ(got.tupleRef().elements.size(), want.size());
    for (size_t i = 0; i < want.size(); ++i) {
      const Tensor g = got.tupleRef().elements[i].toTensor(), w = want[i].toTensor();
      EXPECT_EQ(dtype_name(g.dtype()), dtype_name(w.dtype())) << "output " << i;
      EXPECT_EQ(g.repr(), w.repr()) << "output " << i;
    }
  }
}

}  // namespace
}  // namespace torchlet::jit

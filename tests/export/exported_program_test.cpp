// torch.export archives through the public API (include/torchlet/exported_program.h),
// against what tests/fixtures/gen_pt2.py wrote with torch 1.13 (NAME.pt2 beside its
// inputs, torch's outputs and state dict; hostile/*.pt2) and the real torch 2.9 archive
// its manifest lists. tests/interop/test_pt2.py checks the same archives through the CLI.
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <torchlet/checkpoint.h>
#include <torchlet/error.h>
#include <torchlet/exported_program.h>
#include <torchlet/ops.h>
#include <torchlet/tensor.h>

#include "../common/fixtures.h"

namespace torchlet {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;
using InKind = ExportedInput::Kind;
using OutKind = ExportedOutput::Kind;

const std::vector<std::string> kPrograms = {"linear",          "conv_bn_relu",  "mlp_symbolic_batch",
                                            "flatten_view",    "buffer_mutation", "multi_output",    "attention",       "conversions",     "parameter_mutation", "cond_branches",
                                            "legacy_linear",   "executorch_linear"};
const std::string kTorch29Archive =
    "/work/shared/corpus/external/files/pytorch__executorch/extension__pt2_archive__test__linear@6f89131a.pt2";

// --- fixtures: a missing one throws, which fails the test (never a skip) ------------------

fs::path pt2_dir() { return testing::fixture_dir() / "pt2"; }

std::string fixture(const fs::path& relative) {
  // Joining keeps an absolute path (the corpus archive) as it is.
  const fs::path p = pt2_dir() / relative;
  if (!fs::is_regular_file(p))
    throw std::runtime_error("missing fixture " + p.string() + " (tests/fixtures/generate.py OUTDIR pt2 writes it)");
  return p.string();
}

json read_json(const std::string& path) {
  std::ifstream in(path);
  return json::parse(in);
}

json manifest() { return read_json(fixture("manifest.json")); }
json hostile_manifest() { return read_json(fixture("hostile/manifest.json")); }

json entry(const std::string& name) {
  for (const json& e : manifest())
    if (e.at("name") == name) return e;
  throw std::runtime_error("pt2/manifest.json lists no program " + name);
}

std::string archive_of(const json& e) { return fixture(e.at("archive").get<std::string>()); }

ExportedProgram load_program(const std::string& name) { return load_exported_program(archive_of(entry(name))); }

std::vector<IValue> tuple_elements(const IValue& v, const std::string& what) {
  if (!v.isTuple()) throw std::runtime_error(what + " holds " + v.repr() + ", not a tuple");
  return v.tupleRef().elements;
}

std::vector<IValue> inputs_of(const json& e, const char* key = "inputs") {
  const std::string path = fixture(e.at(key).get<std::string>());
  return tuple_elements(load(path), path);
}

IValue expected_of(const json& e) { return load(fixture(e.at("expected").get<std::string>())); }

Tensor state_tensor(const ExportedProgram& p, const std::string& fqn) {
  for (const auto& [name, t] : p.state())
    if (name == fqn) return t;
  throw std::runtime_error("state() holds no " + fqn);
}

// --- comparisons ---------------------------------------------------------------------

void expect_close(const Tensor& want, const Tensor& got, const std::string& where) {
  ASSERT_TRUE(got.defined()) << where;
  ASSERT_EQ(dtype_name(got.dtype()), dtype_name(want.dtype())) << where;
  ASSERT_EQ(got.sizes().vec(), want.sizes().vec()) << where;
  // The tolerance test_pt2.py uses: torch 1.13 and torchlet may sum in different orders.
  if (is_floating(want.dtype()) || is_complex(want.dtype())) {
    EXPECT_TRUE(allclose(got, want, 1e-5, 1e-5)) << where << "\nwant " << want << "\ngot  " << got;
  } else {
    EXPECT_TRUE(equal(got, want)) << where << "\nwant " << want << "\ngot  " << got;
  }
}

void expect_close(const IValue& want, const IValue& got, const std::string& where) {
  if (want.isTuple()) {
    ASSERT_TRUE(got.isTuple()) << where << ": want a tuple, got " << got.repr();
    const auto& w = want.tupleRef().elements;
    const auto& g = got.tupleRef().elements;
    ASSERT_EQ(g.size(), w.size()) << where;
    for (size_t i = 0; i < w.size(); ++i) expect_close(w[i], g[i], where + "[" + std::to_string(i) + "]");
    return;
  }
  ASSERT_TRUE(want.isTensor()) << where << ": the fixture holds " << want.repr();
  ASSERT_TRUE(got.isTensor()) << where << ": want a tensor, got " << got.repr();
  expect_close(want.toTensor(), got.toTensor(), where);
}

void expect_bitwise_equal(const Tensor& want, const Tensor& got, const std::string& where) {
  ASSERT_TRUE(got.defined()) << where;
  ASSERT_EQ(dtype_name(got.dtype()), dtype_name(want.dtype())) << where;
  ASSERT_EQ(got.sizes().vec(), want.sizes().vec()) << where;
  const Tensor a = want.contiguous(), b = got.contiguous();
  if (a.nbytes() > 0) {
    EXPECT_EQ(std::memcmp(a.data_ptr(), b.data_ptr(), a.nbytes()), 0) << where << ": bytes differ";
  }
}

// `call` must throw a torchlet::Error other than InternalError whose message contains
// `mentions`, and of `kind` when one is given.
void expect_refused(const std::function<void()>& call, const std::string& mentions, std::optional<ErrorKind> kind,
                    const std::string& what) {
  try {
    call();
  } catch (const InternalError& e) {
    ADD_FAILURE() << what << ": an internal error, i.e. a torchlet bug: " << e.what();
    return;
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find(mentions), std::string::npos)
        << what << ": the message does not mention '" << mentions << "': " << e.what();
    if (kind) {
      EXPECT_EQ(std::string(error_kind_name(e.kind())), error_kind_name(*kind)) << what << ": " << e.what();
    }
    return;
  }
  ADD_FAILURE() << what << ": accepted";
}

// --- every program -----------------------------------------------------------------------

TEST(ExportedProgramFixtures, ManifestListsEveryProgramInBothLayouts) {
  const json m = manifest();
  std::set<std::string> names, layouts;
  for (const json& e : m) {
    names.insert(e.at("name").get<std::string>());
    layouts.insert(e.at("layout").get<std::string>());
    EXPECT_NO_THROW(archive_of(e)) << e.at("name");
  }
  EXPECT_EQ(names, std::set<std::string>(kPrograms.begin(), kPrograms.end()));
  EXPECT_EQ(layouts, (std::set<std::string>{"pt2", "legacy"}));
  // The corpus archive is named by its absolute path, not copied beside the others.
  EXPECT_EQ(entry("executorch_linear").at("archive").get<std::string>(), kTorch29Archive);
}

TEST(ExportedProgram, EveryProgramRunsToTorchsOutputs) {
  const json m = manifest();
  ASSERT_EQ(m.size(), kPrograms.size());
  for (const json& e : m) {
    const std::string name = e.at("name");
    SCOPED_TRACE(name);
    try {
      ExportedProgram p = load_exported_program(archive_of(e));
      expect_close(expected_of(e), p(inputs_of(e)), name);
    } catch (const std::exception& ex) {
      ADD_FAILURE() << name << ": " << ex.what();
    }
  }
}

TEST(ExportedProgram, ReportsLayoutVersionsAndVerifiers) {
  for (const json& e : manifest()) {
    const std::string name = e.at("name");
    SCOPED_TRACE(name);
    ExportedProgram p = load_exported_program(archive_of(e));
    EXPECT_EQ(p.path(), archive_of(e));
    EXPECT_EQ(p.layout(), e.at("layout").get<std::string>());
    EXPECT_EQ(p.verifiers(), std::vector<std::string>{"TRAINING"});
    EXPECT_EQ(p.schema_version().first, 8);
  }
  ExportedProgram legacy = load_program("legacy_linear");
  EXPECT_EQ(legacy.layout(), "legacy");
  EXPECT_EQ(legacy.torch_version(), "2.7.0+torchlet.handwritten");
  EXPECT_EQ(legacy.schema_version(), (std::pair<int64_t, int64_t>{8, 6}));
  ExportedProgram pt2 = load_program("linear");
  EXPECT_EQ(pt2.layout(), "pt2");
  EXPECT_EQ(pt2.torch_version(), "2.9.0+torchlet.handwritten");
  EXPECT_EQ(pt2.schema_version(), (std::pair<int64_t, int64_t>{8, 12}));
  // gen_pt2.py gives both the same weights: the layouts must read them alike.
  const auto a = legacy.state_dict(), b = pt2.state_dict();
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].first, b[i].first);
    expect_bitwise_equal(b[i].second, a[i].second, a[i].first);
  }
}

TEST(ExportedProgram, LoadsARealTorch29Archive) {
  const json e = entry("executorch_linear");
  ExportedProgram p = load_exported_program(archive_of(e));
  EXPECT_TRUE(p.torch_version().starts_with("2.9")) << p.torch_version();
  EXPECT_EQ(p.layout(), "pt2");
  EXPECT_EQ(p.schema_version(), (std::pair<int64_t, int64_t>{8, 12}));
  ASSERT_EQ(p.inputs().size(), 3u);
  EXPECT_EQ(p.inputs()[0].kind, InKind::Parameter);
  EXPECT_EQ(p.inputs()[0].name, "p_linear_weight");
  EXPECT_EQ(p.inputs()[0].target, "linear.weight");
  EXPECT_EQ(p.inputs()[1].kind, InKind::Parameter);
  EXPECT_EQ(p.inputs()[1].target, "linear.bias");
  EXPECT_EQ(p.inputs()[2].kind, InKind::UserInput);
  EXPECT_EQ(p.inputs()[2].name, "x");
  ASSERT_EQ(p.outputs().size(), 1u);
  EXPECT_EQ(p.outputs()[0].kind, OutKind::UserOutput);
  EXPECT_EQ(p.outputs()[0].name, "linear");
  EXPECT_EQ(p.operator_counts(), (std::map<std::string, int64_t>{{"aten::linear", 1}}));
  EXPECT_TRUE(p.range_constraints().empty());
  // gen_pt2.py took this program's inputs and expected output from its own sample inputs.
  ASSERT_TRUE(p.sample_inputs().has_value());
  const std::vector<IValue> inputs = inputs_of(e);
  const std::vector<IValue> samples = *p.sample_inputs();
  ASSERT_EQ(samples.size(), inputs.size());
  for (size_t i = 0; i < inputs.size(); ++i) {
    ASSERT_TRUE(samples[i].isTensor());
    expect_bitwise_equal(inputs[i].toTensor(), samples[i].toTensor(), "sample input " + std::to_string(i));
  }
  expect_close(expected_of(e), p(samples), "on its sample inputs");
}

// --- signatures and state ----------------------------------------------------------------

TEST(ExportedProgram, ConvBnReluSignatureReadsParametersBuffersAndOneUserInput) {
  ExportedProgram p = load_program("conv_bn_relu");
  struct Want {
    InKind kind;
    std::string name, target;
  };
  const std::vector<Want> want = {
      {InKind::Parameter, "p_conv_weight", "conv.weight"},
      {InKind::Parameter, "p_conv_bias", "conv.bias"},
      {InKind::Parameter, "p_bn_weight", "bn.weight"},
      {InKind::Parameter, "p_bn_bias", "bn.bias"},
      {InKind::Buffer, "b_bn_running_mean", "bn.running_mean"},
      {InKind::Buffer, "b_bn_running_var", "bn.running_var"},
      {InKind::Buffer, "b_bn_num_batches_tracked", "bn.num_batches_tracked"},
      {InKind::UserInput, "x", ""},
  };
  ASSERT_EQ(p.inputs().size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    SCOPED_TRACE(want[i].name);
    EXPECT_EQ(exported_input_kind_name(p.inputs()[i].kind), std::string(exported_input_kind_name(want[i].kind)));
    EXPECT_EQ(p.inputs()[i].name, want[i].name);
    EXPECT_EQ(p.inputs()[i].target, want[i].target);
    if (want[i].kind == InKind::Buffer) {
      EXPECT_TRUE(p.inputs()[i].persistent);
    }
  }
  EXPECT_EQ(p.inputs()[0].type, "float32[8, 3, 3, 3]");
  EXPECT_EQ(p.inputs()[7].type, "float32[1, 3, 8, 8]");
  ASSERT_EQ(p.outputs().size(), 1u);
  EXPECT_EQ(p.outputs()[0].kind, OutKind::UserOutput);
  EXPECT_EQ(p.outputs()[0].name, "relu");
  EXPECT_EQ(p.outputs()[0].target, "");
  EXPECT_EQ(p.outputs()[0].type, "float32[1, 8, 8, 8]");
  EXPECT_TRUE(p.range_constraints().empty());

  // state(): every parameter and buffer by FQN in signature order, the buffer the
  // graph never reads included.
  std::vector<std::string> names;
  for (const auto& [name, t] : p.state()) names.push_back(name);
  std::vector<std::string> targets;
  for (size_t i = 0; i + 1 < want.size(); ++i) targets.push_back(want[i].target);
  EXPECT_EQ(names, targets);
  const Tensor tracked = state_tensor(p, "bn.num_batches_tracked");
  EXPECT_EQ(dtype_name(tracked.dtype()), "int64");
  EXPECT_EQ(tracked.dim(), 0);
  EXPECT_EQ(tracked.to_vector<int64_t>(), std::vector<int64_t>{12});
}

TEST(ExportedProgram, KindNamesAreDistinct) {
  EXPECT_STREQ(exported_input_kind_name(InKind::UserInput), "user input");
  EXPECT_STREQ(exported_input_kind_name(InKind::Parameter), "parameter");
  EXPECT_STREQ(exported_output_kind_name(OutKind::UserOutput), "user output");
  EXPECT_STREQ(exported_output_kind_name(OutKind::BufferMutation), "buffer mutation");
  std::set<std::string> in, out;
  for (InKind k : {InKind::UserInput, InKind::Parameter, InKind::Buffer, InKind::TensorConstant, InKind::ConstantInput,
                   InKind::CustomObject, InKind::Token})
    in.insert(exported_input_kind_name(k));
  for (OutKind k : {OutKind::UserOutput, OutKind::BufferMutation, OutKind::UserInputMutation, OutKind::LossOutput,
                    OutKind::Token})
    out.insert(exported_output_kind_name(k));
  EXPECT_EQ(in.size(), 7u);
  EXPECT_EQ(out.size(), 5u);
  EXPECT_FALSE(in.count("") || out.count(""));
}

TEST(ExportedProgram, StateDictHoldsTorchsBytes) {
  for (const json& e : manifest()) {
    const std::string name = e.at("name");
    SCOPED_TRACE(name);
    ExportedProgram p = load_exported_program(archive_of(e));
    const IValue want = load(fixture(e.at("state_dict").get<std::string>()));
    ASSERT_TRUE(want.isDict());
    const auto got = p.state_dict();
    ASSERT_EQ(got.size(), want.dictRef().size());
    size_t i = 0;
    for (const auto& [key, value] : want.dictRef().items()) {
      EXPECT_EQ(got[i].first, key.toStringRef());
      expect_bitwise_equal(value.toTensor(), got[i].second, key.toStringRef());
      ++i;
    }
  }
}

TEST(ExportedProgram, TensorConstantsAreStateButNotStateDict) {
  ExportedProgram p = load_program("flatten_view");
  ASSERT_EQ(p.inputs().size(), 2u);
  EXPECT_EQ(p.inputs()[0].kind, InKind::TensorConstant);
  EXPECT_EQ(p.inputs()[0].name, "c_offset");
  EXPECT_EQ(p.inputs()[0].target, "offset");
  EXPECT_EQ(p.inputs()[1].kind, InKind::UserInput);
  ASSERT_EQ(p.state().size(), 1u);
  EXPECT_EQ(p.state()[0].first, "offset");
  EXPECT_EQ(p.state()[0].second.sizes().vec(), (Shape{18}));
  EXPECT_TRUE(p.state_dict().empty());
}

TEST(ExportedProgram, BufferMutationWritesStateAsTheGraphComputes) {
  const json e = entry("buffer_mutation");
  ExportedProgram p = load_exported_program(archive_of(e));
  ASSERT_EQ(p.inputs().size(), 2u);
  EXPECT_EQ(p.inputs()[0].kind, InKind::Buffer);
  EXPECT_EQ(p.inputs()[0].name, "b_count");
  EXPECT_EQ(p.inputs()[0].target, "count");
  EXPECT_EQ(p.inputs()[1].kind, InKind::UserInput);
  ASSERT_EQ(p.outputs().size(), 2u);
  EXPECT_EQ(p.outputs()[0].kind, OutKind::BufferMutation);
  EXPECT_EQ(p.outputs()[0].name, "add");
  EXPECT_EQ(p.outputs()[0].target, "count");
  EXPECT_EQ(p.outputs()[1].kind, OutKind::UserOutput);
  EXPECT_EQ(p.outputs()[1].name, "mul");
  EXPECT_EQ(p.operator_counts(), (std::map<std::string, int64_t>{{"aten::add.Tensor", 1}, {"aten::mul.Tensor", 1}}));

  // The graph: count' = count + 1; returns x * count'. Only the user output is returned.
  EXPECT_EQ(state_tensor(p, "count").to_vector<float>(), (std::vector<float>{0, 1, 2, 3}));
  const std::vector<IValue> inputs = inputs_of(e);
  const Tensor x = inputs.at(0).toTensor();
  const IValue first = p(inputs);
  expect_close(expected_of(e), first, "first call");
  const Tensor after_one = state_tensor(p, "count").clone();
  EXPECT_EQ(after_one.to_vector<float>(), e.at("mutated_buffers").at("count").get<std::vector<float>>());
  expect_close(mul(x, after_one), first, "first call against x * count");
  // Each call reads what the last one wrote, as the exported module's buffer does.
  const IValue second = p(inputs);
  const Tensor after_two = state_tensor(p, "count").clone();
  EXPECT_EQ(after_two.to_vector<float>(), (std::vector<float>{2, 3, 4, 5}));
  expect_close(mul(x, after_two), second, "second call against x * count");
  // state_dict() is state() less constants, so it holds the mutated value too.
  const auto sd = p.state_dict();
  ASSERT_EQ(sd.size(), 1u);
  expect_bitwise_equal(after_two, sd[0].second, "state_dict count");
  // Weights alias the archive's mapping copy-on-write: the mutation never reaches the file.
  ExportedProgram reloaded = load_exported_program(archive_of(e));
  EXPECT_EQ(state_tensor(reloaded, "count").to_vector<float>(), (std::vector<float>{0, 1, 2, 3}));
}

TEST(ExportedProgram, ParameterMutationWritesTheParameter) {
  const json e = entry("parameter_mutation");
  ExportedProgram p = load_exported_program(archive_of(e));
  ASSERT_EQ(p.outputs().size(), 2u);
  EXPECT_EQ(p.outputs()[0].kind, OutKind::ParameterMutation);
  EXPECT_EQ(p.outputs()[0].target, "step");
  EXPECT_STREQ(exported_output_kind_name(OutKind::ParameterMutation), "parameter mutation");
  expect_close(expected_of(e), p(inputs_of(e)), "first call");
  EXPECT_EQ(state_tensor(p, "step").to_vector<float>(), e.at("mutated_parameters").at("step").get<std::vector<float>>());
}

// Both predicates of cond_branches come from x.sum(): positive takes gt's true branch
// (x * w) and le's false one (x / w); otherwise sub and add.
TEST(ExportedProgram, CondRunsTheBranchItsPredicateChooses) {
  ExportedProgram p = load_program("cond_branches");
  EXPECT_EQ(p.operator_counts().at("higher_order::cond"), 2);
  EXPECT_NE(p.graph_text().find("prim::If"), std::string::npos) << p.graph_text();
  const Tensor w = state_tensor(p, "w");
  const Tensor x = abs(randn({2, 4}));
  expect_close(IValue(add(mul(x, w), div(x, w))), p({IValue(x)}), "positive sum");
  const Tensor y = neg(x);
  expect_close(IValue(add(sub(y, w), add(y, w))), p({IValue(y)}), "negative sum");
}

TEST(ExportedProgram, MultiOutputReturnsATupleAndCountsOperators) {
  ExportedProgram p = load_program("multi_output");
  EXPECT_EQ(p.operator_counts(), (std::map<std::string, int64_t>{{"aten::max.dim", 1}, {"aten::cat", 1}}));
  ASSERT_EQ(p.inputs().size(), 2u);
  EXPECT_EQ(p.inputs()[0].name, "x");
  EXPECT_EQ(p.inputs()[1].name, "y");
  for (const ExportedInput& in : p.inputs()) EXPECT_EQ(in.kind, InKind::UserInput) << in.name;
  ASSERT_EQ(p.outputs().size(), 3u);
  const std::vector<std::pair<std::string, std::string>> want = {
      {"getitem", "float32[3, 1]"}, {"getitem_1", "int64[3, 1]"}, {"cat", "float32[3, 5]"}};
  for (size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ(p.outputs()[i].kind, OutKind::UserOutput);
    EXPECT_EQ(p.outputs()[i].name, want[i].first);
    EXPECT_EQ(p.outputs()[i].type, want[i].second);
  }
  EXPECT_TRUE(p.state().empty());
  EXPECT_EQ(load_program("mlp_symbolic_batch").operator_counts(),
            (std::map<std::string, int64_t>{{"aten::linear", 2}, {"aten::relu", 1}}));
  EXPECT_EQ(load_program("linear").operator_counts(), (std::map<std::string, int64_t>{{"aten::linear", 1}}));
}

// --- symbolic shapes ---------------------------------------------------------------------

TEST(ExportedProgram, SymbolicBatchRunsAnywhereInItsRange) {
  const json e = entry("mlp_symbolic_batch");
  ExportedProgram p = load_exported_program(archive_of(e));
  ASSERT_EQ(p.range_constraints().size(), 1u);
  ASSERT_TRUE(p.range_constraints().count("s0"));
  const SymbolRange& s0 = p.range_constraints().at("s0");
  EXPECT_EQ(s0.min, 2);
  EXPECT_EQ(s0.max, std::optional<int64_t>(1024));
  ASSERT_EQ(p.inputs().size(), 5u);
  EXPECT_EQ(p.inputs()[4].type, "float32[s0, 8]");
  EXPECT_EQ(p.outputs().at(0).type, "float32[s0, 4]");

  const Tensor w1 = state_tensor(p, "fc1.weight"), b1 = state_tensor(p, "fc1.bias");
  const Tensor w2 = state_tensor(p, "fc2.weight"), b2 = state_tensor(p, "fc2.bias");
  // Both ends of the range, neither the traced hint (3) nor the inputs' batch (5).
  for (int64_t batch : {int64_t{2}, int64_t{1024}}) {
    SCOPED_TRACE(batch);
    const Tensor x = linspace(-2.0, 2.0, batch * 8, DType::Float).reshape({batch, 8});
    const IValue out = p({IValue(x)});
    expect_close(linear(relu(linear(x, w1, b1)), w2, b2), out, "batch " + std::to_string(batch));
  }

  const auto refused_naming_s0 = [&](const std::vector<IValue>& args, const std::string& what) {
    expect_refused([&] { (void)p(args); }, "s0", ErrorKind::ValueError, what);
  };
  refused_naming_s0(inputs_of(e, "violating_inputs"), e.at("violating_inputs").get<std::string>());
  refused_naming_s0({IValue(zeros({1025, 8}))}, "batch 1025");
  // A refused call leaves the program as it was.
  expect_close(expected_of(e), p(inputs_of(e)), "after the refusals");
}

TEST(ExportedProgram, SymbolFromAStrExpressionIsRangeCheckedToo) {
  ExportedProgram p = load_program("flatten_view");
  ASSERT_EQ(p.range_constraints().size(), 1u);
  ASSERT_TRUE(p.range_constraints().count("s0"));
  EXPECT_EQ(p.range_constraints().at("s0").min, 2);
  EXPECT_EQ(p.range_constraints().at("s0").max, std::optional<int64_t>(1024));
  EXPECT_EQ(p.inputs().at(1).type, "float32[s0, 2, 3, 3]");
  expect_refused([&] { (void)p({IValue(zeros({1, 2, 3, 3}))}); }, "s0", ErrorKind::ValueError, "batch 1");
  // view(x, [sym_size(x, 0), 18]) + 2 * offset at a batch the archive never saw.
  const Tensor x = linspace(0.0, 1.0, 7 * 18, DType::Float).reshape({7, 2, 3, 3});
  expect_close(add(x.reshape({7, 18}), state_tensor(p, "offset"), 2), p({IValue(x)}), "batch 7");
}

TEST(ExportedProgram, CallsAreCheckedAgainstTheSignature) {
  ExportedProgram p = load_program("linear");
  EXPECT_TRUE(p.range_constraints().empty());
  const std::vector<std::pair<std::string, std::vector<IValue>>> wrong = {
      {"no inputs", {}},
      {"two inputs", {IValue(zeros({2, 4})), IValue(zeros({2, 4}))}},
      {"a static size differs", {IValue(zeros({2, 5}))}},
      {"a batch differs from the static 2", {IValue(zeros({3, 4}))}},
      {"rank 3", {IValue(zeros({2, 4, 1}))}},
      {"float64", {IValue(zeros({2, 4}, DType::Double))}},
      {"an int", {IValue(int64_t{2})}},
  };
  for (const auto& c : wrong) expect_refused([&] { (void)p(c.second); }, "", std::nullopt, c.first);
  // Still runs, moved or not.
  ExportedProgram moved = std::move(p);
  const IValue out = moved({IValue(zeros({2, 4}))});
  ASSERT_TRUE(out.isTensor());
  expect_close(linear(zeros({2, 4}), state_tensor(moved, "linear.weight"), state_tensor(moved, "linear.bias")), out,
               "zeros");
}

// --- sample inputs and the lowered graph -----------------------------------------------------

TEST(ExportedProgram, SampleInputsArePresentAndRun) {
  for (const json& e : manifest()) {
    const std::string name = e.at("name");
    SCOPED_TRACE(name);
    ExportedProgram p = load_exported_program(archive_of(e));
    ASSERT_TRUE(p.sample_inputs().has_value());
    const std::vector<IValue> samples = *p.sample_inputs();
    const std::vector<IValue> inputs = inputs_of(e);
    ASSERT_EQ(samples.size(), inputs.size());
    for (size_t i = 0; i < samples.size(); ++i) {
      ASSERT_TRUE(samples[i].isTensor()) << samples[i].repr();
      EXPECT_EQ(dtype_name(samples[i].toTensor().dtype()), dtype_name(inputs[i].toTensor().dtype()));
      EXPECT_EQ(samples[i].toTensor().dim(), inputs[i].toTensor().dim());
    }
    const IValue out = p(samples);
    // The same kind of result as on the test's inputs: arity, dtypes, ranks, and the
    // sizes themselves when nothing is symbolic.
    const IValue want = expected_of(e);
    const std::vector<IValue> w = want.isTuple() ? want.tupleRef().elements : std::vector<IValue>{want};
    ASSERT_EQ(out.isTuple(), want.isTuple()) << out.repr();
    const std::vector<IValue> g = out.isTuple() ? out.tupleRef().elements : std::vector<IValue>{out};
    ASSERT_EQ(g.size(), w.size());
    for (size_t i = 0; i < w.size(); ++i) {
      ASSERT_TRUE(g[i].isTensor()) << g[i].repr();
      const Tensor a = w[i].toTensor(), b = g[i].toTensor();
      EXPECT_EQ(dtype_name(b.dtype()), dtype_name(a.dtype()));
      EXPECT_EQ(b.dim(), a.dim());
      if (!e.at("symbolic").get<bool>()) {
        EXPECT_EQ(b.sizes().vec(), a.sizes().vec());
      }
    }
  }
  // The values too, where torchlet's own operators give them directly.
  for (const char* name : {"linear", "legacy_linear"}) {
    SCOPED_TRACE(name);
    ExportedProgram p = load_program(name);
    ASSERT_TRUE(p.sample_inputs().has_value());
    const Tensor x = p.sample_inputs()->at(0).toTensor();
    const Tensor want = linear(x, state_tensor(p, "linear.weight"), state_tensor(p, "linear.bias"));
    expect_close(want, p(*p.sample_inputs()), "sample inputs");
  }
}

TEST(ExportedProgram, GraphTextShowsTheLoweringOntoTorchletOperators) {
  for (const json& e : manifest()) {
    SCOPED_TRACE(e.at("name").get<std::string>());
    const std::string text = load_exported_program(archive_of(e)).graph_text();
    EXPECT_TRUE(text.starts_with("graph(")) << text;
  }
  const auto graph_of = [](const std::string& name) { return load_program(name).graph_text(); };
  const std::string linear_graph = graph_of("linear");
  EXPECT_NE(linear_graph.find("aten::linear"), std::string::npos) << linear_graph;
  // torch 2.x's eval batch norm runs as native_batch_norm with training=False.
  const std::string conv = graph_of("conv_bn_relu");
  for (const char* op : {"aten::conv2d", "aten::native_batch_norm", "aten::relu"})
    EXPECT_NE(conv.find(op), std::string::npos) << op << " in\n" << conv;
  // sym_size.int becomes aten::size, read at call time.
  const std::string flatten = graph_of("flatten_view");
  for (const char* op : {"aten::size", "aten::view", "aten::add"})
    EXPECT_NE(flatten.find(op), std::string::npos) << op << " in\n" << flatten;
  const std::string multi = graph_of("multi_output");
  for (const char* op : {"aten::max", "aten::cat"}) EXPECT_NE(multi.find(op), std::string::npos) << op << " in\n" << multi;
}

// --- refusals ----------------------------------------------------------------------------

TEST(ExportedProgramHostile, EveryArchiveIsRefusedNamingTheProblem) {
  const json m = hostile_manifest();
  ASSERT_GE(m.size(), 15u);
  // Kinds the header promises for these causes; the others need only be a clean refusal.
  const std::map<std::string, ErrorKind> kinds = {
      {"schema_major_99.pt2", ErrorKind::UnsupportedError}, {"unknown_operator.pt2", ErrorKind::UnsupportedError},
      {"truncated_json.pt2", ErrorKind::FormatError},       {"not_an_object.pt2", ErrorKind::FormatError},
      {"deep_json.pt2", ErrorKind::LimitError},
  };
  size_t kinds_checked = 0;
  for (const json& h : m) {
    const std::string archive = h.at("archive");
    const std::string path = fixture(fs::path("hostile") / archive);
    std::optional<ErrorKind> kind;
    if (auto k = kinds.find(archive); k != kinds.end()) {
      kind = k->second;
      ++kinds_checked;
    }
    expect_refused([&] { (void)load_exported_program(path); }, h.at("error_mentions").get<std::string>(), kind,
                   archive + " (" + h.at("what").get<std::string>() + ")");
    EXPECT_NO_THROW((void)looks_like_exported_program(path)) << archive;
  }
  EXPECT_EQ(kinds_checked, kinds.size());
}

TEST(ExportedProgramHostile, FilesThatAreNoExportedProgramAreRefused) {
  const std::string checkpoint = fixture("linear.state_dict.pt");
  expect_refused([&] { (void)load_exported_program(checkpoint); }, "", std::nullopt, "a torch.save checkpoint");
  const fs::path missing = fs::temp_directory_path() / "torchlet_no_such_program.pt2";
  fs::remove(missing);
  expect_refused([&] { (void)load_exported_program(missing.string()); }, missing.filename().string(),
                 ErrorKind::IOError, "a missing file");
}

TEST(ExportedProgram, LooksLikeExportedProgramTellsArchivesFromCheckpoints) {
  for (const json& e : manifest())
    EXPECT_TRUE(looks_like_exported_program(archive_of(e))) << e.at("name");
  // torch.save files (zip and all), a TorchScript archive, JSON, nothing at all.
  EXPECT_FALSE(looks_like_exported_program(fixture("linear.state_dict.pt")));
  EXPECT_FALSE(looks_like_exported_program(fixture("linear.inputs.pt")));
  const fs::path torchscript = testing::fixture_dir() / "script" / "small.pt";
  ASSERT_TRUE(fs::is_regular_file(torchscript)) << "missing fixture " << torchscript;
  EXPECT_FALSE(looks_like_exported_program(torchscript.string()));
  EXPECT_FALSE(looks_like_exported_program(fixture("manifest.json")));
  EXPECT_FALSE(looks_like_exported_program((fs::temp_directory_path() / "torchlet_no_such_program.pt2").string()));
}

}  // namespace
}  // namespace torchlet

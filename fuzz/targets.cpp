// The fuzz target bodies (targets.h). Each feeds the bytes to one parser the way a user
// would and exercises what it returns, so a wrong-but-accepted input reaches the code
// that trusts it (printers, the emitter, the interpreter).
#include "targets.h"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <stdexcept>
#include <string>
#include <vector>

#include <torchlet/checkpoint.h>
#include <torchlet/error.h>
#include <torchlet/exported_program.h>
#include <torchlet/graph_passes.h>
#include <torchlet/inert_records.h>
#include <torchlet/safetensors.h>
#include <torchlet/tensor.h>

#include "archive/zip_reader.h"
#include "core/allocation_limit.h"
#include "jit/frontend/compiler.h"
#include "jit/frontend/parser.h"
#include "jit/ir/ir_parser.h"
#include "jit/passes/alias_analysis.h"
#include "jit/passes/pass_manager.h"
#include "values/value_recursion.h"
#include "jit/runtime/code.h"
#include "jit/runtime/function.h"
#include "jit/runtime/interpreter.h"
#include "jit/serialization/import.h"
#include "pickle/disassembler.h"
#include "pickle/unpickler.h"

namespace torchlet::fuzz {

namespace {

// Runs `body`, swallowing the refusals a parser may legitimately answer with. An
// InternalError is an Error too, but it means one of our invariants broke: rethrown.
// So is an OutOfMemoryError: a loader that trusts a file's sizes only as far as the
// bytes present never asks for more than the fuzzer allows. A program run by the
// interpreter may (torch.zeros([1 << 20, 1 << 20])); that arrives as a ScriptException.
template <typename F>
void refusals_ok(F&& body) {
  try {
    body();
  } catch (const InternalError&) {
    throw;
  } catch (const OutOfMemoryError&) {
    throw;
  } catch (const Error&) {
  }
}

std::string as_text(Bytes data) { return std::string(reinterpret_cast<const char*>(data.data()), data.size()); }

std::span<const std::byte> as_bytes(Bytes data) {
  return {reinterpret_cast<const std::byte*>(data.data()), data.size()};
}

// The bytes as a file the loaders can open by path, in memory (memfd): no disk traffic
// and nothing left behind when a run is cut short.
class MemFile {
 public:
  explicit MemFile(Bytes data) : fd_(memfd_create("torchlet_fuzz", 0)) {
    if (fd_ < 0) throw std::runtime_error("memfd_create failed");
    size_t done = 0;
    while (done < data.size()) {
      const ssize_t n = write(fd_, data.data() + done, data.size() - done);
      if (n <= 0) {
        close(fd_);
        throw std::runtime_error("writing the memfd failed");
      }
      done += static_cast<size_t>(n);
    }
  }
  ~MemFile() { close(fd_); }
  MemFile(const MemFile&) = delete;
  MemFile& operator=(const MemFile&) = delete;
  std::string path() const { return "/proc/self/fd/" + std::to_string(fd_); }

 private:
  int fd_;
};

// A fixed small argument for a parameter of `forward`, or nothing when the type is not
// one a caller could supply without knowing the model.
std::optional<IValue> sample_argument(const jit::SchemaType& t) {
  using Kind = jit::SchemaType::Kind;
  if (t.kind == Kind::Optional) return IValue();
  if (t.kind == Kind::List && !t.contained.empty() && t.contained[0]->kind == Kind::Name &&
      t.contained[0]->name == "int")
    return IValue::list({IValue(int64_t{2}), IValue(int64_t{4})}, jit::Type::int_());
  if (t.kind != Kind::Name) return std::nullopt;
  if (t.name == "Tensor") return IValue(arange(8, DType::Float).reshape({2, 4}));
  if (t.name == "int") return IValue(int64_t{2});
  if (t.name == "float") return IValue(0.5);
  if (t.name == "bool") return IValue(true);
  if (t.name == "str") return IValue(std::string("fuzz"));
  return std::nullopt;
}

void run_forward(const jit::Module& m) {
  if (!m.has_method("forward")) return;
  const jit::Method forward = m.get_method("forward");
  const auto& params = forward.function().schema().arguments;
  std::vector<IValue> args;
  for (size_t i = 1; i < params.size(); ++i) {  // [0] is self
    std::optional<IValue> a = sample_argument(*params[i].type);
    if (!a) return;
    args.push_back(std::move(*a));
  }
  jit::StepBudget budget(kForwardStepBudget);
  IValue out = forward(std::move(args));
  (void)out.repr();
}

// Everything an exported program reports, as `torchlet inspect` prints it: its names,
// types and constants come from the file. Every state tensor is printed, which reads
// each byte the metadata admitted (a wrong offset shows under ASan).
void describe(const ExportedProgram& p) {
  std::string text = p.path() + p.layout() + p.torch_version();
  text += std::to_string(p.schema_version().first) + "." + std::to_string(p.schema_version().second);
  for (const std::string& v : p.verifiers()) text += v;
  for (const ExportedInput& in : p.inputs())
    text += std::string(exported_input_kind_name(in.kind)) + in.name + in.target + in.type + (in.persistent ? "" : "*");
  for (const ExportedOutput& out : p.outputs())
    text += std::string(exported_output_kind_name(out.kind)) + out.name + out.target + out.type;
  for (const auto& [symbol, range] : p.range_constraints())
    text += symbol + std::to_string(range.min) + (range.max ? std::to_string(*range.max) : "inf");
  for (const auto& [op, count] : p.operator_counts()) text += op + std::to_string(count);
  if (p.sample_inputs())
    for (const IValue& v : *p.sample_inputs()) text += v.repr();
  std::vector<std::string> names;
  for (const auto& [name, t] : p.state()) {
    names.push_back(name);
    text += name + t.repr();
  }
  // state_dict() is state() less non-persistent buffers and constants, by its contract.
  for (const auto& [name, t] : p.state_dict())
    if (std::find(names.begin(), names.end(), name) == names.end())
      throw std::runtime_error("state_dict() holds '" + name + "', which state() does not");
}

}  // namespace

void zip_reader(Bytes data) {
  refusals_ok([&] {
    auto z = ZipReader::from_bytes(as_bytes(data), "fuzz.zip");
    for (const auto& r : z.records()) {
      if (r.uncompressed_size > (1u << 24)) continue;  // keep each run fast and small
      (void)z.read(r, /*verify_crc=*/true);
    }
  });
}

void unpickler(Bytes data) {
  const ValueVisitBudget walks(kFuzzValueVisits);
  for (bool inert : {false, true}) {
    pickle::UnpicklerOptions opt;
    opt.inert_unknown_globals = inert;
    opt.persistent_load = [](const IValue&) { return IValue(zeros({16}, DType::Float)); };
    opt.limits.max_objects = 1 << 16;  // keep each run fast
    refusals_ok([&] {
      const IValue v = pickle::unpickle(as_bytes(data), opt, "fuzz.pkl");
      (void)v.repr();
      if (inert) (void)decode_inert_records(v);  // numpy arrays and scalars from their bytes
    });
  }
  const std::string listing = pickle::disassemble(as_bytes(data), "fuzz.pkl");
  // Each opcode prints one line of bounded width; a listing out of proportion to its
  // input (nesting printed as indentation once did this) is a finding.
  if (listing.size() > 200 * data.size() + 4096)
    throw std::runtime_error("disassembly of " + std::to_string(data.size()) + " bytes printed " +
                             std::to_string(listing.size()));
}

void checkpoint(Bytes data) {
  const ValueVisitBudget walks(kFuzzValueVisits);
  MemFile file(data);
  for (auto mode : {LoadMode::Eager, LoadMode::Mapped}) {
    LoadOptions opt;
    opt.mode = mode;
    refusals_ok([&] { (void)load(file.path(), opt).repr(); });
  }
  refusals_ok([&] { (void)scan(file.path()); });
}

void ir_parser(Bytes data) {
  const ValueVisitBudget walks(kFuzzValueVisits);
  refusals_ok([&] {
    jit::GraphPtr g = jit::parse_ir(as_text(data));
    // parse_ir does not check scoping (a use of a value defined inside a loop body from
    // after the loop parses); lint is that check, so its verdict on parsed text is a
    // refusal here, not a broken invariant. Only a lint-clean graph goes further.
    try {
      g->lint();
    } catch (const InternalError&) {
      return;
    }
    const std::string printed = g->str();
    (void)jit::parse_ir(printed)->str();
    (void)jit::emit_code(g, "fuzz", nullptr).dump();
  });
}

void graph_passes(Bytes data) {
  const ValueVisitBudget walks(kFuzzValueVisits);
  const AllocationLimit memory(kFuzzAllocationBytes);  // constant folding runs operators
  refusals_ok([&] {
    jit::GraphPtr g = jit::parse_ir(as_text(data));
    try {  // as in ir_parser: only a lint-clean graph is a program the passes must take
      g->lint();
    } catch (const InternalError&) {
      return;
    }
    (void)jit::AliasDb(*g).dump();
    // Each pass alone, then all in a row; a pass that leaves a graph lint rejects (an
    // InternalError) or loops is a finding.
    std::vector<std::string> all;
    for (const jit::GraphPass& pass : jit::graph_passes()) {
      all.push_back(pass.name);
      jit::GraphPtr copy = g->copy();
      refusals_ok([&] {
        jit::run_passes(*copy, {pass.name}, /*lint=*/true);
        (void)jit::emit_code(copy, "fuzz", nullptr).dump();
      });
    }
    refusals_ok([&] { jit::run_passes(*g, all, /*lint=*/true); });
  });
}

void script_parser(Bytes data) {
  auto source = std::make_shared<const jit::Source>(as_text(data), "fuzz.py");
  refusals_ok([&] {
    jit::ParsedFile file = jit::parse_file(source);
    for (const jit::TreeRef& stmt : file.statements) jit::lint_tree(*stmt);
    (void)jit::to_sexpr(file);
  });
  refusals_ok([&] {
    jit::TreeRef e = jit::parse_expression(source);
    jit::lint_tree(*e);
    (void)jit::to_sexpr(*e);
  });
}

void compiler(Bytes data) {
  const ValueVisitBudget walks(kFuzzValueVisits);
  const AllocationLimit memory(kFuzzAllocationBytes);
  refusals_ok([&] {
    auto cu = jit::compile(as_text(data), "fuzz.py");
    for (jit::Function* fn : cu->functions()) {
      const auto* gf = dynamic_cast<const jit::GraphFunction*>(fn);
      if (!gf) continue;
      refusals_ok([&] {
        gf->graph()->lint();
        (void)gf->graph()->str();
        (void)gf->code().dump();
      });
    }
  });
}

void script_archive(Bytes data) {
  const ValueVisitBudget walks(kFuzzValueVisits);
  const AllocationLimit memory(kFuzzAllocationBytes);
  MemFile file(data);
  refusals_ok([&] {
    jit::Module m = jit::load(file.path());
    refusals_ok([&] { run_forward(m); });
    // The optimizer over what was loaded: the passes on forward's graph, and freezing
    // (whose frozen forward must run as the original does).
    refusals_ok([&] {
      if (m.has_method("forward"))
        (void)jit::method_graph_after_passes(m.get_method("forward"), {"inline", "constprop_immutable", "cse", "dce"});
    });
    refusals_ok([&] {
      m.eval();
      jit::Module frozen = jit::freeze(m);
      run_forward(frozen);
    });
  });
}

void safetensors(Bytes data) {
  MemFile file(data);
  refusals_ok([&] { (void)read_safetensors_header(file.path()); });
  for (auto mode : {LoadMode::Eager, LoadMode::Mapped}) {
    refusals_ok([&] {
      SafetensorsFile f = load_safetensors(file.path(), mode);
      // Reads every byte a header admitted (a wrong offset shows under ASan); printing
      // is bounded by the input's size, as the data must cover the file exactly.
      for (const auto& [name, t] : f.tensors) (void)t.repr();
    });
  }
}

void exported_program(Bytes data) {
  const ValueVisitBudget walks(kFuzzValueVisits);
  const AllocationLimit memory(kFuzzAllocationBytes);
  MemFile file(data);
  // Promised never to throw, so outside refusals_ok: anything escaping is a finding.
  (void)looks_like_exported_program(file.path());
  refusals_ok([&] {
    ExportedProgram p = load_exported_program(file.path());
    describe(p);
    // Separately, so a refusal of one still lets the other run.
    refusals_ok([&] { (void)p.graph_text(); });
    refusals_ok([&] {
      if (!p.sample_inputs()) return;
      jit::StepBudget budget(kForwardStepBudget);
      (void)p(*p.sample_inputs()).repr();
    });
    describe(p);  // after the call too: buffer mutations wrote into state()
  });
}

std::span<const Target> targets() {
  static constexpr std::array<Target, 10> kTargets{{
      {"zip_reader", zip_reader},
      {"unpickler", unpickler},
      {"checkpoint", checkpoint},
      {"ir_parser", ir_parser},
      {"script_parser", script_parser},
      {"compiler", compiler},
      {"script_archive", script_archive},
      {"safetensors", safetensors},
      {"graph_passes", graph_passes},
      {"exported_program", exported_program},
  }};
  return kTargets;
}

}  // namespace torchlet::fuzz

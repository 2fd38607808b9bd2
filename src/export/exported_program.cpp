// torchlet::ExportedProgram (include/torchlet/exported_program.h): an archive's
// contents, its lowered graph, and calls that check user inputs against the signature
// before running and apply the program's buffer and input mutations after.
#include <torchlet/exported_program.h>

#include <map>
#include <optional>
#include <sstream>

#include <fmt/format.h>
#include <torchlet/error.h>

#include "core/python_format.h"
#include "export/lowering.h"
#include "export/pt2_archive.h"
#include "jit/runtime/stack.h"

namespace torchlet {

using exported::ArchiveContents;
using exported::LoweredProgram;
using exported::SymIntValue;
using exported::TensorMeta;
using exported::tensor_type_text;

const char* exported_input_kind_name(ExportedInput::Kind kind) {
  switch (kind) {
    case ExportedInput::Kind::UserInput: return "user input";
    case ExportedInput::Kind::Parameter: return "parameter";
    case ExportedInput::Kind::Buffer: return "buffer";
    case ExportedInput::Kind::TensorConstant: return "tensor constant";
    case ExportedInput::Kind::ConstantInput: return "constant input";
    case ExportedInput::Kind::CustomObject: return "custom object";
    case ExportedInput::Kind::Token: return "token";
  }
  return "input";
}

const char* exported_output_kind_name(ExportedOutput::Kind kind) {
  switch (kind) {
    case ExportedOutput::Kind::UserOutput: return "user output";
    case ExportedOutput::Kind::BufferMutation: return "buffer mutation";
    case ExportedOutput::Kind::ParameterMutation: return "parameter mutation";
    case ExportedOutput::Kind::UserInputMutation: return "user input mutation";
    case ExportedOutput::Kind::LossOutput: return "loss output";
    case ExportedOutput::Kind::Token: return "token";
  }
  return "output";
}

// Where each graph input comes from and where each graph output goes, resolved once at
// load so a call does no name lookups.
struct CallPlan {
  struct Input {
    std::optional<size_t> state;             // position in contents.state, or a user input
    const TensorMeta* meta = nullptr;        // a user tensor's placeholder metadata; null for a SymInt
  };
  struct Output {
    std::optional<size_t> state;             // a buffer or parameter mutation's target
    std::optional<size_t> user_input;        // a user input mutation's target (user input ordinal)
  };
  std::vector<Input> inputs;
  std::vector<Output> outputs;
  size_t user_inputs = 0;
};

struct ExportedProgram::Impl {
  std::string path;
  ArchiveContents contents;
  LoweredProgram lowered;
  CallPlan plan;
};

ExportedProgram::ExportedProgram(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
ExportedProgram::ExportedProgram(ExportedProgram&&) noexcept = default;
ExportedProgram& ExportedProgram::operator=(ExportedProgram&&) noexcept = default;
ExportedProgram::~ExportedProgram() = default;

const std::string& ExportedProgram::path() const { return impl_->path; }
const std::string& ExportedProgram::layout() const { return impl_->contents.layout; }
const std::string& ExportedProgram::torch_version() const { return impl_->contents.program->torch_version; }
std::pair<int64_t, int64_t> ExportedProgram::schema_version() const { return impl_->contents.program->schema_version; }
const std::vector<std::string>& ExportedProgram::verifiers() const { return impl_->contents.program->verifiers; }
const std::vector<ExportedInput>& ExportedProgram::inputs() const { return impl_->contents.program->inputs; }
const std::vector<ExportedOutput>& ExportedProgram::outputs() const { return impl_->contents.program->outputs; }
const std::vector<std::pair<std::string, Tensor>>& ExportedProgram::state() const { return impl_->contents.state; }
const std::map<std::string, SymbolRange>& ExportedProgram::range_constraints() const {
  return impl_->contents.program->ranges;
}
const std::optional<std::vector<IValue>>& ExportedProgram::sample_inputs() const { return impl_->contents.sample_inputs; }
const std::map<std::string, int64_t>& ExportedProgram::operator_counts() const { return impl_->lowered.operator_counts; }
std::string ExportedProgram::graph_text() const { return impl_->lowered.graph->str(); }

std::vector<std::pair<std::string, Tensor>> ExportedProgram::state_dict() const {
  std::vector<std::pair<std::string, Tensor>> out;
  for (size_t i = 0; i < inputs().size(); ++i) {
    const ExportedInput& in = inputs()[i];
    const bool kept = in.kind == ExportedInput::Kind::Parameter || (in.kind == ExportedInput::Kind::Buffer && in.persistent);
    if (kept) out.emplace_back(in.target, impl_->contents.state[*impl_->plan.inputs[i].state].second);
  }
  return out;
}

namespace {

// Checks one user input against its placeholder's metadata, binding its symbols.
void check_user_input(const ExportedInput& in, const TensorMeta& meta, const IValue& v,
                      const std::map<std::string, SymbolRange>& ranges, std::map<std::string, int64_t>& bound) {
  TL_CHECK(v.isTensor(), TypeError, "input '{}' must be a tensor ({}), not a {}", printable_text(in.name), meta.str(),
           v.tag_name());
  const Tensor t = v.toTensor();
  TL_CHECK(t.dtype() == meta.dtype && static_cast<size_t>(t.dim()) == meta.sizes.size(), ValueError,
           "input '{}' is {}, but the program was exported for {}", printable_text(in.name), tensor_type_text(t), meta.str());
  for (size_t d = 0; d < meta.sizes.size(); ++d) {
    const SymIntValue& s = meta.sizes[d];
    const int64_t got = t.sizes()[d];
    if (s.value) {
      TL_CHECK(got == *s.value, ValueError, "input '{}' is {}, but the program was exported for {}: dimension {} must be {}",
               printable_text(in.name), tensor_type_text(t), meta.str(), d, *s.value);
      continue;
    }
    if (s.symbol.empty()) continue;  // a compound expression: the operators check it
    auto [it, fresh] = bound.emplace(s.symbol, got);
    TL_CHECK(fresh || it->second == got, ValueError,
             "input '{}' dimension {} is {}, but symbol {} is already {} from another input", printable_text(in.name), d,
             got, s.symbol, it->second);
    if (auto r = ranges.find(s.symbol); r != ranges.end()) {
      const bool inside = got >= r->second.min && (!r->second.max || got <= *r->second.max);
      TL_CHECK(inside, ValueError, "input '{}' dimension {} is {}, outside the range of symbol {}: [{}, {}]",
               printable_text(in.name), d, got, s.symbol, r->second.min,
               r->second.max ? std::to_string(*r->second.max) : "inf");
    }
  }
}

}  // namespace

IValue ExportedProgram::operator()(const std::vector<IValue>& user_inputs) {
  const exported::ProgramDocument& doc = *impl_->contents.program;
  const CallPlan& plan = impl_->plan;
  TL_CHECK(user_inputs.size() == plan.user_inputs, ValueError, "the program takes {} user input{}, given {}",
           plan.user_inputs, plan.user_inputs == 1 ? "" : "s", user_inputs.size());
  std::vector<IValue> args;
  args.reserve(plan.inputs.size());
  std::map<std::string, int64_t> bound;  // symbol -> size, across inputs
  size_t next_user = 0;
  for (size_t i = 0; i < plan.inputs.size(); ++i) {
    const CallPlan::Input& in = plan.inputs[i];
    if (in.state) {
      args.emplace_back(impl_->contents.state[*in.state].second);
      continue;
    }
    const IValue& v = user_inputs[next_user++];
    if (in.meta)
      check_user_input(doc.inputs[i], *in.meta, v, doc.ranges, bound);
    else
      TL_CHECK(v.isInt(), TypeError, "input '{}' must be an int (a SymInt), not a {}", printable_text(doc.inputs[i].name),
               v.tag_name());
    args.push_back(v);
  }
  IValue result = (*impl_->lowered.function)(std::move(args));
  const std::vector<IValue>& values = result.tupleRef().elements;
  std::vector<IValue> user_outputs;
  for (size_t i = 0; i < doc.outputs.size(); ++i) {
    const CallPlan::Output& out = plan.outputs[i];
    switch (doc.outputs[i].kind) {
      case ExportedOutput::Kind::UserOutput:
      case ExportedOutput::Kind::LossOutput:
        user_outputs.push_back(values[i]);
        break;
      case ExportedOutput::Kind::BufferMutation:
      case ExportedOutput::Kind::ParameterMutation: {
        // As the exported module does: the buffer (or parameter) takes the new value in place.
        Tensor& buffer = impl_->contents.state[*out.state].second;
        const Tensor update = values[i].toTensor();
        if (buffer.sizes() == update.sizes() && buffer.dtype() == update.dtype()) buffer.copy_(update);
        else buffer = update;
        break;
      }
      case ExportedOutput::Kind::UserInputMutation: {
        Tensor target = user_inputs[*out.user_input].toTensor();
        target.copy_(values[i].toTensor());
        break;
      }
      case ExportedOutput::Kind::Token:
        break;
    }
  }
  if (user_outputs.size() == 1) return user_outputs[0];
  return IValue::tuple(std::move(user_outputs));
}

namespace {

// Resolves every input's source and every mutation's target; a mutation of something
// the program does not hold is the archive's error, reported at load.
CallPlan plan_calls(const ArchiveContents& contents) {
  const exported::ProgramDocument& doc = *contents.program;
  std::map<std::string, size_t> state_index;  // FQN -> position in contents.state
  for (size_t i = 0; i < contents.state.size(); ++i) state_index.emplace(contents.state[i].first, i);
  CallPlan plan;
  std::map<std::string, size_t> user_tensor_inputs;  // placeholder -> user input ordinal
  for (const ExportedInput& in : doc.inputs) {
    CallPlan::Input& p = plan.inputs.emplace_back();
    if (in.kind != ExportedInput::Kind::UserInput) {
      p.state = state_index.at(in.target);
      continue;
    }
    if (auto m = doc.graph.tensor_values.find(in.name); m != doc.graph.tensor_values.end()) {
      p.meta = &m->second;
      user_tensor_inputs.emplace(in.name, plan.user_inputs);
    }
    ++plan.user_inputs;
  }
  for (const ExportedOutput& out : doc.outputs) {
    CallPlan::Output& p = plan.outputs.emplace_back();
    if (out.kind == ExportedOutput::Kind::BufferMutation || out.kind == ExportedOutput::Kind::ParameterMutation) {
      auto it = state_index.find(out.target);
      TL_CHECK(it != state_index.end(), FormatError, "{}: {} of '{}', which the program's state does not hold", doc.label,
               exported_output_kind_name(out.kind), printable_text(out.target));
      p.state = it->second;
    } else if (out.kind == ExportedOutput::Kind::UserInputMutation) {
      auto it = user_tensor_inputs.find(out.target);
      TL_CHECK(it != user_tensor_inputs.end(), FormatError, "{}: mutation of user input '{}', which is not a tensor input",
               doc.label, printable_text(out.target));
      p.user_input = it->second;
    }
  }
  return plan;
}

}  // namespace

ExportedProgram load_exported_program(const std::string& path) {
  auto impl = std::make_unique<ExportedProgram::Impl>();
  impl->path = path;
  impl->contents = exported::read_archive(path);
  impl->plan = plan_calls(impl->contents);
  impl->lowered = exported::lower_program(*impl->contents.program);
  return ExportedProgram(std::move(impl));
}

bool looks_like_exported_program(const std::string& path) { return exported::is_exported_program_archive(path); }

}  // namespace torchlet

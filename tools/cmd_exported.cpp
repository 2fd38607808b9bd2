// `inspect`, `run`, `graph` and `convert` for torch.export archives (cmd_exported.h),
// over the public ExportedProgram API.
#include "cmd_exported.h"

#include <algorithm>
#include <string_view>
#include <vector>

#include <fmt/format.h>
#include <torchlet/checkpoint.h>
#include <torchlet/error.h>
#include <torchlet/exported_program.h>
#include <torchlet/safetensors.h>

#include "cmd_safetensors.h"
#include "commands.h"
#include "timing.h"

namespace torchlet::cli {

namespace {

// As the library spells a placeholder's type, so state and inputs read alike.
std::string tensor_type(const Tensor& t) { return fmt::format("{}{}", dtype_name(t.dtype()), shape_repr(t.sizes())); }

std::string range_text(const SymbolRange& r) {
  return fmt::format("[{}, {}]", r.min, r.max ? std::to_string(*r.max) : "inf");
}

}  // namespace

bool is_exported_program_input(const std::string& path) {
  return std::string_view(path).ends_with(".pt2") || looks_like_exported_program(path);
}

int inspect_exported_program(const std::string& file) {
  const auto start = Clock::now();
  ExportedProgram p = load_exported_program(file);
  const double load_ms = ms_since(start);
  const auto [major, minor] = p.schema_version();
  std::string verifiers;
  for (const std::string& v : p.verifiers()) verifiers += (verifiers.empty() ? "" : ", ") + shown(v);
  fmt::print("torch.export program ({} layout), schema {}.{}, written by torch {}, verifiers: {}\n", p.layout(), major,
             minor, shown(p.torch_version()), verifiers.empty() ? "none" : verifiers);
  fmt::print("inputs:\n");
  for (const ExportedInput& in : p.inputs())
    fmt::print("  {} {}{}{} {}\n", shown(in.name), exported_input_kind_name(in.kind), in.target.empty() ? "" : " ",
               in.target.empty() ? "" : shown(in.target) + (in.persistent ? "" : " (not persistent)"), shown(in.type));
  fmt::print("outputs:\n");
  for (const ExportedOutput& out : p.outputs())
    fmt::print("  {} {}{}{} {}\n", shown(out.name), exported_output_kind_name(out.kind), out.target.empty() ? "" : " of ",
               out.target.empty() ? "" : shown(out.target), shown(out.type));
  if (!p.range_constraints().empty()) {
    fmt::print("symbols:\n");
    for (const auto& [symbol, r] : p.range_constraints()) fmt::print("  {} in {}\n", shown(symbol), range_text(r));
  }
  size_t bytes = 0;
  for (const auto& [fqn, t] : p.state()) bytes += t.nbytes();
  fmt::print("state ({} tensors, {} bytes):\n", p.state().size(), bytes);
  for (const auto& [fqn, t] : p.state()) fmt::print("  {} {}\n", shown(fqn), tensor_type(t));
  int64_t calls = 0;
  for (const auto& [op, n] : p.operator_counts()) calls += n;
  fmt::print("operators ({} calls):\n", calls);
  for (const auto& [op, n] : p.operator_counts()) fmt::print("  {} x{}\n", op, n);
  if (p.sample_inputs()) {
    std::string types;
    for (const IValue& v : *p.sample_inputs())
      types += (types.empty() ? "" : ", ") + (v.isTensor() ? tensor_type(v.toTensor()) : std::string(v.tag_name()));
    fmt::print("sample inputs: ({})\n", types);
  }
  fmt::print("\nloaded in {:.3f} ms\n", load_ms);
  return 0;
}

int run_exported_program(const std::string& file, const std::string& inputs_file, bool sample_inputs,
                         const std::string& output_file, int repeat) {
  if (sample_inputs && !inputs_file.empty()) throw UsageError("give --inputs or --sample-inputs, not both");
  auto start = Clock::now();
  ExportedProgram p = load_exported_program(file);
  const double load_ms = ms_since(start);
  std::vector<IValue> args;
  if (!inputs_file.empty()) {
    args = load_call_arguments(inputs_file);
  } else {
    if (!p.sample_inputs()) throw UsageError(fmt::format("{} holds no sample inputs: give --inputs ARGS.pt", shown(file)));
    args = *p.sample_inputs();
  }
  start = Clock::now();
  IValue out = p(args);
  const double first_ms = ms_since(start);
  // Saved before printing: a result too big to print is still the user's to keep.
  if (!output_file.empty()) save(out, output_file);
  fmt::print("{}\n", out.repr());
  fmt::print("loaded {} ({} state tensors) in {:.1f} ms; ran in {:.1f} ms\n", shown(file), p.state().size(), load_ms,
             first_ms);
  if (repeat > 0) {
    const CallTimes t = time_calls(repeat, [&] { p(args); });
    fmt::print("{} more calls: median {:.2f} ms, min {:.2f} ms\n", repeat, t.median_ms, t.min_ms);
  }
  return 0;
}

int graph_exported_program(const std::string& file) {
  ExportedProgram p = load_exported_program(file);
  // The archive's operator names first: the graph shows what each was lowered onto.
  std::string ops;
  for (const auto& [op, n] : p.operator_counts()) ops += fmt::format("{}{} x{}", ops.empty() ? "" : ", ", op, n);
  fmt::print("# {} calls {}\n{}", shown(file), ops.empty() ? "no operators" : ops, p.graph_text());
  return 0;
}

int convert_exported_program(const std::string& in, const std::string& out) {
  ExportedProgram p = load_exported_program(in);
  std::vector<std::pair<std::string, Tensor>> state = p.state_dict();
  if (is_safetensors_name(out)) {
    save_safetensors(state, out, {{"format", "pt"}});
    return 0;
  }
  auto d = make_intrusive<DictImpl>();
  for (auto& [fqn, t] : state) d->insert_or_assign(IValue(fqn), IValue(t));
  save(IValue(d), out);
  return 0;
}

}  // namespace torchlet::cli

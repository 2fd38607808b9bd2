// TorchScript subcommands: `run` loads a torch.jit.save archive and calls one of its
// methods (on inputs from a torch.save file, or random tensors), timing load, the first
// call and optionally more; `code` prints a module's code as torch's .code does;
// `script` compiles source into an archive. (`graph`: cmd_graph.cpp.)
#include <algorithm>
#include <charconv>
#include <fstream>
#include <sstream>

#include <fmt/format.h>
#include <torchlet/checkpoint.h>
#include <torchlet/error.h>
#include <torchlet/jit.h>
#include <torchlet/ops.h>
#include <torchlet/parallel.h>

#include "cli_args.h"
#include "cmd_exported.h"
#include "commands.h"
#include "timing.h"

namespace torchlet::cli {

namespace {

// "1,3,224,224" -> {1, 3, 224, 224}.
std::vector<int64_t> parse_shape(const std::string& text) {
  std::vector<int64_t> dims;
  std::stringstream in(text);
  for (std::string part; std::getline(in, part, ',');) {
    int64_t d = 0;
    auto [end, ec] = std::from_chars(part.data(), part.data() + part.size(), d);
    if (ec != std::errc() || end != part.data() + part.size() || d < 0 || d > (int64_t{1} << 31))
      throw UsageError(fmt::format("--shape wants sizes like 1,3,224,224, not '{}'", text));
    dims.push_back(d);
  }
  if (dims.empty()) throw UsageError("--shape wants sizes like 1,3,224,224");
  // Bounded so a typo cannot ask for more memory than the machine has (2^31 elements:
  // 8 GiB of float32 per input).
  int64_t numel = 1;
  for (int64_t d : dims) {
    numel *= d;
    if (numel > (int64_t{1} << 31)) throw UsageError(fmt::format("--shape {} has more than 2^31 elements", text));
  }
  return dims;
}

}  // namespace

std::vector<IValue> random_inputs(const jit::Method& method, const std::string& shape) {
  if (shape.empty()) throw UsageError("give --inputs ARGS.pt, or --shape for random tensor inputs");
  const auto dims = parse_shape(shape);
  manual_seed(0);
  std::vector<IValue> out;
  const auto params = method.arguments();
  for (size_t i = 1; i < params.size(); ++i) {
    if (params[i].type != "Tensor")
      throw UsageError(fmt::format("{}() takes a {} argument '{}'; give --inputs ARGS.pt", method.name(),
                                   params[i].type, params[i].name));
    out.emplace_back(randn(dims));
  }
  return out;
}

std::vector<IValue> load_call_arguments(const std::string& file) {
  IValue in = load(file);
  return in.isTuple() ? in.tupleRef().elements : std::vector<IValue>{in};
}

// The `def NAME(` block of a class's code: the def line and every following line
// indented deeper than it (the signature's continuation and the body).
std::string method_code(const std::string& code, const std::string& name) {
  const std::string head = "  def " + name + "(";
  size_t at = code.starts_with(head) ? 0 : code.find("\n" + head);
  if (at == std::string::npos) throw ValueError(fmt::format("no method '{}' in the module's code", name));
  if (at != 0) ++at;  // past the newline
  size_t end = code.find('\n', at);
  while (end != std::string::npos && end + 1 < code.size() && code.compare(end + 1, 4, "    ") == 0)
    end = code.find('\n', end + 1);
  return end == std::string::npos ? code.substr(at) : code.substr(at, end + 1 - at);
}

int cmd_run(const Args& args) {
  CLI::App app{"run"};
  std::string archive, inputs_file, method = "forward", output_file, shape;
  int repeat = 0, threads = 0;
  bool saved_mode = false, sample_inputs = false, no_optimize = false;
  app.add_option("ARCHIVE", archive)->required();
  app.add_flag("--sample-inputs", sample_inputs, "a torch.export archive (.pt2): run on the sample inputs it holds");
  app.add_option("--inputs", inputs_file, "torch.save file holding the argument tuple (or one tensor)");
  app.add_option("--shape", shape, "without --inputs: random tensor inputs of this shape (e.g. 1,3,224,224)");
  app.add_option("--method", method, "method to call (default forward)");
  app.add_option("--output,--save", output_file, "torch.save the result to this file");
  app.add_option("--repeat", repeat, "run N more calls and print their median and minimum time")->check(CLI::Range(0, 1000000));
  app.add_option("--threads", threads, "intra-op threads (default: all cores)")->check(CLI::Range(1, 1024));
  app.add_flag("--saved-mode", saved_mode,
               "run in the training mode the archive was saved in (default: eval mode, as inference runs)");
  app.add_flag("--no-optimize", no_optimize,
               "run the graph as written instead of the graph executor's plan specialised to the inputs");
  parse_args(app, args);
  if (threads > 0) set_num_threads(threads);
  if (no_optimize) jit::set_graph_executor_optimize(false);
  if (is_exported_program_input(archive)) {
    if (method != "forward" || !shape.empty() || saved_mode)
      throw UsageError("--method, --shape and --saved-mode are for TorchScript archives; a .pt2 program takes --inputs or --sample-inputs");
    return run_exported_program(archive, inputs_file, sample_inputs, output_file, repeat);
  }
  if (sample_inputs) throw UsageError("--sample-inputs is for torch.export archives (.pt2)");

  auto start = Clock::now();
  jit::Module m = jit::load(archive);
  const double load_ms = ms_since(start);
  jit::Method fn = m.get_method(method);
  std::vector<IValue> call_args;
  if (!inputs_file.empty()) {
    call_args = load_call_arguments(inputs_file);
  } else {
    call_args = random_inputs(fn, shape);
  }
  if (!saved_mode) m.eval();
  start = Clock::now();
  IValue out = fn(call_args);
  const double first_ms = ms_since(start);
  // Saved before printing: a result too deep to print is still the user's to keep.
  if (!output_file.empty()) save(out, output_file);
  fmt::print("{}\n", out.repr());
  fmt::print("loaded {} ({} parameters) in {:.1f} ms; {} ran in {:.1f} ms\n", archive, m.named_parameters().size(),
             load_ms, method, first_ms);
  if (repeat > 0) {
    const CallTimes t = time_calls(repeat, [&] { fn(call_args); });
    fmt::print("{} more calls: median {:.2f} ms, min {:.2f} ms\n", repeat, t.median_ms, t.min_ms);
  }
  return 0;
}

int cmd_code(const Args& args) {
  CLI::App app{"code"};
  std::string archive, method;
  app.add_option("ARCHIVE", archive)->required();
  app.add_option("--method", method, "only this method");
  parse_args(app, args);
  jit::Module m = jit::load(archive);
  const std::string code = m.code();
  fmt::print("{}", method.empty() ? code : method_code(code, method));
  return 0;
}

int cmd_script(const Args& args) {
  CLI::App app{"script"};
  std::string source_file, out, function;
  app.add_option("SOURCE", source_file)->required();
  app.add_option("-o,--output", out, "archive to write")->required();
  app.add_option("--function", function, "function forward calls (default: the first defined)");
  parse_args(app, args);
  std::ifstream in(source_file, std::ios::binary);
  TL_CHECK(in.good(), IOError, "cannot open '{}'", source_file);
  std::stringstream text;
  text << in.rdbuf();
  jit::save_script_archive(text.str(), source_file, function, out);
  fmt::print("wrote {}\n", out);
  return 0;
}

}  // namespace torchlet::cli

// `torchlet graph`: a method's graph (an archive), each function's graph (TorchScript
// source) or a graph read from IR text (.ir, as torch._C.parse_ir reads it), printed in
// torch's IR format, optionally after freezing (--frozen), graph passes (--passes),
// with its alias analysis (--alias), or as the graph executor's plan for a call
// (--optimized, = method.graph_for).
#include <fstream>
#include <sstream>

#include <fmt/format.h>
#include <torchlet/error.h>
#include <torchlet/graph_passes.h>
#include <torchlet/jit.h>

#include "cli_args.h"
#include "cmd_exported.h"
#include "commands.h"

namespace torchlet::cli {

namespace {

enum class GraphInput { Archive, Source, IrText };

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  TL_CHECK(in.good(), IOError, "cannot open '{}'", path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// A zip is an archive; text starting with "graph(" (after blank lines or comments) or
// a file named .ir is IR text; other text is TorchScript source.
GraphInput classify(const std::string& path, const std::string& text) {
  if (text.size() >= 2 && text[0] == 'P' && text[1] == 'K') return GraphInput::Archive;
  if (path.size() > 3 && path.compare(path.size() - 3, 3, ".ir") == 0) return GraphInput::IrText;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    const size_t start = line.find_first_not_of(" \t\r");
    if (start == std::string::npos || line[start] == '#') continue;
    return line.compare(start, 6, "graph(") == 0 ? GraphInput::IrText : GraphInput::Source;
  }
  return GraphInput::Source;
}

std::string pass_help() {
  std::string help = "graph passes to run, in order, comma-separated:";
  for (const auto& p : jit::graph_pass_list()) help += fmt::format("\n  {:<24} {}", p.name, p.summary);
  return help;
}

}  // namespace

int cmd_graph(const Args& args) {
  CLI::App app{"graph"};
  std::string file, method, passes;
  bool alias = false;
  app.add_option("FILE", file, "an archive (torch.jit.save), TorchScript source, or IR text (.ir)")->required();
  app.add_option("--method", method,
                 "method (archive; default forward) or function (source; default every one) whose graph to print");
  app.add_option("--passes", passes, pass_help());
  app.add_flag("--alias", alias, "print the graph's alias analysis after it (archive method or IR text)");
  bool frozen = false;
  app.add_flag("--frozen", frozen, "the method's graph after freezing the module (torchlet optimize --freeze; archives)");
  bool optimized = false;
  std::string inputs_file, shape;
  app.add_flag("--optimized", optimized,
               "the graph executor's plan for a call with --inputs or --shape: what `torchlet run` runs "
               "(method.graph_for; archives)");
  app.add_option("--inputs", inputs_file, "with --optimized: torch.save file holding the argument tuple (or one tensor)");
  app.add_option("--shape", shape, "with --optimized: random tensor arguments of this shape (e.g. 1,3,224,224)");
  parse_args(app, args);
  if (optimized != (!inputs_file.empty() || !shape.empty()))
    throw UsageError(optimized ? "--optimized plans a call: give --inputs ARGS.pt or --shape 1,3,224,224"
                               : "--inputs and --shape are for --optimized");
  if (optimized && (!passes.empty() || alias)) throw UsageError("--optimized shows the plan; it takes no --passes or --alias");
  if (is_exported_program_input(file)) {
    if (!method.empty() || !passes.empty() || alias || frozen || optimized)
      throw UsageError("--method, --passes, --alias and --frozen are for TorchScript; a .pt2 program prints its lowered graph");
    return graph_exported_program(file);
  }
  const std::vector<std::string> pass_names = split_names(passes);
  const std::string text = read_file(file);
  switch (classify(file, text)) {
    case GraphInput::IrText:
      if (frozen || optimized) throw UsageError("--frozen and --optimized take an archive: IR text has no module");
      fmt::print("{}", alias ? jit::ir_alias_analysis(text, pass_names) : jit::ir_after_passes(text, pass_names));
      return 0;
    case GraphInput::Source:
      if (!pass_names.empty() || alias || frozen || optimized)
        throw UsageError("--passes, --alias, --frozen and --optimized take an archive (--passes and --alias IR text "
                         "too); compile the source with `torchlet script` first");
      fmt::print("{}", jit::source_graphs(text, file, method));
      return 0;
    case GraphInput::Archive:
      break;
  }
  if (method.empty()) method = "forward";
  jit::Module m = jit::load(file);
  if (frozen) {
    m.eval();
    m = jit::freeze(m, {method});
  }
  const jit::Method meth = m.get_method(method);
  if (optimized) {
    // Planned as `torchlet run` calls it: in eval mode.
    m.eval();
    fmt::print("{}", meth.graph_for(inputs_file.empty() ? random_inputs(meth, shape) : load_call_arguments(inputs_file)));
    return 0;
  }
  if (alias) fmt::print("{}", jit::method_alias_analysis(meth, pass_names));
  else fmt::print("{}", pass_names.empty() ? meth.graph() : jit::method_graph_after_passes(meth, pass_names));
  return 0;
}

}  // namespace torchlet::cli

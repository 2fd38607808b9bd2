// `torchlet graph`: a method's graph (an archive), each function's graph (TorchScript
// source) or a graph read from IR text (.ir, as torch._C.parse_ir reads it), printed in
// torch's IR format, optionally after freezing (--frozen), graph passes (--passes) or
// with its alias analysis (--alias).
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

std::vector<std::string> split_names(const std::string& list) {
  std::vector<std::string> out;
  std::stringstream in(list);
  for (std::string name; std::getline(in, name, ',');)
    if (!name.empty()) out.push_back(name);
  return out;
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
  parse_args(app, args);
  if (is_exported_program_input(file)) {
    if (!method.empty() || !passes.empty() || alias || frozen)
      throw UsageError("--method, --passes, --alias and --frozen are for TorchScript; a .pt2 program prints its lowered graph");
    return graph_exported_program(file);
  }
  const std::vector<std::string> pass_names = split_names(passes);
  const std::string text = read_file(file);
  switch (classify(file, text)) {
    case GraphInput::IrText:
      if (frozen) throw UsageError("--frozen takes an archive: IR text has no module to freeze");
      fmt::print("{}", alias ? jit::ir_alias_analysis(text, pass_names) : jit::ir_after_passes(text, pass_names));
      return 0;
    case GraphInput::Source:
      if (!pass_names.empty() || alias || frozen)
        throw UsageError("--passes, --alias and --frozen take an archive (--passes and --alias IR text too); compile the "
                         "source with `torchlet script` first");
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
  if (alias) fmt::print("{}", jit::method_alias_analysis(meth, pass_names));
  else fmt::print("{}", pass_names.empty() ? meth.graph() : jit::method_graph_after_passes(meth, pass_names));
  return 0;
}

}  // namespace torchlet::cli

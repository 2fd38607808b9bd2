// TorchScript subcommands: `run` loads a torch.jit.save archive and calls one of its
// methods on inputs from a torch.save file; `script` compiles source into an archive.
#include <chrono>
#include <fstream>
#include <sstream>

#include <fmt/format.h>
#include <torchlet/checkpoint.h>
#include <torchlet/error.h>

#include "cli_args.h"
#include "commands.h"
#include "jit/serialization/import.h"
#include "jit/serialization/script_archive.h"

namespace torchlet::cli {

int cmd_run(const Args& args) {
  CLI::App app{"run"};
  std::string archive, inputs_file, method = "forward", output_file;
  app.add_option("ARCHIVE", archive)->required();
  app.add_option("--inputs", inputs_file, "torch.save file holding the argument tuple (or one tensor)")->required();
  app.add_option("--method", method, "method to call (default forward)");
  app.add_option("--save", output_file, "torch.save the result to this file");
  parse_args(app, args);

  auto start = std::chrono::steady_clock::now();
  jit::Module m = jit::load(archive);
  double load_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  IValue in = load(inputs_file);
  std::vector<IValue> call_args = in.isTuple() ? in.tupleRef().elements : std::vector<IValue>{in};
  m.eval();
  start = std::chrono::steady_clock::now();
  IValue out = m.run_method(method, call_args);
  double run_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  fmt::print("{}\n", out.repr());
  fmt::print("loaded {} ({} parameters) in {:.1f} ms; {} ran in {:.1f} ms\n", archive, m.named_parameters().size(),
             load_ms, method, run_ms);
  if (!output_file.empty()) save(out, output_file);
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

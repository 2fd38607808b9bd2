// `torchlet optimize`: freezes a TorchScript archive's module (torch.jit.freeze) and
// saves the frozen module as an archive torch.jit.load runs.
#include <sstream>

#include <fmt/format.h>
#include <torchlet/error.h>
#include <torchlet/graph_passes.h>
#include <torchlet/jit.h>

#include "cli_args.h"
#include "commands.h"

namespace torchlet::cli {

int cmd_optimize(const Args& args) {
  CLI::App app{"optimize"};
  std::string in, out, preserve;
  bool freeze = false, no_fold = false;
  app.add_option("IN", in, "a TorchScript archive (torch.jit.save)")->required();
  app.add_option("-o,--output", out, "the archive to write")->required();
  app.add_flag("--freeze", freeze, "freeze the module: attributes become constants, submodule calls are inlined");
  app.add_option("--preserve", preserve, "methods besides forward to keep, comma-separated");
  app.add_flag("--no-fold", no_fold, "freeze only; skip folding convolutions with their batch norms");
  parse_args(app, args);
  // Without freezing, what could change is the methods' graphs, and an archive's code
  // is saved as it was loaded: optimizing it in place needs the graph executor (#36).
  if (!freeze) throw UsageError("optimize needs --freeze (optimizing without freezing is not supported yet)");
  std::vector<std::string> preserved;
  std::stringstream names(preserve);
  for (std::string name; std::getline(names, name, ',');)
    if (!name.empty()) preserved.push_back(name);
  jit::Module m = jit::load(in);
  m.eval();
  jit::Module frozen = jit::freeze(m, preserved, !no_fold);
  jit::save(frozen, out);
  fmt::print("wrote {} (frozen{})\n", out, no_fold ? "" : ", convolutions and batch norms folded");
  return 0;
}

}  // namespace torchlet::cli

// `torchlet optimize`: freezes a TorchScript archive's module (torch.jit.freeze), or
// optimizes its methods without freezing (jit::optimize), and saves the result as an
// archive torch.jit.load runs.

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <torchlet/error.h>
#include <torchlet/graph_passes.h>
#include <torchlet/jit.h>

#include "cli_args.h"
#include "commands.h"

namespace torchlet::cli {

int cmd_optimize(const Args& args) {
  CLI::App app{"optimize"};
  std::string in, out, preserve, methods;
  bool freeze = false, no_fold = false;
  app.add_option("IN", in, "a TorchScript archive (torch.jit.save)")->required();
  app.add_option("-o,--output", out, "the archive to write")->required();
  app.add_flag("--freeze", freeze, "freeze the module: attributes become constants, submodule calls are inlined");
  app.add_option("--preserve", preserve, "with --freeze: methods besides forward to keep, comma-separated");
  app.add_flag("--no-fold", no_fold, "with --freeze: freeze only; skip folding batch norms and constants into layers");
  app.add_option("--method", methods,
                 "without --freeze: the methods to optimize, comma-separated (default forward); the module keeps "
                 "its parameters and submodules");
  parse_args(app, args);
  if (freeze && !methods.empty()) throw UsageError("--method is for optimizing without --freeze; frozen, use --preserve");
  if (!freeze && (!preserve.empty() || no_fold))
    throw UsageError("--preserve and --no-fold are for --freeze; without it, use --method");
  jit::Module m = jit::load(in);
  if (!freeze) {
    std::vector<std::string> names = split_names(methods);
    if (names.empty()) names.push_back("forward");
    jit::optimize(m, names);
    jit::save(m, out);
    fmt::print("wrote {} (optimized: {})\n", out, fmt::join(names, ", "));
    return 0;
  }
  m.eval();
  jit::Module frozen = jit::freeze(m, split_names(preserve), !no_fold);
  jit::save(frozen, out);
  fmt::print("wrote {} (frozen{})\n", out, no_fold ? "" : ", batch norms and constants folded into layers");
  return 0;
}

}  // namespace torchlet::cli

// `torchlet ops`: the operator schemas the TorchScript runtime can call, one per line
// (sorted), and `torchlet ops --coverage SCHEMAS.txt`: how many of the schemas listed
// in a file (e.g. torch's own registry, dumped by tests/fixtures/gen_ir.py) are
// registered, per namespace. Matching is by name and overload ("aten::add.Tensor").
#include <algorithm>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>

#include <torchlet/error.h>
#include <torchlet/jit.h>

#include "cli_args.h"

namespace torchlet::cli {
namespace {

// "aten::add.Tensor(Tensor self, ...) -> Tensor" -> "aten::add.Tensor".
std::string schema_key(const std::string& line) {
  return line.substr(0, line.find('('));
}

struct Counts {
  size_t covered = 0;
  size_t total = 0;
};

int print_coverage(const std::string& path) {
  std::ifstream in(path);
  TL_CHECK(in.good(), IOError, "cannot open '{}'", path);
  std::set<std::string> seen;
  std::map<std::string, Counts> by_namespace;
  Counts all;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line.find('(') == std::string::npos) continue;
    std::string key = schema_key(line);
    if (!seen.insert(key).second) continue;
    std::string ns = key.substr(0, key.find("::"));
    bool covered = jit::has_operator(key);
    by_namespace[ns].total++;
    all.total++;
    if (covered) {
      by_namespace[ns].covered++;
      all.covered++;
    }
  }
  auto row = [](const std::string& name, const Counts& c) {
    double pct = c.total ? 100.0 * static_cast<double>(c.covered) / static_cast<double>(c.total) : 0.0;
    fmt::print("{:<18} {:>8} {:>8} {:>7.1f}%\n", name, c.covered, c.total, pct);
  };
  fmt::print("{:<18} {:>8} {:>8} {:>8}\n", "namespace", "covered", "listed", "percent");
  for (const auto& [ns, c] : by_namespace) row(ns, c);
  row("total", all);
  return 0;
}

}  // namespace

int cmd_ops(const Args& args) {
  CLI::App app{"ops"};
  std::string coverage;
  app.add_option("--coverage", coverage, "a file of schemas, one per line, to compare with");
  parse_args(app, args);
  if (!coverage.empty()) return print_coverage(coverage);
  std::vector<std::string> lines = jit::get_all_schemas();
  std::sort(lines.begin(), lines.end());
  for (const auto& l : lines) fmt::print("{}\n", l);
  return 0;
}

}  // namespace torchlet::cli

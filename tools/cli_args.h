// Argument parsing for subcommands with CLI11: one helper so every command reports a
// bad flag the same way (a one-line UsageError, exit code 2), and the comma-separated
// name lists several options take.
#pragma once

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "commands.h"

namespace torchlet::cli {

inline void parse_args(CLI::App& app, const Args& args) {
  std::vector<std::string> reversed(args.rbegin(), args.rend());  // CLI11 pops from the back
  try {
    app.parse(reversed);
  } catch (const CLI::CallForHelp&) {
    fmt::print("\n{}", app.help());
    throw HelpShown{};
  } catch (const CLI::ParseError& e) {
    throw UsageError(e.what());
  }
}

// "a,b,,c" -> {"a", "b", "c"}: --passes, --method, --preserve.
inline std::vector<std::string> split_names(const std::string& list) {
  std::vector<std::string> out;
  std::stringstream in(list);
  for (std::string name; std::getline(in, name, ',');)
    if (!name.empty()) out.push_back(name);
  return out;
}

}  // namespace torchlet::cli

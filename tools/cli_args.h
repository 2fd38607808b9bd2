// Argument parsing for subcommands with CLI11: one helper so every command reports a
// bad flag the same way (a one-line UsageError, exit code 2).
#pragma once

#include <algorithm>

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

}  // namespace torchlet::cli

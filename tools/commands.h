// Declarations of the CLI subcommand handlers listed in commands.def. Each handler
// gets the arguments after its name and returns the process exit code; argument
// errors throw UsageError, which main() reports in one line with exit code 2.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include <torchlet/jit.h>

namespace torchlet::cli {

struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

using Args = std::vector<std::string>;

#define TL_COMMAND(name, fn, usage, summary) int fn(const Args& args);
#include "commands.def"
#undef TL_COMMAND

// Shared by `code` and the demo (cmd_script.cpp): the code of the archive module that
// defines a module's class (torch's own text for a loaded archive, the python printer's
// otherwise), and one method's `def` block of it.
std::string class_code(const jit::Module& m);
std::string method_code(const std::string& code, const std::string& name);

}  // namespace torchlet::cli

// Declarations of the CLI subcommand handlers listed in commands.def. Each handler
// gets the arguments after its name and returns the process exit code; argument
// errors throw UsageError, which main() reports in one line with exit code 2.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include <torchlet/jit.h>

namespace torchlet::cli {

// Thrown once --help has printed a command's options: the command has nothing else to do.
struct HelpShown {};

struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

using Args = std::vector<std::string>;

#define TL_COMMAND(name, fn, usage, summary) int fn(const Args& args);
#include "commands.def"
#undef TL_COMMAND

// A name from a file, safe for the terminal: control bytes as \xNN, so a listing
// never carries an escape sequence. (The library's own messages escape more.)
inline std::string escaped(std::string_view name) {
  std::string out;
  for (unsigned char c : name) {
    if (c < 0x20 || c == 0x7f || c == '\\') {
      out += c == '\\' ? std::string("\\\\") : fmt::format("\\x{:02x}", c);
    } else {
      out += static_cast<char>(c);
    }
  }
  return out;
}

// The same, quoted: 'name'.
inline std::string shown(std::string_view name) { return "'" + escaped(name) + "'"; }

// Shared by `code` and the demo (cmd_script.cpp): one method's `def` block of a class's
// code (jit::Module::code).
std::string method_code(const std::string& code, const std::string& name);

// `run --inputs FILE` for scripts and exported programs: a saved tuple is the argument
// list, anything else the one argument (cmd_script.cpp).
std::vector<IValue> load_call_arguments(const std::string& file);

// `--shape 1,3,224,224` for `run` and `graph --optimized`: torch.randn of that shape for
// each argument after self, from seed 0 (UsageError when an argument is not a tensor).
std::vector<IValue> random_inputs(const jit::Method& method, const std::string& shape);

}  // namespace torchlet::cli

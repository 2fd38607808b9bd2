// Entry point of the `torchlet` command: looks the subcommand up in commands.def and
// maps errors to exit codes (0 ok, 1 a torchlet::Error, 2 a usage error).
#include <cstdio>
#include <cstring>
#include <new>
#include <string_view>

#include <fmt/format.h>
#include <torchlet/error.h>

#include "commands.h"

namespace torchlet::cli {
namespace {

struct Command {
  std::string_view name;
  int (*fn)(const Args&);
  std::string_view usage;
  std::string_view summary;
};

constexpr Command kCommands[] = {
#define TL_COMMAND(name, fn, usage, summary) {#name, fn, usage, summary},
#include "commands.def"
#undef TL_COMMAND
};

const Command* find_command(std::string_view name) {
  for (const auto& c : kCommands) {
    if (c.name == name) return &c;
  }
  return nullptr;
}

void print_help() {
  fmt::print("usage: torchlet COMMAND [ARGS...]\n\n"
             "Reads, writes and runs PyTorch .pt files without Python or libtorch.\n\n"
             "commands:\n");
  for (const auto& c : kCommands) fmt::print("  {:<10} {}\n", c.name, c.summary);
  fmt::print("\n'torchlet help COMMAND' shows a command's usage.\n");
}

int run(int argc, char** argv) {
  if (argc < 2 || std::strcmp(argv[1], "--help") == 0 || std::strcmp(argv[1], "-h") == 0) {
    print_help();
    return argc < 2 ? 2 : 0;
  }
  std::string_view name = argv[1];
  if (name == "help") {
    if (argc < 3) {
      print_help();
      return 0;
    }
    const Command* c = find_command(argv[2]);
    if (c == nullptr) {
      fmt::print(stderr, "torchlet: unknown command '{}' (see 'torchlet --help')\n", argv[2]);
      return 2;
    }
    fmt::print("usage: torchlet {}\n\n{}\n", c->usage, c->summary);
    return 0;
  }
  if (name == "--version") name = "version";
  const Command* c = find_command(name);
  if (c == nullptr) {
    fmt::print(stderr, "torchlet: unknown command '{}' (see 'torchlet --help')\n", name);
    return 2;
  }
  Args args(argv + 2, argv + argc);
  for (const auto& a : args) {
    if (a == "--help" || a == "-h") {
      fmt::print("usage: torchlet {}\n\n{}\n", c->usage, c->summary);
      // A command with options lists them, each with its help (CLI11's, via parse_args).
      const std::string_view usage = c->usage;
      if (usage.find(" -") != std::string_view::npos || usage.find("[-") != std::string_view::npos) {
        try {
          c->fn({"--help"});
        } catch (const HelpShown&) {
        }
      }
      return 0;
    }
  }
  try {
    return c->fn(args);
  } catch (const UsageError& e) {
    fmt::print(stderr, "torchlet {}: {} (usage: torchlet {})\n", c->name, e.what(), c->usage);
    return 2;
  }
}

}  // namespace
}  // namespace torchlet::cli

// In sanitized builds, an allocation the system refuses returns null as it does without
// ASan, so the CLI reports torchlet's OutOfMemoryError instead of ASan ending the process.
extern "C" const char* __asan_default_options();
extern "C" const char* __asan_default_options() { return "allocator_may_return_null=1"; }

int main(int argc, char** argv) {
  try {
    return torchlet::cli::run(argc, argv);
  } catch (const torchlet::Error& e) {
    fmt::print(stderr, "torchlet: {}: {}\n", torchlet::error_kind_name(e.kind()), e.what());
    return 1;
  } catch (const std::bad_alloc&) {
    // A program (or a file's tensors) asking for more memory than the machine has.
    fmt::print(stderr, "torchlet: out of memory: an allocation failed (std::bad_alloc)\n");
    return 1;
  } catch (const std::exception& e) {
    fmt::print(stderr, "torchlet: error: {}\n", e.what());
    return 1;
  }
}

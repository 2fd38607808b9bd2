// Fuzz target: the TorchScript lexer and parser on arbitrary bytes, as a whole file and
// as a single expression, linting (lint_tree) and printing every tree it accepts. Only torchlet::Error may
// escape the frontend; anything else (or a sanitizer report) is a finding, and so is an
// InternalError, which is an Error but means one of our invariants broke.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

#include <torchlet/error.h>

#include "jit/frontend/parser.h"

[[noreturn]] static void internal_error(const torchlet::InternalError& e) {
  std::fprintf(stderr, "%s\n", e.what());
  std::abort();
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  auto source = std::make_shared<const torchlet::jit::Source>(
      std::string(reinterpret_cast<const char*>(data), size), "fuzz.py");
  try {
    torchlet::jit::ParsedFile file = torchlet::jit::parse_file(source);
    for (const torchlet::jit::TreeRef& stmt : file.statements) torchlet::jit::lint_tree(*stmt);
    (void)torchlet::jit::to_sexpr(file);
  } catch (const torchlet::InternalError& e) {
    internal_error(e);
  } catch (const torchlet::Error&) {
  }
  try {
    torchlet::jit::TreeRef e = torchlet::jit::parse_expression(source);
    torchlet::jit::lint_tree(*e);
    (void)torchlet::jit::to_sexpr(*e);
  } catch (const torchlet::InternalError& err) {
    internal_error(err);
  } catch (const torchlet::Error&) {
  }
  return 0;
}

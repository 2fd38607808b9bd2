// Fuzz target: the TorchScript lexer and parser on arbitrary bytes, as a whole file and
// as a single expression, printing every tree it accepts. Only torchlet::Error may
// escape the frontend; anything else (or a sanitizer report) is a finding.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include <torchlet/error.h>

#include "jit/frontend/parser.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  auto source = std::make_shared<const torchlet::jit::Source>(
      std::string(reinterpret_cast<const char*>(data), size), "fuzz.py");
  try {
    torchlet::jit::ParsedFile file = torchlet::jit::parse_file(source);
    (void)torchlet::jit::to_sexpr(file);
  } catch (const torchlet::Error&) {
  }
  try {
    torchlet::jit::TreeRef e = torchlet::jit::parse_expression(source);
    (void)torchlet::jit::to_sexpr(*e);
  } catch (const torchlet::Error&) {
  }
  return 0;
}

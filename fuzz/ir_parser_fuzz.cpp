// Fuzz target: the IR text parser on arbitrary bytes; every graph it accepts is linted,
// printed, parsed back, and lowered to instructions by the emitter. Only
// torchlet::Error may escape; anything else (or a sanitizer report) is a finding.
#include <cstddef>
#include <cstdint>
#include <string>

#include <torchlet/error.h>

#include "jit/ir/ir_parser.h"
#include "jit/runtime/code.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    torchlet::jit::GraphPtr g = torchlet::jit::parse_ir(text);
    g->lint();
    const std::string printed = g->str();
    (void)torchlet::jit::parse_ir(printed)->str();
    (void)torchlet::jit::emit_code(g, "fuzz", nullptr).dump();
  } catch (const torchlet::Error&) {
  }
  return 0;
}

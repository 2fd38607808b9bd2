// Fuzz target: the unpickler on raw pickle bytes, strict and in inert-record mode,
// with a persistent_load that hands out small storages the way checkpoints do.
#include <cstddef>
#include <cstdint>

#include <torchlet/error.h>

#include "pickle/disassembler.h"
#include "pickle/unpickler.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::span<const std::byte> bytes(reinterpret_cast<const std::byte*>(data), size);
  for (bool inert : {false, true}) {
    torchlet::pickle::UnpicklerOptions opt;
    opt.inert_unknown_globals = inert;
    opt.persistent_load = [](const torchlet::IValue&) {
      return torchlet::IValue(torchlet::zeros({16}, torchlet::DType::Float));
    };
    opt.limits.max_objects = 1 << 16;  // keep each run fast
    try {
      torchlet::IValue v = torchlet::pickle::unpickle(bytes, opt, "fuzz.pkl");
      (void)v.repr();
    } catch (const torchlet::Error&) {
    }
  }
  (void)torchlet::pickle::disassemble(bytes, "fuzz.pkl");
  return 0;
}

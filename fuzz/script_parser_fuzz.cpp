// libFuzzer entry for the TorchScript lexer and parser; the body is
// torchlet::fuzz::script_parser in targets.cpp, which the regression replay (tests/fuzz/) runs too.
#include "targets.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  torchlet::fuzz::script_parser({data, size});
  return 0;
}

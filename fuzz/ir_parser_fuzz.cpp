// libFuzzer entry for the IR text parser, printer and emitter; the body is
// torchlet::fuzz::ir_parser in targets.cpp, which the regression replay (tests/fuzz/) runs too.
#include "targets.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  torchlet::fuzz::ir_parser({data, size});
  return 0;
}

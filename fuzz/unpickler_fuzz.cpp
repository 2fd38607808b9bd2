// libFuzzer entry for the unpickler on raw pickle bytes; the body is
// torchlet::fuzz::unpickler in targets.cpp, which the regression replay (tests/fuzz/) runs too.
#include "targets.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  torchlet::fuzz::unpickler({data, size});
  return 0;
}

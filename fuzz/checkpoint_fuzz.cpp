// libFuzzer entry for whole checkpoint files through torchlet::load and scan; the body is
// torchlet::fuzz::checkpoint in targets.cpp, which the regression replay (tests/fuzz/) runs too.
#include "targets.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  torchlet::fuzz::checkpoint({data, size});
  return 0;
}

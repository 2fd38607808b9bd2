// libFuzzer entry for TorchScript source through torchlet::jit::compile; the body is
// torchlet::fuzz::compiler in targets.cpp, which the regression replay (tests/fuzz/) runs too.
#include "targets.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  torchlet::fuzz::compiler({data, size});
  return 0;
}

// libFuzzer entry for the zip reader on arbitrary bytes; the body is
// torchlet::fuzz::zip_reader in targets.cpp, which the regression replay (tests/fuzz/) runs too.
#include "targets.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  torchlet::fuzz::zip_reader({data, size});
  return 0;
}

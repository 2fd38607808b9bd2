// libFuzzer entry for .safetensors files through read_safetensors_header and
// load_safetensors; the body is torchlet::fuzz::safetensors in targets.cpp, which the
// regression replay (tests/fuzz/) runs too.
#include "targets.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  torchlet::fuzz::safetensors({data, size});
  return 0;
}

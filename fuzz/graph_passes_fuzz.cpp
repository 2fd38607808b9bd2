// libFuzzer entry for the graph passes over IR text; the body is
// torchlet::fuzz::graph_passes in targets.cpp, which the regression replay (tests/fuzz/) runs too.
#include "targets.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  torchlet::fuzz::graph_passes({data, size});
  return 0;
}

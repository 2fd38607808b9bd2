// libFuzzer entry for torch.jit.save archives through torchlet::jit::load, then forward; the body is
// torchlet::fuzz::script_archive in targets.cpp, which the regression replay (tests/fuzz/) runs too.
#include "targets.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  torchlet::fuzz::script_archive({data, size});
  return 0;
}

// A loaded program may ask for any amount of memory (torch.zeros([1 << 20, 1 << 20])).
// The sizes it controls are refused past kFuzzAllocationBytes (targets.h); as a backstop
// ASan's malloc returns null past 512 MiB, which the interpreter reports as an "out of
// memory" TorchScript error, which the target accepts. (ASan's operator new aborts on a
// refusal whatever these options say: hence the limit.)
extern "C" const char* __asan_default_options() { return "allocator_may_return_null=1:max_allocation_size_mb=512"; }

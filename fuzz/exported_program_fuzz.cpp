// libFuzzer entry for torch.export archives (.pt2) through torchlet::load_exported_program, then a
// call on the sample inputs; the body is torchlet::fuzz::exported_program in targets.cpp, which the
// regression replay (tests/fuzz/) runs too.
#include "targets.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  torchlet::fuzz::exported_program({data, size});
  return 0;
}

// As for script_archive (script_archive_fuzz.cpp): a program's call may ask for any
// amount of memory; kFuzzAllocationBytes refuses what it controls, and past 512 MiB
// ASan's malloc returns null instead of ending the run.
extern "C" const char* __asan_default_options() { return "allocator_may_return_null=1:max_allocation_size_mb=512"; }

// The largest single buffer torchlet builds for data, and the per-thread scope that
// lowers it. Note [Allocation limit]:
//
// Sizes come from hostile places: a file's headers, and programs, which can ask for any
// amount ('a'.ljust(1 << 33), [0] * n, a string doubled in a loop). Everything that
// builds a buffer whose size such input controls (a tensor's storage, a list or str an
// operator returns, the text of a printed value) checks the size here first, so an
// absurd size is a LimitError naming what asked, never an attempt the system may or may
// not refuse. By default the limit is kMaxAllocationBytes, far beyond any machine, so
// programs behave as in torch up to the machine's memory. A caller running untrusted
// input on a thread lowers it there while an AllocationLimit lives: the fuzz targets do,
// because under ASan a refused operator new aborts instead of throwing std::bad_alloc.
#pragma once

#include <cstddef>

#include <torchlet/allocation_limit.h>  // AllocationLimit, the per-thread scope

namespace torchlet {

// 2^48 bytes (256 TiB): no real size reaches it, and sums of a few sizes below it
// cannot overflow size_t.
inline constexpr size_t kMaxAllocationBytes = size_t{1} << 48;

// `bytes`, or a LimitError "{what}: {bytes}-byte ... exceeds the {limit}-byte limit on
// one allocation" when it is past this thread's limit.
size_t checked_allocation(size_t bytes, const char* what);

}  // namespace torchlet

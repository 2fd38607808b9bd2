// This thread's limit on one allocation (Note [Allocation limit] in allocation_limit.h).
#include "core/allocation_limit.h"

#include <algorithm>

#include <torchlet/error.h>

namespace torchlet {

namespace {
thread_local size_t t_allocation_limit = kMaxAllocationBytes;
}  // namespace

AllocationLimit::AllocationLimit(size_t max_bytes) : saved_(t_allocation_limit) {
  t_allocation_limit = std::min(max_bytes, t_allocation_limit);
}

AllocationLimit::~AllocationLimit() { t_allocation_limit = saved_; }

size_t AllocationLimit::current() { return t_allocation_limit; }

size_t checked_allocation(size_t bytes, const char* what) {
  TL_CHECK(bytes <= t_allocation_limit, LimitError, "{}: {} bytes exceeds the {}-byte limit on one allocation", what,
           bytes, t_allocation_limit);
  return bytes;
}

}  // namespace torchlet

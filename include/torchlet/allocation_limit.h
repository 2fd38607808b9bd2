// A per-thread cap on the largest single buffer torchlet builds for data whose size
// input controls: a tensor's storage, a list or string an operator returns, the text of
// a printed value. Past the cap, the allocation is a LimitError naming what asked for
// it, before any memory is requested. The default cap (2^48 bytes) is beyond any
// machine; a caller handling untrusted files or programs lowers it while they run.
#pragma once

#include <cstddef>

namespace torchlet {

class AllocationLimit {
 public:
  // Lowers this thread's limit to `max_bytes` (never raises it) until destroyed.
  explicit AllocationLimit(size_t max_bytes);
  ~AllocationLimit();
  AllocationLimit(const AllocationLimit&) = delete;
  AllocationLimit& operator=(const AllocationLimit&) = delete;

  // This thread's limit now.
  static size_t current();

 private:
  size_t saved_;
};

}  // namespace torchlet

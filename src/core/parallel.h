// Intra-op parallelism: parallel_for over [begin, end) in chunks of at least `grain`
// elements, on OpenMP threads. Kernels split work only through this (STYLE.md #22).
#pragma once

#include <cstdint>
#include <functional>

#include <torchlet/parallel.h>  // get_num_threads, set_num_threads: how many threads parallel_for may use

namespace torchlet {

// Calls fn(chunk_begin, chunk_end) over disjoint chunks covering [begin, end).
// Runs inline when the range is smaller than `grain` or when already inside a
// parallel region. The first exception thrown by any chunk is rethrown here.
void parallel_for(int64_t begin, int64_t end, int64_t grain,
                  const std::function<void(int64_t, int64_t)>& fn);

}  // namespace torchlet

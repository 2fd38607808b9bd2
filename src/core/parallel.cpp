// OpenMP implementation of parallel_for; exceptions are carried out of the region
// because throwing across an OpenMP boundary terminates the program.
#include "core/parallel.h"

#include <algorithm>
#include <exception>
#include <mutex>
#include <omp.h>

namespace torchlet {

int get_num_threads() { return omp_get_max_threads(); }

void set_num_threads(int n) { omp_set_num_threads(std::max(1, n)); }

void parallel_for(int64_t begin, int64_t end, int64_t grain,
                  const std::function<void(int64_t, int64_t)>& fn) {
  if (begin >= end) return;
  int64_t n = end - begin;
  int threads = get_num_threads();
  if (n <= grain || threads <= 1 || omp_in_parallel()) {
    fn(begin, end);
    return;
  }
  int64_t chunks = std::min<int64_t>(threads, (n + grain - 1) / std::max<int64_t>(grain, 1));
  std::exception_ptr error;
  std::mutex error_mutex;
#pragma omp parallel for num_threads(static_cast<int>(chunks)) schedule(static, 1)
  for (int64_t c = 0; c < chunks; ++c) {
    int64_t lo = begin + n * c / chunks;
    int64_t hi = begin + n * (c + 1) / chunks;
    try {
      fn(lo, hi);
    } catch (...) {
      std::lock_guard<std::mutex> lock(error_mutex);
      if (!error) error = std::current_exception();
    }
  }
  if (error) std::rethrow_exception(error);
}

}  // namespace torchlet

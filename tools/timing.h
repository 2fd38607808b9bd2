// Wall-clock timing the subcommands report (`run --repeat`, load times, the demo): one
// clock and one summary, so every command's "median ... min ..." means the same thing.
#pragma once

#include <algorithm>
#include <chrono>
#include <vector>

namespace torchlet::cli {

using Clock = std::chrono::steady_clock;

inline double ms_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

struct CallTimes {
  double median_ms = 0, min_ms = 0;
};

// Times `calls` more calls of `call`, one at a time; calls must be > 0.
template <typename Call>
CallTimes time_calls(int calls, Call&& call) {
  std::vector<double> times;
  times.reserve(static_cast<size_t>(calls));
  for (int i = 0; i < calls; ++i) {
    const auto start = Clock::now();
    call();
    times.push_back(ms_since(start));
  }
  std::sort(times.begin(), times.end());
  return {times[times.size() / 2], times.front()};
}

}  // namespace torchlet::cli

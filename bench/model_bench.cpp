// One TorchScript model timed per process (bench/model_bench.py drives it and runs
// torch 1.13 on the same archive and inputs in the same run):
//   model_bench ARCHIVE.pt INPUTS.pt THREADS REPS [--no-optimize]
// Prints "load_ms=… first_ms=… median_ms=… min_ms=… cpu_ms=…": load_ms until forward
// can be called (the classes the module's objects need are compiled by then, as
// torch.jit.load compiles before returning), the first call (which pays for lowering
// graphs to interpreter code, as torch's first calls pay for profiling), the median
// and minimum of REPS further calls after two warm-up calls, and the median of those
// calls' process CPU time (with one thread, the time the call needed whatever else the
// machine ran; with more it also counts threads waiting for each other).
// --no-optimize runs the graphs as written instead of the graph executor's plans.
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <ctime>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>
#include <torchlet/checkpoint.h>
#include <torchlet/error.h>
#include <torchlet/jit.h>

#include "core/parallel.h"
#include "jit/serialization/import.h"

int main(int argc, char** argv) {
  using clock = std::chrono::steady_clock;
  auto ms_since = [](clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(clock::now() - t0).count();
  };
  const bool as_written = argc == 6 && std::string_view(argv[5]) == "--no-optimize";
  if (argc != 5 && !as_written) {
    fmt::print(stderr, "usage: model_bench ARCHIVE.pt INPUTS.pt THREADS REPS [--no-optimize]\n");
    return 2;
  }
  try {
    if (as_written) torchlet::jit::set_graph_executor_optimize(false);
    torchlet::set_num_threads(std::atoi(argv[3]));
    const int reps = std::max(1, std::atoi(argv[4]));
    const torchlet::IValue inputs = torchlet::load(argv[2]);
    if (!inputs.isTuple()) throw torchlet::ValueError("INPUTS.pt must hold a tuple of forward's arguments");
    const std::vector<torchlet::IValue> args = inputs.tupleRef().elements;

    auto t0 = clock::now();
    torchlet::jit::Module m = torchlet::jit::load(argv[1]);
    torchlet::jit::Method forward = m.get_method("forward");
    const double load_ms = ms_since(t0);

    t0 = clock::now();
    forward(args);
    const double first_ms = ms_since(t0);

    auto cpu_ms = [] {
      timespec ts{};
      clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
      return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) / 1e6;
    };
    for (int i = 0; i < 2; ++i) forward(args);
    std::vector<double> times, cpu;
    for (int i = 0; i < reps; ++i) {
      const double c0 = cpu_ms();
      t0 = clock::now();
      forward(args);
      times.push_back(ms_since(t0));
      cpu.push_back(cpu_ms() - c0);
    }
    std::sort(times.begin(), times.end());
    std::sort(cpu.begin(), cpu.end());
    fmt::print("load_ms={:.3f} first_ms={:.3f} median_ms={:.3f} min_ms={:.3f} cpu_ms={:.3f}\n", load_ms, first_ms,
               times[times.size() / 2], times.front(), cpu[cpu.size() / 2]);
  } catch (const torchlet::Error& e) {
    fmt::print(stderr, "model_bench: {}\n", e.what());
    return 1;
  }
  return 0;
}

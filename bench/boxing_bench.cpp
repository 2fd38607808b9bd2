// What boxing costs (Note [Boxing] in src/jit/ops/boxing.h), in one run: the same
// operator called through the registry's boxed adapter and through the hand-written
// adapter it replaced (kept here, verbatim, as the baseline), on inputs small enough
// that the call, not the kernel, is most of the time. Prints each pair's ratio.
//   build/bench/boxing_bench [--benchmark_repetitions=N]
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>
#include <torchlet/ops.h>

#include "jit/ops/boxing.h"
#include "jit/ops/ops_util.h"

namespace torchlet::jit::ops {
namespace {

void max_pool2d_hand_written(Stack& s) {
  bool ceil_mode = pop_bool(s);
  auto dilation = pop_int_list(s);
  auto padding = pop_int_list(s);
  auto stride = pop_int_list(s);
  auto kernel = pop_int_list(s);
  push(s, torchlet::max_pool2d(pop_tensor(s), kernel, stride, padding, dilation, ceil_mode));
}

void adaptive_max_pool2d_hand_written(Stack& s) {
  auto size = pop_int_list(s);
  auto [v, i] = torchlet::adaptive_max_pool2d(pop_tensor(s), size);
  push(s, v, i);
}

const Tensor& small_input() {
  static const Tensor x = torchlet::ones({1, 2, 4, 4});
  return x;
}

void push_max_pool2d_arguments(Stack& s) {
  s.emplace_back(small_input());
  s.push_back(int_list(std::vector<int64_t>{2, 2}));
  s.push_back(int_list(std::vector<int64_t>{2, 2}));
  s.push_back(int_list(std::vector<int64_t>{0, 0}));
  s.push_back(int_list(std::vector<int64_t>{1, 1}));
  s.emplace_back(false);
}

template <Operation kOp>
void BM_max_pool2d(benchmark::State& state) {
  Stack s;
  for (auto _ : state) {
    push_max_pool2d_arguments(s);
    kOp(s);
    benchmark::DoNotOptimize(s.back());
    s.clear();
  }
}

template <Operation kOp>
void BM_adaptive_max_pool2d(benchmark::State& state) {
  Stack s;
  for (auto _ : state) {
    s.emplace_back(small_input());
    s.push_back(int_list(std::vector<int64_t>{1, 1}));
    kOp(s);
    benchmark::DoNotOptimize(s.back());
    s.clear();
  }
}

BENCHMARK(BM_max_pool2d<max_pool2d_hand_written>)->Name("max_pool2d/hand_written");
BENCHMARK(BM_max_pool2d<boxed<&torchlet::max_pool2d>.op>)->Name("max_pool2d/boxed");
BENCHMARK(BM_adaptive_max_pool2d<adaptive_max_pool2d_hand_written>)->Name("adaptive_max_pool2d/hand_written");
BENCHMARK(BM_adaptive_max_pool2d<boxed<&torchlet::adaptive_max_pool2d>.op>)->Name("adaptive_max_pool2d/boxed");

// Collects each run's time so main() can print boxed / hand-written per operator.
class RatioReporter : public benchmark::ConsoleReporter {
 public:
  void ReportRuns(const std::vector<Run>& runs) override {
    ConsoleReporter::ReportRuns(runs);
    for (const Run& r : runs)
      if (r.run_type == Run::RT_Iteration || r.aggregate_name == "median") times_[r.run_name.function_name] = r.GetAdjustedRealTime();
  }
  void print_ratios() const {
    for (const char* op : {"max_pool2d", "adaptive_max_pool2d"}) {
      const auto hand = times_.find(std::string(op) + "/hand_written"), box = times_.find(std::string(op) + "/boxed");
      if (hand != times_.end() && box != times_.end())
        std::printf("%s: boxed / hand-written = %.3f\n", op, box->second / hand->second);
    }
  }

 private:
  std::map<std::string, double> times_;
};

}  // namespace
}  // namespace torchlet::jit::ops

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  torchlet::jit::ops::RatioReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  reporter.print_ratios();
  benchmark::Shutdown();
  return 0;
}

// What a call costs the graph executor (src/jit/runtime/graph_executor.h): the same
// small compiled functions called from C++ on their optimised plans (each call
// makes the argument spec and looks its plan up under a lock) and on their graphs as
// written, in one run. The bodies are one or two operations, so the call, not the work,
// is most of the time.
//   build/bench/call_bench [--benchmark_repetitions=N]
#include <memory>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>
#include <torchlet/jit.h>
#include <torchlet/tensor.h>

namespace {

const char* kSource = R"(
def add_one(x: int) -> int:
    return x + 1

def relu_scale(x: Tensor, s: float) -> Tensor:
    return torch.relu(x) * s
)";

const torchlet::jit::CompilationUnit& unit() {
  static const std::shared_ptr<torchlet::jit::CompilationUnit> cu = torchlet::jit::compile(kSource);
  return *cu;
}

void call(benchmark::State& state, const std::string& name, const std::vector<torchlet::IValue>& args) {
  const bool optimize = state.range(0) != 0;
  const bool before = torchlet::jit::graph_executor_optimize();
  torchlet::jit::set_graph_executor_optimize(optimize);
  for (auto _ : state) benchmark::DoNotOptimize(torchlet::jit::run_function(unit(), name, args));
  torchlet::jit::set_graph_executor_optimize(before);
  state.SetLabel(optimize ? "plan" : "as written");
}

void BM_IntCall(benchmark::State& state) { call(state, "add_one", {torchlet::IValue(int64_t{41})}); }
void BM_TensorCall(benchmark::State& state) {
  call(state, "relu_scale", {torchlet::IValue(torchlet::ones({4})), torchlet::IValue(0.5)});
}

BENCHMARK(BM_IntCall)->Arg(1)->Arg(0);
BENCHMARK(BM_TensorCall)->Arg(1)->Arg(0);

}  // namespace

BENCHMARK_MAIN();

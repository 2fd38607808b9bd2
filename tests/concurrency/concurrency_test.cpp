// Many threads sharing one loaded model or one file: 8 threads call `forward` of ONE
// loaded TorchScript module (the tiny CNN torch scripted, examples/) 200 times each and
// every result must equal the single-threaded one bit for bit; several threads load the
// same archive and the same checkpoint at once and get what one thread gets; threads
// calling one function with different argument specs share the executor's plans. Run under
// ThreadSanitizer by `scripts/test.sh --tsan`, where a data race fails the run.
#include <atomic>
#include <cstring>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>
#include <torchlet/checkpoint.h>

#include "jit/serialization/import.h"

namespace torchlet {
namespace {

namespace fs = std::filesystem;

const fs::path kExamples = fs::path(TORCHLET_SOURCE_DIR) / "examples";

// Same dtype, shape and bytes.
bool identical(const Tensor& a, const Tensor& b) {
  if (a.dtype() != b.dtype() || a.sizes() != b.sizes()) return false;
  const Tensor ca = a.contiguous(), cb = b.contiguous();
  return std::memcmp(ca.data_ptr(), cb.data_ptr(), ca.nbytes()) == 0;
}

// Every tensor inside `v` (dict values, list and tuple elements), in order.
void collect_tensors(const IValue& v, std::vector<Tensor>& out) {
  if (v.isTensor()) out.push_back(v.toTensor());
  else if (v.isDict())
    for (const auto& kv : v.dictRef().items()) collect_tensors(kv.second, out);
  else if (v.isList())
    for (const IValue& e : v.listRef().elements) collect_tensors(e, out);
  else if (v.isTuple())
    for (const IValue& e : v.tupleRef().elements) collect_tensors(e, out);
}

template <typename F>
void on_threads(int n, F&& body) {
  std::vector<std::thread> threads;
  for (int t = 0; t < n; ++t) threads.emplace_back([&body, t] { body(t); });
  for (auto& th : threads) th.join();
}

TEST(Concurrency, EightThreadsShareOneLoadedModule) {
  const jit::Module m = jit::load((kExamples / "tiny_cnn_scripted.pt").string());
  const Tensor images = load((kExamples / "tiny_cnn_inputs.pt").string()).tupleRef().elements.at(0).toTensor();
  const Tensor want = m.forward({IValue(images)}).toTensor();
  // The single-threaded result is torch's (within float rounding), so the comparison
  // below is against a right answer, not just a consistent one.
  const Tensor torch_out = load((kExamples / "tiny_cnn_expected.pt").string()).toTensor();
  ASSERT_EQ(want.sizes(), torch_out.sizes());
  const auto got_v = want.to_vector<float>(), torch_v = torch_out.to_vector<float>();
  for (size_t i = 0; i < got_v.size(); ++i) ASSERT_NEAR(got_v[i], torch_v[i], 1e-4) << i;

  constexpr int kThreads = 8, kCalls = 200;
  std::atomic<int> wrong{0}, failed{0};
  on_threads(kThreads, [&](int) {
    for (int k = 0; k < kCalls; ++k) {
      try {
        if (!identical(m.forward({IValue(images)}).toTensor(), want)) ++wrong;
      } catch (const std::exception&) {
        ++failed;
      }
    }
  });
  EXPECT_EQ(failed.load(), 0);
  EXPECT_EQ(wrong.load(), 0) << "of " << kThreads * kCalls << " calls";
}

// The graph executor's plans: threads calling one function with arguments of different
// dtypes and ranks build and share one plan per spec at once, each result what the graph
// as written computes.
TEST(Concurrency, ThreadsPlanOneFunctionForDifferentSpecsAtOnce) {
  const auto cu = jit::compile(
      "def f(x: Tensor, n: int) -> Tensor:\n"
      "    for i in range(n):\n"
      "        x = x * 2 + i\n"
      "    return x.sum(0)\n");
  const std::vector<Tensor> inputs = {ones({3, 2}, DType::Float), ones({3}, DType::Float),
                                      ones({2, 2, 2}, DType::Double), ones({4, 1}, DType::Long)};
  std::vector<Tensor> want;
  {
    const bool was = jit::graph_executor_optimize();
    jit::set_graph_executor_optimize(false);
    for (const Tensor& x : inputs) want.push_back(jit::run_function(*cu, "f", {IValue(x), IValue(int64_t{3})}).toTensor());
    jit::set_graph_executor_optimize(was);
  }
  std::atomic<int> wrong{0}, failed{0};
  on_threads(8, [&](int t) {
    for (int k = 0; k < 50; ++k) {
      const size_t which = static_cast<size_t>(t + k) % inputs.size();
      try {
        const Tensor got = jit::run_function(*cu, "f", {IValue(inputs[which]), IValue(int64_t{3})}).toTensor();
        if (!identical(got, want[which])) ++wrong;
      } catch (const std::exception&) {
        ++failed;
      }
    }
  });
  EXPECT_EQ(failed.load(), 0);
  EXPECT_EQ(wrong.load(), 0);
}

TEST(Concurrency, ThreadsLoadTheSameArchiveAtOnce) {
  const std::string path = (kExamples / "tiny_cnn_scripted.pt").string();
  const Tensor images = load((kExamples / "tiny_cnn_inputs.pt").string()).tupleRef().elements.at(0).toTensor();
  const Tensor want = jit::load(path).forward({IValue(images)}).toTensor();
  std::atomic<int> wrong{0}, failed{0};
  on_threads(6, [&](int t) {
    for (int k = 0; k < 5; ++k) {
      try {
        jit::ScriptLoadOptions opt;
        opt.mode = (t + k) % 2 ? LoadMode::Eager : LoadMode::Mapped;
        const jit::Module m = jit::load(path, opt);
        if (!identical(m.forward({IValue(images)}).toTensor(), want)) ++wrong;
      } catch (const std::exception&) {
        ++failed;
      }
    }
  });
  EXPECT_EQ(failed.load(), 0);
  EXPECT_EQ(wrong.load(), 0);
}

TEST(Concurrency, ThreadsLoadTheSameCheckpointAtOnce) {
  const std::string path = (kExamples / "tiny_mlp.pt").string();
  const IValue want = load(path);
  const std::string want_repr = want.repr();
  std::vector<Tensor> want_tensors;
  collect_tensors(want, want_tensors);
  ASSERT_GE(want_tensors.size(), 4u);
  std::atomic<int> wrong{0}, failed{0};
  on_threads(8, [&](int t) {
    for (int k = 0; k < 20; ++k) {
      try {
        LoadOptions opt;
        opt.mode = (t + k) % 2 ? LoadMode::Eager : LoadMode::Mapped;
        const IValue v = load(path, opt);
        if (v.repr() != want_repr) ++wrong;
        std::vector<Tensor> got;
        collect_tensors(v, got);
        if (got.size() != want_tensors.size()) ++wrong;
        for (size_t i = 0; i < got.size() && i < want_tensors.size(); ++i)
          if (!identical(got[i], want_tensors[i])) ++wrong;
      } catch (const std::exception&) {
        ++failed;
      }
    }
  });
  EXPECT_EQ(failed.load(), 0);
  EXPECT_EQ(wrong.load(), 0);
}

}  // namespace
}  // namespace torchlet

// The CPU features torchlet dispatches on (core/cpu_features.h) against what the torch
// that wrote the fixtures did (fixtures/environment.txt, tests/fixtures/generate.py),
// and the BLAS/LAPACK both run on under the tests. The results of CPU-dependent
// kernels are only comparable when all of these agree; this test says so by name
// instead of leaving a numeric test to fail mysteriously.
#include "core/cpu_features.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <set>
#include <string>

#include <gtest/gtest.h>

#include "../common/fixtures.h"

namespace torchlet {
namespace {

// The values of the fixture environment's lines that start with `key` ("cpu", "library").
std::vector<std::string> environment_values(const std::string& key) {
  std::vector<std::string> values;
  for (const std::string& line : testing::fixture_lines("environment.txt")) {
    if (line.rfind(key + " ", 0) == 0) values.push_back(line.substr(key.size() + 1));
  }
  return values;
}

// The shared objects whose names contain `part` that this process has mapped.
std::set<std::string> mapped_libraries(const std::string& part) {
  std::set<std::string> out;
  std::ifstream maps("/proc/self/maps");
  for (std::string line; std::getline(maps, line);) {
    const size_t slash = line.find('/');
    if (slash == std::string::npos) continue;
    const std::filesystem::path path = line.substr(slash);
    if (path.filename().string().find(part) != std::string::npos)
      out.insert(std::filesystem::weakly_canonical(path).string());
  }
  return out;
}

// torch's own dispatch decision, as generate.py observed it, is torchlet's: otherwise the
// fixtures come from another CPU (a build tree moved between machines) and every
// bfloat16 gelu, convolution and matmul case would differ for that reason alone.
TEST(CpuFeatures, TorchAndTorchletAgreeOnWhereBfloat16Goes) {
  const auto cpuinfo = environment_values("cpuinfo");
  const auto torch_onednn = environment_values("onednn_takes_bfloat16");
  ASSERT_EQ(torch_onednn.size(), 1u) << "fixtures/environment.txt has no onednn_takes_bfloat16 line";
  std::cout << "[ cpu ] torchlet sees: " << cpu_features_summary() << "\n"
            << "[ cpu ] /proc/cpuinfo when torch ran: " << (cpuinfo.empty() ? "?" : cpuinfo[0]) << "\n"
            << "[ cpu ] oneDNN takes bfloat16: torchlet " << (onednn_takes_bfloat16() ? "yes" : "no")
            << ", torch " << torch_onednn[0] << "\n";
  EXPECT_EQ(torch_onednn[0], onednn_takes_bfloat16() ? "yes" : "no")
      << "the fixtures were written on another CPU; regenerate them (tests/fixtures/generate.py)";
}

TEST(CpuFeatures, OneDnnTakesBfloat16WhereTorchChecksAvx512Core) {
  const CpuFeatures& f = cpu_features();
  EXPECT_EQ(onednn_takes_bfloat16(), f.avx512bw && f.avx512vl && f.avx512dq);
  // cpuid never reports the AVX-512 subsets without the foundation.
  if (onednn_takes_bfloat16()) {
    EXPECT_TRUE(f.avx512f);
  }
}

// torch wrote the fixtures on the reference BLAS and LAPACK, and torchlet's own LAPACK
// calls resolve to the same files here, whatever the system alternative selects.
TEST(CpuFeatures, TorchAndTorchletRunOnTheReferenceBlasAndLapack) {
  const auto torch_libraries = environment_values("library");
  std::cout << "[ blas ] torch (fixtures):";
  for (const auto& l : torch_libraries) std::cout << " " << l;
  std::cout << "\n";
  auto has = [&](const std::string& folder, const std::string& name) {
    return std::any_of(torch_libraries.begin(), torch_libraries.end(), [&](const std::string& l) {
      return l.find("/" + folder + "/" + name) != std::string::npos;
    });
  };
  EXPECT_TRUE(has("blas", "libblas.so.3")) << "torch did not run on the reference BLAS";
  EXPECT_TRUE(has("lapack", "liblapack.so.3")) << "torch did not run on the reference LAPACK";
  for (const auto& l : torch_libraries) EXPECT_EQ(l.find("openblas"), std::string::npos) << l;
  const auto ours = mapped_libraries("lapack");
  ASSERT_FALSE(ours.empty()) << "torchlet has no LAPACK mapped";
  for (const auto& l : ours) {
    std::cout << "[ blas ] torchlet: " << l << "\n";
    EXPECT_NE(l.find("/lapack/liblapack.so.3"), std::string::npos) << "torchlet's LAPACK is " << l;
  }
}

}  // namespace
}  // namespace torchlet

// Reads the CPU features torch's dispatch depends on (cpu_features.h).
#include "core/cpu_features.h"

#include <sstream>

namespace torchlet {
namespace {

struct Named {
  const char* name;
  bool CpuFeatures::*member;
};

constexpr Named kNames[] = {
    {"avx2", &CpuFeatures::avx2},         {"fma", &CpuFeatures::fma},
    {"avx512f", &CpuFeatures::avx512f},   {"avx512bw", &CpuFeatures::avx512bw},
    {"avx512vl", &CpuFeatures::avx512vl}, {"avx512dq", &CpuFeatures::avx512dq},
    {"avx512_bf16", &CpuFeatures::avx512_bf16},
};

CpuFeatures read_cpu() {
  CpuFeatures f;
#if defined(__x86_64__)
  __builtin_cpu_init();
  f.avx2 = __builtin_cpu_supports("avx2");
  f.fma = __builtin_cpu_supports("fma");
  f.avx512f = __builtin_cpu_supports("avx512f");
  f.avx512bw = __builtin_cpu_supports("avx512bw");
  f.avx512vl = __builtin_cpu_supports("avx512vl");
  f.avx512dq = __builtin_cpu_supports("avx512dq");
#if defined(__clang__) || __GNUC__ >= 12
  f.avx512_bf16 = __builtin_cpu_supports("avx512bf16");
#endif
#endif
  return f;
}

}  // namespace

const CpuFeatures& cpu_features() {
  static const CpuFeatures features = read_cpu();
  return features;
}

bool onednn_takes_bfloat16() {
  const CpuFeatures& f = cpu_features();
  return f.avx512bw && f.avx512vl && f.avx512dq;
}

std::string cpu_features_summary() {
  std::ostringstream out;
  const char* sep = "";
  for (const Named& n : kNames) {
    if (cpu_features().*n.member) {
      out << sep << n.name;
      sep = " ";
    }
  }
  return out.str();
}

}  // namespace torchlet

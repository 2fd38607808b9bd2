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
#define TL_CPU_FEATURE_NAME(member, builtin) {#member, &CpuFeatures::member},
    TL_CPU_FEATURES(TL_CPU_FEATURE_NAME)
#undef TL_CPU_FEATURE_NAME
};

CpuFeatures read_cpu() {
  CpuFeatures f;
#if defined(__x86_64__)
  __builtin_cpu_init();
#define TL_CPU_FEATURE_READ(member, builtin) f.member = __builtin_cpu_supports(builtin);
  TL_CPU_FEATURES(TL_CPU_FEATURE_READ)
#undef TL_CPU_FEATURE_READ
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

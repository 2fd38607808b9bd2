// The CPU features that decide which kernel torch 1.13 runs, read once, so torchlet
// takes the same path on the same CPU (the one place kernels and tests ask; see
// docs/cpu-dependent-kernels.md for which results depend on it and why).
#pragma once

#include <string>

namespace torchlet {

// One row per feature: _(member, the name __builtin_cpu_supports takes). The member is
// spelled as /proc/cpuinfo names the flag, which is what the test log prints.
#define TL_CPU_FEATURES(_) \
  _(avx2, "avx2")          \
  _(fma, "fma")            \
  _(avx512f, "avx512f")    \
  _(avx512bw, "avx512bw")  \
  _(avx512vl, "avx512vl")  \
  _(avx512dq, "avx512dq")  \
  _(avx512_bf16, "avx512bf16")

struct CpuFeatures {
#define TL_CPU_FEATURE_MEMBER(member, builtin) bool member = false;
  TL_CPU_FEATURES(TL_CPU_FEATURE_MEMBER)
#undef TL_CPU_FEATURE_MEMBER
};

// What this CPU reports (cpuid, through the compiler's builtin; what torch's cpuinfo
// reads too).
const CpuFeatures& cpu_features();

// torch's mkldnn_bf16_device_check(): oneDNN gets bfloat16 work (gelu, convolution,
// matmul) only on AVX-512 with BW, VL and DQ (oneDNN's avx512_core). Elsewhere torch
// runs its own kernels, which round differently.
bool onednn_takes_bfloat16();

// "avx2 fma avx512f ..." (the features present), for the test log.
std::string cpu_features_summary();

}  // namespace torchlet

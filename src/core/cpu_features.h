// The CPU features that decide which kernel torch 1.13 runs, read once, so torchlet
// takes the same path on the same CPU (the one place kernels and tests ask; see
// docs/cpu-dependent-kernels.md for which results depend on it and why).
#pragma once

#include <string>

namespace torchlet {

struct CpuFeatures {
  bool avx2 = false;
  bool fma = false;
  bool avx512f = false;
  bool avx512bw = false;
  bool avx512vl = false;
  bool avx512dq = false;
  bool avx512_bf16 = false;
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

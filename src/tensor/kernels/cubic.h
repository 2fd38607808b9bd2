// The Keys cubic-convolution weights shared by bicubic upsampling (interp.cpp) and
// bicubic grid sampling (grid_sample.cpp). The expressions keep torch's operation order
// (UpSample.h's cubic_convolution1/2, GridSamplerKernel.cpp's get_cubic_coefficients)
// because the weights' last bits decide whether results match torch's exactly.
#pragma once

#include <array>
#include <cmath>

namespace torchlet::kernels {

// The kernel for |x| <= 1 and for 1 < |x| < 2; `a` is -0.75 for torch's bicubic modes.
template <typename M>
M cubic_conv1(M x, M a) { return ((a + 2) * x - (a + 3)) * x * x + 1; }
template <typename M>
M cubic_conv2(M x, M a) { return ((a * x - 5 * a) * x + 8 * a) * x - 4 * a; }

// Weights of the taps at floor(p) - 1 .. floor(p) + 2 for a source position p whose
// fractional part is t.
template <typename M>
std::array<M, 4> cubic_weights(M t, M a) {
  return {cubic_conv2<M>(t + M(1), a), cubic_conv1<M>(t, a), cubic_conv1<M>(M(1) - t, a), cubic_conv2<M>(M(2) - t, a)};
}

// The same weights as torch's AVX2 grid sampler computes them: GCC contracted the inner
// kernel's multiply-adds into fused ones there (found by matching torch 1.13's output bit
// for bit; the outer kernel's stayed separate), so the rounding differs from the above.
template <typename M>
M cubic_conv1_fused(M x, M a) { return std::fma(std::fma(a + 2, x, -(a + 3)) * x, x, M(1)); }
template <typename M>
std::array<M, 4> cubic_weights_fused(M t, M a) {
  return {cubic_conv2<M>(t + M(1), a), cubic_conv1_fused<M>(t, a), cubic_conv1_fused<M>(M(1) - t, a),
          cubic_conv2<M>(M(2) - t, a)};
}

}  // namespace torchlet::kernels

// Elementwise functions that torch 1.13 hands to oneDNN instead of its own kernels, so
// torchlet does the same to get torch's speed and torch's bits. The declarations keep
// oneDNN's types out of the callers (unary.cpp).
#pragma once

#include <torchlet/tensor.h>

namespace torchlet::kernels {

// Whether torch's gelu_out_cpu would run this input through oneDNN (its use_mkldnn
// test): contiguous, more than one element, float32, or bfloat16 on a CPU with
// AVX-512 (BW, VL, DQ: oneDNN's avx512_core). Everything else takes torch's GeluKernel.
bool gelu_erf_goes_to_dnnl(const Tensor& self);

// out = GELU(self) with erf, by oneDNN's eltwise_gelu_erf primitive; out is a fresh
// contiguous tensor of self's sizes and dtype.
void dnnl_gelu_erf(const Tensor& self, Tensor& out);

}  // namespace torchlet::kernels

// oneDNN's eltwise primitives for the activations torch 1.13 computes with them (see
// dnnl_eltwise.h). Same library, same algorithm: exact GELU comes out bit for bit as
// torch's on the same CPU.
#include "tensor/kernels/dnnl_eltwise.h"

#include "core/cpu_features.h"
#include "tensor/kernels/dnnl_util.h"

namespace torchlet::kernels {

bool gelu_erf_goes_to_dnnl(const Tensor& self) {
  if (!self.is_contiguous() || self.numel() <= 1) return false;
  return self.dtype() == DType::Float || (self.dtype() == DType::BFloat16 && onednn_takes_bfloat16());
}

void dnnl_gelu_erf(const Tensor& self, Tensor& out) {
  using namespace dnnl;
  // Flat: an eltwise primitive on dense memory does not look at the shape.
  const memory::dims flat{self.numel()};
  const auto type = self.dtype() == DType::Float ? memory::data_type::f32 : memory::data_type::bf16;
  const memory::desc md(flat, type, memory::format_tag::a);
  // forward_training, as ideep asks for it in torch; the forward results are the same.
  const eltwise_forward::primitive_desc pd(
      eltwise_forward::desc(prop_kind::forward_training, algorithm::eltwise_gelu_erf, md, 0.0f, 0.0f),
      dnnl_engine());
  eltwise_forward(pd).execute(dnnl_stream(), {{DNNL_ARG_SRC, memory(md, dnnl_engine(), self.data_ptr())},
                                              {DNNL_ARG_DST, memory(md, dnnl_engine(), out.data_ptr())}});
  dnnl_stream().wait();
}

}  // namespace torchlet::kernels

// The one oneDNN CPU engine and stream torchlet's heavy kernels share, and the memory
// descriptor of a float32 tensor's strided view. Only linalg.cpp, conv.cpp and
// dnnl_eltwise.cpp include oneDNN; nothing else in torchlet sees its types.
#pragma once

#include <oneapi/dnnl/dnnl.hpp>

#include <torchlet/tensor.h>

namespace torchlet::kernels {

// oneDNN keeps its own primitive cache keyed by descriptor, so kernels create
// primitives per call and reuse is automatic.
inline dnnl::engine& dnnl_engine() {
  static dnnl::engine engine(dnnl::engine::kind::cpu, 0);
  return engine;
}

// A stream per thread: oneDNN streams are not safe to share between threads.
inline dnnl::stream& dnnl_stream() {
  thread_local dnnl::stream stream(dnnl_engine());
  return stream;
}

inline dnnl::memory::dims to_dims(IntList v) { return dnnl::memory::dims(v.begin(), v.end()); }

// The float32 view as it is: sizes and element strides.
inline dnnl::memory::desc strided_desc(const Tensor& t) {
  return dnnl::memory::desc(to_dims(t.sizes()), dnnl::memory::data_type::f32, to_dims(t.strides()));
}

inline dnnl::memory as_memory(const Tensor& t) {
  return dnnl::memory(strided_desc(t), dnnl_engine(), t.data_ptr());
}

}  // namespace torchlet::kernels

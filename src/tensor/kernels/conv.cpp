// Convolutions (1d/2d/3d, transposed 1d/2d/3d; the "same"/"valid" padding strings and
// aten::convolution's choice by the weight's rank on top) on oneDNN, and 2-d pooling
// (max, average, adaptive) as our own loops over NCHW planes. Convolutions let oneDNN
// choose its blocked layouts (format_tag::any) and reorder to torch's contiguous NC*
// layout at the edges; they run in float32 only. Shape rules and messages follow torch.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <memory>
#include <optional>
#include <type_traits>
#include <unordered_map>

#include <torchlet/error.h>
#include <torchlet/ops.h>

#include "tensor/kernels/dnnl_util.h"
#include "tensor/kernels/loop.h"
#include "tensor/kernels/row_sums.h"

namespace torchlet {
namespace {

using dnnl::memory;

// Expands a 1-element list to `n` entries (torch's _single/_pair/_triple).
Shape expand_param(IntList v, int64_t n, const char* what, const char* op) {
  if (v.size() == 1) return Shape(static_cast<size_t>(n), v[0]);
  TL_CHECK(static_cast<int64_t>(v.size()) == n, ValueError, "{}: expected {} to have {} elements, got {}", op,
           what, n, v.size());
  return v.vec();
}

// torch's check_shape_forward, in its order: the output size divides by the stride.
// Transposed convolutions word a bad dilation as their slow kernels' shape checks do
// (1-d runs as 2-d there, with a height dilation of 1).
void check_conv_params(const Shape& stride, const Shape& padding, const Shape& dilation, bool transposed) {
  for (int64_t p : padding) TL_CHECK(p >= 0, ValueError, "negative padding is not supported");
  for (int64_t s : stride) TL_CHECK(s > 0, ValueError, "non-positive stride is not supported");
  const bool positive = std::all_of(dilation.begin(), dilation.end(), [](int64_t d) { return d > 0; });
  if (positive) return;
  if (!transposed) TL_FAIL(ValueError, "dilation should be greater than zero, but got {}", shape_repr(dilation));
  Shape d = dilation;
  if (d.size() == 1) d.insert(d.begin(), 1);
  if (d.size() == 2)
    TL_FAIL(ValueError, "dilation should be greater than zero, but got dilation_height: {}, dilation_width: {}", d[0], d[1]);
  TL_FAIL(ValueError, "dilation should be greater than zero, but got dilation_depth: {}, dilation_height: {}, dilation_width: {}",
          d[0], d[1], d[2]);
}

void check_float32(const Tensor& t, const char* op) {
  TL_CHECK(t.dtype() == DType::Float, UnsupportedError,
           "{}: torchlet runs convolutions in float32 only (got {})", op, dtype_name(t.dtype()));
}

// The blocked copies of a convolution's src, weights and dst, kept per thread and
// grown as needed. Allocating them per call (oneDNN's default) handed megabytes back
// to the system after every layer and paid page faults to touch them again on the
// next one; a thread keeps at most its largest layer's three buffers.
class ReorderScratch {
 public:
  enum Slot { kSrc, kWeights, kDst, kSlots };
  void* get(Slot slot, size_t bytes) {
    Buffer& b = buffers_[slot];
    if (b.bytes < bytes) {
      size_t rounded = (bytes + kAlign - 1) / kAlign * kAlign;
      b.data.reset(std::aligned_alloc(kAlign, rounded));
      TL_CHECK(b.data, OutOfMemoryError, "cannot allocate {} bytes for a convolution's scratch buffer", rounded);
      b.bytes = rounded;
    }
    return b.data.get();
  }

 private:
  static constexpr size_t kAlign = 64;  // oneDNN's preferred alignment for its buffers
  struct Free {
    void operator()(void* p) const { std::free(p); }
  };
  struct Buffer {
    std::unique_ptr<void, Free> data;
    size_t bytes = 0;
  };
  Buffer buffers_[kSlots];
};

ReorderScratch& reorder_scratch() {
  thread_local ReorderScratch scratch;
  return scratch;
}

// Runs `pd`'s primitive with src/weights/dst given in plain layouts, reordering into
// and out of the layouts oneDNN chose (in this thread's scratch buffers).
template <typename PrimitiveDesc, typename Primitive>
void run_with_reorders(const PrimitiveDesc& pd, const memory& src, const memory& weights,
                       const std::optional<memory>& bias, const memory& dst) {
  auto& eng = kernels::dnnl_engine();
  auto& stream = kernels::dnnl_stream();
  ReorderScratch& scratch = reorder_scratch();
  auto blocked = [&](const memory::desc& want, ReorderScratch::Slot slot) {
    return memory(want, eng, scratch.get(slot, want.get_size()));
  };
  auto prepare = [&](const memory& plain, const memory::desc& want, ReorderScratch::Slot slot) {
    memory from = plain;
    if (from.get_desc() == want) return from;
    memory m = blocked(want, slot);
    dnnl::reorder(from, m).execute(stream, from, m);
    return m;
  };
  memory s = prepare(src, pd.src_desc(), ReorderScratch::kSrc);
  memory w = prepare(weights, pd.weights_desc(), ReorderScratch::kWeights);
  memory d = pd.dst_desc() == dst.get_desc() ? dst : blocked(pd.dst_desc(), ReorderScratch::kDst);
  std::unordered_map<int, memory> args{{DNNL_ARG_SRC, s}, {DNNL_ARG_WEIGHTS, w}, {DNNL_ARG_DST, d}};
  if (bias) args.insert({DNNL_ARG_BIAS, *bias});
  Primitive(pd).execute(stream, args);
  if (d != dst) {
    memory to = dst;
    dnnl::reorder(d, to).execute(stream, d, to);
  }
  stream.wait();
}

// Note [Pointwise convolution as GEMM]
// A convolution whose kernel is 1 in every spatial dim, with stride 1, no padding and
// one group (mobilenet_v2's expand and project layers, 34 of its 52 convolutions) is
// a matrix product on torch's NC* layout: for each sample, out[OC, S] = W[OC, C] x
// X[C, S] with S the spatial size. Run as one row-major sgemm it reads and writes the
// tensors where they are; through the convolution primitive the same layer paid a
// reorder of input, weights and output per call into and out of the channel-blocked
// layout, 1.1-2.2x torch's time on those shapes (bench/ops_bench conv2d_1x1), where
// torch's own NCHW path is a GEMM too. Dilation does not matter for a 1-tap kernel.
bool is_pointwise(const Tensor& input, const Tensor& weight, const Shape& stride, const Shape& padding,
                  int64_t groups) {
  // No input channels stays on the primitive path (torch 1.13 itself returns an
  // empty tensor there rather than the bias).
  if (groups != 1 || input.size(1) == 0) return false;
  for (int64_t d = 2; d < weight.dim(); ++d) {
    if (weight.size(d) != 1) return false;
  }
  for (size_t i = 0; i < stride.size(); ++i) {
    if (stride[i] != 1 || padding[i] != 0) return false;
  }
  return true;
}

// `input` [N, C > 0, spatial...] and `weight` [OC, C, 1...] contiguous float32; `out`
// [N, OC, spatial...] freshly allocated (sgemm with beta 0 never reads it).
void conv_pointwise_f32(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias,
                        Tensor& out) {
  const int64_t n = input.size(0), c = input.size(1), oc = weight.size(0);
  const int64_t sp = input.numel() / (n * c);
  const float* w = weight.data<float>();
  const float* x = input.data<float>();
  float* o = out.data<float>();
  for (int64_t b = 0; b < n; ++b) {
    dnnl::sgemm('N', 'N', oc, sp, c, 1.0f, w, c, x + b * c * sp, sp, 0.0f, o + b * oc * sp, sp);
  }
  if (!bias) return;
  Tensor bc = bias->contiguous();
  const float* pb = bc.data<float>();
  parallel_for(0, n * oc, std::max<int64_t>(1, kernels::kGrainSize / std::max<int64_t>(sp, 1)),
               [&](int64_t lo, int64_t hi) {
                 for (int64_t plane = lo; plane < hi; ++plane) {
                   const float v = pb[plane % oc];
                   float* __restrict p = o + plane * sp;
                   for (int64_t i = 0; i < sp; ++i) p[i] += v;
                 }
               });
}

memory::desc any_desc(const Shape& dims) {
  return memory::desc(kernels::to_dims(dims), memory::data_type::f32, memory::format_tag::any);
}

Tensor conv_nd(const Tensor& input_in, const Tensor& weight_in, const std::optional<Tensor>& bias,
               IntList stride_in, IntList padding_in, IntList dilation_in, int64_t groups, int64_t nsp,
               const char* op) {
  int64_t wdim = nsp + 2;
  TL_CHECK(weight_in.dim() == wdim, ValueError, "{}: expected weight to be {}-dimensional, but got {}-dimensional weight",
           op, wdim, weight_in.dim());
  bool batched = input_in.dim() == wdim;
  TL_CHECK(batched || input_in.dim() == wdim - 1, ValueError,
           "Expected {}D (unbatched) or {}D (batched) input to {}, but got input of size: {}", wdim - 1, wdim, op,
           shape_repr(input_in.sizes()));
  check_float32(input_in, op);
  check_float32(weight_in, op);
  TL_CHECK(groups > 0, ValueError, "non-positive groups is not supported");
  Tensor input = (batched ? input_in : input_in.unsqueeze(0)).contiguous();
  Tensor weight = weight_in.contiguous();
  Shape stride = expand_param(stride_in, nsp, "stride", op);
  Shape padding = expand_param(padding_in, nsp, "padding", op);
  Shape dilation = expand_param(dilation_in, nsp, "dilation", op);
  check_conv_params(stride, padding, dilation, /*transposed=*/false);
  int64_t n = input.size(0), c = input.size(1), oc = weight.size(0);
  TL_CHECK(c == weight.size(1) * groups, ValueError,
           "Given groups={}, weight of size {}, expected input{} to have {} channels, but got {} channels "
           "instead",
           groups, shape_repr(weight.sizes()), shape_repr(input.sizes()), weight.size(1) * groups, c);
  TL_CHECK(oc % groups == 0, ValueError, "Given groups={}, expected weight to be divisible by {} at dimension 0, but got weight of size {} instead",
           groups, groups, shape_repr(weight.sizes()));
  Shape out_shape{n, oc}, pad_r(static_cast<size_t>(nsp)), dil(static_cast<size_t>(nsp));
  for (int64_t i = 0; i < nsp; ++i) {
    size_t u = static_cast<size_t>(i);
    int64_t in = input.size(2 + i), k = weight.size(2 + i);
    int64_t eff = dilation[u] * (k - 1) + 1;
    TL_CHECK(in + 2 * padding[u] >= eff, ValueError,
             "Calculated padded input size per channel: ({}). Kernel size: ({}). Kernel size can't be greater "
             "than actual input size",
             in + 2 * padding[u], eff);
    int64_t out = (in + 2 * padding[u] - eff) / stride[u] + 1;
    out_shape.push_back(out);
    pad_r[u] = (out - 1) * stride[u] + eff - in - padding[u];
    dil[u] = dilation[u] - 1;  // oneDNN counts the gaps, torch the spacing
  }
  if (bias) {
    TL_CHECK(bias->dim() == 1 && bias->size(0) == oc, ValueError,
             "{}: expected bias of shape [{}], got {}", op, oc, shape_repr(bias->sizes()));
    check_float32(*bias, op);
  }
  Tensor out = empty(out_shape, DType::Float);
  if (out.numel() == 0) return batched ? out : out.squeeze(0);
  if (is_pointwise(input, weight, stride, padding, groups)) {
    conv_pointwise_f32(input, weight, bias, out);
    return batched ? out : out.squeeze(0);
  }
  // Grouped weights are [G, OC/G, IC/G, k...] to oneDNN: the same bytes, one more dim.
  Shape wdims = weight.sizes().vec();
  if (groups > 1) {
    wdims[0] = oc / groups;
    wdims.insert(wdims.begin(), groups);
  }
  Tensor wview = weight.view(wdims);
  auto& eng = kernels::dnnl_engine();
  memory src_mem = kernels::as_memory(input), w_mem = kernels::as_memory(wview), dst_mem = kernels::as_memory(out);
  std::optional<memory> bias_mem;
  if (bias) bias_mem = kernels::as_memory(bias->contiguous());
  memory::desc bias_md = bias ? bias_mem->get_desc() : memory::desc();
  // forward_training, as torch's ideep asks: with `any` layouts oneDNN then picks its
  // channel-blocked layout (nChw16c on AVX-512, nChw8c on AVX2) and direct JIT kernels,
  // whose reorders from and to NCHW are cheap. forward_inference picks channels-last
  // brgemm kernels instead, and the two NCHW<->NHWC transposes per call made
  // convolutions 1.1x and depthwise ones 2x slower than torch (bench/ops_bench).
  // Depthwise convolutions take the same path (oneDNN's jit_dw kernel).
  dnnl::convolution_forward::desc d(dnnl::prop_kind::forward_training, dnnl::algorithm::convolution_direct,
                                    any_desc(input.sizes().vec()), any_desc(wdims), bias_md,
                                    any_desc(out_shape), kernels::to_dims(stride), kernels::to_dims(dil),
                                    kernels::to_dims(padding), kernels::to_dims(pad_r));
  dnnl::convolution_forward::primitive_desc pd(d, eng);
  run_with_reorders<decltype(pd), dnnl::convolution_forward>(pd, src_mem, w_mem, bias_mem, dst_mem);
  return batched ? out : out.squeeze(0);
}

}  // namespace

Tensor conv1d(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias, IntList stride,
              IntList padding, IntList dilation, int64_t groups) {
  return conv_nd(input, weight, bias, stride, padding, dilation, groups, 1, "conv1d");
}
Tensor conv2d(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias, IntList stride,
              IntList padding, IntList dilation, int64_t groups) {
  return conv_nd(input, weight, bias, stride, padding, dilation, groups, 2, "conv2d");
}
Tensor conv3d(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias, IntList stride,
              IntList padding, IntList dilation, int64_t groups) {
  return conv_nd(input, weight, bias, stride, padding, dilation, groups, 3, "conv3d");
}

Tensor conv2d_padding(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias,
                      IntList stride, std::string_view padding, IntList dilation, int64_t groups) {
  if (padding == "valid") return conv2d(input, weight, bias, stride, IntList{0}, dilation, groups);
  TL_CHECK(padding == "same", ValueError, "Invalid padding string: '{}'", padding);
  Shape st = expand_param(stride, 2, "stride", "conv2d");
  TL_CHECK(st[0] == 1 && st[1] == 1, ValueError, "padding='same' is not supported for strided convolutions");
  Shape dil = expand_param(dilation, 2, "dilation", "conv2d");
  // torch pads total = d*(k-1) per dim, the odd remainder on the right: pad the input
  // by one extra row/column there, then run with symmetric padding.
  Shape sym(2), extra(2);
  for (int i = 0; i < 2; ++i) {
    int64_t total = dil[static_cast<size_t>(i)] * (weight.size(2 + i) - 1);
    sym[static_cast<size_t>(i)] = total / 2;
    extra[static_cast<size_t>(i)] = total % 2;
  }
  Tensor x = input;
  if (extra[0] || extra[1]) {
    Shape padded = input.sizes().vec();
    padded[padded.size() - 2] += extra[0];
    padded[padded.size() - 1] += extra[1];
    x = zeros(padded, input.dtype());
    x.narrow(-2, 0, input.size(-2)).narrow(-1, 0, input.size(-1)).copy_(input);
  }
  return conv2d(x, weight, bias, {1, 1}, sym, dil, groups);
}

namespace {

// Transposed convolution over `nsp` spatial dims on oneDNN's deconvolution.
Tensor conv_transpose_nd(const Tensor& input_in, const Tensor& weight, const std::optional<Tensor>& bias,
                         IntList stride_in, IntList padding_in, IntList output_padding_in, int64_t groups,
                         IntList dilation_in, int64_t nsp, const char* op) {
  const int64_t wdim = nsp + 2;
  TL_CHECK(weight.dim() == wdim, ValueError, "{}: expected weight to be {}-dimensional, but got {}-dimensional weight", op,
           wdim, weight.dim());
  bool batched = input_in.dim() == wdim;
  TL_CHECK(batched || input_in.dim() == wdim - 1, ValueError,
           "Expected {}D (unbatched) or {}D (batched) input to {}, but got input of size: {}", wdim - 1, wdim, op,
           shape_repr(input_in.sizes()));
  TL_CHECK(groups > 0, ValueError, "non-positive groups is not supported");
  Tensor input = (batched ? input_in : input_in.unsqueeze(0)).contiguous();
  Shape stride = expand_param(stride_in, nsp, "stride", op), padding = expand_param(padding_in, nsp, "padding", op);
  Shape outpad = expand_param(output_padding_in, nsp, "output_padding", op);
  Shape dilation = expand_param(dilation_in, nsp, "dilation", op);
  check_conv_params(stride, padding, dilation, /*transposed=*/true);
  int64_t n = input.size(0), ic = input.size(1);
  TL_CHECK(ic == weight.size(0), ValueError,
           "Given transposed=1, weight of size {}, expected input{} to have {} channels, but got {} channels "
           "instead",
           shape_repr(weight.sizes()), shape_repr(input.sizes()), weight.size(0), ic);
  TL_CHECK(ic % groups == 0, ValueError,
           "Given groups={}, expected weight to be divisible by {} at dimension 0, but got weight of size {} instead",
           groups, groups, shape_repr(weight.sizes()));
  int64_t oc = weight.size(1) * groups;
  Shape out_shape{n, oc}, pad_r(static_cast<size_t>(nsp)), dil(static_cast<size_t>(nsp));
  // torch runs 1-d as 2-d, so its message names a height of output padding 0, stride 1.
  bool outpad_ok = true;
  for (size_t i = 0; i < static_cast<size_t>(nsp); ++i) outpad_ok = outpad_ok && (outpad[i] < stride[i] || outpad[i] < dilation[i]);
  if (!outpad_ok) {
    static const char* names[] = {"depth", "height", "width"};
    Shape op2 = outpad, st2 = stride, di2 = dilation;
    if (nsp == 1) {
      op2.insert(op2.begin(), 0);
      st2.insert(st2.begin(), 1);
      di2.insert(di2.begin(), 1);
    }
    size_t first = 3 - op2.size();
    std::string a, b, c;
    for (size_t i = 0; i < op2.size(); ++i) {
      a += fmt::format(" output_padding_{}: {}", names[first + i], op2[i]);
      b += fmt::format(" stride_{}: {}", names[first + i], st2[i]);
      c += fmt::format(" dilation_{}: {}", names[first + i], di2[i]);
    }
    TL_FAIL(ValueError, "output padding must be smaller than either stride or dilation, but got{}{}{}", a, b, c);
  }
  for (size_t i = 0; i < static_cast<size_t>(nsp); ++i) {
    int64_t in = input.size(2 + static_cast<int64_t>(i)), k = weight.size(2 + static_cast<int64_t>(i));
    out_shape.push_back((in - 1) * stride[i] - 2 * padding[i] + dilation[i] * (k - 1) + outpad[i] + 1);
    pad_r[i] = padding[i] - outpad[i];
    dil[i] = dilation[i] - 1;
  }
  check_float32(input_in, op);
  check_float32(weight, op);
  if (bias) {
    TL_CHECK(bias->dim() == 1 && bias->size(0) == oc, ValueError, "{}: expected bias of shape [{}], got {}", op, oc,
             shape_repr(bias->sizes()));
    check_float32(*bias, op);
  }
  for (int64_t s : out_shape) {
    TL_CHECK(s >= 0, ValueError, "{}: computed output size {} is negative for input of size {}", op,
             shape_repr(out_shape), shape_repr(input.sizes()));
  }
  Tensor out = empty(out_shape, DType::Float);
  if (out.numel() == 0) return batched ? out : out.squeeze(0);
  if (input.numel() == 0) {
    out.fill_(0);
    return batched ? out : out.squeeze(0);
  }
  // torch's [IC, OC/G, k...] is [G, IC/G, OC/G, k...]; oneDNN wants [G, OC/G, IC/G, k...]
  // (or [OC, IC, k...] without groups): a permuted view of the same bytes.
  Tensor w = weight.contiguous();
  Shape gdims{groups, ic / groups};
  for (int64_t d = 1; d < weight.dim(); ++d) gdims.push_back(weight.size(d));
  Tensor wview = w.view(gdims).transpose(1, 2);
  if (groups == 1) wview = wview.squeeze(0);
  auto& eng = kernels::dnnl_engine();
  std::optional<memory> bias_mem;
  if (bias) bias_mem = kernels::as_memory(bias->contiguous());
  memory::desc bias_md = bias ? bias_mem->get_desc() : memory::desc();
  dnnl::deconvolution_forward::desc d(dnnl::prop_kind::forward_inference, dnnl::algorithm::deconvolution_direct,
                                      any_desc(input.sizes().vec()), any_desc(wview.sizes().vec()), bias_md,
                                      any_desc(out_shape), kernels::to_dims(stride), kernels::to_dims(dil),
                                      kernels::to_dims(padding), kernels::to_dims(pad_r));
  dnnl::deconvolution_forward::primitive_desc pd(d, eng);
  run_with_reorders<decltype(pd), dnnl::deconvolution_forward>(pd, kernels::as_memory(input), kernels::as_memory(wview),
                                                                bias_mem, kernels::as_memory(out));
  return batched ? out : out.squeeze(0);
}

}  // namespace

Tensor conv_transpose1d(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias, IntList stride,
                        IntList padding, IntList output_padding, int64_t groups, IntList dilation) {
  return conv_transpose_nd(input, weight, bias, stride, padding, output_padding, groups, dilation, 1,
                           "conv_transpose1d");
}
Tensor conv_transpose2d(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias, IntList stride,
                        IntList padding, IntList output_padding, int64_t groups, IntList dilation) {
  return conv_transpose_nd(input, weight, bias, stride, padding, output_padding, groups, dilation, 2,
                           "conv_transpose2d");
}
Tensor conv_transpose3d(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias, IntList stride,
                        IntList padding, IntList output_padding, int64_t groups, IntList dilation) {
  return conv_transpose_nd(input, weight, bias, stride, padding, output_padding, groups, dilation, 3,
                           "conv_transpose3d");
}

namespace {

using ConvFn = Tensor (*)(const Tensor&, const Tensor&, const std::optional<Tensor>&, IntList, IntList, IntList,
                          int64_t);

// conv1d/conv3d with padding "valid" or "same": "same" pads (dilation * (k - 1)) in
// total per spatial dimension, the odd one on the right as torch does, and needs
// stride 1. Symmetric totals run as the convolution's own padding; others pad the
// input first.
Tensor conv_padding_string(ConvFn conv, const Tensor& input, const Tensor& w, const std::optional<Tensor>& bias,
                           IntList stride_in, std::string_view padding, IntList dilation_in, int64_t groups) {
  const size_t spatial = static_cast<size_t>(w.dim() - 2);
  auto expand = [&](IntList v) { return v.size() == 1 ? Shape(spatial, v[0]) : v.vec(); };
  const Shape stride = expand(stride_in), dilation = expand(dilation_in);
  const Shape zeros_pad(spatial, 0);
  if (padding == "valid") return conv(input, w, bias, stride, zeros_pad, dilation, groups);
  TL_CHECK(padding == "same", ValueError, "Invalid padding string: '{}'", padding);
  for (int64_t st : stride) {
    TL_CHECK(st == 1, ValueError, "padding='same' is not supported for strided convolutions");
  }
  Shape pads;  // F.pad order: last dimension first, (left, right)
  bool symmetric = true;
  Shape sym(spatial);
  for (size_t i = spatial; i-- > 0;) {
    const int64_t total = dilation[i] * (w.size(static_cast<int64_t>(i) + 2) - 1);
    pads.push_back(total / 2);
    pads.push_back(total - total / 2);
    symmetric = symmetric && total % 2 == 0;
    sym[i] = total / 2;
  }
  if (symmetric) return conv(input, w, bias, stride, sym, dilation, groups);
  return conv(pad(input, pads), w, bias, stride, zeros_pad, dilation, groups);
}

}  // namespace

Tensor conv1d_padding(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias, IntList stride,
                      std::string_view padding, IntList dilation, int64_t groups) {
  return conv_padding_string(&conv1d, input, weight, bias, stride, padding, dilation, groups);
}
Tensor conv3d_padding(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias, IntList stride,
                      std::string_view padding, IntList dilation, int64_t groups) {
  return conv_padding_string(&conv3d, input, weight, bias, stride, padding, dilation, groups);
}

Tensor convolution(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias, IntList stride,
                   IntList padding, IntList dilation, bool transposed, IntList output_padding, int64_t groups) {
  if (transposed) {
    TL_CHECK(weight.dim() == 4, UnsupportedError,
             "convolution: transposed convolution with a {}-d weight is not supported", weight.dim());
    return conv_transpose2d(input, weight, bias, stride, padding, output_padding, groups, dilation);
  }
  switch (weight.dim()) {
    case 3: return conv1d(input, weight, bias, stride, padding, dilation, groups);
    case 4: return conv2d(input, weight, bias, stride, padding, dilation, groups);
    case 5: return conv3d(input, weight, bias, stride, padding, dilation, groups);
    default: break;
  }
  TL_FAIL(ValueError, "convolution: expected a 3-d, 4-d or 5-d weight, got {}-d", weight.dim());
}

// --- pooling -------------------------------------------------------------------------

namespace {

// torch's pooling_output_shape: floor or ceil, and a ceil window must start inside
// the input or left padding.
int64_t pool_out_size(int64_t in, int64_t k, int64_t pad, int64_t stride, int64_t dil, bool ceil_mode) {
  int64_t num = in + 2 * pad - dil * (k - 1) - 1 + (ceil_mode ? stride - 1 : 0);
  int64_t out = num / stride + ((num % stride != 0 && num < 0) ? 0 : 1);  // floor division, as div_rtn
  if (ceil_mode && (out - 1) * stride >= in + pad) --out;
  return out;
}

// One output row of a 2-d max pool: tap by tap, the window column j updates every output
// column whose input column lies inside the row, so the inner loop runs along the row
// (it vectorises) instead of over a 3x3 window per output element. NaN wins, as in torch.
template <typename T, typename M>
TL_VECTOR_CLONES void max_pool_row(const T* plane, int64_t h, int64_t w, int64_t y, int64_t ow, const int64_t* k,
                                   const int64_t* s, const int64_t* pad, const int64_t* dil, M* __restrict best,
                                   T* __restrict out) {
  for (int64_t x = 0; x < ow; ++x) best[x] = -std::numeric_limits<M>::infinity();
  for (int64_t i = 0; i < k[0]; ++i) {
    const int64_t iy = y * s[0] - pad[0] + i * dil[0];
    if (iy < 0 || iy >= h) continue;
    const T* __restrict irow = plane + iy * w;
    for (int64_t j = 0; j < k[1]; ++j) {
      const int64_t off = j * dil[1] - pad[1];
      // Output columns x whose input column x * s + off lies in [0, w).
      const int64_t lo = off >= 0 ? 0 : (-off + s[1] - 1) / s[1];
      const int64_t hi = off > w - 1 ? 0 : std::min<int64_t>(ow, (w - 1 - off) / s[1] + 1);
      if (s[1] == 1) {
        for (int64_t x = lo; x < hi; ++x) {
          const M v = static_cast<M>(irow[x + off]);
          best[x] = (v > best[x] || v != v) ? v : best[x];
        }
      } else {
        for (int64_t x = lo; x < hi; ++x) {
          const M v = static_cast<M>(irow[x * s[1] + off]);
          best[x] = (v > best[x] || v != v) ? v : best[x];
        }
      }
    }
  }
  for (int64_t x = 0; x < ow; ++x) out[x] = static_cast<T>(best[x]);
}

struct Pool2d {
  Tensor x;  // [planes, H, W] contiguous
  int64_t planes, h, w;
  Shape lead;  // sizes before H, W
};

Pool2d as_planes(const Tensor& self, const char* op) {
  TL_CHECK(self.dim() == 3 || self.dim() == 4, ValueError,
           "{}: Expected 3D or 4D (batch mode) tensor for input, but got: {}", op, shape_repr(self.sizes()));
  Pool2d p;
  p.h = self.size(-2);
  p.w = self.size(-1);
  p.lead.assign(self.sizes().begin(), self.sizes().end() - 2);
  p.planes = 1;
  for (int64_t s : p.lead) p.planes *= s;
  p.x = self.contiguous().reshape({p.planes, p.h, p.w});
  return p;
}

Shape with_hw(const Shape& lead, int64_t oh, int64_t ow) {
  Shape s = lead;
  s.push_back(oh);
  s.push_back(ow);
  return s;
}

void check_pool_float(DType d, const char* kernel) {
  TL_CHECK(is_floating(d) && d != DType::Half, UnsupportedError, "\"{}\" not implemented for '{}'", kernel,
           dtype_info(d).scalar_type_name);
}

}  // namespace

Tensor max_pool2d(const Tensor& self, IntList kernel_size, IntList stride_in, IntList padding_in, IntList dilation_in,
                  bool ceil_mode) {
  const char* op = "max_pool2d";
  Shape k = expand_param(kernel_size, 2, "kernel_size", op);
  Shape s = stride_in.empty() ? k : expand_param(stride_in, 2, "stride", op);
  Shape pad = expand_param(padding_in, 2, "padding", op);
  Shape dil = expand_param(dilation_in, 2, "dilation", op);
  for (size_t i = 0; i < 2; ++i) {
    // torch's pooling_output_shape checks (a zero stride would divide by zero below).
    TL_CHECK(s[i] != 0, ValueError, "stride should not be zero");
    TL_CHECK(pad[i] >= 0, ValueError, "pad must be non-negative, but got pad: {}", pad[i]);
    TL_CHECK(pad[i] <= k[i] / 2, ValueError, "pad should be at most half of effective kernel size, but got pad={}, kernel_size={} and dilation={}",
             pad[i], k[i], dil[i]);
  }
  Pool2d p = as_planes(self, op);
  int64_t oh = pool_out_size(p.h, k[0], pad[0], s[0], dil[0], ceil_mode);
  int64_t ow = pool_out_size(p.w, k[1], pad[1], s[1], dil[1], ceil_mode);
  TL_CHECK(oh > 0 && ow > 0, ValueError, "Given input size: ({}x{}x{}). Calculated output size: ({}x{}x{}). Output size is too small",
           self.size(-3), p.h, p.w, self.size(-3), oh, ow);
  Tensor out = empty(with_hw(p.lead, oh, ow), self.dtype());
  if (out.numel() == 0) return out;
  check_pool_float(self.dtype(), "max_pool2d");
  kernels::dispatch_floating(self.dtype(), op, [&]<typename T>() {
    using M = kernels::opmath_t<T>;
    const T* in = p.x.data<T>();
    T* o = out.data<T>();
    parallel_for(0, p.planes, 1, [&](int64_t b, int64_t e) {
      std::vector<M> best(static_cast<size_t>(ow));
      for (int64_t pl = b; pl < e; ++pl) {
        const T* plane = in + pl * p.h * p.w;
        for (int64_t y = 0; y < oh; ++y) {
          max_pool_row<T, M>(plane, p.h, p.w, y, ow, k.data(), s.data(), pad.data(), dil.data(), best.data(),
                             o + (pl * oh + y) * ow);
        }
      }
    });
  });
  return out;
}

Tensor avg_pool2d(const Tensor& self, IntList kernel_size, IntList stride_in, IntList padding_in, bool ceil_mode,
                  bool count_include_pad, std::optional<int64_t> divisor_override) {
  const char* op = "avg_pool2d";
  Shape k = expand_param(kernel_size, 2, "kernel_size", op);
  Shape s = stride_in.empty() ? k : expand_param(stride_in, 2, "stride", op);
  Shape pad = expand_param(padding_in, 2, "padding", op);
  for (size_t i = 0; i < 2; ++i) {
    TL_CHECK(s[i] != 0, ValueError, "stride should not be zero");
    TL_CHECK(pad[i] >= 0, ValueError, "pad must be non-negative, but got pad: {}", pad[i]);
    TL_CHECK(pad[i] <= k[i] / 2, ValueError, "pad should be at most half of kernel size, but got pad={} and kernel_size={}",
             pad[i], k[i]);
  }
  TL_CHECK(!divisor_override || *divisor_override != 0, ValueError, "divisor must be not zero");
  Pool2d p = as_planes(self, op);
  int64_t oh = pool_out_size(p.h, k[0], pad[0], s[0], 1, ceil_mode);
  int64_t ow = pool_out_size(p.w, k[1], pad[1], s[1], 1, ceil_mode);
  TL_CHECK(oh > 0 && ow > 0, ValueError, "Given input size: ({}x{}x{}). Calculated output size: ({}x{}x{}). Output size is too small",
           self.size(-3), p.h, p.w, self.size(-3), oh, ow);
  Tensor out = empty(with_hw(p.lead, oh, ow), self.dtype());
  if (out.numel() == 0) return out;
  // torch 1.13 averages floating types (not float16) and int64 only.
  TL_CHECK((is_floating(self.dtype()) && self.dtype() != DType::Half) || self.dtype() == DType::Long,
           UnsupportedError, "\"avg_pool2d\" not implemented for '{}'", dtype_info(self.dtype()).scalar_type_name);
  dispatch_real(self.dtype(), op, [&]<typename T>() {
    using M = std::conditional_t<std::is_floating_point_v<kernels::opmath_t<T>>, kernels::opmath_t<T>, int64_t>;
    const T* in = p.x.data<T>();
    T* o = out.data<T>();
    if constexpr (std::is_floating_point_v<M>) {
      // A window that is the whole plane (ResNet's 7x7 head): no padding, one output.
      if (k[0] == p.h && k[1] == p.w && pad[0] == 0 && pad[1] == 0) {
        kernels::parallel_divided_row_sums<M>(in, p.planes, p.h * p.w, static_cast<M>(divisor_override.value_or(p.h * p.w)), o);
        return;
      }
    }
    parallel_for(0, p.planes, 1, [&](int64_t b, int64_t e) {
      for (int64_t pl = b; pl < e; ++pl) {
        const T* plane = in + pl * p.h * p.w;
        for (int64_t y = 0; y < oh; ++y) {
          for (int64_t x = 0; x < ow; ++x) {
            int64_t y0 = y * s[0] - pad[0], x0 = x * s[1] - pad[1];
            int64_t y1 = std::min(y0 + k[0], p.h + pad[0]), x1 = std::min(x0 + k[1], p.w + pad[1]);
            int64_t pool_size = (y1 - y0) * (x1 - x0);
            y0 = std::max<int64_t>(y0, 0);
            x0 = std::max<int64_t>(x0, 0);
            y1 = std::min(y1, p.h);
            x1 = std::min(x1, p.w);
            M acc = 0;
            for (int64_t iy = y0; iy < y1; ++iy) {
              for (int64_t ix = x0; ix < x1; ++ix) acc += static_cast<M>(plane[iy * p.w + ix]);
            }
            int64_t divisor = divisor_override ? *divisor_override
                              : count_include_pad ? pool_size
                                                  : (y1 - y0) * (x1 - x0);
            o[(pl * oh + y) * ow + x] = static_cast<T>(acc / static_cast<M>(divisor));
          }
        }
      }
    });
  });
  return out;
}

namespace {

// The max of each of `planes` contiguous float planes of n elements and torch's index for
// it: the first maximum, or the last NaN when there is one. Eight lanes find the max (and
// whether any NaN is there), then a scan finds where it is; the branchy scalar loop's
// compare-and-jump per element was 1.0-1.2x torch on the classifier heads' 7x7 planes, and
// a scalar branch-free form is one serial chain of max operations (slower still).
TL_VECTOR_CLONES void global_max_planes_f32(const float* in, int64_t planes, int64_t n, float* out,
                                            int64_t* out_idx) {
  typedef float F8 __attribute__((vector_size(32)));
  typedef int32_t I8 __attribute__((vector_size(32)));
  constexpr float kNegInf = -std::numeric_limits<float>::infinity();
  for (int64_t pl = 0; pl < planes; ++pl) {
    const float* src = in + pl * n;
    F8 m = {kNegInf, kNegInf, kNegInf, kNegInf, kNegInf, kNegInf, kNegInf, kNegInf};
    I8 nan = {};
    int64_t i = 0;
    for (; i + 8 <= n; i += 8) {
      F8 v;
      __builtin_memcpy(&v, src + i, sizeof v);
      m = v > m ? v : m;
      nan |= v != v;
    }
    float best = kNegInf;
    bool any_nan = false;
    for (int l = 0; l < 8; ++l) {
      best = m[l] > best ? m[l] : best;
      any_nan |= nan[l] != 0;
    }
    for (; i < n; ++i) {
      best = src[i] > best ? src[i] : best;
      any_nan |= src[i] != src[i];
    }
    int64_t at = 0;
    if (any_nan) {
      at = n - 1;
      while (!(src[at] != src[at])) --at;
    } else {
      while (at < n - 1 && !(src[at] == best)) ++at;  // all -inf: index 0, as torch
    }
    out[pl] = src[at];  // the element itself: of -0.0 and 0.0 the first one's sign
    out_idx[pl] = at;
  }
}

// Adaptive windows: [floor(o*in/out), ceil((o+1)*in/out)).
int64_t adaptive_start(int64_t o, int64_t in, int64_t out) { return (o * in) / out; }
int64_t adaptive_end(int64_t o, int64_t in, int64_t out) { return ((o + 1) * in + out - 1) / out; }

}  // namespace

Tensor adaptive_avg_pool2d(const Tensor& self, IntList output_size) {
  const char* op = "adaptive_avg_pool2d";
  TL_CHECK(output_size.size() == 2, ValueError, "adaptive_avg_pool2d: output_size must be 2");
  Pool2d p = as_planes(self, op);
  int64_t oh = output_size[0], ow = output_size[1];
  Tensor out = empty(with_hw(p.lead, oh, ow), self.dtype());
  if (out.numel() == 0) return out;
  // A 1x1 output is a mean in torch, which has a float16 kernel; other sizes do not.
  if (!(oh == 1 && ow == 1 && self.dtype() == DType::Half)) check_pool_float(self.dtype(), "adaptive_avg_pool2d");
  kernels::dispatch_floating(self.dtype(), op, [&]<typename T>() {
    using M = kernels::opmath_t<T>;
    const T* in = p.x.data<T>();
    T* o = out.data<T>();
    if (oh == 1 && ow == 1) {
      // Global average (the classifier heads): every plane's sum in one call per thread.
      kernels::parallel_divided_row_sums<M>(in, p.planes, p.h * p.w, static_cast<M>(p.h * p.w), o);
      return;
    }
    parallel_for(0, p.planes, 1, [&](int64_t b, int64_t e) {
      for (int64_t pl = b; pl < e; ++pl) {
        const T* plane = in + pl * p.h * p.w;
        for (int64_t y = 0; y < oh; ++y) {
          int64_t y0 = adaptive_start(y, p.h, oh), y1 = adaptive_end(y, p.h, oh);
          for (int64_t x = 0; x < ow; ++x) {
            int64_t x0 = adaptive_start(x, p.w, ow), x1 = adaptive_end(x, p.w, ow);
            M acc = 0;
            for (int64_t iy = y0; iy < y1; ++iy) {
              for (int64_t ix = x0; ix < x1; ++ix) acc += static_cast<M>(plane[iy * p.w + ix]);
            }
            o[(pl * oh + y) * ow + x] = static_cast<T>(acc / static_cast<M>((y1 - y0) * (x1 - x0)));
          }
        }
      }
    });
  });
  return out;
}

std::tuple<Tensor, Tensor> adaptive_max_pool2d(const Tensor& self, IntList output_size) {
  const char* op = "adaptive_max_pool2d";
  TL_CHECK(output_size.size() == 2, ValueError, "adaptive_max_pool2d: internal error: output_size.size() must be 2");
  Pool2d p = as_planes(self, op);
  int64_t oh = output_size[0], ow = output_size[1];
  Tensor out = empty(with_hw(p.lead, oh, ow), self.dtype());
  Tensor idx = empty(with_hw(p.lead, oh, ow), DType::Long);
  if (out.numel() == 0) return {out, idx};
  check_pool_float(self.dtype(), "adaptive_max_pool2d");
  kernels::dispatch_floating(self.dtype(), op, [&]<typename T>() {
    using M = kernels::opmath_t<T>;
    const T* in = p.x.data<T>();
    T* o = out.data<T>();
    int64_t* ix_out = idx.data<int64_t>();
    if constexpr (std::is_same_v<T, float>) {
      if (oh == 1 && ow == 1) {
        const int64_t hw = p.h * p.w;
        parallel_for(0, p.planes, std::max<int64_t>(1, kernels::kGrainSize / std::max<int64_t>(hw, 1)),
                     [&](int64_t b, int64_t e) { global_max_planes_f32(in + b * hw, e - b, hw, o + b, ix_out + b); });
        return;
      }
    }
    parallel_for(0, p.planes, 1, [&](int64_t b, int64_t e) {
      for (int64_t pl = b; pl < e; ++pl) {
        const T* plane = in + pl * p.h * p.w;
        for (int64_t y = 0; y < oh; ++y) {
          int64_t y0 = adaptive_start(y, p.h, oh), y1 = adaptive_end(y, p.h, oh);
          for (int64_t x = 0; x < ow; ++x) {
            int64_t x0 = adaptive_start(x, p.w, ow), x1 = adaptive_end(x, p.w, ow);
            M best = -std::numeric_limits<M>::infinity();
            int64_t best_i = y0 * p.w + x0;
            for (int64_t iy = y0; iy < y1; ++iy) {
              for (int64_t ix = x0; ix < x1; ++ix) {
                // torch's test: every NaN is taken, so the last one in the window wins.
                M v = static_cast<M>(plane[iy * p.w + ix]);
                if (v > best || v != v) {
                  best = v;
                  best_i = iy * p.w + ix;
                }
              }
            }
            o[(pl * oh + y) * ow + x] = static_cast<T>(best);
            ix_out[(pl * oh + y) * ow + x] = best_i;
          }
        }
      }
    });
  });
  return {out, idx};
}

}  // namespace torchlet

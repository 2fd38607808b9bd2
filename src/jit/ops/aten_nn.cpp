// Linear algebra and neural-network operators: mm/bmm/matmul/addmm/linear,
// convolutions (incl. aten::_convolution and aten::convolution, which scripted and
// traced modules call), normalisation, softmax, dropout, embedding and
// upsampling. Adapters pop the schema's arguments, call the ops.h kernel and push its
// returns; argument checks with torch's messages live in the kernels.
#include <torchlet/ops.h>

#include "jit/ops/ops_util.h"
#include "tensor/kernels/out_variants.h"

namespace torchlet::jit::ops {
namespace {

// --- matrix products ----------------------------------------------------------------------
template <Tensor (*F)(const Tensor&, const Tensor&)>
void matprod(Stack& s) {
  Tensor b = pop_tensor(s);
  Tensor a = pop_tensor(s);
  push(s, F(a, b));
}
Tensor addmm_impl(Stack& s, Tensor* self_out = nullptr) {
  Scalar alpha = pop_scalar(s);
  Scalar beta = pop_scalar(s);
  Tensor m2 = pop_tensor(s);
  Tensor m1 = pop_tensor(s);
  Tensor self = pop_tensor(s);
  if (self_out) *self_out = self;
  return torchlet::addmm(self, m1, m2, beta, alpha);
}
void addmm(Stack& s) { push(s, addmm_impl(s)); }
void addmm_(Stack& s) {
  Tensor self;
  Tensor r = addmm_impl(s, &self);
  assign_inplace(self, r, "addmm_");
  push(s, self);
}
Tensor linear_impl(Stack& s) {
  auto bias = pop_opt_tensor(s);
  Tensor w = pop_tensor(s);
  return torchlet::linear(pop_tensor(s), w, bias);
}
void linear(Stack& s) { push(s, linear_impl(s)); }

// --- convolution ----------------------------------------------------------------------------
using ConvFn = Tensor (*)(const Tensor&, const Tensor&, const std::optional<Tensor>&, IntList, IntList, IntList,
                          int64_t);
template <ConvFn F>
void conv(Stack& s) {
  int64_t groups = pop_int(s);
  auto dilation = pop_int_list(s);
  auto padding = pop_int_list(s);
  auto stride = pop_int_list(s);
  auto bias = pop_opt_tensor(s);
  Tensor w = pop_tensor(s);
  push(s, F(pop_tensor(s), w, bias, stride, padding, dilation, groups));
}
// conv{1,2,3}d.padding: "same" / "valid". The kernel takes the 2-d form; 1-d and 3-d
// inputs are refused by name until their kernels take a padding string.
void conv2d_padding(Stack& s) {
  int64_t groups = pop_int(s);
  auto dilation = pop_int_list(s);
  std::string padding = pop_str(s);
  auto stride = pop_int_list(s);
  auto bias = pop_opt_tensor(s);
  Tensor w = pop_tensor(s);
  push(s, torchlet::conv2d_padding(pop_tensor(s), w, bias, stride, padding, dilation, groups));
}
void conv_transpose2d(Stack& s) {
  auto dilation = pop_int_list(s);
  int64_t groups = pop_int(s);
  auto output_padding = pop_int_list(s);
  auto padding = pop_int_list(s);
  auto stride = pop_int_list(s);
  auto bias = pop_opt_tensor(s);
  Tensor w = pop_tensor(s);
  push(s, torchlet::conv_transpose2d(pop_tensor(s), w, bias, stride, padding, output_padding, groups, dilation));
}
// aten::_convolution / aten::convolution: the dimension comes from the weight.
Tensor convolution_impl(const Tensor& input, const Tensor& w, const std::optional<Tensor>& bias, IntList stride,
                        IntList padding, IntList dilation, bool transposed, IntList output_padding, int64_t groups) {
  if (transposed) {
    TL_CHECK(w.dim() == 4, UnsupportedError, "convolution: transposed convolution with a {}-d weight is not supported",
             w.dim());
    return torchlet::conv_transpose2d(input, w, bias, stride, padding, output_padding, groups, dilation);
  }
  switch (w.dim()) {
    case 3: return torchlet::conv1d(input, w, bias, stride, padding, dilation, groups);
    case 4: return torchlet::conv2d(input, w, bias, stride, padding, dilation, groups);
    case 5: return torchlet::conv3d(input, w, bias, stride, padding, dilation, groups);
    default: break;
  }
  TL_FAIL(ValueError, "convolution: expected a 3-d, 4-d or 5-d weight, got {}-d", w.dim());
}
// Pops (input, weight, bias, stride, padding, dilation, transposed, output_padding,
// groups) after `extra` trailing flags that do not change the result.
Tensor convolution_pop(Stack& s, size_t extra) {
  drop(s, extra);
  int64_t groups = pop_int(s);
  auto output_padding = pop_int_list(s);
  bool transposed = pop_bool(s);
  auto dilation = pop_int_list(s);
  auto padding = pop_int_list(s);
  auto stride = pop_int_list(s);
  auto bias = pop_opt_tensor(s);
  Tensor w = pop_tensor(s);
  return convolution_impl(pop_tensor(s), w, bias, stride, padding, dilation, transposed, output_padding, groups);
}
template <size_t kExtra>
void convolution(Stack& s) { push(s, convolution_pop(s, kExtra)); }

// --- normalisation ------------------------------------------------------------------------
void batch_norm(Stack& s) {
  pop_bool(s);  // cudnn_enabled
  double eps = pop_double(s);
  double momentum = pop_double(s);
  bool training = pop_bool(s);
  auto var = pop_opt_tensor(s);
  auto mean = pop_opt_tensor(s);
  auto bias = pop_opt_tensor(s);
  auto weight = pop_opt_tensor(s);
  Tensor input = pop_tensor(s);
  if (!training && is_dying(input) && is_floating(input.dtype())) {  // Note [Reusing a dying input]
    kernels::batch_norm_into(input, input, weight, bias, mean, var, eps);
    push(s, input);
    return;
  }
  push(s, torchlet::batch_norm(input, weight, bias, mean, var, training, momentum, eps));
}
// native_batch_norm also returns the batch's mean and invstd (empty in eval mode).
void native_batch_norm(Stack& s) {
  double eps = pop_double(s);
  double momentum = pop_double(s);
  bool training = pop_bool(s);
  auto var = pop_opt_tensor(s);
  auto mean = pop_opt_tensor(s);
  auto bias = pop_opt_tensor(s);
  auto weight = pop_opt_tensor(s);
  Tensor input = pop_tensor(s);
  auto [out, save_mean, save_invstd] = torchlet::native_batch_norm(input, weight, bias, mean, var, training, momentum, eps);
  push(s, out, save_mean, save_invstd);
}
void layer_norm(Stack& s) {
  pop_bool(s);  // cudnn_enable
  double eps = pop_double(s);
  auto bias = pop_opt_tensor(s);
  auto weight = pop_opt_tensor(s);
  auto shape = pop_int_list(s);
  push(s, torchlet::layer_norm(pop_tensor(s), shape, weight, bias, eps));
}
// native_layer_norm also returns the mean and 1/sqrt(var + eps) over the normalised
// dimensions, shaped with those dimensions kept as 1.
void native_layer_norm(Stack& s) {
  double eps = pop_double(s);
  auto bias = pop_opt_tensor(s);
  auto weight = pop_opt_tensor(s);
  auto shape = pop_int_list(s);
  Tensor input = pop_tensor(s);
  Tensor out = torchlet::layer_norm(input, shape, weight, bias, eps);
  std::vector<int64_t> dims;
  for (size_t i = 0; i < shape.size(); ++i) dims.push_back(input.dim() - 1 - static_cast<int64_t>(i));
  Tensor mean = torchlet::mean(input, dims, true);
  Tensor rstd = torchlet::rsqrt(torchlet::add(torchlet::var(input, dims, 0, true), Scalar(eps)));
  push(s, out, mean, rstd);
}
void group_norm(Stack& s) {
  pop_bool(s);  // cudnn_enabled
  double eps = pop_double(s);
  auto bias = pop_opt_tensor(s);
  auto weight = pop_opt_tensor(s);
  int64_t groups = pop_int(s);
  push(s, torchlet::group_norm(pop_tensor(s), groups, weight, bias, eps));
}
// native_group_norm views the input as [N, C, HxW] by its arguments (not the input's
// own dimensions), normalises each of `group` groups of channels and also returns each
// group's mean and 1/sqrt(var + eps), shaped [N, group].
void native_group_norm(Stack& s) {
  const double eps = pop_double(s);
  const int64_t group = pop_int(s);
  const int64_t hxw = pop_int(s), c = pop_int(s), n = pop_int(s);
  auto bias = pop_opt_tensor(s);
  auto weight = pop_opt_tensor(s);
  Tensor input = pop_tensor(s);
  const auto product = static_cast<uint64_t>(n) * static_cast<uint64_t>(c) * static_cast<uint64_t>(hxw);
  // torch's checks, in its order and words (its TORCH_CHECK appends the suffix).
  constexpr const char* kSuffix =
      "  (Could this error message be improved?  If so, please report an enhancement request to PyTorch.)";
  TL_CHECK(input.is_contiguous(), ValueError, "Expected X.is_contiguous(memory_format) to be true, but got false.{}",
           kSuffix);
  TL_CHECK(n >= 0 && c >= 0 && hxw >= 0 && product == static_cast<uint64_t>(input.numel()), ValueError,
           "Expected X.numel() == N * C * HxW to be true, but got false.{}", kSuffix);
  TL_CHECK(group > 0 && c % group == 0, ValueError,
           "Expected number of channels in input to be divisible by num_groups, but got input of shape {} and "
           "num_groups={}",
           shape_repr(input.sizes()), group);
  for (const auto& [t, name] : {std::pair{&weight, "weight"}, std::pair{&bias, "bias"}})
    TL_CHECK(!*t || !(*t)->defined() || ((*t)->dim() == 1 && (*t)->numel() == c), ValueError,
             "Expected {} to be a vector of size equal to the number of channels in input, but got {} of shape {} and "
             "input of shape {}",
             name, name, shape_repr((*t)->sizes()), shape_repr(input.sizes()));
  const Tensor x = input.reshape({n, c, hxw});
  Tensor out = torchlet::group_norm(x, group, weight, bias, eps).reshape(input.sizes());
  const Tensor grouped = x.reshape({n, group, (c / group) * hxw});
  Tensor mean = torchlet::mean(grouped, {2});
  Tensor rstd = torchlet::rsqrt(torchlet::add(torchlet::var(grouped, {2}, 0), Scalar(eps)));
  push(s, out, mean, rstd);
}
void instance_norm(Stack& s) {
  bool cudnn = pop_bool(s);
  double eps = pop_double(s);
  double momentum = pop_double(s);
  bool use_input_stats = pop_bool(s);
  auto var = pop_opt_tensor(s);
  auto mean = pop_opt_tensor(s);
  auto bias = pop_opt_tensor(s);
  auto weight = pop_opt_tensor(s);
  push(s, torchlet::instance_norm(pop_tensor(s), weight, bias, mean, var, use_input_stats, momentum, eps, cudnn));
}

// --- softmax ---------------------------------------------------------------------------------
template <bool kLog>
Tensor softmax_impl(Stack& s) {
  auto dtype = pop_opt_dtype(s);
  int64_t dim = pop_int(s);
  Tensor t = pop_tensor(s);
  return kLog ? torchlet::log_softmax(t, dim, dtype) : torchlet::softmax(t, dim, dtype);
}
template <bool kLog>
void softmax(Stack& s) { push(s, softmax_impl<kLog>(s)); }
// aten::_softmax(self, dim, half_to_float): half_to_float asks for a float32 result
// from a float16 input.
template <bool kLog>
Tensor softmax_internal_impl(Stack& s) {
  bool half_to_float = pop_bool(s);
  int64_t dim = pop_int(s);
  Tensor t = pop_tensor(s);
  std::optional<DType> d = half_to_float ? std::optional<DType>(DType::Float) : std::nullopt;
  return kLog ? torchlet::log_softmax(t, dim, d) : torchlet::softmax(t, dim, d);
}
template <bool kLog>
void softmax_internal(Stack& s) { push(s, softmax_internal_impl<kLog>(s)); }

// --- dropout ---------------------------------------------------------------------------------
using DropoutFn = Tensor (*)(const Tensor&, double, bool);
template <DropoutFn F>
void dropout(Stack& s) {
  bool train = pop_bool(s);
  double p = pop_double(s);
  push(s, F(pop_tensor(s), p, train));
}
// The in-place forms write the result into self (torch multiplies in place: the same
// values).
template <DropoutFn F>
void dropout_inplace(Stack& s) {
  bool train = pop_bool(s);
  double p = pop_double(s);
  Tensor self = pop_tensor(s);
  Tensor r = F(self, p, train);
  if (r.data_ptr() != self.data_ptr()) self.copy_(r);
  push(s, self);
}

// --- embedding, upsampling ---------------------------------------------------------------------
Tensor embedding_impl(Stack& s) {
  pop_bool(s);  // sparse: a gradient option
  pop_bool(s);  // scale_grad_by_freq: a gradient option
  int64_t padding_idx = pop_int(s);
  Tensor indices = pop_tensor(s);
  return torchlet::embedding(pop_tensor(s), indices, padding_idx);
}
void embedding(Stack& s) { push(s, embedding_impl(s)); }
// The output size of upsample_*.vec: given, or floor(input size * scale factor).
std::vector<int64_t> upsample_size(const Tensor& input, const std::optional<std::vector<int64_t>>& size,
                                   const std::optional<std::vector<double>>& scales, const char* op) {
  TL_CHECK(size.has_value() != scales.has_value(), ValueError,
           "{}: must specify exactly one of output_size and scale_factors", op);
  if (size) return *size;
  std::vector<int64_t> out;
  for (size_t i = 0; i < scales->size(); ++i) {
    int64_t in = input.size(input.dim() - static_cast<int64_t>(scales->size()) + static_cast<int64_t>(i));
    out.push_back(static_cast<int64_t>(std::floor(static_cast<double>(in) * (*scales)[i])));
  }
  return out;
}
std::optional<std::vector<double>> pop_opt_double_list(Stack& s) {
  if (s.back().isNone()) {
    pop(s);
    return std::nullopt;
  }
  return pop_double_list(s);
}
void upsample_nearest2d(Stack& s) {
  pop_opt_double(s);  // scales_w: the kernel maps by sizes
  pop_opt_double(s);  // scales_h
  auto size = pop_int_list(s);
  push(s, torchlet::upsample_nearest2d(pop_tensor(s), size));
}
Tensor upsample_nearest2d_vec_impl(Stack& s) {
  auto scales = pop_opt_double_list(s);
  auto size = pop_opt_int_list(s);
  Tensor input = pop_tensor(s);
  return torchlet::upsample_nearest2d(input, upsample_size(input, size, scales, "upsample_nearest2d"));
}
void upsample_nearest2d_vec(Stack& s) { push(s, upsample_nearest2d_vec_impl(s)); }
void upsample_bilinear2d(Stack& s) {
  pop_opt_double(s);
  pop_opt_double(s);
  bool align = pop_bool(s);
  auto size = pop_int_list(s);
  push(s, torchlet::upsample_bilinear2d(pop_tensor(s), size, align));
}
void upsample_bilinear2d_vec(Stack& s) {
  auto scales = pop_opt_double_list(s);
  bool align = pop_bool(s);
  auto size = pop_opt_int_list(s);
  Tensor input = pop_tensor(s);
  push(s, torchlet::upsample_bilinear2d(input, upsample_size(input, size, scales, "upsample_bilinear2d"), align));
}

}  // namespace

static RegisterOps reg({
    {"aten::mm(Tensor self, Tensor mat2) -> Tensor", matprod<torchlet::mm>},
    {"aten::bmm(Tensor self, Tensor mat2) -> Tensor", matprod<torchlet::bmm>},
    {"aten::matmul(Tensor self, Tensor other) -> Tensor", matprod<torchlet::matmul>},
    {"aten::addmm(Tensor self, Tensor mat1, Tensor mat2, *, Scalar beta=1, Scalar alpha=1) -> Tensor", addmm},
    {"aten::addmm_(Tensor(a!) self, Tensor mat1, Tensor mat2, *, Scalar beta=1, Scalar alpha=1) -> Tensor(a!)", addmm_},
    {"aten::linear(Tensor input, Tensor weight, Tensor? bias=None) -> Tensor", linear},
    {"aten::conv1d(Tensor input, Tensor weight, Tensor? bias=None, int[1] stride=[1], int[1] padding=[0], int[1] dilation=[1], int groups=1) -> Tensor", conv<torchlet::conv1d>},
    {"aten::conv2d(Tensor input, Tensor weight, Tensor? bias=None, int[2] stride=1, int[2] padding=0, int[2] dilation=1, int groups=1) -> Tensor", conv<torchlet::conv2d>},
    {"aten::conv3d(Tensor input, Tensor weight, Tensor? bias=None, int[3] stride=1, int[3] padding=0, int[3] dilation=1, int groups=1) -> Tensor", conv<torchlet::conv3d>},
    {"aten::conv2d.padding(Tensor input, Tensor weight, Tensor? bias=None, int[2] stride=1, str padding=\"valid\", int[2] dilation=1, int groups=1) -> Tensor", conv2d_padding},
    {"aten::conv_transpose2d.input(Tensor input, Tensor weight, Tensor? bias=None, int[2] stride=1, int[2] padding=0, int[2] output_padding=0, int groups=1, int[2] dilation=1) -> Tensor", conv_transpose2d},
    {"aten::_convolution(Tensor input, Tensor weight, Tensor? bias, int[] stride, int[] padding, int[] dilation, bool transposed, int[] output_padding, int groups, bool benchmark, bool deterministic, bool cudnn_enabled, bool allow_tf32) -> Tensor", convolution<4>},
    {"aten::_convolution.deprecated(Tensor input, Tensor weight, Tensor? bias, int[] stride, int[] padding, int[] dilation, bool transposed, int[] output_padding, int groups, bool benchmark, bool deterministic, bool cudnn_enabled) -> Tensor", convolution<3>},
    {"aten::convolution(Tensor input, Tensor weight, Tensor? bias, int[] stride, int[] padding, int[] dilation, bool transposed, int[] output_padding, int groups) -> Tensor", convolution<0>},
    {"aten::batch_norm(Tensor input, Tensor? weight, Tensor? bias, Tensor? running_mean, Tensor? running_var, bool training, float momentum, float eps, bool cudnn_enabled) -> Tensor", batch_norm},
    {"aten::native_batch_norm(Tensor input, Tensor? weight, Tensor? bias, Tensor? running_mean, Tensor? running_var, bool training, float momentum, float eps) -> (Tensor, Tensor, Tensor)", native_batch_norm},
    {"aten::instance_norm(Tensor input, Tensor? weight, Tensor? bias, Tensor? running_mean, Tensor? running_var, bool use_input_stats, float momentum, float eps, bool cudnn_enabled) -> Tensor", instance_norm},
    {"aten::layer_norm(Tensor input, int[] normalized_shape, Tensor? weight=None, Tensor? bias=None, float eps=1.0000000000000001e-05, bool cudnn_enable=True) -> Tensor", layer_norm},
    {"aten::native_layer_norm(Tensor input, SymInt[] normalized_shape, Tensor? weight, Tensor? bias, float eps) -> (Tensor, Tensor, Tensor)", native_layer_norm},
    {"aten::native_group_norm(Tensor input, Tensor? weight, Tensor? bias, SymInt N, SymInt C, SymInt HxW, int group, float eps) -> (Tensor, Tensor, Tensor)", native_group_norm},
    {"aten::group_norm(Tensor input, int num_groups, Tensor? weight=None, Tensor? bias=None, float eps=1.0000000000000001e-05, bool cudnn_enabled=True) -> Tensor", group_norm},
    {"aten::softmax.int(Tensor self, int dim, ScalarType? dtype=None) -> Tensor", softmax<false>},
    {"aten::log_softmax.int(Tensor self, int dim, ScalarType? dtype=None) -> Tensor", softmax<true>},
    {"aten::_softmax(Tensor self, int dim, bool half_to_float) -> Tensor", softmax_internal<false>},
    {"aten::_log_softmax(Tensor self, int dim, bool half_to_float) -> Tensor", softmax_internal<true>},
    {"aten::dropout(Tensor input, float p, bool train) -> Tensor", dropout<torchlet::dropout>},
    {"aten::dropout_(Tensor(a!) self, float p, bool train) -> Tensor(a!)", dropout_inplace<torchlet::dropout>},
    {"aten::feature_dropout(Tensor input, float p, bool train) -> Tensor", dropout<torchlet::feature_dropout>},
    {"aten::feature_dropout_(Tensor(a!) self, float p, bool train) -> Tensor(a!)", dropout_inplace<torchlet::feature_dropout>},
    {"aten::alpha_dropout(Tensor input, float p, bool train) -> Tensor", dropout<torchlet::alpha_dropout>},
    {"aten::alpha_dropout_(Tensor(a!) self, float p, bool train) -> Tensor(a!)", dropout_inplace<torchlet::alpha_dropout>},
    {"aten::feature_alpha_dropout(Tensor input, float p, bool train) -> Tensor", dropout<torchlet::feature_alpha_dropout>},
    {"aten::feature_alpha_dropout_(Tensor(a!) self, float p, bool train) -> Tensor(a!)", dropout_inplace<torchlet::feature_alpha_dropout>},
    {"aten::embedding(Tensor weight, Tensor indices, int padding_idx=-1, bool scale_grad_by_freq=False, bool sparse=False) -> Tensor", embedding},
    {"aten::upsample_nearest2d(Tensor self, SymInt[2] output_size, float? scales_h=None, float? scales_w=None) -> Tensor", upsample_nearest2d},
    {"aten::upsample_nearest2d.vec(Tensor input, SymInt[]? output_size, float[]? scale_factors) -> Tensor", upsample_nearest2d_vec},
    {"aten::upsample_bilinear2d(Tensor self, SymInt[2] output_size, bool align_corners, float? scales_h=None, float? scales_w=None) -> Tensor", upsample_bilinear2d},
    {"aten::upsample_bilinear2d.vec(Tensor input, SymInt[]? output_size, bool align_corners, float[]? scale_factors) -> Tensor", upsample_bilinear2d_vec},
});

}  // namespace torchlet::jit::ops

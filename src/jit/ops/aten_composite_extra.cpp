// Tensor operators users' scripted code calls beyond what the torchvision models need,
// composed from the kernels as torch composes them: masked_select, nan_to_num,
// isclose/allclose, count_nonzero, diagonal/diag/trace, broadcast_to/broadcast_tensors,
// diff, tensor_split, argwhere, isin, lerp, logaddexp(2), xlogy, atan2, deg2rad/rad2deg, logit,
// float_power, mvlgamma, the stack family (hstack, vstack, column_stack, dstack, atleast_Nd),
// meshgrid, fliplr/flipud/rot90, std_mean/var_mean/aminmax, nansum/nanmean, round(decimals=),
// cross/linalg_cross, kron, tensordot/inner, addr/addmv, tril/triu_indices, renorm,
// combinations, h/v/dsplit, copysign, heaviside, isposinf/isneginf/isreal,
// conj/resolve_conj/resolve_neg of real tensors and narrow_copy; and the
// bindings of the order statistics (median, kthvalue, mode, cummax/cummin, logcumsumexp),
// unique, searchsorted/bucketize and take.
// Dtype rules and refusals follow torch 1.13's definitions; every schema has cases run
// through torch in tests/fixtures/gen_ops.py (extra_composite_ops; round(decimals=) and the
// nansum/nanmean dtype refusal in multi_out_ops, beside their out= forms).
#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <numbers>

#include <torchlet/half.h>
#include <torchlet/ops.h>

#include "jit/ops/composites.h"
#include "jit/ops/ops_util.h"

namespace torchlet::jit::ops {

Tensor isnan_of(const Tensor& x) { return torchlet::ne(x, x); }

namespace {

std::string_view type_name(DType d) { return dtype_info(d).scalar_type_name; }

Tensor isfinite_of(const Tensor& x) {
  if (!is_floating(x.dtype()) && !is_complex(x.dtype())) return ones(x.sizes(), DType::Bool);
  return torchlet::eq(torchlet::sub(x, x), Scalar(0.0));  // inf - inf and nan - nan are nan
}
// Integral and bool inputs compute in the default float type (torch's int -> float ops).
Tensor as_floating(const Tensor& x) { return is_floating(x.dtype()) || is_complex(x.dtype()) ? x : x.to(kDefaultFloatDType); }
Tensor all_dims_sum(const Tensor& x, std::optional<DType> dtype = std::nullopt) { return torchlet::sum(x, {}, false, dtype); }

// --- selection ---------------------------------------------------------------------------------

Tensor masked_select_impl(const Tensor& self, const Tensor& mask) {
  TL_CHECK(mask.dtype() == DType::Bool || mask.dtype() == DType::Byte, TypeError,
           "masked_select: expected BoolTensor for mask");
  TL_CHECK(mask.dtype() == DType::Bool || !torchlet::any(torchlet::gt(mask, Scalar(int64_t{1}))).item().to<bool>(), ValueError,
           "Mask tensor can take 0 and 1 values only");
  const Shape shape = broadcast_shapes(self.sizes(), mask.sizes());
  Tensor flat = self.expand(shape).reshape({-1});
  Tensor keep = mask.expand(shape).reshape({-1}).to(DType::Bool);
  return torchlet::index_select(flat, 0, torchlet::nonzero(keep).view({-1}));
}
void masked_select(Stack& s) {
  Tensor mask = pop_tensor(s);
  push(s, masked_select_impl(pop_tensor(s), mask));
}

void argwhere(Stack& s) { push(s, torchlet::nonzero(pop_tensor(s))); }

// elements.unsqueeze(-1) == test_elements.flatten(), any over the last dim: what torch's
// default (non-sorting) isin computes for small test sets, for every size here.
Tensor isin_impl(const Tensor& elements, const Tensor& test, bool invert) {
  for (DType d : {elements.dtype(), test.dtype()}) {
    TL_CHECK(d != DType::Bool && d != DType::BFloat16 && !is_complex(d), UnsupportedError,
             "Unsupported input type encountered for isin(): {}", type_name(d));
    TL_CHECK(d != DType::Half, UnsupportedError, "\"isin_default_cpu\" not implemented for 'Half'");
  }
  Tensor flat = test.reshape({-1});
  Tensor hit = flat.numel() == 0 ? zeros(elements.sizes(), DType::Bool)
                                 : torchlet::any(torchlet::eq(elements.unsqueeze(-1), flat), -1);
  return invert ? torchlet::logical_not(hit) : hit;
}
void isin_tt(Stack& s) {
  const bool invert = pop_bool(s);
  pop_bool(s);  // assume_unique: a speed hint
  Tensor test = pop_tensor(s);
  Tensor elements = pop_tensor(s);
  push(s, isin_impl(elements, test, invert));
}
void isin_ts(Stack& s) {  // torch: elements == test_element (float16 allowed here)
  const bool invert = pop_bool(s);
  pop_bool(s);
  Scalar test = pop_scalar(s);
  Tensor elements = pop_tensor(s);
  const DType d = elements.dtype();
  TL_CHECK(d != DType::Bool && d != DType::BFloat16 && !is_complex(d), UnsupportedError,
           "Unsupported input type encountered for isin(): {}", type_name(d));
  push(s, invert ? torchlet::ne(elements, test) : torchlet::eq(elements, test));
}
void isin_st(Stack& s) {
  const bool invert = pop_bool(s);
  pop_bool(s);
  Tensor test = pop_tensor(s);
  Scalar element = pop_scalar(s);
  push(s, isin_impl(scalar_tensor(element), test, invert));
}

// --- NaN and closeness ----------------------------------------------------------------------

double largest_finite(DType d) {
  switch (d) {
    case DType::Half: return 65504.0;
    case DType::BFloat16: return 3.38953138925153547590470800371487866880e+38;
    case DType::Float: return std::numeric_limits<float>::max();
    default: return std::numeric_limits<double>::max();
  }
}
Tensor nan_to_num_impl(const Tensor& x, std::optional<double> nan, std::optional<double> posinf,
                       std::optional<double> neginf) {
  TL_CHECK(!is_complex(x.dtype()), UnsupportedError, "nan_to_num: complex tensors are not supported");
  if (!is_floating(x.dtype())) return x.clone();
  const double big = largest_finite(x.dtype());
  const double inf = std::numeric_limits<double>::infinity();
  Tensor r = torchlet::masked_fill(x, isnan_of(x), Scalar(nan.value_or(0.0)));
  r = torchlet::masked_fill(r, torchlet::eq(x, Scalar(inf)), Scalar(posinf.value_or(big)));
  return torchlet::masked_fill(r, torchlet::eq(x, Scalar(-inf)), Scalar(neginf.value_or(-big)));
}
Tensor pop_nan_to_num(Stack& s) {
  auto neginf = pop_opt_double(s);
  auto posinf = pop_opt_double(s);
  auto nan = pop_opt_double(s);
  return nan_to_num_impl(pop_tensor(s), nan, posinf, neginf);
}
void nan_to_num(Stack& s) { push(s, pop_nan_to_num(s)); }
void nan_to_num_(Stack& s) {
  Tensor self = s[s.size() - 4].toTensor();
  assign_inplace(self, pop_nan_to_num(s), "nan_to_num_");
  push(s, self);
}

// torch's isclose: equal, or both NaN when equal_nan, or a finite |self - other| within
// atol + rtol * |other| (computed in float for integral inputs, as rtol * other is).
Tensor isclose_impl(const Tensor& self, const Tensor& other, double rtol, double atol, bool equal_nan) {
  TL_CHECK(self.dtype() == other.dtype(), TypeError, "{} did not match {}", type_name(self.dtype()), type_name(other.dtype()));
  TL_CHECK(!(is_complex(self.dtype()) && equal_nan), UnsupportedError, "isclose with equal_nan=True is not supported for complex inputs");
  TL_CHECK(rtol >= 0, ValueError, "rtol must be greater than or equal to zero, but got {}", rtol);
  TL_CHECK(atol >= 0, ValueError, "atol must be greater than or equal to zero, but got {}", atol);
  Tensor close = torchlet::eq(self, other);
  if (equal_nan && is_floating(self.dtype()))
    close = torchlet::logical_or(close, torchlet::logical_and(isnan_of(self), isnan_of(other)));
  if (rtol == 0 && atol == 0) return close;
  const Tensor a = self.dtype() == DType::Bool ? self.to(kDefaultFloatDType) : self;
  const Tensor b = other.dtype() == DType::Bool ? other.to(kDefaultFloatDType) : other;
  Tensor allowed = torchlet::add(torchlet::abs(torchlet::mul(b, Scalar(rtol))), Scalar(atol));
  Tensor actual = torchlet::abs(torchlet::sub(a, b));
  return torchlet::logical_or(close, torchlet::logical_and(isfinite_of(actual), torchlet::le(actual, allowed)));
}
Tensor pop_isclose(Stack& s) {
  const bool equal_nan = pop_bool(s);
  const double atol = pop_double(s);
  const double rtol = pop_double(s);
  Tensor other = pop_tensor(s);
  Tensor self = pop_tensor(s);
  return isclose_impl(self, other, rtol, atol, equal_nan);
}
void isclose(Stack& s) { push(s, pop_isclose(s)); }
void allclose(Stack& s) { push(s, torchlet::all(pop_isclose(s)).item().to<bool>()); }

// torch's nansum kernel runs over floating result types only: a floating input summed
// into an integer dtype (given, or out='s through the out= forms) is refused by name. An
// integer input holds no NaN and is summed as sum() sums it.
void check_nansum_dtype(const Tensor& x, std::optional<DType> dtype) {
  TL_CHECK(!is_floating(x.dtype()) || !dtype || is_floating(*dtype), UnsupportedError,
           "\"nansum_cpu\" not implemented for '{}'", dtype_info(*dtype).scalar_type_name);
}
void nansum(Stack& s) {
  auto dtype = pop_opt_dtype(s);
  const bool keepdim = pop_bool(s);
  auto dim = pop_opt_int_list(s);
  Tensor x = pop_tensor(s);
  check_nansum_dtype(x, dtype);
  Tensor zeroed = is_floating(x.dtype()) ? torchlet::masked_fill(x, isnan_of(x), Scalar(0.0)) : x;
  push(s, torchlet::sum(zeroed, dim ? IntList(*dim) : IntList{}, keepdim, dtype));
}
void nanmean(Stack& s) {
  auto dtype = pop_opt_dtype(s);
  const bool keepdim = pop_bool(s);
  auto dim = pop_opt_int_list(s);
  Tensor x = pop_tensor(s);
  TL_CHECK(is_floating(x.dtype()), TypeError, "nanmean(): expected input to have floating point dtype but got {}",
           type_name(x.dtype()));
  check_nansum_dtype(x, dtype);
  const IntList dims = dim ? IntList(*dim) : IntList{};
  Tensor present = torchlet::sum(torchlet::logical_not(isnan_of(x)), dims, keepdim);
  Tensor total = torchlet::sum(torchlet::masked_fill(x, isnan_of(x), Scalar(0.0)), dims, keepdim, dtype);
  push(s, torchlet::div(total, present));
}

// torch.round(x, decimals=d): torch's kernel scales by 10^|d| in the input's own type (a
// bfloat16 product rounded to bfloat16), rounds half to even and scales back, one
// element at a time. d = 0 is round() through a kernel without round()'s shortcut for
// integers, so every non-floating input is refused, by one kernel name or the other.
Tensor round_decimals_of(const Tensor& x, int64_t decimals) {
  const DType t = x.dtype();
  const bool supported = t == DType::Float || t == DType::Double || t == DType::BFloat16;
  TL_CHECK(supported, UnsupportedError, "\"{}\" not implemented for '{}'", decimals == 0 ? "round_vml_cpu" : "round_cpu",
           dtype_info(t).scalar_type_name);
  if (decimals == 0) return torchlet::round(x);
  const bool shrink = decimals < 0;
  const double scale = std::pow(10.0, shrink ? -static_cast<double>(decimals) : static_cast<double>(decimals));
  auto apply = [shrink](auto a, auto s, auto narrow) {
    return shrink ? narrow(std::nearbyint(narrow(a / s)) * s) : narrow(std::nearbyint(narrow(a * s)) / s);
  };
  if (t == DType::Double) {
    const Tensor src = x.contiguous();
    Tensor out = empty(x.sizes(), t);
    const double* px = src.data<double>();
    double* po = out.data<double>();
    for (int64_t i = 0; i < out.numel(); ++i) po[i] = apply(px[i], scale, [](double v) { return v; });
    return out;
  }
  // float, and bfloat16 held in float with each step rounded to bfloat16.
  const Tensor src = x.to(DType::Float).contiguous();
  Tensor out = empty(x.sizes(), DType::Float);
  const float* px = src.data<float>();
  float* po = out.data<float>();
  if (t == DType::Float) {
    const auto s = static_cast<float>(scale);
    for (int64_t i = 0; i < out.numel(); ++i) po[i] = apply(px[i], s, [](float v) { return v; });
    return out;
  }
  auto to_bf16 = [](float v) { return static_cast<float>(BFloat16(v)); };
  const float s = to_bf16(static_cast<float>(scale));
  for (int64_t i = 0; i < out.numel(); ++i) po[i] = apply(px[i], s, to_bf16);
  return out.to(DType::BFloat16);
}
void round_decimals(Stack& s) {
  const int64_t decimals = pop_int(s);
  push(s, round_decimals_of(pop_tensor(s), decimals));
}
void round_decimals_(Stack& s) {
  const int64_t decimals = pop_int(s);
  Tensor self = pop_tensor(s);
  assign_inplace(self, round_decimals_of(self, decimals), "round_");
  push(s, self);
}

void count_nonzero(Stack& s) {
  auto dim = pop_opt_int(s);
  Tensor x = pop_tensor(s);
  Tensor nz = torchlet::ne(x, Scalar(int64_t{0}));
  push(s, dim ? torchlet::sum(nz, {*dim}) : all_dims_sum(nz));
}
void count_nonzero_dims(Stack& s) {
  auto dims = pop_int_list(s);
  Tensor x = pop_tensor(s);
  push(s, torchlet::sum(torchlet::ne(x, Scalar(int64_t{0})), dims));
}

// --- diagonals ----------------------------------------------------------------------------------

void diagonal(Stack& s) {
  const int64_t dim2 = pop_int(s), dim1 = pop_int(s), offset = pop_int(s);
  push(s, pop_tensor(s).diagonal(offset, dim1, dim2));
}
void diag(Stack& s) {
  const int64_t k = pop_int(s);
  push(s, diag_of(pop_tensor(s), k));
}
void trace(Stack& s) {
  Tensor x = pop_tensor(s);
  TL_CHECK(x.dim() == 2, ValueError, "trace: expected a matrix, but got tensor with dim {}", x.dim());
  TL_CHECK(x.dtype() != DType::Bool && x.dtype() != DType::Half && x.dtype() != DType::BFloat16, UnsupportedError,
           "\"trace\" not implemented for '{}'", type_name(x.dtype()));
  push(s, all_dims_sum(x.diagonal()));
}

// --- broadcasting, splitting, stacking ----------------------------------------------------------

void broadcast_to(Stack& s) {
  auto size = pop_int_list(s);
  push(s, pop_tensor(s).expand(size));
}
void broadcast_tensors(Stack& s) {
  auto ts = pop_tensor_list(s);
  Shape shape;
  for (const Tensor& t : ts) shape = broadcast_shapes(shape, t.sizes());
  std::vector<Tensor> out;
  for (const Tensor& t : ts) out.push_back(t.expand(shape));
  push(s, tensor_list(out));
}

std::vector<Tensor> split_at(const Tensor& self, const std::vector<int64_t>& indices, int64_t dim) {
  const int64_t size = self.size(dim);
  std::vector<Tensor> out;
  int64_t start = 0;
  for (int64_t idx : indices) {
    const int64_t stop = std::clamp<int64_t>(idx < 0 ? idx + size : idx, 0, size);
    const int64_t from = std::min(start, size);
    out.push_back(self.narrow(dim, from, std::max<int64_t>(stop - from, 0)));
    start = stop;  // torch: each piece starts at the previous index, even past a later one
  }
  out.push_back(self.narrow(dim, std::min(start, size), size - std::min(start, size)));
  return out;
}
std::vector<Tensor> split_sections(const Tensor& x, int64_t sections, int64_t dim) {
  TL_CHECK(x.dim() > 0, ValueError, "tensor_split expected at least a 1-dimensional tensor, but got a tensor with 0 dims");
  TL_CHECK(sections > 0, ValueError, "number of sections must be larger than 0, got {}", sections);
  const int64_t d = wrap_dim(dim, x.dim(), "tensor_split"), size = x.size(d);
  const int64_t base = size / sections, extra = size % sections;
  std::vector<Tensor> out;
  int64_t start = 0;
  for (int64_t i = 0; i < sections; ++i) {
    const int64_t len = base + (i < extra ? 1 : 0);
    out.push_back(x.narrow(d, start, len));
    start += len;
  }
  return out;
}
void tensor_split_sections(Stack& s) {
  const int64_t dim = pop_int(s), sections = pop_int(s);
  Tensor x = pop_tensor(s);
  push(s, tensor_list(split_sections(x, sections, dim)));
}
void tensor_split_indices(Stack& s) {
  const int64_t dim = pop_int(s);
  auto indices = pop_int_list(s);
  Tensor x = pop_tensor(s);
  TL_CHECK(x.dim() > 0, ValueError, "tensor_split expected at least a 1-dimensional tensor, but got a tensor with 0 dims");
  push(s, tensor_list(split_at(x, indices, wrap_dim(dim, x.dim(), "tensor_split"))));
}

// torch.hsplit/vsplit/dsplit: tensor_split along dim 1 (0 for 1-D input), 0 or 2, with
// torch's own checks first.
template <int kMinDims>
int64_t numpy_split_dim(const Tensor& x, const char* api) {
  TL_CHECK(x.dim() >= kMinDims, ValueError, "torch.{} requires a tensor with at least {} dimension, but got a tensor with {} dimensions!",
           api, kMinDims, x.dim());
  if constexpr (kMinDims == 1) return x.dim() == 1 ? 0 : 1;
  return kMinDims == 2 ? 0 : 2;
}
template <int kMinDims>
void numpy_split_sections(Stack& s, const char* api) {
  const int64_t sections = pop_int(s);
  Tensor x = pop_tensor(s);
  const int64_t dim = numpy_split_dim<kMinDims>(x, api);
  TL_CHECK(sections != 0 && x.size(dim) % sections == 0, ValueError,
           "torch.{} attempted to split along dimension {}, but the size of the dimension {} is not divisible by the "
           "split_size {}!",
           api, dim, x.size(dim), sections);
  push(s, tensor_list(split_sections(x, sections, dim)));
}
template <int kMinDims>
void numpy_split_indices(Stack& s, const char* api) {
  auto indices = pop_int_list(s);
  Tensor x = pop_tensor(s);
  push(s, tensor_list(split_at(x, indices, numpy_split_dim<kMinDims>(x, api))));
}
void hsplit_int(Stack& s) { numpy_split_sections<1>(s, "hsplit"); }
void vsplit_int(Stack& s) { numpy_split_sections<2>(s, "vsplit"); }
void dsplit_int(Stack& s) { numpy_split_sections<3>(s, "dsplit"); }
void hsplit_array(Stack& s) { numpy_split_indices<1>(s, "hsplit"); }
void vsplit_array(Stack& s) { numpy_split_indices<2>(s, "vsplit"); }
void dsplit_array(Stack& s) { numpy_split_indices<3>(s, "dsplit"); }

Tensor atleast(const Tensor& t, int n) {
  if (t.dim() >= n) return t;
  if (t.dim() == 0) return t.reshape(Shape(static_cast<size_t>(n), 1));
  if (n == 2) return t.unsqueeze(0);
  return t.dim() == 1 ? t.unsqueeze(0).unsqueeze(-1) : t.unsqueeze(-1);  // (n) -> (1, n, 1); (m, n) -> (m, n, 1)
}
template <int N>
void atleast_one(Stack& s) { push(s, atleast(pop_tensor(s), N)); }
template <int N>
void atleast_seq(Stack& s) {
  std::vector<Tensor> out;
  for (const Tensor& t : pop_tensor_list(s)) out.push_back(atleast(t, N));
  push(s, tensor_list(out));
}
std::vector<Tensor> all_atleast(const std::vector<Tensor>& ts, int n) {
  std::vector<Tensor> out;
  for (const Tensor& t : ts) out.push_back(atleast(t, n));
  return out;
}
void hstack(Stack& s) {
  auto ts = all_atleast(pop_tensor_list(s), 1);
  TL_CHECK(!ts.empty(), ValueError, "hstack expects a non-empty TensorList");
  push(s, torchlet::cat(ts, ts[0].dim() == 1 ? 0 : 1));
}
void vstack(Stack& s) {
  auto ts = all_atleast(pop_tensor_list(s), 2);
  TL_CHECK(!ts.empty(), ValueError, "vstack expects a non-empty TensorList");
  push(s, torchlet::cat(ts, 0));
}
void dstack(Stack& s) {
  auto ts = all_atleast(pop_tensor_list(s), 3);
  TL_CHECK(!ts.empty(), ValueError, "dstack expects a non-empty TensorList");
  push(s, torchlet::cat(ts, 2));
}
void column_stack(Stack& s) {
  auto ts = pop_tensor_list(s);
  TL_CHECK(!ts.empty(), ValueError, "column_stack expects a non-empty TensorList");
  for (Tensor& t : ts)
    if (t.dim() <= 1) t = t.reshape({t.numel(), 1});
  push(s, torchlet::cat(ts, 1));
}

std::vector<Tensor> meshgrid_impl(std::vector<Tensor> ts, std::string_view indexing) {
  TL_CHECK(!ts.empty(), ValueError, "meshgrid expects a non-empty TensorList");
  TL_CHECK(indexing == "ij" || indexing == "xy", ValueError,
           "torch.meshgrid: indexing must be one of \"xy\" or \"ij\", but received: {}", indexing);
  for (const Tensor& t : ts) {
    TL_CHECK(t.dim() <= 1, ValueError, "torch.meshgrid: Expected 0D or 1D tensor in the tensor list but got: {}", t.repr());
    TL_CHECK(t.dtype() == ts[0].dtype(), TypeError,
             "torch.meshgrid: Expected all tensors in the tensor list to have the same dtype");
  }
  // "xy" is "ij" with the first two inputs, and then outputs, swapped (torch's way).
  const bool swap = indexing == "xy" && ts.size() >= 2;
  if (swap) std::swap(ts[0], ts[1]);
  Shape shape;
  for (const Tensor& t : ts) shape.push_back(t.numel());
  std::vector<Tensor> grids;
  for (size_t i = 0; i < ts.size(); ++i) {
    Shape view(ts.size(), 1);
    view[i] = -1;
    grids.push_back(ts[i].view(view).expand(shape));
  }
  if (swap) std::swap(grids[0], grids[1]);
  return grids;
}
void meshgrid(Stack& s) { push(s, tensor_list(meshgrid_impl(pop_tensor_list(s), "ij"))); }
void meshgrid_indexing(Stack& s) {
  std::string indexing = pop_str(s);
  push(s, tensor_list(meshgrid_impl(pop_tensor_list(s), indexing)));
}

void fliplr(Stack& s) {
  Tensor x = pop_tensor(s);
  TL_CHECK(x.dim() >= 2, ValueError, "Input must be >= 2-d.");
  push(s, torchlet::flip(x, {1}));
}
void flipud(Stack& s) {
  Tensor x = pop_tensor(s);
  TL_CHECK(x.dim() >= 1, ValueError, "Input must be >= 1-d.");
  push(s, torchlet::flip(x, {0}));
}
void rot90(Stack& s) {
  auto dims = pop_int_list(s);
  int64_t k = pop_int(s);
  Tensor x = pop_tensor(s);
  const int64_t n = x.dim();
  TL_CHECK(dims.size() == 2, ValueError, "expected total rotation dims == 2, but got dims = {}", dims.size());
  TL_CHECK(n >= 2, ValueError, "expected total dims >= 2, but got total dims = {}", n);
  TL_CHECK(dims[0] != dims[1] && std::abs(dims[0] - dims[1]) != n, ValueError,
           "expected rotation dims to be different, but got dim0 = {} and dim1 = {}", dims[0], dims[1]);
  TL_CHECK(dims[0] < n && dims[0] >= -n, IndexError, "Rotation dim0 out of range, dim0 = {}", dims[0]);
  TL_CHECK(dims[1] < n && dims[1] >= -n, IndexError, "Rotation dim1 out of range, dim1 = {}", dims[1]);
  k = (4 + k % 4) % 4;
  const int64_t d0 = wrap_dim(dims[0], n, "rot90"), d1 = wrap_dim(dims[1], n, "rot90");
  switch (k) {
    case 1: push(s, torchlet::flip(x, {d1}).transpose(d0, d1)); return;
    case 2: push(s, torchlet::flip(x, {d0, d1})); return;
    case 3: push(s, torchlet::flip(x, {d0}).transpose(d0, d1)); return;
    default: push(s, x.clone());
  }
}

// --- reductions in pairs ------------------------------------------------------------------------

template <bool kStd>
void moments(Stack& s, std::optional<std::vector<int64_t>> dim, int64_t correction, bool keepdim) {
  Tensor x = pop_tensor(s);
  const IntList dims = dim ? IntList(*dim) : IntList{};
  Tensor spread = kStd ? torchlet::std(x, dims, correction, keepdim) : torchlet::var(x, dims, correction, keepdim);
  push(s, spread, torchlet::mean(x, dims, keepdim));
}
template <bool kStd>
void moments_all(Stack& s) {
  const bool unbiased = pop_bool(s);
  moments<kStd>(s, std::nullopt, unbiased ? 1 : 0, false);
}
template <bool kStd>
void moments_dim(Stack& s) {
  const bool keepdim = pop_bool(s);
  const bool unbiased = pop_bool(s);
  auto dim = pop_opt_int_list(s);
  moments<kStd>(s, dim, unbiased ? 1 : 0, keepdim);
}
template <bool kStd>
void moments_correction(Stack& s) {
  const bool keepdim = pop_bool(s);
  auto correction = pop_opt_int(s);
  auto dim = pop_opt_int_list(s);
  moments<kStd>(s, dim, correction.value_or(1), keepdim);
}

void aminmax(Stack& s) {
  const bool keepdim = pop_bool(s);
  auto dim = pop_opt_int(s);
  Tensor x = pop_tensor(s);
  // Over every element float16 and bfloat16 work; torch's per-dim kernel refuses them.
  TL_CHECK(x.dtype() != DType::Half && (x.dtype() != DType::BFloat16 || !dim), UnsupportedError,
           "\"aminmax_cpu\" not implemented for '{}'", type_name(x.dtype()));
  TL_CHECK(x.numel() > 0 || dim, ValueError,
           "aminmax(): cannot compute aminmax over an empty dimension as the operation has no identity.");
  Shape all;
  for (int64_t i = 0; i < x.dim(); ++i) all.push_back(i);
  const Tensor src = dim && x.dim() == 0 ? x.reshape({1}) : x;  // a 0-dim input has dim 0 of size 1
  const Shape dims = dim ? Shape{x.dim() == 0 ? int64_t{0} : *dim} : all;
  Tensor lo = torchlet::amin(src, dims, keepdim);
  Tensor hi = torchlet::amax(src, dims, keepdim);
  push(s, lo, hi);
}

// --- elementwise --------------------------------------------------------------------------------

Tensor lerp_scalar_impl(const Tensor& self, const Tensor& end, const Scalar& weight) {
  TL_CHECK(self.dtype() == end.dtype(), TypeError, "expected dtype {} for `end` but got dtype {}", dtype_info(self.dtype()).name,
           dtype_info(end.dtype()).name);
  TL_CHECK(self.dtype() == DType::Float || self.dtype() == DType::Double || self.dtype() == DType::BFloat16, UnsupportedError,
           "\"lerp_kernel_scalar\" not implemented for '{}'", type_name(self.dtype()));
  // The weight in the type torch computes in (float for bfloat16), then the tensor kernel.
  const DType compute = self.dtype() == DType::BFloat16 ? DType::Float : self.dtype();
  const Tensor result = lerp_of(self.to(compute), end.to(compute), scalar_tensor(weight, compute));
  return result.to(self.dtype());
}
void lerp_scalar(Stack& s) {
  Scalar w = pop_scalar(s);
  Tensor end = pop_tensor(s);
  push(s, lerp_scalar_impl(pop_tensor(s), end, w));
}
void lerp_tensor(Stack& s) {
  Tensor w = pop_tensor(s);
  Tensor end = pop_tensor(s);
  push(s, lerp_of(pop_tensor(s), end, w));
}
void lerp_scalar_(Stack& s) {
  Scalar w = pop_scalar(s);
  Tensor end = pop_tensor(s);
  Tensor self = pop_tensor(s);
  assign_inplace(self, lerp_scalar_impl(self, end, w), "lerp_");
  push(s, self);
}
void lerp_tensor_(Stack& s) {
  Tensor w = pop_tensor(s);
  Tensor end = pop_tensor(s);
  Tensor self = pop_tensor(s);
  assign_inplace(self, lerp_of(self, end, w), "lerp_");
  push(s, self);
}

// torch's logaddexp(2): a when a and b are the same infinity, else
// max + log1p(exp(-|a - b|)) (base 2: log1p(exp2(-|a - b|)) / ln 2).
template <bool kBase2>
Tensor logaddexp_impl(const Tensor& a0, const Tensor& b0) {
  const DType r = result_type(a0, b0);
  TL_CHECK(r == DType::Float || r == DType::Double || r == DType::BFloat16, UnsupportedError,
           "\"{}\" not implemented for '{}'", kBase2 ? "logaddexp2_cpu" : "logaddexp_cpu", type_name(r));
  Tensor a = a0.to(r), b = b0.to(r);
  Tensor m = torchlet::maximum(a, b);
  Tensor gap = torchlet::neg(torchlet::abs(torchlet::sub(a, b)));
  Tensor r2 = kBase2 ? torchlet::mul(torchlet::log1p(torchlet::pow(Scalar(2.0), gap)), Scalar(1.0 / std::numbers::ln2))
                     : torchlet::log1p(torchlet::exp(gap));
  Tensor same_inf = torchlet::logical_and(torchlet::eq(a, b), torchlet::eq(torchlet::abs(a), Scalar(std::numeric_limits<double>::infinity())));
  return torchlet::where(same_inf, a.expand(m.sizes()), torchlet::add(m, r2));
}
template <bool kBase2>
void logaddexp(Stack& s) {
  Tensor b = pop_tensor(s);
  push(s, logaddexp_impl<kBase2>(pop_tensor(s), b));
}

// torch's xlogy: NaN where y is NaN, else 0 where x == 0, else x * log(y); integral
// inputs compute in float.
Tensor xlogy_impl(const Tensor& x0, const Tensor& y0, DType r) {
  if (!is_floating(r)) r = kDefaultFloatDType;
  // float16/bfloat16 compute in float and round once, as torch's scalar kernel does.
  const DType compute = r == DType::Half || r == DType::BFloat16 ? DType::Float : r;
  Tensor x = x0.to(r).to(compute), y = y0.to(r).to(compute);
  Tensor out = torchlet::mul(x, torchlet::log(y));
  out = torchlet::masked_fill(out, torchlet::eq(x, Scalar(0.0)).expand(out.sizes()), Scalar(0.0));
  return torchlet::masked_fill(out, isnan_of(y).expand(out.sizes()), Scalar(std::numeric_limits<double>::quiet_NaN())).to(r);
}
void xlogy_tt(Stack& s) {
  Tensor y = pop_tensor(s);
  Tensor x = pop_tensor(s);
  push(s, xlogy_impl(x, y, result_type(x, y)));
}
void xlogy_ts(Stack& s) {
  Scalar y = pop_scalar(s);
  Tensor x = pop_tensor(s);
  push(s, xlogy_impl(x, scalar_tensor(y), result_type(x, y)));
}
void xlogy_st(Stack& s) {
  Tensor y = pop_tensor(s);
  Scalar x = pop_scalar(s);
  push(s, xlogy_impl(scalar_tensor(x), y, result_type(y, x)));
}
void xlogy_tt_(Stack& s) {
  Tensor y = pop_tensor(s);
  Tensor self = pop_tensor(s);
  assign_inplace(self, xlogy_impl(self, y, result_type(self, y)), "xlogy_");
  push(s, self);
}
void xlogy_ts_(Stack& s) {
  Scalar y = pop_scalar(s);
  Tensor self = pop_tensor(s);
  assign_inplace(self, xlogy_impl(self, scalar_tensor(y), result_type(self, y)), "xlogy_");
  push(s, self);
}

// atan2 in double, rounded once to the result type (integral inputs give float32);
// torch has no float16 kernel for it.
Tensor atan2_impl(const Tensor& y0, const Tensor& x0) {
  DType r = result_type(y0, x0);
  if (is_integral(r, true)) r = kDefaultFloatDType;
  TL_CHECK(r == DType::Float || r == DType::Double || r == DType::BFloat16, UnsupportedError,
           "\"atan2_cpu\" not implemented for '{}'", type_name(r));
  const Shape shape = broadcast_shapes(y0.sizes(), x0.sizes());
  Tensor y = y0.to(DType::Double).expand(shape).contiguous(), x = x0.to(DType::Double).expand(shape).contiguous();
  Tensor out = empty(shape, DType::Double);
  const double* py = y.data<double>();
  const double* px = x.data<double>();
  double* po = out.data<double>();
  for (int64_t i = 0, n = out.numel(); i < n; ++i) po[i] = std::atan2(py[i], px[i]);
  return out.to(r);
}
void atan2(Stack& s) {
  Tensor x = pop_tensor(s);
  push(s, atan2_impl(pop_tensor(s), x));
}
void atan2_(Stack& s) {
  Tensor x = pop_tensor(s);
  Tensor self = pop_tensor(s);
  assign_inplace(self, atan2_impl(self, x), "atan2_");
  push(s, self);
}

// diff: n times the difference of neighbours along dim (xor for bool), after prepend
// and append are concatenated there.
void diff(Stack& s) {
  auto append = pop_opt_tensor(s);
  auto prepend = pop_opt_tensor(s);
  const int64_t dim = pop_int(s), n = pop_int(s);
  Tensor x = pop_tensor(s);
  TL_CHECK(x.dim() >= 1, ValueError, "diff expects input to be at least one-dimensional");
  const int64_t d = wrap_dim(dim, x.dim(), "diff");
  if (prepend || append) {
    std::vector<Tensor> parts;
    for (const auto& t : {prepend, std::optional<Tensor>(x), append})
      if (t) {
        TL_CHECK(t->dim() == x.dim(), ValueError, "diff expects prepend or append to be the same dimension as input");
        parts.push_back(*t);
      }
    x = torchlet::cat(parts, d);
  }
  for (int64_t i = 0; i < n && x.size(d) > 0; ++i) {
    const int64_t len = x.size(d) - 1;
    x = x.dtype() == DType::Bool ? torchlet::logical_xor(x.narrow(d, 1, len), x.narrow(d, 0, len))
                                 : torchlet::sub(x.narrow(d, 1, len), x.narrow(d, 0, len));
  }
  push(s, x);
}

template <bool kToRadians>
Tensor angle_units(const Tensor& x) {
  TL_CHECK(!is_complex(x.dtype()), UnsupportedError, "{} is not supported for complex tensors.", kToRadians ? "deg2rad" : "rad2deg");
  return torchlet::mul(as_floating(x), Scalar(kToRadians ? std::numbers::pi / 180.0 : 180.0 / std::numbers::pi));
}
template <bool kToRadians>
void angle_units_op(Stack& s) { push(s, angle_units<kToRadians>(pop_tensor(s))); }
template <bool kToRadians>
void angle_units_op_(Stack& s) {
  Tensor self = pop_tensor(s);
  TL_CHECK(!is_integral(self.dtype(), true), TypeError, "{} is not supported for integer tensors.",
           kToRadians ? "deg2rad" : "rad2deg");
  assign_inplace(self, angle_units<kToRadians>(self), kToRadians ? "deg2rad_" : "rad2deg_");
  push(s, self);
}

Tensor logit_impl(const Tensor& x0, std::optional<double> eps) {
  Tensor x = as_floating(x0);
  if (eps && *eps >= 0) x = torchlet::clamp(x, Scalar(*eps), Scalar(1.0 - *eps));
  return torchlet::log(torchlet::div(x, torchlet::rsub(x, Scalar(int64_t{1}))));
}
void logit(Stack& s) {
  auto eps = pop_opt_double(s);
  push(s, logit_impl(pop_tensor(s), eps));
}
void logit_(Stack& s) {
  auto eps = pop_opt_double(s);
  Tensor self = pop_tensor(s);
  assign_inplace(self, logit_impl(self, eps), "logit_");
  push(s, self);
}

// float_power: both operands in double (complex128 when either is complex).
DType float_power_type(bool complex) { return complex ? DType::ComplexDouble : DType::Double; }
void float_power_tt(Stack& s) {
  Tensor e = pop_tensor(s);
  Tensor x = pop_tensor(s);
  const DType d = float_power_type(is_complex(x.dtype()) || is_complex(e.dtype()));
  push(s, torchlet::pow(x.to(d), e.to(d)));
}
void float_power_ts(Stack& s) {
  Scalar e = pop_scalar(s);
  Tensor x = pop_tensor(s);
  TL_CHECK(!is_complex(x.dtype()) && !e.is_complex(), UnsupportedError, "float_power: complex operands are not supported");
  push(s, torchlet::pow(x.to(DType::Double), Scalar(e.to<double>())));
}
void float_power_st(Stack& s) {
  Tensor e = pop_tensor(s);
  Scalar x = pop_scalar(s);
  TL_CHECK(!is_complex(e.dtype()) && !x.is_complex(), UnsupportedError, "float_power: complex operands are not supported");
  push(s, torchlet::pow(Scalar(x.to<double>()), e.to(DType::Double)));
}
void check_float_power_base(const Tensor& self, bool complex) {
  const DType want = float_power_type(complex);
  TL_CHECK(self.dtype() == want, TypeError,
           "the base given to float_power_ has dtype {} but the operation's result requires dtype {}", type_name(self.dtype()),
           type_name(want));
}
void float_power_t_(Stack& s) {
  Tensor e = pop_tensor(s);
  Tensor self = pop_tensor(s);
  const bool complex = is_complex(self.dtype()) || is_complex(e.dtype());
  check_float_power_base(self, complex);
  assign_inplace(self, torchlet::pow(self, e.to(float_power_type(complex))), "float_power_");
  push(s, self);
}
void float_power_s_(Stack& s) {
  Scalar e = pop_scalar(s);
  Tensor self = pop_tensor(s);
  check_float_power_base(self, is_complex(self.dtype()) || e.is_complex());
  assign_inplace(self, torchlet::pow(self, Scalar(e.to<double>())), "float_power_");
  push(s, self);
}

// torch.mvlgamma (the multivariate log-gamma): sum over i < p of lgamma(x - i/2) plus
// p(p - 1)/4 log(pi), composed as torch composes it (an arange of the offsets added to
// x, lgamma, a sum over the offsets). The offsets' type: the default float type for an
// integer input, but self's own for the in-place form, whose integer arange then has a
// zero step (torch's refusal).
Tensor mvlgamma_of(const Tensor& self, int64_t p, bool in_place) {
  TL_CHECK(self.dtype() != DType::Bool, TypeError, "The input tensor may not be a boolean tensor.");
  TL_CHECK(p >= 1, ValueError, "p has to be greater than or equal to 1");
  const DType t = is_integral(self.dtype(), true) && !in_place ? kDefaultFloatDType : self.dtype();
  const Tensor offsets = arange(Scalar(static_cast<double>(-p) * 0.5 + 0.5), Scalar(0.5), Scalar(0.5), t);
  const Tensor terms = torchlet::lgamma(torchlet::add(offsets, self.unsqueeze(-1)));
  const double p2_sub_p = static_cast<double>(p) * static_cast<double>(p - 1);
  return torchlet::add(torchlet::sum(terms, {-1}), Scalar(p2_sub_p * std::log(std::numbers::pi) * 0.25));
}
void mvlgamma(Stack& s) {
  const int64_t p = pop_int(s);
  push(s, mvlgamma_of(pop_tensor(s), p, false));
}
void mvlgamma_(Stack& s) {
  const int64_t p = pop_int(s);
  Tensor self = pop_tensor(s);
  assign_inplace(self, mvlgamma_of(self, p, true), "mvlgamma_");
  push(s, self);
}
void mvlgamma_out(Stack& s) {
  Tensor out = pop_tensor(s);
  const int64_t p = pop_int(s);
  assign_out(out, mvlgamma_of(pop_tensor(s), p, false), "mvlgamma");
  push(s, out);
}

// --- products ---------------------------------------------------------------------------------

Tensor cross_impl(const Tensor& a0, const Tensor& b0, int64_t dim) {
  const Shape shape = broadcast_shapes(a0.sizes(), b0.sizes());
  Tensor a = a0.expand(shape), b = b0.expand(shape);
  const int64_t d = wrap_dim(dim, static_cast<int64_t>(shape.size()), "cross");
  TL_CHECK(shape[static_cast<size_t>(d)] == 3, ValueError,
           "linalg.cross: inputs dimension {} must have length 3. Got {} and {}", dim, a0.size(d), b0.size(d));
  auto c = [&](const Tensor& t, int64_t i) { return t.select(d, i); };
  std::vector<Tensor> parts = {
      torchlet::sub(torchlet::mul(c(a, 1), c(b, 2)), torchlet::mul(c(a, 2), c(b, 1))),
      torchlet::sub(torchlet::mul(c(a, 2), c(b, 0)), torchlet::mul(c(a, 0), c(b, 2))),
      torchlet::sub(torchlet::mul(c(a, 0), c(b, 1)), torchlet::mul(c(a, 1), c(b, 0)))};
  return torchlet::stack(parts, d);
}
void check_cross_inputs(const Tensor& a, const Tensor& b) {
  TL_CHECK(a.dtype() != DType::Half, UnsupportedError, "\"cross\" not implemented for 'Half'");
  TL_CHECK(a.dim() == b.dim(), ValueError, "linalg.cross: inputs must have the same number of dimensions.");
  TL_CHECK(a.dtype() == b.dtype(), TypeError, "expected both inputs to have same dtype, but got {} and {}", type_name(a.dtype()),
           type_name(b.dtype()));
}
void cross(Stack& s) {
  auto dim = pop_opt_int(s);
  Tensor b = pop_tensor(s);
  Tensor a = pop_tensor(s);
  check_cross_inputs(a, b);
  if (!dim) {  // torch 1.13's deprecated default: the first dimension of size 3
    const Shape shape = broadcast_shapes(a.sizes(), b.sizes());
    auto it = std::find(shape.begin(), shape.end(), 3);
    TL_CHECK(it != shape.end(), ValueError, "no dimension of size 3 in input");
    dim = static_cast<int64_t>(it - shape.begin());
  }
  push(s, cross_impl(a, b, *dim));
}
void linalg_cross(Stack& s) {
  const int64_t dim = pop_int(s);
  Tensor b = pop_tensor(s);
  Tensor a = pop_tensor(s);
  check_cross_inputs(a, b);
  push(s, cross_impl(a, b, dim));
}

void kron(Stack& s) {
  Tensor b = pop_tensor(s);
  Tensor a = pop_tensor(s);
  const int64_t n = std::max(a.dim(), b.dim());
  Shape as(static_cast<size_t>(n - a.dim()), 1), bs(static_cast<size_t>(n - b.dim()), 1);
  for (int64_t v : a.sizes()) as.push_back(v);
  for (int64_t v : b.sizes()) bs.push_back(v);
  Shape av, bv, out;
  for (size_t i = 0; i < static_cast<size_t>(n); ++i) {
    av.insert(av.end(), {as[i], 1});
    bv.insert(bv.end(), {1, bs[i]});
    out.push_back(as[i] * bs[i]);
  }
  push(s, torchlet::mul(a.reshape(av), b.reshape(bv)).reshape(out));
}

Tensor tensordot_impl(const Tensor& a, const Tensor& b, std::vector<int64_t> da, std::vector<int64_t> db) {
  TL_CHECK(da.size() == db.size(), ValueError, "both dimension lists should have same length");
  TL_CHECK(a.dtype() == b.dtype(), TypeError, "both inputs should have same dtype");
  std::vector<bool> ca(static_cast<size_t>(a.dim()), false), cb(static_cast<size_t>(b.dim()), false);
  int64_t k = 1;
  for (size_t i = 0; i < da.size(); ++i) {
    const int64_t x = wrap_dim(da[i], a.dim(), "tensordot"), y = wrap_dim(db[i], b.dim(), "tensordot");
    TL_CHECK(a.size(x) == b.size(y), ValueError, "contracted dimensions need to match, but first has size {} in dim {} and second has size {} in dim {}",
             a.size(x), x, b.size(y), y);
    TL_CHECK(!ca[static_cast<size_t>(x)] && !cb[static_cast<size_t>(y)], ValueError, "tensordot: a dimension appears twice");
    ca[static_cast<size_t>(x)] = cb[static_cast<size_t>(y)] = true;
    da[i] = x;
    db[i] = y;
    k *= a.size(x);
  }
  Shape pa, pb, out;
  int64_t m = 1, n = 1;
  for (int64_t i = 0; i < a.dim(); ++i)
    if (!ca[static_cast<size_t>(i)]) {
      pa.push_back(i);
      out.push_back(a.size(i));
      m *= a.size(i);
    }
  pa.insert(pa.end(), da.begin(), da.end());
  pb.assign(db.begin(), db.end());
  for (int64_t i = 0; i < b.dim(); ++i)
    if (!cb[static_cast<size_t>(i)]) {
      pb.push_back(i);
      out.push_back(b.size(i));
      n *= b.size(i);
    }
  Tensor r = torchlet::mm(a.permute(pa).reshape({m, k}), b.permute(pb).reshape({k, n}));
  return r.reshape(out);
}
void tensordot(Stack& s) {
  auto db = pop_int_list(s);
  auto da = pop_int_list(s);
  Tensor b = pop_tensor(s);
  push(s, tensordot_impl(pop_tensor(s), b, da, db));
}
// torch.functional.tensordot's compiled code names the out= overload in a branch.
void inner(Stack& s) {
  Tensor b = pop_tensor(s);
  Tensor a = pop_tensor(s);
  if (a.dim() == 0 || b.dim() == 0) {
    push(s, torchlet::mul(a, b));
    return;
  }
  TL_CHECK(a.size(-1) == b.size(-1), ValueError,
           "inner() the last dimension must match on both input tensors but got shapes {} and {}", shape_repr(a.sizes()),
           shape_repr(b.sizes()));
  push(s, tensordot_impl(a, b, {-1}, {-1}));
}

// beta * self + alpha * product, self ignored when beta is 0 (NaN in it too), as torch.
Tensor scaled_sum(const Tensor& self, const Tensor& product, const Scalar& beta, const Scalar& alpha) {
  const Tensor p = alpha.to<double>() == 1.0 && !alpha.is_floating() ? product : torchlet::mul(product, alpha);
  if (beta.to<double>() == 0.0 && !beta.is_complex()) return torchlet::add(zeros(self.sizes(), self.dtype()), p);
  return torchlet::add(torchlet::mul(self, beta), p);
}
Tensor addr_impl(const Tensor& self, const Tensor& v1, const Tensor& v2, const Scalar& beta, const Scalar& alpha) {
  TL_CHECK(v1.dim() == 1, ValueError, "addr: Expected 1-D argument vec1, but got {}-D", v1.dim());
  TL_CHECK(v2.dim() == 1, ValueError, "addr: Expected 1-D argument vec2, but got {}-D", v2.dim());
  Tensor outer = torchlet::mul(v1.unsqueeze(1), v2.unsqueeze(0));
  if (result_type(self, outer) == DType::Bool) {  // torch: (beta && self) || (alpha && outer)
    TL_CHECK(alpha.is_bool() || !alpha.is_floating(), TypeError, "Boolean alpha only supported for Boolean results.");
    Tensor a = alpha.to<bool>() ? outer : zeros(outer.sizes(), DType::Bool);
    Tensor b = beta.to<bool>() ? self : zeros(self.sizes(), DType::Bool);
    return torchlet::logical_or(b, a);
  }
  return scaled_sum(self, outer, beta, alpha);
}
void addr(Stack& s) {
  Scalar alpha = pop_scalar(s), beta = pop_scalar(s);
  Tensor v2 = pop_tensor(s), v1 = pop_tensor(s);
  push(s, addr_impl(pop_tensor(s), v1, v2, beta, alpha));
}
void addr_(Stack& s) {
  Scalar alpha = pop_scalar(s), beta = pop_scalar(s);
  Tensor v2 = pop_tensor(s), v1 = pop_tensor(s);
  Tensor self = pop_tensor(s);
  assign_inplace(self, addr_impl(self, v1, v2, beta, alpha), "addr_");
  push(s, self);
}
Tensor addmv_impl(const Tensor& self, const Tensor& mat, const Tensor& vec, const Scalar& beta, const Scalar& alpha) {
  TL_CHECK(mat.dim() == 2 && vec.dim() == 1, ValueError, "vector + matrix @ vector expected, got {}, {}, {}", self.dim(), mat.dim(),
           vec.dim());
  return scaled_sum(self, torchlet::matmul(mat, vec), beta, alpha);
}
void addmv(Stack& s) {
  Scalar alpha = pop_scalar(s), beta = pop_scalar(s);
  Tensor vec = pop_tensor(s), mat = pop_tensor(s);
  push(s, addmv_impl(pop_tensor(s), mat, vec, beta, alpha));
}
void addmv_(Stack& s) {
  Scalar alpha = pop_scalar(s), beta = pop_scalar(s);
  Tensor vec = pop_tensor(s), mat = pop_tensor(s);
  Tensor self = pop_tensor(s);
  assign_inplace(self, addmv_impl(self, mat, vec, beta, alpha), "addmv_");
  push(s, self);
}

// --- index factories ------------------------------------------------------------------------------

template <bool kLower>
void triangle_indices(Stack& s) {
  std::optional<DType> dtype;
  pop_tensor_options(s, kLower ? "tril_indices" : "triu_indices", &dtype);
  const int64_t offset = pop_int(s), col = pop_int(s), row = pop_int(s);
  TL_CHECK(row >= 0, ValueError, "row must be non-negative, got{}", row);
  TL_CHECK(col >= 0, ValueError, "col must be non-negative, got{}", col);
  const DType out = dtype.value_or(DType::Long);
  TL_CHECK(out == DType::Long || out == DType::Int, UnsupportedError, "\"{}\" not implemented for '{}'",
           kLower ? "tril_indices" : "triu_indices", dtype_info(out).scalar_type_name);
  std::vector<int64_t> rows, cols;
  for (int64_t i = 0; i < row; ++i)
    for (int64_t j = 0; j < col; ++j)
      if (kLower ? j - i <= offset : j - i >= offset) {
        TL_CHECK(rows.size() < (size_t{1} << 26), LimitError, "{}: more than 2^26 indices", kLower ? "tril_indices" : "triu_indices");
        rows.push_back(i);
        cols.push_back(j);
      }
  const auto n = static_cast<int64_t>(rows.size());
  rows.insert(rows.end(), cols.begin(), cols.end());
  push(s, tensor<int64_t>(rows, {2, n}).to(out));
}

// renorm: each slice along dim scaled by maxnorm / (norm + 1e-7) where its p-norm
// exceeds maxnorm; float16/bfloat16 computed in float and rounded once, as torch.
void renorm(Stack& s) {
  const double maxnorm = pop_scalar(s).to<double>();
  const int64_t dim = pop_int(s);
  const double p = pop_scalar(s).to<double>();
  Tensor x = pop_tensor(s);
  TL_CHECK(maxnorm >= 0, ValueError, "renorm: expected maxnorm to be >= 0 but got {}", maxnorm);
  TL_CHECK(x.dim() > 1, ValueError, "renorm: input needs at least 2 dimensions, got {} dimensions", x.dim());
  TL_CHECK(p > 0, ValueError, "renorm: non-positive-norm not supported");
  TL_CHECK(is_floating(x.dtype()), TypeError, "linalg.vector_norm: Expected a floating point or complex tensor as input. Got {}",
           type_name(x.dtype()));
  const int64_t d = wrap_dim(dim, x.dim(), "renorm");
  Shape others;
  for (int64_t i = 0; i < x.dim(); ++i)
    if (i != d) others.push_back(i);
  const bool low = x.dtype() == DType::Half || x.dtype() == DType::BFloat16;
  const Tensor xf = low ? x.to(DType::Float) : x;
  Tensor norm = torchlet::norm(xf, p, others, true);
  Tensor scale = torchlet::div(ones(norm.sizes(), norm.dtype()), torchlet::add(norm, Scalar(1e-7)));
  Tensor factor = torchlet::where(torchlet::gt(norm, Scalar(maxnorm)), torchlet::mul(scale, Scalar(maxnorm)), ones(norm.sizes(), norm.dtype()));
  push(s, torchlet::mul(xf, factor).to(x.dtype()));
}

// combinations: the r-element index tuples of a 1-D tensor in lexicographic order
// (non-decreasing with replacement), as rows.
void combinations(Stack& s) {
  const bool with_replacement = pop_bool(s);
  const int64_t r = pop_int(s);
  Tensor x = pop_tensor(s);
  TL_CHECK(x.dim() == 1, ValueError, "Expect a 1D vector, but got shape {}", shape_repr(x.sizes()));
  TL_CHECK(r >= 0, ValueError, "Expect a non-negative number, but got {}", r);
  if (r == 0) {
    push(s, empty({0}, x.dtype()));
    return;
  }
  const int64_t n = x.numel();
  std::vector<int64_t> picks, tuple(static_cast<size_t>(r));
  std::function<void(int64_t, int64_t)> pick = [&](int64_t slot, int64_t from) {
    if (slot == r) {
      TL_CHECK(picks.size() < (size_t{1} << 26), LimitError, "combinations: more than 2^26 indices");
      picks.insert(picks.end(), tuple.begin(), tuple.end());
      return;
    }
    for (int64_t i = from; i < n; ++i) {
      tuple[static_cast<size_t>(slot)] = i;
      pick(slot + 1, with_replacement ? i : i + 1);
    }
  };
  pick(0, 0);
  const auto rows = static_cast<int64_t>(picks.size()) / r;
  Tensor idx = tensor<int64_t>(picks, {std::max<int64_t>(rows * r, 0)});
  push(s, torchlet::index_select(x, 0, idx).reshape({rows, r}));
}

// --- order statistics (kernels in src/tensor/kernels/order.cpp) ----------------------------------

template <bool kIgnoreNan>
void median_all(Stack& s) { push(s, torchlet::median(pop_tensor(s), kIgnoreNan)); }
template <bool kIgnoreNan>
void median_dim(Stack& s) {
  const bool keepdim = pop_bool(s);
  const int64_t dim = pop_int(s);
  auto [v, i] = torchlet::median(pop_tensor(s), dim, keepdim, kIgnoreNan);
  push(s, v, i);
}
void kthvalue(Stack& s) {
  const bool keepdim = pop_bool(s);
  const int64_t dim = pop_int(s), k = pop_int(s);
  auto [v, i] = torchlet::kthvalue(pop_tensor(s), k, dim, keepdim);
  push(s, v, i);
}
void mode(Stack& s) {
  const bool keepdim = pop_bool(s);
  const int64_t dim = pop_int(s);
  auto [v, i] = torchlet::mode(pop_tensor(s), dim, keepdim);
  push(s, v, i);
}
template <bool kMax>
void running_extreme(Stack& s) {
  const int64_t dim = pop_int(s);
  Tensor x = pop_tensor(s);
  auto [v, i] = kMax ? torchlet::cummax(x, dim) : torchlet::cummin(x, dim);
  push(s, v, i);
}
void logcumsumexp(Stack& s) {
  const int64_t dim = pop_int(s);
  push(s, torchlet::logcumsumexp(pop_tensor(s), dim));
}

// --- uniqueness, sorted search, take ----------------------------------------------------------

void push_unique(Stack& s, const UniqueResult& r, bool with_counts = true) {
  push(s, r.values, r.inverse);
  if (with_counts) push(s, r.counts);
}
void unique2(Stack& s) {
  const bool counts = pop_bool(s), inverse = pop_bool(s), sorted = pop_bool(s);
  push_unique(s, torchlet::unique(pop_tensor(s), sorted, inverse, counts));
}
void unique1(Stack& s) {
  const bool inverse = pop_bool(s), sorted = pop_bool(s);
  push_unique(s, torchlet::unique(pop_tensor(s), sorted, inverse, false), false);
}
void unique_consecutive(Stack& s) {
  auto dim = pop_opt_int(s);
  const bool counts = pop_bool(s), inverse = pop_bool(s);
  Tensor x = pop_tensor(s);
  push_unique(s, dim ? torchlet::unique_dim(x, *dim, true) : torchlet::unique_consecutive(x, inverse, counts));
}
void unique_dim(Stack& s) {
  pop_bool(s);  // return_counts: torch fills inverse and counts either way
  pop_bool(s);  // return_inverse
  pop_bool(s);  // sorted: always, as torch
  const int64_t dim = pop_int(s);
  push_unique(s, torchlet::unique_dim(pop_tensor(s), dim, false));
}
void unique_dim_consecutive(Stack& s) {
  pop_bool(s);
  pop_bool(s);
  const int64_t dim = pop_int(s);
  push_unique(s, torchlet::unique_dim(pop_tensor(s), dim, true));
}

// right, reconciled with side ("left" / "right") as torch does.
bool search_right(bool right, const std::optional<std::string>& side) {
  if (!side) return right;
  TL_CHECK(*side == "left" || *side == "right", ValueError, "torch.searchsorted(): side can only be 'left' or 'right' but got {}",
           *side);
  TL_CHECK(!(right && *side == "left"), ValueError,
           "torch.searchsorted(): side and right can't be set to opposites, got side of left while right was True");
  return *side == "right";
}
void searchsorted_tensor(Stack& s) {
  auto sorter = pop_opt_tensor(s);
  auto side = pop_opt_str(s);
  const bool right = pop_bool(s), out_int32 = pop_bool(s);
  Tensor values = pop_tensor(s);
  Tensor seq = pop_tensor(s);
  push(s, torchlet::searchsorted(seq, values, out_int32, search_right(right, side), sorter));
}
void searchsorted_scalar(Stack& s) {
  auto sorter = pop_opt_tensor(s);
  auto side = pop_opt_str(s);
  const bool right = pop_bool(s), out_int32 = pop_bool(s);
  Scalar value = pop_scalar(s);
  Tensor seq = pop_tensor(s);
  TL_CHECK(seq.dim() == 1, ValueError, "torch.searchsorted(): input value can be a scalar only when boundaries tensor dimension is 1, "
           "but we got boundaries tensor dim({}) and input value's dim(0) numel(1)", seq.dim());
  push(s, torchlet::searchsorted(seq, scalar_tensor(value), out_int32, search_right(right, side), sorter));
}
Tensor bucketize_impl(const Tensor& values, const Tensor& boundaries, bool out_int32, bool right) {
  TL_CHECK(boundaries.dim() == 1, ValueError, "boundaries tensor must be 1 dimension, but got dim({})", boundaries.dim());
  return torchlet::searchsorted(boundaries, values, out_int32, right);
}
void bucketize_tensor(Stack& s) {
  const bool right = pop_bool(s), out_int32 = pop_bool(s);
  Tensor boundaries = pop_tensor(s);
  push(s, bucketize_impl(pop_tensor(s), boundaries, out_int32, right));
}
void bucketize_scalar(Stack& s) {
  const bool right = pop_bool(s), out_int32 = pop_bool(s);
  Tensor boundaries = pop_tensor(s);
  push(s, bucketize_impl(scalar_tensor(pop_scalar(s)), boundaries, out_int32, right));
}

// take: self read as a flat tensor, at each (possibly negative) index.
void take(Stack& s) {
  Tensor index = pop_tensor(s);
  Tensor self = pop_tensor(s);
  TL_CHECK(index.dtype() == DType::Long, TypeError, "take(): Expected a long tensor for index, but got {}", type_name(index.dtype()));
  const int64_t n = self.numel();
  Tensor idx = index.contiguous().clone();
  int64_t* p = idx.data<int64_t>();
  for (int64_t i = 0; i < idx.numel(); ++i) {
    TL_CHECK(p[i] >= -n && p[i] < n, IndexError, "out of range: tried to access index {} on a tensor of {} elements.", p[i], n);
    if (p[i] < 0) p[i] += n;
  }
  push(s, torchlet::index_select(self.reshape({-1}), 0, idx.reshape({-1})).reshape(index.sizes()));
}

// --- sign and infinity tests -----------------------------------------------------------------

// torch.copysign: |self| with other's sign bit, in the promoted floating type (integers
// become float32); NaN and -0.0 keep or take a sign as C's copysign gives them.
Tensor copysign_impl(const Tensor& self, const Tensor& other, DType promoted) {
  const DType t = is_floating(promoted) ? promoted : kDefaultFloatDType;
  const Tensor magnitude = torchlet::abs(self.to(t));
  return torchlet::where(torchlet::signbit(other.to(t)), torchlet::neg(magnitude), magnitude);
}
// The six copysign schemas: `other` a Tensor or a Scalar (promoted as a Scalar), the
// result returned, written into self, or written into out=.
enum class Form { kFunctional, kInPlace, kOut };
template <bool kScalarOther, Form kForm>
void copysign(Stack& s) {
  Tensor out;
  if constexpr (kForm == Form::kOut) out = pop_tensor(s);
  auto [self, other, promoted] =
      pop_binary_operands<kScalarOther ? BinaryOperands::kScalarOther : BinaryOperands::kTensors>(s);
  const Tensor result = copysign_impl(self, other, promoted);
  if constexpr (kForm == Form::kFunctional) {
    push(s, result);
  } else if constexpr (kForm == Form::kInPlace) {
    assign_inplace(self, result, "copysign_");
    push(s, self);
  } else {
    assign_out(out, result, "copysign");
    push(s, out);
  }
}

// torch.heaviside: values where self is 0, else (self > 0) in self's dtype (NaN gives 0).
Tensor heaviside_impl(const Tensor& self, const Tensor& values) {
  TL_CHECK(self.dtype() == values.dtype(), TypeError, "heaviside is not yet implemented for tensors with different dtypes.");
  return torchlet::where(torchlet::eq(self, Scalar(0)), values, torchlet::gt(self, Scalar(0)).to(self.dtype()));
}
void heaviside(Stack& s) {
  Tensor values = pop_tensor(s);
  push(s, heaviside_impl(pop_tensor(s), values));
}
void heaviside_(Stack& s) {
  Tensor values = pop_tensor(s);
  Tensor self = pop_tensor(s);
  assign_inplace(self, heaviside_impl(self, values), "heaviside_");
  push(s, self);
}
void heaviside_out(Stack& s) {
  Tensor out = pop_tensor(s);
  Tensor values = pop_tensor(s);
  assign_out(out, heaviside_impl(pop_tensor(s), values), "heaviside");
  push(s, out);
}

// torch.isposinf/isneginf: bool; integers are never infinite. Their out= forms take only
// a bool out, as torch's.
template <bool kPositive>
Tensor isinf_signed(const Tensor& self) {
  if (!is_floating(self.dtype())) return zeros(self.sizes(), DType::Bool);
  const double inf = std::numeric_limits<double>::infinity();
  return torchlet::eq(self, Scalar(kPositive ? inf : -inf));
}
template <bool kPositive>
void isinf_signed_op(Stack& s) { push(s, isinf_signed<kPositive>(pop_tensor(s))); }
template <bool kPositive>
void isinf_signed_out(Stack& s) {
  Tensor out = pop_tensor(s);
  Tensor self = pop_tensor(s);
  TL_CHECK(out.dtype() == DType::Bool, TypeError, "{} does not support non-boolean outputs.",
           kPositive ? "isposinf" : "isneginf");
  assign_out(out, isinf_signed<kPositive>(self), kPositive ? "isposinf" : "isneginf");
  push(s, out);
}
// Real tensors are real, and their conjugate is themselves (torch returns the input).
void isreal(Stack& s) { push(s, ones(pop_tensor(s).sizes(), DType::Bool)); }
void conj_of_real(Stack& s) { push(s, pop_tensor(s).alias()); }

// torch.narrow_copy: narrow, then a contiguous copy. (torch 1.13's CPU kernel scrambles
// a transposed input's elements: builtins_test.)
Tensor narrow_copy_of(Stack& s) {
  const int64_t length = pop_int(s), start = pop_int(s), dim = pop_int(s);
  return pop_tensor(s).narrow(dim, start, length).clone();
}
void narrow_copy(Stack& s) { push(s, narrow_copy_of(s)); }
void narrow_copy_out(Stack& s) {
  Tensor out = pop_tensor(s);
  assign_out(out, narrow_copy_of(s), "narrow_copy");
  push(s, out);
}

}  // namespace

// --- compositions other adapter files share (composites.h) -----------------------------------

// torch 1.13's lerp kernel: one fused multiply-add, fma(w, end - self, self) for
// w < 0.5 (negative weights included, whatever their size), else
// fma(w - 1, end - self, end). Read off torch's results: rounding the product
// separately, or testing |w|, differs from torch in the last bit.
template <typename T>
void lerp_elements(const T* self, const T* end, const T* weight, T* out, int64_t n) {
  for (int64_t i = 0; i < n; ++i) {
    const T diff = end[i] - self[i];
    out[i] = weight[i] < T(0.5) ? std::fma(weight[i], diff, self[i]) : std::fma(weight[i] - T(1), diff, end[i]);
  }
}

Tensor lerp_of(const Tensor& self, const Tensor& end, const Tensor& weight) {
  TL_CHECK(self.dtype() == end.dtype(), TypeError, "expected dtype {} for `end` but got dtype {}", dtype_info(self.dtype()).name,
           dtype_info(end.dtype()).name);
  TL_CHECK(self.dtype() == weight.dtype(), TypeError, "expected dtype {} for `weight` but got dtype {}",
           dtype_info(self.dtype()).name, dtype_info(weight.dtype()).name);
  TL_CHECK(self.dtype() == DType::Float || self.dtype() == DType::Double || self.dtype() == DType::BFloat16, UnsupportedError,
           "\"lerp_kernel_tensor\" not implemented for '{}'", type_name(self.dtype()));
  if (self.dtype() == DType::BFloat16)  // computed in float, rounded once (torch's opmath)
    return lerp_of(self.to(DType::Float), end.to(DType::Float), weight.to(DType::Float)).to(DType::BFloat16);
  const Shape shape = broadcast_shapes(broadcast_shapes(self.sizes(), end.sizes()), weight.sizes());
  const Tensor a = self.expand(shape).contiguous(), b = end.expand(shape).contiguous(), w = weight.expand(shape).contiguous();
  Tensor result = empty(shape, self.dtype());
  if (self.dtype() == DType::Float)
    lerp_elements(a.data<float>(), b.data<float>(), w.data<float>(), result.data<float>(), result.numel());
  else
    lerp_elements(a.data<double>(), b.data<double>(), w.data<double>(), result.data<double>(), result.numel());
  return result;
}

// torch.diag: one definition for diag and diagflat (torch's diagflat is
// contiguous().view(-1).diag(offset)).
Tensor diag_of(const Tensor& x, int64_t offset) {
  TL_CHECK(x.dim() == 1 || x.dim() == 2, ValueError, "diag(): Supports 1D or 2D tensors. Got {}D", x.dim());
  TL_CHECK(x.dtype() != DType::Half, UnsupportedError, "\"diag\" not implemented for 'Half'");
  if (x.dim() == 2) return x.diagonal(offset).clone();
  const int64_t n = x.size(0) + (offset < 0 ? -offset : offset);
  Tensor result = zeros({n, n}, x.dtype());
  result.diagonal(offset).copy_(x);
  return result;
}

static RegisterOps reg({
    {"aten::hsplit.int(Tensor(a -> *) self, int sections) -> Tensor(a)[]", hsplit_int},
    {"aten::hsplit.array(Tensor(a -> *) self, int[] indices) -> Tensor(a)[]", hsplit_array},
    {"aten::vsplit.int(Tensor(a -> *) self, int sections) -> Tensor(a)[]", vsplit_int},
    {"aten::vsplit.array(Tensor(a -> *) self, int[] indices) -> Tensor(a)[]", vsplit_array},
    {"aten::dsplit.int(Tensor(a -> *) self, int sections) -> Tensor(a)[]", dsplit_int},
    {"aten::dsplit.array(Tensor(a -> *) self, int[] indices) -> Tensor(a)[]", dsplit_array},
    {"aten::copysign.Tensor(Tensor self, Tensor other) -> Tensor", copysign<false, Form::kFunctional>},
    {"aten::copysign.Scalar(Tensor self, Scalar other) -> Tensor", copysign<true, Form::kFunctional>},
    {"aten::copysign_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)", copysign<false, Form::kInPlace>},
    {"aten::copysign_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)", copysign<true, Form::kInPlace>},
    {"aten::copysign.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", copysign<false, Form::kOut>},
    {"aten::copysign.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)", copysign<true, Form::kOut>},
    {"aten::heaviside(Tensor self, Tensor values) -> Tensor", heaviside},
    {"aten::heaviside_(Tensor(a!) self, Tensor values) -> Tensor(a!)", heaviside_},
    {"aten::heaviside.out(Tensor self, Tensor values, *, Tensor(a!) out) -> Tensor(a!)", heaviside_out},
    {"aten::isposinf(Tensor self) -> Tensor", isinf_signed_op<true>},
    {"aten::isposinf.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", isinf_signed_out<true>},
    {"aten::isneginf(Tensor self) -> Tensor", isinf_signed_op<false>},
    {"aten::isneginf.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", isinf_signed_out<false>},
    {"aten::isreal(Tensor self) -> Tensor", isreal},
    {"aten::conj(Tensor(a) self) -> Tensor(a)", conj_of_real},
    {"aten::resolve_conj(Tensor(a) self) -> Tensor(a)", conj_of_real},
    {"aten::resolve_neg(Tensor(a) self) -> Tensor(a)", conj_of_real},
    {"aten::narrow_copy(Tensor self, int dim, SymInt start, SymInt length) -> Tensor", narrow_copy},
    {"aten::narrow_copy.out(Tensor self, int dim, SymInt start, SymInt length, *, Tensor(a!) out) -> Tensor(a!)", narrow_copy_out},
    {"aten::masked_select(Tensor self, Tensor mask) -> Tensor", masked_select},
    {"aten::argwhere(Tensor self) -> Tensor", argwhere},
    {"aten::isin.Tensor_Tensor(Tensor elements, Tensor test_elements, *, bool assume_unique=False, bool invert=False) -> Tensor", isin_tt},
    {"aten::isin.Tensor_Scalar(Tensor elements, Scalar test_element, *, bool assume_unique=False, bool invert=False) -> Tensor", isin_ts},
    {"aten::isin.Scalar_Tensor(Scalar element, Tensor test_elements, *, bool assume_unique=False, bool invert=False) -> Tensor", isin_st},
    {"aten::nan_to_num(Tensor self, float? nan=None, float? posinf=None, float? neginf=None) -> Tensor", nan_to_num},
    {"aten::nan_to_num_(Tensor(a!) self, float? nan=None, float? posinf=None, float? neginf=None) -> Tensor(a!)", nan_to_num_},
    {"aten::isclose(Tensor self, Tensor other, float rtol=1.0000000000000001e-05, float atol=1e-08, bool equal_nan=False) -> Tensor", isclose},
    {"aten::allclose(Tensor self, Tensor other, float rtol=1.0000000000000001e-05, float atol=1e-08, bool equal_nan=False) -> bool", allclose},
    {"aten::nansum(Tensor self, int[1]? dim=None, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor", nansum},
    {"aten::nanmean(Tensor self, int[1]? dim=None, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor", nanmean},
    {"aten::round.decimals(Tensor self, *, int decimals) -> Tensor", round_decimals},
    {"aten::round_.decimals(Tensor(a!) self, *, int decimals) -> Tensor(a!)", round_decimals_},
    {"aten::count_nonzero(Tensor self, int? dim=None) -> Tensor", count_nonzero},
    {"aten::count_nonzero.dim_IntList(Tensor self, int[] dim) -> Tensor", count_nonzero_dims},
    {"aten::diagonal(Tensor(a) self, int offset=0, int dim1=0, int dim2=1) -> Tensor(a)", diagonal},
    {"aten::diag(Tensor self, int diagonal=0) -> Tensor", diag},
    {"aten::trace(Tensor self) -> Tensor", trace},
    {"aten::broadcast_to(Tensor(a) self, int[] size) -> Tensor(a)", broadcast_to},
    {"aten::broadcast_tensors(Tensor[] tensors) -> Tensor[]", broadcast_tensors},
    {"aten::tensor_split.sections(Tensor(a -> *) self, int sections, int dim=0) -> Tensor(a)[]", tensor_split_sections},
    {"aten::tensor_split.indices(Tensor(a -> *) self, int[] indices, int dim=0) -> Tensor(a)[]", tensor_split_indices},
    {"aten::atleast_1d(Tensor self) -> Tensor", atleast_one<1>},
    {"aten::atleast_2d(Tensor self) -> Tensor", atleast_one<2>},
    {"aten::atleast_3d(Tensor self) -> Tensor", atleast_one<3>},
    {"aten::atleast_1d.Sequence(Tensor[] tensors) -> Tensor[]", atleast_seq<1>},
    {"aten::atleast_2d.Sequence(Tensor[] tensors) -> Tensor[]", atleast_seq<2>},
    {"aten::atleast_3d.Sequence(Tensor[] tensors) -> Tensor[]", atleast_seq<3>},
    {"aten::hstack(Tensor[] tensors) -> Tensor", hstack},
    {"aten::vstack(Tensor[] tensors) -> Tensor", vstack},
    {"aten::row_stack(Tensor[] tensors) -> Tensor", vstack},
    {"aten::dstack(Tensor[] tensors) -> Tensor", dstack},
    {"aten::column_stack(Tensor[] tensors) -> Tensor", column_stack},
    {"aten::meshgrid(Tensor[] tensors) -> Tensor[]", meshgrid},
    {"aten::meshgrid.indexing(Tensor[] tensors, *, str indexing) -> Tensor[]", meshgrid_indexing},
    {"aten::fliplr(Tensor self) -> Tensor", fliplr},
    {"aten::flipud(Tensor self) -> Tensor", flipud},
    {"aten::rot90(Tensor self, int k=1, int[] dims=[0, 1]) -> Tensor", rot90},
    {"aten::std_mean(Tensor self, bool unbiased=True) -> (Tensor, Tensor)", moments_all<true>},
    {"aten::std_mean.dim(Tensor self, int[1]? dim, bool unbiased=True, bool keepdim=False) -> (Tensor, Tensor)", moments_dim<true>},
    {"aten::std_mean.correction(Tensor self, int[1]? dim, *, int? correction, bool keepdim=False) -> (Tensor, Tensor)", moments_correction<true>},
    {"aten::var_mean(Tensor self, bool unbiased=True) -> (Tensor, Tensor)", moments_all<false>},
    {"aten::var_mean.dim(Tensor self, int[1]? dim, bool unbiased=True, bool keepdim=False) -> (Tensor, Tensor)", moments_dim<false>},
    {"aten::var_mean.correction(Tensor self, int[1]? dim, *, int? correction, bool keepdim=False) -> (Tensor, Tensor)", moments_correction<false>},
    {"aten::aminmax(Tensor self, *, int? dim=None, bool keepdim=False) -> (Tensor min, Tensor max)", aminmax},
    {"aten::lerp.Scalar(Tensor self, Tensor end, Scalar weight) -> Tensor", lerp_scalar},
    {"aten::lerp.Tensor(Tensor self, Tensor end, Tensor weight) -> Tensor", lerp_tensor},
    {"aten::lerp_.Scalar(Tensor(a!) self, Tensor end, Scalar weight) -> Tensor(a!)", lerp_scalar_},
    {"aten::lerp_.Tensor(Tensor(a!) self, Tensor end, Tensor weight) -> Tensor(a!)", lerp_tensor_},
    {"aten::logaddexp(Tensor self, Tensor other) -> Tensor", logaddexp<false>},
    {"aten::logaddexp2(Tensor self, Tensor other) -> Tensor", logaddexp<true>},
    {"aten::xlogy.Tensor(Tensor self, Tensor other) -> Tensor", xlogy_tt},
    {"aten::xlogy.Scalar_Other(Tensor self, Scalar other) -> Tensor", xlogy_ts},
    {"aten::xlogy.Scalar_Self(Scalar self, Tensor other) -> Tensor", xlogy_st},
    {"aten::xlogy_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)", xlogy_tt_},
    {"aten::xlogy_.Scalar_Other(Tensor(a!) self, Scalar other) -> Tensor(a!)", xlogy_ts_},
    {"aten::atan2(Tensor self, Tensor other) -> Tensor", atan2},
    {"aten::atan2_(Tensor(a!) self, Tensor other) -> Tensor(a!)", atan2_},
    {"aten::arctan2(Tensor self, Tensor other) -> Tensor", atan2},
    {"aten::arctan2_(Tensor(a!) self, Tensor other) -> Tensor(a!)", atan2_},
    {"aten::diff(Tensor self, int n=1, int dim=-1, Tensor? prepend=None, Tensor? append=None) -> Tensor", diff},
    {"aten::deg2rad(Tensor self) -> Tensor", angle_units_op<true>},
    {"aten::deg2rad_(Tensor(a!) self) -> Tensor(a!)", angle_units_op_<true>},
    {"aten::rad2deg(Tensor self) -> Tensor", angle_units_op<false>},
    {"aten::rad2deg_(Tensor(a!) self) -> Tensor(a!)", angle_units_op_<false>},
    {"aten::mvlgamma(Tensor self, int p) -> Tensor", mvlgamma},
    {"aten::mvlgamma_(Tensor(a!) self, int p) -> Tensor(a!)", mvlgamma_},
    {"aten::mvlgamma.out(Tensor self, int p, *, Tensor(a!) out) -> Tensor(a!)", mvlgamma_out},
    {"aten::logit(Tensor self, float? eps=None) -> Tensor", logit},
    {"aten::logit_(Tensor(a!) self, float? eps=None) -> Tensor(a!)", logit_},
    {"aten::float_power.Tensor_Tensor(Tensor self, Tensor exponent) -> Tensor", float_power_tt},
    {"aten::float_power.Tensor_Scalar(Tensor self, Scalar exponent) -> Tensor", float_power_ts},
    {"aten::float_power.Scalar(Scalar self, Tensor exponent) -> Tensor", float_power_st},
    {"aten::float_power_.Tensor(Tensor(a!) self, Tensor exponent) -> Tensor(a!)", float_power_t_},
    {"aten::float_power_.Scalar(Tensor(a!) self, Scalar exponent) -> Tensor(a!)", float_power_s_},
    {"aten::cross(Tensor self, Tensor other, int? dim=None) -> Tensor", cross},
    {"aten::linalg_cross(Tensor self, Tensor other, *, int dim=-1) -> Tensor", linalg_cross},
    {"aten::kron(Tensor self, Tensor other) -> Tensor", kron},
    {"aten::tensordot(Tensor self, Tensor other, int[] dims_self, int[] dims_other) -> Tensor", tensordot},
    {"aten::inner(Tensor self, Tensor other) -> Tensor", inner},
    {"aten::addr(Tensor self, Tensor vec1, Tensor vec2, *, Scalar beta=1, Scalar alpha=1) -> Tensor", addr},
    {"aten::addr_(Tensor(a!) self, Tensor vec1, Tensor vec2, *, Scalar beta=1, Scalar alpha=1) -> Tensor(a!)", addr_},
    {"aten::addmv(Tensor self, Tensor mat, Tensor vec, *, Scalar beta=1, Scalar alpha=1) -> Tensor", addmv},
    {"aten::addmv_(Tensor(a!) self, Tensor mat, Tensor vec, *, Scalar beta=1, Scalar alpha=1) -> Tensor(a!)", addmv_},
    {"aten::renorm(Tensor self, Scalar p, int dim, Scalar maxnorm) -> Tensor", renorm},
    {"aten::combinations(Tensor self, int r=2, bool with_replacement=False) -> Tensor", combinations},
    {"aten::median(Tensor self) -> Tensor", median_all<false>},
    {"aten::median.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)", median_dim<false>},
    {"aten::nanmedian(Tensor self) -> Tensor", median_all<true>},
    {"aten::nanmedian.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)", median_dim<true>},
    {"aten::kthvalue(Tensor self, int k, int dim=-1, bool keepdim=False) -> (Tensor values, Tensor indices)", kthvalue},
    {"aten::mode(Tensor self, int dim=-1, bool keepdim=False) -> (Tensor values, Tensor indices)", mode},
    {"aten::cummax(Tensor self, int dim) -> (Tensor values, Tensor indices)", running_extreme<true>},
    {"aten::cummin(Tensor self, int dim) -> (Tensor values, Tensor indices)", running_extreme<false>},
    {"aten::logcumsumexp(Tensor self, int dim) -> Tensor", logcumsumexp},
    {"aten::_unique2(Tensor self, bool sorted=True, bool return_inverse=False, bool return_counts=False) -> (Tensor, Tensor, Tensor)", unique2},
    {"aten::_unique(Tensor self, bool sorted=True, bool return_inverse=False) -> (Tensor, Tensor)", unique1},
    {"aten::unique_consecutive(Tensor self, bool return_inverse=False, bool return_counts=False, int? dim=None) -> (Tensor, Tensor, Tensor)", unique_consecutive},
    {"aten::unique_dim(Tensor self, int dim, bool sorted=True, bool return_inverse=False, bool return_counts=False) -> (Tensor, Tensor, Tensor)", unique_dim},
    {"aten::unique_dim_consecutive(Tensor self, int dim, bool return_inverse=False, bool return_counts=False) -> (Tensor, Tensor, Tensor)", unique_dim_consecutive},
    {"aten::searchsorted.Tensor(Tensor sorted_sequence, Tensor self, *, bool out_int32=False, bool right=False, str? side=None, Tensor? sorter=None) -> Tensor", searchsorted_tensor},
    {"aten::searchsorted.Scalar(Tensor sorted_sequence, Scalar self, *, bool out_int32=False, bool right=False, str? side=None, Tensor? sorter=None) -> Tensor", searchsorted_scalar},
    {"aten::bucketize.Tensor(Tensor self, Tensor boundaries, *, bool out_int32=False, bool right=False) -> Tensor", bucketize_tensor},
    {"aten::bucketize.Scalar(Scalar self, Tensor boundaries, *, bool out_int32=False, bool right=False) -> Tensor", bucketize_scalar},
    {"aten::take(Tensor self, Tensor index) -> Tensor", take},
    {"aten::tril_indices(int row, int col, int offset=0, *, ScalarType? dtype=4, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor", triangle_indices<true>},
    {"aten::triu_indices(int row, int col, int offset=0, *, ScalarType? dtype=4, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor", triangle_indices<false>},
});

}  // namespace torchlet::jit::ops

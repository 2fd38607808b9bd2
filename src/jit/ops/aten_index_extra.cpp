// Index-driven writes and their relatives, as torch 1.13 defines them: scatter_add and
// scatter_reduce (sum/prod/mean/amax/amin, include_self), scatter's older add/multiply
// reductions (through the same kernel), index_add/index_copy/index_fill,
// masked_scatter, put, one_hot, Tensor.unfold, bincount, block_diag, cartesian_prod,
// logspace and cdist. Writes happen in index order, as torch's CPU
// loops do, so repeated indices accumulate (or overwrite) in the same order. Cases run
// through torch in tests/fixtures/gen_ops.py (index_extra_ops).
#include <algorithm>
#include <cmath>
#include <limits>
#include <string_view>

#include <torchlet/ops.h>

#include "jit/ops/ops_util.h"

namespace torchlet::jit::ops {
namespace {

std::string_view type_name(DType d) { return dtype_info(d).scalar_type_name; }

// Visits every position of `sizes` in row-major order.
template <typename Fn>
void for_each_position(IntList sizes, Fn fn) {
  Shape pos(sizes.size(), 0);
  int64_t total = 1;
  for (int64_t s : sizes) total *= s;
  for (int64_t n = 0; n < total; ++n) {
    fn(pos);
    for (size_t k = pos.size(); k-- > 0;) {
      if (++pos[k] < sizes[k]) break;
      pos[k] = 0;
    }
  }
}
int64_t offset_of(const Tensor& t, const Shape& pos) {
  int64_t off = t.storage_offset();
  for (size_t k = 0; k < pos.size(); ++k) off += pos[k] * t.strides()[k];
  return off;
}

// --- scatter_add / scatter_reduce ----------------------------------------------------------

enum class Reduce { Sum, Prod, Mean, Amax, Amin };
Reduce parse_reduce(std::string_view r) {
  if (r == "sum") return Reduce::Sum;
  if (r == "prod") return Reduce::Prod;
  if (r == "mean") return Reduce::Mean;
  if (r == "amax") return Reduce::Amax;
  if (r == "amin") return Reduce::Amin;
  TL_CHECK(false, ValueError, "reduce argument must be either sum, prod, mean, amax or amin, got {}", r);
  return Reduce::Sum;
}

Tensor scatter_reduce_impl(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src, Reduce reduce,
                           bool include_self) {
  TL_CHECK(index.dtype() == DType::Long, TypeError, "scatter(): Expected dtype int64 for index");
  TL_CHECK(src.dtype() == self.dtype(), TypeError, "scatter(): Expected self.dtype to be equal to src.dtype");
  TL_CHECK(!is_complex(self.dtype()), UnsupportedError, "scatter_reduce: complex tensors are not supported");
  const int64_t nd = std::max<int64_t>(self.dim(), 1);
  const int64_t d = wrap_dim(dim, nd, "scatter");
  Tensor out = (self.dim() == 0 ? self.reshape({1}) : self).contiguous().clone();
  const Tensor ix = index.dim() == 0 ? index.reshape({1}) : index;
  const Tensor sv = src.dim() == 0 ? src.reshape({1}) : src;
  if (ix.numel() == 0) return self.clone();
  TL_CHECK(ix.dim() == out.dim() && sv.dim() == out.dim(), ValueError,
           "Index tensor must have the same number of dimensions as self tensor");
  for (int64_t k = 0; k < ix.dim(); ++k)
    TL_CHECK(ix.size(k) <= sv.size(k) && (k == d || ix.size(k) <= out.size(k)), ValueError,
             "Expected index {} to be smaller than self {} apart from dimension {} and to be smaller size than src {}",
             shape_repr(ix.sizes()), shape_repr(out.sizes()), d, shape_repr(sv.sizes()));
  TL_CHECK(!(reduce == Reduce::Mean && self.dtype() == DType::Bool), UnsupportedError,
           "\"scatter_gather_tensor_cpu_reduce_mean\" not implemented for 'Bool'");
  const int64_t n = out.size(d);
  std::vector<int64_t> count(static_cast<size_t>(out.numel()), include_self ? 1 : 0);
  dispatch_real(self.dtype(), "scatter_reduce", [&]<typename T>() {
    using M = std::conditional_t<std::is_same_v<T, bool>, bool, std::conditional_t<std::is_integral_v<T>, T, double>>;
    T* o = out.data<T>();
    const T* s = static_cast<const T*>(sv.data_ptr()) - sv.storage_offset();
    const int64_t* ip = static_cast<const int64_t*>(ix.data_ptr()) - ix.storage_offset();
    for_each_position(ix.sizes(), [&](const Shape& pos) {
      const int64_t k = ip[offset_of(ix, pos)];
      TL_CHECK(k >= 0 && k < n, IndexError, "index {} is out of bounds for dimension {} with size {}", k, d, n);
      Shape at = pos;
      at[static_cast<size_t>(d)] = k;
      const int64_t t = offset_of(out, at) - out.storage_offset();
      const M v = static_cast<M>(s[offset_of(sv, pos)]);
      const M cur = static_cast<M>(o[t]);
      int64_t& c = count[static_cast<size_t>(t)];
      M r = v;
      if (c > 0) {  // (c == 0: include_self=False's first value, reduced with the identity, is v)
        switch (reduce) {
          case Reduce::Sum:
          case Reduce::Mean: r = static_cast<M>(cur + v); break;
          case Reduce::Prod: r = static_cast<M>(cur * v); break;
          case Reduce::Amax:
            if constexpr (std::is_floating_point_v<M>) r = std::isnan(cur) || std::isnan(v) ? std::numeric_limits<M>::quiet_NaN() : std::max(cur, v);
            else r = std::max(cur, v);
            break;
          case Reduce::Amin:
            if constexpr (std::is_floating_point_v<M>) r = std::isnan(cur) || std::isnan(v) ? std::numeric_limits<M>::quiet_NaN() : std::min(cur, v);
            else r = std::min(cur, v);
            break;
        }
      }
      ++c;
      o[t] = static_cast<T>(r);
    });
    if (reduce == Reduce::Mean)
      for (int64_t t = 0; t < out.numel(); ++t) {
        const int64_t c = count[static_cast<size_t>(t)];
        if (c == 0) continue;
        if constexpr (std::is_floating_point_v<M>) {
          o[t] = static_cast<T>(static_cast<M>(o[t]) / static_cast<M>(c));
        } else if constexpr (!std::is_same_v<M, bool>) {  // floor division, as torch's div_(count, "floor")
          const M q = static_cast<M>(o[t] / c);
          o[t] = static_cast<T>((o[t] % c != 0 && ((o[t] < 0) != (c < 0))) ? q - 1 : q);
        }
      }
  });
  return self.dim() == 0 ? out.reshape({}) : out;
}
void scatter_add(Stack& s) {
  Tensor src = pop_tensor(s), index = pop_tensor(s);
  const int64_t dim = pop_int(s);
  push(s, scatter_reduce_impl(pop_tensor(s), dim, index, src, Reduce::Sum, true));
}
void scatter_add_(Stack& s) {
  Tensor src = pop_tensor(s), index = pop_tensor(s);
  const int64_t dim = pop_int(s);
  Tensor self = pop_tensor(s);
  assign_inplace(self, scatter_reduce_impl(self, dim, index, src, Reduce::Sum, true), "scatter_add_");
  push(s, self);
}
Tensor pop_scatter_reduce(Stack& s, Tensor* self_out) {
  const bool include_self = pop_bool(s);
  std::string reduce = pop_str(s);
  Tensor src = pop_tensor(s), index = pop_tensor(s);
  const int64_t dim = pop_int(s);
  Tensor self = pop_tensor(s);
  if (self_out) *self_out = self;
  return scatter_reduce_impl(self, dim, index, src, parse_reduce(reduce), include_self);
}
void scatter_reduce(Stack& s) { push(s, pop_scatter_reduce(s, nullptr)); }
void scatter_reduce_(Stack& s) {
  Tensor self;
  Tensor r = pop_scatter_reduce(s, &self);
  assign_inplace(self, r, "scatter_reduce_");
  push(s, self);
}

// scatter(..., reduce="add" | "multiply"): torch's older reductions, run by the kernel
// scatter_reduce uses with the input included (results equal scatter_reduce's "sum" and
// "prod" bit for bit); a Scalar value acts as a src of the index's shape.
template <bool kScalarValue>
Tensor pop_scatter_legacy_reduce(Stack& s, Tensor* self_out) {
  const std::string reduce = pop_str(s);
  const IValue value = pop(s);
  const Tensor index = pop_tensor(s);
  const int64_t dim = pop_int(s);
  const Tensor self = pop_tensor(s);
  if (self_out) *self_out = self;
  TL_CHECK(reduce == "add" || reduce == "multiply", ValueError, "reduce argument must be either add or multiply.");
  Tensor src;
  if constexpr (kScalarValue) {
    src = full(index.sizes(), value.toScalar(), self.dtype());
  } else {
    src = value.toTensor();
    TL_CHECK(self.dtype() == src.dtype(), TypeError, "scatter(): Expected self.dtype to be equal to src.dtype");
  }
  return scatter_reduce_impl(self, dim, index, src, reduce == "add" ? Reduce::Sum : Reduce::Prod, true);
}
template <bool kScalarValue>
void scatter_legacy_reduce(Stack& s) { push(s, pop_scatter_legacy_reduce<kScalarValue>(s, nullptr)); }
template <bool kScalarValue>
void scatter_legacy_reduce_(Stack& s) {
  Tensor self;
  Tensor r = pop_scatter_legacy_reduce<kScalarValue>(s, &self);
  assign_inplace(self, r, "scatter_");
  push(s, self);
}

// --- index_add / index_copy / index_fill ------------------------------------------------------

std::vector<int64_t> vector_index(const Tensor& index, const char* op, bool allow_int32) {
  TL_CHECK(index.dim() <= 1, ValueError, "{}(): Index is supposed to be a vector", op);
  TL_CHECK(index.dtype() == DType::Long || (allow_int32 && index.dtype() == DType::Int), TypeError,
           "{}(): Expected dtype int{} for index", op, allow_int32 ? "32/int64" : "64");
  return index.reshape({-1}).to_vector<int64_t>();
}
Tensor rows_of(const Tensor& t) { return t.dim() == 0 ? t.reshape({1}) : t; }

Tensor index_add_impl(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& source, const Scalar& alpha) {
  const auto idx = vector_index(index, "index_add_", true);
  TL_CHECK(self.dtype() == source.dtype(), TypeError, "index_add_(): self ({}) and source ({}) must have the same scalar type",
           type_name(self.dtype()), type_name(source.dtype()));
  Tensor out = rows_of(self).clone();
  const Tensor src = rows_of(source);
  const int64_t d = wrap_dim(dim, out.dim(), "index_add_");
  TL_CHECK(static_cast<int64_t>(idx.size()) == (source.dim() == 0 ? 1 : src.size(d)), ValueError,
           "index_add_(): Number of indices ({}) should be equal to source.size(dim) ({})", idx.size(),
           source.dim() == 0 ? 1 : src.size(d));
  for (size_t i = 0; i < idx.size(); ++i) {
    const int64_t k = idx[i];
    TL_CHECK(k >= 0 && k < out.size(d), IndexError, "index out of range in self");  // torch: no negatives
    Tensor row = out.select(d, k);
    torchlet::add_(row, src.select(d, static_cast<int64_t>(i)), alpha);
  }
  return self.dim() == 0 ? out.reshape({}) : out;
}
void index_add(Stack& s) {
  Scalar alpha = pop_scalar(s);
  Tensor source = pop_tensor(s), index = pop_tensor(s);
  const int64_t dim = pop_int(s);
  push(s, index_add_impl(pop_tensor(s), dim, index, source, alpha));
}
void index_add_(Stack& s) {
  Scalar alpha = pop_scalar(s);
  Tensor source = pop_tensor(s), index = pop_tensor(s);
  const int64_t dim = pop_int(s);
  Tensor self = pop_tensor(s);
  assign_inplace(self, index_add_impl(self, dim, index, source, alpha), "index_add_");
  push(s, self);
}

Tensor index_copy_impl(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& source) {
  const auto idx = vector_index(index, "index_copy_", false);
  TL_CHECK(self.dtype() == source.dtype(), TypeError,
           "index_copy_(): self and source expected to have the same dtype, but got (self) {} and (source) {}",
           type_name(self.dtype()), type_name(source.dtype()));
  Tensor out = rows_of(self).clone();
  const Tensor src = rows_of(source);
  const int64_t d = wrap_dim(dim, out.dim(), "index_copy_");
  TL_CHECK(static_cast<int64_t>(idx.size()) == src.size(d), ValueError,
           "index_copy_(): Number of indices ({}) should be equal to source.size(dim) ({})", idx.size(), src.size(d));
  for (size_t i = 0; i < idx.size(); ++i) {
    const int64_t k = idx[i];
    TL_CHECK(k >= 0 && k < out.size(d), IndexError, "index_copy_(): index {} is out of bounds for dimension {} with size {}", k, d,
             out.size(d));
    out.select(d, k).copy_(src.select(d, static_cast<int64_t>(i)));
  }
  return self.dim() == 0 ? out.reshape({}) : out;
}
void index_copy(Stack& s) {
  Tensor source = pop_tensor(s), index = pop_tensor(s);
  const int64_t dim = pop_int(s);
  push(s, index_copy_impl(pop_tensor(s), dim, index, source));
}
void index_copy_(Stack& s) {
  Tensor source = pop_tensor(s), index = pop_tensor(s);
  const int64_t dim = pop_int(s);
  Tensor self = pop_tensor(s);
  assign_inplace(self, index_copy_impl(self, dim, index, source), "index_copy_");
  push(s, self);
}

Tensor index_fill_impl(const Tensor& self, int64_t dim, const Tensor& index, const Scalar& value) {
  const auto idx = vector_index(index, "index_fill_", false);
  Tensor out = rows_of(self).clone();
  const int64_t d = wrap_dim(dim, out.dim(), "index_fill_");
  for (int64_t k : idx) {
    TL_CHECK(k >= -out.size(d) && k < out.size(d), IndexError, "index {} is out of bounds for dimension {} with size {}", k, d,
             out.size(d));
    out.select(d, k < 0 ? k + out.size(d) : k).fill_(value);
  }
  return self.dim() == 0 ? out.reshape({}) : out;
}
Scalar fill_value(const Tensor& value) {
  TL_CHECK(value.dim() == 0, ValueError, "index_fill_ only supports a 0-dimensional value tensor, but got tensor with {} dimension(s).",
           value.dim());
  return value.item();
}
void index_fill_s(Stack& s) {
  Scalar value = pop_scalar(s);
  Tensor index = pop_tensor(s);
  const int64_t dim = pop_int(s);
  push(s, index_fill_impl(pop_tensor(s), dim, index, value));
}
void index_fill_t(Stack& s) {
  Scalar value = fill_value(pop_tensor(s));
  Tensor index = pop_tensor(s);
  const int64_t dim = pop_int(s);
  push(s, index_fill_impl(pop_tensor(s), dim, index, value));
}
template <bool kTensorValue>
void index_fill_(Stack& s) {
  Scalar value = kTensorValue ? fill_value(pop_tensor(s)) : pop_scalar(s);
  Tensor index = pop_tensor(s);
  const int64_t dim = pop_int(s);
  Tensor self = pop_tensor(s);
  assign_inplace(self, index_fill_impl(self, dim, index, value), "index_fill_");
  push(s, self);
}

// --- masked_scatter / put ------------------------------------------------------------------------

Tensor masked_scatter_impl(const Tensor& self, const Tensor& mask, const Tensor& source) {
  TL_CHECK(mask.dtype() == DType::Bool || mask.dtype() == DType::Byte, TypeError,
           "masked_scatter_ only supports boolean masks, but got mask with dtype {}", type_name(mask.dtype()));
  TL_CHECK(self.dtype() == source.dtype(), TypeError, "masked_scatter: expected self and source to have same dtypes but got{} and {}",
           type_name(self.dtype()), type_name(source.dtype()));
  Tensor out = self.contiguous().clone();
  Tensor flat = out.reshape({-1});
  const Tensor m = mask.expand(self.sizes()).to(DType::Bool).contiguous().reshape({-1});
  const Tensor src = source.contiguous().reshape({-1});
  const bool* mp = m.data<bool>();
  int64_t next = 0;
  for (int64_t i = 0; i < flat.numel(); ++i) {
    if (!mp[i]) continue;
    TL_CHECK(next < src.numel(), ValueError, "masked_scatter: expected source to have at least as many elements as ones in mask");
    flat.select(0, i).copy_(src.select(0, next++));
  }
  return out;
}
void masked_scatter(Stack& s) {
  Tensor source = pop_tensor(s), mask = pop_tensor(s);
  push(s, masked_scatter_impl(pop_tensor(s), mask, source));
}
void masked_scatter_(Stack& s) {
  Tensor source = pop_tensor(s), mask = pop_tensor(s);
  Tensor self = pop_tensor(s);
  assign_inplace(self, masked_scatter_impl(self, mask, source), "masked_scatter_");
  push(s, self);
}

Tensor put_impl(const Tensor& self, const Tensor& index, const Tensor& source, bool accumulate) {
  TL_CHECK(index.dtype() == DType::Long, TypeError, "put_(): Expected a long tensor for index, but got {}", type_name(index.dtype()));
  TL_CHECK(self.dtype() == source.dtype(), TypeError,
           "put_(): self and source expected to have the same dtype, but got self.dtype = {} and source.dtype = {}",
           type_name(self.dtype()), type_name(source.dtype()));
  TL_CHECK(index.numel() == source.numel(), ValueError,
           "put_(): Expected source and index to have the same number of elements, but got source.numel() = {}, index.numel() = {}",
           source.numel(), index.numel());
  Tensor out = self.contiguous().clone();
  Tensor flat = out.reshape({-1});
  const int64_t n = flat.numel();
  const auto idx = index.reshape({-1}).to_vector<int64_t>();
  const Tensor src = source.reshape({-1});
  for (size_t i = 0; i < idx.size(); ++i) {
    const int64_t k = idx[i];
    TL_CHECK(k >= -n && k < n, IndexError, "out of range: tried to access index {} on a tensor of {} elements.", k, n);
    Tensor at = flat.select(0, k < 0 ? k + n : k);
    if (accumulate) torchlet::add_(at, src.select(0, static_cast<int64_t>(i)));
    else at.copy_(src.select(0, static_cast<int64_t>(i)));
  }
  return out;
}
void put(Stack& s) {
  const bool accumulate = pop_bool(s);
  Tensor source = pop_tensor(s), index = pop_tensor(s);
  push(s, put_impl(pop_tensor(s), index, source, accumulate));
}
void put_(Stack& s) {
  const bool accumulate = pop_bool(s);
  Tensor source = pop_tensor(s), index = pop_tensor(s);
  Tensor self = pop_tensor(s);
  assign_inplace(self, put_impl(self, index, source, accumulate), "put_");
  push(s, self);
}

// --- one_hot, unfold ------------------------------------------------------------------------------

void one_hot(Stack& s) {
  int64_t classes = pop_int(s);
  Tensor x = pop_tensor(s);
  TL_CHECK(x.dtype() == DType::Long, TypeError, "one_hot is only applicable to index tensor.");
  if (x.numel() == 0) {
    TL_CHECK(classes > 0, ValueError, "Can not infer total number of classes from empty tensor.");
  } else {
    TL_CHECK(torchlet::min(x).item().to<int64_t>() >= 0, ValueError, "Class values must be non-negative.");
    const int64_t top = torchlet::max(x).item().to<int64_t>();
    if (classes == -1) classes = top + 1;
    TL_CHECK(top < classes, ValueError, "Class values must be smaller than num_classes.");
  }
  Shape shape = x.sizes().vec();
  shape.push_back(classes);
  Tensor out = zeros(shape, DType::Long);
  if (x.numel() > 0) out = torchlet::scatter(out, -1, x.unsqueeze(-1), ones(x.unsqueeze(-1).sizes(), DType::Long));
  push(s, out);
}

void unfold(Stack& s) {
  const int64_t step = pop_int(s), size = pop_int(s), dim = pop_int(s);
  Tensor x = pop_tensor(s);
  const int64_t d = wrap_dim(dim, std::max<int64_t>(x.dim(), 1), "unfold");
  const int64_t len = x.dim() == 0 ? 1 : x.size(d);
  const int64_t stride = x.dim() == 0 ? 1 : x.stride(d);
  TL_CHECK(size <= len, ValueError, "maximum size for tensor at dimension {} is {} but size is {}", d, len, size);
  TL_CHECK(step > 0, ValueError, "step is {} but must be > 0", step);
  Shape sizes = x.sizes().vec(), strides = x.strides().vec();
  if (x.dim() > 0) {
    sizes[static_cast<size_t>(d)] = (len - size) / step + 1;
    strides[static_cast<size_t>(d)] = step * stride;
  }
  sizes.push_back(size);
  strides.push_back(stride);
  push(s, x.as_strided(sizes, strides, x.storage_offset()));
}

// --- counting, block matrices, factories, norms ----------------------------------------------------

void bincount(Stack& s) {
  const int64_t minlength = pop_int(s);
  auto weights = pop_opt_tensor(s);
  Tensor x = pop_tensor(s);
  TL_CHECK(minlength >= 0, ValueError, "minlength should be >= 0");
  TL_CHECK(x.dim() == 1 && is_integral(x.dtype(), false), ValueError, "bincount only supports 1-d non-negative integral inputs.");
  const auto v = x.to_vector<int64_t>();
  for (int64_t e : v) TL_CHECK(e >= 0, ValueError, "bincount only supports 1-d non-negative integral inputs.");
  if (weights) TL_CHECK(weights->dim() == 1 && weights->numel() == x.numel(), ValueError, "weights should be 1-d and have the same length as input");
  int64_t bins = minlength;
  for (int64_t e : v) bins = std::max(bins, e + 1);
  TL_CHECK(bins <= (int64_t{1} << 31), LimitError, "bincount: {} bins is more than torchlet allocates", bins);
  if (!weights) {
    std::vector<int64_t> counts(static_cast<size_t>(bins), 0);
    for (int64_t e : v) ++counts[static_cast<size_t>(e)];
    push(s, tensor<int64_t>(counts, {bins}));
    return;
  }
  const DType out_type = weights->dtype() == DType::Float ? DType::Float : DType::Double;
  const auto w = weights->to_vector<double>();
  std::vector<double> sums(static_cast<size_t>(bins), 0.0);
  for (size_t i = 0; i < v.size(); ++i) sums[static_cast<size_t>(v[i])] += w[i];
  push(s, tensor<double>(sums, {bins}).to(out_type));
}

void block_diag(Stack& s) {
  auto ts = pop_tensor_list(s);
  if (ts.empty()) {  // torch's answer for no blocks
    push(s, empty({1, 0}, kDefaultFloatDType));
    return;
  }
  DType d = ts[0].dtype();
  int64_t rows = 0, cols = 0;
  std::vector<Tensor> mats;
  for (size_t i = 0; i < ts.size(); ++i) {
    const Tensor& t = ts[i];
    TL_CHECK(t.dim() <= 2, ValueError, "torch.block_diag: Input tensors must have 2 or fewer dimensions. Input {} has {} dimensions", i,
             t.dim());
    d = promote_types(d, t.dtype());
    mats.push_back(t.dim() == 2 ? t : t.reshape({1, t.numel()}));
    rows += mats.back().size(0);
    cols += mats.back().size(1);
  }
  Tensor out = zeros({rows, cols}, d);
  int64_t r = 0, c = 0;
  for (const Tensor& m : mats) {
    out.narrow(0, r, m.size(0)).narrow(1, c, m.size(1)).copy_(m);
    r += m.size(0);
    c += m.size(1);
  }
  push(s, out);
}

void cartesian_prod(Stack& s) {
  auto ts = pop_tensor_list(s);
  for (const Tensor& t : ts) TL_CHECK(t.dim() == 1, ValueError, "Expect a 1D vector, but got shape {}", shape_repr(t.sizes()));
  TL_CHECK(!ts.empty(), ValueError, "cartesian_prod expects a non-empty TensorList");
  if (ts.size() == 1) {
    push(s, ts[0]);
    return;
  }
  Shape shape;
  for (const Tensor& t : ts) shape.push_back(t.numel());
  std::vector<Tensor> cols;
  for (size_t i = 0; i < ts.size(); ++i) {
    Shape view(ts.size(), 1);
    view[i] = -1;
    cols.push_back(ts[i].view(view).expand(shape).reshape({-1}));
  }
  push(s, torchlet::stack(cols, 1));
}

void logspace(Stack& s) {
  std::optional<DType> dtype;
  pop_tensor_options(s, "logspace", &dtype);
  const double base = pop_double(s);
  const int64_t steps = pop_int(s);
  Scalar end = pop_scalar(s), start = pop_scalar(s);
  TL_CHECK(steps >= 0, ValueError, "number of steps must be non-negative");
  const DType out = dtype.value_or(kDefaultFloatDType);
  TL_CHECK(out != DType::Bool && out != DType::Half, UnsupportedError, "\"logspace_cpu\" not implemented for '{}'",
           dtype_info(out).scalar_type_name);
  Tensor exps = torchlet::linspace(start, end, steps, DType::Double);
  push(s, torchlet::pow(Scalar(base), exps).to(out));
}

// torch's cdist: for p = 2 over more than 25 rows (or compute_mode 1) through a matrix
// product (|a|^2 + |b|^2 - 2ab, clamped at 1e-30, then sqrt), else directly.
void cdist(Stack& s) {
  auto mode = pop_opt_int(s);
  const double p = pop_double(s);
  Tensor x2 = pop_tensor(s), x1 = pop_tensor(s);
  TL_CHECK(x1.dim() >= 2 && x2.dim() >= 2, ValueError, "cdist only supports at least 2D tensors, X{} got: {}D", x1.dim() < 2 ? 1 : 2,
           x1.dim() < 2 ? x1.dim() : x2.dim());
  TL_CHECK(x1.size(-1) == x2.size(-1), ValueError, "X1 and X2 must have the same number of columns. X1: {} X2: {}", x1.size(-1),
           x2.size(-1));
  TL_CHECK(is_floating(x1.dtype()) && is_floating(x2.dtype()), TypeError, "cdist only supports floating-point dtypes, X1 got: {}",
           type_name(x1.dtype()));
  TL_CHECK(p >= 0, ValueError, "cdist only supports non-negative p values");
  const int64_t r1 = x1.size(-2), r2 = x2.size(-2);
  const bool mm = p == 2 && (mode.value_or(0) == 1 || (mode.value_or(0) == 0 && (r1 > 25 || r2 > 25)));
  if (mm) {
    Tensor n1 = torchlet::sum(torchlet::mul(x1, x1), {-1}, true), n2 = torchlet::sum(torchlet::mul(x2, x2), {-1}, true);
    Tensor a = torchlet::cat({torchlet::mul(x1, Scalar(-2.0)), n1, ones(n1.sizes(), n1.dtype())}, -1);
    Tensor b = torchlet::cat({x2, ones(n2.sizes(), n2.dtype()), n2}, -1);
    Tensor r = torchlet::matmul(a, b.transpose(-2, -1));
    push(s, torchlet::sqrt(torchlet::clamp(r, Scalar(1e-30))));
    return;
  }
  Tensor diff = torchlet::sub(x1.unsqueeze(-2), x2.unsqueeze(-3));
  push(s, torchlet::norm(diff, p, {-1}));
}

}  // namespace

static RegisterOps reg({
    {"aten::scatter_add(Tensor self, int dim, Tensor index, Tensor src) -> Tensor", scatter_add},
    {"aten::scatter_add_(Tensor(a!) self, int dim, Tensor index, Tensor src) -> Tensor(a!)", scatter_add_},
    {"aten::scatter_reduce.two(Tensor self, int dim, Tensor index, Tensor src, str reduce, *, bool include_self=True) -> Tensor", scatter_reduce},
    {"aten::scatter_reduce_.two(Tensor(a!) self, int dim, Tensor index, Tensor src, str reduce, *, bool include_self=True) -> Tensor(a!)", scatter_reduce_},
    {"aten::scatter.reduce(Tensor self, int dim, Tensor index, Tensor src, *, str reduce) -> Tensor", scatter_legacy_reduce<false>},
    {"aten::scatter.value_reduce(Tensor self, int dim, Tensor index, Scalar value, *, str reduce) -> Tensor", scatter_legacy_reduce<true>},
    {"aten::scatter_.reduce(Tensor(a!) self, int dim, Tensor index, Tensor src, *, str reduce) -> Tensor(a!)", scatter_legacy_reduce_<false>},
    {"aten::scatter_.value_reduce(Tensor(a!) self, int dim, Tensor index, Scalar value, *, str reduce) -> Tensor(a!)", scatter_legacy_reduce_<true>},
    {"aten::index_add(Tensor self, int dim, Tensor index, Tensor source, *, Scalar alpha=1) -> Tensor", index_add},
    {"aten::index_add_(Tensor(a!) self, int dim, Tensor index, Tensor source, *, Scalar alpha=1) -> Tensor(a!)", index_add_},
    {"aten::index_copy(Tensor self, int dim, Tensor index, Tensor source) -> Tensor", index_copy},
    {"aten::index_copy_(Tensor(a!) self, int dim, Tensor index, Tensor source) -> Tensor(a!)", index_copy_},
    {"aten::index_fill.int_Scalar(Tensor self, int dim, Tensor index, Scalar value) -> Tensor", index_fill_s},
    {"aten::index_fill.int_Tensor(Tensor self, int dim, Tensor index, Tensor value) -> Tensor", index_fill_t},
    {"aten::index_fill_.int_Scalar(Tensor(a!) self, int dim, Tensor index, Scalar value) -> Tensor(a!)", index_fill_<false>},
    {"aten::index_fill_.int_Tensor(Tensor(a!) self, int dim, Tensor index, Tensor value) -> Tensor(a!)", index_fill_<true>},
    {"aten::masked_scatter(Tensor self, Tensor mask, Tensor source) -> Tensor", masked_scatter},
    {"aten::masked_scatter_(Tensor(a!) self, Tensor mask, Tensor source) -> Tensor(a!)", masked_scatter_},
    {"aten::put(Tensor self, Tensor index, Tensor source, bool accumulate=False) -> Tensor", put},
    {"aten::put_(Tensor(a!) self, Tensor index, Tensor source, bool accumulate=False) -> Tensor(a!)", put_},
    {"aten::one_hot(Tensor self, int num_classes=-1) -> Tensor", one_hot},
    {"aten::unfold(Tensor(a) self, int dimension, int size, int step) -> Tensor(a)", unfold},
    {"aten::bincount(Tensor self, Tensor? weights=None, int minlength=0) -> Tensor", bincount},
    {"aten::block_diag(Tensor[] tensors) -> Tensor", block_diag},
    {"aten::cartesian_prod(Tensor[] tensors) -> Tensor", cartesian_prod},
    {"aten::logspace(Scalar start, Scalar end, int steps, float base=10., *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor", logspace},
    {"aten::cdist(Tensor x1, Tensor x2, float p=2., int? compute_mode=None) -> Tensor", cdist},
});

}  // namespace torchlet::jit::ops

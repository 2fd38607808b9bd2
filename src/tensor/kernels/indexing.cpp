// Indexing kernels as torch 1.13 defines them: advanced indexing (x[idx], x[mask],
// x[:, i, j] and assignment to them), scatter_add / scatter_reduce and scatter's older
// add/multiply reductions, index_add / index_copy / index_fill, masked_scatter /
// masked_select / masked_fill with a tensor value, put, take and take_along_dim.
// Writes happen in index order, as torch's CPU loops do, so repeated indices accumulate
// (or overwrite) in the same order. Cases run through torch in tests/fixtures/gen_ops.py
// (index_ops, index_extra_ops).
#include <algorithm>
#include <cmath>
#include <limits>
#include <string_view>
#include <type_traits>

#include <torchlet/error.h>
#include <torchlet/ops.h>

namespace torchlet {
namespace {

std::string_view type_name(DType d) { return dtype_info(d).scalar_type_name; }

// --- advanced indexing ------------------------------------------------------------------
// Bool masks become long indices (nonzero); the index tensors broadcast to one shape S;
// the indexed dimensions are gathered through one index_select on a view with those
// dimensions flattened first; S then takes the place of the indexed dimensions when
// they are adjacent, else leads, as numpy and torch place it.

// Each list entry: None (the whole dimension) or a tensor indexing as many dimensions
// as it has (bool) or one (integer).
struct Indexed {
  std::vector<int64_t> dims;    // the self dimensions being indexed, in order
  std::vector<Tensor> indices;  // one long tensor per dim, broadcast to one shape
};

Indexed expand_indices(const Tensor& self, const std::vector<std::optional<Tensor>>& list) {
  Indexed out;
  int64_t d = 0;
  for (const std::optional<Tensor>& entry : list) {
    if (!entry) {
      ++d;
      continue;
    }
    const Tensor& idx = *entry;
    if (idx.dtype() == DType::Bool || idx.dtype() == DType::Byte) {
      TL_CHECK(d + idx.dim() <= self.dim(), IndexError, "too many indices for tensor of dimension {} (got {})",
               self.dim(), d + idx.dim());
      for (int64_t k = 0; k < idx.dim(); ++k) {
        TL_CHECK(idx.size(k) == self.size(d + k), IndexError,
                 "The shape of the mask {} at index {} does not match the shape of the indexed tensor {} at index {}",
                 shape_repr(idx.sizes()), k, shape_repr(self.sizes()), d + k);
      }
      Tensor nz = nonzero(idx);
      for (int64_t k = 0; k < idx.dim(); ++k) {
        out.dims.push_back(d + k);
        out.indices.push_back(nz.select(1, k));
      }
      d += idx.dim();
      continue;
    }
    TL_CHECK(is_integral(idx.dtype(), false), IndexError,
             "tensors used as indices must be long, int, byte or bool tensors");
    TL_CHECK(d < self.dim(), IndexError, "too many indices for tensor of dimension {} (got {})", self.dim(), d + 1);
    out.dims.push_back(d++);
    out.indices.push_back(idx.to(DType::Long));
  }
  TL_CHECK(d <= self.dim(), IndexError, "too many indices for tensor of dimension {} (got {})", self.dim(), d);
  if (out.indices.empty()) return out;
  Shape shape = out.indices.front().sizes().vec();
  for (const auto& t : out.indices) shape = broadcast_shapes(shape, t.sizes());
  for (auto& t : out.indices) t = t.expand(shape);
  return out;
}

// The plan both reading and writing follow: linear offsets into the indexed
// dimensions (row-major over them), the remaining dimensions, and where the index
// shape S lands in the result.
struct Plan {
  Indexed ix;
  Tensor linear;               // shape S, values in [0, block)
  int64_t block = 1;
  std::vector<int64_t> rest;   // the dimensions not indexed
  std::vector<int64_t> order;  // indexed dims first, then rest
  std::vector<int64_t> perm;   // from [S..., rest...] to the result's layout (empty: identity)
};

Plan make_plan(const Tensor& self, const std::vector<std::optional<Tensor>>& list) {
  Plan p;
  p.ix = expand_indices(self, list);
  Indexed& ix = p.ix;
  if (ix.indices.empty()) return p;
  const Shape index_shape = ix.indices[0].sizes().vec();
  Tensor linear = zeros(index_shape, DType::Long);
  int64_t block = 1;
  for (size_t k = ix.dims.size(); k-- > 0;) {
    const int64_t size = self.size(ix.dims[k]);
    Tensor idx = ix.indices[k];
    Tensor wrapped = where(lt(idx, 0), add(idx, size), idx);
    Tensor bad = logical_or(lt(wrapped, 0), ge(wrapped, size));
    if (bad.numel() && any(bad).item().to_bool()) {
      // Name the first offending index, as torch does.
      int64_t at = argmax(bad.reshape({-1}).to(DType::Long)).item().to_int();
      int64_t value = idx.reshape({-1}).select(0, at).item().to_int();
      TL_FAIL(IndexError, "index {} is out of bounds for dimension {} with size {}", value, ix.dims[k], size);
    }
    linear = add(linear, mul(wrapped, block));
    block *= size;
  }
  p.linear = linear;
  p.block = block;
  p.order.assign(ix.dims.begin(), ix.dims.end());
  for (int64_t d = 0; d < self.dim(); ++d) {
    if (std::find(ix.dims.begin(), ix.dims.end(), d) == ix.dims.end()) p.rest.push_back(d);
  }
  p.order.insert(p.order.end(), p.rest.begin(), p.rest.end());
  bool adjacent = true;
  for (size_t k = 1; k < ix.dims.size(); ++k) adjacent = adjacent && ix.dims[k] == ix.dims[k - 1] + 1;
  const int64_t lead = ix.dims.front();
  if (adjacent && lead != 0) {
    const auto s = static_cast<int64_t>(index_shape.size());
    const auto n = s + static_cast<int64_t>(p.rest.size());
    for (int64_t i = 0; i < lead; ++i) p.perm.push_back(s + i);
    for (int64_t i = 0; i < s; ++i) p.perm.push_back(i);
    for (int64_t i = s + lead; i < n; ++i) p.perm.push_back(i);
  }
  return p;
}

}  // namespace

Tensor index(const Tensor& self, const std::vector<std::optional<Tensor>>& indices) {
  Plan p = make_plan(self, indices);
  if (p.ix.indices.empty()) return self.alias();
  Shape flat_shape{p.block};
  Shape out_shape = p.linear.sizes().vec();
  for (int64_t d : p.rest) {
    flat_shape.push_back(self.size(d));
    out_shape.push_back(self.size(d));
  }
  Tensor flat = self.permute(p.order).reshape(flat_shape);  // indexed dims flattened first
  Tensor out = index_select(flat, 0, p.linear.reshape({-1})).view(out_shape);
  return p.perm.empty() ? out : out.permute(p.perm).contiguous();
}

// values broadcast to the indexing result's shape, then each indexed position's slice
// of self (a view) takes (or, accumulating, adds) its values.
Tensor& index_put_(Tensor& self, const std::vector<std::optional<Tensor>>& indices, const Tensor& values,
                   bool accumulate) {
  Plan p = make_plan(self, indices);
  TL_CHECK(!p.ix.indices.empty(), UnsupportedError, "index_put_: at least one index tensor is required");
  Shape sr = p.linear.sizes().vec();
  for (int64_t d : p.rest) sr.push_back(self.size(d));
  Shape result_shape = sr;
  if (!p.perm.empty()) {
    for (size_t i = 0; i < p.perm.size(); ++i) result_shape[i] = sr[static_cast<size_t>(p.perm[i])];
  }
  Tensor v = values.to(self.dtype()).expand(result_shape);
  if (!p.perm.empty()) {
    std::vector<int64_t> inverse(p.perm.size());
    for (size_t i = 0; i < p.perm.size(); ++i) inverse[static_cast<size_t>(p.perm[i])] = static_cast<int64_t>(i);
    v = v.permute(inverse);
  }
  Shape rows{p.linear.numel()};
  for (int64_t d : p.rest) rows.push_back(self.size(d));
  v = v.reshape(rows);
  Tensor target = self.permute(p.order);  // a view: writes reach self
  std::vector<int64_t> offsets = p.linear.reshape({-1}).to_vector<int64_t>();
  for (size_t n = 0; n < offsets.size(); ++n) {
    Tensor slot = target;
    int64_t rem = offsets[n];
    int64_t stride = p.block;
    for (int64_t d : p.ix.dims) {
      stride /= self.size(d);
      slot = slot.select(0, rem / stride);
      rem %= stride;
    }
    Tensor src = v.select(0, static_cast<int64_t>(n));
    slot.copy_(accumulate ? add(slot, src) : src);
  }
  return self;
}

Tensor index_put(const Tensor& self, const std::vector<std::optional<Tensor>>& indices, const Tensor& values,
                 bool accumulate) {
  Tensor out = self.clone();
  return index_put_(out, indices, values, accumulate);
}

// --- scatter_add / scatter_reduce ----------------------------------------------------------
namespace {

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

// One reduction step of the running value `cur` with `v`.
template <typename M>
M reduce_step(Reduce reduce, M cur, M v) {
  switch (reduce) {
    case Reduce::Sum:
    case Reduce::Mean: return static_cast<M>(cur + v);
    case Reduce::Prod: return static_cast<M>(cur * v);
    case Reduce::Amax:
      if constexpr (std::is_floating_point_v<M>)
        return std::isnan(cur) || std::isnan(v) ? std::numeric_limits<M>::quiet_NaN() : std::max(cur, v);
      else
        return std::max(cur, v);
    case Reduce::Amin:
      if constexpr (std::is_floating_point_v<M>)
        return std::isnan(cur) || std::isnan(v) ? std::numeric_limits<M>::quiet_NaN() : std::min(cur, v);
      else
        return std::min(cur, v);
  }
  return v;
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
      int64_t& c = count[static_cast<size_t>(t)];
      // (c == 0: include_self=False's first value, reduced with the identity, is v)
      const M r = c > 0 ? reduce_step<M>(reduce, static_cast<M>(o[t]), v) : v;
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

// scatter(..., reduce="add" | "multiply"): torch's older reductions, run by the kernel
// scatter_reduce uses with the input included (results equal scatter_reduce's "sum" and
// "prod" bit for bit).
Reduce parse_legacy_reduce(std::string_view reduce) {
  TL_CHECK(reduce == "add" || reduce == "multiply", ValueError, "reduce argument must be either add or multiply.");
  return reduce == "add" ? Reduce::Sum : Reduce::Prod;
}

}  // namespace

Tensor scatter_add(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src) {
  return scatter_reduce_impl(self, dim, index, src, Reduce::Sum, true);
}

Tensor scatter_reduce(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src, std::string_view reduce,
                      bool include_self) {
  return scatter_reduce_impl(self, dim, index, src, parse_reduce(reduce), include_self);
}

Tensor scatter(const Tensor& self, int64_t dim, const Tensor& index, const Scalar& value) {
  return scatter(self, dim, index, full(index.sizes(), value, self.dtype()));
}

Tensor scatter(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src, std::string_view reduce) {
  const Reduce r = parse_legacy_reduce(reduce);
  TL_CHECK(self.dtype() == src.dtype(), TypeError, "scatter(): Expected self.dtype to be equal to src.dtype");
  return scatter_reduce_impl(self, dim, index, src, r, true);
}

Tensor scatter(const Tensor& self, int64_t dim, const Tensor& index, const Scalar& value, std::string_view reduce) {
  const Reduce r = parse_legacy_reduce(reduce);
  return scatter_reduce_impl(self, dim, index, full(index.sizes(), value, self.dtype()), r, true);
}

// --- index_add / index_copy / index_fill ------------------------------------------------------
namespace {

std::vector<int64_t> vector_index(const Tensor& index, const char* op, bool allow_int32) {
  TL_CHECK(index.dim() <= 1, ValueError, "{}(): Index is supposed to be a vector", op);
  TL_CHECK(index.dtype() == DType::Long || (allow_int32 && index.dtype() == DType::Int), TypeError,
           "{}(): Expected dtype int{} for index", op, allow_int32 ? "32/int64" : "64");
  return index.reshape({-1}).to_vector<int64_t>();
}
Tensor rows_of(const Tensor& t) { return t.dim() == 0 ? t.reshape({1}) : t; }

}  // namespace

Tensor index_add(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& source, const Scalar& alpha) {
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
    add_(row, src.select(d, static_cast<int64_t>(i)), alpha);
  }
  return self.dim() == 0 ? out.reshape({}) : out;
}

Tensor index_copy(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& source) {
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

Tensor index_fill(const Tensor& self, int64_t dim, const Tensor& index, const Scalar& value) {
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

Tensor index_fill(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& value) {
  TL_CHECK(value.dim() == 0, ValueError, "index_fill_ only supports a 0-dimensional value tensor, but got tensor with {} dimension(s).",
           value.dim());
  return index_fill(self, dim, index, value.item());
}

// --- masked_fill / masked_scatter / masked_select / put / take ---------------------------

Tensor masked_fill(const Tensor& self, const Tensor& mask, const Tensor& value) {
  const Scalar v = value.item();  // (before the rank check: a many-element value fails here, as in torch)
  TL_CHECK(value.dim() == 0, ValueError,
           "masked_fill_ only supports a 0-dimensional value tensor, but got tensor with {} dimension(s).", value.dim());
  return masked_fill(self, mask, v);
}

Tensor masked_scatter(const Tensor& self, const Tensor& mask, const Tensor& source) {
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

Tensor masked_select(const Tensor& self, const Tensor& mask) {
  TL_CHECK(mask.dtype() == DType::Bool || mask.dtype() == DType::Byte, TypeError,
           "masked_select: expected BoolTensor for mask");
  TL_CHECK(mask.dtype() == DType::Bool || !any(gt(mask, Scalar(int64_t{1}))).item().to<bool>(), ValueError,
           "Mask tensor can take 0 and 1 values only");
  const Shape shape = broadcast_shapes(self.sizes(), mask.sizes());
  Tensor flat = self.expand(shape).reshape({-1});
  Tensor keep = mask.expand(shape).reshape({-1}).to(DType::Bool);
  return index_select(flat, 0, nonzero(keep).view({-1}));
}

Tensor put(const Tensor& self, const Tensor& index, const Tensor& source, bool accumulate) {
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
    if (accumulate) add_(at, src.select(0, static_cast<int64_t>(i)));
    else at.copy_(src.select(0, static_cast<int64_t>(i)));
  }
  return out;
}

// self read as a flat tensor, at each (possibly negative) index.
Tensor take(const Tensor& self, const Tensor& index) {
  TL_CHECK(index.dtype() == DType::Long, TypeError, "take(): Expected a long tensor for index, but got {}", type_name(index.dtype()));
  const int64_t n = self.numel();
  Tensor idx = index.contiguous().clone();
  int64_t* p = idx.data<int64_t>();
  for (int64_t i = 0; i < idx.numel(); ++i) {
    TL_CHECK(p[i] >= -n && p[i] < n, IndexError, "out of range: tried to access index {} on a tensor of {} elements.", p[i], n);
    if (p[i] < 0) p[i] += n;
  }
  return index_select(self.reshape({-1}), 0, idx.reshape({-1})).reshape(index.sizes());
}

// gather along dim after broadcasting the other dims of input and indices against each
// other; without dim, over the flattened input (a view, so a non-contiguous input is
// refused as torch's view refuses it).
Tensor take_along_dim(const Tensor& self, const Tensor& indices, std::optional<int64_t> dim) {
  if (!dim) return gather(self.view({-1}), 0, indices.view({-1}));
  TL_CHECK(self.dim() == indices.dim(), ValueError,
           "torch.take_along_dim(): input and indices should have the same number of dimensions, but got {} dimensions "
           "for input, and {} dimensions for indices",
           self.dim(), indices.dim());
  TL_CHECK(indices.dtype() == DType::Long, TypeError, "torch.take_along_dim(): dtype of indices should be Long but got {}",
           type_name(indices.dtype()));
  const int64_t d = wrap_dim(*dim, self.dim(), "take_along_dim");
  Shape self_sizes(self.sizes().begin(), self.sizes().end());
  self_sizes[static_cast<size_t>(d)] = indices.size(d);
  const Tensor indices_broadcast = indices.expand(broadcast_shapes(self_sizes, indices.sizes()));
  Shape indices_sizes(indices.sizes().begin(), indices.sizes().end());
  indices_sizes[static_cast<size_t>(d)] = self.size(d);
  const Tensor self_broadcast = self.expand(broadcast_shapes(indices_sizes, self.sizes()));
  return gather(self_broadcast, d, indices_broadcast);
}

}  // namespace torchlet

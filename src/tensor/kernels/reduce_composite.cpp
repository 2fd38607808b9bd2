// The reductions torch composes from others (nansum/nanmean, count_nonzero,
// std_mean/var_mean, aminmax, equal) and diff, the neighbours' differences along a dim,
// composed as torch 1.13 composes them so dtypes and refusals are torch's.
#include <algorithm>
#include <string_view>
#include <vector>

#include <torchlet/error.h>
#include <torchlet/ops.h>

namespace torchlet {
namespace {

std::string_view type_name(DType d) { return dtype_info(d).scalar_type_name; }

// torch's nansum kernel runs over floating result types only: a floating input summed
// into an integer dtype (given, or out='s through the out= forms) is refused by name. An
// integer input holds no NaN and is summed as sum() sums it.
void check_nansum_dtype(const Tensor& x, std::optional<DType> dtype) {
  TL_CHECK(!is_floating(x.dtype()) || !dtype || is_floating(*dtype), UnsupportedError,
           "\"nansum_cpu\" not implemented for '{}'", dtype_info(*dtype).scalar_type_name);
}

}  // namespace

Tensor nansum(const Tensor& self, IntList dim, bool keepdim, std::optional<DType> dtype) {
  check_nansum_dtype(self, dtype);
  Tensor zeroed = is_floating(self.dtype()) ? torchlet::masked_fill(self, torchlet::isnan(self), Scalar(0.0)) : self;
  return torchlet::sum(zeroed, dim, keepdim, dtype);
}

Tensor nanmean(const Tensor& self, IntList dim, bool keepdim, std::optional<DType> dtype) {
  TL_CHECK(is_floating(self.dtype()), TypeError, "nanmean(): expected input to have floating point dtype but got {}",
           type_name(self.dtype()));
  check_nansum_dtype(self, dtype);
  Tensor present = torchlet::sum(torchlet::logical_not(torchlet::isnan(self)), dim, keepdim);
  Tensor total = torchlet::sum(torchlet::masked_fill(self, torchlet::isnan(self), Scalar(0.0)), dim, keepdim, dtype);
  return torchlet::div(total, present);
}

Tensor count_nonzero(const Tensor& self, IntList dim) { return torchlet::sum(torchlet::ne(self, Scalar(int64_t{0})), dim); }

std::pair<Tensor, Tensor> std_mean(const Tensor& self, IntList dim, int64_t correction, bool keepdim) {
  Tensor spread = torchlet::std(self, dim, correction, keepdim);
  return {std::move(spread), torchlet::mean(self, dim, keepdim)};
}
std::pair<Tensor, Tensor> var_mean(const Tensor& self, IntList dim, int64_t correction, bool keepdim) {
  Tensor spread = torchlet::var(self, dim, correction, keepdim);
  return {std::move(spread), torchlet::mean(self, dim, keepdim)};
}

std::pair<Tensor, Tensor> aminmax(const Tensor& self, std::optional<int64_t> dim, bool keepdim) {
  // Over every element float16 and bfloat16 work; torch's per-dim kernel refuses them.
  TL_CHECK(self.dtype() != DType::Half && (self.dtype() != DType::BFloat16 || !dim), UnsupportedError,
           "\"aminmax_cpu\" not implemented for '{}'", type_name(self.dtype()));
  TL_CHECK(self.numel() > 0 || dim, ValueError,
           "aminmax(): cannot compute aminmax over an empty dimension as the operation has no identity.");
  Shape all;
  for (int64_t i = 0; i < self.dim(); ++i) all.push_back(i);
  const Tensor src = dim && self.dim() == 0 ? self.reshape({1}) : self;  // a 0-dim input has dim 0 of size 1
  const Shape dims = dim ? Shape{self.dim() == 0 ? int64_t{0} : *dim} : all;
  Tensor lo = torchlet::amin(src, dims, keepdim);
  return {std::move(lo), torchlet::amax(src, dims, keepdim)};
}

bool equal(const Tensor& self, const Tensor& other) {
  const IntList sa = self.sizes(), sb = other.sizes();
  if (!std::equal(sa.begin(), sa.end(), sb.begin(), sb.end())) return false;
  return torchlet::all(torchlet::eq(self, other)).item().to_bool();
}

Tensor diff(const Tensor& self, int64_t n, int64_t dim, const std::optional<Tensor>& prepend,
            const std::optional<Tensor>& append) {
  TL_CHECK(self.dim() >= 1, ValueError, "diff expects input to be at least one-dimensional");
  const int64_t d = wrap_dim(dim, self.dim(), "diff");
  Tensor x = self;
  if (prepend || append) {
    std::vector<Tensor> parts;
    for (const auto& t : {prepend, std::optional<Tensor>(self), append})
      if (t) {
        TL_CHECK(t->dim() == self.dim(), ValueError, "diff expects prepend or append to be the same dimension as input");
        parts.push_back(*t);
      }
    x = torchlet::cat(parts, d);
  }
  for (int64_t i = 0; i < n && x.size(d) > 0; ++i) {
    const int64_t len = x.size(d) - 1;
    x = x.dtype() == DType::Bool ? torchlet::logical_xor(x.narrow(d, 1, len), x.narrow(d, 0, len))
                                 : torchlet::sub(x.narrow(d, 1, len), x.narrow(d, 0, len));
  }
  return x;
}

}  // namespace torchlet

// Sorting, order statistics, unique, searchsorted and bucketize (order.cpp).
// Part of ops.h, the numeric operators on Tensor.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include <torchlet/tensor.h>

namespace torchlet {

// torch.sort: NaN sorts as the largest value; equal values in the order torch's CPU
// kernel leaves them (its unstable std::sort), or in input order with stable = true.
std::tuple<Tensor, Tensor> sort(const Tensor& self, int64_t dim = -1, bool descending = false, bool stable = false);
Tensor argsort(const Tensor& self, int64_t dim = -1, bool descending = false, bool stable = false);
std::tuple<Tensor, Tensor> topk(const Tensor& self, int64_t k, int64_t dim = -1, bool largest = true,
                                bool sorted = true);

// order.cpp: order statistics and running extrema along dim. Equal values give the
// index torch's CPU algorithms give (see the file's comment). ignore_nan: nanmedian.
std::tuple<Tensor, Tensor> median(const Tensor& self, int64_t dim, bool keepdim = false, bool ignore_nan = false);
Tensor median(const Tensor& self, bool ignore_nan = false);  // of every element; NaN when empty
std::tuple<Tensor, Tensor> kthvalue(const Tensor& self, int64_t k, int64_t dim = -1, bool keepdim = false);
std::tuple<Tensor, Tensor> mode(const Tensor& self, int64_t dim = -1, bool keepdim = false);
std::tuple<Tensor, Tensor> cummax(const Tensor& self, int64_t dim);
std::tuple<Tensor, Tensor> cummin(const Tensor& self, int64_t dim);
Tensor logcumsumexp(const Tensor& self, int64_t dim);
// torch.unique's operators: values, inverse (empty unless asked for; also computed
// when counts are) and counts (empty unless asked for). unique_dim keeps whole slices
// along dim (consecutive: only neighbours merge) and always fills inverse and counts.
struct UniqueResult {
  Tensor values, inverse, counts;
};
UniqueResult unique(const Tensor& self, bool sorted, bool return_inverse, bool return_counts);
UniqueResult unique_consecutive(const Tensor& self, bool return_inverse, bool return_counts);
UniqueResult unique_dim(const Tensor& self, int64_t dim, bool consecutive);
// Insertion points of values in the last dim of sorted_sequence (1-D, or one row per
// leading index of values); right: after equal elements; sorter: the order to read it in.
Tensor searchsorted(const Tensor& sorted_sequence, const Tensor& values, bool out_int32 = false, bool right = false,
                    const std::optional<Tensor>& sorter = std::nullopt);
// torch.bucketize: searchsorted of self in 1-D boundaries.
Tensor bucketize(const Tensor& self, const Tensor& boundaries, bool out_int32 = false, bool right = false);

}  // namespace torchlet

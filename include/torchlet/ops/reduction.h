// Reductions along dims (reduce.cpp) and the ones torch composes from them
// (reduce_composite.cpp).
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

// --- reductions ------------------------------------------------------------------
// `dim` empty means every dimension (torch's dim=None / dim=[]).
Tensor sum(const Tensor& self, IntList dim = {}, bool keepdim = false,
           std::optional<DType> dtype = std::nullopt);
// Tensor.sum_to_size: sums the dimensions a broadcast to self's sizes would have made
// (leading ones, and those `size` has as 1); ValueError when size does not broadcast.
Tensor sum_to_size(const Tensor& self, IntList size);
Tensor mean(const Tensor& self, IntList dim = {}, bool keepdim = false,
            std::optional<DType> dtype = std::nullopt);
Tensor prod(const Tensor& self, std::optional<int64_t> dim = std::nullopt, bool keepdim = false,
            std::optional<DType> dtype = std::nullopt);
Tensor amax(const Tensor& self, IntList dim = {}, bool keepdim = false);
Tensor amin(const Tensor& self, IntList dim = {}, bool keepdim = false);
Tensor max(const Tensor& self);  // every element
Tensor min(const Tensor& self);
// aten::max.dim: (values, indices); the index of the first extreme (NaN counts as max).
std::tuple<Tensor, Tensor> max(const Tensor& self, int64_t dim, bool keepdim = false);
std::tuple<Tensor, Tensor> min(const Tensor& self, int64_t dim, bool keepdim = false);
Tensor argmax(const Tensor& self, std::optional<int64_t> dim = std::nullopt, bool keepdim = false);
Tensor argmin(const Tensor& self, std::optional<int64_t> dim = std::nullopt, bool keepdim = false);
// bool result (uint8 stays uint8, as in torch 1.13).
Tensor all(const Tensor& self, std::optional<int64_t> dim = std::nullopt, bool keepdim = false);
Tensor any(const Tensor& self, std::optional<int64_t> dim = std::nullopt, bool keepdim = false);
Tensor var(const Tensor& self, IntList dim = {}, int64_t correction = 1, bool keepdim = false);
Tensor std(const Tensor& self, IntList dim = {}, int64_t correction = 1, bool keepdim = false);
// torch.linalg.vector_norm: ord 2, 1, inf, -inf or any other p; `dtype` (floating, not
// narrower than self's) is the type computed in and returned.
Tensor norm(const Tensor& self, double p = 2, IntList dim = {}, bool keepdim = false,
            std::optional<DType> dtype = std::nullopt);
Tensor logsumexp(const Tensor& self, IntList dim, bool keepdim = false);
// torch.histc: counts of the elements in `bins` equal bins over [min, max] (the data's
// own range when min == max), in the input's dtype; elements outside are not counted.
Tensor histc(const Tensor& self, int64_t bins = 100, const Scalar& min = 0, const Scalar& max = 0);
Tensor cumsum(const Tensor& self, int64_t dim, std::optional<DType> dtype = std::nullopt);
Tensor cumprod(const Tensor& self, int64_t dim, std::optional<DType> dtype = std::nullopt);
// reduce_composite.cpp: the reductions torch composes from the others. nansum/nanmean
// count NaN as 0 / leave it out (a floating input into an integer dtype is refused);
// std_mean/var_mean return (spread, mean); aminmax returns (min, max) over one dim or
// every element; equal: the same sizes and every element equal.
Tensor nansum(const Tensor& self, IntList dim = {}, bool keepdim = false, std::optional<DType> dtype = std::nullopt);
Tensor nanmean(const Tensor& self, IntList dim = {}, bool keepdim = false, std::optional<DType> dtype = std::nullopt);
Tensor count_nonzero(const Tensor& self, IntList dim = {});
std::pair<Tensor, Tensor> std_mean(const Tensor& self, IntList dim = {}, int64_t correction = 1, bool keepdim = false);
std::pair<Tensor, Tensor> var_mean(const Tensor& self, IntList dim = {}, int64_t correction = 1, bool keepdim = false);
std::pair<Tensor, Tensor> aminmax(const Tensor& self, std::optional<int64_t> dim = std::nullopt, bool keepdim = false);
bool equal(const Tensor& self, const Tensor& other);
// torch.diff: n times the difference of neighbours along dim (xor for bool), after
// prepend and append are concatenated there.
Tensor diff(const Tensor& self, int64_t n = 1, int64_t dim = -1, const std::optional<Tensor>& prepend = std::nullopt,
            const std::optional<Tensor>& append = std::nullopt);

}  // namespace torchlet

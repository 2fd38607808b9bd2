// Statistics: quantiles, covariance, correlation, bincount (statistics.cpp).
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

// statistics.cpp: torch.quantile/nanquantile (q a tensor of self's dtype or a float in
// [0, 1]; dim None flattens; interpolation linear, lower, higher, midpoint or nearest;
// nanquantile leaves NaN out, quantile gives NaN for a row holding one). out_dtype is
// the dtype of an out= tensor, refused unless self's, among the checks in torch's order.
Tensor quantile(const Tensor& self, const Tensor& q, std::optional<int64_t> dim = std::nullopt, bool keepdim = false,
                std::string_view interpolation = "linear", std::optional<DType> out_dtype = std::nullopt);
Tensor quantile(const Tensor& self, double q, std::optional<int64_t> dim = std::nullopt, bool keepdim = false,
                std::string_view interpolation = "linear", std::optional<DType> out_dtype = std::nullopt);
Tensor nanquantile(const Tensor& self, const Tensor& q, std::optional<int64_t> dim = std::nullopt, bool keepdim = false,
                   std::string_view interpolation = "linear", std::optional<DType> out_dtype = std::nullopt);
Tensor nanquantile(const Tensor& self, double q, std::optional<int64_t> dim = std::nullopt, bool keepdim = false,
                   std::string_view interpolation = "linear", std::optional<DType> out_dtype = std::nullopt);
// torch.cov: rows are variables, columns observations, fweights integer counts and
// aweights floating weights per observation; corrcoef is cov normalised to [-1, 1].
Tensor cov(const Tensor& self, int64_t correction = 1, const std::optional<Tensor>& fweights = std::nullopt,
           const std::optional<Tensor>& aweights = std::nullopt);
Tensor corrcoef(const Tensor& self);
// torch.bincount of a 1-D non-negative integral tensor: int64 counts, or the weights'
// sums (float32 for float32 weights, else float64); at least minlength bins.
Tensor bincount(const Tensor& self, const std::optional<Tensor>& weights = std::nullopt, int64_t minlength = 0);

}  // namespace torchlet

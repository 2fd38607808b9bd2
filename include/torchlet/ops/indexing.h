// Advanced indexing, index-driven writes, masks, put and take (indexing.cpp).
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

// indexing.cpp: advanced indexing, x[indices] with None for a whole dimension, bool
// masks and integer tensors (broadcast together); index_put_ writes (or accumulates)
// values there, index_put into a copy.
Tensor index(const Tensor& self, const std::vector<std::optional<Tensor>>& indices);
Tensor& index_put_(Tensor& self, const std::vector<std::optional<Tensor>>& indices, const Tensor& values,
                   bool accumulate = false);
Tensor index_put(const Tensor& self, const std::vector<std::optional<Tensor>>& indices, const Tensor& values,
                 bool accumulate = false);
// Index-driven writes into a copy of self, in index order as torch's CPU loops (so
// repeated indices accumulate or overwrite in torch's order). scatter_reduce's reduce:
// "sum", "prod", "mean", "amax" or "amin" (include_self: self's values take part);
// scatter with reduce is torch's older form ("add" or "multiply"); a Scalar value
// scatters as a src of index's shape.
Tensor scatter(const Tensor& self, int64_t dim, const Tensor& index, const Scalar& value);
Tensor scatter(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src, std::string_view reduce);
Tensor scatter(const Tensor& self, int64_t dim, const Tensor& index, const Scalar& value, std::string_view reduce);
Tensor scatter_add(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src);
Tensor scatter_reduce(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src, std::string_view reduce,
                      bool include_self = true);
Tensor index_add(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& source, const Scalar& alpha = 1);
Tensor index_copy(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& source);
Tensor index_fill(const Tensor& self, int64_t dim, const Tensor& index, const Scalar& value);
Tensor index_fill(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& value);  // 0-dim value
Tensor masked_fill(const Tensor& self, const Tensor& mask, const Tensor& value);                // 0-dim value
// self's elements where mask (broadcast) is true, in order, from source's first ones.
Tensor masked_scatter(const Tensor& self, const Tensor& mask, const Tensor& source);
// self's elements where mask (broadcast against self) is true, as a 1-D tensor.
Tensor masked_select(const Tensor& self, const Tensor& mask);
// put writes source at flat (possibly negative) indices of a copy of self; take reads
// self flattened at them (index's shape); take_along_dim gathers along dim after
// broadcasting the other dims of self and indices (without dim: over the flattened self).
Tensor put(const Tensor& self, const Tensor& index, const Tensor& source, bool accumulate = false);
Tensor take(const Tensor& self, const Tensor& index);
Tensor take_along_dim(const Tensor& self, const Tensor& indices, std::optional<int64_t> dim = std::nullopt);

}  // namespace torchlet

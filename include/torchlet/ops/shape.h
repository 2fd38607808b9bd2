// Shape operators that copy, joins and splits (shape.cpp, joining.cpp).
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

// --- shape operators that copy -----------------------------------------------------
Tensor cat(const std::vector<Tensor>& tensors, int64_t dim = 0);
Tensor stack(const std::vector<Tensor>& tensors, int64_t dim = 0);
std::vector<Tensor> split(const Tensor& self, int64_t split_size, int64_t dim = 0);  // views
std::vector<Tensor> chunk(const Tensor& self, int64_t chunks, int64_t dim = 0);      // views
Tensor index_select(const Tensor& self, int64_t dim, const Tensor& index);
Tensor gather(const Tensor& self, int64_t dim, const Tensor& index);
Tensor scatter(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src);
Tensor masked_fill(const Tensor& self, const Tensor& mask, const Scalar& value);
Tensor flip(const Tensor& self, IntList dims);
Tensor roll(const Tensor& self, IntList shifts, IntList dims = {});
Tensor tril(const Tensor& self, int64_t diagonal = 0);
Tensor triu(const Tensor& self, int64_t diagonal = 0);
Tensor repeat(const Tensor& self, IntList repeats);
Tensor nonzero(const Tensor& self);
// torch's compositions of views and copies (shape.cpp). unflatten replaces dim by
// sizes (one may be -1); unfold is Tensor.unfold, windows of `size` every `step` along
// `dimension` as a new last dim (a view); tile pads dims with leading ones, then repeats.
Tensor unflatten(const Tensor& self, int64_t dim, IntList sizes);
Tensor unfold(const Tensor& self, int64_t dimension, int64_t size, int64_t step);
// diag: a 2-D input's `diagonal` (copied), or a 1-D input placed on that diagonal of a
// new square matrix (float16 refused, as torch's kernel is missing); diagflat is
// diag of the flattened input; diag_embed puts the last dim on the `offset` diagonal of
// new (dim1, dim2) matrices; trace sums a matrix's diagonal.
Tensor diag(const Tensor& self, int64_t diagonal = 0);
Tensor diagflat(const Tensor& self, int64_t offset = 0);
Tensor diag_embed(const Tensor& self, int64_t offset = 0, int64_t dim1 = -2, int64_t dim2 = -1);
Tensor trace(const Tensor& self);
Tensor fliplr(const Tensor& self);
Tensor flipud(const Tensor& self);
Tensor rot90(const Tensor& self, int64_t k = 1, IntList dims = {0, 1});
Tensor tile(const Tensor& self, IntList dims);
// np.repeat: repeat_interleave(repeats) is index i written repeats[i] times (int32 or
// int64, its dtype); the self forms repeat self's elements along dim (flattened without
// one). output_size, when given, must be the repeats' sum.
Tensor repeat_interleave(const Tensor& repeats, std::optional<int64_t> output_size = std::nullopt);
Tensor repeat_interleave(const Tensor& self, const Tensor& repeats, std::optional<int64_t> dim = std::nullopt,
                         std::optional<int64_t> output_size = std::nullopt);
Tensor repeat_interleave(const Tensor& self, int64_t repeats, std::optional<int64_t> dim = std::nullopt,
                         std::optional<int64_t> output_size = std::nullopt);

// joining.cpp: splits into views (tensor_split by a number of near-equal sections or at
// indices; h/v/dsplit along dim 1 (0 for 1-D), 0 and 2 with numpy's checks), the
// atleast_Nd family, the stacks torch builds on cat, broadcast_tensors, meshgrid
// (indexing "ij" or "xy"), block_diag, cartesian_prod and combinations (the r-element
// index tuples of a 1-D tensor in lexicographic order, as rows).
std::vector<Tensor> split_with_sizes(const Tensor& self, IntList split_sizes, int64_t dim = 0);
std::vector<Tensor> unbind(const Tensor& self, int64_t dim = 0);
std::vector<Tensor> tensor_split(const Tensor& self, int64_t sections, int64_t dim = 0);
std::vector<Tensor> tensor_split(const Tensor& self, IntList indices, int64_t dim = 0);
std::vector<Tensor> hsplit(const Tensor& self, int64_t sections);
std::vector<Tensor> vsplit(const Tensor& self, int64_t sections);
std::vector<Tensor> dsplit(const Tensor& self, int64_t sections);
std::vector<Tensor> hsplit(const Tensor& self, IntList indices);
std::vector<Tensor> vsplit(const Tensor& self, IntList indices);
std::vector<Tensor> dsplit(const Tensor& self, IntList indices);
Tensor atleast_1d(const Tensor& self);
Tensor atleast_2d(const Tensor& self);
Tensor atleast_3d(const Tensor& self);
std::vector<Tensor> atleast_1d(const std::vector<Tensor>& tensors);
std::vector<Tensor> atleast_2d(const std::vector<Tensor>& tensors);
std::vector<Tensor> atleast_3d(const std::vector<Tensor>& tensors);
Tensor hstack(const std::vector<Tensor>& tensors);
Tensor vstack(const std::vector<Tensor>& tensors);
Tensor dstack(const std::vector<Tensor>& tensors);
Tensor column_stack(const std::vector<Tensor>& tensors);
std::vector<Tensor> broadcast_tensors(const std::vector<Tensor>& tensors);
std::vector<Tensor> meshgrid(const std::vector<Tensor>& tensors, std::string_view indexing = "ij");
Tensor block_diag(const std::vector<Tensor>& tensors);
Tensor cartesian_prod(const std::vector<Tensor>& tensors);
Tensor combinations(const Tensor& self, int64_t r = 2, bool with_replacement = false);

}  // namespace torchlet

// embedding_bag and one_hot: lookups beyond nn.cpp's embedding. embedding_bag reduces
// bags of rows (sum, mean or max) row by row with vectorisable inner loops.
#include <algorithm>
#include <cmath>
#include <limits>
#include <tuple>
#include <utility>
#include <vector>

#include <torchlet/error.h>
#include <torchlet/ops.h>

#include "tensor/kernels/loop.h"

namespace torchlet {
namespace {

using kernels::opmath_t;

// torch's legacy type name in argument-check messages (torch.FloatTensor).
std::string legacy_type_name(DType d) {
  std::string s(dtype_info(d).scalar_type_name);
  return "torch." + s + "Tensor";
}

}  // namespace

Tensor embedding_bag(const Tensor& weight, const Tensor& indices, const std::optional<Tensor>& offsets_in,
                     int64_t mode, const std::optional<Tensor>& per_sample_weights, bool include_last_offset,
                     std::optional<int64_t> padding_idx) {
  TL_CHECK(weight.dim() == 2, ValueError, "embedding_bag: weight has to be a 2D Tensor, but got Tensor of dimension {}",
           weight.dim());
  DType d = weight.dtype();
  TL_CHECK(d == DType::Half || d == DType::Float || d == DType::Double, TypeError,
           "Expected tensor for argument #1 'weight' to have one of the following scalar types: Half, Float, Double; "
           "but got CPU{}Type instead (while checking arguments for embedding_bag)",
           dtype_info(d).scalar_type_name);
  TL_CHECK(indices.dtype() == DType::Long || indices.dtype() == DType::Int, TypeError,
           "Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, Int; but got "
           "{} instead (while checking arguments for embedding_bag)",
           legacy_type_name(indices.dtype()));
  TL_CHECK(mode >= 0 && mode <= 2, ValueError, "embedding_bag: mode has to be one of sum (0), mean (1) or max (2), got {}",
           mode);
  const bool has_psw = per_sample_weights && per_sample_weights->defined();
  TL_CHECK(!has_psw || mode == 0, ValueError, "embedding_bag: per_sample_weights only supported with mode='sum'");
  // A 2-D input is a batch of fixed-length bags (torch.nn.functional's convention).
  std::vector<int64_t> idx, offs;
  if (indices.dim() == 2) {
    TL_CHECK(!offsets_in || !offsets_in->defined(), ValueError,
             "if input is 2D, then offsets has to be None, as input is treated is a mini-batch of fixed length "
             "sequences.");
    for (int64_t i = 0; i < indices.size(0); ++i) offs.push_back(i * indices.size(1));
    idx = indices.reshape({-1}).to_vector<int64_t>();
    include_last_offset = false;
  } else {
    TL_CHECK(indices.dim() == 1, ValueError, "input has to be 1D or 2D Tensor, but got Tensor of dimension {}",
             indices.dim());
    TL_CHECK(offsets_in && offsets_in->defined() && offsets_in->dim() == 1, ValueError,
             "offsets has to be a 1D Tensor but got None");
    idx = indices.to_vector<int64_t>();
    offs = offsets_in->to_vector<int64_t>();
  }
  const int64_t ni = static_cast<int64_t>(idx.size()), vocab = weight.size(0), dim = weight.size(1);
  if (!offs.empty()) {
    TL_CHECK(offs[0] == 0, ValueError,
             "offsets[0] has to be 0, i.e., the first sequence in the mini-batch has to start from position 0. "
             "However, got {}",
             offs[0]);
    TL_CHECK(offs.back() <= ni, ValueError,
             "offsets[-1] can not be greater than input's length {} but got offsets[-1] of {}", ni, offs.back());
  }
  for (size_t i = 1; i < offs.size(); ++i) {
    TL_CHECK(offs[i] >= offs[i - 1], ValueError, "embedding_bag: offsets must be non-decreasing, but offsets[{}] = {} < {}",
             i, offs[i], offs[i - 1]);
  }
  for (int64_t v : idx) {
    TL_CHECK(v >= 0 && v < vocab, IndexError, "embedding_bag: index {} is out of bounds: range 0 to {}", v, vocab);
  }
  if (has_psw) {
    TL_CHECK(per_sample_weights->sizes() == indices.sizes(), ValueError,
             "embedding_bag: If per_sample_weights ({}) is not None, then it must have the same shape as the input "
             "({})",
             shape_repr(per_sample_weights->sizes()), shape_repr(indices.sizes()));
  }
  int64_t nbags = static_cast<int64_t>(offs.size()) - (include_last_offset ? 1 : 0);
  nbags = std::max<int64_t>(nbags, 0);
  int64_t pad = padding_idx ? (*padding_idx < 0 ? *padding_idx + vocab : *padding_idx) : -1;
  Tensor w = weight.contiguous();
  Tensor out = zeros({nbags, dim}, d);
  std::vector<double> psw = has_psw ? per_sample_weights->reshape({-1}).to_vector<double>() : std::vector<double>();
  kernels::dispatch_floating(d, "embedding_bag", [&]<typename T>() {
    using M = opmath_t<T>;
    const T* pw = w.data<T>();
    T* po = out.data<T>();
    parallel_for(0, nbags, 1, [&](int64_t lo, int64_t hi) {
      std::vector<M> acc(static_cast<size_t>(dim));
      for (int64_t bag = lo; bag < hi; ++bag) {
        int64_t begin = offs[static_cast<size_t>(bag)];
        int64_t end = bag + 1 < static_cast<int64_t>(offs.size()) ? offs[static_cast<size_t>(bag + 1)] : ni;
        std::fill(acc.begin(), acc.end(), mode == 2 ? -std::numeric_limits<M>::infinity() : M(0));
        int64_t count = 0;
        for (int64_t j = begin; j < end; ++j) {
          int64_t row = idx[static_cast<size_t>(j)];
          if (row == pad) continue;
          ++count;
          const T* __restrict r = pw + row * dim;
          M* __restrict a = acc.data();
          if (mode == 2) {
            for (int64_t k = 0; k < dim; ++k) a[k] = std::max(a[k], static_cast<M>(r[k]));
          } else {
            const M s = has_psw ? static_cast<M>(psw[static_cast<size_t>(j)]) : M(1);
            for (int64_t k = 0; k < dim; ++k) a[k] += static_cast<M>(r[k]) * s;
          }
        }
        if (count == 0) continue;  // empty bags stay zero in every mode
        const M div = mode == 1 ? static_cast<M>(count) : M(1);
        T* q = po + bag * dim;
        for (int64_t k = 0; k < dim; ++k) q[k] = static_cast<T>(acc[static_cast<size_t>(k)] / div);
      }
    });
  });
  return out;
}

Tensor one_hot(const Tensor& self, int64_t num_classes) {
  TL_CHECK(self.dtype() == DType::Long, TypeError, "one_hot is only applicable to index tensor.");
  if (self.numel() == 0) {
    TL_CHECK(num_classes > 0, ValueError, "Can not infer total number of classes from empty tensor.");
  } else {
    TL_CHECK(min(self).item().to<int64_t>() >= 0, ValueError, "Class values must be non-negative.");
    const int64_t top = max(self).item().to<int64_t>();
    if (num_classes == -1) num_classes = top + 1;
    TL_CHECK(top < num_classes, ValueError, "Class values must be smaller than num_classes.");
  }
  Shape shape = self.sizes().vec();
  shape.push_back(num_classes);
  Tensor out = zeros(shape, DType::Long);
  if (self.numel() > 0)
    out = scatter(out, -1, self.unsqueeze(-1), ones(self.unsqueeze(-1).sizes(), DType::Long));
  return out;
}

}  // namespace torchlet

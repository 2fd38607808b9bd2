// Embedding lookups: embedding, embedding_bag and one_hot, registered from their kernels'
// signatures (Note [Boxing] in boxing.h). scale_grad_by_freq and sparse shape only the
// gradient, which torchlet does not compute: they are read and not passed on.
#include <optional>
#include <tuple>

#include <torchlet/ops.h>

#include "jit/ops/boxing.h"
#include "jit/ops/out_forms.h"

namespace torchlet::jit::ops {
namespace {

Tensor embedding(const Tensor& weight, const Tensor& indices, int64_t padding_idx, bool /*scale_grad_by_freq*/,
                 bool /*sparse*/) {
  return torchlet::embedding(weight, indices, padding_idx);
}

// The bags' output; the three auxiliary results (offset2bag, bag_size, max_indices),
// used only by autograd, come back empty.
std::tuple<Tensor, Tensor, Tensor, Tensor> embedding_bag_padding_idx(
    const Tensor& weight, const Tensor& indices, const Tensor& offsets, bool /*scale_grad_by_freq*/, int64_t mode,
    bool /*sparse*/, const std::optional<Tensor>& per_sample_weights, bool include_last_offset,
    std::optional<int64_t> padding_idx) {
  Tensor out =
      torchlet::embedding_bag(weight, indices, offsets, mode, per_sample_weights, include_last_offset, padding_idx);
  return {out, empty({0}, DType::Long), empty({0}, DType::Long), empty({0}, DType::Long)};
}
std::tuple<Tensor, Tensor, Tensor, Tensor> embedding_bag(const Tensor& weight, const Tensor& indices,
                                                         const Tensor& offsets, bool scale_grad_by_freq, int64_t mode,
                                                         bool sparse, const std::optional<Tensor>& per_sample_weights,
                                                         bool include_last_offset) {
  return embedding_bag_padding_idx(weight, indices, offsets, scale_grad_by_freq, mode, sparse, per_sample_weights,
                                   include_last_offset, std::nullopt);
}

static RegisterOps reg({
    {"aten::embedding(Tensor weight, Tensor indices, int padding_idx=-1, bool scale_grad_by_freq=False, bool sparse=False) -> Tensor", boxed<&embedding>},
    {"aten::embedding.out(Tensor weight, Tensor indices, int padding_idx=-1, bool scale_grad_by_freq=False, bool sparse=False, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::embedding", 1, any_dtype>},
    {"aten::embedding_bag(Tensor weight, Tensor indices, Tensor offsets, bool scale_grad_by_freq=False, int mode=0, bool sparse=False, Tensor? per_sample_weights=None, bool include_last_offset=False) -> (Tensor, Tensor, Tensor, Tensor)", boxed<&embedding_bag>},
    {"aten::embedding_bag.padding_idx(Tensor weight, Tensor indices, Tensor offsets, bool scale_grad_by_freq, int mode, bool sparse, Tensor? per_sample_weights, bool include_last_offset, int? padding_idx) -> (Tensor, Tensor, Tensor, Tensor)", boxed<&embedding_bag_padding_idx>},
    {"aten::one_hot(Tensor self, int num_classes=-1) -> Tensor", boxed<&torchlet::one_hot>},
});

}  // namespace
}  // namespace torchlet::jit::ops

// Loss functions (loss.cpp, margin_loss.cpp), over torch's reductions.
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

// --- losses (loss.cpp) --------------------------------------------------------------
// `reduction` as aten numbers it (torch.nn._reduction): none, mean, sum.
inline constexpr int64_t kReductionNone = 0;
inline constexpr int64_t kReductionMean = 1;
inline constexpr int64_t kReductionSum = 2;
Tensor mse_loss(const Tensor& self, const Tensor& target, int64_t reduction = kReductionMean);
Tensor l1_loss(const Tensor& self, const Tensor& target, int64_t reduction = kReductionMean);
Tensor smooth_l1_loss(const Tensor& self, const Tensor& target, int64_t reduction = kReductionMean,
                      double beta = 1.0);
Tensor huber_loss(const Tensor& self, const Tensor& target, int64_t reduction = kReductionMean, double delta = 1.0);
// Input [C], [N, C] or [N, C, d...] of log-probabilities; int64 class targets.
Tensor nll_loss(const Tensor& self, const Tensor& target, const std::optional<Tensor>& weight = std::nullopt,
                int64_t reduction = kReductionMean, int64_t ignore_index = -100);
// Class-index (int64) or probability (floating, input-shaped) targets.
Tensor cross_entropy(const Tensor& self, const Tensor& target, const std::optional<Tensor>& weight = std::nullopt,
                     int64_t reduction = kReductionMean, int64_t ignore_index = -100, double label_smoothing = 0.0);
// torch.ctc_loss: log_probs [T, N, C] (or [T, C]); targets padded [N, S] or concatenated
// [sum of target_lengths], labels in [0, C) other than blank.
Tensor ctc_loss(const Tensor& log_probs, const Tensor& targets, IntList input_lengths, IntList target_lengths,
                int64_t blank = 0, int64_t reduction = kReductionMean, bool zero_infinity = false);
// The lengths as tensors of any integer dtype (aten::ctc_loss.Tensor).
Tensor ctc_loss(const Tensor& log_probs, const Tensor& targets, const Tensor& input_lengths,
                const Tensor& target_lengths, int64_t blank = 0, int64_t reduction = kReductionMean,
                bool zero_infinity = false);
// F.poisson_nll_loss: exp(input) - target * input (log_input) or input - target *
// log(input + eps), plus Stirling's term for targets above 1 when `full`.
Tensor poisson_nll_loss(const Tensor& input, const Tensor& target, bool log_input, bool full, double eps,
                        int64_t reduction);
// margin_loss.cpp: the multi-class margin losses (float and double; class indices in the
// int64 target, -1 ending each sample's list for multilabel, whose forward form also
// returns the is_target marks), and the margin and embedding losses torch composes
// (hinge_embedding, cosine_embedding, margin_ranking, soft_margin, triplet_margin). For
// these any reduction but mean and sum leaves the loss unreduced, as torch's
// apply_loss_reduction.
Tensor multi_margin_loss(const Tensor& self, const Tensor& target, const Scalar& p = 1, const Scalar& margin = 1,
                         const std::optional<Tensor>& weight = std::nullopt, int64_t reduction = kReductionMean);
Tensor multilabel_margin_loss(const Tensor& self, const Tensor& target, int64_t reduction = kReductionMean);
std::tuple<Tensor, Tensor> multilabel_margin_loss_forward(const Tensor& self, const Tensor& target,
                                                          int64_t reduction);
Tensor hinge_embedding_loss(const Tensor& self, const Tensor& target, double margin = 1.0,
                            int64_t reduction = kReductionMean);
Tensor cosine_embedding_loss(const Tensor& input1, const Tensor& input2, const Tensor& target, double margin = 0.0,
                             int64_t reduction = kReductionMean);
Tensor margin_ranking_loss(const Tensor& input1, const Tensor& input2, const Tensor& target, double margin = 0.0,
                           int64_t reduction = kReductionMean);
Tensor soft_margin_loss(const Tensor& self, const Tensor& target, int64_t reduction = kReductionMean);
Tensor triplet_margin_loss(const Tensor& anchor, const Tensor& positive, const Tensor& negative, double margin = 1.0,
                           double p = 2, double eps = 1e-6, bool swap = false, int64_t reduction = kReductionMean);
Tensor binary_cross_entropy(const Tensor& self, const Tensor& target,
                            const std::optional<Tensor>& weight = std::nullopt, int64_t reduction = kReductionMean);
Tensor binary_cross_entropy_with_logits(const Tensor& self, const Tensor& target,
                                        const std::optional<Tensor>& weight = std::nullopt,
                                        const std::optional<Tensor>& pos_weight = std::nullopt,
                                        int64_t reduction = kReductionMean);
// aten::kl_div: pointwise target * (log target - input) (or exp(t) * (t - input) with
// log_target); 'batchmean' is F.kl_div's sum divided by the batch size.
Tensor kl_div(const Tensor& self, const Tensor& target, int64_t reduction = kReductionMean, bool log_target = false);

}  // namespace torchlet

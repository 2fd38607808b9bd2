// torchvision::nms on CPU: greedy non-maximum suppression as torchvision 0.14's CPU
// kernel runs it, so the same boxes are kept in the same order. It owns the score order
// and the suppression loop; the registration is src/jit/ops/torchvision.cpp.
#include "tensor/kernels/detection.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include <torchlet/error.h>

namespace torchlet::vision {
namespace {

// Note [nms score order]: torchvision 0.14 sorts the scores with torch's stable CPU
// sort, descending, whose comparator puts NaN first and otherwise orders by score; so
// boxes of equal score are visited in index order, and of two tied, overlapping boxes
// the lower index survives. (torch's default unstable sort, std::sort on the same
// comparator, would leave ties of more than 16 boxes in introsort's order; the fixtures'
// tied scores over 17 to 300 boxes tell the two apart.)
template <typename T>
struct ScoreIndex {
  T score;
  int64_t index;
};

template <typename T>
std::vector<ScoreIndex<T>> score_order(const T* scores, int64_t n) {
  std::vector<ScoreIndex<T>> order(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) order[static_cast<size_t>(i)] = {scores[i], i};
  std::stable_sort(order.begin(), order.end(), [](const ScoreIndex<T>& a, const ScoreIndex<T>& b) {
    return (std::isnan(a.score) && !std::isnan(b.score)) || a.score > b.score;
  });
  return order;
}

template <typename T>
Tensor nms_typed(const Tensor& dets, const Tensor& scores, double iou_threshold) {
  const int64_t n = dets.size(0);
  const Tensor boxes = dets.contiguous();
  const Tensor ranked = scores.contiguous();
  const T* b = boxes.data<T>();
  std::vector<T> area(static_cast<size_t>(n));
  // Each product rounds in T, as torch's elementwise (x2 - x1) * (y2 - y1) does.
  for (int64_t i = 0; i < n; ++i) {
    const T w = b[4 * i + 2] - b[4 * i], h = b[4 * i + 3] - b[4 * i + 1];
    area[static_cast<size_t>(i)] = w * h;
  }
  const std::vector<ScoreIndex<T>> order = score_order(ranked.data<T>(), n);
  std::vector<uint8_t> suppressed(static_cast<size_t>(n), 0);
  std::vector<int64_t> keep;
  for (int64_t oi = 0; oi < n; ++oi) {
    const int64_t i = order[static_cast<size_t>(oi)].index;
    if (suppressed[static_cast<size_t>(i)]) continue;
    keep.push_back(i);
    const T* bi = b + 4 * i;
    const T area_i = area[static_cast<size_t>(i)];
    for (int64_t oj = oi + 1; oj < n; ++oj) {
      const int64_t j = order[static_cast<size_t>(oj)].index;
      if (suppressed[static_cast<size_t>(j)]) continue;
      const T* bj = b + 4 * j;
      const T xx1 = std::max(bi[0], bj[0]), yy1 = std::max(bi[1], bj[1]);
      const T xx2 = std::min(bi[2], bj[2]), yy2 = std::min(bi[3], bj[3]);
      const T w = std::max(static_cast<T>(0), xx2 - xx1), h = std::max(static_cast<T>(0), yy2 - yy1);
      const T inter = w * h;
      const T iou = inter / (area_i + area[static_cast<size_t>(j)] - inter);
      // Strictly greater, compared in double: IoU equal to the threshold keeps the box,
      // and a NaN IoU (two empty boxes) suppresses nothing.
      if (iou > iou_threshold) suppressed[static_cast<size_t>(j)] = 1;
    }
  }
  Tensor out = empty({static_cast<int64_t>(keep.size())}, DType::Long);
  std::copy(keep.begin(), keep.end(), out.data<int64_t>());
  return out;
}

}  // namespace

Tensor nms(const Tensor& dets, const Tensor& scores, double iou_threshold) {
  // torchvision's checks, in its order and words.
  TL_CHECK(dets.dim() == 2, ValueError, "boxes should be a 2d tensor, got {}D", dets.dim());
  TL_CHECK(dets.size(1) == 4, ValueError, "boxes should have 4 elements in dimension 1, got {}", dets.size(1));
  TL_CHECK(scores.dim() == 1, ValueError, "scores should be a 1d tensor, got {}D", scores.dim());
  TL_CHECK(dets.size(0) == scores.size(0), ValueError,
           "boxes and scores should have same number of elements in dimension 0, got {} and {}", dets.size(0),
           scores.size(0));
  const DType d = dets.dtype();
  // torchvision dispatches on float and double only (no half on CPU).
  if (d != DType::Float && d != DType::Double) throw_unsupported_dtype("nms_kernel", d);
  TL_CHECK(scores.dtype() == d, TypeError, "dets should have the same type as scores");
  if (dets.numel() == 0) return empty({0}, DType::Long);
  if (d == DType::Float) return nms_typed<float>(dets, scores, iou_threshold);
  return nms_typed<double>(dets, scores, iou_threshold);
}

}  // namespace torchlet::vision

// Nested-tensor operators: torchlet has no nested tensors, but nn.TransformerEncoder's
// code (as torch.jit.save writes it) names these on its padding-mask fast path. They
// are registered with their schemas so such code compiles and runs when that path is
// not taken, and refuse by name when it is. The one that only inspects a padding mask
// (_nested_tensor_from_mask_left_aligned, a bool) is computed, as torch computes it.
#include <torchlet/error.h>
#include <torchlet/ops.h>

#include "jit/ops/ops_util.h"

namespace torchlet::jit::ops {
namespace {

template <const char* kName>
void refuse(Stack&) {
  TL_FAIL(UnsupportedError, "{}: nested tensors are not supported by torchlet", kName);
}

constexpr char kFromMask[] = "aten::_nested_tensor_from_mask";
constexpr char kToPadded[] = "aten::to_padded_tensor";

// Whether every row of an N x L padding mask is a run of True followed only by False
// (the layout _nested_tensor_from_mask accepts). Torch's checks, in its order; then a row
// passes when its count of True equals the index of its first False (L when it has none,
// hence the column of False appended before the argmin). Composed from the same
// operators torch uses, so L = 0 fails in select() as it does in torch.
void from_mask_left_aligned(Stack& s) {
  Tensor mask = pop_tensor(s);
  Tensor t = pop_tensor(s);
  TL_CHECK(mask.dtype() == DType::Bool, TypeError, "Expected mask to be of ScalarType Bool, but got {} instead.",
           dtype_info(mask.dtype()).scalar_type_name);
  TL_CHECK(mask.dim() == 2, ValueError, "Padding mask should be 2D");
  TL_CHECK(t.dim() == 3, ValueError, "Input should be a 3D tensor, N * L * D");
  const int64_t n = t.size(0), l = t.size(1);
  TL_CHECK(mask.size(0) == n && mask.size(1) == l, ValueError, "Mask size should match input size");
  Tensor first_false = argmin(cat({mask, zeros({n, 1}, DType::Bool)}, 1).to(DType::Int), 1);
  Tensor count = cumsum(mask, 1).select(1, l - 1);
  push(s, all(eq(count, first_false.to(count.dtype()))).item().to_bool());
}

static RegisterOps reg({
    {"aten::_nested_tensor_from_mask(Tensor t, Tensor mask, bool mask_check=True) -> Tensor", refuse<kFromMask>},
    {"aten::_nested_tensor_from_mask_left_aligned(Tensor t, Tensor mask) -> bool", from_mask_left_aligned},
    {"aten::to_padded_tensor(Tensor self, float padding, int[]? output_size=None) -> Tensor", refuse<kToPadded>},
});

}  // namespace
}  // namespace torchlet::jit::ops

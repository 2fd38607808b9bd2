// Nested-tensor operators: torchlet has no nested tensors, but nn.TransformerEncoder's
// code (as torch.jit.save writes it) names these on its padding-mask fast path. They
// are registered with their schemas so such code compiles and runs when that path is
// not taken, and refuse by name when it is.
#include <torchlet/error.h>

#include "jit/ops/ops_util.h"

namespace torchlet::jit::ops {
namespace {

template <const char* kName>
void refuse(Stack&) {
  TL_FAIL(UnsupportedError, "{}: nested tensors are not supported by torchlet", kName);
}

constexpr char kFromMask[] = "aten::_nested_tensor_from_mask";
constexpr char kLeftAligned[] = "aten::_nested_tensor_from_mask_left_aligned";
constexpr char kToPadded[] = "aten::to_padded_tensor";

static RegisterOps reg({
    {"aten::_nested_tensor_from_mask(Tensor t, Tensor mask, bool mask_check=True) -> Tensor", refuse<kFromMask>},
    {"aten::_nested_tensor_from_mask_left_aligned(Tensor t, Tensor mask) -> bool", refuse<kLeftAligned>},
    {"aten::to_padded_tensor(Tensor self, float padding, int[]? output_size=None) -> Tensor", refuse<kToPadded>},
});

}  // namespace
}  // namespace torchlet::jit::ops

// Padding: aten::pad (F.pad's constant, reflect, replicate and circular modes), registered
// from its kernel's signature (Note [Boxing] in boxing.h).
#include <optional>
#include <string>

#include <torchlet/ops.h>

#include "jit/ops/boxing.h"

namespace torchlet::jit::ops {
namespace {

Tensor pad(const Tensor& self, IntList pad, const std::string& mode, std::optional<double> value) {
  return torchlet::pad(self, pad, mode, value);
}

static RegisterOps reg({
    {"aten::pad(Tensor self, int[] pad, str mode=\"constant\", float? value=None) -> Tensor", boxed<&pad>},
});

}  // namespace
}  // namespace torchlet::jit::ops

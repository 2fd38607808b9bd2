// Operators torch.export programs call that torch 1.13 has no schema for, so the
// global registry (which holds torch 1.13's operators, each checked against torch's
// schema table) does not register them: runtime assertions (_assert_scalar,
// _assert_tensor_metadata, sym_constrain_range*, _assert_async.msg) and
// scaled_dot_product_attention. The lowering resolves a target here after the
// registry; only exported programs' graphs can call them.
#pragma once

#include <string_view>

#include "jit/runtime/operator.h"

namespace torchlet::exported {

// By "aten::name.overload" as registry_key spells it; null when not one of these.
const jit::Operator* find_export_operator(std::string_view key);

}  // namespace torchlet::exported

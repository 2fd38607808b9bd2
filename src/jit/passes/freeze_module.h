// Freezing, as torch.jit.freeze: a module in eval mode becomes one whose methods read
// no attributes -- parameters, buffers and other attribute values are constants in the
// code, submodule calls are inlined -- and then the frozen graphs are optimized (dead
// branches folded, conv/batch-norm folding: frozen_folding.h). Note [Freezing] in
// freeze_module.cpp says what is refused.
#pragma once

#include <string>
#include <vector>

#include <torchlet/jit.h>

#include "jit/ir/ir.h"

namespace torchlet::jit {

// The frozen copy (the module itself is unchanged): forward and `preserved_methods`
// only, each with `self` still its first input, as torch's are, and no attributes but
// `training`. `optimize` runs torch's optimize_frozen_graph folding as well.
// ValueError for a module in training mode or an unknown method; UnsupportedError
// naming what freezing cannot take yet (an attribute set or written in place, a
// submodule used as a value).
Module freeze_module(const Module& module, const std::vector<std::string>& preserved_methods = {},
                     bool optimize = true);

// The passes freezing runs on a graph whose attributes are constants, to a fixed point:
// None checks, constant propagation and control-flow folding, CSE, dead code.
void simplify_frozen_graph(Graph& graph);

}  // namespace torchlet::jit

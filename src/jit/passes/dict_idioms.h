// The dict rules of torch's peephole pass (PeepholeOptimizeDictIdioms): len and
// __getitem__ of a dict built by prim::DictConstruct that nothing writes.
#pragma once

#include "jit/ir/ir.h"

namespace torchlet::jit {

// On dicts no node writes (alias analysis) whose construct has int, float or str keys,
// all constants and no two equal: len becomes a constant and __getitem__ with a constant
// key present the value. A missing key keeps its KeyError. The nodes replaced stay for
// DCE. Returns whether it changed anything.
bool fold_dict_idioms(Graph& graph);

}  // namespace torchlet::jit

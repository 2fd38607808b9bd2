// Dead code elimination, as torch's EliminateDeadCode: an inverse mark and sweep from
// the graph's outputs (Note [Dead code] in dead_code_elimination.cpp).
#pragma once

#include "jit/ir/ir.h"

namespace torchlet::jit {

enum class DeadCodeWrites {
  // Alias analysis decides: a write is dead when nothing live and nothing outside the
  // graph can see the memory it writes (torch's EliminateDeadCode on a whole graph).
  AliasAware,
  // Every node that writes memory is kept (torch's EliminateDeadCode on a block, which
  // is what torch._C._jit_pass_dce runs).
  KeepAll,
};

// Removes nodes whose outputs nothing live uses and that have no side effects
// (node_effects.h) and no write that matters; drops outputs of prim::If and prim::Loop
// that nothing uses (a loop-carried value only when the body does not read it either).
// Returns whether it changed anything.
bool eliminate_dead_code(Graph& graph, DeadCodeWrites writes = DeadCodeWrites::AliasAware);

// One block alone, its nested blocks left as they are (torch's EliminateDeadCode(block,
// /*recurse=*/false)): nodes nothing uses and without effects, writes kept.
bool eliminate_dead_code_in_block(Block* block);

}  // namespace torchlet::jit

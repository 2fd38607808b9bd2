// The list and dict rules of torch's peephole pass: operations on a list built by
// prim::ListConstruct or a dict built by prim::DictConstruct that nothing writes are
// answered from the construct's inputs. The nodes replaced stay for DCE, as in torch.
#pragma once

#include "jit/ir/ir.h"

namespace torchlet::jit {

// torch._C._jit_pass_peephole_list_idioms(g, False): on lists no node writes (alias
// analysis), len(ListConstruct) becomes a constant, __getitem__ with a constant in-range
// index the element, ListUnpack of as many values the elements, the sum of two
// constructs and a slice with constant bounds a new construct. Returns whether it
// changed anything.
bool fold_list_idioms(Graph& graph);

// PeepholeOptimizeDictIdioms: on dicts no node writes whose construct has int, float or
// str keys, all constants and no two equal, len becomes a constant and __getitem__ with
// a constant key present the value; a missing key keeps its KeyError. Returns whether
// it changed anything.
bool fold_dict_idioms(Graph& graph);

}  // namespace torchlet::jit

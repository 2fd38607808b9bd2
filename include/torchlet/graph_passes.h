// Graph passes from outside the library: run named passes (constant pooling, CSE, DCE
// …) over IR text, as torch._C.parse_ir reads it, or over a copy of a method's graph,
// and print the result in torch's IR text; dump a graph's alias analysis; freeze a
// module as torch.jit.freeze does, or optimize its methods without freezing.
// The passes and their names: src/jit/passes/pass_manager.cpp.
#pragma once

#include <string>
#include <vector>

#include <torchlet/jit.h>

namespace torchlet::jit {

struct GraphPassInfo {
  std::string name;
  std::string summary;
};

// The passes, by the names the functions below take.
std::vector<GraphPassInfo> graph_pass_list();

// Parses `ir_text`, runs `passes` in order (linting after each), prints the graph.
// CompileError for bad IR text; ValueError for an unknown pass.
std::string ir_after_passes(const std::string& ir_text, const std::vector<std::string>& passes);
// The same on a copy of the method's graph; the method itself is unchanged.
std::string method_graph_after_passes(const Method& method, const std::vector<std::string>& passes);

// The graph (after `passes`) followed by its alias analysis: where each mutable value
// may point, what containers hold, which nodes write where.
std::string ir_alias_analysis(const std::string& ir_text, const std::vector<std::string>& passes = {});
std::string method_alias_analysis(const Method& method, const std::vector<std::string>& passes = {});

// torch.jit.freeze(module, preserved_attrs=preserved_methods): a copy whose forward
// (and preserved methods) read no attributes -- parameters, buffers and values are
// constants, submodule calls inlined, branches on them folded -- and, with `optimize`,
// convolutions and the eval-mode batch norms after them folded into one. The module
// must be in eval mode (ValueError); what freezing cannot take yet (attributes the code
// sets or writes in place) is refused naming the attribute (UnsupportedError).
// jit::save writes the result as an archive torch.jit.load runs.
Module freeze(const Module& module, const std::vector<std::string>& preserved_methods = {}, bool optimize = true);

// Optimizes `module`'s methods in place without freezing it: what holds for every call
// (calls inlined, constants and the branches they decide folded, dead and common code
// removed, torch's peephole rules, list mutation removed); parameters, attributes and
// submodules stay, so the module still trains and its state_dict is unchanged. jit::save
// then writes the optimized code, which torch.jit.load runs. The methods must not have
// been called yet (ValueError), nor be missing.
void optimize(Module& module, const std::vector<std::string>& methods = {"forward"});

}  // namespace torchlet::jit

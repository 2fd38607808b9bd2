// Optimizing a module's methods in place (module_optimization.h).
#include "jit/passes/module_optimization.h"

#include <torchlet/error.h>

#include "jit/passes/common_subexpression_elimination.h"
#include "jit/passes/constant_pooling.h"
#include "jit/passes/constant_propagation.h"
#include "jit/passes/dead_code_elimination.h"
#include "jit/passes/inliner.h"
#include "jit/passes/peephole.h"
#include "jit/passes/remove_mutation.h"
#include "jit/runtime/compilation_unit.h"

namespace torchlet::jit {

void optimize_for_every_call(Graph& g) {
  inline_calls(g);
  for (int round = 0; round < 4; ++round) {  // each round folds what the last exposed
    bool changed = false;
    while (propagate_constants(g) | fold_constant_control_flow(g)) changed = true;
    changed |= eliminate_dead_code(g);
    changed |= eliminate_common_subexpressions(g);
    changed |= peephole(g);
    changed |= remove_list_mutation(g);
    if (!changed) break;
  }
  pool_constants(g);
  g.lint();
}

void optimize_module(Module& module, const std::vector<std::string>& methods) {
  CompilationUnit& cu = *module.compilation_unit();
  // Saving prints every class from its graphs, so a method that did not compile here
  // (an operator torchlet lacks) would stop the save: refuse before changing anything.
  for (const TypePtr& type : cu.types()) {
    const ClassType* cls = type->as_class();
    if (!cls) continue;
    for (const auto& [name, fn] : cls->methods())
      TL_CHECK(dynamic_cast<const GraphFunction*>(fn), UnsupportedError,
               "cannot optimize {}: {}.{} did not compile in torchlet, and an optimized archive is saved from "
               "every method's graph (--freeze saves only what forward and preserved methods call)",
               module.qualified_name(), cls->name(), name);
  }
  // Every name checked before the first graph changes: a refusal leaves the module as it was.
  std::vector<GraphFunction*> targets;
  for (const std::string& name : methods) {
    TL_CHECK(module.has_method(name), ValueError, "cannot optimize: module {} has no method '{}'",
             module.qualified_name(), name);
    auto* graph_fn = dynamic_cast<GraphFunction*>(cu.find_function(module.get_method(name).function().qualname()));
    TL_CHECK(graph_fn, ValueError, "cannot optimize: method '{}' has no graph", name);
    TL_CHECK(!graph_fn->started(), ValueError, "cannot optimize: method '{}' has already been called", name);
    targets.push_back(graph_fn);
  }
  for (GraphFunction* fn : targets) fn->rewrite_graph(optimize_for_every_call);
  cu.discard_kept_code();
}

}  // namespace torchlet::jit

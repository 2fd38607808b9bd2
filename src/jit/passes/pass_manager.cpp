// Graph passes by name (pass_manager.h) and the public entry points over IR text and
// methods (include/torchlet/graph_passes.h).
#include "jit/passes/pass_manager.h"

#include <torchlet/error.h>
#include <torchlet/graph_passes.h>
#include <torchlet/jit.h>

#include "jit/ir/ir_parser.h"
#include "jit/passes/alias_analysis.h"
#include "jit/passes/common_subexpression_elimination.h"
#include "jit/passes/constant_pooling.h"
#include "jit/passes/constant_propagation.h"
#include "jit/passes/container_idioms.h"
#include "jit/passes/dead_code_elimination.h"
#include "jit/passes/execution_pipeline.h"
#include "jit/passes/freeze_module.h"
#include "jit/passes/frozen_folding.h"
#include "jit/passes/frozen_linear_folding.h"
#include "jit/passes/inliner.h"
#include "jit/passes/loop_unrolling.h"
#include "jit/passes/module_optimization.h"
#include "jit/passes/lower_tuples.h"
#include "jit/passes/none_checks.h"
#include "jit/passes/normalize_ops.h"
#include "jit/passes/peephole.h"
#include "jit/passes/remove_mutation.h"
#include "jit/passes/shape_propagation.h"
#include "jit/runtime/function.h"

namespace torchlet::jit {

namespace {

// torch's ConstantPropagationImmutableTypes: what folding leaves unused goes at once.
bool propagate_immutable_constants(Graph& g) {
  bool changed = false;
  // Folding a branch away can make more constants (and folding constants more branches).
  while (propagate_constants(g) | fold_constant_control_flow(g)) changed = true;
  if (changed) eliminate_dead_code(g, DeadCodeWrites::AliasAware);
  return changed;
}

bool lint_only(Graph& g) {
  g.lint();
  return false;
}

GraphPtr method_graph_copy(const Method& method) {
  const auto* fn = dynamic_cast<const GraphFunction*>(&method.function());
  TL_CHECK(fn, ValueError, "method '{}' has no graph (it did not compile)", method.name());
  return fn->graph()->copy();
}

}  // namespace

const std::vector<GraphPass>& graph_passes() {
  static const std::vector<GraphPass> passes = {
      {"constprop_immutable", propagate_immutable_constants,
       "fold nodes whose inputs and outputs are constants of immutable types and control flow whose outcome is "
       "known, then dead code if any folded "
       "(torch._C._jit_pass_constant_propagation_immutable_types)"},
      {"constant_pooling", pool_constants,
       "move every constant to the top of the graph, one per value (torch._C._jit_pass_constant_pooling)"},
      {"cse", eliminate_common_subexpressions,
       "merge nodes that compute the same thing, alias-aware (torch._C._jit_pass_cse)"},
      {"dce", [](Graph& g) { return eliminate_dead_code(g, DeadCodeWrites::AliasAware); },
       "remove nodes nothing live needs; writes only when nothing can see them (torch's EliminateDeadCode on a graph)"},
      {"dce_keep_writes", [](Graph& g) { return eliminate_dead_code(g, DeadCodeWrites::KeepAll); },
       "remove nodes nothing live needs, keeping every write (torch._C._jit_pass_dce)"},
      {"dict_idioms", fold_dict_idioms,
       "answer len and constant-key indexing of dicts built in the graph with distinct constant int, float or str "
       "keys that nothing writes (the dict rules of torch's peephole)"},
      {"inline", inline_calls,
       "replace calls of functions and methods known from the types by their graphs (torch._C._jit_pass_inline)"},
      {"list_idioms", fold_list_idioms,
       "answer len, indexing, unpacking, + and slices of lists built in the graph that nothing writes "
       "(torch._C._jit_pass_peephole_list_idioms)"},
      {"loop_unrolling", unroll_loops,
       "repeat small for-loop bodies 8 times with an epilogue loop, short constant-length loops fully "
       "(torch._C._jit_pass_loop_unrolling)"},
      {"constant_loop_unrolling", unroll_constant_loops,
       "the same for for-loops of a constant trip count only (torch._C._jit_pass_constant_loop_unrolling)"},
      {"lower_all_tuples", lower_all_tuples,
       "replace every tuple by its elements: graph and block inputs and outputs, If and Loop results, tuple "
       "constants (torch._C._jit_pass_lower_all_tuples)"},
      {"none_checks", fold_none_checks,
       "fold `is None` checks the types decide and redundant unchecked casts (the None rules of torch's peephole)"},
      {"peephole", [](Graph& g) { return peephole(g); },
       "torch's peephole rules: tensor idioms (incl. answers from refined tensor types), list and dict idioms, "
       "alias-sensitive and scalar rules, concat combining, then dead code (torch._C._jit_pass_peephole)"},
      {"peephole_no_shapes", [](Graph& g) { return peephole(g, false); },
       "peephole without answers from refined tensor types "
       "(torch._C._jit_pass_peephole(g, disable_shape_peepholes=True))"},
      {"remove_mutation", remove_mutation,
       "turn writes to lists built in the graph and in-place tensor operators on fresh values nothing else "
       "aliases into pure operations (torch._C._jit_pass_remove_mutation)"},
      {"remove_dropout", remove_eval_dropout, "drop dropout whose train argument is a constant False (eval mode)"},
      {"fold_conv_bn", fold_frozen_conv_batch_norm,
       "fold eval-mode batch norms of constant statistics into the convolutions before them "
       "(torch._C._jit_pass_fold_frozen_conv_bn)"},
      {"fold_linear_bn", fold_frozen_linear_batch_norm,
       "fold eval-mode batch norms of constant statistics into the linears before them whose results have "
       "rank 2 (torch 2.x's _jit_pass_fold_frozen_linear_bn; run propagate_shapes first)"},
      {"fold_conv_add_sub", fold_frozen_conv_add_or_sub,
       "fold adds and subtracts of per-channel constants into the convolutions before them "
       "(torch._C._jit_pass_fold_frozen_conv_add_or_sub)"},
      {"fold_conv_mul_div", fold_frozen_conv_mul_or_div,
       "fold multiplies and divides by per-channel constants into the convolutions before them "
       "(torch._C._jit_pass_fold_frozen_conv_mul_or_div)"},
      {"concat_frozen_linears", concat_frozen_linears,
       "merge linears that read one input with constant weights into one, its result sliced back "
       "(torch._C._jit_pass_concat_frozen_linear, which does it for CUDA weights only)"},
      {"normalize_ops", normalize_ops, "call canonical operators instead of their aliases (aten::multiply -> aten::mul)"},
      {"propagate_shapes", propagate_shapes,
       "narrow tensor types to the dtypes, ranks, sizes and devices the input types imply "
       "(torch's PropagateInputShapes, _jit_pass_complete_shape_analysis given the inputs' types)"},
      {"executor_pipeline", [](Graph& g) { optimize_for_execution(g); return true; },
       "what the graph executor runs on a plan: inline, constants, shapes, then DCE, CSE, peephole, pooling, "
       "loop unrolling and list mutation removal (torch's legacy executor's compileSpec)"},
      {"lint", lint_only, "check the graph's invariants and stop with the first violation"},
  };
  return passes;
}

void run_passes(Graph& graph, const std::vector<std::string>& names, bool lint) {
  for (const std::string& name : names) {
    const GraphPass* pass = nullptr;
    for (const GraphPass& p : graph_passes())
      if (name == p.name) pass = &p;
    if (!pass) {
      std::string known;
      for (const GraphPass& p : graph_passes()) known += (known.empty() ? "" : ", ") + std::string(p.name);
      throw ValueError(fmt::format("unknown graph pass '{}' (known: {})", name, known));
    }
    pass->run(graph);
    if (lint) graph.lint();
  }
}

// --- include/torchlet/graph_passes.h --------------------------------------------------

std::vector<GraphPassInfo> graph_pass_list() {
  std::vector<GraphPassInfo> out;
  for (const GraphPass& p : graph_passes()) out.push_back({p.name, p.summary});
  return out;
}

namespace {
// IR text is the user's: parse_ir leaves scoping to lint, whose verdict on text is a
// refusal of the text, not a broken invariant of torchlet's.
GraphPtr parse_linted_ir(const std::string& ir_text) {
  GraphPtr g = parse_ir(ir_text);
  try {
    g->lint();
  } catch (const InternalError& e) {
    TL_FAIL(FormatError, "IR text is not a well-formed graph: {}", e.what());
  }
  return g;
}
}  // namespace

std::string ir_after_passes(const std::string& ir_text, const std::vector<std::string>& passes) {
  GraphPtr g = parse_linted_ir(ir_text);
  run_passes(*g, passes, /*lint=*/true);
  return g->str();
}

std::string method_graph_after_passes(const Method& method, const std::vector<std::string>& passes) {
  GraphPtr g = method_graph_copy(method);
  run_passes(*g, passes, /*lint=*/true);
  return g->str();
}

std::string ir_alias_analysis(const std::string& ir_text, const std::vector<std::string>& passes) {
  GraphPtr g = parse_linted_ir(ir_text);
  run_passes(*g, passes, /*lint=*/true);
  return g->str() + AliasDb(*g).dump();
}

std::string method_alias_analysis(const Method& method, const std::vector<std::string>& passes) {
  GraphPtr g = method_graph_copy(method);
  run_passes(*g, passes, /*lint=*/true);
  return g->str() + AliasDb(*g).dump();
}

void optimize(Module& module, const std::vector<std::string>& methods) { optimize_module(module, methods); }

Module freeze(const Module& module, const std::vector<std::string>& preserved_methods, bool optimize) {
  return freeze_module(module, preserved_methods, optimize);
}

}  // namespace torchlet::jit

// Operator-alias normalisation (normalize_ops.h): the alias table and the graph pass.
#include "jit/passes/normalize_ops.h"

#include <initializer_list>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include <fmt/format.h>

namespace torchlet::jit {

// Note [Operator aliases]
// torch's compiler replaces an alias's node with its canonical operator as it cleans up
// each graph (passes/normalize_ops.cpp), so graphs, the code torch.jit.save writes and
// the operators a program needs never name an alias: torch.multiply(x, y) is aten::mul,
// torch.special.expit(x) aten::sigmoid. torchlet maps the name before it matches the
// call, which needs only the canonical operator registered; the few aliases whose
// keyword names differ (swapaxes's axis0= is transpose's dim0=) have their keywords
// renamed too (rename_alias_keywords in frontend/calls.cpp).
Symbol canonical_operator(Symbol name) {
  static const std::unordered_map<std::string, std::string> kAliases = [] {
    std::unordered_map<std::string, std::string> m;
    // Aliases whose in-place form is an alias of the canonical in-place form too.
    for (auto [alias, canonical] : std::initializer_list<std::pair<const char*, const char*>>{
             {"absolute", "abs"}, {"clip", "clamp"}, {"arccos", "acos"}, {"arcsin", "asin"}, {"arctan", "atan"},
             {"arctan2", "atan2"}, {"arccosh", "acosh"}, {"arcsinh", "asinh"}, {"arctanh", "atanh"}, {"fix", "trunc"},
             {"negative", "neg"}, {"subtract", "sub"}, {"greater_equal", "ge"}, {"greater", "gt"},
             {"less_equal", "le"}, {"less", "lt"}, {"not_equal", "ne"}, {"divide", "div"}, {"multiply", "mul"},
             {"true_divide", "div"}, {"swapdims", "transpose"}, {"swapaxes", "transpose"}}) {
      m[fmt::format("aten::{}", alias)] = fmt::format("aten::{}", canonical);
      m[fmt::format("aten::{}_", alias)] = fmt::format("aten::{}_", canonical);
    }
    for (auto [alias, canonical] : std::initializer_list<std::pair<const char*, const char*>>{
             {"det", "linalg_det"}, {"matrix_power", "linalg_matrix_power"}, {"matrix_exp", "linalg_matrix_exp"},
             {"ger", "outer"}, {"linalg_matmul", "matmul"}, {"inverse", "linalg_inv"}, {"concat", "cat"},
             {"row_stack", "vstack"}, {"moveaxis", "movedim"}, {"special_erf", "erf"}, {"special_erfc", "erfc"},
             {"special_erfinv", "erfinv"}, {"special_expit", "sigmoid"}, {"special_exp2", "exp2"},
             {"special_expm1", "expm1"}, {"special_logit", "logit"}, {"special_logsumexp", "logsumexp"},
             {"special_round", "round"}, {"special_log1p", "log1p"}, {"special_sinc", "sinc"},
             {"special_digamma", "digamma"}, {"special_psi", "digamma"}, {"special_i0", "i0"},
             {"special_xlogy", "xlogy"}, {"special_log_softmax", "log_softmax"},
             {"orgqr", "linalg_householder_product"}, {"adjoint", "mH"}, {"special_multigammaln", "mvlgamma"},
             {"special_polygamma", "polygamma"}, {"special_softmax", "softmax"}, {"special_gammainc", "igamma"},
             {"special_gammaincc", "igammac"}, {"special_gammaln", "lgamma"}})
      m[fmt::format("aten::{}", alias)] = fmt::format("aten::{}", canonical);
    return m;
  }();
  const auto it = kAliases.find(name.qual_string());
  return it == kAliases.end() ? name : Symbol::from_qual_string(it->second);
}

bool normalize_ops(Graph& graph) {
  std::vector<Node*> aliases;
  auto collect = [&](auto& self, Block* block) -> void {
    for (Node* n : block->nodes()) {
      for (Block* sub : n->blocks()) self(self, sub);
      if (canonical_operator(n->kind()) != n->kind()) aliases.push_back(n);
    }
  };
  collect(collect, graph.block());
  for (Node* n : aliases) {
    Node* replacement = graph.create(canonical_operator(n->kind()), n->inputs(), n->outputs().size());
    replacement->set_source_range(n->source_range());
    replacement->insert_before(n);
    for (size_t i = 0; i < n->outputs().size(); ++i) {
      Value* old = n->output(i);
      Value* now = replacement->output(i);
      now->set_type(old->type());
      // The name moves rather than copies, so the output prints as the alias's did.
      const std::string name = old->has_debug_name() ? old->debug_name() : "";
      old->set_debug_name("");
      if (!name.empty()) now->set_debug_name(name);
      old->replace_all_uses_with(now);
    }
    n->destroy();
  }
  return !aliases.empty();
}

}  // namespace torchlet::jit

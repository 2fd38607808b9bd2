// Side effects and nondeterminism of nodes (node_effects.h).
#include "jit/passes/node_effects.h"

#include <string_view>
#include <unordered_set>

#include "jit/runtime/operator.h"
#include "jit/runtime/schema_matching.h"

namespace torchlet::jit {

namespace {

bool is_named(const Node& node, std::initializer_list<std::string_view> names) {
  const std::string& kind = node.kind().qual_string();
  for (std::string_view n : names)
    if (kind == n) return true;
  return false;
}

// Whether a value of this type can hold an object of a TorchScript class.
bool may_hold_object(const TypePtr& t) {
  if (t->as_class() || t->kind() == TypeKind::Any) return true;
  for (const TypePtr& c : t->contained())
    if (may_hold_object(c)) return true;
  return false;
}

}  // namespace

bool has_side_effects(const Node& node) {
  // Ordering objects calls their class's __lt__ (list.sort, sorted, min, max, list
  // comparisons): user code, which may write attributes or raise, so it runs even when
  // its result is unused (torch would drop `l.sort()` of a list read no more).
  if (is_named(node, {"aten::sort", "aten::sorted", "aten::max", "aten::min", "aten::lt", "aten::gt", "aten::le",
                      "aten::ge"})) {
    for (const Value* in : node.inputs())
      if (in->type()->kind() != TypeKind::Tensor && may_hold_object(in->type())) return true;
  }
  if (is_named(node, {"prim::PythonOp", "prim::IgnoredPythonOp", "prim::Print", "prim::RaiseException",
                      "prim::SetAttr", "aten::warn", "aten::save", "aten::manual_seed", "prim::AddStatValue",
                      "prim::TimePoint", "prim::CallFunction", "prim::CallMethod", "prim::rpc_async",
                      "prim::rpc_sync", "prim::rpc_remote", "aten::wait", "prim::Enter", "prim::Exit"}))
    return true;
  // Operators that read or set the runtime's global state: torch registers them with
  // conservative alias analysis, which counts as a side effect, so is_grad_enabled()
  // inside `with torch.no_grad()` is never merged with the one after it.
  if (is_named(node, {"aten::is_grad_enabled", "aten::set_grad_enabled", "aten::is_autocast_enabled"})) return true;
  // prim:: nodes the IR itself defines (constants, control flow, tuples, lists, casts)
  // have no operator and no effect; an aten:: (or other) node nothing resolves is a
  // call torchlet cannot see into, so it may do anything.
  if (node.kind().ns() == "prim") return false;
  return node.op() == nullptr && resolve_node_operator(node) == nullptr;
}

bool is_nondeterministic(const Node& node) {
  static const std::unordered_set<std::string_view> random_ops = {
      "aten::dropout",  "aten::_fused_dropout", "aten::_standard_gamma", "aten::bernoulli",
      "aten::multinomial", "aten::native_dropout", "aten::normal", "aten::poisson",
      "aten::binomial", "aten::rrelu", "aten::rrelu_with_noise", "aten::rand",
      "aten::rand_like", "aten::randint", "aten::randint_like", "aten::randn",
      "aten::randn_like", "aten::randperm"};
  if (!random_ops.count(node.kind().qual_string())) return false;
  // Dropout in eval mode is the identity (torch's one exception).
  if (node.kind().qual_string() == "aten::dropout" && node.inputs().size() == 3) {
    auto train = to_ivalue(node.input(2));
    if (train && train->isBool() && !train->toBool()) return false;
  }
  return true;
}

}  // namespace torchlet::jit

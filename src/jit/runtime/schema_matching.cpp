// Overload resolution by argument types (see schema_matching.h).
#include "jit/runtime/schema_matching.h"

#include <algorithm>

#include <fmt/format.h>

namespace torchlet::jit {

bool match_type(const TypePtr& formal, const TypePtr& actual, TypeEnv& env) {
  switch (formal->kind()) {
    case TypeKind::Var: {
      auto it = env.find(formal->name());
      if (it == env.end()) {
        env.emplace(formal->name(), actual);
        return true;
      }
      if (actual->is_subtype_of(*it->second)) return true;
      if (it->second->is_subtype_of(*actual)) {  // widen the binding, e.g. None then Optional
        it->second = actual;
        return true;
      }
      return false;
    }
    case TypeKind::Any:
      return true;
    case TypeKind::Tensor:  // a traced graph's Float(2, 3, ...) accepts any tensor, as torch does at run time
      return actual->kind() == TypeKind::Tensor;
    case TypeKind::List:
    case TypeKind::Future:
    case TypeKind::RRef:
      if (actual->kind() == formal->kind())
        return match_type(formal->contained()[0], actual->contained()[0], env);
      break;
    case TypeKind::Optional:
      if (actual->kind() == TypeKind::None) return true;
      if (actual->kind() == TypeKind::Optional)
        return match_type(formal->contained()[0], actual->contained()[0], env);
      return match_type(formal->contained()[0], actual, env);
    case TypeKind::Dict:
      if (actual->kind() == TypeKind::Dict)
        return match_type(formal->contained()[0], actual->contained()[0], env) &&
               match_type(formal->contained()[1], actual->contained()[1], env);
      break;
    case TypeKind::Tuple:
      if (actual->kind() == TypeKind::Tuple && actual->contained().size() == formal->contained().size()) {
        for (size_t i = 0; i < formal->contained().size(); ++i)
          if (!match_type(formal->contained()[i], actual->contained()[i], env)) return false;
        return true;
      }
      break;
    default:
      break;
  }
  return actual->is_subtype_of(*formal);
}

bool has_type_variables(const TypePtr& t) {
  if (t->kind() == TypeKind::Var) return true;
  const auto& c = t->contained();
  return std::any_of(c.begin(), c.end(), [](const TypePtr& e) { return has_type_variables(e); });
}

TypePtr substitute_type_variables(const TypePtr& formal, const TypeEnv& env) {
  switch (formal->kind()) {
    case TypeKind::Var: {
      auto it = env.find(formal->name());
      return it == env.end() ? formal : it->second;
    }
    case TypeKind::List:
      return Type::list(substitute_type_variables(formal->contained()[0], env));
    case TypeKind::Optional:
      return Type::optional(substitute_type_variables(formal->contained()[0], env));
    case TypeKind::Future:
      return Type::future(substitute_type_variables(formal->contained()[0], env));
    case TypeKind::Dict:
      return Type::dict(substitute_type_variables(formal->contained()[0], env),
                        substitute_type_variables(formal->contained()[1], env));
    case TypeKind::Tuple: {
      if (formal->is_named_tuple()) return formal;
      std::vector<TypePtr> elems;
      for (const auto& e : formal->contained()) elems.push_back(substitute_type_variables(e, env));
      return Type::tuple(std::move(elems));
    }
    default:
      return formal;
  }
}

namespace {

bool node_matches(const Node& node, const Operator& op);

// How well an overload fits: -1 when it does not accept the inputs, else the number of
// arguments whose type is exactly the input's (so aten::add.int beats
// aten::add(Scalar, Scalar) for two ints, as the node was typed for).
int node_match_score(const Node& node, const Operator& op) {
  if (!node_matches(node, op)) return -1;
  int exact = 0;
  const auto& types = op.argument_types();
  for (size_t i = 0; i < types.size(); ++i)
    if (types[i]->kind() == TypeKind::Var || *types[i] == *node.input(i)->type()) ++exact;
  return exact;
}

bool node_matches(const Node& node, const Operator& op) {
  const auto& types = op.argument_types();
  const size_t n = node.inputs().size();
  if (op.schema().is_vararg) {
    if (n < types.size()) return false;
  } else if (n != types.size()) {
    return false;
  }
  TypeEnv env;
  for (size_t i = 0; i < types.size(); ++i)
    if (!match_type(types[i], node.input(i)->type(), env)) return false;
  if (!op.schema().is_varret && node.outputs().size() != op.return_types().size()) return false;
  return true;
}

}  // namespace

const Operator* resolve_node_operator(const Node& node) {
  if (node.op()) return node.op();
  const Operator* best = nullptr;
  int best_score = -1;
  for (const Operator* op : OperatorRegistry::global().overloads(node.kind())) {
    const int score = node_match_score(node, *op);
    if (score > best_score) {
      best = op;
      best_score = score;
    }
  }
  return best;
}

std::string describe_no_match(const Node& node) {
  std::string args;
  for (const Value* v : node.inputs()) args += (args.empty() ? "" : ", ") + v->type()->str();
  const auto& overloads = OperatorRegistry::global().overloads(node.kind());
  if (overloads.empty())
    return fmt::format("unknown builtin op: {} (no operator of that name is registered)",
                       node.kind().qual_string());
  std::string candidates;
  for (const Operator* op : overloads) candidates += "\n  " + op->schema().str();
  return fmt::format("{}({}): no overload of {} accepts these argument types; candidates:{}",
                     node.kind().qual_string(), args, node.kind().qual_string(), candidates);
}

}  // namespace torchlet::jit

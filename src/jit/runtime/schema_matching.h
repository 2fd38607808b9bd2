// Overload resolution: which registered operator a call with given argument types
// means. Type variables in schemas (t, tVal) are bound as arguments are matched
// (List[t] against List[int] binds t = int) and substituted into the return types.
// The emitter resolves graph nodes with it (inputs already have the schema's types);
// the frontend uses the same rules before inserting a node.
#pragma once

#include <string>
#include <unordered_map>
#include <vector>

#include "jit/ir/ir.h"
#include "values/type.h"
#include "jit/runtime/operator.h"

namespace torchlet::jit {

using TypeEnv = std::unordered_map<std::string, TypePtr>;

// Can a value of type `actual` be passed where `formal` is expected, binding formal's
// type variables in env? (Subtyping, with Any and type variables.)
bool match_type(const TypePtr& formal, const TypePtr& actual, TypeEnv& env);
// formal with its bound type variables replaced (unbound ones stay variables).
TypePtr substitute_type_variables(const TypePtr& formal, const TypeEnv& env);
// Does t mention a type variable anywhere (t[], Dict[str, t]?, ...)?
bool has_type_variables(const TypePtr& t);

// The operator a graph node calls: node->op() when set, else the first overload of its
// kind whose arguments accept the inputs' types (all arguments given positionally, as
// graphs give them). Null when none matches.
const Operator* resolve_node_operator(const Node& node);

// A one-line description of why no overload matched, for CompileErrors:
// "aten::add(int, str): no overload matches; candidates: aten::add.Tensor(...), ...".
std::string describe_no_match(const Node& node);

}  // namespace torchlet::jit

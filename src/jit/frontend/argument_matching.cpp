// Binding a call's arguments to a schema's parameters: positional, keyword and default
// arguments, and the implicit conversions TorchScript allows (int to float, a list to a
// tuple, a scalar to a BroadcastingList, ...).
#include "jit/frontend/function_compiler.h"

namespace torchlet::jit {

Value* FunctionCompiler::convert(Value* v, const TypePtr& formal, const SchemaArgument* arg, TypeEnv& env) {
  TypeEnv trial = env;
  if (match_type(formal, v->type(), trial)) {
    env = trial;
    return v;
  }
  const TypeKind fk = formal->kind();
  const TypeKind vk = v->type()->kind();
  // int[2] (or int[1]?) given one int: torch repeats it.
  // A function's BroadcastingList2[float] (or [Optional[int]]) given one element likewise.
  if ((vk == TypeKind::Int || vk == TypeKind::Float) && arg) {
    const SchemaType* st = arg->type.get();
    if (st->kind == SchemaType::Kind::Optional && !st->contained.empty()) st = st->contained[0].get();
    const TypePtr& list = fk == TypeKind::Optional ? formal->contained()[0] : formal;
    TypeEnv elem_env;
    if (st->kind == SchemaType::Kind::List && st->fixed_size && list->kind() == TypeKind::List &&
        match_type(list->contained()[0], v->type(), elem_env)) {
      std::vector<Value*> items(static_cast<size_t>(*st->fixed_size), v);
      return graph_->insert_node(graph_->create_list(list->contained()[0], items))->output();
    }
  }
  // A tuple where a list (or an optional one) is expected: (1, 2) for int[], x.sum((0,))
  // for int[1]? dim, len(t) or torch.cat(t) for a tuple value. torch's rule: against an
  // element type with a type variable the tuple's element types must unify, so
  // len((1, 2.0)) skips len.t and takes len.any; otherwise each must be a subtype.
  const TypePtr& list_formal = fk == TypeKind::Optional ? formal->contained()[0] : formal;
  if (list_formal->kind() == TypeKind::List && vk == TypeKind::Tuple) {
    const TypePtr& elem = list_formal->contained()[0];
    const std::vector<TypePtr>& elem_types = v->type()->contained();
    TypeEnv trial_env = env;
    TypePtr concrete = elem;
    if (has_type_variables(elem)) {
      if (elem_types.empty()) {
        concrete = Type::int_();  // (): torch's empty literal is an int list
      } else {
        auto unified = unify_type_list(elem_types);
        concrete = unified && match_type(elem, *unified, trial_env) ? substitute_type_variables(elem, trial_env) : nullptr;
        if (concrete && has_type_variables(concrete)) concrete = *unified;
      }
    }
    const bool fits = concrete && std::all_of(elem_types.begin(), elem_types.end(),
                                              [&](const TypePtr& t) { return t->is_subtype_of(*concrete); });
    if (fits) {
      std::vector<Value*> items = v->node()->kind() == sym::prim_TupleConstruct
                                      ? v->node()->inputs()
                                      : graph_->insert_node(graph_->create_tuple_unpack(v))->outputs();
      return graph_->insert_node(graph_->create_list(concrete, items))->output();
    }
  }
  // A tuple for a Union with a list member: F.interpolate(x, size=(6, 6)), whose size is
  // Union[int, List[int], None] here (torch declares overloads).
  if (fk == TypeKind::Union && vk == TypeKind::Tuple) {
    for (const TypePtr& member : formal->contained()) {
      if (member->kind() != TypeKind::List) continue;
      Value* converted = convert(v, member, arg, env);
      if (converted != v) return converted;
    }
  }
  // Number <-> bool and int -> float where the language converts implicitly.
  if (fk == TypeKind::Float && vk == TypeKind::Int) {
    if (auto c = to_ivalue(v)) return constant(IValue(static_cast<double>(c->toInt())));
  }
  // A Scalar (Tensor.item()) where a float or int is expected: aten::Float / aten::Int.
  if (vk == TypeKind::Number && (fk == TypeKind::Float || fk == TypeKind::Int))
    return emit_builtin(Symbol::from_qual_string(fk == TypeKind::Float ? "aten::Float" : "aten::Int"), {{v, {}}}, {}, {});
  // Truth values are conditions' conversions (arg == nullptr), never an argument's.
  if (arg) return v;
  if (fk == TypeKind::Bool && vk == TypeKind::Tensor) return emit_builtin(Symbol::from_qual_string("aten::Bool"), {{v, {}}}, {}, {});
  if (fk == TypeKind::Bool && (vk == TypeKind::Int || vk == TypeKind::Float)) return emit_builtin(Symbol::from_qual_string("aten::Bool"), {{v, {}}}, {}, {});
  if (fk == TypeKind::Bool && (vk == TypeKind::List || vk == TypeKind::Str || vk == TypeKind::Dict)) {
    Value* n = emit_builtin(Symbol::from_qual_string("aten::len"), {{v, {}}}, {}, {});
    return emit_builtin(Symbol::from_qual_string("aten::gt"), {{n, {}}, {constant(IValue(0)), {}}}, {}, {});
  }
  if (fk == TypeKind::Bool && vk == TypeKind::Optional) return emit_builtin(Symbol::from_qual_string("aten::__isnot__"), {{v, {}}, {none(), {}}}, {}, {});
  if (fk == TypeKind::Device && vk == TypeKind::Str) return emit_builtin(Symbol::from_qual_string("aten::device"), {{v, {}}}, {}, {});
  return v;  // the caller reports the mismatch
}

std::optional<std::vector<Value*>> FunctionCompiler::match_arguments(const FunctionSchema& schema, const std::vector<TypePtr>& types,
                                                                     const std::vector<std::optional<IValue>>& defaults,
                                                                     const std::vector<CallArg>& args,
                                                                     const std::vector<CallKwarg>& kwargs, TypeEnv& env,
                                                                     std::string& why) {
  const auto& formals = schema.arguments;
  size_t positional = 0;
  for (const auto& f : formals) positional += f.kwarg_only ? 0 : 1;
  // x.view(2, -1): ints past the last positional int[] formal are that list, as torch allows.
  std::vector<CallArg> packed;
  // Likewise torch.einsum("ij,jk", a, b) for a Tensor[] formal: the last positional list
  // formal (not a type variable's, not a fixed-size int[2]) takes the trailing arguments
  // that each fit its element type (torch's varargsCanBeUsedAsList).
  if (args.size() >= positional && positional > 0 && types[positional - 1]->kind() == TypeKind::List) {
    const TypePtr& elem = types[positional - 1]->contained()[0];
    const SchemaType* st = formals[positional - 1].type.get();
    const bool fixed = st && st->kind == SchemaType::Kind::List && st->fixed_size;
    // (Not when the argument there is a list already or converts to one: a tuple.)
    const TypeKind first = args[positional - 1].value->type()->kind();
    // (A fixed-size int[2] given one int repeats it instead: adaptive_avg_pool2d(x, 1).)
    bool all_fit = elem->kind() != TypeKind::Var && !fixed && first != TypeKind::Tuple;
    for (size_t i = positional - 1; i < args.size() && all_fit; ++i) {
      TypeEnv tenv;
      all_fit = args[i].value->type()->kind() != TypeKind::List && match_type(elem, args[i].value->type(), tenv);
    }
    if (all_fit) {
      std::vector<Value*> items;
      for (size_t i = positional - 1; i < args.size(); ++i) items.push_back(args[i].value);
      packed.assign(args.begin(), args.begin() + static_cast<std::ptrdiff_t>(positional - 1));
      packed.push_back({graph_->insert_node(graph_->create_list(elem, items))->output(), args.back().range});
    }
  }
  const std::vector<CallArg>& given = packed.empty() ? args : packed;
  return match_given(schema, types, defaults, given, kwargs, env, why);
}

std::optional<std::vector<Value*>> FunctionCompiler::match_given(const FunctionSchema& schema, const std::vector<TypePtr>& types,
                                                                 const std::vector<std::optional<IValue>>& defaults,
                                                                 const std::vector<CallArg>& args,
                                                                 const std::vector<CallKwarg>& kwargs, TypeEnv& env,
                                                                 std::string& why) {
  const auto& formals = schema.arguments;
  size_t positional = 0;
  for (const auto& f : formals) positional += f.kwarg_only ? 0 : 1;
  if (args.size() > positional && !schema.is_vararg) {
    why = fmt::format("Expected at most {} arguments but found {} positional arguments.", positional, args.size());
    return std::nullopt;
  }
  std::vector<Value*> out;
  std::vector<bool> used(kwargs.size(), false);
  // Conversions insert nodes; a failed overload must not leave them behind.
  std::vector<Node*> inserted;
  auto undo = [&] {
    for (auto it = inserted.rbegin(); it != inserted.rend(); ++it) if (!(*it)->has_uses()) (*it)->destroy();
  };
  for (size_t i = 0; i < formals.size(); ++i) {
    Value* v = nullptr;
    if (i < args.size() && !formals[i].kwarg_only) {
      v = args[i].value;
    } else {
      for (size_t k = 0; k < kwargs.size(); ++k)
        if (kwargs[k].name == formals[i].name) {
          v = kwargs[k].value;
          used[k] = true;
        }
    }
    if (!v) {
      if (i >= defaults.size() || !defaults[i]) {
        why = fmt::format("Argument {} not provided.", formals[i].name);
        undo();
        return std::nullopt;
      }
      v = constant(*defaults[i]);
      v->set_type(defaults[i]->isNone() ? Type::none() : v->type());
      inserted.push_back(v->node());
    }
    Node* before = graph_->insert_point()->prev();
    Value* conv = convert(v, types[i], &formals[i], env);
    for (Node* n = before->next(); n != graph_->insert_point(); n = n->next()) inserted.push_back(n);
    TypeEnv check = env;
    if (!match_type(types[i], conv->type(), check)) {
      why = fmt::format("Expected a value of type '{}' for argument '{}' but instead found type '{}'.",
                        types[i]->annotation_str(), formals[i].name, v->type()->annotation_str());
      undo();
      return std::nullopt;
    }
    env = check;
    out.push_back(conv);
  }
  if (schema.is_vararg)
    for (size_t i = formals.size(); i < args.size(); ++i) out.push_back(args[i].value);
  for (size_t k = 0; k < kwargs.size(); ++k)
    if (!used[k]) {
      why = fmt::format("Keyword argument {} unknown.", kwargs[k].name);
      undo();
      return std::nullopt;
    }
  return out;
}

}  // namespace torchlet::jit

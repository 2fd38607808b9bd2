// What calls become once their callee is known (Note [SugaredValue] decides which): a
// method call on an object (prim::CallMethod, magic methods, a submodule's forward), a
// function call (prim::CallFunction), torch.nn.functional's functions, builtin operator
// calls with their overload resolution and the archive-version upgraders; the call's
// arguments, NamedTuple construction and function values.
#include "jit/frontend/function_compiler.h"

namespace torchlet::jit {

// Keyword names an alias's schema spells differently from its canonical operator's
// (found by comparing torch's schemas argument by argument). A call's keywords are the
// alias's: renamed here before the canonical schema is matched, and the canonical
// spelling refused, as torch matches the alias's own schema.
void rename_alias_keywords(Symbol alias, std::vector<CallKwarg>& kwargs) {
  using Renames = std::vector<std::pair<std::string_view, std::string_view>>;
  static const std::unordered_map<std::string, Renames> kRenamed = {
      {"aten::swapaxes", {{"axis0", "dim0"}, {"axis1", "dim1"}}},
      {"aten::swapaxes_", {{"axis0", "dim0"}, {"axis1", "dim1"}}},
      {"aten::det", {{"self", "A"}}},
      {"aten::inverse", {{"self", "A"}}},
      {"aten::orgqr", {{"self", "input"}, {"input2", "tau"}}}};
  const auto it = kRenamed.find(alias.qual_string());
  if (it == kRenamed.end()) return;
  for (CallKwarg& k : kwargs) {
    const Renames& renames = it->second;
    const auto own = std::find_if(renames.begin(), renames.end(), [&](const auto& r) { return r.first == k.name; });
    if (own != renames.end()) {
      k.name = own->second;
      continue;
    }
    const bool canonical_only = std::any_of(renames.begin(), renames.end(), [&](const auto& r) { return r.second == k.name; });
    if (canonical_only)
      throw_compile_error(k.range, fmt::format("{}: Keyword argument {} unknown.", alias.qual_string(), k.name));
  }
}

Value* FunctionCompiler::construct_named_tuple(const TypePtr& t, const std::vector<CallArg>& args,
                                               const std::vector<CallKwarg>& kwargs, const SourceRange& range) {
  const auto& fields = t->field_names();
  std::vector<Value*> values(fields.size(), nullptr);
  if (args.size() > fields.size()) fail(range, fmt::format("{}() takes {} fields but {} were given", t->name(), fields.size(), args.size()));
  for (size_t i = 0; i < args.size(); ++i) values[i] = args[i].value;
  for (const auto& kw : kwargs) {
    auto it = std::find(fields.begin(), fields.end(), kw.name);
    if (it == fields.end()) fail(kw.range, fmt::format("{}() has no field '{}'", t->name(), kw.name));
    values[static_cast<size_t>(it - fields.begin())] = kw.value;
  }
  for (size_t i = 0; i < fields.size(); ++i) {
    if (!values[i])
      if (auto d = file_.named_tuple_default(t->name(), i)) values[i] = constant(*d, range);
    if (!values[i]) fail(range, fmt::format("{}() is missing field '{}'", t->name(), fields[i]));
    TypeEnv tenv;
    values[i] = convert(values[i], t->contained()[i], nullptr, tenv);
    if (!match_type(t->contained()[i], values[i]->type(), tenv))
      fail(range, fmt::format("{}() field '{}' expects {} but got {}", t->name(), fields[i], t->contained()[i]->annotation_str(),
                              values[i]->type()->annotation_str()));
  }
  return graph_->insert_node(graph_->create_tuple(values, t))->set_source_range(range)->output();
}

Value* FunctionCompiler::function_value(Function* fn, const SourceRange& range) {
  Node* k = graph_->create(sym::prim_Constant);
  // torch names the constant by the function's own name (torch.nn.functional.relu is
  // name="relu"); the type keeps the qualified name, which finds it again.
  k->set_s(sym::attr_name, fn->name());
  k->set_source_range(range);
  graph_->insert_node(k);
  k->output()->set_type(std::make_shared<FunctionType>(fn->qualname(), fn));
  return k->output();
}

void FunctionCompiler::emit_call_args(CallSite& call) {
  const CallView c(call.tree);
  for (const auto& a : c.args()) {
    if (a->kind() == TreeKind::Starred) fail(a->range(), "starred arguments are not supported");
    call.args.push_back({emit_expr(*a, call.env), a->range()});
  }
  for (const auto& k : c.keywords()) {
    KeywordView kw(*k);
    call.kwargs.push_back({kw.name(), emit_expr(kw.value(), call.env), k->range()});
  }
}

// x.tolist() where an annotation says the result's type: prim::tolist(x, depth, kind);
// x.long(), x.float(), ...: aten::to(x, dtype, False, False, None), as torch compiles
// them. Null for any other method name.
Value* FunctionCompiler::emit_tensor_conversion(Value* self, const std::string& method, const TypePtr& hint,
                                                const SourceRange& r) {
  if (method == "tolist") {
    int64_t depth = 0;
    TypePtr t = hint;
    for (; t && t->kind() == TypeKind::List; t = t->contained()[0]) ++depth;
    if (depth == 0 || !t || (t->kind() != TypeKind::Int && t->kind() != TypeKind::Float && t->kind() != TypeKind::Bool))
      fail(r, "Expected type hint for result of tolist()");
    const int64_t kind = t->kind() == TypeKind::Int ? 0 : t->kind() == TypeKind::Float ? 1 : 2;
    Node* n = graph_->insert_node(graph_->create(Symbol::from_qual_string("prim::tolist"),
                                                 {self, constant(IValue(depth)), constant(IValue(kind))}));
    n->set_op(OperatorRegistry::global().overloads(Symbol::from_qual_string("prim::tolist")).at(0));
    n->set_source_range(r);
    n->output()->set_type(hint);
    return n->output();
  }
  static const std::unordered_map<std::string, DType> kCasts = {
      {"long", DType::Long}, {"int", DType::Int},   {"float", DType::Float}, {"double", DType::Double}, {"half", DType::Half},
      {"bool", DType::Bool}, {"byte", DType::Byte}, {"char", DType::Char},   {"short", DType::Short},   {"bfloat16", DType::BFloat16}};
  const auto cast = kCasts.find(method);
  if (cast == kCasts.end()) return nullptr;
  return emit_builtin(Symbol::from_qual_string("aten::to"),
                      {{self, r}, {constant(IValue(static_cast<int64_t>(cast->second))), r}, {constant(IValue(false)), r},
                       {constant(IValue(false)), r}, {none(), r}},
                      {}, r);
}

Value* FunctionCompiler::emit_method_call(Value* self, const ClassType& cls, const std::string& name, std::vector<CallArg> args,
                                          std::vector<CallKwarg> kwargs, const SourceRange& range) {
  Function* m = cls.find_method(name);
  if (!m) m = file_.method(cls, name, range);
  if (!m) {
    if (Function* fn = file_.static_method(cls.name(), name, range)) return emit_user_call(*fn, std::move(args), std::move(kwargs), range);
    // self.sub(x) on a submodule calls its forward, as nn.Module's __call__ does.
    if (auto slot = cls.find_attribute(name)) {
      const TypePtr& t = cls.attributes()[*slot].type;
      if (const ClassType* sub = t->as_class(); sub && sub->is_module()) {
        Value* child = graph_->insert_node(graph_->create_get_attr(self, name))->set_source_range(range)->output();
        return emit_method_call(child, *sub, "forward", std::move(args), std::move(kwargs), range);
      }
    }
    fail(range, fmt::format("object of type {} has no method '{}'", cls.name(), name));
  }
  std::vector<CallArg> margs{{self, range}};
  margs.insert(margs.end(), args.begin(), args.end());
  TypeEnv tenv;
  std::string why;
  auto bound = match_arguments(m->schema(), param_types(*m), m->defaults(), margs, kwargs, tenv, why);
  if (!bound) fail(range, fmt::format("{}:\n{}\n", m->schema().str(), why));
  Node* n = graph_->insert_node(graph_->create(sym::prim_CallMethod, *bound));
  n->set_s(sym::attr_name, name);
  n->set_source_range(range);
  n->output()->set_type(m->return_type());
  return n->output();
}

std::optional<Value*> FunctionCompiler::upgrade_call(Symbol name, std::vector<CallArg>& args, std::vector<CallKwarg>& kwargs,
                                                    const SourceRange& range) {
  const int64_t version = file_.archive_version();
  if (version <= 0 || upgrading_) return std::nullopt;
  const std::string& q = name.qual_string();
  auto has_kw = [&](const char* k) {
    return std::any_of(kwargs.begin(), kwargs.end(), [&](const CallKwarg& kw) { return kw.name == k; });
  };
  // An `out=` tensor passes through, and rounding_mode=None is no rounding mode, as in
  // torch's div_out_0_3 and div_Tensor_mode_0_3.
  auto div_kwargs_upgrade = [&] {
    return std::all_of(kwargs.begin(), kwargs.end(), [](const CallKwarg& kw) {
      return kw.name == "out" || (kw.name == "rounding_mode" && kw.value->type()->kind() == TypeKind::None);
    });
  };
  if ((q == "aten::div" || q == "aten::div_") && version <= 3 && args.size() == 2 && div_kwargs_upgrade() &&
      args[0].value->type()->kind() == TypeKind::Tensor) {
    // Before version 4, dividing integers truncated: div_Tensor_0_3 / div_Scalar_0_3 /
    // div_out_0_3.
    std::vector<CallKwarg> out_kw;
    for (const CallKwarg& kw : kwargs)
      if (kw.name == "out") out_kw.push_back(kw);
    upgrading_ = true;
    auto is_float = [&](Value* v) -> Value* {
      switch (v->type()->kind()) {
        case TypeKind::Tensor: return emit_builtin(Symbol::from_qual_string("aten::is_floating_point"), {{v, range}}, {}, range);
        case TypeKind::Float: return constant(IValue(true));
        default: return constant(IValue(false));
      }
    };
    Value* cond = emit_builtin(Symbol::from_qual_string("aten::__or__"), {{is_float(args[0].value), range}, {is_float(args[1].value), range}},
                               {}, range);
    emit_branches(cond, [&](Env& b) { b.set("$upgraded", emit_builtin(name, args, out_kw, range)); return Exit::None; },
                  [&](Env& b) {
                    std::vector<CallKwarg> trunc = out_kw;
                    trunc.push_back({"rounding_mode", constant(IValue("trunc")), range});
                    b.set("$upgraded", emit_builtin(name, args, trunc, range));
                    return Exit::None;
                  },
                  upgrade_env_, false, range);
    upgrading_ = false;
    Value* out = upgrade_env_.lookup("$upgraded");
    upgrade_env_.values.clear();
    upgrade_env_.order.clear();
    return out;
  }
  if (q == "aten::full" && version <= 4 && args.size() == 2 && !has_kw("dtype") && !has_kw("out")) {
    // Before version 5, full() without a dtype gave a float tensor whatever the fill: full_0_4.
    if (args[1].value->type()->kind() != TypeKind::Float)
      args[1].value = emit_builtin(Symbol::from_qual_string("aten::Float"), {{args[1].value, range}}, {}, range);
    return std::nullopt;
  }
  if (((q == "aten::linspace" && version <= 7) || (q == "aten::logspace" && version <= 8)) && args.size() == 2 &&
      !has_kw("steps")) {
    kwargs.push_back({"steps", constant(IValue(100)), range});  // linspace_0_7 / logspace_0_8
    return std::nullopt;
  }
  return std::nullopt;
}

Value* FunctionCompiler::emit_builtin(Symbol name, std::vector<CallArg> args, std::vector<CallKwarg> kwargs, const SourceRange& range) {
  rename_alias_keywords(name, kwargs);
  name = canonical_operator(name);
  if (auto upgraded = upgrade_call(name, args, kwargs, range)) return *upgraded;
  // An operator applied to an object of a TorchScript class calls its magic method:
  // len(b) is b.__len__(), b[i] is b.__getitem__(i), a + b is a.__add__(b), ...
  if (!args.empty()) {
    if (const ClassType* cls = args[0].value->type()->as_class(); cls && !cls->is_module()) {
      static const std::unordered_map<std::string, const char*> kMagic = {
          {"aten::len", "__len__"},        {"aten::__getitem__", "__getitem__"}, {"aten::_set_item", "__setitem__"},
          {"aten::__contains__", "__contains__"}, {"aten::eq", "__eq__"},     {"aten::ne", "__ne__"},
          {"aten::lt", "__lt__"},          {"aten::le", "__le__"},               {"aten::gt", "__gt__"},
          {"aten::ge", "__ge__"},          {"aten::add", "__add__"},             {"aten::sub", "__sub__"},
          {"aten::mul", "__mul__"},        {"aten::div", "__truediv__"},         {"aten::floordiv", "__floordiv__"},
          {"aten::remainder", "__mod__"},  {"aten::pow", "__pow__"},             {"aten::neg", "__neg__"},
          {"aten::matmul", "__matmul__"},  {"aten::__and__", "__and__"},         {"aten::__or__", "__or__"},
          {"aten::__xor__", "__xor__"},    {"aten::str", "__str__"},             {"aten::hash", "__hash__"},
          {"aten::Int", "__int__"},        {"aten::Float", "__float__"},         {"aten::Bool", "__bool__"}};
      if (auto it = kMagic.find(name.qual_string()); it != kMagic.end()) {
        Value* self = args[0].value;
        args.erase(args.begin());
        return emit_method_call(self, *cls, it->second, std::move(args), std::move(kwargs), range);
      }
    }
  }
  const auto& overloads = OperatorRegistry::global().overloads(name);
  if (overloads.empty()) fail(range, fmt::format("unknown builtin op: {}", name.qual_string()));
  auto emit_node = [&](const Operator* op, const std::vector<Value*>& inputs, const TypeEnv& env) -> Value* {
    // `-> ...`: the call site gives the type (x.tolist() under an annotation); a direct
    // call such as ops.prim.tolist(x, 1, 1) has none to give.
    if (op->schema().is_varret && op->return_types().empty())
      fail(range, fmt::format("{} cannot be called directly: its result type comes from where it is used",
                              name.qual_string()));
    const size_t nret = op->schema().is_varret ? 1 : op->return_types().size();
    Node* n = graph_->insert_node(graph_->create(name, inputs, nret));
    n->set_source_range(range);
    n->set_op(op);
    // Each warnings.warn site warns once (Note [Warn once] in emitter.cpp); torch numbers
    // the sites for that with a process-wide counter.
    static const Symbol kWarn = Symbol::from_qual_string("aten::warn");
    static std::atomic<int64_t> next_warn_id{0};
    if (name == kWarn) n->set_i(Symbol::from_qual_string("attr::warn_id"), next_warn_id++);
    for (size_t i = 0; i < nret; ++i) n->output(i)->set_type(substitute_type_variables(op->return_types()[i], env));
    if (nret == 0) return none();
    if (nret == 1) return n->output();
    // Named returns make a NamedTuple, as in torch: torch.max(x, 1).values.
    const auto& returns = op->schema().returns;
    TypePtr tuple_type;
    if (std::all_of(returns.begin(), returns.end(), [](const SchemaArgument& r) { return !r.name.empty(); })) {
      std::vector<std::string> names;
      std::vector<TypePtr> types;
      for (size_t i = 0; i < nret; ++i) {
        names.push_back(returns[i].name);
        types.push_back(n->output(i)->type());
      }
      tuple_type = Type::named_tuple("", std::move(names), std::move(types));
    }
    return graph_->insert_node(graph_->create_tuple(n->outputs(), tuple_type))->output();
  };
  // First the overloads that take every given argument as it is, best fit first (the
  // most arguments of exactly the formal's type: add.int over add(Scalar, Scalar) for
  // two ints); then the first that fits with the language's implicit conversions.
  std::vector<std::pair<int, const Operator*>> exact;
  for (const Operator* op : overloads) {
    if (args.size() > op->argument_types().size() && !op->schema().is_vararg) continue;
    TypeEnv env;
    int score = 0;
    bool fits = true;
    for (size_t i = 0; i < args.size() && i < op->argument_types().size() && fits; ++i) {
      const TypePtr& formal = op->argument_types()[i];
      fits = match_type(formal, args[i].value->type(), env);
      if (formal->kind() == TypeKind::Var || *formal == *args[i].value->type()) ++score;
    }
    if (fits) exact.emplace_back(score, op);
  }
  std::stable_sort(exact.begin(), exact.end(), [](const auto& x, const auto& y) { return x.first > y.first; });
  for (const auto& [score, op] : exact) {
    TypeEnv env;
    std::string why;
    Node* mark = graph_->insert_point()->prev();
    if (auto inputs = match_arguments(op->schema(), op->argument_types(), op->defaults(), args, kwargs, env, why)) {
      (void)mark;
      return emit_node(op, *inputs, env);
    }
  }
  std::string report;
  for (const Operator* op : overloads) {
    TypeEnv env;
    std::string why;
    if (auto inputs = match_arguments(op->schema(), op->argument_types(), op->defaults(), args, kwargs, env, why))
      return emit_node(op, *inputs, env);
    report += fmt::format("\n  {}:\n  {}", op->schema().str(), why);
  }
  if (overloads.size() == 1) fail(range, fmt::format("{}:\n{}\n", overloads[0]->schema().str(), report.substr(report.rfind("\n  ") + 3)));
  fail(range, fmt::format("Arguments for call are not valid.\nThe following variants are available:{}", report));
}

std::vector<TypePtr> param_types(const Function& fn) {
  std::vector<TypePtr> types;
  if (const auto* gf = dynamic_cast<const GraphFunction*>(&fn)) {
    for (const Value* in : gf->graph()->inputs()) types.push_back(in->type());
  } else {
    types.assign(fn.schema().arguments.size(), Type::any());
  }
  return types;
}

// Note [torch.nn.functional]: in torch, most of torch.nn.functional is Python that
// torch.jit.script compiles on first use into a function of the unit
// (__torch__.torch.nn.functional.interpolate), called with prim::CallFunction; a few are
// builtins bound straight to an operator (F.conv2d is aten::conv2d, F.logsigmoid is
// aten::log_sigmoid). torchlet does the same: the Python-level functions are written in
// TorchScript in nn_functional.cpp and compiled into the unit under the same names, so a
// saved archive carries them as torch's does; every other name is the operator.
Value* FunctionCompiler::emit_nn_functional_call(const std::string& name, std::vector<CallArg> args,
                                                 std::vector<CallKwarg> kwargs, const SourceRange& callee,
                                                 const SourceRange& range) {
  if (auto at = nn_functional_return_indices_position(name)) {
    // torch's boolean_dispatch on return_indices, decided here: the flag must be a constant.
    Value* flag = *at < args.size() ? args[*at].value : nullptr;
    for (const auto& kw : kwargs)
      if (kw.name == "return_indices") flag = kw.value;
    bool indices = false;
    if (flag) {
      auto c = to_ivalue(flag);
      if (!c || !c->isBool()) fail(range, fmt::format("{}: return_indices must be a constant bool", name));
      indices = c->toBool();
    }
    Function* fn = file_.nn_functional(indices ? name + "_with_indices" : "_" + name, range);
    TL_INTERNAL_ASSERT(fn, fmt::format("torch.nn.functional.{} has no dispatch targets", name));
    return emit_user_call(*fn, std::move(args), std::move(kwargs), range);
  }
  if (Function* fn = file_.nn_functional(name, range)) return emit_user_call(*fn, std::move(args), std::move(kwargs), range);
  const std::optional<std::string> op = nn_functional_builtin(name);
  if (!op || OperatorRegistry::global().overloads(Symbol::make("aten", *op)).empty())
    fail(callee, fmt::format("torch.nn.functional.{} is not supported by torchlet yet", name));
  return emit_builtin(Symbol::make("aten", *op), std::move(args), std::move(kwargs), range);
}

Value* FunctionCompiler::emit_user_call(const Function& fn, std::vector<CallArg> args, std::vector<CallKwarg> kwargs,
                                        const SourceRange& range) {
  std::vector<TypePtr> types = param_types(fn);
  TypeEnv env;
  std::string why;
  auto inputs = match_arguments(fn.schema(), types, fn.defaults(), args, kwargs, env, why);
  if (!inputs) fail(range, fmt::format("{}:\n{}\n", fn.schema().str(), why));
  std::vector<Value*> call_inputs{function_value(const_cast<Function*>(&fn), range)};
  call_inputs.insert(call_inputs.end(), inputs->begin(), inputs->end());
  Node* call = graph_->insert_node(graph_->create(sym::prim_CallFunction, call_inputs));
  call->set_source_range(range);
  call->output()->set_type(fn.return_type());
  return call->output();
}

}  // namespace torchlet::jit

// The core of Note [SugaredValue]: SugaredValue's defaults, graph values (SimpleValue,
// modules, module containers), MethodValue, FunctionValue and GlobalValue; and the
// compiler's emit_sugared_expr, emit_call and resolver, which build them. How they are
// iterated is iterables.cpp's (Note [Iterables]).
#include "jit/frontend/sugared_value.h"

namespace torchlet::jit {

SugaredValuePtr SugaredValue::attr(const SourceRange& range, FunctionCompiler&, const std::string& name) {
  // What a ModuleDict's items(), keys() and values() iterate: (key, child) pairs, keys,
  // children.
  static const std::unordered_map<std::string_view, std::pair<bool, bool>> kContainerMethods = {
      {"items", {true, true}}, {"keys", {true, false}}, {"values", {false, true}}};
  if (auto m = kContainerMethods.find(name); m != kContainerMethods.end())
    return std::make_shared<ContainerMethodValue>(shared_from_this(), name, m->second.first, m->second.second, range);
  return std::make_shared<MethodValue>(shared_from_this(), name, range);
}

Value* SugaredValue::attr_value(const SourceRange& range, FunctionCompiler& fc, const std::string& name) {
  return std::make_shared<SimpleValue>(as_value(range_, fc), range_)->attr_value(range, fc, name);
}

Value* SugaredValue::call(const SourceRange& range, FunctionCompiler& fc, CallSite& call) {
  return sugared_value_of(as_value(range_, fc), range_)->call(range, fc, call);
}

Value* SugaredValue::as_value(const SourceRange& range, FunctionCompiler& fc) {
  fc.fail(range, fmt::format("{} cannot be used as a value", kind()));
}

SugaredValuePtr sugared_value_of(Value* v, const SourceRange& range, bool named) {
  const TypePtr& t = v->type();
  if (const FunctionType* ft = t->as_function(); named && ft && ft->function())
    return std::make_shared<FunctionValue>(ft->function(), std::make_shared<SimpleValue>(v, range));
  if (container_kind(t) != ContainerKind::None) return std::make_shared<ModuleContainerValue>(v, range);
  if (const ClassType* cls = t->as_class(); cls && cls->is_module()) return std::make_shared<ModuleValue>(v, range);
  return std::make_shared<SimpleValue>(v, range);
}

// --- graph values ------------------------------------------------------------------------------

Value* SimpleValue::attr_value(const SourceRange& range, FunctionCompiler& fc, const std::string& name) {
  Value* v = value_;
  Graph& g = fc.graph();
  if (const ClassType* cls = v->type()->as_class()) {
    if (const IValue* c = cls->find_constant(name)) return fc.constant(*c, range);
    if (!cls->find_attribute(name)) fc.fail(range, fmt::format("object of type {} has no attribute '{}'", cls->name(), name));
    return g.insert_node(g.create_get_attr(v, name))->set_source_range(range)->output();
  }
  if (v->type()->as_enum()) return enum_attribute(range, fc, name);
  if (v->type()->is_named_tuple()) {
    const auto& fields = v->type()->field_names();
    auto it = std::find(fields.begin(), fields.end(), name);
    if (it != fields.end()) {
      const auto i = static_cast<size_t>(it - fields.begin());
      if (v->node()->kind() == sym::prim_TupleConstruct) return v->node()->input(i);  // as torch reads it
      Node* n = g.insert_node(g.create(sym::prim_TupleIndex, {v, fc.constant(IValue(static_cast<int64_t>(i)))}));
      n->set_source_range(range);
      n->output()->set_type(v->type()->contained()[i]);
      return n->output();
    }
  }
  if (v->type()->kind() == TypeKind::Tensor) {
    // torch's tensor properties (and the operator each reads through; .grad needs autograd).
    static const std::unordered_map<std::string_view, const char*> kProperties = {
        {"shape", "aten::size"},           {"dtype", "prim::dtype"},         {"device", "prim::device"},
        {"ndim", "aten::dim"},             {"T", "aten::numpy_T"},           {"mT", "aten::mT"},
        {"H", "aten::matrix_H"},           {"mH", "aten::mH"},               {"real", "aten::real"},
        {"imag", "aten::imag"},            {"data", "prim::data"},           {"layout", "prim::layout"},
        {"name", "prim::name"},            {"requires_grad", "prim::requires_grad"},
        {"is_leaf", "aten::is_leaf"},      {"retains_grad", "aten::retains_grad"},
        {"is_cuda", "prim::is_cuda"},      {"is_cpu", "prim::is_cpu"},       {"is_xpu", "prim::is_xpu"},
        {"is_sparse", "prim::is_sparse"},  {"is_sparse_csr", "prim::is_sparse_csr"},
        {"is_mkldnn", "prim::is_mkldnn"},  {"is_mps", "prim::is_mps"},       {"is_quantized", "prim::is_quantized"},
        {"is_vulkan", "prim::is_vulkan"},  {"is_ipu", "prim::is_ipu"},       {"is_meta", "prim::is_meta"},
        {"is_nested", "prim::is_nested"},  {"is_ort", "prim::is_ort"}};
    if (auto p = kProperties.find(name); p != kProperties.end())
      return fc.emit_builtin(Symbol::from_qual_string(p->second), {{v, range}}, {}, range);
  }
  fc.fail(range, fmt::format("'{}' object has no attribute or method '{}'.", v->type()->annotation_str(), name));
}

// .name / .value of an enum member.
Value* SimpleValue::enum_attribute(const SourceRange& range, FunctionCompiler& fc, const std::string& name) {
  Graph& g = fc.graph();
  const EnumType* et = value_->type()->as_enum();
  if (name == "name") {
    Node* n = g.insert_node(g.create(sym::prim_EnumName, {value_}));
    n->set_op(OperatorRegistry::global().overloads(sym::prim_EnumName).at(0));
    n->output()->set_type(Type::str_());
    return n->output();
  }
  if (name == "value") {
    for (const Operator* op : OperatorRegistry::global().overloads(sym::prim_EnumValue)) {
      if (!(*op->return_types()[0] == *et->value_type())) continue;
      Node* n = g.insert_node(g.create(sym::prim_EnumValue, {value_}));
      n->set_op(op);
      n->output()->set_type(et->value_type());
      return n->output();
    }
  }
  fc.fail(range, fmt::format("'{}' object has no attribute '{}'", value_->type()->str(), name));
}

Value* SimpleValue::call(const SourceRange&, FunctionCompiler& fc, CallSite&) {
  fc.fail(range_, fmt::format("cannot call a value of type '{}'", value_->type()->annotation_str()));
}

Value* ModuleValue::call(const SourceRange& range, FunctionCompiler& fc, CallSite& call) {
  fc.emit_call_args(call);
  return fc.emit_method_call(value(), *value()->type()->as_class(), "forward", std::move(call.args), std::move(call.kwargs),
                             range);
}

// --- methods and functions ---------------------------------------------------------------------

// value.name(args) on an object (prim::CallMethod), on an interface, or as the aten::
// builtin with the value as self (tolist and the dtype casts compiled as torch compiles
// them).
Value* MethodValue::call(const SourceRange& range, FunctionCompiler& fc, CallSite& call) {
  return call_on(owner_->as_value(owner_->range(), fc), range, fc, call);
}

Value* MethodValue::call_on(Value* self, const SourceRange& range, FunctionCompiler& fc, CallSite& call) {
  if (const ClassType* cls = self->type()->as_class()) {
    fc.emit_call_args(call);
    return fc.emit_method_call(self, *cls, name_, std::move(call.args), std::move(call.kwargs), range);
  }
  if (const InterfaceType* it = self->type()->as_interface()) {
    const auto* m = fc.file().interface_method(it->name(), name_);
    if (!m) fc.fail(range_, fmt::format("interface {} has no method '{}'", it->name(), name_));
    fc.emit_call_args(call);
    TypeEnv tenv;
    std::string why;
    auto bound = fc.match_arguments(m->schema, m->types, std::vector<std::optional<IValue>>(m->types.size()), call.args,
                                    call.kwargs, tenv, why);
    if (!bound) fc.fail(range, fmt::format("{}() {}", name_, why));
    bound->insert(bound->begin(), self);
    Graph& g = fc.graph();
    Node* n = g.insert_node(g.create(sym::prim_CallMethod, *bound));
    n->set_s(sym::attr_name, name_);
    n->set_source_range(range);
    n->output()->set_type(m->returns);
    return n->output();
  }
  fc.emit_call_args(call);
  if (self->type()->kind() == TypeKind::Tensor && call.args.empty() && call.kwargs.empty())
    if (Value* v = fc.emit_tensor_conversion(self, name_, call.hint, range)) return v;
  if (OperatorRegistry::global().overloads(canonical_operator(Symbol::make("aten", name_))).empty())
    fc.fail(range_, fmt::format("'{}' object has no attribute or method '{}'.", self->type()->annotation_str(), name_));
  call.args.insert(call.args.begin(), CallArg{self, owner_->range()});
  return fc.emit_builtin(Symbol::make("aten", name_), std::move(call.args), std::move(call.kwargs), range);
}

Value* FunctionValue::call(const SourceRange& range, FunctionCompiler& fc, CallSite& call) {
  Function* fn = fn_ ? fn_ : fc.file().function(name_, range_);
  TL_INTERNAL_ASSERT(fn, fmt::format("{} resolved as the file's function but is not one", name_));
  fc.emit_call_args(call);
  return fc.emit_user_call(*fn, std::move(call.args), std::move(call.kwargs), range);
}

// --- global names ------------------------------------------------------------------------------

Value* GlobalValue::attr_value(const SourceRange& range, FunctionCompiler& fc, const std::string& name) {
  fc.fail(range, fmt::format("unknown name {}.{}", name_, name));
}

Value* GlobalValue::call(const SourceRange& range, FunctionCompiler& fc, CallSite& call) {
  return fc.resolve_callable(name_, range_)->call(range, fc, call);
}

Value* GlobalValue::as_value(const SourceRange& range, FunctionCompiler& fc) { return fc.emit_global_name(name_, range); }

// --- the compiler's side -----------------------------------------------------------------------

Value* FunctionCompiler::emit_call(const Tree& e, Env& env, const TypePtr& hint) {
  CallSite call{e, env, hint, {}, {}};
  return emit_sugared_expr(CallView(e).callee(), env)->call(e.range(), *this, call);
}

SugaredValuePtr FunctionCompiler::emit_sugared_expr(const Tree& e, Env& env) {
  switch (e.kind()) {
    case TreeKind::Name:
      if (Value* v = env.lookup(e.str())) return sugared_value_of(v, e.range(), true);
      return resolve_global(e.str(), e.range());
    case TreeKind::Attribute: {
      const AttributeView a(e);
      return emit_sugared_expr(a.value(), env)->attr(e.range(), *this, a.name());
    }
    default:
      return sugared_value_of(emit_expr(e, env), e.range());
  }
}

namespace {

template <typename T>
SugaredValuePtr make_global(const std::string& name, const SourceRange& range) {
  return std::make_shared<T>(name, range);
}

}  // namespace

SugaredValuePtr FunctionCompiler::resolve_global(const std::string& name, const SourceRange& range) {
  using Make = SugaredValuePtr (*)(const std::string&, const SourceRange&);
  static const std::unordered_map<std::string_view, Make> kNamespaces = {
      {"ops", &make_global<OpsValue>},
      {"CONSTANTS", &make_global<ConstantTableValue>},
      {"__torch__", &make_global<ClassNamespaceValue>},
      {"torch", &make_global<BuiltinModuleValue>},
      {"math", &make_global<BuiltinModuleValue>},
      {"F", &make_global<BuiltinModuleValue>},
      {"warnings", &make_global<BuiltinModuleValue>}};
  if (auto it = kNamespaces.find(name); it != kNamespaces.end()) return it->second(name, range);
  return resolve_callable(name, range);
}

SugaredValuePtr FunctionCompiler::resolve_callable(const std::string& name, const SourceRange& range, bool types) {
  if (TypePtr t = types ? file_.resolve_type(name) : nullptr) {
    if (t->as_enum()) return std::make_shared<EnumClassValue>(t, name, range);
    return std::make_shared<ClassValue>(t, name, range);
  }
  // `fork(fn, args)`: the spelling archives' code/ uses for torch.jit.fork (torch's
  // importer defines it; torchlet's printer writes it).
  if (name == "fork" && !file_.defines_function(name)) return std::make_shared<ForkValue>(name, range);
  if (PythonBuiltinValue::unshadowed(name)) return std::make_shared<PythonBuiltinValue>(name, range);
  if (file_.defines_function(name))
    return std::make_shared<FunctionValue>(name, std::make_shared<GlobalValue>(name, range));
  return std::make_shared<PythonBuiltinValue>(name, range);
}

}  // namespace torchlet::jit

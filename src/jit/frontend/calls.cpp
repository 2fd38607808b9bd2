// Calls (FunctionCompiler::emit_call): which callee a call names — a local function, a
// module, a class, a qualified function, a Python builtin, torch.jit.fork, a builtin
// module's function or a method — and the nodes each becomes; builtin operator calls
// with their overload resolution and the archive-version upgraders.
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

// Which callee a call names decides what it becomes, tried in torch's order: a value the
// environment binds (a function, a module), a qualified name (operators, classes,
// NamedTuples, archive functions), a Python builtin, torch.jit's fork and wait, a
// function of a builtin module (torch, math, torch.nn.functional, ...), a method of a
// value, and last a value that is itself a module.
Value* FunctionCompiler::emit_call(const Tree& e, Env& env, const TypePtr& hint) {
  CallSite call{e, env, hint, {}, {}};
  const Tree& callee = CallView(e).callee();
  if (callee.kind() == TreeKind::Name)
    if (auto v = emit_local_callee_call(call)) return *v;
  if (const std::string dotted = dotted_name(callee); !dotted.empty() && !env.lookup(dotted.substr(0, dotted.find('.'))))
    if (auto v = emit_qualified_call(call, dotted)) return *v;
  // `fork(fn, args)`: the spelling archives' code/ uses for torch.jit.fork (torch's
  // importer defines it; torchlet's printer writes it).
  const bool archive_fork = callee.kind() == TreeKind::Name && callee.str() == "fork" && !env.lookup("fork") &&
                            !file_.function("fork", callee.range());
  if (callee.kind() == TreeKind::Attribute && !env.lookup("torch")) {
    // torch.jit.annotate is annotate; torch.jit.isinstance is isinstance with a container
    // type; torch.jit.is_scripting() is True here, a constant, so `if
    // torch.jit.is_scripting():` compiles one branch (as in torch).
    const std::string full = dotted_name(callee);
    if (full == "torch.jit.annotate") return emit_python_builtin_call(call, "annotate");
    if (full == "torch.jit.isinstance") return emit_isinstance(e, env);
    if (full == "torch.jit.is_scripting") {
      if (!CallView(e).args().empty() || !CallView(e).keywords().empty())
        fail(e.range(), "torch.jit.is_scripting() takes no arguments");
      return constant(IValue(true), e.range());
    }
  }
  if (callee.kind() == TreeKind::Name && !env.lookup(callee.str()) && !archive_fork)
    return emit_python_builtin_call(call, callee.str());
  if (const std::string full = dotted_name(callee);
      archive_fork || ((full == "torch.jit.fork" || full == "torch.jit._fork" || full == "torch.jit.wait" ||
                        full == "torch.jit._wait" || full == "torch.wait") && !env.lookup("torch")))
    return full.ends_with("wait") ? emit_wait(call) : emit_fork(call);
  if (callee.kind() == TreeKind::Attribute) {
    if (auto v = emit_builtin_module_call(call)) return *v;
    return emit_value_method_call(call);
  }
  Value* not_callable = emit_expr(callee, env);
  if (const ClassType* cls = not_callable->type()->as_class(); cls && cls->is_module()) {  // self.layers[0](x)
    emit_call_args(call);
    return emit_method_call(not_callable, *cls, "forward", std::move(call.args), std::move(call.kwargs), e.range());
  }
  fail(callee.range(), fmt::format("cannot call a value of type '{}'", not_callable->type()->annotation_str()));
}

std::optional<Value*> FunctionCompiler::emit_local_callee_call(CallSite& call) {
  const std::string& name = CallView(call.tree).callee().str();
  Value* v = call.env.lookup(name);
  if (!v) return std::nullopt;
  if (const FunctionType* ft = v->type()->as_function(); ft && ft->function()) {  // _0 = __torch__.f ... _0(x)
    emit_call_args(call);
    return emit_user_call(*ft->function(), std::move(call.args), std::move(call.kwargs), call.tree.range());
  }
  // m(x) for a module m (a loop over a ModuleList binds one): its forward, as nn.Module's __call__.
  if (const ClassType* cls = v->type()->as_class(); cls && cls->is_module()) {
    emit_call_args(call);
    return emit_method_call(v, *cls, "forward", std::move(call.args), std::move(call.kwargs), call.tree.range());
  }
  return std::nullopt;
}

std::optional<Value*> FunctionCompiler::emit_qualified_call(CallSite& call, const std::string& dotted) {
  const CallView c(call.tree);
  const SourceRange& range = call.tree.range();
  Env& env = call.env;
  if (dotted.rfind("ops.", 0) == 0 && std::count(dotted.begin(), dotted.end(), '.') == 2) {
    // ops.prim.X / ops.aten.X: an operator named by namespace, as archives' code/ spells them.
    const size_t d2 = dotted.rfind('.');
    const std::string ns = dotted.substr(4, d2 - 4), op = dotted.substr(d2 + 1);
    emit_call_args(call);
    if (ns == "prim" && op == "RaiseException") {
      if (call.args.empty() || call.args.size() > 2) fail(range, "RaiseException takes a message and an optional class");
      insert(sym::prim_RaiseException, {call.args[0].value, call.args.size() > 1 ? call.args[1].value : none()}, range, 0);
      return none();
    }
    return emit_builtin(Symbol::make(ns, op), std::move(call.args), std::move(call.kwargs), range);
  }
  TypePtr named = dotted.find('.') != std::string::npos || !env.lookup(dotted) ? file_.resolve_type(dotted) : nullptr;
  if (const LibraryClass* lib = named || env.lookup("torch") ? nullptr : library_class(dotted))
    named = file_.library_class_type(*lib);
  if (named && named->is_named_tuple()) {
    emit_call_args(call);
    return construct_named_tuple(named, call.args, call.kwargs, range);
  }
  if (named && named->as_class() && !named->as_class()->is_module()) return emit_constructor_call(call, named);
  // C.__new__(C): an object of class C with its attributes unset, as torch's printer
  // writes a constructor call (the __init__ call follows as a method call).
  if (dotted.size() > 8 && dotted.ends_with(".__new__")) {
    const std::string cls_name = dotted.substr(0, dotted.size() - 8);
    if (TypePtr cls = file_.resolve_type(cls_name); cls && cls->as_class()) {
      if (c.args().size() != 1 || dotted_name(*c.args()[0]) != cls_name || !c.keywords().empty())
        fail(range, fmt::format("{} takes its own class as its one argument", dotted));
      return graph_->insert_node(graph_->create_object(cls))->set_source_range(range)->output();
    }
  }
  if (dotted.rfind("__torch__.", 0) == 0) {
    Function* fn = file_.resolve_function(dotted, c.callee().range());
    if (!fn) fail(c.callee().range(), fmt::format("unknown function {}", dotted));
    emit_call_args(call);
    return emit_user_call(*fn, std::move(call.args), std::move(call.kwargs), range);
  }
  return std::nullopt;
}

// Foo(args): a new object, then its __init__.
Value* FunctionCompiler::emit_constructor_call(CallSite& call, const TypePtr& named) {
  const SourceRange& range = call.tree.range();
  const ClassType* cls = named->as_class();
  Function* init = cls->find_method("__init__");
  if (!init) fail(CallView(call.tree).callee().range(), fmt::format("class {} has no __init__", cls->name()));
  emit_call_args(call);
  Value* obj = graph_->insert_node(graph_->create_object(named))->set_source_range(range)->output();
  std::vector<CallArg> init_args{{obj, range}};
  init_args.insert(init_args.end(), call.args.begin(), call.args.end());
  TypeEnv tenv;
  std::string why;
  auto inputs = match_arguments(init->schema(), param_types(*init), init->defaults(), init_args, call.kwargs, tenv, why);
  if (!inputs) fail(range, fmt::format("{}:\n{}\n", init->schema().str(), why));
  Node* n = graph_->insert_node(graph_->create(sym::prim_CallMethod, *inputs));
  n->set_s(sym::attr_name, "__init__");
  n->set_source_range(range);
  n->output()->set_type(Type::none());
  return obj;
}

Value* FunctionCompiler::emit_wait(CallSite& call) {
  const SourceRange& range = call.tree.range();
  emit_call_args(call);
  if (call.args.size() != 1 || call.args[0].value->type()->kind() != TypeKind::Future)
    fail(range, "torch.jit.wait takes a future");
  Node* n = graph_->insert_node(graph_->create(Symbol::from_qual_string("aten::wait"), {call.args[0].value}));
  n->set_source_range(range);
  n->output()->set_type(call.args[0].value->type()->contained()[0]);
  return n->output();
}

// torch.jit.fork(fn, args...): prim::fork on the function, its result a Future.
Value* FunctionCompiler::emit_fork(CallSite& call) {
  const CallView c(call.tree);
  const SourceRange& range = call.tree.range();
  if (!c.args().empty() && c.args()[0]->kind() == TreeKind::Name) {
    if (auto cl = closures_.find(c.args()[0]->str()); cl != closures_.end()) {
      if (c.args().size() != 1 || !c.keywords().empty()) fail(range, "fork of a nested function takes no arguments");
      std::vector<Value*> inputs{function_value(cl->second.fn, c.args()[0]->range())};
      inputs.insert(inputs.end(), cl->second.captured.begin(), cl->second.captured.end());
      Node* n = graph_->insert_node(graph_->create(sym::prim_fork, inputs));
      n->set_source_range(range);
      n->output()->set_type(Type::future(cl->second.fn->return_type()));
      return n->output();
    }
  }
  emit_call_args(call);
  const std::vector<CallArg>& args = call.args;
  if (args.empty() || !args[0].value->type()->as_function() || !args[0].value->type()->as_function()->function())
    fail(range, "torch.jit.fork takes a function and its arguments");
  Function* fn = args[0].value->type()->as_function()->function();
  std::vector<CallArg> rest(args.begin() + 1, args.end());
  TypeEnv tenv;
  std::string why;
  auto inputs = match_arguments(fn->schema(), param_types(*fn), fn->defaults(), rest, call.kwargs, tenv, why);
  if (!inputs) fail(range, fmt::format("{}() {}", fn->name(), why));
  inputs->insert(inputs->begin(), args[0].value);
  Node* n = graph_->insert_node(graph_->create(sym::prim_fork, *inputs));
  n->set_source_range(range);
  n->output()->set_type(Type::future(fn->return_type()));
  return n->output();
}

// torch.X(...), math.X(...), F.X(...), torch.nn.functional.X(...), torch.linalg.X(...),
// warnings.warn(...): the builtin operator (or Note [torch.nn.functional]'s function),
// when the module's name is not a variable.
std::optional<Value*> FunctionCompiler::emit_builtin_module_call(CallSite& call) {
  const Tree& callee = CallView(call.tree).callee();
  const SourceRange& range = call.tree.range();
  AttributeView a(callee);
  Env& env = call.env;
  std::string root;  // the name the attribute chain starts from
  for (const Tree* t = &callee; t->kind() == TreeKind::Attribute; t = &AttributeView(*t).value())
    if (AttributeView(*t).value().kind() == TreeKind::Name) root = AttributeView(*t).value().str();
  const std::string module = a.value().kind() == TreeKind::Name ? a.value().str() : "";
  if (!module.empty() && !env.lookup(module) && (module == "torch" || module == "math" || module == "F")) {
    if (module == "F") {
      emit_call_args(call);
      return emit_nn_functional_call(a.name(), std::move(call.args), std::move(call.kwargs), callee.range(), range);
    }
    // torch.functional's Python functions the compiler lowers itself (torch_functions.cpp).
    using Lowering = Value* (FunctionCompiler::*)(const std::vector<CallArg>&, const std::vector<CallKwarg>&,
                                                  const SourceRange&);
    static const std::unordered_map<std::string_view, Lowering> kLowered = {
        {"unique", &FunctionCompiler::emit_torch_unique},
        {"norm", &FunctionCompiler::emit_torch_norm},
        {"tensordot", &FunctionCompiler::emit_torch_tensordot}};
    if (auto lowered = kLowered.find(a.name()); module == "torch" && lowered != kLowered.end() &&
                                                 !(a.name() == "tensordot" && file_.archive_code())) {
      emit_call_args(call);
      return (this->*lowered->second)(call.args, call.kwargs, range);
    }
    if (OperatorRegistry::global().overloads(canonical_operator(Symbol::make("aten", a.name()))).empty())
      fail(callee.range(), fmt::format("object has no attribute {}", a.name()));
    emit_call_args(call);
    return emit_builtin(Symbol::make("aten", a.name()), std::move(call.args), std::move(call.kwargs), range);
  }
  // warnings.warn(message, stacklevel=2) is aten::warn, as torch compiles it.
  if (module == "warnings" && a.name() == "warn" && !env.lookup("warnings")) {
    emit_call_args(call);
    return emit_builtin(Symbol::from_qual_string("aten::warn"), std::move(call.args), std::move(call.kwargs), range);
  }
  if (a.value().kind() == TreeKind::Attribute && !env.lookup(root) && root == "torch") {
    emit_call_args(call);  // torch.nn.functional.relu and friends; torch.linalg.norm is aten::linalg_norm
    const std::string submodule = dotted_name(a.value());
    if (submodule == "torch.nn.functional")
      return emit_nn_functional_call(a.name(), std::move(call.args), std::move(call.kwargs), callee.range(), range);
    std::string op = a.name();
    for (const char* prefixed : {"linalg", "special", "fft"})
      if (submodule == std::string("torch.") + prefixed) op = std::string(prefixed) + "_" + op;
    return emit_builtin(Symbol::make("aten", op), std::move(call.args), std::move(call.kwargs), range);
  }
  return std::nullopt;
}

// value.name(args): a @staticmethod of one of the file's classes (Cls.m), a method of an
// object (prim::CallMethod) or of an interface, or the aten:: builtin with the value as
// self (tolist and the dtype casts compiled as torch compiles them).
Value* FunctionCompiler::emit_value_method_call(CallSite& call) {
  const Tree& callee = CallView(call.tree).callee();
  const SourceRange& range = call.tree.range();
  AttributeView a(callee);
  if (a.value().kind() == TreeKind::Name && !call.env.lookup(a.value().str())) {
    if (Function* fn = file_.static_method(a.value().str(), a.name(), callee.range())) {
      emit_call_args(call);
      return emit_user_call(*fn, std::move(call.args), std::move(call.kwargs), range);
    }
  }
  Value* self = emit_expr(a.value(), call.env);
  if (const ClassType* cls = self->type()->as_class()) {
    emit_call_args(call);
    return emit_method_call(self, *cls, a.name(), std::move(call.args), std::move(call.kwargs), range);
  }
  if (const InterfaceType* it = self->type()->as_interface()) {
    const auto* m = file_.interface_method(it->name(), a.name());
    if (!m) fail(callee.range(), fmt::format("interface {} has no method '{}'", it->name(), a.name()));
    emit_call_args(call);
    TypeEnv tenv;
    std::string why;
    auto bound = match_arguments(m->schema, m->types, std::vector<std::optional<IValue>>(m->types.size()), call.args,
                                 call.kwargs, tenv, why);
    if (!bound) fail(range, fmt::format("{}() {}", a.name(), why));
    bound->insert(bound->begin(), self);
    Node* n = graph_->insert_node(graph_->create(sym::prim_CallMethod, *bound));
    n->set_s(sym::attr_name, a.name());
    n->set_source_range(range);
    n->output()->set_type(m->returns);
    return n->output();
  }
  emit_call_args(call);
  if (self->type()->kind() == TypeKind::Tensor && call.args.empty() && call.kwargs.empty())
    if (Value* v = emit_tensor_conversion(self, a.name(), call.hint, range)) return v;
  if (OperatorRegistry::global().overloads(canonical_operator(Symbol::make("aten", a.name()))).empty())
    fail(callee.range(), fmt::format("'{}' object has no attribute or method '{}'.", self->type()->annotation_str(), a.name()));
  call.args.insert(call.args.begin(), CallArg{self, a.value().range()});
  return emit_builtin(Symbol::make("aten", a.name()), std::move(call.args), std::move(call.kwargs), range);
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

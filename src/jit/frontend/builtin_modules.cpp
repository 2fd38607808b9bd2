// Builtin modules as SugaredValues (Note [SugaredValue]): torch, math, F
// (torch.nn.functional) and warnings, whose members are builtins — operators, Note
// [torch.nn.functional]'s functions, torch.functional's lowerings, library classes —
// and their constants; torch.jit's fork, wait and is_scripting; and ops.NS.X, the
// archives' spelling of an operator.
#include "jit/frontend/sugared_value.h"

namespace torchlet::jit {

namespace {

// --- how each module's builtins compile -------------------------------------------------------

// module: the member's module ("torch.linalg"); callee: the member's range.
using ModuleCall = Value* (*)(FunctionCompiler& fc, const std::string& module, const std::string& name, CallSite& call,
                              const SourceRange& callee, const SourceRange& range);

// The operator aten::name, matched against its overloads.
Value* operator_call(FunctionCompiler& fc, const std::string&, const std::string& name, CallSite& call, const SourceRange&,
                     const SourceRange& range) {
  fc.emit_call_args(call);
  return fc.emit_builtin(Symbol::make("aten", name), std::move(call.args), std::move(call.kwargs), range);
}

// aten::name, which must exist: a module attribute that is not one is torch's error.
Value* checked_operator_call(FunctionCompiler& fc, const std::string& module, const std::string& name, CallSite& call,
                             const SourceRange& callee, const SourceRange& range) {
  if (OperatorRegistry::global().overloads(canonical_operator(Symbol::make("aten", name))).empty())
    fc.fail(callee, fmt::format("object has no attribute {}", name));
  return operator_call(fc, module, name, call, callee, range);
}

// torch.X: torch.functional's Python functions the compiler lowers itself
// (torch_functions.cpp), else the operator. An archive's torch.tensordot is the
// operator (torch's importer resolves it so).
Value* torch_call(FunctionCompiler& fc, const std::string& module, const std::string& name, CallSite& call,
                  const SourceRange& callee, const SourceRange& range) {
  using Lowering = Value* (FunctionCompiler::*)(const std::vector<CallArg>&, const std::vector<CallKwarg>&,
                                                const SourceRange&);
  static const std::unordered_map<std::string_view, Lowering> kLowered = {
      {"unique", &FunctionCompiler::emit_torch_unique},
      {"norm", &FunctionCompiler::emit_torch_norm},
      {"tensordot", &FunctionCompiler::emit_torch_tensordot}};
  if (auto lowered = kLowered.find(name); lowered != kLowered.end() && !(name == "tensordot" && fc.file().archive_code())) {
    fc.emit_call_args(call);
    return (fc.*lowered->second)(call.args, call.kwargs, range);
  }
  return checked_operator_call(fc, module, name, call, callee, range);
}

Value* nn_functional_call(FunctionCompiler& fc, const std::string&, const std::string& name, CallSite& call,
                          const SourceRange& callee, const SourceRange& range) {
  fc.emit_call_args(call);
  return fc.emit_nn_functional_call(name, std::move(call.args), std::move(call.kwargs), callee, range);
}

// torch.linalg.norm is aten::linalg_norm (special, fft alike).
Value* prefixed_operator_call(FunctionCompiler& fc, const std::string& module, const std::string& name, CallSite& call,
                              const SourceRange& callee, const SourceRange& range) {
  return operator_call(fc, module, module.substr(module.rfind('.') + 1) + "_" + name, call, callee, range);
}

// warnings.warn(message, stacklevel=2) is aten::warn, as torch compiles it (warn is the
// only member warnings has here).
Value* warn_call(FunctionCompiler& fc, const std::string& module, const std::string&, CallSite& call,
                 const SourceRange& callee, const SourceRange& range) {
  return operator_call(fc, module, "warn", call, callee, range);
}

// By module; any other module under torch (torch.nn.init, torch.autograd, ...) names
// operators: torch.a.b.X is aten::X.
ModuleCall module_call(const std::string& module) {
  static const std::unordered_map<std::string_view, ModuleCall> kModules = {
      {"torch", &torch_call},
      {"math", &checked_operator_call},
      {"F", &nn_functional_call},
      {"torch.nn.functional", &nn_functional_call},
      {"torch.linalg", &prefixed_operator_call},
      {"torch.special", &prefixed_operator_call},
      {"torch.fft", &prefixed_operator_call},
      {"warnings", &warn_call}};
  auto it = kModules.find(module);
  return it == kModules.end() ? &operator_call : it->second;
}

// Members that are not builtins of their module, by qualified name. torch.jit.annotate
// calls what the bare name annotate calls (a file's own def annotate too, as the
// compiler always has); torch.jit.isinstance is isinstance, with a container type.
using Make = SugaredValuePtr (*)(FunctionCompiler& fc, const SourceRange& range);
SugaredValuePtr make_annotate(FunctionCompiler& fc, const SourceRange& range) {
  return fc.resolve_callable("annotate", range, false);
}
SugaredValuePtr make_isinstance(FunctionCompiler&, const SourceRange& range) {
  return std::make_shared<PythonBuiltinValue>("isinstance", range);
}
SugaredValuePtr make_is_scripting(FunctionCompiler&, const SourceRange& range) {
  return std::make_shared<IsScriptingValue>(range);
}
SugaredValuePtr make_fork(FunctionCompiler&, const SourceRange& range) { return std::make_shared<ForkValue>("fork", range); }
SugaredValuePtr make_wait(FunctionCompiler&, const SourceRange& range) { return std::make_shared<WaitValue>("wait", range); }
const std::unordered_map<std::string_view, Make>& special_members() {
  static const std::unordered_map<std::string_view, Make> kSpecial = {
      {"torch.jit.annotate", &make_annotate},         {"torch.jit.isinstance", &make_isinstance},
      {"torch.jit.is_scripting", &make_is_scripting}, {"torch.jit.fork", &make_fork},
      {"torch.jit._fork", &make_fork},                {"torch.jit.wait", &make_wait},
      {"torch.jit._wait", &make_wait},                {"torch.wait", &make_wait}};
  return kSpecial;
}

// torch.float32, math.pi, ...: a module's constants.
std::optional<IValue> module_constant(const std::string& module, const std::string& name) {
  if (module == "torch") {
    if (auto d = torch_dtype(name)) return IValue(*d);
    if (auto v = torch_enum_attribute(name)) return IValue(*v);
  }
  if (module == "math") {
    static const std::unordered_map<std::string_view, double> kMath = {
        {"pi", 3.141592653589793},
        {"e", 2.718281828459045},
        {"inf", std::numeric_limits<double>::infinity()},
        {"nan", std::numeric_limits<double>::quiet_NaN()}};
    if (auto it = kMath.find(name); it != kMath.end()) return IValue(it->second);
  }
  return std::nullopt;
}

}  // namespace

// --- modules and their members -----------------------------------------------------------------

SugaredValuePtr BuiltinModuleValue::attr(const SourceRange& range, FunctionCompiler& fc, const std::string& name) {
  if (name_ == "warnings" && name != "warn") return SugaredValue::attr(range, fc, name);
  return std::make_shared<BuiltinFunctionValue>(shared_from_this(), name_, name, range);
}

Value* BuiltinModuleValue::attr_value(const SourceRange& range, FunctionCompiler& fc, const std::string& name) {
  if (auto c = module_constant(name_, name)) return fc.constant(*c, range);
  return GlobalValue::attr_value(range, fc, name);
}

SugaredValuePtr BuiltinFunctionValue::attr(const SourceRange& range, FunctionCompiler& fc, const std::string& name) {
  if (module_ != "torch" && !module_.starts_with("torch.")) return SugaredValue::attr(range, fc, name);
  return std::make_shared<BuiltinFunctionValue>(shared_from_this(), path(), name, range);
}

Value* BuiltinFunctionValue::call(const SourceRange& range, FunctionCompiler& fc, CallSite& call) {
  const std::string qualified = path();
  // Note [Library context managers]
  if (const LibraryClass* lib = library_class(qualified))
    return std::make_shared<ClassValue>(fc.file().library_class_type(*lib), qualified, range_)->call(range, fc, call);
  if (auto special = special_members().find(qualified); special != special_members().end())
    return special->second(fc, range_)->call(range, fc, call);
  return module_call(module_)(fc, module_, name_, call, range_, range);
}

// --- torch.jit ---------------------------------------------------------------------------------

Value* ForkValue::call(const SourceRange& range, FunctionCompiler& fc, CallSite& call) {
  const CallView c(call.tree);
  Graph& g = fc.graph();
  if (!c.args().empty() && c.args()[0]->kind() == TreeKind::Name) {
    if (const FunctionCompiler::Closure* cl = fc.closure(c.args()[0]->str())) {
      if (c.args().size() != 1 || !c.keywords().empty()) fc.fail(range, "fork of a nested function takes no arguments");
      std::vector<Value*> inputs{fc.function_value(cl->fn, c.args()[0]->range())};
      inputs.insert(inputs.end(), cl->captured.begin(), cl->captured.end());
      Node* n = g.insert_node(g.create(sym::prim_fork, inputs));
      n->set_source_range(range);
      n->output()->set_type(Type::future(cl->fn->return_type()));
      return n->output();
    }
  }
  fc.emit_call_args(call);
  const std::vector<CallArg>& args = call.args;
  if (args.empty() || !args[0].value->type()->as_function() || !args[0].value->type()->as_function()->function())
    fc.fail(range, "torch.jit.fork takes a function and its arguments");
  Function* fn = args[0].value->type()->as_function()->function();
  std::vector<CallArg> rest(args.begin() + 1, args.end());
  TypeEnv tenv;
  std::string why;
  auto inputs = fc.match_arguments(fn->schema(), param_types(*fn), fn->defaults(), rest, call.kwargs, tenv, why);
  if (!inputs) fc.fail(range, fmt::format("{}() {}", fn->name(), why));
  inputs->insert(inputs->begin(), args[0].value);
  Node* n = g.insert_node(g.create(sym::prim_fork, *inputs));
  n->set_source_range(range);
  n->output()->set_type(Type::future(fn->return_type()));
  return n->output();
}

Value* WaitValue::call(const SourceRange& range, FunctionCompiler& fc, CallSite& call) {
  fc.emit_call_args(call);
  if (call.args.size() != 1 || call.args[0].value->type()->kind() != TypeKind::Future)
    fc.fail(range, "torch.jit.wait takes a future");
  Graph& g = fc.graph();
  Node* n = g.insert_node(g.create(Symbol::from_qual_string("aten::wait"), {call.args[0].value}));
  n->set_source_range(range);
  n->output()->set_type(call.args[0].value->type()->contained()[0]);
  return n->output();
}

Value* IsScriptingValue::call(const SourceRange& range, FunctionCompiler& fc, CallSite& call) {
  if (!CallView(call.tree).args().empty() || !CallView(call.tree).keywords().empty())
    fc.fail(range, "torch.jit.is_scripting() takes no arguments");
  return fc.constant(IValue(true), range);
}

// --- ops.NS.X ----------------------------------------------------------------------------------

SugaredValuePtr OpsValue::attr(const SourceRange& range, FunctionCompiler&, const std::string& name) {
  return std::make_shared<OperatorNamespaceValue>(shared_from_this(), name, range);
}

SugaredValuePtr OperatorNamespaceValue::attr(const SourceRange& range, FunctionCompiler&, const std::string& name) {
  return std::make_shared<BuiltinOperatorValue>(shared_from_this(), name_, name, range);
}

Value* BuiltinOperatorValue::call(const SourceRange& range, FunctionCompiler& fc, CallSite& call) {
  fc.emit_call_args(call);
  if (ns_ == "prim" && name_ == "RaiseException") {
    if (call.args.empty() || call.args.size() > 2) fc.fail(range, "RaiseException takes a message and an optional class");
    fc.insert(sym::prim_RaiseException, {call.args[0].value, call.args.size() > 1 ? call.args[1].value : fc.none()}, range, 0);
    return fc.none();
  }
  return fc.emit_builtin(Symbol::make(ns_, name_), std::move(call.args), std::move(call.kwargs), range);
}

}  // namespace torchlet::jit

// Classes as SugaredValues (Note [SugaredValue]): the file's classes, NamedTuples and
// enums by name (constructors, @staticmethods, __new__, enum members), and the
// archives' names for theirs — qualified under __torch__ — and for their constants
// (CONSTANTS.cN).
#include "jit/frontend/sugared_value.h"

namespace torchlet::jit {

// Foo(args): a NamedTuple built, or a new object, then its __init__.
Value* ClassValue::call(const SourceRange& range, FunctionCompiler& fc, CallSite& call) {
  if (type_->is_named_tuple()) {
    fc.emit_call_args(call);
    return fc.construct_named_tuple(type_, call.args, call.kwargs, range);
  }
  const ClassType* cls = type_->as_class();
  if (!cls || cls->is_module()) return fc.resolve_callable(name_, range_, false)->call(range, fc, call);
  Function* init = cls->find_method("__init__");
  if (!init) fc.fail(range_, fmt::format("class {} has no __init__", cls->name()));
  fc.emit_call_args(call);
  Graph& g = fc.graph();
  Value* obj = g.insert_node(g.create_object(type_))->set_source_range(range)->output();
  std::vector<CallArg> init_args{{obj, range}};
  init_args.insert(init_args.end(), call.args.begin(), call.args.end());
  TypeEnv tenv;
  std::string why;
  auto inputs = fc.match_arguments(init->schema(), param_types(*init), init->defaults(), init_args, call.kwargs, tenv, why);
  if (!inputs) fc.fail(range, fmt::format("{}:\n{}\n", init->schema().str(), why));
  Node* n = g.insert_node(g.create(sym::prim_CallMethod, *inputs));
  n->set_s(sym::attr_name, "__init__");
  n->set_source_range(range);
  n->output()->set_type(Type::none());
  return obj;
}

SugaredValuePtr ClassValue::attr(const SourceRange& range, FunctionCompiler&, const std::string& name) {
  if (name == "__new__") return std::make_shared<NewObjectValue>(shared_from_this(), type_, name_, range);
  return std::make_shared<StaticMethodValue>(shared_from_this(), name_, name, range);
}

Value* EnumClassValue::attr_value(const SourceRange& range, FunctionCompiler& fc, const std::string& name) {
  return fc.emit_enum_member(type_, name, range);
}

Value* StaticMethodValue::call(const SourceRange& range, FunctionCompiler& fc, CallSite& call) {
  if (Function* fn = fc.file().static_method(class_name_, name_, range_)) {
    fc.emit_call_args(call);
    return fc.emit_user_call(*fn, std::move(call.args), std::move(call.kwargs), range);
  }
  return MethodValue::call(range, fc, call);
}

Value* NewObjectValue::emit(FunctionCompiler& fc, const TypePtr& type, const std::string& class_name, CallSite& call) {
  if (!type || !type->as_class()) return nullptr;
  const CallView c(call.tree);
  const SourceRange& range = call.tree.range();
  if (c.args().size() != 1 || dotted_name(*c.args()[0]) != class_name || !c.keywords().empty())
    fc.fail(range, fmt::format("{}.__new__ takes its own class as its one argument", class_name));
  Graph& g = fc.graph();
  return g.insert_node(g.create_object(type))->set_source_range(range)->output();
}

Value* NewObjectValue::call(const SourceRange& range, FunctionCompiler& fc, CallSite& call) {
  if (Value* v = emit(fc, type_, class_name_, call)) return v;
  return MethodValue::call(range, fc, call);
}

// --- archives' names ---------------------------------------------------------------------------

SugaredValuePtr ClassNamespaceValue::attr(const SourceRange& range, FunctionCompiler&, const std::string& name) {
  return std::make_shared<ClassNamespaceValue>(name_ + "." + name, range);
}

Value* ClassNamespaceValue::attr_value(const SourceRange& range, FunctionCompiler& fc, const std::string& name) {
  return attr(range, fc, name)->as_value(range, fc);
}

// In torch's importer's order: the qualified NamedTuple or class, C.__new__(C), the
// qualified function.
Value* ClassNamespaceValue::call(const SourceRange& range, FunctionCompiler& fc, CallSite& call) {
  if (is_root()) return GlobalValue::call(range, fc, call);
  TypePtr named = fc.file().resolve_type(name_);
  if (named && (named->is_named_tuple() || (named->as_class() && !named->as_class()->is_module())))
    return std::make_shared<ClassValue>(named, name_, range_)->call(range, fc, call);
  constexpr std::string_view kNew = ".__new__";
  if (name_.size() > kNew.size() && name_.ends_with(kNew)) {
    const std::string cls = name_.substr(0, name_.size() - kNew.size());
    if (Value* v = NewObjectValue::emit(fc, fc.file().resolve_type(cls), cls, call)) return v;
  }
  Function* fn = fc.file().resolve_function(name_, range_);
  if (!fn) fc.fail(range_, fmt::format("unknown function {}", name_));
  fc.emit_call_args(call);
  return fc.emit_user_call(*fn, std::move(call.args), std::move(call.kwargs), range);
}

Value* ClassNamespaceValue::as_value(const SourceRange& range, FunctionCompiler& fc) {
  if (is_root()) return GlobalValue::as_value(range, fc);
  if (Function* fn = fc.file().resolve_function(name_, range)) return fc.function_value(fn, range);
  fc.fail(range, fmt::format("unknown function {}", name_));
}

Value* ConstantTableValue::attr_value(const SourceRange& range, FunctionCompiler& fc, const std::string& name) {
  if (auto c = fc.file().resolve_constant(name)) return fc.constant(*c, range);
  fc.fail(range, fmt::format("unknown constant {}.{}", name_, name));
}

}  // namespace torchlet::jit

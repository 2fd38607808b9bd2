// Python's builtin functions in TorchScript (len, int, print, isinstance, getattr, list,
// ...), as torch's builtin_functions and SugaredValue builtins: PythonBuiltinValue's
// call, the special forms the compiler decides itself from their argument trees, and
// the table of the builtins that are one operator each.
#include "jit/frontend/sugared_value.h"

namespace torchlet::jit {

namespace {

// Builtins that are one operator each. min and max take one (a list) or two values.
const std::unordered_map<std::string_view, std::string_view>& builtin_operators() {
  static const std::unordered_map<std::string_view, std::string_view> kOperators = {
      {"len", "aten::len"},   {"int", "aten::Int"},     {"float", "aten::Float"}, {"bool", "aten::Bool"},
      {"str", "aten::str"},   {"print", "prim::Print"}, {"abs", "prim::abs"},     {"min", "prim::min"},
      {"max", "prim::max"},   {"list", "aten::list"},   {"round", "aten::round"}, {"divmod", "aten::divmod"},
      {"hash", "aten::hash"}, {"ord", "aten::ord"},     {"chr", "aten::chr"},     {"sorted", "aten::sorted"},
      {"sum", "aten::sum"},   {"all", "aten::all"},     {"any", "aten::any"},     {"hex", "aten::hex"},
      {"oct", "aten::oct"},   {"bin", "aten::bin"}};
  return kOperators;
}

// A special form sees its arguments as trees (a type, a string literal, an iterable it
// rewrites) or decides the call at compile time; nullopt (or no `emit`) leaves the call
// to the table. `iterate`: what the call makes when a loop iterates it, if it is no
// value (Note [Iterables]). `shadowable`: whether a def of the same name takes the name
// instead (the resolver decides, resolve_callable).
struct SpecialForm {
  std::optional<Value*> (FunctionCompiler::*emit)(CallSite&);
  SugaredValuePtr (*iterate)(FunctionCompiler&, CallSite&);
  bool shadowable;
};
const std::unordered_map<std::string_view, SpecialForm>& special_forms() {
  static const std::unordered_map<std::string_view, SpecialForm> kForms = {
      {"getattr", {&FunctionCompiler::emit_getattr_form, nullptr, false}},
      {"uninitialized", {&FunctionCompiler::emit_uninitialized_form, nullptr, false}},
      {"annotate", {&FunctionCompiler::emit_annotate_form, nullptr, true}},
      {"unchecked_cast", {&FunctionCompiler::emit_annotate_form, nullptr, true}},
      {"isinstance", {&FunctionCompiler::emit_isinstance_form, nullptr, true}},
      {"hasattr", {&FunctionCompiler::emit_hasattr_form, nullptr, true}},
      {"list", {&FunctionCompiler::emit_list_form, nullptr, true}},
      {"range", {nullptr, &RangeValue::create, false}},
      {"enumerate", {nullptr, &IterableTree::enumerate, false}},
      {"zip", {nullptr, &IterableTree::zip, false}}};
  return kForms;
}

}  // namespace

bool PythonBuiltinValue::unshadowed(const std::string& name) {
  const auto form = special_forms().find(name);
  return form != special_forms().end() && !form->second.shadowable;
}

SugaredValuePtr PythonBuiltinValue::call_sugared(const SourceRange& range, FunctionCompiler& fc, CallSite& call) {
  if (auto form = special_forms().find(name_); form != special_forms().end() && form->second.iterate)
    return form->second.iterate(fc, call);
  return GlobalValue::call_sugared(range, fc, call);
}

bool PythonBuiltinValue::calls_iterable() const {
  const auto form = special_forms().find(name_);
  return form != special_forms().end() && form->second.iterate;
}

// As values, range(n), enumerate(xs) and zip(a, b) are refused once their arguments are
// emitted: only a loop takes them (call_sugared).
Value* PythonBuiltinValue::call(const SourceRange& range, FunctionCompiler& fc, CallSite& call) {
  if (auto form = special_forms().find(name_); form != special_forms().end() && form->second.emit)
    if (auto v = (fc.*form->second.emit)(call)) return *v;
  fc.emit_call_args(call);
  std::vector<CallArg>& args = call.args;
  const bool positional_only = call.kwargs.empty();
  if (name_ == "bool" && args.size() == 1 && positional_only) {
    // bool(s), bool(l), bool(d): len(x) > 0, as torch compiles them.
    const TypeKind k = args[0].value->type()->kind();
    if (k == TypeKind::Str || k == TypeKind::List || k == TypeKind::Dict) {
      Value* n = fc.emit_builtin(Symbol::from_qual_string("aten::len"), std::move(args), {}, range);
      return fc.emit_builtin(Symbol::from_qual_string("aten::gt"), {{n, range}, {fc.constant(IValue(int64_t{0})), range}}, {},
                             range);
    }
  }
  if (name_ == "len" && args.size() == 1 && positional_only && container_kind(args[0].value->type()) != ContainerKind::None)
    return fc.constant(IValue(static_cast<int64_t>(container_children(args[0].value->type()).size())), range);
  const auto op = builtin_operators().find(name_);
  if (op == builtin_operators().end()) {
    if (calls_iterable())  // range/enumerate/zip as a value: torchlet has no iterator objects
      fc.fail(range, fmt::format("{}() is supported only as what a for loop or comprehension iterates over", name_));
    fc.fail(range_, fmt::format("undefined value {}", name_));
  }
  if (name_ == "print") {
    std::vector<Value*> values;
    for (auto& a : args) values.push_back(a.value);
    fc.insert(Symbol::from_qual_string("prim::Print"), values, range, 0);
    return fc.none();
  }
  return fc.emit_builtin(Symbol::from_qual_string(std::string(op->second)), std::move(args), std::move(call.kwargs), range);
}

// getattr(self, "0"): attributes whose names are not identifiers.
std::optional<Value*> FunctionCompiler::emit_getattr_form(CallSite& call) {
  const CallView c(call.tree);
  const SourceRange& range = call.tree.range();
  if (c.args().size() != 2 || c.args()[1]->kind() != TreeKind::StringLiteral)
    fail(range, "getattr takes an object and a string literal");
  Value* obj = emit_expr(*c.args()[0], call.env);
  const ClassType* cls = obj->type()->as_class();
  const std::string& field = c.args()[1]->str();
  if (!cls || !cls->find_attribute(field))
    fail(range, fmt::format("object of type {} has no attribute '{}'", obj->type()->annotation_str(), field));
  return graph_->insert_node(graph_->create_get_attr(obj, field))->set_source_range(range)->output();
}

std::optional<Value*> FunctionCompiler::emit_uninitialized_form(CallSite& call) {
  const CallView c(call.tree);
  if (c.args().size() != 1) fail(call.tree.range(), "uninitialized takes a type");
  return graph_->insert_node(graph_->create_uninitialized(parse_annotation(*c.args()[0])))->output();
}

// annotate(T, v) checks v against T; unchecked_cast(T, v) asserts it (prim::unchecked_cast).
std::optional<Value*> FunctionCompiler::emit_annotate_form(CallSite& call) {
  const CallView c(call.tree);
  const SourceRange& range = call.tree.range();
  const std::string& name = c.callee().kind() == TreeKind::Name ? c.callee().str() : "annotate";
  if (c.args().size() != 2) fail(range, name + "() takes a type and a value");
  TypePtr t = parse_annotation(*c.args()[0]);
  Value* v = emit_expr(*c.args()[1], call.env, t);
  if (name == "unchecked_cast") return graph_->insert_node(graph_->create_unchecked_cast(v, t))->output();
  TypeEnv tenv;
  if (!match_type(t, v->type(), tenv))
    fail(range, fmt::format("annotate: a value of type {} is not a {}", v->type()->annotation_str(), t->annotation_str()));
  return v;
}

std::optional<Value*> FunctionCompiler::emit_isinstance_form(CallSite& call) { return emit_isinstance(call.tree, call.env); }

// Decided by the class, as torch does (so `if hasattr(m, "w"):` compiles one branch).
std::optional<Value*> FunctionCompiler::emit_hasattr_form(CallSite& call) {
  const CallView c(call.tree);
  const SourceRange& range = call.tree.range();
  if (c.args().size() != 2 || c.args()[1]->kind() != TreeKind::StringLiteral)
    fail(range, "hasattr's second argument must be a string literal");
  Value* obj = emit_expr(*c.args()[0], call.env);
  const ClassType* cls = obj->type()->as_class();
  if (!cls) fail(range, fmt::format("hasattr's first argument must be an object, found {}", obj->type()->annotation_str()));
  const std::string& field = c.args()[1]->str();
  return constant(IValue(cls->find_attribute(field).has_value() || cls->find_constant(field) || cls->find_method(field)),
                  range);
}

// list(it) is [x for x in it], as torch desugars it: range, enumerate and zip are not
// values, a dict lists its keys and a tuple's loop unrolls; a list or str goes to
// aten::list. Other arities are the table's (aten::list's own error).
std::optional<Value*> FunctionCompiler::emit_list_form(CallSite& call) {
  const CallView c(call.tree);
  if (c.args().size() != 1 || !c.keywords().empty()) return std::nullopt;
  const SourceRange& r = call.tree.range();
  auto comprehension_over = [&](const TreeRef& iterable, Env& scope) {
    TreeRef elem = Tree::name(r, "$_elem");
    TreeRef gen = Tree::make(TreeKind::Comprehension, r, {elem, iterable, Tree::list(r, {})});
    return emit_comprehension(*Tree::make(TreeKind::ListComp, r, {elem, Tree::list(r, {gen})}), scope, call.hint);
  };
  const TreeRef& arg = c.args()[0];
  // (The comprehension evaluates the call itself; resolving a name emits nothing.)
  if (arg->kind() == TreeKind::Call && CallView(*arg).callee().kind() == TreeKind::Name &&
      emit_sugared_expr(CallView(*arg).callee(), call.env)->calls_iterable())
    return comprehension_over(arg, call.env);
  Value* v = emit_expr(*arg, call.env);
  if (v->type()->kind() == TypeKind::Dict || v->type()->kind() == TypeKind::Tuple) {
    Env scope;  // the dict (tuple) under a name no program can spell, as torch's $_iter
    scope.parent = &call.env;
    scope.values["$_iter"] = v;
    return comprehension_over(Tree::name(r, "$_iter"), scope);
  }
  return emit_builtin(Symbol::from_qual_string("aten::list"), {{v, r}}, {}, r);
}

}  // namespace torchlet::jit

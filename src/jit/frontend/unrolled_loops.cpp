// Note [Module containers] and Note [Unrolled loops]: loops over values known at
// compile time (ModuleList, Sequential, ModuleDict, tuples, enumerate/zip of those, as
// their SugaredValues find them, Note [Iterables]) become one copy of the body per
// element; containers are indexed and measured here.
#include "jit/frontend/sugared_value.h"

namespace torchlet::jit {

ContainerKind container_kind(const TypePtr& t) {
  const ClassType* cls = t ? t->as_class() : nullptr;
  if (!cls || !cls->is_module()) return ContainerKind::None;
  std::string name;  // the class's name without __torch__. and mangling
  std::string_view rest = cls->name();
  while (!rest.empty()) {
    const size_t dot = rest.find('.');
    const std::string_view part = rest.substr(0, dot);
    if (!part.starts_with("___torch_mangle_") && !(name.empty() && part == "__torch__")) {
      if (!name.empty()) name += '.';
      name += part;
    }
    rest = dot == std::string_view::npos ? std::string_view() : rest.substr(dot + 1);
  }
  if (name == "torch.nn.modules.container.ModuleList" || name == "torch.nn.modules.container.Sequential")
    return ContainerKind::List;
  if (name == "torch.nn.modules.container.ModuleDict") return ContainerKind::Dict;
  return ContainerKind::None;
}

// A container's children: the names of its module-typed attributes, in order.
std::vector<std::string> container_children(const TypePtr& t) {
  std::vector<std::string> out;
  for (const auto& a : t->as_class()->attributes())
    if (const ClassType* c = a.type->as_class(); c && c->is_module()) out.push_back(a.name);
  return out;
}

void FunctionCompiler::emit_unrolled(const Tree& target, const std::vector<Unrolled>& items,
                                     const std::vector<std::string>& assigned, const std::vector<TreeRef>& body,
                                     const SourceRange& range, Env& env, const BodyFn* body_fn) {
  if (const Tree* exit = first_loop_exit(body))
    fail(exit->range(), "Because we emit iteration over modulelists or tuples as unrolled loops, we do not support break or "
                        "continue inside the body of these loops");
  if (!body_fn && contains_return(body)) {
    // Note [Exits in unrolled loops]: each element's iteration is a loop of at most
    // one trip that runs while kGoVar holds; a return clears it, so the iterations
    // after it do not run, and it is then taken after the last one (Note [Returns in
    // loops]). (break and continue are refused, as torch refuses them.)
    std::vector<std::string> names = assigned;
    names.push_back(kGoVar);
    env.set(kGoVar, constant(IValue(true)));
    for (const Unrolled& item : items)
      emit_loop(constant(IValue(1)), env.lookup(kGoVar), names, [&](Env& e, Value*) { assign_unrolled(target, item, e); }, body,
                nullptr, env, range);
    env.values.erase(kGoVar);
    env.order.erase(std::remove(env.order.begin(), env.order.end(), kGoVar), env.order.end());
    return;
  }
  for (const Unrolled& item : items) {
    assign_unrolled(target, item, env);
    if (body_fn) (*body_fn)(env);
    else if (emit_stmts(body, 0, env, false) != Exit::None) fail(range, "exits inside a loop over a tuple are not supported");
  }
}

void FunctionCompiler::assign_unrolled(const Tree& target, const Unrolled& item, Env& env) {
  if (item.parts.empty()) return assign_target(target, item.value, env);
  const bool direct = (target.kind() == TreeKind::TupleLiteral || target.kind() == TreeKind::ListLiteral) &&
                      target.children().size() == item.parts.size() &&
                      std::none_of(target.children().begin(), target.children().end(),
                                   [](const TreeRef& t) { return t->kind() == TreeKind::Starred; });
  if (!direct) return assign_target(target, materialize(item), env);
  for (size_t i = 0; i < item.parts.size(); ++i) assign_unrolled(*target.children()[i], item.parts[i], env);
}

Value* FunctionCompiler::materialize(const Unrolled& item) {
  if (item.parts.empty()) return item.value;
  std::vector<Value*> values;
  for (const Unrolled& p : item.parts) values.push_back(materialize(p));
  return graph_->insert_node(graph_->create_tuple(values))->output();
}

// A container's children as loop elements: its keys (a ModuleDict's, as constant
// strings), its children, or (key, child) pairs.
std::vector<Unrolled> FunctionCompiler::container_items(Value* container, const SourceRange& range, bool keys, bool values) {
  std::vector<Unrolled> out;
  for (const std::string& name : container_children(container->type())) {
    Value* key = keys ? constant(IValue(name), range) : nullptr;
    Value* child = values ? graph_->insert_node(graph_->create_get_attr(container, name))->set_source_range(range)->output() : nullptr;
    if (key && child) out.push_back({nullptr, {{key, {}}, {child, {}}}});
    else out.push_back({key ? key : child, {}});
  }
  return out;
}

// Note [Module containers]: the index is a literal, as torch requires, so the child (and
// its type) is known now.
Value* FunctionCompiler::emit_container_index(Value* container, const Tree& index, const SourceRange& range) {
  const std::vector<std::string> children = container_children(container->type());
  const auto key = constant_of_tree(index);
  std::string name;
  if (container_kind(container->type()) == ContainerKind::Dict) {
    if (!key || !key->isString())
      fail(range, "Unable to extract string literal index. ModuleDict indexing is only supported with string literals. "
                  "Enumeration of ModuleDict is supported, e.g. 'for k, v in self.items(): ...'");
    name = key->toStringRef();
    if (std::find(children.begin(), children.end(), name) == children.end()) fail(range, fmt::format("Key Error, {}", name));
  } else {
    if (!key || !key->isInt())
      fail(range, "Expected integer literal for index. ModuleList/Sequential indexing is only supported with integer literals. "
                  "Enumeration is supported, e.g. 'for index, v in enumerate(self): ...'");
    const auto size = static_cast<int64_t>(children.size());
    const int64_t i = key->toInt() < 0 ? key->toInt() + size : key->toInt();
    if (i < 0 || i >= size) fail(range, fmt::format("Index {} out of range of length {}", key->toInt(), size));
    name = children[static_cast<size_t>(i)];
  }
  return graph_->insert_node(graph_->create_get_attr(container, name))->set_source_range(range)->output();
}

// --- calls -------------------------------------------------------------------------------------

}  // namespace torchlet::jit

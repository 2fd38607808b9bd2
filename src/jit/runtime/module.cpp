// Module: attribute access, parameter/buffer/submodule walks and train/eval over an
// object of a module class; Method: a bound call.
#include "jit/runtime/module.h"

#include <torchlet/error.h>

#include "jit/runtime/schema_matching.h"

namespace torchlet::jit {

IValue Method::operator()(std::vector<IValue> args, const Kwargs& kwargs) const {
  args.insert(args.begin(), IValue(owner_));
  return (*fn_)(std::move(args), kwargs);
}

std::string Method::name() const { return fn_->name(); }

std::string Method::schema() const {
  // The function's schema is named by its qualified name (__torch__.Net.forward); torch
  // names a method's by the method alone.
  const std::string s = fn_->schema().str();
  const size_t paren = s.find('(');
  return name() + (paren == std::string::npos ? s : s.substr(paren));
}

std::vector<Argument> Method::arguments() const {
  std::vector<Argument> out;
  for (const auto& a : fn_->schema().arguments) out.push_back({a.name, a.type->str()});
  return out;
}

std::string Method::graph() const {
  const auto* gf = dynamic_cast<const GraphFunction*>(fn_);
  TL_CHECK(gf, ValueError, "method '{}' has no graph (it did not compile)", name());
  return gf->graph()->str();
}

std::string Method::graph_for(std::vector<IValue> args, const Kwargs& kwargs) const {
  const auto* gf = dynamic_cast<const GraphFunction*>(fn_);
  TL_CHECK(gf, ValueError, "method '{}' has no graph (it did not compile)", name());
  args.insert(args.begin(), IValue(owner_));
  Stack stack = fn_->bind_arguments(std::move(args), kwargs);
  std::shared_ptr<const ExecutionPlan> plan = gf->plan_for(stack);
  return plan ? plan->graph->str() : gf->graph()->str();
}

Module::Module(std::shared_ptr<CompilationUnit> cu, intrusive_ptr<ObjectImpl> object)
    : cu_(std::move(cu)), object_(std::move(object)), type_(object_->type) {
  TL_CHECK(type_ && type_->is_module(), TypeError, "Module: {} is not a module class",
           type_ ? type_->name() : std::string("object"));
}

Module::Module(std::shared_ptr<CompilationUnit> cu, const std::string& qualname) : cu_(std::move(cu)) {
  type_ = ClassType::create(cu_->mangle(qualname), /*is_module=*/true);
  cu_->register_type(type_);
  type_->add_attribute("training", Type::bool_());
  object_ = make_intrusive<ObjectImpl>(type_, 1);
  object_->slots[0] = IValue(true);
}

std::string Module::qualified_name() const { return type_->name(); }

bool Module::has_attr(const std::string& name) const { return type_->find_attribute(name).has_value(); }

IValue Module::attr(const std::string& name) const {
  auto slot = type_->find_attribute(name);
  TL_CHECK(slot, ValueError, "module '{}' has no attribute '{}'", type_->name(), name);
  return object_->slots[*slot];
}

void Module::setattr(const std::string& name, IValue value) {
  auto slot = type_->find_attribute(name);
  TL_CHECK(slot, ValueError, "module '{}' has no attribute '{}'", type_->name(), name);
  const TypePtr& want = type_->attributes()[*slot].type;
  TypeEnv env;
  TL_CHECK(match_type(want, type_of(value), env), TypeError,
           "cannot set attribute '{}' of module '{}': expected a value of type '{}', found '{}'", name,
           type_->name(), want->annotation_str(), type_of(value)->annotation_str());
  object_->slots[*slot] = std::move(value);
}

void Module::register_attribute(const std::string& name, TypePtr type, IValue value, SlotKind kind) {
  const size_t slot = type_->add_attribute(name, std::move(type), static_cast<ClassAttribute::Kind>(kind));
  if (object_->slots.size() <= slot) object_->slots.resize(slot + 1);
  object_->slots[slot] = std::move(value);
}

void Module::register_parameter(const std::string& name, Tensor value) {
  register_attribute(name, Type::tensor(), IValue(std::move(value)), SlotKind::Parameter);
}

void Module::register_buffer(const std::string& name, Tensor value) {
  register_attribute(name, Type::tensor(), IValue(std::move(value)), SlotKind::Buffer);
}

void Module::register_module(const std::string& name, const Module& child) {
  register_attribute(name, child.type(), child.to_ivalue());
}

void Module::named_tensors(SlotKind kind, bool recurse, const std::string& prefix,
                           std::vector<std::pair<std::string, Tensor>>& out) const {
  const auto& attrs = type_->attributes();
  for (size_t i = 0; i < attrs.size(); ++i) {
    const IValue& v = object_->slots[i];
    if (attrs[i].kind == static_cast<ClassAttribute::Kind>(kind) && v.isTensor()) out.emplace_back(prefix + attrs[i].name, v.toTensor());
  }
  if (!recurse) return;
  for (const auto& [name, child] : named_children()) child.named_tensors(kind, true, prefix + name + ".", out);
}

std::vector<std::pair<std::string, Tensor>> Module::named_parameters(bool recurse) const {
  std::vector<std::pair<std::string, Tensor>> out;
  named_tensors(SlotKind::Parameter, recurse, "", out);
  return out;
}

std::vector<std::pair<std::string, Tensor>> Module::named_buffers(bool recurse) const {
  std::vector<std::pair<std::string, Tensor>> out;
  named_tensors(SlotKind::Buffer, recurse, "", out);
  return out;
}

std::vector<std::pair<std::string, Module>> Module::named_children() const {
  std::vector<std::pair<std::string, Module>> out;
  const auto& attrs = type_->attributes();
  for (size_t i = 0; i < attrs.size(); ++i) {
    const IValue& v = object_->slots[i];
    if (v.isObject() && v.objectRef().type && v.objectRef().type->is_module())
      out.emplace_back(attrs[i].name, Module(cu_, v.toObject()));
  }
  return out;
}

std::vector<std::pair<std::string, Module>> Module::named_modules() const {
  std::vector<std::pair<std::string, Module>> out{{"", *this}};
  for (const auto& [name, child] : named_children())
    for (auto& [sub, m] : child.named_modules()) out.emplace_back(sub.empty() ? name : name + "." + sub, m);
  return out;
}

std::vector<NamedAttribute> Module::named_attributes(bool recurse) const {
  std::vector<NamedAttribute> out;
  const auto& attrs = type_->attributes();
  for (size_t i = 0; i < attrs.size(); ++i)
    out.push_back({attrs[i].name, object_->slots[i], static_cast<SlotKind>(attrs[i].kind), attrs[i].type->annotation_str()});
  if (!recurse) return out;
  for (const auto& [name, child] : named_children()) {
    for (auto& a : child.named_attributes(true)) {
      a.name = name + "." + a.name;
      out.push_back(std::move(a));
    }
  }
  return out;
}

bool Module::has_method(const std::string& name) const { return type_->find_method(name) != nullptr; }

std::vector<std::string> Module::method_names() const {
  std::vector<std::string> names;
  for (const auto& [name, fn] : type_->methods()) names.push_back(name);
  return names;
}

Method Module::get_method(const std::string& name) const {
  const Function* fn = type_->find_method(name);
  TL_CHECK(fn, ValueError, "module '{}' has no method '{}'", type_->name(), name);
  return Method(object_, fn);
}

void Module::train(bool on) {
  if (auto slot = type_->find_attribute("training")) object_->slots[*slot] = IValue(on);
  for (auto& [name, child] : named_children()) child.train(on);
}

bool Module::is_training() const {
  auto slot = type_->find_attribute("training");
  return slot && object_->slots[*slot].isBool() && object_->slots[*slot].toBool();
}

}  // namespace torchlet::jit

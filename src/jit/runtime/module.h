// Module and Method: the user-facing view of a TorchScript object, like torch::jit::
// Module. A Module is a handle on an object whose class is a module ClassType, plus the
// CompilationUnit that owns its methods; copying a Module copies the handle (both see
// the same object), as in torch. Parameters and buffers are the attribute slots the
// class marks so; submodules are the attributes holding module objects.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "jit/runtime/compilation_unit.h"

namespace torchlet::jit {

class Module;

// A method bound to its object.
class Method {
 public:
  Method(intrusive_ptr<ObjectImpl> owner, const Function* fn) : owner_(std::move(owner)), fn_(fn) {}
  IValue operator()(std::vector<IValue> args, const Kwargs& kwargs = {}) const;
  const Function& function() const { return *fn_; }
  const std::string name() const { return fn_->name(); }

 private:
  intrusive_ptr<ObjectImpl> owner_;
  const Function* fn_;
};

class Module {
 public:
  Module(std::shared_ptr<CompilationUnit> cu, intrusive_ptr<ObjectImpl> object);
  // A new empty module object of a fresh class `qualname` (mangled if taken), with a
  // `training` attribute set to true, as nn.Module has.
  Module(std::shared_ptr<CompilationUnit> cu, const std::string& qualname);

  const ClassTypePtr& type() const { return type_; }
  const intrusive_ptr<ObjectImpl>& object() const { return object_; }
  const std::shared_ptr<CompilationUnit>& compilation_unit() const { return cu_; }
  IValue to_ivalue() const { return IValue(object_); }

  // Attributes (ValueError naming the class when absent).
  bool has_attr(const std::string& name) const;
  IValue attr(const std::string& name) const;
  void setattr(const std::string& name, IValue value);  // existing attribute; type-checked
  // Adds a new attribute slot (to the class; existing objects of it get None).
  void register_attribute(const std::string& name, TypePtr type, IValue value,
                          ClassAttribute::Kind kind = ClassAttribute::Kind::Regular);
  void register_parameter(const std::string& name, Tensor value) {
    register_attribute(name, Type::tensor(), IValue(std::move(value)), ClassAttribute::Kind::Parameter);
  }
  void register_buffer(const std::string& name, Tensor value) {
    register_attribute(name, Type::tensor(), IValue(std::move(value)), ClassAttribute::Kind::Buffer);
  }
  void register_module(const std::string& name, const Module& child);

  // Dotted names ("layer1.0.conv1.weight") in attribute order, depth first, as torch.
  std::vector<std::pair<std::string, Tensor>> named_parameters(bool recurse = true) const;
  std::vector<std::pair<std::string, Tensor>> named_buffers(bool recurse = true) const;
  std::vector<std::pair<std::string, Module>> named_children() const;
  std::vector<std::pair<std::string, Module>> named_modules() const;  // self first, as ""

  // Methods.
  bool has_method(const std::string& name) const { return type_->find_method(name) != nullptr; }
  Method get_method(const std::string& name) const;  // ValueError naming the class
  IValue forward(std::vector<IValue> inputs, const Kwargs& kwargs = {}) const {
    return get_method("forward")(std::move(inputs), kwargs);
  }
  IValue run_method(const std::string& name, std::vector<IValue> inputs, const Kwargs& kwargs = {}) const {
    return get_method(name)(std::move(inputs), kwargs);
  }

  // Compiles TorchScript source defining methods (`def name(self, ...)`) and adds them
  // to this module's class, as torch::jit::Module::define: they can then be run, and
  // jit::save writes them. CompileError with torch's source highlight. Defined in the
  // frontend (jit/frontend/file_compiler.cpp), which the runtime layer does not link: link
  // the `torchlet` target.
  void define(const std::string& source);

  // The `training` flag of this module and every submodule.
  void train(bool on = true);
  void eval() { train(false); }
  bool is_training() const;

 private:
  void named_tensors(ClassAttribute::Kind kind, bool recurse, const std::string& prefix,
                     std::vector<std::pair<std::string, Tensor>>& out) const;
  std::shared_ptr<CompilationUnit> cu_;
  intrusive_ptr<ObjectImpl> object_;
  ClassTypePtr type_;
};

}  // namespace torchlet::jit

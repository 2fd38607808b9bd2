// The SugaredValue hierarchy (Note [SugaredValue]): what a callee, or the object of an
// attribute, stands for before it is a graph value, and how it is called, read, named
// further and iterated. FunctionCompiler::emit_sugared_expr builds them; their methods
// emit through the compiler (function_compiler.h).
#pragma once

#include "jit/frontend/function_compiler.h"

namespace torchlet::jit {

// Note [SugaredValue]
// As in torch's sugared_value.h, a name or attribute chain in callee or attribute
// position first becomes a SugaredValue, and the call, the attribute or the loop asks
// it what it does: emit_call is emit_sugared_expr(callee)->call(...), emit_attribute is
// emit_sugared_expr(x.name)->as_value(...). emit_sugared_expr resolves a name through
// the environment (a SimpleValue of the bound value; a ModuleValue, a
// ModuleContainerValue or a FunctionValue by its type), then the resolver
// (FunctionCompiler::resolve_global: the archive namespaces, the builtin modules, the
// file's classes, fork, the Python builtins no def shadows, the file's functions, the
// other Python builtins); an attribute is its object's attr; anything else is the value
// it computes.
//
//   SugaredValue                 attr / attr_value / call / iter / as_value
//   ├─ SimpleValue               a graph value: attributes and properties read; a
//   │  │                         tuple iterates, unrolled
//   │  └─ ModuleValue            a module: called, its forward
//   │     └─ ModuleContainerValue ModuleList / Sequential / ModuleDict: iterates its
//   │                            children, unrolled (Note [Module containers])
//   ├─ MethodValue               owner.name not yet called or read: called, a method
//   │  │                         with owner's value as self; read, owner's attr_value
//   │  ├─ StaticMethodValue      Cls.name: the class's @staticmethod when it has one
//   │  ├─ NewObjectValue         Cls.__new__(Cls): an object with its attributes unset
//   │  ├─ BuiltinFunctionValue   torch.X, math.X, F.X, torch.nn.functional.X, ...:
//   │  │                         called, the operator (or torch.nn.functional's
//   │  │                         function, a library class, fork, ...); named further
//   │  │                         under torch, a submodule (torch.nn.functional)
//   │  ├─ OperatorNamespaceValue ops.aten
//   │  └─ BuiltinOperatorValue   ops.aten.X: called, the operator
//   ├─ FunctionValue             a function: called, prim::CallFunction; otherwise what
//   │                            its name reads as
//   ├─ GlobalValue               a name the resolver found: read, emit_global_name;
//   │  │                         its attribute read, "unknown name"; called, what the
//   │  │                         name calls (resolve_callable)
//   │  ├─ PythonBuiltinValue     len, getattr, isinstance, list, print, ...: special
//   │  │                         forms, then the builtin-operator table
//   │  ├─ ClassValue             a class or NamedTuple: called, constructed
//   │  │  └─ EnumClassValue      an enum: its attributes are its members
//   │  ├─ BuiltinModuleValue     torch, math, F, warnings: attributes are builtins;
//   │  │                         read, the module's constants (torch.float32, math.pi)
//   │  ├─ ForkValue, WaitValue   torch.jit.fork / wait (and the archives' bare fork)
//   │  ├─ OpsValue               ops: archives' operators by namespace
//   │  ├─ ConstantTableValue     CONSTANTS: an archive's tensor constants
//   │  └─ ClassNamespaceValue    __torch__.a.b: archives' qualified classes and
//   │                            functions, resolved when called or read, so naming a
//   │                            path loads no code/ file it does not use
//   └─ IsScriptingValue          torch.jit.is_scripting: True while compiling
//
// Two rules give a name its meaning in each position. A namespace is not callable:
// calling one calls what the name calls otherwise (resolve_callable), so a file's
// `def F(x)` or `class F` still works beside F, the alias of torch.nn.functional. And an
// attribute stays lazy (a MethodValue) until it is called or read, because the two
// differ: self.sub(x) calls a submodule's forward where self.sub reads it, Cls.m(x)
// calls a @staticmethod, and a namespace's member reads as the namespace says (math.pi;
// "unknown name torch.nn") but calls as what it names (torch.nn.functional.relu).
class SugaredValue : public std::enable_shared_from_this<SugaredValue> {
 public:
  explicit SugaredValue(SourceRange range) : range_(std::move(range)) {}
  virtual ~SugaredValue() = default;
  SugaredValue(const SugaredValue&) = delete;
  SugaredValue& operator=(const SugaredValue&) = delete;

  // What it is, for messages.
  virtual std::string kind() const = 0;
  // The expression it stands for.
  const SourceRange& range() const { return range_; }
  // this.name (range: that expression), not yet called or read: a MethodValue unless
  // this is a namespace.
  virtual SugaredValuePtr attr(const SourceRange& range, FunctionCompiler& fc, const std::string& name);
  // this.name read as a value: this as a value, then its attribute.
  virtual Value* attr_value(const SourceRange& range, FunctionCompiler& fc, const std::string& name);
  // this(args) (range: the call): this as a value, called.
  virtual Value* call(const SourceRange& range, FunctionCompiler& fc, CallSite& call);
  // The elements of `for x in this:` when they are known now, so the loop unrolls (Note
  // [Unrolled loops]); nullopt, having emitted nothing, when they are not.
  virtual std::optional<std::vector<Unrolled>> iter(const SourceRange& range, FunctionCompiler& fc);
  // This used as a value.
  virtual Value* as_value(const SourceRange& range, FunctionCompiler& fc);

 protected:
  SourceRange range_;
};

// A graph value as a SugaredValue: a ModuleValue or ModuleContainerValue by its type, a
// FunctionValue when `named` (a variable bound to a function: `_0 = __torch__.f` then
// `_0(x)`), else a SimpleValue.
SugaredValuePtr sugared_value_of(Value* v, const SourceRange& range, bool named = false);

class SimpleValue : public SugaredValue {
 public:
  SimpleValue(Value* v, SourceRange range) : SugaredValue(std::move(range)), value_(v) {}
  std::string kind() const override { return "value"; }
  Value* attr_value(const SourceRange& range, FunctionCompiler& fc, const std::string& name) override;
  Value* call(const SourceRange& range, FunctionCompiler& fc, CallSite& call) override;
  std::optional<std::vector<Unrolled>> iter(const SourceRange& range, FunctionCompiler& fc) override;
  Value* as_value(const SourceRange&, FunctionCompiler&) override { return value_; }
  Value* value() const { return value_; }

 private:
  Value* enum_attribute(const SourceRange& range, FunctionCompiler& fc, const std::string& name);

  Value* value_;
};

// m(x) is m.forward(x), as nn.Module's __call__; a loop over a ModuleList binds m.
class ModuleValue : public SimpleValue {
 public:
  using SimpleValue::SimpleValue;
  std::string kind() const override { return "module"; }
  Value* call(const SourceRange& range, FunctionCompiler& fc, CallSite& call) override;
};

// Note [Module containers]: iterated at compile time, its children in order (a
// ModuleDict's keys).
class ModuleContainerValue : public ModuleValue {
 public:
  using ModuleValue::ModuleValue;
  std::string kind() const override { return "module container"; }
  std::optional<std::vector<Unrolled>> iter(const SourceRange& range, FunctionCompiler& fc) override;
};

// owner.name before it is called or read (Note [SugaredValue]). Called: owner as a
// value is self, and the call is the method of its class (prim::CallMethod), of its
// interface, a submodule's forward, or the aten:: builtin taking it as self
// (x.relu()). Read: owner's attr_value. Namespaces' members derive from it, so they read
// (and fail) as attributes do.
class MethodValue : public SugaredValue {
 public:
  MethodValue(SugaredValuePtr owner, std::string name, SourceRange range)
      : SugaredValue(std::move(range)), owner_(std::move(owner)), name_(std::move(name)) {}
  std::string kind() const override { return "method"; }
  Value* call(const SourceRange& range, FunctionCompiler& fc, CallSite& call) override;
  Value* as_value(const SourceRange& range, FunctionCompiler& fc) override {
    return owner_->attr_value(range, fc, name_);
  }

 protected:
  SugaredValuePtr owner_;
  std::string name_;
};

// A function: called, prim::CallFunction after matching its schema. `plain` is what its
// name is otherwise (read, or named further): the bound value, or the global name. A
// file's function is found by name and compiled when first called.
class FunctionValue : public SugaredValue {
 public:
  FunctionValue(Function* fn, SugaredValuePtr plain)
      : SugaredValue(plain->range()), fn_(fn), plain_(std::move(plain)) {}
  FunctionValue(std::string name, SugaredValuePtr plain)
      : SugaredValue(plain->range()), name_(std::move(name)), plain_(std::move(plain)) {}
  std::string kind() const override { return "function"; }
  SugaredValuePtr attr(const SourceRange& range, FunctionCompiler& fc, const std::string& name) override {
    return plain_->attr(range, fc, name);
  }
  Value* attr_value(const SourceRange& range, FunctionCompiler& fc, const std::string& name) override {
    return plain_->attr_value(range, fc, name);
  }
  Value* call(const SourceRange& range, FunctionCompiler& fc, CallSite& call) override;
  Value* as_value(const SourceRange& range, FunctionCompiler& fc) override { return plain_->as_value(range, fc); }

 private:
  Function* fn_ = nullptr;
  std::string name_;
  SugaredValuePtr plain_;
};

// A name the environment does not bind, as the resolver found it. Read, it is
// emit_global_name's (a file's function, inf, ... or undefined); its attribute read is
// "unknown name"; called, it is what resolve_callable says the name calls.
class GlobalValue : public SugaredValue {
 public:
  GlobalValue(std::string name, SourceRange range) : SugaredValue(std::move(range)), name_(std::move(name)) {}
  std::string kind() const override { return "global name"; }
  Value* attr_value(const SourceRange& range, FunctionCompiler& fc, const std::string& name) override;
  Value* call(const SourceRange& range, FunctionCompiler& fc, CallSite& call) override;
  Value* as_value(const SourceRange& range, FunctionCompiler& fc) override;
  const std::string& name() const { return name_; }

 protected:
  std::string name_;
};

// Python's builtins (python_builtins.cpp): a special form when the name has one and it
// takes the call, else the builtin-operator table, else an undefined name.
class PythonBuiltinValue : public GlobalValue {
 public:
  using GlobalValue::GlobalValue;
  std::string kind() const override { return "builtin function"; }
  Value* call(const SourceRange& range, FunctionCompiler& fc, CallSite& call) override;
  // getattr and torch's uninitialized: not Python functions a file can redefine, so a
  // def of the same name does not shadow them (torch's order).
  static bool unshadowed(const std::string& name);
};

// A class of the file (or an archive's, or a library class): called, a NamedTuple is
// built, an object constructed (prim::CreateObject, then __init__); other types called
// fall back to what the name calls otherwise. Its attributes are its @staticmethods and
// __new__.
class ClassValue : public GlobalValue {
 public:
  ClassValue(TypePtr type, std::string name, SourceRange range)
      : GlobalValue(std::move(name), std::move(range)), type_(std::move(type)) {}
  std::string kind() const override { return "class"; }
  SugaredValuePtr attr(const SourceRange& range, FunctionCompiler& fc, const std::string& name) override;
  Value* call(const SourceRange& range, FunctionCompiler& fc, CallSite& call) override;
  const TypePtr& type() const { return type_; }

 protected:
  TypePtr type_;
};

// Color.RED: the member as a constant.
class EnumClassValue : public ClassValue {
 public:
  using ClassValue::ClassValue;
  std::string kind() const override { return "enum"; }
  Value* attr_value(const SourceRange& range, FunctionCompiler& fc, const std::string& name) override;
};

// Cls.name(args): the class's @staticmethod `name`, compiled on first use; a class
// without one calls a method of Cls as a value (which fails as an undefined name).
class StaticMethodValue : public MethodValue {
 public:
  StaticMethodValue(SugaredValuePtr owner, std::string class_name, std::string name, SourceRange range)
      : MethodValue(std::move(owner), std::move(name), std::move(range)), class_name_(std::move(class_name)) {}
  std::string kind() const override { return "static method"; }
  Value* call(const SourceRange& range, FunctionCompiler& fc, CallSite& call) override;

 private:
  std::string class_name_;  // as written
};

// C.__new__(C): an object of class C with its attributes unset, as torch's printer
// writes a constructor call (the __init__ call follows as a method call).
class NewObjectValue : public MethodValue {
 public:
  NewObjectValue(SugaredValuePtr owner, TypePtr type, std::string class_name, SourceRange range)
      : MethodValue(std::move(owner), "__new__", std::move(range)), type_(std::move(type)),
        class_name_(std::move(class_name)) {}
  std::string kind() const override { return "__new__"; }
  Value* call(const SourceRange& range, FunctionCompiler& fc, CallSite& call) override;
  // The object, when `type` is a class and the call passes exactly that class (spelled
  // `class_name`); null when `type` is not a class.
  static Value* emit(FunctionCompiler& fc, const TypePtr& type, const std::string& class_name, CallSite& call);

 private:
  TypePtr type_;
  std::string class_name_;
};

// torch, math, F (torch.nn.functional by its conventional name) and warnings, when no
// variable has the name. Each attribute is a BuiltinFunctionValue (warnings has only
// warn); read, torch's dtypes and enums and math's constants.
class BuiltinModuleValue : public GlobalValue {
 public:
  using GlobalValue::GlobalValue;
  std::string kind() const override { return "builtin module"; }
  SugaredValuePtr attr(const SourceRange& range, FunctionCompiler& fc, const std::string& name) override;
  Value* attr_value(const SourceRange& range, FunctionCompiler& fc, const std::string& name) override;
};

// module.name of a builtin module (module: its dotted path, "torch.linalg"), owned by
// the module's value. Called: a library class (torch.no_grad), one of torch.jit's forms,
// fork and wait, or the module's builtin (builtin_modules.cpp's table: the operator,
// torch.nn.functional's function, torch.unique's lowering, ...). Under torch, named
// further it is a submodule: torch.nn.functional.relu.
class BuiltinFunctionValue : public MethodValue {
 public:
  BuiltinFunctionValue(SugaredValuePtr owner, std::string module, std::string name, SourceRange range)
      : MethodValue(std::move(owner), std::move(name), std::move(range)), module_(std::move(module)) {}
  std::string kind() const override { return "builtin function"; }
  SugaredValuePtr attr(const SourceRange& range, FunctionCompiler& fc, const std::string& name) override;
  Value* call(const SourceRange& range, FunctionCompiler& fc, CallSite& call) override;
  std::string path() const { return module_ + "." + name_; }

 private:
  std::string module_;
};

// torch.jit.fork(fn, args...) (and `fork(fn, args)`, the spelling archives' code/ uses):
// prim::fork on the function, its result a Future.
class ForkValue : public GlobalValue {
 public:
  using GlobalValue::GlobalValue;
  std::string kind() const override { return "fork"; }
  Value* call(const SourceRange& range, FunctionCompiler& fc, CallSite& call) override;
};

// torch.jit.wait(future): aten::wait.
class WaitValue : public GlobalValue {
 public:
  using GlobalValue::GlobalValue;
  std::string kind() const override { return "wait"; }
  Value* call(const SourceRange& range, FunctionCompiler& fc, CallSite& call) override;
};

// torch.jit.is_scripting() is True here, a constant, so `if torch.jit.is_scripting():`
// compiles one branch (as in torch).
class IsScriptingValue : public SugaredValue {
 public:
  using SugaredValue::SugaredValue;
  std::string kind() const override { return "torch.jit.is_scripting"; }
  Value* call(const SourceRange& range, FunctionCompiler& fc, CallSite& call) override;
};

// ops.prim.X / ops.aten.X: an operator named by namespace, as archives' code/ spells
// them.
class OpsValue : public GlobalValue {
 public:
  using GlobalValue::GlobalValue;
  std::string kind() const override { return "operator namespaces"; }
  SugaredValuePtr attr(const SourceRange& range, FunctionCompiler& fc, const std::string& name) override;
};

class OperatorNamespaceValue : public MethodValue {
 public:
  using MethodValue::MethodValue;
  std::string kind() const override { return "operator namespace"; }
  SugaredValuePtr attr(const SourceRange& range, FunctionCompiler& fc, const std::string& name) override;
};

class BuiltinOperatorValue : public MethodValue {
 public:
  BuiltinOperatorValue(SugaredValuePtr owner, std::string ns, std::string name, SourceRange range)
      : MethodValue(std::move(owner), std::move(name), std::move(range)), ns_(std::move(ns)) {}
  std::string kind() const override { return "builtin operator"; }
  Value* call(const SourceRange& range, FunctionCompiler& fc, CallSite& call) override;

 private:
  std::string ns_;
};

// CONSTANTS.cN: tensor constants of an archive (constants.pkl).
class ConstantTableValue : public GlobalValue {
 public:
  using GlobalValue::GlobalValue;
  std::string kind() const override { return "constants table"; }
  Value* attr_value(const SourceRange& range, FunctionCompiler& fc, const std::string& name) override;
};

// __torch__ and the paths under it (name: the path so far). Called, the qualified
// NamedTuple or class is constructed, C.__new__ makes an object, else the qualified
// function is called; read, the qualified function's value. Resolved only then: every
// lookup may load an archive's code/ file.
class ClassNamespaceValue : public GlobalValue {
 public:
  using GlobalValue::GlobalValue;
  std::string kind() const override { return "namespace"; }
  SugaredValuePtr attr(const SourceRange& range, FunctionCompiler& fc, const std::string& name) override;
  Value* attr_value(const SourceRange& range, FunctionCompiler& fc, const std::string& name) override;
  Value* call(const SourceRange& range, FunctionCompiler& fc, CallSite& call) override;
  Value* as_value(const SourceRange& range, FunctionCompiler& fc) override;

 private:
  bool is_root() const { return name_ == "__torch__"; }
};

}  // namespace torchlet::jit

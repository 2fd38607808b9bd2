// The SugaredValue hierarchy (Note [SugaredValue]): what a callee, the object of an
// attribute or a loop's iterable stands for before it is a graph value, and how it is
// called, read, named further and iterated. FunctionCompiler::emit_sugared_expr builds them; their methods
// emit through the compiler (function_compiler.h).
#pragma once

#include "jit/frontend/function_compiler.h"

namespace torchlet::jit {

// Note [SugaredValue]
// As in torch's sugared_value.h, a name or attribute chain in callee or attribute
// position, and a loop's iterable, first becomes a SugaredValue, and the call, the
// attribute or the loop asks it what it does: emit_call is
// emit_sugared_expr(callee)->call(...), emit_attribute is
// emit_sugared_expr(x.name)->as_value(...), emit_for is Note [Iterables]. emit_sugared_expr resolves a name through
// the environment (a SimpleValue of the bound value; a ModuleValue, a
// ModuleContainerValue or a FunctionValue by its type), then the resolver
// (FunctionCompiler::resolve_global: the archive namespaces, the builtin modules, the
// file's classes, fork, the Python builtins no def shadows, the file's functions, the
// other Python builtins); an attribute is its object's attr; anything else is the value
// it computes.
//
//   SugaredValue                 attr / attr_value / call / call_sugared / as_value;
//   │                            iter / zip_part / unrolled / len / getitem (Note
//   │                            [Iterables])
//   ├─ SimpleValue               a graph value: attributes and properties read; a
//   │  │                         tuple iterates, unrolled; a list, str or tensor
//   │  │                         by index; a dict by its keys
//   │  └─ ModuleValue            a module: called, its forward
//   │     └─ ModuleContainerValue ModuleList / Sequential / ModuleDict: iterates its
//   │                            children, unrolled (Note [Module containers])
//   ├─ MethodValue               owner.name not yet called or read: called, a method
//   │  │                         with owner's value as self; read, owner's attr_value
//   │  ├─ ContainerMethodValue   x.items / x.keys / x.values: iterated on a
//   │  │                         ModuleDict, a ContainerItemsValue
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
//   │  │                         forms, then the builtin-operator table; range,
//   │  │                         enumerate, zip iterated: a RangeValue, an IterableTree
//   │  ├─ ClassValue             a class or NamedTuple: called, constructed
//   │  │  └─ EnumClassValue      an enum: its attributes are its members; iterated,
//   │  │                         the members in order
//   │  ├─ BuiltinModuleValue     torch, math, F, warnings: attributes are builtins;
//   │  │                         read, the module's constants (torch.float32, math.pi)
//   │  ├─ ForkValue, WaitValue   torch.jit.fork / wait (and the archives' bare fork)
//   │  ├─ OpsValue               ops: archives' operators by namespace
//   │  ├─ ConstantTableValue     CONSTANTS: an archive's tensor constants
//   │  └─ ClassNamespaceValue    __torch__.a.b: archives' qualified classes and
//   │                            functions, resolved when called or read, so naming a
//   │                            path loads no code/ file it does not use
//   ├─ IsScriptingValue          torch.jit.is_scripting: True while compiling
//   ├─ RangeValue                range(...) iterated: prim::Loop bounds
//   │                            (aten::__range_length, aten::__derive_index)
//   ├─ IterableTree              enumerate(...) / zip(...) iterated: its parts
//   │                            together, unrolled or one prim::Loop
//   └─ ContainerItemsValue       a ModuleDict's items() / keys() / values() iterated:
//                                its children, unrolled
//
// Two rules give a name its meaning in each position. A namespace is not callable:
// calling one calls what the name calls otherwise (resolve_callable), so a file's
// `def F(x)` or `class F` still works beside F, the alias of torch.nn.functional. And an
// attribute stays lazy (a MethodValue) until it is called or read, because the two
// differ: self.sub(x) calls a submodule's forward where self.sub reads it, Cls.m(x)
// calls a @staticmethod, and a namespace's member reads as the namespace says (math.pi;
// "unknown name torch.nn") but calls as what it names (torch.nn.functional.relu).
//
// Note [Iterables]
// How a loop goes over its iterable is the iterable's to say, as in torch's
// sugared_value.h, so one place decides it for every loop instead of each loop
// recognising range(...), enumerate(...) and zip(...) by name: emit_for (and through
// it the comprehensions and list(...)) evaluates the iterable as a SugaredValue
// (emit_iterable: a call through its callee's call_sugared, since range(n) and
// zip(a, b) are no values), takes its iter(), then unrolls the loop over unrolled()
// when the elements are known now (Note [Unrolled loops]) or else emits a prim::Loop of
// len() trips binding getitem(i). range, enumerate and zip are Python builtins
// (python_builtins.cpp's table) that make a RangeValue or an IterableTree when a loop
// calls them; a variable of the same name, which emit_sugared_expr finds first, is
// called instead. An IterableTree's parts are its arguments' zip_part(): ranges, lists,
// strings and dicts (their keys) by index, tuples, module containers and trees of them
// unrolled. Their nodes come in a fixed order — each argument, then its length, before
// the next argument — since printed graphs, compared with torch's, number values in the
// order they were made.
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
  // this(args) where what it makes need not be a value: a loop's iterable (Note
  // [Iterables]). call()'s value unless this makes something else.
  virtual SugaredValuePtr call_sugared(const SourceRange& range, FunctionCompiler& fc, CallSite& call);
  // Whether call_sugared makes an iterable that is no value (range, enumerate, zip), so
  // list(...) of the call is a loop over it. Known without emitting anything.
  virtual bool calls_iterable() const { return false; }
  // Note [Iterables]: what `for x in this:` goes over (range: the for statement, where
  // what cannot be iterated is refused): by default this as a value.
  virtual SugaredValuePtr iter(const SourceRange& range, FunctionCompiler& fc);
  // What enumerate(this) or zip(..., this, ...) goes over (fn: which, for messages):
  // by default this as a value.
  virtual SugaredValuePtr zip_part(const std::string& fn, FunctionCompiler& fc);
  // Of what iter() or zip_part() made: the elements when they are known now, so the
  // loop unrolls (Note [Unrolled loops]); nullopt, having emitted nothing, when they are
  // not. Then a prim::Loop goes over it: len() trips, emitted before the loop, and the
  // element of trip i, getitem(), emitted in its body (range: the loop's iterable).
  virtual std::optional<std::vector<Unrolled>> unrolled(const SourceRange& range, FunctionCompiler& fc);
  virtual Value* len(const SourceRange& range, FunctionCompiler& fc);
  virtual Unrolled getitem(const SourceRange& range, FunctionCompiler& fc, Value* i);
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
  SugaredValuePtr iter(const SourceRange& range, FunctionCompiler& fc) override;
  SugaredValuePtr zip_part(const std::string& fn, FunctionCompiler& fc) override;
  std::optional<std::vector<Unrolled>> unrolled(const SourceRange& range, FunctionCompiler& fc) override;
  Value* len(const SourceRange& range, FunctionCompiler& fc) override;
  Unrolled getitem(const SourceRange& range, FunctionCompiler& fc, Value* i) override;
  Value* as_value(const SourceRange&, FunctionCompiler&) override { return value_; }
  Value* value() const { return value_; }

 private:
  Value* enum_attribute(const SourceRange& range, FunctionCompiler& fc, const std::string& name);
  // A dict is iterated by its keys.
  SugaredValuePtr keys(FunctionCompiler& fc);

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
  SugaredValuePtr iter(const SourceRange&, FunctionCompiler&) override { return shared_from_this(); }
  SugaredValuePtr zip_part(const std::string&, FunctionCompiler&) override { return shared_from_this(); }
  std::optional<std::vector<Unrolled>> unrolled(const SourceRange& range, FunctionCompiler& fc) override;
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
  // The call, with owner's value already read.
  Value* call_on(Value* self, const SourceRange& range, FunctionCompiler& fc, CallSite& call);

  SugaredValuePtr owner_;
  std::string name_;
};

// x.items / x.keys / x.values (SugaredValue::attr): a method, but when a loop iterates
// the call on a ModuleDict, its (key, child) pairs, keys or children (Note [Module
// containers]). Whether x is one is known only once x is read, which the call does
// either way, so attr cannot decide it.
class ContainerMethodValue : public MethodValue {
 public:
  ContainerMethodValue(SugaredValuePtr owner, std::string name, bool keys, bool values, SourceRange range)
      : MethodValue(std::move(owner), std::move(name), std::move(range)), keys_(keys), values_(values) {}
  SugaredValuePtr call_sugared(const SourceRange& range, FunctionCompiler& fc, CallSite& call) override;

 private:
  bool keys_, values_;
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
  SugaredValuePtr call_sugared(const SourceRange& range, FunctionCompiler& fc, CallSite& call) override;
  bool calls_iterable() const override;
  // getattr, torch's uninitialized, range, enumerate and zip: names a def of the same
  // name does not shadow (torch's order, where its builtins come before the resolver;
  // archives print their counted loops as `for i in range(n)` whatever the module
  // defines). A variable of the name still does: the environment is looked up first.
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
  // for m in Color: a constant list of its members, in order.
  SugaredValuePtr iter(const SourceRange& range, FunctionCompiler& fc) override;
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

// --- iterables (Note [Iterables], iterables.cpp) -------------------------------------

// range(stop), range(start, stop[, step]) iterated, its arguments evaluated. A loop over
// it runs aten::__range_length(start, stop, step) trips (just stop for range(stop)),
// trip i binding aten::__derive_index(i, start, step) (i for range(stop)). As a part of
// enumerate or zip it is spelled with its start even as range(stop) (start 0), and its
// arguments are left to aten::__range_length to check.
class RangeValue : public SugaredValue {
 public:
  RangeValue(std::vector<Value*> bounds, SourceRange range) : SugaredValue(std::move(range)), bounds_(std::move(bounds)) {}
  static SugaredValuePtr create(FunctionCompiler& fc, CallSite& call);
  std::string kind() const override { return "range"; }
  SugaredValuePtr iter(const SourceRange& range, FunctionCompiler& fc) override;
  SugaredValuePtr zip_part(const std::string& fn, FunctionCompiler& fc) override;
  std::optional<std::vector<Unrolled>> unrolled(const SourceRange&, FunctionCompiler&) override { return std::nullopt; }
  Value* len(const SourceRange& range, FunctionCompiler& fc) override;
  Unrolled getitem(const SourceRange& range, FunctionCompiler& fc, Value* i) override;

 private:
  void check_arity(FunctionCompiler& fc) const;

  std::vector<Value*> bounds_;
  // What getitem derives from, once len() has emitted the bounds; none for range(stop).
  Value* lo_ = nullptr;
  Value* step_ = nullptr;
};

// enumerate(xs[, start]) and zip(a, b, ...) iterated: a tree of parts, one per sequence
// argument (zip_part), iterated together for as long as the shortest lasts. When the
// parts' elements are known now (tuples, module containers, trees of them) the loop
// unrolls over (index, element) or (a_i, b_i, ...) elements; when none are, it is one
// prim::Loop of prim::min over the parts' lengths (enumerate's index first: unbounded, as
// torch spells it) binding such a tuple each trip. Mixing the two, or a tree that is a
// prim::Loop inside another, is refused.
class IterableTree : public SugaredValue {
 public:
  IterableTree(std::string fn, bool counted, SourceRange range)
      : SugaredValue(std::move(range)), fn_(std::move(fn)), counted_(counted) {}
  static SugaredValuePtr enumerate(FunctionCompiler& fc, CallSite& call);
  static SugaredValuePtr zip(FunctionCompiler& fc, CallSite& call);
  std::string kind() const override { return fn_; }
  SugaredValuePtr iter(const SourceRange&, FunctionCompiler&) override { return shared_from_this(); }
  SugaredValuePtr zip_part(const std::string& fn, FunctionCompiler& fc) override;
  std::optional<std::vector<Unrolled>> unrolled(const SourceRange&, FunctionCompiler&) override { return items_; }
  Value* len(const SourceRange& range, FunctionCompiler& fc) override;
  Unrolled getitem(const SourceRange& range, FunctionCompiler& fc, Value* i) override;

 private:
  // One sequence argument: its elements kept when they are known now, else its part,
  // with the part's length emitted right away.
  void add(const Tree& arg, Env& env, FunctionCompiler& fc);
  // enumerate's elements over its unrolled argument, numbered from its start.
  std::vector<Unrolled> numbered(FunctionCompiler& fc, CallSite& call);

  std::string fn_;  // "enumerate" or "zip", for messages
  bool counted_;    // enumerate: the index is the first of each element's parts
  std::vector<std::vector<Unrolled>> known_;  // the unrolled arguments' elements
  std::vector<SugaredValuePtr> parts_;        // the other arguments'
  std::vector<Value*> lens_;                  // and their lengths
  Value* start_ = nullptr;                    // enumerate's, when given
  std::optional<std::vector<Unrolled>> items_;  // the elements, when the loop unrolls
};

// A ModuleDict's items(), keys() or values() iterated (ContainerMethodValue): unrolled
// over its children, (key, child) pairs, keys as constant strings or children.
class ContainerItemsValue : public SugaredValue {
 public:
  ContainerItemsValue(Value* dict, bool keys, bool values, SourceRange range)
      : SugaredValue(std::move(range)), dict_(dict), keys_(keys), values_(values) {}
  std::string kind() const override { return "module dict items"; }
  SugaredValuePtr iter(const SourceRange&, FunctionCompiler&) override { return shared_from_this(); }
  SugaredValuePtr zip_part(const std::string&, FunctionCompiler&) override { return shared_from_this(); }
  std::optional<std::vector<Unrolled>> unrolled(const SourceRange& range, FunctionCompiler& fc) override;

 private:
  Value* dict_;
  bool keys_, values_;
};

}  // namespace torchlet::jit

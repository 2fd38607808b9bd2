// The compiler's own declarations, shared by the files that implement compiler.h along
// the seams of torch's frontend: one FunctionCompiler per `def` emits into a fresh graph
// through an environment chain (Env) that maps Python names to SSA values; one
// FileCompiler per parsed file declares its classes and compiles definitions on first
// use. Not a public header: nothing outside src/jit/frontend includes it.
#pragma once

#include "jit/frontend/compiler.h"

#include <algorithm>
#include <atomic>
#include <functional>
#include <new>
#include <stdexcept>
#include <unordered_map>
#include <unordered_set>

#include <fmt/format.h>
#include <torchlet/dtype.h>

#include "core/ascii.h"
#include "jit/frontend/error_report.h"
#include "jit/frontend/module_aliases.h"
#include "jit/frontend/nn_functional.h"
#include "jit/frontend/parser.h"
#include "jit/passes/constant_propagation.h"
#include "jit/passes/normalize_ops.h"
#include "jit/runtime/module.h"
#include "jit/runtime/schema_matching.h"

namespace torchlet::jit {

// Names the compiler keeps in environments beside the user's variables: the value a
// `return` produced, and whether the current loop iteration should go on.
const char* const kReturnVar = "$return";
const char* const kContinueVar = "$continue";
// Note [Returns in loops]: a `return` inside a loop sets kReturnVar and kReturnedVar and
// ends the loop like a `break`; both are carried through the loop (initialised before it
// to an uninitialized value of the return type and False), and after the loop an If on
// kReturnedVar returns or runs the rest of the function.
const char* const kReturnedVar = "$returned";
// Whether an unrolled loop (over a tuple) goes on to its next element (Note [Exits in
// unrolled loops]).
const char* const kGoVar = "$go";
// Note [With statements]
// `with m as t:` compiles as torch compiles it: prim::Enter(m) (m.__enter__(), its result
// bound to t) before the body and prim::Exit(m) (m.__exit__(None, None, None)) after it,
// in the same block, so the printer writes the body between them as `with m as t:`.
// Several items nest, the last entered exited first. A `return`, `break` or `continue`
// in the body cannot jump past the Exit, so, as torch's exit transform does, the body
// is compiled like a loop body that runs once: an exit records its flags (Note
// [Returns in loops]) and sets kLeftVar, the statements after it move into the other
// branch (Note [Exits]), and after the Exit an If on kLeftVar takes the exit or runs
// the statements after the with. At run time the interpreter exits what a frame
// entered when an error unwinds it (interpreter.cpp).
const char* const kLeftVar = "$left";

// A scope of bindings for one block being emitted; lookups fall back to the parent.
struct Env {
  Env* parent = nullptr;
  std::unordered_map<std::string, Value*> values;
  std::vector<std::string> order;  // assignment order, so If/Loop outputs are stable
  // Names bound here only by refinement (Note [Refinement]): not assignments, so an
  // If or Loop does not make them outputs.
  std::unordered_set<std::string> refined;

  Value* lookup(const std::string& name) const {
    for (const Env* e = this; e; e = e->parent) {
      auto it = e->values.find(name);
      if (it != e->values.end()) return it->second;
    }
    return nullptr;
  }
  void set(const std::string& name, Value* v) {
    if (!values.count(name) || refined.erase(name)) order.push_back(name);
    values[name] = v;
  }
  void refine(const std::string& name, Value* v) {
    if (!values.count(name)) refined.insert(name);
    values[name] = v;
  }
};

// Note [Refinement]
// What a condition proves about variables, as torch's RefinementSet: `x is not None`
// proves x is its Optional's element where it is true, `x is None` where it is false;
// `isinstance(x, T)` narrows a Union (or Optional) to its members that are T, and to the
// others where it is false; `not`, `and` and `or` combine them as logic does. A branch,
// the right operand of `and`/`or`, a conditional expression's arms, the statements after
// an `assert` and (through Note [Exits]) the statements after an `if` whose other branch
// exits see the variable as prim::unchecked_cast of it to the narrower type.
struct Refinement {
  std::string name;
  TypePtr type;
};
using Refinements = std::vector<Refinement>;
struct CondRefinements {
  Refinements if_true, if_false;
};

// Note [Exits]
// How control leaves a statement list. A `return`, `raise`, `break` or `continue` in
// one branch of an `if` makes the statements after the `if` belong to the other
// branch: emit_if appends them to both branches (an exiting branch stops emitting at
// its exit), so blocks never need a jump out of their middle. The variables both
// branches leave behind — including kReturnVar and kContinueVar — become the If's
// outputs.
enum class Exit { None, Return, Raise, LoopExit };

struct CallArg {
  Value* value;
  SourceRange range;
};
struct CallKwarg {
  std::string name;
  Value* value;
  SourceRange range;
};
// One call being compiled: its tree and scope, and its arguments once emitted (each
// kind of callee decides whether and when they are: getattr's string literal is not).
struct CallSite {
  const Tree& tree;
  Env& env;
  TypePtr hint;
  std::vector<CallArg> args;
  std::vector<CallKwarg> kwargs;
};

// Note [SugaredValue] (sugared_value.h)
class SugaredValue;
using SugaredValuePtr = std::shared_ptr<SugaredValue>;

// Note [Module containers]
// A submodule whose class is torch's ModuleList or Sequential (children named "0", "1",
// ...) or ModuleDict (children named by their keys) is iterated, indexed and measured at
// compile time, as torch does: its children are the class's module-typed attributes, in
// order. `for m in self.layers:` unrolls into one copy of the body per child, m bound to
// getattr(self.layers, "i") (Note [Unrolled loops]); `len(self.layers)` is a constant;
// `self.layers[1]` and `self.d["a"]` read the attribute. Archives name these classes
// __torch__.torch.nn.modules.container.ModuleList, mangled when several differ
// (...container.___torch_mangle_3.ModuleList).
enum class ContainerKind { None, List, Dict };

// Note [Unrolled loops]
// A loop whose elements are known at compile time — a tuple's, a module container's, or
// enumerate/zip over those — is unrolled, as torch does: one copy of the body per
// element (the iterable's SugaredValue says, Note [Iterables]). An element is a value,
// or (enumerate, zip, ModuleDict.items()) a tuple of parts that a tuple target unpacks
// directly, so a module child never has to be put in a tuple value. A prim::Loop's
// element over enumerate or zip is such a tuple too.
struct Unrolled {
  Value* value = nullptr;       // when parts is empty
  std::vector<Unrolled> parts;  // a tuple of these
};

// Note [Library context managers]
// torch compiles `torch.no_grad()` and `torch.autograd.profiler.record_function(name)`
// from their Python classes' source into __torch__.torch.autograd.grad_mode.no_grad and
// __torch__.torch.autograd.profiler.record_function, which archives carry in
// code/__torch__/torch/autograd/*.py. torchlet compiles each class from the text torch
// writes there, so a loaded archive's class and torchlet's own are the same class.
struct LibraryClass {
  std::vector<std::string_view> spellings;  // how Python code names it
  const char* module;                        // "__torch__.torch.autograd.grad_mode"
  const char* name;                          // "no_grad"
  const char* source;                        // torch's printed class
};

class FileCompiler {
 public:
  FileCompiler(CompilationUnit& cu, const ParsedFile& file, std::string prefix, CompilerHooks hooks);
  void compile_all();
  // This file's function `name`, compiled on first use; null if none is defined here.
  Function* function(const std::string& name, const SourceRange& use);
  // Whether this file defines a function `name` (nothing is compiled).
  bool defines_function(const std::string& name) const { return defs_.count(name) > 0; }
  // This file's class `name`, declared and its methods compiled on first use.
  TypePtr class_type(const std::string& name);
  // A method of one of this file's classes not compiled yet (a method calling one
  // defined after it); null if the class has no such method.
  Function* method(const ClassType& cls, const std::string& name, const SourceRange& use);
  // Qualified names: this file's own, then the hooks.
  TypePtr resolve_type(const std::string& qualname);
  // Note [Library context managers]: the unit's class for `c`, compiled on first use.
  TypePtr library_class_type(const LibraryClass& c);
  // Note [torch.nn.functional]: torch.nn.functional's function `name` as the unit's
  // function torch.nn.functional.<name>, compiled on first use; null if it is a builtin.
  Function* nn_functional(const std::string& name, const SourceRange& use);
  // torch.functional.tensordot for a run-time int dims (Note [tensordot's dims]).
  Function* tensordot_function(const SourceRange& use);
  Function* resolve_function(const std::string& qualname, const SourceRange& use);
  std::optional<IValue> resolve_constant(const std::string& name) const {
    return hooks_.resolve_constant ? hooks_.resolve_constant(name) : std::nullopt;
  }
  // `broadcast`, when given, accepts torch's BroadcastingListN[T] (a List[T] that also
  // takes one T, repeated N times, as an int[2] operator argument does) and is set to N.
  TypePtr parse_annotation(const Tree& ann, std::optional<int64_t>* broadcast = nullptr);
  // Class `cls`'s @staticmethod `name` (cls as written or qualified), compiled on first
  // use as the function cls.name; null if there is none.
  Function* static_method(const std::string& cls, const std::string& name, const SourceRange& use);
  // The default of field i of the NamedTuple `qualname` declared here, if it has one.
  std::optional<IValue> named_tuple_default(const std::string& qualname, size_t i) const {
    auto it = named_tuple_defaults_.find(qualname);
    if (it == named_tuple_defaults_.end() || i >= it->second.size()) return std::nullopt;
    return it->second[i];
  }
  // A method an interface declares: its schema (without self) for binding calls, the
  // parameters' types, and what it returns.
  struct InterfaceMethod {
    FunctionSchema schema;
    std::vector<TypePtr> types;
    TypePtr returns;
  };
  const InterfaceMethod* interface_method(const std::string& interface, const std::string& name) const {
    auto it = interface_methods_.find(interface);
    if (it == interface_methods_.end()) return nullptr;
    auto m = it->second.find(name);
    return m == it->second.end() ? nullptr : &m->second;
  }
  CompilationUnit& cu() { return cu_; }
  int64_t archive_version() const { return hooks_.archive_version; }
  // An archive's code/ file, where `torch.name` is always the operator (torch's
  // importer resolves it so), not torch's Python function of that name.
  bool archive_code() const { return !prefix_.empty(); }
  // The file's defs compiled as methods of `cls` (define_methods in compiler.h).
  std::vector<Function*> define_methods(const ClassTypePtr& cls);

 private:
  CompilationUnit& cu_;
  const ParsedFile& file_;
  std::string prefix_;
  CompilerHooks hooks_;
  std::unordered_map<std::string, const Tree*> defs_;
  std::unordered_map<std::string, const Tree*> classes_;
  // class qualname -> method name -> its def, until compiled
  std::unordered_map<std::string, std::unordered_map<std::string, const Tree*>> pending_methods_;
  // class qualname -> @staticmethod name -> its def
  std::unordered_map<std::string, std::unordered_map<std::string, const Tree*>> static_defs_;
  std::unordered_map<std::string, std::vector<std::optional<IValue>>> named_tuple_defaults_;
  std::unordered_map<std::string, std::unordered_map<std::string, InterfaceMethod>> interface_methods_;
  TypePtr declare_enum(const std::string& qualname, const ClassDefView& cd);
  TypePtr declare_interface(const std::string& qualname, const ClassDefView& cd, bool is_module);
  std::unordered_set<std::string> in_progress_;
  // Compiling one definition compiles the ones it names first, from inside the blocks
  // around the call: the definitions and blocks open on the C++ stack are bounded
  // together (kMaxCompileNesting), so a hostile file cannot exhaust it with a chain of
  // functions each nested a little (100 functions of 60 nested ifs each overflowed it).
  // Inlined, a graph then nests no deeper than graph text may (ir_parser.cpp). Shared
  // with the other files of an archive (CompilerHooks::nesting).
  std::shared_ptr<size_t> depth_;
 public:
  struct Nest {
    FileCompiler& fc;
    Nest(FileCompiler& f, const SourceRange& where, const char* what = "definitions that name each other") : fc(f) {
      if (++*fc.depth_ > kMaxCompileNesting) {
        --*fc.depth_;
        throw_limit_error(where, fmt::format("{} nest more than {} deep, counting definitions and the blocks inside "
                                             "them together",
                                             what, kMaxCompileNesting));
      }
    }
    ~Nest() { --*fc.depth_; }
    Nest(const Nest&) = delete;
    Nest& operator=(const Nest&) = delete;
  };
  static constexpr size_t kMaxCompileNesting = 256;
};


class FunctionCompiler {
 public:
  FunctionCompiler(FileCompiler& file, const Tree& def, std::string qualname, ClassTypePtr self_type = nullptr)
      : file_(file), def_(def), qualname_(std::move(qualname)), graph_(std::make_shared<Graph>()),
        self_type_(std::move(self_type)) {}

  GraphFunction* compile();
  TypePtr infer_return_type();
  // Names and types of the enclosing function's variables a closure reads, appended as
  // parameters after the def's own (see emit_closure).
  void set_captured(std::vector<std::pair<std::string, TypePtr>> captured) { captured_ = std::move(captured); }

  // The emitters below are public for the SugaredValues (sugared_value.h), which compile
  // calls and attributes through them; the compiler's state stays private.
  Graph& graph() { return *graph_; }
  FileCompiler& file() { return file_; }
  // Note [Closures]: a nested def of this function, by name.
  struct Closure {
    Function* fn;
    std::vector<Value*> captured;
  };
  const Closure* closure(const std::string& name) const {
    auto it = closures_.find(name);
    return it == closures_.end() ? nullptr : &it->second;
  }

  // --- errors ------------------------------------------------------------------------
  [[noreturn]] void fail(const SourceRange& r, const std::string& message) const { throw_compile_error(r, message); }

  // --- types -------------------------------------------------------------------------
  TypePtr parse_annotation(const Tree& ann, std::optional<int64_t>* broadcast = nullptr);

  // --- statements --------------------------------------------------------------------
  Exit emit_stmts(const std::vector<TreeRef>& stmts, size_t begin, Env& env, bool in_loop);
  void emit_assign(const Tree& stmt, Env& env);
  void assign_target(const Tree& target, Value* v, Env& env, const TypePtr& annotated = nullptr);
  // Assigns a tuple of `items` to target, element by element when target is a tuple of
  // names of the same size (no tuple is built).
  void assign_values(const Tree& target, const std::vector<Value*>& items, Env& env);
  void emit_aug_assign(const Tree& stmt, Env& env);
  Exit emit_if(const Tree& stmt, const std::vector<TreeRef>& rest, Env& env, bool in_loop);
  // Note [With statements]; `rest`: the statements after it, when its body may exit.
  Exit emit_with(const Tree& stmt, const std::vector<TreeRef>& rest, Env& env, bool in_loop);
  // Ends the innermost loop body or with body being compiled, whose exit flags are set.
  Exit leave_scope(Env& env);
  bool in_real_loop() const { return std::find(exit_scopes_.begin(), exit_scopes_.end(), ExitScope::Loop) != exit_scopes_.end(); }
  Exit emit_branches(Value* cond, const std::function<Exit(Env&)>& then_fn, const std::function<Exit(Env&)>& else_fn,
                     Env& env, bool in_loop, const SourceRange& range, Node** if_out = nullptr);
  void emit_while(const Tree& stmt, Env& env);
  // A for loop over `iterable`; body_fn, when given, is emitted as the body instead of
  // `body` (comprehensions).
  using BodyFn = std::function<void(Env&)>;
  void emit_for(const Tree& target, const Tree& iterable, const std::vector<TreeRef>& body, const SourceRange& range,
                Env& env, const BodyFn* body_fn = nullptr);
  void emit_loop(Value* max_trip, Value* initial_cond, const std::vector<std::string>& assigned,
                 const std::function<void(Env&, Value* counter)>& bind, const std::vector<TreeRef>& body,
                 const std::function<Value*(Env&)>& next_cond, Env& env, const SourceRange& range,
                 const BodyFn* body_fn = nullptr);
  // Note [Iterables] (sugared_value.h): what a loop's iterable `e` stands for: a call as
  // its callee's call_sugared, anything else as emit_sugared_expr.
  SugaredValuePtr emit_iterable(const Tree& e, Env& env);
  std::vector<Unrolled> container_items(Value* container, const SourceRange& range, bool keys, bool values);
  void emit_unrolled(const Tree& target, const std::vector<Unrolled>& items, const std::vector<std::string>& assigned,
                     const std::vector<TreeRef>& body, const SourceRange& range, Env& env, const BodyFn* body_fn);
  void assign_unrolled(const Tree& target, const Unrolled& item, Env& env);
  Value* materialize(const Unrolled& item);
  // self.layers[0], self.d["a"]: Note [Module containers].
  Value* emit_container_index(Value* container, const Tree& index, const SourceRange& range);
  void emit_delete(const Tree& stmt, Env& env);
  // Note [Refinement]
  CondRefinements refinements_of(const Tree& cond, Env& env);
  void apply_refinements(const Refinements& r, Env& env);
  std::vector<TypePtr> isinstance_types(const Tree& t);
  void emit_raise(const Tree& stmt, Env& env);
  void emit_assert(const Tree& stmt, Env& env);

  // --- expressions -------------------------------------------------------------------
  Value* emit_expr(const Tree& e, Env& env, const TypePtr& hint = nullptr);
  Value* emit_name(const Tree& e, Env& env);
  Value* emit_binop(const Tree& e, Env& env);
  Value* emit_unary(const Tree& e, Env& env);
  Value* emit_compare(const Tree& e, Env& env);
  Value* emit_boolop(const Tree& e, Env& env);
  Value* emit_ifexp(const Tree& e, Env& env, const TypePtr& hint);
  // f(args): Note [SugaredValue] — the callee's SugaredValue, called.
  Value* emit_call(const Tree& e, Env& env, const TypePtr& hint);
  void emit_call_args(CallSite& call);
  // What `e` (a callee, or the object of an attribute) stands for: a name through the
  // environment, then the resolver; an attribute through its object's attr; anything
  // else as the value it computes (sugared_value.cpp).
  SugaredValuePtr emit_sugared_expr(const Tree& e, Env& env);
  // The resolver: what a name the environment does not bind stands for. A namespace
  // (ops, CONSTANTS, __torch__, torch, math, F, warnings) first, then what the name
  // calls (resolve_callable).
  SugaredValuePtr resolve_global(const std::string& name, const SourceRange& range);
  // What calling the unbound name `name` calls: the file's class (when `types`), the
  // archives' fork, a Python builtin that no def shadows, the file's function, else a
  // Python builtin (or an undefined name).
  SugaredValuePtr resolve_callable(const std::string& name, const SourceRange& range, bool types = true);
  // An unbound name read as a value: inf and nan, a name an if left unusable, the
  // file's function, else undefined.
  Value* emit_global_name(const std::string& name, const SourceRange& range);
  Value* emit_tensor_conversion(Value* self, const std::string& method, const TypePtr& hint, const SourceRange& range);
  // Python's special forms (python_builtins.cpp), called by PythonBuiltinValue: each
  // sees the call's trees; nullopt leaves the call to the builtin-operator table.
  std::optional<Value*> emit_getattr_form(CallSite& call);
  std::optional<Value*> emit_uninitialized_form(CallSite& call);
  std::optional<Value*> emit_annotate_form(CallSite& call);
  std::optional<Value*> emit_isinstance_form(CallSite& call);
  std::optional<Value*> emit_hasattr_form(CallSite& call);
  std::optional<Value*> emit_list_form(CallSite& call);
  // x.name read: emit_sugared_expr's attr, as a value.
  Value* emit_attribute(const Tree& e, Env& env);
  Value* construct_named_tuple(const TypePtr& t, const std::vector<CallArg>& args, const std::vector<CallKwarg>& kwargs,
                               const SourceRange& range);
  Value* function_value(Function* fn, const SourceRange& range);
  Value* emit_subscript(const Tree& e, Env& env);
  std::pair<Value*, std::vector<Value*>> emit_tensor_indexing(Value* v, const std::vector<TreeRef>& items, Env& env,
                                                              const SourceRange& r);
  Value* tensor_index_list(const std::vector<Value*>& indices);
  Value* emit_list(const Tree& e, Env& env, const TypePtr& hint);
  Value* emit_dict(const Tree& e, Env& env, const TypePtr& hint);
  Value* emit_comprehension(const Tree& e, Env& env, const TypePtr& hint);
  Value* emit_isinstance(const Tree& e, Env& env);
  Value* emit_torch_unique(const std::vector<CallArg>& args, const std::vector<CallKwarg>& kwargs, const SourceRange& range);
  Value* emit_torch_norm(const std::vector<CallArg>& args, const std::vector<CallKwarg>& kwargs, const SourceRange& range);
  Value* emit_torch_tensordot(const std::vector<CallArg>& args, const std::vector<CallKwarg>& kwargs,
                              const SourceRange& range);
  // obj.name(args) on an object of a TorchScript class: prim::CallMethod.
  Value* emit_method_call(Value* self, const ClassType& cls, const std::string& name, std::vector<CallArg> args,
                          std::vector<CallKwarg> kwargs, const SourceRange& range);
  // Color.RED: the member as a constant.
  Value* emit_enum_member(const TypePtr& enum_type, const std::string& member, const SourceRange& range);

  // --- calls -------------------------------------------------------------------------
  Value* emit_builtin(Symbol name, std::vector<CallArg> args, std::vector<CallKwarg> kwargs, const SourceRange& range);
  // An operator call compiled with its meaning at the archive's version (CompilerHooks::
  // archive_version); nullopt to compile it as usual (arguments possibly adjusted).
  std::optional<Value*> upgrade_call(Symbol name, std::vector<CallArg>& args, std::vector<CallKwarg>& kwargs,
                                     const SourceRange& range);
  Value* emit_user_call(const Function& fn, std::vector<CallArg> args, std::vector<CallKwarg> kwargs,
                        const SourceRange& range);
  // torch.nn.functional.X(...) (or F.X): Note [torch.nn.functional].
  Value* emit_nn_functional_call(const std::string& name, std::vector<CallArg> args, std::vector<CallKwarg> kwargs,
                                 const SourceRange& callee, const SourceRange& range);
  // Binds arguments to formals (positional, keyword, default), converting where the
  // language allows; the reason in `why` when they do not fit.
  std::optional<std::vector<Value*>> match_arguments(const FunctionSchema& schema, const std::vector<TypePtr>& types,
                                                     const std::vector<std::optional<IValue>>& defaults,
                                                     const std::vector<CallArg>& args,
                                                     const std::vector<CallKwarg>& kwargs, TypeEnv& env,
                                                     std::string& why);
  std::optional<std::vector<Value*>> match_given(const FunctionSchema& schema, const std::vector<TypePtr>& types,
                                                const std::vector<std::optional<IValue>>& defaults,
                                                const std::vector<CallArg>& args, const std::vector<CallKwarg>& kwargs,
                                                TypeEnv& env, std::string& why);
  Value* convert(Value* v, const TypePtr& formal, const SchemaArgument* arg, TypeEnv& env);
  Value* tuple_item(Value* v, int64_t i, const SourceRange& range);
  Value* insert(Symbol kind, const std::vector<Value*>& inputs, const SourceRange& range, size_t outputs = 1) {
    Node* n = graph_->insert(kind, inputs, outputs);
    n->set_source_range(range);
    return outputs ? n->output(0) : nullptr;
  }
  Value* constant(const IValue& v, const SourceRange& range = {}) { return graph_->insert_constant(v, range); }
  Value* none() { return constant(IValue()); }

 private:
  FileCompiler& file_;
  const Tree& def_;
  std::string qualname_;
  GraphPtr graph_;
  TypePtr return_type_;
  ClassTypePtr self_type_;  // set when compiling a method
  // Variables declared with an annotation (x: Optional[int] = None): a loop carrying
  // them carries the declared type, as torch's environment does.
  std::unordered_map<std::string, TypePtr> declared_;
  // Types of the variables the loops being compiled carry, innermost last: assigning one
  // a value of another type is torch's error at that assignment.
  std::vector<std::unordered_map<std::string, TypePtr>> carried_types_;
  // Names an if left unusable, and why (torch's wording): the branches gave them types
  // that do not unify, or only one branch defined them.
  std::unordered_map<std::string, std::pair<std::string, SourceRange>> unusable_;
  // The type the function's earlier return statements returned (no annotation).
  TypePtr returned_type_;
  // Note [Inferred return types]: a pass that only finds what an unannotated function
  // returns from inside its loops; its graph is dropped, nothing is registered.
  bool inferring_return_type_ = false;
  // Note [While conditions]: the next-condition of each loop being compiled (null for
  // for loops), innermost last, and the statement marking the end of a while body.
  std::vector<std::function<Value*(Env&)>> loop_conds_;
  // The loop and with bodies being compiled whose exits are flags, innermost last
  // (Note [With statements]): a with body is compiled with in_loop set, so `break` asks
  // this whether a loop really encloses it.
  enum class ExitScope { Loop, With };
  std::vector<ExitScope> exit_scopes_;
  TreeRef loop_end_marker_ = Tree::make(TreeKind::Pass, SourceRange());
  bool falls_off_end_ = false;  // some path reaches the end of the body without a return
  // Note [Closures]: nested defs of this function, by name: the compiled function and
  // the enclosing values it captured when defined.
  std::unordered_map<std::string, Closure> closures_;
  std::vector<std::pair<std::string, TypePtr>> captured_;
  void emit_closure(const Tree& def, Env& env);
  bool upgrading_ = false;  // inside an upgrader's own calls
  Env upgrade_env_;         // scratch scope for an upgrader's If outputs
};

std::vector<TypePtr> param_types(const Function& fn);

// Syntax-tree queries (tree_queries.cpp).
bool stmt_may_exit(const Tree& s, bool in_loop_body);
bool stmts_may_exit(const std::vector<TreeRef>& stmts, bool in_loop_body);
SourceRange full_range(const Tree& s);
bool is_type_test(const Tree& c);
const Tree* first_loop_exit(const std::vector<TreeRef>& stmts);
bool contains_return(const std::vector<TreeRef>& stmts);
bool returns_inside_loop(const std::vector<TreeRef>& stmts);
void collect_target(const Tree& target, std::vector<std::string>& out);
void collect_assigned(const Tree& t, std::vector<std::string>& out);
bool meaningful_name(const std::string& name);
std::string dotted_name(const Tree& t);
std::string decorator_name(const Tree& d);
bool has_decorator(const DefView& def, std::string_view name);
std::optional<IValue> constant_of_tree(const Tree& t);

// Note [Refinement] (refinement.cpp).
Refinements refinements_union(const Refinements& a, const Refinements& b);
Refinements refinements_intersection(const Refinements& a, const Refinements& b);

// Note [Module containers] (unrolled_loops.cpp).
ContainerKind container_kind(const TypePtr& t);
std::vector<std::string> container_children(const TypePtr& t);

// Expressions (expressions.cpp).
bool is_number_type(const TypePtr& t);
bool compare_as_lists(const Value* a, const Value* b);
IValue enum_value(const TypePtr& t, const std::string& name);
std::optional<int64_t> torch_dtype(const std::string& name);

// torch functions lowered by the compiler (torch_functions.cpp).
std::vector<Value*> bind_python_call(std::string_view name, const std::vector<std::string>& params,
                                     const std::vector<CallArg>& args, const std::vector<CallKwarg>& kwargs,
                                     const SourceRange& range);

// Calls (calls.cpp).
void rename_alias_keywords(Symbol alias, std::vector<CallKwarg>& kwargs);

// Note [Library context managers] (file_compiler.cpp).
const std::vector<LibraryClass>& library_classes();
const LibraryClass* library_class(const std::string& dotted);

}  // namespace torchlet::jit

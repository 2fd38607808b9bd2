// The compiler (see compiler.h): one FunctionCompiler per `def`, emitting into a fresh
// graph through an environment chain that maps Python names to SSA values.
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
#include "jit/runtime/module.h"
#include "jit/runtime/schema_matching.h"

namespace torchlet::jit {

namespace {

// The number types torch's builtin functions for (number, Tensor) operands take.
bool is_number_type(const TypePtr& t) {
  return t->kind() == TypeKind::Int || t->kind() == TypeKind::Float || t->kind() == TypeKind::Complex;
}

// Do tuples a and b compare as lists, as torch compares them (their elements unify to a
// type with a list equality: eq.int_list, eq.str_list, ...)?
bool compare_as_lists(const Value* a, const Value* b) {
  std::vector<TypePtr> elems = a->type()->contained();
  elems.insert(elems.end(), b->type()->contained().begin(), b->type()->contained().end());
  auto u = unify_type_list(elems);
  if (!u) return false;
  switch ((*u)->kind()) {
    case TypeKind::Int: case TypeKind::Float: case TypeKind::Bool: case TypeKind::Str: case TypeKind::Tensor: return true;
    default: return false;
  }
}

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

Refinements refinements_union(const Refinements& a, const Refinements& b) {
  Refinements out = a;
  for (const auto& r : b)
    if (std::none_of(a.begin(), a.end(), [&](const Refinement& x) { return x.name == r.name; })) out.push_back(r);
  return out;
}

Refinements refinements_intersection(const Refinements& a, const Refinements& b) {
  Refinements out;
  for (const auto& r : a)
    for (const auto& q : b)
      if (r.name == q.name && *r.type == *q.type) out.push_back(r);
  return out;
}

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

// Note [Operator aliases]
// torch's compiler replaces an alias's node with its canonical operator as it cleans up
// each graph (passes/normalize_ops.cpp), so graphs, the code torch.jit.save writes and
// the operators a program needs never name an alias: torch.multiply(x, y) is aten::mul,
// torch.special.expit(x) aten::sigmoid. torchlet maps the name before it matches the
// call, which needs only the canonical operator registered; the few aliases whose
// keyword names differ (swapaxes's axis0= is transpose's dim0=) have their keywords
// renamed too (rename_alias_keywords).
Symbol canonical_operator(Symbol name) {
  static const std::unordered_map<std::string, std::string> kAliases = [] {
    std::unordered_map<std::string, std::string> m;
    // Aliases whose in-place form is an alias of the canonical in-place form too.
    for (auto [alias, canonical] : std::initializer_list<std::pair<const char*, const char*>>{
             {"absolute", "abs"}, {"clip", "clamp"}, {"arccos", "acos"}, {"arcsin", "asin"}, {"arctan", "atan"},
             {"arctan2", "atan2"}, {"arccosh", "acosh"}, {"arcsinh", "asinh"}, {"arctanh", "atanh"}, {"fix", "trunc"},
             {"negative", "neg"}, {"subtract", "sub"}, {"greater_equal", "ge"}, {"greater", "gt"},
             {"less_equal", "le"}, {"less", "lt"}, {"not_equal", "ne"}, {"divide", "div"}, {"multiply", "mul"},
             {"true_divide", "div"}, {"swapdims", "transpose"}, {"swapaxes", "transpose"}}) {
      m[fmt::format("aten::{}", alias)] = fmt::format("aten::{}", canonical);
      m[fmt::format("aten::{}_", alias)] = fmt::format("aten::{}_", canonical);
    }
    for (auto [alias, canonical] : std::initializer_list<std::pair<const char*, const char*>>{
             {"det", "linalg_det"}, {"matrix_power", "linalg_matrix_power"}, {"matrix_exp", "linalg_matrix_exp"},
             {"ger", "outer"}, {"linalg_matmul", "matmul"}, {"inverse", "linalg_inv"}, {"concat", "cat"},
             {"row_stack", "vstack"}, {"moveaxis", "movedim"}, {"special_erf", "erf"}, {"special_erfc", "erfc"},
             {"special_erfinv", "erfinv"}, {"special_expit", "sigmoid"}, {"special_exp2", "exp2"},
             {"special_expm1", "expm1"}, {"special_logit", "logit"}, {"special_logsumexp", "logsumexp"},
             {"special_round", "round"}, {"special_log1p", "log1p"}, {"special_sinc", "sinc"},
             {"special_digamma", "digamma"}, {"special_psi", "digamma"}, {"special_i0", "i0"},
             {"special_xlogy", "xlogy"}, {"special_log_softmax", "log_softmax"},
             {"orgqr", "linalg_householder_product"}, {"adjoint", "mH"}, {"special_multigammaln", "mvlgamma"},
             {"special_polygamma", "polygamma"}, {"special_softmax", "softmax"}, {"special_gammainc", "igamma"},
             {"special_gammaincc", "igammac"}, {"special_gammaln", "lgamma"}})
      m[fmt::format("aten::{}", alias)] = fmt::format("aten::{}", canonical);
    return m;
  }();
  const auto it = kAliases.find(name.qual_string());
  return it == kAliases.end() ? name : Symbol::from_qual_string(it->second);
}

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

// Binds a call's arguments to the parameters of a Python function the compiler lowers
// itself (torch.functional's unique and norm): one slot per parameter, nullptr where not
// given, with Python's errors for too many, unknown, repeated or missing arguments (the
// first parameter is required).
std::vector<Value*> bind_python_call(std::string_view name, const std::vector<std::string>& params,
                                     const std::vector<CallArg>& args, const std::vector<CallKwarg>& kwargs,
                                     const SourceRange& range) {
  std::vector<Value*> given(params.size(), nullptr);
  if (args.size() > params.size())
    throw_compile_error(range, fmt::format("{}() takes at most {} arguments but {} were given", name, params.size(), args.size()));
  for (size_t i = 0; i < args.size(); ++i) given[i] = args[i].value;
  for (const CallKwarg& k : kwargs) {
    auto it = std::find(params.begin(), params.end(), k.name);
    if (it == params.end()) throw_compile_error(k.range, fmt::format("{}() got an unexpected keyword argument '{}'", name, k.name));
    const auto at = static_cast<size_t>(it - params.begin());
    if (given[at]) throw_compile_error(k.range, fmt::format("{}() got multiple values for argument '{}'", name, k.name));
    given[at] = k.value;
  }
  if (!given[0]) throw_compile_error(range, fmt::format("{}() missing required argument '{}'", name, params[0]));
  return given;
}

bool stmts_may_exit(const std::vector<TreeRef>& stmts, bool in_loop_body);

// (A `raise` is not an exit here: the statements after an `if` whose branch raises stay
// after it, as torch compiles them; the raising branch's outputs are uninitialized.)
bool stmt_may_exit(const Tree& s, bool in_loop_body) {
  switch (s.kind()) {
    case TreeKind::Return:
      return true;
    case TreeKind::Raise:
      return false;
    case TreeKind::Break:
    case TreeKind::Continue:
      return in_loop_body;
    case TreeKind::If: {
      IfView v(s);
      return stmts_may_exit(v.then_body(), in_loop_body) || stmts_may_exit(v.else_body(), in_loop_body);
    }
    case TreeKind::While:
      return stmts_may_exit(WhileView(s).body(), false);
    case TreeKind::For:
      return stmts_may_exit(ForView(s).body(), false);
    case TreeKind::With:
      return stmts_may_exit(WithView(s).body(), in_loop_body);
    default:
      return false;
  }
}

bool stmts_may_exit(const std::vector<TreeRef>& stmts, bool in_loop_body) {
  for (const auto& s : stmts)
    if (stmt_may_exit(*s, in_loop_body)) return true;
  return false;
}

// A statement's range with its nested blocks (the parser's If/For/While/Def ranges
// cover their header): torch highlights whole statements.
SourceRange full_range(const Tree& s) {
  const std::vector<TreeRef>* body = nullptr;
  switch (s.kind()) {
    case TreeKind::If:
      body = !IfView(s).else_body().empty() ? &IfView(s).else_body() : &IfView(s).then_body();
      break;
    case TreeKind::For:
      body = &ForView(s).body();
      break;
    case TreeKind::While:
      body = &WhileView(s).body();
      break;
    case TreeKind::With:
      body = &WithView(s).body();
      break;
    default:
      break;
  }
  if (!body || body->empty()) return s.range();
  return SourceRange(s.range().source(), s.range().start(), full_range(*body->back()).end());
}

// Is the condition made of type tests only (isinstance, hasattr, `is None`, combined with not,
// and, or)? Torch decides those statically when the types do.
std::string dotted_name(const Tree& t);

bool is_type_test(const Tree& c) {
  switch (c.kind()) {
    case TreeKind::Call:
      return (CallView(c).callee().kind() == TreeKind::Name &&
              (CallView(c).callee().str() == "isinstance" || CallView(c).callee().str() == "hasattr")) ||
             dotted_name(CallView(c).callee()) == "torch.jit.is_scripting" ||
             dotted_name(CallView(c).callee()) == "torch.jit.isinstance";
    case TreeKind::Compare:
      return CompareView(c).num_comparisons() == 1 &&
             (CompareView(c).op(0) == TokenKind::Is || CompareView(c).op(0) == TokenKind::IsNot) &&
             (CompareView(c).operand(0).kind() == TreeKind::NoneLiteral || CompareView(c).operand(1).kind() == TreeKind::NoneLiteral);
    case TreeKind::UnaryOp:
      return c.op() == TokenKind::Not && is_type_test(*c.child(0));
    case TreeKind::BoolOp:
      return is_type_test(*c.child(0)) && is_type_test(*c.child(1));
    default:
      return false;
  }
}

// The first break or continue that belongs to this loop (not to a loop nested in it).
const Tree* first_loop_exit(const std::vector<TreeRef>& stmts) {
  for (const auto& st : stmts) {
    if (st->kind() == TreeKind::Break || st->kind() == TreeKind::Continue) return st.get();
    if (st->kind() == TreeKind::With) {
      if (const Tree* t = first_loop_exit(WithView(*st).body())) return t;
      continue;
    }
    if (st->kind() != TreeKind::If) continue;
    if (const Tree* t = first_loop_exit(IfView(*st).then_body())) return t;
    if (const Tree* t = first_loop_exit(IfView(*st).else_body())) return t;
  }
  return nullptr;
}

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

// Note [Unrolled loops]
// A loop whose elements are known at compile time — a tuple's, a module container's, or
// enumerate/zip over those — is unrolled, as torch does: one copy of the body per
// element. An element is a value, or (enumerate, zip, ModuleDict.items()) a tuple of
// parts that a tuple target unpacks directly, so a module child never has to be put in
// a tuple value.
struct Unrolled {
  Value* value = nullptr;       // when parts is empty
  std::vector<Unrolled> parts;  // a tuple of these
};

// Does any statement, at any depth, return?
bool contains_return(const std::vector<TreeRef>& stmts) {
  for (const auto& st : stmts) {
    const Tree& t = *st;
    switch (t.kind()) {
      case TreeKind::Return:
        return true;
      case TreeKind::If:
        if (contains_return(IfView(t).then_body()) || contains_return(IfView(t).else_body())) return true;
        break;
      case TreeKind::While:
        if (contains_return(WhileView(t).body())) return true;
        break;
      case TreeKind::For:
        if (contains_return(ForView(t).body())) return true;
        break;
      case TreeKind::With:
        if (contains_return(WithView(t).body())) return true;
        break;
      default:
        break;
    }
  }
  return false;
}

// Does a loop or a with statement, at any depth, hold a return? (Such a return is
// compiled as a flag carried to the end of the loop or with, which needs its type.)
bool returns_inside_loop(const std::vector<TreeRef>& stmts) {
  for (const auto& st : stmts) {
    const Tree& t = *st;
    if (t.kind() == TreeKind::While && contains_return(WhileView(t).body())) return true;
    if (t.kind() == TreeKind::For && contains_return(ForView(t).body())) return true;
    if (t.kind() == TreeKind::With && contains_return(WithView(t).body())) return true;
    if (t.kind() == TreeKind::If &&
        (returns_inside_loop(IfView(t).then_body()) || returns_inside_loop(IfView(t).else_body())))
      return true;
  }
  return false;
}

// The names an assignment target binds (a, (b, *c)).
void collect_target(const Tree& target, std::vector<std::string>& out) {
  if (target.kind() == TreeKind::Name) {
    if (std::find(out.begin(), out.end(), target.str()) == out.end()) out.push_back(target.str());
  } else if (target.kind() == TreeKind::TupleLiteral || target.kind() == TreeKind::ListLiteral) {
    for (const auto& c : target.children()) collect_target(*c, out);
  } else if (target.kind() == TreeKind::Starred) {
    collect_target(*target.child(0), out);
  }
}

// Names a statement list assigns (targets of =, +=, annotated =, for), nested blocks
// included: the candidates for loop-carried variables.
void collect_assigned(const Tree& t, std::vector<std::string>& out) {
  auto add_target = [&](const Tree& target, auto&&) { collect_target(target, out); };
  switch (t.kind()) {
    case TreeKind::Assign:
      for (const auto& target : AssignView(t).targets()) add_target(*target, add_target);
      return;
    case TreeKind::AnnAssign:
      add_target(AnnAssignView(t).target(), add_target);
      return;
    case TreeKind::AugAssign:
      add_target(AugAssignView(t).target(), add_target);
      return;
    case TreeKind::For:
      add_target(ForView(t).target(), add_target);
      for (const auto& s : ForView(t).body()) collect_assigned(*s, out);
      return;
    case TreeKind::While:
      for (const auto& s : WhileView(t).body()) collect_assigned(*s, out);
      return;
    case TreeKind::If:
      for (const auto& s : IfView(t).then_body()) collect_assigned(*s, out);
      for (const auto& s : IfView(t).else_body()) collect_assigned(*s, out);
      return;
    case TreeKind::With:
      for (const auto& item : WithView(t).items())
        if (const Tree* target = WithItemView(*item).target()) add_target(*target, add_target);
      for (const auto& s : WithView(t).body()) collect_assigned(*s, out);
      return;
    default:
      return;
  }
}

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
const std::vector<LibraryClass>& library_classes() {
  static const std::vector<LibraryClass> kClasses = {
      {{"torch.no_grad", "torch.autograd.no_grad", "torch.autograd.grad_mode.no_grad"},
       "__torch__.torch.autograd.grad_mode",
       "no_grad",
       R"(class no_grad:
  prev : bool
  def __enter__(self: __torch__.torch.autograd.grad_mode.no_grad) -> NoneType:
    self.prev = torch.is_grad_enabled()
    torch.set_grad_enabled(False)
    return None
  def __exit__(self: __torch__.torch.autograd.grad_mode.no_grad,
    exc_type: Any,
    exc_value: Any,
    traceback: Any) -> NoneType:
    prev = self.prev
    torch.set_grad_enabled(prev)
    return None
  def __init__(self: __torch__.torch.autograd.grad_mode.no_grad) -> NoneType:
    self.prev = False
    return None
)"},
      {{"torch.autograd.profiler.record_function", "torch.profiler.record_function"},
       "__torch__.torch.autograd.profiler",
       "record_function",
       R"(class record_function:
  name : str
  args : Optional[str]
  run_callbacks_on_exit : bool
  handle : Tensor
  def __enter__(self: __torch__.torch.autograd.profiler.record_function) -> __torch__.torch.autograd.profiler.record_function:
    name = self.name
    args = self.args
    _0 = ops.profiler._record_function_enter(name, args)
    self.handle = _0
    return self
  def __exit__(self: __torch__.torch.autograd.profiler.record_function,
    exc_type: Any,
    exc_value: Any,
    traceback: Any) -> NoneType:
    run_callbacks_on_exit = self.run_callbacks_on_exit
    if run_callbacks_on_exit:
      handle = self.handle
      ops.profiler._record_function_exit(handle)
    else:
      pass
    return None
  def __init__(self: __torch__.torch.autograd.profiler.record_function,
    name: str,
    args: Optional[str]=None) -> NoneType:
    self.name = name
    self.args = args
    self.run_callbacks_on_exit = True
    self.handle = torch.zeros([1])
    return None
  def _call_end_callbacks_on_future(self: __torch__.torch.autograd.profiler.record_function,
    fut: Future[Any]) -> Future[Any]:
    _1 = "_call_end_callbacks_on_future can only be called once."
    run_callbacks_on_exit = self.run_callbacks_on_exit
    _2 = torch.__not__(run_callbacks_on_exit)
    if _2:
      ops.prim.RaiseException(_1, "builtins.RuntimeError")
    else:
      pass
    self.run_callbacks_on_exit = False
    handle = self.handle
    profiled_future = ops.profiler._call_end_callbacks_on_jit_fut(handle, fut)
    return profiled_future
)"},
  };
  return kClasses;
}

const LibraryClass* library_class(const std::string& dotted) {
  for (const LibraryClass& c : library_classes())
    if (std::find(c.spellings.begin(), c.spellings.end(), dotted) != c.spellings.end()) return &c;
  return nullptr;
}

}  // namespace

class FileCompiler {
 public:
  FileCompiler(CompilationUnit& cu, const ParsedFile& file, std::string prefix, CompilerHooks hooks);
  void compile_all();
  // This file's function `name`, compiled on first use; null if none is defined here.
  Function* function(const std::string& name, const SourceRange& use);
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

namespace {

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

 private:
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
  // Note [Unrolled loops]: the elements of `it` when they are known at compile time (a
  // module container, or enumerate/zip over containers and tuples); nullopt, having
  // emitted nothing, when they are not.
  std::optional<std::vector<Unrolled>> unrolled_items(const Tree& it, Env& env);
  bool is_static_iterable(const Tree& it, Env& env);
  std::vector<Unrolled> container_items(Value* container, const SourceRange& range, bool keys, bool values);
  void emit_unrolled(const Tree& target, const std::vector<Unrolled>& items, const std::vector<std::string>& assigned,
                     const std::vector<TreeRef>& body, const SourceRange& range, Env& env, const BodyFn* body_fn);
  void assign_unrolled(const Tree& target, const Unrolled& item, Env& env);
  Value* materialize(const Unrolled& item);
  // The type of `e` when it is a chain of attribute reads from a variable (self.a.b),
  // found without emitting anything; null for any other expression.
  TypePtr path_type(const Tree& e, Env& env);
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
  Value* emit_call(const Tree& e, Env& env, const TypePtr& hint);
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
  Value* emit_range_loop_bounds(const std::vector<Value*>& range_args, Value** lo, Value** step, const SourceRange& r);

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
  struct Closure {
    Function* fn;
    std::vector<Value*> captured;
  };
  std::unordered_map<std::string, Closure> closures_;
  std::vector<std::pair<std::string, TypePtr>> captured_;
  void emit_closure(const Tree& def, Env& env);
  bool upgrading_ = false;  // inside an upgrader's own calls
  Env upgrade_env_;         // scratch scope for an upgrader's If outputs
};

std::vector<TypePtr> param_types(const Function& fn);

// Note [Constant propagation]
// After compiling, as torch does (its ConstantPropagation over immutable types): a node
// whose inputs are all constants of immutable types (numbers, bool, str, None, tuples
// of those) and whose outputs are immutable too is run once now and replaced by its
// results as constants: 1 + 2, range lengths, (5, 6) tuples and their unpacking.
// Operators that write an argument, take varargs, or raise here are left alone (torch
// leaves those that raise too, so the error happens when the code runs).
bool immutable_type(const Type& t) {
  switch (t.kind()) {
    case TypeKind::Int:
    case TypeKind::Float:
    case TypeKind::Bool:
    case TypeKind::Str:
    case TypeKind::None:
    case TypeKind::Complex:
      return true;
    case TypeKind::Tuple:
      return !t.is_named_tuple() &&
             std::all_of(t.contained().begin(), t.contained().end(), [](const TypePtr& c) { return immutable_type(*c); });
    default:
      return false;
  }
}

std::optional<std::vector<IValue>> evaluate_constant_node(const Node* n) {
  // An operator without inputs reads the runtime's state (torch.is_grad_enabled()),
  // which folding would freeze; torch leaves them too.
  if (n->inputs().empty()) return std::nullopt;
  std::vector<IValue> in;
  for (const Value* v : n->inputs()) {
    if (!immutable_type(*v->type())) return std::nullopt;
    auto c = to_ivalue(v);
    if (!c) return std::nullopt;
    in.push_back(*c);
  }
  for (const Value* v : n->outputs())
    if (!immutable_type(*v->type())) return std::nullopt;
  if (n->kind() == sym::prim_TupleConstruct) return std::vector<IValue>{IValue::tuple(in)};
  if (n->kind() == sym::prim_TupleUnpack) return in[0].tupleRef().elements;
  if (n->kind() == sym::prim_TupleIndex) {
    const auto& elems = in[0].tupleRef().elements;
    const int64_t i = in[1].toInt();
    if (i < 0 || static_cast<size_t>(i) >= elems.size()) return std::nullopt;
    return std::vector<IValue>{elems[static_cast<size_t>(i)]};
  }
  const Operator* op = n->op();
  if (!op || op->is_mutating() || op->schema().is_vararg || op->schema().is_varret) return std::nullopt;
  // Folding runs the op while compiling, which is also while loading an archive's code:
  // a string whose length comes from an int ("a".ljust(1 << 33), s.expandtabs(n)) would
  // be built then, from a few bytes of a file. Large ones are left to run when the
  // program does.
  constexpr int64_t kMaxFoldedWidth = int64_t{1} << 16;
  const bool makes_str = std::any_of(n->outputs().begin(), n->outputs().end(),
                                     [](const Value* v) { return v->type()->kind() == TypeKind::Str; });
  if (makes_str && std::any_of(in.begin(), in.end(), [&](const IValue& v) {
        return v.isInt() && (v.toInt() > kMaxFoldedWidth || v.toInt() < -kMaxFoldedWidth);
      }))
    return std::nullopt;
  Stack stack(in.begin(), in.end());
  try {
    op->operation()(stack);
  } catch (const Error&) {
    return std::nullopt;
  } catch (const std::bad_alloc&) {  // as above, for what the guard does not foresee:
    return std::nullopt;             // the program meets the same refusal when it runs
  } catch (const std::length_error&) {
    return std::nullopt;
  }
  if (stack.size() != n->outputs().size()) return std::nullopt;
  for (size_t i = 0; i < stack.size(); ++i)  // a result must be what the node's type says
    if (!type_of(stack[i])->is_subtype_of(*n->output(i)->type())) return std::nullopt;
  return std::vector<IValue>(stack.begin(), stack.end());
}

// Tuples built and then only read field by field (torch.max(x, 1).values) end up
// unused; torch's dead code elimination drops them, and so does this.
void remove_unused_tuples(Block* b) {
  std::vector<Node*> nodes(b->nodes().begin(), b->nodes().end());
  for (auto it = nodes.rbegin(); it != nodes.rend(); ++it) {
    Node* n = *it;
    for (Block* sub : n->blocks()) remove_unused_tuples(sub);
    if (n->kind() == sym::prim_TupleConstruct && !n->output()->has_uses()) n->destroy();
  }
}

void propagate_constants(Graph& g, Block* b) {
  for (Node* n = b->nodes().begin() == b->nodes().end() ? nullptr : *b->nodes().begin(); n && n != b->return_node();) {
    Node* next = n->next();
    for (Block* sub : n->blocks()) propagate_constants(g, sub);
    if (n->kind() != sym::prim_Constant && n->blocks().empty() && !n->outputs().empty()) {
      if (auto values = evaluate_constant_node(n)) {
        InsertPointGuard guard(g, n);
        for (size_t i = 0; i < values->size(); ++i) {
          Value* c = g.insert_constant((*values)[i], n->source_range());
          c->set_type(n->output(i)->type());
          n->output(i)->replace_all_uses_with(c);
        }
        n->destroy();
      }
    }
    n = next;
  }
}

// "a.b.c" for an Attribute chain over a Name, else "".
// Worth naming a value after: not a temporary's spelling (_0, _12).
bool meaningful_name(const std::string& name) {
  if (name.empty() || name[0] == '$') return false;
  if (name[0] != '_') return true;
  return !std::all_of(name.begin() + 1, name.end(), ascii_digit);
}

std::string dotted_name(const Tree& t) {
  if (t.kind() == TreeKind::Name) return t.str();
  if (t.kind() != TreeKind::Attribute) return "";
  std::string base = dotted_name(AttributeView(t).value());
  return base.empty() ? "" : base + "." + AttributeView(t).name();
}

// The decorator's dotted name: "staticmethod", "torch.jit.unused" (a call's callee).
std::string decorator_name(const Tree& d) {
  return dotted_name(d.kind() == TreeKind::Call ? CallView(d).callee() : d);
}

bool has_decorator(const DefView& def, std::string_view name) {
  for (const auto& d : def.decorators()) {
    const std::string n = decorator_name(*d);
    if (n == name || (n.size() > name.size() && n.ends_with(name) && n[n.size() - name.size() - 1] == '.')) return true;
  }
  return false;
}

// The member `name` of enum type t as a value.
IValue enum_value(const TypePtr& t, const std::string& name) {
  const EnumType* e = t->as_enum();
  for (const auto& [n, v] : e->members())
    if (n == name) return IValue(make_intrusive<EnumImpl>(std::static_pointer_cast<const EnumType>(t), n, v));
  TL_INTERNAL_ASSERT(false, "enum_value of a member the enum has");
  return IValue();
}

// --- constants for defaults ------------------------------------------------------------

std::optional<IValue> constant_of_tree(const Tree& t) {
  switch (t.kind()) {
    case TreeKind::IntLiteral:
      return IValue(t.int_value());
    case TreeKind::FloatLiteral:
      return IValue(t.float_value());
    case TreeKind::StringLiteral:
      return IValue(t.str());
    case TreeKind::TrueLiteral:
      return IValue(true);
    case TreeKind::FalseLiteral:
      return IValue(false);
    case TreeKind::NoneLiteral:
      return IValue();
    case TreeKind::UnaryOp:
      if (t.op() == TokenKind::Minus) {
        auto v = constant_of_tree(*t.child(0));
        if (v && v->isInt()) return IValue(-v->toInt());
        if (v && v->isDouble()) return IValue(-v->toDouble());
      }
      return std::nullopt;
    case TreeKind::TupleLiteral:
    case TreeKind::ListLiteral: {
      std::vector<IValue> elems;
      for (const auto& c : t.children()) {
        auto v = constant_of_tree(*c);
        if (!v) return std::nullopt;
        elems.push_back(*v);
      }
      if (t.kind() == TreeKind::TupleLiteral) return IValue::tuple(std::move(elems));
      std::vector<TypePtr> ts;
      for (const auto& e : elems) ts.push_back(type_of(e));
      return IValue::list(std::move(elems), unify_type_list(ts).value_or(Type::int_()));
    }
    default:
      return std::nullopt;
  }
}

// torch.float32 and friends: the dtype attribute names of the torch module, as ints.
std::optional<int64_t> torch_dtype(const std::string& name) {
  static const std::unordered_map<std::string, DType> kNames = {
      {"float32", DType::Float}, {"float", DType::Float},   {"float64", DType::Double}, {"double", DType::Double},
      {"float16", DType::Half},  {"half", DType::Half},     {"bfloat16", DType::BFloat16}, {"int64", DType::Long},
      {"long", DType::Long},     {"int32", DType::Int},     {"int", DType::Int},       {"int16", DType::Short},
      {"short", DType::Short},   {"int8", DType::Char},     {"uint8", DType::Byte},    {"bool", DType::Bool},
      {"complex64", DType::ComplexFloat}, {"complex128", DType::ComplexDouble}};
  auto it = kNames.find(name);
  if (it == kNames.end()) return std::nullopt;
  return static_cast<int64_t>(it->second);
}

// --- the function ------------------------------------------------------------------------

TypePtr FunctionCompiler::parse_annotation(const Tree& ann, std::optional<int64_t>* broadcast) {
  return file_.parse_annotation(ann, broadcast);
}

GraphFunction* FunctionCompiler::compile() {
  DefView def(def_);
  Env env;
  graph_->set_insert_point(graph_->block());
  const Tree* type_comment = def.type_comment();
  std::vector<std::optional<IValue>> defaults;
  std::vector<std::pair<size_t, int64_t>> broadcasting;  // (parameter, N) of BroadcastingListN
  size_t i = 0;
  for (const auto& p : def.params()) {
    ParamView param(*p);
    TypePtr t = Type::tensor();
    if (i == 0 && self_type_) t = self_type_;
    std::optional<int64_t> broadcast;
    if (param.annotation()) t = parse_annotation(*param.annotation(), &broadcast);
    if (broadcast) broadcasting.emplace_back(i, *broadcast);
    else if (type_comment && i < FuncTypeCommentView(*type_comment).arg_types().size())
      t = parse_annotation(*FuncTypeCommentView(*type_comment).arg_types()[i]);
    Value* v = graph_->add_input(param.name());
    v->set_type(t);
    env.set(param.name(), v);
    if (param.default_value()) {
      auto c = constant_of_tree(*param.default_value());
      if (!c) fail(param.default_value()->range(), "default arguments must be constants");
      if (t->kind() == TypeKind::Float && c->isInt()) c = IValue(static_cast<double>(c->toInt()));
      // BroadcastingList2[int] = 0 defaults to [0, 0], as torch broadcasts the default.
      if (broadcast && (c->isInt() || c->isDouble()) && t->kind() == TypeKind::List)
        c = IValue::list(std::vector<IValue>(static_cast<size_t>(*broadcast), *c), t->contained()[0]);
      defaults.push_back(*c);
    } else {
      defaults.push_back(std::nullopt);
    }
    ++i;
  }
  for (const auto& [name, type] : captured_) {
    Value* v = graph_->add_input(name);
    v->set_type(type);
    env.set(name, v);
    defaults.push_back(std::nullopt);
  }
  if (def.return_annotation()) return_type_ = parse_annotation(*def.return_annotation());
  else if (type_comment) return_type_ = parse_annotation(FuncTypeCommentView(*type_comment).return_type());
  else if (!inferring_return_type_ && returns_inside_loop(def.body())) return_type_ = infer_return_type();

  // @torch.jit.unused: the body is never compiled; calling it raises, as in torch.
  // @torch.jit.ignore: torch would call back into Python, which torchlet has not, so a
  // call raises naming the function (as running such a call from a saved archive does).
  const bool unused = has_decorator(def, "unused");
  const bool ignored = has_decorator(def, "ignore");
  Exit exit = Exit::Raise;
  if (unused || ignored) {
    const std::string msg = unused ? "This Python function is annotated to be ignored and cannot be run"
                                   : fmt::format("{} is a Python function (@torch.jit.ignore); torchlet cannot run Python", def.name());
    insert(sym::prim_RaiseException, {constant(IValue(msg)), none()}, def_.range(), 0);
  } else {
    exit = emit_stmts(def.body(), 0, env, /*in_loop=*/false);
  }
  if ((exit == Exit::None || falls_off_end_) && return_type_ && !def.body().empty()) {
    TypeEnv tenv;
    if (!match_type(return_type_, Type::none(), tenv))
      fail(SourceRange(def_.range().source(), def_.range().start(), full_range(*def.body().back()).end()),
           "Function was not annotated as having type None, but does not return along all paths");
  }
  Value* result = exit == Exit::Return ? env.lookup(kReturnVar) : nullptr;
  if (!result) result = exit == Exit::Raise && return_type_ ? graph_->insert_node(graph_->create_uninitialized(return_type_))->output() : none();
  if (return_type_) {
    TypeEnv tenv;
    if (!match_type(return_type_, result->type(), tenv))
      fail(def.return_annotation() ? def.return_annotation()->range() : def_.range(),
           fmt::format("Return value was annotated as having type {} but is actually of type {}",
                       return_type_->annotation_str(), result->type()->annotation_str()));
  }
  if (inferring_return_type_) return nullptr;
  graph_->register_output(result);
  propagate_constants(*graph_, graph_->block());
  remove_unused_tuples(graph_->block());
  graph_->lint();
  GraphFunction* fn = self_type_ ? file_.cu().create_method(self_type_, DefView(def_).name(), graph_, std::move(defaults))
                                 : file_.cu().create_function(qualname_, graph_, std::move(defaults));
  for (const auto& [param, n] : broadcasting) fn->set_broadcasting_list(param, n);
  return fn;
}

// Note [Inferred return types]: a return inside a loop is desugared into a loop-carried
// result, created before the loop, so its type must be known before the returns are
// compiled; torch infers it from the return statements (it desugars after emitting). An
// unannotated function with such a return is compiled once with that result typed Any,
// recording the types its returns unify to, and then for real with that type.
TypePtr FunctionCompiler::infer_return_type() {
  FunctionCompiler pass(file_, def_, qualname_, self_type_);
  pass.inferring_return_type_ = true;
  pass.return_type_ = Type::any();
  pass.captured_ = captured_;
  pass.compile();
  TypePtr t = pass.returned_type_ ? pass.returned_type_ : Type::none();
  // Some path falls off the end: torch unifies that None with the returns (Optional[T]).
  if (pass.falls_off_end_ && t->kind() != TypeKind::None) {
    auto u = unify_types(t, Type::none());
    if (u) t = *u;
  }
  return t;
}

Exit FunctionCompiler::emit_stmts(const std::vector<TreeRef>& stmts, size_t begin, Env& env, bool in_loop) {
  const FileCompiler::Nest nest(file_, begin < stmts.size() ? stmts[begin]->range() : def_.range(), "blocks");
  for (size_t i = begin; i < stmts.size(); ++i) {
    const Tree& s = *stmts[i];
    switch (s.kind()) {
      case TreeKind::If: {
        std::vector<TreeRef> rest;
        if (stmt_may_exit(s, in_loop)) rest.assign(stmts.begin() + static_cast<std::ptrdiff_t>(i) + 1, stmts.end());
        Exit e = emit_if(s, rest, env, in_loop);
        if (!rest.empty() || e != Exit::None) return e;
        break;
      }
      case TreeKind::Return: {
        Value* v = s.child(0) ? emit_expr(*s.child(0), env, inferring_return_type_ ? nullptr : return_type_) : none();
        if (inferring_return_type_) {
          // Note [Inferred return types]: return_type_ is Any here, so unify as below.
          auto u = returned_type_ ? unify_types(returned_type_, v->type()) : std::optional<TypePtr>(v->type());
          if (!u)
            fail(s.range(), fmt::format("Previous return statement returned a value of type {} but this return statement returns a "
                                        "value of type {}", returned_type_->annotation_str(), v->type()->annotation_str()));
          returned_type_ = *u;
        }
        if (return_type_) {
          v = convert(v, return_type_, nullptr, *std::make_unique<TypeEnv>());
          TypeEnv tenv;
          if (!match_type(return_type_, v->type(), tenv))
            fail(s.range(), fmt::format("Return value was annotated as having type {} but is actually of type {}",
                                        return_type_->annotation_str(), v->type()->annotation_str()));
        } else if (returned_type_) {
          auto u = unify_types(returned_type_, v->type());
          if (!u)
            fail(s.range(), fmt::format("Previous return statement returned a value of type {} but this return statement returns a "
                                        "value of type {}", returned_type_->annotation_str(), v->type()->annotation_str()));
          returned_type_ = *u;
        } else {
          returned_type_ = v->type();
        }
        env.set(kReturnVar, v);
        if (!in_loop) return Exit::Return;
        // Note [Returns in loops]: record the value, end the loop; after it, a check of
        // kReturnedVar returns (emit_loop_with_returns). A with body alone needs only
        // kLeftVar (Note [With statements]).
        if (in_real_loop()) {
          env.set(kReturnedVar, constant(IValue(true)));
          env.set(kContinueVar, constant(IValue(false)));
        }
        return leave_scope(env);
      }
      case TreeKind::Raise:
        emit_raise(s, env);
        return Exit::Raise;
      case TreeKind::Break:
        if (!in_loop || !in_real_loop()) fail(s.range(), "'break' outside loop");
        env.set(kContinueVar, constant(IValue(false)));
        return leave_scope(env);
      case TreeKind::Continue:
        if (!in_loop || !in_real_loop()) fail(s.range(), "'continue' not properly in loop");
        if (!loop_conds_.empty() && loop_conds_.back()) env.set(kContinueVar, loop_conds_.back()(env));  // Note [While conditions]
        return leave_scope(env);
      case TreeKind::With: {
        std::vector<TreeRef> rest;
        if (stmt_may_exit(s, in_loop)) rest.assign(stmts.begin() + static_cast<std::ptrdiff_t>(i) + 1, stmts.end());
        Exit e = emit_with(s, rest, env, in_loop);
        if (!rest.empty() || e != Exit::None) return e;
        break;
      }
      case TreeKind::Assign:
      case TreeKind::AnnAssign:
        emit_assign(s, env);
        break;
      case TreeKind::AugAssign:
        emit_aug_assign(s, env);
        break;
      case TreeKind::While:
      case TreeKind::For: {
        const bool returns = contains_return(s.kind() == TreeKind::While ? WhileView(s).body() : ForView(s).body());
        if (returns) {
          if (!return_type_)
            fail(s.range(), "a function that returns from inside a loop needs a return type annotation");
          env.set(kReturnedVar, constant(IValue(false)));
          env.set(kReturnVar, graph_->insert_node(graph_->create_uninitialized(return_type_))->output());
        }
        if (s.kind() == TreeKind::While) emit_while(s, env);
        else emit_for(ForView(s).target(), ForView(s).iterable(), ForView(s).body(), full_range(s), env);
        if (returns) {
          // The loop may have returned: if so, leave with its value; else go on.
          std::vector<TreeRef> rest(stmts.begin() + static_cast<std::ptrdiff_t>(i) + 1, stmts.end());
          return emit_branches(
              env.lookup(kReturnedVar),
              [&](Env& b) {
                if (!in_loop) return Exit::Return;
                if (in_real_loop()) b.set(kContinueVar, constant(IValue(false)));
                return leave_scope(b);
              },
              [&](Env& b) { return emit_stmts(rest, 0, b, in_loop); }, env, in_loop, s.range());
        }
        break;
      }
      case TreeKind::Assert:
        emit_assert(s, env);
        break;
      case TreeKind::Pass:
        if (&s == loop_end_marker_.get() && !loop_conds_.empty() && loop_conds_.back())  // Note [While conditions]
          env.set(kContinueVar, loop_conds_.back()(env));
        break;
      case TreeKind::Import:
        // `import a.b` is skipped, as in archived code; a binding would need a scope of
        // module aliases inside the function (torch refuses every import there).
        if (s.size()) fail(s.range(), "import statements aren't supported");
        break;
      case TreeKind::ExprStmt:
        if (s.child(0)->kind() != TreeKind::StringLiteral) emit_expr(*s.child(0), env);  // docstrings are skipped
        break;
      case TreeKind::Delete:
        emit_delete(s, env);
        break;
      case TreeKind::Def:
        emit_closure(s, env);
        break;
      case TreeKind::ClassDef:
        fail(s.range(), "class definitions inside functions are not supported");
      default:
        fail(s.range(), fmt::format("unexpected {} in a function body", tree_kind_description(s.kind())));
    }
  }
  return Exit::None;
}

// --- if / else ---------------------------------------------------------------------------

// Note [Closures]: torch's printer writes `torch.jit.fork(f, a, b)` as a nested
// parameterless def whose body calls f on values of the enclosing function, then
// `fork(__forked_function)`. torch builds a closure node capturing those values;
// torchlet compiles the def into a function of its own whose trailing parameters are the
// enclosing variables its body names (read when the def runs, as Python's closure reads
// them when fork runs it right after), so fork needs nothing new: prim::fork on that
// function and the captured values. The printer writes such a function as a top-level
// def, which torch reads back as an ordinary fork of a function.
void FunctionCompiler::emit_closure(const Tree& s, Env& env) {
  DefView def(s);
  if (!def.params().empty()) fail(s.range(), "nested function definitions with parameters are not supported");
  if (!def.decorators().empty()) fail(s.range(), "decorators on nested function definitions are not supported");
  std::vector<std::pair<std::string, TypePtr>> captured;
  std::vector<Value*> values;
  std::unordered_set<std::string> seen;
  std::function<void(const Tree&)> scan = [&](const Tree& t) {
    if (t.kind() == TreeKind::Name && !seen.count(t.str())) {
      seen.insert(t.str());
      if (Value* v = env.lookup(t.str())) {
        captured.emplace_back(t.str(), v->type());
        values.push_back(v);
      }
    }
    for (const auto& c : t.children())
      if (c) scan(*c);
  };
  for (const auto& st : def.body()) scan(*st);
  // "__torch__.Net.forward" -> "__torch__.__forked_function_Net_forward" (an identifier,
  // so that the printer can write it as a top-level def), unique within the unit.
  const size_t prefix_end = qualname_.rfind("__torch__.", 0) == 0 ? std::string("__torch__.").size() : 0;
  std::string outer = qualname_.substr(prefix_end);
  std::replace(outer.begin(), outer.end(), '.', '_');
  const std::string base = qualname_.substr(0, prefix_end) + def.name() + "_" + outer;
  std::string name = base;
  for (size_t k = 1; file_.cu().find_function(name); ++k) name = fmt::format("{}_{}", base, k);
  FunctionCompiler closure(file_, s, name);
  closure.set_captured(std::move(captured));
  closures_[def.name()] = Closure{closure.compile(), std::move(values)};
}

Exit FunctionCompiler::emit_if(const Tree& stmt, const std::vector<TreeRef>& rest, Env& env, bool in_loop) {
  IfView v(stmt);
  const Tree& c = v.condition();
  const CondRefinements refs = refinements_of(c, env);
  Value* cond = emit_expr(c, env);
  // A type test the static types decide (isinstance, `is None`) compiles only the
  // branch it takes, as torch does: the other may not type-check (x == "s" for an int x
  // in an unrolled loop over a tuple).
  if (auto k = to_ivalue(cond); k && k->isBool() && is_type_test(c)) {
    std::vector<TreeRef> stmts = k->toBool() ? v.then_body() : v.else_body();
    stmts.insert(stmts.end(), rest.begin(), rest.end());
    return emit_stmts(stmts, 0, env, in_loop);
  }
  auto branch = [&](const std::vector<TreeRef>& body, const Refinements& r) {
    return [&](Env& benv) {
      apply_refinements(r, benv);
      std::vector<TreeRef> stmts = body;
      stmts.insert(stmts.end(), rest.begin(), rest.end());
      return emit_stmts(stmts, 0, benv, in_loop);
    };
  };
  return emit_branches(cond, branch(v.then_body(), refs.if_true), branch(v.else_body(), refs.if_false), env, in_loop,
                       full_range(stmt));
}

// --- with ----------------------------------------------------------------------------------

Exit FunctionCompiler::leave_scope(Env& env) {
  if (!exit_scopes_.empty() && exit_scopes_.back() == ExitScope::With) env.set(kLeftVar, constant(IValue(true)));
  return Exit::LoopExit;
}

Exit FunctionCompiler::emit_with(const Tree& stmt, const std::vector<TreeRef>& rest, Env& env, bool in_loop) {
  WithView w(stmt);
  std::vector<Value*> managers;
  for (const auto& item_tree : w.items()) {
    WithItemView item(*item_tree);
    Value* m = emit_expr(item.manager(), env);
    const ClassType* cls = m->type()->as_class();
    auto method = [&](const char* name) -> Function* {
      if (!cls) return nullptr;
      Function* f = cls->find_method(name);
      return f ? f : file_.method(*cls, name, item.manager().range());
    };
    // (torch's messages)
    if (!cls) fail(item.manager().range(), "With item expression must return an object");
    Function* enter = method("__enter__");
    Function* exit = method("__exit__");
    if (!enter || !exit)
      fail(item.manager().range(), "Object returned by with item expression does not define __enter__ and __exit__ methods");
    if (enter->schema().arguments.size() != 1)
      fail(item.manager().range(), "__enter__ must have only one argument and one return value");
    if (exit->schema().arguments.size() != 4) fail(item.manager().range(), "__exit__ must have four arguments");
    Node* n = graph_->insert_node(graph_->create(sym::prim_Enter, {m}, 1));
    n->output()->set_type(enter->return_type());
    if (const Tree* target = item.target()) assign_target(*target, n->output(), env);
    managers.push_back(m);
  }
  auto exit_all = [&] {
    for (auto it = managers.rbegin(); it != managers.rend(); ++it)  // torch types Exit's unused output Tensor
      graph_->insert_node(graph_->create(sym::prim_Exit, {*it}, 1))->output()->set_type(Type::tensor());
  };
  if (!stmts_may_exit(w.body(), in_loop)) {
    const Exit e = emit_stmts(w.body(), 0, env, in_loop);
    exit_all();
    return e;
  }
  Value* no_return = nullptr;
  if (contains_return(w.body()) && !env.lookup(kReturnVar)) {
    TL_INTERNAL_ASSERT(return_type_, "a return inside a with statement without the function's return type");
    no_return = graph_->insert_node(graph_->create_uninitialized(return_type_))->output();
    env.set(kReturnVar, no_return);
  }
  Value* not_left = constant(IValue(false));
  env.set(kLeftVar, not_left);
  exit_scopes_.push_back(ExitScope::With);
  const Exit e = emit_stmts(w.body(), 0, env, /*in_loop=*/true);
  exit_scopes_.pop_back();
  exit_all();
  // Where every path left the body, the initial values are dead; torch has none.
  for (Value* v : {no_return, not_left})
    if (v && !v->has_uses() && env.lookup(kReturnVar) != v && env.lookup(kLeftVar) != v) v->node()->destroy();
  if (e == Exit::Raise) return e;
  auto take_exit = [&](Env& b) { return in_loop ? leave_scope(b) : Exit::Return; };
  if (e == Exit::LoopExit) return take_exit(env);  // every path left the body
  // In a loop or with body with nothing after this with, both ways end that body.
  if (in_loop && rest.empty()) return Exit::None;
  return emit_branches(env.lookup(kLeftVar), take_exit, [&](Env& b) { return emit_stmts(rest, 0, b, in_loop); }, env,
                       in_loop, full_range(stmt));
}

CondRefinements FunctionCompiler::refinements_of(const Tree& c, Env& env) {
  switch (c.kind()) {
    case TreeKind::Compare: {
      CompareView cv(c);
      if (cv.num_comparisons() != 1 || (cv.op(0) != TokenKind::Is && cv.op(0) != TokenKind::IsNot)) return {};
      const Tree* name = &cv.operand(0);
      if (name->kind() == TreeKind::NoneLiteral) name = &cv.operand(1);
      else if (cv.operand(1).kind() != TreeKind::NoneLiteral) return {};
      if (name->kind() != TreeKind::Name) return {};
      Value* x = env.lookup(name->str());
      if (!x) return {};
      TypePtr not_none;
      if (x->type()->kind() == TypeKind::Optional) {
        not_none = x->type()->contained()[0];
      } else if (x->type()->kind() == TypeKind::Union) {  // Union[int, List[int], None]
        std::vector<TypePtr> rest;
        for (const auto& m : x->type()->contained())
          if (m->kind() != TypeKind::None) rest.push_back(m);
        if (rest.size() == x->type()->contained().size() || rest.empty()) return {};
        not_none = Type::union_of(rest);
      } else {
        return {};
      }
      Refinements r{{name->str(), not_none}};
      if (cv.op(0) == TokenKind::IsNot) return {r, {}};
      return {{}, r};
    }
    case TreeKind::UnaryOp: {
      if (c.op() != TokenKind::Not) return {};
      CondRefinements r = refinements_of(*c.child(0), env);
      return {r.if_false, r.if_true};
    }
    case TreeKind::BoolOp: {
      CondRefinements a = refinements_of(*c.child(0), env), b = refinements_of(*c.child(1), env);
      if (c.op() == TokenKind::And) return {refinements_union(a.if_true, b.if_true), refinements_intersection(a.if_false, b.if_false)};
      return {refinements_intersection(a.if_true, b.if_true), refinements_union(a.if_false, b.if_false)};
    }
    case TreeKind::Call: {
      CallView call(c);
      const bool is_isinstance =
          (call.callee().kind() == TreeKind::Name && call.callee().str() == "isinstance" && !env.lookup("isinstance")) ||
          (dotted_name(call.callee()) == "torch.jit.isinstance" && !env.lookup("torch"));
      if (!is_isinstance || call.args().size() != 2 || call.args()[0]->kind() != TreeKind::Name) return {};
      const std::string& name = call.args()[0]->str();
      Value* x = env.lookup(name);
      if (x && x->type()->kind() == TypeKind::Any) {  // Any: a passed test gives the tested type
        CondRefinements out;
        out.if_true.push_back({name, Type::union_of(isinstance_types(*call.args()[1]))});
        return out;
      }
      if (!x || (x->type()->kind() != TypeKind::Optional && x->type()->kind() != TypeKind::Union)) return {};
      std::vector<TypePtr> members = x->type()->contained();
      if (x->type()->kind() == TypeKind::Optional) members.push_back(Type::none());
      const std::vector<TypePtr> tested = isinstance_types(*call.args()[1]);
      std::vector<TypePtr> yes, no;
      for (const auto& m : members) {
        const bool is = std::any_of(tested.begin(), tested.end(), [&](const TypePtr& t) { return m->is_subtype_of(*t); });
        (is ? yes : no).push_back(m);
      }
      CondRefinements out;
      if (!yes.empty() && !no.empty()) {
        out.if_true.push_back({name, Type::union_of(yes)});
        out.if_false.push_back({name, Type::union_of(no)});
      }
      return out;
    }
    default:
      return {};
  }
}

void FunctionCompiler::apply_refinements(const Refinements& r, Env& env) {
  for (const auto& [name, type] : r) {
    Value* x = env.lookup(name);
    if (!x || *x->type() == *type) continue;
    env.refine(name, graph_->insert_node(graph_->create_unchecked_cast(x, type))->output());
  }
}

std::vector<TypePtr> FunctionCompiler::isinstance_types(const Tree& t) {
  std::vector<TypePtr> out;
  if (t.kind() == TreeKind::TupleLiteral) {
    for (const auto& c : t.children()) {
      auto more = isinstance_types(*c);
      out.insert(out.end(), more.begin(), more.end());
    }
    return out;
  }
  // isinstance(x, list) / (x, dict) and friends: the Python classes, as torch allows.
  if (t.kind() == TreeKind::Name) {
    const std::string& n = t.str();
    if (n == "list") return {Type::list(Type::any())};
    if (n == "dict") return {Type::dict(Type::any(), Type::any())};
    if (n == "tuple") return {Type::tuple({})};
  }
  out.push_back(parse_annotation(t));
  return out;
}

Value* FunctionCompiler::emit_isinstance(const Tree& e, Env& env) {
  CallView c(e);
  if (c.args().size() != 2) fail(e.range(), "isinstance() takes a value and a type");
  Value* v = emit_expr(*c.args()[0], env);
  const std::vector<TypePtr> types = isinstance_types(*c.args()[1]);
  const TypePtr& vt = v->type();
  // Resolved statically when the static type decides it, as torch does.
  for (const auto& t : types)
    if (vt->is_subtype_of(*t)) return constant(IValue(true), e.range());
  if (vt->kind() != TypeKind::Optional && vt->kind() != TypeKind::Union && vt->kind() != TypeKind::Any)
    return constant(IValue(false), e.range());
  Node* n = graph_->insert_node(graph_->create_isinstance(v, types));
  n->set_source_range(e.range());
  return n->output();
}

Exit FunctionCompiler::emit_branches(Value* cond, const std::function<Exit(Env&)>& then_fn,
                                     const std::function<Exit(Env&)>& else_fn, Env& env, bool in_loop,
                                     const SourceRange& range, Node** if_out) {
  cond = convert(cond, Type::bool_(), nullptr, *std::make_unique<TypeEnv>());
  if (cond->type()->kind() != TypeKind::Bool) fail(range, fmt::format("expected a bool condition, found {}", cond->type()->annotation_str()));
  Node* n = graph_->insert_node(graph_->create(sym::prim_If, {cond}, 0));
  n->set_source_range(range);
  if (if_out) *if_out = n;
  Block* blocks[2] = {n->add_block(), n->add_block()};
  Env envs[2];
  Exit exits[2];
  for (int b = 0; b < 2; ++b) {
    envs[b].parent = &env;
    InsertPointGuard guard(*graph_);
    graph_->set_insert_point(blocks[b]);
    exits[b] = (b == 0 ? then_fn : else_fn)(envs[b]);
  }
  // A branch that falls off the end of the function returns None.
  for (int b = 0; b < 2; ++b) {
    if (exits[b] == Exit::None && exits[1 - b] == Exit::Return) {
      if (in_loop) fail(range, "return statements inside loops are not supported yet");
      falls_off_end_ = true;
      InsertPointGuard guard(*graph_);
      graph_->set_insert_point(blocks[b]);
      envs[b].set(kReturnVar, none());
      exits[b] = Exit::Return;
    }
  }
  // Merge: every name either branch assigned that is visible in both.
  std::vector<std::string> names;
  for (int b = 0; b < 2; ++b)
    for (const auto& name : envs[b].order)
      if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
  // Where the other branch raised, what this one refined holds after the if.
  for (int b = 0; b < 2; ++b)
    if (exits[1 - b] == Exit::Raise && exits[b] != Exit::Raise)
      for (const auto& name : envs[b].refined)
        if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
  for (const auto& name : names) {
    Value* vals[2] = {envs[0].lookup(name), envs[1].lookup(name)};
    for (int b = 0; b < 2; ++b) {
      if (exits[b] == Exit::Raise && vals[1 - b]) {
        InsertPointGuard guard(*graph_);
        graph_->set_insert_point(blocks[b]);
        vals[b] = graph_->insert_node(graph_->create_uninitialized(vals[1 - b]->type()))->output();
      }
    }
    if (!vals[0] != !vals[1] && name[0] != '$' && exits[vals[0] ? 1 : 0] == Exit::None) {
      // Defined on one branch only: an error if used after the if (emit_name).
      unusable_[name] = {fmt::format("{} is not defined in the {} branch", name, vals[0] ? "false" : "true"), {}};
      continue;
    }
    if (!vals[0] || !vals[1]) continue;
    if (vals[0] == vals[1]) {
      // Both branches left the same value (`x = y` on each side, `z if c else z`): no
      // output needed, but it is the name's value after the if, even for a new name.
      env.set(name, vals[0]);
      continue;
    }
    // The declared type (the return annotation for returns) unifies what fits it:
    // int and str returned from a function annotated Union[int, str].
    TypePtr hint = name == kReturnVar ? return_type_ : nullptr;
    if (auto d = declared_.find(name); d != declared_.end()) hint = d->second;
    auto unified = unify_types(vals[0]->type(), vals[1]->type(), false, hint);
    if (!unified) {
      if (name[0] == '$') fail(range, fmt::format("Previous return statement returned a value of type {} but this return statement returns a value of type {}",
                                               vals[0]->type()->annotation_str(), vals[1]->type()->annotation_str()));
      // Unusable after the if: torch refuses it only where it is used (emit_name).
      unusable_[name] = {fmt::format("Type mismatch: {} is set to type {} in the true branch and type {} in the false branch", name,
                                     vals[0]->type()->annotation_str(), vals[1]->type()->annotation_str()),
                         range};
      env.set(name, nullptr);
      continue;
    }
    blocks[0]->register_output(vals[0]);
    blocks[1]->register_output(vals[1]);
    Value* out = n->add_output();
    out->set_type(*unified);
    if (name[0] != '$') out->set_debug_name(name);
    env.set(name, out);
  }
  if (exits[0] == Exit::Raise) return exits[1];
  if (exits[1] == Exit::Raise) return exits[0];
  if (exits[0] == exits[1]) return exits[0];
  return Exit::None;  // a loop iteration that ended in either branch
}

// --- loops ---------------------------------------------------------------------------------

void FunctionCompiler::emit_loop(Value* max_trip, Value* initial_cond, const std::vector<std::string>& assigned,
                                 const std::function<void(Env&, Value*)>& bind, const std::vector<TreeRef>& body,
                                                 const std::function<Value*(Env&)>& next_cond, Env& env, const SourceRange& range,
                                 const BodyFn* body_fn) {
  std::vector<std::string> carried;
  for (const auto& name : assigned)
    if (env.lookup(name)) carried.push_back(name);
  for (const char* name : {kReturnVar, kReturnedVar})  // Note [Returns in loops]
    if (contains_return(body) && env.lookup(name)) carried.push_back(name);
  std::vector<Value*> inputs{max_trip, initial_cond};
  for (const auto& name : carried) inputs.push_back(env.lookup(name));
  Node* loop = graph_->insert_node(graph_->create(sym::prim_Loop, inputs, 0));
  loop->set_source_range(range);
  Block* b = loop->add_block();
  Value* counter = b->add_input();
  counter->set_type(Type::int_());
  Env benv;
  benv.parent = &env;
  carried_types_.emplace_back();
  for (const auto& name : carried) {
    Value* in = b->add_input(name[0] == '$' ? "" : name);
    TypePtr t = env.lookup(name)->type();
    if (auto d = declared_.find(name); d != declared_.end() && t->is_subtype_of(*d->second)) t = d->second;
    in->set_type(t);
    benv.set(name, in);
    if (name[0] != '$') carried_types_.back()[name] = t;
  }
  {
    InsertPointGuard guard(*graph_);
    graph_->set_insert_point(b);
    benv.set(kContinueVar, constant(IValue(true)));
    bind(benv, counter);
    // Note [While conditions]: a while loop's next condition is computed where the body
    // goes on — at its end and at each `continue` — so with exits it lands inside the
    // branches that go on (a `break` gives False), as torch places it. The end is marked
    // by a statement appended to the body, which travels with the statements Note [Exits]
    // moves into branches.
    loop_conds_.push_back(next_cond);
    exit_scopes_.push_back(ExitScope::Loop);
    if (body_fn) {
      (*body_fn)(benv);
    } else if (next_cond) {
      std::vector<TreeRef> marked = body;
      marked.push_back(loop_end_marker_);
      emit_stmts(marked, 0, benv, /*in_loop=*/true);
    } else {
      emit_stmts(body, 0, benv, /*in_loop=*/true);
    }
    exit_scopes_.pop_back();
    loop_conds_.pop_back();
    if (std::find(carried.begin(), carried.end(), kGoVar) != carried.end()) benv.set(kGoVar, benv.lookup(kContinueVar));
    Value* cond = benv.lookup(kContinueVar);
    if (next_cond && body_fn) cond = next_cond(benv);
    carried_types_.pop_back();
    b->register_output(cond);
    for (const auto& name : carried) {
      Value* v = benv.lookup(name);
      TypeEnv tenv;
      if (!match_type(b->inputs()[b->outputs().size()]->type(), v->type(), tenv))
        fail(range, fmt::format("Variable '{}' previously had type {} but is now being assigned to a value of type {}",
                                name, b->inputs()[b->outputs().size()]->type()->annotation_str(), v->type()->annotation_str()));
      b->register_output(v);
    }
  }
  for (size_t i = 0; i < carried.size(); ++i) {
    Value* out = loop->add_output();
    out->set_type(b->inputs()[i + 1]->type());
    if (carried[i][0] != '$') out->set_debug_name(carried[i]);
    env.set(carried[i], out);
  }
}

void FunctionCompiler::emit_while(const Tree& stmt, Env& env) {
  WhileView w(stmt);
  std::vector<std::string> assigned;
  for (const auto& s : w.body()) collect_assigned(*s, assigned);
  Value* cond = convert(emit_expr(w.condition(), env), Type::bool_(), nullptr, *std::make_unique<TypeEnv>());
  emit_loop(constant(IValue(std::numeric_limits<int64_t>::max())), cond, assigned, [](Env&, Value*) {}, w.body(),
            [&](Env& e) { return emit_expr(w.condition(), e); }, env, stmt.range());
}

void FunctionCompiler::emit_for(const Tree& target, const Tree& it, const std::vector<TreeRef>& body,
                                const SourceRange& range, Env& env, const BodyFn* body_fn) {
  std::vector<std::string> assigned;
  collect_target(target, assigned);
  for (const auto& s : body) collect_assigned(*s, assigned);
  // range(...)
  if (it.kind() == TreeKind::Call && CallView(it).callee().kind() == TreeKind::Name &&
      CallView(it).callee().str() == "range" && !env.lookup("range")) {
    std::vector<Value*> bounds;
    for (const auto& a : CallView(it).args()) bounds.push_back(emit_expr(*a, env));
    if (bounds.empty() || bounds.size() > 3) fail(it.range(), "range expected 1 to 3 arguments");
    for (Value* v : bounds)
      if (v->type()->kind() != TypeKind::Int) fail(it.range(), fmt::format("range() expects int arguments, found {}", v->type()->annotation_str()));
    Value* lo = nullptr;
    Value* step = nullptr;
    Value* trips = bounds.size() == 1 ? bounds[0] : emit_range_loop_bounds(bounds, &lo, &step, it.range());
    emit_loop(trips, constant(IValue(true)), assigned,
              [&](Env& e, Value* i) {
                Value* idx = lo ? emit_builtin(Symbol::from_qual_string("aten::__derive_index"),
                                               {{i, it.range()}, {lo, it.range()}, {step, it.range()}}, {}, it.range())
                                : i;
                assign_target(target, idx, e);
              },
              body, nullptr, env, range, body_fn);
    return;
  }
  if (auto items = unrolled_items(it, env)) return emit_unrolled(target, *items, assigned, body, range, env, body_fn);
  // enumerate(xs) / zip(a, b, ...): one loop over the shortest sequence, the target
  // unpacking the (index or element) tuple each iteration.
  if (it.kind() == TreeKind::Call && CallView(it).callee().kind() == TreeKind::Name &&
      (CallView(it).callee().str() == "enumerate" || CallView(it).callee().str() == "zip") &&
      !env.lookup(CallView(it).callee().str())) {
    const bool is_enumerate = CallView(it).callee().str() == "enumerate";
    const SourceRange& r = it.range();
    // Each sequence: a list or string indexed by the trip count, or a range(...) whose
    // element is derived from it.
    struct Seq {
      Value* items = nullptr;
      Value* lo = nullptr;
      Value* step = nullptr;
      Value* len = nullptr;
    };
    std::vector<Seq> seqs;
    Value* start = nullptr;  // enumerate(xs, start)
    const auto& call_args = CallView(it).args();
    for (size_t k = 0; k < call_args.size(); ++k) {
      const Tree& a = *call_args[k];
      if (is_enumerate && k == 1) {
        start = emit_expr(a, env);
        continue;
      }
      Seq sq;
      if (a.kind() == TreeKind::Call && CallView(a).callee().kind() == TreeKind::Name && CallView(a).callee().str() == "range" &&
          !env.lookup("range")) {
        std::vector<Value*> bounds;
        for (const auto& b : CallView(a).args()) bounds.push_back(emit_expr(*b, env));
        if (bounds.empty() || bounds.size() > 3) fail(a.range(), "range expected 1 to 3 arguments");
        if (bounds.size() == 1) bounds.insert(bounds.begin(), constant(IValue(0)));
        sq.len = emit_range_loop_bounds(bounds, &sq.lo, &sq.step, a.range());
      } else {
        Value* v = emit_expr(a, env);
        if (v->type()->kind() == TypeKind::Dict) v = emit_builtin(Symbol::from_qual_string("aten::keys"), {{v, a.range()}}, {}, a.range());
        if (v->type()->kind() != TypeKind::List && v->type()->kind() != TypeKind::Str)
          fail(a.range(), fmt::format("{}() iterates over lists, strings and ranges here, not {}", CallView(it).callee().str(),
                                      v->type()->annotation_str()));
        sq.items = v;
        sq.len = emit_builtin(Symbol::from_qual_string("aten::len"), {{v, r}}, {}, r);
      }
      seqs.push_back(sq);
    }
    for (const auto& kw : CallView(it).keywords()) {
      if (!is_enumerate || KeywordView(*kw).name() != "start") fail(kw->range(), "unexpected keyword argument");
      start = emit_expr(KeywordView(*kw).value(), env);
    }
    if (seqs.empty() || (is_enumerate && seqs.size() != 1)) fail(r, "enumerate() takes one sequence, zip() at least one");
    // The trip count is prim::min over the lengths (enumerate's first being unbounded),
    // as torch spells it.
    std::vector<Value*> lens;
    if (is_enumerate) {  // unbounded: as many as the index can count from `start` (torch's spelling)
      Value* unbounded = constant(IValue(std::numeric_limits<int64_t>::max()));
      lens.push_back(start ? emit_builtin(Symbol::from_qual_string("aten::__range_length"),
                                          {{start, r}, {unbounded, r}, {constant(IValue(int64_t{1})), r}}, {}, r)
                           : unbounded);
    }
    for (const Seq& sq : seqs) lens.push_back(sq.len);
    Value* trips = emit_builtin(Symbol::from_qual_string("prim::min"),
                                {{graph_->insert_node(graph_->create_list(Type::int_(), lens))->output(), r}}, {}, r);
    emit_loop(trips, constant(IValue(true)), assigned,
              [&](Env& e, Value* i) {
                std::vector<Value*> items;
                if (is_enumerate)  // start + i, spelled as torch spells it
                  items.push_back(start ? emit_builtin(Symbol::from_qual_string("aten::__derive_index"),
                                                       {{i, r}, {start, r}, {constant(IValue(int64_t{1})), r}}, {}, r)
                                        : i);
                for (const Seq& sq : seqs) {
                  items.push_back(sq.items ? emit_builtin(Symbol::from_qual_string("aten::__getitem__"), {{sq.items, r}, {i, r}}, {}, r)
                                           : emit_builtin(Symbol::from_qual_string("aten::__derive_index"),
                                                          {{i, r}, {sq.lo, r}, {sq.step, r}}, {}, r));
                }
                assign_values(target, items, e);
              },
              body, nullptr, env, range, body_fn);
    return;
  }
  Value* seq = nullptr;
  if (it.kind() == TreeKind::Name && !env.lookup(it.str())) {  // for m in SomeEnum: its members, in order
    if (TypePtr t = file_.resolve_type(it.str()); t && t->as_enum()) {
      std::vector<IValue> members;
      for (const auto& [name, v] : t->as_enum()->members()) members.push_back(enum_value(t, name));
      seq = constant(IValue::list(std::move(members), t), it.range());
    }
  }
  if (!seq) seq = emit_expr(it, env);
  const TypePtr& t = seq->type();
  if (t->kind() == TypeKind::Tuple) {  // unrolled, as torch does
    std::vector<Unrolled> items;
    for (Value* elem : graph_->insert_node(graph_->create_tuple_unpack(seq))->outputs()) items.push_back({elem, {}});
    return emit_unrolled(target, items, assigned, body, range, env, body_fn);
  }
  if (container_kind(t) != ContainerKind::None)
    return emit_unrolled(target,
                         container_items(seq, it.range(), container_kind(t) == ContainerKind::Dict,
                                         container_kind(t) == ContainerKind::List),
                         assigned, body, range, env, body_fn);
  if (t->kind() == TypeKind::Dict) seq = emit_builtin(Symbol::from_qual_string("aten::keys"), {{seq, it.range()}}, {}, it.range());
  if (seq->type()->kind() != TypeKind::List && seq->type()->kind() != TypeKind::Str && seq->type()->kind() != TypeKind::Tensor)
    fail(range, fmt::format("'{}' object is not iterable", seq->type()->annotation_str()));
  Value* len = emit_builtin(Symbol::from_qual_string("aten::len"), {{seq, it.range()}}, {}, it.range());
  emit_loop(len, constant(IValue(true)), assigned,
            [&](Env& e, Value* i) {
              Value* elem = seq->type()->kind() == TypeKind::Tensor
                                ? emit_builtin(Symbol::from_qual_string("aten::select"),
                                               {{seq, it.range()}, {constant(IValue(0)), it.range()}, {i, it.range()}}, {}, it.range())
                                : emit_builtin(Symbol::from_qual_string("aten::__getitem__"), {{seq, it.range()}, {i, it.range()}}, {}, it.range());
              assign_target(target, elem, e);
            },
            body, nullptr, env, range, body_fn);
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

TypePtr FunctionCompiler::path_type(const Tree& e, Env& env) {
  if (e.kind() == TreeKind::Name) {
    Value* v = env.lookup(e.str());
    return v ? v->type() : nullptr;
  }
  if (e.kind() != TreeKind::Attribute) return nullptr;
  TypePtr base = path_type(AttributeView(e).value(), env);
  const ClassType* cls = base ? base->as_class() : nullptr;
  if (!cls) return nullptr;
  auto slot = cls->find_attribute(AttributeView(e).name());
  return slot ? cls->attributes()[*slot].type : nullptr;
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

bool FunctionCompiler::is_static_iterable(const Tree& it, Env& env) {
  if (it.kind() == TreeKind::TupleLiteral) return true;
  if (it.kind() != TreeKind::Call) {
    TypePtr t = path_type(it, env);
    return t && (t->kind() == TypeKind::Tuple || container_kind(t) != ContainerKind::None);
  }
  CallView call(it);
  const Tree& callee = call.callee();
  if (callee.kind() == TreeKind::Attribute) {
    const std::string& m = AttributeView(callee).name();
    return (m == "items" || m == "keys" || m == "values") && call.args().empty() && call.keywords().empty() &&
           container_kind(path_type(AttributeView(callee).value(), env)) == ContainerKind::Dict;
  }
  if (callee.kind() != TreeKind::Name || env.lookup(callee.str()) || call.args().empty()) return false;
  if (callee.str() == "enumerate") return is_static_iterable(*call.args()[0], env);
  if (callee.str() != "zip") return false;
  return std::any_of(call.args().begin(), call.args().end(), [&](const TreeRef& a) { return is_static_iterable(*a, env); });
}

std::optional<std::vector<Unrolled>> FunctionCompiler::unrolled_items(const Tree& it, Env& env) {
  if (!is_static_iterable(it, env)) return std::nullopt;
  if (it.kind() != TreeKind::Call) {
    Value* v = emit_expr(it, env);
    if (container_kind(v->type()) != ContainerKind::None)
      return container_items(v, it.range(), container_kind(v->type()) == ContainerKind::Dict,
                             container_kind(v->type()) == ContainerKind::List);
    std::vector<Unrolled> items;
    for (Value* elem : graph_->insert_node(graph_->create_tuple_unpack(v))->outputs()) items.push_back({elem, {}});
    return items;
  }
  CallView call(it);
  const Tree& callee = call.callee();
  if (callee.kind() == TreeKind::Attribute) {  // self.d.items() / .keys() / .values() of a ModuleDict
    const std::string& m = AttributeView(callee).name();
    return container_items(emit_expr(AttributeView(callee).value(), env), it.range(), m != "values", m != "keys");
  }
  if (callee.str() == "enumerate") {
    std::vector<Unrolled> inner = *unrolled_items(*call.args()[0], env);
    const Tree* start_tree = call.args().size() > 1 ? call.args()[1].get() : nullptr;
    for (const auto& kw : call.keywords()) {
      if (KeywordView(*kw).name() != "start" || start_tree) fail(kw->range(), "unexpected keyword argument");
      start_tree = &KeywordView(*kw).value();
    }
    if (call.args().size() > 2) fail(it.range(), "enumerate() takes a sequence and an optional start");
    Value* start = start_tree ? emit_expr(*start_tree, env) : constant(IValue(0));
    if (start->type()->kind() != TypeKind::Int) fail(start_tree->range(), "enumerate() start must be an int");
    const auto k = to_ivalue(start);
    std::vector<Unrolled> out;
    for (size_t i = 0; i < inner.size(); ++i) {
      const auto n = static_cast<int64_t>(i);
      Value* index = k ? constant(IValue(k->toInt() + n), it.range())
                       : emit_builtin(Symbol::from_qual_string("aten::add"), {{start, it.range()}, {constant(IValue(n)), it.range()}},
                                      {}, it.range());
      out.push_back({nullptr, {{index, {}}, std::move(inner[i])}});
    }
    return out;
  }
  // zip: every argument needs a length known now, as in torch; the shortest decides.
  if (!call.keywords().empty()) fail(call.keywords()[0]->range(), "unexpected keyword argument");
  for (const auto& a : call.args())
    if (!is_static_iterable(*a, env))
      fail(it.range(), "Can not iterate over a module list or tuple with a value that does not have a statically determinable length\n");
  std::vector<std::vector<Unrolled>> seqs;
  size_t n = std::numeric_limits<size_t>::max();
  for (const auto& a : call.args()) {
    seqs.push_back(*unrolled_items(*a, env));
    n = std::min(n, seqs.back().size());
  }
  std::vector<Unrolled> out(n);
  for (size_t i = 0; i < n; ++i)
    for (auto& sq : seqs) out[i].parts.push_back(std::move(sq[i]));
  return out;
}

Value* FunctionCompiler::emit_range_loop_bounds(const std::vector<Value*>& b, Value** lo, Value** step, const SourceRange& r) {
  *lo = b[0];
  *step = b.size() == 3 ? b[2] : constant(IValue(1));
  return emit_builtin(Symbol::from_qual_string("aten::__range_length"), {{b[0], r}, {b[1], r}, {*step, r}}, {}, r);
}

// --- del ------------------------------------------------------------------------------------

// `del x` unbinds a name; `del xs[i]` / `del d[k]` is aten::Delete, as torch compiles it.
void FunctionCompiler::emit_delete(const Tree& stmt, Env& env) {
  for (const auto& target : stmt.children()) {
    if (target->kind() == TreeKind::Name) {
      if (!env.lookup(target->str())) fail(target->range(), fmt::format("undefined value {}", target->str()));
      env.set(target->str(), nullptr);
      continue;
    }
    if (target->kind() != TreeKind::Subscript || SubscriptView(*target).items().size() != 1 ||
        SubscriptView(*target).items()[0]->kind() == TreeKind::Slice)
      fail(target->range(), "del takes names and single subscripts");
    SubscriptView sv(*target);
    Value* container = emit_expr(sv.value(), env);
    Value* idx = emit_expr(*sv.items()[0], env);
    if (const ClassType* cls = container->type()->as_class()) {
      emit_method_call(container, *cls, "__delitem__", {{idx, sv.items()[0]->range()}}, {}, target->range());
      continue;
    }
    emit_builtin(Symbol::from_qual_string("aten::Delete"), {{container, target->range()}, {idx, target->range()}}, {},
                 target->range());
  }
}

// --- raise / assert ------------------------------------------------------------------------

void FunctionCompiler::emit_raise(const Tree& stmt, Env& env) {
  Value* msg = nullptr;
  std::string cls = "builtins.Exception";
  if (const Tree* e = stmt.child(0)) {
    if (e->kind() == TreeKind::Call && CallView(*e).callee().kind() == TreeKind::Name) {
      cls = "builtins." + CallView(*e).callee().str();
      const auto& args = CallView(*e).args();
      msg = args.empty() ? constant(IValue("")) : emit_expr(*args[0], env);
      if (msg->type()->kind() != TypeKind::Str) msg = emit_builtin(Symbol::from_qual_string("aten::str"), {{msg, e->range()}}, {}, e->range());
    } else if (e->kind() == TreeKind::Name) {
      cls = "builtins." + e->str();
      msg = constant(IValue(""));
    } else {
      fail(e->range(), "raise expects an exception such as ValueError(\"message\")");
    }
  } else {
    msg = constant(IValue(""));
  }
  insert(sym::prim_RaiseException, {msg, constant(IValue(cls))}, stmt.range(), 0);
}

void FunctionCompiler::emit_assert(const Tree& stmt, Env& env) {
  const CondRefinements refs = refinements_of(*stmt.child(0), env);
  Value* test = convert(emit_expr(*stmt.child(0), env), Type::bool_(), nullptr, *std::make_unique<TypeEnv>());
  std::string msg = "AssertionError: ";
  if (const Tree* m = stmt.child(1); m && m->kind() == TreeKind::StringLiteral) msg += m->str();
  emit_branches(test, [](Env&) { return Exit::None; },
                [&](Env& e) {
                  Value* text = constant(IValue(msg));
                  if (const Tree* m = stmt.child(1); m && m->kind() != TreeKind::StringLiteral) {
                    Value* mv = emit_expr(*m, e);
                    if (mv->type()->kind() != TypeKind::Str) mv = emit_builtin(Symbol::from_qual_string("aten::str"), {{mv, m->range()}}, {}, m->range());
                    text = emit_builtin(Symbol::from_qual_string("aten::add"), {{text, m->range()}, {mv, m->range()}}, {}, m->range());
                  }
                  insert(sym::prim_RaiseException, {text, none()}, stmt.range(), 0);
                  return Exit::Raise;
                },
                env, false, stmt.range());
  apply_refinements(refs.if_true, env);
}

// --- assignment ------------------------------------------------------------------------------

void FunctionCompiler::emit_assign(const Tree& stmt, Env& env) {
  if (stmt.kind() == TreeKind::AnnAssign) {
    AnnAssignView a(stmt);
    TypePtr t = parse_annotation(a.annotation());
    if (!a.value()) fail(stmt.range(), "annotated declarations without a value are not supported");
    Value* v = emit_expr(*a.value(), env, t);
    assign_target(a.target(), v, env, t);
    if (a.target().kind() == TreeKind::Name) declared_[a.target().str()] = t;
    return;
  }
  AssignView a(stmt);
  if (a.targets().size() == 1 && a.value().kind() == TreeKind::TupleLiteral) {
    // a, b = b, a: the elements directly, as torch does (no tuple is built to unpack).
    std::vector<Value*> items;
    for (const auto& c : a.value().children()) {
      if (c->kind() == TreeKind::Starred) {
        items.clear();
        break;
      }
      items.push_back(emit_expr(*c, env));
    }
    if (!items.empty() || a.value().children().empty()) return assign_values(*a.targets()[0], items, env);
  }
  Value* v = emit_expr(a.value(), env);
  for (const auto& target : a.targets()) assign_target(*target, v, env);
}

void FunctionCompiler::assign_values(const Tree& target, const std::vector<Value*>& items, Env& env) {
  const bool direct = (target.kind() == TreeKind::TupleLiteral || target.kind() == TreeKind::ListLiteral) &&
                      target.children().size() == items.size() &&
                      std::none_of(target.children().begin(), target.children().end(),
                                   [](const TreeRef& t) { return t->kind() == TreeKind::Starred; });
  if (!direct) return assign_target(target, graph_->insert_node(graph_->create_tuple(items))->output(), env);
  for (size_t i = 0; i < items.size(); ++i) assign_target(*target.children()[i], items[i], env);
}

void FunctionCompiler::assign_target(const Tree& target, Value* v, Env& env, const TypePtr& annotated) {
  switch (target.kind()) {
    case TreeKind::Name: {
      unusable_.erase(target.str());
      if (!carried_types_.empty() && !annotated) {
        auto c = carried_types_.back().find(target.str());
        TypeEnv tenv;
        if (c != carried_types_.back().end() && !match_type(c->second, v->type(), tenv))
          fail(target.range(), fmt::format("Variable '{}' previously had type {} but is now being assigned to a value of type {}\n",
                                           target.str(), c->second->annotation_str(), v->type()->annotation_str()));
      }
      if (annotated) {
        TypeEnv tenv;
        v = convert(v, annotated, nullptr, tenv);
        if (!match_type(annotated, v->type(), tenv))
          fail(target.range(), fmt::format("Variable '{}' is annotated with type {} but is being assigned to a value of type {}",
                                           target.str(), annotated->annotation_str(), v->type()->annotation_str()));
      }
      // torch's rule: a value keeps the first name it was given, and a value from an
      // enclosing block is not named after a variable of this one (y = ...; r = y keeps
      // y), so printed code and re-imports name values alike.
      // (A loop body's unnamed counter is named too: `for i in range(n)` prints as such.)
      if (v->node()->kind() != sym::prim_Constant && !v->has_debug_name() &&
          v->node()->owning_block() == graph_->insert_block() && meaningful_name(target.str())) {
        v->set_debug_name(target.str());
      }
      env.set(target.str(), v);
      return;
    }
    case TreeKind::TupleLiteral:
    case TreeKind::ListLiteral: {
      const size_t n = target.children().size();
      size_t star = n;
      for (size_t i = 0; i < n; ++i) {
        if (target.children()[i]->kind() != TreeKind::Starred) continue;
        if (star != n) fail(target.children()[i]->range(), "multiple starred expressions in assignment");
        star = i;
      }
      if (star != n) {  // a, *b, c = t: b is a tuple of the elements in between
        if (v->type()->kind() != TypeKind::Tuple) fail(target.range(), "starred unpacking is only supported for tuples");
        const size_t m = v->type()->contained().size();
        if (m < n - 1) fail(target.range(), fmt::format("not enough values to unpack (expected at least {}, got {})", n - 1, m));
        Node* unpack = graph_->insert_node(graph_->create_tuple_unpack(v));
        unpack->set_source_range(target.range());
        const size_t middle = m - (n - 1);
        for (size_t i = 0; i < star; ++i) assign_target(*target.children()[i], unpack->output(i), env);
        std::vector<Value*> rest(unpack->outputs().begin() + static_cast<std::ptrdiff_t>(star),
                                 unpack->outputs().begin() + static_cast<std::ptrdiff_t>(star + middle));
        assign_target(*target.children()[star]->child(0), graph_->insert_node(graph_->create_tuple(rest))->output(), env);
        for (size_t i = star + 1; i < n; ++i) assign_target(*target.children()[i], unpack->output(i - 1 + middle), env);
        return;
      }
      Node* unpack = nullptr;
      if (v->type()->kind() == TypeKind::Tuple) {
        if (v->type()->contained().size() != n)
          fail(target.range(), fmt::format("too many values to unpack: need {} but found {}", n, v->type()->contained().size()));
        unpack = graph_->insert_node(graph_->create_tuple_unpack(v));
      } else if (v->type()->kind() == TypeKind::List) {
        unpack = graph_->insert_node(graph_->create_list_unpack(v, n));
      } else {
        fail(target.range(), fmt::format("cannot unpack a value of type {}", v->type()->annotation_str()));
      }
      unpack->set_source_range(target.range());
      for (size_t i = 0; i < n; ++i) assign_target(*target.children()[i], unpack->output(i), env);
      return;
    }
    case TreeKind::Subscript: {
      SubscriptView sv(target);
      Value* container = emit_expr(sv.value(), env);
      const SourceRange& r = target.range();
      if (container->type()->kind() == TypeKind::Tensor) {
        auto [view, indices] = emit_tensor_indexing(container, sv.items(), env, r);
        // x[i] = v copies v into the view, x[mask] = v is index_put_ of v; a number is
        // first made a tensor of the view's dtype and device (as torch compiles both).
        Value* values = v;
        if (v->type()->kind() != TypeKind::Tensor) {
          Value* dtype = emit_builtin(Symbol::from_qual_string("prim::dtype"), {{view, r}}, {}, r);
          Value* device = emit_builtin(Symbol::from_qual_string("prim::device"), {{view, r}}, {}, r);
          values = emit_builtin(Symbol::from_qual_string("aten::tensor"), {{v, r}},
                                {{"dtype", dtype, r}, {"device", device, r}, {"requires_grad", constant(IValue(false)), r}}, r);
        }
        if (!indices.empty()) {
          emit_builtin(Symbol::from_qual_string("aten::index_put_"), {{view, r}, {tensor_index_list(indices), r}, {values, r}}, {},
                       r);
          return;
        }
        emit_builtin(Symbol::from_qual_string("aten::copy_"), {{view, r}, {values, r}}, {}, r);
        return;
      }
      if (sv.items().size() != 1) fail(r, "only single subscripts can be assigned to");
      Value* idx = emit_expr(*sv.items()[0], env);
      emit_builtin(Symbol::from_qual_string("aten::_set_item"),
                   {{container, target.range()}, {idx, target.range()}, {v, target.range()}}, {}, target.range());
      return;
    }
    case TreeKind::Attribute: {
      AttributeView av(target);
      Value* obj = emit_expr(av.value(), env);
      const ClassType* cls = obj->type()->as_class();
      if (!cls) fail(target.range(), fmt::format("cannot set attribute '{}' on a value of type {}", av.name(), obj->type()->annotation_str()));
      // A TorchScript class's attributes are the ones its __init__ assigns.
      if (!cls->find_attribute(av.name())) {
        if (self_type_ && cls == self_type_.get() && DefView(def_).name() == "__init__")
          self_type_->add_attribute(av.name(), annotated ? annotated : v->type());
        else
          fail(target.range(), fmt::format("Tried to set nonexistent attribute: {}. Did you forget to initialize it in __init__()?",
                                           av.name()));
      }
      graph_->insert_node(graph_->create_set_attr(obj, av.name(), v))->set_source_range(target.range());
      return;
    }
    default:
      fail(target.range(), fmt::format("cannot assign to a {}", tree_kind_description(target.kind())));
  }
}

void FunctionCompiler::emit_aug_assign(const Tree& stmt, Env& env) {
  AugAssignView a(stmt);
  const Tree& target = a.target();
  if (target.kind() != TreeKind::Name && target.kind() != TreeKind::Attribute && target.kind() != TreeKind::Subscript)
    fail(stmt.range(), "augmented assignment needs a variable, attribute or subscript target");
  // torch's table (ir_emitter's getAugOp): on tensors and lists the operator is the
  // in-place one where torch has it, so an alias sees the update (m = l; l += [3] changes
  // m too); &, | and ^ on tensors are bitwise_* and ** is never in place, as there.
  struct AugOp {
    const char* value;     // ints, floats, strs...
    const char* in_place;  // tensors and lists
  };
  static const std::unordered_map<TokenKind, AugOp> kOps = {
      {TokenKind::Plus, {"add", "add_"}},
      {TokenKind::Minus, {"sub", "sub_"}},
      {TokenKind::Star, {"mul", "mul_"}},
      {TokenKind::Slash, {"div", "div_"}},
      // torch 1.13 compiles `x %= y` as fmod (a float on numbers), unlike `x % y`.
      {TokenKind::Percent, {"fmod", "fmod_"}},
      {TokenKind::DoubleStar, {"pow", "pow"}},
      {TokenKind::Ampersand, {"__and__", "bitwise_and"}},
      {TokenKind::Pipe, {"__or__", "bitwise_or"}},
      {TokenKind::Caret, {"__xor__", "bitwise_xor"}},
      {TokenKind::LeftShift, {"__lshift__", "__lshift__"}},
      {TokenKind::RightShift, {"__rshift__", "__irshift__"}},
      // `x //= y` is torchlet's own (torch 1.13 cannot parse it).
      {TokenKind::DoubleSlash, {"floordiv", "floor_divide"}}};
  auto it = kOps.find(a.op());
  if (it == kOps.end()) fail(stmt.range(), "unsupported augmented assignment");

  // lhs op= rhs as a value; `may_update` is false where torch never updates in place
  // (a dict's item: d[k] += v is d[k] = d[k] + v even for a tensor or list value).
  auto augment = [&](Value* lhs, Value* rhs, bool may_update) -> Value* {
    if (const ClassType* cls = lhs->type()->as_class(); cls && !cls->is_module()) {
      // An object's __iadd__ (updating it in place), else its __add__, as Python and
      // torch choose; torch knows only these five.
      static const std::unordered_map<TokenKind, std::pair<const char*, const char*>> kMagic = {
          {TokenKind::Plus, {"__iadd__", "__add__"}},      {TokenKind::Minus, {"__isub__", "__sub__"}},
          {TokenKind::Star, {"__imul__", "__mul__"}},      {TokenKind::Slash, {"__itruediv__", "__truediv__"}},
          {TokenKind::Percent, {"__imod__", "__mod__"}}};
      auto magic = kMagic.find(a.op());
      if (magic == kMagic.end())
        fail(stmt.range(), fmt::format("Unknown augmented assignment on an object of type {}", cls->name()));
      auto defines = [&](const char* method) { return cls->find_method(method) || file_.method(*cls, method, stmt.range()); };
      const char* in_place = may_update ? magic->second.first : magic->second.second;
      const char* value = magic->second.second;
      if (!defines(in_place) && !defines(value))
        fail(stmt.range(), fmt::format("Cannot emit inplace op on {} since it does not define an {} or {} method", cls->name(),
                                       in_place, value));
      return emit_method_call(lhs, *cls, defines(in_place) ? in_place : value, {{rhs, stmt.range()}}, {}, stmt.range());
    }
    const TypeKind kind = lhs->type()->kind();
    const bool update = may_update && (kind == TypeKind::Tensor || kind == TypeKind::List);
    return emit_builtin(Symbol::from_qual_string(std::string("aten::") + (update ? it->second.in_place : it->second.value)),
                        {{lhs, stmt.range()}, {rhs, stmt.range()}}, {}, stmt.range());
  };

  if (target.kind() == TreeKind::Subscript) {
    // As torch: the container and index once, then the right side, then the item.
    SubscriptView sv(target);
    const SourceRange& r = target.range();
    Value* container = emit_expr(sv.value(), env);
    const TypeKind k = container->type()->kind();
    if (k == TypeKind::Tensor) {
      // x[i] += v updates the view in place; x[idx] += v (tensor indices) gathers,
      // updates the copy and puts it back.
      auto [view, indices] = emit_tensor_indexing(container, sv.items(), env, r);
      Value* rhs = emit_expr(a.value(), env);
      if (indices.empty()) {
        (void)augment(view, rhs, true);
        return;
      }
      Value* index_list = tensor_index_list(indices);
      Value* gathered = emit_builtin(Symbol::from_qual_string("aten::index"), {{view, r}, {index_list, r}}, {}, r);
      Value* updated = augment(gathered, rhs, true);
      emit_builtin(Symbol::from_qual_string("aten::index_put_"), {{view, r}, {index_list, r}, {updated, r}}, {}, r);
      return;
    }
    if ((k == TypeKind::List || k == TypeKind::Dict) && container_kind(container->type()) == ContainerKind::None) {
      if (sv.items().size() != 1 || sv.items()[0]->kind() == TreeKind::Slice)
        fail(r, "augmented assignment to a list or dict takes one index");
      Value* idx = emit_expr(*sv.items()[0], env);
      Value* rhs = emit_expr(a.value(), env);
      Value* item = emit_builtin(Symbol::from_qual_string("aten::__getitem__"), {{container, r}, {idx, r}}, {}, r);
      Value* out = augment(item, rhs, k == TypeKind::List);
      emit_builtin(Symbol::from_qual_string("aten::_set_item"), {{container, r}, {idx, r}, {out, r}}, {}, r);
      return;
    }
    fail(r, fmt::format("a value of type {} does not support item assignment", container->type()->annotation_str()));
  }
  Value* lhs = emit_expr(target, env);
  Value* rhs = emit_expr(a.value(), env);
  Value* out = augment(lhs, rhs, true);
  if (target.kind() == TreeKind::Attribute && lhs->node()->kind() == sym::prim_GetAttr) {
    // obj.a += v: the object once (it may be a call), stored where it was read.
    graph_->insert_node(graph_->create_set_attr(lhs->node()->input(0), AttributeView(target).name(), out))
        ->set_source_range(target.range());
    return;
  }
  assign_target(target, out, env);
}

// --- expressions -------------------------------------------------------------------------------

Value* FunctionCompiler::emit_expr(const Tree& e, Env& env, const TypePtr& hint) {
  switch (e.kind()) {
    case TreeKind::Name:
      return emit_name(e, env);
    case TreeKind::IntLiteral:
      return constant(IValue(e.int_value()), e.range());
    case TreeKind::FloatLiteral:
      return constant(IValue(e.float_value()), e.range());
    case TreeKind::ImagLiteral:
      return constant(IValue(std::complex<double>(0, e.float_value())), e.range());
    case TreeKind::StringLiteral:
      return constant(IValue(e.str()), e.range());
    case TreeKind::TrueLiteral:
      return constant(IValue(true), e.range());
    case TreeKind::FalseLiteral:
      return constant(IValue(false), e.range());
    case TreeKind::NoneLiteral:
      return none();
    case TreeKind::BinOp:
      return emit_binop(e, env);
    case TreeKind::UnaryOp:
      return emit_unary(e, env);
    case TreeKind::Compare:
      return emit_compare(e, env);
    case TreeKind::BoolOp:
      return emit_boolop(e, env);
    case TreeKind::IfExp:
      return emit_ifexp(e, env, hint);
    case TreeKind::Call:
      return emit_call(e, env, hint);
    case TreeKind::Attribute:
      return emit_attribute(e, env);
    case TreeKind::Subscript:
      return emit_subscript(e, env);
    case TreeKind::ListLiteral:
      return emit_list(e, env, hint);
    case TreeKind::TupleLiteral: {
      std::vector<Value*> elems;
      for (size_t i = 0; i < e.children().size(); ++i) {
        TypePtr h = hint && hint->kind() == TypeKind::Tuple && i < hint->contained().size() ? hint->contained()[i] : nullptr;
        elems.push_back(emit_expr(*e.children()[i], env, h));
        if (h && elems.back()->type()->kind() == TypeKind::Number)  // x.item() where a float is expected
          elems.back() = convert(elems.back(), h, nullptr, *std::make_unique<TypeEnv>());
      }
      Value* t = graph_->insert_node(graph_->create_tuple(elems))->output();
      // The annotation types the tuple: (True, None) for Tuple[bool, Optional[int]].
      if (hint && hint->kind() == TypeKind::Tuple && !hint->is_named_tuple() && !(*t->type() == *hint) &&
          t->type()->is_subtype_of(*hint))
        t->set_type(hint);
      return t;
    }
    case TreeKind::DictLiteral:
      return emit_dict(e, env, hint);
    case TreeKind::ListComp:
    case TreeKind::DictComp:
      return emit_comprehension(e, env, hint);
    default:
      fail(e.range(), fmt::format("{} is not supported in TorchScript expressions yet", tree_kind_description(e.kind())));
  }
}

Value* FunctionCompiler::emit_name(const Tree& e, Env& env) {
  if (Value* v = env.lookup(e.str())) return v;
  // Names torch's printer writes for float constants it cannot spell as literals.
  if (e.str() == "inf") return constant(IValue(std::numeric_limits<double>::infinity()), e.range());
  if (e.str() == "nan") return constant(IValue(std::numeric_limits<double>::quiet_NaN()), e.range());
  if (auto u = unusable_.find(e.str()); u != unusable_.end()) fail(u->second.second.empty() ? e.range() : u->second.second, u->second.first);
  if (Function* fn = file_.function(e.str(), e.range())) return function_value(fn, e.range());
  fail(e.range(), fmt::format("undefined value {}", e.str()));
}

Value* FunctionCompiler::emit_binop(const Tree& e, Env& env) {
  static const std::unordered_map<TokenKind, const char*> kOps = {
      {TokenKind::Plus, "aten::add"},        {TokenKind::Minus, "aten::sub"},       {TokenKind::Star, "aten::mul"},
      {TokenKind::Slash, "aten::div"},       {TokenKind::DoubleSlash, "aten::floordiv"}, {TokenKind::Percent, "aten::remainder"},
      {TokenKind::DoubleStar, "aten::pow"},  {TokenKind::At, "aten::matmul"},       {TokenKind::Ampersand, "aten::__and__"},
      {TokenKind::Pipe, "aten::__or__"},     {TokenKind::Caret, "aten::__xor__"},   {TokenKind::LeftShift, "aten::__lshift__"},
      {TokenKind::RightShift, "aten::__rshift__"}};
  auto it = kOps.find(e.op());
  if (it == kOps.end()) fail(e.range(), "unsupported binary operator");
  Value* lhs = emit_expr(*e.child(0), env);
  Value* rhs = emit_expr(*e.child(1), env);
  std::string name = it->second;
  if (e.op() == TokenKind::Percent && lhs->type()->kind() == TypeKind::Str)  // "%d of %s" % (n, s)
    return emit_builtin(Symbol::from_qual_string("aten::percentFormat"), {{lhs, e.child(0)->range()}, {rhs, e.child(1)->range()}}, {},
                        e.range());
  // Tuples concatenate element by element: (a, b) + (c,) is (a, b, c).
  if (e.op() == TokenKind::Plus && lhs->type()->kind() == TypeKind::Tuple && rhs->type()->kind() == TypeKind::Tuple) {
    std::vector<Value*> items;
    for (Value* t : {lhs, rhs}) {
      const std::vector<Value*>& part = t->node()->kind() == sym::prim_TupleConstruct
                                            ? t->node()->inputs()
                                            : graph_->insert_node(graph_->create_tuple_unpack(t))->outputs();
      items.insert(items.end(), part.begin(), part.end());
    }
    return graph_->insert_node(graph_->create_tuple(items))->set_source_range(e.range())->output();
  }
  // Tensor floor division is its own operator (aten::floordiv is for numbers).
  if (e.op() == TokenKind::DoubleSlash && (lhs->type()->kind() == TypeKind::Tensor || rhs->type()->kind() == TypeKind::Tensor))
    name = "aten::floor_divide";
  // A number on the left of a tensor, as torch's builtin functions for (number, Tensor)
  // spell it: 2 * x is x * 2, 1 - x is -x + 1, 2 / x is x.reciprocal() * 2. (2 ** x and
  // 2 % x have operators of their own.)
  if (is_number_type(lhs->type()) && rhs->type()->kind() == TypeKind::Tensor) {
    const SourceRange& rr = e.child(1)->range();
    if (name == "aten::sub" || name == "aten::div") {
      rhs = emit_builtin(Symbol::from_qual_string(name == "aten::sub" ? "aten::neg" : "aten::reciprocal"), {{rhs, rr}}, {}, e.range());
      name = name == "aten::sub" ? "aten::add" : "aten::mul";
    }
    if (name == "aten::add" || name == "aten::mul") std::swap(lhs, rhs);
  }
  return emit_builtin(Symbol::from_qual_string(name), {{lhs, e.child(0)->range()}, {rhs, e.child(1)->range()}}, {}, e.range());
}

Value* FunctionCompiler::emit_unary(const Tree& e, Env& env) {
  // Python's grammar, which the parser follows, has unary plus; TorchScript's has not,
  // and torch reports the '+' as a missing name.
  if (e.op() == TokenKind::Plus) fail(SourceRange(e.range().source(), e.range().start(), e.range().start() + 1),
                                      "expected ident but found '+' here");
  Value* v = emit_expr(*e.child(0), env);
  switch (e.op()) {
    case TokenKind::Minus:
      if (auto c = to_ivalue(v); c && c->isInt()) return constant(IValue(-c->toInt()), e.range());
      if (auto c = to_ivalue(v); c && c->isDouble()) return constant(IValue(-c->toDouble()), e.range());
      return emit_builtin(Symbol::from_qual_string("aten::neg"), {{v, e.range()}}, {}, e.range());
    case TokenKind::Not:
      if (v->type()->kind() == TypeKind::Tensor) return emit_builtin(Symbol::from_qual_string("aten::logical_not"), {{v, e.range()}}, {}, e.range());
      v = convert(v, Type::bool_(), nullptr, *std::make_unique<TypeEnv>());
      return emit_builtin(Symbol::from_qual_string("aten::__not__"), {{v, e.range()}}, {}, e.range());
    case TokenKind::Tilde:
      return emit_builtin(Symbol::from_qual_string(v->type()->kind() == TypeKind::Tensor ? "aten::bitwise_not" : "aten::__invert__"),
                          {{v, e.range()}}, {}, e.range());
    default:
      fail(e.range(), "unsupported unary operator");
  }
}

// a < b < c is `a < b and b < c` with b evaluated once and c only if a < b holds: an
// If per further comparison, as torch compiles it.
Value* FunctionCompiler::emit_compare(const Tree& e, Env& env) {
  CompareView c(e);
  const SourceRange& r = e.range();
  std::function<Value*(size_t, Value*, Env&)> compare_from = [&](size_t i, Value* lhs, Env& cenv) -> Value* {
    Value* rhs = emit_expr(c.operand(i + 1), cenv);
    Value* cmp = nullptr;
    const char* name = nullptr;
    switch (c.op(i)) {
      case TokenKind::Less: name = "aten::lt"; break;
      case TokenKind::Greater: name = "aten::gt"; break;
      case TokenKind::LessEqual: name = "aten::le"; break;
      case TokenKind::GreaterEqual: name = "aten::ge"; break;
      case TokenKind::EqualEqual: name = "aten::eq"; break;
      case TokenKind::NotEqual: name = "aten::ne"; break;
      case TokenKind::Is: name = "aten::__is__"; break;
      case TokenKind::IsNot: name = "aten::__isnot__"; break;
      case TokenKind::In:
      case TokenKind::NotIn:
        if (rhs->type()->kind() == TypeKind::Str && lhs->type()->kind() == TypeKind::Str) {
          // a in s is s.find(a) != -1, as torch compiles it.
          Value* len = emit_builtin(Symbol::from_qual_string("aten::len"), {{rhs, r}}, {}, r);
          Value* at = emit_builtin(Symbol::from_qual_string("aten::find"), {{rhs, r}, {lhs, r}, {constant(IValue(0)), r}, {len, r}}, {}, r);
          cmp = emit_builtin(Symbol::from_qual_string("aten::ne"), {{at, r}, {constant(IValue(-1)), r}}, {}, r);
        } else {
          cmp = emit_builtin(Symbol::from_qual_string("aten::__contains__"), {{rhs, r}, {lhs, r}}, {}, r);
        }
        if (c.op(i) == TokenKind::NotIn) cmp = emit_builtin(Symbol::from_qual_string("aten::__not__"), {{cmp, r}}, {}, r);
        break;
      default:
        fail(c.op_tree(i).range(), "unsupported comparison");
    }
    if (!cmp && (c.op(i) == TokenKind::EqualEqual || c.op(i) == TokenKind::NotEqual) &&
        lhs->type()->kind() == TypeKind::Tuple && rhs->type()->kind() == TypeKind::Tuple &&
        !compare_as_lists(lhs, rhs)) {
      // Tuples (NamedTuples too) are equal when every element is. (torch refuses the
      // tuples it cannot compare as lists; these compare as Python compares them.)
      const size_t n = lhs->type()->contained().size();
      if (n != rhs->type()->contained().size()) {
        cmp = constant(IValue(c.op(i) == TokenKind::NotEqual));
      } else {
        Node* ul = graph_->insert_node(graph_->create_tuple_unpack(lhs));
        Node* ur = graph_->insert_node(graph_->create_tuple_unpack(rhs));
        cmp = constant(IValue(true));
        for (size_t k = 0; k < n; ++k) {
          Value* same = emit_builtin(Symbol::from_qual_string("aten::eq"), {{ul->output(k), r}, {ur->output(k), r}}, {}, r);
          cmp = emit_builtin(Symbol::from_qual_string("aten::__and__"), {{cmp, r}, {same, r}}, {}, r);
        }
        if (c.op(i) == TokenKind::NotEqual) cmp = emit_builtin(Symbol::from_qual_string("aten::__not__"), {{cmp, r}}, {}, r);
      }
    }
    // 0 < x is x > 0 (torch's builtin functions for a number and a tensor).
    static const std::unordered_map<std::string_view, const char*> kMirrored = {
        {"aten::lt", "aten::gt"}, {"aten::gt", "aten::lt"}, {"aten::le", "aten::ge"},
        {"aten::ge", "aten::le"}, {"aten::eq", "aten::eq"}, {"aten::ne", "aten::ne"}};
    if (!cmp && name && is_number_type(lhs->type()) && rhs->type()->kind() == TypeKind::Tensor)
      if (auto m = kMirrored.find(name); m != kMirrored.end())
        cmp = emit_builtin(Symbol::from_qual_string(m->second), {{rhs, r}, {lhs, r}}, {}, r);
    if (!cmp) cmp = emit_builtin(Symbol::from_qual_string(name), {{lhs, r}, {rhs, r}}, {}, r);
    if (i + 1 == c.num_comparisons()) return cmp;
    // The rest of the chain compiles inside the if below: a chain is flat in the tree
    // but nests one block per link (20,000 links overflowed the stack).
    const FileCompiler::Nest nest(file_, c.op_tree(i).range(), "blocks");
    cmp = convert(cmp, Type::bool_(), nullptr, *std::make_unique<TypeEnv>());
    emit_branches(cmp, [&](Env& b) { b.set("$compare", compare_from(i + 1, rhs, b)); return Exit::None; },
                  [&](Env& b) { b.set("$compare", constant(IValue(false))); return Exit::None; }, cenv, false, r);
    Value* out = cenv.lookup("$compare");
    cenv.values.erase("$compare");
    cenv.order.erase(std::remove(cenv.order.begin(), cenv.order.end(), "$compare"), cenv.order.end());
    return out;
  };
  return compare_from(0, emit_expr(c.operand(0), env), env);
}

Value* FunctionCompiler::emit_boolop(const Tree& e, Env& env) {
  const bool is_and = e.op() == TokenKind::And;
  const CondRefinements refs = refinements_of(*e.child(0), env);
  Value* lhs = convert(emit_expr(*e.child(0), env), Type::bool_(), nullptr, *std::make_unique<TypeEnv>());
  // Short-circuit: `a and b` is `b if a else False`; `a or b` is `True if a else b`.
  emit_branches(lhs,
                [&](Env& b) {
                  if (is_and) apply_refinements(refs.if_true, b);
                  b.set("$boolop", is_and ? convert(emit_expr(*e.child(1), b), Type::bool_(), nullptr, *std::make_unique<TypeEnv>())
                                          : constant(IValue(true)));
                  return Exit::None;
                },
                [&](Env& b) {
                  if (!is_and) apply_refinements(refs.if_false, b);
                  b.set("$boolop", is_and ? constant(IValue(false))
                                          : convert(emit_expr(*e.child(1), b), Type::bool_(), nullptr, *std::make_unique<TypeEnv>()));
                  return Exit::None;
                },
                env, false, e.range());
  Value* v = env.lookup("$boolop");
  env.values.erase("$boolop");
  env.order.erase(std::remove(env.order.begin(), env.order.end(), "$boolop"), env.order.end());
  return v;
}

Value* FunctionCompiler::emit_ifexp(const Tree& e, Env& env, const TypePtr& hint) {
  const FileCompiler::Nest nest(file_, e.range(), "blocks");  // both values compile in blocks
  IfExpView v(e);
  const CondRefinements refs = refinements_of(v.condition(), env);
  Value* cond = emit_expr(v.condition(), env);
  emit_branches(cond,
                [&](Env& b) {
                  apply_refinements(refs.if_true, b);
                  b.set("$ifexp", emit_expr(v.true_value(), b, hint));
                  return Exit::None;
                },
                [&](Env& b) {
                  apply_refinements(refs.if_false, b);
                  b.set("$ifexp", emit_expr(v.false_value(), b, hint));
                  return Exit::None;
                },
                env, false, e.range());
  Value* out = env.lookup("$ifexp");
  env.values.erase("$ifexp");
  env.order.erase(std::remove(env.order.begin(), env.order.end(), "$ifexp"), env.order.end());
  return out;
}

Value* FunctionCompiler::emit_list(const Tree& e, Env& env, const TypePtr& hint) {
  TypePtr elem_hint = hint && hint->kind() == TypeKind::List ? hint->contained()[0] : nullptr;
  std::vector<Value*> elems;
  std::vector<TypePtr> types;
  for (const auto& c : e.children()) {
    elems.push_back(emit_expr(*c, env, elem_hint));
    types.push_back(elems.back()->type());
  }
  TypePtr elem = elem_hint;
  if (!elem) {
    if (elems.empty()) elem = Type::tensor();  // torch's default for []
    else if (auto u = unify_type_list(types)) elem = *u;
    else fail(e.range(), "list literal elements have different types; annotate the list's type");
  }
  for (size_t i = 0; i < elems.size(); ++i) {
    TypeEnv tenv;
    if (!match_type(elem, elems[i]->type(), tenv))
      fail(e.children()[i]->range(), fmt::format("list element of type {} does not fit the list's type {}",
                                                 elems[i]->type()->annotation_str(), elem->annotation_str()));
  }
  return graph_->insert_node(graph_->create_list(elem, elems))->output();
}

Value* FunctionCompiler::emit_dict(const Tree& e, Env& env, const TypePtr& hint) {
  DictLiteralView d(e);
  std::vector<Value*> keys, values;
  for (const auto& k : d.keys()) keys.push_back(emit_expr(*k, env));
  for (const auto& v : d.values()) values.push_back(emit_expr(*v, env, hint && hint->kind() == TypeKind::Dict ? hint->contained()[1] : nullptr));
  TypePtr kt, vt;
  if (hint && hint->kind() == TypeKind::Dict) {
    kt = hint->contained()[0];
    vt = hint->contained()[1];
  } else if (keys.empty()) {
    kt = Type::str_();
    vt = Type::tensor();
  } else {
    std::vector<TypePtr> ks, vs;
    for (Value* k : keys) ks.push_back(k->type());
    for (Value* v : values) vs.push_back(v->type());
    auto uk = unify_type_list(ks), uv = unify_type_list(vs);
    if (!uk) {
      for (Value* k : keys)
        if (!(*k->type() == *keys[0]->type()))
          fail(e.range(), fmt::format("Dict keys must contain only a single type. Expected: {} but found {} instead",
                                      keys[0]->type()->annotation_str(), k->type()->annotation_str()));
    }
    if (!uk || !uv) fail(e.range(), "dict literal entries have different types; annotate the dict's type");
    kt = *uk;
    vt = *uv;
  }
  return graph_->insert_node(graph_->create_dict(kt, vt, keys, values))->output();
}

// [elt for x in it if c] is `out = []; for x in it: if c: out.append(elt)` and
// {k: v for x in it} is `out = {}; for x in it: out[k] = v`, with the loop compiled as a
// for statement (so every iterable a for loop takes works) in a scope of its own (the
// loop variables do not leak). The element types come from compiling the elements once
// in a block that never runs, unless an annotation says them.
Value* FunctionCompiler::emit_comprehension(const Tree& e, Env& env, const TypePtr& hint) {
  const bool is_dict = e.kind() == TreeKind::DictComp;
  const auto& gens = is_dict ? DictCompView(e).generators() : ListCompView(e).generators();
  if (gens.size() != 1) fail(e.range(), "comprehensions with several 'for' clauses are not supported");
  ComprehensionView gen(*gens[0]);
  const Tree* key = is_dict ? &DictCompView(e).key() : nullptr;
  const Tree& elem = is_dict ? DictCompView(e).value() : ListCompView(e).element();
  TypePtr key_type, elem_type;
  if (hint && hint->kind() == (is_dict ? TypeKind::Dict : TypeKind::List)) {
    key_type = is_dict ? hint->contained()[0] : nullptr;
    elem_type = hint->contained()[is_dict ? 1 : 0];
  }
  auto in_scope = [&](const BodyFn& body) {
    Env scope;
    scope.parent = &env;
    emit_for(gen.target(), gen.iterable(), {}, e.range(), scope, &body);
  };
  if (!elem_type) {
    Node* probe = graph_->insert_node(graph_->create(sym::prim_If, {constant(IValue(false))}, 0));
    Block* pb = probe->add_block();
    probe->add_block();
    {
      InsertPointGuard g(*graph_);
      graph_->set_insert_point(pb);
      in_scope([&](Env& b) {
        if (key) key_type = emit_expr(*key, b)->type();
        elem_type = emit_expr(elem, b)->type();
      });
    }
    probe->destroy();
  }
  // Over an empty tuple the unrolled loop never reaches the element: the result is typed
  // as torch types an empty literal (List[Tensor], Dict[str, Tensor]).
  if (!elem_type) elem_type = Type::tensor();
  if (key && !key_type) key_type = Type::str_();
  Value* out = is_dict ? graph_->insert_node(graph_->create_dict(key_type, elem_type, {}, {}))->output()
                       : graph_->insert_node(graph_->create_list(elem_type, {}))->output();
  const BodyFn add = [&](Env& b) {
    auto put = [&](Env& pe) {
      if (key) {
        Value* k = emit_expr(*key, pe, key_type);
        emit_builtin(Symbol::from_qual_string("aten::_set_item"),
                     {{out, e.range()}, {k, key->range()}, {emit_expr(elem, pe, elem_type), elem.range()}}, {}, e.range());
      } else {
        emit_builtin(Symbol::from_qual_string("aten::append"), {{out, e.range()}, {emit_expr(elem, pe, elem_type), elem.range()}}, {},
                     e.range());
      }
      return Exit::None;
    };
    if (gen.conditions().empty()) {
      put(b);
      return;
    }
    Value* c = emit_expr(*gen.conditions()[0], b);
    for (size_t k = 1; k < gen.conditions().size(); ++k)
      c = emit_builtin(Symbol::from_qual_string("aten::__and__"), {{convert(c, Type::bool_(), nullptr, *std::make_unique<TypeEnv>()), e.range()},
                                                                  {convert(emit_expr(*gen.conditions()[k], b), Type::bool_(), nullptr, *std::make_unique<TypeEnv>()), e.range()}}, {}, e.range());
    emit_branches(c, put, [](Env&) { return Exit::None; }, b, true, e.range());
  };
  in_scope(add);
  return out;
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

Value* FunctionCompiler::emit_attribute(const Tree& e, Env& env) {
  AttributeView a(e);
  const std::string dotted = dotted_name(e);
  const std::string root = dotted.substr(0, dotted.find('.'));
  if (!dotted.empty() && !env.lookup(root)) {
    if (root == "CONSTANTS") {  // tensor constants of an archive (constants.pkl)
      if (auto c = file_.resolve_constant(a.name())) return constant(*c, e.range());
      fail(e.range(), fmt::format("unknown constant {}", dotted));
    }
    if (root == "__torch__") {
      if (Function* fn = file_.resolve_function(dotted, e.range())) return function_value(fn, e.range());
      fail(e.range(), fmt::format("unknown function {}", dotted));
    }
  }
  if (a.value().kind() == TreeKind::Name && !env.lookup(a.value().str())) {
    const std::string& module = a.value().str();
    if (module == "torch") {
      if (auto d = torch_dtype(a.name())) return constant(IValue(*d), e.range());
      if (auto v = torch_enum_attribute(a.name())) return constant(IValue(*v), e.range());
    }
    if (module != "torch" && module != "math")
      if (TypePtr t = file_.resolve_type(module); t && t->as_enum()) return emit_enum_member(t, a.name(), e.range());
    if (module == "math") {
      if (a.name() == "pi") return constant(IValue(3.141592653589793), e.range());
      if (a.name() == "e") return constant(IValue(2.718281828459045), e.range());
      if (a.name() == "inf") return constant(IValue(std::numeric_limits<double>::infinity()), e.range());
      if (a.name() == "nan") return constant(IValue(std::numeric_limits<double>::quiet_NaN()), e.range());
    }
    fail(e.range(), fmt::format("unknown name {}.{}", module, a.name()));
  }
  Value* v = emit_expr(a.value(), env);
  if (const ClassType* cls = v->type()->as_class()) {
    if (const IValue* c = cls->find_constant(a.name())) return constant(*c, e.range());
    if (!cls->find_attribute(a.name())) fail(e.range(), fmt::format("object of type {} has no attribute '{}'", cls->name(), a.name()));
    return graph_->insert_node(graph_->create_get_attr(v, a.name()))->set_source_range(e.range())->output();
  }
  if (const EnumType* et = v->type()->as_enum()) {  // .name / .value of a member
    if (a.name() == "name") {
      Node* n = graph_->insert_node(graph_->create(sym::prim_EnumName, {v}));
      n->set_op(OperatorRegistry::global().overloads(sym::prim_EnumName).at(0));
      n->output()->set_type(Type::str_());
      return n->output();
    }
    if (a.name() == "value") {
      for (const Operator* op : OperatorRegistry::global().overloads(sym::prim_EnumValue)) {
        if (!(*op->return_types()[0] == *et->value_type())) continue;
        Node* n = graph_->insert_node(graph_->create(sym::prim_EnumValue, {v}));
        n->set_op(op);
        n->output()->set_type(et->value_type());
        return n->output();
      }
    }
    fail(e.range(), fmt::format("'{}' object has no attribute '{}'", v->type()->str(), a.name()));
  }
  if (v->type()->is_named_tuple()) {
    const auto& fields = v->type()->field_names();
    auto it = std::find(fields.begin(), fields.end(), a.name());
    if (it != fields.end()) {
      const auto i = static_cast<size_t>(it - fields.begin());
      if (v->node()->kind() == sym::prim_TupleConstruct) return v->node()->input(i);  // as torch reads it
      Node* n = graph_->insert_node(graph_->create(sym::prim_TupleIndex, {v, constant(IValue(static_cast<int64_t>(i)))}));
      n->set_source_range(e.range());
      n->output()->set_type(v->type()->contained()[i]);
      return n->output();
    }
  }
  if (v->type()->kind() == TypeKind::Tensor) {
    // torch's tensor properties (and the operator each reads through; .grad needs autograd).
    static const std::unordered_map<std::string_view, const char*> kProperties = {
        {"shape", "aten::size"},           {"dtype", "prim::dtype"},         {"device", "prim::device"},
        {"ndim", "aten::dim"},             {"T", "aten::numpy_T"},           {"mT", "aten::mT"},
        {"H", "aten::matrix_H"},           {"mH", "aten::mH"},               {"real", "aten::real"},
        {"imag", "aten::imag"},            {"data", "prim::data"},           {"layout", "prim::layout"},
        {"name", "prim::name"},            {"requires_grad", "prim::requires_grad"},
        {"is_leaf", "aten::is_leaf"},      {"retains_grad", "aten::retains_grad"},
        {"is_cuda", "prim::is_cuda"},      {"is_cpu", "prim::is_cpu"},       {"is_xpu", "prim::is_xpu"},
        {"is_sparse", "prim::is_sparse"},  {"is_sparse_csr", "prim::is_sparse_csr"},
        {"is_mkldnn", "prim::is_mkldnn"},  {"is_mps", "prim::is_mps"},       {"is_quantized", "prim::is_quantized"},
        {"is_vulkan", "prim::is_vulkan"},  {"is_ipu", "prim::is_ipu"},       {"is_meta", "prim::is_meta"},
        {"is_nested", "prim::is_nested"},  {"is_ort", "prim::is_ort"}};
    if (auto p = kProperties.find(a.name()); p != kProperties.end())
      return emit_builtin(Symbol::from_qual_string(p->second), {{v, e.range()}}, {}, e.range());
  }
  fail(e.range(), fmt::format("'{}' object has no attribute or method '{}'.", v->type()->annotation_str(), a.name()));
}

Value* FunctionCompiler::emit_enum_member(const TypePtr& t, const std::string& member, const SourceRange& range) {
  const auto& members = t->as_enum()->members();
  if (std::none_of(members.begin(), members.end(), [&](const auto& m) { return m.first == member; }))
    fail(range, fmt::format("'{}' has no attribute '{}'", t->str(), member));
  return constant(enum_value(t, member), range);
}

// Tensor indexing, as torch lowers it: ints select, slices slice, None unsqueezes, in
// order along the dimensions; tensor-valued indices (x[mask], x[idx]) apply after the
// others, as one Tensor?[] list holding each at its dimension and None elsewhere. Returns
// the view and the tensor indices by dimension (null where None goes; empty when there
// are none), for aten::index on a read and aten::index_put_ on an assignment.
std::pair<Value*, std::vector<Value*>> FunctionCompiler::emit_tensor_indexing(Value* v, const std::vector<TreeRef>& items,
                                                                              Env& env, const SourceRange& r) {
  auto opt_int = [&](const Tree* t) { return t ? emit_expr(*t, env) : none(); };
  int64_t dim = 0;
  std::vector<std::pair<int64_t, Value*>> tensor_indices;
  size_t ellipsis = items.size();
  for (size_t k = 0; k < items.size(); ++k) {
    if (items[k]->kind() != TreeKind::EllipsisLiteral) continue;
    if (ellipsis != items.size()) fail(items[k]->range(), "an index can only have a single ellipsis ('...')");
    ellipsis = k;
  }
  for (size_t k = 0; k < items.size(); ++k) {
    const TreeRef& item = items[k];
    if (k == ellipsis) continue;
    if (k > ellipsis) {
      // After `...` dims count from the end, as torch spells them: this item's dim lies
      // just before the ones the later items (other than None) take.
      dim = -1 - std::count_if(items.begin() + static_cast<std::ptrdiff_t>(k) + 1, items.end(),
                               [](const TreeRef& t) { return t->kind() != TreeKind::NoneLiteral; });
    }
    Value* d = constant(IValue(dim));
    if (item->kind() == TreeKind::Slice) {
      SliceView sl(*item);
      Value* step = sl.step() ? emit_expr(*sl.step(), env) : constant(IValue(1));
      v = emit_builtin(Symbol::from_qual_string("aten::slice"),
                       {{v, r}, {d, r}, {opt_int(sl.start()), r}, {opt_int(sl.stop()), r}, {step, r}}, {}, r);
      ++dim;
    } else if (item->kind() == TreeKind::NoneLiteral) {
      v = emit_builtin(Symbol::from_qual_string("aten::unsqueeze"), {{v, r}, {d, r}}, {}, r);
      ++dim;
    } else {
      Value* idx = emit_expr(*item, env);
      if (idx->type()->kind() == TypeKind::Tensor) {
        if (k > ellipsis) fail(item->range(), "Ellipses followed by tensor indexing is currently not supported");
        tensor_indices.emplace_back(dim++, idx);
        continue;
      }
      if (idx->type()->kind() != TypeKind::Int)
        fail(item->range(), fmt::format("tensors are indexed by ints, slices, None and tensors, not {}", idx->type()->annotation_str()));
      v = emit_builtin(Symbol::from_qual_string("aten::select"), {{v, r}, {d, r}, {idx, r}}, {}, r);
    }
  }
  if (tensor_indices.empty()) return {v, {}};
  std::vector<Value*> list(static_cast<size_t>(tensor_indices.back().first + 1), nullptr);
  for (const auto& [at, t] : tensor_indices) list[static_cast<size_t>(at)] = t;
  return {v, list};
}

// The Tensor?[] aten::index and aten::index_put_ take (built where torch builds it: after
// an assigned number has been made a tensor).
Value* FunctionCompiler::tensor_index_list(const std::vector<Value*>& indices) {
  std::vector<Value*> list = indices;
  for (Value*& x : list)
    if (!x) x = none();
  return graph_->insert_node(graph_->create_list(Type::optional(Type::tensor()), list))->output();
}

Value* FunctionCompiler::emit_subscript(const Tree& e, Env& env) {
  SubscriptView s(e);
  Value* v = emit_expr(s.value(), env);
  const SourceRange& r = e.range();
  auto opt_int = [&](const Tree* t) { return t ? emit_expr(*t, env) : none(); };
  if (container_kind(v->type()) != ContainerKind::None) {
    if (s.items().size() != 1) fail(r, "a module container takes one subscript");
    return emit_container_index(v, *s.items()[0], r);
  }
  const TypeKind k = v->type()->kind();
  if (k == TypeKind::Tensor) {
    auto [view, indices] = emit_tensor_indexing(v, s.items(), env, r);
    if (indices.empty()) return view;
    return emit_builtin(Symbol::from_qual_string("aten::index"), {{view, r}, {tensor_index_list(indices), r}}, {}, r);
  }
  if (s.items().size() != 1) fail(r, fmt::format("a value of type {} takes one subscript", v->type()->annotation_str()));
  const Tree& item = *s.items()[0];
  if (item.kind() == TreeKind::Slice) {
    SliceView sl(item);
    Value* step = sl.step() ? emit_expr(*sl.step(), env) : constant(IValue(1));
    if (k == TypeKind::Tuple) {
      // Python's slice rules on the constant bounds; torch builds the result element by
      // element (TupleIndex each, then TupleConstruct), as here.
      auto bound = [&](const Tree* t) -> std::optional<int64_t> {
        if (!t) return std::nullopt;
        auto c = constant_of_tree(*t);
        if (!c || !c->isInt()) fail(t->range(), "tuple slice indices must be integer constants");
        return c->toInt();
      };
      const int64_t size = static_cast<int64_t>(v->type()->contained().size());
      const int64_t st = bound(sl.step()).value_or(1);
      if (st == 0) fail(sl.step()->range(), "slice step cannot be zero");
      const int64_t lower = st > 0 ? 0 : -1, upper = st > 0 ? size : size - 1;
      auto clamp_bound = [&](std::optional<int64_t> b, int64_t dflt) {
        if (!b) return dflt;
        int64_t x = *b < 0 ? *b + size : *b;
        return std::clamp(x, lower, upper);
      };
      const int64_t b = clamp_bound(bound(sl.start()), st > 0 ? lower : upper);
      const int64_t en = clamp_bound(bound(sl.stop()), st > 0 ? upper : lower);
      std::vector<Value*> items;
      for (int64_t i = b; st > 0 ? i < en : i > en; i += st) items.push_back(tuple_item(v, i, r));
      return graph_->insert_node(graph_->create_tuple(items))->set_source_range(r)->output();
    }
    return emit_builtin(Symbol::from_qual_string("aten::slice"), {{v, r}, {opt_int(sl.start()), r}, {opt_int(sl.stop()), r}, {step, r}},
                        {}, r);
  }
  if (k == TypeKind::Tuple) {
    auto c = constant_of_tree(item);
    if (!c || !c->isInt())
      fail(item.range(), fmt::format("Cannot index into a {} with a non-integer literal because we cannot resolve the output type",
                                     v->type()->annotation_str()));
    int64_t i = c->toInt();
    const int64_t size = static_cast<int64_t>(v->type()->contained().size());
    if (i < 0) i += size;
    if (i < 0 || i >= size)
      fail(item.range(), fmt::format("Tuple index out of range. Tuple is length {} and index is {}", size, c->toInt()));
    return tuple_item(v, i, r);
  }
  Value* idx = emit_expr(item, env);
  return emit_builtin(Symbol::from_qual_string("aten::__getitem__"), {{v, r}, {idx, item.range()}}, {}, r);
}

// torch.unique is Python (torch.functional) that picks its result's shape from constant
// flags and calls aten::_unique2, or aten::unique_dim with a dim; compiled the same way:
// the output alone, or a tuple with the inverse and/or the counts.
Value* FunctionCompiler::emit_torch_unique(const std::vector<CallArg>& args, const std::vector<CallKwarg>& kwargs,
                                           const SourceRange& range) {
  static const std::vector<std::string> kParams = {"input", "sorted", "return_inverse", "return_counts", "dim"};
  const std::vector<Value*> given = bind_python_call("unique", kParams, args, kwargs, range);
  auto flag = [&](size_t i, bool dflt) {
    if (!given[i]) return dflt;
    auto c = to_ivalue(given[i]);
    if (!c || !c->isBool()) fail(range, fmt::format("unique(): {} must be a constant bool", kParams[i]));
    return c->toBool();
  };
  const bool sorted = flag(1, true), inverse = flag(2, false), counts = flag(3, false);
  const bool has_dim = given[4] && given[4]->type()->kind() != TypeKind::None;
  std::vector<CallArg> call = {{given[0], range}};
  if (has_dim) call.push_back({given[4], range});
  for (bool b : {sorted, inverse, counts}) call.push_back({constant(IValue(b)), range});
  Value* all = emit_builtin(Symbol::from_qual_string(has_dim ? "aten::unique_dim" : "aten::_unique2"), call, {}, range);
  std::vector<Value*> picked = {tuple_item(all, 0, range)};
  if (inverse) picked.push_back(tuple_item(all, 1, range));
  if (counts) picked.push_back(tuple_item(all, 2, range));
  if (picked.size() == 1) return picked[0];
  return graph_->insert_node(graph_->create_tuple(picked))->set_source_range(range)->output();
}

// torch.norm is Python too (torch.functional): a string p ("fro", its default, or
// "nuc") calls aten::frobenius_norm or aten::nuclear_norm, any other p aten::norm over
// dim (every dim when None); an int dim is a one-element list. Compiled straight to the
// operator its branch calls; a string p must be a constant, as torch's branches are
// taken on its value. torch's refusals (another string, dtype= with a string p) raise
// when reached, as torch's do.
Value* FunctionCompiler::emit_torch_norm(const std::vector<CallArg>& args, const std::vector<CallKwarg>& kwargs,
                                         const SourceRange& range) {
  static const std::vector<std::string> kParams = {"input", "p", "dim", "keepdim", "out", "dtype"};
  const std::vector<Value*> given = bind_python_call("norm", kParams, args, kwargs, range);
  auto is_none = [&](size_t i) { return !given[i] || given[i]->type()->kind() == TypeKind::None; };
  Value* dim = nullptr;  // torch's None
  if (!is_none(2)) {
    dim = given[2];
    if (dim->type()->kind() == TypeKind::Int)
      dim = graph_->insert_node(graph_->create_list(Type::int_(), {dim}))->set_source_range(range)->output();
  }
  auto all_dims = [&] { return constant(IValue::list({}, Type::int_())); };
  auto raise = [&](const std::string& message, const char* cls) {
    insert(sym::prim_RaiseException, {constant(IValue(message)), constant(IValue(std::string(cls)))}, range, 0);
    return graph_->insert_node(graph_->create_uninitialized(Type::tensor()))->output();
  };
  std::vector<CallArg> call = {{given[0], range}};
  std::vector<CallKwarg> named;
  if (!is_none(4)) named.push_back({"out", given[4], range});
  Value* keepdim = given[3] ? given[3] : constant(IValue(false));
  if (given[1] && given[1]->type()->kind() != TypeKind::Str) {
    call.push_back({given[1], range});
    call.push_back({dim ? dim : all_dims(), range});
    call.push_back({keepdim, range});
    if (!is_none(5)) named.push_back({"dtype", given[5], range});
    return emit_builtin(Symbol::from_qual_string("aten::norm"), std::move(call), std::move(named), range);
  }
  std::string p = "fro";
  if (given[1]) {
    const auto c = to_ivalue(given[1]);
    if (!c || !c->isString()) fail(range, "torch.norm: torchlet needs a string p to be a constant ('fro' or 'nuc')");
    p = c->toStringRef();
  }
  if (p != "fro" && p != "nuc") return raise(fmt::format("only valid string values are 'fro' and 'nuc', found {}", p), "builtins.RuntimeError");
  if (!is_none(5))
    return raise(fmt::format("dtype argument is not supported in {} norm", p == "fro" ? "frobenius" : "nuclear"), "builtins.ValueError");
  if (p == "fro") {
    call.push_back({dim ? dim : all_dims(), range});
  } else if (dim) {
    call.push_back({dim, range});
  }
  call.push_back({keepdim, range});
  return emit_builtin(Symbol::from_qual_string(p == "fro" ? "aten::frobenius_norm" : "aten::nuclear_norm"), std::move(call),
                     std::move(named), range);
}

// torch.tensordot is Python too (torch.functional): dims is an int d (default 2: the
// last d dims of a with the first d of b), a (dims_a, dims_b) tuple or a two-list list,
// or a Tensor; each form ends in aten::tensordot(a, b, dims_a, dims_b). Compiled straight
// to that call. An int dims must be a constant here (torch builds the two lists at run
// time); a Tensor dims is not taken yet.
Value* FunctionCompiler::emit_torch_tensordot(const std::vector<CallArg>& args, const std::vector<CallKwarg>& kwargs,
                                              const SourceRange& range) {
  static const std::vector<std::string> kParams = {"a", "b", "dims", "out"};
  const std::vector<Value*> given = bind_python_call("tensordot", kParams, args, kwargs, range);
  if (!given[1]) fail(range, "tensordot() missing required argument 'b'");
  Value* dims = given[2];
  Value* dims_a = nullptr;
  Value* dims_b = nullptr;
  const TypePtr type = dims ? dims->type() : Type::int_();
  if (type->kind() == TypeKind::Int) {
    const auto c = dims ? to_ivalue(dims) : std::optional<IValue>(IValue(int64_t{2}));
    if (!c) {  // Note [tensordot's dims]
      std::vector<CallArg> call = {{given[0], range}, {given[1], range}, {dims, range}};
      std::vector<CallKwarg> named;
      if (given[3]) named.push_back({"out", given[3], range});
      return emit_user_call(*file_.tensordot_function(range), std::move(call), std::move(named), range);
    }
    const int64_t d = c->toInt();
    if (d < 0) {
      insert(sym::prim_RaiseException,
             {constant(IValue(fmt::format("tensordot expects dims >= 0, but got dims={}", d))),
              constant(IValue(std::string("builtins.RuntimeError")))},
             range, 0);
      return graph_->insert_node(graph_->create_uninitialized(Type::tensor()))->output();
    }
    // The lists are built here, so a literal like 10**12 must not become a list that long.
    constexpr int64_t kMaxDims = 1024;
    if (d > kMaxDims)
      fail(range, fmt::format("torch.tensordot: dims={} contracts more dimensions than torchlet builds lists for "
                              "(at most {})", d, kMaxDims));
    std::vector<IValue> last, first;
    for (int64_t i = 0; i < d; ++i) {
      last.emplace_back(i - d);
      first.emplace_back(i);
    }
    dims_a = constant(IValue::list(std::move(last), Type::int_()));
    dims_b = constant(IValue::list(std::move(first), Type::int_()));
  } else if (type->kind() == TypeKind::Tuple && type->contained().size() == 2) {
    dims_a = tuple_item(dims, 0, range);
    dims_b = tuple_item(dims, 1, range);
  } else if (type->kind() == TypeKind::List && type->contained()[0]->kind() == TypeKind::List) {
    Node* unpack = graph_->insert_node(graph_->create_list_unpack(dims, 2))->set_source_range(range);
    dims_a = unpack->output(0);
    dims_b = unpack->output(1);
  } else if (type->kind() == TypeKind::Tensor) {
    fail(range, "torch.tensordot: torchlet does not take dims as a Tensor yet (pass an int or the two lists of dims)");
  } else {
    fail(range, fmt::format("torch.tensordot: dims must be an int, Tuple[List[int], List[int]] or List[List[int]], "
                            "found {}", type->str()));
  }
  std::vector<CallArg> call = {{given[0], range}, {given[1], range}, {dims_a, range}, {dims_b, range}};
  std::vector<CallKwarg> named;
  if (given[3] && given[3]->type()->kind() != TypeKind::None) named.push_back({"out", given[3], range});
  return emit_builtin(Symbol::from_qual_string("aten::tensordot"), std::move(call), std::move(named), range);
}

// Element i (in range) of tuple v: a literal's own element, as torch's tuple lowering
// leaves it, else prim::TupleIndex.
Value* FunctionCompiler::tuple_item(Value* v, int64_t i, const SourceRange& range) {
  const auto at = static_cast<size_t>(i);
  if (v->node()->kind() == sym::prim_TupleConstruct) return v->node()->input(at);
  Node* n = graph_->insert_node(graph_->create(sym::prim_TupleIndex, {v, constant(IValue(i))}));
  n->set_source_range(range);
  n->output()->set_type(v->type()->contained()[at]);
  return n->output();
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

Value* FunctionCompiler::emit_call(const Tree& e, Env& env, const TypePtr& hint) {
  CallView c(e);
  std::vector<CallArg> args;
  std::vector<CallKwarg> kwargs;
  auto emit_args = [&](size_t skip) {
    for (size_t i = skip; i < c.args().size(); ++i) {
      if (c.args()[i]->kind() == TreeKind::Starred) fail(c.args()[i]->range(), "starred arguments are not supported");
      args.push_back({emit_expr(*c.args()[i], env), c.args()[i]->range()});
    }
    for (const auto& k : c.keywords()) {
      KeywordView kw(*k);
      kwargs.push_back({kw.name(), emit_expr(kw.value(), env), k->range()});
    }
  };
  const Tree& callee = c.callee();
  if (callee.kind() == TreeKind::Name) {  // a function bound to a local: _0 = __torch__.f ... _0(x)
    if (Value* fv = env.lookup(callee.str()); fv && fv->type()->as_function() && fv->type()->as_function()->function()) {
      emit_args(0);
      return emit_user_call(*fv->type()->as_function()->function(), std::move(args), std::move(kwargs), e.range());
    }
    // m(x) for a module m (a loop over a ModuleList binds one): its forward, as nn.Module's __call__.
    if (Value* mv = env.lookup(callee.str()); mv && mv->type()->as_class() && mv->type()->as_class()->is_module()) {
      emit_args(0);
      return emit_method_call(mv, *mv->type()->as_class(), "forward", std::move(args), std::move(kwargs), e.range());
    }
  }
  if (const std::string dotted = dotted_name(callee); !dotted.empty() && !env.lookup(dotted.substr(0, dotted.find('.')))) {
    if (dotted.rfind("ops.", 0) == 0 && std::count(dotted.begin(), dotted.end(), '.') == 2) {
      // ops.prim.X / ops.aten.X: an operator named by namespace, as archives' code/ spells them.
      const size_t d2 = dotted.rfind('.');
      const std::string ns = dotted.substr(4, d2 - 4), op = dotted.substr(d2 + 1);
      emit_args(0);
      if (ns == "prim" && op == "RaiseException") {
        if (args.empty() || args.size() > 2) fail(e.range(), "RaiseException takes a message and an optional class");
        insert(sym::prim_RaiseException, {args[0].value, args.size() > 1 ? args[1].value : none()}, e.range(), 0);
        return none();
      }
      return emit_builtin(Symbol::make(ns, op), std::move(args), std::move(kwargs), e.range());
    }
    TypePtr named = dotted.find('.') != std::string::npos || !env.lookup(dotted) ? file_.resolve_type(dotted) : nullptr;
    if (const LibraryClass* lib = named || env.lookup("torch") ? nullptr : library_class(dotted))
      named = file_.library_class_type(*lib);
    if (named && named->is_named_tuple()) {
      emit_args(0);
      return construct_named_tuple(named, args, kwargs, e.range());
    }
    if (named && named->as_class() && !named->as_class()->is_module()) {
      // Foo(args): a new object, then its __init__.
      const ClassType* cls = named->as_class();
      Function* init = cls->find_method("__init__");
      if (!init) fail(callee.range(), fmt::format("class {} has no __init__", cls->name()));
      emit_args(0);
      Value* obj = graph_->insert_node(graph_->create_object(named))->set_source_range(e.range())->output();
      std::vector<CallArg> init_args{{obj, e.range()}};
      init_args.insert(init_args.end(), args.begin(), args.end());
      TypeEnv tenv;
      std::string why;
      auto inputs = match_arguments(init->schema(), param_types(*init), init->defaults(), init_args, kwargs, tenv, why);
      if (!inputs) fail(e.range(), fmt::format("{}:\n{}\n", init->schema().str(), why));
      Node* call = graph_->insert_node(graph_->create(sym::prim_CallMethod, *inputs));
      call->set_s(sym::attr_name, "__init__");
      call->set_source_range(e.range());
      call->output()->set_type(Type::none());
      return obj;
    }
    // C.__new__(C): an object of class C with its attributes unset, as torch's printer
    // writes a constructor call (the __init__ call follows as a method call).
    if (dotted.size() > 8 && dotted.ends_with(".__new__")) {
      if (TypePtr cls = file_.resolve_type(dotted.substr(0, dotted.size() - 8)); cls && cls->as_class()) {
        if (c.args().size() != 1 || dotted_name(*c.args()[0]) != dotted.substr(0, dotted.size() - 8) ||
            !c.keywords().empty())
          fail(e.range(), fmt::format("{} takes its own class as its one argument", dotted));
        return graph_->insert_node(graph_->create_object(cls))->set_source_range(e.range())->output();
      }
    }
    if (dotted.rfind("__torch__.", 0) == 0) {
      Function* fn = file_.resolve_function(dotted, callee.range());
      if (!fn) fail(callee.range(), fmt::format("unknown function {}", dotted));
      emit_args(0);
      return emit_user_call(*fn, std::move(args), std::move(kwargs), e.range());
    }
  }
  // `fork(fn, args)`: the spelling archives' code/ uses for torch.jit.fork (torch's
  // importer defines it; torchlet's printer writes it).
  const bool archive_fork = callee.kind() == TreeKind::Name && callee.str() == "fork" && !env.lookup("fork") &&
                            !file_.function("fork", callee.range());
  // torch.jit.annotate is annotate; torch.jit.is_scripting() is True here, a constant,
  // so `if torch.jit.is_scripting():` compiles one branch (as in torch).
  std::string jit_builtin;
  if (callee.kind() == TreeKind::Attribute && !env.lookup("torch")) {
    const std::string full = dotted_name(callee);
    if (full == "torch.jit.annotate") jit_builtin = "annotate";
    if (full == "torch.jit.isinstance") return emit_isinstance(e, env);  // isinstance with a container type
    if (full == "torch.jit.is_scripting") {
      if (!c.args().empty() || !c.keywords().empty()) fail(e.range(), "torch.jit.is_scripting() takes no arguments");
      return constant(IValue(true), e.range());
    }
  }
  if (!jit_builtin.empty() || (callee.kind() == TreeKind::Name && !env.lookup(callee.str()) && !archive_fork)) {
    const std::string& name = jit_builtin.empty() ? callee.str() : jit_builtin;
    if (name == "getattr") {  // getattr(self, "0"): attributes whose names are not identifiers
      if (c.args().size() != 2 || c.args()[1]->kind() != TreeKind::StringLiteral) fail(e.range(), "getattr takes an object and a string literal");
      Value* obj = emit_expr(*c.args()[0], env);
      const ClassType* cls = obj->type()->as_class();
      const std::string& field = c.args()[1]->str();
      if (!cls || !cls->find_attribute(field)) fail(e.range(), fmt::format("object of type {} has no attribute '{}'", obj->type()->annotation_str(), field));
      return graph_->insert_node(graph_->create_get_attr(obj, field))->set_source_range(e.range())->output();
    }
    if (name == "uninitialized") {
      if (c.args().size() != 1) fail(e.range(), "uninitialized takes a type");
      return graph_->insert_node(graph_->create_uninitialized(parse_annotation(*c.args()[0])))->output();
    }
    if (Function* fn = file_.function(name, callee.range())) {
      emit_args(0);
      return emit_user_call(*fn, std::move(args), std::move(kwargs), e.range());
    }
    if (name == "annotate" || name == "unchecked_cast") {
      if (c.args().size() != 2) fail(e.range(), name + "() takes a type and a value");
      TypePtr t = parse_annotation(*c.args()[0]);
      Value* v = emit_expr(*c.args()[1], env, t);
      if (name == "unchecked_cast") return graph_->insert_node(graph_->create_unchecked_cast(v, t))->output();
      TypeEnv tenv;
      if (!match_type(t, v->type(), tenv)) fail(e.range(), fmt::format("annotate: a value of type {} is not a {}", v->type()->annotation_str(), t->annotation_str()));
      return v;
    }
    if (name == "isinstance") return emit_isinstance(e, env);
    if (name == "hasattr") {  // decided by the class, as torch does (so `if hasattr(m, "w"):` compiles one branch)
      if (c.args().size() != 2 || c.args()[1]->kind() != TreeKind::StringLiteral)
        fail(e.range(), "hasattr's second argument must be a string literal");
      Value* obj = emit_expr(*c.args()[0], env);
      const ClassType* cls = obj->type()->as_class();
      if (!cls) fail(e.range(), fmt::format("hasattr's first argument must be an object, found {}", obj->type()->annotation_str()));
      const std::string& field = c.args()[1]->str();
      return constant(IValue(cls->find_attribute(field).has_value() || cls->find_constant(field) || cls->find_method(field)), e.range());
    }
    if (name == "list" && c.args().size() == 1 && c.keywords().empty()) {
      // list(it) is [x for x in it], as torch desugars it: range, enumerate and zip are
      // not values, a dict lists its keys and a tuple's loop unrolls; a list or str goes to
      // aten::list.
      const SourceRange& r = e.range();
      auto comprehension_over = [&](const TreeRef& iterable, Env& scope) {
        TreeRef elem = Tree::name(r, "$_elem");
        TreeRef gen = Tree::make(TreeKind::Comprehension, r, {elem, iterable, Tree::list(r, {})});
        return emit_comprehension(*Tree::make(TreeKind::ListComp, r, {elem, Tree::list(r, {gen})}), scope, hint);
      };
      const TreeRef& arg = c.args()[0];
      if (arg->kind() == TreeKind::Call && CallView(*arg).callee().kind() == TreeKind::Name) {
        const std::string& f = CallView(*arg).callee().str();
        if ((f == "range" || f == "enumerate" || f == "zip") && !env.lookup(f)) return comprehension_over(arg, env);
      }
      Value* v = emit_expr(*arg, env);
      if (v->type()->kind() == TypeKind::Dict || v->type()->kind() == TypeKind::Tuple) {
        Env scope;  // the dict (tuple) under a name no program can spell, as torch's $_iter
        scope.parent = &env;
        scope.values["$_iter"] = v;
        return comprehension_over(Tree::name(r, "$_iter"), scope);
      }
      return emit_builtin(Symbol::from_qual_string("aten::list"), {{v, r}}, {}, r);
    }
    emit_args(0);
    if (name == "bool" && args.size() == 1 && kwargs.empty()) {
      // bool(s), bool(l), bool(d): len(x) > 0, as torch compiles them.
      const TypeKind k = args[0].value->type()->kind();
      if (k == TypeKind::Str || k == TypeKind::List || k == TypeKind::Dict) {
        Value* n = emit_builtin(Symbol::from_qual_string("aten::len"), std::move(args), {}, e.range());
        return emit_builtin(Symbol::from_qual_string("aten::gt"), {{n, e.range()}, {constant(IValue(int64_t{0})), e.range()}}, {},
                            e.range());
      }
    }
    if (name == "len" && args.size() == 1 && kwargs.empty() && container_kind(args[0].value->type()) != ContainerKind::None)
      return constant(IValue(static_cast<int64_t>(container_children(args[0].value->type()).size())), e.range());
    static const std::unordered_map<std::string, const char*> kBuiltins = {
        {"len", "aten::len"},   {"int", "aten::Int"},     {"float", "aten::Float"}, {"bool", "aten::Bool"},
        {"str", "aten::str"},   {"print", "prim::Print"}, {"abs", "prim::abs"},     {"min", "prim::min"},
        {"max", "prim::max"},   {"list", "aten::list"},   {"round", "aten::round"}, {"divmod", "aten::divmod"},
        {"hash", "aten::hash"}, {"ord", "aten::ord"},     {"chr", "aten::chr"},     {"sorted", "aten::sorted"},
        {"sum", "aten::sum"},   {"all", "aten::all"},     {"any", "aten::any"},     {"hex", "aten::hex"},
        {"oct", "aten::oct"},   {"bin", "aten::bin"}};
    auto it = kBuiltins.find(name);
    if (it == kBuiltins.end()) fail(callee.range(), fmt::format("undefined value {}", name));
    if (name == "print") {
      std::vector<Value*> vals;
      for (auto& a : args) vals.push_back(a.value);
      insert(Symbol::from_qual_string("prim::Print"), vals, e.range(), 0);
      return none();
    }
    if (name == "min" || name == "max") {
      if (args.size() == 2 || args.size() == 1) return emit_builtin(Symbol::from_qual_string(it->second), args, kwargs, e.range());
    }
    return emit_builtin(Symbol::from_qual_string(it->second), std::move(args), std::move(kwargs), e.range());
  }
  if (const std::string full = dotted_name(callee);
      archive_fork || ((full == "torch.jit.fork" || full == "torch.jit._fork" || full == "torch.jit.wait" ||
                        full == "torch.jit._wait" || full == "torch.wait") && !env.lookup("torch"))) {
    if (full.ends_with("wait")) {
      emit_args(0);
      if (args.size() != 1 || args[0].value->type()->kind() != TypeKind::Future) fail(e.range(), "torch.jit.wait takes a future");
      Node* n = graph_->insert_node(graph_->create(Symbol::from_qual_string("aten::wait"), {args[0].value}));
      n->set_source_range(e.range());
      n->output()->set_type(args[0].value->type()->contained()[0]);
      return n->output();
    }
    // torch.jit.fork(fn, args...): prim::fork on the function, its result a Future.
    if (!c.args().empty() && c.args()[0]->kind() == TreeKind::Name) {
      if (auto cl = closures_.find(c.args()[0]->str()); cl != closures_.end()) {
        if (c.args().size() != 1 || !c.keywords().empty()) fail(e.range(), "fork of a nested function takes no arguments");
        std::vector<Value*> inputs{function_value(cl->second.fn, c.args()[0]->range())};
        inputs.insert(inputs.end(), cl->second.captured.begin(), cl->second.captured.end());
        Node* n = graph_->insert_node(graph_->create(sym::prim_fork, inputs));
        n->set_source_range(e.range());
        n->output()->set_type(Type::future(cl->second.fn->return_type()));
        return n->output();
      }
    }
    emit_args(0);
    if (args.empty() || !args[0].value->type()->as_function() || !args[0].value->type()->as_function()->function())
      fail(e.range(), "torch.jit.fork takes a function and its arguments");
    Function* fn = args[0].value->type()->as_function()->function();
    std::vector<CallArg> rest(args.begin() + 1, args.end());
    TypeEnv tenv;
    std::string why;
    auto inputs = match_arguments(fn->schema(), param_types(*fn), fn->defaults(), rest, kwargs, tenv, why);
    if (!inputs) fail(e.range(), fmt::format("{}() {}", fn->name(), why));
    inputs->insert(inputs->begin(), args[0].value);
    Node* n = graph_->insert_node(graph_->create(sym::prim_fork, *inputs));
    n->set_source_range(e.range());
    n->output()->set_type(Type::future(fn->return_type()));
    return n->output();
  }
  if (callee.kind() == TreeKind::Attribute) {
    AttributeView a(callee);
    // torch.X(...), math.X(...), torch.nn.functional.X(...) -> aten::X
    std::string dotted;
    for (const Tree* t = &callee; t->kind() == TreeKind::Attribute; t = &AttributeView(*t).value()) {
      if (AttributeView(*t).value().kind() == TreeKind::Name) dotted = AttributeView(*t).value().str();
    }
    if (a.value().kind() == TreeKind::Name && !env.lookup(a.value().str()) &&
        (a.value().str() == "torch" || a.value().str() == "math" || a.value().str() == "F")) {
      if (a.value().str() == "F") {
        emit_args(0);
        return emit_nn_functional_call(a.name(), std::move(args), std::move(kwargs), callee.range(), e.range());
      }
      if (a.value().str() == "torch" && a.name() == "unique") {
        emit_args(0);
        return emit_torch_unique(args, kwargs, e.range());
      }
      if (a.value().str() == "torch" && a.name() == "norm") {
        emit_args(0);
        return emit_torch_norm(args, kwargs, e.range());
      }
      if (a.value().str() == "torch" && a.name() == "tensordot" && !file_.archive_code()) {
        emit_args(0);
        return emit_torch_tensordot(args, kwargs, e.range());
      }
      if (OperatorRegistry::global().overloads(canonical_operator(Symbol::make("aten", a.name()))).empty())
        fail(callee.range(), fmt::format("object has no attribute {}", a.name()));
      emit_args(0);
      return emit_builtin(Symbol::make("aten", a.name()), std::move(args), std::move(kwargs), e.range());
    }
    // warnings.warn(message, stacklevel=2) is aten::warn, as torch compiles it.
    if (a.value().kind() == TreeKind::Name && a.value().str() == "warnings" && a.name() == "warn" && !env.lookup("warnings")) {
      emit_args(0);
      return emit_builtin(Symbol::from_qual_string("aten::warn"), std::move(args), std::move(kwargs), e.range());
    }
    if (a.value().kind() == TreeKind::Attribute && !env.lookup(dotted) && dotted == "torch") {
      emit_args(0);  // torch.nn.functional.relu and friends; torch.linalg.norm is aten::linalg_norm
      const std::string module = dotted_name(a.value());
      if (module == "torch.nn.functional")
        return emit_nn_functional_call(a.name(), std::move(args), std::move(kwargs), callee.range(), e.range());
      std::string op = a.name();
      for (const char* prefixed : {"linalg", "special", "fft"})
        if (module == std::string("torch.") + prefixed) op = std::string(prefixed) + "_" + op;
      return emit_builtin(Symbol::make("aten", op), std::move(args), std::move(kwargs), e.range());
    }
    // Cls.m(...) for a @staticmethod m of a class of this file.
    if (a.value().kind() == TreeKind::Name && !env.lookup(a.value().str())) {
      if (Function* fn = file_.static_method(a.value().str(), a.name(), callee.range())) {
        emit_args(0);
        return emit_user_call(*fn, std::move(args), std::move(kwargs), e.range());
      }
    }
    // A method: on an object of a class, prim::CallMethod; else the aten:: builtin with self first.
    Value* self = emit_expr(a.value(), env);
    if (const ClassType* cls = self->type()->as_class()) {
      emit_args(0);
      return emit_method_call(self, *cls, a.name(), std::move(args), std::move(kwargs), e.range());
    }
    if (const InterfaceType* it = self->type()->as_interface()) {
      const auto* m = file_.interface_method(it->name(), a.name());
      if (!m) fail(callee.range(), fmt::format("interface {} has no method '{}'", it->name(), a.name()));
      emit_args(0);
      TypeEnv tenv;
      std::string why;
      auto bound = match_arguments(m->schema, m->types, std::vector<std::optional<IValue>>(m->types.size()), args, kwargs, tenv, why);
      if (!bound) fail(e.range(), fmt::format("{}() {}", a.name(), why));
      bound->insert(bound->begin(), self);
      Node* n = graph_->insert_node(graph_->create(sym::prim_CallMethod, *bound));
      n->set_s(sym::attr_name, a.name());
      n->set_source_range(e.range());
      n->output()->set_type(m->returns);
      return n->output();
    }
    emit_args(0);
    if (self->type()->kind() == TypeKind::Tensor && a.name() == "tolist" && args.empty() && kwargs.empty()) {
      // x.tolist() where an annotation says the result's type: prim::tolist(x, depth, kind).
      int64_t depth = 0;
      TypePtr t = hint;
      for (; t && t->kind() == TypeKind::List; t = t->contained()[0]) ++depth;
      if (depth == 0 || !t || (t->kind() != TypeKind::Int && t->kind() != TypeKind::Float && t->kind() != TypeKind::Bool))
        fail(e.range(), "Expected type hint for result of tolist()");
      const int64_t kind = t->kind() == TypeKind::Int ? 0 : t->kind() == TypeKind::Float ? 1 : 2;
      Node* n = graph_->insert_node(graph_->create(Symbol::from_qual_string("prim::tolist"),
                                                   {self, constant(IValue(depth)), constant(IValue(kind))}));
      n->set_op(OperatorRegistry::global().overloads(Symbol::from_qual_string("prim::tolist")).at(0));
      n->set_source_range(e.range());
      n->output()->set_type(hint);
      return n->output();
    }
    if (self->type()->kind() == TypeKind::Tensor && args.empty() && kwargs.empty()) {
      // x.long(), x.float(), ...: aten::to(x, dtype, False, False, None), as torch compiles them.
      static const std::unordered_map<std::string, DType> kCasts = {
          {"long", DType::Long}, {"int", DType::Int},   {"float", DType::Float}, {"double", DType::Double}, {"half", DType::Half},
          {"bool", DType::Bool}, {"byte", DType::Byte}, {"char", DType::Char},   {"short", DType::Short},   {"bfloat16", DType::BFloat16}};
      if (auto cast = kCasts.find(a.name()); cast != kCasts.end()) {
        const SourceRange& r = e.range();
        return emit_builtin(Symbol::from_qual_string("aten::to"),
                            {{self, r}, {constant(IValue(static_cast<int64_t>(cast->second))), r}, {constant(IValue(false)), r},
                             {constant(IValue(false)), r}, {none(), r}},
                            {}, r);
      }
    }
    if (OperatorRegistry::global().overloads(canonical_operator(Symbol::make("aten", a.name()))).empty())
      fail(callee.range(), fmt::format("'{}' object has no attribute or method '{}'.", self->type()->annotation_str(), a.name()));
    args.insert(args.begin(), CallArg{self, a.value().range()});
    return emit_builtin(Symbol::make("aten", a.name()), std::move(args), std::move(kwargs), e.range());
  }
  Value* not_callable = emit_expr(callee, env);
  if (const ClassType* cls = not_callable->type()->as_class(); cls && cls->is_module()) {  // self.layers[0](x)
    emit_args(0);
    return emit_method_call(not_callable, *cls, "forward", std::move(args), std::move(kwargs), e.range());
  }
  fail(callee.range(), fmt::format("cannot call a value of type '{}'", not_callable->type()->annotation_str()));
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

Value* FunctionCompiler::convert(Value* v, const TypePtr& formal, const SchemaArgument* arg, TypeEnv& env) {
  TypeEnv trial = env;
  if (match_type(formal, v->type(), trial)) {
    env = trial;
    return v;
  }
  const TypeKind fk = formal->kind();
  const TypeKind vk = v->type()->kind();
  // int[2] (or int[1]?) given one int: torch repeats it.
  // A function's BroadcastingList2[float] (or [Optional[int]]) given one element likewise.
  if ((vk == TypeKind::Int || vk == TypeKind::Float) && arg) {
    const SchemaType* st = arg->type.get();
    if (st->kind == SchemaType::Kind::Optional && !st->contained.empty()) st = st->contained[0].get();
    const TypePtr& list = fk == TypeKind::Optional ? formal->contained()[0] : formal;
    TypeEnv elem_env;
    if (st->kind == SchemaType::Kind::List && st->fixed_size && list->kind() == TypeKind::List &&
        match_type(list->contained()[0], v->type(), elem_env)) {
      std::vector<Value*> items(static_cast<size_t>(*st->fixed_size), v);
      return graph_->insert_node(graph_->create_list(list->contained()[0], items))->output();
    }
  }
  // A tuple where a list (or an optional one) is expected: (1, 2) for int[], x.sum((0,))
  // for int[1]? dim, len(t) or torch.cat(t) for a tuple value. torch's rule: against an
  // element type with a type variable the tuple's element types must unify, so
  // len((1, 2.0)) skips len.t and takes len.any; otherwise each must be a subtype.
  const TypePtr& list_formal = fk == TypeKind::Optional ? formal->contained()[0] : formal;
  if (list_formal->kind() == TypeKind::List && vk == TypeKind::Tuple) {
    const TypePtr& elem = list_formal->contained()[0];
    const std::vector<TypePtr>& elem_types = v->type()->contained();
    TypeEnv trial_env = env;
    TypePtr concrete = elem;
    if (has_type_variables(elem)) {
      if (elem_types.empty()) {
        concrete = Type::int_();  // (): torch's empty literal is an int list
      } else {
        auto unified = unify_type_list(elem_types);
        concrete = unified && match_type(elem, *unified, trial_env) ? substitute_type_variables(elem, trial_env) : nullptr;
        if (concrete && has_type_variables(concrete)) concrete = *unified;
      }
    }
    const bool fits = concrete && std::all_of(elem_types.begin(), elem_types.end(),
                                              [&](const TypePtr& t) { return t->is_subtype_of(*concrete); });
    if (fits) {
      std::vector<Value*> items = v->node()->kind() == sym::prim_TupleConstruct
                                      ? v->node()->inputs()
                                      : graph_->insert_node(graph_->create_tuple_unpack(v))->outputs();
      return graph_->insert_node(graph_->create_list(concrete, items))->output();
    }
  }
  // A tuple for a Union with a list member: F.interpolate(x, size=(6, 6)), whose size is
  // Union[int, List[int], None] here (torch declares overloads).
  if (fk == TypeKind::Union && vk == TypeKind::Tuple) {
    for (const TypePtr& member : formal->contained()) {
      if (member->kind() != TypeKind::List) continue;
      Value* converted = convert(v, member, arg, env);
      if (converted != v) return converted;
    }
  }
  // Number <-> bool and int -> float where the language converts implicitly.
  if (fk == TypeKind::Float && vk == TypeKind::Int) {
    if (auto c = to_ivalue(v)) return constant(IValue(static_cast<double>(c->toInt())));
  }
  // A Scalar (Tensor.item()) where a float or int is expected: aten::Float / aten::Int.
  if (vk == TypeKind::Number && (fk == TypeKind::Float || fk == TypeKind::Int))
    return emit_builtin(Symbol::from_qual_string(fk == TypeKind::Float ? "aten::Float" : "aten::Int"), {{v, {}}}, {}, {});
  // Truth values are conditions' conversions (arg == nullptr), never an argument's.
  if (arg) return v;
  if (fk == TypeKind::Bool && vk == TypeKind::Tensor) return emit_builtin(Symbol::from_qual_string("aten::Bool"), {{v, {}}}, {}, {});
  if (fk == TypeKind::Bool && (vk == TypeKind::Int || vk == TypeKind::Float)) return emit_builtin(Symbol::from_qual_string("aten::Bool"), {{v, {}}}, {}, {});
  if (fk == TypeKind::Bool && (vk == TypeKind::List || vk == TypeKind::Str || vk == TypeKind::Dict)) {
    Value* n = emit_builtin(Symbol::from_qual_string("aten::len"), {{v, {}}}, {}, {});
    return emit_builtin(Symbol::from_qual_string("aten::gt"), {{n, {}}, {constant(IValue(0)), {}}}, {}, {});
  }
  if (fk == TypeKind::Bool && vk == TypeKind::Optional) return emit_builtin(Symbol::from_qual_string("aten::__isnot__"), {{v, {}}, {none(), {}}}, {}, {});
  if (fk == TypeKind::Device && vk == TypeKind::Str) return emit_builtin(Symbol::from_qual_string("aten::device"), {{v, {}}}, {}, {});
  return v;  // the caller reports the mismatch
}

std::optional<std::vector<Value*>> FunctionCompiler::match_arguments(const FunctionSchema& schema, const std::vector<TypePtr>& types,
                                                                     const std::vector<std::optional<IValue>>& defaults,
                                                                     const std::vector<CallArg>& args,
                                                                     const std::vector<CallKwarg>& kwargs, TypeEnv& env,
                                                                     std::string& why) {
  const auto& formals = schema.arguments;
  size_t positional = 0;
  for (const auto& f : formals) positional += f.kwarg_only ? 0 : 1;
  // x.view(2, -1): ints past the last positional int[] formal are that list, as torch allows.
  std::vector<CallArg> packed;
  // Likewise torch.einsum("ij,jk", a, b) for a Tensor[] formal: the last positional list
  // formal (not a type variable's, not a fixed-size int[2]) takes the trailing arguments
  // that each fit its element type (torch's varargsCanBeUsedAsList).
  if (args.size() >= positional && positional > 0 && types[positional - 1]->kind() == TypeKind::List) {
    const TypePtr& elem = types[positional - 1]->contained()[0];
    const SchemaType* st = formals[positional - 1].type.get();
    const bool fixed = st && st->kind == SchemaType::Kind::List && st->fixed_size;
    // (Not when the argument there is a list already or converts to one: a tuple.)
    const TypeKind first = args[positional - 1].value->type()->kind();
    // (A fixed-size int[2] given one int repeats it instead: adaptive_avg_pool2d(x, 1).)
    bool all_fit = elem->kind() != TypeKind::Var && !fixed && first != TypeKind::Tuple;
    for (size_t i = positional - 1; i < args.size() && all_fit; ++i) {
      TypeEnv tenv;
      all_fit = args[i].value->type()->kind() != TypeKind::List && match_type(elem, args[i].value->type(), tenv);
    }
    if (all_fit) {
      std::vector<Value*> items;
      for (size_t i = positional - 1; i < args.size(); ++i) items.push_back(args[i].value);
      packed.assign(args.begin(), args.begin() + static_cast<std::ptrdiff_t>(positional - 1));
      packed.push_back({graph_->insert_node(graph_->create_list(elem, items))->output(), args.back().range});
    }
  }
  const std::vector<CallArg>& given = packed.empty() ? args : packed;
  return match_given(schema, types, defaults, given, kwargs, env, why);
}

std::optional<std::vector<Value*>> FunctionCompiler::match_given(const FunctionSchema& schema, const std::vector<TypePtr>& types,
                                                                 const std::vector<std::optional<IValue>>& defaults,
                                                                 const std::vector<CallArg>& args,
                                                                 const std::vector<CallKwarg>& kwargs, TypeEnv& env,
                                                                 std::string& why) {
  const auto& formals = schema.arguments;
  size_t positional = 0;
  for (const auto& f : formals) positional += f.kwarg_only ? 0 : 1;
  if (args.size() > positional && !schema.is_vararg) {
    why = fmt::format("Expected at most {} arguments but found {} positional arguments.", positional, args.size());
    return std::nullopt;
  }
  std::vector<Value*> out;
  std::vector<bool> used(kwargs.size(), false);
  // Conversions insert nodes; a failed overload must not leave them behind.
  std::vector<Node*> inserted;
  auto undo = [&] {
    for (auto it = inserted.rbegin(); it != inserted.rend(); ++it) if (!(*it)->has_uses()) (*it)->destroy();
  };
  for (size_t i = 0; i < formals.size(); ++i) {
    Value* v = nullptr;
    if (i < args.size() && !formals[i].kwarg_only) {
      v = args[i].value;
    } else {
      for (size_t k = 0; k < kwargs.size(); ++k)
        if (kwargs[k].name == formals[i].name) {
          v = kwargs[k].value;
          used[k] = true;
        }
    }
    if (!v) {
      if (i >= defaults.size() || !defaults[i]) {
        why = fmt::format("Argument {} not provided.", formals[i].name);
        undo();
        return std::nullopt;
      }
      v = constant(*defaults[i]);
      v->set_type(defaults[i]->isNone() ? Type::none() : v->type());
      inserted.push_back(v->node());
    }
    Node* before = graph_->insert_point()->prev();
    Value* conv = convert(v, types[i], &formals[i], env);
    for (Node* n = before->next(); n != graph_->insert_point(); n = n->next()) inserted.push_back(n);
    TypeEnv check = env;
    if (!match_type(types[i], conv->type(), check)) {
      why = fmt::format("Expected a value of type '{}' for argument '{}' but instead found type '{}'.",
                        types[i]->annotation_str(), formals[i].name, v->type()->annotation_str());
      undo();
      return std::nullopt;
    }
    env = check;
    out.push_back(conv);
  }
  if (schema.is_vararg)
    for (size_t i = formals.size(); i < args.size(); ++i) out.push_back(args[i].value);
  for (size_t k = 0; k < kwargs.size(); ++k)
    if (!used[k]) {
      why = fmt::format("Keyword argument {} unknown.", kwargs[k].name);
      undo();
      return std::nullopt;
    }
  return out;
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

}  // namespace

// --- files and classes ----------------------------------------------------------------------

namespace {

// A method of an archive's class that does not compile here (it calls an operator
// torchlet lacks, say): the class still loads, and calling the method raises the
// compile error — torch compiles every method, but has every operator.
class UncompiledMethod : public Function {
 public:
  UncompiledMethod(std::string qualname, const Tree& def, TypePtr returns, std::string error)
      : Function(std::move(qualname)), returns_(std::move(returns)), error_(std::move(error)) {
    schema_.name = this->qualname();
    for (const auto& p : DefView(def).params()) {
      SchemaArgument a;
      a.type = std::make_shared<SchemaType>();
      a.type->name = "Any";
      a.name = ParamView(*p).name();
      schema_.arguments.push_back(std::move(a));
      defaults_.push_back(std::nullopt);
    }
  }
  const FunctionSchema& schema() const override { return schema_; }
  const std::vector<std::optional<IValue>>& defaults() const override { return defaults_; }
  TypePtr return_type() const override { return returns_; }
  void run(Stack&) const override {
    TL_FAIL(UnsupportedError, "{} could not be compiled when its archive was loaded: {}", qualname(), error_);
  }

 private:
  FunctionSchema schema_;
  std::vector<std::optional<IValue>> defaults_;
  TypePtr returns_;
  std::string error_;
};

}  // namespace

FileCompiler::FileCompiler(CompilationUnit& cu, const ParsedFile& file, std::string prefix, CompilerHooks hooks)
    : cu_(cu), file_(file), prefix_(std::move(prefix)), hooks_(std::move(hooks)),
      depth_(hooks_.nesting ? hooks_.nesting : std::make_shared<size_t>(0)) {
  for (const auto& st : file.statements) {
    if (st->kind() == TreeKind::Def) defs_[DefView(*st).name()] = st.get();
    else if (st->kind() == TreeKind::ClassDef) classes_[ClassDefView(*st).name()] = st.get();
    // imports and module-level assignments (op_version_set = 1) carry nothing to compile
  }
}

void FileCompiler::compile_all() {
  for (const auto& st : file_.statements) {
    if (st->kind() == TreeKind::Def) function(DefView(*st).name(), st->range());
    else if (st->kind() == TreeKind::ClassDef) class_type(ClassDefView(*st).name());
  }
}

Function* FileCompiler::function(const std::string& name, const SourceRange& use) {
  auto it = defs_.find(name);
  if (it == defs_.end()) return nullptr;
  const std::string qualname = prefix_ + name;
  if (Function* f = cu_.find_function(qualname)) return f;
  if (!in_progress_.insert(qualname).second)
    throw_compile_error(use, fmt::format("function '{}' is called recursively. Recursive calls are not supported", name));
  Nest nest(*this, use);
  GraphFunction* f = FunctionCompiler(*this, *it->second, qualname).compile();
  in_progress_.erase(qualname);
  return f;
}

TypePtr FileCompiler::parse_annotation(const Tree& ann, std::optional<int64_t>* broadcast) {
  // "Foo": a forward reference written as a string, as in Python.
  std::string text = ann.kind() == TreeKind::StringLiteral ? ann.str() : annotation_source(ann);
  if (const size_t at = text.find("BroadcastingList"); broadcast && at != std::string::npos) {
    size_t end = at + 16;
    while (end < text.size() && ascii_digit(text[end])) ++end;
    if (end > at + 16 && end - at - 16 < 3) {
      *broadcast = std::stoll(text.substr(at + 16, end - at - 16));
      text.replace(at, end - at, "List");
    }
  }
  // `torch.Tensor` is how Python code names the tensor type.
  for (size_t at; (at = text.find("torch.Tensor")) != std::string::npos;) text.replace(at, 12, "Tensor");
  for (const char* p : {"typing.", "t."})
    for (size_t at; (at = text.find(p)) != std::string::npos && (at == 0 || !ascii_alnum(text[at - 1]));)
      text.erase(at, std::string_view(p).size());
  try {
    return parse_type_annotation(text, false, [&](std::string_view name) { return resolve_type(std::string(name)); });
  } catch (const CompileError& e) {
    // torch's wording for a name it does not know; other errors as the parser says them.
    const std::string what = e.what();
    if (const size_t at = what.find("unknown type '"); at != std::string::npos) {
      const size_t b = at + 14, end = what.find('\'', b);
      throw_compile_error(ann.range(), fmt::format("Unknown type name '{}'", what.substr(b, end - b)));
    }
    throw_compile_error(ann.range(), fmt::format("unknown type annotation '{}': {}", text, what));
  }
}

TypePtr FileCompiler::resolve_type(const std::string& qualname) {
  if (TypePtr t = cu_.find_type(qualname)) return t;
  if (qualname.rfind(prefix_, 0) == 0 && classes_.count(qualname.substr(prefix_.size())))
    return class_type(qualname.substr(prefix_.size()));
  if (classes_.count(qualname)) return class_type(qualname);
  return hooks_.resolve_type ? hooks_.resolve_type(qualname) : nullptr;
}

TypePtr FileCompiler::library_class_type(const LibraryClass& c) {
  const std::string qualname = std::string(c.module) + "." + c.name;
  if (TypePtr t = resolve_type(qualname)) return t;
  SourceFile(cu_, parse_file(c.source, "<" + qualname + ">"), std::string(c.module) + ".").compile_all();
  TypePtr t = cu_.find_type(qualname);
  TL_INTERNAL_ASSERT(t, fmt::format("{} did not compile", qualname));
  return t;
}

Function* FileCompiler::nn_functional(const std::string& name, const SourceRange& use) {
  const std::string qualname = std::string(kNNFunctionalModule) + "." + name;
  if (Function* f = cu_.find_function(qualname)) return f;
  if (!nn_functional_defines(name)) return nullptr;
  // A loaded archive that carries torch's own compilation of it (methods defined on a
  // loaded module): that one, which its kept code already holds.
  if (Function* f = cu_.find_function("__torch__." + qualname)) return f;
  // Its own file compiler: the library's helpers resolve among themselves, and the
  // user's names (a function of theirs called relu) do not leak in.
  Nest nest(*this, use);
  SourceFile library(cu_, parse_file(nn_functional_source(), "<torch.nn.functional>"), std::string(kNNFunctionalModule) + ".");
  Function* f = library.function(name);
  TL_INTERNAL_ASSERT(f, fmt::format("{} did not compile", qualname));
  return f;
}

// Note [tensordot's dims]: torch.tensordot is Python (torch/functional.py) that turns an
// int dims into the two lists of dimensions aten::tensordot takes; torch.jit.script
// compiles it into __torch__.torch.functional.tensordot. torchlet builds the lists
// while compiling when dims is a constant (emit_torch_tensordot), and for an int known
// only at run time calls this function, compiled on first use as the nn.functional
// library is, so an archive carries it in code/__torch__/torch/functional.py as torch's
// archives do. The loop stops one past a's dimensions: past that, aten::tensordot
// refuses the first entry (-dims) whatever follows, so a huge dims fails as torch does
// without building a huge list.
Function* FileCompiler::tensordot_function(const SourceRange& use) {
  static constexpr const char* kSource = R"(def tensordot(a: Tensor, b: Tensor, dims: int=2, out: Optional[Tensor]=None) -> Tensor:
  if dims < 0:
    ops.prim.RaiseException("tensordot expects dims >= 0, but got dims={}".format(dims), "builtins.RuntimeError")
  dims_a = annotate(List[int], [])
  dims_b = annotate(List[int], [])
  for i in range(min(dims, a.dim() + 1)):
    dims_a.append(i - dims)
    dims_b.append(i)
  if out is None:
    return torch.tensordot(a, b, dims_a, dims_b)
  return torch.tensordot(a, b, dims_a, dims_b, out=out)
)";
  const std::string qualname = "torch.functional.tensordot";
  if (Function* f = cu_.find_function(qualname)) return f;
  // A loaded archive's own compilation, when torch compiled it for an int dims (it
  // mangles the variants for other dims types).
  if (Function* f = cu_.find_function("__torch__." + qualname)) {
    const std::vector<TypePtr> types = param_types(*f);
    if (types.size() == 4 && types[2]->kind() == TypeKind::Int) return f;
  }
  Nest nest(*this, use);
  SourceFile library(cu_, parse_file(kSource, "<torch.functional>"), "torch.functional.");
  Function* f = library.function("tensordot");
  TL_INTERNAL_ASSERT(f, "torch.functional.tensordot did not compile");
  return f;
}

Function* FileCompiler::resolve_function(const std::string& qualname, const SourceRange& use) {
  if (Function* f = cu_.find_function(qualname)) return f;
  if (qualname.rfind(prefix_, 0) == 0 && defs_.count(qualname.substr(prefix_.size())))
    return function(qualname.substr(prefix_.size()), use);
  return hooks_.resolve_function ? hooks_.resolve_function(qualname) : nullptr;
}

TypePtr FileCompiler::class_type(const std::string& name) {
  auto it = classes_.find(name);
  if (it == classes_.end()) return nullptr;
  const std::string qualname = prefix_ + name;
  if (TypePtr t = cu_.find_type(qualname)) return t;
  Nest nest(*this, it->second->range());
  ClassDefView cd(*it->second);
  if (cd.bases().size() == 1 && (cd.bases()[0]->range().text() == "NamedTuple" ||
                                 cd.bases()[0]->range().text() == "typing.NamedTuple")) {
    // class P(NamedTuple): x : int ... -> a NamedTuple type; calls construct tuples.
    std::vector<std::string> fields;
    std::vector<TypePtr> types;
    std::vector<std::optional<IValue>> defaults;
    for (const auto& st : cd.body()) {
      if (st->kind() == TreeKind::AnnAssign && AnnAssignView(*st).target().kind() == TreeKind::Name) {
        fields.push_back(AnnAssignView(*st).target().str());
        types.push_back(parse_annotation(AnnAssignView(*st).annotation()));
        defaults.emplace_back();
        if (const Tree* v = AnnAssignView(*st).value()) {
          defaults.back() = constant_of_tree(*v);
          if (!defaults.back()) throw_compile_error(v->range(), "NamedTuple field defaults must be constants");
          if (types.back()->kind() == TypeKind::Float && defaults.back()->isInt())
            defaults.back() = IValue(static_cast<double>(defaults.back()->toInt()));
        } else if (std::any_of(defaults.begin(), defaults.end() - 1, [](const auto& d) { return d.has_value(); })) {
          throw_compile_error(st->range(), "non-default NamedTuple field follows a default one");
        }
      } else if (st->kind() != TreeKind::Pass && st->kind() != TreeKind::ExprStmt) {
        throw_compile_error(st->range(), "NamedTuple classes hold field declarations only");
      }
    }
    TypePtr t = Type::named_tuple(qualname, std::move(fields), std::move(types));
    cu_.register_type(t);
    named_tuple_defaults_[qualname] = std::move(defaults);
    return t;
  }
  if (cd.bases().size() == 1 && (cd.bases()[0]->range().text() == "Enum" || cd.bases()[0]->range().text() == "enum.Enum"))
    return declare_enum(qualname, cd);
  auto is_module_base = [](std::string_view text) {
    return text == "Module" || text == "torch.nn.Module" || text == "nn.Module";
  };
  for (const auto& d : cd.decorators())
    if (const std::string n = decorator_name(*d); n == "torch.jit.interface" || n == "jit.interface" || n == "interface")
      return declare_interface(qualname, cd,
                               std::any_of(cd.bases().begin(), cd.bases().end(),
                                           [&](const auto& b) { return is_module_base(b->range().text()); }));
  // Archives spell interfaces as `class I(Interface):` / `class I(ModuleInterface):`.
  if (cd.bases().size() == 1 && (cd.bases()[0]->range().text() == "Interface" ||
                                 cd.bases()[0]->range().text() == "ModuleInterface"))
    return declare_interface(qualname, cd, cd.bases()[0]->range().text() == "ModuleInterface");
  bool is_module = false;
  for (const auto& base : cd.bases()) {
    const std::string_view text = base->range().text();
    if (is_module_base(text)) is_module = true;
    else if (text != "object") throw_compile_error(base->range(), fmt::format("class {}: only Module and object are supported as bases", name));
  }
  auto cls = ClassType::create(qualname, is_module);
  cu_.register_type(cls);
  // __parameters__ / __buffers__ name which attributes are parameters and buffers.
  std::unordered_set<std::string> params, buffers;
  for (const auto& st : cd.body()) {
    if (st->kind() != TreeKind::Assign) continue;
    AssignView a(*st);
    if (a.targets().size() != 1 || a.targets()[0]->kind() != TreeKind::Name) continue;
    const std::string& n = a.targets()[0]->str();
    if (n != "__parameters__" && n != "__buffers__") continue;
    if (a.value().kind() != TreeKind::ListLiteral) throw_compile_error(a.value().range(), n + " must be a list of names");
    for (const auto& item : a.value().children()) {
      if (item->kind() != TreeKind::StringLiteral) throw_compile_error(item->range(), n + " must be a list of names");
      (n == "__parameters__" ? params : buffers).insert(item->str());
    }
  }
  auto kind_of = [&](const std::string& n) {
    return params.count(n) ? ClassAttribute::Kind::Parameter
                           : buffers.count(n) ? ClassAttribute::Kind::Buffer : ClassAttribute::Kind::Regular;
  };
  for (const auto& st : cd.body()) {
    switch (st->kind()) {
      case TreeKind::AnnAssign: {
        AnnAssignView a(*st);
        if (a.target().kind() != TreeKind::Name) throw_compile_error(a.target().range(), "class attributes are declared by name");
        const Tree& ann = a.annotation();
        const bool is_final = ann.kind() == TreeKind::Subscript && SubscriptView(ann).value().range().text() == "Final";
        if (is_final) {  // `eps : Final[float] = 1e-05`: a class constant
          if (!a.value()) throw_compile_error(st->range(), "Final class attributes need a value");
          auto v = constant_of_tree(*a.value());
          if (!v) throw_compile_error(a.value()->range(), "Final class attributes must be constants");
          TypePtr t = parse_annotation(*SubscriptView(ann).items()[0]);
          if (t->kind() == TypeKind::Float && v->isInt()) v = IValue(static_cast<double>(v->toInt()));
          cls->add_constant(a.target().str(), *v);
        } else {
          cls->add_attribute(a.target().str(), parse_annotation(ann), kind_of(a.target().str()));
        }
        break;
      }
      case TreeKind::Assign: {
        AssignView a(*st);
        // __annotations__["0"] = T declares an attribute whose name is not an identifier.
        const Tree& target = *a.targets()[0];
        if (target.kind() == TreeKind::Subscript && SubscriptView(target).value().range().text() == "__annotations__") {
          const Tree& key = *SubscriptView(target).items()[0];
          if (key.kind() != TreeKind::StringLiteral) throw_compile_error(key.range(), "__annotations__ keys are strings");
          cls->add_attribute(key.str(), parse_annotation(a.value()), kind_of(key.str()));
        }
        break;  // __parameters__ / __buffers__ were read above; others carry nothing
      }
      case TreeKind::Def:
        if (has_decorator(DefView(*st), "staticmethod")) static_defs_[qualname][DefView(*st).name()] = st.get();
        else pending_methods_[qualname][DefView(*st).name()] = st.get();
        break;
      case TreeKind::Pass:
      case TreeKind::ExprStmt:  // docstrings
        break;
      default:
        throw_compile_error(st->range(), fmt::format("unexpected {} in a class body", tree_kind_description(st->kind())));
    }
  }
  // Methods compile now, so a class handed out is complete (methods defined later in
  // the body and called earlier are compiled on demand by method()).
  std::vector<std::string> names;
  // __init__ first: a TorchScript class's attributes are the ones it assigns.
  for (const auto& st : cd.body())
    if (st->kind() == TreeKind::Def && DefView(*st).name() == "__init__") names.push_back("__init__");
  for (const auto& st : cd.body())
    if (st->kind() == TreeKind::Def && DefView(*st).name() != "__init__") names.push_back(DefView(*st).name());
  for (const auto& m : names) method(*cls, m, cd.range());
  return cls;
}

// class Color(Enum): RED = 1 ... : an enum type whose members are the class's
// assignments of constants, all of one type (int, float or str), as torch requires.
TypePtr FileCompiler::declare_enum(const std::string& qualname, const ClassDefView& cd) {
  std::vector<std::pair<std::string, IValue>> members;
  TypePtr value_type;
  for (const auto& st : cd.body()) {
    if (st->kind() == TreeKind::Pass || st->kind() == TreeKind::ExprStmt) continue;
    if (st->kind() != TreeKind::Assign || AssignView(*st).targets().size() != 1 ||
        AssignView(*st).targets()[0]->kind() != TreeKind::Name)
      throw_compile_error(st->range(), "Enum classes hold member assignments (NAME = constant) only");
    auto v = constant_of_tree(AssignView(*st).value());
    if (!v || !(v->isInt() || v->isDouble() || v->isString()))
      throw_compile_error(AssignView(*st).value().range(), "Enum member values must be int, float or str constants");
    TypePtr t = type_of(*v);
    if (value_type && !(*value_type == *t))
      throw_compile_error(st->range(), fmt::format("Enum class with varying value types are not supported. Found {} and {}",
                                                   value_type->annotation_str(), t->annotation_str()));
    value_type = t;
    members.emplace_back(AssignView(*st).targets()[0]->str(), *v);
  }
  if (members.empty()) throw_compile_error(cd.range(), "Enum classes need at least one member");
  auto t = std::make_shared<EnumType>(qualname, value_type, std::move(members));
  cu_.register_type(t);
  return t;
}

// @torch.jit.interface class I: def m(self, x: int) -> int: ... : an interface type whose
// methods are the declared signatures (bodies are not compiled); a class with methods of
// those names is a subtype, and calls on an I dispatch by name on the object's class.
TypePtr FileCompiler::declare_interface(const std::string& qualname, const ClassDefView& cd, bool is_module) {
  auto t = std::make_shared<InterfaceType>(qualname, is_module);
  cu_.register_type(t);
  for (const auto& st : cd.body()) {
    if (st->kind() == TreeKind::Pass || st->kind() == TreeKind::ExprStmt) continue;
    if (st->kind() != TreeKind::Def) throw_compile_error(st->range(), "interfaces declare methods only");
    DefView def(*st);
    InterfaceMethod m;
    m.schema.name = def.name();
    for (size_t i = 0; i < def.params().size(); ++i) {
      ParamView param(*def.params()[i]);
      if (i == 0) continue;  // self
      if (!param.annotation()) throw_compile_error(def.params()[i]->range(), "interface method arguments need type annotations");
      SchemaArgument a;
      a.name = param.name();
      a.type = std::make_shared<SchemaType>();
      m.types.push_back(parse_annotation(*param.annotation()));
      a.type->name = m.types.back()->str();
      m.schema.arguments.push_back(std::move(a));
    }
    m.returns = def.return_annotation() ? parse_annotation(*def.return_annotation()) : Type::none();
    SchemaArgument r;
    r.type = std::make_shared<SchemaType>();
    r.type->name = m.returns->str();
    m.schema.returns.push_back(std::move(r));
    t->add_method(std::make_shared<FunctionSchema>(m.schema));
    interface_methods_[qualname][def.name()] = std::move(m);
  }
  return t;
}

Function* FileCompiler::static_method(const std::string& cls, const std::string& name, const SourceRange& use) {
  const std::string local = cls.rfind(prefix_, 0) == 0 ? cls.substr(prefix_.size()) : cls;
  if (!classes_.count(local)) return nullptr;
  TypePtr t = class_type(local);
  auto pc = static_defs_.find(t->name());
  if (pc == static_defs_.end()) return nullptr;
  auto pm = pc->second.find(name);
  if (pm == pc->second.end()) return nullptr;
  const std::string qualname = t->name() + "." + name;
  if (Function* f = cu_.find_function(qualname)) return f;
  if (!in_progress_.insert(qualname).second)
    throw_compile_error(use, fmt::format("function '{}' is called recursively. Recursive calls are not supported", qualname));
  Nest nest(*this, use);
  GraphFunction* f = FunctionCompiler(*this, *pm->second, qualname).compile();
  in_progress_.erase(qualname);
  return f;
}

Function* FileCompiler::method(const ClassType& cls, const std::string& name, const SourceRange& use) {
  if (Function* f = cls.find_method(name)) return f;
  auto pc = pending_methods_.find(cls.name());
  if (pc == pending_methods_.end()) return nullptr;
  auto pm = pc->second.find(name);
  if (pm == pc->second.end()) return nullptr;
  const std::string qualname = cls.name() + "." + name;
  if (!in_progress_.insert(qualname).second)
    throw_compile_error(use, fmt::format("method '{}' is called recursively. Recursive calls are not supported", name));
  auto self = cu_.find_class(cls.name());
  Function* f = nullptr;
  try {
    f = FunctionCompiler(*this, *pm->second, qualname, self).compile();
  } catch (const CompileError& e) {
    if (!hooks_.defer_method_errors) {
      in_progress_.erase(qualname);
      throw;
    }
    TypePtr returns = Type::any();
    if (const Tree* ann = DefView(*pm->second).return_annotation()) {
      try {
        returns = parse_annotation(*ann);
      } catch (const Error&) {
      }
    }
    f = cu_.adopt(std::make_unique<UncompiledMethod>(qualname, *pm->second, returns, e.what()));
    self->add_method(name, f);
  }
  in_progress_.erase(qualname);
  return f;
}

std::vector<Function*> FileCompiler::define_methods(const ClassTypePtr& cls) {
  defs_.clear();  // every def here is a method of cls, never a free function
  auto& pending = pending_methods_[cls->name()];
  std::vector<const Tree*> defs;
  for (const auto& st : file_.statements) {
    if (st->kind() != TreeKind::Def)
      throw_compile_error(st->range(), fmt::format("define() takes method definitions only, found {}", tree_kind_description(st->kind())));
    const std::string& name = DefView(*st).name();
    if (cls->find_method(name) || pending.count(name))
      throw_compile_error(st->range(), fmt::format("Can't redefine method: {} on class: {}", name, cls->name()));
    if (DefView(*st).params().empty()) throw_compile_error(st->range(), fmt::format("method {} takes no self argument", name));
    pending[name] = st.get();
    defs.push_back(st.get());
  }
  const std::vector<Function*> before = cu_.functions();
  std::vector<Function*> out;
  for (const Tree* d : defs) out.push_back(method(*cls, DefView(*d).name(), d->range()));
  for (Function* fn : out) cu_.add_defined_method(cls->name(), fn);
  // Functions compiled on the way that are not methods (fork's closures) are recorded
  // with no class: jit::save cannot place them in kept code yet, and says so.
  for (Function* fn : cu_.functions())
    if (std::find(before.begin(), before.end(), fn) == before.end() && std::find(out.begin(), out.end(), fn) == out.end())
      cu_.add_defined_method("", fn);
  return out;
}

SourceFile::SourceFile(CompilationUnit& cu, ParsedFile file, std::string prefix, CompilerHooks hooks)
    : file_(std::make_unique<ParsedFile>(std::move(file))),
      impl_(std::make_unique<FileCompiler>(cu, *file_, std::move(prefix), std::move(hooks))) {}
SourceFile::~SourceFile() = default;
TypePtr SourceFile::class_type(const std::string& name) { return impl_->class_type(name); }
Function* SourceFile::function(const std::string& name) { return impl_->function(name, {}); }
void SourceFile::compile_all() { impl_->compile_all(); }

std::shared_ptr<CompilationUnit> compile(const std::string& source, const std::string& filename) {
  auto cu = std::make_shared<CompilationUnit>();
  SourceFile(*cu, resolve_module_aliases(parse_file(source, filename)), "").compile_all();
  return cu;
}

std::vector<Function*> define_methods(CompilationUnit& cu, const ClassTypePtr& cls, const std::string& source,
                                      const std::string& filename) {
  // Names the source uses resolve to what the unit holds: an archive's classes and
  // functions are all there once its module is loaded (its classes compile whole).
  CompilerHooks hooks;
  hooks.resolve_type = [&cu](const std::string& q) { return cu.find_type(q); };
  hooks.resolve_function = [&cu](const std::string& q) { return cu.find_function(q); };
  ParsedFile file = parse_file(source, filename);
  FileCompiler fc(cu, file, "", std::move(hooks));
  return fc.define_methods(cls);
}

// Declared with Module (runtime/module.h) and defined here, a layer up, as torch defines
// CompilationUnit::define in its frontend: the runtime does not compile.
void Module::define(const std::string& source) { define_methods(*cu_, type_, source); }

}  // namespace torchlet::jit

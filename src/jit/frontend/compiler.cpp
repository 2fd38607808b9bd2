// The compiler (see compiler.h): one FunctionCompiler per `def`, emitting into a fresh
// graph through an environment chain that maps Python names to SSA values.
#include "jit/frontend/compiler.h"

#include <algorithm>
#include <functional>
#include <unordered_map>
#include <unordered_set>

#include <fmt/format.h>
#include <torchlet/dtype.h>

#include "jit/frontend/error_report.h"
#include "jit/frontend/parser.h"
#include "jit/runtime/schema_matching.h"

namespace torchlet::jit {

namespace {

// Names the compiler keeps in environments beside the user's variables: the value a
// `return` produced, and whether the current loop iteration should go on.
const char* const kReturnVar = "$return";
const char* const kContinueVar = "$continue";
// Note [Returns in loops]: a `return` inside a loop sets kReturnVar and kReturnedVar and
// ends the loop like a `break`; both are carried through the loop (initialised before it
// to an uninitialized value of the return type and False), and after the loop an If on
// kReturnedVar returns or runs the rest of the function.
const char* const kReturnedVar = "$returned";

// A scope of bindings for one block being emitted; lookups fall back to the parent.
struct Env {
  Env* parent = nullptr;
  std::unordered_map<std::string, Value*> values;
  std::vector<std::string> order;  // assignment order, so If/Loop outputs are stable

  Value* lookup(const std::string& name) const {
    for (const Env* e = this; e; e = e->parent) {
      auto it = e->values.find(name);
      if (it != e->values.end()) return it->second;
    }
    return nullptr;
  }
  void set(const std::string& name, Value* v) {
    if (!values.count(name)) order.push_back(name);
    values[name] = v;
  }
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

bool stmts_may_exit(const std::vector<TreeRef>& stmts, bool in_loop_body);

bool stmt_may_exit(const Tree& s, bool in_loop_body) {
  switch (s.kind()) {
    case TreeKind::Return:
    case TreeKind::Raise:
      return true;
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
    default:
      return false;
  }
}

bool stmts_may_exit(const std::vector<TreeRef>& stmts, bool in_loop_body) {
  for (const auto& s : stmts)
    if (stmt_may_exit(*s, in_loop_body)) return true;
  return false;
}

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
      default:
        break;
    }
  }
  return false;
}

// Names a statement list assigns (targets of =, +=, annotated =, for), nested blocks
// included: the candidates for loop-carried variables.
void collect_assigned(const Tree& t, std::vector<std::string>& out) {
  auto add_target = [&](const Tree& target, auto&& self) -> void {
    if (target.kind() == TreeKind::Name) {
      if (std::find(out.begin(), out.end(), target.str()) == out.end()) out.push_back(target.str());
    } else if (target.kind() == TreeKind::TupleLiteral || target.kind() == TreeKind::ListLiteral) {
      for (const auto& c : target.children()) self(*c, self);
    } else if (target.kind() == TreeKind::Starred) {
      self(*target.child(0), self);
    }
  };
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
    default:
      return;
  }
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
  Function* resolve_function(const std::string& qualname, const SourceRange& use);
  std::optional<IValue> resolve_constant(const std::string& name) const {
    return hooks_.resolve_constant ? hooks_.resolve_constant(name) : std::nullopt;
  }
  TypePtr parse_annotation(const Tree& ann);
  CompilationUnit& cu() { return cu_; }
  int64_t archive_version() const { return hooks_.archive_version; }

 private:
  CompilationUnit& cu_;
  const ParsedFile& file_;
  std::string prefix_;
  CompilerHooks hooks_;
  std::unordered_map<std::string, const Tree*> defs_;
  std::unordered_map<std::string, const Tree*> classes_;
  // class qualname -> method name -> its def, until compiled
  std::unordered_map<std::string, std::unordered_map<std::string, const Tree*>> pending_methods_;
  std::unordered_set<std::string> in_progress_;
  // Compiling one definition compiles the ones it names first; the chain is bounded so a
  // hostile file cannot exhaust the C++ stack (kMaxDefinitionNesting).
  size_t depth_ = 0;
  struct Nest {
    FileCompiler& fc;
    Nest(FileCompiler& f, const SourceRange& where) : fc(f) {
      if (++fc.depth_ > kMaxDefinitionNesting) {
        --fc.depth_;
        throw_limit_error(where, fmt::format("definitions that name each other more than {} deep", kMaxDefinitionNesting));
      }
    }
    ~Nest() { --fc.depth_; }
  };
  static constexpr size_t kMaxDefinitionNesting = 200;
};

namespace {

class FunctionCompiler {
 public:
  FunctionCompiler(FileCompiler& file, const Tree& def, std::string qualname, ClassTypePtr self_type = nullptr)
      : file_(file), def_(def), qualname_(std::move(qualname)), graph_(std::make_shared<Graph>()),
        self_type_(std::move(self_type)) {}

  GraphFunction* compile();

 private:
  // --- errors ------------------------------------------------------------------------
  [[noreturn]] void fail(const SourceRange& r, const std::string& message) const { throw_compile_error(r, message); }

  // --- types -------------------------------------------------------------------------
  TypePtr parse_annotation(const Tree& ann);

  // --- statements --------------------------------------------------------------------
  Exit emit_stmts(const std::vector<TreeRef>& stmts, size_t begin, Env& env, bool in_loop);
  void emit_assign(const Tree& stmt, Env& env);
  void assign_target(const Tree& target, Value* v, Env& env, const TypePtr& annotated = nullptr);
  void emit_aug_assign(const Tree& stmt, Env& env);
  Exit emit_if(const Tree& stmt, const std::vector<TreeRef>& rest, Env& env, bool in_loop);
  Exit emit_branches(Value* cond, const std::function<Exit(Env&)>& then_fn, const std::function<Exit(Env&)>& else_fn,
                     Env& env, bool in_loop, const SourceRange& range, Node** if_out = nullptr);
  void emit_while(const Tree& stmt, Env& env);
  void emit_for(const Tree& stmt, Env& env);
  void emit_loop(Value* max_trip, Value* initial_cond, const std::vector<std::string>& assigned,
                 const std::function<void(Env&, Value* counter)>& bind, const std::vector<TreeRef>& body,
                 const std::function<Value*(Env&)>& next_cond, Env& env, const SourceRange& range);
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
  Value* emit_list(const Tree& e, Env& env, const TypePtr& hint);
  Value* emit_dict(const Tree& e, Env& env, const TypePtr& hint);
  Value* emit_list_comp(const Tree& e, Env& env, const TypePtr& hint);

  // --- calls -------------------------------------------------------------------------
  Value* emit_builtin(Symbol name, std::vector<CallArg> args, std::vector<CallKwarg> kwargs, const SourceRange& range);
  // An operator call compiled with its meaning at the archive's version (CompilerHooks::
  // archive_version); nullopt to compile it as usual (arguments possibly adjusted).
  std::optional<Value*> upgrade_call(Symbol name, std::vector<CallArg>& args, std::vector<CallKwarg>& kwargs,
                                     const SourceRange& range);
  Value* emit_user_call(const Function& fn, std::vector<CallArg> args, std::vector<CallKwarg> kwargs,
                        const SourceRange& range);
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
  bool upgrading_ = false;  // inside an upgrader's own calls
  Env upgrade_env_;         // scratch scope for an upgrader's If outputs
};

std::vector<TypePtr> param_types(const Function& fn);

// "a.b.c" for an Attribute chain over a Name, else "".
std::string dotted_name(const Tree& t) {
  if (t.kind() == TreeKind::Name) return t.str();
  if (t.kind() != TreeKind::Attribute) return "";
  std::string base = dotted_name(AttributeView(t).value());
  return base.empty() ? "" : base + "." + AttributeView(t).name();
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

TypePtr FunctionCompiler::parse_annotation(const Tree& ann) { return file_.parse_annotation(ann); }

GraphFunction* FunctionCompiler::compile() {
  DefView def(def_);
  Env env;
  graph_->set_insert_point(graph_->block());
  const Tree* type_comment = def.type_comment();
  std::vector<std::optional<IValue>> defaults;
  size_t i = 0;
  for (const auto& p : def.params()) {
    ParamView param(*p);
    TypePtr t = Type::tensor();
    if (i == 0 && self_type_) t = self_type_;
    if (param.annotation()) t = parse_annotation(*param.annotation());
    else if (type_comment && i < FuncTypeCommentView(*type_comment).arg_types().size())
      t = parse_annotation(*FuncTypeCommentView(*type_comment).arg_types()[i]);
    Value* v = graph_->add_input(param.name());
    v->set_type(t);
    env.set(param.name(), v);
    if (param.default_value()) {
      auto c = constant_of_tree(*param.default_value());
      if (!c) fail(param.default_value()->range(), "default arguments must be constants");
      if (t->kind() == TypeKind::Float && c->isInt()) c = IValue(static_cast<double>(c->toInt()));
      defaults.push_back(*c);
    } else {
      defaults.push_back(std::nullopt);
    }
    ++i;
  }
  if (def.return_annotation()) return_type_ = parse_annotation(*def.return_annotation());
  else if (type_comment) return_type_ = parse_annotation(FuncTypeCommentView(*type_comment).return_type());

  Exit exit = emit_stmts(def.body(), 0, env, /*in_loop=*/false);
  Value* result = exit == Exit::Return ? env.lookup(kReturnVar) : nullptr;
  if (!result) result = exit == Exit::Raise && return_type_ ? graph_->insert_node(graph_->create_uninitialized(return_type_))->output() : none();
  if (return_type_) {
    TypeEnv tenv;
    if (!match_type(return_type_, result->type(), tenv))
      fail(def.return_annotation() ? def.return_annotation()->range() : def_.range(),
           fmt::format("Return value was annotated as having type {} but is actually of type {}",
                       return_type_->annotation_str(), result->type()->annotation_str()));
  }
  graph_->register_output(result);
  graph_->lint();
  if (self_type_) return file_.cu().create_method(self_type_, DefView(def_).name(), graph_, std::move(defaults));
  return file_.cu().create_function(qualname_, graph_, std::move(defaults));
}

Exit FunctionCompiler::emit_stmts(const std::vector<TreeRef>& stmts, size_t begin, Env& env, bool in_loop) {
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
        Value* v = s.child(0) ? emit_expr(*s.child(0), env, return_type_) : none();
        if (return_type_) v = convert(v, return_type_, nullptr, *std::make_unique<TypeEnv>());
        env.set(kReturnVar, v);
        if (!in_loop) return Exit::Return;
        // Note [Returns in loops]: record the value, end the loop; after it, a check of
        // kReturnedVar returns (emit_loop_with_returns).
        env.set(kReturnedVar, constant(IValue(true)));
        env.set(kContinueVar, constant(IValue(false)));
        return Exit::LoopExit;
      }
      case TreeKind::Raise:
        emit_raise(s, env);
        return Exit::Raise;
      case TreeKind::Break:
        if (!in_loop) fail(s.range(), "'break' outside loop");
        env.set(kContinueVar, constant(IValue(false)));
        return Exit::LoopExit;
      case TreeKind::Continue:
        if (!in_loop) fail(s.range(), "'continue' not properly in loop");
        return Exit::LoopExit;
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
        else emit_for(s, env);
        if (returns) {
          // The loop may have returned: if so, leave with its value; else go on.
          std::vector<TreeRef> rest(stmts.begin() + static_cast<std::ptrdiff_t>(i) + 1, stmts.end());
          return emit_branches(
              env.lookup(kReturnedVar),
              [&](Env& b) {
                if (!in_loop) return Exit::Return;
                b.set(kContinueVar, constant(IValue(false)));
                return Exit::LoopExit;
              },
              [&](Env& b) { return emit_stmts(rest, 0, b, in_loop); }, env, in_loop, s.range());
        }
        break;
      }
      case TreeKind::Assert:
        emit_assert(s, env);
        break;
      case TreeKind::Pass:
      case TreeKind::Import:
        break;
      case TreeKind::ExprStmt:
        if (s.child(0)->kind() != TreeKind::StringLiteral) emit_expr(*s.child(0), env);  // docstrings are skipped
        break;
      case TreeKind::Delete:
        fail(s.range(), "del statements are not supported yet");
      case TreeKind::Def:
        fail(s.range(), "nested function definitions are not supported");
      case TreeKind::ClassDef:
        fail(s.range(), "class definitions inside functions are not supported");
      default:
        fail(s.range(), fmt::format("unexpected {} in a function body", tree_kind_description(s.kind())));
    }
  }
  return Exit::None;
}

// --- if / else ---------------------------------------------------------------------------

Exit FunctionCompiler::emit_if(const Tree& stmt, const std::vector<TreeRef>& rest, Env& env, bool in_loop) {
  IfView v(stmt);
  // `x is None` / `x is not None` on an Optional refines x in the branch where it is not None.
  std::string refined;
  bool refined_in_then = false;
  const Tree& c = v.condition();
  if (c.kind() == TreeKind::Compare && CompareView(c).num_comparisons() == 1 &&
      CompareView(c).operand(0).kind() == TreeKind::Name && CompareView(c).operand(1).kind() == TreeKind::NoneLiteral &&
      (CompareView(c).op(0) == TokenKind::Is || CompareView(c).op(0) == TokenKind::IsNot)) {
    Value* x = env.lookup(CompareView(c).operand(0).str());
    if (x && x->type()->kind() == TypeKind::Optional) {
      refined = CompareView(c).operand(0).str();
      refined_in_then = CompareView(c).op(0) == TokenKind::IsNot;
    }
  }
  Value* cond = emit_expr(c, env);
  auto branch = [&](const std::vector<TreeRef>& body, bool refine) {
    return [&, refine](Env& benv) {
      if (refine) {
        Value* x = benv.lookup(refined);
        benv.set(refined, graph_->insert_node(graph_->create_unchecked_cast(x, x->type()->contained()[0]))->output());
      }
      std::vector<TreeRef> stmts = body;
      stmts.insert(stmts.end(), rest.begin(), rest.end());
      return emit_stmts(stmts, 0, benv, in_loop);
    };
  };
  return emit_branches(cond, branch(v.then_body(), !refined.empty() && refined_in_then),
                       branch(v.else_body(), !refined.empty() && !refined_in_then), env, in_loop, stmt.range());
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
  for (const auto& name : names) {
    Value* vals[2] = {envs[0].lookup(name), envs[1].lookup(name)};
    for (int b = 0; b < 2; ++b) {
      if (exits[b] == Exit::Raise && vals[1 - b]) {
        InsertPointGuard guard(*graph_);
        graph_->set_insert_point(blocks[b]);
        vals[b] = graph_->insert_node(graph_->create_uninitialized(vals[1 - b]->type()))->output();
      }
    }
    if (!vals[0] || !vals[1] || vals[0] == vals[1]) continue;
    auto unified = unify_types(vals[0]->type(), vals[1]->type());
    if (!unified) {
      if (name[0] == '$') fail(range, fmt::format("Previous return statement returned a value of type {} but this return statement returns a value of type {}",
                                               vals[0]->type()->annotation_str(), vals[1]->type()->annotation_str()));
      // Not visible after the if (torch refuses only when it is used later; so do we,
      // as the name is simply unbound after this point).
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
                                 const std::function<Value*(Env&)>& next_cond, Env& env, const SourceRange& range) {
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
  for (const auto& name : carried) {
    Value* in = b->add_input(name[0] == '$' ? "" : name);
    in->set_type(env.lookup(name)->type());
    benv.set(name, in);
  }
  {
    InsertPointGuard guard(*graph_);
    graph_->set_insert_point(b);
    benv.set(kContinueVar, constant(IValue(true)));
    bind(benv, counter);
    Exit e = emit_stmts(body, 0, benv, /*in_loop=*/true);
    (void)e;
    Value* go_on = benv.lookup(kContinueVar);
    Value* cond = go_on;
    if (next_cond) {
      if (to_ivalue(go_on) && to_ivalue(go_on)->isBool() && to_ivalue(go_on)->toBool()) {
        cond = next_cond(benv);
      } else {
        Node* n = nullptr;
        emit_branches(go_on, [&](Env& e2) { e2.set("$next", next_cond(e2)); return Exit::None; },
                      [&](Env& e2) { e2.set("$next", constant(IValue(false))); return Exit::None; }, benv, true, range, &n);
        cond = benv.lookup("$next");
      }
    }
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

void FunctionCompiler::emit_for(const Tree& stmt, Env& env) {
  ForView f(stmt);
  std::vector<std::string> assigned;
  collect_assigned(stmt, assigned);
  const Tree& it = f.iterable();
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
                assign_target(f.target(), idx, e);
              },
              f.body(), nullptr, env, stmt.range());
    return;
  }
  // enumerate(xs) / zip(a, b, ...): one loop over the shortest sequence, the target
  // unpacking the (index or element) tuple each iteration.
  if (it.kind() == TreeKind::Call && CallView(it).callee().kind() == TreeKind::Name &&
      (CallView(it).callee().str() == "enumerate" || CallView(it).callee().str() == "zip") &&
      !env.lookup(CallView(it).callee().str())) {
    const bool is_enumerate = CallView(it).callee().str() == "enumerate";
    std::vector<Value*> seqs;
    for (const auto& a : CallView(it).args()) {
      Value* v = emit_expr(*a, env);
      if (v->type()->kind() == TypeKind::Dict) v = emit_builtin(Symbol::from_qual_string("aten::keys"), {{v, a->range()}}, {}, a->range());
      if (v->type()->kind() != TypeKind::List && v->type()->kind() != TypeKind::Str)
        fail(a->range(), fmt::format("{}() iterates over lists and strings here, not {}", CallView(it).callee().str(),
                                     v->type()->annotation_str()));
      seqs.push_back(v);
    }
    if (seqs.empty() || (is_enumerate && seqs.size() != 1)) fail(it.range(), "enumerate() takes one sequence, zip() at least one");
    Value* trips = emit_builtin(Symbol::from_qual_string("aten::len"), {{seqs[0], it.range()}}, {}, it.range());
    for (size_t k = 1; k < seqs.size(); ++k) {
      Value* n = emit_builtin(Symbol::from_qual_string("aten::len"), {{seqs[k], it.range()}}, {}, it.range());
      trips = emit_builtin(Symbol::from_qual_string("prim::min"), {{trips, it.range()}, {n, it.range()}}, {}, it.range());
    }
    emit_loop(trips, constant(IValue(true)), assigned,
              [&](Env& e, Value* i) {
                std::vector<Value*> items;
                if (is_enumerate) items.push_back(i);
                for (Value* sq : seqs)
                  items.push_back(emit_builtin(Symbol::from_qual_string("aten::__getitem__"), {{sq, it.range()}, {i, it.range()}}, {},
                                               it.range()));
                assign_target(f.target(), graph_->insert_node(graph_->create_tuple(items))->output(), e);
              },
              f.body(), nullptr, env, stmt.range());
    return;
  }
  Value* seq = emit_expr(it, env);
  const TypePtr& t = seq->type();
  if (t->kind() == TypeKind::Tuple) {  // unrolled, as torch does
    Node* unpack = graph_->insert_node(graph_->create_tuple_unpack(seq));
    for (Value* elem : unpack->outputs()) {
      assign_target(f.target(), elem, env);
      if (emit_stmts(f.body(), 0, env, false) != Exit::None) fail(stmt.range(), "exits inside a loop over a tuple are not supported");
    }
    return;
  }
  if (t->kind() == TypeKind::Dict) seq = emit_builtin(Symbol::from_qual_string("aten::keys"), {{seq, it.range()}}, {}, it.range());
  if (seq->type()->kind() != TypeKind::List && seq->type()->kind() != TypeKind::Str && seq->type()->kind() != TypeKind::Tensor)
    fail(it.range(), fmt::format("'{}' object is not iterable", seq->type()->annotation_str()));
  Value* len = emit_builtin(Symbol::from_qual_string("aten::len"), {{seq, it.range()}}, {}, it.range());
  emit_loop(len, constant(IValue(true)), assigned,
            [&](Env& e, Value* i) {
              Value* elem = seq->type()->kind() == TypeKind::Tensor
                                ? emit_builtin(Symbol::from_qual_string("aten::select"),
                                               {{seq, it.range()}, {constant(IValue(0)), it.range()}, {i, it.range()}}, {}, it.range())
                                : emit_builtin(Symbol::from_qual_string("aten::__getitem__"), {{seq, it.range()}, {i, it.range()}}, {}, it.range());
              assign_target(f.target(), elem, e);
            },
            f.body(), nullptr, env, stmt.range());
}

Value* FunctionCompiler::emit_range_loop_bounds(const std::vector<Value*>& b, Value** lo, Value** step, const SourceRange& r) {
  *lo = b[0];
  *step = b.size() == 3 ? b[2] : constant(IValue(1));
  return emit_builtin(Symbol::from_qual_string("aten::__range_length"), {{b[0], r}, {b[1], r}, {*step, r}}, {}, r);
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
}

// --- assignment ------------------------------------------------------------------------------

void FunctionCompiler::emit_assign(const Tree& stmt, Env& env) {
  if (stmt.kind() == TreeKind::AnnAssign) {
    AnnAssignView a(stmt);
    TypePtr t = parse_annotation(a.annotation());
    if (!a.value()) fail(stmt.range(), "annotated declarations without a value are not supported");
    Value* v = emit_expr(*a.value(), env, t);
    assign_target(a.target(), v, env, t);
    return;
  }
  AssignView a(stmt);
  Value* v = emit_expr(a.value(), env);
  for (const auto& target : a.targets()) assign_target(*target, v, env);
}

void FunctionCompiler::assign_target(const Tree& target, Value* v, Env& env, const TypePtr& annotated) {
  switch (target.kind()) {
    case TreeKind::Name: {
      if (annotated) {
        TypeEnv tenv;
        v = convert(v, annotated, nullptr, tenv);
        if (!match_type(annotated, v->type(), tenv))
          fail(target.range(), fmt::format("Variable '{}' is annotated with type {} but is being assigned to a value of type {}",
                                           target.str(), annotated->annotation_str(), v->type()->annotation_str()));
      }
      if (v->node()->kind() != sym::prim_Constant && v->node()->kind() != sym::prim_Param) {
        v->set_debug_name(target.str());
      }
      env.set(target.str(), v);
      return;
    }
    case TreeKind::TupleLiteral:
    case TreeKind::ListLiteral: {
      const size_t n = target.children().size();
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
      if (sv.items().size() != 1) fail(target.range(), "only single subscripts can be assigned to");
      if (container->type()->kind() == TypeKind::Tensor) {
        Value* view = emit_subscript(target, env);
        const char* op = v->type()->kind() == TypeKind::Tensor ? "aten::copy_" : "aten::fill_";
        emit_builtin(Symbol::from_qual_string(op), {{view, target.range()}, {v, target.range()}}, {}, target.range());
        return;
      }
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
      if (!cls->find_attribute(av.name()) && self_type_ && cls == self_type_.get() && DefView(def_).name() == "__init__")
        self_type_->add_attribute(av.name(), v->type());
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
  Value* lhs = emit_expr(target, env);
  Value* rhs = emit_expr(a.value(), env);
  static const std::unordered_map<TokenKind, const char*> kOps = {
      {TokenKind::Plus, "add"}, {TokenKind::Minus, "sub"}, {TokenKind::Star, "mul"}, {TokenKind::Slash, "div"},
      {TokenKind::DoubleSlash, "floordiv"}, {TokenKind::Percent, "remainder"}, {TokenKind::DoubleStar, "pow"},
      {TokenKind::Ampersand, "__and__"}, {TokenKind::Pipe, "__or__"}, {TokenKind::Caret, "__xor__"},
      {TokenKind::LeftShift, "__lshift__"}, {TokenKind::RightShift, "__rshift__"}};
  auto it = kOps.find(a.op());
  if (it == kOps.end()) fail(stmt.range(), "unsupported augmented assignment");
  Value* out;
  if (lhs->type()->kind() == TypeKind::Tensor && (a.op() == TokenKind::Plus || a.op() == TokenKind::Minus ||
                                                   a.op() == TokenKind::Star || a.op() == TokenKind::Slash)) {
    // Tensors update in place, as in Python: x += y is x.add_(y).
    out = emit_builtin(Symbol::from_qual_string(std::string("aten::") + it->second + "_"), {{lhs, stmt.range()}, {rhs, stmt.range()}},
                       {}, stmt.range());
  } else {
    const char* name = it->second;
    if (a.op() == TokenKind::DoubleSlash && lhs->type()->kind() == TypeKind::Tensor) name = "floor_divide";
    out = emit_builtin(Symbol::from_qual_string(std::string("aten::") + name), {{lhs, stmt.range()}, {rhs, stmt.range()}}, {},
                       stmt.range());
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
      }
      return graph_->insert_node(graph_->create_tuple(elems))->output();
    }
    case TreeKind::DictLiteral:
      return emit_dict(e, env, hint);
    case TreeKind::ListComp:
      return emit_list_comp(e, env, hint);
    default:
      fail(e.range(), fmt::format("{} is not supported in TorchScript expressions yet", tree_kind_description(e.kind())));
  }
}

Value* FunctionCompiler::emit_name(const Tree& e, Env& env) {
  if (Value* v = env.lookup(e.str())) return v;
  // Names torch's printer writes for float constants it cannot spell as literals.
  if (e.str() == "inf") return constant(IValue(std::numeric_limits<double>::infinity()), e.range());
  if (e.str() == "nan") return constant(IValue(std::numeric_limits<double>::quiet_NaN()), e.range());
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
  // Tensor floor division is its own operator (aten::floordiv is for numbers).
  if (e.op() == TokenKind::DoubleSlash && (lhs->type()->kind() == TypeKind::Tensor || rhs->type()->kind() == TypeKind::Tensor))
    name = "aten::floor_divide";
  // A number on the left of a tensor: 2 * x is x * 2, 1 - x is rsub(x, 1).
  if (lhs->type()->kind() != TypeKind::Tensor && rhs->type()->kind() == TypeKind::Tensor) {
    if (name == "aten::add" || name == "aten::mul") std::swap(lhs, rhs);
    else if (name == "aten::sub") {
      name = "aten::rsub";
      std::swap(lhs, rhs);
    }
  }
  return emit_builtin(Symbol::from_qual_string(name), {{lhs, e.child(0)->range()}, {rhs, e.child(1)->range()}}, {}, e.range());
}

Value* FunctionCompiler::emit_unary(const Tree& e, Env& env) {
  Value* v = emit_expr(*e.child(0), env);
  switch (e.op()) {
    case TokenKind::Plus:
      return v;
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

Value* FunctionCompiler::emit_compare(const Tree& e, Env& env) {
  CompareView c(e);
  Value* result = nullptr;
  Value* lhs = emit_expr(c.operand(0), env);
  for (size_t i = 0; i < c.num_comparisons(); ++i) {
    Value* rhs = emit_expr(c.operand(i + 1), env);
    const SourceRange& r = e.range();
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
        cmp = emit_builtin(Symbol::from_qual_string("aten::__contains__"), {{rhs, r}, {lhs, r}}, {}, r);
        if (c.op(i) == TokenKind::NotIn) cmp = emit_builtin(Symbol::from_qual_string("aten::__not__"), {{cmp, r}}, {}, r);
        break;
      default:
        fail(c.op_tree(i).range(), "unsupported comparison");
    }
    if (!cmp) cmp = emit_builtin(Symbol::from_qual_string(name), {{lhs, r}, {rhs, r}}, {}, r);
    if (!result) {
      result = cmp;
    } else {  // a < b < c is (a < b) and (b < c); torch evaluates both here too
      result = emit_builtin(Symbol::from_qual_string("aten::__and__"), {{result, r}, {cmp, r}}, {}, r);
    }
    lhs = rhs;
  }
  return result;
}

Value* FunctionCompiler::emit_boolop(const Tree& e, Env& env) {
  const bool is_and = e.op() == TokenKind::And;
  Value* lhs = convert(emit_expr(*e.child(0), env), Type::bool_(), nullptr, *std::make_unique<TypeEnv>());
  // Short-circuit: `a and b` is `b if a else False`; `a or b` is `True if a else b`.
  emit_branches(lhs,
                [&](Env& b) {
                  b.set("$boolop", is_and ? convert(emit_expr(*e.child(1), b), Type::bool_(), nullptr, *std::make_unique<TypeEnv>())
                                          : constant(IValue(true)));
                  return Exit::None;
                },
                [&](Env& b) {
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
  IfExpView v(e);
  Value* cond = emit_expr(v.condition(), env);
  emit_branches(cond, [&](Env& b) { b.set("$ifexp", emit_expr(v.true_value(), b, hint)); return Exit::None; },
                [&](Env& b) { b.set("$ifexp", emit_expr(v.false_value(), b, hint)); return Exit::None; }, env, false, e.range());
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
    if (!uk || !uv) fail(e.range(), "dict literal entries have different types; annotate the dict's type");
    kt = *uk;
    vt = *uv;
  }
  return graph_->insert_node(graph_->create_dict(kt, vt, keys, values))->output();
}

Value* FunctionCompiler::emit_list_comp(const Tree& e, Env& env, const TypePtr& hint) {
  ListCompView lc(e);
  if (lc.generators().size() != 1) fail(e.range(), "list comprehensions with several 'for' clauses are not supported yet");
  ComprehensionView gen(*lc.generators()[0]);
  // [elt for x in seq if c] is: out = []; for x in seq: if c: out.append(elt)
  Value* seq = emit_expr(gen.iterable(), env);
  if (seq->type()->kind() != TypeKind::List) fail(gen.iterable().range(), "list comprehensions iterate over lists only");
  // The element type comes from compiling the element once for its type, in a scratch graph.
  TypePtr elem_type = hint && hint->kind() == TypeKind::List ? hint->contained()[0] : nullptr;
  Value* out = nullptr;
  if (!elem_type) {
    // Emit the element in a throwaway If block (never reached) to learn its type.
    Node* probe = graph_->insert_node(graph_->create(sym::prim_If, {constant(IValue(false))}, 0));
    Block* pb = probe->add_block();
    probe->add_block();
    {
      InsertPointGuard g(*graph_);
      graph_->set_insert_point(pb);
      Env penv;
      penv.parent = &env;
      Value* x = emit_builtin(Symbol::from_qual_string("aten::__getitem__"), {{seq, e.range()}, {constant(IValue(0)), e.range()}}, {}, e.range());
      assign_target(gen.target(), x, penv);
      elem_type = emit_expr(lc.element(), penv)->type();
    }
    probe->destroy();
  }
  out = graph_->insert_node(graph_->create_list(elem_type, {}))->output();
  Value* len = emit_builtin(Symbol::from_qual_string("aten::len"), {{seq, e.range()}}, {}, e.range());
  Node* loop = graph_->insert_node(graph_->create(sym::prim_Loop, {len, constant(IValue(true))}, 0));
  Block* b = loop->add_block();
  Value* i = b->add_input();
  i->set_type(Type::int_());
  {
    InsertPointGuard g(*graph_);
    graph_->set_insert_point(b);
    Env benv;
    benv.parent = &env;
    Value* x = emit_builtin(Symbol::from_qual_string("aten::__getitem__"), {{seq, e.range()}, {i, e.range()}}, {}, e.range());
    assign_target(gen.target(), x, benv);
    auto append = [&](Env& ae) {
      emit_builtin(Symbol::from_qual_string("aten::append"), {{out, e.range()}, {emit_expr(lc.element(), ae, elem_type), e.range()}}, {},
                   e.range());
      return Exit::None;
    };
    if (gen.conditions().empty()) {
      append(benv);
    } else {
      Value* c = emit_expr(*gen.conditions()[0], benv);
      emit_branches(c, append, [](Env&) { return Exit::None; }, benv, true, e.range());
    }
    b->register_output(constant(IValue(true)));
  }
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
  k->set_s(sym::attr_name, fn->qualname());
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
    }
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
  if (v->type()->is_named_tuple()) {
    const auto& fields = v->type()->field_names();
    auto it = std::find(fields.begin(), fields.end(), a.name());
    if (it != fields.end()) {
      const auto i = static_cast<size_t>(it - fields.begin());
      Node* n = graph_->insert_node(graph_->create(sym::prim_TupleIndex, {v, constant(IValue(static_cast<int64_t>(i)))}));
      n->set_source_range(e.range());
      n->output()->set_type(v->type()->contained()[i]);
      return n->output();
    }
  }
  if (v->type()->kind() == TypeKind::Tensor) {
    const std::string& n = a.name();
    if (n == "shape") return emit_builtin(Symbol::from_qual_string("aten::size"), {{v, e.range()}}, {}, e.range());
    if (n == "dtype") return emit_builtin(Symbol::from_qual_string("prim::dtype"), {{v, e.range()}}, {}, e.range());
    if (n == "device") return emit_builtin(Symbol::from_qual_string("prim::device"), {{v, e.range()}}, {}, e.range());
    if (n == "ndim") return emit_builtin(Symbol::from_qual_string("aten::dim"), {{v, e.range()}}, {}, e.range());
    if (n == "T") return emit_builtin(Symbol::from_qual_string("aten::numpy_T"), {{v, e.range()}}, {}, e.range());
    if (n == "requires_grad") return emit_builtin(Symbol::from_qual_string("prim::requires_grad"), {{v, e.range()}}, {}, e.range());
  }
  fail(e.range(), fmt::format("a value of type {} has no attribute '{}'", v->type()->annotation_str(), a.name()));
}

Value* FunctionCompiler::emit_subscript(const Tree& e, Env& env) {
  SubscriptView s(e);
  Value* v = emit_expr(s.value(), env);
  const SourceRange& r = e.range();
  auto opt_int = [&](const Tree* t) { return t ? emit_expr(*t, env) : none(); };
  const TypeKind k = v->type()->kind();
  if (k == TypeKind::Tensor) {
    int64_t dim = 0;
    for (const auto& item : s.items()) {
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
        if (idx->type()->kind() != TypeKind::Int) fail(item->range(), "tensors are indexed by ints, slices and None here; tensor indices are not supported yet");
        v = emit_builtin(Symbol::from_qual_string("aten::select"), {{v, r}, {d, r}, {idx, r}}, {}, r);
      }
    }
    return v;
  }
  if (s.items().size() != 1) fail(r, fmt::format("a value of type {} takes one subscript", v->type()->annotation_str()));
  const Tree& item = *s.items()[0];
  if (item.kind() == TreeKind::Slice) {
    SliceView sl(item);
    Value* step = sl.step() ? emit_expr(*sl.step(), env) : constant(IValue(1));
    if (k == TypeKind::Tuple) {
      auto lo = sl.start() ? constant_of_tree(*sl.start()) : IValue(0);
      auto hi = sl.stop() ? constant_of_tree(*sl.stop()) : IValue(static_cast<int64_t>(v->type()->contained().size()));
      if (!lo || !hi || !lo->isInt() || !hi->isInt() || sl.step()) fail(r, "tuple slices need constant bounds and no step");
      Node* n = graph_->insert_node(graph_->create(sym::prim_TupleSlice, {v}));
      const int64_t size = static_cast<int64_t>(v->type()->contained().size());
      int64_t b = std::clamp(lo->toInt() < 0 ? lo->toInt() + size : lo->toInt(), int64_t{0}, size);
      int64_t en = std::clamp(hi->toInt() < 0 ? hi->toInt() + size : hi->toInt(), b, size);
      n->set_i(Symbol::from_qual_string("attr::beg"), b);
      n->set_i(Symbol::from_qual_string("attr::end"), en);
      n->output()->set_type(Type::tuple(std::vector<TypePtr>(v->type()->contained().begin() + b, v->type()->contained().begin() + en)));
      return n->output();
    }
    return emit_builtin(Symbol::from_qual_string("aten::slice"), {{v, r}, {opt_int(sl.start()), r}, {opt_int(sl.stop()), r}, {step, r}},
                        {}, r);
  }
  if (k == TypeKind::Tuple) {
    auto c = constant_of_tree(item);
    if (!c || !c->isInt()) fail(item.range(), "tuples are indexed by constant ints");
    int64_t i = c->toInt();
    const int64_t size = static_cast<int64_t>(v->type()->contained().size());
    if (i < 0) i += size;
    if (i < 0 || i >= size) fail(item.range(), fmt::format("tuple index {} out of range for a tuple of {} elements", c->toInt(), size));
    Node* n = graph_->insert_node(graph_->create(sym::prim_TupleIndex, {v, constant(IValue(i))}));
    n->output()->set_type(v->type()->contained()[static_cast<size_t>(i)]);
    return n->output();
  }
  Value* idx = emit_expr(item, env);
  return emit_builtin(Symbol::from_qual_string("aten::__getitem__"), {{v, r}, {idx, item.range()}}, {}, r);
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
      if (!inputs) fail(e.range(), fmt::format("{}.__init__() {}", cls->name(), why));
      Node* call = graph_->insert_node(graph_->create(sym::prim_CallMethod, *inputs));
      call->set_s(sym::attr_name, "__init__");
      call->set_source_range(e.range());
      call->output()->set_type(Type::none());
      return obj;
    }
    if (dotted.rfind("__torch__.", 0) == 0) {
      Function* fn = file_.resolve_function(dotted, callee.range());
      if (!fn) fail(callee.range(), fmt::format("unknown function {}", dotted));
      emit_args(0);
      return emit_user_call(*fn, std::move(args), std::move(kwargs), e.range());
    }
  }
  if (callee.kind() == TreeKind::Name && !env.lookup(callee.str())) {
    const std::string& name = callee.str();
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
    if (name == "isinstance") {
      if (c.args().size() != 2) fail(e.range(), "isinstance() takes a value and a type");
      Value* v = emit_expr(*c.args()[0], env);
      TypePtr t = parse_annotation(*c.args()[1]);
      TypeEnv tenv;
      return constant(IValue(match_type(t, v->type(), tenv)), e.range());  // resolved statically, as torch does
    }
    emit_args(0);
    static const std::unordered_map<std::string, const char*> kBuiltins = {
        {"len", "aten::len"},   {"int", "aten::Int"},     {"float", "aten::Float"}, {"bool", "aten::Bool"},
        {"str", "aten::str"},   {"print", "prim::Print"}, {"abs", "prim::abs"},     {"min", "prim::min"},
        {"max", "prim::max"},   {"list", "aten::list"},   {"round", "aten::round"}, {"divmod", "aten::divmod"},
        {"hash", "aten::hash"}, {"ord", "aten::ord"},     {"chr", "aten::chr"},     {"sorted", "aten::sorted"}};
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
  if (callee.kind() == TreeKind::Attribute) {
    AttributeView a(callee);
    // torch.X(...), math.X(...), torch.nn.functional.X(...) -> aten::X
    std::string dotted;
    for (const Tree* t = &callee; t->kind() == TreeKind::Attribute; t = &AttributeView(*t).value()) {
      if (AttributeView(*t).value().kind() == TreeKind::Name) dotted = AttributeView(*t).value().str();
    }
    if (a.value().kind() == TreeKind::Name && !env.lookup(a.value().str()) &&
        (a.value().str() == "torch" || a.value().str() == "math" || a.value().str() == "F")) {
      emit_args(0);
      return emit_builtin(Symbol::make("aten", a.name()), std::move(args), std::move(kwargs), e.range());
    }
    if (a.value().kind() == TreeKind::Attribute && !env.lookup(dotted) && dotted == "torch") {
      emit_args(0);  // torch.nn.functional.relu and friends
      return emit_builtin(Symbol::make("aten", a.name()), std::move(args), std::move(kwargs), e.range());
    }
    // A method: on an object of a class, prim::CallMethod; else the aten:: builtin with self first.
    Value* self = emit_expr(a.value(), env);
    if (const ClassType* cls = self->type()->as_class()) {
      Function* m = cls->find_method(a.name());
      if (!m) m = file_.method(*cls, a.name(), callee.range());
      if (!m) fail(callee.range(), fmt::format("object of type {} has no method '{}'", cls->name(), a.name()));
      emit_args(0);
      std::vector<CallArg> margs{{self, a.value().range()}};
      margs.insert(margs.end(), args.begin(), args.end());
      TypeEnv tenv;
      std::string why;
      auto bound = match_arguments(m->schema(), param_types(*m), m->defaults(), margs, kwargs, tenv, why);
      if (!bound) fail(e.range(), fmt::format("{}() {}", a.name(), why));
      const std::vector<Value*>& inputs = *bound;
      Node* n = graph_->insert_node(graph_->create(sym::prim_CallMethod, inputs));
      n->set_s(sym::attr_name, a.name());
      n->set_source_range(e.range());
      n->output()->set_type(m->return_type());
      return n->output();
    }
    emit_args(0);
    args.insert(args.begin(), CallArg{self, a.value().range()});
    return emit_builtin(Symbol::make("aten", a.name()), std::move(args), std::move(kwargs), e.range());
  }
  (void)hint;
  fail(callee.range(), "this kind of call is not supported");
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
  if (vk == TypeKind::Int && arg) {
    const SchemaType* st = arg->type.get();
    if (st->kind == SchemaType::Kind::Optional && !st->contained.empty()) st = st->contained[0].get();
    if (st->kind == SchemaType::Kind::List && st->fixed_size && !st->contained.empty() && st->contained[0]->name == "int") {
      std::vector<Value*> items(static_cast<size_t>(*st->fixed_size), v);
      return graph_->insert_node(graph_->create_list(Type::int_(), items))->output();
    }
  }
  // A tuple literal where a list is expected: (1, 2) for int[].
  if (fk == TypeKind::List && vk == TypeKind::Tuple && v->node()->kind() == sym::prim_TupleConstruct) {
    const TypePtr& elem = formal->contained()[0];
    bool all = true;
    for (Value* in : v->node()->inputs()) {
      TypeEnv t2 = env;
      all = all && match_type(elem, in->type(), t2);
    }
    if (all) {
      TypeEnv t2 = env;
      TypePtr concrete = substitute_type_variables(elem, env);
      if (concrete->kind() == TypeKind::Var) concrete = v->node()->inputs().empty() ? Type::int_() : v->node()->input(0)->type();
      return graph_->insert_node(graph_->create_list(concrete, v->node()->inputs()))->output();
    }
  }
  // Number <-> bool and int -> float where the language converts implicitly.
  if (fk == TypeKind::Float && vk == TypeKind::Int) {
    if (auto c = to_ivalue(v)) return constant(IValue(static_cast<double>(c->toInt())));
  }
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
  if (args.size() > positional && positional > 0 && types[positional - 1]->kind() == TypeKind::List &&
      types[positional - 1]->contained()[0]->kind() == TypeKind::Int) {
    bool all_ints = true;
    for (size_t i = positional - 1; i < args.size(); ++i) all_ints = all_ints && args[i].value->type()->kind() == TypeKind::Int;
    if (all_ints) {
      std::vector<Value*> items;
      for (size_t i = positional - 1; i < args.size(); ++i) items.push_back(args[i].value);
      packed.assign(args.begin(), args.begin() + static_cast<std::ptrdiff_t>(positional - 1));
      packed.push_back({graph_->insert_node(graph_->create_list(Type::int_(), items))->output(), args.back().range});
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
    for (auto it = inserted.rbegin(); it != inserted.rend(); ++it) if (!(*it)->output()->has_uses()) (*it)->destroy();
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
    if (conv != v && conv->node() != before) inserted.push_back(conv->node());
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
  if ((q == "aten::div" || q == "aten::div_") && version <= 3 && args.size() == 2 && kwargs.empty() &&
      args[0].value->type()->kind() == TypeKind::Tensor) {
    // Before version 4, dividing integers truncated: div_Tensor_0_3 / div_Scalar_0_3.
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
    emit_branches(cond, [&](Env& b) { b.set("$upgraded", emit_builtin(name, args, {}, range)); return Exit::None; },
                  [&](Env& b) {
                    b.set("$upgraded", emit_builtin(name, args, {{"rounding_mode", constant(IValue("trunc")), range}}, range));
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
  if (auto upgraded = upgrade_call(name, args, kwargs, range)) return *upgraded;
  const auto& overloads = OperatorRegistry::global().overloads(name);
  if (overloads.empty()) fail(range, fmt::format("unknown builtin op: {}", name.qual_string()));
  auto emit_node = [&](const Operator* op, const std::vector<Value*>& inputs, const TypeEnv& env) -> Value* {
    const size_t nret = op->schema().is_varret ? 1 : op->return_types().size();
    Node* n = graph_->insert_node(graph_->create(name, inputs, nret));
    n->set_source_range(range);
    n->set_op(op);
    for (size_t i = 0; i < nret; ++i) n->output(i)->set_type(substitute_type_variables(op->return_types()[i], env));
    if (nret == 0) return none();
    if (nret == 1) return n->output();
    return graph_->insert_node(graph_->create_tuple(n->outputs()))->output();
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

Value* FunctionCompiler::emit_user_call(const Function& fn, std::vector<CallArg> args, std::vector<CallKwarg> kwargs,
                                        const SourceRange& range) {
  std::vector<TypePtr> types = param_types(fn);
  TypeEnv env;
  std::string why;
  auto inputs = match_arguments(fn.schema(), types, fn.defaults(), args, kwargs, env, why);
  if (!inputs) fail(range, fmt::format("{}() {}", fn.name(), why));
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
    : cu_(cu), file_(file), prefix_(std::move(prefix)), hooks_(std::move(hooks)) {
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
    throw_compile_error(use, fmt::format("recursive call to '{}': TorchScript does not support recursion", name));
  Nest nest(*this, use);
  GraphFunction* f = FunctionCompiler(*this, *it->second, qualname).compile();
  in_progress_.erase(qualname);
  return f;
}

TypePtr FileCompiler::parse_annotation(const Tree& ann) {
  std::string text(ann.range().text());
  // `torch.Tensor` is how Python code names the tensor type.
  for (size_t at; (at = text.find("torch.Tensor")) != std::string::npos;) text.replace(at, 12, "Tensor");
  for (const char* p : {"typing.", "t."})
    for (size_t at; (at = text.find(p)) != std::string::npos && (at == 0 || !std::isalnum(static_cast<unsigned char>(text[at - 1])));)
      text.erase(at, std::string_view(p).size());
  try {
    return parse_type_annotation(text, false, [&](std::string_view name) { return resolve_type(std::string(name)); });
  } catch (const CompileError& e) {
    throw_compile_error(ann.range(), fmt::format("unknown type annotation '{}': {}", text, e.what()));
  }
}

TypePtr FileCompiler::resolve_type(const std::string& qualname) {
  if (TypePtr t = cu_.find_type(qualname)) return t;
  if (qualname.rfind(prefix_, 0) == 0 && classes_.count(qualname.substr(prefix_.size())))
    return class_type(qualname.substr(prefix_.size()));
  if (classes_.count(qualname)) return class_type(qualname);
  return hooks_.resolve_type ? hooks_.resolve_type(qualname) : nullptr;
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
    for (const auto& st : cd.body()) {
      if (st->kind() == TreeKind::AnnAssign && AnnAssignView(*st).target().kind() == TreeKind::Name) {
        fields.push_back(AnnAssignView(*st).target().str());
        types.push_back(parse_annotation(AnnAssignView(*st).annotation()));
      } else if (st->kind() != TreeKind::Pass && st->kind() != TreeKind::ExprStmt) {
        throw_compile_error(st->range(), "NamedTuple classes hold field declarations only");
      }
    }
    TypePtr t = Type::named_tuple(qualname, std::move(fields), std::move(types));
    cu_.register_type(t);
    return t;
  }
  bool is_module = false;
  for (const auto& base : cd.bases()) {
    const std::string_view text = base->range().text();
    if (text == "Module" || text == "torch.nn.Module" || text == "nn.Module") is_module = true;
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
        pending_methods_[qualname][DefView(*st).name()] = st.get();
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

Function* FileCompiler::method(const ClassType& cls, const std::string& name, const SourceRange& use) {
  if (Function* f = cls.find_method(name)) return f;
  auto pc = pending_methods_.find(cls.name());
  if (pc == pending_methods_.end()) return nullptr;
  auto pm = pc->second.find(name);
  if (pm == pc->second.end()) return nullptr;
  const std::string qualname = cls.name() + "." + name;
  if (!in_progress_.insert(qualname).second)
    throw_compile_error(use, fmt::format("recursive call to method '{}': TorchScript does not support recursion", name));
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

SourceFile::SourceFile(CompilationUnit& cu, ParsedFile file, std::string prefix, CompilerHooks hooks)
    : file_(std::make_unique<ParsedFile>(std::move(file))),
      impl_(std::make_unique<FileCompiler>(cu, *file_, std::move(prefix), std::move(hooks))) {}
SourceFile::~SourceFile() = default;
TypePtr SourceFile::class_type(const std::string& name) { return impl_->class_type(name); }
Function* SourceFile::function(const std::string& name) { return impl_->function(name, {}); }
void SourceFile::compile_all() { impl_->compile_all(); }

std::shared_ptr<CompilationUnit> compile(const std::string& source, const std::string& filename) {
  auto cu = std::make_shared<CompilationUnit>();
  SourceFile(*cu, parse_file(source, filename), "").compile_all();
  return cu;
}

}  // namespace torchlet::jit

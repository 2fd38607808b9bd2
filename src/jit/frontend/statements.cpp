// Statements (FunctionCompiler::compile and emit_stmts): a def's parameters and return
// type, assignments and augmented assignments, del, raise, assert, and nested defs
// (Note [Closures]).
#include "jit/frontend/function_compiler.h"

namespace torchlet::jit {

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
  propagate_constants(*graph_);
  remove_unused_tuples(*graph_);
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

}  // namespace torchlet::jit

// Control flow and the exit transform (Note [Exits]): if/else as prim::If, while and
// for as prim::Loop with their carried variables, with statements (Note [With
// statements]) and returns inside loops (Note [Returns in loops]).
#include "jit/frontend/sugared_value.h"

namespace torchlet::jit {

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

// Note [Iterables]: the iterable says whether the loop unrolls, how many trips a
// prim::Loop makes and what each binds.
void FunctionCompiler::emit_for(const Tree& target, const Tree& it, const std::vector<TreeRef>& body,
                                const SourceRange& range, Env& env, const BodyFn* body_fn) {
  std::vector<std::string> assigned;
  collect_target(target, assigned);
  for (const auto& s : body) collect_assigned(*s, assigned);
  const SugaredValuePtr seq = emit_iterable(it, env)->iter(range, *this);
  if (auto items = seq->unrolled(it.range(), *this)) return emit_unrolled(target, *items, assigned, body, range, env, body_fn);
  Value* trips = seq->len(it.range(), *this);
  emit_loop(trips, constant(IValue(true)), assigned,
            [&](Env& e, Value* i) { assign_unrolled(target, seq->getitem(it.range(), *this, i), e); }, body, nullptr, env,
            range, body_fn);
}

// --- del ------------------------------------------------------------------------------------

}  // namespace torchlet::jit

// Expressions (FunctionCompiler::emit_expr and what it dispatches to): names, operators,
// comparisons, boolean operators, conditional expressions, literals of lists and dicts,
// comprehensions, attributes (through Note [SugaredValue]), enum members and subscripts
// (tensor indexing included).
#include "jit/frontend/sugared_value.h"

namespace torchlet::jit {

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

// The member `name` of enum type t as a value.
IValue enum_value(const TypePtr& t, const std::string& name) {
  const EnumType* e = t->as_enum();
  for (const auto& [n, v] : e->members())
    if (n == name) return IValue(make_intrusive<EnumImpl>(std::static_pointer_cast<const EnumType>(t), n, v));
  TL_INTERNAL_ASSERT(false, "enum_value of a member the enum has");
  return IValue();
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
  return emit_global_name(e.str(), e.range());
}

Value* FunctionCompiler::emit_global_name(const std::string& name, const SourceRange& range) {
  // Names torch's printer writes for float constants it cannot spell as literals.
  if (name == "inf") return constant(IValue(std::numeric_limits<double>::infinity()), range);
  if (name == "nan") return constant(IValue(std::numeric_limits<double>::quiet_NaN()), range);
  if (auto u = unusable_.find(name); u != unusable_.end()) fail(u->second.second.empty() ? range : u->second.second, u->second.first);
  if (Function* fn = file_.function(name, range)) return function_value(fn, range);
  fail(range, fmt::format("undefined value {}", name));
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

Value* FunctionCompiler::emit_attribute(const Tree& e, Env& env) {
  return emit_sugared_expr(e, env)->as_value(e.range(), *this);
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

}  // namespace torchlet::jit

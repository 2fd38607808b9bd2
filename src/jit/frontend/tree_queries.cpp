// Questions the compiler asks of syntax trees before emitting them: may a statement
// exit, which names a block assigns, what a decorator or dotted name spells, which
// literals are constants.
#include "jit/frontend/function_compiler.h"

namespace torchlet::jit {

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

}  // namespace torchlet::jit

// Note [Refinement]: what a condition proves about Optional and Union variables, and
// the narrowed views (prim::unchecked_cast) a branch sees.
#include "jit/frontend/function_compiler.h"

namespace torchlet::jit {

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
        const bool is = std::any_of(tested.begin(), tested.end(), [&](const TypePtr& t) { return m->passes_isinstance(*t); });
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
    if (vt->passes_isinstance(*t)) return constant(IValue(true), e.range());
  if (vt->kind() != TypeKind::Optional && vt->kind() != TypeKind::Union && vt->kind() != TypeKind::Any)
    return constant(IValue(false), e.range());
  Node* n = graph_->insert_node(graph_->create_isinstance(v, types));
  n->set_source_range(e.range());
  return n->output();
}

}  // namespace torchlet::jit

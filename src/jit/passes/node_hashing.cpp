// Node equality for CSE and constant pooling (node_hashing.h).
#include "jit/passes/node_hashing.h"

#include <cstring>
#include <functional>

namespace torchlet::jit {

namespace {

size_t mix(size_t seed, size_t v) { return seed ^ (v + 0x9e3779b97f4a7c15ULL + (seed << 6) + (seed >> 2)); }

// Tensor constants are equal when their dtype, shape and bytes are: two copies of the
// same weights are one constant.
bool tensors_equal(const Tensor& a, const Tensor& b) {
  if (a.is_same(b)) return true;
  if (a.dtype() != b.dtype() || !(a.sizes() == b.sizes()) || a.requires_grad() != b.requires_grad()) return false;
  const Tensor ca = a.contiguous();
  const Tensor cb = b.contiguous();
  return ca.nbytes() == cb.nbytes() && (ca.nbytes() == 0 || std::memcmp(ca.data_ptr(), cb.data_ptr(), ca.nbytes()) == 0);
}

// IValue's == is Python's (1 == 1.0 == True); constants must match in kind as well.
bool ivalues_equal(const IValue& a, const IValue& b) {
  if (a.isTensor() || b.isTensor()) return a.isTensor() && b.isTensor() && tensors_equal(a.toTensor(), b.toTensor());
  if (!type_of(a)->equals(*type_of(b))) return false;
  if (a.isList() && b.isList()) {
    const auto& x = a.listRef().elements;
    const auto& y = b.listRef().elements;
    if (x.size() != y.size()) return false;
    for (size_t i = 0; i < x.size(); ++i)
      if (!ivalues_equal(x[i], y[i])) return false;
    return true;
  }
  if (a.isTuple() && b.isTuple()) {
    const auto& x = a.tupleRef().elements;
    const auto& y = b.tupleRef().elements;
    if (x.size() != y.size()) return false;
    for (size_t i = 0; i < x.size(); ++i)
      if (!ivalues_equal(x[i], y[i])) return false;
    return true;
  }
  if (a.isDouble() && b.isDouble()) {  // -0.0 and 0.0 are different constants; NaN is itself
    const double x = a.toDouble(), y = b.toDouble();
    return std::memcmp(&x, &y, sizeof x) == 0;
  }
  return a == b;
}

bool attribute_equal(const Node* a, const Node* b, Symbol name) {
  const AttributeKind k = a->attribute_kind(name);
  if (!b->has_attribute(name) || b->attribute_kind(name) != k) return false;
  switch (k) {
    case AttributeKind::t:
      return tensors_equal(a->t(name), b->t(name));
    case AttributeKind::ts: {
      const auto& x = a->ts(name);
      const auto& y = b->ts(name);
      if (x.size() != y.size()) return false;
      for (size_t i = 0; i < x.size(); ++i)
        if (!tensors_equal(x[i], y[i])) return false;
      return true;
    }
    case AttributeKind::ival:
      return ivalues_equal(a->ival(name), b->ival(name));
    case AttributeKind::ty:
      return a->ty(name)->equals(*b->ty(name));
    case AttributeKind::tys: {
      const auto& x = a->tys(name);
      const auto& y = b->tys(name);
      if (x.size() != y.size()) return false;
      for (size_t i = 0; i < x.size(); ++i)
        if (!x[i]->equals(*y[i])) return false;
      return true;
    }
    case AttributeKind::f: {
      const double x = a->f(name), y = b->f(name);
      return std::memcmp(&x, &y, sizeof x) == 0;
    }
    case AttributeKind::fs:
      return a->fs(name) == b->fs(name);
    case AttributeKind::c:
      return a->c(name) == b->c(name);
    case AttributeKind::i:
      return a->i(name) == b->i(name);
    case AttributeKind::is:
      return a->is(name) == b->is(name);
    case AttributeKind::s:
      return a->s(name) == b->s(name);
    case AttributeKind::ss:
      return a->ss(name) == b->ss(name);
    case AttributeKind::g:
      return a->g(name) == b->g(name);
    case AttributeKind::gs:
      return a->gs(name) == b->gs(name);
  }
  return false;
}

}  // namespace

size_t HashNode::operator()(const Node* n) const {
  size_t h = std::hash<uint32_t>()(n->kind().id());
  for (const Value* in : n->inputs()) h = mix(h, std::hash<const Value*>()(in));
  h = mix(h, n->outputs().size());
  for (Symbol name : n->attribute_names()) h = mix(h, name.id());
  // Constants hash by their printed value, so equal ones meet in the same bucket.
  if (n->kind() == sym::prim_Constant && n->outputs().size() == 1) {
    if (auto v = to_ivalue(n->output())) {
      if (v->isString()) h = mix(h, std::hash<std::string>()(v->toStringRef()));
      else if (v->isInt()) h = mix(h, std::hash<int64_t>()(v->toInt()));
      else if (v->isBool()) h = mix(h, v->toBool() ? 1 : 2);
    }
  }
  return h;
}

bool EqualNode::operator()(const Node* a, const Node* b) const {
  if (a == b) return true;
  if (a->kind() != b->kind() || a->inputs() != b->inputs() || a->outputs().size() != b->outputs().size()) return false;
  for (size_t i = 0; i < a->outputs().size(); ++i)
    if (!a->output(i)->type()->equals(*b->output(i)->type())) return false;
  const auto names = a->attribute_names();
  if (names.size() != b->attribute_names().size()) return false;
  for (Symbol name : names)
    if (!attribute_equal(a, b, name)) return false;
  return true;
}

}  // namespace torchlet::jit

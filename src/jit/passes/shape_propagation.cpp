// Shape propagation's walk (shape_propagation.h): constants, tuples, casts and control
// flow here; each operator's rule in shape_rules.cpp.
#include "jit/passes/shape_propagation.h"

#include <utility>
#include <vector>

#include <unordered_set>

#include "jit/passes/alias_analysis.h"
#include "jit/passes/constant_values.h"

namespace torchlet::jit {

namespace {

const Symbol kUnwrapOptional = Symbol::from_qual_string("aten::_unwrap_optional");

// What two types a value may have have in common, for If results and loop-carried
// values: a tensor type keeps the details both know (TensorDetails::merged_with);
// tuples merge elementwise; other types only when equal. Null: nothing to say beyond
// the declared type.
TypePtr merge(const TypePtr& a, const TypePtr& b) {
  if (a->equals(*b)) return a;
  if (a->kind() == TypeKind::Tensor && b->kind() == TypeKind::Tensor) {
    if (!a->tensor_details() || !b->tensor_details()) return Type::tensor();
    return Type::refined_tensor(a->tensor_details()->merged_with(*b->tensor_details()));
  }
  if (a->kind() == TypeKind::Tuple && b->kind() == TypeKind::Tuple && !a->is_named_tuple() && !b->is_named_tuple() &&
      a->contained().size() == b->contained().size()) {
    std::vector<TypePtr> elems;
    for (size_t i = 0; i < a->contained().size(); ++i) {
      TypePtr m = merge(a->contained()[i], b->contained()[i]);
      if (!m) return nullptr;
      elems.push_back(std::move(m));
    }
    return Type::tuple(std::move(elems));
  }
  return nullptr;
}

TensorDetails details_of_constant(const Tensor& t) {
  TensorDetails d;
  d.dtype = t.dtype();
  d.sizes.emplace();
  for (int64_t s : t.sizes()) d.sizes->emplace_back(s);
  d.strides.emplace(t.strides().begin(), t.strides().end());
  d.requires_grad = t.requires_grad();
  d.device = Device{};
  return d;
}

// In-place operators that keep their tensor's sizes: every `name_` but these (and the
// out= forms, which resize their output).
bool keeps_sizes(const Node* n) {
  static const std::unordered_set<std::string_view> resizing = {
      "resize_", "resize_as_", "unsqueeze_", "squeeze_", "t_", "transpose_", "swapaxes_", "swapdims_",
      "as_strided_", "set_", "squeeze_copy_", "unsqueeze_copy_"};
  const std::string_view name = n->kind().name();
  return n->kind().ns() == "aten" && name.size() > 1 && name.back() == '_' && name[name.size() - 2] != '_' &&
         !resizing.count(name) && n->outputs().size() <= 1;
}

void collect_values(Block* b, std::vector<Value*>& out) {
  for (Value* p : b->inputs()) out.push_back(p);
  for (Node* n : b->nodes()) {
    for (Value* o : n->outputs()) out.push_back(o);
    for (Block* sub : n->blocks()) collect_values(sub, out);
  }
}

void collect_writers(const Block* b, const AliasDb& db, std::vector<const Node*>& out) {
  for (const Node* n : b->nodes()) {
    if (n->blocks().empty() && db.writes_anything(n) && !keeps_sizes(n)) out.push_back(n);
    for (const Block* sub : n->blocks()) collect_writers(sub, db, out);
  }
}

class ShapePropagator {
 public:
  bool run(Graph& g) {
    find_resized(g);
    block(g.block());
    return changed_;
  }

 private:
  // A type holds for a value from its definition on only if nothing may change its
  // sizes in place later (x.unsqueeze_(0), an out= argument, an operator writing what
  // the graph's inputs may alias): such values lose their details and gain none, and
  // so do what their types would have implied.
  void find_resized(Graph& g) {
    const AliasDb db(g);
    std::vector<const Node*> writers;
    collect_writers(g.block(), db, writers);
    if (writers.empty()) return;
    std::vector<Value*> values;
    collect_values(g.block(), values);
    for (Value* v : values) {
      if (v->type()->kind() != TypeKind::Tensor) continue;
      for (const Node* w : writers) {
        if (!db.writes_to_alias(w, {v})) continue;
        resized_.insert(v);
        if (v->type()->tensor_details()) {
          v->set_type(Type::tensor());
          changed_ = true;
        }
        break;
      }
    }
  }

  // Narrows v to t when t says more and fits what v is declared as.
  void refine(Value* v, const TypePtr& t) {
    if (resized_.count(v)) return;
    if (!t || t->equals(*v->type()) || !t->is_subtype_of(*v->type())) return;
    v->set_type(t);
    changed_ = true;
  }

  void block(Block* b) {
    for (Node* n : b->nodes()) node(n);
  }

  void node(Node* n) {
    const Symbol k = n->kind();
    if (k == sym::prim_If) return if_node(n);
    if (k == sym::prim_Loop) return loop_node(n);
    for (Block* sub : n->blocks()) block(sub);
    if (k == sym::prim_Constant) {
      if (n->outputs().size() == 1)
        if (std::optional<Tensor> t = constant_tensor(n->output()); t && t->defined())
          refine(n->output(), Type::refined_tensor(details_of_constant(*t)));
      return;
    }
    if (k == sym::prim_TupleConstruct) {
      if (n->outputs().size() != 1 || n->output()->type()->is_named_tuple()) return;
      std::vector<TypePtr> elems;
      for (const Value* v : n->inputs()) elems.push_back(v->type());
      return refine(n->output(), Type::tuple(std::move(elems)));
    }
    if (k == sym::prim_TupleUnpack) {
      const TypePtr& t = n->input(0)->type();
      if (n->inputs().size() != 1 || t->kind() != TypeKind::Tuple || t->contained().size() != n->outputs().size())
        return;
      for (size_t i = 0; i < n->outputs().size(); ++i) refine(n->output(i), t->contained()[i]);
      return;
    }
    if (k == sym::prim_TupleIndex) {
      if (n->inputs().size() != 2 || n->outputs().size() != 1) return;
      const TypePtr& t = n->input(0)->type();
      std::optional<int64_t> i = constant_int(n->input(1));
      if (t->kind() != TypeKind::Tuple || !i) return;
      const auto size = static_cast<int64_t>(t->contained().size());
      if (*i < -size || *i >= size) return;
      return refine(n->output(), t->contained()[static_cast<size_t>(*i < 0 ? *i + size : *i)]);
    }
    if (k == sym::prim_unchecked_cast || k == sym::prim_unchecked_unwrap_optional || k == kUnwrapOptional) {
      // The cast's input, already narrower than the cast's result (a refined tensor
      // behind an Optional), keeps what it knows.
      if (n->inputs().size() != 1 || n->outputs().size() != 1) return;
      TypePtr t = n->input()->type();
      if (t->kind() == TypeKind::Optional) t = t->contained()[0];
      return refine(n->output(), t);
    }
    if (std::optional<TensorDetails> d = tensor_result_details(n)) refine(n->output(), Type::refined_tensor(*d));
  }

  void if_node(Node* n) {
    for (Block* b : n->blocks()) block(b);
    if (n->blocks().size() != 2) return;
    const Block* then_block = n->blocks()[0];
    const Block* else_block = n->blocks()[1];
    for (size_t i = 0; i < n->outputs().size(); ++i) {
      if (i >= then_block->outputs().size() || i >= else_block->outputs().size()) return;
      refine(n->output(i), merge(then_block->outputs()[i]->type(), else_block->outputs()[i]->type()));
    }
  }

  // Every value a block and what it nests define, with its type now.
  static void record_types(Block* b, std::vector<std::pair<Value*, TypePtr>>& out) {
    for (Value* p : b->inputs()) out.emplace_back(p, p->type());
    for (Node* n : b->nodes()) {
      for (Value* o : n->outputs()) out.emplace_back(o, o->type());
      for (Block* sub : n->blocks()) record_types(sub, out);
    }
  }

  // Loop-carried values: their types start as the loop's inputs' and widen by what
  // the body returns until they hold still; each round propagates the body afresh from
  // its types before the loop, so nothing inside keeps what a narrower round implied.
  void loop_node(Node* n) {
    if (n->blocks().size() != 1) return;
    Block* body = n->blocks()[0];
    const size_t carried = n->outputs().size();
    if (n->inputs().size() != carried + 2 || body->inputs().size() != carried + 1 ||
        body->outputs().size() != carried + 1) {
      block(body);
      return;
    }
    std::vector<std::pair<Value*, TypePtr>> before;
    record_types(body, before);
    auto restore = [&] {
      for (auto& [v, t] : before) v->set_type(t);
    };
    std::vector<TypePtr> types(carried);
    for (size_t i = 0; i < carried; ++i) {
      const TypePtr& in = n->input(2 + i)->type();
      const TypePtr& declared = body->inputs()[1 + i]->type();
      types[i] = in->is_subtype_of(*declared) ? in : declared;
    }
    const bool outer_changed = changed_;
    // Each round can only lose details, so a few suffice; the bound guards the rest.
    constexpr int kMaxRounds = 16;
    bool settled = false;
    for (int round = 0; round < kMaxRounds && !settled; ++round) {
      restore();
      for (size_t i = 0; i < carried; ++i) body->inputs()[1 + i]->set_type(types[i]);
      block(body);
      settled = true;
      for (size_t i = 0; i < carried; ++i) {
        TypePtr m = merge(types[i], body->outputs()[1 + i]->type());
        const TypePtr& declared = before[1 + i].second;
        if (!m || !m->is_subtype_of(*declared)) m = declared;
        if (!m->equals(*types[i])) {
          types[i] = std::move(m);
          settled = false;
        }
      }
    }
    if (!settled) {
      restore();
      block(body);
      return;
    }
    // Whether anything changed is judged against the types before the loop.
    changed_ = outer_changed;
    for (auto& [v, t] : before)
      if (!v->type()->equals(*t)) changed_ = true;
    for (size_t i = 0; i < carried; ++i) refine(n->output(i), types[i]);
  }

  bool changed_ = false;
  std::unordered_set<const Value*> resized_;
};

}  // namespace

bool propagate_shapes(Graph& graph) { return ShapePropagator().run(graph); }

}  // namespace torchlet::jit

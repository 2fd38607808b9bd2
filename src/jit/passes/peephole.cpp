// torch's peephole pass, its driver and its tensor rules (peephole.h). The alias-
// sensitive rules and concat combining are in peephole_aliasing.cpp, the rules on
// numbers and None in scalar_idioms.cpp, list and dict idioms in container_idioms.cpp.
#include "jit/passes/peephole.h"

#include <algorithm>
#include <vector>

#include "jit/passes/alias_analysis.h"
#include "jit/passes/container_idioms.h"
#include "jit/passes/dead_code_elimination.h"
#include "jit/passes/none_checks.h"
#include "jit/runtime/schema_matching.h"

namespace torchlet::jit {

namespace {

const Symbol kGradSumToSize = Symbol::from_qual_string("aten::_grad_sum_to_size");
const Symbol kExpand = Symbol::from_qual_string("aten::expand");
const Symbol kTranspose = Symbol::from_qual_string("aten::t");
const Symbol kTypeAs = Symbol::from_qual_string("aten::type_as");
const Symbol kFloatImplicit = Symbol::from_qual_string("aten::FloatImplicit");
const Symbol kIntImplicit = Symbol::from_qual_string("aten::IntImplicit");
const Symbol kScalarImplicit = Symbol::from_qual_string("aten::ScalarImplicit");
const Symbol kIsFloatingPoint = Symbol::from_qual_string("aten::is_floating_point");
const Symbol kIsComplex = Symbol::from_qual_string("aten::is_complex");

bool is_tensor(const Value* v) { return v->type()->kind() == TypeKind::Tensor; }

// The node has exactly these inputs, each a tensor where `tensors` says so.
bool tensor_op(const Node* n, size_t inputs, std::initializer_list<bool> tensors) {
  if (n->inputs().size() != inputs) return false;
  size_t i = 0;
  for (bool t : tensors) {
    if (t && !is_tensor(n->input(i))) return false;
    ++i;
  }
  return true;
}

class TensorIdioms {
 public:
  TensorIdioms(Graph& graph, bool shape_peepholes) : graph_(graph), shapes_(shape_peepholes) {}

  bool run(Block* block) {
    bool changed = false;
    for (Node* n : block->nodes()) {
      for (Block* sub : n->blocks()) changed |= run(sub);
      changed |= fold(n);
    }
    return changed;
  }

 private:
  void replace(Node* n, Value* by) { n->output()->replace_all_uses_with(by); }
  void replace_by_constant(Node* n, const IValue& v) {
    InsertPointGuard guard(graph_, n);
    replace(n, graph_.insert_constant(v, n->source_range()));
  }
  // The refined type of a tensor input, when shape peepholes may use it.
  const TensorDetails* known(const Value* v) const { return shapes_ ? v->type()->tensor_details() : nullptr; }

  bool fold(Node* n) {
    // Every rule answers one result (graph text can give a node any number).
    if (n->outputs().size() != 1) return false;
    const Symbol k = n->kind();
    if (k == kGradSumToSize && tensor_op(n, 2, {true, false})) return fold_grad_sum_to_size(n);
    if (k == kExpand && tensor_op(n, 3, {true, false, false})) {
      const TensorDetails* d = known(n->input(0));
      std::optional<IValue> size = to_ivalue(n->input(1));
      if (!d || !size || !size->isList()) return false;
      std::optional<std::vector<int64_t>> own = d->concrete_sizes();
      if (!own || !same_ints(*size, *own)) return false;
      replace(n, n->input(0));
      return true;
    }
    if (k == kTranspose && tensor_op(n, 1, {true})) {
      Node* inner = n->input()->node();
      if (inner->kind() != kTranspose || !tensor_op(inner, 1, {true})) return false;
      replace(n, inner->input());
      return true;
    }
    if (k == kTypeAs && tensor_op(n, 2, {true, true})) {
      const TensorDetails* a = known(n->input(0));
      const TensorDetails* b = known(n->input(1));
      if (!a || !b || !a->dtype || a->dtype != b->dtype || !a->device || a->device != b->device) return false;
      replace(n, n->input(0));
      return true;
    }
    if ((k == sym::aten_Float || k == sym::aten_Int || k == kFloatImplicit || k == kIntImplicit ||
         k == kScalarImplicit) &&
        n->inputs().size() == 1) {
      Node* producer = n->input()->node();
      if (producer->kind() != sym::prim_NumToTensor || producer->inputs().size() != 1) return false;
      replace(n, producer->input());
      return true;
    }
    return fold_from_type(n);
  }

  static bool same_ints(const IValue& list, const std::vector<int64_t>& ints) {
    const auto& elems = list.toList()->elements;
    if (elems.size() != ints.size()) return false;
    for (size_t i = 0; i < ints.size(); ++i) {
      if (!elems[i].isInt() || elems[i].toInt() != ints[i]) return false;
    }
    return true;
  }

  // _grad_sum_to_size(x, None) is x; a chain of them sums to the last size only.
  bool fold_grad_sum_to_size(Node* n) {
    if (must_be_none(n->input(1))) {
      replace(n, n->input(0));
      return true;
    }
    bool changed = false;
    const std::vector<Use> uses = n->output()->uses();
    for (const Use& u : uses) {
      TypePtr size = u.user->inputs().size() == 2 ? u.user->input(1)->type() : nullptr;
      if (u.user->kind() == kGradSumToSize && u.offset == 0 && size && size->kind() == TypeKind::List &&
          size->contained()[0]->kind() == TypeKind::Int) {
        u.user->replace_input(0, n->input(0));
        changed = true;
      }
    }
    return changed;
  }

  // Every use an operator that writes nothing and returns only values that cannot hold
  // the list (len, indexing, a str.format of it): nothing changes it or lets it out.
  static bool only_read(const Value* list) {
    return std::all_of(list->uses().begin(), list->uses().end(), [](const Use& u) {
      const Operator* op = u.user->op() ? u.user->op() : resolve_node_operator(*u.user);
      if (!op || op->is_mutating()) return false;
      return std::none_of(u.user->outputs().begin(), u.user->outputs().end(),
                          [](const Value* out) { return AliasDb::is_mutable_type(out->type()); });
    });
  }

  // What a refined tensor type answers: sizes, rank, dtype and device questions.
  bool fold_from_type(Node* n) {
    const Symbol k = n->kind();
    if (k == sym::aten_len && n->inputs().size() == 1 && n->input()->type()->kind() == TypeKind::List) {
      Node* size = n->input()->node();
      if (size->kind() != sym::aten_size || !tensor_op(size, 1, {true})) return false;
      const TensorDetails* d = known(size->input());
      // Only a size list nothing can change: torch asks for no other use at all, which
      // leaves the common `s = x.size(); for i in range(len(s)): ... s[i]` unknown (and
      // its loop unrolled by eight).
      if (!d || !d->rank() || !only_read(n->input())) return false;
      replace_by_constant(n, IValue(static_cast<int64_t>(*d->rank())));
      return true;
    }
    if (n->inputs().empty() || !is_tensor(n->input(0))) return false;
    const TensorDetails* d = known(n->input(0));
    if (!d) return false;
    if (k == sym::aten_size && n->inputs().size() == 1) {
      std::optional<std::vector<int64_t>> sizes = d->concrete_sizes();
      if (!sizes) return false;
      std::vector<IValue> elems(sizes->begin(), sizes->end());
      replace_by_constant(n, IValue::list(std::move(elems), Type::int_()));
      return true;
    }
    if (k == sym::aten_size && n->inputs().size() == 2 && n->input(1)->type()->kind() == TypeKind::Int) {
      std::optional<IValue> index = to_ivalue(n->input(1));
      if (!d->rank() || !index || !index->isInt()) return false;
      const auto rank = static_cast<int64_t>(*d->rank());
      const int64_t i = index->toInt() < 0 ? rank + index->toInt() : index->toInt();
      if (i < 0 || i >= rank || !(*d->sizes)[static_cast<size_t>(i)]) return false;
      replace_by_constant(n, IValue(*(*d->sizes)[static_cast<size_t>(i)]));
      return true;
    }
    if (n->inputs().size() != 1) return false;
    if ((k == kIsFloatingPoint || k == kIsComplex) && d->dtype) {
      replace_by_constant(n, IValue(k == kIsFloatingPoint ? is_floating(*d->dtype) : is_complex(*d->dtype)));
      return true;
    }
    if (k == sym::prim_dtype && d->dtype) {
      replace_by_constant(n, IValue(static_cast<int64_t>(dtype_info(*d->dtype).scalar_type_index)));
      return true;
    }
    if ((k == sym::prim_device || k == sym::prim_is_cuda) && d->device) {
      replace_by_constant(n, k == sym::prim_device ? IValue(*d->device) : IValue(d->device->kind == Device::Kind::CUDA));
      return true;
    }
    if (k == sym::aten_dim && d->rank()) {
      replace_by_constant(n, IValue(static_cast<int64_t>(*d->rank())));
      return true;
    }
    return false;
  }

  Graph& graph_;
  bool shapes_;
};

}  // namespace

bool fold_tensor_idioms(Graph& graph, bool shape_peepholes) {
  return TensorIdioms(graph, shape_peepholes).run(graph.block());
}

bool peephole(Graph& graph, bool shape_peepholes) {
  bool changed = fold_tensor_idioms(graph, shape_peepholes);
  changed |= fold_list_idioms(graph);
  changed |= fold_dict_idioms(graph);
  changed |= fold_alias_sensitive_idioms(graph, shape_peepholes);
  changed |= fold_scalar_idioms(graph);
  changed |= combine_concats(graph);
  if (changed) eliminate_dead_code(graph, DeadCodeWrites::KeepAll);
  return changed;
}

}  // namespace torchlet::jit

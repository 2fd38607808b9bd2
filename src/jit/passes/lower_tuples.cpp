// Tuple lowering (lower_tuples.h), as torch's LowerAllTuples: the same walk, the same
// insertions in the same places, so the same graph comes out.
#include "jit/passes/lower_tuples.h"

#include <optional>
#include <vector>

#include <torchlet/error.h>

#include "jit/passes/dead_code_elimination.h"

namespace torchlet::jit {

namespace {

const Symbol kPythonOp = Symbol::from_qual_string("prim::PythonOp");
const Symbol kBeg = Symbol::from_qual_string("attr::beg");
const Symbol kEnd = Symbol::from_qual_string("attr::end");

// The nodes whose tuple inputs and outputs are known to be only passed along.
bool forwards_tuples(Symbol k) {
  return k == sym::prim_If || k == sym::prim_Loop || k == sym::prim_TupleUnpack || k == sym::prim_TupleConstruct ||
         k == sym::prim_TupleIndex || k == sym::prim_TupleSlice || k == sym::prim_Param || k == sym::prim_Return ||
         k == kPythonOp || k == sym::aten_format || k == sym::prim_Uninitialized || k == sym::aten___getitem__;
}

bool is_tuple(const Value* v) { return v->type()->kind() == TypeKind::Tuple; }

void prepend(Block* b, Node* n) { n->insert_before(b->nodes().empty() ? b->return_node() : b->nodes().front()); }

class TupleLowering {
 public:
  explicit TupleLowering(Graph& graph) : graph_(graph) {}

  bool run() {
    lower(graph_.block());
    eliminate_dead_code(graph_, DeadCodeWrites::KeepAll);
    ensure_no_tuples(graph_.block());
    return changed_;
  }

 private:
  void lower(Block* block) {
    // A block's parameters are its param node's outputs, its results its return node's
    // inputs: both are lowered as any node's.
    visit(block->param_node(), block->nodes().empty() ? block->return_node() : block->nodes().front());
    for (Node* n = block->nodes().empty() ? nullptr : block->nodes().front(); n && n != block->return_node();) {
      Node* next = n->next();
      expand_tuple_constant(n);
      visit(n, next);
      n = next;
    }
    visit(block->return_node(), nullptr);
  }

  void visit(Node* n, Node* insert_point) {
    const Symbol k = n->kind();
    if (k == sym::prim_TupleConstruct) return;  // dead once what reads it reads the elements
    if (k == sym::prim_TupleUnpack || k == sym::prim_TupleIndex || k == sym::prim_TupleSlice) {
      const bool shaped = k == sym::prim_TupleUnpack ? n->inputs().size() == 1
                          : k == sym::prim_TupleIndex ? n->inputs().size() == 2 && n->outputs().size() == 1
                                                      : n->inputs().size() == 1 && n->outputs().size() == 1 &&
                                                            n->has_attribute(kBeg) && n->has_attribute(kEnd);
      if (!shaped) {
        refuse(n, "a tuple operation of another shape than torch's");
      }
      answer_from_construct(n);
      return;
    }
    flatten_inputs(n);
    for (Block* b : n->blocks()) lower(b);
    flatten_outputs(n, insert_point);
  }

  [[noreturn]] static void refuse(const Node* n, const std::string& why) {
    TL_FAIL(ValueError, "lower_all_tuples: {} ({})", why, n->kind().qual_string());
  }

  static Node* construct_of(const Node* user, const Value* tuple) {
    Node* construct = tuple->node();
    if (construct->kind() != sym::prim_TupleConstruct) refuse(user, "a tuple that no TupleConstruct in the graph built");
    return construct;
  }

  void answer_from_construct(Node* n) {
    const Node* construct = construct_of(n, n->input(0));
    const auto& elements = construct->inputs();
    if (n->kind() == sym::prim_TupleUnpack) {
      if (n->outputs().size() != elements.size()) refuse(n, "an unpack of another number of values than the tuple holds");
      for (size_t i = 0; i < n->outputs().size(); ++i) n->output(i)->replace_all_uses_with(elements[i]);
    } else if (n->kind() == sym::prim_TupleIndex) {
      std::optional<IValue> index = to_ivalue(n->input(1));
      if (!index || !index->isInt()) refuse(n, "a tuple index known only at run time");
      const auto size = static_cast<int64_t>(elements.size());
      const int64_t i = index->toInt() < 0 ? index->toInt() + size : index->toInt();
      // Out of range: the program raises its IndexError as before.
      if (i < 0 || i >= size) return;
      n->output()->replace_all_uses_with(elements[static_cast<size_t>(i)]);
    } else {
      const int64_t beg = n->i(kBeg);
      const int64_t end = n->i(kEnd);
      if (beg < 0 || end < beg || end > static_cast<int64_t>(elements.size())) refuse(n, "a slice outside the tuple");
      InsertPointGuard guard(graph_, n);
      Node* slice = graph_.insert_node(graph_.create_tuple(
          std::vector<Value*>(elements.begin() + static_cast<std::ptrdiff_t>(beg),
                              elements.begin() + static_cast<std::ptrdiff_t>(end))));
      n->output()->replace_all_uses_with(slice->output());
    }
    changed_ = true;
  }

  // A tuple constant becomes a TupleConstruct of element constants, nested ones too.
  void expand_tuple_constant(Node* n) {
    if (n->kind() != sym::prim_Constant || n->outputs().size() != 1 || !is_tuple(n->output())) return;
    std::optional<IValue> value = to_ivalue(n->output());
    if (!value || !value->isTuple()) return;
    InsertPointGuard guard(graph_, n);
    std::vector<Value*> elements;
    for (const IValue& e : value->tupleRef().elements) elements.push_back(graph_.insert_constant(e, n->source_range()));
    const TypePtr& type = n->output()->type();
    Node* tuple = graph_.insert_node(graph_.create_tuple(elements, type->is_named_tuple() ? type : nullptr));
    for (Value* e : elements) expand_tuple_constant(e->node());
    n->replace_all_uses_with(tuple);
    changed_ = true;
  }

  // op(a, tup, b) -> op(a, t0, t1, b); a loop's carried tuple and a block's returned one
  // through its parameters and results.
  void flatten_inputs(Node* n) {
    for (size_t i = 0; i < n->inputs().size();) {
      Value* in = n->input(i);
      if (!is_tuple(in)) {
        ++i;
        continue;
      }
      Node* construct = construct_of(n, in);
      if (!forwards_tuples(n->kind())) {
        ++i;
        continue;
      }
      if (n->kind() == sym::prim_Loop) {
        if (i < 2) refuse(n, "a loop whose trip count or condition is a tuple");
        flatten_loop_parameter(n, i, construct);
      } else if (n->kind() == sym::prim_Return) {
        flatten_block_result(n, i, construct);
      } else {
        for (size_t j = 0; j < construct->inputs().size(); ++j) n->insert_input(i + 1 + j, construct->input(j));
        n->remove_input(i);
      }
      changed_ = true;  // i stays: the elements may be tuples themselves
    }
  }

  void flatten_loop_parameter(Node* loop, size_t index, Node* construct) {
    Block* body = loop->blocks()[0];
    Node* rebuilt = graph_.create(sym::prim_TupleConstruct);
    prepend(body, rebuilt);
    for (size_t j = 0; j < construct->inputs().size(); ++j) {
      Value* element = body->insert_input(index + j)->set_type(construct->input(j)->type());
      rebuilt->add_input(element);
      loop->insert_input(index + j + 1, construct->input(j));
    }
    Value* old = body->inputs()[index - 1];
    rebuilt->output()->set_type(old->type());
    old->replace_all_uses_with(rebuilt->output());
    body->erase_input(index - 1);
    loop->remove_input(index);
  }

  void flatten_block_result(Node* ret, size_t index, Node* construct) {
    Block* block = ret->owning_block();
    const TypePtr tuple_type = ret->input(index)->type();
    for (size_t j = 0; j < construct->inputs().size(); ++j) block->insert_output(index + j + 1, construct->input(j));
    block->erase_output(index);
    Node* owner = block->owning_node();
    if (!owner) return;
    // A loop's body returns its condition first.
    if (owner->kind() == sym::prim_Loop && index == 0) refuse(ret, "a loop whose condition is a tuple");
    const size_t at = owner->kind() == sym::prim_Loop ? index - 1 : index;
    if (at >= owner->outputs().size()) refuse(ret, "a block returning more values than its node has outputs");
    Value* out = owner->output(at);
    if (!is_tuple(out)) return;  // the other branch of the If lowered it already
    Node* rebuilt = graph_.create(sym::prim_TupleConstruct);
    rebuilt->insert_after(owner);
    for (size_t j = 0; j < construct->inputs().size(); ++j) {
      Value* element = owner->insert_output(at + j + 1);
      element->set_type(tuple_type->contained()[j]);
      rebuilt->add_input(element);
    }
    rebuilt->output()->set_type(out->type());
    out->replace_all_uses_with(rebuilt->output());
    owner->erase_output(at);
  }

  // (a, tup, c) -> (a, t0, t1, c), and tup = (t0, t1) built before insert_point.
  void flatten_outputs(Node* n, Node* insert_point) {
    for (size_t i = 0; i < n->outputs().size();) {
      Value* out = n->output(i);
      if (!out->has_uses() || !is_tuple(out) || !forwards_tuples(n->kind())) {
        ++i;
        continue;
      }
      const std::vector<TypePtr> elements = out->type()->contained();
      std::vector<Value*> parts;
      for (size_t j = 0; j < elements.size(); ++j) {
        parts.push_back(n->insert_output(i + 1 + j));
        parts.back()->set_type(elements[j]);
      }
      Node* tuple = graph_.create_tuple(parts);
      tuple->insert_before(insert_point);
      insert_point = tuple;
      out->replace_all_uses_with(tuple->output());
      n->erase_output(i);
      changed_ = true;
    }
  }

  static void ensure_no_tuples(const Block* block) {
    for (const Node* n : block->nodes()) {
      for (const Block* b : n->blocks()) ensure_no_tuples(b);
      for (const Value* out : n->outputs()) {
        if (is_tuple(out)) refuse(n, "a tuple this node makes could not be lowered");
      }
    }
  }

  Graph& graph_;
  bool changed_ = false;
};

}  // namespace

bool lower_all_tuples(Graph& graph) { return TupleLowering(graph).run(); }

}  // namespace torchlet::jit

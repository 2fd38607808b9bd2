// Module freezing (freeze_module.h).
#include "jit/passes/freeze_module.h"

#include <algorithm>
#include <unordered_map>

#include <torchlet/error.h>

#include "jit/passes/alias_analysis.h"
#include "jit/passes/common_subexpression_elimination.h"
#include "jit/passes/constant_pooling.h"
#include "jit/passes/constant_propagation.h"
#include "jit/passes/dead_code_elimination.h"
#include "jit/passes/execution_pipeline.h"
#include "jit/passes/frozen_folding.h"
#include "jit/passes/frozen_linear_folding.h"
#include "jit/passes/inliner.h"
#include "jit/passes/none_checks.h"
#include "jit/passes/shape_propagation.h"
#include "jit/runtime/compilation_unit.h"
#include "jit/runtime/function.h"

namespace torchlet::jit {

// Note [Freezing]
// After inlining, a method reaches attributes only through prim::GetAttr chains from
// self. Walking them from the module object gives each attribute's value now: objects
// (submodules) are followed, everything else becomes a prim::Constant. Three things
// would make that wrong, and are refused by name rather than half-done: a prim::SetAttr
// (the value changes while the program runs), a submodule used other than to read its
// attributes (passed to a call that stayed a call, returned), and an in-place write to a
// frozen tensor (alias analysis: the constant would change under later calls). torch
// keeps such attributes on the frozen module; torchlet does not yet.
namespace {

std::string path_of(const std::unordered_map<const Value*, std::string>& paths, const Value* v) {
  auto it = paths.find(v);
  return it == paths.end() ? "?" : it->second;
}

class AttributeFreezer {
 public:
  AttributeFreezer(Graph& graph, const IValue& self) : graph_(graph) {
    objects_[graph.inputs()[0]] = self;
    paths_[graph.inputs()[0]] = "self";
  }

  void run() {
    freeze(graph_.block());
    check_objects_only_read(graph_.block());
  }

  // After simplification (a write under `if self.training:` is gone in eval mode): no
  // frozen tensor left in the graph may be written. Found by the tensor, which the
  // module keeps alive, not by node, which the passes may have replaced.
  void check_no_writes() const {
    AliasDb db(graph_);
    std::vector<const Block*> blocks{graph_.block()};
    while (!blocks.empty()) {
      const Block* b = blocks.back();
      blocks.pop_back();
      for (const Node* n : b->nodes()) {
        for (const Block* sub : n->blocks()) blocks.push_back(sub);
        if (n->kind() != sym::prim_Constant || n->outputs().size() != 1) continue;
        auto c = to_ivalue(n->output());
        if (!c || !c->isTensor()) continue;
        for (const auto& [t, path] : frozen_tensors_)
          TL_CHECK(!(t.is_same(c->toTensor()) && db.has_writers(n->output())), UnsupportedError,
                   "cannot freeze: {} is written in place by the module's code (torch keeps such attributes on the "
                   "frozen module; torchlet does not yet)",
                   path);
      }
    }
  }

 private:
  void freeze(Block* block) {
    std::vector<Node*> nodes(block->nodes().begin(), block->nodes().end());
    for (Node* n : nodes) {
      for (Block* sub : n->blocks()) freeze(sub);
      if (n->kind() == sym::prim_SetAttr && objects_.count(n->input(0)))
        throw UnsupportedError(fmt::format("cannot freeze: the module's code sets {}.{} (torch keeps such attributes "
                                           "on the frozen module; torchlet does not yet)",
                                           path_of(paths_, n->input(0)), n->s(sym::attr_name)));
      if (n->kind() != sym::prim_GetAttr || !objects_.count(n->input(0))) continue;
      const IValue& owner = objects_.at(n->input(0));
      const std::string& name = n->s(sym::attr_name);
      const std::string path = path_of(paths_, n->input(0)) + "." + name;
      const ObjectImpl& obj = *owner.toObject();
      auto slot = obj.type->find_attribute(name);
      TL_CHECK(slot && *slot < obj.slots.size(), ValueError, "cannot freeze: {} does not exist", path);
      const IValue& value = obj.slots[*slot];
      if (value.isObject()) {
        objects_[n->output()] = value;
        paths_[n->output()] = path;
        continue;
      }
      Value* c = insert_frozen(value, n->output()->type(), n, path);
      n->output()->replace_all_uses_with(c);
      n->destroy();
    }
  }

  static bool holds_tensors(const IValue& v) {
    if (v.isTensor()) return true;
    if (v.isList())
      return std::any_of(v.listRef().elements.begin(), v.listRef().elements.end(), holds_tensors);
    if (v.isTuple())
      return std::any_of(v.tupleRef().elements.begin(), v.tupleRef().elements.end(), holds_tensors);
    return false;
  }

  // The attribute's value as graph values before `at`. A tensor becomes a constant of
  // its own copy without requires_grad (torch refuses to load a constant that requires
  // grad, and later writes to the module's parameters must not reach the frozen code);
  // a list or tuple holding tensors is built from constants of its elements, since code
  // cannot spell a list of tensors as one literal.
  Value* insert_frozen(const IValue& value, const TypePtr& type, Node* at, const std::string& path) {
    Node* c = nullptr;
    if (value.isTensor()) {
      Tensor copy = value.toTensor().clone();
      copy.set_requires_grad(false);
      c = graph_.create_constant(IValue(copy));
      frozen_tensors_.emplace_back(copy, path);
    } else if ((value.isList() || value.isTuple()) && holds_tensors(value)) {
      const auto& elements = value.isList() ? value.listRef().elements : value.tupleRef().elements;
      const bool list = value.isList();
      std::vector<Value*> parts;
      for (size_t i = 0; i < elements.size(); ++i) {
        TypePtr elem_type = list ? type->contained().at(0) : type->contained().at(i);
        parts.push_back(insert_frozen(elements[i], elem_type, at, path + "[" + std::to_string(i) + "]"));
      }
      c = list ? graph_.create_list(type->contained().at(0), parts) : graph_.create_tuple(parts, type);
    } else {
      try {
        c = graph_.create_constant(value);
      } catch (const ValueError&) {
        throw UnsupportedError(fmt::format("cannot freeze: {} (a {}) cannot be a constant", path, value.tag_name()));
      }
    }
    c->insert_before(at);
    c->output()->set_type(type);
    c->set_source_range(at->source_range());
    return c->output();
  }

  // What is left of the objects must be reads of their attributes, which dead code
  // elimination then drops.
  void check_objects_only_read(Block* block) {
    for (const auto& [v, obj] : objects_)
      for (const Use& u : v->uses())
        TL_CHECK(u.user->kind() == sym::prim_GetAttr, UnsupportedError,
                 "cannot freeze: {} is used as a value by {} (only calls torchlet can inline may take a module)",
                 path_of(paths_, v), u.user->kind().qual_string());
    (void)block;
  }

  Graph& graph_;
  std::unordered_map<const Value*, IValue> objects_;
  std::unordered_map<const Value*, std::string> paths_;
  std::vector<std::pair<Tensor, std::string>> frozen_tensors_;
};

// Drops GetAttr nodes left on frozen objects; DCE alone would keep them when self's
// uses make them look live through the wildcard.
void remove_unused_get_attrs(Block* block) {
  std::vector<Node*> nodes(block->nodes().begin(), block->nodes().end());
  for (auto it = nodes.rbegin(); it != nodes.rend(); ++it) {
    for (Block* sub : (*it)->blocks()) remove_unused_get_attrs(sub);
    if ((*it)->kind() == sym::prim_GetAttr && !(*it)->output()->has_uses()) (*it)->destroy();
  }
}

}  // namespace

void simplify_frozen_graph(Graph& graph) {
  for (int round = 0; round < 8; ++round) {  // each round folds what the last one exposed
    bool changed = fold_none_checks(graph);
    while (propagate_frozen_constants(graph) | fold_constant_control_flow(graph)) changed = true;
    changed |= eliminate_common_subexpressions(graph);
    changed |= eliminate_dead_code(graph);
    if (!changed) break;
  }
}

Module freeze_module(const Module& module, const std::vector<std::string>& preserved_methods, bool optimize) {
  TL_CHECK(!module.is_training(), ValueError,
           "Freezing is currently only implemented for modules in eval mode. Please call .eval() on your module "
           "before freezing.");
  std::vector<std::string> methods{"forward"};
  for (const std::string& m : preserved_methods)
    if (m != "forward") methods.push_back(m);
  auto cu = std::make_shared<CompilationUnit>();
  enable_graph_executor(*cu);
  Module frozen(cu, module.qualified_name());  // a unit of its own: the name is free
  frozen.eval();
  for (const std::string& method : methods) {
    TL_CHECK(module.has_method(method), ValueError, "cannot freeze: module {} has no method '{}'",
             module.qualified_name(), method);
    const auto* fn = dynamic_cast<const GraphFunction*>(&module.get_method(method).function());
    TL_CHECK(fn, ValueError, "cannot freeze: method '{}' has no graph (it did not compile)", method);
    GraphPtr g = fn->graph()->copy();
    inline_calls(*g);
    AttributeFreezer freezer(*g, module.to_ivalue());
    freezer.run();
    remove_unused_get_attrs(g->block());
    g->inputs()[0]->set_type(frozen.type());
    simplify_frozen_graph(*g);  // folds self.training, so dropout's train is a constant
    if (remove_eval_dropout(*g)) simplify_frozen_graph(*g);
    freezer.check_no_writes();
    if (optimize) {
      // torch's optimize_frozen_graph order: linears sharing an input, then batch
      // norms, adds and scales.
      bool folded = concat_frozen_linears(*g);
      folded |= fold_frozen_conv_batch_norm(*g);
      propagate_shapes(*g);  // linear / batch-norm folding needs the linears' ranks
      folded |= fold_frozen_linear_batch_norm(*g);
      folded |= fold_frozen_conv_add_or_sub(*g);
      folded |= fold_frozen_conv_mul_or_div(*g);
      if (folded) simplify_frozen_graph(*g);
    }
    pool_constants(*g);
    g->lint();
    cu->create_method(frozen.type(), method, g, fn->defaults());
  }
  return frozen;
}

}  // namespace torchlet::jit

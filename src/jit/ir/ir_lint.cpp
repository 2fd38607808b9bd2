// Graph::lint: the invariants every pass must preserve, checked in one walk (see ir.h,
// Note [Control flow]). Failures are InternalErrors naming the node and the rule, since
// a malformed graph is always a bug in whatever built it.
#include <sstream>
#include <unordered_set>
#include <vector>

#include <fmt/format.h>
#include <torchlet/error.h>

#include "core/python_format.h"
#include "jit/ir/ir.h"

namespace torchlet::jit {

namespace {

class Linter {
 public:
  explicit Linter(const Graph& g, const std::unordered_set<Node*>& nodes, const std::unordered_set<Value*>& values)
      : g_(g), all_nodes_(nodes), all_values_(values) {}

  void run() {
    scopes_.emplace_back();
    check_block(g_.block());
  }

 private:
  [[noreturn]] void fail(const Node* n, const std::string& rule) const {
    std::string where;
    if (n) {
      ClassicStringStream os;
      n->print(os, 0);
      where = os.str();
      if (size_t nl = where.find('\n'); nl != std::string::npos) where.resize(nl);
    }
    throw InternalError(fmt::format("graph lint: {}{}{}", rule, where.empty() ? "" : " at: ", where));
  }
  // The rule is a literal, or a callable that formats it: lint runs after every pass,
  // so a message is only built when the check fails.
  void check(bool ok, const Node* n, const char* rule) const {
    if (!ok) fail(n, rule);
  }
  template <typename Describe>
  void check(bool ok, const Node* n, Describe&& describe) const {
    if (!ok) fail(n, describe());
  }

  bool in_scope(const Value* v) const {
    for (const auto& s : scopes_) {
      if (s.count(v)) return true;
    }
    return false;
  }
  void define(const Value* v, const Node* n, size_t offset) {
    check(all_values_.count(const_cast<Value*>(v)) == 1, n, "output is not a live value of this graph");
    check(v->node() == n && v->offset() == offset, n,
          [&] { return fmt::format("output %{} has a wrong node/offset", v->debug_name()); });
    check(uniques_.insert(v->unique()).second, n,
          [&] { return fmt::format("value id {} used twice", v->unique()); });
    check(!in_scope(v), n,
          [&] { return fmt::format("%{} defined twice", v->debug_name()); });
    check(v->type() != nullptr, n,
          [&] { return fmt::format("%{} has no type", v->debug_name()); });
    for (const Use& u : v->uses()) {
      check(all_nodes_.count(u.user) == 1, n,
            [&] { return fmt::format("%{} is used by a destroyed node", v->debug_name()); });
      check(u.offset < u.user->inputs().size() && u.user->inputs()[u.offset] == v, n,
            [&] { return fmt::format("use list of %{} disagrees with its user's inputs", v->debug_name()); });
      check(listed_uses_.insert(u).second, n,
            [&] { return fmt::format("use list of %{} lists a use twice", v->debug_name()); });
    }
    scopes_.back().insert(v);
  }
  void check_uses(const Node* n) {
    for (size_t i = 0; i < n->inputs().size(); ++i) {
      const Value* v = n->inputs()[i];
      check(in_scope(v), n,
            [&] { return fmt::format("input %{} is not defined before its use", v->debug_name()); });
      // define() checked that each use v lists is a live user's input slot holding v, so
      // finding the slot among all listed ones finds it in v's list.
      check(listed_uses_.count(Use{const_cast<Node*>(n), i}) == 1, n,
            [&] { return fmt::format("input %{} does not list this use", v->debug_name()); });
    }
  }

  void check_block(const Block* b) {
    const Node* param = b->param_node();
    const Node* ret = b->return_node();
    check(param->kind() == sym::prim_Param && param->inputs().empty(), param, "block param node malformed");
    check(ret->kind() == sym::prim_Return && ret->outputs().empty(), ret, "block return node malformed");
    check(param->owning_block() == b && ret->owning_block() == b, param, "param/return node in the wrong block");
    for (size_t i = 0; i < b->inputs().size(); ++i) define(b->inputs()[i], param, i);
    for (const Node* n : b->nodes()) {
      check(all_nodes_.count(const_cast<Node*>(n)) == 1, n, "node is not live in this graph");
      check(n->owning_block() == b, n, "node's owning block is wrong");
      check(n->next()->prev() == n && n->prev()->next() == n, n, "node list links broken");
      check(n->kind() != sym::prim_Param && n->kind() != sym::prim_Return, n, "param/return node inside a block's list");
      check_uses(n);
      check_control_flow(n);
      for (const Block* sub : n->blocks()) {
        check(sub->owning_node() == n, n, "sub-block's owning node is wrong");
        scopes_.emplace_back();
        check_block(sub);
        scopes_.pop_back();
      }
      for (size_t i = 0; i < n->outputs().size(); ++i) define(n->outputs()[i], n, i);
      if (n->prev() != ret) check(n->prev()->is_before(n), n, "topological positions out of order");
    }
    check_uses(ret);
  }

  void check_control_flow(const Node* n) {
    if (n->kind() == sym::prim_Constant) {
      check(n->inputs().empty(), n, "prim::Constant takes no inputs");
      check(n->outputs().size() == 1, n, "prim::Constant has one output");
      check(n->blocks().empty(), n, "prim::Constant has no blocks");
      return;
    }
    if (n->kind() == sym::prim_If) {
      check(n->inputs().size() == 1, n, "prim::If takes one input, the condition");
      check(n->blocks().size() == 2, n, "prim::If has two blocks");
      for (const Block* b : n->blocks()) {
        check(b->inputs().empty(), n, "prim::If blocks take no inputs");
        check(b->outputs().size() == n->outputs().size(), n,
              [&] {
                return fmt::format("prim::If block returns {} values for {} outputs", b->outputs().size(),
                                   n->outputs().size());
              });
      }
      return;
    }
    if (n->kind() == sym::prim_Loop) {
      check(n->inputs().size() >= 2, n, "prim::Loop takes max_trip_count, initial_condition, carried...");
      check(n->blocks().size() == 1, n, "prim::Loop has one body block");
      size_t carried = n->inputs().size() - 2;
      const Block* body = n->blocks()[0];
      check(n->outputs().size() == carried, n,
            [&] {
              return fmt::format("prim::Loop has {} outputs for {} carried values", n->outputs().size(), carried);
            });
      check(body->inputs().size() == carried + 1, n, "prim::Loop body takes (i, carried...)");
      check(body->outputs().size() == carried + 1, n, "prim::Loop body returns (condition, carried...)");
    }
  }

  const Graph& g_;
  const std::unordered_set<Node*>& all_nodes_;
  const std::unordered_set<Value*>& all_values_;
  std::vector<std::unordered_set<const Value*>> scopes_;
  std::unordered_set<size_t> uniques_;
  struct UseHash {
    size_t operator()(const Use& u) const { return std::hash<const Node*>()(u.user) * 31 + u.offset; }
  };
  std::unordered_set<Use, UseHash> listed_uses_;  // every use of every value defined so far
};

}  // namespace

void Graph::lint() const {
  Linter(*this, all_nodes_, all_values_).run();
  // Every named value is registered under its name, and only it.
  for (const auto& [name, v] : unique_names_) {
    TL_CHECK(all_values_.count(v) == 1 && v->debug_name() == name, InternalError,
             "graph lint: name table entry '{}' is stale", name);
  }
  TL_CHECK(insert_before_ && all_nodes_.count(insert_before_) == 1, InternalError, "graph lint: insert point is dead");
}

}  // namespace torchlet::jit

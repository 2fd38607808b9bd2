// The TorchScript IR: Graph, Block, Node and Value, as
// ../shared/reference/jit-technical-overview.txt describes them. A Graph is a block of
// nodes; nodes consume and produce Values; prim::If / prim::Loop nodes own sub-blocks.
//
// Ownership: the Graph owns every Node, Value and Block it creates (they are freed by
// Node::destroy / Block destruction or with the Graph). All raw pointers in this API
// are non-owning and valid while the node or value is alive and its Graph exists; hold
// a std::shared_ptr<Graph> to keep them so.
//
// Control flow (Note [Control flow]):
//   %y = prim::If(%cond)            block0(): ... -> (%then_y)   block1(): ... -> (%else_y)
//   %y_1..r = prim::Loop(%max_trip_count, %initial_condition, %x_1..r)
//       block0(%i, %c_1..r): ... -> (%continue_condition, %c'_1..r)
// If blocks take no inputs and return one value per node output. A Loop body's inputs
// are the iteration counter then the carried values; its outputs are the condition for
// the next iteration then the new carried values. lint() checks all of this.
//
// The printer (Graph::str) writes PyTorch's text form; parse_ir (ir_parser.h) reads it.
// What nodes *do* is the runtime's business: a node may carry the Operator/Schema it
// resolved to, opaque here.
#pragma once

#include <complex>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <variant>
#include <vector>

#include <torchlet/ivalue.h>

#include "jit/ir/source_range.h"
#include "jit/ir/symbol.h"
#include "values/type.h"

namespace torchlet::jit {

class Graph;
class Block;
class Node;
class Value;
class Operator;  // the runtime's resolved operator (src/jit/runtime); opaque here
struct FunctionSchema;

using GraphPtr = std::shared_ptr<Graph>;

enum class AttributeKind {
#define TL_ATTRIBUTE_KIND(kind, type, what) kind,
#include "jit/ir/attribute_kinds.def"
#undef TL_ATTRIBUTE_KIND
};
const char* attribute_kind_name(AttributeKind k);  // "i", "ival", ...

// One use of a value: input number `offset` of node `user`.
struct Use {
  Node* user;
  size_t offset;
  bool operator==(const Use& o) const { return user == o.user && offset == o.offset; }
};

// A list of a block's nodes, in order; iteration tolerates destroying the current
// node after advancing the iterator (read it, ++it, then destroy).
class NodeList {
 public:
  class iterator {
   public:
    using value_type = Node*;
    using difference_type = std::ptrdiff_t;
    iterator() = default;
    iterator(Node* n, bool reverse) : cur_(n), reverse_(reverse) {}
    Node* operator*() const { return cur_; }
    iterator& operator++();
    iterator operator++(int) {
      iterator old = *this;
      ++*this;
      return old;
    }
    bool operator==(const iterator& o) const { return cur_ == o.cur_; }

   private:
    Node* cur_ = nullptr;
    bool reverse_ = false;
  };
  NodeList(Node* sentinel, bool reverse) : sentinel_(sentinel), reverse_(reverse) {}
  iterator begin() const;
  iterator end() const { return iterator(sentinel_, reverse_); }
  NodeList reverse() const { return NodeList(sentinel_, !reverse_); }
  bool empty() const { return begin() == end(); }
  Node* front() const { return *begin(); }
  Node* back() const { return *reverse().begin(); }

 private:
  Node* sentinel_;
  bool reverse_;
};

class Value {
 public:
  Node* node() const { return node_; }    // the producer (prim::Param for inputs)
  size_t offset() const { return offset_; }  // which output of node()
  const TypePtr& type() const { return type_; }  // Tensor until set, as in torch
  Value* set_type(TypePtr t);
  const std::vector<Use>& uses() const { return uses_; }
  bool has_uses() const { return !uses_.empty(); }
  size_t unique() const { return unique_; }
  Graph* owning_graph() const;

  // Names: "%x.1" prints debug_name() "x.1"; unnamed values print their unique().
  bool has_debug_name() const { return !unique_name_.empty(); }
  std::string debug_name() const;
  // The name without a numeric ".N" suffix: "x" for "x.1".
  std::string debug_name_base() const;
  // torch's setDebugName: if another value holds `name`, that one is renamed to
  // base.N with the next free N. "" clears. ValueError for names that are numbers.
  Value* set_debug_name(const std::string& name);
  // Copies type and debug name (without stealing it; the copy gets a .N suffix).
  Value* copy_metadata(const Value* from);

  // Rewires every use of this value to v.
  void replace_all_uses_with(Value* v);
  // ... only uses by nodes after `node` (in program order, nested blocks included).
  void replace_all_uses_after_node_with(const Node* node, Value* v);

 private:
  friend class Node;
  friend class Graph;
  friend class Block;
  friend class IRParser;
  Value(Node* node, size_t offset);
  Node* node_;
  size_t offset_;
  size_t unique_;
  std::vector<Use> uses_;
  std::string unique_name_;
  TypePtr type_;
};

class Node {
 public:
  Symbol kind() const { return kind_; }
  Graph* owning_graph() const { return graph_; }
  Block* owning_block() const { return owning_block_; }
  // Is this node linked into a block's node list (not just created, not a param/return)?
  bool in_block_list() const { return next_ != nullptr; }

  // --- inputs and outputs --------------------------------------------------------------
  const std::vector<Value*>& inputs() const { return inputs_; }
  const std::vector<Value*>& outputs() const { return outputs_; }
  Value* input(size_t i) const { return inputs_.at(i); }
  Value* output(size_t i) const { return outputs_.at(i); }
  Value* input() const;   // the only input; InternalError if not exactly one
  Value* output() const;  // the only output; InternalError if not exactly one
  bool has_uses() const;
  // Each output's uses move to the same-numbered output of n.
  void replace_all_uses_with(Node* n);

  Value* add_input(Value* v);
  Value* insert_input(size_t i, Value* v);
  Value* replace_input(size_t i, Value* v);  // returns the old input
  void replace_input_with(Value* from, Value* to);  // every occurrence
  void remove_input(size_t i);
  void remove_all_inputs();
  Value* add_output();
  Value* insert_output(size_t i);
  void erase_output(size_t i);  // the output must have no uses

  // --- blocks ------------------------------------------------------------------------------
  const std::vector<Block*>& blocks() const { return blocks_; }
  Block* add_block();
  void erase_block(size_t i);

  // --- position ----------------------------------------------------------------------------
  Node* next() const { return next_; }
  Node* prev() const { return prev_; }
  // Links this (unlinked) node into n's block just before / after n.
  Node* insert_before(Node* n);
  Node* insert_after(Node* n);
  // Unlinks this node and links it before / after n (which may be in another block).
  void move_before(Node* n);
  void move_after(Node* n);
  // Program order, across blocks: a node in a sub-block is after its owner's
  // predecessors and before its owner's successors.
  bool is_before(const Node* n) const;
  bool is_after(const Node* n) const;
  // Removes and frees the node: its outputs must have no uses; its inputs' uses and
  // its blocks are dropped.
  void destroy();

  // --- attributes ------------------------------------------------------------------------
  bool has_attribute(Symbol name) const { return find_attr(name) != nullptr; }
  bool has_attributes() const { return !attrs_.empty(); }
  AttributeKind attribute_kind(Symbol name) const;  // ValueError if absent
  std::vector<Symbol> attribute_names() const;       // in insertion order
  void remove_attribute(Symbol name);
  void copy_attributes(const Node& from);
#define TL_ATTRIBUTE_KIND(kind, type, what) \
  Node* set_##kind(Symbol name, type v);    \
  const type& kind(Symbol name) const;
#include "jit/ir/attribute_kinds.def"
#undef TL_ATTRIBUTE_KIND

  // --- metadata ------------------------------------------------------------------------------
  const SourceRange& source_range() const { return source_range_; }
  Node* set_source_range(SourceRange r) {
    source_range_ = std::move(r);
    return this;
  }
  // Null unless the node was inlined from a call (source_range.h).
  const std::shared_ptr<const InlinedCallStack>& callstack() const { return callstack_; }
  void set_callstack(std::shared_ptr<const InlinedCallStack> s) { callstack_ = std::move(s); }
  // The operator this node resolved to, filled by the runtime (opaque here).
  const Operator* op() const { return op_; }
  void set_op(const Operator* op) { op_ = op; }
  const FunctionSchema* schema() const { return schema_; }
  void set_schema(const FunctionSchema* s) { schema_ = s; }

  // Prints this node (and its blocks) as one statement of graph text.
  void print(std::ostream& out, size_t indent, bool print_source_locations = false) const;

 private:
  friend class Graph;
  friend class Block;
  friend class Value;
  friend class NodeList;
  friend class IRParser;
  using AttrValue = std::variant<
#define TL_ATTRIBUTE_KIND(kind, type, what) type,
#include "jit/ir/attribute_kinds.def"
#undef TL_ATTRIBUTE_KIND
      std::monostate>;
  struct Attr {
    Symbol name;
    AttrValue value;
  };

  Node(Graph* graph, Symbol kind);
  ~Node();
  const Attr* find_attr(Symbol name) const;
  Node* set_attr(Symbol name, AttrValue v);
  const AttrValue& get_attr(Symbol name, AttributeKind expected) const;
  void link_before(Node* n);  // precondition: unlinked
  void unlink();
  void drop_input(size_t i);  // removes the Use for input i
  void assign_topo_position();

  Symbol kind_;
  Graph* graph_;
  Block* owning_block_ = nullptr;
  Node* next_ = nullptr;
  Node* prev_ = nullptr;
  int64_t topo_position_ = 0;
  std::vector<Value*> inputs_;
  std::vector<Value*> outputs_;
  std::vector<Block*> blocks_;
  std::vector<Attr> attrs_;
  SourceRange source_range_;
  std::shared_ptr<const InlinedCallStack> callstack_;
  const Operator* op_ = nullptr;
  const FunctionSchema* schema_ = nullptr;
};

class Block {
 public:
  const std::vector<Value*>& inputs() const { return input_->outputs(); }
  const std::vector<Value*>& outputs() const { return output_->inputs(); }
  NodeList nodes() const { return NodeList(output_, false); }
  Node* param_node() const { return input_; }
  Node* return_node() const { return output_; }
  Node* owning_node() const { return owning_node_; }  // null for the graph's block
  Graph* owning_graph() const { return graph_; }

  Value* add_input(const std::string& name = "");
  Value* insert_input(size_t i, const std::string& name = "");
  void erase_input(size_t i);  // the input must have no uses
  size_t register_output(Value* v);
  void insert_output(size_t i, Value* v);
  void erase_output(size_t i);
  void replace_output(size_t i, Value* v);
  Node* append_node(Node* n);   // links n last
  Node* prepend_node(Node* n);  // links n first

  // Appends copies of src's inputs, nodes (with their blocks) and outputs to this
  // empty block; value_map supplies the values src uses from outside itself. Copies
  // into another graph keep names; within one graph they get fresh .N suffixes.
  void clone_from(const Block* src, const std::function<Value*(Value*)>& value_map);

 private:
  friend class Graph;
  friend class Node;
  Block(Graph* graph, Node* owning_node);
  void destroy();  // destroys nodes, then the param/return nodes
  Graph* graph_;
  Node* output_;
  Node* input_;
  Node* owning_node_;
};

// Where Graph::insert puts new nodes: before a node (set_insert_point(Node*)) or at
// the end of a block (set_insert_point(Block*)). Emitters set it once and append.
class Graph : public std::enable_shared_from_this<Graph> {
 public:
  Graph();
  ~Graph();
  Graph(const Graph&) = delete;
  Graph& operator=(const Graph&) = delete;

  Block* block() const { return block_; }
  const std::vector<Value*>& inputs() const { return block_->inputs(); }
  const std::vector<Value*>& outputs() const { return block_->outputs(); }
  NodeList nodes() const { return block_->nodes(); }
  Node* param_node() const { return block_->param_node(); }
  Node* return_node() const { return block_->return_node(); }
  Value* add_input(const std::string& name = "") { return block_->add_input(name); }
  Value* insert_input(size_t i, const std::string& name = "") { return block_->insert_input(i, name); }
  void erase_input(size_t i) { block_->erase_input(i); }
  size_t register_output(Value* v) { return block_->register_output(v); }
  void erase_output(size_t i) { block_->erase_output(i); }

  // --- creating nodes (unlinked until inserted) -----------------------------------------
  Node* create(Symbol kind, size_t num_outputs = 1);
  Node* create(Symbol kind, const std::vector<Value*>& inputs, size_t num_outputs = 1);
  // A copy of n (attributes, operator, outputs' types and names, nested blocks), its
  // inputs through value_map; values nested blocks use from outside map the same way.
  // Outputs of a copy within the same graph get fresh names of the same base.
  Node* create_clone(const Node* n, const std::function<Value*(Value*)>& value_map);
  // A prim::Constant for v, typed as torch types constants (bool, int, float, str,
  // Device, None, Tensor, lists, tuples...). ValueError for values that cannot be
  // constants (objects of classes, futures).
  Node* create_constant(const IValue& v);

  // Builders for the nodes emitters make most; unlinked, typed as torch types them.
  Node* create_none();                                                    // prim::Constant()
  Node* create_tuple(const std::vector<Value*>& values, TypePtr tuple_type = nullptr);  // TupleConstruct
  Node* create_tuple_unpack(Value* tuple);                                // one output per element
  Node* create_list(const TypePtr& elem_type, const std::vector<Value*>& values);       // ListConstruct
  Node* create_list_unpack(Value* list, size_t size);
  Node* create_dict(const TypePtr& key_type, const TypePtr& value_type, const std::vector<Value*>& keys,
                    const std::vector<Value*>& values);                   // DictConstruct(k, v, k, v...)
  Node* create_object(const TypePtr& class_type);                         // CreateObject
  // GetAttr[name=field]; the output takes the attribute's type from the class.
  Node* create_get_attr(Value* obj, const std::string& field);
  Node* create_set_attr(Value* obj, const std::string& field, Value* new_value);
  Node* create_uninitialized(TypePtr type);
  Node* create_unchecked_cast(Value* v, TypePtr type);
  Node* create_isinstance(Value* v, std::vector<TypePtr> types);

  // --- inserting at the insert point ---------------------------------------------------------
  Node* insert_node(Node* n);  // links n at the insert point
  Node* insert(Symbol kind, const std::vector<Value*>& inputs, size_t num_outputs = 1) {
    return insert_node(create(kind, inputs, num_outputs));
  }
  Value* insert_constant(const IValue& v, const SourceRange& range = {});
  void set_insert_point(Node* n);   // insert before n
  void set_insert_point(Block* b);  // insert at the end of b
  Node* insert_point() const { return insert_before_; }
  Block* insert_block() const { return insert_before_->owning_block(); }

  // --- whole-graph operations ------------------------------------------------------------
  // Verifies the invariants (Note [Control flow], SSA dominance, use lists, unique
  // names and ids); InternalError naming the first violation.
  void lint() const;
  std::string str(bool print_source_locations = false) const;  // PyTorch's text form
  void print(std::ostream& out, bool print_source_locations = false) const;
  std::shared_ptr<Graph> copy() const;
  size_t num_values_created() const { return next_unique_; }

 private:
  friend class Node;
  friend class Value;
  friend class Block;
  friend class IRParser;
  Node* new_node(Symbol kind);
  Value* new_value(Node* n, size_t offset);
  void free_node(Node* n);
  void free_value(Value* v);
  Block* new_block(Node* owner);
  void free_block(Block* b);

  std::unordered_set<Node*> all_nodes_;
  std::unordered_set<Value*> all_values_;
  std::unordered_set<Block*> all_blocks_;
  size_t next_unique_ = 0;
  std::unordered_map<std::string, Value*> unique_names_;
  std::unordered_map<std::string, size_t> name_base_suffix_;
  Block* block_;
  Node* insert_before_;
};

// Restores the graph's insert point when it goes out of scope.
class InsertPointGuard {
 public:
  explicit InsertPointGuard(Graph& g) : graph_(g), point_(g.insert_point()) {}
  InsertPointGuard(Graph& g, Node* new_point) : InsertPointGuard(g) { g.set_insert_point(new_point); }
  ~InsertPointGuard() { graph_.set_insert_point(point_); }
  InsertPointGuard(const InsertPointGuard&) = delete;
  InsertPointGuard& operator=(const InsertPointGuard&) = delete;

 private:
  Graph& graph_;
  Node* point_;
};

// The constant a value holds if a prim::Constant produced it (torch's toIValue).
std::optional<IValue> to_ivalue(const Value* v);

std::ostream& operator<<(std::ostream& out, const Graph& g);

// Literal spellings shared by the graph printer and the python printer.
// torch's IValue double spelling: integral values below 1e10 as "1." / "-0.", else the
// shortest round-tripping form at 17 significant digits ("0.10000000000000001").
void print_double_literal(std::ostream& out, double d);
// c10::printQuotedString: double quotes, C escapes, octal for other unprintables.
void print_quoted_string(std::ostream& out, std::string_view s);

}  // namespace torchlet::jit

// Graph, Block, Node and Value: construction, use lists, linking, naming, attributes,
// constants, topological order, copying and lint (see ir.h). Printing lives in
// ir_printer.cpp and parsing in ir_parser.cpp.
#include "jit/ir/ir.h"

#include <algorithm>
#include <limits>

#include <fmt/format.h>
#include <torchlet/error.h>

namespace torchlet::jit {

namespace {

constexpr const char* kAttributeKindNames[] = {
#define TL_ATTRIBUTE_KIND(kind, type, what) #kind,
#include "jit/ir/attribute_kinds.def"
#undef TL_ATTRIBUTE_KIND
};

// Note [Topological positions]: each node of a block carries an integer that grows
// along the list, so is_before is one comparison. Appends leave kAppendInterval of room;
// an insertion between two neighbours takes the midpoint, and a block whose positions
// run out is renumbered (rare; as torch does).
constexpr int64_t kLowerBound = std::numeric_limits<int64_t>::min();
constexpr int64_t kUpperBound = std::numeric_limits<int64_t>::max();
constexpr int64_t kAppendInterval = int64_t{1} << 40;

bool is_number(std::string_view s) {
  return !s.empty() && s.find_first_not_of("0123456789") == std::string_view::npos;
}

}  // namespace

const char* attribute_kind_name(AttributeKind k) { return kAttributeKindNames[static_cast<size_t>(k)]; }

// --- NodeList -------------------------------------------------------------------------------

NodeList::iterator& NodeList::iterator::operator++() {
  cur_ = reverse_ ? cur_->prev() : cur_->next();
  return *this;
}

NodeList::iterator NodeList::begin() const {
  return iterator(reverse_ ? sentinel_->prev_ : sentinel_->next_, reverse_);
}

// --- Value ---------------------------------------------------------------------------------

Value::Value(Node* node, size_t offset)
    : node_(node), offset_(offset), unique_(0), type_(Type::tensor()) {}

Graph* Value::owning_graph() const { return node_->owning_graph(); }

Value* Value::set_type(TypePtr t) {
  TL_INTERNAL_ASSERT(t != nullptr, "null type");
  type_ = std::move(t);
  return this;
}

std::string Value::debug_name() const { return has_debug_name() ? unique_name_ : std::to_string(unique_); }

std::string Value::debug_name_base() const {
  std::string name = debug_name();
  size_t dot = name.find_last_of('.');
  if (dot != std::string::npos && dot + 1 < name.size() && is_number(std::string_view(name).substr(dot + 1))) {
    return name.substr(0, dot);
  }
  return name;
}

// torch's Value::setDebugName, so names (and their .N suffixes) come out as torch's.
Value* Value::set_debug_name(const std::string& name) {
  TL_CHECK(!is_number(name), ValueError, "names of values cannot be numbers: '{}'", name);
  Graph* g = owning_graph();
  auto& names = g->unique_names_;
  if (has_debug_name()) {
    names.erase(unique_name_);
    unique_name_.clear();
  }
  if (name.empty()) return this;
  auto old_owner = names.find(name);
  if (old_owner != names.end()) {
    // Someone holds the name: they move to base.N for the next free N.
    size_t suffix = 1;
    std::string base = name;
    size_t dot = name.find_last_of('.');
    if (dot != std::string::npos && dot + 1 != name.size() && is_number(std::string_view(name).substr(dot + 1))) {
      suffix = std::stoull(name.substr(dot + 1));
      base = name.substr(0, dot);
    }
    auto it = g->name_base_suffix_.find(base);
    if (it != g->name_base_suffix_.end()) suffix = std::max(suffix, it->second + 1);
    std::string replacement;
    do {
      replacement = base + "." + std::to_string(suffix++);
    } while (names.count(replacement) > 0);
    g->name_base_suffix_[base] = suffix;
    old_owner->second->set_debug_name(replacement);
  }
  names[name] = this;
  unique_name_ = name;
  return this;
}

Value* Value::copy_metadata(const Value* from) {
  set_type(from->type());
  if (from->has_debug_name()) set_debug_name(from->debug_name_base());
  return this;
}

void Value::replace_all_uses_with(Value* v) {
  TL_INTERNAL_ASSERT(owning_graph() == v->owning_graph(), "replacing with a value of another graph");
  if (v == this) return;
  for (const Use& u : uses_) {
    u.user->inputs_[u.offset] = v;
    v->uses_.push_back(u);
  }
  uses_.clear();
}

void Value::replace_all_uses_after_node_with(const Node* node, Value* v) {
  std::vector<Use> kept;
  for (const Use& u : uses_) {
    if (u.user->is_after(node)) {
      u.user->inputs_[u.offset] = v;
      v->uses_.push_back(u);
    } else {
      kept.push_back(u);
    }
  }
  uses_ = std::move(kept);
}

// --- Node ------------------------------------------------------------------------------------

Node::Node(Graph* graph, Symbol kind) : kind_(kind), graph_(graph) {}
Node::~Node() = default;

Value* Node::input() const {
  TL_INTERNAL_ASSERT(inputs_.size() == 1, kind_.qual_string());
  return inputs_[0];
}

Value* Node::output() const {
  TL_INTERNAL_ASSERT(outputs_.size() == 1, kind_.qual_string());
  return outputs_[0];
}

bool Node::has_uses() const {
  return std::any_of(outputs_.begin(), outputs_.end(), [](const Value* v) { return v->has_uses(); });
}

void Node::replace_all_uses_with(Node* n) {
  TL_INTERNAL_ASSERT(n->outputs_.size() == outputs_.size(), "replacing a node with one of another arity");
  for (size_t i = 0; i < outputs_.size(); ++i) outputs_[i]->replace_all_uses_with(n->outputs_[i]);
}

Value* Node::add_input(Value* v) { return insert_input(inputs_.size(), v); }

Value* Node::insert_input(size_t i, Value* v) {
  TL_INTERNAL_ASSERT(v->owning_graph() == graph_, "input from another graph");
  TL_INTERNAL_ASSERT(i <= inputs_.size(), "input index out of range");
  // Later inputs shift by one: their uses' offsets too, last first, so a value used at
  // both j and j + 1 does not move twice.
  for (size_t j = inputs_.size(); j-- > i;) {
    for (Use& u : inputs_[j]->uses_) {
      if (u.user == this && u.offset == j) u.offset = j + 1;
    }
  }
  inputs_.insert(inputs_.begin() + static_cast<std::ptrdiff_t>(i), v);
  v->uses_.push_back({this, i});
  return v;
}

void Node::drop_input(size_t i) {
  auto& uses = inputs_[i]->uses_;
  auto it = std::find(uses.begin(), uses.end(), Use{this, i});
  TL_INTERNAL_ASSERT(it != uses.end(), "use list out of sync");
  uses.erase(it);
}

Value* Node::replace_input(size_t i, Value* v) {
  TL_INTERNAL_ASSERT(i < inputs_.size() && v->owning_graph() == graph_, "bad replace_input");
  Value* old = inputs_[i];
  drop_input(i);
  inputs_[i] = v;
  v->uses_.push_back({this, i});
  return old;
}

void Node::replace_input_with(Value* from, Value* to) {
  for (size_t i = 0; i < inputs_.size(); ++i) {
    if (inputs_[i] == from) replace_input(i, to);
  }
}

void Node::remove_input(size_t i) {
  TL_INTERNAL_ASSERT(i < inputs_.size(), "input index out of range");
  drop_input(i);
  for (size_t j = i + 1; j < inputs_.size(); ++j) {
    for (Use& u : inputs_[j]->uses_) {
      if (u.user == this && u.offset == j) u.offset = j - 1;
    }
  }
  inputs_.erase(inputs_.begin() + static_cast<std::ptrdiff_t>(i));
}

void Node::remove_all_inputs() {
  for (size_t i = 0; i < inputs_.size(); ++i) drop_input(i);
  inputs_.clear();
}

Value* Node::add_output() { return insert_output(outputs_.size()); }

Value* Node::insert_output(size_t i) {
  TL_INTERNAL_ASSERT(i <= outputs_.size(), "output index out of range");
  Value* v = graph_->new_value(this, i);
  outputs_.insert(outputs_.begin() + static_cast<std::ptrdiff_t>(i), v);
  for (size_t j = i + 1; j < outputs_.size(); ++j) outputs_[j]->offset_ = j;
  return v;
}

void Node::erase_output(size_t i) {
  TL_INTERNAL_ASSERT(i < outputs_.size(), "output index out of range");
  Value* v = outputs_[i];
  TL_INTERNAL_ASSERT(!v->has_uses(), "erasing an output that still has uses");
  outputs_.erase(outputs_.begin() + static_cast<std::ptrdiff_t>(i));
  for (size_t j = i; j < outputs_.size(); ++j) outputs_[j]->offset_ = j;
  graph_->free_value(v);
}

Block* Node::add_block() {
  Block* b = graph_->new_block(this);
  blocks_.push_back(b);
  return b;
}

void Node::erase_block(size_t i) {
  TL_INTERNAL_ASSERT(i < blocks_.size(), "block index out of range");
  Block* b = blocks_[i];
  blocks_.erase(blocks_.begin() + static_cast<std::ptrdiff_t>(i));
  b->destroy();
}

void Node::link_before(Node* n) {
  TL_INTERNAL_ASSERT(!in_block_list(), "node is already in a block");
  TL_INTERNAL_ASSERT(n->in_block_list() || n == n->owning_block_->output_, "insertion point is not in a block");
  Node* p = n->prev_;
  prev_ = p;
  next_ = n;
  p->next_ = this;
  n->prev_ = this;
  owning_block_ = n->owning_block_;
  assign_topo_position();
}

void Node::unlink() {
  TL_INTERNAL_ASSERT(in_block_list(), "node is not in a block");
  prev_->next_ = next_;
  next_->prev_ = prev_;
  next_ = prev_ = nullptr;
}

void Node::assign_topo_position() {
  Node* sentinel = owning_block_->output_;
  bool first = prev_ == sentinel, last = next_ == sentinel;
  int64_t lo = first ? kLowerBound : prev_->topo_position_;
  int64_t hi = last ? kUpperBound : next_->topo_position_;
  if (first && last) {
    topo_position_ = 0;
    return;
  }
  if (last) {
    if (lo <= kUpperBound - 2 * kAppendInterval) {
      topo_position_ = lo + kAppendInterval;
      return;
    }
  } else if (first) {
    if (hi >= kLowerBound + 2 * kAppendInterval) {
      topo_position_ = hi - kAppendInterval;
      return;
    }
  } else if (hi - lo > 1) {
    topo_position_ = lo + (hi - lo) / 2;
    return;
  }
  // Out of room: renumber the block evenly.
  int64_t pos = kLowerBound + kAppendInterval;
  for (Node* n = sentinel->next_; n != sentinel; n = n->next_) {
    n->topo_position_ = pos;
    pos += kAppendInterval;
  }
}

Node* Node::insert_before(Node* n) {
  link_before(n);
  return this;
}

Node* Node::insert_after(Node* n) {
  TL_INTERNAL_ASSERT(n->kind_ != sym::prim_Return, "nothing goes after a block's return");
  if (n->kind_ == sym::prim_Param) {  // after the param node = first in the block
    link_before(n->owning_block_->output_->next_);
    return this;
  }
  link_before(n->next_);
  return this;
}

void Node::move_before(Node* n) {
  unlink();
  link_before(n);
}

void Node::move_after(Node* n) {
  unlink();
  insert_after(n);
}

bool Node::is_before(const Node* n) const {
  if (this == n) return false;
  // Walk both up to a common block, then compare positions there.
  auto depth = [](const Node* x) {
    size_t d = 0;
    for (const Block* b = x->owning_block_; b && b->owning_node_; b = b->owning_node_->owning_block_) ++d;
    return d;
  };
  const Node* a = this;
  const Node* b = n;
  size_t da = depth(a), db = depth(b);
  while (da > db) {
    a = a->owning_block_->owning_node_;
    --da;
  }
  while (db > da) {
    b = b->owning_block_->owning_node_;
    --db;
  }
  if (a == b) return this == a;  // n is nested inside this node: this comes first
  while (a->owning_block_ != b->owning_block_) {
    a = a->owning_block_->owning_node_;
    b = b->owning_block_->owning_node_;
  }
  if (a == b) return false;  // siblings under one node: different blocks, unordered
  auto pos = [](const Node* x) {
    // A block's param and return nodes are the ends of its node list (the return
    // node is the list's sentinel, so it is linked): first and last by definition.
    if (x == x->owning_block_->input_) return kLowerBound;
    if (x == x->owning_block_->output_) return kUpperBound;
    return x->topo_position_;
  };
  return pos(a) < pos(b);
}

bool Node::is_after(const Node* n) const { return n->is_before(this); }

void Node::destroy() {
  TL_INTERNAL_ASSERT((kind_ != sym::prim_Param && kind_ != sym::prim_Return) || !owning_block_,
                     "param and return nodes are destroyed with their block");
  for (const Value* v : outputs_) {
    TL_INTERNAL_ASSERT(!v->has_uses(), fmt::format("destroying {} whose output %{} is still used",
                                                   kind_.qual_string(), v->debug_name()));
  }
  while (!blocks_.empty()) erase_block(blocks_.size() - 1);
  remove_all_inputs();
  if (in_block_list()) unlink();
  if (graph_->insert_before_ == this) graph_->insert_before_ = graph_->block_->output_;
  graph_->free_node(this);
}

// --- attributes ------------------------------------------------------------------------------

const Node::Attr* Node::find_attr(Symbol name) const {
  for (const Attr& a : attrs_) {
    if (a.name == name) return &a;
  }
  return nullptr;
}

Node* Node::set_attr(Symbol name, AttrValue v) {
  for (Attr& a : attrs_) {
    if (a.name == name) {
      a.value = std::move(v);
      return this;
    }
  }
  attrs_.push_back({name, std::move(v)});
  return this;
}

const Node::AttrValue& Node::get_attr(Symbol name, AttributeKind expected) const {
  const Attr* a = find_attr(name);
  TL_CHECK(a, ValueError, "{} has no attribute '{}'", kind_.qual_string(), name.name());
  TL_CHECK(a->value.index() == static_cast<size_t>(expected), TypeError,
           "{} attribute '{}' is of kind {}, not {}", kind_.qual_string(), name.name(),
           attribute_kind_name(static_cast<AttributeKind>(a->value.index())), attribute_kind_name(expected));
  return a->value;
}

AttributeKind Node::attribute_kind(Symbol name) const {
  const Attr* a = find_attr(name);
  TL_CHECK(a, ValueError, "{} has no attribute '{}'", kind_.qual_string(), name.name());
  return static_cast<AttributeKind>(a->value.index());
}

std::vector<Symbol> Node::attribute_names() const {
  std::vector<Symbol> out;
  for (const Attr& a : attrs_) out.push_back(a.name);
  return out;
}

void Node::remove_attribute(Symbol name) {
  auto it = std::find_if(attrs_.begin(), attrs_.end(), [&](const Attr& a) { return a.name == name; });
  TL_CHECK(it != attrs_.end(), ValueError, "{} has no attribute '{}'", kind_.qual_string(), name.name());
  attrs_.erase(it);
}

void Node::copy_attributes(const Node& from) { attrs_ = from.attrs_; }

#define TL_ATTRIBUTE_KIND(kind, type, what)                                                         \
  Node* Node::set_##kind(Symbol name, type v) {                                                     \
    return set_attr(name, AttrValue(std::in_place_index<static_cast<size_t>(AttributeKind::kind)>, \
                                    std::move(v)));                                                 \
  }                                                                                                 \
  const type& Node::kind(Symbol name) const {                                                       \
    return std::get<static_cast<size_t>(AttributeKind::kind)>(get_attr(name, AttributeKind::kind)); \
  }
#include "jit/ir/attribute_kinds.def"
#undef TL_ATTRIBUTE_KIND

// --- Block -------------------------------------------------------------------------------------

Block::Block(Graph* graph, Node* owning_node)
    : graph_(graph),
      output_(graph->new_node(sym::prim_Return)),
      input_(graph->new_node(sym::prim_Param)),
      owning_node_(owning_node) {
  // The return node is the sentinel of the circular node list.
  output_->next_ = output_;
  output_->prev_ = output_;
  output_->owning_block_ = this;
  input_->owning_block_ = this;
}

Value* Block::add_input(const std::string& name) { return insert_input(inputs().size(), name); }

Value* Block::insert_input(size_t i, const std::string& name) {
  Value* v = input_->insert_output(i);
  if (!name.empty()) v->set_debug_name(name);
  return v;
}

void Block::erase_input(size_t i) { input_->erase_output(i); }
size_t Block::register_output(Value* v) {
  output_->add_input(v);
  return outputs().size() - 1;
}
void Block::insert_output(size_t i, Value* v) { output_->insert_input(i, v); }
void Block::erase_output(size_t i) { output_->remove_input(i); }
void Block::replace_output(size_t i, Value* v) { output_->replace_input(i, v); }

Node* Block::append_node(Node* n) {
  n->link_before(output_);
  return n;
}

Node* Block::prepend_node(Node* n) {
  n->link_before(output_->next_);
  return n;
}

namespace {

// Into another graph names are kept as they are; within one graph (inlining) the copies
// get fresh .N suffixes of the same base, as torch's copyMetadata does.
Value* copy_value_metadata(Value* to, const Value* from, bool same_graph) {
  to->set_type(from->type());
  if (from->has_debug_name()) to->set_debug_name(same_graph ? from->debug_name_base() : from->debug_name());
  return to;
}

}  // namespace

Node* Graph::create_clone(const Node* n, const std::function<Value*(Value*)>& value_map) {
  const bool same_graph = n->owning_graph() == this;
  Node* c = create(n->kind(), 0);
  c->copy_attributes(*n);
  c->source_range_ = n->source_range_;
  c->callstack_ = n->callstack_;
  c->op_ = n->op_;
  c->schema_ = n->schema_;
  for (Value* in : n->inputs()) c->add_input(value_map(in));
  for (Value* out : n->outputs()) copy_value_metadata(c->add_output(), out, same_graph);
  for (const Block* b : n->blocks()) c->add_block()->clone_from(b, value_map);
  return c;
}

void Block::clone_from(const Block* src, const std::function<Value*(Value*)>& value_map) {
  std::unordered_map<const Value*, Value*> local;
  std::function<Value*(Value*)> env = [&](Value* v) -> Value* {
    auto it = local.find(v);
    if (it != local.end()) return it->second;
    Value* mapped = value_map(v);
    TL_INTERNAL_ASSERT(mapped != nullptr, fmt::format("clone: no mapping for %{}", v->debug_name()));
    return mapped;
  };
  const bool same_graph = src->owning_graph() == graph_;
  for (Value* in : src->inputs()) local[in] = copy_value_metadata(add_input(), in, same_graph);
  for (Node* n : src->nodes()) {
    Node* c = graph_->create_clone(n, env);
    for (size_t i = 0; i < n->outputs().size(); ++i) local[n->output(i)] = c->output(i);
    append_node(c);
  }
  for (Value* out : src->outputs()) register_output(env(out));
}

void Block::destroy() {
  // Uses inside the block go first: the return node's inputs, then nodes last to first
  // (a node's outputs are only used after it).
  output_->remove_all_inputs();
  for (auto it = nodes().reverse().begin(); it != nodes().reverse().end();) {
    Node* n = *it;
    ++it;
    n->destroy();
  }
  // An insert point at the end of this block would dangle: move it to the graph's end.
  if (graph_->insert_before_ == output_) graph_->insert_before_ = graph_->block_->output_;
  graph_->free_node(output_);
  graph_->free_node(input_);
  graph_->free_block(this);
}

// --- Graph ---------------------------------------------------------------------------------------

Graph::Graph() : block_(new_block(nullptr)), insert_before_(block_->return_node()) {}

Graph::~Graph() {
  for (Node* n : all_nodes_) delete n;
  for (Value* v : all_values_) delete v;
  for (Block* b : all_blocks_) delete b;
}

Node* Graph::new_node(Symbol kind) {
  Node* n = new Node(this, kind);
  all_nodes_.insert(n);
  return n;
}

Value* Graph::new_value(Node* n, size_t offset) {
  Value* v = new Value(n, offset);
  v->unique_ = next_unique_++;
  all_values_.insert(v);
  return v;
}

void Graph::free_node(Node* n) {
  for (Value* v : n->outputs_) free_value(v);
  n->outputs_.clear();
  all_nodes_.erase(n);
  delete n;
}

void Graph::free_value(Value* v) {
  v->set_debug_name("");
  all_values_.erase(v);
  delete v;
}

Block* Graph::new_block(Node* owner) {
  Block* b = new Block(this, owner);
  all_blocks_.insert(b);
  return b;
}

void Graph::free_block(Block* b) {
  all_blocks_.erase(b);
  delete b;
}

Node* Graph::create(Symbol kind, size_t num_outputs) {
  Node* n = new_node(kind);
  for (size_t i = 0; i < num_outputs; ++i) n->add_output();
  return n;
}

Node* Graph::create(Symbol kind, const std::vector<Value*>& inputs, size_t num_outputs) {
  Node* n = create(kind, num_outputs);
  for (Value* v : inputs) n->add_input(v);
  return n;
}

Node* Graph::insert_node(Node* n) {
  n->link_before(insert_before_);
  return n;
}

void Graph::set_insert_point(Node* n) {
  TL_INTERNAL_ASSERT(n->owning_graph() == this, "insert point in another graph");
  insert_before_ = n;
}

void Graph::set_insert_point(Block* b) { set_insert_point(b->return_node()); }

Value* Graph::insert_constant(const IValue& v, const SourceRange& range) {
  Node* n = create_constant(v);
  n->set_source_range(range);
  return insert_node(n)->output();
}

std::shared_ptr<Graph> Graph::copy() const {
  auto g = std::make_shared<Graph>();
  g->block_->clone_from(block_, [](Value* v) -> Value* {
    TL_INTERNAL_ASSERT(false, fmt::format("graph uses %{} from outside itself", v->debug_name()));
  });
  // A fresh graph can keep the original ids, so unnamed values print the same.
  std::function<void(const Block*, const Block*)> same_ids = [&](const Block* from, const Block* to) {
    for (size_t i = 0; i < from->inputs().size(); ++i) to->inputs()[i]->unique_ = from->inputs()[i]->unique_;
    for (auto a = from->nodes().begin(), b = to->nodes().begin(); a != from->nodes().end(); ++a, ++b) {
      for (size_t i = 0; i < (*a)->outputs().size(); ++i) (*b)->outputs()[i]->unique_ = (*a)->outputs()[i]->unique_;
      for (size_t i = 0; i < (*a)->blocks().size(); ++i) same_ids((*a)->blocks()[i], (*b)->blocks()[i]);
    }
  };
  same_ids(block_, g->block_);
  g->next_unique_ = next_unique_;
  return g;
}

Node* Graph::create_none() {
  Node* n = create(sym::prim_Constant);
  n->output()->set_type(Type::none());
  return n;
}

Node* Graph::create_tuple(const std::vector<Value*>& values, TypePtr tuple_type) {
  if (!tuple_type) {
    std::vector<TypePtr> elems;
    for (Value* v : values) elems.push_back(v->type());
    tuple_type = Type::tuple(std::move(elems));
  }
  Node* n = create(sym::prim_TupleConstruct, values);
  n->output()->set_type(std::move(tuple_type));
  return n;
}

Node* Graph::create_tuple_unpack(Value* tuple) {
  TL_CHECK(tuple->type()->kind() == TypeKind::Tuple, TypeError, "cannot unpack a {} as a tuple", tuple->type()->str());
  const auto& elems = tuple->type()->contained();
  Node* n = create(sym::prim_TupleUnpack, {tuple}, elems.size());
  for (size_t i = 0; i < elems.size(); ++i) n->output(i)->set_type(elems[i]);
  return n;
}

Node* Graph::create_list(const TypePtr& elem_type, const std::vector<Value*>& values) {
  for (Value* v : values) {
    TL_CHECK(v->type()->is_subtype_of(*elem_type), TypeError, "list element of type {} in a {}[]", v->type()->str(),
             elem_type->str());
  }
  Node* n = create(sym::prim_ListConstruct, values);
  n->output()->set_type(Type::list(elem_type));
  return n;
}

Node* Graph::create_list_unpack(Value* list, size_t size) {
  TL_CHECK(list->type()->kind() == TypeKind::List, TypeError, "cannot unpack a {} as a list", list->type()->str());
  Node* n = create(sym::prim_ListUnpack, {list}, size);
  for (Value* out : n->outputs()) out->set_type(list->type()->contained()[0]);
  return n;
}

Node* Graph::create_dict(const TypePtr& key_type, const TypePtr& value_type, const std::vector<Value*>& keys,
                         const std::vector<Value*>& values) {
  TL_INTERNAL_ASSERT(keys.size() == values.size(), "dict keys and values differ in number");
  Node* n = create(sym::prim_DictConstruct);
  for (size_t i = 0; i < keys.size(); ++i) {
    n->add_input(keys[i]);
    n->add_input(values[i]);
  }
  n->output()->set_type(Type::dict(key_type, value_type));
  return n;
}

Node* Graph::create_object(const TypePtr& class_type) {
  Node* n = create(sym::prim_CreateObject);
  n->output()->set_type(class_type);
  return n;
}

Node* Graph::create_get_attr(Value* obj, const std::string& field) {
  const ClassType* c = obj->type()->as_class();
  TL_CHECK(c, TypeError, "GetAttr of '{}' on a {}, not an object", field, obj->type()->str());
  auto slot = c->find_attribute(field);
  TL_CHECK(slot.has_value(), TypeError, "{} has no attribute '{}'", c->name(), field);
  Node* n = create(sym::prim_GetAttr, {obj});
  n->set_s(sym::attr_name, field);
  n->output()->set_type(c->attributes()[*slot].type);
  return n;
}

Node* Graph::create_set_attr(Value* obj, const std::string& field, Value* new_value) {
  Node* n = create(sym::prim_SetAttr, {obj, new_value}, 0);
  n->set_s(sym::attr_name, field);
  return n;
}

Node* Graph::create_uninitialized(TypePtr type) {
  Node* n = create(sym::prim_Uninitialized);
  n->output()->set_type(std::move(type));
  return n;
}

Node* Graph::create_unchecked_cast(Value* v, TypePtr type) {
  Node* n = create(sym::prim_unchecked_cast, {v});
  n->output()->set_type(std::move(type));
  return n;
}

Node* Graph::create_isinstance(Value* v, std::vector<TypePtr> types) {
  Node* n = create(sym::prim_isinstance, {v});
  n->set_tys(sym::attr_types, std::move(types));
  n->output()->set_type(Type::bool_());
  return n;
}

// torch's insertConstant: the attribute kind follows the value's kind.
Node* Graph::create_constant(const IValue& v) {
  Node* n = create(sym::prim_Constant);
  Value* out = n->output();
  switch (v.tag()) {
    case IValueTag::None: out->set_type(Type::none()); return n;
    case IValueTag::Tensor: n->set_t(sym::attr_value, v.toTensor()); break;
    case IValueTag::Int: n->set_i(sym::attr_value, v.toInt()); break;
    case IValueTag::Bool: n->set_i(sym::attr_value, v.toBool() ? 1 : 0); break;
    case IValueTag::Double: n->set_f(sym::attr_value, v.toDouble()); break;
    case IValueTag::ComplexDouble: n->set_c(sym::attr_value, v.toComplexDouble()); break;
    case IValueTag::String: n->set_s(sym::attr_value, v.toStringRef()); break;
    case IValueTag::Device: n->set_s(sym::attr_value, v.toDevice().str()); break;
    case IValueTag::List:
    case IValueTag::Tuple:
    case IValueTag::Dict:
    case IValueTag::Enum:
    case IValueTag::Object: n->set_ival(sym::attr_value, v); break;
    case IValueTag::Storage:
    case IValueTag::BigInt:
    case IValueTag::Bytes:
    case IValueTag::PyObject:
    case IValueTag::Future:
    case IValueTag::Uninitialized:
      n->destroy();
      TL_FAIL(ValueError, "a {} value cannot be a graph constant", v.tag_name());
  }
  out->set_type(type_of(v));
  return n;
}

std::optional<IValue> to_ivalue(const Value* v) {
  const Node* n = v->node();
  if (n->kind() != sym::prim_Constant) return std::nullopt;
  if (!n->has_attribute(sym::attr_value)) return IValue();
  const TypePtr& t = v->type();
  switch (n->attribute_kind(sym::attr_value)) {
    case AttributeKind::f: return IValue(n->f(sym::attr_value));
    case AttributeKind::c: return IValue(n->c(sym::attr_value));
    case AttributeKind::i:
      if (t->kind() == TypeKind::Bool) return IValue(n->i(sym::attr_value) != 0);
      return IValue(n->i(sym::attr_value));
    case AttributeKind::s:
      if (t->kind() == TypeKind::Device) return IValue(Device::parse(n->s(sym::attr_value)));
      return IValue(n->s(sym::attr_value));
    case AttributeKind::t: return IValue(n->t(sym::attr_value));
    case AttributeKind::ival: return n->ival(sym::attr_value);
    case AttributeKind::is: {
      std::vector<IValue> e;
      for (int64_t x : n->is(sym::attr_value)) e.emplace_back(x);
      return IValue::list(std::move(e), Type::int_());
    }
    case AttributeKind::fs: {
      std::vector<IValue> e;
      for (double x : n->fs(sym::attr_value)) e.emplace_back(x);
      return IValue::list(std::move(e), Type::float_());
    }
    case AttributeKind::ss: {
      std::vector<IValue> e;
      for (const auto& x : n->ss(sym::attr_value)) e.emplace_back(x);
      return IValue::list(std::move(e), Type::str_());
    }
    case AttributeKind::ts:
    case AttributeKind::g:
    case AttributeKind::gs:
    case AttributeKind::ty:
    case AttributeKind::tys: return std::nullopt;
  }
  return std::nullopt;
}

}  // namespace torchlet::jit

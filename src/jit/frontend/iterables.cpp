// Note [Iterables]: how each SugaredValue is iterated — graph values, enums and module
// containers, range(...) (RangeValue), enumerate(...) and zip(...) (IterableTree) and a
// ModuleDict's items() — and emit_iterable, which evaluates a loop's iterable.
#include <limits>

#include "jit/frontend/sugared_value.h"

namespace torchlet::jit {

// --- defaults ------------------------------------------------------------------------------

SugaredValuePtr SugaredValue::call_sugared(const SourceRange& range, FunctionCompiler& fc, CallSite& call) {
  return sugared_value_of(this->call(range, fc, call), range);
}

SugaredValuePtr SugaredValue::iter(const SourceRange& range, FunctionCompiler& fc) {
  return sugared_value_of(as_value(range_, fc), range_)->iter(range, fc);
}

SugaredValuePtr SugaredValue::zip_part(const std::string& fn, FunctionCompiler& fc) {
  return sugared_value_of(as_value(range_, fc), range_)->zip_part(fn, fc);
}

std::optional<std::vector<Unrolled>> SugaredValue::unrolled(const SourceRange&, FunctionCompiler&) { return std::nullopt; }

// Only what iter() and zip_part() make is iterated, and each of those says how.
Value* SugaredValue::len(const SourceRange& range, FunctionCompiler& fc) {
  fc.fail(range, fmt::format("{} cannot be iterated", kind()));
}

Unrolled SugaredValue::getitem(const SourceRange& range, FunctionCompiler& fc, Value*) {
  fc.fail(range, fmt::format("{} cannot be iterated", kind()));
}

SugaredValuePtr FunctionCompiler::emit_iterable(const Tree& e, Env& env) {
  if (e.kind() != TreeKind::Call) return emit_sugared_expr(e, env);
  CallSite call{e, env, nullptr, {}, {}};
  return emit_sugared_expr(CallView(e).callee(), env)->call_sugared(e.range(), *this, call);
}

// --- graph values --------------------------------------------------------------------------

SugaredValuePtr SimpleValue::keys(FunctionCompiler& fc) {
  return std::make_shared<SimpleValue>(fc.emit_builtin(Symbol::from_qual_string("aten::keys"), {{value_, range_}}, {}, range_),
                                       range_);
}

// A tuple unrolls; a list, string or tensor is indexed (a tensor along its first
// dimension); a dict iterates its keys.
SugaredValuePtr SimpleValue::iter(const SourceRange& range, FunctionCompiler& fc) {
  const TypeKind k = value_->type()->kind();
  if (k == TypeKind::Dict) return keys(fc);
  if (k != TypeKind::Tuple && k != TypeKind::List && k != TypeKind::Str && k != TypeKind::Tensor)
    fc.fail(range, fmt::format("'{}' object is not iterable", value_->type()->annotation_str()));
  return shared_from_this();
}

// As iter(), but torchlet zips no tensors.
SugaredValuePtr SimpleValue::zip_part(const std::string& fn, FunctionCompiler& fc) {
  const TypeKind k = value_->type()->kind();
  if (k == TypeKind::Dict) return keys(fc);
  if (k != TypeKind::Tuple && k != TypeKind::List && k != TypeKind::Str)
    fc.fail(range_, fmt::format("{}() iterates over lists, strings and ranges here, not {}", fn,
                                value_->type()->annotation_str()));
  return shared_from_this();
}

// A tuple's elements, as torch unrolls a loop over one.
std::optional<std::vector<Unrolled>> SimpleValue::unrolled(const SourceRange&, FunctionCompiler& fc) {
  if (value_->type()->kind() != TypeKind::Tuple) return std::nullopt;
  Graph& g = fc.graph();
  std::vector<Unrolled> items;
  for (Value* elem : g.insert_node(g.create_tuple_unpack(value_))->outputs()) items.push_back({elem, {}});
  return items;
}

Value* SimpleValue::len(const SourceRange& range, FunctionCompiler& fc) {
  return fc.emit_builtin(Symbol::from_qual_string("aten::len"), {{value_, range}}, {}, range);
}

Unrolled SimpleValue::getitem(const SourceRange& range, FunctionCompiler& fc, Value* i) {
  if (value_->type()->kind() == TypeKind::Tensor)
    return {fc.emit_builtin(Symbol::from_qual_string("aten::select"), {{value_, range}, {fc.constant(IValue(0)), range}, {i, range}},
                            {}, range),
            {}};
  return {fc.emit_builtin(Symbol::from_qual_string("aten::__getitem__"), {{value_, range}, {i, range}}, {}, range), {}};
}

// Note [Module containers]: a ModuleDict iterates its keys, the others their children.
std::optional<std::vector<Unrolled>> ModuleContainerValue::unrolled(const SourceRange& range, FunctionCompiler& fc) {
  const ContainerKind k = container_kind(value()->type());
  return fc.container_items(value(), range, k == ContainerKind::Dict, k == ContainerKind::List);
}

SugaredValuePtr ContainerMethodValue::call_sugared(const SourceRange& range, FunctionCompiler& fc, CallSite& call) {
  Value* self = owner_->as_value(owner_->range(), fc);
  const CallView c(call.tree);
  if (container_kind(self->type()) == ContainerKind::Dict && c.args().empty() && c.keywords().empty())
    return std::make_shared<ContainerItemsValue>(self, keys_, values_, range);
  return sugared_value_of(call_on(self, range, fc, call), range);
}

std::optional<std::vector<Unrolled>> ContainerItemsValue::unrolled(const SourceRange& range, FunctionCompiler& fc) {
  return fc.container_items(dict_, range, keys_, values_);
}

SugaredValuePtr EnumClassValue::iter(const SourceRange&, FunctionCompiler& fc) {
  std::vector<IValue> members;
  for (const auto& [name, v] : type_->as_enum()->members()) members.push_back(enum_value(type_, name));
  return std::make_shared<SimpleValue>(fc.constant(IValue::list(std::move(members), type_), range_), range_);
}

// --- range ---------------------------------------------------------------------------------

// range takes no keyword arguments; any given are not looked at.
SugaredValuePtr RangeValue::create(FunctionCompiler& fc, CallSite& call) {
  std::vector<Value*> bounds;
  for (const auto& a : CallView(call.tree).args()) bounds.push_back(fc.emit_expr(*a, call.env));
  return std::make_shared<RangeValue>(std::move(bounds), call.tree.range());
}

void RangeValue::check_arity(FunctionCompiler& fc) const {
  if (bounds_.empty() || bounds_.size() > 3) fc.fail(range_, "range expected 1 to 3 arguments");
}

SugaredValuePtr RangeValue::iter(const SourceRange&, FunctionCompiler& fc) {
  check_arity(fc);
  for (Value* v : bounds_)
    if (v->type()->kind() != TypeKind::Int)
      fc.fail(range_, fmt::format("range() expects int arguments, found {}", v->type()->annotation_str()));
  return shared_from_this();
}

SugaredValuePtr RangeValue::zip_part(const std::string&, FunctionCompiler& fc) {
  check_arity(fc);
  if (bounds_.size() > 1) return shared_from_this();
  return std::make_shared<RangeValue>(std::vector<Value*>{fc.constant(IValue(0)), bounds_[0]}, range_);
}

Value* RangeValue::len(const SourceRange&, FunctionCompiler& fc) {
  if (bounds_.size() == 1) return bounds_[0];
  lo_ = bounds_[0];
  step_ = bounds_.size() == 3 ? bounds_[2] : fc.constant(IValue(1));
  return fc.emit_builtin(Symbol::from_qual_string("aten::__range_length"), {{lo_, range_}, {bounds_[1], range_}, {step_, range_}},
                         {}, range_);
}

Unrolled RangeValue::getitem(const SourceRange& range, FunctionCompiler& fc, Value* i) {
  if (!lo_) return {i, {}};
  return {fc.emit_builtin(Symbol::from_qual_string("aten::__derive_index"), {{i, range}, {lo_, range}, {step_, range}}, {}, range),
          {}};
}

// --- enumerate and zip ---------------------------------------------------------------------

void IterableTree::add(const Tree& arg, Env& env, FunctionCompiler& fc) {
  SugaredValuePtr part = fc.emit_iterable(arg, env)->zip_part(fn_, fc);
  if (auto items = part->unrolled(part->range(), fc)) return known_.push_back(std::move(*items));
  lens_.push_back(part->len(range_, fc));
  parts_.push_back(std::move(part));
}

SugaredValuePtr IterableTree::enumerate(FunctionCompiler& fc, CallSite& call) {
  const CallView c(call.tree);
  auto tree = std::make_shared<IterableTree>("enumerate", true, call.tree.range());
  const auto& args = c.args();
  if (!args.empty()) tree->add(*args[0], call.env, fc);
  if (!tree->known_.empty()) {
    tree->items_ = tree->numbered(fc, call);
    return tree;
  }
  // The second positional argument is the start; any other is one more sequence, which
  // the count below refuses.
  for (size_t k = 1; k < args.size(); ++k) {
    if (k == 1) tree->start_ = fc.emit_expr(*args[k], call.env);
    else tree->add(*args[k], call.env, fc);
  }
  for (const auto& kw : c.keywords()) {
    if (KeywordView(*kw).name() != "start") fc.fail(kw->range(), "unexpected keyword argument");
    tree->start_ = fc.emit_expr(KeywordView(*kw).value(), call.env);
  }
  if (tree->parts_.size() + tree->known_.size() != 1) fc.fail(tree->range_, "enumerate() takes one sequence, zip() at least one");
  return tree;
}

// The index of each element is a constant when the start is one.
std::vector<Unrolled> IterableTree::numbered(FunctionCompiler& fc, CallSite& call) {
  const CallView c(call.tree);
  const SourceRange& r = range_;
  std::vector<Unrolled> inner = std::move(known_[0]);
  const Tree* start_tree = c.args().size() > 1 ? c.args()[1].get() : nullptr;
  for (const auto& kw : c.keywords()) {
    if (KeywordView(*kw).name() != "start" || start_tree) fc.fail(kw->range(), "unexpected keyword argument");
    start_tree = &KeywordView(*kw).value();
  }
  if (c.args().size() > 2) fc.fail(r, "enumerate() takes a sequence and an optional start");
  Value* start = start_tree ? fc.emit_expr(*start_tree, call.env) : fc.constant(IValue(0));
  if (start->type()->kind() != TypeKind::Int) fc.fail(start_tree->range(), "enumerate() start must be an int");
  const auto k = to_ivalue(start);
  std::vector<Unrolled> out;
  for (size_t i = 0; i < inner.size(); ++i) {
    const auto n = static_cast<int64_t>(i);
    Value* index = k ? fc.constant(IValue(k->toInt() + n), r)
                     : fc.emit_builtin(Symbol::from_qual_string("aten::add"), {{start, r}, {fc.constant(IValue(n)), r}}, {}, r);
    out.push_back({nullptr, {{index, {}}, std::move(inner[i])}});
  }
  return out;
}

// Unrolled, every argument needs a length known now, as in torch; the shortest decides.
SugaredValuePtr IterableTree::zip(FunctionCompiler& fc, CallSite& call) {
  const CallView c(call.tree);
  auto tree = std::make_shared<IterableTree>("zip", false, call.tree.range());
  for (const auto& a : c.args()) tree->add(*a, call.env, fc);
  if (!c.keywords().empty()) fc.fail(c.keywords()[0]->range(), "unexpected keyword argument");
  if (tree->known_.empty() && tree->parts_.empty()) fc.fail(tree->range_, "enumerate() takes one sequence, zip() at least one");
  if (tree->known_.empty()) return tree;
  if (!tree->parts_.empty())
    fc.fail(tree->range_,
            "Can not iterate over a module list or tuple with a value that does not have a statically determinable length\n");
  size_t n = std::numeric_limits<size_t>::max();
  for (const auto& seq : tree->known_) n = std::min(n, seq.size());
  std::vector<Unrolled> out(n);
  for (size_t i = 0; i < n; ++i)
    for (auto& seq : tree->known_) out[i].parts.push_back(std::move(seq[i]));
  tree->items_ = std::move(out);
  return tree;
}

SugaredValuePtr IterableTree::zip_part(const std::string& fn, FunctionCompiler& fc) {
  if (!items_) fc.fail(range_, fmt::format("{}() iterates over lists, strings and ranges here, not {}()", fn, fn_));
  return shared_from_this();
}

// prim::min over the lengths, enumerate's index first: unbounded, or as many as it can
// count from its start (torch's spelling).
Value* IterableTree::len(const SourceRange&, FunctionCompiler& fc) {
  const SourceRange& r = range_;
  std::vector<Value*> lens;
  if (counted_) {
    Value* unbounded = fc.constant(IValue(std::numeric_limits<int64_t>::max()));
    lens.push_back(start_ ? fc.emit_builtin(Symbol::from_qual_string("aten::__range_length"),
                                            {{start_, r}, {unbounded, r}, {fc.constant(IValue(int64_t{1})), r}}, {}, r)
                          : unbounded);
  }
  lens.insert(lens.end(), lens_.begin(), lens_.end());
  Graph& g = fc.graph();
  return fc.emit_builtin(Symbol::from_qual_string("prim::min"), {{g.insert_node(g.create_list(Type::int_(), lens))->output(), r}},
                         {}, r);
}

// (index, element) or (a_i, b_i, ...); the index is start + i, spelled as torch spells it.
Unrolled IterableTree::getitem(const SourceRange&, FunctionCompiler& fc, Value* i) {
  const SourceRange& r = range_;
  Unrolled item;
  if (counted_)
    item.parts.push_back({start_ ? fc.emit_builtin(Symbol::from_qual_string("aten::__derive_index"),
                                                   {{i, r}, {start_, r}, {fc.constant(IValue(int64_t{1})), r}}, {}, r)
                                 : i,
                          {}});
  for (const SugaredValuePtr& part : parts_) item.parts.push_back(part->getitem(r, fc, i));
  return item;
}

}  // namespace torchlet::jit

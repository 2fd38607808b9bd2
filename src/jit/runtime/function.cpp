// Function calls from C++: argument binding (positional, keyword, defaults, type
// checks) and GraphFunction's lazily emitted code.
#include "jit/runtime/function.h"

#include <optional>

#include <fmt/format.h>
#include <torchlet/error.h>

#include "values/value_recursion.h"
#include "jit/runtime/code.h"
#include "jit/runtime/compilation_unit.h"
#include "jit/runtime/interpreter.h"
#include "jit/runtime/schema_matching.h"

namespace torchlet::jit {

std::string Function::name() const {
  const size_t dot = qualname_.rfind('.');
  return dot == std::string::npos ? qualname_ : qualname_.substr(dot + 1);
}

std::vector<IValue> Function::bind_arguments(std::vector<IValue> args, const Kwargs& kwargs) const {
  const auto& formals = schema().arguments;
  const auto& defs = defaults();
  TL_CHECK(args.size() <= formals.size(), TypeError,
           "{}() expected at most {} argument(s) but received {} argument(s). Declaration: {}", name(),
           formals.size(), args.size(), schema().str());
  std::vector<std::optional<IValue>> bound(formals.size());
  for (size_t i = 0; i < args.size(); ++i) bound[i] = std::move(args[i]);
  for (const auto& [key, value] : kwargs) {
    size_t i = 0;
    while (i < formals.size() && formals[i].name != key) ++i;
    TL_CHECK(i < formals.size(), TypeError, "{}() got an unexpected keyword argument '{}'. Declaration: {}", name(),
             key, schema().str());
    TL_CHECK(!bound[i], TypeError, "{}() got multiple values for argument '{}'", name(), key);
    bound[i] = value;
  }
  std::vector<IValue> out;
  out.reserve(formals.size());
  for (size_t i = 0; i < formals.size(); ++i) {
    if (!bound[i]) {
      TL_CHECK(i < defs.size() && defs[i], TypeError, "{}() is missing value for argument '{}'. Declaration: {}",
               name(), formals[i].name, schema().str());
      bound[i] = *defs[i];
    }
    out.push_back(std::move(*bound[i]));
  }
  return out;
}

IValue Function::operator()(std::vector<IValue> args, const Kwargs& kwargs) const {
  Stack stack = bind_arguments(std::move(args), kwargs);
  run(stack);
  TL_INTERNAL_ASSERT(!stack.empty(), "a function left no return value");
  return std::move(stack.back());
}

namespace {

FunctionSchema schema_of_graph(const std::string& qualname, const Graph& g) {
  FunctionSchema s;
  s.name = qualname;
  size_t i = 0;
  for (const Value* v : g.inputs()) {
    SchemaArgument a;
    a.type = std::make_shared<SchemaType>();
    a.type->name = v->type()->str();
    a.name = v->has_debug_name() ? v->debug_name_base() : fmt::format("argument_{}", i);
    s.arguments.push_back(std::move(a));
    ++i;
  }
  for (const Value* v : g.outputs()) {
    SchemaArgument r;
    r.type = std::make_shared<SchemaType>();
    r.type->name = v->type()->str();
    s.returns.push_back(std::move(r));
  }
  return s;
}

// Does a value from outside TorchScript fit a parameter's type? Like match_type on
// type_of(v), except that a list or dict built without a recorded element type (an
// empty list from a checkpoint, say) fits when each of its elements does.
bool value_fits(const IValue& v, const TypePtr& t) {
  if (t->kind() == TypeKind::Optional) return v.isNone() || value_fits(v, t->contained()[0]);
  // Lists from a file may share their parts (Note [Recursion over values] in ivalue.cpp).
  std::optional<ValueRecursion> guard;
  if (v.isList() || v.isDict() || v.isTuple()) guard.emplace("checking an argument's type");
  if (t->kind() == TypeKind::List && v.isList() && !v.listRef().elem_type) {
    for (const IValue& e : v.listRef().elements)
      if (!value_fits(e, t->contained()[0])) return false;
    return true;
  }
  if (t->kind() == TypeKind::Dict && v.isDict() && !v.dictRef().key_type) {
    for (const auto& [k, val] : v.dictRef().items())
      if (!value_fits(k, t->contained()[0]) || !value_fits(val, t->contained()[1])) return false;
    return true;
  }
  if (t->kind() == TypeKind::Tuple && !t->is_named_tuple() && v.isTuple()) {
    const auto& elems = v.tupleRef().elements;
    if (elems.size() != t->contained().size()) return false;
    for (size_t i = 0; i < elems.size(); ++i)
      if (!value_fits(elems[i], t->contained()[i])) return false;
    return true;
  }
  TypeEnv env;
  return match_type(t, type_of(v), env);
}

}  // namespace

GraphFunction::GraphFunction(std::string qualname, GraphPtr graph, CompilationUnit* owner,
                             std::vector<std::optional<IValue>> defaults)
    : Function(std::move(qualname)), graph_(std::move(graph)), owner_(owner),
      schema_(schema_of_graph(this->qualname(), *graph_)), defaults_(std::move(defaults)) {
  TL_CHECK(defaults_.empty() || defaults_.size() == graph_->inputs().size(), ValueError,
           "{}: {} defaults given for {} inputs", this->qualname(), defaults_.size(), graph_->inputs().size());
  defaults_.resize(graph_->inputs().size());
}

GraphFunction::~GraphFunction() = default;

void GraphFunction::set_broadcasting_list(size_t i, int64_t n) {
  TL_CHECK(i < schema_.arguments.size(), ValueError, "{}: no parameter {}", qualname(), i);
  TypePtr t = graph_->inputs()[i]->type();
  const bool optional = t->kind() == TypeKind::Optional;
  if (optional) t = t->contained()[0];
  TL_CHECK(t->kind() == TypeKind::List && (t->contained()[0]->kind() == TypeKind::Int ||
                                           t->contained()[0]->kind() == TypeKind::Float ||
                                           (t->contained()[0]->kind() == TypeKind::Optional &&
                                            t->contained()[0]->contained()[0]->kind() == TypeKind::Int)),
           TypeError, "{}: BroadcastingList{} of {} (an int or float list is expected)", qualname(), n, t->str());
  auto list = std::make_shared<SchemaType>();
  list->kind = SchemaType::Kind::List;
  list->fixed_size = n;
  list->contained.push_back(std::make_shared<SchemaType>());
  list->contained[0]->name = t->contained()[0]->str();
  if (optional) {
    auto opt = std::make_shared<SchemaType>();
    opt->kind = SchemaType::Kind::Optional;
    opt->contained.push_back(std::move(list));
    list = std::move(opt);
  }
  schema_.arguments[i].type = std::move(list);
}

const Code& GraphFunction::code() const {
  std::call_once(code_once_, [&] {
    started_ = true;
    code_ = std::make_unique<Code>(emit_code(graph_, qualname(), owner_));
  });
  return *code_;
}

void GraphFunction::check_arguments(Stack& stack) const {
  const size_t n = graph_->inputs().size();
  TL_CHECK(stack.size() >= n, TypeError, "{}() expects {} arguments, got {}", qualname(), n, stack.size());
  const size_t first = stack.size() - n;
  for (size_t i = 0; i < n; ++i) {
    IValue& v = stack[first + i];
    const TypePtr& want = graph_->inputs()[i]->type();
    if (want->kind() == TypeKind::Float && v.isInt()) v = IValue(static_cast<double>(v.toInt()));
    TL_CHECK(value_fits(v, want), TypeError,
             "{}() expected a value of type '{}' for argument '{}' but instead found type '{}'", name(),
             want->annotation_str(), schema_.arguments[i].name, type_of(v)->annotation_str());
  }
}

const GraphExecutor* GraphFunction::executor() const {
  std::call_once(executor_once_, [&] {
    started_ = true;
    if (GraphOptimizer optimizer = owner_ ? owner_->graph_optimizer() : nullptr)
      executor_ = std::make_unique<GraphExecutor>(*this, optimizer);
  });
  return executor_.get();
}

std::shared_ptr<const ExecutionPlan> GraphFunction::plan_for(Stack& stack) const {
  check_arguments(stack);
  const GraphExecutor* ex = graph_executor_optimize() ? executor() : nullptr;
  if (!ex) return nullptr;
  const size_t n = graph_->inputs().size();
  return ex->plan_for(stack.data() + (stack.size() - n), n);
}

void GraphFunction::rewrite_graph(const std::function<void(Graph&)>& rewrite) {
  TL_CHECK(!started_, ValueError, "{} has already been called: its graph can no longer be rewritten", qualname());
  const size_t inputs = graph_->inputs().size();
  rewrite(*graph_);
  TL_INTERNAL_ASSERT(graph_->inputs().size() == inputs, "a graph rewrite changed the function's inputs");
}

void GraphFunction::run(Stack& stack) const {
  check_arguments(stack);
  if (const GraphExecutor* ex = graph_executor_optimize() ? executor() : nullptr) {
    ex->run(stack);
    return;
  }
  run_code(code(), stack);
}

}  // namespace torchlet::jit

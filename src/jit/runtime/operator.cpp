// Operator construction (schema parsed once, types and defaults precomputed) and the
// process-wide registry.
#include "jit/runtime/operator.h"

#include <torchlet/error.h>
#include <torchlet/jit.h>

namespace torchlet::jit {

Operator::Operator(std::string_view schema, Operation op)
    : schema_(parse_schema(schema)), op_(op) {
  name_ = Symbol::from_qual_string(schema_.name);
  key_ = schema_.overload.empty() ? schema_.name : schema_.name + "." + schema_.overload;
  for (const auto& arg : schema_.arguments) {
    argument_types_.push_back(type_from_schema(*arg.type));
    defaults_.push_back(default_value(arg));
    if (arg.type->alias && arg.type->alias->is_write) is_mutating_ = true;
  }
  for (const auto& ret : schema_.returns) return_types_.push_back(type_from_schema(*ret.type));
}

OperatorRegistry& OperatorRegistry::global() {
  static OperatorRegistry registry;
  return registry;
}

const Operator& OperatorRegistry::add(std::string_view schema, Operation op) {
  auto owned = std::make_unique<Operator>(schema, op);
  const Operator* o = owned.get();
  TL_CHECK(!by_key_.count(o->qualified_overload()), ValueError,
           "operator {} is registered twice", o->qualified_overload());
  by_key_.emplace(o->qualified_overload(), o);
  const uint32_t id = o->name().id();
  if (by_symbol_.size() <= id) by_symbol_.resize(id + 1);
  by_symbol_[id].push_back(o);
  operators_.push_back(std::move(owned));
  return *o;
}

const std::vector<const Operator*>& OperatorRegistry::overloads(Symbol name) const {
  static const std::vector<const Operator*> kNone;
  return name.id() < by_symbol_.size() ? by_symbol_[name.id()] : kNone;
}

const Operator* OperatorRegistry::find(std::string_view qualified_overload) const {
  auto it = by_key_.find(std::string(qualified_overload));
  return it == by_key_.end() ? nullptr : it->second;
}

std::vector<const Operator*> OperatorRegistry::all() const {
  std::vector<const Operator*> out;
  out.reserve(operators_.size());
  for (const auto& o : operators_) out.push_back(o.get());
  return out;
}

std::vector<std::string> get_all_schemas() {
  std::vector<std::string> schemas;
  for (const Operator* op : OperatorRegistry::global().all()) schemas.push_back(op->schema().str());
  return schemas;
}

bool has_operator(std::string_view qualified_overload) {
  return OperatorRegistry::global().find(qualified_overload) != nullptr;
}

}  // namespace torchlet::jit

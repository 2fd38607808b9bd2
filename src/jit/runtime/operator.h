// The operator registry: every aten::/prim:: operation the interpreter can call, each
// registered once with its schema string beside the function that implements it
// (STYLE #7). Lookup by name (all overloads) or by "name.overload"; the frontend picks
// an overload with match_schema (schema_matching.h) and the interpreter calls the
// chosen Operator's function on the stack.
//
// Calling convention (stack.h): every schema argument is on the stack in order (the
// caller fills defaults); the function pops them and pushes one value per return. A
// vararg schema (`...`) also receives the number of inputs, pushed last as an int.
//
// Registration is static: a .cpp in src/jit/ops declares a RegisterOps (ops_util.h,
// which also keeps each schema's text for the table tests)
//   static RegisterOps reg({
//       {"aten::add.int(int a, int b) -> int", [](Stack& s) { ... }},
//   });
// The torchlet_ops library is linked whole (src/CMakeLists.txt) so no registration is
// dropped by the linker.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "values/function_schema.h"
#include "jit/ir/symbol.h"
#include "values/type.h"
#include "jit/runtime/stack.h"

namespace torchlet::jit {

using Operation = void (*)(Stack& stack);

class Operator {
 public:
  // Parses the schema; CompileError on bad text.
  Operator(std::string_view schema, Operation op);

  const FunctionSchema& schema() const { return schema_; }
  Operation operation() const { return op_; }
  Symbol name() const { return name_; }                       // aten::add
  const std::string& qualified_overload() const { return key_; }  // aten::add.int
  // The TorchScript types of the arguments and returns (type_from_schema), and each
  // argument's default value, computed once at registration.
  const std::vector<TypePtr>& argument_types() const { return argument_types_; }
  const std::vector<TypePtr>& return_types() const { return return_types_; }
  const std::vector<std::optional<IValue>>& defaults() const { return defaults_; }
  // Does the schema mutate an argument (an alias annotation with `!`)?
  bool is_mutating() const { return is_mutating_; }

 private:
  FunctionSchema schema_;
  Operation op_;
  Symbol name_;
  std::string key_;
  std::vector<TypePtr> argument_types_;
  std::vector<TypePtr> return_types_;
  std::vector<std::optional<IValue>> defaults_;
  bool is_mutating_ = false;
};

// The process-wide registry. Registration happens during static initialisation (or
// explicitly, before use); lookups are lock-free reads after that.
class OperatorRegistry {
 public:
  static OperatorRegistry& global();

  // Registers an operator; ValueError when "name.overload" is already registered.
  const Operator& add(std::string_view schema, Operation op);
  // Every overload of a name, in registration order (empty when unknown).
  const std::vector<const Operator*>& overloads(Symbol name) const;
  // By "aten::add.int" or "aten::relu" (empty overload); null when unknown.
  const Operator* find(std::string_view qualified_overload) const;
  // Every operator, in registration order.
  std::vector<const Operator*> all() const;
  size_t size() const { return operators_.size(); }

 private:
  OperatorRegistry() = default;
  std::vector<std::unique_ptr<Operator>> operators_;
  std::vector<std::vector<const Operator*>> by_symbol_;  // indexed by Symbol::id()
  std::unordered_map<std::string, const Operator*> by_key_;
};

// A kernel's boxed form (jit/ops/boxing.h): the stack adapter made from its C++
// signature, and how many schema arguments that signature takes.
struct BoxedOperation {
  Operation op;
  size_t arguments;
};

// One registration row: a schema and what runs it, a hand-written adapter or a boxed
// kernel (whose argument count the registration checks against the schema's).
struct OperatorDef {
  OperatorDef(const char* schema_text, Operation operation) : schema(schema_text), op(operation) {}
  OperatorDef(const char* schema_text, BoxedOperation boxed)
      : schema(schema_text), op(boxed.op), boxed_arguments(boxed.arguments) {}
  const char* schema;
  Operation op;
  std::optional<size_t> boxed_arguments;
};

}  // namespace torchlet::jit

// FunctionSchema: an operator's signature in PyTorch's schema language, e.g.
//   aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor
// parsed into a structure (name, overload, arguments with types, alias annotations,
// defaults, keyword-only marker, varargs, returns) and printed back exactly as torch
// prints it. Types are kept as written (SchemaType); mapping them onto the TorchScript
// type system is the runtime's job.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <torchlet/ivalue.h>

namespace torchlet::jit {

// `(a!)`, `(a|b)`, `(a -> *)`: which alias sets a value belongs to, whether it is
// written, and (for containers) which sets its contents may alias after the call.
struct AliasAnnotation {
  std::vector<std::string> before;  // e.g. {"a"}, or {"*"}
  std::vector<std::string> after;   // after "->", when present
  bool is_write = false;
  std::string str() const;  // "(a!)", "(a -> *)"
};

// A type as written in a schema: a (possibly qualified) name, or a constructor over
// other types, plus suffixes.
struct SchemaType {
  enum class Kind { Name, List, Optional, Dict, Tuple, Future, RRef };
  Kind kind = Kind::Name;
  std::string name;                       // for Name: "Tensor", "int", "t", "__torch__.x.Y"
  std::optional<int64_t> fixed_size;      // for List: int[2]
  std::vector<std::shared_ptr<SchemaType>> contained;  // element, key/value, tuple items
  std::optional<AliasAnnotation> alias;   // e.g. Tensor(a!), t[](a!)
  std::string str() const;

 private:
  std::string core_str() const;  // without the alias annotation
};

struct SchemaArgument {
  std::shared_ptr<SchemaType> type;
  std::string name;                      // may be empty for returns
  std::optional<std::string> default_text;  // the default as written: 1, "mean", [0, 0], None
  bool kwarg_only = false;
};

struct FunctionSchema {
  std::string name;      // "aten::add"
  std::string overload;  // "Tensor" (empty when none)
  std::vector<SchemaArgument> arguments;
  std::vector<SchemaArgument> returns;
  bool is_vararg = false;   // "..." among the arguments
  bool is_varret = false;   // "..." as the returns
  bool returns_tuple_syntax = false;  // returns written in parentheses
  std::string str() const;  // torch's str(schema)
};

// Parses one schema; CompileError pointing at the offending column on bad text.
FunctionSchema parse_schema(std::string_view text);

// An argument's default as a value of its TorchScript type (schema_default.cpp):
// `1` is an int or a float as the type says, `[0, 0]` a typed list, `1` for `int[2]`
// the list [1, 1], `"mean"` a str, None/True/False, and the enum spellings torch's
// schemas use as ints: Mean/Sum (reduction), contiguous_format/preserve_format/
// channels_last (MemoryFormat), strided (Layout), long/float (ScalarType index),
// per_tensor_affine (QScheme). nullopt without a default; CompileError if the text
// does not fit the type.
std::optional<IValue> default_value(const SchemaArgument& arg);

// The int TorchScript gives the torch module's MemoryFormat, Layout and QScheme
// attributes (torch.channels_last is 2, torch.strided 0), the values the schema
// defaults above spell by name; nullopt for another name.
std::optional<int64_t> torch_enum_attribute(std::string_view name);

}  // namespace torchlet::jit

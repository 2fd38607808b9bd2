// The TorchScript type system: Type values (immutable, shared), printing exactly as
// torch prints them (List[int], Optional[Tensor], Dict[str, Tensor]), subtyping as
// torch decides it, the annotation parser (Python spelling) and the mapping from a
// schema's written types (int[], Tensor?, Scalar, SymInt) to Types. Class types carry
// only their qualified name here; attributes and methods come with the runtime.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <torchlet/ivalue.h>

namespace torchlet::jit {

struct SchemaType;

enum class TypeKind {
#define TL_TYPE_KIND(kind, name) kind,
#include "jit/ir/type_kinds.def"
#undef TL_TYPE_KIND
};

class Type : public std::enable_shared_from_this<Type> {
 public:
  TypeKind kind() const { return kind_; }
  const std::vector<TypePtr>& contained() const { return contained_; }
  const std::string& name() const { return name_; }  // Class: qualified name; Var: variable
  std::string str() const;  // torch's str(type); also its annotation_str for these kinds
  bool equals(const Type& other) const;
  bool is_subtype_of(const Type& other) const;

  // Factories: singleton kinds are shared; constructed kinds are new values.
  static TypePtr get(TypeKind singleton_kind);
  static TypePtr list(TypePtr elem);
  static TypePtr optional(TypePtr elem);
  static TypePtr dict(TypePtr key, TypePtr value);
  static TypePtr tuple(std::vector<TypePtr> elems);
  static TypePtr union_of(std::vector<TypePtr> members);
  static TypePtr future(TypePtr elem);
  static TypePtr rref(TypePtr elem);
  static TypePtr class_named(std::string qualified_name);
  static TypePtr var(std::string name);

  Type(TypeKind kind, std::vector<TypePtr> contained, std::string name)
      : kind_(kind), contained_(std::move(contained)), name_(std::move(name)) {}

 private:
  TypeKind kind_;
  std::vector<TypePtr> contained_;
  std::string name_;
};

bool operator==(const Type& a, const Type& b);

// Parses a Python type annotation: "Dict[str, List[Tuple[int, Tensor]]]",
// "Optional[Tensor]", "__torch__.foo.Bar". CompileError naming the column otherwise.
// Schema type variables (t, tVal) are accepted only when asked for.
TypePtr parse_type_annotation(std::string_view text, bool allow_type_variables = false);

// The Type a schema's written type denotes (int[] -> List[int], Tensor? ->
// Optional[Tensor], Scalar -> number, SymInt/ScalarType/Layout/MemoryFormat -> int).
TypePtr type_from_schema(const SchemaType& t);

}  // namespace torchlet::jit

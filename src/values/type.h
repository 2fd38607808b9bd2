// The TorchScript type system: Type values (immutable and shared, except a ClassType
// which grows while its class compiles), both of torch's spellings (str(): int[],
// Tensor?, Dict(str, Tensor), (int, float) as graphs and schemas print; annotation_str():
// List[int], Optional[Tensor] as Python and code/ print), subtyping and unification as
// torch decides them, the annotation parser, the mapping from a schema's written types
// to Types, and type_of(IValue). It does not know functions' bodies or how objects run.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <torchlet/dtype.h>
#include <torchlet/ivalue.h>

namespace torchlet::jit {

struct SchemaType;
struct FunctionSchema;
class Function;  // the runtime's callable (src/jit/runtime); opaque here

enum class TypeKind {
#define TL_TYPE_KIND(kind, name) kind,
#include "values/type_kinds.def"
#undef TL_TYPE_KIND
};
const char* type_kind_name(TypeKind kind);  // "Tensor", "List", ...

// How deep one type may nest (List[List[int]] is 3). Printing, comparing and freeing a
// type recurse through it, and a file can spell any depth ("int" and 6000 "?" in graph
// text); real programs stay in single digits, and source nesting stops at 200 anyway.
inline constexpr size_t kMaxTypeDepth = 256;
// How many parts one type may have, unfolded (Tuple[int, List[int]] has 4): a type can
// share its parts, so 40 lines of source (t1 = (t0, t0), t2 = (t1, t1), ...) build a type
// of 2^40 parts that every print or comparison walks in full. Real types have dozens.
inline constexpr size_t kMaxTypeParts = size_t{1} << 16;

// What a refined tensor type knows of the tensors it describes: torch's TensorType
// fields, each possibly unknown. Graphs print it as torch does ("Float(2, *, strides=[3,
// 1], requires_grad=0, device=cpu)", "FloatTensor" for a dtype alone, "Float()" for rank
// 0); tensor_details.cpp owns printing, parsing, subtyping and merging.
struct TensorDetails {
  std::optional<DType> dtype;
  // nullopt: the rank is unknown; else one entry per dimension, nullopt where unknown.
  std::optional<std::vector<std::optional<int64_t>>> sizes;
  // Only complete strides are kept (one per dimension): torch prints no others.
  std::optional<std::vector<int64_t>> strides;
  std::optional<bool> requires_grad;
  std::optional<Device> device;

  bool operator==(const TensorDetails&) const = default;
  bool nothing_known() const { return !dtype && !sizes && !strides && !requires_grad && !device; }
  std::optional<size_t> rank() const { return sizes ? std::optional<size_t>(sizes->size()) : std::nullopt; }
  // Every size, when all are known (torch's concrete_sizes()).
  std::optional<std::vector<int64_t>> concrete_sizes() const;
  std::string str() const;
  // torch's TensorType::isSubtypeOf: each detail `other` knows, this one knows alike.
  bool fits(const TensorDetails& other) const;
  // torch's TensorType::merge: what both know alike; the rest unknown.
  TensorDetails merged_with(const TensorDetails& other) const;
};

// Reads the details after a dtype name (or "Tensor" when dtype is unknown), as graph
// text spells them: `inner` is what the parentheses hold ("2, *, strides=[3, 1],
// requires_grad=0, device=cpu"). ValueError naming what is wrong otherwise.
TensorDetails parse_tensor_details(std::optional<DType> dtype, std::string_view inner);

class ClassType;
class EnumType;
class InterfaceType;
class FunctionType;
using ClassTypePtr = std::shared_ptr<ClassType>;

class Type : public std::enable_shared_from_this<Type> {
 public:
  // Refuses a type nested deeper than kMaxTypeDepth (LimitError).
  Type(TypeKind kind, std::vector<TypePtr> contained, std::string name);
  virtual ~Type() = default;
  Type(const Type&) = delete;
  Type& operator=(const Type&) = delete;

  TypeKind kind() const { return kind_; }
  // Element types: List/Optional/Future/RRef [elem], Dict [key, value], Tuple and
  // Union members.
  const std::vector<TypePtr>& contained() const { return contained_; }
  // Qualified name for nominal kinds (Class, Interface, Enum, Function, NamedTuple),
  // the variable for Var, empty otherwise.
  const std::string& name() const { return name_; }
  // NamedTuple field names (empty for a plain tuple).
  const std::vector<std::string>& field_names() const { return field_names_; }
  // (A NamedTuple read back from graph text has fields but no qualified name.)
  bool is_named_tuple() const { return kind_ == TypeKind::Tuple && (!name_.empty() || !field_names_.empty()); }

  // Graph and schema spelling, torch's Type::str(): int[], Tensor?, Dict(str, Tensor),
  // (int, float), NamedTuple(a : int), Union(int, str), Enum<__torch__.Color>.
  std::string str() const;
  // Python spelling, torch's annotation_str(): List[int], Optional[Tensor],
  // Tuple[int, float], __torch__.P, number.
  std::string annotation_str() const;

  bool equals(const Type& other) const;
  // S <= T: a value of type S may be used where T is expected (see type.cpp for rules).
  bool is_subtype_of(const Type& other) const;
  // isinstance(value of this type, tested): subtyping, except that the Python classes
  // `list`, `dict` and `tuple` (spelled List[Any], Dict[Any, Any] and the empty tuple,
  // as isinstance_types writes them) take any list, dict or tuple, as torch's do.
  bool passes_isinstance(const Type& tested) const;

  // Downcasts for the nominal kinds; null when the kind differs.
  const ClassType* as_class() const;
  const EnumType* as_enum() const;
  const InterfaceType* as_interface() const;
  const FunctionType* as_function() const;

  // Factories: singleton kinds are shared; constructed kinds are new values.
  static TypePtr get(TypeKind singleton_kind);
  static TypePtr list(TypePtr elem);
  static TypePtr optional(TypePtr elem);
  static TypePtr dict(TypePtr key, TypePtr value);
  static TypePtr tuple(std::vector<TypePtr> elems);
  static TypePtr named_tuple(std::string qualified_name, std::vector<std::string> fields,
                             std::vector<TypePtr> elems);
  // torch's UnionType::create: members flattened (nested unions and Optionals),
  // duplicates and members subsumed by another dropped, sorted by kind; one member left
  // is that type, {T, None} is Optional[T].
  static TypePtr union_of(std::vector<TypePtr> members);
  static TypePtr future(TypePtr elem);
  static TypePtr rref(TypePtr elem);
  // A class known only by name (schemas naming __torch__.torch.classes.x.Y); the
  // runtime's CompilationUnit makes real ones with ClassType::create.
  static TypePtr class_named(std::string qualified_name);
  static TypePtr var(std::string name);

  // A tensor type with what is known of its values (TensorDetails); plain Tensor when
  // nothing is. It is a Tensor (kind Tensor) and a subtype of any tensor type whose
  // known details it shares.
  static TypePtr refined_tensor(TensorDetails details);
  // The details of a refined tensor type; null for plain Tensor and every other kind.
  const TensorDetails* tensor_details() const { return tensor_details_.get(); }

  // Shorthands for the common singletons.
  static TypePtr tensor() { return get(TypeKind::Tensor); }
  static TypePtr int_() { return get(TypeKind::Int); }
  static TypePtr float_() { return get(TypeKind::Float); }
  static TypePtr bool_() { return get(TypeKind::Bool); }
  static TypePtr str_() { return get(TypeKind::Str); }
  static TypePtr none() { return get(TypeKind::None); }
  static TypePtr any() { return get(TypeKind::Any); }

 protected:
  TypeKind kind_;
  std::vector<TypePtr> contained_;
  std::string name_;
  std::vector<std::string> field_names_;
  std::shared_ptr<const TensorDetails> tensor_details_;  // kind Tensor only; null for plain Tensor
  size_t depth_ = 1;             // 1 + the deepest contained type's
  size_t parts_ = 1;             // 1 + the contained types' parts, a shared one each time
};

bool operator==(const Type& a, const Type& b);

// An attribute slot of a class: its name, type and what nn.Module made of it.
struct ClassAttribute {
  enum class Kind { Regular, Parameter, Buffer };
  std::string name;
  TypePtr type;
  Kind kind = Kind::Regular;
};

// A TorchScript class or module. Attributes are object slots in this order (an
// ObjectImpl's slots vector follows it). Mutable while the class is being built (the
// compiler adds attributes and methods as it meets them); shared as TypePtr after.
class ClassType : public Type {
 public:
  // Out of line: it anchors type.cpp, whose static initialiser installs the hook that
  // lets IValue::repr print objects' class names.
  ClassType(std::string qualified_name, bool is_module);
  static ClassTypePtr create(std::string qualified_name, bool is_module = false) {
    return std::make_shared<ClassType>(std::move(qualified_name), is_module);
  }

  bool is_module() const { return is_module_; }
  const std::vector<ClassAttribute>& attributes() const { return attributes_; }
  std::optional<size_t> find_attribute(std::string_view name) const;
  // Appends a slot; ValueError if the name is taken. Returns the slot index.
  size_t add_attribute(std::string name, TypePtr type,
                       ClassAttribute::Kind kind = ClassAttribute::Kind::Regular);
  // Changes an existing slot's type (refinement while compiling __init__).
  void set_attribute_type(size_t slot, TypePtr type) { attributes_.at(slot).type = std::move(type); }

  // Class-level constants (Final attributes, __constants__).
  const std::vector<std::pair<std::string, IValue>>& constants() const { return constants_; }
  const IValue* find_constant(std::string_view name) const;
  void add_constant(std::string name, IValue value);

  // Methods, as the runtime's Function objects (not owned: the CompilationUnit owns them).
  const std::vector<std::pair<std::string, Function*>>& methods() const { return methods_; }
  Function* find_method(std::string_view name) const;
  void add_method(std::string name, Function* fn);

  // Properties: name -> getter (and optional setter) method names.
  struct Property {
    std::string name;
    Function* getter = nullptr;
    Function* setter = nullptr;
  };
  const std::vector<Property>& properties() const { return properties_; }
  void add_property(Property p) { properties_.push_back(std::move(p)); }

  // Method schemas for interface checks; set by the runtime (Function is opaque here).
  using SchemaOfFn = const FunctionSchema* (*)(const Function&);
  static void set_schema_of_fn(SchemaOfFn fn);
  static const FunctionSchema* schema_of(const Function& fn);

 private:
  bool is_module_;
  std::vector<ClassAttribute> attributes_;
  std::vector<std::pair<std::string, IValue>> constants_;
  std::vector<std::pair<std::string, Function*>> methods_;
  std::vector<Property> properties_;
};

// A TorchScript interface: a named set of method schemas. A class is a subtype when
// it has every method (schemas compared when the runtime registered schema_of).
class InterfaceType : public Type {
 public:
  InterfaceType(std::string qualified_name, bool is_module)
      : Type(TypeKind::Interface, {}, std::move(qualified_name)), is_module_(is_module) {}
  bool is_module() const { return is_module_; }
  const std::vector<std::shared_ptr<const FunctionSchema>>& methods() const { return methods_; }
  void add_method(std::shared_ptr<const FunctionSchema> schema) { methods_.push_back(std::move(schema)); }
  const FunctionSchema* find_method(std::string_view name) const;

 private:
  bool is_module_;
  std::vector<std::shared_ptr<const FunctionSchema>> methods_;
};

// A scripted Python Enum: qualified name, the type of its values, its members in order.
class EnumType : public Type {
 public:
  EnumType(std::string qualified_name, TypePtr value_type,
           std::vector<std::pair<std::string, IValue>> members)
      : Type(TypeKind::Enum, {std::move(value_type)}, std::move(qualified_name)),
        members_(std::move(members)) {}
  const TypePtr& value_type() const { return contained_[0]; }
  const std::vector<std::pair<std::string, IValue>>& members() const { return members_; }

 private:
  std::vector<std::pair<std::string, IValue>> members_;
};

// A first-class function value (a free function used as a value, e.g. passed to fork).
class FunctionType : public Type {
 public:
  FunctionType(std::string qualified_name, Function* fn)
      : Type(TypeKind::Function, {}, std::move(qualified_name)), function_(fn) {}
  Function* function() const { return function_; }

 private:
  Function* function_;
};

// t with every tensor type in it plain (torch's unshapedType): Float(2, 3)[] -> Tensor[].
TypePtr unshaped_type(const TypePtr& t);

// torch's unifyTypes: the least type both a and b are subtypes of, when TorchScript
// has one (int, float -> none: numbers do not unify; T, None -> Optional[T];
// Optional[T], U -> Optional[unify(T, U)]; tuples and futures element-wise; else
// type_hint when both fit it). default_to_union: Union[a, b] instead of none.
std::optional<TypePtr> unify_types(const TypePtr& a, const TypePtr& b, bool default_to_union = false,
                                   const TypePtr& type_hint = nullptr);
// torch's unifyTypeList: folds unify_types over ts (list literals, if branches);
// nullopt for an empty list or when two members do not unify.
std::optional<TypePtr> unify_type_list(const std::vector<TypePtr>& ts, bool default_to_union = false,
                                       const TypePtr& type_hint = nullptr);

// Parses a Python type annotation: "Dict[str, List[Tuple[int, Tensor]]]",
// "Optional[Tensor]", "__torch__.foo.Bar". Dotted names resolve through `resolve`
// when given (null result = unknown), else become class_named. CompileError naming the
// column otherwise. Schema type variables (t, tVal) are accepted only when asked for.
using TypeResolver = std::function<TypePtr(std::string_view qualified_name)>;
TypePtr parse_type_annotation(std::string_view text, bool allow_type_variables = false,
                              const TypeResolver& resolve = nullptr);

// Parses a type as graphs print it: "int[]", "Tensor?", "Dict(str, Tensor)",
// "(int, float)", "NamedTuple(a : int)", "Union(int, str)", "Scalar", and the Python
// spellings too ("List[int]"). Used by the IR parser. Same resolver rules.
TypePtr parse_graph_type(std::string_view text, const TypeResolver& resolve = nullptr);

// The Type a schema's written type denotes (int[] -> List[int], Tensor? ->
// Optional[Tensor], Scalar -> number, SymInt/ScalarType/Layout/MemoryFormat -> int).
TypePtr type_from_schema(const SchemaType& t);

// The name a class or function has inside an archive: torchlet compiles user source
// with names as written ("Net"); archives put everything under "__torch__." (kept when
// already there).
std::string archive_qualified_name(const std::string& qualname);

// The TorchScript type of a value, as torch's IValue::type(): lists and dicts by their
// recorded element types (unified from the elements when unrecorded), objects by
// their class, NamedTuples by their type.
TypePtr type_of(const IValue& v);

}  // namespace torchlet::jit

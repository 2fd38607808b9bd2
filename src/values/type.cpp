// Types: the two printers, equality, subtyping, unions and unification, the annotation
// and graph-type parsers, schema types and type_of (see type.h). Rules follow torch
// 1.13's jit_type.h / type.cpp / union_type.cpp, checked against torch by
// tests/ir/type_test.cpp on every type its schemas use.
#include "values/type.h"

#include <algorithm>
#include <atomic>

#include <fmt/format.h>
#include <torchlet/error.h>

#include "core/ascii.h"
#include "values/function_schema.h"
#include "values/value_recursion.h"

namespace torchlet::jit {

namespace {

constexpr std::string_view kSingletonNames[] = {
#define TL_TYPE_KIND(kind, name) name,
#include "values/type_kinds.def"
#undef TL_TYPE_KIND
};

constexpr const char* kKindNames[] = {
#define TL_TYPE_KIND(kind, name) #kind,
#include "values/type_kinds.def"
#undef TL_TYPE_KIND
};


template <typename F>
std::string join(const std::vector<TypePtr>& ts, F&& print) {
  std::string out;
  for (size_t i = 0; i < ts.size(); ++i) out += (i ? ", " : "") + print(*ts[i]);
  return out;
}

bool is_number_kind(TypeKind k) { return k == TypeKind::Int || k == TypeKind::Float || k == TypeKind::Complex; }

std::atomic<ClassType::SchemaOfFn> g_schema_of{nullptr};

}  // namespace

const char* type_kind_name(TypeKind kind) { return kKindNames[static_cast<size_t>(kind)]; }

// --- factories ------------------------------------------------------------------------

Type::Type(TypeKind kind, std::vector<TypePtr> contained, std::string name)
    : kind_(kind), contained_(std::move(contained)), name_(std::move(name)) {
  for (const TypePtr& c : contained_) {
    depth_ = std::max(depth_, c->depth_ + 1);
    parts_ += c->parts_;  // each at most kMaxTypeParts: no overflow
    TL_CHECK(parts_ <= kMaxTypeParts, LimitError,
             "type with more than {} parts (tuples holding tuples, a shared one counted wherever it appears)",
             kMaxTypeParts);
  }
  TL_CHECK(depth_ <= kMaxTypeDepth, LimitError, "type nested deeper than {} levels", kMaxTypeDepth);
}

TypePtr Type::get(TypeKind k) {
  static const std::vector<TypePtr> singletons = [] {
    std::vector<TypePtr> v;
#define TL_TYPE_KIND(kind, name)                                                        \
  v.push_back(std::string_view(name).empty()                                            \
                  ? nullptr                                                             \
                  : std::make_shared<Type>(TypeKind::kind, std::vector<TypePtr>{}, ""));
#include "values/type_kinds.def"
#undef TL_TYPE_KIND
    return v;
  }();
  TypePtr t = singletons[static_cast<size_t>(k)];
  TL_INTERNAL_ASSERT(t != nullptr, "Type::get of a constructed kind");
  return t;
}

TypePtr Type::list(TypePtr e) { return std::make_shared<Type>(TypeKind::List, std::vector<TypePtr>{std::move(e)}, ""); }
TypePtr Type::optional(TypePtr e) {
  return std::make_shared<Type>(TypeKind::Optional, std::vector<TypePtr>{std::move(e)}, "");
}
TypePtr Type::dict(TypePtr k, TypePtr v) {
  return std::make_shared<Type>(TypeKind::Dict, std::vector<TypePtr>{std::move(k), std::move(v)}, "");
}
TypePtr Type::tuple(std::vector<TypePtr> e) { return std::make_shared<Type>(TypeKind::Tuple, std::move(e), ""); }
TypePtr Type::named_tuple(std::string qualified_name, std::vector<std::string> fields, std::vector<TypePtr> elems) {
  TL_CHECK(fields.size() == elems.size(), TypeError, "NamedTuple {}: {} field names for {} types", qualified_name,
           fields.size(), elems.size());
  auto t = std::make_shared<Type>(TypeKind::Tuple, std::move(elems), std::move(qualified_name));
  t->field_names_ = std::move(fields);
  return t;
}
TypePtr Type::future(TypePtr e) { return std::make_shared<Type>(TypeKind::Future, std::vector<TypePtr>{std::move(e)}, ""); }
TypePtr Type::rref(TypePtr e) { return std::make_shared<Type>(TypeKind::RRef, std::vector<TypePtr>{std::move(e)}, ""); }
TypePtr Type::class_named(std::string n) { return ClassType::create(std::move(n)); }
TypePtr Type::refined_tensor(TensorDetails details) {
  if (details.nothing_known()) return tensor();
  auto t = std::make_shared<Type>(TypeKind::Tensor, std::vector<TypePtr>{}, "");
  t->tensor_details_ = std::make_shared<const TensorDetails>(std::move(details));
  return t;
}
TypePtr Type::var(std::string n) { return std::make_shared<Type>(TypeKind::Var, std::vector<TypePtr>{}, std::move(n)); }

// torch: flatten nested unions and Optionals (Optional[T] = T | None), drop members
// that are subtypes of another member, sort by (kind, str), and collapse.
TypePtr Type::union_of(std::vector<TypePtr> members) {
  std::vector<TypePtr> flat;
  std::function<void(const TypePtr&)> add = [&](const TypePtr& t) {
    if (t->kind() == TypeKind::Union) {
      for (const auto& m : t->contained()) add(m);
    } else if (t->kind() == TypeKind::Optional) {
      add(t->contained()[0]);
      add(none());
    } else {
      flat.push_back(t);
    }
  };
  for (const auto& m : members) add(m);
  std::vector<TypePtr> kept;
  for (size_t i = 0; i < flat.size(); ++i) {
    bool drop = false;
    for (size_t j = 0; j < flat.size() && !drop; ++j) {
      if (i == j) continue;
      // Keep the first of equal members; drop strict subtypes of another member.
      if (flat[i]->equals(*flat[j])) drop = j < i;
      else if (flat[i]->is_subtype_of(*flat[j])) drop = true;
    }
    if (!drop) kept.push_back(flat[i]);
  }
  std::stable_sort(kept.begin(), kept.end(), [](const TypePtr& a, const TypePtr& b) {
    if (a->kind() != b->kind()) return a->kind() < b->kind();
    return a->str() < b->str();
  });
  TL_CHECK(!kept.empty(), TypeError, "Union needs at least one member type");
  if (kept.size() == 1) return kept[0];
  if (kept.size() == 2) {
    if (kept[1]->kind() == TypeKind::None) return optional(kept[0]);
    if (kept[0]->kind() == TypeKind::None) return optional(kept[1]);
  }
  return std::make_shared<Type>(TypeKind::Union, std::move(kept), "");
}

// --- printing --------------------------------------------------------------------------

std::string Type::str() const {
  auto s = [](const Type& t) { return t.str(); };
  switch (kind_) {
    case TypeKind::List: return contained_[0]->str() + "[]";
    case TypeKind::Optional: return contained_[0]->str() + "?";
    case TypeKind::Dict: return "Dict(" + join(contained_, s) + ")";
    case TypeKind::Tuple: {
      if (!is_named_tuple()) return "(" + join(contained_, s) + ")";
      std::string out = "NamedTuple(";
      for (size_t i = 0; i < contained_.size(); ++i) {
        out += (i ? ", " : "") + field_names_[i] + " : " + contained_[i]->str();
      }
      return out + ")";
    }
    case TypeKind::Union: return "Union(" + join(contained_, s) + ")";
    case TypeKind::Future: return "Future[" + contained_[0]->str() + "]";
    case TypeKind::RRef: return "RRef[" + contained_[0]->str() + "]";
    case TypeKind::Enum: return "Enum<" + name_ + ">";
    case TypeKind::Interface: {
      // torch prints the interface's unqualified name here.
      size_t dot = name_.rfind('.');
      return "InterfaceType<" + (dot == std::string::npos ? name_ : name_.substr(dot + 1)) + ">";
    }
    case TypeKind::Function: return "Function";  // torch's FunctionType::str()
    case TypeKind::Class:
    case TypeKind::Var: return name_;
    case TypeKind::Tensor:
      if (tensor_details_) return tensor_details_->str();
      return std::string(kSingletonNames[static_cast<size_t>(kind_)]);
    case TypeKind::Any:
    case TypeKind::AnyEnum:
    case TypeKind::Storage:
    case TypeKind::Number:
    case TypeKind::Float:
    case TypeKind::Complex:
    case TypeKind::Int:
    case TypeKind::None:
    case TypeKind::Str:
    case TypeKind::Generator:
    case TypeKind::Quantizer:
    case TypeKind::Bool:
    case TypeKind::Device:
    case TypeKind::Stream:
    case TypeKind::Capsule:
    case TypeKind::QScheme:
    case TypeKind::AnyList:
    case TypeKind::AnyTuple:
    case TypeKind::AnyClass:
      return std::string(kSingletonNames[static_cast<size_t>(kind_)]);
  }
  return "";
}

std::string Type::annotation_str() const {
  auto s = [](const Type& t) { return t.annotation_str(); };
  switch (kind_) {
    case TypeKind::List: return "List[" + contained_[0]->annotation_str() + "]";
    case TypeKind::Optional: return "Optional[" + contained_[0]->annotation_str() + "]";
    case TypeKind::Dict: return "Dict[" + join(contained_, s) + "]";
    case TypeKind::Tuple:
      if (is_named_tuple() && !name_.empty()) return name_;
      return contained_.empty() ? "Tuple[()]" : "Tuple[" + join(contained_, s) + "]";
    case TypeKind::Union: return "Union[" + join(contained_, s) + "]";
    case TypeKind::Future: return "Future[" + contained_[0]->annotation_str() + "]";
    case TypeKind::RRef: return "RRef[" + contained_[0]->annotation_str() + "]";
    case TypeKind::Number: return "number";
    case TypeKind::Tensor: return "Tensor";  // details are graph spelling only, as torch's
    case TypeKind::Enum:
    case TypeKind::Interface:
    case TypeKind::Class:
    case TypeKind::Function:
    case TypeKind::Var: return name_;
    case TypeKind::Any:
    case TypeKind::AnyEnum:
    case TypeKind::Storage:
    case TypeKind::Float:
    case TypeKind::Complex:
    case TypeKind::Int:
    case TypeKind::None:
    case TypeKind::Str:
    case TypeKind::Generator:
    case TypeKind::Quantizer:
    case TypeKind::Bool:
    case TypeKind::Device:
    case TypeKind::Stream:
    case TypeKind::Capsule:
    case TypeKind::QScheme:
    case TypeKind::AnyList:
    case TypeKind::AnyTuple:
    case TypeKind::AnyClass: return str();
  }
  return "";
}

// --- equality and subtyping ---------------------------------------------------------------

// torch compares type variables by kind alone (Type::equals' default), so t == tVal;
// nominal types compare by qualified name.
bool Type::equals(const Type& o) const {
  if (this == &o) return true;
  if (kind_ != o.kind_) return false;
  if (name_ != o.name_ && kind_ != TypeKind::Var) return false;
  if (field_names_ != o.field_names_) return false;
  if (!tensor_details_ != !o.tensor_details_ || (tensor_details_ && !(*tensor_details_ == *o.tensor_details_))) {
    return false;
  }
  if (contained_.size() != o.contained_.size()) return false;
  for (size_t i = 0; i < contained_.size(); ++i) {
    if (!contained_[i]->equals(*o.contained_[i])) return false;
  }
  return true;
}

bool operator==(const Type& a, const Type& b) { return a.equals(b); }

namespace {

// A class implements an interface when it has each of its methods; with the
// runtime's schema_of registered, the method schemas must also print alike.
bool implements(const ClassType& c, const InterfaceType& i) {
  for (const auto& m : i.methods()) {
    const auto& ms = c.methods();
    auto it = std::find_if(ms.begin(), ms.end(), [&](const auto& p) { return p.first == m->name; });
    if (it == ms.end()) return false;
    if (!it->second) continue;
    const FunctionSchema* s = ClassType::schema_of(*it->second);
    if (s && s->str() != m->str()) return false;
  }
  return true;
}

}  // namespace

bool Type::passes_isinstance(const Type& tested) const {
  const auto& c = tested.contained();
  if (tested.kind() == TypeKind::List && c.size() == 1 && c[0]->kind() == TypeKind::Any) return kind_ == TypeKind::List;
  if (tested.kind() == TypeKind::Dict && c.size() == 2 && c[0]->kind() == TypeKind::Any && c[1]->kind() == TypeKind::Any)
    return kind_ == TypeKind::Dict;
  if (tested.kind() == TypeKind::Tuple && c.empty() && !tested.is_named_tuple()) return kind_ == TypeKind::Tuple;
  return is_subtype_of(tested);
}

bool Type::is_subtype_of(const Type& o) const {
  if (o.kind_ == TypeKind::Any || equals(o)) return true;
  // Any tensor, however refined, is a Tensor; a refined one fits what it refines.
  if (kind_ == TypeKind::Tensor && o.kind_ == TypeKind::Tensor) {
    return !o.tensor_details_ || (tensor_details_ && tensor_details_->fits(*o.tensor_details_));
  }
  // A union (or Optional) on the left: every member must fit.
  if (kind_ == TypeKind::Union) {
    return std::all_of(contained_.begin(), contained_.end(), [&](const TypePtr& m) { return m->is_subtype_of(o); });
  }
  if (kind_ == TypeKind::Optional) {
    return none()->is_subtype_of(o) && contained_[0]->is_subtype_of(o);
  }
  switch (o.kind_) {
    case TypeKind::Optional:
      return kind_ == TypeKind::None || is_subtype_of(*o.contained_[0]);
    case TypeKind::Union:
      return std::any_of(o.contained_.begin(), o.contained_.end(), [&](const TypePtr& m) { return is_subtype_of(*m); });
    case TypeKind::Number: return is_number_kind(kind_);
    case TypeKind::AnyClass: return kind_ == TypeKind::Class;
    case TypeKind::AnyList: return kind_ == TypeKind::List;
    case TypeKind::AnyTuple: return kind_ == TypeKind::Tuple;
    case TypeKind::AnyEnum: return kind_ == TypeKind::Enum;
    case TypeKind::Tuple: {
      // Tuples are covariant; a plain tuple is not a NamedTuple.
      if (kind_ != TypeKind::Tuple || contained_.size() != o.contained_.size()) return false;
      if (o.is_named_tuple() && !is_named_tuple()) return false;
      for (size_t i = 0; i < contained_.size(); ++i) {
        if (!contained_[i]->is_subtype_of(*o.contained_[i])) return false;
      }
      return true;
    }
    case TypeKind::Future:
      return kind_ == TypeKind::Future && contained_[0]->is_subtype_of(*o.contained_[0]);
    case TypeKind::Interface:
      if (kind_ == TypeKind::Interface) {
        // An interface with more methods is a subtype of one with fewer.
        for (const auto& m : o.as_interface()->methods()) {
          if (!as_interface()->find_method(m->name)) return false;
        }
        return true;
      }
      return kind_ == TypeKind::Class && implements(*as_class(), *o.as_interface());
    // Lists and dicts are invariant (equality above); the rest are equal or nothing.
    case TypeKind::List:
    case TypeKind::Dict:
    case TypeKind::RRef:
    case TypeKind::Enum:
    case TypeKind::Tensor:
    case TypeKind::Storage:
    case TypeKind::Float:
    case TypeKind::Complex:
    case TypeKind::Int:
    case TypeKind::None:
    case TypeKind::Str:
    case TypeKind::Generator:
    case TypeKind::Quantizer:
    case TypeKind::Bool:
    case TypeKind::Var:
    case TypeKind::Device:
    case TypeKind::Stream:
    case TypeKind::Function:
    case TypeKind::Class:
    case TypeKind::Capsule:
    case TypeKind::QScheme:
    case TypeKind::Any: return false;
  }
  return false;
}

const ClassType* Type::as_class() const {
  return kind_ == TypeKind::Class ? static_cast<const ClassType*>(this) : nullptr;
}
const EnumType* Type::as_enum() const {
  return kind_ == TypeKind::Enum ? static_cast<const EnumType*>(this) : nullptr;
}
const InterfaceType* Type::as_interface() const {
  return kind_ == TypeKind::Interface ? static_cast<const InterfaceType*>(this) : nullptr;
}
const FunctionType* Type::as_function() const {
  return kind_ == TypeKind::Function ? static_cast<const FunctionType*>(this) : nullptr;
}

// --- classes and interfaces -------------------------------------------------------------

ClassType::ClassType(std::string qualified_name, bool is_module)
    : Type(TypeKind::Class, {}, std::move(qualified_name)), is_module_(is_module) {}

std::optional<size_t> ClassType::find_attribute(std::string_view name) const {
  for (size_t i = 0; i < attributes_.size(); ++i) {
    if (attributes_[i].name == name) return i;
  }
  return std::nullopt;
}

size_t ClassType::add_attribute(std::string name, TypePtr type, ClassAttribute::Kind kind) {
  TL_CHECK(!find_attribute(name), ValueError, "class {}: attribute '{}' already defined", name_, name);
  attributes_.push_back({std::move(name), std::move(type), kind});
  return attributes_.size() - 1;
}

const IValue* ClassType::find_constant(std::string_view name) const {
  for (const auto& [n, v] : constants_) {
    if (n == name) return &v;
  }
  return nullptr;
}

void ClassType::add_constant(std::string name, IValue value) {
  TL_CHECK(!find_constant(name), ValueError, "class {}: constant '{}' already defined", name_, name);
  constants_.emplace_back(std::move(name), std::move(value));
}

Function* ClassType::find_method(std::string_view name) const {
  for (const auto& [n, f] : methods_) {
    if (n == name) return f;
  }
  return nullptr;
}

void ClassType::add_method(std::string name, Function* fn) {
  TL_CHECK(!find_method(name), ValueError, "class {}: method '{}' already defined", name_, name);
  methods_.emplace_back(std::move(name), fn);
}

void ClassType::set_schema_of_fn(SchemaOfFn fn) { g_schema_of.store(fn); }

const FunctionSchema* ClassType::schema_of(const Function& fn) {
  SchemaOfFn f = g_schema_of.load();
  return f ? f(fn) : nullptr;
}

const FunctionSchema* InterfaceType::find_method(std::string_view name) const {
  for (const auto& m : methods_) {
    if (m->name == name) return m.get();
  }
  return nullptr;
}

// --- unification ---------------------------------------------------------------------------

std::optional<TypePtr> unify_types(const TypePtr& a, const TypePtr& b, bool default_to_union,
                                   const TypePtr& type_hint) {
  if (b->is_subtype_of(*a)) return a;
  if (a->is_subtype_of(*b)) return b;
  // Two tensor types: what both know alike (torch's TensorType::merge).
  if (a->kind() == TypeKind::Tensor && b->kind() == TypeKind::Tensor) {
    if (!a->tensor_details() || !b->tensor_details()) return Type::tensor();
    return Type::refined_tensor(a->tensor_details()->merged_with(*b->tensor_details()));
  }
  // None with T: Optional[T] (T not itself nullable, handled above).
  if (a->kind() == TypeKind::None) return Type::optional(b);
  if (b->kind() == TypeKind::None) return Type::optional(a);
  // Optional[T] with U: Optional[unify(T, U)].
  if (a->kind() == TypeKind::Optional || b->kind() == TypeKind::Optional) {
    const TypePtr& oa = a->kind() == TypeKind::Optional ? a->contained()[0] : a;
    const TypePtr& ob = b->kind() == TypeKind::Optional ? b->contained()[0] : b;
    if (auto u = unify_types(oa, ob, false)) return Type::optional(*u);
  }
  // Tuples of equal length unify element-wise.
  if (a->kind() == TypeKind::Tuple && b->kind() == TypeKind::Tuple && a->contained().size() == b->contained().size() &&
      !a->is_named_tuple() && !b->is_named_tuple()) {
    std::vector<TypePtr> elems;
    for (size_t i = 0; i < a->contained().size(); ++i) {
      auto u = unify_types(a->contained()[i], b->contained()[i], default_to_union);
      if (!u) return std::nullopt;
      elems.push_back(*u);
    }
    return Type::tuple(std::move(elems));
  }
  // Futures unify by their element.
  if (a->kind() == TypeKind::Future && b->kind() == TypeKind::Future) {
    if (auto u = unify_types(a->contained()[0], b->contained()[0], false)) return Type::future(*u);
  }
  // Two classes annotated with a common interface, say.
  if (type_hint && a->is_subtype_of(*type_hint) && b->is_subtype_of(*type_hint)) return type_hint;
  if (default_to_union) return Type::union_of({a, b});
  return std::nullopt;
}

std::optional<TypePtr> unify_type_list(const std::vector<TypePtr>& ts, bool default_to_union,
                                       const TypePtr& type_hint) {
  if (ts.empty()) return std::nullopt;
  TypePtr acc = ts[0];
  for (size_t i = 1; i < ts.size(); ++i) {
    auto u = unify_types(acc, ts[i], default_to_union, type_hint);
    if (!u) return std::nullopt;
    acc = *u;
  }
  return acc;
}

// --- parsing ----------------------------------------------------------------------------------

namespace {

struct SingletonName {
  std::string_view name;
  TypeKind kind;
};
// Spellings of singleton kinds besides their str() names.
constexpr SingletonName kAnnotationAliases[] = {
    {"None", TypeKind::None},     {"number", TypeKind::Number}, {"device", TypeKind::Device},
    {"torch.Tensor", TypeKind::Tensor}, {"torch.device", TypeKind::Device},
};

// One recursive-descent parser for both spellings. Python annotations:
//   type := name ['[' args ']']      args := type {',' type} | '(' ')'
// Graph text (graph_ mode) adds torch's str() forms:
//   type := base {'[' ']' | '?'}
//   base := '(' [type {',' type}] ')' | ('Dict' | 'Union') '(' type {',' type} ')'
//         | 'NamedTuple' '(' [ident ':' type {',' ident ':' type}] ')'
//         | 'Enum' '<' name '>' | 'InterfaceType' '<' name '>' | name ['[' args ']']
class TypeParser {
 public:
  TypeParser(std::string_view s, bool graph, bool allow_vars, const TypeResolver& resolve)
      : s_(s), graph_(graph), allow_vars_(allow_vars), resolve_(resolve) {}
  TypePtr parse() {
    TypePtr t = type();
    skip();
    if (pos_ != s_.size()) fail("unexpected text after the type");
    return t;
  }

 private:
  void skip() {
    while (pos_ < s_.size() && s_[pos_] == ' ') ++pos_;
  }
  char peek() {
    skip();
    return pos_ < s_.size() ? s_[pos_] : '\0';
  }
  bool accept(char c) {
    if (peek() != c) return false;
    ++pos_;
    return true;
  }
  void expect(char c) {
    if (!accept(c)) fail(fmt::format("expected '{}'", c));
  }
  [[noreturn]] void fail(const std::string& what) const {
    TL_FAIL(CompileError, "type annotation: {} at column {}:\n{}\n{}^", what, pos_, s_, std::string(pos_, ' '));
  }
  std::string dotted_name() {
    skip();
    size_t start = pos_;
    while (pos_ < s_.size() && (ascii_word(s_[pos_]) || s_[pos_] == '.')) {
      ++pos_;
    }
    if (start == pos_) fail("expected a type name");
    return std::string(s_.substr(start, pos_ - start));
  }
  // '[' args ']' after a generic's name.
  std::vector<TypePtr> bracket_args() {
    std::vector<TypePtr> out;
    expect('[');
    if (accept('(')) {  // Tuple[()]
      expect(')');
      expect(']');
      return out;
    }
    if (accept(']')) return out;
    do {
      out.push_back(type());
    } while (accept(','));
    expect(']');
    return out;
  }
  // '(' type {',' type} ')' in graph spelling.
  std::vector<TypePtr> paren_args() {
    std::vector<TypePtr> out;
    expect('(');
    if (accept(')')) return out;
    do {
      out.push_back(type());
    } while (accept(','));
    expect(')');
    return out;
  }
  void arity(const std::string& n, const std::vector<TypePtr>& a, size_t k) {
    if (a.size() != k) fail(fmt::format("{} takes {} type argument(s), got {}", n, k, a.size()));
  }

  TypePtr type() {
    // Bounds the recursion through generic arguments before any type exists to refuse
    // (a pickled type tag can be "List[" a million times over).
    TL_CHECK(open_ < kMaxTypeDepth, LimitError, "type nested deeper than {} levels", kMaxTypeDepth);
    ++open_;
    TypePtr t = base();
    --open_;
    if (!graph_) return t;
    while (true) {
      if (peek() == '[' && pos_ + 1 < s_.size() && s_[pos_ + 1] == ']') {
        pos_ += 2;
        t = Type::list(t);
      } else if (accept('?')) {
        t = Type::optional(t);
      } else {
        return t;
      }
    }
  }

  TypePtr base() {
    if (graph_ && peek() == '(') return Type::tuple(paren_args());
    std::string n = dotted_name();
    if (graph_ && peek() == '(') {
      if (n == "Dict") {
        auto a = paren_args();
        arity(n, a, 2);
        return Type::dict(a[0], a[1]);
      }
      if (n == "Union") return Type::union_of(paren_args());
      if (n == "NamedTuple") return named_tuple_fields();
    }
    if (graph_ && (n == "Enum" || n == "InterfaceType") && accept('<')) {
      std::string q = dotted_name();
      expect('>');
      TypePtr r = resolve_ ? resolve_(q) : nullptr;
      TypeKind want = n == "Enum" ? TypeKind::Enum : TypeKind::Interface;
      if (r && r->kind() == want) return r;
      if (n == "Enum") return std::make_shared<EnumType>(q, Type::any(), std::vector<std::pair<std::string, IValue>>{});
      return std::make_shared<InterfaceType>(q, false);
    }
    if (peek() == '[' && is_generic(n)) return generic(n);
    if (graph_ && n == "Function") return std::make_shared<FunctionType>("", nullptr);
    if (graph_) {
      std::optional<DType> dtype;
      if (tensor_dtype_spelling(n, dtype) && peek() == '(') return tensor_details(dtype);
      if (auto t = dtype_only_tensor(n)) return *t;
    }
    for (size_t i = 0; i < std::size(kSingletonNames); ++i) {
      if (!kSingletonNames[i].empty() && kSingletonNames[i] == n) return Type::get(static_cast<TypeKind>(i));
    }
    for (const auto& a : kAnnotationAliases) {
      if (a.name == n) return Type::get(a.kind);
    }
    if (resolve_) {
      if (TypePtr r = resolve_(n)) return r;
    }
    if (n.find('.') != std::string::npos) return Type::class_named(n);
    if (allow_vars_ && ascii_lower(n[0])) return Type::var(n);
    fail(fmt::format("unknown type '{}'", n));
  }

  // Float(2, 3, strides=[3, 1], requires_grad=0, device=cpu), Long(requires_grad=0,
  // device=cpu), Float(): refined tensor types as graphs print them. Beside torch's own
  // parser this also reads what torch prints but cannot read back: "Tensor(2, *)",
  // "Tensor(device=cpu)" and a dtype without details, "FloatTensor".
  //
  // Whether n is "Tensor" (dtype left unknown) or a dtype's c10 name ("Float").
  static bool tensor_dtype_spelling(std::string_view n, std::optional<DType>& dtype) {
    dtype.reset();
    if (n == "Tensor") return true;
    for (int i = 0; i < kNumDTypes; ++i) {
      auto d = static_cast<DType>(i);
      if (dtype_info(d).scalar_type_name == n) {
        dtype = d;
        return true;
      }
    }
    return false;
  }
  // "FloatTensor", "FloatTensor(requires_grad=0, device=cpu)": a dtype, rank unknown.
  std::optional<TypePtr> dtype_only_tensor(std::string_view n) {
    if (n.size() <= 6 || !n.ends_with("Tensor")) return std::nullopt;
    std::optional<DType> dtype;
    if (!tensor_dtype_spelling(n.substr(0, n.size() - 6), dtype) || !dtype) return std::nullopt;
    TensorDetails d;
    if (peek() == '(') {
      d = read_details(dtype);
      if (!d.sizes->empty()) fail("a tensor type spelled with its dtype and 'Tensor' has no sizes");
    }
    d.dtype = dtype;
    d.sizes.reset();
    return Type::refined_tensor(std::move(d));
  }
  // torch prints both a rank-unknown and a rank-0 tensor of unknown dtype with a known
  // device as "Tensor(device=cpu)"; the first is the common one (and "Tensor()" is
  // rank 0 unambiguously).
  TypePtr tensor_details(std::optional<DType> dtype) {
    TensorDetails d = read_details(dtype);
    if (!dtype && d.sizes->empty() && (d.requires_grad || d.device)) d.sizes.reset();
    return Type::refined_tensor(std::move(d));
  }
  TensorDetails read_details(std::optional<DType> dtype) {
    expect('(');
    const size_t open = pos_;
    int depth = 1;
    while (depth > 0) {
      if (pos_ >= s_.size()) fail("unterminated tensor type details");
      if (s_[pos_] == '(' || s_[pos_] == '[') ++depth;
      else if (s_[pos_] == ')' || s_[pos_] == ']') --depth;
      ++pos_;
    }
    try {
      return parse_tensor_details(dtype, s_.substr(open, pos_ - 1 - open));
    } catch (const ValueError& e) {
      fail(e.what());
    }
  }

  static bool is_generic(const std::string& n) {
    return n == "List" || n == "Optional" || n == "Future" || n == "RRef" || n == "Dict" || n == "Tuple" ||
           n == "Union";
  }
  TypePtr generic(const std::string& n) {
    auto a = bracket_args();
    if (n == "Tuple") return Type::tuple(std::move(a));
    if (n == "Union") {
      if (a.empty()) fail("Union needs at least one type");
      return Type::union_of(std::move(a));
    }
    if (n == "Dict") {
      arity(n, a, 2);
      return Type::dict(a[0], a[1]);
    }
    arity(n, a, 1);
    if (n == "List") return Type::list(a[0]);
    if (n == "Optional") return Type::optional(a[0]);
    return n == "Future" ? Type::future(a[0]) : Type::rref(a[0]);
  }
  // NamedTuple(a : int, b : Tensor): the graph spelling, which omits the class name.
  TypePtr named_tuple_fields() {
    std::vector<std::string> names;
    std::vector<TypePtr> types;
    expect('(');
    if (!accept(')')) {
      do {
        names.push_back(dotted_name());
        expect(':');
        types.push_back(type());
      } while (accept(','));
      expect(')');
    }
    return Type::named_tuple("", std::move(names), std::move(types));
  }

  std::string_view s_;
  bool graph_, allow_vars_;
  const TypeResolver& resolve_;
  size_t pos_ = 0;
  size_t open_ = 0;  // type() calls in progress
};

// Schema spellings of singleton kinds that differ from the printed names.
constexpr SingletonName kSchemaNames[] = {
    {"Scalar", TypeKind::Number}, {"SymInt", TypeKind::Int},          {"ScalarType", TypeKind::Int},
    {"Layout", TypeKind::Int},    {"MemoryFormat", TypeKind::Int},    {"Dimname", TypeKind::Str},
    {"ConstQuantizerPtr", TypeKind::Any}, {"Device", TypeKind::Device}, {"Storage", TypeKind::Storage},
};

}  // namespace

TypePtr parse_type_annotation(std::string_view text, bool allow_type_variables, const TypeResolver& resolve) {
  return TypeParser(text, /*graph=*/false, allow_type_variables, resolve).parse();
}

TypePtr parse_graph_type(std::string_view text, const TypeResolver& resolve) {
  return TypeParser(text, /*graph=*/true, /*allow_vars=*/true, resolve).parse();
}

TypePtr type_from_schema(const SchemaType& t) {
  switch (t.kind) {
    case SchemaType::Kind::List: return Type::list(type_from_schema(*t.contained[0]));
    case SchemaType::Kind::Optional: return Type::optional(type_from_schema(*t.contained[0]));
    case SchemaType::Kind::Dict: return Type::dict(type_from_schema(*t.contained[0]), type_from_schema(*t.contained[1]));
    case SchemaType::Kind::Future: return Type::future(type_from_schema(*t.contained[0]));
    case SchemaType::Kind::RRef: return Type::rref(type_from_schema(*t.contained[0]));
    case SchemaType::Kind::Tuple: {
      std::vector<TypePtr> elems;
      for (const auto& c : t.contained) elems.push_back(type_from_schema(*c));
      return Type::tuple(std::move(elems));
    }
    case SchemaType::Kind::Name: break;
  }
  for (const auto& s : kSchemaNames) {
    if (s.name == t.name) return Type::get(s.kind);
  }
  for (size_t i = 0; i < std::size(kSingletonNames); ++i) {
    if (!kSingletonNames[i].empty() && kSingletonNames[i] == t.name) return Type::get(static_cast<TypeKind>(i));
  }
  if (t.name.find('.') != std::string::npos) return Type::class_named(t.name);
  // Remaining lower-case names are type variables (t, tVal, t1).
  TL_CHECK(!t.name.empty() && ascii_lower(t.name[0]), CompileError,
           "schema: unknown type '{}'", t.name);
  return Type::var(t.name);
}

// --- type_of -------------------------------------------------------------------------------

namespace {

// The element type of an untyped container: the unification of its elements' types
// (torch always records one; values from pickles may not).
TypePtr unify_all(const std::vector<TypePtr>& ts) { return unify_type_list(ts).value_or(Type::any()); }

}  // namespace

TypePtr type_of(const IValue& v) {
  switch (v.tag()) {
    case IValueTag::None: return Type::none();
    case IValueTag::Tensor: return Type::tensor();
    case IValueTag::Storage: return Type::get(TypeKind::Storage);
    case IValueTag::Double: return Type::float_();
    case IValueTag::ComplexDouble: return Type::get(TypeKind::Complex);
    case IValueTag::Int:
    case IValueTag::BigInt: return Type::int_();
    case IValueTag::Bool: return Type::bool_();
    case IValueTag::String: return Type::str_();
    case IValueTag::Device: return Type::get(TypeKind::Device);
    case IValueTag::Tuple: {
      const TupleImpl& t = v.tupleRef();
      if (t.type) return t.type;
      const ValueRecursion guard("inferring a value's type");  // values from files may share their parts
      std::vector<TypePtr> elems;
      for (const auto& e : t.elements) elems.push_back(type_of(e));
      return Type::tuple(std::move(elems));
    }
    case IValueTag::List: {
      const ListImpl& l = v.listRef();
      if (l.elem_type) return Type::list(l.elem_type);
      const ValueRecursion guard("inferring a value's type");
      std::vector<TypePtr> elems;
      for (const auto& e : l.elements) elems.push_back(type_of(e));
      return Type::list(unify_all(elems));
    }
    case IValueTag::Dict: {
      const DictImpl& d = v.dictRef();
      if (d.key_type && d.value_type) return Type::dict(d.key_type, d.value_type);
      const ValueRecursion guard("inferring a value's type");
      std::vector<TypePtr> ks, vs;
      for (const auto& [k, val] : d.items()) {
        ks.push_back(type_of(k));
        vs.push_back(type_of(val));
      }
      return Type::dict(d.key_type ? d.key_type : unify_all(ks), d.value_type ? d.value_type : unify_all(vs));
    }
    case IValueTag::Object: return v.objectRef().type;
    case IValueTag::Enum: return v.toEnum()->type;
    case IValueTag::Future: return Type::future(Type::any());
    // Python-only values have no TorchScript type.
    case IValueTag::Bytes:
    case IValueTag::PyObject:
    case IValueTag::Uninitialized: return Type::any();
  }
  return Type::any();
}

// Objects print as torch prints them: <__torch__.Foo object at ...> needs the name.
namespace {
std::string class_name_of(const ObjectImpl& o) { return o.type ? o.type->name() : std::string("object"); }
const bool kClassNameHookInstalled = [] {
  set_object_class_name_fn(&class_name_of);
  return true;
}();
}  // namespace

std::string archive_qualified_name(const std::string& qualname) {
  if (qualname == "__torch__" || qualname.rfind("__torch__.", 0) == 0) return qualname;
  return "__torch__." + qualname;
}

}  // namespace torchlet::jit

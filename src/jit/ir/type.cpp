// Types: printing, equality, subtyping and parsing (see type.h).
#include "jit/ir/type.h"

#include <cctype>

#include <fmt/format.h>
#include <torchlet/error.h>

#include "jit/ir/function_schema.h"

namespace torchlet::jit {

namespace {

constexpr std::string_view kSingletonNames[] = {
#define TL_TYPE_KIND(kind, name) name,
#include "jit/ir/type_kinds.def"
#undef TL_TYPE_KIND
};

std::string join_types(const std::vector<TypePtr>& ts) {
  std::string out;
  for (size_t i = 0; i < ts.size(); ++i) out += (i ? ", " : "") + ts[i]->str();
  return out;
}

bool is_number_kind(TypeKind k) { return k == TypeKind::Int || k == TypeKind::Float || k == TypeKind::Complex; }

}  // namespace

TypePtr Type::get(TypeKind k) {
  static const std::vector<TypePtr> singletons = [] {
    std::vector<TypePtr> v;
#define TL_TYPE_KIND(kind, name) \
  v.push_back(std::string_view(name).empty() ? nullptr : std::make_shared<Type>(TypeKind::kind, std::vector<TypePtr>{}, ""));
#include "jit/ir/type_kinds.def"
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
TypePtr Type::union_of(std::vector<TypePtr> m) { return std::make_shared<Type>(TypeKind::Union, std::move(m), ""); }
TypePtr Type::future(TypePtr e) { return std::make_shared<Type>(TypeKind::Future, std::vector<TypePtr>{std::move(e)}, ""); }
TypePtr Type::rref(TypePtr e) { return std::make_shared<Type>(TypeKind::RRef, std::vector<TypePtr>{std::move(e)}, ""); }
TypePtr Type::class_named(std::string n) { return std::make_shared<Type>(TypeKind::Class, std::vector<TypePtr>{}, std::move(n)); }
TypePtr Type::var(std::string n) { return std::make_shared<Type>(TypeKind::Var, std::vector<TypePtr>{}, std::move(n)); }

std::string Type::str() const {
  switch (kind_) {
    case TypeKind::List: return "List[" + contained_[0]->str() + "]";
    case TypeKind::Optional: return "Optional[" + contained_[0]->str() + "]";
    case TypeKind::Dict: return "Dict[" + join_types(contained_) + "]";
    case TypeKind::Tuple: return "Tuple[" + join_types(contained_) + "]";
    case TypeKind::Union: return "Union[" + join_types(contained_) + "]";
    case TypeKind::Future: return "Future[" + contained_[0]->str() + "]";
    case TypeKind::RRef: return "RRef[" + contained_[0]->str() + "]";
    case TypeKind::Class:
    case TypeKind::Var: return name_;
    default: return std::string(kSingletonNames[static_cast<size_t>(kind_)]);
  }
}

// torch compares type variables by kind alone (Type::equals' default), so t == tVal.
bool Type::equals(const Type& o) const {
  if (kind_ != o.kind_) return false;
  if (kind_ == TypeKind::Class) return name_ == o.name_;
  if (contained_.size() != o.contained_.size()) return false;
  for (size_t i = 0; i < contained_.size(); ++i) {
    if (!contained_[i]->equals(*o.contained_[i])) return false;
  }
  return true;
}

bool operator==(const Type& a, const Type& b) { return a.equals(b); }

bool Type::is_subtype_of(const Type& o) const {
  if (o.kind_ == TypeKind::Any || equals(o)) return true;
  switch (o.kind_) {
    case TypeKind::Optional: {
      // None, T and Optional[T] are subtypes of Optional[U] when T <= U.
      if (kind_ == TypeKind::None) return true;
      const Type& u = *o.contained_[0];
      if (kind_ == TypeKind::Optional) return contained_[0]->is_subtype_of(u);
      return is_subtype_of(u);
    }
    case TypeKind::Number:
      return is_number_kind(kind_);
    case TypeKind::AnyClass:
      return kind_ == TypeKind::Class;
    case TypeKind::AnyEnum:
      return false;
    case TypeKind::Union:
      for (const auto& m : o.contained_) {
        if (is_subtype_of(*m)) return true;
      }
      return false;
    case TypeKind::Tuple: {
      // Tuples are covariant; lists and dicts are invariant (equality above).
      if (kind_ != TypeKind::Tuple || contained_.size() != o.contained_.size()) return false;
      for (size_t i = 0; i < contained_.size(); ++i) {
        if (!contained_[i]->is_subtype_of(*o.contained_[i])) return false;
      }
      return true;
    }
    case TypeKind::Future:
      return kind_ == TypeKind::Future && contained_[0]->is_subtype_of(*o.contained_[0]);
    default:
      return false;
  }
}

// --- annotation parser ---------------------------------------------------------------------

namespace {

struct SingletonName {
  std::string_view name;
  TypeKind kind;
};
// Python spellings that name singleton kinds in annotations (besides the printed names).
constexpr SingletonName kAnnotationAliases[] = {
    {"None", TypeKind::None}, {"number", TypeKind::Number}, {"Scalar", TypeKind::Number},
    {"device", TypeKind::Device},
};

class AnnotationParser {
 public:
  AnnotationParser(std::string_view s, bool allow_vars) : s_(s), allow_vars_(allow_vars) {}
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
  bool accept(char c) {
    skip();
    if (pos_ < s_.size() && s_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
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
    while (pos_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[pos_])) || s_[pos_] == '_' || s_[pos_] == '.')) ++pos_;
    if (start == pos_) fail("expected a type name");
    return std::string(s_.substr(start, pos_ - start));
  }
  std::vector<TypePtr> args() {
    std::vector<TypePtr> out;
    expect('[');
    if (accept(']')) return out;
    do {
      out.push_back(type());
    } while (accept(','));
    expect(']');
    return out;
  }
  TypePtr type() {
    std::string n = dotted_name();
    auto arity = [&](const std::vector<TypePtr>& a, size_t k) {
      if (a.size() != k) fail(fmt::format("{} takes {} type argument(s), got {}", n, k, a.size()));
    };
    if (n == "List" || n == "Optional" || n == "Future" || n == "RRef") {
      auto a = args();
      arity(a, 1);
      if (n == "List") return Type::list(a[0]);
      if (n == "Optional") return Type::optional(a[0]);
      return n == "Future" ? Type::future(a[0]) : Type::rref(a[0]);
    }
    if (n == "Dict") {
      auto a = args();
      arity(a, 2);
      return Type::dict(a[0], a[1]);
    }
    if (n == "Tuple") return Type::tuple(args());
    if (n == "Union") return Type::union_of(args());
    for (size_t i = 0; i < std::size(kSingletonNames); ++i) {
      if (!kSingletonNames[i].empty() && kSingletonNames[i] == n) return Type::get(static_cast<TypeKind>(i));
    }
    for (const auto& a : kAnnotationAliases) {
      if (a.name == n) return Type::get(a.kind);
    }
    if (n.find('.') != std::string::npos) return Type::class_named(n);
    if (allow_vars_ && std::islower(static_cast<unsigned char>(n[0]))) return Type::var(n);
    fail(fmt::format("unknown type '{}'", n));
  }

  std::string_view s_;
  bool allow_vars_;
  size_t pos_ = 0;
};

// Schema spellings of singleton kinds that differ from the printed names.
constexpr SingletonName kSchemaNames[] = {
    {"Scalar", TypeKind::Number}, {"SymInt", TypeKind::Int}, {"ScalarType", TypeKind::Int},
    {"Layout", TypeKind::Int}, {"MemoryFormat", TypeKind::Int}, {"Dimname", TypeKind::Str},
    {"ConstQuantizerPtr", TypeKind::Any},
};

}  // namespace

TypePtr parse_type_annotation(std::string_view text, bool allow_type_variables) {
  return AnnotationParser(text, allow_type_variables).parse();
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
  TL_CHECK(!t.name.empty() && std::islower(static_cast<unsigned char>(t.name[0])), CompileError,
           "schema: unknown type '{}'", t.name);
  return Type::var(t.name);
}

}  // namespace torchlet::jit

// Schema default values as IValues (see function_schema.h): the runtime fills omitted
// arguments with these. Grammar of the default text, as torch writes and prints it:
//   value := None | True | False | number | inf | -inf | nan | string | ident
//          | '[' [value {',' value}] ']'
// with strings in double or single quotes and C escapes.
#include <cmath>
#include <limits>

#include <fmt/format.h>
#include <torchlet/error.h>

#include "core/ascii.h"
#include "values/function_schema.h"
#include "values/number_text.h"
#include "values/type.h"

namespace torchlet::jit {

namespace {

// Enum spellings torch accepts for int-typed defaults, with their c10 values; all but
// the reductions are also attributes of the torch module (torch_enum_attribute).
struct EnumConstant {
  std::string_view name;
  int64_t value;
};
constexpr EnumConstant kEnumConstants[] = {
    {"Mean", 1},                  // at::Reduction::Mean
    {"Sum", 2},                   // at::Reduction::Sum
    {"contiguous_format", 0},     // MemoryFormat::Contiguous
    {"legacy_contiguous_format", 0},
    {"preserve_format", 1},       // MemoryFormat::Preserve
    {"channels_last", 2},         // MemoryFormat::ChannelsLast
    {"channels_last_3d", 3},      // MemoryFormat::ChannelsLast3d
    {"strided", 0},               // Layout::Strided
    {"sparse_coo", 1},            // Layout::Sparse
    {"per_tensor_affine", 0},     // QScheme
    {"per_channel_affine", 1},
    {"per_tensor_symmetric", 2},
    {"per_channel_symmetric", 3},
    {"per_channel_affine_float_qparams", 4},
};

// A literal before it meets its type.
struct Lit {
  enum class Kind { None, Bool, Int, Float, Str, Ident, List } kind = Kind::None;
  bool b = false;
  int64_t i = 0;
  double d = 0;
  std::string s;
  std::vector<Lit> items;
};

class DefaultParser {
 public:
  explicit DefaultParser(std::string_view s) : s_(s) {}
  Lit parse() {
    Lit l = value();
    skip();
    if (pos_ != s_.size()) fail("unexpected text after the default");
    return l;
  }
  [[noreturn]] void fail(const std::string& what) const {
    TL_FAIL(CompileError, "schema default '{}': {}", s_, what);
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
  Lit value() {
    skip();
    if (pos_ >= s_.size()) fail("expected a value");
    char c = s_[pos_];
    Lit l;
    if (c == '[') {
      ++pos_;
      l.kind = Lit::Kind::List;
      if (accept(']')) return l;
      do {
        l.items.push_back(value());
      } while (accept(','));
      if (!accept(']')) fail("expected ']'");
      return l;
    }
    if (c == '"' || c == '\'') return string(c);
    if (c == '-' || ascii_digit(c)) return number();
    size_t start = pos_;
    while (pos_ < s_.size() && ascii_word(s_[pos_])) ++pos_;
    std::string w(s_.substr(start, pos_ - start));
    if (w.empty()) fail("expected a value");
    if (w == "None") return l;
    if (w == "True" || w == "False") {
      l.kind = Lit::Kind::Bool;
      l.b = w == "True";
      return l;
    }
    if (w == "inf" || w == "nan") {
      l.kind = Lit::Kind::Float;
      l.d = w == "inf" ? std::numeric_limits<double>::infinity() : std::nan("");
      return l;
    }
    l.kind = Lit::Kind::Ident;
    l.s = std::move(w);
    return l;
  }
  Lit number() {
    const NumberText n = scan_number(s_, pos_);
    if (!n.ok) fail(fmt::format("bad number '{}'", n.text));
    Lit l;
    if (n.is_float) {
      l.kind = Lit::Kind::Float;
      l.d = n.d;
    } else {
      l.kind = Lit::Kind::Int;
      l.i = n.i;
    }
    return l;
  }
  Lit string(char quote) {
    ++pos_;
    Lit l;
    l.kind = Lit::Kind::Str;
    while (true) {
      if (pos_ >= s_.size()) fail("unterminated string");
      char c = s_[pos_++];
      if (c == quote) return l;
      if (c != '\\') {
        l.s += c;
        continue;
      }
      if (pos_ >= s_.size()) fail("unterminated string");
      char e = s_[pos_++];
      switch (e) {
        case 'n': l.s += '\n'; break;
        case 't': l.s += '\t'; break;
        case 'r': l.s += '\r'; break;
        case 'f': l.s += '\f'; break;
        case 'v': l.s += '\v'; break;
        case 'a': l.s += '\a'; break;
        case 'b': l.s += '\b'; break;
        default: l.s += e;  // \\ \" \'
      }
    }
  }

  std::string_view s_;
  size_t pos_ = 0;
};

int64_t enum_constant(const DefaultParser& p, const std::string& name) {
  for (const auto& e : kEnumConstants) {
    if (e.name == name) return e.value;
  }
  if (auto d = dtype_from_name(name)) return static_cast<int64_t>(*d);  // ScalarType by c10 index
  p.fail(fmt::format("unknown constant '{}'", name));
}

}  // namespace

std::optional<int64_t> torch_enum_attribute(std::string_view name) {
  if (name == "Mean" || name == "Sum") return std::nullopt;
  for (const auto& e : kEnumConstants) {
    if (e.name == name) return e.value;
  }
  return std::nullopt;
}

namespace {

IValue convert(const DefaultParser& p, const Lit& l, const TypePtr& t, std::optional<int64_t> fixed_size) {
  auto mismatch = [&]() -> IValue { p.fail(fmt::format("does not fit type {}", t->str())); };
  switch (t->kind()) {
    case TypeKind::Optional:
      if (l.kind == Lit::Kind::None) return IValue();
      return convert(p, l, t->contained()[0], fixed_size);
    case TypeKind::Int:
      if (l.kind == Lit::Kind::Int) return IValue(l.i);
      if (l.kind == Lit::Kind::Ident) return IValue(enum_constant(p, l.s));
      return mismatch();
    case TypeKind::Float:
      if (l.kind == Lit::Kind::Float) return IValue(l.d);
      if (l.kind == Lit::Kind::Int) return IValue(static_cast<double>(l.i));
      return mismatch();
    case TypeKind::Number:
      if (l.kind == Lit::Kind::Float) return IValue(l.d);
      if (l.kind == Lit::Kind::Int) return IValue(l.i);
      if (l.kind == Lit::Kind::Bool) return IValue(l.b);
      return mismatch();
    case TypeKind::Bool:
      if (l.kind == Lit::Kind::Bool) return IValue(l.b);
      return mismatch();
    case TypeKind::Str:
      if (l.kind == Lit::Kind::Str) return IValue(l.s);
      return mismatch();
    case TypeKind::Device:
      if (l.kind == Lit::Kind::Str) return IValue(Device::parse(l.s));
      return mismatch();
    case TypeKind::List: {
      const TypePtr& elem = t->contained()[0];
      std::vector<IValue> items;
      if (l.kind == Lit::Kind::List) {
        for (const Lit& e : l.items) items.push_back(convert(p, e, elem, std::nullopt));
      } else if (fixed_size && l.kind != Lit::Kind::None) {
        // int[2] stride=1 means [1, 1].
        IValue one = convert(p, l, elem, std::nullopt);
        items.assign(static_cast<size_t>(*fixed_size), one);
      } else {
        return mismatch();
      }
      return IValue::list(std::move(items), elem);
    }
    case TypeKind::Any:
    case TypeKind::Var:
    case TypeKind::Tensor:
      if (l.kind == Lit::Kind::None) return IValue();
      return mismatch();
    case TypeKind::Enum:
    case TypeKind::AnyEnum:
    case TypeKind::Storage:
    case TypeKind::Tuple:
    case TypeKind::Dict:
    case TypeKind::Complex:
    case TypeKind::Future:
    case TypeKind::RRef:
    case TypeKind::None:
    case TypeKind::Generator:
    case TypeKind::Quantizer:
    case TypeKind::Stream:
    case TypeKind::Function:
    case TypeKind::Class:
    case TypeKind::Capsule:
    case TypeKind::Interface:
    case TypeKind::QScheme:
    case TypeKind::AnyList:
    case TypeKind::AnyTuple:
    case TypeKind::AnyClass:
    case TypeKind::Union:
      if (l.kind == Lit::Kind::None) return IValue();
      return mismatch();
  }
  return mismatch();
}

}  // namespace

std::optional<IValue> default_value(const SchemaArgument& arg) {
  if (!arg.default_text) return std::nullopt;
  DefaultParser p(*arg.default_text);
  Lit l = p.parse();
  // A fixed-size list may sit under an Optional: int[2]? x=1.
  const SchemaType* st = arg.type.get();
  while (st->kind == SchemaType::Kind::Optional) st = st->contained[0].get();
  std::optional<int64_t> fixed;
  if (st->kind == SchemaType::Kind::List && st->fixed_size) fixed = *st->fixed_size;
  return convert(p, l, type_from_schema(*arg.type), fixed);
}

}  // namespace torchlet::jit

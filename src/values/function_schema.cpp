// The schema parser and printer (see function_schema.h). Grammar, as torch writes it:
//   schema    := qualname ['.' overload] '(' [param {',' param}] ')' '->' returns
//   param     := '*' | '...' | type [ident] ['=' default]
//   returns   := '...' | type | '(' [ret {',' ret}] ')'      ret := type [ident]
//   type      := base {alias | '[' [int] ']' | '?'}
//   base      := qualname | ('Dict'|'Future'|'RRef') '(' type {',' type} ')' | '(' types ')'
//   alias     := '(' set ['!'] [' -> ' set] ')'              set := ident {'|' ident} | '*'
#include "values/function_schema.h"

#include <fmt/format.h>
#include <torchlet/error.h>

#include "core/ascii.h"

namespace torchlet::jit {

namespace {

class SchemaParser {
 public:
  explicit SchemaParser(std::string_view text) : s_(text) {}

  FunctionSchema parse() {
    FunctionSchema f;
    f.name = qualified_name();
    if (accept('.')) f.overload = identifier("overload name");
    expect('(');
    bool kwarg_only = false;
    if (!accept(')')) {
      do {
        skip_space();
        if (accept_text("...")) {
          f.is_vararg = true;
          continue;
        }
        if (accept('*')) {
          kwarg_only = true;
          continue;
        }
        SchemaArgument a = argument(/*allow_default=*/true);
        a.kwarg_only = kwarg_only;
        f.arguments.push_back(std::move(a));
      } while (accept(','));
      expect(')');
    }
    skip_space();
    expect_text("->");
    skip_space();
    if (accept_text("...")) {
      f.is_varret = true;
    } else if (peek() == '(' && !looks_like_tuple_type()) {
      f.returns_tuple_syntax = true;
      expect('(');
      if (!accept(')')) {
        do {
          f.returns.push_back(argument(/*allow_default=*/false));
        } while (accept(','));
        expect(')');
      }
    } else {
      f.returns.push_back(argument(/*allow_default=*/false));
    }
    skip_space();
    if (pos_ != s_.size()) fail("unexpected text after the returns");
    return f;
  }

 private:
  // --- lexing helpers -------------------------------------------------------------
  char peek(size_t ahead = 0) const { return pos_ + ahead < s_.size() ? s_[pos_ + ahead] : '\0'; }
  void skip_space() {
    while (pos_ < s_.size() && s_[pos_] == ' ') ++pos_;
  }
  bool accept(char c) {
    skip_space();
    if (peek() != c) return false;
    ++pos_;
    return true;
  }
  bool accept_text(std::string_view t) {
    if (s_.substr(pos_, t.size()) != t) return false;
    pos_ += t.size();
    return true;
  }
  void expect(char c) {
    if (!accept(c)) fail(fmt::format("expected '{}'", c));
  }
  void expect_text(std::string_view t) {
    if (!accept_text(t)) fail(fmt::format("expected '{}'", t));
  }
  [[noreturn]] void fail(const std::string& what) const {
    TL_FAIL(CompileError, "schema: {} at column {}:\n{}\n{}^", what, pos_, s_, std::string(pos_, ' '));
  }
    std::string identifier(const char* what) {
    skip_space();
    size_t start = pos_;
    while (pos_ < s_.size() && ascii_word(s_[pos_])) ++pos_;
    if (start == pos_) fail(fmt::format("expected {}", what));
    return std::string(s_.substr(start, pos_ - start));
  }
  // ns::name, or a dotted type name (__torch__.torch.classes.x.Y)
  std::string qualified_name() {
    std::string n = identifier("a name");
    while (true) {
      if (accept_text("::")) {
        n += "::" + identifier("a name");
      } else if (peek() == '.' && ascii_word(peek(1)) && n.find("::") == std::string::npos) {
        ++pos_;
        n += "." + identifier("a name");
      } else {
        return n;
      }
    }
  }
  // In returns, "(" opens either the return list or a tuple type "(int, int) name";
  // torch only writes the latter as an argument type, so "(" here is the list.
  bool looks_like_tuple_type() const { return false; }

  // --- grammar --------------------------------------------------------------------------
  SchemaArgument argument(bool allow_default) {
    SchemaArgument a;
    a.type = type();
    skip_space();
    if (ascii_word(peek())) a.name = identifier("argument name");
    skip_space();
    if (allow_default && accept('=')) a.default_text = default_value();
    return a;
  }

  std::shared_ptr<SchemaType> type() {
    skip_space();
    auto t = std::make_shared<SchemaType>();
    if (peek() == '(') {  // tuple type
      ++pos_;
      t->kind = SchemaType::Kind::Tuple;
      if (!accept(')')) {
        do {
          t->contained.push_back(type());
        } while (accept(','));
        expect(')');
      }
    } else {
      std::string n = qualified_name();
      if ((n == "Dict" || n == "Future" || n == "RRef") && peek() == '(') {
        t->kind = n == "Dict" ? SchemaType::Kind::Dict : n == "Future" ? SchemaType::Kind::Future
                                                                        : SchemaType::Kind::RRef;
        expect('(');
        do {
          t->contained.push_back(type());
        } while (accept(','));
        expect(')');
      } else {
        t->name = std::move(n);
      }
    }
    // Suffixes apply left to right: Tensor?[] is a list of optionals; an alias
    // annotation binds to what precedes it: Tensor(a!)[] vs t[](a!).
    while (true) {
      if (peek() == '(') {
        if (t->alias) fail("two alias annotations on one type");
        t->alias = alias();
      } else if (peek() == '[') {
        ++pos_;
        auto list = std::make_shared<SchemaType>();
        list->kind = SchemaType::Kind::List;
        list->contained.push_back(t);
        if (ascii_digit(peek())) {
          size_t start = pos_;
          while (ascii_digit(peek())) ++pos_;
          list->fixed_size = std::stoll(std::string(s_.substr(start, pos_ - start)));
        }
        expect(']');
        t = list;
      } else if (peek() == '?') {
        ++pos_;
        auto opt = std::make_shared<SchemaType>();
        opt->kind = SchemaType::Kind::Optional;
        opt->contained.push_back(t);
        t = opt;
      } else {
        return t;
      }
    }
  }

  AliasAnnotation alias() {
    expect('(');
    AliasAnnotation a;
    auto set = [&](std::vector<std::string>& out) {
      do {
        skip_space();
        if (accept('*')) out.push_back("*");
        else out.push_back(identifier("alias set"));
      } while (accept('|'));
    };
    set(a.before);
    if (accept('!')) a.is_write = true;
    skip_space();
    if (accept_text("->")) set(a.after);
    expect(')');
    return a;
  }

  // A default as written: up to the next ',' or ')' outside brackets and strings.
  std::string default_value() {
    skip_space();
    size_t start = pos_;
    int depth = 0;
    while (pos_ < s_.size()) {
      char c = s_[pos_];
      if (c == '"' || c == '\'') {
        char q = c;
        ++pos_;
        while (pos_ < s_.size() && s_[pos_] != q) pos_ += s_[pos_] == '\\' ? 2 : 1;
        if (pos_ >= s_.size()) fail("unterminated string default");
        ++pos_;
        continue;
      }
      if (c == '[' || c == '(') ++depth;
      if ((c == ']' || c == ')') && depth-- == 0) break;
      if (c == ',' && depth == 0) break;
      ++pos_;
    }
    if (start == pos_) fail("expected a default value");
    return std::string(s_.substr(start, pos_ - start));
  }

  std::string_view s_;
  size_t pos_ = 0;
};

std::string join(const std::vector<std::string>& v, const char* sep) {
  std::string out;
  for (size_t i = 0; i < v.size(); ++i) out += (i ? sep : "") + v[i];
  return out;
}

std::string argument_str(const SchemaArgument& a) {
  std::string out = a.type->str();
  if (!a.name.empty()) out += " " + a.name;
  if (a.default_text) out += "=" + *a.default_text;
  return out;
}

}  // namespace

std::string AliasAnnotation::str() const {
  std::string out = "(" + join(before, "|");
  if (is_write) out += "!";
  if (!after.empty()) out += " -> " + join(after, "|");
  return out + ")";
}

std::string SchemaType::str() const {
  std::string core = core_str();
  return alias ? core + alias->str() : core;
}

std::string SchemaType::core_str() const {
  switch (kind) {
    case Kind::Name:
      return name;
    case Kind::List:
      return contained[0]->str() + "[" + (fixed_size ? std::to_string(*fixed_size) : "") + "]";
    case Kind::Optional:
      return contained[0]->str() + "?";
    case Kind::Dict:
    case Kind::Tuple:
    case Kind::Future:
    case Kind::RRef: {
      std::vector<std::string> parts;
      for (const auto& c : contained) parts.push_back(c->str());
      const char* head = kind == Kind::Dict ? "Dict" : kind == Kind::Future ? "Future"
                         : kind == Kind::RRef ? "RRef" : "";
      return std::string(head) + "(" + join(parts, ", ") + ")";
    }
  }
  return name;
}

std::string FunctionSchema::str() const {
  std::string out = name;
  if (!overload.empty()) out += "." + overload;
  out += "(";
  std::vector<std::string> args;
  bool star_written = false;
  for (const auto& a : arguments) {
    if (a.kwarg_only && !star_written) {
      args.push_back("*");
      star_written = true;
    }
    args.push_back(argument_str(a));
  }
  if (is_vararg) args.push_back("...");
  out += join(args, ", ") + ") -> ";
  if (is_varret) return out + "...";
  std::vector<std::string> rets;
  for (const auto& r : returns) rets.push_back(argument_str(r));
  // As torch prints: a single return whose spelling starts with '(' (a tuple, a list of
  // tuples) is parenthesised too, so it cannot read as a list of returns.
  if (returns_tuple_syntax || returns.size() != 1 || rets[0].front() == '(') return out + "(" + join(rets, ", ") + ")";
  return out + rets[0];
}

FunctionSchema parse_schema(std::string_view text) { return SchemaParser(text).parse(); }

}  // namespace torchlet::jit

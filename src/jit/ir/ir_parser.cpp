// The IR text parser (see ir_parser.h). Grammar, whitespace-insensitive, `#` comments
// to the end of a line (a `# file:line:col` comment gives the preceding node its
// source location):
//   graph   := 'graph' '(' [def {',' def}] ')' ':' stmts 'return' '(' [refs] ')'
//              {'with' kind '=' graph}
//   stmts   := {[[def {',' def}] '='] kind [attrs] '(' [refs] ')' {block}}
//              (a node without outputs may omit the '=', as torch's parser wants it)
//   block   := 'block' N '(' [def {',' def}] ')' ':' stmts '->' '(' [refs] ')'
//   def     := '%' name [':' type]          refs := '%' name {',' '%' name}
//   attrs   := '[' ident '=' literal {',' ident '=' literal} ']'
//   literal := int | float | inf | nan | string | '[' [literal {',' literal}] ']'
//            | '(' literals ')' | '{' number '}' | '<Tensor>' | True | False | None
//            | dotted name (an enum member, or a type in types=[...])
#include "jit/ir/ir_parser.h"

#include <charconv>
#include <cmath>
#include <limits>
#include <map>

#include <fmt/format.h>
#include <torchlet/error.h>

#include "core/ascii.h"
#include "values/number_text.h"

namespace torchlet::jit {

namespace {

const Symbol kSubgraph = sym::attr_Subgraph;

// Numeric value names become value ids; more digits than this cannot be a real
// graph's and would overflow the id counter.
constexpr size_t kMaxIdDigits = 9;
// Bounds on `# file:line:col` locations, and on the bytes their placeholder sources take
// in all (each holds `col` spaces so that the column is inside it).
constexpr size_t kMaxCommentColumn = 1 << 16;
constexpr size_t kMaxCommentLine = size_t{1} << 31;
constexpr size_t kMaxLocationBytes = size_t{16} << 20;
// Blocks and `with` subgraphs nested inside one another, and list/tuple/tensor literals
// in attribute values. Parsing, lint, printing and emission recurse once per level;
// graphs compiled from source stay within the source parser's 200, and 2000 block levels
// (40 KB of text unindented) overflowed the stack in lint, 7000 `[` in one attribute
// value the parser itself.
constexpr size_t kMaxBlockNesting = 256;


}  // namespace

class IRParser {
 public:
  IRParser(std::string_view text, const TypeResolver& resolve, std::unordered_map<std::string, Value*>* values)
      : src_(std::make_shared<Source>(std::string(text), "<ir>")), s_(src_->text()), user_resolve_(resolve),
        values_out_(values) {
    resolve_ = [this](std::string_view name) -> TypePtr {
      if (user_resolve_) {
        if (TypePtr t = user_resolve_(name)) return t;
      }
      // One name-only class per name, so values of one class share a type.
      auto it = classes_.find(std::string(name));
      if (it != classes_.end()) return it->second;
      if (name.find('.') == std::string_view::npos) return nullptr;
      TypePtr t = Type::class_named(std::string(name));
      classes_.emplace(std::string(name), t);
      return t;
    };
  }

  GraphPtr parse() {
    GraphPtr g = std::make_shared<Graph>();
    parse_graph(*g);
    skip();
    if (pos_ != s_.size()) fail("unexpected text after the graph");
    return g;
  }

 private:
  // --- lexing -----------------------------------------------------------------------------
  void skip() {
    while (pos_ < s_.size()) {
      char c = s_[pos_];
      if (c == ' ' || c == '\n' || c == '\t' || c == '\r') {
        ++pos_;
      } else if (c == '#') {
        size_t end = s_.find('\n', pos_);
        if (end == std::string_view::npos) end = s_.size();
        comment(s_.substr(pos_ + 1, end - pos_ - 1));
        pos_ = end;
      } else {
        return;
      }
    }
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
  bool accept_word(std::string_view w) {
    skip();
    if (s_.substr(pos_, w.size()) != w) return false;
    if (pos_ + w.size() < s_.size() && ascii_word(s_[pos_ + w.size()])) return false;
    pos_ += w.size();
    return true;
  }
  void expect(char c) {
    if (!accept(c)) fail(fmt::format("expected '{}'", c));
  }
  void expect_word(std::string_view w) {
    if (!accept_word(w)) fail(fmt::format("expected '{}'", w));
  }
  [[noreturn]] void fail(const std::string& what) const {
    size_t at = std::min(pos_, s_.size());
    size_t line = src_->line_index(at);
    SourceRange r(src_, at, std::min(at + 1, s_.size()));
    TL_FAIL(CompileError, "IR text: {} at line {}:\n{}", what, line + 1, r.str());
  }
  // [A-Za-z0-9_.]+ (value names like x.1, 5, _0.13; dotted type names)
  std::string word(const char* what) {
    skip();
    size_t start = pos_;
    while (pos_ < s_.size() && (ascii_word(s_[pos_]) || s_[pos_] == '.')) ++pos_;
    if (start == pos_) fail(fmt::format("expected {}", what));
    return std::string(s_.substr(start, pos_ - start));
  }
  // `# path:line:col`: the location of the node just parsed.
  void comment(std::string_view text) {
    if (!last_node_) return;
    while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
    size_t c2 = text.rfind(':');
    if (c2 == std::string_view::npos || c2 == 0) return;
    size_t c1 = text.rfind(':', c2 - 1);
    if (c1 == std::string_view::npos) return;
    std::string_view line = text.substr(c1 + 1, c2 - c1 - 1), col = text.substr(c2 + 1);
    auto digits = [](std::string_view d) {
      return !d.empty() && d.find_first_not_of("0123456789") == std::string_view::npos;
    };
    if (!digits(line) || !digits(col)) return;
    // Locations are debug information: one that does not fit the budget is dropped, not
    // an error (a hostile "# f:1:99999999999" neither throws nor allocates gigabytes).
    size_t column = 0, line_no = 0;
    if (std::from_chars(col.data(), col.data() + col.size(), column).ec != std::errc() ||
        std::from_chars(line.data(), line.data() + line.size(), line_no).ec != std::errc() ||
        column > kMaxCommentColumn || line_no > kMaxCommentLine)
      return;
    // A one-line Source placed at that line, so file_line_col() reads the comment back.
    auto key = std::string(text);
    auto it = locations_.find(key);
    if (it == locations_.end()) {
      if (location_bytes_ + column + 1 > kMaxLocationBytes) return;
      location_bytes_ += column + 1;
      auto src = std::make_shared<Source>(std::string(column + 1, ' '), std::string(text.substr(0, c1)), line_no);
      it = locations_.emplace(key, std::move(src)).first;
    }
    last_node_->set_source_range(SourceRange(it->second, column, column + 1));
    last_node_ = nullptr;
  }

  // --- values -------------------------------------------------------------------------------
  // Numeric names keep their numbers as the values' ids, so reprinting gives %5 again.
  void name_value(Value* v, const std::string& name) {
    if (names_.count(name)) fail(fmt::format("%{} defined twice", name));
    if (name.find_first_not_of("0123456789") == std::string::npos) {
      if (name.size() > kMaxIdDigits) fail(fmt::format("value id %{} is too large", name));
      v->unique_ = std::stoull(name);
    } else {
      v->set_debug_name(name);
    }
    names_[name] = v;
    if (values_out_) (*values_out_)[name] = v;
  }
  // Type text runs to a ',' ')' or '=' outside brackets.
  TypePtr type() {
    skip();
    size_t start = pos_;
    int depth = 0;
    while (pos_ < s_.size()) {
      char c = s_[pos_];
      if (c == '(' || c == '[' || c == '<') ++depth;
      if (c == ')' || c == ']' || c == '>') {
        if (depth == 0) break;
        --depth;
      }
      if (depth == 0 && (c == ',' || c == '=' || c == '\n')) break;
      ++pos_;
    }
    std::string_view text = s_.substr(start, pos_ - start);
    while (!text.empty() && text.back() == ' ') text.remove_suffix(1);
    try {
      return parse_graph_type(text, resolve_);
    } catch (const CompileError& e) {
      pos_ = start;
      fail(e.what());
    }
  }
  // def := '%' name [':' type]
  struct Def {
    std::string name;
    TypePtr type;
  };
  Def def() {
    expect('%');
    Def d{word("a value name"), Type::tensor()};
    if (accept(':')) d.type = type();
    return d;
  }
  std::vector<Def> defs_until(char close) {
    std::vector<Def> out;
    if (peek() == close) return out;
    do {
      out.push_back(def());
    } while (accept(','));
    return out;
  }
  Value* ref() {
    expect('%');
    std::string n = word("a value name");
    auto it = names_.find(n);
    if (it == names_.end()) fail(fmt::format("%{} is used before it is defined", n));
    return it->second;
  }
  std::vector<Value*> refs_in_parens() {
    std::vector<Value*> out;
    expect('(');
    if (accept(')')) return out;
    do {
      out.push_back(ref());
    } while (accept(','));
    expect(')');
    return out;
  }

  // --- structure ------------------------------------------------------------------------------
  void parse_graph(Graph& g) {
    // Ids below every numeric name in the text stay free for those names.
    reserve_numeric_ids(g);
    expect_word("graph");
    expect('(');
    for (const Def& d : defs_until(')')) name_value(g.add_input()->set_type(d.type), d.name);
    expect(')');
    expect(':');
    stmts(g, g.block());
    expect_word("return");
    for (Value* v : refs_in_parens()) g.register_output(v);
    last_node_ = nullptr;
    while (accept_word("with")) with_section();
  }

  void reserve_numeric_ids(Graph& g) {
    size_t max_id = 0;
    bool any = false;
    for (size_t i = s_.find('%'); i != std::string_view::npos; i = s_.find('%', i + 1)) {
      size_t j = i + 1;
      while (j < s_.size() && ascii_digit(s_[j])) ++j;
      if (j == i + 1 || j - i - 1 > kMaxIdDigits || (j < s_.size() && (ascii_word(s_[j]) || s_[j] == '.'))) continue;
      max_id = std::max<size_t>(max_id, std::stoull(std::string(s_.substr(i + 1, j - i - 1))));
      any = true;
    }
    if (any) g.next_unique_ = std::max(g.next_unique_, max_id + 1);
  }

  // `with prim::fork_0 = graph(...)`: the subgraph of the node printed as prim::fork_0.
  void with_section() {
    std::string group = kind_text();
    auto it = groups_.find(group);
    if (it == groups_.end()) fail(fmt::format("no node is named {}", group));
    // Claimed before the subgraph is parsed: a node of the same name inside it must not
    // take its place, or the subgraph would end up owning itself (a leaked cycle).
    Node* n = it->second;
    groups_.erase(it);
    expect('=');
    auto saved_names = std::move(names_);
    names_.clear();
    auto sub = std::make_shared<Graph>();
    nested("subgraph", [&] { parse_graph(*sub); });
    names_ = std::move(saved_names);
    n->kind_ = Symbol::from_qual_string(group.substr(0, group.rfind('_')));
    n->attrs_.insert(n->attrs_.begin(), Node::Attr{kSubgraph, Node::AttrValue(std::in_place_index<static_cast<size_t>(AttributeKind::g)>, sub)});
  }

  std::string kind_text() {
    std::string ns = word("an operator namespace");
    if (!(pos_ + 1 < s_.size() && s_[pos_] == ':' && s_[pos_ + 1] == ':')) fail("expected '::' in the node kind");
    pos_ += 2;
    size_t start = pos_;
    while (pos_ < s_.size() && (ascii_word(s_[pos_]) || s_[pos_] == '.')) ++pos_;
    if (start == pos_) fail("expected an operator name");
    return ns + "::" + std::string(s_.substr(start, pos_ - start));
  }

  // stmts until '->' or 'return'
  void stmts(Graph& g, Block* b) {
    while (true) {
      char c = peek();
      if (c == '-' || (c == 'r' && s_.substr(pos_, 6) == "return")) return;
      if (c != '%' && c != '=' && !ascii_word(c)) fail("expected a statement, '->' or 'return'");
      statement(g, b);
    }
  }

  void statement(Graph& g, Block* b) {
    std::vector<Def> outs;
    if (peek() == '%' || peek() == '=') {
      outs = defs_until('=');
      expect('=');
    }
    std::string kind = kind_text();
    Node* n = g.create(Symbol::from_qual_string(kind), 0);
    for (const Def& d : outs) n->add_output()->set_type(d.type);
    if (peek() == '[') attributes(n);
    for (Value* v : refs_in_parens()) n->add_input(v);
    // `, scope: __module.conv1`: the module a traced node came from.
    // (Looked for on this line only: skip() would read the next `#` location comment
    // before this node is the one it belongs to.)
    size_t comma = pos_;
    while (comma < s_.size() && s_[comma] == ' ') ++comma;
    if (comma < s_.size() && s_[comma] == ',') {
      pos_ = comma + 1;
      expect_word("scope");
      expect(':');
      while (pos_ < s_.size() && s_[pos_] == ' ') ++pos_;
      const size_t start = pos_;
      while (pos_ < s_.size() && s_[pos_] != '\n' && s_[pos_] != '#') ++pos_;
      size_t end = pos_;
      while (end > start && s_[end - 1] == ' ') --end;
      n->set_s(sym::attr_scope, std::string(s_.substr(start, end - start)));
    }
    b->append_node(n);
    // Outputs are named after the inputs so `%x = f(%x)`-style errors are caught.
    for (size_t i = 0; i < outs.size(); ++i) name_value(n->output(i), outs[i].name);
    if (kind.find('_') != std::string::npos) groups_[kind] = n;  // maybe prim::fork_0
    last_node_ = n;
    while (accept_word("block0") || (peek() == 'b' && accept_block_word())) block(g, n);
  }
  bool accept_block_word() {
    size_t save = pos_;
    if (s_.substr(pos_, 5) != "block") return false;
    pos_ += 5;
    size_t start = pos_;
    while (pos_ < s_.size() && ascii_digit(s_[pos_])) ++pos_;
    if (pos_ == start) {
      pos_ = save;
      return false;
    }
    return true;
  }

  // One level of nesting (block, subgraph or attribute literal) while `body` parses it.
  template <typename F>
  void nested(const char* what, const F& body) {
    if (nesting_ >= kMaxBlockNesting)
      TL_FAIL(LimitError, "IR text: {} nested deeper than {} levels at line {}", what, kMaxBlockNesting,
              src_->line_index(std::min(pos_, s_.size())) + 1);
    ++nesting_;
    body();
    --nesting_;
  }

  void block(Graph& g, Node* owner) {
    nested("block", [&] { block_body(g, owner); });
  }
  void block_body(Graph& g, Node* owner) {
    last_node_ = nullptr;
    Block* b = owner->add_block();
    expect('(');
    for (const Def& d : defs_until(')')) name_value(b->add_input()->set_type(d.type), d.name);
    expect(')');
    expect(':');
    stmts(g, b);
    expect('-');
    expect('>');
    for (Value* v : refs_in_parens()) b->register_output(v);
    last_node_ = nullptr;
  }

  // --- attributes ---------------------------------------------------------------------------
  void attributes(Node* n) {
    expect('[');
    do {
      std::string name = word("an attribute name");
      expect('=');
      attribute(n, Symbol::from_qual_string("attr::" + name));
    } while (accept(','));
    expect(']');
  }

  // A literal, with what the text said about it (for choosing the attribute kind).
  struct Literal {
    IValue value;
    bool is_float = false;   // written with '.', 'e', inf or nan
    bool is_type = false;    // a bare name that parsed as a type
    TypePtr type;
    bool is_tensor = false;
    std::vector<Literal> items;  // for lists
    bool is_list = false;
  };

  Literal literal() {
    const char c = peek();
    if (c != '[' && c != '(' && c != '{') return literal_body();
    Literal l;
    nested("attribute value", [&] { l = literal_body(); });
    return l;
  }
  Literal literal_body() {
    char c = peek();
    Literal l;
    if (c == '"') {
      l.value = IValue(string_literal());
      return l;
    }
    if (c == '[') {
      ++pos_;
      l.is_list = true;
      if (!accept(']')) {
        do {
          l.items.push_back(literal());
        } while (accept(','));
        expect(']');
      }
      return l;
    }
    if (c == '(') {
      ++pos_;
      std::vector<IValue> elems;
      if (!accept(')')) {
        do {
          elems.push_back(literal().value);
        } while (accept(',') && peek() != ')');
        expect(')');
      }
      l.value = IValue::tuple(std::move(elems));
      return l;
    }
    if (c == '{') {  // a one-element tensor, printed as {value}
      ++pos_;
      Literal inner = literal();
      expect('}');
      l.is_tensor = true;
      l.value = IValue(inner.is_float ? scalar_tensor(Scalar(inner.value.toDouble()))
                                      : scalar_tensor(Scalar(inner.value.toInt()), DType::Long));
      return l;
    }
    if (c == '<') {  // <Tensor>: the printer elides tensors with more than one element
      expect('<');
      expect_word("Tensor");
      expect('>');
      l.is_tensor = true;
      l.value = IValue(empty({0}));
      return l;
    }
    if (c == '-' || c == '.' || ascii_digit(c)) return number();
    std::string w = word("a literal");
    if (w == "True" || w == "False") {
      l.value = IValue(w == "True");
      return l;
    }
    if (w == "None") return l;
    if (w == "inf" || w == "nan") {
      l.is_float = true;
      l.value = IValue(w == "inf" ? std::numeric_limits<double>::infinity() : std::nan(""));
      return l;
    }
    // A type (types=[int], types=[Dict(str, int)], types=[int[]]) or an enum member
    // (__torch__.Color.RED). A type constructor's arguments and suffixes belong to it.
    if (pos_ < s_.size() && s_[pos_] == '(') {
      const size_t open = pos_;
      int depth = 0;
      do {
        if (s_[pos_] == '(') ++depth;
        else if (s_[pos_] == ')') --depth;
        ++pos_;
      } while (pos_ < s_.size() && depth > 0);
      if (depth != 0) fail("unbalanced '(' in a type");
      w += s_.substr(open, pos_ - open);
    }
    while (pos_ < s_.size() && (s_[pos_] == '?' || s_.substr(pos_, 2) == "[]")) {
      w += s_[pos_] == '?' ? "?" : "[]";
      pos_ += s_[pos_] == '?' ? 1 : 2;
    }
    l.is_type = true;
    l.value = IValue(w);
    try {
      l.type = parse_graph_type(w, resolve_);
    } catch (const CompileError&) {
      l.type = nullptr;
    }
    return l;
  }

  Literal number() {
    const size_t start = pos_;
    const NumberText n = scan_number(s_, pos_);
    if (!n.ok) {
      pos_ = start;
      fail(fmt::format("bad number '{}'", n.text));
    }
    Literal l;
    l.is_float = n.is_float;
    l.value = n.is_float ? IValue(n.d) : IValue(n.i);
    return l;
  }

  // A double-quoted string with c10::printQuotedString's escapes.
  std::string string_literal() {
    expect('"');
    std::string out;
    while (true) {
      if (pos_ >= s_.size()) fail("unterminated string");
      char c = s_[pos_++];
      if (c == '"') return out;
      if (c != '\\') {
        out += c;
        continue;
      }
      if (pos_ >= s_.size()) fail("unterminated string");
      char e = s_[pos_++];
      switch (e) {
        case 'n': out += '\n'; break;
        case 't': out += '\t'; break;
        case 'r': out += '\r'; break;
        case 'a': out += '\a'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'v': out += '\v'; break;
        case '\\':
        case '\'':
        case '"': out += e; break;
        default: {
          if (e < '0' || e > '7' || pos_ + 1 >= s_.size()) fail("bad escape in string");
          int v = (e - '0') * 64 + (s_[pos_] - '0') * 8 + (s_[pos_ + 1] - '0');
          pos_ += 2;
          out += static_cast<char>(v);
        }
      }
    }
  }

  // Chooses the attribute kind as torch would have stored it.
  void attribute(Node* n, Symbol name) {
    Literal l = literal();
    bool constant = n->kind() == sym::prim_Constant && n->outputs().size() == 1;
    TypePtr out_type = constant ? n->output()->type() : nullptr;
    if (l.is_list) {
      list_attribute(n, name, l, out_type);
      return;
    }
    if (l.is_tensor) {
      n->set_t(name, l.value.toTensor());
      return;
    }
    if (l.is_type) {
      if (out_type && out_type->kind() == TypeKind::Enum) {
        const std::string& q = l.value.toStringRef();
        std::string member = q.substr(q.rfind('.') + 1);
        auto et = std::static_pointer_cast<const EnumType>(out_type);
        n->set_ival(name, IValue(make_intrusive<EnumImpl>(et, member, IValue())));
        return;
      }
      if (!l.type) fail(fmt::format("cannot read attribute value '{}'", l.value.toStringRef()));
      n->set_ty(name, l.type);
      return;
    }
    switch (l.value.tag()) {
      case IValueTag::Int: n->set_i(name, l.value.toInt()); return;
      case IValueTag::Double: n->set_f(name, l.value.toDouble()); return;
      case IValueTag::String: n->set_s(name, l.value.toStringRef()); return;
      case IValueTag::Bool:
      case IValueTag::None:
      case IValueTag::Tuple: n->set_ival(name, retype(l.value, out_type)); return;
      case IValueTag::Tensor:
      case IValueTag::Storage:
      case IValueTag::ComplexDouble:
      case IValueTag::BigInt:
      case IValueTag::Bytes:
      case IValueTag::List:
      case IValueTag::Dict:
      case IValueTag::Object:
      case IValueTag::PyObject:
      case IValueTag::Enum:
      case IValueTag::Future:
      case IValueTag::Device:
      case IValueTag::Uninitialized: break;
    }
    fail("unsupported attribute value");
  }

  // Constants of list type hold an IValue list typed by the output (torch's
  // insertConstant); other nodes' lists are is/fs/ss/tys by their elements.
  void list_attribute(Node* n, Symbol name, const Literal& l, const TypePtr& out_type) {
    bool all_int = true, all_num = true, all_str = true, all_type = true;
    for (const Literal& e : l.items) {
      if (e.is_list) fail("nested lists are not attribute values");
      all_int = all_int && e.value.isInt() && !e.is_float;
      all_num = all_num && (e.value.isInt() || e.value.isDouble());
      all_str = all_str && e.value.isString() && !e.is_type;
      all_type = all_type && e.is_type && e.type;
    }
    if (out_type && (out_type->kind() == TypeKind::List || out_type->kind() == TypeKind::Tuple)) {
      std::vector<IValue> elems;
      for (const Literal& e : l.items) elems.push_back(e.value);
      n->set_ival(name, retype(IValue::list(std::move(elems)), out_type));
      return;
    }
    if (l.items.empty() || all_int) {
      std::vector<int64_t> v;
      for (const Literal& e : l.items) v.push_back(e.value.toInt());
      n->set_is(name, std::move(v));
    } else if (all_num) {
      std::vector<double> v;
      for (const Literal& e : l.items) v.push_back(e.value.isInt() ? static_cast<double>(e.value.toInt()) : e.value.toDouble());
      n->set_fs(name, std::move(v));
    } else if (all_str) {
      std::vector<std::string> v;
      for (const Literal& e : l.items) v.push_back(e.value.toStringRef());
      n->set_ss(name, std::move(v));
    } else if (all_type) {
      std::vector<TypePtr> v;
      for (const Literal& e : l.items) v.push_back(e.type);
      n->set_tys(name, std::move(v));
    } else {
      std::vector<IValue> elems;
      for (const Literal& e : l.items) elems.push_back(e.value);
      n->set_ival(name, IValue::list(std::move(elems)));
    }
  }

  // Gives a parsed constant the type the output declares (ints in a float[] are
  // floats; lists record their element type).
  static IValue retype(const IValue& v, const TypePtr& t) {
    if (!t) return v;
    if (t->kind() == TypeKind::Float && v.isInt()) return IValue(static_cast<double>(v.toInt()));
    if (t->kind() == TypeKind::List && v.isList()) {
      std::vector<IValue> elems;
      for (const IValue& e : v.listRef().elements) elems.push_back(retype(e, t->contained()[0]));
      return IValue::list(std::move(elems), t->contained()[0]);
    }
    if (t->kind() == TypeKind::Tuple && v.isTuple() && v.tupleRef().elements.size() == t->contained().size()) {
      std::vector<IValue> elems;
      const auto& src = v.tupleRef().elements;
      for (size_t i = 0; i < src.size(); ++i) elems.push_back(retype(src[i], t->contained()[i]));
      return IValue::tuple(std::move(elems));
    }
    return v;
  }

  std::shared_ptr<const Source> src_;
  std::string_view s_;
  const TypeResolver& user_resolve_;
  TypeResolver resolve_;
  std::unordered_map<std::string, Value*>* values_out_;
  std::map<std::string, TypePtr> classes_;
  std::unordered_map<std::string, Value*> names_;
  std::unordered_map<std::string, Node*> groups_;
  std::unordered_map<std::string, std::shared_ptr<const Source>> locations_;
  size_t location_bytes_ = 0;  // the placeholder sources of locations_, in all
  Node* last_node_ = nullptr;
  size_t pos_ = 0;
  size_t nesting_ = 0;  // blocks and subgraphs open at pos_
};

GraphPtr parse_ir(std::string_view text, const TypeResolver& resolve, std::unordered_map<std::string, Value*>* values) {
  return IRParser(text, resolve, values).parse();
}

}  // namespace torchlet::jit

// The TorchScript parser (see parser.h): a precedence-climbing expression parser and
// a recursive-descent statement parser over the token vector. Nesting is counted by
// one guard (kMaxNestingDepth) so no input can exhaust the C++ stack.
#include "jit/frontend/parser.h"

#include <charconv>
#include <limits>
#include <unordered_map>
#include <unordered_set>

#include <fmt/format.h>

#include "jit/frontend/error_report.h"

namespace torchlet::jit {

namespace {

// Note [Precedence]
// Python's expression grammar, loosest first. parse_expr(p) parses an expression whose
// operators all bind at least as tightly as p. Left-associative binary operators parse
// their right operand at p + 1; `**` parses its right operand at kUnary (a u_expr), so
// it is right-associative and `2 ** -1` is valid, while a unary operator parses its
// operand at kUnary, so `-2 ** 2` is `-(2 ** 2)`. `not` parses its operand at kNot,
// below comparisons (`not a == b` is `not (a == b)`). A prefix operator is refused where
// a tighter-binding operand is required (`a == not b`), as Python refuses it.
enum Prec : int {
  kLowest = 0,
  kTernary = 1,  // a if c else b
  kOr = 2,       // or
  kAnd = 3,      // and
  kNot = 4,      // not x
  kCompare = 5,  // in, not in, is, is not, <, <=, >, >=, !=, ==  (chained)
  kBitOr = 6,    // |
  kBitXor = 7,   // ^
  kBitAnd = 8,   // &
  kShift = 9,    // <<, >>
  kArith = 10,   // +, -
  kTerm = 11,    // *, @, /, //, %
  kUnary = 12,   // -x, +x, ~x
  kPower = 13,   // **
};

struct BinaryOperator {
  TokenKind token;
  Prec prec;
};

// Binary operators (other than comparisons, `and`, `or`) and their precedence.
constexpr BinaryOperator kBinaryOperators[] = {
    {TokenKind::Pipe, kBitOr},       {TokenKind::Caret, kBitXor},      {TokenKind::Ampersand, kBitAnd},
    {TokenKind::LeftShift, kShift},  {TokenKind::RightShift, kShift},  {TokenKind::Plus, kArith},
    {TokenKind::Minus, kArith},      {TokenKind::Star, kTerm},         {TokenKind::At, kTerm},
    {TokenKind::Slash, kTerm},       {TokenKind::DoubleSlash, kTerm},  {TokenKind::Percent, kTerm},
    {TokenKind::DoubleStar, kPower},
};

// Augmented assignment tokens and the binary operator each applies.
constexpr std::pair<TokenKind, TokenKind> kAugmentedAssignments[] = {
    {TokenKind::PlusEqual, TokenKind::Plus},
    {TokenKind::MinusEqual, TokenKind::Minus},
    {TokenKind::StarEqual, TokenKind::Star},
    {TokenKind::SlashEqual, TokenKind::Slash},
    {TokenKind::DoubleSlashEqual, TokenKind::DoubleSlash},
    {TokenKind::PercentEqual, TokenKind::Percent},
    {TokenKind::DoubleStarEqual, TokenKind::DoubleStar},
    {TokenKind::AtEqual, TokenKind::At},
    {TokenKind::LeftShiftEqual, TokenKind::LeftShift},
    {TokenKind::RightShiftEqual, TokenKind::RightShift},
    {TokenKind::AmpersandEqual, TokenKind::Ampersand},
    {TokenKind::PipeEqual, TokenKind::Pipe},
    {TokenKind::CaretEqual, TokenKind::Caret},
};

constexpr uint64_t kInt64MinMagnitude = uint64_t{1} << 63;

std::optional<Prec> binary_precedence(TokenKind k) {
  for (const auto& op : kBinaryOperators) {
    if (op.token == k) return op.prec;
  }
  return std::nullopt;
}

std::optional<TokenKind> augmented_operator(TokenKind k) {
  for (const auto& [aug, op] : kAugmentedAssignments) {
    if (aug == k) return op;
  }
  return std::nullopt;
}

bool is_simple_comparison(TokenKind k) {
  return k == TokenKind::Less || k == TokenKind::Greater || k == TokenKind::LessEqual ||
         k == TokenKind::GreaterEqual || k == TokenKind::EqualEqual || k == TokenKind::NotEqual ||
         k == TokenKind::In || k == TokenKind::Is;
}

// Constructs TorchScript does not have, refused by name where their keyword appears.
constexpr std::pair<TokenKind, const char*> kRefusedConstructs[] = {
    {TokenKind::Global, "global statements are not supported in TorchScript"},
    {TokenKind::Nonlocal, "nonlocal statements are not supported in TorchScript"},
    {TokenKind::Lambda, "lambda expressions are not supported in TorchScript"},
    {TokenKind::Try, "try statements are not supported in TorchScript"},
    {TokenKind::Except, "except clauses (try statements) are not supported in TorchScript"},
    {TokenKind::Finally, "finally clauses (try statements) are not supported in TorchScript"},
    {TokenKind::Yield, "yield (generators) is not supported in TorchScript"},
    {TokenKind::Async, "async functions are not supported in TorchScript"},
    {TokenKind::Await, "await is not supported in TorchScript"},
    {TokenKind::From, "'from' outside an import statement is not supported in TorchScript"},
};

const char* refused_construct(TokenKind k) {
  for (const auto& [kind, message] : kRefusedConstructs) {
    if (kind == k) return message;
  }
  return nullptr;
}

// The magnitude of an integer literal, which may be 2**63: `-9223372036854775808` is
// the one literal whose magnitude does not fit int64 (parse_prefix folds it, as torch
// accepts it); anything larger is refused with torch's message.
uint64_t parse_int_magnitude(const Token& tok) {
  std::string digits;
  for (char c : tok.text()) {
    if (c != '_') digits += c;
  }
  int base = 10;
  std::string_view body = digits;
  if (body.size() > 2 && body[0] == '0') {
    char p = body[1];
    base = (p == 'x' || p == 'X') ? 16 : (p == 'o' || p == 'O') ? 8 : (p == 'b' || p == 'B') ? 2 : 10;
    if (base != 10) body.remove_prefix(2);
  }
  uint64_t value = 0;
  auto [ptr, ec] = std::from_chars(body.data(), body.data() + body.size(), value, base);
  if (ec == std::errc::result_out_of_range || value > kInt64MinMagnitude) {
    throw_compile_error(tok.range, "Integral constant out of range (must fit in a signed 64 bit integer)");
  }
  TL_INTERNAL_ASSERT(ec == std::errc() && ptr == body.data() + body.size(), "lexer validated the integer literal");
  return value;
}

// Python rounds a literal too large for a double to inf and one too small to 0.0.
// from_chars only says "out of range", so the decimal exponent of the first significant
// digit decides which (no strtod: it would depend on the C locale).
double out_of_range_float(std::string_view digits) {
  size_t e = digits.find_first_of("eE");
  std::string_view mantissa = digits.substr(0, e);
  long exponent = 0;
  if (e != std::string_view::npos) {
    std::string_view exp_text = digits.substr(e + 1);
    bool negative = !exp_text.empty() && exp_text[0] == '-';
    if (!exp_text.empty() && (exp_text[0] == '-' || exp_text[0] == '+')) exp_text.remove_prefix(1);
    for (char c : exp_text) exponent = std::min(exponent * 10 + (c - '0'), 100000L);
    if (negative) exponent = -exponent;
  }
  size_t dot = mantissa.find('.');
  std::string_view int_part = mantissa.substr(0, dot);
  size_t first = int_part.find_first_not_of('0');
  long position;  // decimal exponent of the first significant digit
  if (first != std::string_view::npos) {
    position = static_cast<long>(int_part.size() - first) - 1;
  } else {
    std::string_view frac = dot == std::string_view::npos ? std::string_view() : mantissa.substr(dot + 1);
    size_t nz = frac.find_first_not_of('0');
    if (nz == std::string_view::npos) return 0.0;
    position = -static_cast<long>(nz) - 1;
  }
  return exponent + position > 0 ? std::numeric_limits<double>::infinity() : 0.0;
}

double parse_float_text(std::string_view text) {
  std::string digits;
  for (char c : text) {
    if (c != '_' && c != 'j' && c != 'J') digits += c;
  }
  double value = 0;
  auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  if (ec == std::errc::result_out_of_range) return out_of_range_float(digits);
  TL_INTERNAL_ASSERT(ec == std::errc() && ptr == digits.data() + digits.size(), "lexer validated the float literal");
  return value;
}

class Parser {
 public:
  Parser(std::shared_ptr<const Source> source, std::vector<Token> raw) : source_(std::move(source)) {
    tokens_.reserve(raw.size());
    // Type comments are not part of the grammar; keep only those right after a def
    // header's colon (`def f(x):  # type: ...` or on the next line), keyed by the
    // index of that colon, and drop the rest.
    for (Token& t : raw) {
      if (t.kind != TokenKind::TypeComment) {
        tokens_.push_back(std::move(t));
        continue;
      }
      size_t n = tokens_.size();
      if (n >= 1 && tokens_[n - 1].kind == TokenKind::Colon) {
        type_comments_.emplace(n - 1, t);
      } else if (n >= 2 && tokens_[n - 1].kind == TokenKind::Newline && tokens_[n - 2].kind == TokenKind::Colon) {
        type_comments_.emplace(n - 2, t);
      }
    }
    TL_INTERNAL_ASSERT(!tokens_.empty() && tokens_.back().kind == TokenKind::Eof, "token stream ends with EOF");
  }

  ParsedFile parse_file() {
    ParsedFile file{source_, {}};
    while (cur().kind != TokenKind::Eof) {
      if (cur().kind == TokenKind::Newline) {
        advance();
        continue;
      }
      parse_statement(file.statements);
    }
    return file;
  }

  TreeRef parse_single_expression() {
    TreeRef e = parse_testlist_star();
    if (cur().kind == TokenKind::Newline) advance();
    if (cur().kind != TokenKind::Eof) fail_here(fmt::format("expected the end of the expression but found {}", describe_token(cur())));
    return e;
  }

  // `(T1, T2) -> R` from a type comment's own tokens.
  TreeRef parse_func_type_comment() {
    size_t start = cur().range.start();
    expect(TokenKind::LeftParen);
    std::vector<TreeRef> args;
    while (cur().kind != TokenKind::RightParen) {
      args.push_back(parse_expr(kLowest));
      if (cur().kind != TokenKind::Comma) break;
      advance();
    }
    expect(TokenKind::RightParen);
    TreeRef arg_list = Tree::list(range_from(start), std::move(args));
    expect(TokenKind::Arrow);
    TreeRef ret = parse_expr(kLowest);
    if (cur().kind == TokenKind::Newline) advance();
    if (cur().kind != TokenKind::Eof) fail_here(fmt::format("expected the end of the type comment but found {}", describe_token(cur())));
    return Tree::make(TreeKind::FuncTypeComment, range_from(start), {arg_list, ret});
  }

 private:
  // --- token cursor -------------------------------------------------------------------
  const Token& cur() const { return tokens_[pos_]; }
  const Token& peek(size_t n = 1) const { return tokens_[std::min(pos_ + n, tokens_.size() - 1)]; }
  const Token& advance() {
    const Token& t = tokens_[pos_];
    prev_end_ = t.range.end();
    if (pos_ + 1 < tokens_.size()) ++pos_;
    return t;
  }
  bool accept(TokenKind k) {
    if (cur().kind != k) return false;
    advance();
    return true;
  }
  const Token& expect(TokenKind k) {
    if (cur().kind != k) {
      fail_here(fmt::format("expected {} but found {}", describe_expected(k), describe_token(cur())));
    }
    return advance();
  }
  static std::string describe_expected(TokenKind k) {
    switch (token_kind_category(k)) {
      case TokenCategory::Keyword:
      case TokenCategory::Operator:
        return fmt::format("'{}'", token_kind_spelling(k));
      case TokenCategory::Special:
      case TokenCategory::Literal:
        return token_kind_spelling(k);
    }
    return "token";
  }
  SourceRange range_from(size_t start) const { return SourceRange(source_, start, std::max(start, prev_end_)); }
  [[noreturn]] void fail_here(std::string_view msg) const { throw_compile_error(cur().range, msg); }
  [[noreturn]] void unexpected(std::string_view what) const {
    if (const char* refused = refused_construct(cur().kind)) fail_here(refused);
    if (cur().kind == TokenKind::Indent) fail_here("unexpected indent");
    fail_here(fmt::format("expected {} but found {}", what, describe_token(cur())));
  }

  // Note [Nesting guard]: every recursive entry point (expressions, statements) holds
  // one of these, so the parser's C++ stack depth is bounded by kMaxNestingDepth.
  class NestingGuard {
   public:
    explicit NestingGuard(Parser& p) : p_(p) {
      if (++p_.depth_ > kMaxNestingDepth) {
        throw_limit_error(p_.cur().range, fmt::format("too many nested parentheses, brackets, operators or blocks "
                                                      "(the limit is {})", kMaxNestingDepth));
      }
    }
    ~NestingGuard() { --p_.depth_; }
    NestingGuard(const NestingGuard&) = delete;
    NestingGuard& operator=(const NestingGuard&) = delete;

   private:
    Parser& p_;
  };

  static TreePayload op_payload(TokenKind op) {
    TreePayload p;
    p.op = op;
    return p;
  }

  // Tokens that can begin an expression (to tell `return` from `return x`, and a
  // trailing comma from another element).
  static bool starts_expression(TokenKind k) {
    switch (token_kind_category(k)) {
      case TokenCategory::Literal: return true;
      case TokenCategory::Special: return false;
      case TokenCategory::Keyword:
        return k == TokenKind::True || k == TokenKind::False || k == TokenKind::None || k == TokenKind::Not ||
               k == TokenKind::Lambda || k == TokenKind::Await || k == TokenKind::Yield;
      case TokenCategory::Operator:
        return k == TokenKind::LeftParen || k == TokenKind::LeftBracket || k == TokenKind::LeftBrace ||
               k == TokenKind::Minus || k == TokenKind::Plus || k == TokenKind::Tilde || k == TokenKind::Star ||
               k == TokenKind::Ellipsis;
    }
    return false;
  }

  // --- expressions ---------------------------------------------------------------------

  // expr(p): prefix operand, then every infix operator binding at least as tightly as p.
  TreeRef parse_expr(int min_prec) {
    NestingGuard guard(*this);
    size_t start = cur().range.start();
    TreeRef lhs = parse_prefix(min_prec);
    while (true) {
      TokenKind k = cur().kind;
      if (k == TokenKind::If && min_prec <= kTernary) {
        lhs = parse_ternary(start, lhs);
        continue;
      }
      if ((k == TokenKind::Or && min_prec <= kOr) || (k == TokenKind::And && min_prec <= kAnd)) {
        advance();
        TreeRef rhs = parse_expr((k == TokenKind::Or ? kOr : kAnd) + 1);
        lhs = Tree::make(TreeKind::BoolOp, range_from(start), {lhs, rhs}, op_payload(k));
        continue;
      }
      if (min_prec <= kCompare && comparison_at_cursor()) {
        lhs = parse_comparison_chain(start, lhs);
        continue;
      }
      std::optional<Prec> prec = binary_precedence(k);
      if (prec && *prec >= min_prec) {
        advance();
        // Note [Precedence]: `**` takes a u_expr on its right.
        TreeRef rhs = parse_expr(*prec == kPower ? static_cast<int>(kUnary) : *prec + 1);
        lhs = Tree::make(TreeKind::BinOp, range_from(start), {lhs, rhs}, op_payload(k));
        continue;
      }
      if (k == TokenKind::ColonEqual) fail_here("assignment expressions (:=) are not supported in TorchScript");
      return lhs;
    }
  }

  bool comparison_at_cursor() const {
    TokenKind k = cur().kind;
    return is_simple_comparison(k) || (k == TokenKind::Not && peek().kind == TokenKind::In);
  }

  // a < b <= c: one Compare node with the operators between the operands.
  TreeRef parse_comparison_chain(size_t start, TreeRef first) {
    std::vector<TreeRef> parts{std::move(first)};
    while (comparison_at_cursor()) {
      size_t op_start = cur().range.start();
      TokenKind k = advance().kind;
      if (k == TokenKind::Not) {
        advance();  // `in`
        k = TokenKind::NotIn;
      } else if (k == TokenKind::Is && accept(TokenKind::Not)) {
        k = TokenKind::IsNot;
      }
      parts.push_back(Tree::make(TreeKind::Operator, range_from(op_start), {}, op_payload(k)));
      parts.push_back(parse_expr(kCompare + 1));
    }
    return Tree::make(TreeKind::Compare, range_from(start), std::move(parts));
  }

  // body if condition else orelse; the condition is an or_test, the else branch may
  // itself be a ternary (right-nested).
  TreeRef parse_ternary(size_t start, TreeRef body) {
    expect(TokenKind::If);
    TreeRef cond = parse_expr(kOr);
    if (cur().kind != TokenKind::Else) fail_here(fmt::format("expected 'else' after 'if' expression but found {}", describe_token(cur())));
    advance();
    TreeRef orelse = parse_expr(kTernary);
    return Tree::make(TreeKind::IfExp, range_from(start), {cond, body, orelse});
  }

  TreeRef parse_prefix(int min_prec) {
    size_t start = cur().range.start();
    TokenKind k = cur().kind;
    if (k == TokenKind::Not) {
      if (min_prec > kNot) fail_here("invalid syntax: 'not' cannot appear here without parentheses");
      advance();
      TreeRef operand = parse_expr(kNot);
      return Tree::make(TreeKind::UnaryOp, range_from(start), {operand}, op_payload(k));
    }
    if (k == TokenKind::Minus && peek().kind == TokenKind::IntLiteral) {
      if (TreeRef folded = fold_int64_min(start)) return folded;
    }
    if (k == TokenKind::Minus || k == TokenKind::Plus || k == TokenKind::Tilde) {
      if (min_prec > kUnary) fail_here(fmt::format("invalid syntax: unary '{}' cannot appear here without parentheses", token_kind_spelling(k)));
      advance();
      TreeRef operand = parse_expr(kUnary);
      return Tree::make(TreeKind::UnaryOp, range_from(start), {operand}, op_payload(k));
    }
    if (k == TokenKind::Star) fail_here("starred expression is not allowed here");
    return parse_postfix(start, parse_atom());
  }

  // `-9223372036854775808` (INT64_MIN) as one literal: its magnitude alone is out of
  // range, so the negation is folded when nothing binds tighter to the literal.
  TreeRef fold_int64_min(size_t start) {
    const Token& lit = peek();
    TokenKind after = peek(2).kind;
    if (after == TokenKind::DoubleStar || after == TokenKind::Dot || after == TokenKind::LeftParen ||
        after == TokenKind::LeftBracket || parse_int_magnitude(lit) != kInt64MinMagnitude) {
      return nullptr;
    }
    TreePayload p;
    p.int_value = std::numeric_limits<int64_t>::min();
    p.str = "-" + std::string(lit.text());
    advance();
    advance();
    return Tree::make(TreeKind::IntLiteral, range_from(start), {}, std::move(p));
  }

  // primary: atom followed by calls, subscripts and attribute accesses.
  TreeRef parse_postfix(size_t start, TreeRef value) {
    while (true) {
      TokenKind k = cur().kind;
      if (k == TokenKind::Dot) {
        advance();
        const Token& name = expect_name("an attribute name after '.'");
        TreeRef attr = Tree::name(name.range, std::string(name.text()));
        value = Tree::make(TreeKind::Attribute, range_from(start), {value, attr});
      } else if (k == TokenKind::LeftParen) {
        value = parse_call(start, value);
      } else if (k == TokenKind::LeftBracket) {
        value = parse_subscript(start, value);
      } else {
        return value;
      }
    }
  }

  const Token& expect_name(std::string_view what) {
    if (cur().kind != TokenKind::Ident) unexpected(what);
    return advance();
  }

  // Keywords (and `...`) that are literal values by themselves.
  static std::optional<TreeKind> constant_literal(TokenKind k) {
    if (k == TokenKind::True) return TreeKind::TrueLiteral;
    if (k == TokenKind::False) return TreeKind::FalseLiteral;
    if (k == TokenKind::None) return TreeKind::NoneLiteral;
    if (k == TokenKind::Ellipsis) return TreeKind::EllipsisLiteral;
    return std::nullopt;
  }

  TreeRef parse_atom() {
    const Token& t = cur();  // tokens_ never reallocates while parsing
    size_t start = t.range.start();
    TreePayload p;
    if (t.kind == TokenKind::Ident) {
      advance();
      return Tree::name(t.range, std::string(t.text()));
    }
    if (t.kind == TokenKind::IntLiteral) {
      uint64_t magnitude = parse_int_magnitude(t);
      if (magnitude == kInt64MinMagnitude) {
        throw_compile_error(t.range, "Integral constant out of range (must fit in a signed 64 bit integer)");
      }
      p.int_value = static_cast<int64_t>(magnitude);
      p.str = std::string(t.text());
      advance();
      return Tree::make(TreeKind::IntLiteral, t.range, {}, std::move(p));
    }
    if (t.kind == TokenKind::FloatLiteral || t.kind == TokenKind::ImagLiteral) {
      p.float_value = parse_float_text(t.text());
      p.str = std::string(t.text());
      advance();
      return Tree::make(t.kind == TokenKind::FloatLiteral ? TreeKind::FloatLiteral : TreeKind::ImagLiteral, t.range, {},
                        std::move(p));
    }
    if (t.kind == TokenKind::StringLiteral) {
      p.str = t.value;
      advance();
      return Tree::make(TreeKind::StringLiteral, t.range, {}, std::move(p));
    }
    if (t.kind == TokenKind::FormatString) {  // Note [f-strings] in lexer.cpp: "a{}".format(fields)
      p.str = t.value;
      advance();
      TreeRef format = Tree::make(TreeKind::StringLiteral, t.range, {}, std::move(p));
      TreeRef callee = Tree::make(TreeKind::Attribute, t.range, {format, Tree::name(t.range, "format")});
      return parse_call(start, callee);
    }
    if (std::optional<TreeKind> literal = constant_literal(t.kind)) {
      advance();
      return Tree::make(*literal, t.range);
    }
    if (t.kind == TokenKind::LeftParen) return parse_paren(start);
    if (t.kind == TokenKind::LeftBracket) return parse_list_display(start);
    if (t.kind == TokenKind::LeftBrace) return parse_dict_display(start);
    unexpected("an expression");
  }

  // An element of a display or call: `*x` or an expression.
  TreeRef parse_star_or_expr(int prec) {
    if (cur().kind != TokenKind::Star) return parse_expr(prec);
    size_t start = cur().range.start();
    advance();
    TreeRef inner = parse_expr(kBitOr);
    return Tree::make(TreeKind::Starred, range_from(start), {inner});
  }

  // () | (expr) | (a, b, ...) ; generator expressions are refused.
  TreeRef parse_paren(size_t start) {
    expect(TokenKind::LeftParen);
    if (accept(TokenKind::RightParen)) return Tree::make(TreeKind::TupleLiteral, range_from(start));
    TreeRef first = parse_star_or_expr(kLowest);
    if (cur().kind == TokenKind::For) fail_here("generator expressions are not supported in TorchScript; use a list comprehension");
    if (cur().kind == TokenKind::RightParen) {
      // `(*x)` is not a tuple; only `(*x,)` is.
      if (first->kind() == TreeKind::Starred) throw_compile_error(first->range(), "cannot use starred expression here");
      advance();
      return first;
    }
    std::vector<TreeRef> elems{first};
    while (accept(TokenKind::Comma)) {
      if (cur().kind == TokenKind::RightParen) break;
      elems.push_back(parse_star_or_expr(kLowest));
    }
    expect(TokenKind::RightParen);
    return Tree::make(TreeKind::TupleLiteral, range_from(start), std::move(elems));
  }

  // [] | [a, b, ...] | [elt for target in iter if cond ...]
  TreeRef parse_list_display(size_t start) {
    expect(TokenKind::LeftBracket);
    if (accept(TokenKind::RightBracket)) return Tree::make(TreeKind::ListLiteral, range_from(start));
    TreeRef first = parse_star_or_expr(kLowest);
    if (cur().kind == TokenKind::For) {
      if (first->kind() == TreeKind::Starred) throw_compile_error(first->range(), "iterable unpacking cannot be used in comprehension");
      TreeRef gens = parse_comprehension_clauses();
      expect(TokenKind::RightBracket);
      return Tree::make(TreeKind::ListComp, range_from(start), {first, gens});
    }
    std::vector<TreeRef> elems{first};
    while (accept(TokenKind::Comma)) {
      if (cur().kind == TokenKind::RightBracket) break;
      elems.push_back(parse_star_or_expr(kLowest));
    }
    expect(TokenKind::RightBracket);
    return Tree::make(TreeKind::ListLiteral, range_from(start), std::move(elems));
  }

  // {} | {k: v, ...} | {k: v for ...}; sets are refused.
  TreeRef parse_dict_display(size_t start) {
    expect(TokenKind::LeftBrace);
    if (accept(TokenKind::RightBrace)) {
      return Tree::make(TreeKind::DictLiteral, range_from(start),
                        {Tree::list(range_from(start), {}), Tree::list(range_from(start), {})});
    }
    if (cur().kind == TokenKind::DoubleStar) fail_here("dict unpacking (**) is not supported in TorchScript");
    size_t keys_start = cur().range.start();
    TreeRef key = parse_star_or_expr(kLowest);
    if (cur().kind != TokenKind::Colon) {
      throw_compile_error(SourceRange(source_, start, cur().range.end()), "set literals are not supported in TorchScript");
    }
    advance();
    TreeRef value = parse_expr(kLowest);
    if (cur().kind == TokenKind::For) {
      TreeRef gens = parse_comprehension_clauses();
      expect(TokenKind::RightBrace);
      return Tree::make(TreeKind::DictComp, range_from(start), {key, value, gens});
    }
    std::vector<TreeRef> keys{key}, values{value};
    while (accept(TokenKind::Comma)) {
      if (cur().kind == TokenKind::RightBrace) break;
      if (cur().kind == TokenKind::DoubleStar) fail_here("dict unpacking (**) is not supported in TorchScript");
      keys.push_back(parse_expr(kLowest));
      expect(TokenKind::Colon);
      values.push_back(parse_expr(kLowest));
    }
    expect(TokenKind::RightBrace);
    TreeRef key_list = Tree::list(range_from(keys_start), std::move(keys));
    TreeRef value_list = Tree::list(range_from(keys_start), std::move(values));
    return Tree::make(TreeKind::DictLiteral, range_from(start), {key_list, value_list});
  }

  // (for target in iterable (if cond)*)+
  TreeRef parse_comprehension_clauses() {
    size_t start = cur().range.start();
    std::vector<TreeRef> gens;
    while (cur().kind == TokenKind::For) {
      size_t gen_start = cur().range.start();
      advance();
      TreeRef target = parse_target_list(TokenKind::In);
      expect(TokenKind::In);
      TreeRef iter = parse_expr(kOr);
      size_t conds_start = cur().range.start();
      std::vector<TreeRef> conds;
      while (accept(TokenKind::If)) conds.push_back(parse_expr(kOr));
      TreeRef cond_list = Tree::list(range_from(conds_start), std::move(conds));
      gens.push_back(Tree::make(TreeKind::Comprehension, range_from(gen_start), {target, iter, cond_list}));
    }
    if (cur().kind == TokenKind::Async) fail_here("async comprehensions are not supported in TorchScript");
    return Tree::list(range_from(start), std::move(gens));
  }

  // f(a, *b, k=v)
  TreeRef parse_call(size_t start, TreeRef callee) {
    size_t args_start = cur().range.start();
    expect(TokenKind::LeftParen);
    std::vector<TreeRef> args, keywords;
    std::unordered_set<std::string> seen;
    while (cur().kind != TokenKind::RightParen) {
      if (cur().kind == TokenKind::DoubleStar) fail_here("keyword argument unpacking (**) is not supported in TorchScript");
      if (cur().kind == TokenKind::Ident && peek().kind == TokenKind::Equal) {
        size_t kw_start = cur().range.start();
        const Token& name = advance();
        std::string name_text(name.text());
        if (!seen.insert(name_text).second) {
          throw_compile_error(name.range, fmt::format("keyword argument repeated: {}", name_text));
        }
        TreeRef name_tree = Tree::name(name.range, name_text);
        advance();
        TreeRef value = parse_expr(kLowest);
        keywords.push_back(Tree::make(TreeKind::Keyword, range_from(kw_start), {name_tree, value}));
      } else {
        TreeRef arg = parse_star_or_expr(kLowest);
        if (cur().kind == TokenKind::For) fail_here("generator expressions are not supported in TorchScript; use a list comprehension");
        if (!keywords.empty() && arg->kind() != TreeKind::Starred) {
          throw_compile_error(arg->range(), "positional argument follows keyword argument");
        }
        args.push_back(arg);
      }
      if (!accept(TokenKind::Comma)) break;
    }
    expect(TokenKind::RightParen);
    TreeRef arg_list = Tree::list(range_from(args_start), std::move(args));
    TreeRef kw_list = Tree::list(range_from(args_start), std::move(keywords));
    return Tree::make(TreeKind::Call, range_from(start), {callee, arg_list, kw_list});
  }

  // x[i], x[a:b:c], x[i, j:k, ...]
  TreeRef parse_subscript(size_t start, TreeRef value) {
    size_t items_start = cur().range.start();
    expect(TokenKind::LeftBracket);
    std::vector<TreeRef> items;
    do {
      if (cur().kind == TokenKind::RightBracket && !items.empty()) break;
      items.push_back(parse_slice_item());
    } while (accept(TokenKind::Comma));
    expect(TokenKind::RightBracket);
    TreeRef item_list = Tree::list(range_from(items_start), std::move(items));
    return Tree::make(TreeKind::Subscript, range_from(start), {value, item_list});
  }

  TreeRef parse_slice_item() {
    size_t start = cur().range.start();
    TreeRef lower;
    if (cur().kind != TokenKind::Colon) {
      lower = parse_expr(kLowest);
      if (cur().kind != TokenKind::Colon) return lower;
    }
    expect(TokenKind::Colon);
    auto ends_part = [this](bool allow_colon) {
      TokenKind k = cur().kind;
      return k == TokenKind::Comma || k == TokenKind::RightBracket || (allow_colon && k == TokenKind::Colon);
    };
    TreeRef upper = ends_part(true) ? nullptr : parse_expr(kLowest);
    TreeRef step;
    if (accept(TokenKind::Colon) && !ends_part(false)) step = parse_expr(kLowest);
    return Tree::make(TreeKind::Slice, range_from(start), {lower, upper, step});
  }

  // testlist_star_expr: `a`, or a bare tuple `a, *b, c,`.
  TreeRef parse_testlist_star() {
    size_t start = cur().range.start();
    TreeRef first = parse_star_or_expr(kLowest);
    if (cur().kind != TokenKind::Comma) {
      if (first->kind() == TreeKind::Starred) throw_compile_error(first->range(), "cannot use starred expression here");
      return first;
    }
    std::vector<TreeRef> elems{first};
    while (accept(TokenKind::Comma)) {
      if (!starts_expression(cur().kind)) break;
      elems.push_back(parse_star_or_expr(kLowest));
    }
    return Tree::make(TreeKind::TupleLiteral, range_from(start), std::move(elems));
  }

  // Targets of `for` and comprehensions, stopping before `in` (parsed above the
  // comparison level so `in` is not taken as an operator).
  TreeRef parse_target_list(TokenKind terminator) {
    size_t start = cur().range.start();
    TreeRef first = parse_star_or_expr(kBitOr);
    TreeRef target = first;
    if (cur().kind == TokenKind::Comma) {
      std::vector<TreeRef> elems{first};
      while (accept(TokenKind::Comma)) {
        if (cur().kind == terminator) break;
        elems.push_back(parse_star_or_expr(kBitOr));
      }
      target = Tree::make(TreeKind::TupleLiteral, range_from(start), std::move(elems));
    }
    check_target(*target, "assign to", true);
    return target;
  }

  // Assignment, for and del targets: names, attributes, subscripts, and (except for
  // augmented and annotated assignment) tuples/lists of targets with one starred.
  void check_target(const Tree& t, std::string_view verb, bool allow_unpacking) {
    TreeKind k = t.kind();
    if (k == TreeKind::Name || k == TreeKind::Attribute || k == TreeKind::Subscript) return;
    if (k != TreeKind::TupleLiteral && k != TreeKind::ListLiteral) {
      throw_compile_error(t.range(), fmt::format("cannot {} {}", verb, tree_kind_description(k)));
    }
    if (!allow_unpacking) {
      throw_compile_error(t.range(), fmt::format("cannot {} a {} here", verb, tree_kind_description(k)));
    }
    size_t starred = 0;
    for (const TreeRef& e : t.children()) {
      if (e->kind() == TreeKind::Starred) {
        if (++starred > 1) throw_compile_error(e->range(), "multiple starred expressions in assignment");
        check_target(*e->child(0), verb, true);
        continue;
      }
      check_target(*e, verb, true);
    }
  }

  // --- statements ----------------------------------------------------------------------

  void parse_statement(std::vector<TreeRef>& out) {
    NestingGuard guard(*this);
    TokenKind k = cur().kind;
    if (k == TokenKind::If) return out.push_back(parse_if());
    if (k == TokenKind::While) return out.push_back(parse_while());
    if (k == TokenKind::For) return out.push_back(parse_for());
    if (k == TokenKind::With) return out.push_back(parse_with());
    if (k == TokenKind::Def || k == TokenKind::Class || k == TokenKind::At) return out.push_back(parse_decorated());
    if (k == TokenKind::Indent) fail_here("unexpected indent");
    if (k == TokenKind::Dedent) fail_here("unexpected unindent");
    if (k == TokenKind::Else || k == TokenKind::Elif) fail_here(fmt::format("'{}' without a matching 'if'", cur().text()));
    parse_simple_line(out);
  }

  // simple_stmt (';' simple_stmt)* [';'] NEWLINE
  void parse_simple_line(std::vector<TreeRef>& out) {
    auto statement = [&] {
      if (cur().kind == TokenKind::Import || cur().kind == TokenKind::From) return parse_imports(out);
      out.push_back(parse_simple_statement());
    };
    statement();
    while (accept(TokenKind::Semicolon)) {
      if (cur().kind == TokenKind::Newline) break;
      statement();
    }
    if (cur().kind != TokenKind::Newline) {
      if (refused_construct(cur().kind)) unexpected("");
      fail_here(fmt::format("expected the end of the statement but found {}", describe_token(cur())));
    }
    advance();
  }

  TreeRef parse_simple_statement() {
    const Token& t = cur();
    size_t start = t.range.start();
    if (t.kind == TokenKind::Pass || t.kind == TokenKind::Break || t.kind == TokenKind::Continue) {
      advance();
      TreeKind kind = t.kind == TokenKind::Pass ? TreeKind::Pass : t.kind == TokenKind::Break ? TreeKind::Break : TreeKind::Continue;
      return Tree::make(kind, t.range);
    }
    if (t.kind == TokenKind::Return) {
      advance();
      TreeRef value = starts_expression(cur().kind) ? parse_testlist_star() : nullptr;
      return Tree::make(TreeKind::Return, range_from(start), {value});
    }
    if (t.kind == TokenKind::Raise) {
      advance();
      TreeRef exc = starts_expression(cur().kind) ? parse_expr(kLowest) : nullptr;
      if (cur().kind == TokenKind::From) fail_here("'raise ... from ...' is not supported in TorchScript");
      return Tree::make(TreeKind::Raise, range_from(start), {exc});
    }
    if (t.kind == TokenKind::Assert) {
      advance();
      TreeRef test = parse_expr(kLowest);
      TreeRef msg = accept(TokenKind::Comma) ? parse_expr(kLowest) : nullptr;
      return Tree::make(TreeKind::Assert, range_from(start), {test, msg});
    }
    if (t.kind == TokenKind::Del) return parse_del(start);
    return parse_expression_statement(start);
  }

  TreeRef parse_del(size_t start) {
    advance();
    std::vector<TreeRef> targets;
    do {
      if (!targets.empty() && cur().kind == TokenKind::Newline) break;
      TreeRef target = parse_expr(kBitOr);
      check_target(*target, "delete", true);
      targets.push_back(target);
    } while (accept(TokenKind::Comma));
    return Tree::make(TreeKind::Delete, range_from(start), std::move(targets));
  }

  // Imports. `import a.b.c` binds nothing torchlet needs (torch's importer skips these
  // lines of archived code): a leaf whose str is the module. A binding of another name,
  // `import a.b as n` or `from a.b import c [as n]`, is an Import whose Name child is
  // the bound name and whose str is what it names ("a.b", "a.b.c"), one tree per
  // binding; the compiler resolves them (module_aliases.h). Relative and star imports
  // bind nothing a TorchScript function could use: nothing is kept of them.
  void parse_imports(std::vector<TreeRef>& out) {
    const size_t start = cur().range.start();
    auto dotted = [&](std::string_view what) {
      std::string name(expect_name(what).text());
      while (accept(TokenKind::Dot)) name += "." + std::string(expect_name("a name after '.'").text());
      return name;
    };
    auto binding = [&](size_t from, const std::string& target, const Token& bound) {
      TreePayload p;
      p.str = target;
      out.push_back(Tree::make(TreeKind::Import, range_from(from), {Tree::name(bound.range, std::string(bound.text()))},
                               std::move(p)));
    };
    if (accept(TokenKind::Import)) {
      do {
        const size_t item = cur().range.start();
        std::string module = dotted("a module name after 'import'");
        if (accept(TokenKind::As)) {
          binding(item, module, expect_name("a name after 'as'"));
        } else {
          TreePayload p;
          p.str = std::move(module);
          out.push_back(Tree::make(TreeKind::Import, range_from(item), {}, std::move(p)));
        }
      } while (accept(TokenKind::Comma));
      return;
    }
    expect(TokenKind::From);
    bool relative = false;
    while (cur().kind == TokenKind::Dot || cur().kind == TokenKind::Ellipsis) {
      advance();
      relative = true;
    }
    std::string module;
    if (!relative || cur().kind != TokenKind::Import) module = dotted("a module name after 'from'");
    expect(TokenKind::Import);
    if (accept(TokenKind::Star)) return;
    const bool parenthesized = accept(TokenKind::LeftParen);
    do {
      if (parenthesized && cur().kind == TokenKind::RightParen) break;  // a trailing comma
      const Token& member = expect_name("a name to import");
      const Token& bound = accept(TokenKind::As) ? expect_name("a name after 'as'") : member;
      if (!relative) binding(start, module + "." + std::string(member.text()), bound);
    } while (accept(TokenKind::Comma));
    if (parenthesized) expect(TokenKind::RightParen);
  }

  // Expression statements and every form of assignment.
  TreeRef parse_expression_statement(size_t start) {
    TreeRef first = parse_testlist_star();
    if (cur().kind == TokenKind::Colon) {
      if (first->kind() == TreeKind::TupleLiteral) throw_compile_error(first->range(), "only single target (not tuple) can be annotated");
      check_target(*first, "annotate", false);
      advance();
      TreeRef annotation = parse_expr(kLowest);
      TreeRef value = accept(TokenKind::Equal) ? parse_testlist_star() : nullptr;
      return Tree::make(TreeKind::AnnAssign, range_from(start), {first, annotation, value});
    }
    if (std::optional<TokenKind> op = augmented_operator(cur().kind)) {
      check_target(*first, "use augmented assignment on", false);
      advance();
      TreeRef value = parse_testlist_star();
      return Tree::make(TreeKind::AugAssign, range_from(start), {first, value}, op_payload(*op));
    }
    if (cur().kind != TokenKind::Equal) return Tree::make(TreeKind::ExprStmt, range_from(start), {first});
    std::vector<TreeRef> targets{first};
    TreeRef value;
    while (accept(TokenKind::Equal)) {
      TreeRef next = parse_testlist_star();
      if (cur().kind == TokenKind::Equal) {
        targets.push_back(next);
      } else {
        value = next;
      }
    }
    for (const TreeRef& target : targets) check_target(*target, "assign to", true);
    TreeRef target_list = Tree::list(range_from(start), std::move(targets));
    return Tree::make(TreeKind::Assign, range_from(start), {target_list, value});
  }

  // ':' then an indented block, or simple statements on the same line.
  TreeRef parse_block(std::string_view owner) {
    size_t start = cur().range.start();
    std::vector<TreeRef> body;
    if (!accept(TokenKind::Newline)) {
      if (cur().kind == TokenKind::Eof) fail_here(fmt::format("expected an indented block after {}", owner));
      parse_simple_line(body);
      return Tree::list(range_from(start), std::move(body));
    }
    if (cur().kind != TokenKind::Indent) {
      fail_here(fmt::format("expected an indented block after {}", owner));
    }
    advance();
    while (!accept(TokenKind::Dedent)) {
      if (cur().kind == TokenKind::Eof) fail_here("expected the block to end");
      parse_statement(body);
    }
    return Tree::list(range_from(start), std::move(body));
  }

  // if c: ... (elif c: ...)* [else: ...]; an elif is an If alone in the else body.
  // The clauses are read in a loop and nested from the last one up, so a long elif
  // chain costs no parser recursion (only tree depth, two levels per elif).
  TreeRef parse_if() {
    struct Clause {
      SourceRange header;
      TreeRef cond, body;
      size_t start;
    };
    std::vector<Clause> clauses;
    do {
      size_t start = cur().range.start();
      advance();  // `if` or `elif`
      TreeRef cond = parse_expr(kLowest);
      expect(TokenKind::Colon);
      SourceRange header = range_from(start);
      clauses.push_back({header, cond, parse_block("'if' statement"), start});
    } while (cur().kind == TokenKind::Elif);
    TreeRef else_body;
    if (accept(TokenKind::Else)) {
      expect(TokenKind::Colon);
      else_body = parse_block("'else'");
    } else {
      else_body = Tree::list(SourceRange(source_, prev_end_, prev_end_), {});
    }
    for (size_t i = clauses.size(); i-- > 0;) {
      TreeRef node = Tree::make(TreeKind::If, clauses[i].header, {clauses[i].cond, clauses[i].body, else_body});
      if (i == 0) return node;
      else_body = Tree::list(range_from(clauses[i].start), {node});
    }
    TL_INTERNAL_ASSERT(false, "an if statement has at least one clause");
  }

  TreeRef parse_while() {
    size_t start = cur().range.start();
    advance();
    TreeRef cond = parse_expr(kLowest);
    expect(TokenKind::Colon);
    SourceRange header = range_from(start);
    TreeRef body = parse_block("'while' statement");
    if (cur().kind == TokenKind::Else) fail_here("'else' after a while loop is not supported in TorchScript");
    return Tree::make(TreeKind::While, header, {cond, body});
  }

  TreeRef parse_for() {
    size_t start = cur().range.start();
    advance();
    TreeRef target = parse_target_list(TokenKind::In);
    expect(TokenKind::In);
    TreeRef iter = parse_testlist_star();
    expect(TokenKind::Colon);
    SourceRange header = range_from(start);
    TreeRef body = parse_block("'for' statement");
    if (cur().kind == TokenKind::Else) fail_here("'else' after a for loop is not supported in TorchScript");
    return Tree::make(TreeKind::For, header, {target, iter, body});
  }

  // 'with' item (',' item)* ':' block, item: expr ['as' NAME]. Torch binds a with
  // target as a plain variable only, so other targets are refused here.
  TreeRef parse_with() {
    size_t start = cur().range.start();
    advance();
    std::vector<TreeRef> items;
    do {
      const size_t item_start = cur().range.start();
      TreeRef manager = parse_expr(kLowest);
      TreeRef target;
      if (accept(TokenKind::As)) {
        const Token& name = expect_name("a variable name after 'as' (TorchScript binds a with target to a name)");
        target = Tree::name(name.range, std::string(name.text()));
      }
      items.push_back(Tree::make(TreeKind::WithItem, range_from(item_start), {manager, target}));
    } while (accept(TokenKind::Comma));
    expect(TokenKind::Colon);
    SourceRange header = range_from(start);
    TreeRef item_list = Tree::list(header, std::move(items));
    TreeRef body = parse_block("'with' statement");
    return Tree::make(TreeKind::With, header, {item_list, body});
  }

  // ('@' expr NEWLINE)* (def | class)
  TreeRef parse_decorated() {
    size_t start = cur().range.start();
    std::vector<TreeRef> decorators;
    while (accept(TokenKind::At)) {
      decorators.push_back(parse_expr(kLowest));
      expect(TokenKind::Newline);
    }
    TreeRef decorator_list = Tree::list(range_from(start), std::move(decorators));
    if (cur().kind == TokenKind::Def) return parse_def(decorator_list);
    if (cur().kind == TokenKind::Class) return parse_class(decorator_list);
    unexpected("'def' or 'class' after a decorator");
  }

  TreeRef parse_def(TreeRef decorators) {
    size_t start = cur().range.start();
    expect(TokenKind::Def);
    const Token& name = expect_name("a function name after 'def'");
    TreeRef name_tree = Tree::name(name.range, std::string(name.text()));
    TreeRef params = parse_params();
    TreeRef ret = accept(TokenKind::Arrow) ? parse_expr(kLowest) : nullptr;
    size_t colon = pos_;
    expect(TokenKind::Colon);
    SourceRange header = range_from(start);
    TreeRef type_comment;
    if (auto it = type_comments_.find(colon); it != type_comments_.end()) {
      const Token& tc = it->second;
      std::vector<Token> tokens = tokenize_fragment(source_, tc.range.start(), tc.range.end());
      type_comment = Parser(source_, std::move(tokens)).parse_func_type_comment();
    }
    TreeRef body = parse_block("function definition");
    return Tree::make(TreeKind::Def, header, {name_tree, params, ret, body, decorators, type_comment});
  }

  // (name [: annotation] [= default], ... [*, kwonly...])
  TreeRef parse_params() {
    size_t start = cur().range.start();
    expect(TokenKind::LeftParen);
    std::vector<TreeRef> params;
    std::unordered_set<std::string> seen;
    bool keyword_only = false, saw_default = false;
    while (cur().kind != TokenKind::RightParen) {
      if (cur().kind == TokenKind::Star) {
        if (peek().kind == TokenKind::Ident) fail_here("variable positional arguments (*args) are not supported in TorchScript");
        if (keyword_only) fail_here("'*' may appear only once in a parameter list");
        advance();
        keyword_only = true;
        if (cur().kind != TokenKind::Comma) fail_here("named arguments must follow bare '*'");
        advance();
        continue;
      }
      if (cur().kind == TokenKind::DoubleStar) fail_here("variable keyword arguments (**kwargs) are not supported in TorchScript");
      if (cur().kind == TokenKind::Slash) fail_here("positional-only parameters ('/') are not supported in TorchScript");
      size_t param_start = cur().range.start();
      const Token& name = expect_name("a parameter name");
      std::string name_text(name.text());
      if (!seen.insert(name_text).second) {
        throw_compile_error(name.range, fmt::format("duplicate argument '{}' in function definition", name_text));
      }
      TreeRef name_tree = Tree::name(name.range, name_text);
      TreeRef annotation = accept(TokenKind::Colon) ? parse_expr(kLowest) : nullptr;
      TreeRef default_value = accept(TokenKind::Equal) ? parse_expr(kLowest) : nullptr;
      if (default_value) {
        saw_default = true;
      } else if (saw_default && !keyword_only) {
        throw_compile_error(name.range, "non-default argument follows default argument");
      }
      TreePayload p;
      p.int_value = keyword_only ? 1 : 0;
      params.push_back(Tree::make(TreeKind::Param, range_from(param_start), {name_tree, annotation, default_value}, std::move(p)));
      if (!accept(TokenKind::Comma)) break;
    }
    expect(TokenKind::RightParen);
    return Tree::list(range_from(start), std::move(params));
  }

  TreeRef parse_class(TreeRef decorators) {
    size_t start = cur().range.start();
    expect(TokenKind::Class);
    const Token& name = expect_name("a class name after 'class'");
    TreeRef name_tree = Tree::name(name.range, std::string(name.text()));
    size_t bases_start = cur().range.start();
    std::vector<TreeRef> bases;
    if (accept(TokenKind::LeftParen)) {
      while (cur().kind != TokenKind::RightParen) {
        if (cur().kind == TokenKind::Ident && peek().kind == TokenKind::Equal) {
          fail_here("class keyword arguments (such as metaclass=) are not supported in TorchScript");
        }
        bases.push_back(parse_expr(kLowest));
        if (!accept(TokenKind::Comma)) break;
      }
      expect(TokenKind::RightParen);
    }
    TreeRef base_list = Tree::list(range_from(bases_start), std::move(bases));
    expect(TokenKind::Colon);
    SourceRange header = range_from(start);
    TreeRef body = parse_block("class definition");
    return Tree::make(TreeKind::ClassDef, header, {name_tree, base_list, body, decorators});
  }

  std::shared_ptr<const Source> source_;
  std::vector<Token> tokens_;                         // without type comments
  std::unordered_map<size_t, Token> type_comments_;  // def header colon index -> its type comment
  size_t pos_ = 0;
  size_t prev_end_ = 0;
  size_t depth_ = 0;
};

}  // namespace

ParsedFile parse_file(std::shared_ptr<const Source> source) {
  std::vector<Token> tokens = tokenize(source);
  return Parser(source, std::move(tokens)).parse_file();
}

ParsedFile parse_file(std::string text, std::string filename) {
  return parse_file(std::make_shared<const Source>(std::move(text), std::move(filename)));
}

TreeRef parse_expression(std::shared_ptr<const Source> source) {
  std::vector<Token> tokens = tokenize(source);
  return Parser(source, std::move(tokens)).parse_single_expression();
}

TreeRef parse_expression(std::string text) { return parse_expression(std::make_shared<const Source>(std::move(text))); }

}  // namespace torchlet::jit

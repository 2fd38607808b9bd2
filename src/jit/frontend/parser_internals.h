// The Parser class the parser's files share (parser.cpp: tokens and entry points;
// parse_expressions.cpp; parse_statements.cpp), with Note [Precedence]. Not a public
// header: nothing outside src/jit/frontend includes it.
#pragma once

#include <charconv>
#include <limits>
#include <optional>
#include <unordered_map>
#include <unordered_set>

#include <fmt/format.h>

#include "jit/frontend/error_report.h"
#include "jit/frontend/parser.h"

namespace torchlet::jit {

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

// 2**63: the one magnitude a literal may have only when negated (-9223372036854775808).
constexpr uint64_t kInt64MinMagnitude = uint64_t{1} << 63;

// Token tables and number text (parser.cpp).
std::optional<Prec> binary_precedence(TokenKind k);
std::optional<TokenKind> augmented_operator(TokenKind k);
bool is_simple_comparison(TokenKind k);
const char* refused_construct(TokenKind k);
uint64_t parse_int_magnitude(const Token& tok);
double parse_float_text(std::string_view text);

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

  // --- expressions (parse_expressions.cpp) ------------------------------------------
  TreeRef parse_expr(int min_prec);
  bool comparison_at_cursor() const;
  TreeRef parse_comparison_chain(size_t start, TreeRef first);
  TreeRef parse_ternary(size_t start, TreeRef body);
  TreeRef parse_prefix(int min_prec);
  TreeRef fold_int64_min(size_t start);
  TreeRef parse_postfix(size_t start, TreeRef value);
  const Token& expect_name(std::string_view what);
  static std::optional<TreeKind> constant_literal(TokenKind k);
  TreeRef parse_atom();
  TreeRef parse_star_or_expr(int prec);
  TreeRef parse_paren(size_t start);
  TreeRef parse_list_display(size_t start);
  TreeRef parse_dict_display(size_t start);
  TreeRef parse_comprehension_clauses();
  TreeRef parse_call(size_t start, TreeRef callee);
  TreeRef parse_subscript(size_t start, TreeRef value);
  TreeRef parse_slice_item();
  TreeRef parse_testlist_star();
  TreeRef parse_target_list(TokenKind terminator);
  void check_target(const Tree& t, std::string_view verb, bool allow_unpacking);

  // --- statements (parse_statements.cpp) -------------------------------------------
  void parse_statement(std::vector<TreeRef>& out);
  void parse_simple_line(std::vector<TreeRef>& out);
  TreeRef parse_simple_statement();
  TreeRef parse_del(size_t start);
  void parse_imports(std::vector<TreeRef>& out);
  TreeRef parse_expression_statement(size_t start);
  TreeRef parse_block(std::string_view owner);
  TreeRef parse_if();
  TreeRef parse_while();
  TreeRef parse_for();
  TreeRef parse_with();
  TreeRef parse_decorated();
  TreeRef parse_def(TreeRef decorators);
  TreeRef parse_params();
  TreeRef parse_class(TreeRef decorators);

  std::shared_ptr<const Source> source_;
  std::vector<Token> tokens_;                         // without type comments
  std::unordered_map<size_t, Token> type_comments_;  // def header colon index -> its type comment
  size_t pos_ = 0;
  size_t prev_end_ = 0;
  size_t depth_ = 0;
};

}  // namespace torchlet::jit

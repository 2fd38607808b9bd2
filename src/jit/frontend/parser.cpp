// The TorchScript parser (see parser.h): a precedence-climbing expression parser
// (parse_expressions.cpp) and a recursive-descent statement parser
// (parse_statements.cpp) over the token vector, sharing the Parser class
// (parser_internals.h). Here: the token tables, number text and the entry points.
// Nesting is counted by one guard (kMaxNestingDepth) so no input can exhaust the C++ stack.
#include "jit/frontend/parser.h"

#include "jit/frontend/parser_internals.h"

namespace torchlet::jit {

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

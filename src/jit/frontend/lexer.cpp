// The TorchScript lexer (see lexer.h). One pass over the bytes with an explicit
// bracket stack and indentation stack, so no input can recurse; a post-pass merges
// adjacent string literals.
#include "jit/frontend/lexer.h"

#include <algorithm>
#include <array>
#include <unordered_map>

#include <fmt/format.h>

#include "core/ascii.h"
#include "core/python_format.h"
#include "jit/frontend/error_report.h"

namespace torchlet::jit {

namespace {

struct KindInfo {
  const char* spelling;
  TokenCategory category;
};

constexpr KindInfo kKindInfo[] = {
#define TL_TOKEN(name, spelling, category) {spelling, TokenCategory::category},
#include "jit/frontend/token_kinds.def"
#undef TL_TOKEN
};

constexpr TokenKind kAllKinds[] = {
#define TL_TOKEN(name, spelling, category) TokenKind::name,
#include "jit/frontend/token_kinds.def"
#undef TL_TOKEN
};

// Operator spellings sorted longest first, so `**=` wins over `**` and `*`.
const std::vector<std::pair<std::string_view, TokenKind>>& operators_longest_first() {
  static const std::vector<std::pair<std::string_view, TokenKind>> ops = [] {
    std::vector<std::pair<std::string_view, TokenKind>> v;
    for (TokenKind k : kAllKinds) {
      const KindInfo& info = kKindInfo[static_cast<size_t>(k)];
      if (info.category == TokenCategory::Operator) v.emplace_back(info.spelling, k);
    }
    std::stable_sort(v.begin(), v.end(), [](const auto& a, const auto& b) { return a.first.size() > b.first.size(); });
    return v;
  }();
  return ops;
}

bool is_ident_start(char c) { return ascii_alpha(c) || c == '_'; }
bool is_digit_in(unsigned char c, int base) {
  switch (base) {
    case 2: return c == '0' || c == '1';
    case 8: return c >= '0' && c <= '7';
    case 10: return c >= '0' && c <= '9';
    default: return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
  }
}
int hex_value(unsigned char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// A byte as messages show it: the character if printable ASCII, else \xNN.
std::string printable_byte(unsigned char c) {
  if (c >= 0x20 && c < 0x7f) return std::string(1, static_cast<char>(c));
  return fmt::format("\\x{:02x}", c);
}

// One indentation level, measured twice: with tabs to the next multiple of 8 and with
// tabs as one column. Python requires both measures to order lines the same way;
// otherwise the meaning depends on the tab width (TabError).
struct IndentLevel {
  size_t width8;
  size_t width1;
};

class Lexer {
 public:
  Lexer(std::shared_ptr<const Source> source, size_t begin, size_t end, bool fragment)
      : source_(std::move(source)), text_(source_->text()), pos_(begin), end_(end), fragment_(fragment) {
    indents_.push_back({0, 0});
  }

  std::vector<Token> run() {
    while (true) {
      if (at_line_start_ && brackets_.empty() && !fragment_) {
        if (!start_line()) break;
        continue;
      }
      skip_spaces();
      if (pos_ >= end_) break;
      lex_one();
    }
    finish();
    merge_adjacent_strings();
    return std::move(tokens_);
  }

 private:
  SourceRange range(size_t b, size_t e) const { return SourceRange(source_, b, e); }
  [[noreturn]] void fail(size_t b, size_t e, std::string_view msg) const { throw_compile_error(range(b, e), msg); }
  unsigned char at(size_t p) const { return p < end_ ? static_cast<unsigned char>(text_[p]) : 0; }
  bool is_newline_at(size_t p) const { return p < end_ && (text_[p] == '\n' || text_[p] == '\r'); }
  // Length of the line break at p (\r\n counts as one break).
  size_t newline_length(size_t p) const { return text_[p] == '\r' && at(p + 1) == '\n' ? 2 : 1; }

  void push(TokenKind kind, size_t b, size_t e, std::string value = {}) {
    tokens_.push_back(Token{kind, range(b, e), std::move(value)});
  }

  void skip_spaces() {
    while (pos_ < end_ && (text_[pos_] == ' ' || text_[pos_] == '\t' || text_[pos_] == '\f')) ++pos_;
  }

  // At the start of a physical line outside brackets: measure indentation, skip
  // blank and comment-only lines, and emit INDENT/DEDENT before the line's first
  // token. Returns false at the end of the input.
  bool start_line() {
    size_t line_begin = pos_;
    IndentLevel level{0, 0};
    size_t p = pos_;
    for (; p < end_; ++p) {
      char c = text_[p];
      if (c == ' ') {
        ++level.width8;
        ++level.width1;
      } else if (c == '\t') {
        level.width8 = (level.width8 / 8 + 1) * 8;
        ++level.width1;
      } else if (c == '\f') {
        level = {0, 0};  // Python resets the count at a form feed
      } else {
        break;
      }
    }
    pos_ = p;
    if (p >= end_) return false;
    if (text_[p] == '#') {
      lex_comment();
      return true;
    }
    if (is_newline_at(p)) {
      pos_ = p + newline_length(p);
      return true;
    }
    at_line_start_ = false;
    apply_indentation(level, line_begin, p);
    return true;
  }

  void apply_indentation(IndentLevel level, size_t line_begin, size_t first) {
    const IndentLevel top = indents_.back();
    if (level.width8 > top.width8) {
      if (level.width1 <= top.width1) fail(line_begin, first, "inconsistent use of tabs and spaces in indentation");
      if (indents_.size() > kMaxIndentLevels) {
        throw_limit_error(range(line_begin, first),
                          fmt::format("too many levels of indentation (the limit is {})", kMaxIndentLevels));
      }
      indents_.push_back(level);
      push(TokenKind::Indent, line_begin, first);
      return;
    }
    if (level.width8 == top.width8) {
      if (level.width1 != top.width1) fail(line_begin, first, "inconsistent use of tabs and spaces in indentation");
      return;
    }
    while (level.width8 < indents_.back().width8) {
      indents_.pop_back();
      push(TokenKind::Dedent, first, first);
    }
    const IndentLevel& now = indents_.back();
    if (level.width8 != now.width8) fail(line_begin, first, "unindent does not match any outer indentation level");
    if (level.width1 != now.width1) fail(line_begin, first, "inconsistent use of tabs and spaces in indentation");
  }

  // A comment runs to the end of the line. `# type: ...` (but not `# type: ignore`)
  // becomes a TYPE_COMMENT token whose range is the text after `type:`.
  void lex_comment() {
    size_t b = pos_;
    size_t e = b;
    while (e < end_ && !is_newline_at(e)) ++e;
    pos_ = e;
    std::string_view body = std::string_view(text_).substr(b + 1, e - b - 1);
    size_t lead = body.find_first_not_of(" \t");
    if (lead == std::string_view::npos || body.substr(lead, 5) != "type:") return;
    size_t vb = b + 1 + lead + 5;
    while (vb < e && (text_[vb] == ' ' || text_[vb] == '\t')) ++vb;
    size_t ve = e;
    while (ve > vb && (text_[ve - 1] == ' ' || text_[ve - 1] == '\t')) --ve;
    std::string_view value = std::string_view(text_).substr(vb, ve - vb);
    if (value.starts_with("ignore") && (value.size() == 6 || value[6] == ' ' || value[6] == '[')) return;
    push(TokenKind::TypeComment, vb, ve, std::string(value));
  }

  void lex_one() {
    size_t b = pos_;
    unsigned char c = at(b);
    if (c == '#') return lex_comment();
    if (c == '\n' || c == '\r') return lex_newline();
    if (c == '\\') return lex_continuation();
    if (is_ident_start(c)) return lex_word();
    if (is_digit_in(c, 10) || (c == '.' && is_digit_in(at(b + 1), 10))) return lex_number();
    if (c == '"' || c == '\'') return lex_string(b, b, false);
    lex_operator();
  }

  void lex_newline() {
    size_t b = pos_;
    pos_ += newline_length(b);
    if (!brackets_.empty()) return;  // implicit line joining inside brackets
    if (!tokens_.empty() && tokens_.back().kind != TokenKind::Newline) push(TokenKind::Newline, b, b + 1);
    at_line_start_ = true;
  }

  void lex_continuation() {
    size_t b = pos_;
    if (b + 1 >= end_) fail(b, b + 1, "unexpected end of file after line continuation character");
    if (!is_newline_at(b + 1)) fail(b, b + 1, "unexpected character after line continuation character");
    pos_ = b + 1 + newline_length(b + 1);
  }

  void lex_word() {
    size_t b = pos_;
    size_t e = b;
    while (e < end_ && ascii_word(at(e))) ++e;
    std::string_view word = std::string_view(text_).substr(b, e - b);
    if ((at(e) == '"' || at(e) == '\'') && word.size() <= 2) {
      bool raw = false, bytes = false, format = false, valid = true;
      for (char ch : word) {
        switch (ch) {
          case 'r': case 'R': valid = valid && !raw; raw = true; break;
          case 'b': case 'B': valid = valid && !bytes; bytes = true; break;
          case 'f': case 'F': valid = valid && !format; format = true; break;
          case 'u': case 'U': valid = valid && word.size() == 1; break;
          default: valid = false;
        }
      }
      if (valid && !(bytes && format)) {
        if (bytes) fail(b, e + 1, "bytes literals are not supported in TorchScript");
        if (format) return lex_fstring(b, e, raw);
        lex_string(b, e, raw);
        return;
      }
    }
    pos_ = e;
    std::optional<TokenKind> kw = keyword_kind(word);
    push(kw ? *kw : TokenKind::Ident, b, e);
  }

  // Consumes a run of digits of a base with single `_` separators between digits.
  // Returns false if there were no digits; fails on a misplaced `_`.
  bool digit_part(int base, size_t literal_begin, bool allow_leading_underscore) {
    size_t start = pos_;
    bool any = false;
    while (pos_ < end_) {
      if (text_[pos_] == '_') {
        if ((!any && !allow_leading_underscore) || !is_digit_in(at(pos_ + 1), base)) {
          fail(literal_begin, pos_ + 1, "invalid number literal: '_' must separate two digits");
        }
        ++pos_;
        continue;
      }
      if (!is_digit_in(at(pos_), base)) break;
      any = true;
      ++pos_;
    }
    return any || pos_ > start;
  }

  void lex_number() {
    size_t b = pos_;
    unsigned char c1 = at(b + 1);
    if (at(b) == '0' && (c1 == 'x' || c1 == 'X' || c1 == 'o' || c1 == 'O' || c1 == 'b' || c1 == 'B')) {
      int base = (c1 == 'x' || c1 == 'X') ? 16 : (c1 == 'o' || c1 == 'O') ? 8 : 2;
      const char* name = base == 16 ? "hexadecimal" : base == 8 ? "octal" : "binary";
      pos_ = b + 2;
      if (!digit_part(base, b, true)) fail(b, pos_ + 1, fmt::format("invalid {} literal", name));
      if (ascii_word(at(pos_))) fail(b, pos_ + 1, fmt::format("invalid digit '{}' in {} literal", printable_byte(at(pos_)), name));
      push(TokenKind::IntLiteral, b, pos_);
      return;
    }
    bool is_float = false;
    digit_part(10, b, false);
    if (at(pos_) == '.') {
      is_float = true;
      ++pos_;
      if (is_digit_in(at(pos_), 10)) digit_part(10, b, false);
    }
    if (at(pos_) == 'e' || at(pos_) == 'E') {
      size_t p = pos_ + 1;
      if (at(p) == '+' || at(p) == '-') ++p;
      if (!is_digit_in(at(p), 10)) fail(b, p + 1, "invalid float literal: exponent has no digits");
      pos_ = p;
      digit_part(10, b, false);
      is_float = true;
    }
    TokenKind kind = is_float ? TokenKind::FloatLiteral : TokenKind::IntLiteral;
    if (at(pos_) == 'j' || at(pos_) == 'J') {
      ++pos_;
      kind = TokenKind::ImagLiteral;
    }
    if (ascii_word(at(pos_))) fail(b, pos_ + 1, "invalid decimal literal");
    if (kind == TokenKind::IntLiteral && at(b) == '0') {
      for (size_t p = b; p < pos_; ++p) {
        if (text_[p] != '0' && text_[p] != '_') {
          fail(b, pos_, "leading zeros in decimal integer literals are not permitted; use an 0o prefix for octal integers");
        }
      }
    }
    push(kind, b, pos_);
  }

  // A string literal starting at `b` (its prefix) whose opening quote is at `q`.
  void lex_string(size_t b, size_t q, bool raw) {
    char quote = text_[q];
    bool triple = at(q + 1) == static_cast<unsigned char>(quote) && at(q + 2) == static_cast<unsigned char>(quote);
    size_t p = q + (triple ? 3 : 1);
    std::string value;
    while (true) {
      if (p >= end_) {
        fail(b, end_, triple ? "unterminated triple-quoted string literal" : "unterminated string literal");
      }
      char c = text_[p];
      if (!triple && (c == '\n' || c == '\r')) fail(b, p, "unterminated string literal");
      if (c == quote && (!triple || (at(p + 1) == static_cast<unsigned char>(quote) &&
                                     at(p + 2) == static_cast<unsigned char>(quote)))) {
        p += triple ? 3 : 1;
        break;
      }
      if (c == '\\') {
        if (p + 1 >= end_) fail(b, end_, triple ? "unterminated triple-quoted string literal" : "unterminated string literal");
        if (raw) {
          // A raw string keeps the backslash and the next character, which cannot
          // close the string.
          size_t n = is_newline_at(p + 1) ? newline_length(p + 1) : 1;
          value.append(text_, p, 1 + n);
          p += 1 + n;
          continue;
        }
        p = decode_escape(p, value);
        continue;
      }
      if (c == '\r') {  // normalise line breaks inside triple-quoted strings, as Python does
        value += '\n';
        p += newline_length(p);
        continue;
      }
      value += c;
      ++p;
    }
    pos_ = p;
    push(TokenKind::StringLiteral, b, p, std::move(value));
  }

  // Note [f-strings]
  // f"a{x}b{y + 1}" is lexed as if written "a{}b{}".format(x, y + 1), which is how torch
  // compiles it (aten::format): a FormatString token holding "a{}b{}", then `(`, the
  // tokens of each replacement field (lexed where they stand, so errors point into the
  // literal) separated by `,`, and `)`. The parser turns that into the call. Conversions
  // (`!r`) and format specs (`:3d`) are refused, as torch refuses them.
  void lex_fstring(size_t b, size_t q, bool raw) {
    const char quote = text_[q];
    const bool triple = at(q + 1) == static_cast<unsigned char>(quote) && at(q + 2) == static_cast<unsigned char>(quote);
    size_t p = q + (triple ? 3 : 1);
    std::string format;
    std::vector<std::pair<size_t, size_t>> fields;
    auto closes = [&](size_t at_p) {
      return text_[at_p] == quote && (!triple || (at(at_p + 1) == static_cast<unsigned char>(quote) &&
                                                  at(at_p + 2) == static_cast<unsigned char>(quote)));
    };
    while (true) {
      if (p >= end_ || (!triple && is_newline_at(p))) fail(b, std::min(p, end_), "unterminated string literal");
      const char c = text_[p];
      if (closes(p)) {
        p += triple ? 3 : 1;
        break;
      }
      if (c == '{' && at(p + 1) == '{') {
        format += '{';
        p += 2;
      } else if (c == '}' && at(p + 1) == '}') {
        format += '}';
        p += 2;
      } else if (c == '}') {
        fail(p, p + 1, "f-string: single '}' is not allowed");
      } else if (c == '{') {
        // The field runs to the matching '}' outside nested brackets and quotes.
        size_t e = p + 1;
        int depth = 0;
        char in_quote = 0;
        for (; e < end_ && !is_newline_at(e); ++e) {
          const char d = text_[e];
          if (in_quote) {
            if (d == in_quote) in_quote = 0;
          } else if (d == quote) {
            break;  // the literal ends inside the field
          } else if (d == '\'' || d == '"') {
            in_quote = d;
          } else if (d == '(' || d == '[' || d == '{') {
            ++depth;
          } else if (d == ')' || d == ']' || (d == '}' && depth > 0)) {
            --depth;
          } else if (d == '}') {
            break;
          } else if (depth == 0 && (d == ':' || (d == '!' && at(e + 1) != '='))) {
            fail(b, b + 1, "Don't support formatting in JoinedStr");
          }
        }
        if (e >= end_ || text_[e] != '}') fail(b, std::min(e, end_), "f-string: expecting '}'");
        fields.emplace_back(p + 1, e);
        format += "{}";
        p = e + 1;
      } else if (c == '\\' && !raw) {
        p = decode_escape(p, format);
      } else {
        format += c;
        ++p;
      }
    }
    pos_ = p;
    push(TokenKind::FormatString, b, p, std::move(format));
    push(TokenKind::LeftParen, b, p);
    for (size_t i = 0; i < fields.size(); ++i) {
      if (i) push(TokenKind::Comma, b, p);
      std::vector<Token> inner = Lexer(source_, fields[i].first, fields[i].second, true).run();
      for (Token& t : inner)
        if (t.kind != TokenKind::Newline && t.kind != TokenKind::Eof) tokens_.push_back(std::move(t));
      if (tokens_.back().kind == TokenKind::LeftParen && tokens_.back().range.start() == b)
        fail(fields[i].first - 1, fields[i].second + 1, "f-string: empty expression not allowed");
    }
    push(TokenKind::RightParen, b, p);
  }

  // Decodes the escape at p (a backslash) into out; returns the position after it.
  size_t decode_escape(size_t p, std::string& out) {
    unsigned char e = at(p + 1);
    switch (e) {
      case '\n': return p + 2;
      case '\r': return p + 1 + newline_length(p + 1);
      case '\\': out += '\\'; return p + 2;
      case '\'': out += '\''; return p + 2;
      case '"': out += '"'; return p + 2;
      case 'a': out += '\a'; return p + 2;
      case 'b': out += '\b'; return p + 2;
      case 'f': out += '\f'; return p + 2;
      case 'n': out += '\n'; return p + 2;
      case 'r': out += '\r'; return p + 2;
      case 't': out += '\t'; return p + 2;
      case 'v': out += '\v'; return p + 2;
      case 'x': return decode_hex_escape(p, 2, out);
      case 'u': return decode_hex_escape(p, 4, out);
      case 'U': return decode_hex_escape(p, 8, out);
      case 'N': fail(p, p + 2, "\\N{...} escapes are not supported in TorchScript strings");
      default: break;
    }
    if (e >= '0' && e <= '7') {
      uint32_t cp = 0;
      size_t q = p + 1;
      for (int i = 0; i < 3 && at(q) >= '0' && at(q) <= '7'; ++i, ++q) cp = cp * 8 + (at(q) - '0');
      append_utf8(out, cp);
      return q;
    }
    // Python keeps an unknown escape as written (with a warning).
    out += '\\';
    return p + 1;
  }

  size_t decode_hex_escape(size_t p, int digits, std::string& out) {
    uint32_t cp = 0;
    for (int i = 0; i < digits; ++i) {
      int v = hex_value(at(p + 2 + i));
      if (v < 0) {
        fail(p, std::min(p + 2 + i + 1, end_), fmt::format("truncated \\{}{} escape", static_cast<char>(at(p + 1)),
                                                          std::string(digits, 'X')));
      }
      cp = cp * 16 + static_cast<uint32_t>(v);
    }
    if (cp > 0x10ffff) fail(p, p + 2 + digits, "illegal Unicode character in escape");
    append_utf8(out, cp);
    return p + 2 + digits;
  }

  void lex_operator() {
    size_t b = pos_;
    std::string_view rest = std::string_view(text_).substr(b, end_ - b);
    for (const auto& [spelling, k] : operators_longest_first()) {
      if (spelling[0] != rest[0] || !rest.starts_with(spelling)) continue;
      pos_ = b + spelling.size();
      track_bracket(k, b);
      push(k, b, pos_);
      return;
    }
    unsigned char c = at(b);
    if (c == '!') fail(b, b + 1, "invalid syntax: '!' is only valid in '!='");
    fail(b, b + 1, fmt::format("invalid character '{}' in source", printable_byte(c)));
  }

  void track_bracket(TokenKind k, size_t b) {
    if (k == TokenKind::LeftParen || k == TokenKind::LeftBracket || k == TokenKind::LeftBrace) {
      brackets_.push_back(b);
      return;
    }
    char open = k == TokenKind::RightParen ? '(' : k == TokenKind::RightBracket ? '[' : k == TokenKind::RightBrace ? '{' : 0;
    if (open == 0) return;
    if (brackets_.empty()) fail(b, b + 1, fmt::format("unmatched '{}'", text_[b]));
    char actual = text_[brackets_.back()];
    if (actual != open) {
      fail(b, b + 1, fmt::format("closing parenthesis '{}' does not match opening parenthesis '{}' on line {}", text_[b],
                                 actual, source_->line_index(brackets_.back()) + source_->starting_line()));
    }
    brackets_.pop_back();
  }

  void finish() {
    if (!brackets_.empty()) {
      size_t open = brackets_.back();
      fail(open, open + 1, fmt::format("'{}' was never closed", text_[open]));
    }
    size_t e = std::min(end_, text_.size());
    if (!tokens_.empty() && tokens_.back().kind != TokenKind::Newline) {
      push(TokenKind::Newline, e, e);
    }
    while (indents_.size() > 1) {
      indents_.pop_back();
      push(TokenKind::Dedent, e, e);
    }
    push(TokenKind::Eof, e, e);
  }

  // Adjacent string literals form one literal ("a" "b" == "ab"); layout tokens
  // cannot separate them since inside brackets no NEWLINE is emitted.
  void merge_adjacent_strings() {
    size_t out = 0;
    for (size_t i = 0; i < tokens_.size(); ++i) {
      if (out > 0 && tokens_[i].kind == TokenKind::StringLiteral && tokens_[out - 1].kind == TokenKind::StringLiteral) {
        Token& prev = tokens_[out - 1];
        prev.value += tokens_[i].value;
        prev.range = range(prev.range.start(), tokens_[i].range.end());
        continue;
      }
      if (out != i) tokens_[out] = std::move(tokens_[i]);
      ++out;
    }
    tokens_.resize(out);
  }

  std::shared_ptr<const Source> source_;
  const std::string& text_;
  size_t pos_;
  size_t end_;
  bool fragment_;
  bool at_line_start_ = true;
  std::vector<size_t> brackets_;  // offsets of the open brackets
  std::vector<IndentLevel> indents_;
  std::vector<Token> tokens_;
};

}  // namespace

const char* token_kind_spelling(TokenKind kind) { return kKindInfo[static_cast<size_t>(kind)].spelling; }

TokenCategory token_kind_category(TokenKind kind) { return kKindInfo[static_cast<size_t>(kind)].category; }

size_t token_kind_count() { return std::size(kKindInfo); }

std::optional<TokenKind> keyword_kind(std::string_view word) {
  static const std::unordered_map<std::string_view, TokenKind> keywords = [] {
    std::unordered_map<std::string_view, TokenKind> m;
    for (TokenKind k : kAllKinds) {
      if (token_kind_category(k) == TokenCategory::Keyword) m.emplace(token_kind_spelling(k), k);
    }
    return m;
  }();
  auto it = keywords.find(word);
  if (it == keywords.end()) return std::nullopt;
  return it->second;
}

std::vector<Token> tokenize(std::shared_ptr<const Source> source) {
  size_t n = source->text().size();
  return Lexer(std::move(source), 0, n, false).run();
}

std::vector<Token> tokenize_fragment(std::shared_ptr<const Source> source, size_t begin, size_t end) {
  TL_INTERNAL_ASSERT(begin <= end && end <= source->text().size(), "fragment inside its source");
  Lexer lexer(std::move(source), begin, end, true);
  return lexer.run();
}

std::string describe_token(const Token& token) {
  switch (token_kind_category(token.kind)) {
    case TokenCategory::Special:
      return token.kind == TokenKind::NotIn || token.kind == TokenKind::IsNot
                 ? fmt::format("'{}'", token_kind_spelling(token.kind))
                 : std::string(token_kind_spelling(token.kind));
    case TokenCategory::Literal:
    case TokenCategory::Keyword:
    case TokenCategory::Operator: {
      std::string_view t = token.text();
      if (t.size() > 40) return fmt::format("'{}...'", t.substr(0, 37));
      return fmt::format("'{}'", t);
    }
  }
  return "token";
}

}  // namespace torchlet::jit

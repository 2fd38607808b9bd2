// The TorchScript lexer: source text -> tokens, with Python's layout rules. It injects
// NEWLINE at the end of each logical line and INDENT/DEDENT when indentation changes
// (none inside brackets or after a backslash continuation), decodes string literals
// (merging adjacent ones) and keeps `# type:` comments as tokens. It validates literal
// spelling but leaves converting numbers to the parser. Errors are CompileErrors (and
// LimitErrors) carrying the highlighted range (error_report.h).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "jit/ir/source_range.h"

namespace torchlet::jit {

enum class TokenKind : uint8_t {
#define TL_TOKEN(name, spelling, category) name,
#include "jit/frontend/token_kinds.def"
#undef TL_TOKEN
};

enum class TokenCategory : uint8_t { Special, Literal, Keyword, Operator };

// The spelling of a kind as token_kinds.def gives it ("+", "def", "NEWLINE").
const char* token_kind_spelling(TokenKind kind);
TokenCategory token_kind_category(TokenKind kind);
// The keyword a word spells, if it is one.
std::optional<TokenKind> keyword_kind(std::string_view word);
// Number of token kinds (rows in token_kinds.def).
size_t token_kind_count();

struct Token {
  TokenKind kind = TokenKind::Eof;
  SourceRange range;
  // StringLiteral: the decoded value (adjacent literals concatenated). TypeComment:
  // the text after `type:`, trimmed (its range covers exactly that text). Otherwise
  // empty; the spelling is range.text().
  std::string value;

  std::string_view text() const { return range.text(); }
};

// Python's limit on nested indentation levels (its tokenizer's MAXINDENT); deeper
// blocks are a LimitError rather than an ever-growing indentation stack.
inline constexpr size_t kMaxIndentLevels = 100;

// Tokenizes a whole file. The result always ends with NEWLINE (if the file has any
// tokens), the DEDENTs closing every open block, then EOF.
std::vector<Token> tokenize(std::shared_ptr<const Source> source);

// Tokenizes [begin, end) of a source as one logical line (no INDENT/DEDENT), for text
// embedded in a comment such as a type comment; ranges still point into the source.
std::vector<Token> tokenize_fragment(std::shared_ptr<const Source> source, size_t begin, size_t end);

// A short description of a token for messages: its text for names, literals,
// keywords and operators ("'foo'", "'+'"), the kind for NEWLINE/INDENT/DEDENT/EOF.
std::string describe_token(const Token& token);

}  // namespace torchlet::jit

// Lexer tests: the token table, layout tokens (NEWLINE/INDENT/DEDENT, bracket joining,
// continuations), every literal form, type comments, and the errors with their
// highlighted source line.
#include "jit/frontend/lexer.h"

#include <set>

#include <gtest/gtest.h>

#include <torchlet/error.h>

namespace torchlet::jit {
namespace {

constexpr TokenKind kAllKinds[] = {
#define TL_TOKEN(name, spelling, category) TokenKind::name,
#include "jit/frontend/token_kinds.def"
#undef TL_TOKEN
};

std::vector<Token> lex_tokens(std::string src) { return tokenize(std::make_shared<const Source>(std::move(src))); }

// Tokens as one line: layout kinds by name, strings as [decoded value], others as text.
std::string lex(std::string src) {
  std::string out;
  for (const Token& t : lex_tokens(std::move(src))) {
    if (!out.empty()) out += ' ';
    if (t.kind == TokenKind::StringLiteral) {
      out += "[" + t.value + "]";
    } else if (t.kind == TokenKind::FormatString) {
      out += "f[" + t.value + "]";
    } else if (t.kind == TokenKind::TypeComment) {
      out += "TYPE_COMMENT{" + t.value + "}";
    } else if (token_kind_category(t.kind) == TokenCategory::Special || token_kind_category(t.kind) == TokenCategory::Operator) {
      out += token_kind_spelling(t.kind);
    } else {
      out += std::string(t.text());
    }
  }
  return out;
}

std::string lex_error(std::string src) {
  try {
    lex_tokens(std::move(src));
  } catch (const CompileError& e) {
    return e.what();
  }
  return "no error";
}

TEST(TokenTable, SpellingsAreUniqueAndKeywordsRoundTrip) {
  std::set<std::string> spellings;
  size_t keywords = 0;
  for (TokenKind k : kAllKinds) {
    EXPECT_TRUE(spellings.insert(token_kind_spelling(k)).second) << token_kind_spelling(k);
    if (token_kind_category(k) == TokenCategory::Keyword) {
      ++keywords;
      ASSERT_TRUE(keyword_kind(token_kind_spelling(k)).has_value());
      EXPECT_EQ(*keyword_kind(token_kind_spelling(k)), k);
    }
  }
  EXPECT_EQ(token_kind_count(), std::size(kAllKinds));
  EXPECT_EQ(keywords, 35u);  // Python 3's keyword.kwlist
  EXPECT_FALSE(keyword_kind("self").has_value());
  EXPECT_FALSE(keyword_kind("match").has_value());  // soft keywords are names
}

TEST(TokenTable, EveryOperatorLexesAsItself) {
  for (TokenKind k : kAllKinds) {
    if (token_kind_category(k) != TokenCategory::Operator) continue;
    std::string spelling = token_kind_spelling(k);
    // Brackets must balance to lex; wrap closers in their openers.
    std::string src = spelling == ")" ? "()" : spelling == "]" ? "[]" : spelling == "}" ? "{}" : spelling;
    if (spelling == "(" || spelling == "[" || spelling == "{") src += spelling == "(" ? ")" : spelling == "[" ? "]" : "}";
    std::vector<Token> toks = lex_tokens("a " + src + " b\n");
    size_t index = spelling == ")" || spelling == "]" || spelling == "}" ? 2 : 1;
    ASSERT_GT(toks.size(), index) << spelling;
    EXPECT_EQ(toks[index].kind, k) << spelling;
    EXPECT_EQ(toks[index].text(), spelling);
  }
}

TEST(Lexer, LayoutTokens) {
  EXPECT_EQ(lex("if x:\n    y\n    z\nw\n"), "if x : NEWLINE INDENT y NEWLINE z NEWLINE DEDENT w NEWLINE EOF");
  EXPECT_EQ(lex("a\n  b\n    c\nd"), "a NEWLINE INDENT b NEWLINE INDENT c NEWLINE DEDENT DEDENT d NEWLINE EOF");
  EXPECT_EQ(lex("a\n  b\n    c"), "a NEWLINE INDENT b NEWLINE INDENT c NEWLINE DEDENT DEDENT EOF");
  EXPECT_EQ(lex(""), "EOF");
  EXPECT_EQ(lex("\n\n   \n# only a comment\n"), "EOF");
  // Blank and comment-only lines do not affect indentation, wherever they are indented.
  EXPECT_EQ(lex("if a:\n\n        # deep comment\n  b\n# shallow\n  c\n"),
            "if a : NEWLINE INDENT b NEWLINE c NEWLINE DEDENT EOF");
}

TEST(Lexer, BracketsJoinLinesAndSuppressLayout) {
  EXPECT_EQ(lex("f(a,\n        b,\n  c)\nd\n"), "f ( a , b , c ) NEWLINE d NEWLINE EOF");
  EXPECT_EQ(lex("x = [\n    1,  # one\n\n  2]\n"), "x = [ 1 , 2 ] NEWLINE EOF");
  EXPECT_EQ(lex("{a: (b,\n[c\n])}\n"), "{ a : ( b , [ c ] ) } NEWLINE EOF");
}

TEST(Lexer, BackslashContinuation) {
  EXPECT_EQ(lex("x = 1 + \\\n    2\ny\n"), "x = 1 + 2 NEWLINE y NEWLINE EOF");
  EXPECT_EQ(lex("if a:\n    x = \\\n3\n"), "if a : NEWLINE INDENT x = 3 NEWLINE DEDENT EOF");
  EXPECT_EQ(lex("x = 1 \\\r\n + 2\r\n"), "x = 1 + 2 NEWLINE EOF");
  EXPECT_NE(lex_error("x = 1 \\ 2\n").find("unexpected character after line continuation character"),
            std::string::npos);
  EXPECT_NE(lex_error("x = \\").find("unexpected end of file after line continuation"), std::string::npos);
}

TEST(Lexer, CrlfAndSemicolons) {
  EXPECT_EQ(lex("if a:\r\n  b; c\r\n"), "if a : NEWLINE INDENT b ; c NEWLINE DEDENT EOF");
}

TEST(Lexer, Tabs) {
  EXPECT_EQ(lex("if a:\n\tb\n\tif c:\n\t\td\n"), "if a : NEWLINE INDENT b NEWLINE if c : NEWLINE INDENT d NEWLINE DEDENT DEDENT EOF");
  // A tab and eight spaces are the same width only if the tab width is 8: refused.
  std::string err = lex_error("if a:\n\tb\n        c\n");
  EXPECT_NE(err.find("inconsistent use of tabs and spaces in indentation"), std::string::npos) << err;
  err = lex_error("if a:\n    \tb\n\tc\n");
  EXPECT_NE(err.find("inconsistent use of tabs and spaces in indentation"), std::string::npos) << err;
}

TEST(Lexer, InconsistentDedentHighlightsTheLine) {
  EXPECT_EQ(lex_error("if a:\n    b\n  c\n"),
            "unindent does not match any outer indentation level:\n"
            "if a:\n"
            "    b\n"
            "  c\n"
            "~~ <--- HERE\n");
}

TEST(Lexer, IndentationLimit) {
  std::string src;
  for (size_t i = 0; i <= kMaxIndentLevels + 1; ++i) src += std::string(i, ' ') + "if a:\n";
  src += std::string(kMaxIndentLevels + 2, ' ') + "pass\n";
  EXPECT_THROW(lex_tokens(src), LimitError);
  std::string ok;
  for (size_t i = 0; i < 50; ++i) ok += std::string(i, ' ') + "if a:\n";
  ok += std::string(50, ' ') + "pass\n";
  EXPECT_NO_THROW(lex_tokens(ok));
}

TEST(Lexer, IntegerLiterals) {
  EXPECT_EQ(lex("0 7 1_000_000 0x1F 0X_ff 0o17 0O7 0b1010 0B_1 00 0_0"),
            "0 7 1_000_000 0x1F 0X_ff 0o17 0O7 0b1010 0B_1 00 0_0 NEWLINE EOF");
  for (const Token& t : lex_tokens("0 7 1_000 0x1F 0o17 0b1")) {
    if (t.kind == TokenKind::Newline) break;
    EXPECT_EQ(t.kind, TokenKind::IntLiteral) << t.text();
  }
  EXPECT_NE(lex_error("x = 012\n").find("leading zeros in decimal integer literals are not permitted"), std::string::npos);
  EXPECT_NE(lex_error("1__0").find("'_' must separate two digits"), std::string::npos);
  EXPECT_NE(lex_error("1_").find("'_' must separate two digits"), std::string::npos);
  EXPECT_NE(lex_error("0x").find("invalid hexadecimal literal"), std::string::npos);
  EXPECT_NE(lex_error("0b102").find("invalid digit '2' in binary literal"), std::string::npos);
  EXPECT_NE(lex_error("0o8").find("invalid octal literal"), std::string::npos);
  EXPECT_NE(lex_error("12abc").find("invalid decimal literal"), std::string::npos);
}

TEST(Lexer, FloatAndImaginaryLiterals) {
  std::vector<std::pair<std::string, TokenKind>> cases = {
      {"1.5", TokenKind::FloatLiteral}, {".5", TokenKind::FloatLiteral},   {"1.", TokenKind::FloatLiteral},
      {"1e10", TokenKind::FloatLiteral}, {"1E-3", TokenKind::FloatLiteral}, {"2.5e+7", TokenKind::FloatLiteral},
      {"1_0.0_1e1_0", TokenKind::FloatLiteral}, {"0.0", TokenKind::FloatLiteral}, {"00.5", TokenKind::FloatLiteral},
      {"3j", TokenKind::ImagLiteral},   {"1.5J", TokenKind::ImagLiteral},  {"1e3j", TokenKind::ImagLiteral},
      {"0j", TokenKind::ImagLiteral},   {".5j", TokenKind::ImagLiteral},
  };
  for (const auto& [text, kind] : cases) {
    std::vector<Token> toks = lex_tokens(text);
    ASSERT_EQ(toks.size(), 3u) << text;
    EXPECT_EQ(toks[0].kind, kind) << text;
    EXPECT_EQ(toks[0].text(), text);
  }
  EXPECT_NE(lex_error("1e").find("exponent has no digits"), std::string::npos);
  EXPECT_NE(lex_error("1e+").find("exponent has no digits"), std::string::npos);
  EXPECT_NE(lex_error("1.5x").find("invalid decimal literal"), std::string::npos);
  // `x.y` is an attribute, `1 .real` a number then an attribute, `...` an ellipsis.
  EXPECT_EQ(lex("x.y 1 .real ... x[...]"), "x . y 1 . real ... x [ ... ] NEWLINE EOF");
}

TEST(Lexer, StringLiterals) {
  EXPECT_EQ(lex("'a' \"b\""), "[ab] NEWLINE EOF");  // adjacent literals merge
  EXPECT_EQ(lex("x('a'\n  'b', 'c')"), "x ( [ab] , [c] ) NEWLINE EOF");
  EXPECT_EQ(lex("'''one\ntwo''' \"\"\"th'ree\"\"\""), "[one\ntwoth'ree] NEWLINE EOF");
  EXPECT_EQ(lex("'it\\'s' \"q\\\"\""), "[it'sq\"] NEWLINE EOF");
  EXPECT_EQ(lex(R"('\n\t\\\a\b\f\v\r\0')"), "[\n\t\\\a\b\f\v\r" + std::string(1, '\0') + "] NEWLINE EOF");
  EXPECT_EQ(lex(R"('\x41\101\u00e9\U0001F600\q')"), "[AA\xc3\xa9\xf0\x9f\x98\x80\\q] NEWLINE EOF");
  EXPECT_EQ(lex(R"(r'\n\'' R"\d" u'x' U'y')"), "[\\n\\'\\dxy] NEWLINE EOF");
  EXPECT_EQ(lex("'a\\\nb'"), "[ab] NEWLINE EOF");  // backslash-newline continues the literal
  EXPECT_EQ(lex("'''a\r\nb'''"), "[a\nb] NEWLINE EOF");
  EXPECT_EQ(lex("''"), "[] NEWLINE EOF");
  EXPECT_EQ(lex("'''''' 'x'"), "[x] NEWLINE EOF");
  std::vector<Token> toks = lex_tokens("x = 'a' 'b'\n");
  EXPECT_EQ(toks[2].range.text(), "'a' 'b'");
}

TEST(Lexer, StringErrors) {
  EXPECT_EQ(lex_error("x = 'abc\ny = 1\n"),
            "unterminated string literal:\n"
            "x = 'abc\n"
            "    ~~~~ <--- HERE\n"
            "y = 1\n");
  EXPECT_NE(lex_error("x = '''abc\n\n").find("unterminated triple-quoted string literal"), std::string::npos);
  EXPECT_NE(lex_error("x = 'abc\\").find("unterminated string literal"), std::string::npos);
  EXPECT_NE(lex_error("b'x'").find("bytes literals are not supported"), std::string::npos);
  EXPECT_NE(lex_error("rb'x'").find("bytes literals are not supported"), std::string::npos);
  EXPECT_NE(lex_error("f'{x:3d}'").find("Don't support formatting in JoinedStr"), std::string::npos);
  EXPECT_NE(lex_error("f'{x!r}'").find("Don't support formatting in JoinedStr"), std::string::npos);
  EXPECT_NE(lex_error("f'{x'").find("expecting '}'"), std::string::npos);
  EXPECT_NE(lex_error("f'a}'").find("single '}' is not allowed"), std::string::npos);
  EXPECT_NE(lex_error(R"('\x4')").find("truncated \\xXX escape"), std::string::npos);
  EXPECT_NE(lex_error(R"('\U00110000')").find("illegal Unicode character"), std::string::npos);
  EXPECT_NE(lex_error(R"('\N{DASH}')").find("\\N{...} escapes are not supported"), std::string::npos);
  // Note [f-strings]: f"a{x}b{y[0] + 1}" lexes as "a{}b{}" ( x , y [ 0 ] + 1 ), the
  // fields' tokens where they stand in the literal; {{ and }} are braces.
  EXPECT_EQ(lex("f'a{x}b{y[0] + 1}{{c}}'"), "f[a{}b{}{c}] ( x , y [ 0 ] + 1 ) NEWLINE EOF");
  EXPECT_EQ(lex("f\"{d['k']}\""), "f[{}] ( d [ [k] ] ) NEWLINE EOF");
  // Prefixes that are not string prefixes are names.
  EXPECT_EQ(lex("ur 'x'"), "ur [x] NEWLINE EOF");
}

// A range over many lines is highlighted on its first line only.
TEST(Lexer, LongRangesAreHighlightedOnTheirFirstLine) {
  std::string src = "x = 1\ns = \"\"\"never closed\n";
  for (int i = 0; i < 10000; ++i) src += "line " + std::to_string(i) + "\n";
  std::string err = lex_error(src);
  EXPECT_EQ(err,
            "unterminated triple-quoted string literal:\n"
            "x = 1\n"
            "s = \"\"\"never closed\n"
            "    ~~~~~~~~~~~~~~~ <--- HERE\n"
            "line 0\n"
            "line 1\n");
}

TEST(Lexer, TypeComments) {
  EXPECT_EQ(lex("def f(x):  # type: (int) -> int\n    return x\n"),
            "def f ( x ) : TYPE_COMMENT{(int) -> int} NEWLINE INDENT return x NEWLINE DEDENT EOF");
  EXPECT_EQ(lex("def f(x):\n    # type:(int)->int   \n    return x\n"),
            "def f ( x ) : NEWLINE TYPE_COMMENT{(int)->int} INDENT return x NEWLINE DEDENT EOF");
  EXPECT_EQ(lex("x = 1  # type: ignore\ny = 2  # type: ignore[attr]\n# typed comment\n"),
            "x = 1 NEWLINE y = 2 NEWLINE EOF");
  std::vector<Token> toks = lex_tokens("x = []  # type: List[int]\n");
  ASSERT_EQ(toks[4].kind, TokenKind::TypeComment);  // x = [ ] TYPE_COMMENT
  EXPECT_EQ(toks[4].range.text(), "List[int]");  // the range covers the type, for errors  // the range covers the type, for errors
}

TEST(Lexer, Fragment) {
  auto src = std::make_shared<const Source>("def f(x):  # type: (int) -> int\n");
  size_t b = src->text().find('(', 10);
  std::vector<Token> toks = tokenize_fragment(src, b, src->text().size() - 1);
  std::string kinds;
  for (const Token& t : toks) kinds += std::string(token_kind_category(t.kind) == TokenCategory::Special ? token_kind_spelling(t.kind) : t.text()) + " ";
  EXPECT_EQ(kinds, "( int ) -> int NEWLINE EOF ");
  EXPECT_EQ(toks[0].range.start(), b);
}

TEST(Lexer, BracketErrors) {
  EXPECT_EQ(lex_error("x = (1,\n  2\n"),
            "'(' was never closed:\n"
            "x = (1,\n"
            "    ~ <--- HERE\n"
            "  2\n");
  EXPECT_NE(lex_error("x = 1)\n").find("unmatched ')'"), std::string::npos);
  EXPECT_NE(lex_error("x = [1)\n").find("closing parenthesis ')' does not match opening parenthesis '[' on line 1"),
            std::string::npos);
}

TEST(Lexer, InvalidCharacters) {
  EXPECT_NE(lex_error("x = $\n").find("invalid character '$' in source"), std::string::npos);
  EXPECT_NE(lex_error("x = a ! b\n").find("'!' is only valid in '!='"), std::string::npos);
  EXPECT_NE(lex_error("x = \xc3\xa9\n").find("invalid character '\\xc3' in source"), std::string::npos);
  EXPECT_NE(lex_error(std::string("x = 1\0", 6)).find("invalid character '\\x00'"), std::string::npos);
  // Non-ASCII text is fine inside strings and comments.
  EXPECT_EQ(lex("x = 'caf\xc3\xa9'  # na\xc3\xafve\n"), "x = [caf\xc3\xa9] NEWLINE EOF");
}

TEST(Lexer, ErrorsNameTheFile) {
  auto src = std::make_shared<const Source>("a = 1\nb = $\n", "model.py");
  try {
    tokenize(src);
    FAIL() << "no error";
  } catch (const CompileError& e) {
    EXPECT_EQ(std::string(e.what()),
              "invalid character '$' in source:\n"
              "  File \"model.py\", line 2\n"
              "a = 1\n"
              "b = $\n"
              "    ~ <--- HERE\n");
  }
}

}  // namespace
}  // namespace torchlet::jit

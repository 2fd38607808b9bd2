// ASCII character classes and case mapping: what <cctype> answers in the "C" and every
// UTF-8 locale, without asking the host program's locale. In a single-byte locale
// (de_DE.ISO-8859-1) std::isalpha('\xaa') is true and std::tolower('\xc3') is '\xe3',
// which would let an identifier take a UTF-8 byte and make str.lower() break a UTF-8
// string; torch itself answers as these do in the locales Python runs it with.
#pragma once

namespace torchlet {

constexpr bool ascii_digit(char c) { return c >= '0' && c <= '9'; }
constexpr bool ascii_upper(char c) { return c >= 'A' && c <= 'Z'; }
constexpr bool ascii_lower(char c) { return c >= 'a' && c <= 'z'; }
constexpr bool ascii_alpha(char c) { return ascii_upper(c) || ascii_lower(c); }
constexpr bool ascii_alnum(char c) { return ascii_alpha(c) || ascii_digit(c); }
// A letter, digit or underscore: the bytes of a name after its first.
constexpr bool ascii_word(char c) { return ascii_alnum(c) || c == '_'; }
// isspace's set: space, \t, \n, \v, \f, \r.
constexpr bool ascii_space(char c) { return c == ' ' || (c >= '\t' && c <= '\r'); }
constexpr bool ascii_print(char c) { return c >= ' ' && c <= '~'; }
constexpr char ascii_to_upper(char c) { return ascii_lower(c) ? static_cast<char>(c - 'a' + 'A') : c; }
constexpr char ascii_to_lower(char c) { return ascii_upper(c) ? static_cast<char>(c - 'A' + 'a') : c; }

}  // namespace torchlet

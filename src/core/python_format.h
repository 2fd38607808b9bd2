// Python's text forms of numbers and strings (repr), shared by tensor printing,
// IValue printing, the graph printer and the code printer so all agree with Python; and
// the one way torchlet reads a decimal number back from text.
#pragma once

#include <cstdint>
#include <locale>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>

namespace torchlet {

// repr(float) as Python 3 prints it: shortest round-trip digits, "1.0", "1e-05",
// "1e+16", "inf", "-inf", "nan".
std::string python_float_repr(double v);

// repr(complex) as Python prints it: "(1-2j)", "2j", "(1.5+infj)".
std::string python_complex_repr(double real, double imag);

// repr(str) as Python prints it: single quotes unless the text holds a single quote
// and no double quote; escapes \n \t \\ and non-printable bytes.
std::string python_str_repr(std::string_view s);

// repr(bytes) as Python prints it: b'...' with \xNN for everything outside printable
// ASCII (the disassembler's listings, IValue::repr of bytes).
std::string python_bytes_repr(std::string_view s);

// Appends code point `cp` (at most U+10FFFF; callers check) to `out` as UTF-8.
void append_utf8(std::string& out, uint32_t cp);

// Latin-1 bytes (each byte its own code point: Python 2 strings, bytes decoded as
// 'latin1') as UTF-8.
std::string latin1_to_utf8(std::string_view bytes);

// Why `s` is not valid UTF-8, in the words of Python's codec ("'utf-8' codec can't
// decode byte 0xff in position 0: invalid start byte"), or nullopt when it is valid.
// `allow_surrogates` accepts encoded U+D800..U+DFFF, as pickle's BINUNICODE decoding
// ('surrogatepass') does; GLOBAL's strict decoding refuses them.
std::optional<std::string> utf8_error(std::string_view s, bool allow_surrogates);

// Text from a file as an error message may quote it: what Python's repr() shows inside
// the quotes. Printable characters stay as they are; a backslash, \n, \r and \t are
// escaped; control characters (C0, DEL, C1), the invisible and bidirectional formatting
// characters, separators and private-use code points become \xNN, \uNNNN or
// \UNNNNNNNN; bytes that are not valid UTF-8 become \xNN, as repr(bytes) shows them.
// So a message never carries a terminal escape sequence, a NUL that cuts what() short,
// or text that reorders what a terminal shows.
// `escape_backslash` false is for text that is already a repr (IValue::repr()), whose
// backslashes are escapes.
std::string printable_text(std::string_view s, bool escape_backslash = true);

// An ostringstream that prints numbers as the C locale does ("1234567", "0.5") whatever
// C++ global locale the host program has set (after std::locale::global(de_DE) a plain
// ostringstream prints "1.234.567"): torchlet builds every text with one of these.
class ClassicStringStream : public std::ostringstream {
 public:
  ClassicStringStream() { imbue(std::locale::classic()); }
};

// strtod in the C locale, whatever locale the host program has set: in a decimal-comma
// locale (de_DE) strtod stops at the '.' of "0.5". Every reader of numbers in text
// (protocol 0's FLOAT, IR constants, schema defaults, float(str)) calls this.
double strtod_c_locale(const char* text, char** end);

}  // namespace torchlet

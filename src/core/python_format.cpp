// Python-compatible repr of floats and strings.
#include "core/python_format.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <clocale>
#include <cstdlib>

#include <stdlib.h>  // strtod_l (glibc)

#include <fmt/format.h>
#include <torchlet/error.h>

namespace torchlet {

double strtod_c_locale(const char* text, char** end) {
  // Made once and kept: a locale_t is immutable and safe to share between threads.
  static const locale_t c_locale = newlocale(LC_ALL_MASK, "C", nullptr);
  TL_INTERNAL_ASSERT(c_locale != nullptr, "newlocale(\"C\") failed");
  return strtod_l(text, end, c_locale);
}

std::string python_float_repr(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  // Shortest round-trip digits in scientific form: "d.ddde±XX".
  char buf[64];
  auto res = std::to_chars(buf, buf + sizeof(buf), v, std::chars_format::scientific);
  std::string sci(buf, res.ptr);
  bool negative = sci[0] == '-';
  if (negative) sci.erase(0, 1);
  size_t e_pos = sci.find('e');
  std::string mantissa = sci.substr(0, e_pos);
  int exponent = std::atoi(sci.c_str() + e_pos + 1);
  std::string digits;
  for (char c : mantissa) {
    if (c != '.') digits += c;
  }
  std::string out;
  // Python's repr switches to exponent notation when exp < -4 or exp >= 16.
  if (exponent < -4 || exponent >= 16) {
    out = digits.substr(0, 1);
    if (digits.size() > 1) out += "." + digits.substr(1);
    out += fmt::format("e{}{:02d}", exponent < 0 ? '-' : '+', std::abs(exponent));
  } else if (exponent < 0) {
    out = "0." + std::string(static_cast<size_t>(-exponent - 1), '0') + digits;
  } else {
    size_t int_len = static_cast<size_t>(exponent) + 1;
    if (digits.size() <= int_len) {
      out = digits + std::string(int_len - digits.size(), '0') + ".0";
    } else {
      out = digits.substr(0, int_len) + "." + digits.substr(int_len);
    }
  }
  if (negative) out.insert(out.begin(), '-');
  return out;
}

std::string python_complex_repr(double real, double imag) {
  // Python formats complex parts like floats but without forcing a ".0".
  auto part = [](double v) {
    std::string s = python_float_repr(v);
    if (s.size() > 2 && s.ends_with(".0")) s.resize(s.size() - 2);
    return s;
  };
  if (real == 0.0 && !std::signbit(real)) return part(imag) + "j";
  std::string im = part(imag);
  std::string sign = (im[0] == '-') ? "" : "+";
  return "(" + part(real) + sign + im + "j)";
}

void append_utf8(std::string& out, uint32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xc0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3f));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xe0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3f));
    out += static_cast<char>(0x80 | (cp & 0x3f));
  } else {
    out += static_cast<char>(0xf0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3f));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3f));
    out += static_cast<char>(0x80 | (cp & 0x3f));
  }
}

std::string latin1_to_utf8(std::string_view bytes) {
  std::string out;
  out.reserve(bytes.size());
  for (unsigned char c : bytes) append_utf8(out, c);
  return out;
}

std::string python_str_repr(std::string_view s) {
  bool has_single = s.find('\'') != std::string_view::npos;
  bool has_double = s.find('"') != std::string_view::npos;
  char quote = (has_single && !has_double) ? '"' : '\'';
  std::string out(1, quote);
  for (size_t i = 0; i < s.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (c == static_cast<unsigned char>(quote) || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c < 0x20 || c == 0x7f) {
      out += fmt::format("\\x{:02x}", c);
    } else {
      out += static_cast<char>(c);  // UTF-8 bytes pass through as Python prints them
    }
  }
  out += quote;
  return out;
}

// repr(bytes): b'...' with \xNN for everything outside printable ASCII.
std::string python_bytes_repr(std::string_view s) {
  bool has_single = s.find('\'') != std::string_view::npos;
  bool has_double = s.find('"') != std::string_view::npos;
  char quote = (has_single && !has_double) ? '"' : '\'';
  std::string out = "b";
  out += quote;
  for (unsigned char c : s) {
    if (c == static_cast<unsigned char>(quote) || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c < 0x20 || c >= 0x7f) {
      out += fmt::format("\\x{:02x}", c);
    } else {
      out += static_cast<char>(c);
    }
  }
  out += quote;
  return out;
}

}  // namespace torchlet

namespace torchlet {

namespace {

// One UTF-8 sequence at s[i]: its code point and length, or why it is invalid and how
// many bytes Python's codec reports as the bad part (the start byte and the valid
// continuation bytes after it).
struct Utf8Step {
  uint32_t cp = 0;
  size_t len = 0;
  const char* error = nullptr;
  size_t bad_len = 0;
};

Utf8Step decode_utf8(std::string_view s, size_t i, bool allow_surrogates) {
  const auto c = static_cast<unsigned char>(s[i]);
  if (c < 0x80) return {c, 1, nullptr, 0};
  size_t need;
  uint32_t cp;
  // The range the first continuation byte must lie in: it rules out overlong forms
  // (E0, F0), code points past U+10FFFF (F4) and, unless allowed, surrogates (ED).
  unsigned char lo = 0x80, hi = 0xbf;
  if (c >= 0xc2 && c <= 0xdf) {
    need = 1, cp = c & 0x1f;
  } else if (c >= 0xe0 && c <= 0xef) {
    need = 2, cp = c & 0x0f;
    if (c == 0xe0) lo = 0xa0;
    if (c == 0xed && !allow_surrogates) hi = 0x9f;
  } else if (c >= 0xf0 && c <= 0xf4) {
    need = 3, cp = c & 0x07;
    if (c == 0xf0) lo = 0x90;
    if (c == 0xf4) hi = 0x8f;
  } else {
    return {0, 0, "invalid start byte", 1};
  }
  for (size_t k = 1; k <= need; ++k) {
    if (i + k >= s.size()) return {0, 0, "unexpected end of data", k};
    const auto b = static_cast<unsigned char>(s[i + k]);
    if (b < (k == 1 ? lo : 0x80) || b > (k == 1 ? hi : 0xbf)) return {0, 0, "invalid continuation byte", k};
    cp = (cp << 6) | (b & 0x3f);
  }
  return {cp, need + 1, nullptr, 0};
}

// Code points Python's str.isprintable() rejects that can change what a terminal
// shows or hide text: controls, formatting (zero-width, bidirectional), separators
// other than space, surrogates, private use and noncharacters. (Python escapes every
// unassigned code point too; that needs the Unicode database and changes nothing a
// terminal does.)
bool unprintable(uint32_t cp) {
  struct Range {
    uint32_t lo, hi;
  };
  static constexpr Range kRanges[] = {
      {0x00, 0x1f},       {0x7f, 0xa0},       {0xad, 0xad},       {0x600, 0x605},   {0x61c, 0x61c},
      {0x6dd, 0x6dd},     {0x70f, 0x70f},     {0x180e, 0x180e},   {0x1680, 0x1680}, {0x2000, 0x200f},
      {0x2028, 0x202f},   {0x205f, 0x206f},   {0x3000, 0x3000},   {0xd800, 0xf8ff}, {0xfeff, 0xfeff},
      {0xfff9, 0xfffb},   {0xfffe, 0xffff},   {0x110bd, 0x110bd}, {0x1d173, 0x1d17a}, {0xe0000, 0xe0fff},
      {0xf0000, 0x10ffff},
  };
  for (const Range& r : kRanges) {
    if (cp >= r.lo && cp <= r.hi) return true;
  }
  return false;
}

}  // namespace

std::optional<std::string> utf8_error(std::string_view s, bool allow_surrogates) {
  for (size_t i = 0; i < s.size();) {
    Utf8Step step = decode_utf8(s, i, allow_surrogates);
    if (!step.error) {
      i += step.len;
      continue;
    }
    if (step.bad_len == 1) {
      return fmt::format("'utf-8' codec can't decode byte 0x{:02x} in position {}: {}",
                         static_cast<unsigned char>(s[i]), i, step.error);
    }
    return fmt::format("'utf-8' codec can't decode bytes in position {}-{}: {}", i, i + step.bad_len - 1,
                       step.error);
  }
  return std::nullopt;
}

std::string printable_text(std::string_view s, bool escape_backslash) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size();) {
    Utf8Step step = decode_utf8(s, i, /*allow_surrogates=*/true);
    if (step.error) {  // not UTF-8: the byte, as repr(bytes) shows it
      out += fmt::format("\\x{:02x}", static_cast<unsigned char>(s[i]));
      ++i;
      continue;
    }
    const uint32_t cp = step.cp;
    if (cp == '\\' && escape_backslash) {
      out += "\\\\";
    } else if (cp == '\n') {
      out += "\\n";
    } else if (cp == '\r') {
      out += "\\r";
    } else if (cp == '\t') {
      out += "\\t";
    } else if (!unprintable(cp)) {
      out.append(s.substr(i, step.len));
    } else if (cp < 0x100) {
      out += fmt::format("\\x{:02x}", cp);
    } else if (cp < 0x10000) {
      out += fmt::format("\\u{:04x}", cp);
    } else {
      out += fmt::format("\\U{:08x}", cp);
    }
    i += step.len;
  }
  return out;
}

}  // namespace torchlet

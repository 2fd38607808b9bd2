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

}  // namespace torchlet

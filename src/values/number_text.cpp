// Numbers in IR text and schema defaults (number_text.h).
#include "values/number_text.h"

#include <charconv>
#include <limits>
#include <string>

#include "core/python_format.h"

namespace torchlet::jit {

NumberText scan_number(std::string_view s, size_t& pos) {
  NumberText n;
  const size_t start = pos;
  if (pos < s.size() && s[pos] == '-') ++pos;
  if (s.substr(pos, 3) == "inf") {
    pos += 3;
    n.text = s.substr(start, pos - start);
    n.is_float = n.ok = true;
    n.d = n.text[0] == '-' ? -std::numeric_limits<double>::infinity() : std::numeric_limits<double>::infinity();
    return n;
  }
  while (pos < s.size()) {
    const char c = s[pos];
    if (c >= '0' && c <= '9') {
      ++pos;
    } else if (c == '.' || c == 'e' || c == 'E') {
      n.is_float = true;
      ++pos;
      if ((c == 'e' || c == 'E') && pos < s.size() && (s[pos] == '-' || s[pos] == '+')) ++pos;
    } else {
      break;
    }
  }
  n.text = s.substr(start, pos - start);
  if (n.is_float) {
    const std::string text(n.text);  // strtod wants the terminating NUL
    char* end = nullptr;
    n.d = strtod_c_locale(text.c_str(), &end);
    n.ok = !text.empty() && end == text.c_str() + text.size();
  } else {
    const auto [end, ec] = std::from_chars(n.text.data(), n.text.data() + n.text.size(), n.i);
    n.ok = ec == std::errc() && end == n.text.data() + n.text.size();
  }
  return n;
}

}  // namespace torchlet::jit

// TorchScript's str kernels that more than one file registers: the str overloads of names
// that also have tensor or list forms (`aten::add.str` in arithmetic.cpp, `slice.str` and
// `split.str` in shape.cpp, `index.str` in indexing.cpp), and str.find, which
// builtins_str.cpp registers as find/rfind/rindex and indexing.cpp as index.str. Strings
// are byte strings, as torch's are (std::string): methods look at ASCII classes only.
// The other str methods, format and the printer are builtins_str.cpp's.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <torchlet/error.h>

#include "core/ascii.h"
#include "jit/ops/ops_util.h"

namespace torchlet::jit::ops {

// str + str, and str[start:end:step].
inline std::string str_concat(const std::string& a, const std::string& b) {
  (void)result_length(a.size() + b.size(), 1, "str + str");
  return a + b;
}
inline std::string str_slice(const std::string& str, std::optional<int64_t> start, std::optional<int64_t> end,
                             int64_t step) {
  std::string out;
  for (size_t i : slice_indices(str.size(), start, end, step)) out += str[i];
  return out;
}
// find/rfind/index/rindex: the position in the whole string, -1 (find) or torch's
// ValueError (index) when the window does not hold `sub`.
template <bool kReverse, bool kRaise>
int64_t str_find(const std::string& str, const std::string& sub, int64_t start, int64_t end) {
  const std::string_view w = str_window(str, start, end);
  const size_t pos = kReverse ? w.rfind(sub) : w.find(sub);
  TL_CHECK(!kRaise || pos != std::string_view::npos, ValueError, "ValueError: substring not found");
  return pos == std::string_view::npos ? -1 : static_cast<int64_t>(pos + static_cast<size_t>(w.data() - str.data()));
}
// split(None): runs of whitespace separate, ends ignored; split(sep): every sep.
inline std::vector<std::string> str_split(const std::string& str, const std::optional<std::string>& sep, int64_t max) {
  std::vector<std::string> out;
  if (!sep) {
    size_t i = 0;
    while (true) {
      while (i < str.size() && ascii_space(str[i])) ++i;
      if (i == str.size()) break;
      if (max >= 0 && static_cast<int64_t>(out.size()) == max) {
        out.push_back(str.substr(i));
        break;
      }
      size_t j = i;
      while (j < str.size() && !ascii_space(str[j])) ++j;
      out.push_back(str.substr(i, j - i));
      i = j;
    }
    return out;
  }
  TL_CHECK(!sep->empty(), ValueError, "empty separator");
  size_t pos = 0;
  while (max < 0 || static_cast<int64_t>(out.size()) < max) {
    size_t at = str.find(*sep, pos);
    if (at == std::string::npos) break;
    out.push_back(str.substr(pos, at - pos));
    pos = at + sep->size();
  }
  out.push_back(str.substr(pos));
  return out;
}

}  // namespace torchlet::jit::ops

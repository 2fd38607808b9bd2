// The numbers of torch's IR text and schema defaults ("-3", "0.5", "1.0000000000000001e-05",
// "1.", "-inf"): one scanner for the IR parser and the schema default reader, locale
// independent.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace torchlet::jit {

struct NumberText {
  std::string_view text;  // the characters scanned
  bool is_float = false;  // a '.', an exponent or -inf
  bool ok = false;        // false: not a number, or an int beyond int64
  int64_t i = 0;
  double d = 0;           // a float beyond double's range is ±inf, as Python reads it
};

// Scans the number starting at s[pos] (an optional '-', then digits, '.', exponent) and
// moves pos past it; the caller reports `text` when !ok.
NumberText scan_number(std::string_view s, size_t& pos);

}  // namespace torchlet::jit

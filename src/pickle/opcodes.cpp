// The opcode table and the argument decoder shared by the unpickler and disassembler.
#include "pickle/opcodes.h"

#include <array>
#include <bit>
#include <charconv>
#include <cstring>
#include <vector>

#include <torchlet/error.h>

#include "core/python_format.h"

namespace torchlet::pickle {

namespace {

constexpr OpInfo kOps[] = {
#define TL_PICKLE_OP(name, byte, arg, proto, pops, mark, pushes, doc) \
  {Op::name, #name, ArgKind::arg, proto, pops, MarkEffect::mark, pushes, doc},
#include "pickle/opcodes.def"
#undef TL_PICKLE_OP
};

// byte -> index into kOps (or -1), built once.
struct ByteIndex {
  std::array<int16_t, 256> index{};
  ByteIndex() {
    index.fill(-1);
    for (size_t i = 0; i < std::size(kOps); ++i) index[static_cast<uint8_t>(kOps[i].op)] = static_cast<int16_t>(i);
  }
};
const ByteIndex& byte_index() {
  static const ByteIndex idx;
  return idx;
}

// Longest decimal-text argument accepted; anything longer is not a real pickle.
constexpr size_t kMaxDecimalLine = 4096;

}  // namespace

std::string_view arg_kind_name(ArgKind kind) {
  switch (kind) {
#define TL_X(k, pickletools_name) \
  case ArgKind::k:                \
    return pickletools_name;
    TL_PICKLE_ARG_KINDS(TL_X)
#undef TL_X
  }
  return "?";
}

const OpInfo* op_info(uint8_t byte) {
  int16_t i = byte_index().index[byte];
  return i < 0 ? nullptr : &kOps[i];
}

const OpInfo& op_info(Op op) { return *op_info(static_cast<uint8_t>(op)); }

uint8_t ByteReader::read_byte(std::string_view what) {
  TL_CHECK(pos_ < data_.size(), FormatError, "{}: truncated pickle: {} at offset {} runs past the end",
           label_, what, pos_);
  return std::to_integer<uint8_t>(data_[pos_++]);
}

std::string_view ByteReader::read_bytes(size_t n, std::string_view what) {
  TL_CHECK(n <= remaining(), FormatError,
           "{}: truncated pickle: {} at offset {} needs {} bytes, {} left", label_, what, pos_, n,
           remaining());
  std::string_view v(reinterpret_cast<const char*>(data_.data()) + pos_, n);
  pos_ += n;
  return v;
}

std::string_view ByteReader::read_line(std::string_view what) {
  const char* start = reinterpret_cast<const char*>(data_.data()) + pos_;
  const void* nl = std::memchr(start, '\n', remaining());
  TL_CHECK(nl != nullptr, FormatError, "{}: truncated pickle: {} at offset {} has no newline",
           label_, what, pos_);
  size_t n = static_cast<const char*>(nl) - start;
  pos_ += n + 1;
  return {start, n};
}

std::optional<int64_t> long_bytes_to_int64(std::string_view le) {
  if (le.size() > 8) {
    // Fits only if the extra high bytes are pure sign extension.
    uint8_t sign = (static_cast<uint8_t>(le[7]) & 0x80) ? 0xff : 0x00;
    for (size_t i = 8; i < le.size(); ++i) {
      if (static_cast<uint8_t>(le[i]) != sign) return std::nullopt;
    }
    le = le.substr(0, 8);
  }
  if (le.empty()) return 0;
  uint64_t v = 0;
  for (size_t i = 0; i < le.size(); ++i) v |= static_cast<uint64_t>(static_cast<uint8_t>(le[i])) << (8 * i);
  if (le.size() < 8 && (static_cast<uint8_t>(le.back()) & 0x80)) v |= ~uint64_t{0} << (8 * le.size());
  return static_cast<int64_t>(v);
}

std::string raw_unicode_escape_to_utf8(std::string_view text, const std::string& label) {
  std::string out;
  auto put_utf8 = [&](uint32_t cp) {
    TL_CHECK(cp <= 0x10ffff, FormatError, "{}: UNICODE code point {:x} out of range", label, cp);
    append_utf8(out, cp);
  };
  for (size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    const bool escape = c == '\\' && i + 1 < text.size() && (text[i + 1] == 'u' || text[i + 1] == 'U');
    if (!escape) {
      put_utf8(c);
      continue;
    }
    const size_t digits = text[i + 1] == 'u' ? 4 : 8;
    TL_CHECK(i + 2 + digits <= text.size(), FormatError, "{}: truncated \\{} escape in UNICODE", label,
             text[i + 1]);
    uint32_t cp = 0;
    auto [p, ec] = std::from_chars(text.data() + i + 2, text.data() + i + 2 + digits, cp, 16);
    TL_CHECK(ec == std::errc() && p == text.data() + i + 2 + digits, FormatError,
             "{}: bad \\{} escape in UNICODE", label, text[i + 1]);
    put_utf8(cp);
    i += 1 + digits;
  }
  return out;
}

std::string int64_to_long_bytes(int64_t v) {
  if (v == 0) return "";
  std::string out;
  uint64_t u = static_cast<uint64_t>(v);
  for (int i = 0; i < 8; ++i) out.push_back(static_cast<char>((u >> (8 * i)) & 0xff));
  // Trim redundant sign bytes, keeping the sign bit of the new top byte right.
  while (out.size() > 1) {
    uint8_t top = static_cast<uint8_t>(out.back());
    uint8_t next = static_cast<uint8_t>(out[out.size() - 2]);
    if ((top == 0x00 && !(next & 0x80)) || (top == 0xff && (next & 0x80))) out.pop_back();
    else break;
  }
  return out;
}

namespace {

int64_t parse_decimal(std::string_view text, std::string_view what, const std::string& label) {
  int64_t v = 0;
  std::string_view t = text;
  if (!t.empty() && t.back() == 'L') t.remove_suffix(1);
  if (!t.empty() && t.front() == '+') t.remove_prefix(1);
  auto [p, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
  TL_CHECK(ec == std::errc() && p == t.data() + t.size() && !t.empty(), FormatError,
           "{}: {}: '{}' is not a decimal integer that fits in 64 bits", label, what,
           printable_text(text));
  return v;
}

// Protocol 0's LONG argument ("-123L", any size) -> little-endian two's complement.
std::string decimal_to_long_bytes(std::string_view text, std::string_view what, const std::string& label) {
  std::string_view t = text;
  if (!t.empty() && t.back() == 'L') t.remove_suffix(1);
  bool negative = !t.empty() && t.front() == '-';
  if (!t.empty() && (t.front() == '-' || t.front() == '+')) t.remove_prefix(1);
  TL_CHECK(!t.empty(), FormatError, "{}: {}: '{}' is not a decimal integer", label, what,
             printable_text(text));
  std::vector<uint8_t> mag{0};  // little-endian magnitude
  for (char c : t) {
    TL_CHECK(c >= '0' && c <= '9', FormatError, "{}: {}: '{}' is not a decimal integer", label, what,
             printable_text(text));
    unsigned carry = static_cast<unsigned>(c - '0');
    for (auto& b : mag) {
      unsigned v = b * 10u + carry;
      b = static_cast<uint8_t>(v & 0xff);
      carry = v >> 8;
    }
    if (carry) mag.push_back(static_cast<uint8_t>(carry));
  }
  mag.push_back(0);  // room for the sign bit
  if (negative) {    // two's complement: invert and add one
    unsigned carry = 1;
    for (auto& b : mag) {
      unsigned v = static_cast<uint8_t>(~b) + carry;
      b = static_cast<uint8_t>(v & 0xff);
      carry = v >> 8;
    }
  }
  std::string out(mag.begin(), mag.end());
  // Minimal form, as Python's encode_long writes it.
  while (out.size() > 1) {
    uint8_t top = static_cast<uint8_t>(out.back()), next = static_cast<uint8_t>(out[out.size() - 2]);
    if ((top == 0x00 && !(next & 0x80)) || (top == 0xff && (next & 0x80))) out.pop_back();
    else break;
  }
  if (out.size() == 1 && out[0] == 0) out.clear();
  return out;
}

}  // namespace

Arg ByteReader::read_arg(const OpInfo& info) {
  Arg a;
  std::string_view what = info.name;
  auto length_checked = [&](uint64_t n) {
    // A length can never exceed what is left: checked before anything is allocated.
    TL_CHECK(n <= remaining(), FormatError,
             "{}: {} at offset {} declares {} bytes but only {} remain", label_, what, pos_, n,
             remaining());
    return static_cast<size_t>(n);
  };
  auto u32 = [&]() {
    std::string_view b = read_bytes(4, what);
    uint32_t v;
    std::memcpy(&v, b.data(), 4);
    return v;  // little-endian host (x86/arm64 Linux)
  };
  auto u64 = [&]() {
    std::string_view b = read_bytes(8, what);
    uint64_t v;
    std::memcpy(&v, b.data(), 8);
    return v;
  };
  switch (info.arg) {
    case ArgKind::None:
      break;
    case ArgKind::Uint1:
      a.i = read_byte(what);
      break;
    case ArgKind::Uint2: {
      uint8_t lo = read_byte(what), hi = read_byte(what);
      a.i = lo | (hi << 8);
      break;
    }
    case ArgKind::Int4:
      a.i = static_cast<int32_t>(u32());
      break;
    case ArgKind::Uint4:
      a.i = u32();
      break;
    case ArgKind::Uint8: {
      uint64_t v = u64();
      a.i = static_cast<int64_t>(v);
      a.fits_int64 = v <= static_cast<uint64_t>(INT64_MAX);
      break;
    }
    case ArgKind::Float8: {
      uint64_t be = u64();
      a.d = std::bit_cast<double>(__builtin_bswap64(be));
      break;
    }
    case ArgKind::FloatNl: {
      std::string line(read_line(what));
      TL_CHECK(line.size() <= kMaxDecimalLine, LimitError, "{}: {} argument too long", label_, what);
      char* end = nullptr;
      a.d = strtod_c_locale(line.c_str(), &end);
      TL_CHECK(!line.empty() && end == line.c_str() + line.size(), FormatError,
               "{}: FLOAT: '{}' is not a float", label_, printable_text(line));
      break;
    }
    case ArgKind::DecimalNlShort: {
      std::string_view line = read_line(what);
      TL_CHECK(line.size() <= kMaxDecimalLine, LimitError, "{}: {} argument too long", label_, what);
      if (line == "00" || line == "01") {  // INT's protocol-0 spelling of False/True
        a.i = line == "01";
        a.s = "bool";
        break;
      }
      a.i = parse_decimal(line, what, label_);
      break;
    }
    case ArgKind::DecimalNlLong: {
      std::string_view line = read_line(what);
      TL_CHECK(line.size() <= kMaxDecimalLine, LimitError, "{}: {} argument too long", label_, what);
      a.s = decimal_to_long_bytes(line, what, label_);
      auto v = long_bytes_to_int64(a.s);
      a.fits_int64 = v.has_value();
      a.i = v.value_or(0);
      break;
    }
    case ArgKind::StringNl:
    case ArgKind::StringNlNoescape:
    case ArgKind::UnicodeNl:
      a.s = std::string(read_line(what));
      break;
    case ArgKind::StringNlNoescapePair:
      a.s = std::string(read_line(what));
      a.s2 = std::string(read_line(what));
      break;
    case ArgKind::String1:
    case ArgKind::Bytes1:
    case ArgKind::Unicode1:
      a.s = std::string(read_bytes(length_checked(read_byte(what)), what));
      break;
    case ArgKind::String4: {
      int32_t n = static_cast<int32_t>(u32());
      TL_CHECK(n >= 0, FormatError, "{}: {} with negative length {}", label_, what, n);
      a.s = std::string(read_bytes(length_checked(static_cast<uint64_t>(n)), what));
      break;
    }
    case ArgKind::Bytes4:
    case ArgKind::Unicode4:
      a.s = std::string(read_bytes(length_checked(u32()), what));
      break;
    case ArgKind::Bytes8:
    case ArgKind::Bytearray8:
    case ArgKind::Unicode8:
      a.s = std::string(read_bytes(length_checked(u64()), what));
      break;
    case ArgKind::Long1:
    case ArgKind::Long4: {
      uint64_t n = info.arg == ArgKind::Long1 ? read_byte(what) : u32();
      if (info.arg == ArgKind::Long4) {
        TL_CHECK(static_cast<int32_t>(n) >= 0, FormatError, "{}: LONG4 with negative length", label_);
      }
      a.s = std::string(read_bytes(length_checked(n), what));
      auto v = long_bytes_to_int64(a.s);
      a.fits_int64 = v.has_value();
      a.i = v.value_or(0);
      break;
    }
  }
  return a;
}

size_t pickle_length(std::span<const std::byte> data, const std::string& label) {
  ByteReader r(data, label);
  while (true) {
    size_t at = r.pos();
    uint8_t byte = r.read_byte("opcode");
    const OpInfo* info = op_info(byte);
    TL_CHECK(info != nullptr, FormatError, "{}: unknown pickle opcode 0x{:02x} at offset {}", label, byte, at);
    r.read_arg(*info);
    if (info->op == Op::STOP) return r.pos();
  }
}

}  // namespace torchlet::pickle

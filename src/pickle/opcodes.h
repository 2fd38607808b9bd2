// The pickle opcode enum and table (generated from opcodes.def), and the reader of
// opcode arguments that the unpickler and the disassembler share, so they can never
// disagree about where an argument ends.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace torchlet::pickle {

enum class Op : uint8_t {
#define TL_PICKLE_OP(name, byte, arg, proto, doc) name = byte,
#include "pickle/opcodes.def"
#undef TL_PICKLE_OP
};

// How an opcode's argument is encoded in the byte stream.
enum class ArgKind : uint8_t {
  None, Uint1, Uint2, Int4, Uint4, Uint8, Float8, FloatNl, DecimalNlShort, DecimalNlLong,
  StringNl, StringNlNoescape, StringNlNoescapePair, String1, String4, Bytes1, Bytes4, Bytes8,
  UnicodeNl, Unicode1, Unicode4, Unicode8, Long1, Long4,
};

struct OpInfo {
  Op op;
  std::string_view name;
  ArgKind arg;
  int protocol;
  std::string_view doc;
};

// The table row of a byte, or null when the byte is no opcode.
const OpInfo* op_info(uint8_t byte);
const OpInfo& op_info(Op op);

// A decoded argument: integers in `i`, floats in `d`, text/bytes in `s` (for pairs,
// `s` and `s2`), and for LONG1/LONG4/LONG the little-endian two's complement bytes in
// `s` with `i` set when the value fits in int64.
struct Arg {
  int64_t i = 0;
  bool fits_int64 = true;
  double d = 0;
  std::string s, s2;
};

// Bounds-checked cursor over pickle bytes; errors name the opcode and offset.
class ByteReader {
 public:
  ByteReader(std::span<const std::byte> data, std::string label) : data_(data), label_(std::move(label)) {}
  size_t pos() const { return pos_; }
  size_t remaining() const { return data_.size() - pos_; }
  bool at_end() const { return pos_ >= data_.size(); }
  uint8_t read_byte(std::string_view what);
  std::string_view read_bytes(size_t n, std::string_view what);
  // Reads up to (and consumes) the next '\n'; the line excludes it.
  std::string_view read_line(std::string_view what);
  // Decodes the argument of `info` (the opcode byte has been consumed already).
  Arg read_arg(const OpInfo& info);
  const std::string& label() const { return label_; }

 private:
  std::span<const std::byte> data_;
  std::string label_;
  size_t pos_ = 0;
};

// Length in bytes of the pickle at the start of `data` (through its STOP), found with
// the same argument decoder the unpickler uses; FormatError if it never stops.
size_t pickle_length(std::span<const std::byte> data, const std::string& label);

// Little-endian two's complement bytes -> int64 when it fits.
std::optional<int64_t> long_bytes_to_int64(std::string_view le);
// int64 -> minimal little-endian two's complement bytes (Python's encode_long).
std::string int64_to_long_bytes(int64_t v);

}  // namespace torchlet::pickle

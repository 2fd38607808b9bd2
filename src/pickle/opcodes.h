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
#define TL_PICKLE_OP(name, byte, arg, proto, pops, mark, pushes, doc) name = byte,
#include "pickle/opcodes.def"
#undef TL_PICKLE_OP
};

// How an opcode's argument is encoded in the byte stream, with pickletools' name for
// each encoding (its ArgumentDescriptor), so the table test can compare columns.
#define TL_PICKLE_ARG_KINDS(X)                                                              \
  X(None, "none") X(Uint1, "uint1") X(Uint2, "uint2") X(Int4, "int4") X(Uint4, "uint4")      \
  X(Uint8, "uint8") X(Float8, "float8") X(FloatNl, "floatnl")                              \
  X(DecimalNlShort, "decimalnl_short") X(DecimalNlLong, "decimalnl_long")                  \
  X(StringNl, "stringnl") X(StringNlNoescape, "stringnl_noescape")                         \
  X(StringNlNoescapePair, "stringnl_noescape_pair") X(String1, "string1")                  \
  X(String4, "string4") X(Bytes1, "bytes1") X(Bytes4, "bytes4") X(Bytes8, "bytes8")          \
  X(Bytearray8, "bytearray8") X(UnicodeNl, "unicodestringnl") X(Unicode1, "unicodestring1") \
  X(Unicode4, "unicodestring4") X(Unicode8, "unicodestring8") X(Long1, "long1")             \
  X(Long4, "long4")

enum class ArgKind : uint8_t {
#define TL_X(kind, pickletools_name) kind,
  TL_PICKLE_ARG_KINDS(TL_X)
#undef TL_X
};
std::string_view arg_kind_name(ArgKind kind);  // pickletools' name, e.g. "uint1"

// What an opcode does to the mark stack (see opcodes.def).
enum class MarkEffect : uint8_t { NoMark, PopsMark, PushesMark };

struct OpInfo {
  Op op;
  std::string_view name;
  ArgKind arg;
  int protocol;
  int pops;    // items taken from below the topmost mark (or from the top when NoMark)
  MarkEffect mark;
  int pushes;  // items pushed (the mark MARK pushes is not counted)
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

// Protocol 0's UNICODE argument (raw-unicode-escape: bytes are Latin-1 code points,
// \uXXXX and \UXXXXXXXX escape the rest) as UTF-8; FormatError (prefixed by `label`)
// for a code point beyond U+10FFFF or a truncated escape.
std::string raw_unicode_escape_to_utf8(std::string_view text, const std::string& label);

// Little-endian two's complement bytes -> int64 when it fits.
std::optional<int64_t> long_bytes_to_int64(std::string_view le);
// int64 -> minimal little-endian two's complement bytes (Python's encode_long).
std::string int64_to_long_bytes(int64_t v);

}  // namespace torchlet::pickle

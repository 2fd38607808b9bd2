// The disassembler (see disassembler.h).
#include "pickle/disassembler.h"

#include <algorithm>

#include <fmt/format.h>
#include <torchlet/error.h>

#include "core/python_format.h"
#include "pickle/opcodes.h"

namespace torchlet::pickle {

namespace {

// Caps how much of a long string argument is shown.
constexpr size_t kMaxShownText = 80;
// Caps the indentation: 100k nested MARKs must not print 400 KB of spaces per line.
constexpr size_t kMaxIndentDepth = 16;

std::string show_text(const std::string& s) {
  if (s.size() <= kMaxShownText) return python_str_repr(s);
  return python_str_repr(s.substr(0, kMaxShownText)) + fmt::format("... ({} bytes)", s.size());
}

std::string show_arg(const OpInfo& info, const Arg& a) {
  switch (info.arg) {
    case ArgKind::None: return "";
    case ArgKind::Uint1:
    case ArgKind::Uint2:
    case ArgKind::Int4:
    case ArgKind::Uint4:
    case ArgKind::Uint8:
    case ArgKind::DecimalNlShort: return std::to_string(a.i);
    case ArgKind::Float8:
    case ArgKind::FloatNl: return python_float_repr(a.d);
    case ArgKind::DecimalNlLong:
    case ArgKind::Long1:
    case ArgKind::Long4:
      return a.fits_int64 ? std::to_string(a.i) : fmt::format("<{}-byte long>", a.s.size());
    case ArgKind::StringNlNoescapePair: return "'" + a.s + " " + a.s2 + "'";
    case ArgKind::StringNl:
    case ArgKind::StringNlNoescape:
    case ArgKind::String1:
    case ArgKind::String4:
    case ArgKind::UnicodeNl:
    case ArgKind::Unicode1:
    case ArgKind::Unicode4:
    case ArgKind::Unicode8: return show_text(a.s);
    case ArgKind::Bytes1:
    case ArgKind::Bytes4:
    case ArgKind::Bytes8: return "b" + show_text(a.s);
  }
  return "";
}

}  // namespace

std::string disassemble(std::span<const std::byte> data, const std::string& label) {
  std::string out;
  ByteReader r(data, label);
  size_t depth = 0;
  int highest = 0;
  try {
    while (true) {
      size_t at = r.pos();
      uint8_t byte = r.read_byte("opcode");
      const OpInfo* info = op_info(byte);
      TL_CHECK(info != nullptr, FormatError, "unknown opcode 0x{:02x}", byte);
      Arg a = r.read_arg(*info);
      highest = std::max(highest, info->protocol);
      bool closes = info->op == Op::TUPLE || info->op == Op::LIST || info->op == Op::DICT ||
                    info->op == Op::APPENDS || info->op == Op::SETITEMS || info->op == Op::POP_MARK ||
                    info->op == Op::FROZENSET || info->op == Op::ADDITEMS || info->op == Op::OBJ ||
                    info->op == Op::INST;
      if (closes && depth > 0) --depth;
      std::string arg = show_arg(*info, a);
      // The opcode byte as pickletools shows it: the character, or \xNN.
      std::string shown = byte >= 0x20 && byte < 0x7f ? std::string(1, static_cast<char>(byte))
                                                       : fmt::format("\\x{:02x}", byte);
      std::string line = fmt::format("{:>5}: {:<4} {}{:<16} {}", at, shown, std::string(std::min(depth, kMaxIndentDepth) * 4, ' '),
                                     info->name, arg);
      line.erase(line.find_last_not_of(' ') + 1);
      out += line + "\n";
      if (info->op == Op::MARK) ++depth;
      if (info->op == Op::STOP) break;
    }
    out += fmt::format("highest protocol among opcodes = {}\n", highest);
  } catch (const Error& e) {
    out += fmt::format("error: {}\n", e.what());
  }
  return out;
}

}  // namespace torchlet::pickle

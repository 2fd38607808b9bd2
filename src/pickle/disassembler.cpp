// The disassembler (see disassembler.h): pickletools.dis's listing, line for line. It
// emulates only what pickletools prints from: the mark stack (for indentation and
// "(MARK at N)"), whether the top of the stack is a mark (POP), and the memo count
// (MEMOIZE's "(as N)"); the stack effects come from the opcode table.
#include "pickle/disassembler.h"

#include <algorithm>
#include <vector>

#include <fmt/format.h>
#include <torchlet/error.h>
#include <torchlet/inspect.h>
#include <torchlet/ivalue.h>

#include "core/python_format.h"
#include "pickle/opcodes.h"

namespace torchlet::pickle {

namespace {

// Caps how much of a long string argument is shown (pickletools shows all of it; a
// 2 GiB tensor-free string in a hostile file should not be printed whole).
constexpr size_t kMaxShownText = 4096;
// Caps the indentation: 100k nested MARKs must not print 400 KB of spaces per line
// (the listing stays under ~200 bytes per input byte). Real checkpoints nest a few
// levels; pickletools itself has no cap, so listings differ only beyond this depth.
constexpr size_t kMaxIndentDepth = 32;
// pickletools' "mild effort to align arguments": names are padded to this width.
constexpr size_t kNameColumn = 10;

std::string clipped(std::string shown, size_t full_size) {
  if (full_size <= kMaxShownText) return shown;
  return shown + fmt::format("... ({} bytes)", full_size);
}

std::string show_str(const std::string& s) {
  return clipped(python_str_repr(std::string_view(s).substr(0, kMaxShownText)), s.size());
}

std::string show_bytes(const std::string& s) {
  return clipped(python_bytes_repr(std::string_view(s).substr(0, kMaxShownText)), s.size());
}

// repr() of the argument pickletools decodes for this encoding.
std::string show_arg(const OpInfo& info, const Arg& a) {
  switch (info.arg) {
    case ArgKind::None: return "";
    case ArgKind::Uint1:
    case ArgKind::Uint2:
    case ArgKind::Int4:
    case ArgKind::Uint4: return std::to_string(a.i);
    case ArgKind::Uint8: return a.fits_int64 ? std::to_string(a.i) : std::to_string(static_cast<uint64_t>(a.i));
    case ArgKind::DecimalNlShort:
      if (a.s == "bool") return a.i ? "True" : "False";  // INT's 01/00
      return std::to_string(a.i);
    case ArgKind::Float8:
    case ArgKind::FloatNl: return python_float_repr(a.d);
    case ArgKind::DecimalNlLong:
    case ArgKind::Long1:
    case ArgKind::Long4: return a.fits_int64 ? std::to_string(a.i) : BigIntImpl(a.s).python_literal();
    case ArgKind::StringNlNoescapePair: return show_str(a.s + " " + a.s2);
    case ArgKind::StringNl:
      // The quotes are part of the line; pickletools strips them (escapes are rare
      // and shown as written).
      if (a.s.size() >= 2 && (a.s.front() == '\'' || a.s.front() == '"')) {
        return show_str(a.s.substr(1, a.s.size() - 2));
      }
      return show_str(a.s);
    case ArgKind::String1:
    case ArgKind::String4: return show_str(latin1_to_utf8(a.s));  // Python 2 strings: latin-1
    case ArgKind::UnicodeNl: return show_str(raw_unicode_escape_to_utf8(a.s, "UNICODE"));
    case ArgKind::StringNlNoescape:
    case ArgKind::Unicode1:
    case ArgKind::Unicode4:
    case ArgKind::Unicode8: return show_str(a.s);
    case ArgKind::Bytes1:
    case ArgKind::Bytes4:
    case ArgKind::Bytes8: return show_bytes(a.s);
    case ArgKind::Bytearray8: return "bytearray(" + show_bytes(a.s) + ")";
  }
  return "";
}

// The opcode byte as pickletools shows it (repr of a one-character str, unquoted).
std::string show_code(uint8_t byte) {
  if (byte >= 0x20 && byte < 0x7f) return std::string(1, static_cast<char>(byte));
  return fmt::format("\\x{:02x}", byte);
}

}  // namespace

std::string disassemble(std::span<const std::byte> data, const std::string& label) {
  std::string out;
  ByteReader r(data, label);
  std::vector<size_t> marks;      // offsets of the MARKs still open
  std::vector<bool> stack;        // emulated stack: true where a mark sits
  size_t memo_entries = 0;
  int highest = 0;
  try {
    while (true) {
      const size_t at = r.pos();
      const uint8_t byte = r.read_byte("opcode");
      const OpInfo* info = op_info(byte);
      TL_CHECK(info != nullptr, FormatError, "unknown opcode 0x{:02x} at offset {}", byte, at);
      const Arg a = r.read_arg(*info);
      highest = std::max(highest, info->protocol);

      std::string line = fmt::format("{:>5}: {:<4} {}{}", at, show_code(byte),
                                     std::string(std::min(marks.size(), kMaxIndentDepth) * 4, ' '), info->name);
      // Does this opcode close a MARK? (POP does when a mark is on top.)
      bool pops_mark = info->mark == MarkEffect::PopsMark ||
                       (info->op == Op::POP && !stack.empty() && stack.back());
      std::string note;
      int pops = info->pops;
      if (pops_mark) {
        TL_CHECK(!marks.empty(), FormatError, "{} at offset {}: no MARK exists on stack", info->name, at);
        note = fmt::format("(MARK at {})", marks.back());
        marks.pop_back();
        while (!stack.empty() && !stack.back()) stack.pop_back();
        if (!stack.empty()) stack.pop_back();
        if (info->op == Op::POP) pops = 0;
      }
      if (info->op == Op::MEMOIZE) note = fmt::format("(as {})", memo_entries);
      if (info->op == Op::PUT || info->op == Op::BINPUT || info->op == Op::LONG_BINPUT ||
          info->op == Op::MEMOIZE) {
        ++memo_entries;
      }
      std::string arg = show_arg(*info, a);
      if (info->arg != ArgKind::None || !note.empty()) {
        line += std::string(kNameColumn - std::min(kNameColumn, info->name.size()), ' ');
        if (info->arg != ArgKind::None) line += " " + arg;
        if (!note.empty()) line += " " + note;
      }
      out += line + "\n";

      TL_CHECK(stack.size() >= static_cast<size_t>(pops), FormatError,
               "{} at offset {} pops {} items from a stack of {}", info->name, at, pops, stack.size());
      stack.resize(stack.size() - static_cast<size_t>(pops));
      if (info->mark == MarkEffect::PushesMark) {
        marks.push_back(at);
        stack.push_back(true);
      }
      stack.insert(stack.end(), static_cast<size_t>(info->pushes), false);
      if (info->op == Op::STOP) break;
    }
    out += fmt::format("highest protocol among opcodes = {}\n", highest);
  } catch (const Error& e) {
    out += fmt::format("error: {}\n", e.what());
  }
  return out;
}

}  // namespace torchlet::pickle

namespace torchlet {

// The public name (<torchlet/inspect.h>) of the same listing.
std::string disassemble_pickle(std::span<const std::byte> pickle, const std::string& label) {
  return pickle::disassemble(pickle, label);
}

}  // namespace torchlet

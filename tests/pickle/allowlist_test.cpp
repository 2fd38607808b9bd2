// What torch >= 2.6's weights-only loader allows by default and torchlet now builds
// (bytearray, collections.Counter, _get_layout, newer dtype names), the user's
// additions (UnpicklerOptions::safe_globals), the refusal's wording, Python's
// strictness about UTF-8, and error messages that never echo raw bytes from the file.
// Expected pickle bytes are what CPython 3.11's pickle.dumps(..., 2) writes.
#include <gtest/gtest.h>
#include <torchlet/error.h>

#include "pickle/pickler.h"
#include "pickle/unpickler.h"

namespace torchlet::pickle {
namespace {

using namespace std::string_literals;

IValue load(const std::string& s, const UnpicklerOptions& opt = {}) {
  return unpickle(std::as_bytes(std::span<const char>(s.data(), s.size())), opt, "t.pkl");
}

// The message of the error `pickle` raises (of type Kind); "" and a failure if none.
template <typename Kind>
std::string error_of(const std::string& pickle, const UnpicklerOptions& opt = {}) {
  try {
    (void)load(pickle, opt);
    ADD_FAILURE() << "accepted";
  } catch (const Kind& e) {
    return e.what();
  } catch (const Error& e) {
    ADD_FAILURE() << "wrong kind of error: " << e.what();
  }
  return "";
}

#define EXPECT_CONTAINS(haystack, needle) \
  EXPECT_NE(std::string(haystack).find(needle), std::string::npos) << (haystack)

// No C0 control, DEL or C1 byte (what a terminal acts on) anywhere in the message.
void expect_no_raw_control_bytes(const std::string& msg) {
  for (unsigned char c : msg) {
    EXPECT_FALSE(c < 0x20 || (c >= 0x7f && c <= 0x9f)) << "byte 0x" << std::hex << int(c) << " in: " << msg;
  }
}

// --- torch 2.6's default allowlist ---------------------------------------------------------

TEST(Allowlist, BytearrayLoadsFromEveryProtocolsForm) {
  // pickle.dumps(bytearray(b'a\xffb'), 2): bytearray(_codecs.encode('a\xffb', 'latin1'))
  IValue p2 = load("\x80\x02" "c__builtin__\nbytearray\nq\x00" "c_codecs\nencode\nq\x01"
                   "X\x04\x00\x00\x00" "a\xc3\xbf" "bq\x02X\x06\x00\x00\x00latin1q\x03\x86q\x04Rq\x05\x85q\x06Rq\x07."s);
  ASSERT_TRUE(p2.isBytes());
  EXPECT_TRUE(p2.isBytearray());
  EXPECT_EQ(p2.toBytesRef(), "a\xff" "b"s);
  // protocol 3: bytearray(b'ab'); protocol 5: BYTEARRAY8; bytearray() when empty.
  IValue p3 = load("\x80\x03" "cbuiltins\nbytearray\nC\x02" "ab\x85R."s);
  EXPECT_TRUE(p3.isBytearray());
  EXPECT_EQ(p3.toBytesRef(), "ab");
  IValue p5 = load("\x80\x05\x96\x02\x00\x00\x00\x00\x00\x00\x00" "ab."s);
  EXPECT_TRUE(p5.isBytearray());
  EXPECT_EQ(p5.toBytesRef(), "ab");
  IValue empty = load("\x80\x02" "c__builtin__\nbytearray\n)R."s);
  EXPECT_TRUE(empty.isBytearray());
  EXPECT_EQ(empty.repr(), "bytearray(b'')");
  // Plain bytes stay bytes, and compare equal to a bytearray of the same data (Python's ==).
  IValue b = load("\x80\x03" "C\x02" "ab."s);
  EXPECT_FALSE(b.isBytearray());
  EXPECT_TRUE(IValueKeyEqual()(b, p3));
  // A bytearray is mutable: no dict key, as Python's TypeError: unhashable type.
  EXPECT_CONTAINS(error_of<FormatError>("\x80\x05}\x96\x01\x00\x00\x00\x00\x00\x00\x00" "aNs."s), "unhashable");
  EXPECT_CONTAINS(error_of<FormatError>("\x80\x03" "cbuiltins\nbytearray\nK\x01\x85R."s),
                  "bytearray argument is a int");
}

TEST(Allowlist, CounterLoadsAsADictThatRemembersItIsACounter) {
  // pickle.dumps(collections.Counter({'x': 2}), 2)
  IValue c = load("\x80\x02" "ccollections\nCounter\nq\x00}q\x01X\x01\x00\x00\x00xq\x02K\x02s\x85q\x03Rq\x04."s);
  ASSERT_TRUE(c.isDict());
  EXPECT_EQ(c.dictRef().py_kind, PyContainerKind::Counter);
  EXPECT_EQ(c.repr(), "{'x': 2}");
  EXPECT_EQ(load("\x80\x02" "ccollections\nCounter\n)R."s).dictRef().size(), 0u);
  EXPECT_CONTAINS(error_of<FormatError>("\x80\x02" "ccollections\nCounter\n]\x85R."s), "Counter argument is a List");
}

TEST(Allowlist, PicklerWritesBytearrayAndCounterAsPythonDoes) {
  // pickle.dumps({'ba': bytearray(b'a\xffb'), 'c': collections.Counter({'x': 2})}, 2)
  const std::string python =
      "\x80\x02}q\x00(X\x02\x00\x00\x00" "baq\x01" "c__builtin__\nbytearray\nq\x02" "c_codecs\nencode\nq\x03"
      "X\x04\x00\x00\x00" "a\xc3\xbf" "bq\x04X\x06\x00\x00\x00latin1q\x05\x86q\x06Rq\x07\x85q\x08Rq\t"
      "X\x01\x00\x00\x00" "cq\n" "ccollections\nCounter\nq\x0b}q\x0cX\x01\x00\x00\x00xq\rK\x02s\x85q\x0eRq\x0fu."s;
  IValue v = load(python);
  EXPECT_EQ(pickle(v, {}), python);
  IValue back = load(pickle(v, {}));
  EXPECT_TRUE(back.dictRef().find(IValue("ba"))->isBytearray());
  EXPECT_EQ(back.dictRef().find(IValue("c"))->dictRef().py_kind, PyContainerKind::Counter);
}

TEST(Allowlist, LayoutsAndNewerDTypesLoadAsInertRecords) {
  // torch pickles torch.strided as _get_layout('torch.strided'): kept as that call.
  IValue l = load("\x80\x02" "ctorch.serialization\n_get_layout\nX\x0d\x00\x00\x00torch.strided\x85R."s);
  ASSERT_TRUE(l.isPyObject());
  EXPECT_EQ(l.toPyObject()->name, "_get_layout");
  EXPECT_EQ(l.toPyObject()->args.repr(), "('torch.strided',)");
  EXPECT_CONTAINS(error_of<FormatError>("\x80\x02" "ctorch.serialization\n_get_layout\nX\x03\x00\x00\x00"
                                        "\x1b[J\x85R."s),
                  "_get_layout argument is '\\x1b[J'");
  // dtypes torch 2.x names that torch 1.13 lacked load as references, as torch.float32 does.
  for (const char* name : {"float8_e4m3fn", "uint16", "uint3", "int4", "bits8"}) {
    IValue d = load("\x80\x02" "ctorch\n"s + name + "\n.");
    ASSERT_TRUE(d.isPyObject()) << name;
    EXPECT_TRUE(d.toPyObject()->is_reference);
    EXPECT_TRUE(is_allowed_global("torch", name));
  }
  EXPECT_FALSE(is_allowed_global("torch", "float9"));
  EXPECT_CONTAINS(error_of<UnsupportedError>("\x80\x02" "ctorch._utils\n_rebuild_wrapper_subclass\n)R."s),
                  "wrapper tensor subclasses are not supported yet");
}

// --- user additions ---------------------------------------------------------------------------

const std::string kNet = "\x80\x02" "c__main__\nNet\n)\x81}X\x01\x00\x00\x00wK\x03sb."s;

TEST(SafeGlobals, RefusalSaysHowToAllowTheGlobal) {
  const std::string msg = error_of<UnsafeGlobalError>(kNet);
  EXPECT_CONTAINS(msg, "GLOBAL at offset 2 names '__main__.Net', which is not in the allowlist");
  EXPECT_CONTAINS(msg, "`--allow __main__.Net`");
  EXPECT_CONTAINS(msg, "LoadOptions::safe_globals");
  EXPECT_CONTAINS(msg, "nothing was imported or run");
}

TEST(SafeGlobals, AUserAllowedGlobalLoadsAsAnInertRecord) {
  UnpicklerOptions opt;
  opt.safe_globals = {"__main__.Net"};
  std::vector<GlobalUse> seen;
  opt.globals_seen = &seen;
  IValue v = load(kNet, opt);
  ASSERT_TRUE(v.isPyObject());
  EXPECT_EQ(v.toPyObject()->name, "Net");
  EXPECT_TRUE(v.toPyObject()->built_by_newobj);
  EXPECT_EQ(v.toPyObject()->state.repr(), "{'w': 3}");
  ASSERT_EQ(seen.size(), 1u);
  EXPECT_TRUE(seen[0].allowed);
  // Only the exact module.Name: neither a prefix nor another class of the module.
  for (const char* other : {"__main__.Ne", "__main__", "__main__.Net.x", "__main_.Net", "main__.Net"}) {
    opt.safe_globals = {other};
    (void)error_of<UnsafeGlobalError>(kNet, opt);
  }
}

TEST(SafeGlobals, ModulesTorchBlocksStayRefused) {
  UnpicklerOptions opt;
  opt.safe_globals = {"os.system", "sys.exit"};
  const std::string msg = error_of<UnsafeGlobalError>("\x80\x02" "cos\nsystem\nX\x02\x00\x00\x00ls\x85R."s, opt);
  EXPECT_CONTAINS(msg, "'os.system'");
  EXPECT_CONTAINS(msg, "module 'os' cannot be allowed");
  (void)error_of<UnsafeGlobalError>("\x80\x02" "csys\nexit\n)R."s, opt);
}

// --- UTF-8, as strict as Python's pickle ----------------------------------------------------------

TEST(Utf8, InvalidTextIsRefusedNamingOpcodeOffsetAndPosition) {
  // Each: Python's UnicodeDecodeError for the same bytes.
  EXPECT_CONTAINS(error_of<FormatError>("\x80\x02X\x01\x00\x00\x00\xffq\x00."s),
                  "BINUNICODE at offset 2: text is not valid UTF-8 ('utf-8' codec can't decode byte 0xff in "
                  "position 0: invalid start byte)");
  EXPECT_CONTAINS(error_of<FormatError>("\x80\x04\x8c\x02" "a\xc3."s),
                  "SHORT_BINUNICODE at offset 2: text is not valid UTF-8 ('utf-8' codec can't decode byte 0xc3 "
                  "in position 1: unexpected end of data)");
  EXPECT_CONTAINS(error_of<FormatError>("\x80\x04\x8d\x03\x00\x00\x00\x00\x00\x00\x00\xe2\x28\xa1."s),
                  "BINUNICODE8 at offset 2: text is not valid UTF-8 ('utf-8' codec can't decode byte 0xe2 in "
                  "position 0: invalid continuation byte)");
  EXPECT_CONTAINS(error_of<FormatError>("\x80\x02X\x04\x00\x00\x00\xf0\x90\x28\x28."s),
                  "can't decode bytes in position 0-1: invalid continuation byte");
  EXPECT_CONTAINS(error_of<FormatError>("\x80\x02X\x02\x00\x00\x00\xc0\x80."s),  // overlong NUL
                  "can't decode byte 0xc0 in position 0: invalid start byte");
  EXPECT_CONTAINS(error_of<FormatError>("\x80\x02X\x04\x00\x00\x00\xf4\x90\x80\x80."s),  // past U+10FFFF
                  "can't decode byte 0xf4 in position 0: invalid continuation byte");
  // GLOBAL's lines decode strictly (no surrogates either), as Python's load_global.
  EXPECT_CONTAINS(error_of<FormatError>("\x80\x02" "c\xed\xa0\x80\nx\n."s),
                  "GLOBAL at offset 2: text is not valid UTF-8 ('utf-8' codec can't decode byte 0xed in "
                  "position 0: invalid continuation byte)");
}

TEST(Utf8, WhatPythonAcceptsStillLoads) {
  // BINUNICODE decodes with 'surrogatepass': pickle.loads gives '\ud800'.
  EXPECT_EQ(load("\x80\x02X\x03\x00\x00\x00\xed\xa0\x80."s).toStringRef(), "\xed\xa0\x80");
  EXPECT_EQ(load("\x80\x02X\x04\x00\x00\x00\xf0\x9f\x98\x80."s).toStringRef(), "\xf0\x9f\x98\x80");
  // Protocol 0's UNICODE is raw-unicode-escape, not UTF-8: any byte is its code point.
  EXPECT_EQ(load("Vab\xff\n."s).toStringRef(), "ab\xc3\xbf");
}

// --- messages never echo raw bytes --------------------------------------------------------------

TEST(Messages, GlobalNamesAreEscapedAsPythonsReprShowsThem) {
  // ESC [2J (clear screen), DEL, C1 CSI (U+009B, valid UTF-8) and a NUL in a GLOBAL.
  const std::string msg = error_of<UnsafeGlobalError>("\x80\x02" "c\x1b[2J\x7fmod\nna\xc2\x9bme\x00\n."s);
  EXPECT_CONTAINS(msg, "'\\x1b[2J\\x7fmod.na\\x9bme\\x00'");
  expect_no_raw_control_bytes(msg);
  // STACK_GLOBAL of Python 2 strings (raw bytes, never decoded): invalid UTF-8 as \xNN.
  const std::string raw = error_of<UnsafeGlobalError>("\x80\x04U\x03\x1b\xff\x85U\x01x\x93."s);
  EXPECT_CONTAINS(raw, "'\\x1b\\xff\\x85.x'");
  expect_no_raw_control_bytes(raw);
  // Text that reorders a terminal's line (RIGHT-TO-LEFT OVERRIDE) is escaped too.
  EXPECT_CONTAINS(error_of<UnsafeGlobalError>("\x80\x02" "cevil\xe2\x80\xae\nx\n."s), "'evil\\u202e.x'");
  // Printable non-ASCII text stays readable.
  EXPECT_CONTAINS(error_of<UnsafeGlobalError>("\x80\x02" "cmod\xc3\xa9\nx\n."s), "'mod\xc3\xa9.x'");
}

TEST(Messages, OtherQuotedFileTextIsEscaped) {
  // Protocol 0's FLOAT and INT lines, and a torch.device string.
  const std::string float_msg = error_of<FormatError>("F1\x1b[2J\n."s);
  EXPECT_CONTAINS(float_msg, "'1\\x1b[2J' is not a float");
  expect_no_raw_control_bytes(float_msg);
  const std::string int_msg = error_of<FormatError>("I1\x9b\n."s);
  EXPECT_CONTAINS(int_msg, "'1\\x9b' is not a decimal integer");
  expect_no_raw_control_bytes(int_msg);
  const std::string device = error_of<ValueError>("\x80\x02" "ctorch\ndevice\nX\x08\x00\x00\x00" "cpu:\x1b[2J\x85R."s);
  EXPECT_CONTAINS(device, "'cpu:\\x1b[2J'");
  expect_no_raw_control_bytes(device);
}

}  // namespace
}  // namespace torchlet::pickle

// The pickle layer: the opcode table, unpickling what Python writes, round trips
// through the pickler, the disassembler, and every limit and refusal.
#include <set>

#include <gtest/gtest.h>
#include <torchlet/error.h>

#include "../common/fixtures.h"
#include "pickle/disassembler.h"
#include "pickle/opcodes.h"
#include "pickle/pickler.h"
#include "pickle/unpickler.h"

namespace torchlet::pickle {
namespace {

using namespace std::string_literals;

std::span<const std::byte> bytes_of(const std::string& s) {
  return std::as_bytes(std::span<const char>(s.data(), s.size()));
}

IValue load(const std::string& s, UnpicklerOptions opt = {}) { return unpickle(bytes_of(s), opt, "test.pkl"); }

TEST(OpcodeTable, BytesAndNamesAreUniqueAndLookUpBack) {
  std::set<uint8_t> bytes;
  std::set<std::string_view> names;
  int count = 0;
#define TL_PICKLE_OP(op_name, byte, arg, proto, pops, mark, pushes, doc) \
  bytes.insert(byte);                                                \
  names.insert(#op_name);                                            \
  EXPECT_EQ(op_info(static_cast<uint8_t>(byte))->name, #op_name);    \
  ++count;
#include "pickle/opcodes.def"
#undef TL_PICKLE_OP
  EXPECT_EQ(bytes.size(), static_cast<size_t>(count));
  EXPECT_EQ(names.size(), static_cast<size_t>(count));
  EXPECT_EQ(count, 68);  // pickletools lists 68 opcodes for protocols 0-5
  EXPECT_EQ(op_info(0xff), nullptr);
}

// Every opcode either does its job or is refused by name: none crashes or is unknown.
TEST(OpcodeTable, EveryOpcodeIsHandledOrRefusedByName) {
#define TL_PICKLE_OP(op_name, byte, arg, proto, pops, mark, pushes, doc)                  \
  {                                                                                      \
    std::string s = "\x80\x02";                                                          \
    s.push_back(static_cast<char>(byte));                                                \
    try {                                                                                \
      (void)load(s);                                                                     \
    } catch (const Error& e) {                                                           \
      EXPECT_EQ(std::string(e.what()).find("unknown pickle opcode"), std::string::npos) \
          << #op_name << ": " << e.what();                                               \
    }                                                                                    \
  }
#include "pickle/opcodes.def"
#undef TL_PICKLE_OP
}

TEST(Unpickler, ReadsPythonProtocolsZeroToFive) {
  auto expected = testing::fixture_lines("pickle/expected.txt");
  ASSERT_EQ(expected.size(), 1u);
  for (int proto = 0; proto <= 5; ++proto) {
    std::filesystem::path p = testing::fixture_dir() / "pickle" / ("p" + std::to_string(proto) + ".pkl");
    std::ifstream in(p, std::ios::binary);
    ASSERT_TRUE(in) << "missing fixture " << p;
    std::string bytes((std::istreambuf_iterator<char>(in)), {});
    IValue v = load(bytes);
    EXPECT_EQ(v.repr(), expected[0]) << "protocol " << proto;
  }
}

TEST(Unpickler, RefusesUnsafeGlobalsByNameBeforeBuildingAnything) {
  try {
    (void)load("\x80\x02" "cos\nsystem\nX\x02\x00\x00\x00ls\x85R."s);
    FAIL();
  } catch (const UnsafeGlobalError& e) {
    EXPECT_NE(std::string(e.what()).find("'os.system'"), std::string::npos) << e.what();
  }
  EXPECT_THROW(load("\x80\x04\x8c\x02os\x8c\x06system\x93."s), UnsafeGlobalError);
  EXPECT_THROW(load("(S'ls'\nios\nsystem\n."s), UnsafeGlobalError);
  EXPECT_THROW(load("\x80\x02\x82\x01."s), UnsafeGlobalError);  // EXT1
}

TEST(Unpickler, InertModeRecordsUnknownClasses) {
  UnpicklerOptions opt;
  opt.inert_unknown_globals = true;
  std::vector<GlobalUse> seen;
  opt.globals_seen = &seen;
  IValue v = load("\x80\x02" "c__main__\nNet\n)\x81}X\x01\x00\x00\x00wK\x03sb."s, opt);
  ASSERT_TRUE(v.isPyObject());
  auto p = v.toPyObject();
  EXPECT_EQ(p->module, "__main__");
  EXPECT_EQ(p->name, "Net");
  EXPECT_TRUE(p->built_by_newobj);
  EXPECT_EQ(p->state.repr(), "{'w': 3}");
  ASSERT_EQ(seen.size(), 1u);
  EXPECT_FALSE(seen[0].allowed);
}

TEST(Unpickler, StructuralErrorsAreSpecific) {
  auto expect_msg = [](const std::string& p, const std::string& needle) {
    try {
      (void)load(p);
      ADD_FAILURE() << "accepted: " << needle;
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
    }
  };
  expect_msg("\x80\x02]K\x01K\x02s."s, "only dicts take items");
  expect_msg("\x80\x02}K\x01" "a."s, "only lists can be appended to");
  expect_msg("\x80\x02h\x05."s, "not in the memo");
  expect_msg("\x80\x02R."s, "stack underflow");
  expect_msg("\x80\x02t."s, "without a MARK");
  expect_msg("\x80\x02K\x01K\x02."s, "STOP with 2 items");
  expect_msg("\x80\x02X\xff\xff\xff\x00" "ab."s, "declares 16777215 bytes");
  expect_msg("\x80\x02]q\x00h\x00" "a."s, "contains itself");
  expect_msg(std::string("\x80\x02", 2) + std::string(20000, '('), "MARK nesting deeper than");
  expect_msg("\x80\x02\xfe."s, "unknown pickle opcode 0xfe");
  expect_msg("\x80\x02"s, "truncated pickle");
}

// Protocol 0's UNICODE (raw-unicode-escape), decoded as Python's pickle.loads decodes it;
// the loader and the disassembler agree on every case, accepted or refused.
TEST(Unpickler, ProtocolZeroUnicodeEscapesDecodeAsPythonDoes) {
  // pickle.loads(b'V\\u00e9x\\U0001F600\\\\\xe9\n.') == 'éx😀\\\\é'
  const std::string ok = "V\\u00e9x\\U0001F600\\\\\xe9\n."s;
  EXPECT_EQ(load(ok).toStringRef(), "\xc3\xa9x\xf0\x9f\x98\x80\\\\\xc3\xa9");
  EXPECT_NE(disassemble(bytes_of(ok), "test.pkl").find("x\xf0\x9f\x98\x80"), std::string::npos);
  // Python refuses each of these ("truncated \uXXXX escape", "\Uxxxxxxxx out of range").
  const std::pair<std::string, std::string> refused[] = {
      {"V\\u12\n."s, "truncated \\u escape"},
      {"V\\uzzzz\n."s, "bad \\u escape"},
      {"V\\u+123\n."s, "bad \\u escape"},
      {"V\\U-0000041\n."s, "bad \\U escape"},
      {"V\\U00110000\n."s, "UNICODE code point 110000 out of range"},
  };
  for (const auto& [p, needle] : refused) {
    try {
      (void)load(p);
      ADD_FAILURE() << "loaded: " << p;
    } catch (const FormatError& e) {
      EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
    }
    // The listing stops at the refused opcode with the loader's reason.
    const std::string listing = disassemble(bytes_of(p), "test.pkl");
    EXPECT_NE(listing.find("error: UNICODE: " + needle), std::string::npos) << listing;
  }
}

TEST(Unpickler, DeepNestingIsRefusedWithoutOverflowingTheStack) {
  // 200k nested lists built through the memo: APPEND chains keep the stack shallow.
  std::string p = "\x80\x02]q\x00";
  for (int i = 0; i < 200000; ++i) {
    p += "]\x94";   // new list, MEMOIZE
    p += "a";       // append it to the list below
    p += "h";       // ... and re-fetch the new one via BINGET? (index grows: use LONG_BINGET)
    p.pop_back();
    uint32_t idx = static_cast<uint32_t>(i + 1);
    p += "j";
    p.append(reinterpret_cast<const char*>(&idx), 4);
  }
  p += ".";
  // Whatever the structure, the result is refused as too deep (or malformed), cleanly.
  EXPECT_THROW(load(p), Error);
}

TEST(Pickler, RoundTripsEveryValueKind) {
  auto d = make_intrusive<DictImpl>();
  d->py_kind = PyContainerKind::OrderedDict;
  d->insert_or_assign(IValue("x"), IValue(int64_t{1} << 40));
  d->insert_or_assign(IValue("y"), IValue(-0.0));
  std::string big(9, '\0');
  big[8] = 1;
  IValue shared = IValue::list({IValue(1)});
  IValue v = IValue::tuple({IValue(d), IValue::bytes(std::string("\0\xff", 2)), IValue(std::complex<double>(1, -2)),
                            IValue(make_intrusive<BigIntImpl>(big)), IValue(Device::parse("cuda:1")),
                            shared, shared, IValue(), IValue(false), IValue("é")});
  std::string bytes = pickle(v, {});
  IValue back = load(bytes);
  EXPECT_EQ(back.repr(), v.repr());
  const auto& e = back.tupleRef().elements;
  EXPECT_EQ(e[0].dictRef().py_kind, PyContainerKind::OrderedDict);
  EXPECT_TRUE(e[5].is(e[6])) << "shared list must stay shared";
}

}  // namespace
}  // namespace torchlet::pickle

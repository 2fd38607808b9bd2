// The disassembler and the opcode table against CPython's pickletools (the oracle):
// every column of opcodes.def equals pickletools.opcodes, and `disassemble` prints
// pickletools.dis's listing byte for byte for pickles of every protocol.
#include "pickle/disassembler.h"

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include <gtest/gtest.h>

#include "../common/fixtures.h"
#include "pickle/opcodes.h"

namespace torchlet::pickle {
namespace {

std::string read_file(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) ADD_FAILURE() << "missing fixture " << p;
  return std::string((std::istreambuf_iterator<char>(in)), {});
}

std::span<const std::byte> bytes_of(const std::string& s) {
  return std::as_bytes(std::span<const char>(s.data(), s.size()));
}

std::string_view mark_name(MarkEffect m) {
  switch (m) {
    case MarkEffect::NoMark: return "NoMark";
    case MarkEffect::PopsMark: return "PopsMark";
    case MarkEffect::PushesMark: return "PushesMark";
  }
  return "?";
}

TEST(OpcodeTable, EveryColumnMatchesPickletools) {
  auto rows = testing::fixture_lines("pickle/opcodes.txt");
  std::map<std::string, std::string> expected;  // name -> "byte proto arg pops mark pushes"
  for (const auto& row : rows) expected[row.substr(0, row.find(' '))] = row.substr(row.find(' ') + 1);
  size_t ours = 0;
#define TL_PICKLE_OP(op_name, op_byte, op_arg, op_proto, op_pops, op_mark, op_pushes, op_doc)  \
  {                                                                                               \
    ++ours;                                                                                       \
    const OpInfo& info = op_info(Op::op_name);                                                    \
    std::string got = std::to_string(op_byte) + " " + std::to_string(info.protocol) + " " +          \
                      std::string(arg_kind_name(info.arg)) + " " + std::to_string(info.pops) +    \
                      " " + std::string(mark_name(info.mark)) + " " + std::to_string(info.pushes); \
    auto it = expected.find(#op_name);                                                            \
    ASSERT_NE(it, expected.end()) << #op_name << " is not a pickletools opcode";                  \
    EXPECT_EQ(got, it->second) << #op_name;                                                       \
  }
#include "pickle/opcodes.def"
#undef TL_PICKLE_OP
  EXPECT_EQ(ours, expected.size()) << "pickletools has opcodes the table lacks";
}

TEST(Disassembler, PrintsPickletoolsListingForEverySample) {
  const auto dir = testing::fixture_dir() / "pickle" / "dis";
  size_t samples = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() != ".pkl") continue;
    ++samples;
    std::string pkl = read_file(entry.path());
    std::string expected = read_file(std::filesystem::path(entry.path()).replace_extension(".txt"));
    EXPECT_EQ(disassemble(bytes_of(pkl), entry.path().filename().string()), expected)
        << entry.path().filename();
  }
  EXPECT_GE(samples, 15u) << "dis fixtures missing in " << dir;
}

TEST(Disassembler, DamagedPicklesEndWithAnErrorLine) {
  using namespace std::string_literals;
  // A string length past the end, an unknown opcode, a TUPLE without MARK.
  for (const std::string& bad : {"\x80\x02X\xff\xff"s, "\x80\x02\xff"s, "\x80\x02K\x01t."s}) {
    std::string text = disassemble(bytes_of(bad), "bad.pkl");
    EXPECT_EQ(text.rfind("error: ", std::string::npos) != std::string::npos, true) << text;
    EXPECT_EQ(text.find("highest protocol"), std::string::npos) << text;
  }
  // 100k nested MARKs: indentation is capped, so the listing stays linear in size.
  std::string deep = "\x80\x02" + std::string(100000, '(') + ".";
  std::string text = disassemble(bytes_of(deep), "deep.pkl");
  EXPECT_LT(text.size(), 100000u * 300u);
}

}  // namespace
}  // namespace torchlet::pickle

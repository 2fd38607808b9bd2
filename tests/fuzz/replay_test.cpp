// Replays the committed seed corpus (fuzz/corpus/<target>_fuzz/) and every past finding
// (fuzz/regressions/<target>-<what>.<ext>) through the same entry function the libFuzzer
// target runs (fuzz/targets.h). Each input must end in a value or a torchlet refusal:
// an escaping exception fails the test, a crash or hang fails the ctest run, and the
// sanitizer build (scripts/test.sh --sanitize) catches memory errors.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <ostream>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "targets.h"

namespace torchlet::fuzz {

// gtest names the parameter by this in test names and failures.
void PrintTo(const Target& t, std::ostream* os) { *os << t.name; }

namespace {

namespace fs = std::filesystem;

const fs::path kFuzzDir = fs::path(TORCHLET_SOURCE_DIR) / "fuzz";

std::vector<uint8_t> read_bytes(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// The target a regression input belongs to: its file name up to the first '-'.
std::string regression_target(const fs::path& p) {
  const std::string name = p.filename().string();
  return name.substr(0, name.find('-'));
}

std::vector<fs::path> inputs_of(std::string_view target) {
  std::vector<fs::path> out;
  const fs::path corpus = kFuzzDir / "corpus" / (std::string(target) + "_fuzz");
  if (fs::is_directory(corpus))
    for (const auto& e : fs::directory_iterator(corpus))
      if (e.is_regular_file()) out.push_back(e.path());
  for (const auto& e : fs::directory_iterator(kFuzzDir / "regressions"))
    if (e.is_regular_file() && regression_target(e.path()) == target) out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

class Replay : public testing::TestWithParam<Target> {};

TEST_P(Replay, EveryCorpusFileAndPastFindingIsHandled) {
  const Target t = GetParam();
  const std::vector<fs::path> inputs = inputs_of(t.name);
  // Every target has committed seeds; an empty list means the corpus went missing.
  ASSERT_FALSE(inputs.empty()) << "no corpus or regression inputs for " << t.name;
  for (const fs::path& p : inputs) {
    SCOPED_TRACE(p.string());
    const std::vector<uint8_t> bytes = read_bytes(p);
    EXPECT_NO_THROW(t.run(bytes));
  }
}

INSTANTIATE_TEST_SUITE_P(Targets, Replay, testing::ValuesIn(targets().begin(), targets().end()),
                         [](const testing::TestParamInfo<Target>& p) { return std::string(p.param.name); });

// Every fuzz/*_fuzz.cpp main has an entry in targets(), and every regression input
// names a target, so no finding is silently left out of the replay.
TEST(Replay, TargetsMatchTheFuzzMainsAndRegressions) {
  std::set<std::string> listed;
  for (const Target& t : targets()) listed.insert(std::string(t.name));
  std::set<std::string> mains;
  for (const auto& e : fs::directory_iterator(kFuzzDir)) {
    const std::string name = e.path().filename().string();
    const std::string suffix = "_fuzz.cpp";
    if (name.size() > suffix.size() && name.ends_with(suffix)) mains.insert(name.substr(0, name.size() - suffix.size()));
  }
  EXPECT_EQ(listed, mains);
  size_t regressions = 0;
  for (const auto& e : fs::directory_iterator(kFuzzDir / "regressions")) {
    EXPECT_TRUE(listed.count(regression_target(e.path()))) << e.path() << " names no fuzz target";
    ++regressions;
  }
  EXPECT_GE(regressions, 2u);
}

// Malformed input is a refusal the entries swallow, not an escaping exception.
TEST(Replay, RefusalsAreSwallowed) {
  const std::vector<uint8_t> garbage = {0x80, 0x02, 'q', 0xff};
  EXPECT_NO_THROW(unpickler(garbage));
  EXPECT_NO_THROW(checkpoint(garbage));
  EXPECT_NO_THROW(script_archive(garbage));
  const std::string bad_source = "def f(x: int) -> int:\n    return x +\n";
  EXPECT_NO_THROW(compiler({reinterpret_cast<const uint8_t*>(bad_source.data()), bad_source.size()}));
}

}  // namespace
}  // namespace torchlet::fuzz

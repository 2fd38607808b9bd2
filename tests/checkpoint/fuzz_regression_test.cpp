// Replays every input the fuzzers ever found a problem with (fuzz/regressions/):
// each must now end in a clean torchlet::Error or a value, never a crash or a hang
// (ctest's timeout catches the latter; ASan builds catch memory errors).
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>
#include <torchlet/checkpoint.h>
#include <torchlet/error.h>

#include "pickle/disassembler.h"
#include "pickle/unpickler.h"

namespace torchlet {
namespace {

namespace fs = std::filesystem;

TEST(FuzzRegressions, EveryPastFindingIsHandled) {
  fs::path dir = fs::path(TORCHLET_SOURCE_DIR) / "fuzz" / "regressions";
  size_t replayed = 0;
  for (const auto& entry : fs::directory_iterator(dir)) {
    std::string path = entry.path().string();
    SCOPED_TRACE(path);
    if (entry.path().extension() == ".pt") {
      for (auto mode : {LoadMode::Eager, LoadMode::Mapped}) {
        LoadOptions opt;
        opt.mode = mode;
        try {
          (void)load(path, opt).repr();
        } catch (const Error&) {
        }
      }
      try {
        (void)scan(path);
      } catch (const Error&) {
      }
    } else {
      std::ifstream in(path, std::ios::binary);
      std::string bytes((std::istreambuf_iterator<char>(in)), {});
      auto span = std::as_bytes(std::span<const char>(bytes.data(), bytes.size()));
      for (bool inert : {false, true}) {
        pickle::UnpicklerOptions opt;
        opt.inert_unknown_globals = inert;
        opt.persistent_load = [](const IValue&) { return IValue(zeros({16})); };
        try {
          (void)pickle::unpickle(span, opt, path).repr();
        } catch (const Error&) {
        }
      }
      std::string listing = pickle::disassemble(span, path);
      EXPECT_LT(listing.size(), bytes.size() * 200) << "disassembly output must stay proportional";
    }
    ++replayed;
  }
  EXPECT_GE(replayed, 2u);
}

}  // namespace
}  // namespace torchlet

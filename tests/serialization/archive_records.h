// Test helpers shared by the serialization tests: a file's bytes, an archive record
// found by the end of its name (archives name records under a root folder), and a
// script run by real torch.
#pragma once

#include <filesystem>
#include <fstream>
#include <iterator>
#include <cstdlib>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "archive/zip_reader.h"

namespace torchlet::jit {

inline std::string read_bytes(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

inline std::string record(const std::filesystem::path& archive, const std::string& suffix) {
  ZipReader zip = ZipReader::open(archive.string());
  for (const auto& r : zip.records())
    if (r.name.ends_with(suffix)) return zip.read(r);
  ADD_FAILURE() << "no record ending " << suffix;
  return {};
}

// Writes `script` to `py`, runs it with real torch (its arguments follow, quoted) and
// removes it. The exit status (0: passed).
inline int run_torch_script(const std::filesystem::path& py, const std::string& script,
                            const std::vector<std::string>& args) {
  std::ofstream(py) << script;
  std::string cmd = "/usr/bin/python3 " + py.string();
  for (const auto& a : args) cmd += " '" + a + "'";
  const int status = std::system(cmd.c_str());
  std::filesystem::remove(py);
  return status;
}

}  // namespace torchlet::jit

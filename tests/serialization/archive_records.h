// Test helpers shared by the serialization tests: a file's bytes, and an archive
// record found by the end of its name (archives name records under a root folder).
#pragma once

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

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

}  // namespace torchlet::jit

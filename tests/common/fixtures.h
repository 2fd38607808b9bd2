// Test helpers for reading fixtures that real PyTorch wrote (tests/fixtures/gen_*.py).
// A missing fixture is a test failure, never a skip: the oracle is part of the suite.
#pragma once

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace torchlet::testing {

// The tree's TORCHLET_FIXTURE_DIR (tests/CMakeLists.txt), or TORCHLET_FIXTURES when set
// (fixtures torch wrote elsewhere, e.g. on another CPU).
inline std::filesystem::path fixture_dir() {
  const char* env = std::getenv("TORCHLET_FIXTURES");
  return env ? std::filesystem::path(env) : std::filesystem::path(TORCHLET_FIXTURE_DIR);
}

// Reads a fixture as lines; ADD_FAILURE (and returns empty) when it is missing.
inline std::vector<std::string> fixture_lines(const std::string& relative) {
  std::filesystem::path p = fixture_dir() / relative;
  std::ifstream in(p);
  std::vector<std::string> lines;
  if (!in) {
    ADD_FAILURE() << "missing fixture " << p
                  << " (run the fixtures.generate test, i.e. tests/fixtures/generate.py)";
    return lines;
  }
  for (std::string line; std::getline(in, line);) {
    if (!line.empty()) lines.push_back(line);
  }
  if (lines.empty()) ADD_FAILURE() << "empty fixture " << p;
  return lines;
}

inline std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::string cur;
  std::istringstream in(s);
  while (std::getline(in, cur, sep)) out.push_back(cur);
  if (!s.empty() && s.back() == sep) out.emplace_back();
  return out;
}

inline std::vector<unsigned char> from_hex(const std::string& hex) {
  std::vector<unsigned char> out;
  for (size_t i = 0; i + 1 < hex.size(); i += 2) {
    out.push_back(static_cast<unsigned char>(std::stoi(hex.substr(i, 2), nullptr, 16)));
  }
  return out;
}

inline std::string to_hex(const void* data, size_t n) {
  static const char* digits = "0123456789abcdef";
  std::string out;
  const auto* p = static_cast<const unsigned char*>(data);
  for (size_t i = 0; i < n; ++i) {
    out += digits[p[i] >> 4];
    out += digits[p[i] & 15];
  }
  return out;
}

}  // namespace torchlet::testing

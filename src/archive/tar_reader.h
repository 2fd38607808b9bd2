// TarReader: the minimal tar reading the oldest torch.save format (PyTorch < 0.4)
// needs: regular-file members by name, as spans of the mapped file. Headers are 512-
// byte ustar blocks; PAX extended headers are skipped. Every size is checked against
// the file before use.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <unordered_map>

namespace torchlet {

class TarReader {
 public:
  static constexpr size_t kMaxMembers = 4096;  // torch's tar checkpoints hold 4

  TarReader(std::span<const std::byte> bytes, std::string label);
  // The member's bytes, or FormatError naming it when absent.
  std::span<const std::byte> get(std::string_view name) const;
  bool has(std::string_view name) const { return members_.count(std::string(name)) != 0; }
  // Offset of a member's bytes within the file.
  size_t offset_of(std::string_view name) const;

 private:
  std::span<const std::byte> bytes_;
  std::string label_;
  std::unordered_map<std::string, std::pair<size_t, size_t>> members_;  // offset, size
};

// Whether the bytes start like a ustar archive ("ustar" magic at offset 257).
bool looks_like_tar(std::span<const std::byte> bytes);

}  // namespace torchlet

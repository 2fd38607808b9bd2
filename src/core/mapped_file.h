// A private (copy-on-write) memory mapping of a whole file, shared by everything that aliases it.
// Storages borrowed from a checkpoint hold a shared_ptr<MappedFile>, so the mapping
// lives exactly as long as any tensor that points into it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>

namespace torchlet {

class MappedFile {
 public:
  // Maps `path` copy-on-write: writes through a tensor never reach the file; throws IOError naming the path and the OS reason.
  static std::shared_ptr<MappedFile> open(const std::string& path);
  ~MappedFile();
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;

  std::span<const std::byte> bytes() const { return {data_, size_}; }
  const std::byte* data() const { return data_; }
  size_t size() const { return size_; }
  const std::string& path() const { return path_; }

  // Copies [offset, offset + n) of the file into dst with pread, bypassing the
  // mapping: an eager load then costs no mapped pages, so peak RSS stays near the
  // size of the data (a memcpy from the mapping would count both copies).
  void read_into(size_t offset, std::byte* dst, size_t n) const;

 private:
  MappedFile(std::string path, int fd, const std::byte* data, size_t size)
      : path_(std::move(path)), fd_(fd), data_(data), size_(size) {}
  std::string path_;
  int fd_;
  const std::byte* data_;
  size_t size_;
};

}  // namespace torchlet

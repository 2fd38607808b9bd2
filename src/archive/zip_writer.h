// ZipWriter: the write side of the archive layer, producing the same bytes PyTorch's
// writer (caffe2 inline_container + miniz) does: stored records whose data starts on a
// 64-byte boundary, padding in an "FB" extra field, data descriptors, zip64 when
// needed, and a zip64 end record always. It writes to a temporary file beside the
// target and renames it into place on finalize(), so a crash never leaves a
// truncated file at the target path.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace torchlet {

struct ZipWriterOptions {
  size_t alignment = 64;     // record data starts at a multiple of this
  bool compute_crc32 = true;  // like torch's compute_crc32; off writes 0
  // Offsets/sizes at or above this use zip64 fields (tests lower it; the format's
  // own limit is 0xffffffff).
  uint64_t zip64_threshold = 0xffffffffu;
  bool fsync = false;  // sync data before the rename (power-loss durability)
};

class ZipWriter {
 public:
  // Records are written as "<root>/<name>"; the file appears at `path` on finalize().
  ZipWriter(std::string path, std::string root, ZipWriterOptions options = {});
  ~ZipWriter();  // without finalize(): removes the temporary file
  ZipWriter(const ZipWriter&) = delete;
  ZipWriter& operator=(const ZipWriter&) = delete;

  // Writes one whole record.
  void write_record(std::string_view name, std::span<const std::byte> data);
  void write_record(std::string_view name, std::string_view data) {
    write_record(name, std::as_bytes(std::span<const char>(data.data(), data.size())));
  }
  // Streams one record of `total_size` bytes from several chunks (large storages).
  void begin_record(std::string_view name, uint64_t total_size);
  void write_chunk(std::span<const std::byte> chunk);
  void end_record();

  // Writes the central directory and end records, syncs, renames into place.
  void finalize();
  const std::vector<std::string>& written() const { return names_; }

 private:
  struct Entry {
    std::string name;
    uint32_t crc = 0;
    uint64_t size = 0;
    uint64_t offset = 0;
  };
  void put(const std::string& bytes);
  void put(std::span<const std::byte> bytes);
  [[noreturn]] void io_fail(const char* what);

  std::string path_, tmp_path_, root_;
  ZipWriterOptions options_;
  std::FILE* file_ = nullptr;
  uint64_t cursor_ = 0;
  std::vector<Entry> entries_;
  std::vector<std::string> names_;
  bool in_record_ = false;
  uint64_t record_expected_ = 0, record_written_ = 0;
  uint32_t record_crc_ = 0;
  bool finalized_ = false;
};

}  // namespace torchlet

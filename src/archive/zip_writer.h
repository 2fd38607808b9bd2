// ZipWriter: the write side of the archive layer, producing the bytes PyTorch's writer
// (caffe2 inline_container + miniz) produces: stored records whose data starts on a
// 64-byte boundary, padding in an "FB" extra field, data descriptors, zip64 fields when
// needed, and the zip64 end records always. Record naming conventions (version,
// .data/, data/N) belong to callers; the writer only prefixes the root folder.
//
// Where the bytes go is a ZipSink. The path constructor uses a file sink that writes
// "<target>.tmp.<random>" beside the target and renames it into place on finalize(),
// so a crash never leaves a truncated file at the target path.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

namespace torchlet {

struct ZipWriterOptions {
  size_t alignment = 64;      // record data starts at a multiple of this (1..32768)
  // Like torch 2.x's compute_crc32; off leaves the CRC fields 0, the initial value
  // miniz keeps when told not to compute it (torch 1.13, our oracle, has no switch).
  bool compute_crc32 = true;
  // Sizes and offsets at or above this use zip64 fields. miniz's own threshold is
  // 0xffffffff; tests lower it to exercise zip64 without writing gigabytes.
  uint64_t zip64_threshold = 0xffffffffu;
  // File sink only: fsync the file before the rename and the folder after it, so
  // the new file survives power loss. Off by default because torch does not sync
  // either and a sync of a multi-GB checkpoint costs seconds.
  bool fsync = false;
};

// Receives the archive's bytes in order. commit() is called once, after the last
// byte; a sink that is destroyed without commit() discards what it got.
class ZipSink {
 public:
  virtual ~ZipSink() = default;
  virtual void write(std::span<const std::byte> bytes) = 0;
  virtual void commit() {}
};

// Keeps the archive in memory (tests, fuzzing, saving to a buffer).
class MemoryZipSink : public ZipSink {
 public:
  void write(std::span<const std::byte> bytes) override {
    bytes_.insert(bytes_.end(), bytes.begin(), bytes.end());
  }
  const std::vector<std::byte>& bytes() const { return bytes_; }

 private:
  std::vector<std::byte> bytes_;
};

// The path constructor's sink on its own, for other formats written atomically
// (safetensors): "<target>.tmp.<random>" beside the target, renamed into place by
// commit(), removed if the sink is destroyed without it. Throws IOError.
std::unique_ptr<ZipSink> make_atomic_file_sink(const std::string& path, bool fsync);

class ZipWriter {
 public:
  // Records are written as "<root>/<name>" ("<name>" when root is empty); the file
  // appears at `path` on finalize(). Throws IOError when the temporary file cannot
  // be created.
  ZipWriter(const std::string& path, std::string root, ZipWriterOptions options = {});
  // Writes into `sink`, which the caller owns and which must outlive the writer.
  ZipWriter(ZipSink& sink, std::string root, ZipWriterOptions options = {});
  ~ZipWriter();  // without finalize(): the sink is dropped (the temporary file removed)
  ZipWriter(const ZipWriter&) = delete;
  ZipWriter& operator=(const ZipWriter&) = delete;

  // Writes one whole record. A name written twice is a ValueError, as in torch.
  void write_record(std::string_view name, std::span<const std::byte> data);
  // The same, with the data's CRC-32 computed elsewhere (a checkpoint save computes its
  // storages' CRCs on another thread while this one writes): `crc_of_data` is called
  // once the data is written, only when compute_crc32 is on, and must return
  // crc32(0, data).
  void write_record(std::string_view name, std::span<const std::byte> data,
                    const std::function<uint32_t()>& crc_of_data);
  void write_record(std::string_view name, std::string_view data) {
    write_record(name, std::as_bytes(std::span<const char>(data.data(), data.size())));
  }
  // Streams one record of `total_size` bytes from several chunks, so a large
  // storage never needs one contiguous buffer. The output does not depend on how
  // the bytes are split.
  void begin_record(std::string_view name, uint64_t total_size);
  void write_chunk(std::span<const std::byte> chunk);
  void end_record();

  // Writes the central directory and end records and commits the sink (file sink:
  // flush, optional fsync, rename into place).
  void finalize();
  // The names written so far, below the root, in order.
  const std::vector<std::string>& written() const { return names_; }
  // The records written so far, in order: name below the root, CRC-32 (0 when
  // compute_crc32 is off, as in the file) and size; what torch's serialization id hashes.
  struct WrittenRecord {
    std::string_view name;
    uint32_t crc;
    uint64_t size;
  };
  std::vector<WrittenRecord> written_records() const;

 private:
  struct Entry {
    std::string name;  // full name, root included
    uint32_t crc = 0;
    uint64_t size = 0;
    uint64_t offset = 0;  // of the local file header
  };
  void put(const std::string& bytes);
  void put(std::span<const std::byte> bytes);

  std::unique_ptr<ZipSink> owned_sink_;  // the file sink of the path constructor
  ZipSink* sink_;                        // owned_sink_ or the caller's sink
  std::string root_;
  ZipWriterOptions options_;
  uint64_t cursor_ = 0;  // bytes written so far = offset of the next byte
  std::vector<Entry> entries_;
  std::vector<std::string> names_;
  std::unordered_set<std::string> full_names_;
  bool in_record_ = false;
  uint64_t record_expected_ = 0, record_written_ = 0;
  uint32_t record_crc_ = 0;
  bool finalized_ = false;
};

}  // namespace torchlet

// ZipReader: the read side of the archive layer. It maps a file (or borrows bytes),
// reads only the end-of-central-directory records and the central directory, and
// hands out records by name: zero-copy spans for stored ones, inflated copies for
// deflated ones. Every size and offset from the file is checked against the file.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/mapped_file.h"

namespace torchlet {

struct ZipRecord {
  std::string name;         // full name in the archive, e.g. "archive/data/0"
  uint16_t method = 0;      // 0 stored, 8 deflate
  uint32_t crc32 = 0;
  uint64_t compressed_size = 0;
  uint64_t uncompressed_size = 0;
  uint64_t local_header_offset = 0;
  uint64_t data_offset = 0;  // where the (compressed) bytes start in the file
};

class ZipReader {
 public:
  // Limits; each guards an allocation or a loop whose size comes from the file.
  // Entries: a checkpoint has one per storage plus a few; a million is far beyond any
  // real model and bounds the directory's index to ~100 MB.
  static constexpr size_t kMaxEntries = 1 << 20;
  // Names: torch's are "<root>/data/N" or "<root>/code/<qualified name>.py"; 4096 is
  // PATH_MAX, the longest name that could be extracted to a file anyway.
  static constexpr size_t kMaxNameLength = 4096;
  // Inflated size of one deflated record (torch never deflates storages; deflated
  // records come from zip tools): 16 GiB, so a bomb cannot ask for more memory.
  static constexpr uint64_t kMaxInflatedSize = uint64_t{1} << 34;

  // Opens a file by mapping it. Throws IOError / FormatError.
  static ZipReader open(const std::string& path);
  // Reads an archive held in memory (the bytes must outlive the reader).
  static ZipReader from_bytes(std::span<const std::byte> bytes, std::string label = "<memory>");

  const std::vector<ZipRecord>& records() const { return records_; }
  // The top-level folder every record lives in ("archive", or the file stem), or ""
  // when records do not share one.
  const std::string& root() const { return root_; }
  // Looks a record up by its name below the root ("data.pkl"); null when absent.
  const ZipRecord* find(std::string_view name_below_root) const;
  bool has_record(std::string_view name_below_root) const { return find(name_below_root); }
  // Like find, but throws FormatError naming the missing record.
  const ZipRecord& get(std::string_view name_below_root) const;

  // The bytes of a stored record, aliasing the mapping (UnsupportedError if deflated).
  std::span<const std::byte> stored_bytes(const ZipRecord& r) const;
  // The record's bytes, inflated if needed; verify_crc checks the CRC-32.
  std::string read(const ZipRecord& r, bool verify_crc = false) const;
  std::string read(std::string_view name_below_root, bool verify_crc = false) const {
    return read(get(name_below_root), verify_crc);
  }
  // Checks the CRC-32 of a record's (inflated) bytes against the directory's:
  // FormatError naming the record on a mismatch. Stored records are checked in place.
  void verify_crc(const ZipRecord& r) const;

  // The mapping (null for from_bytes), so stored records can be aliased by tensors:
  // a stored record's bytes are mapping()->data() + record.data_offset, for
  // record.compressed_size bytes, valid while the shared_ptr is held.
  const std::shared_ptr<MappedFile>& mapping() const { return file_; }
  std::span<const std::byte> bytes() const { return bytes_; }
  const std::string& label() const { return label_; }

 private:
  ZipReader(std::shared_ptr<MappedFile> file, std::span<const std::byte> bytes, std::string label);
  // Transparent hashing, so find(string_view) does not build a std::string.
  struct NameHash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };
  void parse();
  void parse_central_directory(uint64_t cd_offset, uint64_t cd_size, uint64_t entries);
  static void read_zip64_extra(const std::byte* extra, uint16_t extra_len, ZipRecord& r,
                               const std::string& where);
  void locate_data(ZipRecord& r, const std::string& where, uint64_t cd_offset);
  void check_no_overlap() const;
  void check_crc(const ZipRecord& r, std::span<const std::byte> bytes) const;
  void index_by_name();

  std::shared_ptr<MappedFile> file_;
  std::span<const std::byte> bytes_;
  std::string label_;
  std::string root_;
  std::vector<ZipRecord> records_;
  std::unordered_map<std::string, size_t, NameHash, std::equal_to<>> by_name_;  // below root -> index
};

}  // namespace torchlet

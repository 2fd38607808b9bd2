// Zip writing, byte-compatible with PyTorch's writer (see zip_writer.h).
#include "archive/zip_writer.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <random>
#include <utility>

#include <fmt/format.h>
#include <torchlet/error.h>

#include "archive/crc32.h"
#include "archive/zip_format.h"

namespace torchlet {

using namespace zip;

namespace {

// miniz (PyTorch's writer) marks entries with a data descriptor (bit 3) and UTF-8
// names (bit 11), version fields 0, DOS time/date 0; an empty record gets no data
// descriptor and only bit 11.
constexpr uint16_t kFlagUtf8 = 0x0800;
constexpr uint16_t kFlagDataDescriptor = 0x0008;
uint16_t flags_for(uint64_t size) {
  return size == 0 ? kFlagUtf8 : static_cast<uint16_t>(kFlagUtf8 | kFlagDataDescriptor);
}
// The padding lives in a local header's extra field, whose length is a u16 shared
// with the zip64 extra (up to 28 bytes): alignments up to 32 KiB always fit.
constexpr size_t kMaxAlignment = 0x8000;
// The zip64 end record's "made by" (3.0, Unix) and "needed" (4.5), as miniz writes.
constexpr uint16_t kZip64MadeBy = 0x031e;
constexpr uint16_t kZip64Needed = 45;

// torch.save opens its path for writing, which follows symbolic links: the file a link
// names gets the new bytes and the link stays (a `latest.pt` pointing into a run's
// folder). The file to replace is therefore the end of the chain; a relative target is
// relative to its link's folder. At most 40 links, the kernel's own limit (ELOOP).
std::string final_target(const std::string& path) {
  namespace fs = std::filesystem;
  fs::path p = path;
  for (int links = 0; links <= 40; ++links) {
    std::error_code ec;
    if (!fs::is_symlink(fs::symlink_status(p, ec))) return p.string();
    fs::path target = fs::read_symlink(p, ec);
    if (ec) return p.string();  // creating the temporary file reports what is wrong
    p = target.is_absolute() ? target : p.parent_path() / target;
  }
  TL_FAIL(IOError, "cannot save to '{}': too many levels of symbolic links", path);
}

// The file sink: a temporary file beside the target (same folder, so the rename
// stays within one filesystem and is atomic), renamed into place on commit().
class FileZipSink : public ZipSink {
 public:
  FileZipSink(const std::string& path, bool sync) : path_(final_target(path)), sync_(sync) {
    refuse_unwritable_target();
    // "x" (O_EXCL) refuses to reuse a name someone else created; a collision of the
    // random suffix just draws another.
    constexpr int kAttempts = 8;
    std::random_device rd;
    for (int i = 0; i < kAttempts && file_ == nullptr; ++i) {
      tmp_path_ = fmt::format("{}.tmp.{:08x}", path_, rd());
      file_ = std::fopen(tmp_path_.c_str(), "wbx");
      if (file_ == nullptr && errno != EEXIST) break;
    }
    TL_CHECK(file_ != nullptr, IOError, "cannot create '{}': {}", tmp_path_,
             std::strerror(errno));
    keep_target_permissions();
    release_cached_target();
  }
  ~FileZipSink() override {
    if (file_ != nullptr) std::fclose(file_);
    if (!committed_) std::remove(tmp_path_.c_str());
  }
  void write(std::span<const std::byte> bytes) override {
    if (std::fwrite(bytes.data(), 1, bytes.size(), file_) != bytes.size()) fail("write");
  }
  void commit() override {
    if (std::fflush(file_) != 0) fail("flush");
    if (sync_ && ::fsync(fileno(file_)) != 0) fail("fsync");
    std::FILE* f = std::exchange(file_, nullptr);
    if (std::fclose(f) != 0) fail("close");
    TL_CHECK(std::rename(tmp_path_.c_str(), path_.c_str()) == 0, IOError,
             "cannot move '{}' into place as '{}': {}", tmp_path_, path_, std::strerror(errno));
    committed_ = true;
    if (sync_) sync_folder();
  }

 private:
  // torch.save truncates the file it replaces, so its writes reuse the old file's
  // page-cache pages at once; a save through a temporary file holds both versions in
  // memory until the rename. Asking the kernel to drop the old version's clean cached
  // pages now (its bytes stay on disk, and pages someone has mapped are kept) lets
  // this save reuse them too: on a VM whose idle free memory the host reclaims, a
  // 512 MiB overwrite ran 1.9-3x faster with it. Advisory, so failure is ignored.
  void release_cached_target() const {
    int fd = ::open(path_.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
    if (fd < 0) return;
    struct stat st {};
    if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) ::posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
    ::close(fd);
  }

  // torch.save opens an existing file for writing, which a file without write permission
  // for us refuses (PermissionError); renaming over it would only need the folder's.
  // A file made read-only to protect it stays protected. A folder is refused before
  // anything is written (the rename would refuse it only at the end).
  void refuse_unwritable_target() const {
    struct stat st {};
    if (::stat(path_.c_str(), &st) != 0) return;
    TL_CHECK(!S_ISDIR(st.st_mode), IOError, "cannot save to '{}': it is a folder", path_);
    if (!S_ISREG(st.st_mode)) return;
    TL_CHECK(::faccessat(AT_FDCWD, path_.c_str(), W_OK, AT_EACCESS) == 0, IOError, "cannot save to '{}': {}", path_,
             std::strerror(errno));
  }

  // torch.save truncates the file it replaces, which keeps its permissions (a 0600
  // checkpoint stays private); the replacement gets them before any byte is written
  // (the rwx bits: never set-id ones). The owner too where allowed (root, or a group
  // the user is in); a file we may not give away stays ours. Runs in the constructor,
  // so a failure cleans up here: no destructor will.
  void keep_target_permissions() {
    struct stat st {};
    if (::stat(path_.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return;
    (void)!::fchown(fileno(file_), st.st_uid, st.st_gid);
    if (::fchmod(fileno(file_), st.st_mode & 0777) == 0) return;
    const int err = errno;
    std::fclose(std::exchange(file_, nullptr));
    std::remove(tmp_path_.c_str());
    TL_FAIL(IOError, "cannot give '{}' the permissions of '{}': {}", tmp_path_, path_, std::strerror(err));
  }

  [[noreturn]] void fail(const char* what) {
    TL_FAIL(IOError, "writing '{}': {} failed: {}", tmp_path_, what, std::strerror(errno));
  }
  // The rename is durable only once the folder's entry is on disk too.
  void sync_folder() {
    std::string folder = std::filesystem::path(path_).parent_path().string();
    if (folder.empty()) folder = ".";
    int fd = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    TL_CHECK(fd >= 0, IOError, "cannot open folder '{}' to sync it: {}", folder,
             std::strerror(errno));
    int rc = ::fsync(fd);
    int err = errno;
    ::close(fd);
    TL_CHECK(rc == 0, IOError, "fsync of folder '{}' failed: {}", folder, std::strerror(err));
  }

  std::string path_, tmp_path_;
  bool sync_;
  std::FILE* file_ = nullptr;
  bool committed_ = false;
};

// The options are checked before the file sink creates its temporary file.
const ZipWriterOptions& validated(const ZipWriterOptions& options) {
  TL_CHECK(options.alignment >= 1 && options.alignment <= kMaxAlignment, ValueError,
           "zip writer: alignment {} out of range (1..{})", options.alignment, kMaxAlignment);
  return options;
}

}  // namespace

std::unique_ptr<ZipSink> make_atomic_file_sink(const std::string& path, bool fsync) {
  return std::make_unique<FileZipSink>(path, fsync);
}

ZipWriter::ZipWriter(const std::string& path, std::string root, ZipWriterOptions options)
    : owned_sink_(std::make_unique<FileZipSink>(path, validated(options).fsync)),
      sink_(owned_sink_.get()),
      root_(std::move(root)),
      options_(options) {}

ZipWriter::ZipWriter(ZipSink& sink, std::string root, ZipWriterOptions options)
    : sink_(&sink), root_(std::move(root)), options_(validated(options)) {}

// Member destructors do the work: the owned file sink removes its temporary file
// unless it was committed.
ZipWriter::~ZipWriter() = default;

void ZipWriter::put(const std::string& bytes) {
  put(std::as_bytes(std::span<const char>(bytes.data(), bytes.size())));
}

void ZipWriter::put(std::span<const std::byte> bytes) {
  if (bytes.empty()) return;
  sink_->write(bytes);
  cursor_ += bytes.size();
}

void ZipWriter::write_record(std::string_view name, std::span<const std::byte> data) {
  begin_record(name, data.size());
  write_chunk(data);
  end_record();
}

void ZipWriter::write_record(std::string_view name, std::span<const std::byte> data,
                             const std::function<uint32_t()>& crc_of_data) {
  begin_record(name, data.size());
  put(data);  // the whole declared record, so write_chunk's checks hold
  record_written_ = data.size();
  if (options_.compute_crc32) record_crc_ = crc_of_data();
  end_record();
}

void ZipWriter::begin_record(std::string_view name, uint64_t total_size) {
  TL_CHECK(!in_record_ && !finalized_, InternalError, "zip writer: record already open");
  std::string full = root_.empty() ? std::string(name) : root_ + "/" + std::string(name);
  TL_CHECK(full.size() <= 0xffff, ValueError, "zip writer: record name too long: {}", full);
  TL_CHECK(full_names_.insert(full).second, ValueError,
           "zip writer: record '{}' written twice", full);
  const uint64_t threshold = options_.zip64_threshold;
  const bool big_size = total_size >= threshold;
  const bool big_offset = cursor_ >= threshold;
  // The local file header PyTorch writes (miniz fields, torch's padding):
  //   30-byte header | name | [zip64 extra: 0x0001 len, usize, 0, offset] |
  //   "FB" u16 pad | pad x 'Z' | data | data descriptor
  // The zip64 extra holds the uncompressed size (and a 0 compressed size) only when
  // the size reaches the threshold, the header offset only when the offset does.
  // The padding makes the data start at a multiple of the alignment; its length
  // counts from the end of the "FB" field's 4-byte header (torch's getPadding()).
  std::string zip64;
  if (big_size || big_offset) {
    std::string body;
    if (big_size) {
      // miniz writes the local header before the data, while the compressed size is
      // still unknown: the uncompressed size, then 0 (the data descriptor and the
      // central directory carry the real values).
      put_u64(body, total_size);
      put_u64(body, 0);
    }
    if (big_offset) put_u64(body, cursor_);
    put_u16(zip64, kZip64ExtraId);
    put_u16(zip64, static_cast<uint16_t>(body.size()));
    zip64 += body;
  }
  uint64_t start = cursor_ + kLocalHeaderSize + full.size() + zip64.size() + 4;
  uint64_t pad = (options_.alignment - start % options_.alignment) % options_.alignment;
  std::string header;
  put_u32(header, kLocalHeaderSignature);
  put_u16(header, 0);       // version needed
  put_u16(header, flags_for(total_size));
  put_u16(header, kMethodStored);
  put_u16(header, 0);  // time
  put_u16(header, 0);  // date
  // crc and sizes are 0 here (even for zip64: no 0xffffffff marker, as miniz writes);
  // the data descriptor after the bytes carries them.
  put_u32(header, 0);
  put_u32(header, 0);
  put_u32(header, 0);
  put_u16(header, static_cast<uint16_t>(full.size()));
  put_u16(header, static_cast<uint16_t>(zip64.size() + 4 + pad));
  header += full;
  header += zip64;
  put_u16(header, kPaddingExtraId);
  put_u16(header, static_cast<uint16_t>(pad));
  header.append(pad, 'Z');
  entries_.push_back({full, 0, total_size, cursor_});
  names_.push_back(std::string(name));
  put(header);
  in_record_ = true;
  record_expected_ = total_size;
  record_written_ = 0;
  record_crc_ = 0;
}

void ZipWriter::write_chunk(std::span<const std::byte> chunk) {
  TL_CHECK(in_record_, InternalError, "zip writer: write_chunk outside a record");
  TL_CHECK(record_written_ + chunk.size() <= record_expected_, InternalError,
           "zip writer: record '{}' longer than declared", entries_.back().name);
  if (options_.compute_crc32) record_crc_ = crc32(record_crc_, chunk);
  put(chunk);
  record_written_ += chunk.size();
}

void ZipWriter::end_record() {
  TL_CHECK(in_record_, InternalError, "zip writer: end_record outside a record");
  TL_CHECK(record_written_ == record_expected_, InternalError,
           "zip writer: record '{}' got {} of {} bytes", entries_.back().name, record_written_,
           record_expected_);
  Entry& e = entries_.back();
  e.crc = record_crc_;
  in_record_ = false;
  // Data descriptor: signature, crc, compressed and uncompressed size, 64-bit once
  // the record is zip64 by size or offset (miniz's rule). miniz writes none for an
  // empty record; its headers then hold the (zero) values directly.
  if (e.size == 0) return;
  std::string desc;
  put_u32(desc, kDataDescriptorSignature);
  put_u32(desc, e.crc);
  if (e.size >= options_.zip64_threshold || e.offset >= options_.zip64_threshold) {
    put_u64(desc, e.size);
    put_u64(desc, e.size);
  } else {
    put_u32(desc, static_cast<uint32_t>(e.size));
    put_u32(desc, static_cast<uint32_t>(e.size));
  }
  put(desc);
}

std::vector<ZipWriter::WrittenRecord> ZipWriter::written_records() const {
  std::vector<WrittenRecord> out;
  out.reserve(entries_.size());
  // An open record's CRC is not known yet: only finished ones are listed.
  const size_t done = in_record_ ? entries_.size() - 1 : entries_.size();
  for (size_t i = 0; i < done; ++i) out.push_back({names_[i], entries_[i].crc, entries_[i].size});
  return out;
}

void ZipWriter::finalize() {
  TL_CHECK(!in_record_ && !finalized_, InternalError,
           "zip writer: finalize with a record open or twice");
  const uint64_t threshold = options_.zip64_threshold;
  const uint64_t cd_offset = cursor_;
  std::string cd;
  for (const auto& e : entries_) {
    bool big_size = e.size >= threshold, big_offset = e.offset >= threshold;
    std::string extra;
    if (big_size || big_offset) {
      std::string body;
      if (big_size) {
        put_u64(body, e.size);
        put_u64(body, e.size);
      }
      if (big_offset) put_u64(body, e.offset);
      put_u16(extra, kZip64ExtraId);
      put_u16(extra, static_cast<uint16_t>(body.size()));
      extra += body;
    }
    put_u32(cd, kCentralHeaderSignature);
    put_u16(cd, 0);  // made by
    put_u16(cd, 0);  // needed
    put_u16(cd, flags_for(e.size));
    put_u16(cd, kMethodStored);
    put_u16(cd, 0);
    put_u16(cd, 0);
    put_u32(cd, e.crc);
    put_u32(cd, big_size ? kZip64Marker32 : static_cast<uint32_t>(e.size));
    put_u32(cd, big_size ? kZip64Marker32 : static_cast<uint32_t>(e.size));
    put_u16(cd, static_cast<uint16_t>(e.name.size()));
    put_u16(cd, static_cast<uint16_t>(extra.size()));
    put_u16(cd, 0);  // comment
    put_u16(cd, 0);  // disk
    put_u16(cd, 0);  // internal attributes
    put_u32(cd, 0);  // external attributes
    put_u32(cd, big_offset ? kZip64Marker32 : static_cast<uint32_t>(e.offset));
    cd += e.name;
    cd += extra;
  }
  put(cd);
  const uint64_t cd_size = cd.size();
  const uint64_t n = entries_.size();
  // miniz, as PyTorch configures it, always writes the zip64 end records.
  const uint64_t z64_offset = cursor_;
  std::string tail;
  put_u32(tail, kZip64EocdSignature);
  put_u64(tail, kZip64EocdSize - 12);
  put_u16(tail, kZip64MadeBy);
  put_u16(tail, kZip64Needed);
  put_u32(tail, 0);
  put_u32(tail, 0);
  put_u64(tail, n);
  put_u64(tail, n);
  put_u64(tail, cd_size);
  put_u64(tail, cd_offset);
  put_u32(tail, kZip64LocatorSignature);
  put_u32(tail, 0);
  put_u64(tail, z64_offset);
  put_u32(tail, 1);
  put_u32(tail, kEocdSignature);
  put_u16(tail, 0);
  put_u16(tail, 0);
  put_u16(tail, static_cast<uint16_t>(std::min<uint64_t>(n, 0xffff)));
  put_u16(tail, static_cast<uint16_t>(std::min<uint64_t>(n, 0xffff)));
  put_u32(tail, static_cast<uint32_t>(std::min<uint64_t>(cd_size, kZip64Marker32)));
  put_u32(tail, static_cast<uint32_t>(std::min<uint64_t>(cd_offset, kZip64Marker32)));
  put_u16(tail, 0);
  put(tail);
  sink_->commit();
  finalized_ = true;
}

}  // namespace torchlet

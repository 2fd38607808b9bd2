// Zip reading: EOCD search, zip64 records, central directory parsing with every field
// validated against the file, and stored/deflated record access (zlib).
#include "archive/zip_reader.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <optional>

#include <fmt/format.h>

#include <zlib.h>
#include <torchlet/error.h>

#include "archive/crc32.h"
#include "archive/zip_format.h"
#include "core/allocation_limit.h"
#include "core/python_format.h"

namespace torchlet {

using namespace zip;

namespace {

// The EOCD can be followed by a comment of up to 65535 bytes.
constexpr size_t kMaxEocdSearch = kEocdSize + 0xffff;
// Deflate's best case is a 258-byte match coded in 2 bits: 1032 bytes out per byte in.
constexpr uint64_t kMaxDeflateRatio = 1032;

// a + b <= limit, without overflow.
bool fits(uint64_t a, uint64_t b, uint64_t limit) { return a <= limit && b <= limit - a; }

}  // namespace

ZipReader::ZipReader(std::shared_ptr<MappedFile> file, std::span<const std::byte> bytes,
                     std::string label)
    : file_(std::move(file)), bytes_(bytes), label_(std::move(label)) {}

ZipReader ZipReader::open(const std::string& path) {
  auto file = MappedFile::open(path);
  ZipReader r(file, file->bytes(), path);
  r.parse();
  return r;
}

ZipReader ZipReader::from_bytes(std::span<const std::byte> bytes, std::string label) {
  ZipReader r(nullptr, bytes, std::move(label));
  r.parse();
  return r;
}

void ZipReader::parse() {
  const uint64_t size = bytes_.size();
  const std::byte* base = bytes_.data();
  TL_CHECK(size >= kEocdSize, FormatError,
           "{}: not a zip archive (file is {} bytes, too small for an end of central "
           "directory record)",
           label_, size);
  // Search backwards for the EOCD signature; the comment length must reach the end.
  uint64_t lowest = size > kMaxEocdSearch ? size - kMaxEocdSearch : 0;
  std::optional<uint64_t> eocd;
  for (uint64_t pos = size - kEocdSize + 1; pos-- > lowest;) {
    if (load_u32(base + pos) == kEocdSignature &&
        pos + kEocdSize + load_u16(base + pos + 20) == size) {
      eocd = pos;
      break;
    }
  }
  TL_CHECK(eocd.has_value(), FormatError,
           "{}: not a zip archive (no end of central directory record found)", label_);
  const std::byte* e = base + *eocd;
  uint64_t entries = load_u16(e + 10);
  uint64_t cd_size = load_u32(e + 12);
  uint64_t cd_offset = load_u32(e + 16);
  TL_CHECK(load_u16(e + 4) == 0 && load_u16(e + 6) == 0, UnsupportedError,
           "{}: multi-disk zip archives are not supported", label_);

  // zip64: a locator right before the EOCD points at the zip64 EOCD record.
  uint64_t end_records = *eocd;  // the central directory must end before these
  if (*eocd >= kZip64LocatorSize &&
      load_u32(base + *eocd - kZip64LocatorSize) == kZip64LocatorSignature) {
    const std::byte* loc = base + *eocd - kZip64LocatorSize;
    uint64_t z64 = load_u64(loc + 8);
    TL_CHECK(fits(z64, kZip64EocdSize, *eocd - kZip64LocatorSize), FormatError,
             "{}: zip64 end of central directory offset {} beyond the locator at {}", label_,
             z64, *eocd - kZip64LocatorSize);
    const std::byte* z = base + z64;
    TL_CHECK(load_u32(z) == kZip64EocdSignature, FormatError,
             "{}: bad zip64 end of central directory signature at offset {}", label_, z64);
    entries = load_u64(z + 32);
    cd_size = load_u64(z + 40);
    cd_offset = load_u64(z + 48);
    end_records = z64;
  }
  TL_CHECK(fits(cd_offset, cd_size, end_records), FormatError,
           "{}: central directory (offset {}, {} bytes) extends beyond the end records at "
           "offset {} (file size {})",
           label_, cd_offset, cd_size, end_records, size);
  TL_CHECK(entries <= kMaxEntries, LimitError, "{}: {} entries exceed the limit of {}", label_,
           entries, kMaxEntries);
  // Each entry takes at least kCentralHeaderSize bytes: a count the directory cannot
  // hold is a lie, caught before reserving memory for it.
  TL_CHECK(entries * kCentralHeaderSize <= cd_size, FormatError,
           "{}: central directory claims {} entries but holds only {} bytes", label_, entries,
           cd_size);
  parse_central_directory(cd_offset, cd_size, entries);
}

void ZipReader::parse_central_directory(uint64_t cd_offset, uint64_t cd_size, uint64_t entries) {
  const std::byte* base = bytes_.data();
  const uint64_t cd_end = cd_offset + cd_size;
  records_.reserve(entries);
  uint64_t pos = cd_offset;
  for (uint64_t i = 0; i < entries; ++i) {
    TL_CHECK(fits(pos, kCentralHeaderSize, cd_end), FormatError,
             "{}: central directory entry {} at offset {} is truncated", label_, i, pos);
    const std::byte* h = base + pos;
    TL_CHECK(load_u32(h) == kCentralHeaderSignature, FormatError,
             "{}: central directory entry {} at offset {}: bad signature", label_, i, pos);
    const uint16_t name_len = load_u16(h + 28), extra_len = load_u16(h + 30),
                   comment_len = load_u16(h + 32);
    const uint64_t var_len = uint64_t{name_len} + extra_len + comment_len;
    TL_CHECK(fits(pos + kCentralHeaderSize, var_len, cd_end), FormatError,
             "{}: central directory entry {}: name/extra/comment ({} bytes) run past the "
             "directory's end at offset {}",
             label_, i, var_len, cd_end);
    TL_CHECK(name_len > 0 && name_len <= kMaxNameLength, FormatError,
             "{}: central directory entry {}: name length {} (expected 1..{})", label_, i,
             name_len, kMaxNameLength);
    ZipRecord r;
    r.name.assign(reinterpret_cast<const char*>(h + kCentralHeaderSize), name_len);
    r.method = load_u16(h + 10);
    r.crc32 = load_u32(h + 16);
    r.compressed_size = load_u32(h + 20);
    r.uncompressed_size = load_u32(h + 24);
    r.local_header_offset = load_u32(h + 42);
    const std::string where = fmt::format("{}: central directory entry {} ('{}')", label_, i,
                                          printable_text(r.name));
    read_zip64_extra(h + kCentralHeaderSize + name_len, extra_len, r, where);
    TL_CHECK(r.method == kMethodStored || r.method == kMethodDeflate, UnsupportedError,
             "{}: compression method {} is not supported (only 0 stored and 8 deflate)", where,
             r.method);
    TL_CHECK(r.method != kMethodStored || r.compressed_size == r.uncompressed_size, FormatError,
             "{}: stored record with compressed size {} != uncompressed size {}", where,
             r.compressed_size, r.uncompressed_size);
    locate_data(r, where, cd_offset);
    records_.push_back(std::move(r));
    pos += kCentralHeaderSize + var_len;
  }
  check_no_overlap();
  index_by_name();
}

void ZipReader::read_zip64_extra(const std::byte* extra, uint16_t extra_len, ZipRecord& r,
                                 const std::string& where) {
  // Extra fields: u16 id, u16 length, then that many bytes. The zip64 field (0x0001)
  // holds the 64-bit values of exactly those 32-bit fields that hold 0xffffffff, in
  // the order uncompressed size, compressed size, local header offset.
  for (uint32_t off = 0; off + 4 <= extra_len;) {
    const uint16_t id = load_u16(extra + off), len = load_u16(extra + off + 2);
    TL_CHECK(off + 4 + len <= extra_len, FormatError,
             "{}: extra field 0x{:04x} ({} bytes at {}) overruns the {}-byte extra area", where,
             id, len, off, extra_len);
    if (id == kZip64ExtraId) {
      const std::byte* f = extra + off + 4;
      uint32_t used = 0;
      auto take = [&](uint64_t& field, const char* what) {
        if (field != kZip64Marker32) return;
        TL_CHECK(used + 8 <= len, FormatError, "{}: zip64 extra field lacks the {}", where,
                 what);
        field = load_u64(f + used);
        used += 8;
      };
      take(r.uncompressed_size, "uncompressed size");
      take(r.compressed_size, "compressed size");
      take(r.local_header_offset, "local header offset");
    }
    off += 4 + len;
  }
}

void ZipReader::locate_data(ZipRecord& r, const std::string& where, uint64_t cd_offset) {
  // The local file header repeats the name and has its own extra field (PyTorch's
  // padding lives there), so only its two lengths say where the data starts.
  const std::byte* base = bytes_.data();
  const uint64_t size = bytes_.size();
  TL_CHECK(fits(r.local_header_offset, kLocalHeaderSize, size), FormatError,
           "{}: local header offset {} beyond file size {}", where, r.local_header_offset, size);
  // A file's headers are read with pread, not through the mapping: touching them there
  // costs a page fault per record (and maps the 64 KiB around each), which for a
  // checkpoint of a thousand tensors was most of a mapped open's time and memory.
  std::array<std::byte, kLocalHeaderSize> fixed;
  const std::byte* lh = base + r.local_header_offset;
  if (file_) {
    file_->read_into(r.local_header_offset, fixed.data(), fixed.size());
    lh = fixed.data();
  }
  TL_CHECK(load_u32(lh) == kLocalHeaderSignature, FormatError,
           "{}: no local file header signature at offset {}", where, r.local_header_offset);
  const uint16_t local_name_len = load_u16(lh + 26);
  const uint64_t local_var = uint64_t{local_name_len} + load_u16(lh + 28);
  r.data_offset = r.local_header_offset + kLocalHeaderSize + local_var;
  TL_CHECK(r.data_offset <= size, FormatError,
           "{}: local file header at offset {} (name and extra {} bytes) runs past file size {}",
           where, r.local_header_offset, local_var, size);
  // Tools that trust the local name would see a different record than we do.
  std::string local_name(local_name_len, '\0');
  if (file_) {
    file_->read_into(r.local_header_offset + kLocalHeaderSize,
                     reinterpret_cast<std::byte*>(local_name.data()), local_name_len);
  } else {
    std::memcpy(local_name.data(), base + r.local_header_offset + kLocalHeaderSize, local_name_len);
  }
  TL_CHECK(local_name == r.name, FormatError, "{}: local file header names '{}'", where,
           printable_text(local_name));
  TL_CHECK(fits(r.data_offset, r.compressed_size, size), FormatError,
           "{}: data at offset {} ({} bytes) extends beyond file size {}", where, r.data_offset,
           r.compressed_size, size);
  TL_CHECK(r.data_offset + r.compressed_size <= cd_offset, FormatError,
           "{}: data at offset {} ({} bytes) runs into the central directory at offset {}",
           where, r.data_offset, r.compressed_size, cd_offset);
}

void ZipReader::check_no_overlap() const {
  // Records must not share bytes: a crafted archive could otherwise show different
  // contents for one name to different tools, or one storage under two names.
  std::vector<const ZipRecord*> order;
  order.reserve(records_.size());
  for (const auto& r : records_) order.push_back(&r);
  std::sort(order.begin(), order.end(), [](auto* a, auto* b) {
    return a->local_header_offset < b->local_header_offset;
  });
  for (size_t i = 1; i < order.size(); ++i) {
    const ZipRecord* prev = order[i - 1];
    TL_CHECK(prev->data_offset + prev->compressed_size <= order[i]->local_header_offset,
             FormatError,
             "{}: records '{}' (data at offset {}, {} bytes) and '{}' (local header at offset "
             "{}) overlap",
             label_, printable_text(prev->name), prev->data_offset, prev->compressed_size,
             printable_text(order[i]->name),
             order[i]->local_header_offset);
  }
}

void ZipReader::index_by_name() {
  // The shared root folder: torch 1.x writes the file stem, torch 2.x "archive".
  std::string_view root;
  bool shared = !records_.empty();
  for (const auto& r : records_) {
    const size_t slash = r.name.find('/');
    const std::string_view top =
        slash == std::string::npos ? std::string_view() : std::string_view(r.name).substr(0, slash);
    if (top.empty() || (!root.empty() && top != root)) shared = false;
    if (root.empty()) root = top;
  }
  root_ = shared ? std::string(root) : "";
  for (size_t i = 0; i < records_.size(); ++i) {
    std::string key = root_.empty() ? records_[i].name : records_[i].name.substr(root_.size() + 1);
    const bool inserted = by_name_.emplace(std::move(key), i).second;
    TL_CHECK(inserted, FormatError, "{}: duplicate record name '{}' (central directory entry {})",
             label_, printable_text(records_[i].name), i);
  }
}

const ZipRecord* ZipReader::find(std::string_view name_below_root) const {
  auto it = by_name_.find(name_below_root);
  return it == by_name_.end() ? nullptr : &records_[it->second];
}

const ZipRecord& ZipReader::get(std::string_view name_below_root) const {
  const ZipRecord* r = find(name_below_root);
  TL_CHECK(r != nullptr, FormatError, "{}: archive has no record '{}'", label_,
           printable_text(name_below_root));
  return *r;
}

std::span<const std::byte> ZipReader::stored_bytes(const ZipRecord& r) const {
  TL_CHECK(r.method == kMethodStored, UnsupportedError,
           "{}: record '{}' is compressed and cannot be aliased", label_, printable_text(r.name));
  return bytes_.subspan(r.data_offset, r.compressed_size);
}

std::string ZipReader::read(const ZipRecord& r, bool verify_crc) const {
  std::string out;
  if (r.method == kMethodStored) {
    auto s = stored_bytes(r);
    out.assign(reinterpret_cast<const char*>(s.data()), s.size());
  } else {
    TL_CHECK(r.uncompressed_size <= kMaxInflatedSize, LimitError,
             "{}: record '{}' inflates to {} bytes, over the {}-byte limit", label_, printable_text(r.name),
             r.uncompressed_size, kMaxInflatedSize);
    // Deflate cannot expand more than kMaxDeflateRatio : 1, so a larger declared size
    // is a lie; refusing it here keeps a few bytes from reserving gigabytes.
    TL_CHECK(r.uncompressed_size / kMaxDeflateRatio <= r.compressed_size, FormatError,
             "{}: record '{}' declares {} bytes, more than {} deflated bytes can inflate to",
             label_, printable_text(r.name), r.uncompressed_size, r.compressed_size);
    // The output is one buffer of the declared size, so a size this thread may not
    // allocate is refused before a byte is inflated: a 10 MB bomb declaring 10 GiB
    // would otherwise fill gigabytes first.
    const std::string what = fmt::format("{}: record '{}' (deflated, inflated size as declared)", label_,
                                         printable_text(r.name));
    out.resize(checked_allocation(r.uncompressed_size, what.c_str()));
    z_stream zs{};
    TL_CHECK(inflateInit2(&zs, -MAX_WBITS) == Z_OK, InternalError, "inflateInit2 failed");
    const std::byte* src = bytes_.data() + r.data_offset;
    uint64_t in_left = r.compressed_size, out_done = 0;
    int rc = Z_OK;
    // zlib counts in uInt; feed and drain in chunks so > 4 GiB records work.
    constexpr uint64_t kChunk = uint64_t{1} << 30;
    while (rc == Z_OK) {
      if (zs.avail_in == 0 && in_left > 0) {
        zs.next_in = reinterpret_cast<Bytef*>(const_cast<std::byte*>(src));
        zs.avail_in = static_cast<uInt>(std::min(in_left, kChunk));
        src += zs.avail_in;
        in_left -= zs.avail_in;
      }
      uint64_t room = r.uncompressed_size - out_done;
      // One spare byte of room detects a record that inflates beyond its declared size.
      char spare;
      if (room == 0) {
        zs.next_out = reinterpret_cast<Bytef*>(&spare);
        zs.avail_out = 1;
      } else {
        zs.next_out = reinterpret_cast<Bytef*>(out.data() + out_done);
        zs.avail_out = static_cast<uInt>(std::min(room, kChunk));
      }
      uInt before = zs.avail_out;
      rc = inflate(&zs, Z_NO_FLUSH);
      uint64_t produced = before - zs.avail_out;
      if (room == 0 && produced > 0) {
        inflateEnd(&zs);
        TL_FAIL(FormatError, "{}: record '{}' inflates beyond its declared size of {} bytes",
                label_, printable_text(r.name), r.uncompressed_size);
      }
      out_done += produced;
      if (rc == Z_BUF_ERROR && zs.avail_in == 0 && in_left == 0) break;
      if (rc == Z_BUF_ERROR) rc = Z_OK;
    }
    inflateEnd(&zs);
    TL_CHECK(rc == Z_STREAM_END, FormatError, "{}: record '{}': corrupt deflate data ({})",
             label_, printable_text(r.name), zs.msg ? zs.msg : "truncated stream");
    TL_CHECK(out_done == r.uncompressed_size, FormatError,
             "{}: record '{}' inflated to {} bytes, expected {}", label_, printable_text(r.name), out_done,
             r.uncompressed_size);
  }
  if (verify_crc) check_crc(r, std::as_bytes(std::span<const char>(out.data(), out.size())));
  return out;
}

void ZipReader::verify_crc(const ZipRecord& r) const {
  if (r.method == kMethodStored) {
    check_crc(r, stored_bytes(r));
  } else {
    (void)read(r, /*verify_crc=*/true);
  }
}

void ZipReader::check_crc(const ZipRecord& r, std::span<const std::byte> bytes) const {
  uint32_t crc = crc32(0, bytes);
  TL_CHECK(crc == r.crc32, FormatError, "{}: record '{}': CRC-32 mismatch (stored {:08x}, "
           "computed {:08x})", label_, printable_text(r.name), r.crc32, crc);
}

}  // namespace torchlet

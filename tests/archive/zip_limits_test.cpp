// Deflated records and the allocation limit: a record whose declared inflated size this
// thread may not allocate is refused before anything is inflated, and record names
// quoted in errors are escaped. The zips are built in memory, byte by byte, so a
// 10 GiB declaration costs the test 10 MB.
#include <chrono>
#include <string>
#include <string_view>

#include <gtest/gtest.h>
#include <torchlet/allocation_limit.h>
#include <torchlet/error.h>

#include "archive/zip_reader.h"

namespace torchlet {
namespace {

void u16(std::string& s, uint16_t v) {
  for (int i = 0; i < 2; ++i) s.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}
void u32(std::string& s, uint32_t v) {
  for (int i = 0; i < 4; ++i) s.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}
void u64(std::string& s, uint64_t v) {
  for (int i = 0; i < 8; ++i) s.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}

// One deflated record `name` whose directory declares `declared` inflated bytes (in a
// zip64 extra field, as any size past 4 GiB needs) over `compressed` bytes of 0xff, which
// are not a valid deflate stream: inflating even one block would fail with "corrupt
// deflate data", so a LimitError proves nothing was inflated.
std::string deflated_zip(const std::string& name, uint64_t declared, size_t compressed) {
  std::string extra;
  u16(extra, 0x0001);  // zip64: uncompressed size, then compressed size
  u16(extra, 16);
  u64(extra, declared);
  u64(extra, compressed);
  std::string z;
  u32(z, 0x04034b50);  // local file header
  u16(z, 45);
  u16(z, 0);
  u16(z, 8);           // deflate
  u32(z, 0);           // time, date
  u32(z, 0);           // crc
  u32(z, 0xffffffff);  // sizes: in the zip64 extra
  u32(z, 0xffffffff);
  u16(z, static_cast<uint16_t>(name.size()));
  u16(z, static_cast<uint16_t>(extra.size()));
  z += name;
  z += extra;
  z.append(compressed, '\xff');
  const size_t cd_offset = z.size();
  std::string cd;
  u32(cd, 0x02014b50);  // central directory header
  u16(cd, 45);
  u16(cd, 45);
  u16(cd, 0);
  u16(cd, 8);
  u32(cd, 0);
  u32(cd, 0);
  u32(cd, 0xffffffff);
  u32(cd, 0xffffffff);
  u16(cd, static_cast<uint16_t>(name.size()));
  u16(cd, static_cast<uint16_t>(extra.size()));
  u16(cd, 0);  // comment
  u16(cd, 0);  // disk
  u16(cd, 0);  // internal attributes
  u32(cd, 0);  // external attributes
  u32(cd, 0);  // local header offset
  cd += name;
  cd += extra;
  z += cd;
  u32(z, 0x06054b50);  // end of central directory
  u16(z, 0);
  u16(z, 0);
  u16(z, 1);
  u16(z, 1);
  u32(z, static_cast<uint32_t>(cd.size()));
  u32(z, static_cast<uint32_t>(cd_offset));
  u16(z, 0);
  return z;
}

std::span<const std::byte> as_span(const std::string& s) {
  return std::as_bytes(std::span<const char>(s.data(), s.size()));
}

TEST(ZipLimits, ABombDeclaringTenGiBIsRefusedBeforeInflating) {
  constexpr uint64_t kTenGiB = uint64_t{10} << 30;
  // 10.5 MB: enough compressed bytes for deflate's 1032:1 best case to reach 10 GiB, so
  // the declared-size-versus-ratio check lets it through to the allocation.
  const std::string bytes = deflated_zip("r/bomb", kTenGiB, 10'500'000);
  ZipReader z = ZipReader::from_bytes(as_span(bytes));
  ASSERT_EQ(z.get("bomb").uncompressed_size, kTenGiB);
  const AllocationLimit limit(size_t{1} << 30);
  const auto start = std::chrono::steady_clock::now();
  try {
    (void)z.read("bomb");
    FAIL() << "inflated";
  } catch (const LimitError& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("record 'r/bomb'"), std::string::npos) << msg;
    EXPECT_NE(msg.find("10737418240 bytes exceeds the 1073741824-byte limit"), std::string::npos) << msg;
  }
  // Refused up front: no gigabytes zero-filled or inflated first.
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
}

TEST(ZipLimits, ASmallerBombOverALowLimitIsRefusedToo) {
  // 200 MiB declared over 200 KiB, under a 64 MiB limit (the fuzz targets' kind of limit).
  const std::string bytes = deflated_zip("r/bomb", uint64_t{200} << 20, 210'000);
  ZipReader z = ZipReader::from_bytes(as_span(bytes));
  const AllocationLimit limit(size_t{64} << 20);
  EXPECT_THROW((void)z.read("bomb"), LimitError);
}

TEST(ZipLimits, WithinTheLimitTheRecordIsInflated) {
  // The same shape under the default limit reaches zlib, which refuses the 0xff bytes.
  const std::string bytes = deflated_zip("r/bomb", 4096, 64);
  ZipReader z = ZipReader::from_bytes(as_span(bytes));
  try {
    (void)z.read("bomb");
    FAIL() << "inflated garbage";
  } catch (const FormatError& e) {
    EXPECT_NE(std::string(e.what()).find("corrupt deflate data"), std::string::npos) << e.what();
  }
}

TEST(ZipLimits, RecordNamesInErrorsAreEscaped) {
  const std::string bytes = deflated_zip("r/\x1b[2J\xc2\x9b", 4096, 64);
  ZipReader z = ZipReader::from_bytes(as_span(bytes));
  try {
    (void)z.read(z.records()[0]);
    FAIL() << "inflated garbage";
  } catch (const FormatError& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("record 'r/\\x1b[2J\\x9b'"), std::string::npos) << msg;
    for (unsigned char c : msg) EXPECT_FALSE(c < 0x20 || (c >= 0x7f && c <= 0x9f)) << int(c) << " in " << msg;
  }
  // A missing record's name (file content when it comes from a pickle) too.
  try {
    (void)z.get("data/\x1b]0;x\x07");
    FAIL();
  } catch (const FormatError& e) {
    EXPECT_NE(std::string(e.what()).find("'data/\\x1b]0;x\\x07'"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace torchlet

// The zip layer: reading what PyTorch writes, writing what PyTorch writes (byte for
// byte), zip64, and refusing malformed archives with specific errors.
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>
#include <torchlet/error.h>

#include "../common/fixtures.h"
#include "archive/zip_reader.h"
#include "archive/zip_writer.h"

namespace torchlet {
namespace {

namespace fs = std::filesystem;

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

std::span<const std::byte> as_span(const std::string& s) {
  return std::as_bytes(std::span<const char>(s.data(), s.size()));
}

fs::path temp_dir() {
  fs::path d = fs::temp_directory_path() / ("torchlet_zip_test_" + std::to_string(::getpid()));
  fs::create_directories(d);
  return d;
}

std::string fixture(const std::string& name) {
  fs::path p = testing::fixture_dir() / "archive" / name;
  EXPECT_TRUE(fs::exists(p)) << "missing fixture " << p;
  return p.string();
}

TEST(ZipReader, ReadsPyTorchWriterOutput) {
  ZipReader z = ZipReader::open(fixture("torch_writer.pt"));
  EXPECT_EQ(z.root(), "torch_writer");
  EXPECT_EQ(z.read("data.pkl"), "hello");
  EXPECT_EQ(z.read("data/0", /*verify_crc=*/true), std::string(100, 'x'));
  EXPECT_EQ(z.read("empty", true), "");
  EXPECT_EQ(z.read("version"), "3\n");
  // PyTorch aligns every record's data to 64 bytes.
  for (const auto& r : z.records()) EXPECT_EQ(r.data_offset % 64, 0u) << r.name;
  EXPECT_EQ(z.find("nope"), nullptr);
  EXPECT_THROW(z.get("nope"), FormatError);
}

TEST(ZipReader, ReadsATorchSaveCheckpoint) {
  ZipReader z = ZipReader::open(fixture("checkpoint.pt"));
  EXPECT_EQ(z.root(), "checkpoint");
  ASSERT_TRUE(z.has_record("data.pkl"));
  ASSERT_TRUE(z.has_record("data/0"));
  EXPECT_EQ(z.stored_bytes(z.get("data/0")).size(), 40u);
}

TEST(ZipReader, InflatesDeflatedRecordsAndChecksCrc) {
  ZipReader z = ZipReader::open(fixture("deflated.zip"));
  EXPECT_EQ(z.root(), "root");
  std::string expected;
  for (int i = 0; i < 1000; ++i) expected += "torchlet ";
  EXPECT_EQ(z.read("text.txt", true), expected);
  EXPECT_EQ(z.read("raw.bin", true).size(), 256u);
  EXPECT_EQ(z.read("empty.txt", true), "");
  EXPECT_THROW(z.stored_bytes(z.get("text.txt")), UnsupportedError);
}

TEST(ZipWriter, OutputIsByteIdenticalToPyTorchWriter) {
  std::string expected = slurp(fixture("torch_writer.pt"));
  fs::path out = temp_dir() / "ours.pt";
  {
    ZipWriter w(out.string(), "torch_writer");
    w.write_record("data.pkl", "hello");
    w.write_record("data/0", std::string(100, 'x'));
    w.write_record("empty", "");
    std::string bytes;
    for (int rep = 0; rep < 3; ++rep)
      for (int i = 0; i < 256; ++i) bytes.push_back(static_cast<char>(i));
    // Streamed in uneven chunks: the bytes must not depend on how data arrives.
    w.begin_record("data/1", bytes.size());
    w.write_chunk(as_span(bytes).subspan(0, 100));
    w.write_chunk(as_span(bytes).subspan(100));
    w.end_record();
    w.write_record("version", "3\n");
    w.finalize();
  }
  std::string ours = slurp(out);
  EXPECT_EQ(ours.size(), expected.size());
  EXPECT_TRUE(ours == expected) << "torchlet's zip bytes differ from PyTorch's writer";
}

TEST(ZipWriter, RealPyTorchAndZipfileReadOurOutput) {
  fs::path out = temp_dir() / "for_torch.pt";
  {
    ZipWriter w(out.string(), "archive");
    w.write_record("data.pkl", "payload");
    w.write_record("data/0", std::string(1000, '\x7f'));
    w.write_record("version", "3\n");
    w.finalize();
  }
  std::string cmd =
      "/usr/bin/python3 -c \"import sys, zipfile, torch\n"
      "z = zipfile.ZipFile(sys.argv[1]); assert z.testzip() is None\n"
      "r = torch._C.PyTorchFileReader(sys.argv[1])\n"
      "assert bytes(r.get_record('data.pkl')) == b'payload'\n"
      "assert bytes(r.get_record('data/0')) == b'\\x7f' * 1000\n\" " +
      out.string();
  EXPECT_EQ(std::system(cmd.c_str()), 0) << cmd;
}

TEST(ZipWriter, Zip64FieldsRoundTrip) {
  fs::path out = temp_dir() / "z64.zip";
  ZipWriterOptions opt;
  opt.zip64_threshold = 100;  // force zip64 fields without writing gigabytes
  {
    ZipWriter w(out.string(), "r", opt);
    w.write_record("small", "abc");
    w.write_record("big", std::string(300, 'b'));
    w.write_record("late", "after the threshold");
    w.finalize();
  }
  ZipReader z = ZipReader::open(out.string());
  EXPECT_EQ(z.read("small", true), "abc");
  EXPECT_EQ(z.read("big", true), std::string(300, 'b'));
  EXPECT_EQ(z.read("late", true), "after the threshold");
  for (const auto& r : z.records()) EXPECT_EQ(r.data_offset % 64, 0u);
  std::string cmd = "/usr/bin/python3 -c \"import sys, zipfile; z = zipfile.ZipFile(sys.argv[1]); "
                    "assert z.testzip() is None; assert z.read('r/big') == b'b' * 300\" " +
                    out.string();
  EXPECT_EQ(std::system(cmd.c_str()), 0);
}

TEST(ZipWriter, AbandonedWriterLeavesNoFile) {
  fs::path out = temp_dir() / "abandoned.pt";
  fs::remove(out);
  {
    ZipWriter w(out.string(), "archive");
    w.write_record("data.pkl", "partial");
  }
  EXPECT_FALSE(fs::exists(out));
  for (const auto& e : fs::directory_iterator(temp_dir())) {
    EXPECT_EQ(e.path().filename().string().find("abandoned.pt.tmp"), std::string::npos);
  }
}

TEST(ZipWriter, CrcCanBeSwitchedOff) {
  fs::path out = temp_dir() / "nocrc.pt";
  ZipWriterOptions opt;
  opt.compute_crc32 = false;
  {
    ZipWriter w(out.string(), "a", opt);
    w.write_record("x", "data");
    w.finalize();
  }
  ZipReader z = ZipReader::open(out.string());
  EXPECT_EQ(z.get("x").crc32, 0u);
  EXPECT_EQ(z.read("x"), "data");
  EXPECT_THROW(z.read("x", /*verify_crc=*/true), FormatError);
}

// --- malformed input ---------------------------------------------------------------

std::string small_archive() {
  fs::path out = temp_dir() / "small.pt";
  {
    ZipWriter w(out.string(), "archive");
    w.write_record("data.pkl", "0123456789");
    w.write_record("data/0", std::string(200, 'q'));
    w.finalize();
  }
  return slurp(out);
}

void expect_error_or_valid(const std::string& bytes) {
  try {
    ZipReader z = ZipReader::from_bytes(as_span(bytes));
    for (const auto& r : z.records()) (void)z.read(r, true);
  } catch (const Error&) {
    // a clean, typed error is the expected outcome for most corruptions
  }
}

TEST(ZipReaderMalformed, EveryTruncationIsACleanError) {
  std::string good = small_archive();
  for (size_t n = 0; n < good.size(); ++n) {
    std::string cut = good.substr(0, n);
    EXPECT_THROW(ZipReader::from_bytes(as_span(cut)), Error) << "truncated at " << n;
  }
}

TEST(ZipReaderMalformed, EverySingleByteCorruptionIsHandled) {
  std::string good = small_archive();
  for (size_t i = 0; i < good.size(); ++i) {
    std::string bad = good;
    bad[i] = static_cast<char>(bad[i] ^ 0xa5);
    expect_error_or_valid(bad);  // must not crash, hang or over-allocate (ASan run)
  }
}

TEST(ZipReaderMalformed, NotAZipFile) {
  std::string junk(1000, 'j');
  try {
    ZipReader::from_bytes(as_span(junk));
    FAIL();
  } catch (const FormatError& e) {
    EXPECT_NE(std::string(e.what()).find("no end of central directory"), std::string::npos);
  }
}

// Offsets of the EOCD fields in `bytes` (the last 22 bytes, no comment).
size_t eocd_pos(const std::string& bytes) { return bytes.size() - 22; }

void put32(std::string& s, size_t pos, uint32_t v) {
  for (int i = 0; i < 4; ++i) s[pos + i] = static_cast<char>((v >> (8 * i)) & 0xff);
}

std::string without_zip64(const std::string& bytes) {
  // Drop the zip64 records so the plain EOCD fields are authoritative.
  std::string eocd = bytes.substr(bytes.size() - 22);
  return bytes.substr(0, bytes.size() - 22 - 20 - 56) + eocd;
}

TEST(ZipReaderMalformed, CentralDirectoryClaimingMoreThanTheFile) {
  std::string bad = without_zip64(small_archive());
  put32(bad, eocd_pos(bad) + 12, 1u << 30);  // cd size
  try {
    ZipReader::from_bytes(as_span(bad));
    FAIL();
  } catch (const FormatError& e) {
    EXPECT_NE(std::string(e.what()).find("central directory"), std::string::npos) << e.what();
  }
  std::string many = without_zip64(small_archive());
  many[eocd_pos(many) + 10] = '\xff';  // 0xff02 entries in a 2-entry directory
  many[eocd_pos(many) + 11] = '\xff';
  EXPECT_THROW(ZipReader::from_bytes(as_span(many)), FormatError);
}

TEST(ZipReaderMalformed, LocalHeaderOffsetBeyondFile) {
  std::string bad = without_zip64(small_archive());
  // First central directory entry starts at the cd offset; field 42 is the offset.
  uint32_t cd_offset = static_cast<uint8_t>(bad[eocd_pos(bad) + 16]) |
                       static_cast<uint8_t>(bad[eocd_pos(bad) + 17]) << 8;
  put32(bad, cd_offset + 42, 0x7fffffff);
  try {
    ZipReader::from_bytes(as_span(bad));
    FAIL();
  } catch (const FormatError& e) {
    EXPECT_NE(std::string(e.what()).find("beyond file size"), std::string::npos) << e.what();
  }
}

TEST(ZipReaderMalformed, DuplicateAndOverlappingRecords) {
  std::string bad = without_zip64(small_archive());
  uint32_t cd_offset = static_cast<uint8_t>(bad[eocd_pos(bad) + 16]) |
                       static_cast<uint8_t>(bad[eocd_pos(bad) + 17]) << 8;
  // Point the second entry at the first entry's local header: overlap + same bytes.
  size_t second = cd_offset + 46 + std::string("archive/data.pkl").size();
  std::string overlapping = bad;
  put32(overlapping, second + 42, 0);
  EXPECT_THROW(ZipReader::from_bytes(as_span(overlapping)), FormatError);
}

TEST(ZipReaderMalformed, DeflateBombIsRefused) {
  // A deflated record that inflates far past its declared size.
  fs::path p = temp_dir() / "bomb.zip";
  std::string cmd = "/usr/bin/python3 -c \"import sys, zipfile\n"
                    "z = zipfile.ZipFile(sys.argv[1], 'w')\n"
                    "z.writestr('r/bomb', b'\\0' * (1 << 24), compress_type=zipfile.ZIP_DEFLATED)\n"
                    "z.close()\" " + p.string();
  ASSERT_EQ(std::system(cmd.c_str()), 0);
  std::string bytes = slurp(p);
  // Lower the declared uncompressed size in the central directory to 1000 bytes.
  size_t cd = bytes.find("PK\x01\x02");
  ASSERT_NE(cd, std::string::npos);
  put32(bytes, cd + 24, 1000);
  ZipReader z = ZipReader::from_bytes(as_span(bytes));
  try {
    (void)z.read("bomb");
    FAIL();
  } catch (const FormatError& e) {
    EXPECT_NE(std::string(e.what()).find("inflates beyond its declared size"), std::string::npos);
  }
}

}  // namespace
}  // namespace torchlet

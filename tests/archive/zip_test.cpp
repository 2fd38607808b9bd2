// The zip layer: reading what PyTorch writes, writing what PyTorch writes (byte for
// byte, zip64 included), and refusing malformed archives with specific errors.
// Expected bytes come from torch 1.13's writer (fixtures, torch_zip64_skeleton.bin);
// files we write are read back by real torch and Python's zipfile.
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <cstring>
#include <fstream>
#include <memory>
#include <string_view>
#include <vector>

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

// Removes temp_dir() when the test program ends, so runs leave nothing in /tmp.
class TempDirCleanup : public ::testing::Environment {
 public:
  void TearDown() override { fs::remove_all(temp_dir()); }
};
const auto* const kCleanup = ::testing::AddGlobalTestEnvironment(new TempDirCleanup);

std::string fixture(const std::string& name) {
  fs::path p = testing::fixture_dir() / "archive" / name;
  EXPECT_TRUE(fs::exists(p)) << "missing fixture " << p;
  return p.string();
}

// Expects `fn` to throw Kind with a message containing `needle`.
template <typename Kind, typename Fn>
void expect_error(Fn&& fn, std::string_view needle) {
  try {
    fn();
    ADD_FAILURE() << "no error; expected one mentioning '" << needle << "'";
  } catch (const Kind& e) {
    EXPECT_NE(std::string_view(e.what()).find(needle), std::string_view::npos) << e.what();
  }
}

// Runs /usr/bin/python3 (real torch, the oracle) on `script` with `arg` as sys.argv[1].
int run_python(const std::string& script, const std::string& arg) {
  fs::path py = temp_dir() / "check.py";
  std::ofstream(py) << script;
  std::string cmd = "/usr/bin/python3 " + py.string() + " " + arg;
  return std::system(cmd.c_str());
}

void put32(std::string& s, size_t pos, uint32_t v) {
  for (int i = 0; i < 4; ++i) s[pos + i] = static_cast<char>((v >> (8 * i)) & 0xff);
}
void put16(std::string& s, size_t pos, uint16_t v) {
  s[pos] = static_cast<char>(v & 0xff);
  s[pos + 1] = static_cast<char>(v >> 8);
}

// Offset of the header with `signature` ("PK\1\2" central, "PK\3\4" local) whose name
// is `name`; the name sits at +46 (central) or +30 (local).
size_t header_of(const std::string& bytes, std::string_view signature, std::string_view name) {
  const size_t name_at = signature == std::string_view("PK\x01\x02", 4) ? 46 : 30;
  for (size_t p = bytes.find(signature); p != std::string::npos;
       p = bytes.find(signature, p + 1)) {
    if (std::string_view(bytes).substr(p + name_at, name.size()) == name) return p;
  }
  ADD_FAILURE() << "no header for " << name;
  return 0;
}
size_t central_of(const std::string& bytes, std::string_view name) {
  return header_of(bytes, std::string_view("PK\x01\x02", 4), name);
}
size_t local_of(const std::string& bytes, std::string_view name) {
  return header_of(bytes, std::string_view("PK\x03\x04", 4), name);
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
  ASSERT_EQ(z.records().size(), 4u);
  EXPECT_EQ(z.records()[0].name, "checkpoint/data.pkl");
  EXPECT_EQ(z.read("version", true), "3\n");
  // Stored records alias the mapping: the span, mapping() + data_offset and the
  // file's own bytes are the same memory.
  const ZipRecord& w = z.get("data/0");
  auto span = z.stored_bytes(w);
  ASSERT_EQ(span.size(), 40u);
  ASSERT_NE(z.mapping(), nullptr);
  EXPECT_EQ(span.data(), z.mapping()->data() + w.data_offset);
  float first[10];
  std::memcpy(first, span.data(), sizeof first);
  EXPECT_EQ(first[9], 9.0f);  // torch.arange(10.0)
  EXPECT_EQ(z.stored_bytes(z.get("data/1")).size(), 24u);
  EXPECT_EQ(z.read("data/1", true).size(), 24u);
}

TEST(ZipReader, InflatesDeflatedRecordsAndChecksCrc) {
  // zipfile wrote an archive comment, so the EOCD is not the last 22 bytes.
  ZipReader z = ZipReader::open(fixture("deflated.zip"));
  EXPECT_EQ(z.root(), "root");
  std::string expected;
  for (int i = 0; i < 1000; ++i) expected += "torchlet ";
  EXPECT_EQ(z.get("text.txt").method, 8);
  EXPECT_LT(z.get("text.txt").compressed_size, expected.size());
  EXPECT_EQ(z.read("text.txt", true), expected);
  EXPECT_EQ(z.read("raw.bin", true).size(), 256u);
  EXPECT_EQ(z.read("empty.txt", true), "");
  expect_error<UnsupportedError>([&] { (void)z.stored_bytes(z.get("text.txt")); },
                                 "'root/text.txt' is compressed");
}

TEST(ZipReader, RefusesOtherCompressionMethodsByName) {
  expect_error<UnsupportedError>([] { ZipReader::open(fixture("bzip2.zip")); },
                                 "('root/a.txt'): compression method 12 is not supported");
}

TEST(ZipReader, RecordsWithoutASharedRootKeepTheirFullNames) {
  ZipReader z = ZipReader::open(fixture("no_root.zip"));
  EXPECT_EQ(z.root(), "");
  EXPECT_EQ(z.read("a/x"), "1");
  EXPECT_EQ(z.read("top"), "3");
  EXPECT_EQ(z.find("x"), nullptr);
}

TEST(ZipReader, OpenNamesTheMissingFile) {
  expect_error<IOError>([] { ZipReader::open("/nonexistent/torchlet/x.pt"); },
                        "/nonexistent/torchlet/x.pt");
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
    w.write_record("empty", "");
    w.finalize();
  }
  ZipReader z = ZipReader::open(out.string());
  EXPECT_EQ(z.read("small", true), "abc");
  EXPECT_EQ(z.read("big", true), std::string(300, 'b'));
  EXPECT_EQ(z.read("late", true), "after the threshold");
  EXPECT_EQ(z.read("empty", true), "");
  EXPECT_GE(z.get("late").local_header_offset, 100u);
  for (const auto& r : z.records()) EXPECT_EQ(r.data_offset % 64, 0u);
  // zipfile accepts zip64 fields on small values; miniz (torch's reader) refuses
  // them, so torch reading real zip64 is covered by Zip64MatchesPyTorchAtFourGiB
  // (our bytes equal those torch writes, and therefore reads).
  EXPECT_EQ(run_python("import sys, zipfile\n"
                       "z = zipfile.ZipFile(sys.argv[1]); assert z.testzip() is None\n"
                       "assert z.read('r/big') == b'b' * 300\n"
                       "assert z.read('r/late') == b'after the threshold'\n",
                       out.string()),
            0);
}

// A sink that keeps what a writer emits except large chunks (a record's data), which
// it only counts: the archive's skeleton, without storing gigabytes.
class SkeletonSink : public ZipSink {
 public:
  static constexpr size_t kDataChunk = size_t{1} << 20;
  void write(std::span<const std::byte> bytes) override {
    if (bytes.size() >= kDataChunk) {
      dropped_ += bytes.size();
      return;
    }
    kept_.append(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  }
  std::string kept_;
  uint64_t dropped_ = 0;
};

TEST(ZipWriter, Zip64MatchesPyTorchAtFourGiB) {
  // torch_zip64_skeleton.py wrote these records with torch 1.13 and cut the big
  // record's data out; every header, descriptor, directory entry and end record we
  // write must equal torch's. The 0xffffffff-byte record streams through the CRC
  // (torch computes it), so this test costs a couple of seconds.
  std::string golden = slurp(fs::path(TORCHLET_SOURCE_DIR) / "tests/archive/torch_zip64_skeleton.bin");
  ASSERT_EQ(golden.size(), 996u);
  SkeletonSink sink;
  {
    ZipWriter w(sink, "bigtorch");
    w.write_record("data.pkl", "hello");
    constexpr uint64_t kBig = 0xffffffffu;
    std::vector<std::byte> chunk(size_t{16} << 20);  // a multiple of 4096: same pattern each time
    for (size_t i = 0; i < chunk.size(); i += 4096) chunk[i] = std::byte{7};
    w.begin_record("big", kBig);
    for (uint64_t done = 0; done < kBig;) {
      const uint64_t n = std::min<uint64_t>(chunk.size(), kBig - done);
      w.write_chunk(std::span<const std::byte>(chunk.data(), n));
      done += n;
    }
    w.end_record();
    w.write_record("after", "after the big one");
    w.write_record("empty", "");
    w.write_record("version", "3\n");
    w.finalize();
  }
  EXPECT_EQ(sink.dropped_, 0xffffffffu);
  ASSERT_EQ(sink.kept_.size(), golden.size());
  for (size_t i = 0; i < golden.size(); ++i) {
    ASSERT_EQ(sink.kept_[i], golden[i]) << "first difference at skeleton byte " << i;
  }
}

TEST(ZipWriter, MemorySinkHoldsTheSameBytesAsTheFile) {
  fs::path out = temp_dir() / "mem.pt";
  MemoryZipSink sink;
  for (bool to_file : {true, false}) {
    std::unique_ptr<ZipWriter> w = to_file ? std::make_unique<ZipWriter>(out.string(), "archive")
                                           : std::make_unique<ZipWriter>(sink, "archive");
    w->write_record("data.pkl", "abc");
    w->write_record("data/0", std::string(77, 'z'));
    w->finalize();
  }
  std::string file = slurp(out);
  ASSERT_EQ(file.size(), sink.bytes().size());
  EXPECT_EQ(std::memcmp(file.data(), sink.bytes().data(), file.size()), 0);
  ZipReader z = ZipReader::from_bytes(sink.bytes());
  EXPECT_EQ(z.read("data/0", true), std::string(77, 'z'));
}

TEST(ZipWriter, AlignmentIsConfigurable) {
  for (size_t alignment : {size_t{1}, size_t{100}, size_t{4096}}) {
    fs::path out = temp_dir() / ("aligned" + std::to_string(alignment) + ".pt");
    ZipWriterOptions opt;
    opt.alignment = alignment;
    {
      ZipWriter w(out.string(), "archive", opt);
      w.write_record("a", "1");
      w.write_record("bb", std::string(333, 'b'));
      w.write_record("ccc", "3");
      w.finalize();
    }
    ZipReader z = ZipReader::open(out.string());
    for (const auto& r : z.records()) EXPECT_EQ(r.data_offset % alignment, 0u) << r.name;
    EXPECT_EQ(z.read("bb", true), std::string(333, 'b'));
    EXPECT_EQ(run_python("import sys, zipfile\n"
                         "assert zipfile.ZipFile(sys.argv[1]).testzip() is None\n",
                         out.string()),
              0);
  }
  ZipWriterOptions bad;
  bad.alignment = 0;
  MemoryZipSink sink;
  expect_error<ValueError>([&] { ZipWriter w(sink, "a", bad); }, "alignment 0 out of range");
  bad.alignment = 1 << 16;
  expect_error<ValueError>([&] { ZipWriter w((temp_dir() / "never.pt").string(), "a", bad); },
                           "out of range");
  EXPECT_FALSE(fs::exists(temp_dir() / "never.pt"));
}

TEST(ZipWriter, EmptyArchiveRoundTrips) {
  MemoryZipSink sink;
  {
    ZipWriter w(sink, "archive");
    w.finalize();
  }
  ZipReader z = ZipReader::from_bytes(sink.bytes());
  EXPECT_TRUE(z.records().empty());
  EXPECT_EQ(z.root(), "");
}

TEST(ZipWriter, RefusesANameWrittenTwice) {
  MemoryZipSink sink;
  ZipWriter w(sink, "archive");
  w.write_record("data.pkl", "a");
  expect_error<ValueError>([&] { w.write_record("data.pkl", "b"); },
                           "'archive/data.pkl' written twice");
}

TEST(ZipWriter, TargetAppearsOnlyOnFinalize) {
  fs::path out = temp_dir() / "atomic.pt";
  std::ofstream(out) << "old contents";
  ZipWriterOptions durable;
  durable.fsync = true;  // also syncs the file and its folder
  {
    ZipWriter w(out.string(), "archive", durable);
    w.write_record("data.pkl", "new");
    EXPECT_EQ(slurp(out), "old contents");  // still the old file while writing
    w.finalize();
  }
  EXPECT_EQ(ZipReader::open(out.string()).read("data.pkl"), "new");
  expect_error<IOError>([] { ZipWriter w("/nonexistent/torchlet/x.pt", "a"); },
                        "/nonexistent/torchlet/x.pt.tmp.");
}

// Opening a writer drops the replaced file's cached pages (see FileZipSink): a mapping
// of the old file must keep reading the old bytes, before and after the rename, and a
// FIFO at the target must not block that step.
TEST(ZipWriter, ReplacingAFileKeepsItsMappingsAndNeverBlocksOnAFifo) {
  fs::path out = temp_dir() / "replaced.pt";
  std::string old_bytes(1 << 20, 'o');
  std::ofstream(out, std::ios::binary) << old_bytes;
  int fd = ::open(out.c_str(), O_RDONLY);
  ASSERT_GE(fd, 0);
  void* map = ::mmap(nullptr, old_bytes.size(), PROT_READ, MAP_SHARED, fd, 0);
  ::close(fd);
  ASSERT_NE(map, MAP_FAILED);
  std::string_view mapped(static_cast<const char*>(map), old_bytes.size());
  {
    ZipWriter w(out.string(), "archive");
    EXPECT_EQ(mapped, old_bytes);
    EXPECT_EQ(slurp(out), old_bytes);
    w.write_record("data.pkl", "new");
    w.finalize();
  }
  EXPECT_EQ(mapped, old_bytes);
  EXPECT_EQ(ZipReader::open(out.string()).read("data.pkl"), "new");
  ::munmap(map, old_bytes.size());

  fs::path fifo = temp_dir() / "replaced.fifo";
  fs::remove(fifo);
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  {
    ZipWriter w(fifo.string(), "archive");
    w.write_record("data.pkl", "into a fifo's place");
    w.finalize();
  }
  EXPECT_EQ(ZipReader::open(fifo.string()).read("data.pkl"), "into a fifo's place");
}

// As torch.save (open(path, "wb")): a replaced file keeps its permissions, and a
// symbolic link is written through, its target replaced and the link left in place.
TEST(ZipWriter, ReplacingAFileKeepsItsPermissions) {
  for (const auto perms : {fs::perms(0600), fs::perms(0640), fs::perms(0664)}) {
    fs::path out = temp_dir() / "private.pt";
    fs::remove(out);
    std::ofstream(out) << "old";
    fs::permissions(out, perms, fs::perm_options::replace);
    {
      ZipWriter w(out.string(), "archive");
      w.write_record("data.pkl", "new");
      w.finalize();
    }
    EXPECT_EQ(fs::status(out).permissions(), perms);
    EXPECT_EQ(ZipReader::open(out.string()).read("data.pkl"), "new");
  }
}

TEST(ZipWriter, SavingThroughASymlinkReplacesItsTarget) {
  const fs::path dir = temp_dir() / "links";
  fs::remove_all(dir);
  fs::create_directories(dir / "run3");
  std::ofstream(dir / "run3" / "model.pt") << "old";
  fs::create_symlink("run3/model.pt", dir / "latest.pt");      // relative to its folder
  fs::create_symlink(dir / "latest.pt", dir / "chained.pt");   // absolute, to a link
  fs::create_symlink("fresh.pt", dir / "dangling.pt");          // names no file yet
  for (const char* via : {"latest.pt", "chained.pt"}) {
    {
      ZipWriter w((dir / via).string(), "archive");
      w.write_record("data.pkl", via);
      w.finalize();
    }
    EXPECT_TRUE(fs::is_symlink(dir / "latest.pt"));
    EXPECT_TRUE(fs::is_symlink(dir / "chained.pt"));
    EXPECT_EQ(ZipReader::open((dir / "run3" / "model.pt").string()).read("data.pkl"), via);
  }
  {
    ZipWriter w((dir / "dangling.pt").string(), "archive");
    w.write_record("data.pkl", "fresh");
    w.finalize();
  }
  EXPECT_TRUE(fs::is_symlink(dir / "dangling.pt"));
  EXPECT_EQ(ZipReader::open((dir / "fresh.pt").string()).read("data.pkl"), "fresh");

  fs::create_directories(dir / "a_folder.pt");
  expect_error<IOError>([&] { ZipWriter w((dir / "a_folder.pt").string(), "a"); }, "it is a folder");
  fs::create_symlink("a_folder.pt", dir / "to_folder.pt");
  expect_error<IOError>([&] { ZipWriter w((dir / "to_folder.pt").string(), "a"); }, "a_folder.pt': it is a folder");

  fs::create_symlink("loop_b.pt", dir / "loop_a.pt");
  fs::create_symlink("loop_a.pt", dir / "loop_b.pt");
  expect_error<IOError>([&] { ZipWriter w((dir / "loop_a.pt").string(), "a"); }, "too many levels of symbolic links");
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

// Offsets of the EOCD fields in `bytes` (the last 22 bytes, no comment).
size_t eocd_pos(const std::string& bytes) { return bytes.size() - 22; }

std::string without_zip64(const std::string& bytes) {
  // Drop the zip64 records so the plain EOCD fields are authoritative.
  std::string eocd = bytes.substr(bytes.size() - 22);
  return bytes.substr(0, bytes.size() - 22 - 20 - 56) + eocd;
}

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
  ZipWriterOptions z64;
  z64.zip64_threshold = 64;
  MemoryZipSink sink;
  {
    ZipWriter w(sink, "archive", z64);
    w.write_record("data.pkl", "0123456789");
    w.write_record("data/0", std::string(200, 'q'));
    w.finalize();
  }
  const std::string zip64(reinterpret_cast<const char*>(sink.bytes().data()), sink.bytes().size());
  for (const std::string& good : {small_archive(), zip64, slurp(fixture("deflated.zip")),
                                  slurp(fixture("checkpoint.pt"))}) {
    for (size_t n = 0; n < good.size(); ++n) {
      std::string cut = good.substr(0, n);
      EXPECT_THROW(ZipReader::from_bytes(as_span(cut)), Error) << "truncated at " << n;
    }
  }
}

TEST(ZipReaderMalformed, LostBytesBeforeTheEndRecordsAreCleanErrors) {
  // A file that lost a stretch in the middle but still ends in valid end records:
  // every offset after the hole now points too far.
  std::string good = without_zip64(small_archive());
  const std::string eocd = good.substr(good.size() - 22);
  for (size_t n = 0; n + 22 < good.size(); n += 7) {
    std::string bad = good.substr(0, n) + eocd;
    EXPECT_THROW(ZipReader::from_bytes(as_span(bad)), FormatError) << "kept " << n;
  }
}

TEST(ZipReaderMalformed, EverySingleByteCorruptionIsHandled) {
  // Each flipped byte must give a valid archive or a typed error: never a crash, a
  // hang or an unbounded allocation (this test matters most under ASan/UBSan).
  for (const std::string& good : {small_archive(), slurp(fixture("deflated.zip"))}) {
    for (size_t i = 0; i < good.size(); ++i) {
      std::string bad = good;
      bad[i] = static_cast<char>(bad[i] ^ 0xa5);
      expect_error_or_valid(bad);
    }
  }
}

TEST(ZipReaderMalformed, CrcMismatchIsDetected) {
  std::string bad = small_archive();
  const size_t data = ZipReader::from_bytes(as_span(bad)).get("data/0").data_offset;
  bad[data + 5] = 'Q';
  ZipReader z = ZipReader::from_bytes(as_span(bad));
  EXPECT_EQ(z.read("data/0").substr(0, 6), "qqqqqQ");  // unverified reads still work
  expect_error<FormatError>([&] { (void)z.read("data/0", true); },
                            "record 'archive/data/0': CRC-32 mismatch");
  expect_error<FormatError>([&] { z.verify_crc(z.get("data/0")); },
                            "record 'archive/data/0': CRC-32 mismatch");
  ZipReader intact = ZipReader::from_bytes(as_span(small_archive()));
  intact.verify_crc(intact.get("data/0"));  // in place, no copy: must not throw
  std::string deflated = slurp(fixture("deflated.zip"));
  put32(deflated, central_of(deflated, "root/raw.bin") + 16, 0x12345678);
  ZipReader d = ZipReader::from_bytes(as_span(deflated));
  expect_error<FormatError>([&] { (void)d.read("raw.bin", true); }, "stored 12345678");
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

TEST(ZipReaderMalformed, CentralDirectoryClaimingMoreThanTheFile) {
  std::string bad = without_zip64(small_archive());
  put32(bad, eocd_pos(bad) + 12, 1u << 30);  // cd size
  try {
    ZipReader::from_bytes(as_span(bad));
    FAIL();
  } catch (const FormatError& e) {
    EXPECT_NE(std::string(e.what()).find("central directory (offset 408, 1073741824 bytes) "
                                         "extends beyond the end records at offset 530"),
              std::string::npos)
        << e.what();
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
    EXPECT_NE(std::string(e.what()).find("<memory>: central directory entry 0 "
                                         "('archive/data.pkl'): local header offset "
                                         "2147483647 beyond file size 552"),
              std::string::npos)
        << e.what();
  }
}

TEST(ZipReaderMalformed, DuplicateNames) {
  // Rename "data/1" to "data/0" in both its local and central headers.
  MemoryZipSink sink;
  {
    ZipWriter w(sink, "archive");
    w.write_record("data/0", "first");
    w.write_record("data/1", "second");
    w.finalize();
  }
  std::string bad(reinterpret_cast<const char*>(sink.bytes().data()), sink.bytes().size());
  bad[local_of(bad, "archive/data/1") + 30 + 13] = '0';
  bad[central_of(bad, "archive/data/1") + 46 + 13] = '0';
  expect_error<FormatError>([&] { ZipReader::from_bytes(as_span(bad)); },
                            "duplicate record name 'archive/data/0' (central directory entry 1)");
}

TEST(ZipReaderMalformed, OverlappingRecords) {
  std::string bad = without_zip64(small_archive());
  // Point data/0's entry at data.pkl's local header (and name): two names, one record.
  const size_t second = central_of(bad, "archive/data/0");
  put32(bad, second + 42, 0);
  expect_error<FormatError>([&] { ZipReader::from_bytes(as_span(bad)); },
                            "local file header names 'archive/data.pkl'");
  // Names that match but a record whose declared size runs over the next local
  // header: the overlap itself is refused.
  std::string inner = without_zip64(small_archive());
  const size_t first = central_of(inner, "archive/data.pkl");
  put32(inner, first + 20, 100);
  put32(inner, first + 24, 100);
  expect_error<FormatError>([&] { ZipReader::from_bytes(as_span(inner)); },
                            "records 'archive/data.pkl' (data at offset 64, 100 bytes) and "
                            "'archive/data/0'");
}

TEST(ZipReaderMalformed, RecordRunningIntoTheCentralDirectory) {
  std::string bad = without_zip64(small_archive());
  const size_t entry = central_of(bad, "archive/data/0");
  put32(bad, entry + 20, 300);
  put32(bad, entry + 24, 300);
  expect_error<FormatError>([&] { ZipReader::from_bytes(as_span(bad)); },
                            "('archive/data/0'): data at offset 192 (300 bytes) runs into the "
                            "central directory");
}

TEST(ZipReaderMalformed, UnsupportedMethodNamedForAnyRecord) {
  std::string bad = small_archive();
  put16(bad, central_of(bad, "archive/data/0") + 10, 14);  // LZMA
  expect_error<UnsupportedError>([&] { ZipReader::from_bytes(as_span(bad)); },
                                 "central directory entry 1 ('archive/data/0'): compression "
                                 "method 14 is not supported");
}

TEST(ZipReaderMalformed, Zip64EndRecordsOutOfPlace) {
  std::string bad = small_archive();
  // The locator (20 bytes before the EOCD) holds the zip64 EOCD's offset at +8.
  const size_t locator = bad.size() - 22 - 20;
  put32(bad, locator + 8, 0x7fffffff);
  expect_error<FormatError>([&] { ZipReader::from_bytes(as_span(bad)); },
                            "zip64 end of central directory offset 2147483647 beyond");
  std::string wrong = small_archive();
  put32(wrong, locator + 8, 0);  // points at a local header instead
  expect_error<FormatError>([&] { ZipReader::from_bytes(as_span(wrong)); },
                            "bad zip64 end of central directory signature at offset 0");
}

TEST(ZipReaderMalformed, EntryCountOverTheLimit) {
  std::string bad = small_archive();
  const size_t zip64_eocd = bad.size() - 22 - 20 - 56;
  put32(bad, zip64_eocd + 32, (1u << 20) + 1);  // total entries
  expect_error<LimitError>([&] { ZipReader::from_bytes(as_span(bad)); },
                           "1048577 entries exceed the limit of 1048576");
  put32(bad, zip64_eocd + 32, 1000);  // within the limit, but 1000 entries need 46000 bytes
  expect_error<FormatError>([&] { ZipReader::from_bytes(as_span(bad)); },
                            "central directory claims 1000 entries but holds only 122 bytes");
}

TEST(ZipReaderMalformed, ExtraFieldOverrun) {
  std::string bad = without_zip64(small_archive());
  // Grow data.pkl's central extra length past its entry: it now runs into the next.
  const size_t entry = central_of(bad, "archive/data.pkl");
  put16(bad, entry + 30, 8);
  put16(bad, entry + 46 + 16, 0x0001);  // over the next entry's signature: a zip64 extra...
  put16(bad, entry + 46 + 18, 40);      // ...claiming 40 bytes of an 8-byte area
  expect_error<FormatError>([&] { ZipReader::from_bytes(as_span(bad)); },
                            "extra field 0x0001 (40 bytes at 0) overruns the 8-byte extra area");
}

TEST(ZipReaderMalformed, CorruptAndShortDeflateStreams) {
  std::string garbage = slurp(fixture("deflated.zip"));
  const ZipRecord text = ZipReader::from_bytes(as_span(garbage)).get("text.txt");
  for (size_t i = 0; i < text.compressed_size; ++i) garbage[text.data_offset + i] = '\xff';
  ZipReader g = ZipReader::from_bytes(as_span(garbage));
  expect_error<FormatError>([&] { (void)g.read("text.txt"); },
                            "record 'root/text.txt': corrupt deflate data");
  // Declared larger than the stream inflates to (but within deflate's ratio).
  std::string longer = slurp(fixture("deflated.zip"));
  put32(longer, central_of(longer, "root/text.txt") + 24, 9001);
  ZipReader l = ZipReader::from_bytes(as_span(longer));
  expect_error<FormatError>([&] { (void)l.read("text.txt"); },
                            "record 'root/text.txt' inflated to 9000 bytes, expected 9001");
  // A declared size no deflate stream of this length can reach is refused up front,
  // before the output buffer is allocated.
  std::string huge = slurp(fixture("deflated.zip"));
  put32(huge, central_of(huge, "root/text.txt") + 24, 0xfffffff0);
  ZipReader h = ZipReader::from_bytes(as_span(huge));
  expect_error<FormatError>([&] { (void)h.read("text.txt"); },
                            "declares 4294967280 bytes, more than");
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

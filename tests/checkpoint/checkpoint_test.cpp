// Checkpoint load/save from C++: every load mode agrees, mapped storages alias the
// file, sharing survives a save/load round trip, and saves are atomic.
#include <cstring>
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>
#include <torchlet/checkpoint.h>
#include <torchlet/error.h>
#include <torchlet/ops.h>
#include <torchlet/tensor.h>

#include "../common/fixtures.h"

namespace torchlet {
namespace {

namespace fs = std::filesystem;

std::string good(const std::string& name) {
  fs::path p = testing::fixture_dir() / "checkpoint" / "good" / name;
  EXPECT_TRUE(fs::exists(p)) << "missing fixture " << p;
  return p.string();
}

TEST(Checkpoint, ModesAgreeOnResnet18) {
  LoadOptions eager, mapped;
  mapped.mode = LoadMode::Mapped;
  IValue a = load(good("resnet18.pt"), eager);
  IValue b = load(good("resnet18.pt"), mapped);
  ASSERT_TRUE(a.isDict());
  EXPECT_EQ(a.dictRef().py_kind, PyContainerKind::OrderedDict);
  EXPECT_EQ(a.dictRef().size(), 122u);  // resnet18's state_dict entries
  size_t compared = 0;
  for (const auto& [k, v] : a.dictRef().items()) {
    const IValue* w = b.dictRef().find(k);
    ASSERT_NE(w, nullptr);
    Tensor x = v.toTensor(), y = w->toTensor();
    EXPECT_TRUE(x.storage()->is_owned());
    EXPECT_FALSE(y.storage()->is_owned());  // aliases the mapped file
    ASSERT_EQ(x.nbytes(), y.nbytes());
    EXPECT_EQ(std::memcmp(x.contiguous().data_ptr(), y.contiguous().data_ptr(), x.nbytes()), 0);
    ++compared;
  }
  EXPECT_EQ(compared, 122u);
  // state_dict's _metadata survives as the OrderedDict's state.
  EXPECT_NE(a.dictRef().py_state(), nullptr);
}

TEST(Checkpoint, EagerLoadCopiesEveryStorageSizeExactly) {
  // Eager loads carve storages from a huge-page arena (small ones share 64 MiB blocks,
  // from 16 MiB on each gets its own) and copy them in parallel pieces of 4 MiB: sizes
  // around each of those boundaries, plus views sharing one storage and an empty one.
  const std::vector<int64_t> numels = {0, 1, 17, (1 << 20) + 3, (4 << 20) / 4, (16 << 20) / 4,
                                       (16 << 20) / 4 + 1, (9 << 20) + 7};
  auto d = make_intrusive<DictImpl>();
  for (size_t i = 0; i < numels.size(); ++i) {
    // Distinct values per tensor and position: int32 i * 2^24 + position.
    Tensor t = arange(numels[i], DType::Int);
    if (numels[i] > 0) add_(t, Scalar(static_cast<int64_t>(i) << 24));
    d->insert_or_assign(IValue("t" + std::to_string(i)), IValue(t));
  }
  Tensor base = arange(int64_t{6 << 20}, DType::Int);
  d->insert_or_assign(IValue("base"), IValue(base));
  d->insert_or_assign(IValue("view"), IValue(base.narrow(0, 5, 1000)));
  fs::path out = fs::temp_directory_path() / "torchlet_ckpt_eager_sizes.pt";
  save(IValue(d), out.string());
  LoadOptions mapped;
  mapped.mode = LoadMode::Mapped;
  IValue e = load(out.string()), m = load(out.string(), mapped);
  for (const auto& [k, v] : d->items()) {
    Tensor want = v.toTensor(), got = e.dictRef().find(k)->toTensor();
    Tensor via_map = m.dictRef().find(k)->toTensor();
    ASSERT_EQ(got.numel(), want.numel()) << k.toStringRef();
    EXPECT_TRUE(got.storage()->is_owned()) << k.toStringRef();
    if (want.numel() == 0) continue;
    EXPECT_EQ(reinterpret_cast<uintptr_t>(got.storage()->data()) % 64, 0u);
    EXPECT_EQ(std::memcmp(got.contiguous().data_ptr(), want.contiguous().data_ptr(), want.nbytes()), 0)
        << k.toStringRef();
    EXPECT_EQ(std::memcmp(via_map.contiguous().data_ptr(), want.contiguous().data_ptr(), want.nbytes()), 0)
        << k.toStringRef();
  }
  EXPECT_TRUE(e.dictRef().find(IValue("view"))->toTensor().shares_storage(
      e.dictRef().find(IValue("base"))->toTensor()));
  fs::remove(out);
}

TEST(Checkpoint, SharedStoragesStaySharedThroughSave) {
  IValue v = load(good("views.pt"));
  Tensor base = v.dictRef().find(IValue("base"))->toTensor();
  Tensor row = v.dictRef().find(IValue("row"))->toTensor();
  EXPECT_TRUE(base.shares_storage(row));
  EXPECT_TRUE(v.dictRef().find(IValue("same"))->toTensor().is_same(base));
  fs::path out = fs::temp_directory_path() / "torchlet_ckpt_views.pt";
  save(v, out.string());
  IValue w = load(out.string());
  Tensor base2 = w.dictRef().find(IValue("base"))->toTensor();
  EXPECT_TRUE(base2.shares_storage(w.dictRef().find(IValue("col"))->toTensor()));
  EXPECT_TRUE(w.dictRef().find(IValue("same"))->toTensor().is_same(base2));
  EXPECT_EQ(w.dictRef().find(IValue("step"))->toTensor().repr(),
            v.dictRef().find(IValue("step"))->toTensor().repr());
  fs::remove(out);
}

TEST(Checkpoint, MappedWritesNeverReachTheFile) {
  LoadOptions mapped;
  mapped.mode = LoadMode::Mapped;
  IValue v = load(good("tensor_root.pt"), mapped);
  Tensor t = v.toTensor();
  t.fill_(-1);  // copy-on-write pages: the file keeps its bytes
  IValue again = load(good("tensor_root.pt"));
  EXPECT_EQ(again.toTensor().at({0, 0}).to_int(), 4);
}

TEST(Checkpoint, LegacyFormatLoads) {
  IValue v = load(good("legacy_views.pt"));
  Tensor row = v.dictRef().find(IValue("row"))->toTensor();
  EXPECT_EQ(row.storage_offset(), 6);
  EXPECT_TRUE(row.shares_storage(v.dictRef().find(IValue("base"))->toTensor()));
  EXPECT_EQ(detect_checkpoint_format(good("legacy_views.pt")), CheckpointFormat::Legacy);
}

TEST(Checkpoint, AbsentFileAndWrongKindsAreClearErrors) {
  EXPECT_THROW(load("/nonexistent/x.pt"), IOError);
  IValue unsaveable = IValue::uninitialized();
  fs::path out = fs::temp_directory_path() / "torchlet_unsaveable.pt";
  fs::remove(out);
  EXPECT_THROW(save(IValue::list({unsaveable}), out.string()), UnsupportedError);
  EXPECT_FALSE(fs::exists(out)) << "a failed save must not leave a file behind";
}

// Every storage location load() reports holds that storage's bytes at that offset,
// and the report is the same in every mode.
TEST(Checkpoint, StorageLocationsPointAtEachStoragesBytes) {
  const std::string path = good("resnet18.pt");
  std::ifstream in(path, std::ios::binary);
  const std::string file((std::istreambuf_iterator<char>(in)), {});
  std::vector<std::vector<std::pair<std::string, uint64_t>>> per_mode;
  for (LoadMode mode : {LoadMode::Eager, LoadMode::Mapped, LoadMode::Metadata}) {
    std::vector<StorageLocation> locations;
    LoadOptions opt;
    opt.mode = mode;
    opt.storage_locations = &locations;
    IValue v = load(path, opt);
    EXPECT_EQ(locations.size(), 122u);  // one storage per state_dict entry
    std::vector<std::pair<std::string, uint64_t>> seen;
    for (const auto& l : locations) {
      ASSERT_LE(l.file_offset + l.nbytes, file.size()) << l.record;
      EXPECT_EQ(l.nbytes, static_cast<uint64_t>(l.numel) * element_size(l.dtype)) << l.record;
      EXPECT_EQ(std::memcmp(file.data() + l.file_offset, l.storage->data(), l.nbytes), 0) << l.record;
      seen.emplace_back(l.record, l.file_offset);
    }
    per_mode.push_back(std::move(seen));
  }
  EXPECT_EQ(per_mode[0], per_mode[1]);
  EXPECT_EQ(per_mode[0], per_mode[2]);
}

// A big-endian file's storages need byte-swapping, so metadata mode leaves them
// unread (zeros) while eager mode swaps them; shapes agree.
TEST(Checkpoint, MetadataModeLeavesStoragesThatNeedDecodingUnread) {
  const std::string path = (testing::fixture_dir() / "checkpoint" / "big_endian.pt").string();
  LoadOptions meta;
  meta.mode = LoadMode::Metadata;
  IValue m = load(path, meta), e = load(path);
  Tensor mf = m.dictRef().find(IValue("f"))->toTensor(), ef = e.dictRef().find(IValue("f"))->toTensor();
  EXPECT_EQ(shape_repr(mf.sizes()), shape_repr(ef.sizes()));
  EXPECT_EQ(ef.at({5}).to_double(), 5.0);  // swapped: torch.arange(6.0)
  for (int64_t i = 0; i < mf.numel(); ++i) EXPECT_EQ(mf.at({i}).to_double(), 0.0);
}

// Without a byteorder record (torch before 2.1 writes none) the file is read in the
// order LoadOptions::endianness names, native by default, as torch's
// set_default_load_endianness; a file's own record wins over the option.
TEST(Checkpoint, UnmarkedFilesReadInTheByteOrderAskedFor) {
  const std::string unmarked = (testing::fixture_dir() / "checkpoint" / "big_endian_unmarked.pt").string();
  const std::string marked = (testing::fixture_dir() / "checkpoint" / "big_endian.pt").string();
  auto f5 = [](const IValue& v) { return v.dictRef().find(IValue("f"))->toTensor().at({5}).to_double(); };
  auto h4 = [](const IValue& v) { return v.dictRef().find(IValue("h"))->toTensor().at({4}).to_double(); };
  LoadOptions big, little;
  big.endianness = LoadEndianness::Big;
  little.endianness = LoadEndianness::Little;
  EXPECT_EQ(f5(load(unmarked, big)), 5.0);
  EXPECT_EQ(h4(load(unmarked, big)), 4.0);
  // Read as this (little-endian) machine's own: the bytes mean other numbers.
  EXPECT_NE(f5(load(unmarked)), 5.0);
  EXPECT_EQ(h4(load(unmarked, little)), 4.0 * 256);
  EXPECT_EQ(f5(load(marked, little)), 5.0);
}

TEST(Checkpoint, ScanListsEveryGlobal) {
  auto report = scan(good("parameters.pt"));
  bool saw_param = false;
  for (const auto& g : report) {
    EXPECT_TRUE(g.allowed) << g.module << "." << g.name;
    if (g.name == "_rebuild_parameter") saw_param = true;
  }
  EXPECT_TRUE(saw_param);
}

// Note [Serialization id]: the id follows from the content, so a save is reproducible.
std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// The 40 digits of .data/serialization_id (the last record, stored, just before the
// central directory: found by the 40 digits that follow its name's local header).
std::string serialization_id_of(const std::string& file) {
  const std::string name = "archive/.data/serialization_id";
  size_t at = file.find(name);
  EXPECT_NE(at, std::string::npos);
  size_t data = at + name.size();
  data += 4 + static_cast<unsigned char>(file[data + 2]) + 256 * static_cast<unsigned char>(file[data + 3]);
  return file.substr(data, 40);
}

IValue sample_state(double scale) {
  auto d = make_intrusive<DictImpl>();
  d->py_kind = PyContainerKind::OrderedDict;
  Tensor w = arange(0.0, 12.0 * scale, scale, DType::Float).reshape({3, 4});
  d->insert_or_assign(IValue("w"), IValue(w));
  d->insert_or_assign(IValue("b"), IValue(zeros({4})));
  d->insert_or_assign(IValue("name"), IValue(std::string("net")));
  return IValue(d);
}

TEST(Checkpoint, SavingTheSameObjectTwiceWritesTheSameBytes) {
  const fs::path a = fs::temp_directory_path() / "torchlet_ckpt_same_a.pt";
  const fs::path b = fs::temp_directory_path() / "torchlet_ckpt_same_b.pt";
  IValue v = sample_state(1.0);
  save(v, a.string());
  save(v, b.string());
  const std::string bytes_a = slurp(a), bytes_b = slurp(b);
  EXPECT_EQ(bytes_a, bytes_b);
  // An equal object built anew, and the file loaded and saved again, are the same file too.
  save(sample_state(1.0), b.string());
  EXPECT_EQ(slurp(b), bytes_a);
  save(load(a.string()), b.string());
  EXPECT_EQ(slurp(b), bytes_a);
  const std::string id = serialization_id_of(bytes_a);
  EXPECT_EQ(id.size(), 40u);
  EXPECT_EQ(id.find_first_not_of("0123456789"), std::string::npos) << id;
  fs::remove(a);
  fs::remove(b);
}

TEST(Checkpoint, DifferentContentGivesADifferentSerializationId) {
  const fs::path a = fs::temp_directory_path() / "torchlet_ckpt_id_a.pt";
  const fs::path b = fs::temp_directory_path() / "torchlet_ckpt_id_b.pt";
  save(sample_state(1.0), a.string());
  save(sample_state(2.0), b.string());  // same layout, same pickle, other tensor bytes
  const std::string id_a = serialization_id_of(slurp(a)), id_b = serialization_id_of(slurp(b));
  EXPECT_NE(id_a, id_b);
  // The names half hashes the same record names; the contents half differs.
  EXPECT_EQ(id_a.substr(0, 20), id_b.substr(0, 20));
  EXPECT_NE(id_a.substr(20), id_b.substr(20));
  // Without CRCs (compute_crc32 off, as torch allows) a different pickle still changes it.
  SaveOptions no_crc;
  no_crc.compute_crc32 = false;
  save(sample_state(1.0), a.string(), no_crc);
  IValue renamed = sample_state(1.0);
  renamed.dictRef().insert_or_assign(IValue("name"), IValue(std::string("other")));
  save(renamed, b.string(), no_crc);
  EXPECT_NE(serialization_id_of(slurp(a)), serialization_id_of(slurp(b)));
  fs::remove(a);
  fs::remove(b);
}

}  // namespace
}  // namespace torchlet

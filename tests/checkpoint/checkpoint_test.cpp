// Checkpoint load/save from C++: every load mode agrees, mapped storages alias the
// file, sharing survives a save/load round trip, and saves are atomic.
#include <filesystem>

#include <gtest/gtest.h>
#include <torchlet/checkpoint.h>
#include <torchlet/error.h>

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

TEST(Checkpoint, ScanListsEveryGlobal) {
  auto report = scan(good("parameters.pt"));
  bool saw_param = false;
  for (const auto& g : report) {
    EXPECT_TRUE(g.allowed) << g.module << "." << g.name;
    if (g.name == "_rebuild_parameter") saw_param = true;
  }
  EXPECT_TRUE(saw_param);
}

}  // namespace
}  // namespace torchlet

// numpy arrays, numpy scalars and argparse.Namespace saved by real torch.save
// (tests/fixtures/gen_checkpoint.py, checkpoint/numpy/): each file holds the record as
// "value" and what torch and numpy say it is as "expected" (torch.from_numpy of a
// native C-order copy, a scalar's .item(), a Namespace's vars()), or None where the
// record must stay undecoded. The hostile files must be refused by what is wrong.
#include <cstring>
#include <filesystem>

#include <gtest/gtest.h>
#include <torchlet/checkpoint.h>
#include <torchlet/error.h>
#include <torchlet/inert_records.h>
#include <torchlet/tensor.h>

#include "../common/fixtures.h"

namespace torchlet {
namespace {

namespace fs = std::filesystem;

fs::path numpy_dir() { return testing::fixture_dir() / "checkpoint" / "numpy"; }

IValue load_inert(const fs::path& p) {
  LoadOptions o;
  o.inert_unknown_globals = true;
  return load(p.string(), o);
}

const IValue& entry(const IValue& d, const char* key) {
  const IValue* v = d.dictRef().find(IValue(std::string(key)));
  EXPECT_NE(v, nullptr) << "no key " << key;
  return *v;
}

// Same dtype, sizes and bytes.
void expect_identical(const Tensor& got, const Tensor& want, const std::string& what) {
  ASSERT_EQ(got.dtype(), want.dtype()) << what;
  ASSERT_EQ(got.sizes(), want.sizes()) << what;
  const Tensor a = got.contiguous(), b = want.contiguous();
  ASSERT_EQ(a.nbytes(), b.nbytes()) << what;
  EXPECT_EQ(std::memcmp(a.data_ptr(), b.data_ptr(), a.nbytes()), 0) << what << ": values differ";
}

void expect_same_value(const IValue& got, const IValue& want, const std::string& what) {
  if (want.isTensor()) {
    ASSERT_TRUE(got.isTensor()) << what << " decoded to a " << got.tag_name();
    return expect_identical(got.toTensor(), want.toTensor(), what);
  }
  if (want.isDict()) {
    ASSERT_TRUE(got.isDict()) << what;
    ASSERT_EQ(got.dictRef().size(), want.dictRef().size()) << what;
    for (const auto& [k, v] : want.dictRef().items()) {
      const IValue* g = got.dictRef().find(k);
      ASSERT_NE(g, nullptr) << what << " lacks field " << k.repr();
      expect_same_value(*g, v, what + "." + k.toStringRef());
    }
    return;
  }
  EXPECT_EQ(got.tag(), want.tag()) << what << ": " << got.repr() << " vs " << want.repr();
  EXPECT_EQ(got.repr(), want.repr()) << what;
}

TEST(InertRecords, NumpyAndNamespaceDecodeToWhatTorchSays) {
  size_t decoded = 0, undecoded = 0;
  for (const auto& e : fs::directory_iterator(numpy_dir())) {
    if (e.path().extension() != ".pt") continue;
    const std::string name = e.path().stem().string();
    const IValue file = load_inert(e.path());
    const IValue& value = entry(file, "value");
    const IValue& expected = entry(file, "expected");
    ASSERT_TRUE(value.isPyObject()) << name << " loaded as a " << value.tag_name();
    if (expected.isNone()) {
      EXPECT_FALSE(decode_inert_record(value).has_value()) << name << " should stay a record";
      EXPECT_TRUE(decode_inert_records(file).dictRef().find(IValue(std::string("value")))->isPyObject()) << name;
      ++undecoded;
      continue;
    }
    // One level decodes the record itself; the tree decode reaches records inside it.
    std::optional<DecodedRecord> one = decode_inert_record(value);
    ASSERT_TRUE(one.has_value()) << name;
    EXPECT_EQ(one->kind.rfind(name.starts_with("namespace") ? "argparse.Namespace" : "numpy.", 0), 0u)
        << name << ": " << one->kind;
    expect_same_value(entry(decode_inert_records(file), "value"), expected, name);
    ++decoded;
  }
  EXPECT_GE(decoded, 20u);
  EXPECT_GE(undecoded, 4u);
}

TEST(InertRecords, KindsNameTheNumpyType) {
  const auto scalar = decode_inert_record(entry(load_inert(numpy_dir() / "scalar_float32.pt"), "value"));
  ASSERT_TRUE(scalar.has_value());
  EXPECT_EQ(scalar->kind, "numpy.float32");
  EXPECT_TRUE(scalar->value.isDouble());
  const auto array = decode_inert_record(entry(load_inert(numpy_dir() / "array_int32_big_endian.pt"), "value"));
  ASSERT_TRUE(array.has_value());
  EXPECT_EQ(array->kind, "numpy.ndarray");
}

TEST(InertRecords, SelfContradictingArraysAreRefusedByWhatIsWrong) {
  size_t n = 0;
  for (const auto& e : fs::directory_iterator(numpy_dir() / "bad")) {
    const IValue file = load_inert(e.path());
    const std::string words = entry(file, "error").toStringRef();
    try {
      decode_inert_records(file);
      ADD_FAILURE() << e.path() << " decoded";
    } catch (const FormatError& err) {
      EXPECT_NE(std::string(err.what()).find(words), std::string::npos) << err.what() << " lacks '" << words << "'";
    }
    ++n;
  }
  EXPECT_EQ(n, 5u);
}

TEST(InertRecords, TreesKeepWhatDidNotChangeAndShareWhatWasShared) {
  const IValue file = load_inert(numpy_dir() / "undecoded_uint16.pt");
  EXPECT_EQ(decode_inert_records(file).heapPtr(), file.heapPtr());  // nothing decoded: the same dict
  // One array under two keys decodes once, to one tensor.
  const IValue array = entry(load_inert(numpy_dir() / "array_int8.pt"), "value");
  IValue pair = IValue::tuple({array, array});
  const IValue out = decode_inert_records(IValue::list({pair, pair}));
  const auto& outer = out.listRef().elements;
  EXPECT_EQ(outer[0].heapPtr(), outer[1].heapPtr());
  const auto& inner = outer[0].tupleRef().elements;
  ASSERT_TRUE(inner[0].isTensor());
  EXPECT_EQ(inner[0].toTensor().storage().get(), inner[1].toTensor().storage().get());
}

TEST(InertRecords, DeepNestingIsALimitNotACrash) {
  IValue v = IValue(int64_t{1});
  for (int i = 0; i < 1100; ++i) v = IValue::list({v});
  EXPECT_THROW(decode_inert_records(v), LimitError);
}

TEST(InertRecords, OtherValuesAreNotRecords) {
  EXPECT_FALSE(decode_inert_record(IValue(int64_t{3})).has_value());
  EXPECT_FALSE(decode_inert_record(IValue(std::string("numpy"))).has_value());
}

}  // namespace
}  // namespace torchlet

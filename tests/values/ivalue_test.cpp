// Tests for IValue: size, refcounting, reference semantics, Python equality, repr.
#include <gtest/gtest.h>
#include <torchlet/error.h>
#include <torchlet/ivalue.h>

#include "core/python_format.h"

namespace torchlet {
namespace {

TEST(IValue, IsSixteenBytes) { EXPECT_EQ(sizeof(IValue), 16u); }

TEST(IValue, ScalarsRoundTripAndMismatchesThrowTypeError) {
  EXPECT_EQ(IValue(int64_t{1} << 40).toInt(), int64_t{1} << 40);
  EXPECT_EQ(IValue(2.5).toDouble(), 2.5);
  EXPECT_TRUE(IValue(true).toBool());
  EXPECT_EQ(IValue("hi").toStringRef(), "hi");
  EXPECT_THROW(IValue(1).toDouble(), TypeError);
  EXPECT_THROW(IValue("x").toInt(), TypeError);
}

TEST(IValue, ListsAreReferenceTypes) {
  IValue a = IValue::list({IValue(1), IValue(2)});
  IValue b = a;  // aliases
  b.listRef().elements.push_back(IValue(3));
  EXPECT_EQ(a.listRef().elements.size(), 3u);
  EXPECT_TRUE(a.is(b));
}

TEST(IValue, HeapValuesAreFreedWithTheLastReference) {
  auto list = make_intrusive<ListImpl>(std::vector<IValue>{});
  {
    IValue v(list);
    EXPECT_EQ(list.use_count(), 2u);
    IValue w = std::move(v);
    EXPECT_EQ(list.use_count(), 2u);
  }
  EXPECT_EQ(list.use_count(), 1u);
}

TEST(IValue, DictKeepsInsertionOrderAndPythonKeyEquality) {
  auto d = make_intrusive<DictImpl>();
  d->insert_or_assign(IValue("b"), IValue(1));
  d->insert_or_assign(IValue("a"), IValue(2));
  d->insert_or_assign(IValue(1), IValue(3));
  d->insert_or_assign(IValue(1.0), IValue(4));  // 1 == 1.0: same key, keeps position
  d->insert_or_assign(IValue(true), IValue(5));  // True == 1 too
  ASSERT_EQ(d->size(), 3u);
  EXPECT_EQ(IValue(d).repr(), "{'b': 1, 'a': 2, 1: 5}");
  EXPECT_TRUE(d->erase(IValue("b")));
  EXPECT_EQ(IValue(d).repr(), "{'a': 2, 1: 5}");
  EXPECT_EQ(d->find(IValue(1))->toInt(), 5);
}

TEST(IValue, EqualityFollowsPython) {
  EXPECT_EQ(IValue(1), IValue(1.0));
  EXPECT_EQ(IValue(true), IValue(1));
  EXPECT_NE(IValue("1"), IValue(1));
  EXPECT_EQ(IValue::tuple({IValue(1), IValue("a")}), IValue::tuple({IValue(1.0), IValue("a")}));
  EXPECT_NE(IValue::tuple({IValue(1)}), IValue::list({IValue(1)}));
}

TEST(IValue, UnhashableKeysAreRefused) {
  auto d = make_intrusive<DictImpl>();
  EXPECT_THROW(d->insert_or_assign(IValue::list({}), IValue(1)), TypeError);
}

TEST(IValue, ReprMatchesPython) {
  EXPECT_EQ(IValue().repr(), "None");
  EXPECT_EQ(IValue(false).repr(), "False");
  EXPECT_EQ(IValue(1.0).repr(), "1.0");
  EXPECT_EQ(IValue(1e-5).repr(), "1e-05");
  EXPECT_EQ(IValue(1e16).repr(), "1e+16");
  EXPECT_EQ(IValue(123456789.125).repr(), "123456789.125");
  EXPECT_EQ(IValue(0.1).repr(), "0.1");
  EXPECT_EQ(IValue(-0.0).repr(), "-0.0");
  EXPECT_EQ(IValue("it's").repr(), "\"it's\"");
  EXPECT_EQ(IValue("a\nb").repr(), "'a\\nb'");
  EXPECT_EQ(IValue::tuple({IValue(1)}).repr(), "(1,)");
  EXPECT_EQ(IValue(std::complex<double>(1, -2)).repr(), "(1-2j)");
  EXPECT_EQ(IValue(std::complex<double>(0, 2)).repr(), "2j");
  EXPECT_EQ(IValue(Device::parse("cuda:1")).repr(), "device(type='cuda', index=1)");
  EXPECT_EQ(IValue::bytes("ab").repr(), "b'ab'");
}

// Note [Recursion over values]: a value nested past the limit is refused by every walk
// with a LimitError (it overflowed the stack), and one that contains itself prints as
// Python prints it.
TEST(IValue, DeepAndSelfContainingValuesPrintCompareAndHashSafely) {
  auto nested = [](size_t depth) {
    IValue v = IValue::list({});
    for (size_t i = 0; i < depth; ++i) v = IValue::list({v});
    return v;
  };
  auto limit_message = [](auto&& f) -> std::string {
    try {
      f();
    } catch (const LimitError& e) {
      return e.what();
    }
    return "no LimitError";
  };
  IValue deep = nested(100'000), deep2 = nested(100'000);
  EXPECT_EQ(limit_message([&] { (void)deep.repr(); }), "printing a value: value nested deeper than 1000 levels");
  EXPECT_EQ(limit_message([&] { (void)(deep == deep2); }), "comparing values: value nested deeper than 1000 levels");
  IValue tuples = IValue::tuple({});
  for (int i = 0; i < 5000; ++i) tuples = IValue::tuple({tuples});
  EXPECT_EQ(limit_message([&] { (void)IValueHash()(tuples); }), "hashing a tuple: value nested deeper than 1000 levels");
  // Below the limit every walk completes, and a failed walk leaves no depth behind.
  EXPECT_EQ(nested(900).repr().size(), 2u * 901);
  EXPECT_TRUE(nested(900) == nested(900));

  IValue self = IValue::list({IValue(1)});
  self.listRef().elements.push_back(self);
  EXPECT_EQ(self.repr(), "[1, [...]]");
  IValue d(make_intrusive<DictImpl>());
  d.dictRef().insert_or_assign(IValue("me"), d);
  d.dictRef().insert_or_assign(IValue("list"), self);
  EXPECT_EQ(d.repr(), "{'me': {...}, 'list': [1, [...]]}");
  EXPECT_EQ(IValue::tuple({self, self}).repr(), "([1, [...]], [1, [...]])");  // siblings are not cycles
  self.listRef().elements.clear();  // break the cycles so the test does not leak them
  d.dictRef().clear();
}

TEST(IValue, BigIntPrintsDecimal) {
  // 2**64 as pickle's LONG1 little-endian two's complement: 9 bytes.
  std::string le(8, '\0');
  le.push_back('\x01');
  EXPECT_EQ(IValue(make_intrusive<BigIntImpl>(le)).repr(), "18446744073709551616");
  // -(2**64): 0x ff..ff 00 (9 bytes: 00 x8, ff)
  std::string neg(8, '\0');
  neg.push_back('\xff');
  EXPECT_EQ(IValue(make_intrusive<BigIntImpl>(neg)).repr(), "-18446744073709551616");
}

// `x` * 10 in place, little-endian bytes (the multiplication the printer never does, so
// the powers of ten below are built independently of the division that prints them).
void times_ten(std::string& le) {
  unsigned carry = 0;
  for (auto& c : le) {
    const unsigned v = static_cast<uint8_t>(c) * 10u + carry;
    c = static_cast<char>(v & 0xff);
    carry = v >> 8;
  }
  if (carry) le.push_back(static_cast<char>(carry));
}

// Two's complement negation of a non-negative little-endian value, with a sign byte.
std::string negated(std::string le) {
  le.push_back('\0');
  unsigned carry = 1;
  for (auto& c : le) {
    const unsigned v = static_cast<uint8_t>(~static_cast<uint8_t>(c)) + carry;
    c = static_cast<char>(v & 0xff);
    carry = v >> 8;
  }
  return le;
}

TEST(IValue, BigIntPrintsEveryPowerOfTenItCanPrintInDecimal) {
  std::string le("\x01", 1);
  for (size_t k = 1;; ++k) {
    times_ten(le);
    std::string ten_to_k = "1" + std::string(k, '0');
    std::string le_signed = le;
    if (static_cast<uint8_t>(le.back()) & 0x80) le_signed.push_back('\0');  // keep it positive
    if (le.size() > BigIntImpl::kMaxDecimalBytes) {
      EXPECT_EQ(IValue(make_intrusive<BigIntImpl>(le_signed)).repr().substr(0, 2), "0x");
      break;
    }
    if (k > 100 && k % 17 != 0 && le.size() < BigIntImpl::kMaxDecimalBytes) continue;  // keep it quick
    ASSERT_EQ(IValue(make_intrusive<BigIntImpl>(le_signed)).repr(), ten_to_k);
    ASSERT_EQ(IValue(make_intrusive<BigIntImpl>(negated(le))).repr(), "-" + ten_to_k);
  }
}

TEST(IValue, HugeBigIntsPrintInHexInLinearTime) {
  // 2**(8*n) for a 4 MiB n: in decimal (quadratic) this took hours; hex is the same value.
  const size_t n = size_t{4} << 20;
  std::string le(n, '\0');
  le.push_back('\x01');
  le.push_back('\0');  // sign byte: positive
  const std::string text = IValue(make_intrusive<BigIntImpl>(le)).repr();
  EXPECT_EQ(text, "0x1" + std::string(2 * n, '0'));
  EXPECT_EQ(IValue(make_intrusive<BigIntImpl>(negated(le.substr(0, n + 1)))).repr(), "-0x1" + std::string(2 * n, '0'));
  // The smallest hex case: one byte over the decimal bound, odd nibble count trimmed.
  std::string just_over(BigIntImpl::kMaxDecimalBytes, '\xff');
  just_over += "\x0a";
  just_over.push_back('\0');
  EXPECT_EQ(IValue(make_intrusive<BigIntImpl>(just_over)).repr(),
            "0xa" + std::string(2 * BigIntImpl::kMaxDecimalBytes, 'f'));
}

TEST(IValue, DeviceParsingRejectsGarbage) {
  EXPECT_EQ(Device::parse("cpu").str(), "cpu");
  EXPECT_EQ(Device::parse("cuda:0").str(), "cuda:0");
  EXPECT_THROW(Device::parse("gpu"), ValueError);
  EXPECT_THROW(Device::parse("cuda:x"), ValueError);
}

}  // namespace
}  // namespace torchlet

// Tests for the error hierarchy and check macros.
#include <set>
#include <string>

#include <gtest/gtest.h>
#include <torchlet/error.h>

namespace torchlet {
namespace {

TEST(Error, CheckThrowsTheNamedKindWithFormattedMessage) {
  try {
    TL_CHECK(1 + 1 == 3, FormatError, "record {}: expected {} bytes, found {}", "data.pkl", 8, 3);
    FAIL() << "TL_CHECK did not throw";
  } catch (const FormatError& e) {
    EXPECT_EQ(e.kind(), ErrorKind::FormatError);
    EXPECT_STREQ(e.what(), "record data.pkl: expected 8 bytes, found 3");
  }
}

TEST(Error, CheckPassesWhenConditionHolds) {
  EXPECT_NO_THROW(TL_CHECK(true, LimitError, "unused"));
}

TEST(Error, EveryKindHasADistinctPrintedName) {
  std::set<std::string> names;
#define TL_ERROR_KIND(cls, printed, why) names.insert(error_kind_name(ErrorKind::cls));
#include <torchlet/error.def>
#undef TL_ERROR_KIND
  EXPECT_EQ(names.size(), static_cast<size_t>(ErrorKind::InternalError) + 1);
}

TEST(Error, InternalAssertThrowsInternalError) {
  EXPECT_THROW(TL_INTERNAL_ASSERT(false, "invariant"), InternalError);
}

}  // namespace
}  // namespace torchlet

// The pickler on values no file produced: nesting deeper than it will recurse is
// refused with a LimitError instead of overflowing the stack; ordinary depths
// round-trip.
#include <gtest/gtest.h>
#include <torchlet/error.h>

#include "pickle/pickler.h"
#include "pickle/unpickler.h"

namespace torchlet::pickle {
namespace {

IValue nested_lists(int depth) {
  IValue v = IValue::list({});
  for (int i = 0; i < depth; ++i) v = IValue::list({v});
  return v;
}

TEST(PicklerLimits, DeepValuesAreRefusedNotOverflowed) {
  IValue deep = nested_lists(100000);
  EXPECT_THROW((void)pickle(deep, {}), LimitError);
  IValue fine = nested_lists(500);
  std::string bytes = pickle(fine, {});
  IValue back = unpickle(std::as_bytes(std::span<const char>(bytes.data(), bytes.size())), {}, "t");
  EXPECT_EQ(back.repr(), fine.repr());
}

}  // namespace
}  // namespace torchlet::pickle

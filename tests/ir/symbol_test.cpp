// Symbols: the symbols.def constants agree with interning by name, names are unique,
// and interned symbols split into namespace and name.
#include <set>

#include <gtest/gtest.h>
#include <torchlet/error.h>

#include "jit/ir/symbol.h"

namespace torchlet::jit {
namespace {

TEST(Symbol, TableRowsRoundTrip) {
  std::set<std::string> seen;
#define TL_SYMBOL(ns_, name_)                                                   \
  EXPECT_EQ(Symbol::from_qual_string(#ns_ "::" #name_), sym::ns_##_##name_);   \
  EXPECT_EQ(sym::ns_##_##name_.qual_string(), #ns_ "::" #name_);               \
  EXPECT_TRUE(seen.insert(#ns_ "::" #name_).second) << "duplicate " #ns_ "::" #name_;
#include "jit/ir/symbols.def"
#undef TL_SYMBOL
  EXPECT_GT(seen.size(), 10u);
}

TEST(Symbol, InternsOnDemand) {
  Symbol s = Symbol::from_qual_string("aten::conv2d");
  EXPECT_EQ(s, Symbol::make("aten", "conv2d"));
  EXPECT_EQ(s.ns(), "aten");
  EXPECT_EQ(s.name(), "conv2d");
  EXPECT_NE(s, sym::aten_add);
  EXPECT_EQ(Symbol::from_qual_string("my_ns::op").ns(), "my_ns");
  EXPECT_EQ(Symbol().id(), 0u);
  EXPECT_THROW(Symbol::from_qual_string("noseparator"), CompileError);
  EXPECT_THROW(Symbol::from_qual_string("::x"), CompileError);
}

}  // namespace
}  // namespace torchlet::jit

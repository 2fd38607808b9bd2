// Crafted pickles beyond the checkpoint fixtures' set (issue 8's smuggling forms):
// each is refused with an error naming the problem, and nothing outside the
// allowlist is ever built.
#include <gtest/gtest.h>
#include <torchlet/error.h>

#include "pickle/unpickler.h"

namespace torchlet::pickle {
namespace {

using namespace std::string_literals;

IValue load(const std::string& s) {
  return unpickle(std::as_bytes(std::span<const char>(s.data(), s.size())), {}, "t.pkl");
}

template <typename Kind>
void expect_refused(const std::string& pickle, const std::string& needle) {
  try {
    (void)load(pickle);
    ADD_FAILURE() << "accepted; expected: " << needle;
  } catch (const Kind& e) {
    EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
  }
}

TEST(HostilePickles, UnhashableSetItemsAreRefused) {
  // EMPTY_SET, MARK, EMPTY_LIST, ADDITEMS: Python raises TypeError (unhashable).
  expect_refused<FormatError>("\x80\x04\x8f(]\x90."s, "unhashable");
  expect_refused<FormatError>("\x80\x04(}\x91."s, "unhashable");  // FROZENSET of a dict
}

TEST(HostilePickles, FramesLongerThanTheStreamAreRefused) {
  expect_refused<FormatError>("\x80\x04\x95\xff\xff\xff\xff\xff\xff\xff\x7fN."s,
                              "FRAME at offset 2 declares 9223372036854775807 bytes");
  // A frame that fits is accepted.
  EXPECT_TRUE(load("\x80\x04\x95\x02\x00\x00\x00\x00\x00\x00\x00N."s).isNone());
}

TEST(HostilePickles, SmugglingFormsNameTheGlobal) {
  // NEWOBJ_EX of os.system built by STACK_GLOBAL from memoized strings.
  expect_refused<UnsafeGlobalError>("\x80\x04\x8c\x02os\x94\x8c\x06system\x94h\x00h\x01\x93)}\x92."s,
                                    "'os.system'");
  // GLOBAL whose name carries a NUL then more text: refused as the whole text, shown
  // escaped so the message is not cut short at the NUL.
  expect_refused<UnsafeGlobalError>("\x80\x02" "ctorch._utils\n_rebuild_tensor_v2\x00os\nsystem\n."s,
                                    "'torch._utils._rebuild_tensor_v2\\x00os', which is not in the allowlist");
  // INST naming subprocess.
  expect_refused<UnsafeGlobalError>("(S'x'\nisubprocess\ncall\n."s, "'subprocess.call'");
}

TEST(HostilePickles, AllowedCallablesRejectHostileArguments) {
  expect_refused<FormatError>("\x80\x02" "c_codecs\nencode\nX\x01\x00\x00\x00" "aX\x05\x00\x00\x00rot13\x86R."s,
                              "encode(str, 'latin1')");
  expect_refused<FormatError>("\x80\x02" "ccollections\nOrderedDict\nK\x01\x85R."s,
                              "OrderedDict argument is a int");
  expect_refused<FormatError>("\x80\x02" "ccollections\nOrderedDict\n)R]b."s,
                              "BUILD on an OrderedDict with a List state");
  expect_refused<FormatError>("\x80\x02" "ctorch\nfloat32\n)R."s, "is not callable");
  expect_refused<FormatError>("\x80\x02" "ctorch\nSize\nX\x01\x00\x00\x00x\x85\x85R."s,
                              "torch.Size element is a str");
  expect_refused<FormatError>("\x80\x02Pfoo\n."s, "has no storages");  // PERSID text form
}

}  // namespace
}  // namespace torchlet::pickle

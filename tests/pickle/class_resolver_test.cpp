// The unpickler's class-resolver hook, which the TorchScript importer uses for the
// `__torch__.*` classes of an archive: objects are built from BUILD's state, memo
// references see the built object, and anything the resolver declines is still
// refused by name before it is built.
#include <gtest/gtest.h>
#include <torchlet/error.h>
#include <torchlet/tensor.h>

#include "pickle/unpickler.h"

namespace torchlet::pickle {
namespace {

using namespace std::string_literals;

std::span<const std::byte> bytes_of(const std::string& s) {
  return std::as_bytes(std::span<const char>(s.data(), s.size()));
}

// data.pkl of torch.jit.save(torch.jit.script(M())) from torch 1.13, where M holds a
// Parameter w = ones(2), n = 7 and a submodule a = Sub() with k = 3 (both script
// modules: GLOBAL '__torch__ M', EMPTY_TUPLE, NEWOBJ, {attributes}, BUILD).
const std::string kScriptModulePickle =
    "\x80\x02" "c__torch__\nM\nq\x00)\x81}(X\x01\x00\x00\x00wq\x01" "ctorch._utils\n_rebuild_tensor_v2\n"
    "q\x02((X\x07\x00\x00\x00storageq\x03" "ctorch\nFloatStorage\nq\x04X\x01\x00\x00\x00" "0q\x05"
    "X\x03\x00\x00\x00" "cpuq\x06K\x02tQq\x07K\x00(K\x02t(K\x01t\x88" "ccollections\nOrderedDict\n"
    "q\x08)RtRq\tX\x08\x00\x00\x00trainingq\n\x88X\x16\x00\x00\x00_is_full_backward_hookq\x0bN"
    "X\x01\x00\x00\x00nq\x0cK\x07X\x01\x00\x00\x00" "aq\rc__torch__\nSub\nq\x0e)\x81}(h\n\x88h\x0bN"
    "X\x01\x00\x00\x00kq\x0fK\x03ubq\x10ubq\x11."s;

const IValue& item(const DictImpl& d, const char* key) {
  const IValue* v = d.find(IValue(key));
  if (v == nullptr) throw std::runtime_error(std::string("missing key ") + key);
  return *v;
}

// A stand-in for the importer's objects: (qualified class name, state).
ResolvedGlobal script_class(const std::string& qualified) {
  ResolvedGlobal g;
  g.build = [qualified](IValue state) { return IValue::tuple({IValue(qualified), std::move(state)}); };
  return g;
}

UnpicklerOptions script_options(std::vector<std::string>* asked) {
  UnpicklerOptions opt;
  opt.class_resolver = [asked](const std::string& module, const std::string& name) -> std::optional<ResolvedGlobal> {
    asked->push_back(module + "." + name);
    if (!module.starts_with("__torch__")) return std::nullopt;
    return script_class(module + "." + name);
  };
  opt.persistent_load = [](const IValue&) { return IValue(ones({2})); };
  return opt;
}

TEST(ClassResolver, BuildsTorchScriptObjectsFromTheirState) {
  std::vector<std::string> asked;
  IValue v = unpickle(bytes_of(kScriptModulePickle), script_options(&asked), "data.pkl");
  // Allowlisted globals never reach the resolver; the two script classes do.
  EXPECT_EQ(asked, (std::vector<std::string>{"__torch__.M", "__torch__.Sub"}));
  ASSERT_TRUE(v.isTuple());
  EXPECT_EQ(v.tupleRef().elements[0].toStringRef(), "__torch__.M");
  const DictImpl& attrs = v.tupleRef().elements[1].dictRef();
  EXPECT_EQ(item(attrs, "n").toInt(), 7);
  EXPECT_TRUE(item(attrs, "w").isTensor());
  EXPECT_TRUE(item(attrs, "w").toTensor().requires_grad());
  const IValue& sub = item(attrs, "a");
  ASSERT_TRUE(sub.isTuple());
  EXPECT_EQ(sub.tupleRef().elements[0].toStringRef(), "__torch__.Sub");
  EXPECT_EQ(item(sub.tupleRef().elements[1].dictRef(), "k").toInt(), 3);
}

TEST(ClassResolver, MemoReferencesSeeTheBuiltObject) {
  // [obj, obj]: the instance is memoized before BUILD (as Python's pickler does) and
  // fetched again after it; both list items must be the one built object.
  std::string p = "\x80\x02]q\x00(c__torch__\nC\n)\x81q\x01}X\x01\x00\x00\x00xK\x05sbh\x01" "e."s;
  std::vector<std::string> asked;
  IValue v = unpickle(bytes_of(p), script_options(&asked), "data.pkl");
  const auto& items = v.listRef().elements;
  ASSERT_EQ(items.size(), 2u);
  ASSERT_TRUE(items[0].isTuple());
  EXPECT_TRUE(items[0].is(items[1]));
  EXPECT_EQ(items[0].tupleRef().elements[1].repr(), "{'x': 5}");
}

TEST(ClassResolver, FunctionsAreCalledWithTheirArguments) {
  UnpicklerOptions opt;
  opt.class_resolver = [](const std::string& module, const std::string& name) -> std::optional<ResolvedGlobal> {
    if (module != "torch.jit._pickle" || name != "build_intlist") return std::nullopt;
    ResolvedGlobal g;
    g.call = [](const IValue& args) { return args.tupleRef().elements.at(0); };
    return g;
  };
  IValue v = unpickle(bytes_of("\x80\x02" "ctorch.jit._pickle\nbuild_intlist\n](K\x01K\x02" "e\x85R."s), opt, "t");
  EXPECT_EQ(v.repr(), "[1, 2]");
}

TEST(ClassResolver, DeclinedGlobalsAreRefusedByNameAndMisuseIsAnError) {
  std::vector<std::string> asked;
  auto opt = script_options(&asked);
  try {
    (void)unpickle(bytes_of("\x80\x02" "cos\nsystem\nX\x02\x00\x00\x00ls\x85R."s), opt, "t");
    ADD_FAILURE() << "os.system accepted";
  } catch (const UnsafeGlobalError& e) {
    EXPECT_NE(std::string(e.what()).find("'os.system'"), std::string::npos) << e.what();
  }
  // A class instance never given its state, and a class called with arguments.
  EXPECT_THROW((void)unpickle(bytes_of("\x80\x02" "c__torch__\nC\n)\x81."s), opt, "t"), FormatError);
  EXPECT_THROW((void)unpickle(bytes_of("\x80\x02" "c__torch__\nC\nK\x01\x85R."s), opt, "t"), FormatError);
  // scan reports the resolver's globals as allowed.
  std::vector<GlobalUse> seen;
  opt.globals_seen = &seen;
  (void)unpickle(bytes_of(kScriptModulePickle), opt, "t");
  ASSERT_FALSE(seen.empty());
  EXPECT_EQ(seen.front().module, "__torch__");
  EXPECT_TRUE(seen.front().allowed);
}

}  // namespace
}  // namespace torchlet::pickle

// Tensor rebuilders beyond _rebuild_tensor_v2, on pickles torch 1.13 wrote:
// _rebuild_from_type_v2 loads plain tensors, and subclasses and quantized tensors are
// refused with an error naming what is missing (not as an unknown global).
#include <gtest/gtest.h>
#include <torchlet/error.h>
#include <torchlet/tensor.h>

#include "pickle/unpickler.h"

namespace torchlet::pickle {
namespace {

using namespace std::string_literals;

IValue load(const std::string& s, bool inert = false) {
  UnpicklerOptions opt;
  opt.inert_unknown_globals = inert;
  opt.persistent_load = [](const IValue&) { return IValue(arange(4, DType::Float)); };
  return unpickle(std::as_bytes(std::span<const char>(s.data(), s.size())), opt, "data.pkl");
}

// {'t': arange(4.)} reduced through _rebuild_from_type_v2(_rebuild_tensor_v2, torch.Tensor, args, {}).
const std::string kFromTypePlain =
    "\x80\x02}q\x00X\x01\x00\x00\x00tq\x01" "ctorch._tensor\n_rebuild_from_type_v2\nq\x02("
    "ctorch._utils\n_rebuild_tensor_v2\nq\x03" "ctorch\nTensor\nq\x04((X\x07\x00\x00\x00storageq\x05"
    "ctorch\nFloatStorage\nq\x06X\x01\x00\x00\x00" "0q\x07X\x03\x00\x00\x00" "cpuq\x08K\x04tq\tQK\x00K\x04"
    "\x85q\nK\x01\x85q\x0b\x89" "ccollections\nOrderedDict\nq\x0c)Rq\rtq\x0e}q\x0ftq\x10Rq\x11s."s;

// torch.save({'m': torch.ones(2).as_subclass(Sub)}) with class Sub(torch.Tensor) in __main__.
const std::string kFromTypeSubclass =
    "\x80\x02}q\x00X\x01\x00\x00\x00mq\x01" "ctorch._tensor\n_rebuild_from_type_v2\nq\x02("
    "ctorch._utils\n_rebuild_tensor_v2\nq\x03" "c__main__\nSub\nq\x04((X\x07\x00\x00\x00storageq\x05"
    "ctorch\nFloatStorage\nq\x06X\x01\x00\x00\x00" "0q\x07X\x03\x00\x00\x00" "cpuq\x08K\x02tq\tQK\x00K\x02"
    "\x85q\nK\x01\x85q\x0b\x89" "ccollections\nOrderedDict\nq\x0c)Rq\rtq\x0eNtq\x0fRq\x10s."s;

// torch.save({'x': torch.quantize_per_tensor(torch.zeros(2), 0.1, 0, torch.qint8)}).
const std::string kQuantized =
    "\x80\x02}q\x00X\x01\x00\x00\x00xq\x01" "ctorch._utils\n_rebuild_qtensor\nq\x02((X\x07\x00\x00\x00storageq\x03"
    "ctorch\nQInt8Storage\nq\x04X\x01\x00\x00\x00" "0q\x05X\x03\x00\x00\x00" "cpuq\x06K\x02tq\x07QK\x00K\x02"
    "\x85q\x08K\x01\x85q\t" "ctorch\nper_tensor_affine\nq\nG?\xb9\x99\x99\x99\x99\x99\x9aK\x00\x87q\x0b\x89"
    "ccollections\nOrderedDict\nq\x0c)Rq\rtq\x0eRq\x0fs."s;

TEST(Rebuild, FromTypeV2LoadsPlainTensors) {
  IValue v = load(kFromTypePlain);
  const IValue* t = v.dictRef().find(IValue("t"));
  ASSERT_TRUE(t && t->isTensor());
  EXPECT_EQ(t->toTensor().sizes()[0], 4);
  EXPECT_FALSE(t->toTensor().requires_grad());
}

TEST(Rebuild, SubclassesAreRefusedByName) {
  try {
    (void)load(kFromTypeSubclass);
    ADD_FAILURE() << "subclass accepted";
  } catch (const UnsafeGlobalError& e) {
    EXPECT_NE(std::string(e.what()).find("'__main__.Sub'"), std::string::npos) << e.what();
  }
  // Inert mode records the class but still cannot make a tensor of it.
  try {
    (void)load(kFromTypeSubclass, /*inert=*/true);
    ADD_FAILURE() << "subclass accepted in inert mode";
  } catch (const UnsupportedError& e) {
    EXPECT_NE(std::string(e.what()).find("subclass __main__.Sub"), std::string::npos) << e.what();
  }
}

TEST(Rebuild, QuantizedTensorsAreNamedAsUnsupported) {
  try {
    (void)load(kQuantized);
    ADD_FAILURE() << "quantized tensor accepted";
  } catch (const UnsupportedError& e) {
    EXPECT_NE(std::string(e.what()).find("quantized tensors are not supported"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace torchlet::pickle

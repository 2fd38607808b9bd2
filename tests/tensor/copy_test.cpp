// copy_, fill_, to, contiguous, clone, item and at: strided layouts, broadcasting,
// aliasing through views, and torch's refusals (overlap, shape, range) by kind and text.
#include <cmath>
#include <complex>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <torchlet/error.h>
#include <torchlet/tensor.h>

namespace torchlet {
namespace {

// Expects `fn` to throw exception type E whose message contains `text`.
template <typename E, typename Fn>
void expect_error(Fn&& fn, const std::string& text) {
  try {
    fn();
    ADD_FAILURE() << "expected an error containing: " << text;
  } catch (const E& e) {
    EXPECT_NE(std::string(e.what()).find(text), std::string::npos) << e.what();
  }
}

TEST(TensorCopy, IntoATransposedViewOfAnotherDType) {
  Tensor base = zeros({3, 2}, DType::Double);
  Tensor dst = base.t();  // [2, 3], strides [1, 2]
  Tensor src = arange(6, DType::Int).view({2, 3});
  dst.copy_(src);
  for (int64_t i = 0; i < 2; ++i) {
    for (int64_t j = 0; j < 3; ++j) {
      EXPECT_EQ(base.at({j, i}).to_double(), double(i * 3 + j)) << i << "," << j;
    }
  }
}

// A file can hold bool bytes other than 0 and 1 (the fuzzer made one); torch converts
// every nonzero byte as True, and reading one as C++ bool would be undefined.
TEST(TensorCopy, BoolBytesOtherThanZeroAndOneConvertAsTrue) {
  std::vector<uint8_t> bytes = {52, 0, 1, 255};
  Tensor flags = from_blob(bytes.data(), {4}, DType::Bool);
  for (DType to : {DType::Double, DType::Float, DType::Long, DType::Byte, DType::Half}) {
    Tensor converted = flags.to(to);
    for (int64_t i = 0; i < 4; ++i) {
      EXPECT_EQ(converted.at({i}).to_double(), bytes[static_cast<size_t>(i)] != 0 ? 1.0 : 0.0)
          << dtype_name(to) << " " << i;
    }
  }
  Tensor strided = from_blob(bytes.data(), {2}, {2}, DType::Bool).to(DType::Int);
  EXPECT_EQ(strided.at({0}).to_double(), 1.0);
  EXPECT_EQ(strided.at({1}).to_double(), 1.0);
}

TEST(TensorCopy, BroadcastsARowIntoEveryRowOfASlice) {
  Tensor base = zeros({4, 5}, DType::Long);
  Tensor window = base.slice(0, 1, 3).slice(1, 1, 4);  // base[1:3, 1:4]
  window.copy_(tensor<int64_t>({7, 8, 9}));
  std::vector<int64_t> want = {0, 0, 0, 0, 0,  //
                               0, 7, 8, 9, 0,  //
                               0, 7, 8, 9, 0,  //
                               0, 0, 0, 0, 0};
  EXPECT_EQ(base.to_vector<int64_t>(), want);
  Tensor column = zeros({3, 1}, DType::Float);
  Tensor grid = zeros({3, 4}, DType::Float);
  column.select(1, 0).copy_(tensor<float>({1, 2, 3}));
  grid.copy_(column);  // [3, 1] -> [3, 4]
  EXPECT_EQ(grid.to_vector<float>(), (std::vector<float>{1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3}));
}

TEST(TensorCopy, WritesThroughEveryKindOfViewReachTheBase) {
  Tensor base = zeros({2, 3, 4}, DType::Float);
  base.permute({2, 0, 1}).select(0, 3).fill_(1);   // base[:, :, 3]
  base.select(1, 0).narrow(1, 0, 2).fill_(2);       // base[:, 0, 0:2]
  base.view({6, 4}).slice(0, 5, 6).fill_(3);        // base[1, 2, :]
  base.flatten().slice(0, 0, 24, 11).fill_(4);      // flat 0, 11, 22
  std::vector<float> want = {4, 2, 0, 1, 0, 0, 0, 1, 0, 0, 0, 4,  //
                             2, 2, 0, 1, 0, 0, 0, 1, 3, 3, 4, 3};
  EXPECT_EQ(base.to_vector<float>(), want);
}

TEST(TensorCopy, TiledTransposeCopiesEveryElementOnce) {
  // Sizes that are not multiples of the tile, both directions, and a wide element type.
  for (DType d : {DType::Long, DType::ComplexDouble, DType::Half, DType::Bool}) {
    Tensor src = arange(130 * 77, DType::Long).view({130, 77}).to(d);
    Tensor made = src.t().contiguous();  // gather along the source's columns
    Tensor into = zeros({77, 130}, d);
    into.t().copy_(src);  // scatter into a transposed destination
    Tensor want = src.to(DType::Long);
    Tensor got1 = made.to(DType::Long), got2 = into.to(DType::Long);
    int64_t mismatches = 0;
    for (int64_t i = 0; i < 130; ++i) {
      for (int64_t j = 0; j < 77; ++j) {
        int64_t w = want.at({i, j}).to_int();
        mismatches += got1.at({j, i}).to_int() != w;
        mismatches += got2.at({j, i}).to_int() != w;
      }
    }
    EXPECT_EQ(mismatches, 0) << dtype_name(d);
  }
}

// Note [transpose copy] and the same-dtype run loop move elements by size (1, 2, 4, 8
// and 16 bytes), through unpack blocks whose edges are copied element by element. Each
// dtype gets values it holds exactly, distinct within the dtype's exact range.
int64_t value_modulus(DType d) {
  switch (d) {
    case DType::Bool: return 2;
    case DType::Byte:
    case DType::BFloat16: return 251;
    case DType::Half: return 2039;
    case DType::Short: return 30011;
    default: return int64_t{1} << 20;
  }
}

// A flat tensor of d holding `values` (their residues), after `offset` leading elements,
// so views of it start at every alignment.
struct Base {
  std::vector<int64_t> values;  // what each storage element holds, as int64
  Tensor flat;
};
Base make_base(int64_t n, int64_t offset, DType d) {
  Base b;
  for (int64_t i = 0; i < n + offset; ++i) b.values.push_back((i * 7 + 3) % value_modulus(d));
  b.flat = tensor<int64_t>(b.values).to(d);
  return b;
}

// The elements of view `t` of `base`, row-major, read from the values by t's offset and
// strides (no copy_ involved).
std::vector<int64_t> elements_of(const Base& base, const Tensor& t) {
  std::vector<int64_t> out;
  std::vector<int64_t> idx(static_cast<size_t>(t.dim()), 0);
  for (int64_t k = 0; k < t.numel(); ++k) {
    int64_t off = t.storage_offset();
    for (int64_t d = 0; d < t.dim(); ++d) off += idx[static_cast<size_t>(d)] * t.stride(d);
    out.push_back(base.values[static_cast<size_t>(off)]);
    for (int64_t d = t.dim(); d-- > 0;) {
      if (++idx[static_cast<size_t>(d)] < t.size(d)) break;
      idx[static_cast<size_t>(d)] = 0;
    }
  }
  return out;
}

const DType kEverySize[] = {DType::Bool,  DType::Byte,   DType::Short,  DType::Half,         DType::BFloat16,
                            DType::Int,   DType::Float,  DType::Long,   DType::Double,       DType::ComplexFloat,
                            DType::ComplexDouble};

TEST(TensorCopy, TransposeCopiesEveryDTypeSizeShapeAndOffset) {
  // Square and odd shapes, sizes that are not multiples of the unpack block or the
  // tile, and shapes too small or thin for the transpose path.
  const std::pair<int64_t, int64_t> shapes[] = {{8, 8},   {9, 13},  {31, 33}, {64, 64},
                                                {100, 37}, {130, 77}, {5, 200}, {200, 7}};
  for (DType d : kEverySize) {
    for (auto [rows, cols] : shapes) {
      for (int64_t offset : {0, 1, 3}) {
        Base base = make_base(rows * cols, offset, d);
        Tensor src = base.flat.narrow(0, offset, rows * cols).view({rows, cols});
        Tensor made = src.t().contiguous();
        EXPECT_EQ(made.to_vector<int64_t>(), elements_of(base, src.t()))
            << dtype_name(d) << " " << rows << "x" << cols << " offset " << offset;
        // A transposed destination: the same layout seen from the other side.
        Base into = make_base(rows * cols, offset, d);
        Tensor dst = into.flat.narrow(0, offset, rows * cols).view({cols, rows});
        dst.t().copy_(src);
        EXPECT_EQ(dst.to_vector<int64_t>(), elements_of(base, src.t()))
            << dtype_name(d) << " into " << rows << "x" << cols << " offset " << offset;
      }
    }
  }
}

TEST(TensorCopy, PermutedCopiesOfEveryDTypeSize) {
  // Batched transposes (the outer dimension walked around the 2-d one), NCHW -> NHWC,
  // attention heads split (contiguous runs of 11 elements), and a strided source.
  for (DType d : kEverySize) {
    Base b3 = make_base(3 * 19 * 21, 1, d);
    Tensor t3 = b3.flat.narrow(0, 1, 3 * 19 * 21).view({3, 19, 21});
    EXPECT_EQ(t3.permute({0, 2, 1}).contiguous().to_vector<int64_t>(), elements_of(b3, t3.permute({0, 2, 1})))
        << dtype_name(d);
    Base b4 = make_base(2 * 10 * 9 * 11, 0, d);
    Tensor nchw = b4.flat.view({2, 10, 9, 11});
    EXPECT_EQ(nchw.permute({0, 2, 3, 1}).contiguous().to_vector<int64_t>(),
              elements_of(b4, nchw.permute({0, 2, 3, 1})))
        << dtype_name(d);
    EXPECT_EQ(nchw.permute({0, 2, 1, 3}).contiguous().to_vector<int64_t>(),
              elements_of(b4, nchw.permute({0, 2, 1, 3})))
        << dtype_name(d);
    Tensor stepped = b4.flat.view({20, 99}).slice(1, 0, 99, 3);  // [20, 33], strides [99, 3]
    EXPECT_EQ(stepped.contiguous().to_vector<int64_t>(), elements_of(b4, stepped)) << dtype_name(d);
    EXPECT_EQ(stepped.t().contiguous().to_vector<int64_t>(), elements_of(b4, stepped.t())) << dtype_name(d);
  }
}

TEST(TensorCopy, NonOverlappingStridedCopyWithinOneStorageIsAllowed) {
  Tensor t = arange(6, DType::Float);
  t.slice(0, 0, 6, 2).copy_(t.slice(0, 1, 6, 2));  // t[::2] = t[1::2]
  EXPECT_EQ(t.to_vector<float>(), (std::vector<float>{1, 1, 3, 3, 5, 5}));
  Tensor u = arange(6, DType::Float);
  u.slice(0, 0, 3).copy_(u.slice(0, 3, 6));  // disjoint halves
  EXPECT_EQ(u.to_vector<float>(), (std::vector<float>{3, 4, 5, 3, 4, 5}));
  Tensor w = arange(6, DType::Float);
  w.copy_(w.view({2, 3}).flatten());  // the same memory, same strides: a no-op
  EXPECT_EQ(w.to_vector<float>(), (std::vector<float>{0, 1, 2, 3, 4, 5}));
}

TEST(TensorCopy, RefusesOverlapAndShapeMismatchLikeTorch) {
  Tensor t = arange(6, DType::Float);
  expect_error<ValueError>([&] { t.slice(0, 1).copy_(t.slice(0, 0, 5)); },
                           "some elements of the input tensor and the written-to tensor refer "
                           "to a single memory location");
  expect_error<ValueError>([&] { t.view({2, 3}).t().copy_(t.view({3, 2})); },
                           "some elements of the input tensor");
  expect_error<ValueError>([&] { zeros({3}).expand({2, 3}).copy_(ones({2, 3})); },
                           "more than one element of the written-to tensor refers to a single "
                           "memory location");
  expect_error<ValueError>([&] { zeros({2}).copy_(zeros({3})); },
                           "The size of tensor a (2) must match the size of tensor b (3) at "
                           "non-singleton dimension 0");
  expect_error<ValueError>([&] { zeros({2, 3}).copy_(zeros({4, 1, 3})); },
                           "output with shape [2, 3] doesn't match the broadcast shape [4, 2, 3]");
  // fill_ of an expanded tensor is fine in torch: every alias gets the same value.
  Tensor row = zeros({3});
  row.expand({2, 3}).fill_(5);
  EXPECT_EQ(row.to_vector<float>(), (std::vector<float>{5, 5, 5}));
}

TEST(TensorCopy, FillChecksTheValueAgainstTheDType) {
  Tensor u8 = zeros({2}, DType::Byte);
  u8.fill_(-1);
  EXPECT_EQ(u8.to_vector<int64_t>(), (std::vector<int64_t>{255, 255}));
  expect_error<ValueError>([&] { u8.fill_(300); },
                           "value cannot be converted to type uint8_t without overflow");
  expect_error<ValueError>([&] { zeros({2}).fill_(Scalar(std::complex<double>(1, 1))); },
                           "value cannot be converted to type float without overflow");
  // complex32 tensors of more than one element fill unchecked in torch 1.13.
  Tensor c32 = zeros({2}, DType::ComplexHalf);
  c32.fill_(70000.0);
  EXPECT_TRUE(std::isinf(c32.to_vector<std::complex<float>>()[0].real()));
  expect_error<ValueError>([&] { zeros({1}, DType::ComplexHalf).fill_(70000.0); },
                           "c10::complex<c10::Half>");
}

TEST(TensorCopy, ToContiguousAndCloneShareOnlyWhenTorchDoes) {
  Tensor t = arange(6, DType::Float).view({2, 3});
  EXPECT_TRUE(t.to(DType::Float).is_same(t));
  EXPECT_FALSE(t.to(DType::Float, /*copy=*/true).shares_storage(t));
  EXPECT_TRUE(t.contiguous().is_same(t));
  Tensor tt = t.t();
  Tensor c = tt.contiguous();
  EXPECT_FALSE(c.shares_storage(t));
  EXPECT_EQ(c.to_vector<float>(), (std::vector<float>{0, 3, 1, 4, 2, 5}));
  t.set_requires_grad(true);
  Tensor k = t.clone();
  EXPECT_TRUE(k.requires_grad());
  EXPECT_TRUE(k.is_contiguous());
  EXPECT_FALSE(k.shares_storage(t));
  Tensor d = tt.to(DType::Half);
  EXPECT_EQ(d.dtype(), DType::Half);
  EXPECT_EQ(d.to_vector<float>(), (std::vector<float>{0, 3, 1, 4, 2, 5}));
}

TEST(TensorCopy, ItemAndAtReadOneElement) {
  Tensor t = arange(6, DType::Short).view({2, 3});
  EXPECT_EQ(t.at({1, -1}).to_int(), 5);
  EXPECT_TRUE(t.at({0, 0}).is_integral());
  EXPECT_EQ(full({}, true).item().repr(), "True");
  EXPECT_EQ(scalar_tensor(2.5, DType::Half).item().repr(), "2.5");
  EXPECT_EQ(full({1, 1}, Scalar(std::complex<double>(1, -2))).item().repr(), "(1-2j)");
  expect_error<ValueError>([&] { t.item(); }, "a Tensor with 6 elements cannot be converted to Scalar");
  expect_error<IndexError>([&] { t.at({2, 0}); },
                           "index 2 is out of bounds for dimension 0 with size 2");
  expect_error<IndexError>([&] { t.at({0}); }, "expected 2 indices, got 1");
}

TEST(TensorCopy, EveryDTypePairRoundTripsSmallIntegers) {
  // Values every dtype holds exactly survive any conversion chain; the oracle test
  // covers the lossy cases bit for bit.
  std::vector<DType> all;
  for (int i = 0; i < kNumDTypes; ++i) {
    auto d = static_cast<DType>(i);
    if (!is_quantized(d)) all.push_back(d);
  }
  Tensor src = tensor<int64_t>({0, 1, 0, 1, 1}).view({5, 1}).expand({5, 2}).t();
  for (DType a : all) {
    for (DType b : all) {
      Tensor out = src.to(a).to(b).to(DType::Long);
      EXPECT_EQ(out.to_vector<int64_t>(), src.contiguous().to_vector<int64_t>())
          << dtype_name(a) << " -> " << dtype_name(b);
    }
  }
}

}  // namespace
}  // namespace torchlet

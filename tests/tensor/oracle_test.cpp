// Tensor core checked against values real PyTorch produced (tests/fixtures/gen_tensor.py):
// promotion, result_type (two and three participants), every dtype conversion pair,
// printing, and factories bit for bit with their errors.
#include <cmath>
#include <cstring>

#include <gtest/gtest.h>
#include <torchlet/error.h>
#include <torchlet/tensor.h>

#include "../common/fixtures.h"

namespace torchlet {
namespace {

using testing::fixture_lines;
using testing::from_hex;
using testing::split;
using testing::to_hex;

DType dtype_named(const std::string& n) {
  auto d = dtype_from_name(n);
  if (!d) ADD_FAILURE() << "unknown dtype in fixture: " << n;
  return d.value_or(DType::Float);
}

Shape parse_shape(const std::string& s) {
  Shape out;
  for (const auto& part : split(s, ',')) {
    if (!part.empty()) out.push_back(std::stoll(part));
  }
  return out;
}

Tensor tensor_from_bytes(DType dtype, const Shape& shape, const std::string& hex) {
  Tensor t = empty(shape, dtype);
  auto bytes = from_hex(hex);
  EXPECT_EQ(bytes.size(), t.nbytes());
  if (!bytes.empty()) std::memcpy(t.data_ptr(), bytes.data(), std::min(bytes.size(), t.nbytes()));
  return t;
}

std::string hex_of(const Tensor& t) {
  Tensor c = t.contiguous();
  return to_hex(c.data_ptr(), c.nbytes());
}

TEST(TensorOracle, PromoteTypesMatchesTorch) {
  auto lines = fixture_lines("tensor/promotion.txt");
  for (const auto& line : lines) {
    auto f = split(line, ' ');
    ASSERT_GE(f.size(), 3u) << line;
    DType a = dtype_named(f[0]), b = dtype_named(f[1]);
    if (f[2] == "error") {
      std::string message = line.substr(line.find(" error ") + 7);
      try {
        promote_types(a, b);
        ADD_FAILURE() << line << ": torchlet accepted it";
      } catch (const TypeError& e) {
        EXPECT_EQ(std::string(e.what()).find(message) != std::string::npos, true)
            << e.what() << "\nexpected: " << message;
      }
    } else {
      EXPECT_EQ(dtype_name(promote_types(a, b)), f[2]) << line;
    }
  }
}

TEST(TensorOracle, BroadcastShapesMatchTorch) {
  auto lines = fixture_lines("tensor/broadcast.txt");
  for (const auto& line : lines) {
    auto f = split(line, '|');
    ASSERT_EQ(f.size(), 3u) << line;
    Shape a = parse_shape(f[0]), b = parse_shape(f[1]);
    if (f[2] == "error") {
      EXPECT_THROW(broadcast_shapes(a, b), ValueError) << line;
    } else {
      EXPECT_EQ(shape_repr(broadcast_shapes(a, b)), shape_repr(parse_shape(f[2]))) << line;
    }
  }
}

TEST(TensorOracle, ResultTypeMatchesTorch) {
  auto lines = fixture_lines("tensor/result_type.txt");
  for (const auto& line : lines) {
    auto f = split(line, ' ');
    ASSERT_EQ(f.size(), 4u) << line;
    ResultTypeState state;
    for (int i = 0; i < 2; ++i) {
      std::string kind = f[i].substr(0, 1), what = f[i].substr(2);
      if (kind == "S") {
        if (what == "bool") state.add(Scalar(true));
        else if (what == "int") state.add(Scalar(2));
        else if (what == "float") state.add(Scalar(2.5));
        else state.add(Scalar(std::complex<double>(1, 2)));
      } else {
        state.add(zeros(kind == "T" ? Shape{2} : Shape{}, dtype_named(what)));
      }
    }
    EXPECT_EQ(dtype_name(state.result()), f[3]) << line;
  }
}

TEST(TensorOracle, EveryDTypeConversionMatchesTorch) {
  auto lines = fixture_lines("tensor/conversion.txt");
  size_t checked = 0;
  for (const auto& line : lines) {
    auto f = split(line, ' ');
    ASSERT_EQ(f.size(), 4u) << line;
    Tensor src = tensor_from_bytes(dtype_named(f[0]), {1}, f[2]);
    Tensor dst = src.to(dtype_named(f[1]));
    EXPECT_EQ(hex_of(dst), f[3]) << line << " (src value " << src.item().repr() << ")";
    ++checked;
  }
  EXPECT_GT(checked, 1000u);
}

TEST(TensorOracle, ReprMatchesTorchByteForByte) {
  auto lines = fixture_lines("tensor/repr.txt");
  for (const auto& line : lines) {
    auto f = split(line, '|');
    ASSERT_EQ(f.size(), 5u) << line;
    Tensor t = tensor_from_bytes(dtype_named(f[0]), parse_shape(f[1]), f[2]);
    t.set_requires_grad(f[3] == "1");
    std::string expected;
    for (size_t i = 0; i < f[4].size(); ++i) {
      if (f[4][i] == '\\' && i + 1 < f[4].size() && f[4][i + 1] == 'n') {
        expected += '\n';
        ++i;
      } else {
        expected += f[4][i];
      }
    }
    EXPECT_EQ(t.repr(), expected);
  }
}

// A Python literal as gen_tensor.py writes it: 3, -7, 2.5, 1e-09, inf, nan, True,
// 1j, (1+2j), (-0-1j).
Scalar parse_scalar(std::string s) {
  if (s == "True") return Scalar(true);
  if (s == "False") return Scalar(false);
  if (s.size() > 2 && s.front() == '(') s = s.substr(1, s.size() - 2);
  if (!s.empty() && s.back() == 'j') {
    s.pop_back();
    // The imaginary part starts at the last sign that is not an exponent's.
    size_t split = std::string::npos;
    for (size_t i = 1; i < s.size(); ++i) {
      if ((s[i] == '+' || s[i] == '-') && s[i - 1] != 'e') split = i;
    }
    if (split == std::string::npos) return Scalar(std::complex<double>(0, std::stod(s)));
    return Scalar(std::complex<double>(std::stod(s.substr(0, split)), std::stod(s.substr(split))));
  }
  if (s.find_first_of(".ein") != std::string::npos) return Scalar(std::stod(s));
  return Scalar(static_cast<int64_t>(std::stoll(s)));
}

// Runs one factory call line: "linspace START END STEPS [DTYPE]", "arange A [B [C]] [DTYPE]",
// "full V [DTYPE]" (shape (2,)), "scalar_tensor V [DTYPE]".
Tensor run_factory(const std::string& line) {
  auto call = split(line, ' ');
  std::optional<DType> dt;
  if (auto d = dtype_from_name(call.back())) {
    dt = d;
    call.pop_back();
  }
  std::vector<Scalar> args;
  for (size_t i = 1; i < call.size(); ++i) {
    try {
      args.push_back(parse_scalar(call[i]));
    } catch (const std::logic_error&) {  // std::stod / std::stoll
      ADD_FAILURE() << "unparsable scalar '" << call[i] << "' in fixture: " << line;
      return Tensor();
    }
  }
  if (call[0] == "linspace" && args.size() == 3) {
    return linspace(args[0], args[1], args[2].to_int(), dt);
  }
  if (call[0] == "arange" && args.size() == 1) return arange(args[0], dt);
  if (call[0] == "arange" && args.size() == 2) return arange(args[0], args[1], 1, dt);
  if (call[0] == "arange" && args.size() == 3) return arange(args[0], args[1], args[2], dt);
  if (call[0] == "full" && args.size() == 1) return full({2}, args[0], dt);
  if (call[0] == "scalar_tensor" && args.size() == 1) return scalar_tensor(args[0], dt);
  ADD_FAILURE() << "unknown factory call in fixture: " << line;
  return Tensor();
}

TEST(TensorOracle, RangeFactoriesMatchTorchBitForBit) {
  auto lines = fixture_lines("tensor/range.txt");
  size_t checked = 0;
  for (const auto& line : lines) {
    auto f = split(line, '|');
    ASSERT_EQ(f.size(), 4u) << line;
    Tensor t = run_factory(f[0]);
    if (!t.defined()) continue;
    EXPECT_EQ(dtype_name(t.dtype()), f[1]) << f[0];
    EXPECT_EQ(shape_repr(t.sizes()), shape_repr(parse_shape(f[2]))) << f[0];
    if (hex_of(t) == f[3]) {
      ++checked;
      continue;
    }
    // Name the first differing element, not just two long hex strings.
    Tensor expected = tensor_from_bytes(t.dtype(), parse_shape(f[2]), f[3]);
    for (int64_t i = 0; i < std::min(t.numel(), expected.numel()); ++i) {
      if (hex_of(t.select(0, i)) != hex_of(expected.select(0, i))) {
        ADD_FAILURE() << f[0] << ": element " << i << " is " << t.at({i}).repr() << ", torch has "
                      << expected.at({i}).repr();
        break;
      }
    }
  }
  EXPECT_GT(checked, 1000u);
}

TEST(TensorOracle, FactoryErrorsMatchTorch) {
  auto lines = fixture_lines("tensor/factory_errors.txt");
  for (const auto& line : lines) {
    auto f = split(line, '|');
    ASSERT_EQ(f.size(), 2u) << line;
    try {
      run_factory(f[0]);
      ADD_FAILURE() << f[0] << ": torch refuses with \"" << f[1] << "\", torchlet accepted it";
    } catch (const Error& e) {
      std::string what = e.what();
      // torch's "\"arange_cpu\" not implemented for 'Bool'" is our UnsupportedError
      // naming the same kernel; every other message is torch's own text.
      auto quote = f[1].find("\" not implemented for '");
      if (quote != std::string::npos) {
        EXPECT_NE(dynamic_cast<const UnsupportedError*>(&e), nullptr) << f[0];
        EXPECT_NE(what.find(f[1].substr(1, quote - 1)), std::string::npos) << f[0] << ": " << what;
      } else {
        EXPECT_NE(what.find(f[1]), std::string::npos) << f[0] << ": " << what;
      }
    }
  }
}

TEST(TensorOracle, ResultTypeOfThreeParticipantsMatchesTorch) {
  auto lines = fixture_lines("tensor/result_type3.txt");
  for (const auto& line : lines) {
    auto f = split(line, ' ');
    ASSERT_EQ(f.size(), 5u) << line;
    ResultTypeState state;
    for (int i = 0; i < 3; ++i) {
      std::string kind = f[i].substr(0, 1), what = f[i].substr(2);
      if (kind == "S") {
        state.add(what == "bool" ? Scalar(true) : what == "int" ? Scalar(2) : Scalar(2.5));
      } else {
        state.add(zeros(kind == "T" ? Shape{2} : Shape{}, dtype_named(what)));
      }
    }
    EXPECT_EQ(dtype_name(state.result()), f[4]) << line;
  }
}

}  // namespace
}  // namespace torchlet

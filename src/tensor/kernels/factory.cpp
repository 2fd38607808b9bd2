// Factories torch builds from others: logspace (powers of a linspace computed in
// double) and the index pairs of a matrix's lower or upper triangle (tril_indices,
// triu_indices). The plain factories (zeros, arange, linspace, ...) are
// src/tensor/factory.cpp's; eye is random.cpp's.
#include <torchlet/error.h>
#include <torchlet/ops.h>

namespace torchlet {

Tensor logspace(const Scalar& start, const Scalar& end, int64_t steps, double base, std::optional<DType> dtype) {
  TL_CHECK(steps >= 0, ValueError, "number of steps must be non-negative");
  const DType out = dtype.value_or(kDefaultFloatDType);
  TL_CHECK(out != DType::Bool && out != DType::Half, UnsupportedError, "\"logspace_cpu\" not implemented for '{}'",
           dtype_info(out).scalar_type_name);
  Tensor exps = linspace(start, end, steps, DType::Double);
  return pow(Scalar(base), exps).to(out);
}

namespace {

Tensor triangle_indices(int64_t row, int64_t col, int64_t offset, std::optional<DType> dtype, bool lower) {
  const char* op = lower ? "tril_indices" : "triu_indices";
  TL_CHECK(row >= 0, ValueError, "row must be non-negative, got{}", row);
  TL_CHECK(col >= 0, ValueError, "col must be non-negative, got{}", col);
  const DType out = dtype.value_or(DType::Long);
  TL_CHECK(out == DType::Long || out == DType::Int, UnsupportedError, "\"{}\" not implemented for '{}'", op,
           dtype_info(out).scalar_type_name);
  std::vector<int64_t> rows, cols;
  for (int64_t i = 0; i < row; ++i)
    for (int64_t j = 0; j < col; ++j)
      if (lower ? j - i <= offset : j - i >= offset) {
        TL_CHECK(rows.size() < (size_t{1} << 26), LimitError, "{}: more than 2^26 indices", op);
        rows.push_back(i);
        cols.push_back(j);
      }
  const auto n = static_cast<int64_t>(rows.size());
  rows.insert(rows.end(), cols.begin(), cols.end());
  return tensor<int64_t>(rows, {2, n}).to(out);
}

}  // namespace

Tensor tril_indices(int64_t row, int64_t col, int64_t offset, std::optional<DType> dtype) {
  return triangle_indices(row, col, offset, dtype, true);
}
Tensor triu_indices(int64_t row, int64_t col, int64_t offset, std::optional<DType> dtype) {
  return triangle_indices(row, col, offset, dtype, false);
}

}  // namespace torchlet

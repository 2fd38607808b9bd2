// Big-endian element bytes to native order, for the loaders that meet them (a
// checkpoint's byteorder record, a numpy dtype's '>'): one rule for every dtype.
#pragma once

#include <algorithm>
#include <cstddef>

#include <torchlet/dtype.h>

namespace torchlet {

// Reverses each element's bytes in place; a complex element swaps each half on its own.
inline void big_endian_to_native(std::byte* data, size_t nbytes, DType dtype) {
  const size_t unit = is_complex(dtype) ? element_size(dtype) / 2 : element_size(dtype);
  if (unit <= 1) return;
  for (size_t i = 0; i + unit <= nbytes; i += unit) std::reverse(data + i, data + i + unit);
}

}  // namespace torchlet

// torch.nn.functional.pad: constant padding of any dims (negative pads crop), and the
// reflect / replicate / circular modes over the last 1-3 dims, which convolutions'
// padding_mode uses. Non-constant modes run one gather per output row through a
// per-dim table of source indices; the checks and messages follow torch 1.13's
// _pad_enum and its reflection_pad / replication_pad / _pad_circular kernels.
#include <algorithm>
#include <array>
#include <cstring>

#include <torchlet/error.h>
#include <torchlet/ops.h>

#include "tensor/kernels/loop.h"

namespace torchlet {
namespace {

enum class PadMode { Constant, Reflect, Replicate, Circular };

const char* mode_name(PadMode m) {
  switch (m) {
    case PadMode::Constant: return "constant";
    case PadMode::Reflect: return "reflect";
    case PadMode::Replicate: return "replicate";
    case PadMode::Circular: return "circular";
  }
  return "";
}

// Source index of output position `o` along a dim of `n` inputs padded by `left` and `right`.
int64_t source_index(PadMode m, int64_t o, int64_t left, int64_t right, int64_t n) {
  int64_t i = o - left;
  switch (m) {
    case PadMode::Reflect:
      if (i < 0) i = -i;
      if (i >= n) i = 2 * (n - 1) - i;
      return i;
    case PadMode::Replicate: return std::clamp<int64_t>(i, 0, n - 1);
    case PadMode::Circular: {
      // torch crops negative pads first and wraps within what is left.
      int64_t lo = std::max<int64_t>(-left, 0);
      int64_t len = n - lo - std::max<int64_t>(-right, 0);
      int64_t j = o - std::max<int64_t>(left, 0);
      return lo + ((j % len) + len) % len;
    }
    case PadMode::Constant: return i;
  }
  return i;
}

// Non-negative padding of the last 1-3 dims: each output row is a fill, or a fill, a
// copy of one input row and a fill, so rows move with memcpy.
template <typename T>
Tensor constant_pad_rows(const Tensor& self, IntList pad, T fill) {
  const int64_t nd = self.dim(), k = static_cast<int64_t>(pad.size()) / 2;
  Tensor x = self.contiguous();
  std::array<int64_t, 3> in{1, 1, 1}, out{1, 1, 1}, left{0, 0, 0};  // innermost first
  Shape out_shape = x.sizes().vec();
  for (int64_t j = 0; j < k; ++j) {
    int64_t d = nd - 1 - j;
    size_t u = static_cast<size_t>(j);
    in[u] = x.size(d);
    left[u] = pad[static_cast<size_t>(2 * j)];
    out[u] = in[u] + left[u] + pad[static_cast<size_t>(2 * j + 1)];
    out_shape[static_cast<size_t>(d)] = out[u];
  }
  Tensor result = empty(out_shape, x.dtype());
  if (result.numel() == 0) return result;
  const int64_t planes = result.numel() / (out[0] * out[1] * out[2]);
  const T* src = x.data<T>();
  T* dst = result.data<T>();
  const int64_t rows = planes * out[1] * out[2];
  parallel_for(0, rows, std::max<int64_t>(1, kernels::kGrainSize / std::max<int64_t>(out[0], 1)), [&](int64_t lo, int64_t hi) {
    for (int64_t r = lo; r < hi; ++r) {
      int64_t oh = r % out[1], ot = (r / out[1]) % out[2], pl = r / (out[1] * out[2]);
      int64_t ih = oh - left[1], it = ot - left[2];
      T* orow = dst + r * out[0];
      if (ih < 0 || ih >= in[1] || it < 0 || it >= in[2]) {
        std::fill(orow, orow + out[0], fill);
        continue;
      }
      const T* irow = src + ((pl * in[2] + it) * in[1] + ih) * in[0];
      std::fill(orow, orow + left[0], fill);
      if (in[0] > 0) std::memcpy(orow + left[0], irow, static_cast<size_t>(in[0]) * sizeof(T));
      std::fill(orow + left[0] + in[0], orow + out[0], fill);
    }
  });
  return result;
}

Tensor constant_pad(const Tensor& self, IntList pad, double value) {
  bool rows_ok = pad.size() <= 6 && self.dim() >= 1;
  for (int64_t v : pad) rows_ok = rows_ok && v >= 0;
  if (rows_ok && static_cast<int64_t>(pad.size()) / 2 <= self.dim()) {
    DType d = self.dtype();
    if (d == DType::Float) return constant_pad_rows<float>(self, pad, static_cast<float>(value));
    if (d == DType::Double) return constant_pad_rows<double>(self, pad, value);
  }
  const int64_t nd = self.dim(), np = static_cast<int64_t>(pad.size()) / 2;
  // Negative pads narrow the input first, dim by dim from the last.
  Tensor x = self;
  Shape out_shape = self.sizes().vec();
  for (int64_t j = 0; j < np; ++j) {
    int64_t d = nd - 1 - j;
    int64_t l = pad[static_cast<size_t>(2 * j)], r = pad[static_cast<size_t>(2 * j + 1)];
    if (l < 0) {
      int64_t len = x.size(d) + l;
      TL_CHECK(len >= 0, ValueError, "start ({}) + length ({}) exceeds dimension size ({}).", -l, len, x.size(d));
      x = x.narrow(d, -l, len);
    }
    if (r < 0) {
      int64_t len = x.size(d) + r;
      TL_CHECK(len >= 0, ValueError, "start (0) + length ({}) exceeds dimension size ({}).", len, x.size(d));
      x = x.narrow(d, 0, len);
    }
    int64_t out = self.size(d) + l + r;
    TL_CHECK(out >= 0, ValueError,
             "The input size {}, plus negative padding {} and {} resulted in a negative output size, which is "
             "invalid. Check dimension {} of your input.",
             self.size(d), l, r, d);
    out_shape[static_cast<size_t>(d)] = out;
  }
  // The fill value converts to the dtype unchecked (1.5 fills an int64 tensor with 1).
  Scalar fill = is_floating(self.dtype()) || is_complex(self.dtype()) ? Scalar(value)
                : self.dtype() == DType::Bool                          ? Scalar(value != 0)
                                                                       : Scalar(static_cast<int64_t>(value));
  Tensor out = full(out_shape, fill, self.dtype());
  Tensor inner = out;
  for (int64_t j = 0; j < np; ++j) {
    int64_t d = nd - 1 - j;
    int64_t l = pad[static_cast<size_t>(2 * j)];
    inner = inner.narrow(d, std::max<int64_t>(l, 0), x.size(d));
  }
  if (x.numel() > 0) inner.copy_(x);
  return out;
}

// torch's shape checks of the reflection/replication kernels for `k` padded dims.
void check_mode_input(const Tensor& self, PadMode m, int64_t k, IntList pad) {
  const int64_t nd = self.dim();
  bool nonempty = true;
  for (int64_t d = nd - k - 1; d < nd; ++d) nonempty = nonempty && self.size(d) != 0;
  if (m == PadMode::Replicate) {
    TL_CHECK(nonempty, ValueError,
             "Expected {}D or {}D (batch mode) tensor with possibly 0 batch size and other non-zero dimensions for "
             "input, but got: {}",
             k + 1, k + 2, shape_repr(self.sizes()));
    return;
  }
  if (m == PadMode::Reflect) {
    const char* tname = self.dtype() == DType::Double ? "Double" : self.dtype() == DType::Float ? "Float" : "";
    std::string sizes;
    for (int64_t d = 0; d < nd; ++d) sizes += (d ? "," : "") + std::to_string(self.size(d));
    TL_CHECK(nonempty, ValueError, "{}D or {}D (batch mode) tensor expected for input, but got: [ torch.{}Tensor{{{}}} ]",
             k + 1, k + 2, tname, sizes);
    for (int64_t j = 0; j < k; ++j) {
      int64_t d = nd - 1 - j, n = self.size(d);
      int64_t l = pad[static_cast<size_t>(2 * j)], r = pad[static_cast<size_t>(2 * j + 1)];
      // torch's 2-d kernel names the input by its dim count, the others by its sizes.
      std::string input = k == 2 ? std::to_string(nd) : shape_repr(self.sizes());
      TL_CHECK(l < n && r < n, ValueError,
               "Argument #{}: Padding size should be less than the corresponding input dimension, but got: padding "
               "({}, {}) at dimension {} of input {}",
               4 + 2 * j, l, r, d, input);
    }
    return;
  }
  // circular: batched input only, outermost padded dim first.
  TL_CHECK(nd == k + 2, ValueError, "Invalid padding size, expected {} but got {}", 2 * (nd - 2), pad.size());
  for (int64_t j = k - 1; j >= 0; --j) {
    int64_t n = self.size(nd - 1 - j);
    int64_t l = pad[static_cast<size_t>(2 * j)], r = pad[static_cast<size_t>(2 * j + 1)];
    TL_CHECK(l <= n && r <= n, ValueError, "Padding value causes wrapping around more than once.");
    TL_CHECK(n + l + r >= 0, ValueError, "Negative padding value is resulting in an empty dimension");
    // A pad wider than what the negative side leaves would wrap within its own output
    // (torch reads uninitialised memory or refuses the overlapping copy).
    int64_t kept = n - std::max<int64_t>(-l, 0) - std::max<int64_t>(-r, 0);
    TL_CHECK(std::max(l, r) <= kept || n + l + r == 0, ValueError,
             "circular padding ({}, {}) wraps more than the {} elements left of a dimension of size {}", l, r,
             std::max<int64_t>(kept, 0), n);
  }
}

// Gathers the padded output of the last `k` dims through index tables.
Tensor mode_pad(const Tensor& self, PadMode m, int64_t k, IntList pad) {
  const int64_t nd = self.dim();
  Tensor x = self.contiguous();
  Shape out_shape = x.sizes().vec();
  std::array<std::vector<int64_t>, 3> tables;  // innermost dim first
  std::array<int64_t, 3> in_sz{1, 1, 1}, out_sz{1, 1, 1};
  for (int64_t j = 0; j < k; ++j) {
    int64_t d = nd - 1 - j, n = x.size(d);
    int64_t l = pad[static_cast<size_t>(2 * j)], r = pad[static_cast<size_t>(2 * j + 1)];
    int64_t out = n + l + r;
    TL_CHECK(out >= 0, ValueError, "input ({}) is too small. Calculated output size: {}", n, out);
    out_shape[static_cast<size_t>(d)] = out;
    auto& t = tables[static_cast<size_t>(j)];
    t.resize(static_cast<size_t>(out));
    for (int64_t o = 0; o < out; ++o) t[static_cast<size_t>(o)] = source_index(m, o, l, r, n);
    in_sz[static_cast<size_t>(j)] = n;
    out_sz[static_cast<size_t>(j)] = out;
  }
  for (int64_t j = k; j < 3; ++j) tables[static_cast<size_t>(j)] = {0};
  Tensor out = empty(out_shape, x.dtype());
  if (out.numel() == 0) return out;
  const int64_t planes = out.numel() / (out_sz[0] * out_sz[1] * out_sz[2]);
  const int64_t in_plane = in_sz[0] * in_sz[1] * in_sz[2], out_plane = out_sz[0] * out_sz[1] * out_sz[2];
  const size_t es = x.element_size();
  auto run = [&]<typename T>() {
    const T* src = static_cast<const T*>(x.data_ptr());
    T* dst = static_cast<T*>(out.data_ptr());
    const int64_t* xs = tables[0].data();
    int64_t rows = planes * out_sz[2] * out_sz[1];
    parallel_for(0, rows, std::max<int64_t>(1, kernels::kGrainSize / std::max<int64_t>(out_sz[0], 1)),
                 [&](int64_t lo, int64_t hi) {
                   for (int64_t row = lo; row < hi; ++row) {
                     int64_t oh = row % out_sz[1], ot = (row / out_sz[1]) % out_sz[2], pl = row / (out_sz[1] * out_sz[2]);
                     int64_t ih = tables[1][static_cast<size_t>(oh)], it = tables[2][static_cast<size_t>(ot)];
                     const T* __restrict in_row = src + pl * in_plane + (it * in_sz[1] + ih) * in_sz[0];
                     T* __restrict out_row = dst + pl * out_plane + (ot * out_sz[1] + oh) * out_sz[0];
                     for (int64_t o = 0; o < out_sz[0]; ++o) out_row[o] = in_row[xs[o]];
                   }
                 });
  };
  // Only bytes move, so the element size picks the loop.
  switch (es) {
    case 1: run.template operator()<uint8_t>(); break;
    case 2: run.template operator()<uint16_t>(); break;
    case 4: run.template operator()<uint32_t>(); break;
    case 8: run.template operator()<uint64_t>(); break;
    default: {
      struct Bytes16 {
        unsigned char b[16];
      };
      TL_INTERNAL_ASSERT(es == 16, "element sizes are 1, 2, 4, 8 or 16");
      run.template operator()<Bytes16>();
    }
  }
  return out;
}

}  // namespace

Tensor pad(const Tensor& self, IntList pad, std::string_view mode, std::optional<double> value) {
  PadMode m;
  if (mode == "constant") m = PadMode::Constant;
  else if (mode == "reflect") m = PadMode::Reflect;
  else if (mode == "replicate") m = PadMode::Replicate;
  else if (mode == "circular") m = PadMode::Circular;
  else TL_FAIL(ValueError, "Unrecognised padding mode {}", mode);
  TL_CHECK(pad.size() % 2 == 0, ValueError, "Padding length must be divisible by 2");
  TL_CHECK(static_cast<int64_t>(pad.size()) <= self.dim() * 2, ValueError, "Padding length too large");
  if (m == PadMode::Constant) return constant_pad(self, pad, value.value_or(0.0));
  TL_CHECK(!value || *value == 0, ValueError, "Padding mode \"{}\" doesn't take in value argument", mode_name(m));
  const int64_t k = static_cast<int64_t>(pad.size()) / 2;
  TL_CHECK(k >= 1 && k <= 3 && (self.dim() == k + 1 || self.dim() == k + 2), ValueError,
           "Only 2D, 3D, 4D, 5D padding with non-constant padding are supported for now");
  check_mode_input(self, m, k, pad);
  if (m != PadMode::Circular) {
    const char* kernel = m == PadMode::Reflect ? (k == 1 ? "reflection_pad1d" : k == 2 ? "reflection_pad2d" : "reflection_pad3d")
                                               : (k == 1 ? "replication_pad1d_cpu" : k == 2 ? "replication_pad2d_cpu" : "replication_pad3d_cpu");
    DType d = self.dtype();
    TL_CHECK(d == DType::Float || d == DType::Double || is_complex(d), UnsupportedError,
             "\"{}\" not implemented for '{}'", kernel, dtype_info(d).scalar_type_name);
  }
  return mode_pad(self, m, k, pad);
}

}  // namespace torchlet

// im2col and col2im (ops.h): the sliding-block rearrangements behind F.unfold and F.fold.
// Shapes, checks and messages follow torch 1.13's im2col_shape_check/col2im_shape_check;
// col2im accumulates overlapping blocks in torch's loop order and element type (a
// float16 sum rounds after every addition, as c10::Half arithmetic does), so results
// match torch's bit for bit.
#include <cstring>

#include <torchlet/error.h>
#include <torchlet/ops.h>

#include "tensor/kernels/loop.h"

namespace torchlet {
namespace {

struct Window {
  int64_t kh, kw, dh, dw, ph, pw, sh, sw;
};

Window window_of(IntList kernel_size, IntList dilation, IntList padding, IntList stride, const char* op) {
  TL_CHECK(kernel_size.size() == 2 && dilation.size() == 2 && padding.size() == 2 && stride.size() == 2, ValueError,
           "{}: kernel_size, dilation, padding and stride must have 2 elements each", op);
  Window w{kernel_size[0], kernel_size[1], dilation[0], dilation[1], padding[0], padding[1], stride[0], stride[1]};
  TL_CHECK(w.kh > 0 && w.kw > 0, ValueError, "kernel size should be greater than zero, but got kernel_height: {} kernel_width: {}",
           w.kh, w.kw);
  TL_CHECK(w.dh > 0 && w.dw > 0, ValueError,
           "dilation should be greater than zero, but got dilation_height: {} dilation_width: {}", w.dh, w.dw);
  TL_CHECK(w.ph >= 0 && w.pw >= 0, ValueError, "padding should be non-negative, but got pad_height: {} pad_width: {}", w.ph,
           w.pw);
  TL_CHECK(w.sh > 0 && w.sw > 0, ValueError, "stride should be greater than zero, but got stride_height: {} stride_width: {}",
           w.sh, w.sw);
  return w;
}

// Sliding blocks along one dimension of `size` (may be < 1: the caller refuses).
int64_t blocks(int64_t size, int64_t pad, int64_t dilation, int64_t kernel, int64_t stride) {
  return (size + 2 * pad - (dilation * (kernel - 1) + 1)) / stride + 1;
}

}  // namespace

Tensor im2col(const Tensor& self, IntList kernel_size, IntList dilation, IntList padding, IntList stride) {
  const Window w = window_of(kernel_size, dilation, padding, stride, "im2col");
  const bool batched = self.dim() == 4;
  bool valid = self.dim() == 3 || batched;
  for (int64_t d = batched ? 1 : 0; valid && d < self.dim(); ++d) valid = self.size(d) != 0;
  TL_CHECK(valid, ValueError,
           "Expected 3D or 4D (batch mode) tensor with possibly 0 batch size and other non-zero dimensions for input, but "
           "got: {}", shape_repr(self.sizes()));
  // A copy for any element type, but torch's kernel takes floating types only: so does this.
  kernels::dispatch_floating(self.dtype(), "im2col", []<typename T>() {});
  const Tensor x = (batched ? self : self.unsqueeze(0)).contiguous();
  const int64_t n = x.size(0), c = x.size(1), h = x.size(2), wd = x.size(3);
  const int64_t oh = blocks(h, w.ph, w.dh, w.kh, w.sh), ow = blocks(wd, w.pw, w.dw, w.kw, w.sw);
  TL_CHECK(oh >= 1 && ow >= 1, ValueError,
           "Given input with spatial size ({}, {}), kernel_size=({}, {}), dilation=({}, {}), padding=({}, {}), calculated "
           "shape of the array of sliding blocks as ({}, {}), but its components must be at least one.",
           h, wd, w.kh, w.kw, w.dh, w.dw, w.ph, w.pw, oh, ow);
  Tensor out = zeros({n, c * w.kh * w.kw, oh * ow}, self.dtype());
  const auto es = static_cast<int64_t>(self.element_size());
  const char* src = static_cast<const char*>(x.data_ptr());
  char* dst = static_cast<char*>(out.data_ptr());
  for (int64_t b = 0; b < n; ++b) {
    for (int64_t row = 0; row < c * w.kh * w.kw; ++row) {
      const int64_t j = row % w.kw, i = (row / w.kw) % w.kh, ch = row / (w.kw * w.kh);
      const char* plane = src + ((b * c + ch) * h * wd) * es;
      char* col = dst + ((b * c * w.kh * w.kw + row) * oh * ow) * es;
      for (int64_t y = 0; y < oh; ++y) {
        const int64_t iy = y * w.sh - w.ph + i * w.dh;
        if (iy < 0 || iy >= h) continue;  // stays zero
        for (int64_t xo = 0; xo < ow; ++xo) {
          const int64_t ix = xo * w.sw - w.pw + j * w.dw;
          if (ix < 0 || ix >= wd) continue;
          std::memcpy(col + (y * ow + xo) * es, plane + (iy * wd + ix) * es, static_cast<size_t>(es));
        }
      }
    }
  }
  return batched ? out : out.squeeze(0);
}

Tensor col2im(const Tensor& self, IntList output_size, IntList kernel_size, IntList dilation, IntList padding,
              IntList stride) {
  TL_CHECK(output_size.size() == 2, ValueError, "col2im: output_size must have 2 elements");
  const Window w = window_of(kernel_size, dilation, padding, stride, "col2im");
  const bool batched = self.dim() == 3;
  bool valid = self.dim() == 2 || batched;
  for (int64_t d = batched ? 1 : 0; valid && d < self.dim(); ++d) valid = self.size(d) != 0;
  TL_CHECK(valid, ValueError,
           "Expected 2D or 3D (batch mode) tensor for input with possibly 0 batch size and non-zero dimensions for input, "
           "but got: {}", shape_repr(self.sizes()));
  const int64_t out_h = output_size[0], out_w = output_size[1];
  TL_CHECK(out_h > 0 && out_w > 0, ValueError,
           "Expected output spatial size to be positive, but got: output_size=({}, {})", out_h, out_w);
  const Tensor x = (batched ? self : self.unsqueeze(0)).contiguous();
  const int64_t n = x.size(0), rows = x.size(1), cols = x.size(2);
  TL_CHECK(rows % (w.kh * w.kw) == 0, ValueError,
           "Expected size of input's dimension 1 to be divisible by the product of kernel_size, but got input.size(1)={} "
           "and kernel_size=({}, {}).", rows, w.kh, w.kw);
  const int64_t oh = blocks(out_h, w.ph, w.dh, w.kh, w.sh), ow = blocks(out_w, w.pw, w.dw, w.kw, w.sw);
  TL_CHECK(oh >= 1 && ow >= 1, ValueError,
           "Given output_size=({}, {}), kernel_size=({}, {}), dilation=({}, {}), padding=({}, {}), stride=({}, {}), "
           "calculated shape of the array of sliding blocks as ({}, {}), which is too small (non-positive)",
           out_h, out_w, w.kh, w.kw, w.dh, w.dw, w.ph, w.pw, w.sh, w.sw, oh, ow);
  TL_CHECK(cols == oh * ow, ValueError,
           "Given output_size=({}, {}), kernel_size=({}, {}), dilation=({}, {}), padding=({}, {}), stride=({}, {}), expected "
           "size of input's dimension 2 to match the calculated number of sliding blocks {} * {} = {}, but got "
           "input.size(2)={}.",
           out_h, out_w, w.kh, w.kw, w.dh, w.dw, w.ph, w.pw, w.sh, w.sw, oh, ow, oh * ow, cols);
  const int64_t c = rows / (w.kh * w.kw);
  Tensor out = zeros({n, c, out_h, out_w}, self.dtype());
  kernels::dispatch_floating(self.dtype(), "col2im", [&]<typename T>() {
    const T* src = x.data<T>();
    T* dst = out.data<T>();
    for (int64_t b = 0; b < n; ++b) {
      for (int64_t row = 0; row < rows; ++row) {
        const int64_t j = row % w.kw, i = (row / w.kw) % w.kh, ch = row / (w.kw * w.kh);
        T* plane = dst + (b * c + ch) * out_h * out_w;
        const T* col = src + (b * rows + row) * cols;
        for (int64_t y = 0; y < oh; ++y) {
          const int64_t iy = y * w.sh - w.ph + i * w.dh;
          if (iy < 0 || iy >= out_h) continue;
          for (int64_t xo = 0; xo < ow; ++xo) {
            const int64_t ix = xo * w.sw - w.pw + j * w.dw;
            if (ix < 0 || ix >= out_w) continue;
            T& at = plane[iy * out_w + ix];
            at = static_cast<T>(static_cast<kernels::opmath_t<T>>(at) + static_cast<kernels::opmath_t<T>>(col[y * ow + xo]));
          }
        }
      }
    }
  });
  return batched ? out : out.squeeze(0);
}

}  // namespace torchlet

// Shared plumbing of the elementwise operators: the output of a broadcast operation
// (fresh, in place, or out=) with torch's checks, and a helper that maps a floating
// tensor through a generic lambda. Binary and unary kernels are in binary.cpp and
// unary.cpp; this header owns no operator.
#pragma once

#include <optional>
#include <string_view>

#include <torchlet/error.h>
#include <torchlet/tensor.h>

#include "tensor/kernels/loop.h"

namespace torchlet::kernels {

// torch's canCast: no floating -> integral, complex -> real, or non-bool -> bool.
bool can_cast(DType from, DType to);

// An in-place variant torch composes from its functional (mvlgamma_, float_power_,
// deg2rad_): the result written into self, which must have its shape and a dtype the
// result casts to (torch's messages for each).
// Rounds a float to bfloat16 and back. torch's bfloat16 kernels round after every
// operation of theirs (Vectorized<BFloat16>, or a std:: function of c10::BFloat16), so
// formulas that must match them bit for bit round each step with this.
inline float round_bf16(float x) { return static_cast<float>(BFloat16(x)); }

inline Tensor& write_in_place(Tensor& self, const Tensor& result) {
  TL_CHECK(self.sizes() == result.sizes(), ValueError, "output with shape {} doesn't match the broadcast shape {}",
           shape_repr(self.sizes()), shape_repr(result.sizes()));
  TL_CHECK(can_cast(result.dtype(), self.dtype()), TypeError, "result type {} can't be cast to the desired output type {}",
           dtype_info(result.dtype()).scalar_type_name, dtype_info(self.dtype()).scalar_type_name);
  if (!result.is_same(self)) self.copy_(result);
  return self;
}

// Where an elementwise result goes: `out` undefined means a fresh tensor.
// Checks an in-place/out= destination as torch does and returns the tensor the
// kernel should write (a temporary when the destination's dtype differs from
// `result`); finish() copies the temporary into the destination.
class OutputPlan {
 public:
  OutputPlan(std::string_view op, Tensor* out, bool in_place, const Shape& shape, DType result);
  Tensor& target() { return target_; }
  Tensor finish();

 private:
  Tensor* dest_;
  Tensor target_;
};

// Applies f (a generic lambda over float/double) to a floating tensor, writing a new
// tensor of the same dtype; other dtypes are refused naming `op`.
template <typename F>
Tensor map_floating(const Tensor& self, std::string_view op, const F& f) {
  DType d = self.dtype();
  // torch 1.13 has no float16 CPU kernel for these activations.
  TL_CHECK(is_floating(d) && d != DType::Half, UnsupportedError, "\"{}\" not implemented for '{}'", op,
           dtype_info(d).scalar_type_name);
  Tensor out = empty(self.sizes(), d);
  auto loop = make_loop({&out, &self});
  auto run = [&]<typename T>() {
    run_loop(loop, [&](char** p, const int64_t* s, int64_t n, int64_t rows, const int64_t* os) {
      unary_rows<T, T>(p, s, n, rows, os, [&](T x) { return static_cast<T>(f(static_cast<opmath_t<T>>(x))); });
    });
  };
  if (d == DType::Half) run.template operator()<Half>();
  else if (d == DType::BFloat16) run.template operator()<BFloat16>();
  else if (d == DType::Float) run.template operator()<float>();
  else run.template operator()<double>();
  return out;
}

}  // namespace torchlet::kernels

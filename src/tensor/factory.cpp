// Tensor factories (zeros/ones/full/arange/linspace/scalar_tensor) with torch's
// dtype inference, size computation and element formulas, so results match bit for bit.
#include <cmath>
#include <cstring>

#include <torchlet/error.h>
#include <torchlet/tensor.h>

namespace torchlet {

Tensor zeros(IntList sizes, DType dtype) {
  Tensor t = empty(sizes, dtype);
  std::memset(t.data_ptr(), 0, t.nbytes());
  return t;
}

Tensor ones(IntList sizes, DType dtype) { return full(sizes, 1, dtype); }

Tensor full(IntList sizes, const Scalar& value, std::optional<DType> dtype) {
  Tensor t = empty(sizes, dtype.value_or(value.dtype()));
  t.fill_(value);
  return t;
}

Tensor scalar_tensor(const Scalar& value, std::optional<DType> dtype) {
  return full({}, value, dtype);
}

Tensor arange(const Scalar& end, std::optional<DType> dtype) {
  return arange(Scalar(int64_t{0}), end, Scalar(int64_t{1}), dtype);
}

Tensor arange(const Scalar& start, const Scalar& end, const Scalar& step,
              std::optional<DType> dtype) {
  auto integral = [](const Scalar& s) { return s.is_integral() || s.is_bool(); };
  DType out = dtype.value_or(integral(start) && integral(end) && integral(step)
                                 ? DType::Long
                                 : kDefaultFloatDType);
  TL_CHECK(!start.is_complex() && !end.is_complex() && !step.is_complex(), TypeError,
           "arange: complex arguments are not supported");
  double xstart = start.to_double(), xend = end.to_double(), xstep = step.to_double();
  TL_CHECK(xstep != 0, ValueError, "step must be nonzero");
  TL_CHECK(std::isfinite(xstart) && std::isfinite(xend), ValueError,
           "unsupported range: {} -> {}", xstart, xend);
  TL_CHECK((xstep > 0 && xend >= xstart) || (xstep < 0 && xend <= xstart), ValueError,
           "upper bound and larger bound inconsistent with step sign");
  // torch computes the size in double for every dtype.
  double size_d = std::ceil((xend - xstart) / xstep);
  TL_CHECK(size_d >= 0 && size_d <= 9.0e18, ValueError,
           "invalid size, possible overflow?");
  int64_t size = static_cast<int64_t>(size_d);
  Tensor t = empty({size}, out);
  dispatch_real(out, "arange", [&]<typename T>() {
    T* p = t.data<T>();
    if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
      // Integral outputs accumulate in int64 (torch's acc_type for integers).
      int64_t s0 = start.to_int(), st = step.to_int();
      for (int64_t i = 0; i < size; ++i) p[i] = static_cast<T>(s0 + st * i);
    } else {
      // Floating outputs accumulate in double (acc_type<float, CPU> is double).
      for (int64_t i = 0; i < size; ++i) p[i] = convert<T>(xstart + xstep * static_cast<double>(i));
    }
  });
  return t;
}

namespace {

// Note [linspace bits]: torch 1.13's linspace: the first half counts up from start and the second half
// down from end, in the output type (double for integral outputs), so both ends
// are exact. torch runs the floating case through a SIMD loop (AVX2 here) built
// with FMA contraction, so its interior points can differ from this scalar formula in
// the last bit; integral outputs and both end points match exactly.
template <typename T>
void linspace_fill(T* p, const Scalar& start, const Scalar& end, int64_t steps) {
  if constexpr (std::is_integral_v<T>) {
    T s = start.to<T>(), e = end.to<T>();
    double step = (static_cast<double>(e) - static_cast<double>(s)) / static_cast<double>(steps - 1);
    int64_t halfway = steps / 2;
    for (int64_t i = 0; i < steps; ++i) {
      double v = i < halfway ? s + step * static_cast<double>(i)
                             : e - step * static_cast<double>(steps - i - 1);
      p[i] = convert<T>(v);
    }
  } else {
    T s = start.to<T>(), e = end.to<T>();
    T step = (e - s) / static_cast<T>(steps - 1);
    int64_t halfway = steps / 2;
    for (int64_t i = 0; i < steps; ++i) {
      p[i] = i < halfway ? T(s + step * static_cast<T>(i)) : T(e - step * static_cast<T>(steps - i - 1));
    }
  }
}

}  // namespace

Tensor linspace(const Scalar& start, const Scalar& end, int64_t steps, std::optional<DType> dtype) {
  TL_CHECK(steps >= 0, ValueError, "number of steps must be non-negative");
  DType out = dtype.value_or(start.is_complex() || end.is_complex() ? DType::ComplexFloat
                                                                     : kDefaultFloatDType);
  Tensor t = empty({steps}, out);
  if (steps == 0) return t;
  if (steps == 1) {
    t.fill_(start);
    return t;
  }
  dispatch_all(out, "linspace", [&]<typename T>() {
    if constexpr (std::is_same_v<T, bool>) {
      throw_unsupported_dtype("linspace", out);
    } else if constexpr (std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>) {
      // c10::Half/BFloat16 arithmetic rounds to the 16-bit type after every operation.
      T* p = t.data<T>();
      T s = start.to<T>(), e = end.to<T>();
      T step = T(float(T(float(e) - float(s))) / float(T(float(steps - 1))));
      int64_t halfway = steps / 2;
      for (int64_t i = 0; i < steps; ++i) {
        if (i < halfway) {
          T prod = T(float(step) * float(T(float(i))));
          p[i] = T(float(s) + float(prod));
        } else {
          T prod = T(float(step) * float(T(float(steps - i - 1))));
          p[i] = T(float(e) - float(prod));
        }
      }
    } else if constexpr (std::is_same_v<T, ComplexHalf>) {
      throw_unsupported_dtype("linspace", out);
    } else {
      linspace_fill<T>(t.data<T>(), start, end, steps);
    }
  });
  return t;
}

}  // namespace torchlet

// Tensor factories (zeros/ones/full/arange/linspace/scalar_tensor) with torch 1.13's
// dtype inference, argument checks, size computation and element formulas, so results
// match torch bit for bit. Kernels over existing tensors live in src/tensor/kernels/.
#include <cmath>
#include <cstring>
#include <limits>

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
  // torch.scalar_tensor(3) is float32: like other factories it defaults to the
  // default dtype, unlike torch.tensor(3).
  return full({}, value, dtype.value_or(kDefaultFloatDType));
}

namespace {

// Note [torch's vectorized fill]: torch 1.13 fills arange and linspace with
// cpu_serial_kernel_vec, built for AVX2 on x86 (torch.__config__.show() says "CPU
// capability usage: AVX2"). The output is walked in pairs of 32-byte vectors; each
// vector is a base computed at its first index plus k * step, and the tail too short
// for a pair takes the scalar formula. Which formula an element gets decides its last
// bit, so we walk in the same order. GCC contracted some of torch's expressions into
// fused multiply-adds; which ones was settled against the oracle (tests/fixtures/
// gen_tensor.py, linspace.txt): the per-vector base is fused, and so is the element
// of a float64 arange, while the element of a linspace is a separate multiply and add.
// torch splits ranges longer than its grain (32768) into one chunk per thread, each
// walked the same way from its own start, so its long ranges depend on its thread
// count; we walk one chunk, which is torch with one thread (its default on the
// reference machine, and how the fixtures for long ranges are made).
constexpr size_t kTorchVectorBytes = 32;

template <typename T, typename BaseAt, typename Elem, typename ScalarAt>
void torch_vectorized_fill(T* out, int64_t n, BaseAt base_at, Elem elem, ScalarAt scalar_at) {
  constexpr int64_t v = static_cast<int64_t>(kTorchVectorBytes / sizeof(T));
  int64_t i = 0;
  for (; i + 2 * v <= n; i += 2 * v) {
    for (int64_t idx : {i, i + v}) {
      const T base = base_at(idx);
      for (int64_t k = 0; k < v; ++k) out[idx + k] = elem(base, k);
    }
  }
  for (; i < n; ++i) out[i] = scalar_at(i);
}

// a + b * c as two rounded operations. The volatile keeps a compiler that may contract
// (-ffp-contract=fast with FMA enabled) from fusing what torch did not fuse.
template <typename F>
F add_unfused(F a, F b, F c) {
  volatile F product = b * c;
  return a + product;
}

// 16-bit float arithmetic as c10 defines it: compute in float, round to T each time.
template <typename T>
T r16(float v) {
  return T(v);
}

// Integer sums wrap like torch's (two's complement) without signed-overflow UB.
int64_t wrapping_add(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b));
}
int64_t wrapping_mul(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) * static_cast<uint64_t>(b));
}

template <typename T>
constexpr bool is_reduced_float = std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>;

// at::acc_type<T, /*is_cuda=*/false>: int64 for integers, float for 16-bit floats,
// double for float and double.
template <typename T>
using ArangeAcc = std::conditional_t<std::is_integral_v<T>, int64_t,
                                     std::conditional_t<is_reduced_float<T>, float, double>>;

template <typename T>
void arange_fill(T* out, int64_t n, ArangeAcc<T> start, ArangeAcc<T> step) {
  using A = ArangeAcc<T>;
  if constexpr (std::is_integral_v<T>) {
    // Exact in int64; the cast to T keeps the low bits, as torch's does.
    for (int64_t i = 0; i < n; ++i) out[i] = static_cast<T>(wrapping_add(start, wrapping_mul(step, i)));
  } else {
    auto at = [&](int64_t idx) { return std::fma(step, static_cast<A>(idx), start); };
    auto scalar_at = [&](int64_t idx) { return convert<T>(at(idx)); };
    auto elem = [&](T base, int64_t k) -> T {
      if constexpr (is_reduced_float<T>) {
        return T(add_unfused(static_cast<float>(base), static_cast<float>(k), step));
      } else {
        return convert<T>(std::fma(static_cast<double>(k), step, static_cast<double>(base)));
      }
    };
    torch_vectorized_fill<T>(out, n, scalar_at, elem, scalar_at);
  }
}

// arange's element count, as torch computes it: in int64 (wrapping) for int64 output,
// in double for every other dtype.
template <typename T>
double arange_size(ArangeAcc<T> xstart, ArangeAcc<T> xend, ArangeAcc<T> xstep, const Scalar& start,
                   const Scalar& end, const Scalar& step) {
  if constexpr (std::is_same_v<T, int64_t>) {
    int64_t sign = (xstep > 0) - (xstep < 0);
    int64_t numerator = wrapping_add(wrapping_add(xend, -xstart), wrapping_add(xstep, -sign));
    // INT64_MIN / -1 traps; torch's result would be out of range anyway.
    if (xstep == -1 && numerator == std::numeric_limits<int64_t>::min()) return -1;
    return std::ceil(static_cast<double>(numerator / xstep));
  } else {
    return std::ceil((end.to<double>() - start.to<double>()) / step.to<double>());
  }
}

}  // namespace

Tensor arange(const Scalar& end, std::optional<DType> dtype) {
  return arange(Scalar(int64_t{0}), end, Scalar(int64_t{1}), dtype);
}

Tensor arange(const Scalar& start, const Scalar& end, const Scalar& step,
              std::optional<DType> dtype) {
  auto integral = [](const Scalar& s) { return s.is_integral() || s.is_bool(); };
  DType out = dtype.value_or(integral(start) && integral(end) && integral(step)
                                 ? DType::Long
                                 : kDefaultFloatDType);
  if (out == DType::Bool) throw_unsupported_dtype("arange_cpu", out);
  return dispatch_real(out, "arange_cpu", [&]<typename T>() -> Tensor {
    if constexpr (std::is_same_v<T, bool>) {
      throw_unsupported_dtype("arange_cpu", out);
    } else {
      using A = ArangeAcc<T>;
      const A xstart = start.to<A>(), xend = end.to<A>(), xstep = step.to<A>();
      TL_CHECK(xstep > 0 || xstep < 0, ValueError, "step must be nonzero");
      TL_CHECK(std::isfinite(static_cast<double>(xstart)) && std::isfinite(static_cast<double>(xend)),
               ValueError, "unsupported range: {} -> {}", xstart, xend);
      TL_CHECK((xstep > 0 && xend >= xstart) || (xstep < 0 && xend <= xstart), ValueError,
               "upper bound and larger bound inconsistent with step sign");
      double size_d = arange_size<T>(xstart, xend, xstep, start, end, step);
      TL_CHECK(size_d >= 0 && size_d <= static_cast<double>(std::numeric_limits<int64_t>::max()),
               ValueError, "invalid size, possible overflow?");
      auto size = static_cast<int64_t>(size_d);
      Tensor t = empty({size}, out);
      arange_fill<T>(t.data<T>(), size, xstart, xstep);
      return t;
    }
  });
}

namespace {

// torch 1.13's linspace_kernel: the first half counts up from start and the second half
// down from end, so both ends are exact; step is in the output type (double for
// integral outputs), and the walk follows Note [torch's vectorized fill].
template <typename T>
void linspace_fill(T* out, int64_t steps, T start, T end) {
  const int64_t halfway = steps / 2;
  auto down = [&](int64_t idx) { return steps - idx - 1; };
  if constexpr (std::is_integral_v<T>) {
    const double step = (static_cast<double>(end) - static_cast<double>(start)) /
                        static_cast<double>(steps - 1);
    auto at = [&](int64_t idx) {
      if (idx < halfway) return std::fma(step, static_cast<double>(idx), static_cast<double>(start));
      return std::fma(-step, static_cast<double>(down(idx)), static_cast<double>(end));
    };
    auto scalar_at = [&](int64_t idx) { return convert<T>(at(idx)); };
    auto elem = [&](T base, int64_t k) {
      return convert<T>(add_unfused(static_cast<double>(base), static_cast<double>(k), step));
    };
    torch_vectorized_fill<T>(out, steps, scalar_at, elem, scalar_at);
  } else if constexpr (is_reduced_float<T>) {
    // c10::Half / BFloat16 operators round to the 16-bit type after each operation,
    // and an integer operand is first converted to the 16-bit type.
    auto f = [](T v) { return static_cast<float>(v); };
    const T step = r16<T>(f(r16<T>(f(end) - f(start))) / f(r16<T>(static_cast<float>(steps - 1))));
    auto times = [&](int64_t n) { return r16<T>(f(step) * f(r16<T>(static_cast<float>(n)))); };
    auto at = [&](int64_t idx) {
      if (idx < halfway) return r16<T>(f(start) + f(times(idx)));
      return r16<T>(f(end) - f(times(down(idx))));
    };
    auto elem = [&](T base, int64_t k) { return r16<T>(f(base) + f(times(k))); };
    torch_vectorized_fill<T>(out, steps, at, elem, at);
  } else {
    // float, double and complex (c10::complex scales and adds componentwise here).
    using R = typename detail::ScalarComponent<T>::type;
    const T step = (end - start) / static_cast<R>(steps - 1);
    auto fused = [](R a, R b, R c) { return std::fma(a, b, c); };
    auto at = [&](int64_t idx) -> T {
      const bool up = idx < halfway;
      const T origin = up ? start : end;
      const T dir = up ? step : -step;
      const R n = static_cast<R>(up ? idx : down(idx));
      if constexpr (detail::is_complex_v<T>) {
        return T(fused(dir.real(), n, origin.real()), fused(dir.imag(), n, origin.imag()));
      } else {
        return fused(dir, n, origin);
      }
    };
    auto elem = [&](T base, int64_t k) -> T {
      const R kk = static_cast<R>(k);
      if constexpr (detail::is_complex_v<T>) {
        return T(add_unfused(base.real(), kk, step.real()), add_unfused(base.imag(), kk, step.imag()));
      } else {
        return add_unfused(base, kk, step);
      }
    };
    torch_vectorized_fill<T>(out, steps, at, elem, at);
  }
}

}  // namespace

Tensor linspace(const Scalar& start, const Scalar& end, int64_t steps, std::optional<DType> dtype) {
  TL_CHECK(steps >= 0, ValueError, "number of steps must be non-negative");
  const bool complex_ends = start.is_complex() || end.is_complex();
  TL_CHECK(!complex_ends || !dtype || is_complex(*dtype), TypeError,
           "torch.linspace(): inferred dtype c10::complex<float> can't be safely cast to passed "
           "dtype {}",
           dtype_info(dtype.value_or(DType::ComplexFloat)).scalar_type_name);
  DType out = dtype.value_or(complex_ends ? DType::ComplexFloat : kDefaultFloatDType);
  if (out == DType::Bool || out == DType::ComplexHalf) throw_unsupported_dtype("linspace_cpu", out);
  Tensor t = empty({steps}, out);
  if (steps == 0) return t;
  if (steps == 1) {
    t.fill_(start);
    return t;
  }
  dispatch_all(out, "linspace_cpu", [&]<typename T>() {
    if constexpr (std::is_same_v<T, bool> || std::is_same_v<T, ComplexHalf>) {
      throw_unsupported_dtype("linspace_cpu", out);
    } else {
      linspace_fill<T>(t.data<T>(), steps, start.to<T>(), end.to<T>());
    }
  });
  return t;
}

}  // namespace torchlet

// Random sampling that reproduces torch's CPU generator bit for bit: an mt19937
// engine seeded as torch.manual_seed seeds it, torch's integer-to-float transforms
// (24 or 53 low bits), Box-Muller normals with the cached second sample, and the
// contiguous float path torch 1.13 takes for 16+ elements, whose AVX2 build uses
// cephes-style single-precision log/sincos with fused multiply-adds (see Note
// [torch's AVX2 normal fill]); exponential, Cauchy, log-normal and geometric fills. Also
// eye(). Sampling is serial, in torch's order.
#include <array>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <mutex>
#include <numbers>

#include <torchlet/error.h>
#include <torchlet/ops.h>

#include "tensor/kernels/loop.h"
#include "tensor/kernels/vec_math.h"

namespace torchlet {

// --- Generator -------------------------------------------------------------------------

Generator::Generator(uint64_t seed) { manual_seed(seed); }

void Generator::manual_seed(uint64_t seed) {
  std::lock_guard<std::mutex> lock(mutex_);
  seed_ = seed;
  // torch keeps the low 32 bits for the state, as std::mt19937's seeding does.
  engine_.seed(static_cast<uint32_t>(seed & 0xffffffffu));
  next_double_normal_.reset();
}

uint32_t Generator::random() { return static_cast<uint32_t>(engine_()); }

uint64_t Generator::random64() {
  uint64_t hi = random(), lo = random();  // first draw is the high word
  return (hi << 32) | lo;
}

Generator& default_generator() {
  static Generator gen;
  return gen;
}

void manual_seed(uint64_t seed) { default_generator().manual_seed(seed); }

namespace {

Generator& pick(Generator* gen) { return gen ? *gen : default_generator(); }

// torch's uniform_real: the low `digits` bits of one draw (32-bit for all but double)
// scaled to [0, 1), then x * (to - from) + from. `fused`: torch's AVX2 build fuses
// that last multiply-add (GCC contracts it under -mfma).
template <typename T>
kernels::opmath_t<T> uniform_real(Generator& g, kernels::opmath_t<T> from, kernels::opmath_t<T> to) {
  using M = kernels::opmath_t<T>;
  constexpr int digits = std::is_same_v<T, double> ? 53 : std::is_same_v<T, float> ? 24
                         : std::is_same_v<T, Half>  ? 11
                                                    : 8;
  uint64_t v = std::is_same_v<T, double> ? g.random64() : g.random();
  const uint64_t mask = (uint64_t{1} << digits) - 1;
  const M x = static_cast<M>(v & mask) * (M(1) / static_cast<M>(uint64_t{1} << digits));
  if (from == M(0) && to == M(1)) return x;  // the fused form is exactly x here
  return std::fma(x, to - from, from);
}

// Visits every element in the order torch's TensorIterator does for a nullary op:
// memory order (dims sorted by stride, innermost last), so a transposed view is
// filled along its storage.
template <typename T, typename F>
void fill_serial(Tensor& self, const F& next) {
  if (self.is_contiguous()) {
    T* p = self.data<T>();
    for (int64_t i = 0, n = self.numel(); i < n; ++i) p[i] = static_cast<T>(next());
    return;
  }
  const int64_t nd = self.dim();
  Shape perm(static_cast<size_t>(nd));
  for (int64_t i = 0; i < nd; ++i) perm[static_cast<size_t>(i)] = i;
  std::stable_sort(perm.begin(), perm.end(),
                   [&](int64_t a, int64_t b) { return self.stride(a) > self.stride(b); });
  Tensor v = self.permute(perm);
  if (v.numel() == 0) return;
  T* base = v.data<T>();
  Shape idx(static_cast<size_t>(nd), 0);
  for (int64_t n = 0; n < v.numel(); ++n) {
    int64_t off = 0;
    for (int64_t d = 0; d < nd; ++d) off += idx[static_cast<size_t>(d)] * v.stride(d);
    base[off] = static_cast<T>(next());
    for (int64_t d = nd - 1; d >= 0; --d) {
      if (++idx[static_cast<size_t>(d)] < v.size(d)) break;
      idx[static_cast<size_t>(d)] = 0;
    }
  }
}

// torch's normal_distribution<double>: Box-Muller on two 53-bit uniforms; the sine
// half is cached in the generator for the next call.
double normal_double(Generator& g, double mean, double std) {
  if (g.next_double_normal_) {
    double r = *g.next_double_normal_;
    g.next_double_normal_.reset();
    return std::fma(r, std, mean);
  }
  double u1 = uniform_real<double>(g, 0, 1), u2 = uniform_real<double>(g, 0, 1);
  double r = std::sqrt(-2.0 * std::log(1.0 - u2));
  double theta = 2.0 * std::numbers::pi * u1;
  g.next_double_normal_ = r * std::sin(theta);
  return std::fma(r * std::cos(theta), std, mean);
}

// Note [torch's AVX2 normal fill]
// torch 1.13 fills a contiguous float tensor of 16+ elements with uniforms, then
// turns each block of 16 into normals: u1 = 1 - d[j], u2 = d[j + 8] for j < 8,
// r = sqrt(-2 log u1), d[j] = r cos(2 pi u2) * std + mean, d[j + 8] = r sin(...). Its
// AVX2 build evaluates log and sincos with the cephes single-precision polynomials
// (avx_mathfun.h), and GCC fuses each multiply feeding an add (-mfma). These
// scalar versions follow the same operations in the same order, fused the same way,
// so the floats agree bit for bit.
// Selections are bit masks (kernels::select), so the 8-lane loop below vectorises.
[[gnu::always_inline]] inline float cephes_logf(float x) {
  using kernels::select;
  const float one = 1.0f;
  x = std::max(x, std::numeric_limits<float>::min());  // cut off denormals
  const uint32_t bits = std::bit_cast<uint32_t>(x);
  const int32_t exponent = static_cast<int32_t>(bits >> 23) - 0x7f;
  x = std::bit_cast<float>((bits & ~0x7f800000u) | 0x3f000000u);  // mantissa in [0.5, 1)
  float e = static_cast<float>(exponent) + one;
  const bool small = x < 0.707106781186547524f;
  const float tmp = select(small, x, 0.0f);
  x = x - one;
  e = e - select(small, one, 0.0f);
  x = x + tmp;
  const float z = x * x;
  float y = 7.0376836292E-2f;
  y = std::fma(y, x, -1.1514610310E-1f);
  y = std::fma(y, x, 1.1676998740E-1f);
  y = std::fma(y, x, -1.2420140846E-1f);
  y = std::fma(y, x, 1.4249322787E-1f);
  y = std::fma(y, x, -1.6668057665E-1f);
  y = std::fma(y, x, 2.0000714765E-1f);
  y = std::fma(y, x, -2.4999993993E-1f);
  y = std::fma(y, x, 3.3333331174E-1f);
  // GCC fuses the first multiply feeding each add, in statement order.
  y = y * x;
  y = std::fma(y, z, e * -2.12194440e-4f);
  y = std::fma(-z, 0.5f, y);
  return std::fma(e, 0.693359375f, x + y);
}

[[gnu::always_inline]] inline void cephes_sincosf(float xin, float* s, float* c) {
  using kernels::select;
  const uint32_t sign_in = std::bit_cast<uint32_t>(xin) & 0x80000000u;
  float x = std::bit_cast<float>(std::bit_cast<uint32_t>(xin) & 0x7fffffffu);
  int32_t j = static_cast<int32_t>(x * 1.27323954473516f);  // 4 / pi, truncated
  j = (j + 1) & ~1;
  const float y = static_cast<float>(j);
  const uint32_t sign_sin = sign_in ^ (static_cast<uint32_t>(j & 4) << 29);
  const uint32_t sign_cos = static_cast<uint32_t>(~(j - 2) & 4) << 29;
  const bool poly2 = (j & 2) == 0;  // the sine polynomial serves the sine
  // Extended-precision reduction x - y * pi/4 in three parts.
  x = std::fma(y, -0.78515625f, x);
  x = std::fma(y, -2.4187564849853515625e-4f, x);
  x = std::fma(y, -3.77489497744594108e-8f, x);
  const float z = x * x;
  float yc = 2.443315711809948E-005f;
  yc = std::fma(yc, z, -1.388731625493765E-003f);
  yc = std::fma(yc, z, 4.166664568298827E-002f);
  yc = yc * z;
  yc = std::fma(yc, z, -(z * 0.5f));
  yc = yc + 1.0f;
  float ys = -1.9515295891E-4f;
  ys = std::fma(ys, z, 8.3321608736E-3f);
  ys = std::fma(ys, z, -1.6666654611E-1f);
  ys = ys * z;
  ys = std::fma(ys, x, x);
  *s = std::bit_cast<float>(std::bit_cast<uint32_t>(select(poly2, ys, yc)) ^ sign_sin);
  *c = std::bit_cast<float>(std::bit_cast<uint32_t>(select(poly2, yc, ys)) ^ sign_cos);
}

// Built for x86-64-v3 CPUs too (AVX2 + FMA), so std::fma is one instruction and the
// 8 lanes vectorise; the results are the same correctly rounded values either way.
// (Not under ThreadSanitizer: see TL_VECTOR_CLONES in loop.h.)
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && !defined(__SANITIZE_THREAD__)
__attribute__((target_clones("arch=x86-64-v3", "default")))
#endif
void normal_fill_16_float(float* d, float mean, float std) {
  const float two_pi = static_cast<float>(2.0f * std::numbers::pi);
  float lo[8], hi[8];
  for (int j = 0; j < 8; ++j) {
    const float u1 = 1.0f - d[j], u2 = d[j + 8];
    const float radius = std::sqrt(-2.0f * cephes_logf(u1));
    float s, c;
    cephes_sincosf(two_pi * u2, &s, &c);
    lo[j] = std::fma(radius * c, std, mean);
    hi[j] = std::fma(radius * s, std, mean);
  }
  std::memcpy(d, lo, sizeof(lo));
  std::memcpy(d + 8, hi, sizeof(hi));
}

// torch's scalar normal_fill_16 (double, bfloat16): std functions in the element type.
template <typename T>
void normal_fill_16_generic(T* d, T mean, T std) {
  using M = kernels::opmath_t<T>;
  for (int j = 0; j < 8; ++j) {
    const T u1 = static_cast<T>(M(1) - static_cast<M>(d[j]));
    const T u2 = d[j + 8];
    const T radius = static_cast<T>(std::sqrt(M(-2) * std::log(static_cast<M>(u1))));
    const T theta = static_cast<T>(2.0f * std::numbers::pi * static_cast<double>(static_cast<M>(u2)));
    d[j] = static_cast<T>(std::fma(static_cast<M>(radius) * std::cos(static_cast<M>(theta)), static_cast<M>(std),
                                   static_cast<M>(mean)));
    d[j + 8] = static_cast<T>(std::fma(static_cast<M>(radius) * std::sin(static_cast<M>(theta)), static_cast<M>(std),
                                       static_cast<M>(mean)));
  }
}

template <typename T>
void normal_fill(Tensor& self, double mean, double std, Generator& g) {
  T* d = self.data<T>();
  const int64_t n = self.numel();
  auto fill_uniform = [&](T* p, int64_t count) {
    for (int64_t i = 0; i < count; ++i) p[i] = static_cast<T>(uniform_real<T>(g, 0, 1));
  };
  auto block = [&](T* p) {
    if constexpr (std::is_same_v<T, float>) normal_fill_16_float(p, static_cast<float>(mean), static_cast<float>(std));
    else normal_fill_16_generic<T>(p, static_cast<T>(mean), static_cast<T>(std));
  };
  fill_uniform(d, n);
  for (int64_t i = 0; i + 16 <= n; i += 16) block(d + i);
  if (n % 16 != 0) {
    // The tail: the last 16 elements get fresh uniforms and are transformed again.
    fill_uniform(d + n - 16, 16);
    block(d + n - 16);
  }
}

// torch's AT_DISPATCH refusal, worded as torch words it.
[[noreturn]] void not_implemented_for(const char* kernel, DType d) {
  TL_FAIL(UnsupportedError, "\"{}\" not implemented for '{}'", kernel, dtype_info(d).scalar_type_name);
}
void check_random_dtype(DType d, const char* kernel) {
  if (!is_floating(d)) not_implemented_for(kernel, d);
}

}  // namespace

Tensor& uniform_(Tensor& self, double from, double to, Generator* gen) {
  TL_CHECK(from <= to, ValueError, "uniform_ expects to return a [from, to) range, but found from={} > to={}", from, to);
  check_random_dtype(self.dtype(), "uniform_kernel_cpu");
  Generator& g = pick(gen);
  std::lock_guard<std::mutex> lock(g.mutex_);
  kernels::dispatch_floating(self.dtype(), "uniform_kernel_cpu", [&]<typename T>() {
    using M = kernels::opmath_t<T>;
    // torch converts the bounds to the element type first.
    const M lo = static_cast<M>(static_cast<T>(from)), hi = static_cast<M>(static_cast<T>(to));
    fill_serial<T>(self, [&] { return uniform_real<T>(g, lo, hi); });
  });
  return self;
}

Tensor& normal_(Tensor& self, double mean, double std, Generator* gen) {
  TL_CHECK(std >= 0, ValueError, "normal expects std >= 0.0, but found std {}", std);
  check_random_dtype(self.dtype(), "normal_kernel_cpu");
  Generator& g = pick(gen);
  std::lock_guard<std::mutex> lock(g.mutex_);
  const bool block_path = self.numel() >= 16 && self.is_contiguous();
  kernels::dispatch_floating(self.dtype(), "normal_kernel_cpu", [&]<typename T>() {
    if (block_path) return normal_fill<T>(self, mean, std, g);
    fill_serial<T>(self, [&] { return normal_double(g, mean, std); });
  });
  return self;
}

namespace {

// random_(from, None): the values from `from` to the type's largest (2^digits for a
// floating type, exact in it), as torch's random_from_to_impl computes the range.
uint64_t range_to_dtype_max(DType d, int64_t from) {
  TL_CHECK(from != std::numeric_limits<int64_t>::min(), UnsupportedError,
           "random_: the full 64-bit range (from=-2**63, to=None) is not supported yet");
  int64_t to_inc = 0;
  if (is_floating(d)) {
    const int digits = d == DType::Double ? 53 : d == DType::Float ? 24 : d == DType::Half ? 11 : 8;
    to_inc = int64_t{1} << digits;
    TL_CHECK(from < to_inc, ValueError,
             "random_ expects 'from' casted to dtype to be less than or equal to 'to_inc' casted to dtype, but got "
             "from={} > to_inc={}", from, to_inc);
  } else {
    int64_t lo = 0;
    const char* c_name = "";
    dispatch_real(d, "random_from_to_range_calc", [&]<typename T>() {
      if constexpr (std::is_integral_v<T>) {
        lo = static_cast<int64_t>(std::numeric_limits<T>::lowest());
        to_inc = static_cast<int64_t>(std::numeric_limits<T>::max());
      }
    });
    switch (d) {
      case DType::Bool: c_name = "bool"; break;
      case DType::Byte: c_name = "unsigned char"; break;
      case DType::Char: c_name = "signed char"; break;
      case DType::Short: c_name = "short"; break;
      case DType::Int: c_name = "int"; break;
      default: c_name = "long"; break;
    }
    TL_CHECK(from >= lo && from <= to_inc, ValueError, "from is out of bounds for {}", c_name);
  }
  return static_cast<uint64_t>(to_inc) - static_cast<uint64_t>(from) + 1;
}

}  // namespace

Tensor& random_(Tensor& self, int64_t from, std::optional<int64_t> to, Generator* gen) {
  uint64_t range = 0;
  if (to) {
    TL_CHECK(from < *to, ValueError, "random_ expects 'from' to be less than 'to', but got from={} >= to={}", from, *to);
    TL_CHECK(self.dtype() != DType::Bool || (from >= 0 && *to <= 2), ValueError,
             "random_ expects 'from' and 'to' to fit a bool, got from={} to={}", from, *to);
    range = static_cast<uint64_t>(*to) - static_cast<uint64_t>(from);
  } else {
    range = range_to_dtype_max(self.dtype(), from);
  }
  Generator& g = pick(gen);
  std::lock_guard<std::mutex> lock(g.mutex_);
  dispatch_real(self.dtype(), "random_from_to_kernel_cpu", [&]<typename T>() {
    // torch draws 64 bits only for ranges past 2^32, and only for these types.
    constexpr bool wide_ok = std::is_same_v<T, int64_t> || std::is_same_v<T, double> || std::is_same_v<T, float> ||
                             std::is_same_v<T, BFloat16>;
    const bool wide = wide_ok && range >= (uint64_t{1} << 32);
    fill_serial<T>(self, [&] {
      uint64_t v = wide ? g.random64() : g.random();
      return static_cast<T>(static_cast<int64_t>(v % range + static_cast<uint64_t>(from)));
    });
  });
  return self;
}

Tensor& random_(Tensor& self, Generator* gen) {
  Generator& g = pick(gen);
  std::lock_guard<std::mutex> lock(g.mutex_);
  // torch's uniform_int: bool takes the low bit of a 32-bit draw; int64 and double a
  // 64-bit draw, the others a 32-bit one, reduced modulo (max + 1) for integers and
  // (2^digits + 1) for floating types, so every value is exact in the type.
  dispatch_real(self.dtype(), "random_kernel_cpu", [&]<typename T>() {
    constexpr bool wide = std::is_same_v<T, int64_t> || std::is_same_v<T, double>;
    uint64_t modulus = 0;
    if constexpr (std::is_same_v<T, bool>) {
      modulus = 2;
    } else if constexpr (std::is_integral_v<T>) {
      modulus = static_cast<uint64_t>(std::numeric_limits<T>::max()) + 1;
    } else {
      constexpr int digits = std::is_same_v<T, double> ? 53 : std::is_same_v<T, float> ? 24
                             : std::is_same_v<T, Half>  ? 11
                                                        : 8;
      modulus = (uint64_t{1} << digits) + 1;
    }
    fill_serial<T>(self, [&] {
      const uint64_t v = wide ? g.random64() : g.random();
      return static_cast<T>(v % modulus);
    });
  });
  return self;
}

Tensor& bernoulli_(Tensor& self, double p, Generator* gen) {
  TL_CHECK(p >= 0 && p <= 1, ValueError, "bernoulli_ expects p to be in [0, 1], but got p={}", p);
  Generator& g = pick(gen);
  std::lock_guard<std::mutex> lock(g.mutex_);
  // torch without MKL (Debian's build) draws one 53-bit double per element in
  // TensorIterator's order and keeps 1 where it is below p; with MKL it would use MKL's
  // own stream instead, which no one could reproduce.
  dispatch_real(self.dtype(), "bernoulli_scalar_cpu_", [&]<typename T>() {
    fill_serial<T>(self, [&] { return uniform_real<double>(g, 0, 1) < p ? 1.0 : 0.0; });
  });
  return self;
}

// torch's other distributions (without MKL, as Debian builds it): each element is one
// transformation, in double, of torch's double distributions (53-bit uniforms, or the
// cached Box-Muller normal), cast to the element type, in TensorIterator's order.
namespace {

template <typename Sample>
void fill_floating(Tensor& self, const char* kernel, Generator& g, const Sample& sample) {
  check_random_dtype(self.dtype(), kernel);
  std::lock_guard<std::mutex> lock(g.mutex_);
  kernels::dispatch_floating(self.dtype(), kernel, [&]<typename T>() {
    fill_serial<T>(self, [&] { return convert<T>(sample()); });
  });
}

}  // namespace

Tensor& exponential_(Tensor& self, double lambd, Generator* gen) {
  TL_CHECK(lambd >= 0, ValueError, "exponential_ expects lambda >= 0.0, but found lambda={}", lambd);
  Generator& g = pick(gen);
  fill_floating(self, "exponential_cpu", g, [&] { return -1.0 / lambd * std::log(1.0 - uniform_real<double>(g, 0, 1)); });
  return self;
}

Tensor& cauchy_(Tensor& self, double median, double sigma, Generator* gen) {
  Generator& g = pick(gen);
  fill_floating(self, "cauchy_cpu", g, [&] {
    return median + sigma * std::tan(std::numbers::pi * (uniform_real<double>(g, 0, 1) - 0.5));
  });
  return self;
}

Tensor& log_normal_(Tensor& self, double mean, double std, Generator* gen) {
  TL_CHECK(std > 0, ValueError, "log_normal_ expects std > 0.0, but found std={}", std);
  Generator& g = pick(gen);
  fill_floating(self, "log_normal_cpu", g, [&] { return std::exp(normal_double(g, mean, std)); });
  return self;
}

Tensor& geometric_(Tensor& self, double p, Generator* gen) {
  TL_CHECK(p > 0 && p < 1, ValueError, "geometric_ expects p to be in (0, 1), but got p={}", p);
  if (self.dtype() == DType::Bool) not_implemented_for("geometric_cpu", DType::Bool);
  Generator& g = pick(gen);
  std::lock_guard<std::mutex> lock(g.mutex_);
  const double log_q = std::log(1.0 - p);
  dispatch_real(self.dtype(), "geometric_cpu", [&]<typename T>() {
    fill_serial<T>(self, [&] { return convert<T>(std::ceil(std::log(uniform_real<double>(g, 0, 1)) / log_q)); });
  });
  return self;
}

Tensor rrelu(const Tensor& self, const Scalar& lower_bound, const Scalar& upper_bound, bool training, Generator* gen) {
  const double lower = lower_bound.to_double(), upper = upper_bound.to_double();
  TL_CHECK(lower <= upper, ValueError, "Lower bound should be less than or equal to the upper bound");
  if (!training) return leaky_relu(self, Scalar((lower + upper) / 2));
  const DType d = self.dtype();
  if (d != DType::Float && d != DType::Double && d != DType::BFloat16) not_implemented_for("rrelu_with_noise_out_cpu", d);
  // torch's _rrelu_with_noise_train: the input made contiguous, a slope drawn for each
  // element <= 0 only, uniform in [lower, upper] after both are rounded to the element
  // type (torch's generic build: the scale and shift are not fused).
  const Tensor in = self.contiguous();
  Tensor out = empty(self.sizes(), d);
  Generator& g = pick(gen);
  std::lock_guard<std::mutex> lock(g.mutex_);
  kernels::dispatch_floating(d, "rrelu_with_noise_out_cpu", [&]<typename T>() {
    using M = kernels::opmath_t<T>;
    const double lo = static_cast<double>(static_cast<M>(static_cast<T>(lower)));
    const double hi = static_cast<double>(static_cast<M>(static_cast<T>(upper)));
    const T* x = in.data<T>();
    T* y = out.data<T>();
    for (int64_t i = 0, n = in.numel(); i < n; ++i) {
      if (static_cast<M>(x[i]) <= M(0)) {
        const double u = uniform_real<double>(g, 0, 1);
        const T slope = static_cast<T>(u * (hi - lo) + lo);
        y[i] = static_cast<T>(static_cast<M>(x[i]) * static_cast<M>(slope));
      } else {
        y[i] = x[i];
      }
    }
  });
  return out;
}

Tensor rand(IntList size, DType dtype, Generator* gen) {
  Tensor t = empty(size, dtype);
  return uniform_(t, 0, 1, gen);
}

Tensor randn(IntList size, DType dtype, Generator* gen) {
  Tensor t = empty(size, dtype);
  return normal_(t, 0, 1, gen);
}

Tensor randint(int64_t low, int64_t high, IntList size, DType dtype, Generator* gen) {
  Tensor t = empty(size, dtype);
  return random_(t, low, high, gen);
}

Tensor eye(int64_t n, std::optional<int64_t> m_in, DType dtype) {
  int64_t m = m_in.value_or(n);
  TL_CHECK(n >= 0, ValueError, "n must be greater or equal to 0, got {}", n);
  TL_CHECK(m >= 0, ValueError, "m must be greater or equal to 0, got {}", m);
  Tensor t = zeros({n, m}, dtype);
  int64_t k = std::min(n, m);
  if (k > 0) t.as_strided({k}, {m + 1}, 0).fill_(1);
  return t;
}

}  // namespace torchlet

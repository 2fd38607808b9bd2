// Random tensors and in-place sampling from torchlet's seedable default generator
// (kernels in src/tensor/kernels/random.cpp): rand/randn/randint and their _like forms,
// manual_seed, uniform_, normal_, random_, bernoulli_, exponential_, cauchy_,
// log_normal_ and geometric_, each registered from a typed function (Note [Boxing] in
// boxing.h). Generator arguments must be None (NoGenerator): the default generator is
// used, seeded by aten::manual_seed, so results match torch.manual_seed's. rrelu and
// dropout are the nn families'; eye is factory.cpp's.
#include <optional>

#include <torchlet/ops.h>

#include "jit/ops/boxing.h"

namespace torchlet::jit::ops {
namespace {

template <bool kNormal>
Tensor sampled(IntList size, std::optional<DType> dtype) {
  const DType d = dtype.value_or(kDefaultFloatDType);
  return kNormal ? randn(size, d) : rand(size, d);
}
template <bool kNormal>
Tensor sampled_with(IntList size, NoGenerator, std::optional<DType> dtype) {
  return sampled<kNormal>(size, dtype);
}
Tensor randint_low(int64_t low, int64_t high, IntList size, std::optional<DType> dtype) {
  return randint(low, high, size, dtype.value_or(DType::Long));
}
Tensor randint_high(int64_t high, IntList size, std::optional<DType> dtype) { return randint_low(0, high, size, dtype); }
Tensor randint_low_with(int64_t low, int64_t high, IntList size, NoGenerator, std::optional<DType> dtype) {
  return randint_low(low, high, size, dtype);
}
Tensor randint_high_with(int64_t high, IntList size, NoGenerator, std::optional<DType> dtype) {
  return randint_low(0, high, size, dtype);
}
template <bool kNormal>
Tensor rand_like(const Tensor& self, std::optional<DType> dtype) {
  return sampled<kNormal>(self.sizes(), dtype.value_or(self.dtype()));
}
Tensor randint_like_low(const Tensor& self, int64_t low, int64_t high, std::optional<DType> dtype) {
  return randint(low, high, self.sizes(), dtype.value_or(self.dtype()));
}
Tensor randint_like(const Tensor& self, int64_t high, std::optional<DType> dtype) {
  return randint_like_low(self, 0, high, dtype);
}

void seed_default_generator(int64_t seed) { torchlet::manual_seed(static_cast<uint64_t>(seed)); }

// The in-place samplers fill self and return it.
Tensor fill_uniform(Tensor self, double from, double to) { return torchlet::uniform_(self, from, to); }
Tensor fill_normal(Tensor self, double mean, double std) { return torchlet::normal_(self, mean, std); }
Tensor fill_random_from(Tensor self, int64_t from, std::optional<int64_t> to) { return torchlet::random_(self, from, to); }
Tensor fill_random_to(Tensor self, int64_t to) { return torchlet::random_(self, 0, to); }
Tensor fill_random(Tensor self) { return torchlet::random_(self); }
Tensor fill_bernoulli(Tensor self, double p) { return torchlet::bernoulli_(self, p); }
Tensor fill_exponential(Tensor self, double lambd) { return torchlet::exponential_(self, lambd); }
Tensor fill_cauchy(Tensor self, double median, double sigma) { return torchlet::cauchy_(self, median, sigma); }
Tensor fill_log_normal(Tensor self, double mean, double std) { return torchlet::log_normal_(self, mean, std); }
Tensor fill_geometric(Tensor self, double p) { return torchlet::geometric_(self, p); }

static RegisterOps reg({
    {"aten::rand_like(Tensor self, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None, MemoryFormat? memory_format=None) -> Tensor", boxed<&rand_like<false>, StridedCpu, DefaultMemoryFormat>},
    {"aten::randn_like(Tensor self, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None, MemoryFormat? memory_format=None) -> Tensor", boxed<&rand_like<true>, StridedCpu, DefaultMemoryFormat>},
    {"aten::randint_like(Tensor self, int high, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None, MemoryFormat? memory_format=None) -> Tensor", boxed<&randint_like, StridedCpu, DefaultMemoryFormat>},
    {"aten::randint_like.low_dtype(Tensor self, int low, int high, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None, MemoryFormat? memory_format=None) -> Tensor", boxed<&randint_like_low, StridedCpu, DefaultMemoryFormat>},
    {"aten::rand(int[] size, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor", boxed<&sampled<false>, StridedCpu>},
    {"aten::rand.generator(int[] size, *, Generator? generator, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor", boxed<&sampled_with<false>, StridedCpu>},
    {"aten::randn(int[] size, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor", boxed<&sampled<true>, StridedCpu>},
    {"aten::randn.generator(int[] size, *, Generator? generator, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor", boxed<&sampled_with<true>, StridedCpu>},
    {"aten::randint(int high, int[] size, *, ScalarType? dtype=4, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor", boxed<&randint_high, StridedCpu>},
    {"aten::randint.generator(int high, int[] size, *, Generator? generator, ScalarType? dtype=4, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor", boxed<&randint_high_with, StridedCpu>},
    {"aten::randint.low(int low, int high, int[] size, *, ScalarType? dtype=4, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor", boxed<&randint_low, StridedCpu>},
    {"aten::randint.low_generator(int low, int high, int[] size, *, Generator? generator, ScalarType? dtype=4, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor", boxed<&randint_low_with, StridedCpu>},
    {"aten::manual_seed(int seed) -> ()", boxed<&seed_default_generator>},
    {"aten::uniform_(Tensor(a!) self, float from=0., float to=1., *, Generator? generator=None) -> Tensor(a!)", boxed<&fill_uniform, NoGenerator>},
    {"aten::normal_(Tensor(a!) self, float mean=0., float std=1., *, Generator? generator=None) -> Tensor(a!)", boxed<&fill_normal, NoGenerator>},
    {"aten::random_.from(Tensor(a!) self, int from, int? to, *, Generator? generator=None) -> Tensor(a!)", boxed<&fill_random_from, NoGenerator>},
    {"aten::random_.to(Tensor(a!) self, int to, *, Generator? generator=None) -> Tensor(a!)", boxed<&fill_random_to, NoGenerator>},
    {"aten::random_(Tensor(a!) self, *, Generator? generator=None) -> Tensor(a!)", boxed<&fill_random, NoGenerator>},
    {"aten::bernoulli_.float(Tensor(a!) self, float p=0.5, *, Generator? generator=None) -> Tensor(a!)", boxed<&fill_bernoulli, NoGenerator>},
    {"aten::exponential_(Tensor(a!) self, float lambd=1., *, Generator? generator=None) -> Tensor(a!)", boxed<&fill_exponential, NoGenerator>},
    {"aten::cauchy_(Tensor(a!) self, float median=0., float sigma=1., *, Generator? generator=None) -> Tensor(a!)", boxed<&fill_cauchy, NoGenerator>},
    {"aten::log_normal_(Tensor(a!) self, float mean=1., float std=2., *, Generator? generator=None) -> Tensor(a!)", boxed<&fill_log_normal, NoGenerator>},
    {"aten::geometric_(Tensor(a!) self, float p, *, Generator? generator=None) -> Tensor(a!)", boxed<&fill_geometric, NoGenerator>},
});

}  // namespace
}  // namespace torchlet::jit::ops

// Random sampling: torch's CPU generator and the samplers drawing from it
// (random.cpp).
// Part of ops.h, the numeric operators on Tensor.
#pragma once

#include <cstdint>
#include <mutex>
#include <optional>
#include <random>

#include <torchlet/tensor.h>

namespace torchlet {

// --- random sampling (random.cpp) ------------------------------------------------------
// torch's CPU generator: mt19937 seeded with the seed's low 32 bits, so
// manual_seed(s) followed by rand/randn/randint gives torch.manual_seed(s)'s values.
class Generator {
 public:
  static constexpr uint64_t kDefaultSeed = 67280421310721;  // torch's default_rng_seed_val
  explicit Generator(uint64_t seed = kDefaultSeed);
  void manual_seed(uint64_t seed);  // also drops the cached normal sample, as torch does
  uint64_t initial_seed() const { return seed_; }
  uint32_t random();    // one engine draw
  uint64_t random64();  // two draws, the first as the high word
  // Box-Muller's second sample, kept for the next normal draw (torch's
  // next_double_normal_sample); sampling kernels hold mutex_ for a whole fill.
  std::optional<double> next_double_normal_;
  std::mutex mutex_;

 private:
  // std::mt19937's parameters on 32-bit words (std::mt19937 stores 64-bit ones here,
  // which makes every draw slower; the sequence is the same).
  std::mersenne_twister_engine<uint32_t, 32, 624, 397, 31, 0x9908b0df, 11, 0xffffffff, 7, 0x9d2c5680, 15, 0xefc60000,
                               18, 1812433253>
      engine_;
  uint64_t seed_ = 0;
};
// The process-wide generator the functions below use when `gen` is null.
Generator& default_generator();
void manual_seed(uint64_t seed);
// In place, in torch's element order (storage order for strided views).
Tensor& uniform_(Tensor& self, double from = 0, double to = 1, Generator* gen = nullptr);
Tensor& normal_(Tensor& self, double mean = 0, double std = 1, Generator* gen = nullptr);
// 1 with probability p, else 0 (any real dtype).
Tensor& bernoulli_(Tensor& self, double p = 0.5, Generator* gen = nullptr);
// Integers uniform in [from, to); without `to`, up to the type's largest (2^digits for
// floating types).
Tensor& random_(Tensor& self, int64_t from, std::optional<int64_t> to, Generator* gen = nullptr);
// Without bounds: [0, max] for integers, [0, 2^mantissa digits] for floating types.
Tensor& random_(Tensor& self, Generator* gen = nullptr);
// Exponential(lambd), Cauchy(median, sigma), exp(Normal(mean, std)) and the number of
// Bernoulli(p) trials to the first success (any real dtype but bool; the others floating).
Tensor& exponential_(Tensor& self, double lambd = 1, Generator* gen = nullptr);
Tensor& cauchy_(Tensor& self, double median = 0, double sigma = 1, Generator* gen = nullptr);
Tensor& log_normal_(Tensor& self, double mean = 1, double std = 2, Generator* gen = nullptr);
Tensor& geometric_(Tensor& self, double p, Generator* gen = nullptr);
Tensor rand(IntList size, DType dtype = kDefaultFloatDType, Generator* gen = nullptr);
Tensor randn(IntList size, DType dtype = kDefaultFloatDType, Generator* gen = nullptr);
Tensor randint(int64_t low, int64_t high, IntList size, DType dtype = DType::Long, Generator* gen = nullptr);

}  // namespace torchlet

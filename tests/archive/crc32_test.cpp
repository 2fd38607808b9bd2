// CRC-32 (archive/crc32.h) against zlib's crc32, an independent implementation of the
// same polynomial, on every path: short buffers, the parallel split of large ones at
// and around its piece boundaries, and continuation from a running value.
#include <cstddef>
#include <random>
#include <vector>

#include <gtest/gtest.h>
#include <zlib.h>

#include "archive/crc32.h"
#include "core/parallel.h"

namespace torchlet {
namespace {

uint32_t zlib_crc(uint32_t crc, const std::vector<std::byte>& b, size_t off, size_t n) {
  return static_cast<uint32_t>(crc32_z(crc, reinterpret_cast<const Bytef*>(b.data() + off), n));
}

std::vector<std::byte> random_bytes(size_t n) {
  std::mt19937_64 rng(42);
  std::vector<std::byte> b(n);
  for (auto& x : b) x = static_cast<std::byte>(rng() & 0xff);
  return b;
}

TEST(Crc32, CheckValueOfTheStandard) {
  // The CRC-32 (ISO-HDLC, zip's) of the ASCII digits "123456789" is 0xCBF43926.
  const char digits[] = "123456789";
  EXPECT_EQ(crc32(0, std::as_bytes(std::span<const char>(digits, 9))), 0xCBF43926u);
  EXPECT_EQ(crc32(0, {}), 0u);
}

TEST(Crc32, MatchesZlibOnEverySize) {
  constexpr size_t MiB = size_t{1} << 20;
  const auto data = random_bytes(13 * MiB + 17);
  for (size_t n : {size_t{1}, size_t{63}, size_t{4096}, 4 * MiB - 1, 4 * MiB, 8 * MiB - 1, 8 * MiB,
                   8 * MiB + 1, 12 * MiB, 13 * MiB + 17}) {
    EXPECT_EQ(crc32(0, std::span(data.data(), n)), zlib_crc(0, data, 0, n)) << n << " bytes";
  }
}

TEST(Crc32, ContinuesARunningValue) {
  const auto data = random_bytes(20u << 20);
  const uint32_t head = crc32(0, std::span(data.data(), 3));
  EXPECT_EQ(crc32(head, std::span(data.data() + 3, data.size() - 3)), zlib_crc(0, data, 0, data.size()));
}

TEST(Crc32, SameResultOnOneThread) {
  const auto data = random_bytes(17u << 20);
  const uint32_t parallel = crc32(0, data);
  const int threads = get_num_threads();
  set_num_threads(1);
  const uint32_t serial = crc32(0, data);
  set_num_threads(threads);
  EXPECT_EQ(parallel, serial);
  EXPECT_EQ(serial, zlib_crc(0, data, 0, data.size()));
}

TEST(Crc32Ahead, GivesEachBuffersCrcInAnyOrderOfAsking) {
  const auto data = random_bytes(30u << 20);
  std::vector<std::span<const std::byte>> buffers = {
      std::span(data.data(), 0), std::span(data.data(), 1), std::span(data.data() + 5, 9u << 20),
      std::span(data.data() + 100, 20u << 20), std::span(data.data(), 64)};
  Crc32Ahead ahead(buffers);
  for (size_t i : {size_t{3}, size_t{0}, size_t{4}, size_t{1}, size_t{2}, size_t{3}}) {
    EXPECT_EQ(ahead.get(i), zlib_crc(0, data, static_cast<size_t>(buffers[i].data() - data.data()),
                                     buffers[i].size()))
        << i;
  }
}

TEST(Crc32Ahead, StopsWhenDroppedBeforeFinishing) {
  // A save that fails midway drops its Crc32Ahead with most CRCs never asked for: the
  // destructor must end the thread promptly, not hang or read freed buffers.
  const auto data = random_bytes(64u << 20);
  std::vector<std::span<const std::byte>> buffers(64, std::span(data.data(), data.size()));
  { Crc32Ahead ahead(buffers); }
  Crc32Ahead ahead(buffers);
  EXPECT_EQ(ahead.get(0), zlib_crc(0, data, 0, data.size()));
}

}  // namespace
}  // namespace torchlet

// HugePageArena: alignment, disjoint buffers, shared versus dedicated blocks, and that a
// block lives exactly as long as the last buffer carved from it, and that a request no
// system can map is a named error.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

#include <gtest/gtest.h>

#include <torchlet/error.h>

#include "core/huge_page_arena.h"

namespace torchlet {
namespace {

constexpr size_t MiB = size_t{1} << 20;

TEST(HugePageArena, BuffersAreAlignedDisjointAndWritable) {
  HugePageArena arena;
  std::vector<HugePageArena::Buffer> bufs;
  const std::vector<size_t> sizes = {0, 1, 63, 64, 65, 4096, 3 * MiB + 5, 1 * MiB};
  for (size_t n : sizes) bufs.push_back(arena.allocate(n));
  for (size_t i = 0; i < bufs.size(); ++i) {
    EXPECT_EQ(reinterpret_cast<uintptr_t>(bufs[i].data) % HugePageArena::kAlignment, 0u) << i;
    std::memset(bufs[i].data, static_cast<int>(i + 1), sizes[i]);
  }
  // Writing each buffer in full left every other one intact.
  for (size_t i = 0; i < bufs.size(); ++i) {
    for (size_t j = 0; j < sizes[i]; j += 997) ASSERT_EQ(static_cast<int>(bufs[i].data[j]), static_cast<int>(i + 1));
  }
  // Small buffers share one block; the 0-byte one still got its own address.
  EXPECT_EQ(bufs[0].keepalive, bufs[1].keepalive);
  EXPECT_NE(bufs[0].data, bufs[1].data);
}

TEST(HugePageArena, LargeBuffersGetTheirOwnBlockAndSmallOnesOverflowToANewBlock) {
  HugePageArena arena;
  auto small = arena.allocate(1 * MiB);
  auto big = arena.allocate(HugePageArena::kDedicatedBytes);
  EXPECT_NE(big.keepalive, small.keepalive);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(big.data) % (2 * MiB), 0u);  // huge-page aligned
  std::memset(big.data, 7, HugePageArena::kDedicatedBytes);
  // The shared block keeps serving small buffers after the dedicated one...
  auto next = arena.allocate(1 * MiB);
  EXPECT_EQ(next.keepalive, small.keepalive);
  // ...until it is full.
  std::vector<HugePageArena::Buffer> fill;
  for (size_t used = 2 * MiB; used + 15 * MiB <= HugePageArena::kBlockBytes; used += 15 * MiB)
    fill.push_back(arena.allocate(15 * MiB));
  auto overflow = arena.allocate(15 * MiB);
  EXPECT_NE(overflow.keepalive, small.keepalive);
}

TEST(HugePageArena, BlockOutlivesTheArenaWhileABufferHoldsIt) {
  HugePageArena::Buffer kept{nullptr, nullptr};
  std::weak_ptr<const void> block;
  {
    HugePageArena arena;
    kept = arena.allocate(100);
    block = kept.keepalive;
    std::memset(kept.data, 0x5a, 100);
  }
  ASSERT_FALSE(block.expired());
  EXPECT_EQ(static_cast<int>(kept.data[99]), 0x5a);
  kept = {nullptr, nullptr};
  EXPECT_TRUE(block.expired());
}

TEST(HugePageArena, ARequestNoSystemCanMapIsAnOutOfMemoryError) {
  HugePageArena arena;
  EXPECT_THROW((void)arena.allocate(size_t{1} << 47), OutOfMemoryError);  // the whole user address space
  EXPECT_THROW((void)arena.allocate(SIZE_MAX - 10), OutOfMemoryError);    // rounding up would wrap
  EXPECT_NE(arena.allocate(64).data, nullptr);                           // and the arena still works
}

}  // namespace
}  // namespace torchlet

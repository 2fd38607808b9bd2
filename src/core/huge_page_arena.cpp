// Huge-page-backed blocks for buffers written right after allocation (see the header).
#include "core/huge_page_arena.h"

#include <sys/mman.h>

#include <cstdint>

#include <torchlet/error.h>

// The poisoning macros are no-ops unless the build uses AddressSanitizer.
#if defined(__has_include)
#if __has_include(<sanitizer/asan_interface.h>)
#include <sanitizer/asan_interface.h>
#endif
#endif
#ifndef ASAN_POISON_MEMORY_REGION
#define ASAN_POISON_MEMORY_REGION(addr, size) ((void)(addr), (void)(size))
#define ASAN_UNPOISON_MEMORY_REGION(addr, size) ((void)(addr), (void)(size))
#endif

namespace torchlet {

namespace {

constexpr size_t kHugePage = size_t{2} << 20;

size_t round_up(size_t n, size_t to) { return (n + to - 1) / to * to; }

// A 2 MiB-aligned anonymous mapping of `nbytes` (a multiple of 4 KiB) advised for huge
// pages: over-map by 2 MiB, then unmap the unaligned head and the rest of the tail.
std::shared_ptr<std::byte> map_block(size_t nbytes) {
  const size_t span = nbytes + kHugePage;
  void* raw = ::mmap(nullptr, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  TL_CHECK(raw != MAP_FAILED, OutOfMemoryError, "cannot map {} bytes for tensor storage", span);
  const auto base = reinterpret_cast<uintptr_t>(raw);
  const uintptr_t aligned = round_up(base, kHugePage);
  if (aligned > base) ::munmap(raw, aligned - base);
  const uintptr_t end = aligned + nbytes;
  if (base + span > end) ::munmap(reinterpret_cast<void*>(end), base + span - end);
  // Advice only: a kernel without transparent huge pages (or with them off) gives 4 KiB
  // pages, which are correct, just slower.
  (void)::madvise(reinterpret_cast<void*>(aligned), nbytes, MADV_HUGEPAGE);
  // Under AddressSanitizer the block starts poisoned and allocate() unpoisons each
  // buffer, so reading past a buffer is caught as it would be for a malloc'd one.
  ASAN_POISON_MEMORY_REGION(reinterpret_cast<void*>(aligned), nbytes);
  return std::shared_ptr<std::byte>(reinterpret_cast<std::byte*>(aligned), [nbytes](std::byte* p) {
    ASAN_UNPOISON_MEMORY_REGION(p, nbytes);  // stale poison would outlive the mapping
    ::munmap(p, nbytes);
  });
}

}  // namespace

HugePageArena::Buffer HugePageArena::allocate(size_t nbytes) {
  const size_t need = round_up(nbytes == 0 ? 1 : nbytes, kAlignment);
  TL_CHECK(need >= nbytes && need <= SIZE_MAX - kHugePage, OutOfMemoryError,
           "cannot allocate {} bytes for tensor storage", nbytes);
  if (need >= kDedicatedBytes) {
    // Rounded to 4 KiB, not 2 MiB: the kernel backs only whole aligned 2 MiB ranges
    // inside the mapping with huge pages, so a partial tail costs no extra memory.
    auto block = map_block(round_up(need, 4096));
    ASAN_UNPOISON_MEMORY_REGION(block.get(), nbytes);
    return {block.get(), block};
  }
  if (!block_ || used_ + need > kBlockBytes) {
    block_ = map_block(kBlockBytes);
    used_ = 0;
  }
  std::byte* p = block_.get() + used_;
  used_ += need;
  ASAN_UNPOISON_MEMORY_REGION(p, nbytes);
  return {p, block_};
}

}  // namespace torchlet

// HugePageArena: memory for many buffers that are written in full right after they are
// allocated, as an eager checkpoint load's storages are. Each comes from anonymous
// mappings that are 2 MiB-aligned and advised for transparent huge pages.
//
// Why: on the 2-core VMs torchlet is measured on, copying 1 GiB from the page cache
// into fresh 4 KiB pages took 2.5-3 s while the same copy into huge pages took
// 0.25-0.35 s, and first-touch faults were about 1.5x cheaper too (one fault per 2 MiB
// instead of 512). malloc cannot ask for huge pages, and a 1 MiB tensor on its own
// can never get one, so small buffers share 64 MiB blocks.
//
// The price: a shared block is unmapped only when every buffer carved from it is gone,
// so keeping one small tensor of a load keeps its block (at most 64 MiB) alive.
// Buffers of kDedicatedBytes or more get a block of their own and no such coupling.
#pragma once

#include <cstddef>
#include <memory>

namespace torchlet {

class HugePageArena {
 public:
  static constexpr size_t kBlockBytes = size_t{64} << 20;
  static constexpr size_t kDedicatedBytes = size_t{16} << 20;
  static constexpr size_t kAlignment = 64;  // every buffer starts at a multiple of this

  struct Buffer {
    std::byte* data;
    std::shared_ptr<const void> keepalive;  // the block; data is valid while it lives
  };

  // `nbytes` uninitialised bytes, 64-byte aligned (nbytes 0 gives a valid pointer).
  // Throws OutOfMemoryError when the system has no memory to map.
  Buffer allocate(size_t nbytes);

 private:
  std::shared_ptr<std::byte> block_;  // the shared block small buffers come from
  size_t used_ = 0;
};

}  // namespace torchlet

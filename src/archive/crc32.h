// CRC-32 (zip's polynomial, as zlib's crc32 computes it): the one definition the zip
// reader and writer share. libdeflate's carry-less-multiply version runs several times
// faster than zlib's table-driven one on this class of CPU; a save or a verified load of
// a large checkpoint spends most of its CPU time here.
#pragma once

#include <cstddef>
#include <cstdint>
#include <condition_variable>
#include <mutex>
#include <span>
#include <thread>
#include <vector>

namespace torchlet {

// Continues `crc` over `bytes` (start from 0). Buffers of several MiB are split
// across parallel_for's threads and the pieces combined, so the result is the same.
uint32_t crc32(uint32_t crc, std::span<const std::byte> bytes);

// The CRC-32s of a list of buffers, computed in order on one background thread from
// construction on; get(i) waits for buffer i's. One thread and no per-buffer barrier:
// a save hands it every storage up front and writes while it runs ahead (an OpenMP
// fork/join per record stalled a scheduler tick whenever the machine was busy).
class Crc32Ahead {
 public:
  explicit Crc32Ahead(std::vector<std::span<const std::byte>> buffers);
  ~Crc32Ahead();  // stops early if not every CRC was asked for
  Crc32Ahead(const Crc32Ahead&) = delete;
  Crc32Ahead& operator=(const Crc32Ahead&) = delete;
  uint32_t get(size_t i);

 private:
  void run();
  std::vector<std::span<const std::byte>> buffers_;
  std::vector<uint32_t> crcs_;
  size_t done_ = 0;  // guarded by mutex_
  bool stop_ = false;
  std::mutex mutex_;
  std::condition_variable ready_;
  std::thread thread_;
};

}  // namespace torchlet

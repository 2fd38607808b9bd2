// CRC-32 on libdeflate, split across threads for large buffers (see crc32.h).
#include "archive/crc32.h"

#include <algorithm>
#include <utility>
#include <vector>

#include <libdeflate.h>
#include <torchlet/error.h>
#include <zlib.h>

#include "core/parallel.h"

namespace torchlet {

namespace {
// Below this a buffer is one piece: a piece must be long enough that the thread
// start-up and the combine (a few hundred ns) stay small against ~0.2 ms of CRC.
constexpr size_t kPiece = size_t{4} << 20;

uint32_t crc32_serial(uint32_t crc, const std::byte* p, size_t n) {
  return libdeflate_crc32(crc, p, n);
}
}  // namespace

uint32_t crc32(uint32_t crc, std::span<const std::byte> bytes) {
  const size_t n = bytes.size();
  if (n < 2 * kPiece) return crc32_serial(crc, bytes.data(), n);
  const int64_t pieces = static_cast<int64_t>((n + kPiece - 1) / kPiece);
  std::vector<uint32_t> part(static_cast<size_t>(pieces));
  parallel_for(0, pieces, 1, [&](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i) {
      size_t off = static_cast<size_t>(i) * kPiece;
      part[static_cast<size_t>(i)] = crc32_serial(0, bytes.data() + off, std::min(kPiece, n - off));
    }
  });
  // crc(A|B) from crc(A), crc(B) and len(B): zlib's combine, O(log len) work.
  for (int64_t i = 0; i < pieces; ++i) {
    size_t off = static_cast<size_t>(i) * kPiece;
    crc = static_cast<uint32_t>(
        crc32_combine64(crc, part[static_cast<size_t>(i)], static_cast<z_off64_t>(std::min(kPiece, n - off))));
  }
  return crc;
}

Crc32Ahead::Crc32Ahead(std::vector<std::span<const std::byte>> buffers)
    : buffers_(std::move(buffers)), crcs_(buffers_.size()), thread_([this] { run(); }) {}

Crc32Ahead::~Crc32Ahead() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
  }
  thread_.join();
}

void Crc32Ahead::run() {
  for (size_t i = 0; i < buffers_.size(); ++i) {
    // Pieces below crc32's parallel threshold: this thread is the parallelism.
    uint32_t crc = 0;
    const auto b = buffers_[i];
    for (size_t off = 0; off < b.size(); off += kPiece) {
      {
        std::lock_guard lock(mutex_);
        if (stop_) return;
      }
      crc = crc32_serial(crc, b.data() + off, std::min(kPiece, b.size() - off));
    }
    std::lock_guard lock(mutex_);
    crcs_[i] = crc;
    done_ = i + 1;
    ready_.notify_all();
  }
}

uint32_t Crc32Ahead::get(size_t i) {
  TL_CHECK(i < buffers_.size(), InternalError, "Crc32Ahead: buffer {} of {}", i, buffers_.size());
  std::unique_lock lock(mutex_);
  ready_.wait(lock, [&] { return done_ > i; });
  return crcs_[i];
}

}  // namespace torchlet

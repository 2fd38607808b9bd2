// Owned and borrowed storages.
#include <torchlet/storage.h>

#include <cstdlib>
#include <cstring>

#include <torchlet/error.h>

namespace torchlet {

namespace {
// Largest single allocation torchlet makes: a guard against sizes computed from
// hostile files slipping past their own checks (48 bits is 256 TiB).
constexpr size_t kMaxStorageBytes = size_t{1} << 48;
}  // namespace

StorageImpl::StorageImpl(size_t nbytes, bool zero) : nbytes_(nbytes), owned_(true), heap_(true) {
  TL_CHECK(nbytes <= kMaxStorageBytes, LimitError,
           "storage of {} bytes exceeds the {}-byte limit", nbytes, kMaxStorageBytes);
  size_t rounded = (nbytes + kStorageAlignment - 1) / kStorageAlignment * kStorageAlignment;
  if (rounded == 0) rounded = kStorageAlignment;
  data_ = static_cast<std::byte*>(std::aligned_alloc(kStorageAlignment, rounded));
  TL_CHECK(data_ != nullptr, OutOfMemoryError, "cannot allocate {} bytes for a tensor's storage", nbytes);
  if (zero) std::memset(data_, 0, rounded);
}

StorageImpl::StorageImpl(std::byte* data, size_t nbytes, std::shared_ptr<const void> keepalive, bool owned)
    : data_(data), nbytes_(nbytes), owned_(owned), heap_(false), keepalive_(std::move(keepalive)) {}

StorageImpl::~StorageImpl() {
  if (heap_) std::free(data_);
}

Storage make_storage(size_t nbytes, bool zero) { return make_intrusive<StorageImpl>(nbytes, zero); }

}  // namespace torchlet

// Owned and borrowed storages.
#include <torchlet/storage.h>

#include <cstdlib>
#include <cstring>

#include <torchlet/error.h>

#include "core/allocation_limit.h"

namespace torchlet {

StorageImpl::StorageImpl(size_t nbytes, bool zero) : nbytes_(nbytes), owned_(true), heap_(true) {
  // Also a guard against sizes computed from hostile files slipping past their own checks.
  (void)checked_allocation(nbytes, "a tensor's storage");
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

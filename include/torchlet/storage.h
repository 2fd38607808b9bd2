// Storage: refcounted bytes that tensors view. Either owned (a 64-byte aligned heap
// allocation, or torchlet's memory carved from a block a type-erased owner keeps alive)
// or borrowed (a region of a mapped file or a caller's buffer, kept alive the same way). Identity of the StorageImpl is what "shared storage" means
// when saving: views of one storage are written as one storage.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>

#include <torchlet/intrusive_ptr.h>

namespace torchlet {

inline constexpr size_t kStorageAlignment = 64;

class StorageImpl : public RefCounted {
 public:
  // Owned, zero-initialised when `zero` is set.
  StorageImpl(size_t nbytes, bool zero);
  // Borrowed: `data` stays valid while `keepalive` lives (may be null for a caller's
  // buffer that outlives every tensor, as torch::from_blob assumes). `owned` marks
  // memory torchlet allocated for this storage alone inside a larger block (an eager
  // load's huge-page arena), as opposed to a view of a file or a caller's buffer.
  StorageImpl(std::byte* data, size_t nbytes, std::shared_ptr<const void> keepalive,
              bool owned = false);
  ~StorageImpl() override;
  StorageImpl(const StorageImpl&) = delete;
  StorageImpl& operator=(const StorageImpl&) = delete;

  std::byte* data() const { return data_; }
  size_t nbytes() const { return nbytes_; }
  // The bytes are torchlet's own memory, not a view of a file or a caller's buffer.
  bool is_owned() const { return owned_; }

 private:
  std::byte* data_;
  size_t nbytes_;
  bool owned_;
  bool heap_;  // free data_ with std::free (else keepalive_ owns it)
  std::shared_ptr<const void> keepalive_;
};

using Storage = intrusive_ptr<StorageImpl>;

// An owned storage of `nbytes` (zeroed if asked). Throws LimitError on absurd sizes.
Storage make_storage(size_t nbytes, bool zero = false);

}  // namespace torchlet

// Intrusive reference counting for heap objects held by values (STYLE.md #16):
// tensors, storages and IValue heap kinds carry their own atomic count, so a handle
// is one pointer and copying it is one atomic increment.
#pragma once

#include <atomic>
#include <cstdint>
#include <utility>

namespace torchlet {

class RefCounted {
 public:
  RefCounted() = default;
  RefCounted(const RefCounted&) : refcount_(0) {}
  RefCounted& operator=(const RefCounted&) { return *this; }
  virtual ~RefCounted() = default;

  void incref() const { refcount_.fetch_add(1, std::memory_order_relaxed); }
  // Returns true when this was the last reference.
  bool decref() const { return refcount_.fetch_sub(1, std::memory_order_acq_rel) == 1; }
  uint32_t use_count() const { return refcount_.load(std::memory_order_relaxed); }

 private:
  mutable std::atomic<uint32_t> refcount_{0};
};

template <typename T>
class intrusive_ptr {
 public:
  intrusive_ptr() = default;
  intrusive_ptr(std::nullptr_t) {}  // NOLINT
  explicit intrusive_ptr(T* p) : p_(p) {
    if (p_) p_->incref();
  }
  intrusive_ptr(const intrusive_ptr& o) : p_(o.p_) {
    if (p_) p_->incref();
  }
  intrusive_ptr(intrusive_ptr&& o) noexcept : p_(std::exchange(o.p_, nullptr)) {}
  template <typename U>
  intrusive_ptr(const intrusive_ptr<U>& o) : intrusive_ptr(static_cast<T*>(o.get())) {}  // NOLINT
  ~intrusive_ptr() { reset(); }
  intrusive_ptr& operator=(intrusive_ptr o) noexcept {
    std::swap(p_, o.p_);
    return *this;
  }
  void reset() {
    if (p_ && p_->decref()) delete p_;
    p_ = nullptr;
  }
  // Gives up ownership without decrementing (for packing into tagged unions).
  T* release() { return std::exchange(p_, nullptr); }
  // Adopts a pointer whose reference was previously release()d.
  static intrusive_ptr reclaim(T* p) {
    intrusive_ptr r;
    r.p_ = p;
    return r;
  }
  T* get() const { return p_; }
  T* operator->() const { return p_; }
  T& operator*() const { return *p_; }
  explicit operator bool() const { return p_ != nullptr; }
  bool operator==(const intrusive_ptr& o) const { return p_ == o.p_; }
  uint32_t use_count() const { return p_ ? p_->use_count() : 0; }

 private:
  T* p_ = nullptr;
};

template <typename T, typename... Args>
intrusive_ptr<T> make_intrusive(Args&&... args) {
  return intrusive_ptr<T>(new T(std::forward<Args>(args)...));
}

}  // namespace torchlet

// Future completion and the fork thread pool.
#include "jit/runtime/future.h"

#include <deque>
#include <thread>
#include <vector>

namespace torchlet::jit {

void Future::try_run() {
  int expected = kPending;
  if (!state_.compare_exchange_strong(expected, kRunning, std::memory_order_acq_rel)) return;
  IValue result;
  std::exception_ptr error;
  try {
    result = task_();
  } catch (...) {
    error = std::current_exception();
  }
  {
    std::lock_guard<std::mutex> lock(mutex_);
    value_ = std::move(result);
    error_ = error;
    task_ = nullptr;  // drop the captured arguments now
    state_.store(kDone, std::memory_order_release);
  }
  done_.notify_all();
}

IValue Future::wait() {
  try_run();
  std::unique_lock<std::mutex> lock(mutex_);
  done_.wait(lock, [&] { return state_.load(std::memory_order_acquire) == kDone; });
  if (error_) std::rethrow_exception(error_);
  return value_;
}

namespace {

class ThreadPool {
 public:
  ThreadPool() {
    const unsigned n = std::max(1u, std::thread::hardware_concurrency());
    for (unsigned i = 0; i < n; ++i) workers_.emplace_back([this] { work(); });
  }
  ~ThreadPool() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stopping_ = true;
    }
    ready_.notify_all();
    for (auto& w : workers_) w.join();
  }
  void submit(intrusive_ptr<Future> f) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      queue_.push_back(std::move(f));
    }
    ready_.notify_one();
  }

 private:
  void work() {
    for (;;) {
      intrusive_ptr<Future> f;
      {
        std::unique_lock<std::mutex> lock(mutex_);
        ready_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
        if (queue_.empty()) return;  // stopping, nothing left
        f = std::move(queue_.front());
        queue_.pop_front();
      }
      f->try_run();
    }
  }
  std::mutex mutex_;
  std::condition_variable ready_;
  std::deque<intrusive_ptr<Future>> queue_;
  bool stopping_ = false;
  std::vector<std::thread> workers_;
};

}  // namespace

void launch(const intrusive_ptr<Future>& future) {
  static ThreadPool pool;
  pool.submit(future);
}

}  // namespace torchlet::jit

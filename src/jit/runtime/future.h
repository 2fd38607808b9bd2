// Future: the value of a prim::fork, completed by the thread pool (or by the first
// thread that waits for it before the pool got to it, so nested forks never deadlock
// a small pool). An exception in the forked function is stored and rethrown by wait().
#pragma once

#include <atomic>
#include <condition_variable>
#include <exception>
#include <functional>
#include <mutex>

#include <torchlet/ivalue.h>

namespace torchlet::jit {

class Future : public FutureImpl {
 public:
  explicit Future(std::function<IValue()> task) : task_(std::move(task)) {}

  // Runs the task if nobody has started it yet (returns at once otherwise).
  void try_run();
  // Blocks until done (running the task here if it has not started); the value, or the
  // task's exception rethrown.
  IValue wait();
  bool completed() const { return state_.load(std::memory_order_acquire) == kDone; }

 private:
  enum : int { kPending, kRunning, kDone };
  std::function<IValue()> task_;
  std::atomic<int> state_{kPending};
  std::mutex mutex_;
  std::condition_variable done_;
  IValue value_;
  std::exception_ptr error_;
};

// Starts a future's task on the process-wide pool (threads = hardware concurrency).
void launch(const intrusive_ptr<Future>& future);

}  // namespace torchlet::jit

// Autograd's on/off switch, kept as torch keeps it: per thread, on by default, read by
// torch.is_grad_enabled() and set by torch.set_grad_enabled() (which torch.no_grad's
// __enter__ and __exit__ call). torchlet computes no gradients, so only those two
// operators read it; a forked task starts with its parent's setting, as in torch.
#pragma once

namespace torchlet::jit {

bool grad_enabled();
void set_grad_enabled(bool enabled);

// Sets the mode for a scope and restores the previous one when the scope ends.
class GradModeGuard {
 public:
  explicit GradModeGuard(bool enabled) : previous_(grad_enabled()) { set_grad_enabled(enabled); }
  ~GradModeGuard() { set_grad_enabled(previous_); }
  GradModeGuard(const GradModeGuard&) = delete;
  GradModeGuard& operator=(const GradModeGuard&) = delete;

 private:
  bool previous_;
};

}  // namespace torchlet::jit

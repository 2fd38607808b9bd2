// The per-thread grad mode (see grad_mode.h).
#include "jit/runtime/grad_mode.h"

namespace torchlet::jit {

namespace {
thread_local bool t_grad_enabled = true;
}  // namespace

bool grad_enabled() { return t_grad_enabled; }
void set_grad_enabled(bool enabled) { t_grad_enabled = enabled; }

}  // namespace torchlet::jit

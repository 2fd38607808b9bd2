// The runtime queries scripted modules make: the grad mode (no autograd here, but the
// mode is kept, grad_mode.h: scripted modules' fast paths read it and torch.no_grad()
// sets it), autocast (never enabled on the CPU here), and the profiler's
// record_function operators. Each is registered from a typed function (Note [Boxing] in
// boxing.h).
#include <optional>
#include <string>

#include <torchlet/ops.h>

#include "jit/ops/boxing.h"
#include "jit/runtime/grad_mode.h"

namespace torchlet::jit::ops {
namespace {

// torch.autograd.profiler.record_function's operators (its class calls them in
// __enter__/__exit__). torchlet has no profiler for a range to report to: entering gives
// an empty handle (torch's is a tensor wrapping its RecordFunction), exiting and the
// end-of-future callback do nothing.
Tensor record_function_enter(const std::string& /*name*/, const std::optional<std::string>& /*args*/) {
  return torchlet::empty({0}, DType::Byte);
}
void record_function_exit(const Tensor& /*handle*/) {}
IValue call_end_callbacks_on_jit_fut(const Tensor& /*handle*/, IValue future) { return future; }

bool is_autocast_enabled() { return false; }

static RegisterOps reg({
    {"aten::is_grad_enabled() -> bool", boxed<&grad_enabled>},
    {"aten::set_grad_enabled(bool val) -> ()", boxed<&set_grad_enabled>},
    {"profiler::_record_function_enter(str name, str? args=None) -> Tensor", boxed<&record_function_enter>},
    {"profiler::_record_function_exit(Tensor _0) -> ()", boxed<&record_function_exit>},
    {"profiler::_call_end_callbacks_on_jit_fut(Tensor x, Future(t) y) -> Future(t)", boxed<&call_end_callbacks_on_jit_fut>},
    {"aten::is_autocast_enabled() -> bool", boxed<&is_autocast_enabled>},
});

}  // namespace
}  // namespace torchlet::jit::ops

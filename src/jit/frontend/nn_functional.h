// torch.nn.functional as the compiler sees it (Note [torch.nn.functional] in
// calls.cpp): which names are Python-level functions, written here in TorchScript and
// compiled into the unit on first use, and which are builtins bound to an operator.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace torchlet::jit {

// The module the library's functions are named under: torch.nn.functional.interpolate.
inline constexpr std::string_view kNNFunctionalModule = "torch.nn.functional";

// The library's TorchScript source: one `def` per torch.nn.functional function whose
// Python signature differs from its operator's (F.relu takes `inplace`, F.embedding takes
// input before weight, losses take reduction="mean"), and their private helpers.
const std::string& nn_functional_source();

// Whether the library defines `name` (a function a user may call; helpers too).
bool nn_functional_defines(const std::string& name);

// The operator a builtin F.name binds to ("log_sigmoid" for logsigmoid, "conv2d" for
// conv2d); nullopt when torch's F.name is Python torchlet's library does not define yet.
std::optional<std::string> nn_functional_builtin(const std::string& name);

// torch's boolean_dispatch: F.max_pool2d(..., return_indices=True) is the function
// max_pool2d_with_indices and without it _max_pool2d, chosen while compiling (the flag
// must be a constant). The flag's position among the arguments when `name` dispatches so.
std::optional<size_t> nn_functional_return_indices_position(const std::string& name);

}  // namespace torchlet::jit

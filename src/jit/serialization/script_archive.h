// `torchlet script`: TorchScript source -> a torch.jit.save archive real torch.jit.load
// reads. The source is compiled by torchlet first (so errors are reported here, with
// torch's highlight); the archive then carries the source itself as code/__torch__.py —
// the language torch's importer compiles — with a PlaceholderModule whose forward calls
// the chosen function, the layout torch.jit.save gives a scripted function.
#pragma once

#include <string>

namespace torchlet::jit {

// `function` empty: the first function the source defines.
void save_script_archive(const std::string& source, const std::string& source_name, const std::string& function,
                         const std::string& path);

}  // namespace torchlet::jit

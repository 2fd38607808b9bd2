// `torchlet script`: TorchScript source -> a torch.jit.save archive real torch.jit.load
// reads. The source is compiled by torchlet (so errors are reported here, with torch's
// highlight), wrapped in a module — the layout torch.jit.save gives a scripted
// function: a PlaceholderModule whose forward calls the chosen function — and saved
// through the python printer, so the archive holds torch-style code for the functions
// and every class they use. The module also has one method per function of the source,
// so each can be called on the loaded module.
#pragma once

#include <string>

namespace torchlet::jit {

// `function` empty: the first function the source defines.
void save_script_archive(const std::string& source, const std::string& source_name, const std::string& function,
                         const std::string& path);

// `torchlet graph SOURCE.py`: the graph of each function the source defines, in order,
// as torch.jit.CompilationUnit(source).NAME.graph prints it, each after a `# NAME` line;
// `function` given: that function's graph alone.
std::string source_graphs(const std::string& source, const std::string& source_name, const std::string& function);

}  // namespace torchlet::jit

// torch.jit.save for C++: writes a Module as an archive real torch.jit.load reads —
// data.pkl (the object graph, script objects as torch pickles them), constants.pkl,
// code/ (the classes' source), data/ and constants/ (tensor bytes), version, extra/.
//
// Today the code/ files come from the archive the module was loaded from (kept by the
// importer); a module compiled from source by torchlet needs the python printer, which
// does not exist yet, and is refused with an UnsupportedError saying so.
#pragma once

#include <map>
#include <string>

#include "jit/runtime/module.h"

namespace torchlet::jit {

struct ScriptSaveOptions {
  std::map<std::string, std::string> extra_files;  // written under extra/
};

void save(const Module& module, const std::string& path, const ScriptSaveOptions& options = {});

}  // namespace torchlet::jit

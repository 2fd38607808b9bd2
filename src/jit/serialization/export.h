// torch.jit.save for C++: writes a Module as an archive real torch.jit.load reads —
// data.pkl (the object graph, script objects as torch pickles them), constants.pkl,
// code/ (the classes' source), data/ and constants/ (tensor bytes), version, extra/.
//
// The code/ files: a module loaded from an archive writes back the code it was loaded
// from (kept by the importer), so re-saving is byte-identical; a module compiled by
// torchlet is printed by the python printer (python_print.h).
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

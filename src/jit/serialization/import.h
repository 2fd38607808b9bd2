// torch.jit.load for C++: reads a torch.jit.save archive (version, constants.pkl,
// data.pkl, code/) into a Module, as ../shared/reference/torchscript-serialization-format.txt
// describes. Classes are compiled from their code/ files on first use, only those the
// object graph or the code needs; tensors alias the mapped file unless copies are asked for.
#pragma once

#include <map>
#include <string>

#include <torchlet/checkpoint.h>

#include "jit/runtime/module.h"

namespace torchlet::jit {

// The newest archive format version this importer reads (torch 1.13 writes 3 or 4;
// newer versions may carry operator semantics this importer does not know).
inline constexpr int64_t kMaxArchiveVersion = 10;

struct ScriptLoadOptions {
  // Mapped: tensors alias the file (copy-on-write); Eager: tensors own their bytes.
  LoadMode mode = LoadMode::Mapped;
  // When set, receives every extra/ record (torch's _extra_files) by name.
  std::map<std::string, std::string>* extra_files = nullptr;
};

// UnsupportedError for archives of newer versions or layouts not read; FormatError for
// damaged ones; CompileError (naming the code/ file) when code does not compile.
Module load(const std::string& path, const ScriptLoadOptions& options = {});

}  // namespace torchlet::jit

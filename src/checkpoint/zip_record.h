// One pickle record of a torch zip archive with its tensors, as torch.load reads
// data.pkl: the loader behind torchlet::load, shared with the TorchScript importer
// (which reads data.pkl and constants.pkl of torch.jit.save archives with a resolver
// for the archive's own classes).
#pragma once

#include <string>

#include <torchlet/checkpoint.h>

#include "archive/zip_reader.h"
#include "pickle/unpickler.h"

namespace torchlet {

// Unpickles `record`; storages are the records under `storage_dir` ("data/",
// "constants/"), mapped or read per options.mode; `path` labels errors.
IValue unpickle_zip_record(const ZipReader& zip, const std::string& path, const std::string& record,
                           const std::string& storage_dir, const LoadOptions& options,
                           const pickle::ClassResolver& class_resolver);

}  // namespace torchlet

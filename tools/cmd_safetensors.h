// The safetensors side of `inspect` and `convert` (cmd_safetensors.cpp): cmd_checkpoint.cpp
// hands a file over here when its name or its first bytes say safetensors.
#pragma once

#include <string>

#include <torchlet/checkpoint.h>

namespace torchlet::cli {

// The name ends in ".safetensors" (how an output file is recognised).
bool is_safetensors_name(const std::string& path);
// The name says so, or the file starts like one (how an input file is recognised).
bool is_safetensors_input(const std::string& path);

// inspect: the header (dtypes, shapes, offsets, __metadata__) and the open time in `mode`.
int inspect_safetensors(const std::string& file, LoadMode mode);
// convert with a .safetensors file on either side (or both).
int convert_safetensors(const std::string& in, const std::string& out);

}  // namespace torchlet::cli

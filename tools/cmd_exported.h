// The torch.export side of `inspect`, `run`, `graph` and `convert` (cmd_exported.cpp):
// the other commands hand a file over here when it is a .pt2 archive.
#pragma once

#include <string>

namespace torchlet::cli {

// The file is a torch.export archive (either layout), by its name or its records.
bool is_exported_program_input(const std::string& path);

// inspect: signature, symbols and their ranges, state, operators with counts.
int inspect_exported_program(const std::string& file);
// run on inputs from a torch.save file (a tuple of arguments, or one tensor) or, with
// no file, on the archive's sample inputs; print (and optionally save) the result.
int run_exported_program(const std::string& file, const std::string& inputs_file, bool sample_inputs,
                         const std::string& output_file, int repeat);
// graph: the program lowered to torchlet's IR.
int graph_exported_program(const std::string& file);
// convert: the state_dict (parameters and persistent buffers) to .safetensors or .pt.
int convert_exported_program(const std::string& in, const std::string& out);

}  // namespace torchlet::cli

// Reading a torch.export archive of either layout into its parts: the program's JSON
// (decoded, program.h), its state by fully qualified name, and its sample inputs.
//   pt2 (torch >= 2.8, torch/export/pt2_archive): one top folder holding archive_format
//     "pt2", byteorder, models/<model>.json, data/weights/weight_N and
//     data/constants/tensor_N (each the raw bytes of one untyped storage) described by
//     data/{weights,constants}/<model>_{weights,constants}_config.json, and
//     data/sample_inputs/<model>.pt (torch.save of (args, kwargs)).
//   legacy (torch <= 2.7): serialized_exported_program.json beside torch.save files
//     serialized_state_dict.pt, serialized_constants.pt, serialized_example_inputs.pt.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <torchlet/ivalue.h>
#include <torchlet/tensor.h>

#include "export/program.h"

namespace torchlet::exported {

struct ArchiveContents {
  std::string layout;  // "pt2" or "legacy"
  std::unique_ptr<ProgramDocument> program;
  // Every parameter, buffer and tensor constant the signature reads, by its FQN, in
  // signature order, each checked against the graph's metadata of its placeholder.
  std::vector<std::pair<std::string, Tensor>> state;
  std::optional<std::vector<IValue>> sample_inputs;
};

// Throws FormatError / UnsupportedError / LimitError / IOError naming the record.
ArchiveContents read_archive(const std::string& path);

// Whether `path` is a zip holding an exported program in either layout.
bool is_exported_program_archive(const std::string& path);

}  // namespace torchlet::exported

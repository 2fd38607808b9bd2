// The safetensors format's rules, shared by its reader and writer (safetensors.cpp) and
// owned by safetensors_header.cpp: the official dtype table, the header limits, the
// header's parse and layout checks, and quoting file text in messages.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include <torchlet/safetensors.h>

namespace torchlet::safetensors {

// The official reader's MAX_HEADER_SIZE (safetensors/src/tensor.rs): checked before a
// byte of the header is read.
inline constexpr uint64_t kMaxHeaderBytes = 100'000'000;
// A valid header nests 3 deep (root, entry, shape); unknown fields may nest further
// (the official reader ignores them), so a generous bound, but one that keeps a header
// of 100 MB of brackets from costing anything but a linear scan.
inline constexpr size_t kMaxJsonDepth = 64;
// torch's own bound on tensor dimensions is 64 in practice (the tar loader's too); a
// shape of millions of 1s would otherwise cost 8 bytes per 2 bytes of header.
inline constexpr size_t kMaxDims = 64;

// One row of the official Dtype enum. `rank` is its position in that enum, which the
// official writer sorts on (descending) because the enum lists dtypes in increasing
// alignment.
struct DTypeRow {
  std::string_view name;
  unsigned bits;
  std::optional<DType> dtype;
  int rank;
};
const DTypeRow* dtype_row(std::string_view name);
// The row for a torchlet dtype, or null when safetensors has no name for it.
const DTypeRow* dtype_row(DType dtype);
// "BOOL, U8, ...": the dtypes torchlet loads, for messages.
std::string loadable_dtype_names();

// `text` from a file as a message quotes it: at most 120 bytes, control characters,
// bidirectional formatting and invalid UTF-8 escaped (core's printable_text), in quotes.
std::string quote_text(std::string_view text);

// Parses and checks the header of a whole file's bytes (the mapping), as
// read_safetensors_header documents. `path` names the file in messages.
SafetensorsHeader parse_header(std::span<const std::byte> file, const std::string& path);

// The header length field and the JSON's first byte say "safetensors".
bool has_safetensors_start(std::span<const std::byte> file);

}  // namespace torchlet::safetensors

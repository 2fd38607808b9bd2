// Hugging Face's safetensors format, read and written without Python: an 8-byte
// little-endian header length N, N bytes of UTF-8 JSON naming each tensor's dtype, shape
// and byte range, then the data. Loads check every rule the official reader checks (and
// bound what the JSON may cost); saves lay the file out as the official writer does.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <torchlet/checkpoint.h>
#include <torchlet/tensor.h>

namespace torchlet {

// One tensor as the header describes it. The offsets are relative to the data buffer,
// which starts at byte SafetensorsHeader::data_start of the file.
struct SafetensorsTensorInfo {
  std::string name;
  std::string dtype_name;      // as the file spells it: "F32", "BF16", "U16", ...
  std::optional<DType> dtype;  // torchlet's dtype, when it has one (no U16/U32/U64/F8_*)
  Shape shape;
  uint64_t begin = 0, end = 0;  // data_offsets
};

struct SafetensorsHeader {
  uint64_t header_bytes = 0;  // N, spaces padding the JSON included
  uint64_t data_start = 0;    // 8 + N
  uint64_t data_bytes = 0;    // the data buffer: the rest of the file
  // In file order (by data offset), which is the order of the data in the buffer.
  std::vector<SafetensorsTensorInfo> tensors;
  std::map<std::string, std::string> metadata;  // "__metadata__" (empty when absent)
};

struct SafetensorsFile {
  std::vector<std::pair<std::string, Tensor>> tensors;  // in file order, as in the header
  std::map<std::string, std::string> metadata;
  // The tensor named `name`, or null.
  const Tensor* find(const std::string& name) const;
};

// The header alone, checked as the official reader checks it (every tensor's offsets
// contiguous from 0, byte counts matching shape and dtype, the data covering the file
// exactly), without reading tensor bytes. Dtypes torchlet cannot hold (U16, F8_E4M3, ...)
// are listed with dtype unset. Throws FormatError, LimitError (header over 100 MB,
// JSON nested deeper than 64) or IOError, naming the file and the problem.
SafetensorsHeader read_safetensors_header(const std::string& path);

// The tensors and __metadata__. Eager copies the bytes into owned memory; Mapped (and
// Metadata, which has nothing to decode here) aliases the mapped file copy-on-write, so
// opening costs the header's parse alone (a tensor whose bytes are not aligned to its
// element size, which no official writer produces, is copied). A dtype torchlet has no
// type for is an UnsupportedError naming the tensor and dtype.
SafetensorsFile load_safetensors(const std::string& path, LoadMode mode = LoadMode::Eager);

// Writes `tensors` atomically (temporary file + rename, as save() does), laid out as the
// official writer (safetensors' Rust `serialize`, which Python's save_file calls) lays
// it out: tensors sorted by dtype, widest alignment first in the official dtype order
// (I64, F64, C64, F32, I32, BF16, F16, I16, I8, U8, BOOL for the ones torchlet writes),
// then by name (byte order); the header is compact JSON with "__metadata__" first (its
// keys sorted), then each tensor's {"dtype","shape","data_offsets"} in data order,
// padded with spaces to a multiple of 8 bytes. Each tensor is written as its own
// contiguous values: views and storage sharing are not kept. ValueError for duplicate,
// reserved ("__metadata__") or non-UTF-8 names; UnsupportedError for dtypes safetensors
// has no name for (complex32, complex128, quantized).
void save_safetensors(const std::vector<std::pair<std::string, Tensor>>& tensors, const std::string& path,
                      const std::map<std::string, std::string>& metadata = {}, const SaveOptions& options = {});

// Whether the file starts like a safetensors file (a header length that fits the file
// and the 100 MB limit, then '{'); false for checkpoints, archives and unreadable paths.
bool looks_like_safetensors(const std::string& path);

}  // namespace torchlet

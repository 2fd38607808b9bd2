// torch.save / torch.load for C++: read and write checkpoint files byte-compatible with
// PyTorch, without running anything a file says. Loads the zip format (torch >= 1.6,
// any root folder, either byte order), the legacy pickle-stream format and the tar
// format (torch < 0.4); writes the zip format with the records torch 1.x and 2.x read.
#pragma once

#include <string>
#include <vector>

#include <torchlet/ivalue.h>

namespace torchlet {

enum class LoadMode {
  Eager,   // storages copied into owned memory (torch.load)
  Mapped,  // storages alias the mapped file, copy-on-write (torch.load(mmap=True))
  // dtypes, shapes, strides and offsets, and where each storage is in the file
  // (LoadOptions::storage_locations); no tensor byte is read. Storages alias the file
  // where Mapped would; one that would need decoding first (a deflated record, a
  // big-endian file) is left unread and holds zeros.
  Metadata,
};

// Where one storage of a loaded checkpoint lives in its file (what torch reports as a
// storage's `_checkpoint_offset` when loading under FakeTensorMode).
struct StorageLocation {
  std::string record;          // "data/0" (zip), "storage 3" (legacy), "storages" (tar)
  DType dtype;
  int64_t numel = 0;
  uint64_t nbytes = 0;         // numel * element size
  uint64_t file_offset = 0;    // of the storage's first byte (of the compressed bytes if deflated)
  bool deflated = false;
  const StorageImpl* storage = nullptr;  // the loaded storage it became
};

// The byte order a file without a `byteorder` record is read in (torch's
// set_default_load_endianness): torch before 2.1 writes none, so a big-endian machine's
// file from it reads right only as Big. A file's own record always wins.
enum class LoadEndianness { Native, Little, Big };

struct LoadOptions {
  LoadMode mode = LoadMode::Eager;
  LoadEndianness endianness = LoadEndianness::Native;
  // Unknown classes (e.g. a whole pickled nn.Module) load as inert PyObject records
  // instead of failing; nothing is imported or run either way.
  bool inert_unknown_globals = false;
  // Globals beyond the allowlist that this file may name, as "module.Name" (torch's
  // add_safe_globals): each loads as an inert PyObject record, never imported or run.
  std::vector<std::string> safe_globals;
  bool verify_crc32 = false;
  // When set, load() appends one entry per storage, in the order the pickle first uses
  // them (any mode).
  std::vector<StorageLocation>* storage_locations = nullptr;
};

struct SaveOptions {
  bool compute_crc32 = true;  // like torch's compute_crc32
  // Where each storage's bytes start: a multiple of this many bytes (torch's
  // storage_alignment, 64 by default; a power of two up to 32768, ValueError otherwise).
  // Page-sized alignment lets a mapped load hand out storages on page boundaries.
  size_t storage_alignment = 64;
  // fsync the file before renaming it into place, so the save also survives a power
  // loss. The rename alone already guarantees a crashed process never leaves a
  // partial file; torch.save makes neither promise.
  bool durable = false;
};

// torch.load(path): the saved object. Throws FormatError, UnsafeGlobalError,
// LimitError or UnsupportedError with a message naming the record and the problem.
IValue load(const std::string& path, const LoadOptions& options = {});

// torch.save(value, path): atomically (temporary file + rename).
void save(const IValue& value, const std::string& path, const SaveOptions& options = {});

// Every global the file's pickles would import, allowed or not (torch's
// get_unsafe_globals_in_checkpoint), found by the same parser load() uses.
struct GlobalReport {
  std::string record;   // e.g. "data.pkl"
  std::string module, name, opcode;
  bool allowed;
};
std::vector<GlobalReport> scan(const std::string& path);

// The container a checkpoint uses: zip (torch >= 1.6), a legacy pickle stream
// (torch 0.4-1.5), or tar (torch < 0.4).
enum class CheckpointFormat { Zip, Legacy, Tar };
CheckpointFormat detect_checkpoint_format(const std::string& path);

// A zip with constants.pkl or code/: what torch.jit.save writes (jit::load reads it;
// torch.load refuses it, as torch's _is_torchscript_zip tells them apart).
bool is_torchscript_archive(const std::string& path);

}  // namespace torchlet

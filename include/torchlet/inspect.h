// Looking inside a file without loading it: the records of a zip archive (what torch
// writes, read as torch's PyTorchFileReader reads them) and pickle disassembly (what
// `python -m pickletools` prints). Nothing here builds a value or imports a class.
#pragma once

#include <cstddef>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace torchlet {

// A torch.save or torch.jit.save zip, opened by mapping it; records are named below
// the archive's top folder ("data.pkl", "code/__torch__.py"), as torch names them.
// IOError / FormatError from the constructor for a missing or damaged file.
class ArchiveReader {
 public:
  explicit ArchiveReader(const std::string& path);
  ~ArchiveReader();
  ArchiveReader(ArchiveReader&&) noexcept;
  ArchiveReader& operator=(ArchiveReader&&) noexcept;

  // Every record, in the archive's order (full names when the records share no top
  // folder).
  std::vector<std::string> get_all_records() const;
  bool has_record(std::string_view name) const;
  // The record's bytes, inflated if deflated; FormatError naming a missing record.
  std::string get_record(std::string_view name) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// pickletools.dis of the pickle at the start of `pickle`, one line per opcode up to
// STOP, `label` naming it in the listing. Malformed input ends the listing with a line
// naming the error instead of throwing.
std::string disassemble_pickle(std::span<const std::byte> pickle, const std::string& label);

// `torchlet dis`: of a zip file, the pickle `record` (below the top folder); of any
// other file (a legacy torch.save stream, a bare pickle), the pickle at its start.
std::string disassemble_file(const std::string& path, const std::string& record = "data.pkl");

}  // namespace torchlet

// disassemble_file (declared in the public <torchlet/inspect.h>): which pickle of a
// file `torchlet dis` lists. Here, not in the pickle layer, because telling a zip from a
// pickle stream needs the archive layer too.
#include <torchlet/inspect.h>

#include <algorithm>
#include <cstring>

#include "archive/zip_reader.h"
#include "core/mapped_file.h"
#include "pickle/disassembler.h"

namespace torchlet {

std::string disassemble_file(const std::string& path, const std::string& record) {
  // Anything but a zip (a legacy stream, a bare .pkl) is disassembled from its first
  // byte, as pickletools would.
  auto mapped = MappedFile::open(path);
  auto head = mapped->bytes().first(std::min<size_t>(4, mapped->size()));
  if (head.size() == 4 && std::memcmp(head.data(), "PK\x03\x04", 4) == 0) {
    ZipReader zip = ZipReader::open(path);
    std::string bytes = zip.read(record);
    return pickle::disassemble(std::as_bytes(std::span<const char>(bytes.data(), bytes.size())), path + "/" + record);
  }
  return pickle::disassemble(mapped->bytes(), path);
}

}  // namespace torchlet

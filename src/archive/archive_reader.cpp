// ArchiveReader (declared in the public <torchlet/inspect.h>): the zip reader behind the
// names torch's PyTorchFileReader gives records.
#include <torchlet/inspect.h>

#include "archive/zip_reader.h"

namespace torchlet {

struct ArchiveReader::Impl {
  ZipReader zip;
};

ArchiveReader::ArchiveReader(const std::string& path) : impl_(std::make_unique<Impl>(Impl{ZipReader::open(path)})) {}
ArchiveReader::~ArchiveReader() = default;
ArchiveReader::ArchiveReader(ArchiveReader&&) noexcept = default;
ArchiveReader& ArchiveReader::operator=(ArchiveReader&&) noexcept = default;

std::vector<std::string> ArchiveReader::get_all_records() const {
  const std::string& root = impl_->zip.root();
  std::vector<std::string> names;
  for (const auto& r : impl_->zip.records()) names.push_back(root.empty() ? r.name : r.name.substr(root.size() + 1));
  return names;
}

bool ArchiveReader::has_record(std::string_view name) const { return impl_->zip.has_record(name); }

std::string ArchiveReader::get_record(std::string_view name) const { return impl_->zip.read(name); }

}  // namespace torchlet

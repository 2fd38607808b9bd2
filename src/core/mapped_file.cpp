// mmap-based MappedFile. An empty file maps to an empty span (mmap refuses length 0).
#include "core/mapped_file.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <torchlet/error.h>

namespace torchlet {

std::shared_ptr<MappedFile> MappedFile::open(const std::string& path) {
  // O_NONBLOCK: opening a FIFO for reading otherwise waits for a writer, maybe forever,
  // before the regular-file check below can refuse it. Reads of a regular file ignore it.
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  TL_CHECK(fd >= 0, IOError, "cannot open '{}': {}", path, std::strerror(errno));
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    int err = errno;
    ::close(fd);
    TL_FAIL(IOError, "cannot stat '{}': {}", path, std::strerror(err));
  }
  if (!S_ISREG(st.st_mode)) {
    ::close(fd);
    TL_FAIL(IOError, "'{}' is not a regular file", path);
  }
  size_t size = static_cast<size_t>(st.st_size);
  const std::byte* data = nullptr;
  if (size > 0) {
    void* p = ::mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
    if (p == MAP_FAILED) {
      int err = errno;
      ::close(fd);
      TL_FAIL(IOError, "cannot map '{}': {}", path, std::strerror(err));
    }
    data = static_cast<const std::byte*>(p);
  }
  return std::shared_ptr<MappedFile>(new MappedFile(path, fd, data, size));
}

MappedFile::~MappedFile() {
  if (data_ != nullptr) {
    ::munmap(const_cast<std::byte*>(data_), size_);
  }
  ::close(fd_);
}

void MappedFile::read_into(size_t offset, std::byte* dst, size_t n) const {
  TL_CHECK(offset <= size_ && n <= size_ - offset, FormatError,
           "'{}': read of {} bytes at offset {} beyond file size {}", path_, n, offset, size_);
  while (n > 0) {
    ssize_t got = ::pread(fd_, dst, n, static_cast<off_t>(offset));
    if (got < 0 && errno == EINTR) continue;
    TL_CHECK(got > 0, IOError, "cannot read '{}' at offset {}: {}", path_, offset,
             got == 0 ? "unexpected end of file" : std::strerror(errno));
    dst += got;
    offset += static_cast<size_t>(got);
    n -= static_cast<size_t>(got);
  }
}

}  // namespace torchlet

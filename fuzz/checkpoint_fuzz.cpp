// Fuzz target: whole checkpoint files through torchlet::load, eager and mapped, and
// through scan. The bytes go into an in-memory file (memfd) so no disk is touched.
#include <cstddef>
#include <cstdint>
#include <string>
#include <sys/mman.h>
#include <unistd.h>

#include <torchlet/checkpoint.h>
#include <torchlet/error.h>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  int fd = memfd_create("checkpoint_fuzz", 0);
  if (fd < 0) return 0;
  if (size > 0 && write(fd, data, size) != static_cast<ssize_t>(size)) {
    close(fd);
    return 0;
  }
  std::string path = "/proc/self/fd/" + std::to_string(fd);
  for (auto mode : {torchlet::LoadMode::Eager, torchlet::LoadMode::Mapped}) {
    torchlet::LoadOptions opt;
    opt.mode = mode;
    try {
      torchlet::IValue v = torchlet::load(path, opt);
      (void)v.repr();
    } catch (const torchlet::Error&) {
    }
  }
  try {
    (void)torchlet::scan(path);
  } catch (const torchlet::Error&) {
  }
  close(fd);
  return 0;
}

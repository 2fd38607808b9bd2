// MappedFile: the one way torchlet opens a file to read (checkpoints, archives, scan).
// Anything but a regular file is refused at once: a FIFO nobody writes to must not
// block the open (a `torchlet scan` that never returns).
#include "core/mapped_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <future>
#include <string>

#include <gtest/gtest.h>
#include <torchlet/error.h>

namespace torchlet {
namespace {

namespace fs = std::filesystem;

fs::path scratch() {
  fs::path d = fs::temp_directory_path() / ("torchlet_mapped_file_test_" + std::to_string(::getpid()));
  fs::create_directories(d);
  return d;
}

std::string refusal(const fs::path& p) {
  try {
    (void)MappedFile::open(p.string());
  } catch (const IOError& e) {
    return e.what();
  }
  return "opened";
}

TEST(MappedFile, MapsARegularFile) {
  const fs::path p = scratch() / "bytes.bin";
  std::ofstream(p, std::ios::binary) << "abc";
  auto f = MappedFile::open(p.string());
  ASSERT_EQ(f->size(), 3u);
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(f->data()), 3), "abc");
  fs::remove_all(scratch());
}

TEST(MappedFile, RefusesAFolderAndAFifoWithoutWaitingForAWriter) {
  const fs::path dir = scratch();
  EXPECT_NE(refusal(dir).find("is not a regular file"), std::string::npos) << refusal(dir);

  const fs::path fifo = dir / "pipe.pt";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  auto opening = std::async(std::launch::async, [&] { return refusal(fifo); });
  if (opening.wait_for(std::chrono::seconds(20)) != std::future_status::ready) {
    ADD_FAILURE() << "opening a FIFO without a writer blocked";
    // Unblock the open (a reader is waiting, so a non-blocking writer succeeds).
    const int w = ::open(fifo.c_str(), O_WRONLY | O_NONBLOCK);
    if (w >= 0) ::close(w);
  }
  const std::string what = opening.get();
  EXPECT_NE(what.find("is not a regular file"), std::string::npos) << what;
  fs::remove_all(dir);
}

}  // namespace
}  // namespace torchlet

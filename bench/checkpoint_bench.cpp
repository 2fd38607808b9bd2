// One timed checkpoint operation per process, so peak RSS belongs to that operation:
//   checkpoint_bench mapped|eager|touch FILE      time a load (touch: eager + read all)
//   checkpoint_bench save|save-nocrc FILE OUT     time a save of an eager load (with/without CRC)
//   checkpoint_bench memcpy FILE                  time copying the tensor bytes in memory
// Prints "ms=<milliseconds> rss_mb=<peak RSS>"; bench/checkpoint_bench.py drives it.
#include <chrono>
#include <cstring>
#include <fstream>
#include <string>

#include <fmt/format.h>
#include <torchlet/checkpoint.h>
#include <torchlet/error.h>

namespace {

// VmHWM: this process's own peak RSS (getrusage's ru_maxrss would include the
// parent's high-water mark inherited across fork).
double peak_rss_mb() {
  std::ifstream in("/proc/self/status");
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("VmHWM:", 0) == 0) return std::stod(line.substr(6)) / 1024.0;
  }
  return -1;
}

// Sums one byte per page so every page of every tensor is really present.
size_t touch(const torchlet::IValue& v) {
  size_t sum = 0;
  for (const auto& [k, t] : v.dictRef().items()) {
    const auto* p = static_cast<const unsigned char*>(t.toTensor().data_ptr());
    for (size_t i = 0; i < t.toTensor().nbytes(); i += 4096) sum += p[i];
  }
  return sum;
}

}  // namespace

int main(int argc, char** argv) {
  using clock = std::chrono::steady_clock;
  if (argc < 3) {
    fmt::print(stderr, "usage: checkpoint_bench mapped|eager|touch|save|memcpy FILE [OUT]\n");
    return 2;
  }
  std::string mode = argv[1], file = argv[2];
  try {
    torchlet::LoadOptions opt;
    // save starts from tensors in memory, as torch.save's timing does.
    opt.mode = mode == "eager" || mode == "touch" || mode.starts_with("save") ? torchlet::LoadMode::Eager
                                                                     : torchlet::LoadMode::Mapped;
    if (mode == "memcpy") {
      // The floor eager loading is measured against: copying the same bytes in memory
      // (mapped load + page-in first, so only the copy is timed).
      torchlet::IValue v = torchlet::load(file, opt);
      touch(v);
      std::vector<torchlet::Tensor> copies;
      auto t0 = clock::now();
      for (const auto& [k, t] : v.dictRef().items()) copies.push_back(t.toTensor().clone());
      double ms = std::chrono::duration<double, std::milli>(clock::now() - t0).count();
      fmt::print("ms={:.3f} rss_mb={:.1f}\n", ms, peak_rss_mb());
      return 0;
    }
    auto t0 = clock::now();
    torchlet::IValue v = torchlet::load(file, opt);
    size_t check = mode == "touch" ? touch(v) : 0;
    if (mode == "save" || mode == "save-nocrc") {
      torchlet::SaveOptions so;
      so.compute_crc32 = mode == "save";
      t0 = clock::now();
      torchlet::save(v, argv[3], so);
    }
    double ms = std::chrono::duration<double, std::milli>(clock::now() - t0).count();
    fmt::print("ms={:.3f} rss_mb={:.1f} check={}\n", ms, peak_rss_mb(), check);
  } catch (const torchlet::Error& e) {
    fmt::print(stderr, "checkpoint_bench: {}\n", e.what());
    return 1;
  }
  return 0;
}

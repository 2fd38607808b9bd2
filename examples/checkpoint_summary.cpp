// Example: summarise a torch.save checkpoint with torchlet's C++ API, the way the
// README shows it. Build: part of the default build (build/examples/checkpoint_summary).
//   checkpoint_summary FILE.pt
#include <iostream>

#include <torchlet/checkpoint.h>
#include <torchlet/error.h>

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: checkpoint_summary FILE.pt\n";
    return 2;
  }
  try {
    for (const auto& g : torchlet::scan(argv[1])) {  // what it would import
      if (!g.allowed) std::cout << "refused global: " << g.module << "." << g.name << "\n";
    }
    torchlet::LoadOptions mapped;
    mapped.mode = torchlet::LoadMode::Mapped;  // no tensor bytes are read
    torchlet::IValue sd = torchlet::load(argv[1], mapped);
    if (!sd.isDict()) {
      std::cout << sd.repr() << "\n";
      return 0;
    }
    for (const auto& [key, value] : sd.dictRef().items()) {
      std::cout << key.repr() << ": ";
      if (value.isTensor()) {
        torchlet::Tensor t = value.toTensor();
        std::cout << torchlet::dtype_name(t.dtype()) << " " << torchlet::shape_repr(t.sizes()) << "\n";
      } else {
        std::cout << value.tag_name() << "\n";
      }
    }
  } catch (const torchlet::Error& e) {
    std::cerr << "checkpoint_summary: " << e.what() << "\n";
    return 1;
  }
  return 0;
}

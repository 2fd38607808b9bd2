// `torchlet version` and `torchlet demo`: the demo runs what works today on the
// bundled example checkpoint (examples/tiny_mlp.pt, written by real PyTorch) and
// says which capabilities are not there yet.
#include <fmt/format.h>
#include <filesystem>

#include <torchlet/checkpoint.h>
#include <torchlet/tensor.h>

#include "commands.h"

namespace torchlet::cli {

int cmd_version(const Args& args) {
  if (!args.empty()) throw UsageError(fmt::format("unexpected argument '{}'", args[0]));
  fmt::print("torchlet 0.1.0\n");
  return 0;
}

int cmd_demo(const Args& args) {
  if (args.size() > 1) throw UsageError(fmt::format("unexpected argument '{}'", args[1]));
  std::filesystem::path dir = args.empty() ? std::filesystem::path("examples") : std::filesystem::path(args[0]);
  std::filesystem::path example = dir / "tiny_mlp.pt";

  fmt::print("torchlet demo\n\n1. Load a checkpoint real PyTorch wrote ({}):\n", example.string());
  LoadOptions mapped;
  mapped.mode = LoadMode::Mapped;
  IValue ckpt = load(example.string(), mapped);
  for (const auto& [key, value] : ckpt.dictRef().items()) {
    if (value.isDict()) {
      fmt::print("   {}: {} tensors\n", key.toStringRef(), value.dictRef().size());
      for (const auto& [name, t] : value.dictRef().items()) {
        fmt::print("     {:<10} {} {}\n", name.toStringRef(), dtype_name(t.toTensor().dtype()),
                   shape_repr(t.toTensor().sizes()));
      }
    } else {
      fmt::print("   {}: {}\n", key.toStringRef(), value.repr());
    }
  }
  Tensor bias = ckpt.dictRef().find(IValue("model"))->dictRef().find(IValue("2.bias"))->toTensor();
  fmt::print("\n   model['2.bias'] =\n   {}\n", bias.repr());

  fmt::print("\n2. Save it again (zip format, atomic) and reload:\n");
  std::filesystem::path copy = std::filesystem::temp_directory_path() / "torchlet_demo_copy.pt";
  save(ckpt, copy.string());
  IValue again = load(copy.string());
  Tensor bias2 = again.dictRef().find(IValue("model"))->dictRef().find(IValue("2.bias"))->toTensor();
  fmt::print("   {} bytes written; reloaded bias equal: {}\n", std::filesystem::file_size(copy),
             bias2.repr() == bias.repr() ? "yes" : "NO");
  std::filesystem::remove(copy);

  fmt::print("\n3. Tensor views share storage, as in torch:\n");
  Tensor w = ckpt.dictRef().find(IValue("model"))->dictRef().find(IValue("0.weight"))->toTensor();
  Tensor t = w.t();
  fmt::print("   w = model['0.weight'] {}; w.t() is a view: shares storage = {}, contiguous = {}\n",
             shape_repr(w.sizes()), t.shares_storage(w), t.is_contiguous());
  fmt::print("   w.t()[0].to(float16) = {}\n", t.select(0, 0).to(DType::Half).repr());
  fmt::print("   result_type(int32 tensor, 2.5) = {}\n",
             dtype_repr(result_type(arange(3, DType::Int), Scalar(2.5))));

  fmt::print("\nNot there yet: TorchScript (torch.jit.load/save, the compiler, interpreter and\n"
             "operators). See README.md.\n");
  return 0;
}

}  // namespace torchlet::cli

// `torchlet version` and `torchlet demo`: the demo runs what works today on the
// bundled examples real PyTorch wrote (examples/tiny_mlp.pt, a checkpoint, and
// examples/tiny_cnn_scripted.pt, a torch.jit.save archive) and says what is not there yet.
#include <fmt/format.h>
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <vector>

#include <torchlet/checkpoint.h>
#include <torchlet/tensor.h>

#include "commands.h"
#include "timing.h"

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

  fmt::print("\n4. Load a TorchScript model torch.jit.save wrote and run it ({}):\n",
             (dir / "tiny_cnn_scripted.pt").string());
  jit::Module cnn = jit::load((dir / "tiny_cnn_scripted.pt").string());
  fmt::print("   {} parameters, {} buffers; labels {}\n", cnn.named_parameters().size(), cnn.named_buffers().size(),
             cnn.attr("labels").repr());
  fmt::print("   its forward, as torch.jit.save wrote it:\n{}", method_code(cnn.code(), "forward"));
  IValue images = load((dir / "tiny_cnn_inputs.pt").string());
  Tensor probs = cnn.forward(images.tupleRef().elements).toTensor();
  const CallTimes times = time_calls(10, [&] { cnn.forward(images.tupleRef().elements); });
  Tensor expected = load((dir / "tiny_cnn_expected.pt").string()).toTensor();
  double worst = 0;
  for (int64_t i = 0; i < probs.numel(); ++i)
    worst = std::max(worst, std::abs(probs.reshape({-1}).at({i}).to_double() - expected.reshape({-1}).at({i}).to_double()));
  fmt::print("   forward(images) =\n   {}\n   largest difference from torch's own output: {:.2g}\n", probs.repr(), worst);
  fmt::print("   time per call: {:.3f} ms (median of 10)\n", times.median_ms);

  fmt::print("\n5. Compile TorchScript source and run it:\n");
  const char* source =
      "def collatz(n: int) -> int:\n"
      "    steps = 0\n"
      "    while n != 1:\n"
      "        n = n // 2 if n % 2 == 0 else 3 * n + 1\n"
      "        steps += 1\n"
      "    return steps\n";
  fmt::print("{}", source);
  auto cu = jit::compile(source, "demo.py");
  fmt::print("   collatz(27) = {}\n", jit::run_function(*cu, "collatz", {IValue(27)}).repr());

  fmt::print("\nNot there yet: nn.Module subclasses written as Python source (`torchlet script` compiles\n"
             "functions, TorchScript classes and NamedTuples; modules come from archives), sparse and\n"
             "quantized tensors. See README.md.\n");
  return 0;
}

}  // namespace torchlet::cli

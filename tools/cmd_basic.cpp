// `torchlet version` and `torchlet demo`: the demo shows what works today on the
// bundled example, and says which capabilities are not there yet.
#include <fmt/format.h>
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
  fmt::print("torchlet demo: tensor core\n\n");
  Tensor a = arange(6, DType::Float).view(std::vector<int64_t>{2, 3});
  fmt::print("a = arange(6).view(2, 3)\n{}\n\n", a.repr());
  Tensor t = a.t();
  fmt::print("a.t() (a view: shares storage = {}, contiguous = {})\n{}\n\n",
             t.shares_storage(a), t.is_contiguous(), t.repr());
  fmt::print("a.t().contiguous().to(int32)\n{}\n\n", t.contiguous().to(DType::Int).repr());
  fmt::print("linspace(0, 1, 5, dtype=float16)\n{}\n\n",
             linspace(0.0, 1.0, 5, DType::Half).repr());
  fmt::print("result_type(int32 tensor, 2.5) = {}\n\n",
             dtype_repr(result_type(a.to(DType::Int), Scalar(2.5))));
  fmt::print("Not there yet: checkpoints (torch.save/torch.load), TorchScript archives,\n"
             "the TorchScript compiler and interpreter, operators. See README.md.\n");
  return 0;
}

}  // namespace torchlet::cli

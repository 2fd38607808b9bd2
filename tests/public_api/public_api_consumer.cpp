// A program written as a user outside the tree writes one: it includes only
// <torchlet/torchlet.h> and is compiled with only include/ on its include path
// (tests/CMakeLists.txt), so any public header that needs an internal one fails to
// build here. Against files real PyTorch wrote, it loads a checkpoint, loads and runs
// a TorchScript archive, looks at the archive's module (attributes, schemas, graph,
// code), records and pickle, compiles source and defines a method, and lists operators.
//   public_api_consumer CHECKPOINT ARCHIVE ARCHIVE_IO
// CHECKPOINT: torch.save of a dict of tensors; ARCHIVE: torch.jit.save of a module;
// ARCHIVE_IO: torch.save of {"input": args, "output": module(*args)}. Exit 0 when every
// check holds; a message naming the failed check and exit 1 otherwise.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include <torchlet/torchlet.h>
#include <unistd.h>

namespace {

int failures = 0;

void check(bool ok, const std::string& what) {
  if (!ok) {
    std::fprintf(stderr, "public_api_consumer: FAILED: %s\n", what.c_str());
    ++failures;
  }
}

double max_abs_diff(const torchlet::Tensor& a, const torchlet::Tensor& b) {
  return torchlet::max(torchlet::abs(torchlet::sub(a, b))).item().to_double();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: public_api_consumer CHECKPOINT ARCHIVE ARCHIVE_IO\n");
    return 2;
  }
  try {
    // torch.load of torch's checkpoint, then torch.save and load of it again.
    torchlet::IValue sd = torchlet::load(argv[1]);
    check(sd.isDict() && sd.dictRef().size() > 0, "the checkpoint holds a non-empty dict");
    const std::string copy =
        (std::filesystem::temp_directory_path() / ("torchlet_consumer_" + std::to_string(getpid()) + ".pt")).string();
    torchlet::save(sd, copy);
    torchlet::IValue again = torchlet::load(copy);
    check(again.dictRef().size() == sd.dictRef().size(), "the re-saved checkpoint has every key");
    std::filesystem::remove(copy);

    // torch.jit.load, forward on torch's inputs, torch's output.
    torchlet::jit::Module m = torchlet::jit::load(argv[2]);
    torchlet::IValue io = torchlet::load(argv[3]);
    std::vector<torchlet::IValue> args = io.dictRef().find(torchlet::IValue("input"))->tupleRef().elements;
    torchlet::Tensor want = io.dictRef().find(torchlet::IValue("output"))->toTensor();
    torchlet::Tensor got = m.forward(args).toTensor();
    check(max_abs_diff(got, want) <= 1e-4, "forward matches torch's output");
    check(!m.named_parameters().empty(), "the module has parameters");
    check(m.has_method("forward") && !m.method_names().empty(), "the module lists its methods");

    // What the archive's module is: its class, attributes, forward's schema, graph, code.
    check(m.qualified_name().starts_with("__torch__."), "a loaded class is named under __torch__");
    size_t parameters = 0;
    bool training = false;
    for (const auto& a : m.named_attributes()) {
      parameters += a.kind == torchlet::jit::SlotKind::Parameter && a.value.isTensor();
      training = training || (a.name == "training" && a.type == "bool" && a.value.isBool());
    }
    check(parameters == m.named_parameters().size(), "named_attributes holds every parameter");
    check(training, "named_attributes holds training: bool");
    torchlet::jit::Method forward = m.get_method("forward");
    check(forward.schema().starts_with("forward(" + m.qualified_name() + " self"), "forward's schema names it alone");
    check(!forward.arguments().empty() && forward.arguments()[0].name == "self", "forward's first argument is self");
    check(forward.graph().starts_with("graph(%self"), "forward's graph is torch's IR text");
    check(m.code().find("def forward(") != std::string::npos, "the module's code defines forward");

    // The archive's records and its data.pkl, disassembled as pickletools would.
    check(torchlet::is_torchscript_archive(argv[2]) && !torchlet::is_torchscript_archive(argv[1]),
          "a torch.jit.save archive is told from a torch.save checkpoint");
    torchlet::ArchiveReader reader(argv[2]);
    const auto records = reader.get_all_records();
    check(std::find(records.begin(), records.end(), "data.pkl") != records.end() && reader.has_record("version"),
          "the archive lists data.pkl and version");
    const std::string pickle = reader.get_record("data.pkl");
    const std::string listing = torchlet::disassemble_file(argv[2]);
    check(listing == torchlet::disassemble_pickle(std::as_bytes(std::span<const char>(pickle.data(), pickle.size())),
                                                  std::string(argv[2]) + "/data.pkl"),
          "disassemble_file lists the record get_record reads");
    check(listing.find("STOP") != std::string::npos, "the listing reaches STOP");

    // Threads and the allocation limit.
    const int threads = torchlet::get_num_threads();
    torchlet::set_num_threads(1);
    check(torchlet::get_num_threads() == 1, "set_num_threads(1) holds");
    torchlet::set_num_threads(threads);
    bool limited = false;
    try {
      const torchlet::AllocationLimit limit(1024);
      torchlet::zeros({1024});
    } catch (const torchlet::LimitError&) {
      limited = true;
    }
    check(limited, "a 4 KiB tensor under a 1 KiB AllocationLimit raises LimitError");

    // define: a new method on the loaded module, run on the same inputs.
    m.define("def doubled(self, x):\n    return self.forward(x) * 2\n");
    torchlet::Tensor twice = m.run_method("doubled", args).toTensor();
    check(max_abs_diff(twice, torchlet::mul(want, 2)) <= 2e-4, "a defined method runs");

    // compile and run source.
    auto cu = torchlet::jit::compile("def f(n: int) -> int:\n    return n * 2 + 1\n");
    check(torchlet::jit::run_function(*cu, "f", {torchlet::IValue(int64_t{20})}).toInt() == 41, "compiled f(20) is 41");
    check(torchlet::jit::function_names(*cu) == std::vector<std::string>{"f"}, "the unit lists f");
    check(torchlet::jit::source_graphs("def f(n: int) -> int:\n    return n * 2 + 1\n", "f.py").starts_with("# f\ngraph("),
          "source_graphs prints f's graph");

    // The operator registry.
    const auto schemas = torchlet::jit::get_all_schemas();
    check(std::find(schemas.begin(), schemas.end(), "aten::relu(Tensor self) -> Tensor") != schemas.end(),
          "aten::relu's schema is listed");
    check(torchlet::jit::has_operator("aten::add.Tensor") && !torchlet::jit::has_operator("aten::no_such_op"),
          "has_operator finds aten::add.Tensor and not a made-up name");

    // Errors arrive as torchlet::Error subclasses.
    bool refused = false;
    try {
      torchlet::jit::compile("def g(x: int) -> int:\n    return x +\n");
    } catch (const torchlet::CompileError&) {
      refused = true;
    }
    check(refused, "bad source raises CompileError");
  } catch (const torchlet::Error& e) {
    std::fprintf(stderr, "public_api_consumer: %s\n", e.what());
    return 1;
  }
  return failures == 0 ? 0 : 1;
}

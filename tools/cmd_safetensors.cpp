// `inspect` and `convert` for safetensors files: listing a header, and converting
// between a checkpoint holding a dict of str -> Tensor (a state_dict) and safetensors,
// either way. What the format cannot hold is refused by name (a non-tensor value) or
// reported in one stderr line (storage sharing, __metadata__ a .pt cannot keep).
#include "cmd_safetensors.h"
#include "commands.h"
#include "timing.h"

#include <map>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <torchlet/error.h>
#include <torchlet/ivalue.h>
#include <torchlet/safetensors.h>
#include <torchlet/tensor.h>

namespace torchlet::cli {

namespace {

// "an int", "a dict", "a Python object collections.Counter": what a refused value is.
std::string kind_of(const IValue& v) {
  if (v.isDict()) return "a dict";
  if (v.isList()) return "a list";
  if (v.isTuple()) return "a tuple";
  if (v.isNone()) return "None";
  if (v.isPyObject()) return fmt::format("a Python object {}.{}", v.toPyObject()->module, v.toPyObject()->name);
  const std::string_view name = v.tag_name();
  const bool vowel = !name.empty() && std::string_view("aeiouAEIOU").find(name[0]) != std::string_view::npos;
  return fmt::format("{} {}", vowel ? "an" : "a", name);
}

// The (name, tensor) pairs of a checkpoint's dict, in its order; anything else refused.
std::vector<std::pair<std::string, Tensor>> tensors_of(const IValue& v, const std::string& path) {
  TL_CHECK(v.isDict(), ValueError, "{}: safetensors holds a dict of str -> Tensor, but this checkpoint holds {}", path,
           kind_of(v));
  std::vector<std::pair<std::string, Tensor>> out;
  for (const auto& [k, value] : v.dictRef().items()) {
    TL_CHECK(k.isString(), ValueError, "{}: safetensors names tensors by str, but a key here is {} ({})", path,
             kind_of(k), k.repr());
    TL_CHECK(value.isTensor(), ValueError, "{}: safetensors holds only tensors: {} is {}", path,
             shown(k.toStringRef()), kind_of(value));
    out.emplace_back(k.toStringRef(), value.toTensor());
  }
  return out;
}

// One stderr line when tensors share a storage: the file will not keep it.
void report_sharing(const std::vector<std::pair<std::string, Tensor>>& tensors) {
  std::unordered_map<const StorageImpl*, const std::string*> first;
  size_t sharing = 0;
  std::string example;
  for (const auto& [name, t] : tensors) {
    auto [it, inserted] = first.emplace(t.storage().get(), &name);
    if (inserted) continue;
    if (sharing++ == 0) example = fmt::format("{} and {}", shown(*it->second), shown(name));
  }
  if (sharing == 0) return;
  fmt::print(stderr,
             "torchlet: note: {} tensor{} share{} storage with another ({}); safetensors keeps no sharing, so "
             "each tensor is written as its own values\n",
             sharing, sharing == 1 ? "" : "s", sharing == 1 ? "s" : "", example);
}

}  // namespace

bool is_safetensors_name(const std::string& path) {
  constexpr std::string_view kExt = ".safetensors";
  return path.size() > kExt.size() && std::string_view(path).ends_with(kExt);
}

bool is_safetensors_input(const std::string& path) { return is_safetensors_name(path) || looks_like_safetensors(path); }

int inspect_safetensors(const std::string& file, LoadMode mode) {
  auto start = Clock::now();
  const SafetensorsHeader h = read_safetensors_header(file);
  const double header_ms = ms_since(start);
  fmt::print("safetensors: header {} bytes, data {} bytes, {} tensors\n", h.header_bytes, h.data_bytes,
             h.tensors.size());
  if (!h.metadata.empty()) {
    fmt::print("__metadata__ ({} entr{}):\n", h.metadata.size(), h.metadata.size() == 1 ? "y" : "ies");
    for (const auto& [k, v] : h.metadata) fmt::print("  {}: {}\n", shown(k), shown(v));
  }
  fmt::print("tensors (in file order):\n");
  const SafetensorsTensorInfo* unloadable = nullptr;
  for (const auto& t : h.tensors) {
    fmt::print("  {}: {} {} data_offsets [{}, {}] ({} bytes)\n", shown(t.name), t.dtype_name, shape_repr(t.shape),
               t.begin, t.end, t.end - t.begin);
    if (!t.dtype && unloadable == nullptr) unloadable = &t;
  }
  const char* mode_name = mode == LoadMode::Eager ? "eager" : mode == LoadMode::Mapped ? "mapped" : "metadata";
  fmt::print("\n{} tensors, {} bytes; header read in {:.3f} ms", h.tensors.size(), h.data_bytes, header_ms);
  if (unloadable != nullptr) {
    fmt::print("; not loadable: torchlet has no dtype for {} (tensor {})\n", unloadable->dtype_name,
               shown(unloadable->name));
    return 0;
  }
  start = Clock::now();
  const SafetensorsFile loaded = load_safetensors(file, mode);
  fmt::print("; loaded ({}) in {:.3f} ms\n", mode_name, ms_since(start));
  return 0;
}

int convert_safetensors(const std::string& in, const std::string& out) {
  if (is_safetensors_input(in)) {
    SafetensorsFile f = load_safetensors(in, LoadMode::Mapped);  // the save reads each tensor once, from the mapping
    if (is_safetensors_name(out)) {
      save_safetensors(f.tensors, out, f.metadata);
      return 0;
    }
    // What safetensors.torch.load_file returns: a plain dict, in the file's order.
    auto d = make_intrusive<DictImpl>();
    for (auto& [name, t] : f.tensors) d->insert_or_assign(IValue(name), IValue(t));
    save(IValue(d), out);
    if (!f.metadata.empty())
      fmt::print(stderr, "torchlet: note: __metadata__ ({} entr{}) of {} is not kept in {}, a dict of tensors\n",
                 f.metadata.size(), f.metadata.size() == 1 ? "y" : "ies", shown(in), shown(out));
    return 0;
  }
  LoadOptions opt;
  opt.mode = LoadMode::Mapped;
  const IValue v = load(in, opt);
  std::vector<std::pair<std::string, Tensor>> tensors = tensors_of(v, in);
  report_sharing(tensors);
  // transformers refuses a safetensors checkpoint without this entry; huggingface's own
  // .pt converter writes it too.
  save_safetensors(tensors, out, {{"format", "pt"}});
  return 0;
}

}  // namespace torchlet::cli

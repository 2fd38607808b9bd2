// The two archive layouts of pt2_archive.h, read with the zip reader and, for the
// torch.save files inside, the checkpoint loader's record unpickler.
#include "export/pt2_archive.h"

#include <cstring>
#include <map>

#include <fmt/format.h>
#include <torchlet/checkpoint.h>
#include <torchlet/error.h>

#include "archive/zip_reader.h"
#include "checkpoint/zip_record.h"
#include "core/python_format.h"
#include "pickle/unpickler.h"

namespace torchlet::exported {
namespace {

constexpr std::string_view kLegacyProgram = "serialized_exported_program.json";

std::string full_name(const ZipReader& zip, std::string_view below_root) {
  return zip.root().empty() ? std::string(below_root) : fmt::format("{}/{}", zip.root(), below_root);
}

// A torch.save file stored inside the archive, unpickled with its storages copied out
// (the inner reader borrows `bytes`, which must outlive the call only).
IValue load_nested_checkpoint(const ZipReader& outer, const ZipRecord& record, const std::string& path) {
  const std::string label = fmt::format("{}/{}", path, record.name);
  std::string inflated;
  std::span<const std::byte> bytes;
  if (record.method == 0) {
    bytes = outer.stored_bytes(record);
  } else {
    inflated = outer.read(record);
    bytes = std::as_bytes(std::span<const char>(inflated.data(), inflated.size()));
  }
  constexpr std::string_view kZipMagic = "PK\x03\x04";
  TL_CHECK(bytes.size() >= 4 && std::memcmp(bytes.data(), kZipMagic.data(), 4) == 0, UnsupportedError,
           "{}: not a torch.save zip file (only the zip format is read inside .pt2 archives)", label);
  ZipReader inner = ZipReader::from_bytes(bytes, label);
  TL_CHECK(inner.has_record("data.pkl"), FormatError, "{}: no data.pkl record (not a torch.save file)", label);
  LoadOptions options;
  options.mode = LoadMode::Eager;
  return unpickle_zip_record(inner, label, "data.pkl", "data/", options, nullptr);
}

// (args, kwargs) as torch.export writes example inputs: args then kwargs' values.
std::vector<IValue> flatten_sample_inputs(const IValue& v, const std::string& label) {
  TL_CHECK(v.isTuple() && v.tupleRef().elements.size() == 2 && v.tupleRef().elements[0].isTuple(), FormatError,
           "{}: sample inputs are a {}, expected a tuple (args, kwargs)", label, v.tag_name());
  std::vector<IValue> out = v.tupleRef().elements[0].tupleRef().elements;
  const IValue& kwargs = v.tupleRef().elements[1];
  if (kwargs.isDict())
    for (const auto& [k, value] : kwargs.dictRef().items()) out.push_back(value);
  else
    TL_CHECK(kwargs.isNone(), FormatError, "{}: sample kwargs are a {}, expected a dict", label, kwargs.tag_name());
  return out;
}

// A dict of FQN -> tensor from a torch.save file (the legacy layout's state files).
std::map<std::string, Tensor> tensor_dict(const IValue& v, const std::string& label) {
  TL_CHECK(v.isDict(), FormatError, "{}: holds a {}, expected a dict of tensors", label, v.tag_name());
  std::map<std::string, Tensor> out;
  for (const auto& [k, t] : v.dictRef().items()) {
    TL_CHECK(k.isString() && t.isTensor(), FormatError, "{}: entry {} is not a name and a tensor", label,
             printable_text(k.repr()));
    out.emplace(k.toStringRef(), t.toTensor());
  }
  return out;
}

// The state tensor must be what the graph's placeholder says it is.
void check_against_graph(const ProgramDocument& doc, const ExportedInput& in, const Tensor& t, const std::string& path) {
  auto m = doc.graph.tensor_values.find(in.name);
  if (m == doc.graph.tensor_values.end()) return;
  bool same = m->second.dtype == t.dtype() && m->second.sizes.size() == static_cast<size_t>(t.dim());
  for (size_t i = 0; same && i < m->second.sizes.size(); ++i)
    same = !m->second.sizes[i].value || *m->second.sizes[i].value == t.sizes()[i];
  TL_CHECK(same, FormatError, "{}: {} {} is {} in the archive, but the graph's {} is {}", path,
           exported_input_kind_name(in.kind), printable_text(in.target), tensor_type_text(t), printable_text(in.name),
           m->second.str());
}

// --- the pt2 layout --------------------------------------------------------------------

struct PayloadEntry {
  std::string path_name;
  bool use_pickle = false;
  TensorMeta meta;
  JsonField where;
};

// data/<dir>/<model>_<dir>_config.json: {"config": {FQN: PayloadMeta}}; absent = none.
struct PayloadConfig {
  nlohmann::json json;
  std::string label;
  std::map<std::string, PayloadEntry> entries;
};

std::unique_ptr<PayloadConfig> read_payload_config(const ZipReader& zip, const std::string& record_below_root,
                                                   const std::string& path) {
  auto config = std::make_unique<PayloadConfig>();
  const ZipRecord* r = zip.find(record_below_root);
  if (!r) return config;
  config->label = fmt::format("{}/{}", path, r->name);
  TL_CHECK(r->uncompressed_size <= kMaxProgramJsonBytes, LimitError, "{}: {} bytes, over the {} MiB torchlet reads",
           config->label, r->uncompressed_size, kMaxProgramJsonBytes >> 20);
  config->json = parse_program_json(zip.read(*r), config->label);
  const JsonField root(config->json, &config->label, "");
  for (const auto& [fqn, e] : root["config"].members()) {
    PayloadEntry entry{e["path_name"].str(), false, {}, e};
    if (auto p = e.find("use_pickle")) entry.use_pickle = p->boolean();
    entry.meta = read_stored_tensor_meta(e["tensor_meta"]);
    config->entries.emplace(fqn, std::move(entry));
  }
  return config;
}

// A payload file is a plain name inside its folder: "weight_0", never a path.
void check_payload_name(const PayloadEntry& e, const std::string& dir) {
  const std::string& n = e.path_name;
  if (n.empty() || n == "." || n == ".." || n.find('/') != std::string::npos || n.find('\\') != std::string::npos)
    e.where["path_name"].fail(fmt::format("'{}' is not a file name inside {}", printable_text(n), dir));
}

Tensor read_payload(const ZipReader& zip, const PayloadEntry& e, const std::string& dir, const std::string& path,
                    std::map<std::string, Tensor>& storages) {
  check_payload_name(e, dir);
  if (e.use_pickle)
    TL_FAIL(UnsupportedError, "{}: use_pickle is true for {}: pickled payloads (tensor subclasses) are not supported",
            e.where.where(), printable_text(e.path_name));
  const std::string name = dir + e.path_name;
  const std::string label = fmt::format("{}/{}", path, full_name(zip, name));
  auto cached = storages.find(name);
  if (cached == storages.end()) {
    const ZipRecord* r = zip.find(name);
    TL_CHECK(r, FormatError, "{}: {} names {}, which the archive does not hold", e.where.where(), printable_text(e.path_name),
             printable_text(full_name(zip, name)));
    const size_t item = element_size(e.meta.dtype);
    const uint64_t nbytes = r->uncompressed_size;
    Storage storage;
    // Stored weights alias the mapping, which is private and writable (copy on write),
    // so loading costs no copy and a buffer mutation never reaches the file.
    const std::byte* stored = r->method == 0 && zip.mapping() && nbytes > 0 ? zip.stored_bytes(*r).data() : nullptr;
    if (stored && reinterpret_cast<uintptr_t>(stored) % item == 0) {
      storage = make_intrusive<StorageImpl>(const_cast<std::byte*>(stored), static_cast<size_t>(nbytes),
                                            std::static_pointer_cast<const void>(zip.mapping()));
    } else if (r->method == 0) {
      storage = make_storage(static_cast<size_t>(nbytes));
      auto bytes = zip.stored_bytes(*r);
      if (!bytes.empty()) std::memcpy(storage->data(), bytes.data(), bytes.size());
    } else {
      storage = make_storage(static_cast<size_t>(nbytes));
      std::string data = zip.read(*r);
      if (!data.empty()) std::memcpy(storage->data(), data.data(), data.size());
    }
    const Shape flat_size{static_cast<int64_t>(nbytes / item)};
    Tensor flat(make_intrusive<TensorImpl>(std::move(storage), 0, flat_size, Shape{1}, e.meta.dtype));
    cached = storages.emplace(name, flat).first;
  }
  TL_CHECK(cached->second.dtype() == e.meta.dtype, FormatError, "{}: read as {} and as {}", label,
           dtype_name(cached->second.dtype()), dtype_name(e.meta.dtype));
  Shape sizes, strides;
  for (const SymIntValue& s : e.meta.sizes) sizes.push_back(*s.value);
  for (const SymIntValue& s : e.meta.strides) strides.push_back(*s.value);
  TL_CHECK(sizes.size() == strides.size(), FormatError, "{}: {} sizes but {} strides", e.where.where(), sizes.size(),
           strides.size());
  return pickle::checked_storage_view(cached->second, *e.meta.storage_offset.value, std::move(sizes), std::move(strides), label);
}

std::string read_small_text(const ZipReader& zip, std::string_view name) {
  const ZipRecord* r = zip.find(name);
  if (!r) return "";
  TL_CHECK(r->uncompressed_size <= 64, FormatError, "{}: {} is {} bytes, expected a short word", zip.label(),
           full_name(zip, name), r->uncompressed_size);
  return zip.read(*r);
}

// The model's JSON: models/model.json, or the only models/<name>.json.
std::string model_name(const ZipReader& zip, const std::string& path) {
  if (zip.has_record("models/model.json")) return "model";
  std::vector<std::string> names;
  const std::string prefix = full_name(zip, "models/");
  for (const ZipRecord& r : zip.records())
    if (r.name.starts_with(prefix) && r.name.ends_with(".json") && r.name.find('/', prefix.size()) == std::string::npos)
      names.push_back(r.name.substr(prefix.size(), r.name.size() - prefix.size() - 5));
  TL_CHECK(!names.empty(), FormatError, "{}: no models/model.json (nor any models/<name>.json): not a torch.export archive",
           path);
  TL_CHECK(names.size() == 1, UnsupportedError,
           "{}: {} programs under models/ and none named 'model'; torchlet loads one program per archive", path,
           names.size());
  return names[0];
}

ArchiveContents read_pt2_layout(const ZipReader& zip, const std::string& path) {
  const std::string format = read_small_text(zip, "archive_format");
  TL_CHECK(format.empty() || format == "pt2", FormatError, "{}: archive_format is '{}', expected 'pt2'", path,
           printable_text(format));
  const std::string order = read_small_text(zip, "byteorder");
  TL_CHECK(order.empty() || order == "little", UnsupportedError, "{}: byteorder '{}': torchlet reads little-endian archives",
           path, printable_text(order));
  const std::string model = model_name(zip, path);
  const ZipRecord& json = zip.get("models/" + model + ".json");
  TL_CHECK(json.uncompressed_size <= kMaxProgramJsonBytes, LimitError, "{}/{}: {} bytes of JSON, over the {} MiB torchlet reads",
           path, json.name, json.uncompressed_size, kMaxProgramJsonBytes >> 20);
  ArchiveContents out;
  out.layout = "pt2";
  out.program = read_program(zip.read(json), fmt::format("{}/{}", path, json.name));
  auto weights = read_payload_config(zip, "data/weights/" + model + "_weights_config.json", path);
  auto constants = read_payload_config(zip, "data/constants/" + model + "_constants_config.json", path);
  std::map<std::string, Tensor> storages;
  for (const ExportedInput& in : out.program->inputs) {
    if (in.kind != ExportedInput::Kind::Parameter && in.kind != ExportedInput::Kind::Buffer &&
        in.kind != ExportedInput::Kind::TensorConstant)
      continue;
    Tensor t;
    if (auto w = weights->entries.find(in.target); w != weights->entries.end())
      t = read_payload(zip, w->second, "data/weights/", path, storages);
    else if (auto c = constants->entries.find(in.target); c != constants->entries.end())
      t = read_payload(zip, c->second, "data/constants/", path, storages);
    else
      TL_FAIL(FormatError, "{}: {} {} is in neither data/weights/{}_weights_config.json nor data/constants/{}_constants_config.json",
              path, exported_input_kind_name(in.kind), printable_text(in.target), model, model);
    check_against_graph(*out.program, in, t, path);
    out.state.emplace_back(in.target, std::move(t));
  }
  if (const ZipRecord* r = zip.find("data/sample_inputs/" + model + ".pt"))
    out.sample_inputs = flatten_sample_inputs(load_nested_checkpoint(zip, *r, path), fmt::format("{}/{}", path, r->name));
  return out;
}

// --- the legacy layout -----------------------------------------------------------------

ArchiveContents read_legacy_layout(const ZipReader& zip, const std::string& path) {
  const ZipRecord& json = zip.get(kLegacyProgram);
  TL_CHECK(json.uncompressed_size <= kMaxProgramJsonBytes, LimitError, "{}/{}: {} bytes of JSON, over the {} MiB torchlet reads",
           path, json.name, json.uncompressed_size, kMaxProgramJsonBytes >> 20);
  ArchiveContents out;
  out.layout = "legacy";
  out.program = read_program(zip.read(json), fmt::format("{}/{}", path, json.name));
  auto dict_of = [&](std::string_view name) {
    const ZipRecord* r = zip.find(name);
    if (!r) return std::map<std::string, Tensor>{};
    return tensor_dict(load_nested_checkpoint(zip, *r, path), fmt::format("{}/{}", path, r->name));
  };
  const std::map<std::string, Tensor> state = dict_of("serialized_state_dict.pt");
  const std::map<std::string, Tensor> constants = dict_of("serialized_constants.pt");
  for (const ExportedInput& in : out.program->inputs) {
    if (in.kind != ExportedInput::Kind::Parameter && in.kind != ExportedInput::Kind::Buffer &&
        in.kind != ExportedInput::Kind::TensorConstant)
      continue;
    const Tensor* t = nullptr;
    if (auto s = state.find(in.target); s != state.end()) t = &s->second;
    else if (auto c = constants.find(in.target); c != constants.end()) t = &c->second;
    TL_CHECK(t, FormatError, "{}: {} {} is in neither serialized_state_dict.pt nor serialized_constants.pt", path,
             exported_input_kind_name(in.kind), printable_text(in.target));
    check_against_graph(*out.program, in, *t, path);
    out.state.emplace_back(in.target, *t);
  }
  if (const ZipRecord* r = zip.find("serialized_example_inputs.pt"))
    out.sample_inputs = flatten_sample_inputs(load_nested_checkpoint(zip, *r, path), fmt::format("{}/{}", path, r->name));
  return out;
}

}  // namespace

ArchiveContents read_archive(const std::string& path) {
  ZipReader zip = ZipReader::open(path);
  if (zip.has_record(kLegacyProgram)) return read_legacy_layout(zip, path);
  return read_pt2_layout(zip, path);
}

bool is_exported_program_archive(const std::string& path) {
  try {
    ZipReader zip = ZipReader::open(path);
    if (zip.has_record(kLegacyProgram) || zip.has_record("archive_format") || zip.has_record("models/model.json")) return true;
    const std::string prefix = full_name(zip, "models/");
    for (const ZipRecord& r : zip.records())
      if (r.name.starts_with(prefix) && r.name.ends_with(".json")) return true;
  } catch (const Error&) {
  }
  return false;
}

}  // namespace torchlet::exported

// Checkpoint subcommands: inspect (what a .pt holds: a checkpoint's tree, or a
// TorchScript archive's modules, methods, parameters and attributes), convert (load +
// save), scan (globals a file would import) and dis (pickle disassembly).
#include <map>
#include <set>
#include <unordered_map>

#include <fmt/format.h>
#include <torchlet/allocation_limit.h>
#include <torchlet/checkpoint.h>
#include <torchlet/error.h>
#include <torchlet/inert_records.h>
#include <torchlet/inspect.h>
#include <torchlet/jit.h>

#include "cli_args.h"
#include "cmd_exported.h"
#include "cmd_safetensors.h"
#include "commands.h"
#include "timing.h"

namespace torchlet::cli {

namespace {

struct Totals {
  int64_t tensors = 0;
  std::map<const StorageImpl*, size_t> storages;
};

// A value's repr for a listing, at most `width` characters. One that would print past
// 64 KiB, or unfold past the value-walk limit (shared lists nested 40 deep unfold to 2^40
// items), is described instead, so one attribute cannot fail or flood the listing.
std::string shown_repr(const IValue& v, size_t width) {
  constexpr size_t kMaxShownBytes = size_t{64} << 10;
  std::string r;
  try {
    const AllocationLimit limit(kMaxShownBytes);
    r = v.repr();
  } catch (const LimitError&) {
    return "<too large to show>";
  }
  if (r.size() > width) r = r.substr(0, width - 3) + "...";
  return r;
}

std::string describe_leaf(const IValue& v, Totals& totals) {
  if (v.isTensor()) {
    Tensor t = v.toTensor();
    ++totals.tensors;
    totals.storages.emplace(t.storage().get(), t.storage()->nbytes());
    std::string extra;
    if (!t.is_contiguous()) extra += fmt::format(" stride={}", shape_repr(t.strides()));
    if (t.storage_offset() != 0) extra += fmt::format(" offset={}", t.storage_offset());
    if (t.impl()->is_parameter_) extra += " Parameter";
    if (t.requires_grad()) extra += " requires_grad";
    return fmt::format("{} {} ({} bytes){}", dtype_name(t.dtype()), shape_repr(t.sizes()), t.nbytes(), extra);
  }
  if (v.isPyObject()) {
    auto p = v.toPyObject();
    return fmt::format("{} {}", p->is_reference ? "global" : "object", escaped(p->module + "." + p->name));
  }
  return shown_repr(v, 60);
}

// An inert record of plain data (numpy, argparse) as what it holds; the tensor a numpy
// array decodes to is a copy, so it is not counted among the file's storages.
std::string describe_decoded(const DecodedRecord& d) {
  if (d.value.isTensor()) {
    const Tensor& t = d.value.toTensor();
    return fmt::format("{} {} {} ({} bytes)", d.kind, dtype_name(t.dtype()), shape_repr(t.sizes()), t.nbytes());
  }
  return fmt::format("{} {}", d.kind, shown_repr(d.value, 60));
}

// The tree under `v`, `name` being its key. Pickles share containers (the same list
// under two keys): one reached again is named by where it was shown, not listed again,
// so the output stays in proportion to the file (40 tuples each holding the previous
// twice are 500 bytes of pickle and 2^40 entries unfolded).
struct TreePrinter {
  Totals& totals;
  std::unordered_map<const void*, std::string> shown;  // container -> its path, e.g. ['a'][0]

  static bool is_container(const IValue& v) {
    return v.isDict() || v.isList() || (v.isTuple() && v.tupleRef().py_kind == PyContainerKind::Tuple);
  }
  // `path` is only read for containers, so leaves get none (a list of millions of
  // numbers would build a path string for each).
  static std::string child_path(const IValue& child, const std::string& path, const std::string& index) {
    return is_container(child) ? path + "[" + index + "]" : std::string();
  }

  // A decoded record whose value is a dict of fields (argparse.Namespace).
  void print_fields(const std::string& kind, const IValue& fields, const std::string& label, const std::string& path,
                    int depth) {
    const size_t n = fields.dictRef().size();
    fmt::print("{}{}{} ({} field{})\n", std::string(static_cast<size_t>(depth) * 2, ' '), label, kind, n,
               n == 1 ? "" : "s");
    for (const auto& [k, e] : fields.dictRef().items())
      print(e, k.toStringRef(), child_path(e, path, k.repr()), depth + 1);
  }

  void print(const IValue& v, const std::string& name, const std::string& path, int depth) {
    const std::string indent(static_cast<size_t>(depth) * 2, ' ');
    const std::string label = name.empty() ? "" : name + ": ";
    if (v.isPyObject()) {
      std::optional<DecodedRecord> d;
      try {
        d = decode_inert_record(v);
      } catch (const Error& e) {  // listed as a record, with why it does not decode
        fmt::print("{}{}{} (not decoded: {})\n", indent, label, describe_leaf(v, totals), e.what());
        return;
      }
      if (d && d->value.isDict()) return print_fields(d->kind, d->value, label, path, depth);
      if (d) return (void)fmt::print("{}{}{}\n", indent, label, describe_decoded(*d));
    }
    if (!is_container(v)) {
      fmt::print("{}{}{}\n", indent, label, describe_leaf(v, totals));
      return;
    }
    const char* kind = v.isDict() ? (v.dictRef().py_kind == PyContainerKind::OrderedDict ? "OrderedDict"
                                     : v.dictRef().py_kind == PyContainerKind::Counter   ? "Counter"
                                                                                         : "dict")
                       : v.isList() ? "list"
                                    : "tuple";
    const size_t n = v.isDict() ? v.dictRef().size() : v.isList() ? v.listRef().elements.size()
                                                                   : v.tupleRef().elements.size();
    auto [first, inserted] = shown.emplace(v.heapPtr(), path);
    if (!inserted) {
      fmt::print("{}{}{} ({} items), the same {} as {} above\n", indent, label, kind, n, kind,
                 first->second.empty() ? "the root" : first->second);
      return;
    }
    fmt::print("{}{}{} ({} items)\n", indent, label, kind, n);
    if (v.isDict()) {
      for (const auto& [k, e] : v.dictRef().items()) {
        const std::string key = k.repr();
        print(e, k.isString() ? k.toStringRef() : key, child_path(e, path, key), depth + 1);
      }
      return;
    }
    const auto& items = v.isList() ? v.listRef().elements : v.tupleRef().elements;
    for (size_t i = 0; i < items.size(); ++i) {
      const std::string index = std::to_string(i);
      print(items[i], "[" + index + "]", child_path(items[i], path, index), depth + 1);
    }
  }
};

LoadMode parse_mode(const std::string& m) {
  if (m == "eager") return LoadMode::Eager;
  if (m == "mapped") return LoadMode::Mapped;
  if (m == "metadata") return LoadMode::Metadata;
  throw UsageError(fmt::format("--mode must be eager, mapped or metadata, not '{}'", m));
}

// inspect on a torch.jit.save archive: the module tree with each class, its methods'
// schemas, parameters and buffers with shapes, other attributes, and the extra files.
void print_module(const jit::Module& m, const std::string& name, int depth) {
  const std::string pad(static_cast<size_t>(depth) * 2, ' ');
  fmt::print("{}{} ({})\n", pad, name.empty() ? "<root>" : name, m.qualified_name());
  for (const auto& method : m.method_names()) fmt::print("{}  def {}\n", pad, m.get_method(method).schema());
  const auto children = m.named_children();
  std::set<std::string> submodules;
  for (const auto& [child, sub] : children) submodules.insert(child);
  for (const auto& a : m.named_attributes(/*recurse=*/false)) {
    if (submodules.count(a.name)) continue;  // printed below, as a submodule
    const IValue& v = a.value;
    const char* kind = a.kind == jit::SlotKind::Parameter ? "parameter"
                       : a.kind == jit::SlotKind::Buffer  ? "buffer"
                                                          : "attribute";
    std::string shown;
    if (v.isTensor()) {
      const Tensor t = v.toTensor();
      std::string dims;
      for (int64_t d = 0; d < t.dim(); ++d) dims += (d ? ", " : "") + std::to_string(t.size(d));
      shown = fmt::format("{} [{}]", dtype_name(t.dtype()), dims);
    } else {
      shown = shown_repr(v, 80);
    }
    fmt::print("{}  {} {}: {} = {}\n", pad, kind, a.name, a.type, shown);
  }
  for (const auto& [child, sub] : children) print_module(sub, child, depth + 1);
}

int inspect_archive(const std::string& file) {
  std::map<std::string, std::string> extra;
  jit::ScriptLoadOptions lo;
  lo.extra_files = &extra;
  auto start = Clock::now();
  jit::Module m = jit::load(file, lo);
  const double ms = ms_since(start);
  print_module(m, "", 0);
  size_t params = 0, numel = 0;
  for (const auto& [n, t] : m.named_parameters()) {
    ++params;
    numel += static_cast<size_t>(t.numel());
  }
  fmt::print("\n{} parameters ({} elements), {} buffers", params, numel, m.named_buffers().size());
  for (const auto& [n, bytes] : extra) fmt::print("\nextra file {} ({} bytes)", n, bytes.size());
  fmt::print("\nTorchScript archive loaded in {:.3f} ms\n", ms);
  return 0;
}

}  // namespace

int cmd_inspect(const Args& args) {
  CLI::App app{"inspect"};
  std::string file, mode = "mapped";
  bool records = false;
  app.add_option("FILE", file)->required();
  app.add_option("--mode", mode);
  app.add_flag("--inert", records, "load unknown classes as inert records");
  std::vector<std::string> allow;
  app.add_option("--allow", allow, "a global (module.Name) the file may name; loads as an inert record");
  parse_args(app, args);
  LoadOptions opt;
  opt.safe_globals = allow;
  opt.mode = parse_mode(mode);  // a bad --mode is a usage error whatever the file is
  if (is_safetensors_input(file)) return inspect_safetensors(file, opt.mode);
  if (is_exported_program_input(file)) return inspect_exported_program(file);
  if (is_torchscript_archive(file)) return inspect_archive(file);
  opt.inert_unknown_globals = records;
  std::vector<StorageLocation> locations;
  opt.storage_locations = &locations;
  auto start = Clock::now();
  IValue v = load(file, opt);
  double ms = ms_since(start);
  Totals totals;
  TreePrinter{totals, {}}.print(v, "", "", 0);
  size_t bytes = 0;
  for (const auto& [p, n] : totals.storages) bytes += n;
  fmt::print("\n{} tensors in {} storages, {} bytes; loaded ({}) in {:.3f} ms\n", totals.tensors,
             totals.storages.size(), bytes, mode, ms);
  if (opt.mode == LoadMode::Metadata) {
    // Where each storage's bytes are, for tools that read or patch them in place.
    fmt::print("\nstorages:\n");
    for (const auto& l : locations) {
      fmt::print("  {}: {} x {} ({} bytes) at file offset {}{}\n", l.record, dtype_name(l.dtype), l.numel,
                 l.nbytes, l.file_offset, l.deflated ? " (deflated)" : "");
    }
  }
  return 0;
}

int cmd_convert(const Args& args) {
  CLI::App app{"convert"};
  std::string in, out;
  app.add_option("IN", in)->required();
  app.add_option("OUT", out)->required();
  std::vector<std::string> allow;
  app.add_option("--allow", allow, "a global (module.Name) the file may name; kept as an inert record");
  size_t alignment = SaveOptions{}.storage_alignment;
  app.add_option("--storage-alignment", alignment, "checkpoints: each storage starts at a multiple of this many bytes");
  parse_args(app, args);
  if (is_exported_program_input(in)) return convert_exported_program(in, out);
  if (is_safetensors_input(in) || is_safetensors_name(out)) return convert_safetensors(in, out);
  if (is_torchscript_archive(in)) {  // torch.jit.save archive: jit::load, jit::save
    std::map<std::string, std::string> extra;
    jit::ScriptLoadOptions lo;
    lo.extra_files = &extra;
    jit::Module m = jit::load(in, lo);
    jit::ScriptSaveOptions so;
    so.extra_files = std::move(extra);
    jit::save(m, out, so);
    return 0;
  }
  LoadOptions opt;
  opt.mode = LoadMode::Mapped;  // save reads each storage once, straight from the mapping
  opt.safe_globals = allow;
  IValue v = load(in, opt);
  SaveOptions so;
  so.storage_alignment = alignment;
  save(v, out, so);
  return 0;
}

int cmd_scan(const Args& args) {
  CLI::App app{"scan"};
  std::string file;
  app.add_option("FILE", file)->required();
  parse_args(app, args);
  auto report = scan(file);
  size_t refused = 0;
  for (const auto& g : report) {
    fmt::print("{:<8} {}.{}  ({} in {})\n", g.allowed ? "allowed" : "REFUSED", escaped(g.module), escaped(g.name),
               g.opcode, escaped(g.record));
    if (!g.allowed) ++refused;
  }
  fmt::print("{} globals, {} outside the allowlist\n", report.size(), refused);
  return refused == 0 ? 0 : 1;
}

int cmd_dis(const Args& args) {
  CLI::App app{"dis"};
  std::string file, record = "data.pkl";
  app.add_option("FILE", file)->required();
  app.add_option("RECORD", record);
  parse_args(app, args);
  fmt::print("{}", disassemble_file(file, record));
  return 0;
}

}  // namespace torchlet::cli

// The TorchScript exporter (see export.h).
#include "jit/serialization/export.h"

#include <algorithm>
#include <functional>
#include <map>
#include <optional>
#include <tuple>
#include <unordered_map>
#include <unordered_set>

#include <fmt/format.h>
#include <torchlet/error.h>

#include "archive/zip_writer.h"
#include "jit/serialization/debug_info.h"
#include "jit/serialization/python_print.h"
#include "pickle/pickler.h"

namespace torchlet::jit {

namespace {

// Storages in order of first use, keyed "0", "1", ... as torch numbers them; written
// under one folder (data/ or constants/).
class StorageTable {
 public:
  pickle::PicklerOptions pickler_options() {
    pickle::PicklerOptions po;
    po.torchscript = true;
    po.type_str = python_type_str;  // List[__torch__.C], as the code names C
    po.storage_key = [this](const Storage& s, DType dtype) -> std::string {
      auto it = index_.find(s.get());
      if (it != index_.end()) {
        TL_CHECK(saved_[it->second].second == dtype, UnsupportedError, "cannot save one storage viewed as both {} and {}",
                 dtype_name(saved_[it->second].second), dtype_name(dtype));
        return std::to_string(it->second);
      }
      index_.emplace(s.get(), saved_.size());
      saved_.emplace_back(s, dtype);
      return std::to_string(saved_.size() - 1);
    };
    return po;
  }
  void write(ZipWriter& w, const std::string& folder) const {
    for (size_t i = 0; i < saved_.size(); ++i) {
      const auto& [s, dtype] = saved_[i];
      const size_t nbytes = s->nbytes() / element_size(dtype) * element_size(dtype);
      w.write_record(folder + std::to_string(i), std::span<const std::byte>(s->data(), nbytes));
    }
  }

 private:
  std::vector<std::pair<Storage, DType>> saved_;
  std::unordered_map<const StorageImpl*, size_t> index_;
};

// What torch pickles for a script object whose class defines both __getstate__ and
// __setstate__: the __getstate__ result (loading hands it to __setstate__); otherwise
// nullopt, and the attributes are written.
std::optional<IValue> custom_state(const IValue& object) {
  const ClassType& cls = *object.objectRef().type;
  Function* getstate = cls.find_method("__getstate__");
  if (!getstate || !cls.find_method("__setstate__")) return std::nullopt;
  Stack stack{object};
  getstate->run(stack);
  TL_CHECK(stack.size() == 1, InternalError, "{}.__getstate__ left {} values", cls.name(), stack.size());
  return std::move(stack.back());
}

// code/__torch__/a/b.py for module "__torch__.a.b".
std::string code_record(const std::string& module) {
  std::string path = module;
  for (char& c : path)
    if (c == '.') c = '/';
  return "code/" + path + ".py";
}

// Every class an object graph holds an instance of (an attribute typed as an interface
// holds a class its type does not name). Each container once: loaded values may share
// their parts (the same list twice, 40 levels down, is 2^40 lists unfolded).
void print_object_classes(PythonPrinter& printer, const IValue& v, std::unordered_set<const void*>& seen,
                          size_t depth = 0) {
  TL_CHECK(depth < 1000, LimitError, "module attributes nest deeper than 1000 levels");
  if (v.isObject() || v.isList() || v.isTuple() || v.isDict()) {
    if (!seen.insert(v.heapPtr()).second) return;
  }
  switch (v.tag()) {
    case IValueTag::Object:
      printer.add_type(v.objectRef().type);
      for (const auto& slot : v.objectRef().slots) print_object_classes(printer, slot, seen, depth + 1);
      return;
    case IValueTag::List:
      for (const auto& e : v.listRef().elements) print_object_classes(printer, e, seen, depth + 1);
      return;
    case IValueTag::Tuple:
      if (v.tupleRef().type) printer.add_type(v.tupleRef().type);
      for (const auto& e : v.tupleRef().elements) print_object_classes(printer, e, seen, depth + 1);
      return;
    case IValueTag::Dict:
      for (const auto& [k, e] : v.dictRef().items()) print_object_classes(printer, e, seen, depth + 1);
      return;
    case IValueTag::Enum: printer.add_type(v.toEnum()->type); return;
    default: return;
  }
}

// A printed file's .debug_pkl, as torch writes it (and the importer reads it):
//   ("FORMAT_WITH_STRING_TABLE", (strings...), ((offset, (source, start, end), tag), ...))
// where source = ([indices of the segments whose concatenation is the user's text],
// index of its file name, its first line number), the "no source" range is
// (([], index of "", 0), 0, 0), and tag numbers distinct ranges in order of appearance.
std::string source_ranges_pickle(const std::vector<TaggedRange>& ranges) {
  std::vector<IValue> strings;
  std::unordered_map<std::string, int64_t> string_index;
  auto intern = [&](const std::string& s) {
    auto [it, fresh] = string_index.try_emplace(s, static_cast<int64_t>(strings.size()));
    if (fresh) strings.emplace_back(s);
    return IValue(it->second);
  };
  std::unordered_map<const Source*, IValue> sources;
  auto source_tuple = [&](const std::shared_ptr<const Source>& src) {
    if (!src) return IValue::tuple({IValue::list({}, Type::int_()), intern(""), IValue(int64_t{0})});
    auto it = sources.find(src.get());
    if (it == sources.end()) {
      IValue t = IValue::tuple({IValue::list({intern(src->text())}, Type::int_()), intern(src->filename()),
                                IValue(static_cast<int64_t>(src->starting_line()))});
      it = sources.emplace(src.get(), std::move(t)).first;
    }
    return it->second;
  };
  std::map<std::tuple<const Source*, size_t, size_t>, int64_t> tags;
  std::vector<IValue> records;
  for (const auto& [offset, range] : ranges) {
    const auto key = std::make_tuple(range.source().get(), range.start(), range.end());
    const int64_t tag = tags.try_emplace(key, static_cast<int64_t>(tags.size())).first->second;
    IValue r = IValue::tuple({source_tuple(range.source()), IValue(static_cast<int64_t>(range.start())),
                              IValue(static_cast<int64_t>(range.end()))});
    records.push_back(IValue::tuple({IValue(static_cast<int64_t>(offset)), std::move(r), IValue(tag)}));
  }
  // Built last: `strings` grows while the records are made.
  IValue top = IValue::tuple({IValue(std::string("FORMAT_WITH_STRING_TABLE")), IValue::tuple(std::move(strings)),
                              IValue::tuple(std::move(records))});
  pickle::PicklerOptions po;
  po.torchscript = true;
  return pickle::pickle(top, po);
}

// Note [Defined methods in kept code]
// A loaded module saves the code it was loaded from. Methods Module::define added since
// are printed by the python printer (everything else counted as printed: it is in the
// kept code) and inserted at the end of their class's body, which in torch's code/
// files ends at the next line that is not indented (or at the end of the file). The
// file's .debug_pkl is rewritten: records before the insertion stay, the new methods'
// ranges follow, and the records after it move along by the inserted length.

// Where class `name`'s body ends in `text` (npos if the class is not there).
size_t class_end(const std::string& text, const std::string& name) {
  size_t at = std::string::npos;
  for (const std::string& head : {"class " + name + "(", "class " + name + ":"}) {
    if (text.starts_with(head)) at = 0;
    else if (size_t p = text.find("\n" + head); p != std::string::npos) at = std::min(at, p + 1);
  }
  if (at == std::string::npos) return at;
  for (size_t nl = text.find('\n', at); nl != std::string::npos; nl = text.find('\n', nl + 1))
    if (nl + 1 == text.size() || (text[nl + 1] != ' ' && text[nl + 1] != '\n')) return nl + 1;
  return text.size();
}

// The kept .debug_pkl of a file (`text_size` bytes) into which `added` (offsets relative
// to `at`, `length` bytes in all) is inserted at `at`; empty (no debug information) if
// the kept one does not decode.
std::string spliced_debug_pkl(const std::string& kept, const std::string& where, size_t text_size, size_t at,
                              size_t length, const std::vector<TaggedRange>& added) {
  std::vector<Source::OriginalSpan> spans;
  try {
    spans = decode_debug_pkl(kept, where);
  } catch (const std::exception&) {
    return {};
  }
  auto range_of = [](const Source::OriginalSpan& s) { return s.source ? SourceRange(s.source, s.start, s.end) : SourceRange(); };
  std::vector<TaggedRange> ranges;
  SourceRange covering;  // the range the text at `at` had
  bool record_at = false;
  for (const auto& s : spans) {
    if (s.offset < at) {
      ranges.push_back({s.offset, range_of(s)});
      covering = range_of(s);
    }
    record_at = record_at || s.offset == at;
  }
  for (const auto& r : added) ranges.push_back({at + r.offset, r.range});
  if (!record_at && at < text_size) ranges.push_back({at + length, covering});
  for (const auto& s : spans)
    if (s.offset >= at) ranges.push_back({s.offset + length, range_of(s)});
  return source_ranges_pickle(ranges);
}

// The highest archive version any operator of the unit's functions other than `skip`
// needs (PythonPrinter::operator_version).
int64_t operators_version(const CompilationUnit& cu, const std::unordered_set<const Function*>& skip) {
  int64_t v = 3;
  std::function<void(const Block&)> walk = [&](const Block& b) {
    for (const Node* n : b.nodes()) {
      v = std::max(v, PythonPrinter::operator_version(n->kind()));
      for (const Block* sub : n->blocks()) walk(*sub);
    }
  };
  for (const Function* f : cu.functions())
    if (const auto* g = dynamic_cast<const GraphFunction*>(f); g && !skip.count(f)) walk(*g->graph()->block());
  return v;
}

// Note [Defined methods in kept code]: `sources` are the kept files (module, code,
// .debug_pkl); the methods' tensor constants join `consts`, and `version` rises if the
// methods need it and the kept code keeps its meaning at the higher version.
void add_defined_methods(const CompilationUnit& cu, std::vector<std::tuple<std::string, std::string, std::string>>& sources,
                         IValue& consts, int64_t& version) {
  std::vector<std::pair<std::string, std::vector<const Function*>>> by_class;  // in order of first definition
  std::unordered_set<const Function*> defined;
  for (const auto& entry : cu.defined_methods()) {
    // Named copies, not structured bindings: clang 14 cannot capture those in a lambda.
    const std::string& cls = entry.first;
    const Function* fn = entry.second;
    TL_CHECK(!cls.empty(), UnsupportedError,
             "cannot save {}: a free function compiled for defined methods (a torch.jit.fork closure, or a "
             "torch.nn.functional function the loaded archive does not carry) has no place in the code the module "
             "was loaded from yet", fn->qualname());
    auto it = std::find_if(by_class.begin(), by_class.end(), [&](const auto& e) { return e.first == cls; });
    if (it == by_class.end()) it = by_class.insert(by_class.end(), {cls, {}});
    it->second.push_back(fn);
    defined.insert(fn);
  }
  std::vector<IValue> constants = consts.tupleRef().elements;
  int64_t needed = version;
  for (const auto& [cls_name, methods] : by_class) {
    ClassTypePtr cls = cu.find_class(cls_name);
    TL_INTERNAL_ASSERT(cls, "a defined method's class is not in its unit");
    PythonPrinter printer;
    for (const TypePtr& t : cu.types()) printer.mark_printed(archive_qualified_name(t->name()));
    for (const Function* f : cu.functions())
      if (!defined.count(f)) printer.mark_printed(archive_qualified_name(f->qualname()));
    printer.set_first_constant(constants.size());
    printer.add_methods(*cls, methods);
    std::vector<PrintedFile> printed = printer.printed_files();
    TL_INTERNAL_ASSERT(printed.size() == 1, "methods of one class printed into more than one file");
    const std::string q = archive_qualified_name(cls->name());
    const std::string module = q.substr(0, q.rfind('.')), name = q.substr(q.rfind('.') + 1);
    auto file = std::find_if(sources.begin(), sources.end(), [&](const auto& f) { return std::get<0>(f) == module; });
    const size_t at = file == sources.end() ? std::string::npos : class_end(std::get<1>(*file), name);
    TL_CHECK(at != std::string::npos, UnsupportedError,
             "cannot save methods defined on {}: its class is not in the code the module was loaded from", q);
    auto& [mod, text, debug] = *file;
    const std::string& added = printed[0].text;
    if (!debug.empty())
      debug = spliced_debug_pkl(debug, code_record(mod) + ".debug_pkl", text.size(), at, added.size(), printed[0].ranges);
    text.insert(at, added);
    // Named: a range-for over a member of the returned temporary would outlive it.
    const IValue added_constants = printer.constants();
    for (const IValue& c : added_constants.tupleRef().elements) constants.push_back(c);
    needed = std::max(needed, printer.version());
  }
  consts = IValue::tuple(std::move(constants));
  if (needed <= version) return;
  // A higher version would change what the kept code's operators mean (torch applies
  // upgraders only below the version an operator changed at).
  TL_CHECK(operators_version(cu, defined) <= version, UnsupportedError,
           "cannot save methods defined on this module: they need archive version {}, and the code it was loaded from "
           "(version {}) uses operators whose meaning changed since",
           needed, version);
  version = needed;
}

}  // namespace

void save(const Module& module, const std::string& path, const ScriptSaveOptions& options) {
  const CompilationUnit& cu = *module.compilation_unit();
  // A module loaded from an archive saves the code it was loaded from, unchanged (so
  // load -> save -> load -> save gives the same bytes); anything else is printed.
  // (module, code, .debug_pkl) of every code/ file.
  std::vector<std::tuple<std::string, std::string, std::string>> sources;
  for (auto& [mod, text] : cu.sources()) sources.emplace_back(mod, std::move(text), cu.source_debug_pkl(mod));
  IValue consts = cu.archive_constants().isTuple() ? cu.archive_constants() : IValue::tuple({});
  int64_t version = cu.archive_version() > 0 ? cu.archive_version() : 3;
  if (!sources.empty() && !cu.defined_methods().empty()) add_defined_methods(cu, sources, consts, version);
  if (sources.empty()) {
    PythonPrinter printer;
    std::unordered_set<const void*> seen;
    print_object_classes(printer, module.to_ivalue(), seen);
    for (auto& f : printer.printed_files()) {
      std::string debug = source_ranges_pickle(f.ranges);
      sources.emplace_back(std::move(f.module), std::move(f.text), std::move(debug));
    }
    consts = printer.constants();
    version = printer.version();
  }
  StorageTable data, constants;
  pickle::PicklerOptions data_options = data.pickler_options();
  data_options.object_state = custom_state;
  const std::string data_pkl = pickle::pickle(module.to_ivalue(), data_options);
  const std::string constants_pkl = pickle::pickle(consts, constants.pickler_options());

  ZipWriterOptions wo;
  wo.alignment = 64;
  ZipWriter w(path, "archive", wo);
  for (const auto& [name, bytes] : options.extra_files) w.write_record("extra/" + name, bytes);
  data.write(w, "data/");
  w.write_record("data.pkl", data_pkl);
  for (const auto& [mod, text, debug] : sources) {
    w.write_record(code_record(mod), text);
    // Loaded code keeps torch's source ranges; printed code records the ranges of the
    // nodes it was printed from. Either way tracebacks name the user's file and line.
    if (!debug.empty()) w.write_record(code_record(mod) + ".debug_pkl", debug);
  }
  constants.write(w, "constants/");
  w.write_record("constants.pkl", constants_pkl);
  w.write_record("version", fmt::format("{}\n", version));
  w.finalize();
}

}  // namespace torchlet::jit

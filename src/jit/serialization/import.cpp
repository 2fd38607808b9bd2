// The TorchScript importer (see import.h): version check, constants.pkl, then data.pkl
// with a class resolver that compiles each `__torch__.…` class from its code/ file the
// first time the pickle (or other code) names it.
#include "jit/serialization/import.h"

#include <charconv>
#include <map>
#include <tuple>
#include <memory>
#include <unordered_map>

#include <fmt/format.h>
#include <torchlet/error.h>

#include "archive/zip_reader.h"
#include "checkpoint/zip_record.h"
#include "jit/frontend/compiler.h"
#include "jit/frontend/parser.h"
#include "jit/passes/execution_pipeline.h"
#include "jit/serialization/debug_info.h"
#include "pickle/unpickler.h"

namespace torchlet::jit {

namespace {

class Importer {
 public:
  Importer(const std::string& path, const ScriptLoadOptions& options)
      : path_(path), options_(options), zip_(ZipReader::open(path)), cu_(std::make_shared<CompilationUnit>()) {
    hooks_.resolve_type = [this](const std::string& q) { return resolve_type(q); };
    hooks_.resolve_function = [this](const std::string& q) { return resolve_function(q); };
    hooks_.resolve_constant = [this](const std::string& name) { return constant(name); };
    hooks_.defer_method_errors = true;
    hooks_.nesting = std::make_shared<size_t>(0);  // the files' compilers share one C++ stack
    enable_graph_executor(*cu_);
  }

  Module load() {
    check_layout();
    LoadOptions lo;
    lo.mode = options_.mode;
    if (zip_.has_record("constants.pkl")) {
      constants_ = unpickle_zip_record(zip_, path_, "constants.pkl", "constants/", lo, nullptr);
      TL_CHECK(constants_.isTuple(), FormatError, "{}/constants.pkl: expected a tuple of constants, found {}", path_,
               constants_.tag_name());
      cu_->set_archive_constants(constants_);
    }
    pickle::ClassResolver resolver = [this](const std::string& module, const std::string& name)
        -> std::optional<pickle::ResolvedGlobal> {
      if (module == "torch.jit._pickle") return pickle_helper(name);
      if (module.rfind("__torch__", 0) != 0) return std::nullopt;
      TypePtr t = resolve_type(module + "." + name);
      if (!t || !t->as_class()) return std::nullopt;
      auto cls = cu_->find_class(t->name());
      pickle::ResolvedGlobal g;
      g.build = [this, cls](IValue state) { return build_object(cls, std::move(state)); };
      return g;
    };
    IValue root = unpickle_zip_record(zip_, path_, "data.pkl", "data/", lo, resolver);
    TL_CHECK(root.isObject() && root.objectRef().type && root.objectRef().type->is_module(), FormatError,
             "{}/data.pkl: expected a scripted module object, found {}", path_, root.tag_name());
    if (options_.extra_files) {
      const std::string prefix = zip_.root() + "/extra/";
      for (const auto& r : zip_.records())
        if (r.name.rfind(prefix, 0) == 0) (*options_.extra_files)[r.name.substr(prefix.size())] = zip_.read(r);
    }
    return Module(cu_, root.toObject());
  }

 private:
  void check_layout() {
    if (zip_.has_record("model.json"))
      TL_FAIL(UnsupportedError,
              "{}: this archive uses the model.json layout of PyTorch 1.0-1.2 (written by torch.jit.save before "
              "PyTorch 1.3); torchlet reads archives from PyTorch 1.3 on: load and save it again with a newer PyTorch",
              path_);
    TL_CHECK(zip_.has_record("data.pkl"), FormatError, "{}: not a TorchScript archive (no data.pkl record)", path_);
    bool has_code = zip_.has_record("constants.pkl");
    const std::string code_prefix = zip_.root() + "/code/";
    for (const auto& r : zip_.records()) has_code = has_code || r.name.rfind(code_prefix, 0) == 0;
    TL_CHECK(has_code, UnsupportedError,
             "{}: this is a torch.save checkpoint, not a TorchScript archive (no code/ or constants.pkl); load it with "
             "torchlet::load", path_);
    // torch writes the format version as `version`, or `.data/version` in archives
    // without tensor data.
    const char* version_record = zip_.has_record("version") ? "version" : ".data/version";
    if (zip_.has_record(version_record)) {
      std::string text = zip_.read(version_record);
      while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
      int64_t v = 0;
      auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
      TL_CHECK(ec == std::errc() && end == text.data() + text.size(), FormatError, "{}/version: '{}' is not a number",
               path_, text);
      cu_->set_archive_version(v);
      hooks_.archive_version = v;
      TL_CHECK(v <= kMaxArchiveVersion, UnsupportedError,
               "{}: archive format version {} is newer than this torchlet reads (up to {}); it was written by a newer "
               "PyTorch", path_, v, kMaxArchiveVersion);
    }
  }

  // The code/ file that defines module `module` ("__torch__.a.b" -> code/__torch__/a/b.py).
  SourceFile* source_for(const std::string& module) {
    auto it = files_.find(module);
    if (it != files_.end()) return it->second.get();
    std::string rel = "code/" + module + ".py";
    for (size_t i = 5; i < rel.size() - 3; ++i)
      if (rel[i] == '.') rel[i] = '/';
    SourceFile* out = nullptr;
    if (const ZipRecord* rec = zip_.find(rel)) {
      std::string text = zip_.read(*rec);
      auto spans = debug_spans(rel + ".debug_pkl");
      // Kept verbatim for a re-save (torch's debug information, unchanged with the code it
      // describes) when it read cleanly here.
      std::string debug_pkl;
      if (const ZipRecord* dbg = zip_.find(rel + ".debug_pkl"); dbg && !spans.empty()) debug_pkl = zip_.read(*dbg);
      cu_->add_source(module, text, std::move(debug_pkl));
      auto source = std::make_shared<Source>(std::move(text), rel);
      source->set_original_spans(std::move(spans));
      auto file = std::make_unique<SourceFile>(*cu_, parse_file(std::shared_ptr<const Source>(source)), module + ".", hooks_);
      out = file.get();
      files_.emplace(module, std::move(file));
    } else {
      files_.emplace(module, nullptr);
    }
    return out;
  }

  // .debug_pkl beside a code file: ("FORMAT_WITH_STRING_TABLE", (strings...),
  // ((offset, ((segment indices), file index, first line), start, end), handle)...)). The
  // user's source is the concatenated segments. Anything unexpected drops the debug
  // information (errors then point at the code/ line), never the load.
  std::vector<Source::OriginalSpan> debug_spans(const std::string& record) {
    const ZipRecord* rec = zip_.find(record);
    if (!rec) return {};
    try {
      return decode_debug_pkl(zip_.read(*rec), path_ + "/" + record);
    } catch (const std::exception&) {
      return {};
    }
  }

  static std::pair<std::string, std::string> split(const std::string& qualname) {
    const size_t dot = qualname.rfind('.');
    if (dot == std::string::npos) return {"", qualname};
    return {qualname.substr(0, dot), qualname.substr(dot + 1)};
  }

  // Compiling a class compiles the classes and functions it names first, recursively: a
  // file naming a chain of thousands of classes must not exhaust the C++ stack.
  struct DepthGuard {
    Importer& self;
    explicit DepthGuard(Importer& s) : self(s) {
      TL_CHECK(++self.depth_ <= kMaxDefinitionNesting, LimitError,
               "{}: classes and functions whose definitions name each other more than {} deep", self.path_,
               kMaxDefinitionNesting);
    }
    ~DepthGuard() { --self.depth_; }
  };
  static constexpr size_t kMaxDefinitionNesting = 200;

  TypePtr resolve_type(const std::string& qualname) {
    if (TypePtr t = cu_->find_type(qualname)) return t;
    DepthGuard guard(*this);
    auto [module, name] = split(qualname);
    SourceFile* f = module.rfind("__torch__", 0) == 0 ? source_for(module) : nullptr;
    return f ? f->class_type(name) : nullptr;
  }

  Function* resolve_function(const std::string& qualname) {
    if (Function* fn = cu_->find_function(qualname)) return fn;
    DepthGuard guard(*this);
    auto [module, name] = split(qualname);
    SourceFile* f = module.rfind("__torch__", 0) == 0 ? source_for(module) : nullptr;
    return f ? f->function(name) : nullptr;
  }

  std::optional<IValue> constant(const std::string& name) {
    // CONSTANTS.c3 is element 3 of constants.pkl's tuple.
    if (name.size() < 2 || name[0] != 'c' || !constants_.isTuple()) return std::nullopt;
    size_t i = 0;
    auto [end, ec] = std::from_chars(name.data() + 1, name.data() + name.size(), i);
    if (ec != std::errc() || end != name.data() + name.size() || i >= constants_.tupleRef().elements.size()) return std::nullopt;
    return constants_.tupleRef().elements[i];
  }

  // torch.jit._pickle helpers the archive writer uses for typed containers:
  // restore_type_tag(value, "List[int]") and build_intlist/… ([...]).
  std::optional<pickle::ResolvedGlobal> pickle_helper(const std::string& name) {
    pickle::ResolvedGlobal g;
    if (name == "restore_type_tag") {
      g.call = [this](const IValue& args) -> IValue {
        const auto& a = args.tupleRef().elements;
        TL_CHECK(a.size() == 2 && a[1].isString(), FormatError, "{}/data.pkl: restore_type_tag expects (value, type string)", path_);
        TypePtr t = parse_type_annotation(a[1].toStringRef(), false, [this](std::string_view q) { return resolve_type(std::string(q)); });
        IValue v = a[0];
        if (v.isList() && t->kind() == TypeKind::List) v.listRef().elem_type = t->contained()[0];
        if (v.isDict() && t->kind() == TypeKind::Dict) {
          v.dictRef().key_type = t->contained()[0];
          v.dictRef().value_type = t->contained()[1];
        }
        return v;
      };
      return g;
    }
    static const std::unordered_map<std::string, TypePtr> kLists = {
        {"build_intlist", Type::int_()}, {"build_floatlist", Type::float_()}, {"build_doublelist", Type::float_()},
        {"build_boollist", Type::bool_()}, {"build_tensorlist", Type::tensor()}};
    auto it = kLists.find(name);
    if (it == kLists.end()) return std::nullopt;
    TypePtr elem = it->second;
    g.call = [this, elem](const IValue& args) -> IValue {
      const auto& a = args.tupleRef().elements;
      TL_CHECK(a.size() == 1 && a[0].isList(), FormatError, "{}/data.pkl: build_*list expects one list", path_);
      IValue v = a[0];
      v.listRef().elem_type = elem;
      return v;
    };
    return g;
  }

  // BUILD of a scripted object: __setstate__ when the class defines it, else the state
  // dict's entries go to the attributes of those names.
  IValue build_object(const ClassTypePtr& cls, IValue state) {
    auto obj = make_intrusive<ObjectImpl>(cls, cls->attributes().size());
    if (Function* setstate = cls->find_method("__setstate__")) {
      (*setstate)({IValue(obj), std::move(state)});
      return IValue(obj);
    }
    TL_CHECK(state.isDict(), FormatError, "{}/data.pkl: object of {} built from a {} (expected its attribute dict)", path_,
             cls->name(), state.tag_name());
    for (const auto& [key, value] : state.dictRef().items()) {
      TL_CHECK(key.isString(), FormatError, "{}/data.pkl: attribute names of {} must be strings", path_, cls->name());
      auto slot = cls->find_attribute(key.toStringRef());
      TL_CHECK(slot, FormatError, "{}/data.pkl: object of {} has attribute '{}', which its class does not declare", path_,
               cls->name(), key.toStringRef());
      obj->slots[*slot] = value;
    }
    return IValue(obj);
  }

  std::string path_;
  ScriptLoadOptions options_;
  ZipReader zip_;
  std::shared_ptr<CompilationUnit> cu_;
  CompilerHooks hooks_;
  std::unordered_map<std::string, std::unique_ptr<SourceFile>> files_;
  IValue constants_;
  size_t depth_ = 0;
};

}  // namespace

Module load(const std::string& path, const ScriptLoadOptions& options) { return Importer(path, options).load(); }

}  // namespace torchlet::jit

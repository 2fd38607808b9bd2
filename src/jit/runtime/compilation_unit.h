// CompilationUnit: owns the functions and classes one compilation (or one loaded
// archive) produced, under unique qualified names. A second class wanting a taken name
// is mangled as torch does: __torch__.foo.Bar -> __torch__.foo.___torch_mangle_0.Bar,
// with N counting up per unit. Registration locks; lookups too, so a module may be
// called from many threads while a lazily compiled class is added.
#pragma once

#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "values/type.h"
#include "jit/runtime/function.h"

namespace torchlet::jit {

class CompilationUnit {
 public:
  CompilationUnit() = default;
  CompilationUnit(const CompilationUnit&) = delete;
  CompilationUnit& operator=(const CompilationUnit&) = delete;

  // Adds a function made from a graph; ValueError if the name is taken.
  GraphFunction* create_function(std::string qualname, GraphPtr graph,
                                 std::vector<std::optional<IValue>> defaults = {});
  // Adds a method to a class: the function is named `<class>.<name>`, its graph takes
  // self first.
  GraphFunction* create_method(const ClassTypePtr& cls, const std::string& name, GraphPtr graph,
                               std::vector<std::optional<IValue>> defaults = {});
  // Takes ownership of a function that is not a graph (e.g. the frontend's stand-in for
  // a method that failed to compile) for as long as the unit lives.
  Function* adopt(std::unique_ptr<Function> fn);
  // By qualified name (free functions and methods as "<class>.<method>"); null if absent.
  Function* find_function(std::string_view qualname) const;
  std::vector<Function*> functions() const;

  // Classes (and other named types: interfaces, enums, NamedTuples).
  void register_type(TypePtr type);  // ValueError if the name is taken
  TypePtr find_type(std::string_view qualname) const;
  ClassTypePtr find_class(std::string_view qualname) const;
  std::vector<TypePtr> types() const;
  // `qualname` if free, else the next free mangled spelling.
  std::string mangle(const std::string& qualname) const;

  // What an archive import read, kept so the unit can be saved back (jit::save): each
  // code/ file's text by module ("__torch__.a.b") and its .debug_pkl record (empty if
  // none), constants.pkl's tuple, the version.
  void add_source(std::string module, std::string text, std::string debug_pkl = {});
  std::vector<std::pair<std::string, std::string>> sources() const;
  std::string source_debug_pkl(const std::string& module) const;
  void set_archive_constants(IValue constants) { archive_constants_ = std::move(constants); }
  const IValue& archive_constants() const { return archive_constants_; }
  void set_archive_version(int64_t v) { archive_version_ = v; }
  int64_t archive_version() const { return archive_version_; }
  // Methods added by Module::define, as (class qualname, method) in order: jit::save
  // prints them into their class's code when the rest is the archive's kept code. Other
  // functions such a define compiled (fork's closures) are recorded with class "".
  void add_defined_method(std::string class_qualname, const Function* fn);
  // Forgets the import's code, constants and version (jit::optimize changed the graphs
  // they were the text of): jit::save prints the unit's classes from their graphs.
  void discard_kept_code();

  // The optimizer the graph executor runs on each specialised plan of this unit's
  // functions; null (the default): they run as written. Set by whoever makes the unit
  // in a layer that has the passes (compile, import, freeze), before any call.
  void set_graph_optimizer(GraphOptimizer optimizer) { optimizer_ = optimizer; }
  GraphOptimizer graph_optimizer() const { return optimizer_; }
  std::vector<std::pair<std::string, const Function*>> defined_methods() const;

 private:
  mutable std::mutex mutex_;
  std::vector<std::unique_ptr<GraphFunction>> functions_;
  std::vector<std::unique_ptr<Function>> adopted_;
  std::unordered_map<std::string, Function*> function_index_;
  std::vector<TypePtr> types_;
  std::unordered_map<std::string, TypePtr> type_index_;
  mutable size_t mangle_counter_ = 0;
  std::vector<std::pair<std::string, std::string>> sources_;
  std::unordered_map<std::string, std::string> source_debug_pkls_;
  std::vector<std::pair<std::string, const Function*>> defined_methods_;
  IValue archive_constants_;
  int64_t archive_version_ = 0;
  GraphOptimizer optimizer_ = nullptr;
};

}  // namespace torchlet::jit

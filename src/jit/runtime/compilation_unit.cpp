// CompilationUnit: function and type tables, and torch's name mangling; the public
// run_function and function_names (<torchlet/jit.h>).
#include "jit/runtime/compilation_unit.h"

#include <torchlet/jit.h>

#include <fmt/format.h>
#include <torchlet/error.h>

namespace torchlet::jit {

GraphFunction* CompilationUnit::create_function(std::string qualname, GraphPtr graph,
                                                std::vector<std::optional<IValue>> defaults) {
  std::lock_guard<std::mutex> lock(mutex_);
  TL_CHECK(!function_index_.count(qualname), ValueError, "function '{}' is already defined", qualname);
  auto fn = std::make_unique<GraphFunction>(qualname, std::move(graph), this, std::move(defaults));
  GraphFunction* raw = fn.get();
  function_index_.emplace(std::move(qualname), raw);
  functions_.push_back(std::move(fn));
  return raw;
}

GraphFunction* CompilationUnit::create_method(const ClassTypePtr& cls, const std::string& name, GraphPtr graph,
                                              std::vector<std::optional<IValue>> defaults) {
  TL_CHECK(!cls->find_method(name), ValueError, "class {} already has a method '{}'", cls->name(), name);
  GraphFunction* fn = create_function(cls->name() + "." + name, std::move(graph), std::move(defaults));
  cls->add_method(name, fn);
  return fn;
}

Function* CompilationUnit::adopt(std::unique_ptr<Function> fn) {
  std::lock_guard<std::mutex> lock(mutex_);
  adopted_.push_back(std::move(fn));
  return adopted_.back().get();
}

Function* CompilationUnit::find_function(std::string_view qualname) const {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = function_index_.find(std::string(qualname));
  return it == function_index_.end() ? nullptr : it->second;
}

std::vector<Function*> CompilationUnit::functions() const {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<Function*> out;
  for (const auto& f : functions_) out.push_back(f.get());
  return out;
}

void CompilationUnit::register_type(TypePtr type) {
  std::lock_guard<std::mutex> lock(mutex_);
  TL_CHECK(!type->name().empty(), ValueError, "only named types can be registered, got {}", type->str());
  TL_CHECK(!type_index_.count(type->name()), ValueError, "type '{}' is already defined", type->name());
  type_index_.emplace(type->name(), type);
  types_.push_back(std::move(type));
}

TypePtr CompilationUnit::find_type(std::string_view qualname) const {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = type_index_.find(std::string(qualname));
  return it == type_index_.end() ? nullptr : it->second;
}

ClassTypePtr CompilationUnit::find_class(std::string_view qualname) const {
  TypePtr t = find_type(qualname);
  if (!t || !t->as_class()) return nullptr;
  return std::const_pointer_cast<ClassType>(std::static_pointer_cast<const ClassType>(t));
}

std::vector<TypePtr> CompilationUnit::types() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return types_;
}

void CompilationUnit::add_source(std::string module, std::string text, std::string debug_pkl) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!debug_pkl.empty()) source_debug_pkls_[module] = std::move(debug_pkl);
  sources_.emplace_back(std::move(module), std::move(text));
}

std::string CompilationUnit::source_debug_pkl(const std::string& module) const {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = source_debug_pkls_.find(module);
  return it == source_debug_pkls_.end() ? std::string() : it->second;
}

void CompilationUnit::discard_kept_code() {
  std::lock_guard<std::mutex> lock(mutex_);
  sources_.clear();
  source_debug_pkls_.clear();
  defined_methods_.clear();
  archive_constants_ = IValue();
  archive_version_ = 0;
}

std::vector<std::pair<std::string, std::string>> CompilationUnit::sources() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return sources_;
}

std::string CompilationUnit::mangle(const std::string& qualname) const {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!type_index_.count(qualname) && !function_index_.count(qualname)) return qualname;
  // torch inserts the mangle namespace before the last component, replacing any
  // earlier mangle namespace: a.b.___torch_mangle_3.C -> a.b.___torch_mangle_4.C
  const size_t dot = qualname.rfind('.');
  std::string prefix = dot == std::string::npos ? "" : qualname.substr(0, dot);
  const std::string base = dot == std::string::npos ? qualname : qualname.substr(dot + 1);
  const size_t m = prefix.rfind(".___torch_mangle_");
  if (m != std::string::npos) prefix = prefix.substr(0, m);
  else if (prefix.rfind("___torch_mangle_", 0) == 0) prefix.clear();
  for (;;) {
    std::string candidate = fmt::format("{}{}___torch_mangle_{}.{}", prefix, prefix.empty() ? "" : ".",
                                        mangle_counter_++, base);
    if (!type_index_.count(candidate) && !function_index_.count(candidate)) return candidate;
  }
}

void CompilationUnit::add_defined_method(std::string class_qualname, const Function* fn) {
  std::lock_guard<std::mutex> lock(mutex_);
  defined_methods_.emplace_back(std::move(class_qualname), fn);
}

std::vector<std::pair<std::string, const Function*>> CompilationUnit::defined_methods() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return defined_methods_;
}

IValue run_function(const CompilationUnit& cu, const std::string& name, std::vector<IValue> args, const Kwargs& kwargs) {
  const Function* fn = cu.find_function(name);
  TL_CHECK(fn, ValueError, "the compilation unit has no function '{}'", name);
  return (*fn)(std::move(args), kwargs);
}

std::vector<std::string> function_names(const CompilationUnit& cu) {
  std::vector<std::string> names;
  for (const Function* fn : cu.functions()) names.push_back(fn->qualname());
  return names;
}

}  // namespace torchlet::jit

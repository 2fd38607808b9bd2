// TorchScript for C++: torch.jit.load and torch.jit.save, running a module's methods,
// compiling TorchScript source, torch::jit::Module's view of a module (attributes,
// parameters, buffers, submodules, define, code), a method's schema and graph, and the
// operator registry. Everything here is public API; the types it only names (ClassType,
// CompilationUnit, Function) are the library's own.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <torchlet/checkpoint.h>
#include <torchlet/ivalue.h>
#include <torchlet/tensor.h>

namespace torchlet::jit {

class ClassType;
class CompilationUnit;
class Function;
using ClassTypePtr = std::shared_ptr<ClassType>;

// Keyword arguments of a call, by name, in the order given.
using Kwargs = std::vector<std::pair<std::string, IValue>>;

// What an attribute slot of a module holds, as nn.Module distinguishes them.
enum class SlotKind { Regular, Parameter, Buffer };

// One attribute of a module, as torch's named_attributes lists it, with what its slot is
// declared as.
struct NamedAttribute {
  std::string name;
  IValue value;
  SlotKind kind = SlotKind::Regular;
  std::string type;  // the declared type as an annotation: "Tensor", "List[int]", "__torch__.Sub"
};

// One argument of a schema: its name and its type as str(schema) prints it ("Tensor",
// "int[]", "Tensor?", "int[2]").
struct Argument {
  std::string name;
  std::string type;
};

// A method bound to its object.
class Method {
 public:
  Method(intrusive_ptr<ObjectImpl> owner, const Function* fn) : owner_(std::move(owner)), fn_(fn) {}
  IValue operator()(std::vector<IValue> args, const Kwargs& kwargs = {}) const;
  const Function& function() const { return *fn_; }
  std::string name() const;
  // str(method.schema), named by the method alone as torch names a method's schema:
  // "forward(__torch__.Net self, Tensor x) -> Tensor".
  std::string schema() const;
  // The schema's arguments, self first (method.schema.arguments).
  std::vector<Argument> arguments() const;
  // str(method.graph): the graph in torch's IR text. ValueError for a method that has
  // none (an archive's method that did not compile when it was loaded).
  std::string graph() const;
  // method.graph_for(*args): the graph a call with these arguments runs — the graph
  // executor's plan, specialised to the arguments' dtypes, ranks and None-ness and
  // optimised — or graph() when optimisation is off. Builds the plan if it is new.
  std::string graph_for(std::vector<IValue> args, const Kwargs& kwargs = {}) const;

 private:
  intrusive_ptr<ObjectImpl> owner_;
  const Function* fn_;
};

// A TorchScript module, like torch::jit::Module: a handle on an object whose class is a
// module class, plus the CompilationUnit that owns its methods. Copying a Module copies
// the handle (both see the same object), as in torch. Parameters and buffers are the
// attribute slots the class marks so; submodules are the attributes holding modules.
class Module {
 public:
  Module(std::shared_ptr<CompilationUnit> cu, intrusive_ptr<ObjectImpl> object);
  // A new empty module object of a fresh class `qualname` (mangled if taken), with a
  // `training` attribute set to true, as nn.Module has.
  Module(std::shared_ptr<CompilationUnit> cu, const std::string& qualname);

  const ClassTypePtr& type() const { return type_; }
  const intrusive_ptr<ObjectImpl>& object() const { return object_; }
  const std::shared_ptr<CompilationUnit>& compilation_unit() const { return cu_; }
  IValue to_ivalue() const { return IValue(object_); }
  // The class's qualified name (torch's module._c.qualified_name): "__torch__.Net" for a
  // loaded archive's class, mangled as the archive has it; as written ("Net") for one
  // compiled here, which jit::save writes under `__torch__.`.
  std::string qualified_name() const;

  // Attributes (ValueError naming the class when absent).
  bool has_attr(const std::string& name) const;
  IValue attr(const std::string& name) const;
  void setattr(const std::string& name, IValue value);  // existing attribute; type-checked
  // Adds a new attribute slot (to the class; existing objects of it get None).
  void register_attribute(const std::string& name, TypePtr type, IValue value,
                          SlotKind kind = SlotKind::Regular);
  void register_parameter(const std::string& name, Tensor value);
  void register_buffer(const std::string& name, Tensor value);
  void register_module(const std::string& name, const Module& child);

  // Dotted names ("layer1.0.conv1.weight") in attribute order, depth first, as torch.
  std::vector<std::pair<std::string, Tensor>> named_parameters(bool recurse = true) const;
  std::vector<std::pair<std::string, Tensor>> named_buffers(bool recurse = true) const;
  std::vector<std::pair<std::string, Module>> named_children() const;
  std::vector<std::pair<std::string, Module>> named_modules() const;  // self first, as ""
  // Every attribute slot (parameters, buffers, submodules and the rest) in the class's
  // order, then those of each submodule, dotted, when recurse.
  std::vector<NamedAttribute> named_attributes(bool recurse = true) const;

  // Methods.
  bool has_method(const std::string& name) const;
  std::vector<std::string> method_names() const;  // in the class's order
  Method get_method(const std::string& name) const;  // ValueError naming the class
  IValue forward(std::vector<IValue> inputs, const Kwargs& kwargs = {}) const {
    return get_method("forward")(std::move(inputs), kwargs);
  }
  IValue run_method(const std::string& name, std::vector<IValue> inputs, const Kwargs& kwargs = {}) const {
    return get_method(name)(std::move(inputs), kwargs);
  }

  // Compiles TorchScript source defining methods (`def name(self, ...)`) and adds them
  // to this module's class, as torch::jit::Module::define: they can then be run, and
  // jit::save writes them. CompileError with torch's source highlight.
  void define(const std::string& source);

  // The code of the archive file that defines this module's class, as torch.jit.save
  // writes it under code/: the class with every method, where torch's module.code shows
  // forward's alone. A loaded archive's own text, else the python printer's; ValueError
  // when there is neither.
  std::string code() const;

  // The `training` flag of this module and every submodule.
  void train(bool on = true);
  void eval() { train(false); }
  bool is_training() const;

 private:
  void named_tensors(SlotKind kind, bool recurse, const std::string& prefix,
                     std::vector<std::pair<std::string, Tensor>>& out) const;
  std::shared_ptr<CompilationUnit> cu_;
  intrusive_ptr<ObjectImpl> object_;
  ClassTypePtr type_;
};

// --- torch.jit.load / torch.jit.save --------------------------------------------------

// The newest archive format version load() reads (torch 1.13 writes 3 or 4; newer
// versions may carry operator semantics this importer does not know).
inline constexpr int64_t kMaxArchiveVersion = 10;

struct ScriptLoadOptions {
  // Mapped: tensors alias the file (copy-on-write); Eager: tensors own their bytes.
  LoadMode mode = LoadMode::Mapped;
  // When set, receives every extra/ record (torch's _extra_files) by name.
  std::map<std::string, std::string>* extra_files = nullptr;
};

// torch.jit.load(path). UnsupportedError for archives of newer versions or layouts not
// read; FormatError for damaged ones; CompileError (naming the code/ file) when code
// does not compile.
Module load(const std::string& path, const ScriptLoadOptions& options = {});

struct ScriptSaveOptions {
  std::map<std::string, std::string> extra_files;  // written under extra/
};

// torch.jit.save(module, path): an archive real torch.jit.load reads, written atomically.
void save(const Module& module, const std::string& path, const ScriptSaveOptions& options = {});

// --- compiling source ---------------------------------------------------------------

// Compiles every function and class defined in `source` into a new unit; functions
// and classes are named as written ("f"). CompileError with torch's source highlight
// on anything not accepted.
std::shared_ptr<CompilationUnit> compile(const std::string& source, const std::string& filename = "<string>");

// Calls the unit's function `name` (ValueError if it has none), as torch's
// CompilationUnit::run_method.
IValue run_function(const CompilationUnit& cu, const std::string& name, std::vector<IValue> args,
                    const Kwargs& kwargs = {});

// The qualified names of the unit's functions and methods, in the order they were made.
std::vector<std::string> function_names(const CompilationUnit& cu);

// Compiles `source` and saves it as torch.jit.save(torch.jit.script(fn)) does a scripted
// function: a module whose forward calls `function` (empty: the first the source
// defines), with one method per function of the source, and the code of every function
// and class they use. torch.jit.load reads it. CompileError with the source's own lines;
// ValueError when no such function is defined, or the source defines a class
// PlaceholderModule (the wrapper's name).
void save_script_archive(const std::string& source, const std::string& source_name, const std::string& function,
                         const std::string& path);

// The graph of each function `source` defines, in order, as
// torch.jit.CompilationUnit(source).NAME.graph prints it, each after a `# NAME` line;
// `function` given: that function's graph alone (ValueError if not defined).
std::string source_graphs(const std::string& source, const std::string& source_name, const std::string& function = "");

// --- the graph executor ----------------------------------------------------------

// Whether calls of compiled and loaded methods and functions run on the graph
// executor's optimised plans (on by default) or on their graphs as written
// (torch._C._get_graph_executor_optimize / _set_graph_executor_optimize). Process-wide;
// results are the same either way.
bool graph_executor_optimize();
void set_graph_executor_optimize(bool on);

// --- the operator registry --------------------------------------------------------

// The schema of every operator TorchScript code can call, as str(schema) prints it
// ("aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor"), in
// registration order (torch._C._jit_get_all_schemas).
std::vector<std::string> get_all_schemas();

// Whether an operator is registered under `name.overload` ("aten::add.Tensor"; a bare
// name, "aten::relu", for the overload without a name).
bool has_operator(std::string_view qualified_overload);

}  // namespace torchlet::jit

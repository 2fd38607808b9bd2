// The compiler: syntax trees (ast.h) -> graph IR (ir.h), with TorchScript's typing.
// Each `def` becomes a GraphFunction in a CompilationUnit. Python's control flow is
// lowered as torch lowers it: if/else to prim::If with one output per variable either
// branch assigns; for/while to prim::Loop with the variables the body reassigns carried;
// a `return`, `break` or `continue` inside a branch moves the statements after the `if`
// into the other branch (Note [Exits] in function_compiler.h), so every block ends in
// one place, as torch's exit transform arranges. Conditions refine Optional/Union
// variables (Note [Refinement]); constant expressions fold after compiling
// (passes/constant_propagation.h). Calls resolve to registered operators by schema
// matching, to functions of the unit (prim::CallFunction), to methods (magic methods for
// operators on objects), or to the language's builtins (len, int, print, range,
// isinstance, ...). The implementation is split along torch's seams (function_compiler.h).
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "jit/frontend/ast.h"
#include "jit/runtime/compilation_unit.h"

namespace torchlet::jit {

// How the compiler finds qualified names beyond the file it compiles: the archive
// importer resolves `__torch__.…` classes and functions of other code/ files on demand,
// and CONSTANTS.cN from constants.pkl. Any hook may be empty (the name is then unknown).
struct CompilerHooks {
  std::function<TypePtr(const std::string& qualname)> resolve_type;
  std::function<Function*(const std::string& qualname)> resolve_function;
  std::function<std::optional<IValue>(const std::string& name)> resolve_constant;
  // A method that does not compile becomes one that raises its compile error when
  // called, instead of failing the whole file (archives: a model whose unused method
  // needs an operator torchlet lacks still loads).
  bool defer_method_errors = false;
  // The archive's format version (0: current). Calls to operators whose meaning changed
  // since that version are compiled with the old meaning, as torch's upgraders do:
  // aten::div/div_ on integers (<= 3: truncating), aten::full without a dtype (<= 4: a
  // float tensor), aten::linspace/logspace without steps (<= 7/8: 100 steps).
  int64_t archive_version = 0;
  // Definitions and blocks open at once, shared by every file compiled with these hooks:
  // a file's compiler calls another's through resolve_function, so an archive's files
  // nest on one C++ stack (150 files of 90 nested ifs, each calling the next file's
  // function, overflowed it while each file counted alone). Null: the file counts alone.
  std::shared_ptr<size_t> nesting;
};

// compile(source): declared in the public <torchlet/jit.h>.

// Compiles the functions `source` defines as methods of class `cls` of unit `cu`, each
// written as a method is (`def name(self, x: int) -> int:`, self typed as cls), and adds
// them to the class: what torch's Module::define and ScriptModule.define do. Other
// names resolve to the unit's classes and functions (an archive's are all there once its
// module is loaded). A loop over a ModuleList/Sequential/ModuleDict submodule unrolls
// (Note [Module containers] in function_compiler.h). CompileError as compile(), also for a name
// the class already has as a method; methods compiled before an error stay defined.
// The unit records the new methods (CompilationUnit::defined_methods) for jit::save.
std::vector<Function*> define_methods(CompilationUnit& cu, const ClassTypePtr& cls, const std::string& source,
                                      const std::string& filename = "<string>");

// One parsed file whose classes and functions compile on first use, named
// `prefix + name` (prefix "" for user code, "__torch__.a.b." for an archive's
// code/__torch__/a/b.py). Classes are declared (attributes, parameters, buffers,
// constants) and their methods compiled when first asked for.
class FileCompiler;
class SourceFile {
 public:
  SourceFile(CompilationUnit& cu, ParsedFile file, std::string prefix, CompilerHooks hooks = {});
  ~SourceFile();
  SourceFile(const SourceFile&) = delete;
  SourceFile& operator=(const SourceFile&) = delete;
  // The class `name` defined in this file (null if none).
  TypePtr class_type(const std::string& name);
  // The free function `name` defined in this file (null if none).
  Function* function(const std::string& name);
  // Everything the file defines.
  void compile_all();

 private:
  std::unique_ptr<ParsedFile> file_;
  std::unique_ptr<FileCompiler> impl_;
};

}  // namespace torchlet::jit

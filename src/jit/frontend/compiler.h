// The compiler: syntax trees (ast.h) -> graph IR (ir.h), with TorchScript's typing.
// Each `def` becomes a GraphFunction in a CompilationUnit. Python's control flow is
// lowered as torch lowers it: if/else to prim::If with one output per variable either
// branch assigns; for/while to prim::Loop with the variables the body reassigns carried;
// a `return`, `raise`, `break` or `continue` inside a branch moves the statements after
// the `if` into the other branch (Note [Exits] in compiler.cpp), so every block ends in
// one place, as torch's exit transform arranges. Calls resolve to registered operators
// by schema matching, to functions of the unit (prim::CallFunction), or to the
// language's builtins (len, int, print, range, isinstance, ...).
#pragma once

#include <memory>
#include <string>

#include "jit/frontend/ast.h"
#include "jit/runtime/compilation_unit.h"

namespace torchlet::jit {

// Compiles every function defined in `source` into a new unit; functions are named as
// written ("f"). CompileError with torch's source highlight on anything not accepted.
std::shared_ptr<CompilationUnit> compile(const std::string& source, const std::string& filename = "<string>");

// Compiles a parsed file's functions into `cu`, named `prefix + name` (prefix may be
// empty, or "__torch__." as torch names top-level functions).
void compile_into(CompilationUnit& cu, const ParsedFile& file, const std::string& prefix = "");

}  // namespace torchlet::jit

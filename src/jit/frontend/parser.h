// The TorchScript parser: tokens -> syntax trees (ast.h). Expressions are parsed by
// precedence climbing with Python's exact table (parser.cpp, Note [Precedence]);
// statements by recursive descent over the lexer's NEWLINE/INDENT/DEDENT. It accepts
// the TorchScript subset of Python plus everything torch's python printer writes into
// archives' code/ files, and refuses constructs TorchScript lacks (global, nonlocal,
// lambda, with, try, yield, ...) with a CompileError naming them. It checks syntax
// only (e.g. assignment targets); names and types are the compiler's business.
//
// Note [Accepted syntax versus torch's own parser]
// The grammar is Python's (checked against CPython's ast and tokenize in the tests), a
// superset of what torch 1.13's C++ parser (torch.jit.CompilationUnit) accepts. Measured
// with torch 1.13, CompilationUnit refuses at parse time, while this parser accepts:
// `;` between statements, a one-line body after `if/while/for ...:` (a one-line def body
// is accepted by both), `if` clauses in comprehensions, `_` in numbers, 0o/0b
// literals, raw strings, \u/\U escapes, a `# type:` comment on the def line,
// decorators; chained comparisons and several `for`s in a comprehension parse in torch
// but fail when compiled. The other way round, torch accepts `007` (Python and this
// parser refuse it) and `with` blocks (refused here: not in this frontend's scope).
// The compiler decides which of these programs it takes; the trees carry everything
// it needs to refuse them by name.
#pragma once

#include <memory>
#include <string>

#include "jit/frontend/ast.h"

namespace torchlet::jit {

// How deeply parentheses, brackets, operators and blocks may nest before the parser
// refuses with a LimitError; each level costs a few C++ stack frames, so this bounds
// the parser's stack (Python's own parser stops at 200 nested parentheses).
inline constexpr size_t kMaxNestingDepth = 200;

// A whole file: top-level defs, classes and statements.
ParsedFile parse_file(std::shared_ptr<const Source> source);
ParsedFile parse_file(std::string text, std::string filename = "");

// A single expression (a bare tuple `a, b` is one expression), alone on its line.
TreeRef parse_expression(std::shared_ptr<const Source> source);
TreeRef parse_expression(std::string text);

}  // namespace torchlet::jit

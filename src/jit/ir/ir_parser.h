// parse_ir: reads PyTorch's graph text (what Graph::str prints, and what torch's
// print(graph) shows, `# file:line:col` comments and `with prim::fork_0 = graph(...)`
// subgraph sections included) back into a Graph, so tests and tools can write IR as
// text. Printing the result reproduces the text. Semantics are not checked here
// beyond what lint() checks; operators are not resolved.
#pragma once

#include <string>
#include <string_view>
#include <unordered_map>

#include "jit/ir/ir.h"

namespace torchlet::jit {

// Parses `text` into a new graph. Class, interface and enum names resolve through
// `resolve` when given (else become name-only types, one per name). `values`, when
// given, receives every named value by its name in the text ("x.1", "5").
// CompileError with the line and a caret on malformed text.
GraphPtr parse_ir(std::string_view text, const TypeResolver& resolve = nullptr,
                  std::unordered_map<std::string, Value*>* values = nullptr);

}  // namespace torchlet::jit

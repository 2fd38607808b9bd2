// An ExportedProgram's graph lowered onto torchlet's IR: one graph whose inputs are the
// placeholders in order and whose single output is a tuple of the graph's outputs,
// with every node resolved to a registered operator (the archive's exact overload, or
// a rewrite onto an operator torchlet has — Note [Export operator rewrites]).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>

#include "export/program.h"
#include "jit/runtime/function.h"

namespace torchlet::exported {

struct LoweredProgram {
  std::shared_ptr<jit::Graph> graph;
  std::unique_ptr<jit::GraphFunction> function;  // emitted: CompileErrors surface at load
  std::map<std::string, int64_t> operator_counts;  // by the archive's names: "aten::add.Tensor"
};

// Throws FormatError (undefined or duplicate names, malformed arguments, naming the
// node) or UnsupportedError (an operator or argument kind torchlet cannot run).
LoweredProgram lower_program(const ProgramDocument& doc);

// "aten::linear" for torch.ops.aten.linear.default, "aten::add.Tensor" for
// torch.ops.aten.add.Tensor, "higher_order::cond" for torch.ops.higher_order.cond;
// other targets ("_operator.add") as they are.
std::string operator_display_name(const std::string& target);

}  // namespace torchlet::exported

// Code: a graph lowered to the interpreter's flat instruction stream (emitter.cpp),
// with everything an instruction refers to resolved once at emit time (STYLE #14):
// constants, operators, callees, classes. Immutable after emission, so threads share it.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "jit/ir/ir.h"
#include "jit/runtime/operator.h"

namespace torchlet::jit {

class Function;
class CompilationUnit;

enum class OpCode : uint8_t {
#define TL_INSTRUCTION(name, what) name,
#include "jit/runtime/instructions.def"
#undef TL_INSTRUCTION
};
const char* opcode_name(OpCode op);

struct Instruction {
  OpCode op;
  int32_t x = 0;
  int32_t n = 0;
  int32_t y = 0;  // third operand, for the fast scalar operators only
};

struct Code {
  std::string function_name;  // qualified, for tracebacks
  GraphPtr graph;             // keeps the nodes below alive
  std::vector<Instruction> instructions;
  // The node each instruction was emitted for (null for bookkeeping), so an error at
  // instruction i reports that node's source range; read only when something throws.
  std::vector<const Node*> instruction_nodes;
  std::vector<IValue> constants;
  std::vector<const Operator*> operators;
  std::vector<const Function*> functions;
  std::vector<TypePtr> types;
  std::vector<std::shared_ptr<Function>> owned_functions;  // fork bodies
  size_t num_warn_sites = 0;  // Note [Warn once] (emitter.cpp)
  size_t num_registers = 0;
  size_t num_inputs = 0;

  // One instruction per line with its operands resolved: "  3 OP aten::add.int".
  std::string dump() const;
};

// Lowers a graph (Note [Control flow] in ir.h) to Code; CompileError naming the node for
// operators or functions that do not resolve. Functions a prim::CallFunction or
// prim::fork names (prim::Constant[name="..."]) are looked up in `owner`.
Code emit_code(const GraphPtr& graph, const std::string& function_name, CompilationUnit* owner);

}  // namespace torchlet::jit

// torch.export archives (.pt2) in C++: torch.export.load's ExportedProgram — its graph
// signature, state (parameters, buffers, tensor constants), range constraints and sample
// inputs — lowered onto torchlet's operators and run by the interpreter. Both layouts
// load: the pt2 archive torch >= 2.8 writes (models/<name>.json, data/weights/...) and
// the legacy one of torch <= 2.7 (serialized_exported_program.json beside torch.save
// files). docs/export.md lists what of torch.export is supported.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <torchlet/ivalue.h>
#include <torchlet/tensor.h>

namespace torchlet {

// One placeholder of the program's graph, as the graph signature classifies it.
struct ExportedInput {
  enum class Kind { UserInput, Parameter, Buffer, TensorConstant, ConstantInput, CustomObject, Token };
  Kind kind = Kind::UserInput;
  std::string name;    // the placeholder: "x", "p_linear_weight"
  std::string target;  // the state it reads ("linear.weight"); empty for user inputs
  bool persistent = true;  // buffers only: whether state_dict() holds it
  // The tensor it takes ("float32[s0, 8]"), or the constant's value; empty when untyped.
  std::string type;
};

struct ExportedOutput {
  enum class Kind { UserOutput, BufferMutation, ParameterMutation, UserInputMutation, LossOutput, Token };
  Kind kind = Kind::UserOutput;
  std::string name;    // the graph value returned
  std::string target;  // the buffer, parameter or user input a mutation writes; empty otherwise
  std::string type;
};

const char* exported_input_kind_name(ExportedInput::Kind kind);    // "user input", "parameter", ...
const char* exported_output_kind_name(ExportedOutput::Kind kind);  // "user output", "buffer mutation", ...

// A symbolic dimension's allowed values, from range_constraints (max unset: unbounded).
struct SymbolRange {
  int64_t min = 0;
  std::optional<int64_t> max;
};

class ExportedProgram {
 public:
  ExportedProgram(ExportedProgram&&) noexcept;
  ExportedProgram& operator=(ExportedProgram&&) noexcept;
  ~ExportedProgram();

  const std::string& path() const;
  const std::string& layout() const;          // "pt2" or "legacy"
  const std::string& torch_version() const;   // of the writer, e.g. "2.9.0"
  std::pair<int64_t, int64_t> schema_version() const;  // (major, minor)
  const std::vector<std::string>& verifiers() const;   // "TRAINING", "ATEN", ...

  const std::vector<ExportedInput>& inputs() const;    // in placeholder order
  const std::vector<ExportedOutput>& outputs() const;  // in graph output order
  // Parameters, buffers and tensor constants by fully qualified name, in signature order.
  const std::vector<std::pair<std::string, Tensor>>& state() const;
  // state() without non-persistent buffers and constants: what state_dict() holds.
  std::vector<std::pair<std::string, Tensor>> state_dict() const;
  const std::map<std::string, SymbolRange>& range_constraints() const;
  // The archive's sample inputs (positional), when it has them.
  const std::optional<std::vector<IValue>>& sample_inputs() const;
  // Every operator the graph calls, as "aten::linear" / "aten::add.Tensor", with counts.
  const std::map<std::string, int64_t>& operator_counts() const;

  // The program lowered to torchlet's IR, printed as a TorchScript graph.
  std::string graph_text() const;

  // Runs the program on its user inputs, in order. Each tensor input is checked against
  // the signature (dtype, rank, static sizes) and binds its symbolic sizes, which must
  // agree between inputs and lie in range_constraints (ValueError naming the symbol).
  // Returns the user outputs: the single one itself, several as a tuple. Buffer and
  // parameter mutations write into state(), as running the exported module does.
  IValue operator()(const std::vector<IValue>& user_inputs);

 private:
  struct Impl;
  explicit ExportedProgram(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
  friend ExportedProgram load_exported_program(const std::string& path);
};

// torch.export.load(path). Throws FormatError (malformed archive or JSON, with the
// record and the JSON path), UnsupportedError (a newer schema major version, an operator
// or argument kind torchlet cannot run, naming it), LimitError or IOError.
ExportedProgram load_exported_program(const std::string& path);

// Whether the file looks like a torch.export archive of either layout (a zip holding
// models/*.json or serialized_exported_program.json); false otherwise, never throws.
bool looks_like_exported_program(const std::string& path);

}  // namespace torchlet

// An ExportedProgram's JSON decoded and validated: the graph (placeholders, nodes with
// their named arguments, outputs, tensor and SymInt metadata), the graph signature and
// range constraints. Everything a later stage indexes by name is checked here once —
// each spec names a placeholder, each tensor_meta has a dtype torchlet holds and sizes
// that are sane at their traced hints — so lowering and calls can trust the names.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <torchlet/dtype.h>
#include <torchlet/exported_program.h>
#include <torchlet/tensor.h>

#include "export/program_json.h"

namespace torchlet::exported {

// The major schema version torchlet reads (torch/_export/serde/schema.yaml's
// SCHEMA_VERSION[0]); minor versions only add fields, which are ignored.
inline constexpr int64_t kSchemaMajorVersion = 8;
// A tensor whose metadata, at the traced hints, describes more bytes than this is
// refused: no example input was ever that big, so the metadata lies.
inline constexpr uint64_t kMaxTracedTensorBytes = uint64_t{1} << 40;

// A SymInt as the schema writes one: a literal, or an expression over symbols with
// the value it had when traced.
struct SymIntValue {
  std::optional<int64_t> value;  // as_int
  std::string expr;              // as_expr's expr_str
  std::string symbol;            // expr when it is one symbol ("s0"), else empty
  std::optional<int64_t> hint;
  std::string str() const;       // "3", "s0", "2*s0"
};

struct TensorMeta {
  DType dtype = DType::Float;
  std::vector<SymIntValue> sizes, strides;
  SymIntValue storage_offset;
  std::string str() const;  // "float32[s0, 8]"
};

// A concrete tensor in TensorMeta::str's spelling ("float32[2, 8]"), for messages that
// set the two side by side.
std::string tensor_type_text(const Tensor& t);

struct NamedArgument {
  std::string name;
  JsonField arg;
  int64_t kind = 1;  // 1 positional, 2 keyword-only
};

struct GraphNode {
  std::string target;  // "torch.ops.aten.linear.default"
  std::vector<NamedArgument> inputs;
  std::vector<JsonField> outputs;
  JsonField where;  // the node's JSON, for messages
};

// One graph: the program's, or a higher-order operator's subgraph (its own namespace).
struct GraphBody {
  std::vector<std::string> placeholders;  // graph inputs, by name
  std::vector<JsonField> outputs;
  std::vector<GraphNode> nodes;
  std::map<std::string, TensorMeta> tensor_values;
  std::map<std::string, SymIntValue> sym_int_values;
};

struct ProgramDocument {
  nlohmann::json json;
  std::string label;  // the record: "linear/models/model.json"

  std::pair<int64_t, int64_t> schema_version;
  std::string torch_version;
  std::vector<std::string> verifiers;
  std::map<std::string, SymbolRange> ranges;

  GraphBody graph;
  std::vector<ExportedInput> inputs;    // one per placeholder
  std::vector<ExportedOutput> outputs;  // one per graph output
};

// Decodes and validates `text`, the record `label`. The document holds the JSON its
// fields point into, so it lives behind a pointer that never moves.
std::unique_ptr<ProgramDocument> read_program(std::string_view text, const std::string& label);

// Decodes a Graph of schema.yaml (tensor metadata checked as read_program checks it).
GraphBody read_graph_body(const JsonField& graph, const std::map<std::string, SymbolRange>& ranges);

// The TensorMeta of a stored payload (weights and constants configs): as a graph's,
// but every size, stride and offset concrete (as_int).
TensorMeta read_stored_tensor_meta(const JsonField& f);

// "s0" from "s0" or from sympy's srepr "Symbol('s0', integer=True, positive=True)";
// empty for compound expressions.
std::string symbol_of(std::string_view expr);

// The dtype a schema.yaml ScalarType code names (its own numbering: FLOAT = 7), or
// nullopt for codes torchlet has no dtype for.
std::optional<DType> dtype_from_export_code(int64_t code);

}  // namespace torchlet::exported

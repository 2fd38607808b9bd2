// The ExportedProgram JSON (torch/_export/serde/schema.yaml) as untrusted input: parsed
// under size and depth limits, then read through JsonField, which names the record and
// the JSON path ("models/model.json: graph_module.graph.nodes[2].target") in every
// error, so a malformed program is refused with where it is malformed.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace torchlet::exported {

// Limits on the JSON; each guards memory or time an archive could ask for.
// A program's JSON is ~1 KB per node: 256 MiB is hundreds of thousands of nodes.
inline constexpr size_t kMaxProgramJsonBytes = size_t{256} << 20;
// schema.yaml's deepest legitimate nesting (a tensor_meta's SymExpr hint inside a node
// output inside the graph) is about 12; 64 leaves room and bounds the parser's work.
inline constexpr int kMaxJsonDepth = 64;

// Parses `text` (the record `label`): FormatError naming the label and byte offset on
// bad JSON, LimitError when too big or too deep.
nlohmann::json parse_program_json(std::string_view text, const std::string& label);

// A JSON value and where it is. Accessors throw FormatError naming label and path.
class JsonField {
 public:
  JsonField(const nlohmann::json& value, const std::string* label, std::string path)
      : value_(&value), label_(label), path_(std::move(path)) {}

  const nlohmann::json& raw() const { return *value_; }
  const std::string& path() const { return path_; }
  // "models/model.json: graph_module.graph" for messages.
  std::string where() const;

  bool is_null() const { return value_->is_null(); }
  bool is_object() const { return value_->is_object(); }
  bool has(std::string_view key) const;
  JsonField operator[](std::string_view key) const;  // required member of an object
  std::optional<JsonField> find(std::string_view key) const;  // absent or null: nullopt
  std::vector<JsonField> elements() const;  // of an array
  std::vector<std::pair<std::string, JsonField>> members() const;  // of an object, in order

  const std::string& str() const;
  int64_t integer() const;
  double number() const;  // int or float
  bool boolean() const;

  // A union value of schema.yaml (an object with exactly one member): its key and value.
  std::pair<std::string, JsonField> union_member() const;

  [[noreturn]] void fail(const std::string& what) const;  // FormatError at this place

 private:
  const nlohmann::json* value_;
  const std::string* label_;
  std::string path_;
};

}  // namespace torchlet::exported

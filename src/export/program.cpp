// Decoding and validating an ExportedProgram's JSON (program.h).
#include "export/program.h"

#include <fmt/format.h>
#include <torchlet/error.h>

#include "core/python_format.h"

namespace torchlet::exported {

std::optional<DType> dtype_from_export_code(int64_t code) {
  switch (code) {
    case 1: return DType::Byte;
    case 2: return DType::Char;
    case 3: return DType::Short;
    case 4: return DType::Int;
    case 5: return DType::Long;
    case 6: return DType::Half;
    case 7: return DType::Float;
    case 8: return DType::Double;
    case 9: return DType::ComplexHalf;
    case 10: return DType::ComplexFloat;
    case 11: return DType::ComplexDouble;
    case 12: return DType::Bool;
    case 13: return DType::BFloat16;
    default: return std::nullopt;  // UNKNOWN, UINT16 and the float8 types
  }
}

namespace {
bool is_identifier(std::string_view s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
  for (char c : s)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
  return true;
}
}  // namespace

std::string symbol_of(std::string_view expr) {
  if (is_identifier(expr)) return std::string(expr);
  constexpr std::string_view kSrepr = "Symbol('";
  if (expr.starts_with(kSrepr)) {
    std::string_view rest = expr.substr(kSrepr.size());
    const size_t end = rest.find('\'');
    if (end != std::string_view::npos && is_identifier(rest.substr(0, end)) && expr.ends_with(")"))
      return std::string(rest.substr(0, end));
  }
  return "";
}

std::string SymIntValue::str() const {
  if (value) return std::to_string(*value);
  return symbol.empty() ? printable_text(expr) : symbol;
}

std::string TensorMeta::str() const {
  std::string dims;
  for (const SymIntValue& s : sizes) dims += (dims.empty() ? "" : ", ") + s.str();
  return fmt::format("{}[{}]", dtype_name(dtype), dims);
}

std::string tensor_type_text(const Tensor& t) { return fmt::format("{}{}", dtype_name(t.dtype()), shape_repr(t.sizes())); }

namespace {

SymIntValue read_sym_int(const JsonField& f) {
  auto [kind, v] = f.union_member();
  SymIntValue out;
  if (kind == "as_int") {
    out.value = v.integer();
  } else if (kind == "as_expr") {
    out.expr = v["expr_str"].str();
    out.symbol = symbol_of(out.expr);
    if (auto hint = v.find("hint")) {
      auto [hk, hv] = hint->union_member();
      if (hk != "as_int") hint->fail(fmt::format("hint is '{}', expected as_int", printable_text(hk)));
      out.hint = hv.integer();
    }
  } else {
    f.fail(fmt::format("a SymInt is as_int or as_expr, not '{}'", printable_text(kind)));
  }
  return out;
}

TensorMeta read_tensor_meta(const JsonField& f) {
  TensorMeta m;
  const int64_t code = f["dtype"].integer();
  auto dtype = dtype_from_export_code(code);
  if (!dtype) f["dtype"].fail(fmt::format("ScalarType {} is not a dtype torchlet holds", code));
  m.dtype = *dtype;
  for (const JsonField& s : f["sizes"].elements()) m.sizes.push_back(read_sym_int(s));
  for (const JsonField& s : f["strides"].elements()) m.strides.push_back(read_sym_int(s));
  if (m.sizes.size() != m.strides.size())
    f.fail(fmt::format("{} sizes but {} strides", m.sizes.size(), m.strides.size()));
  m.storage_offset = f.has("storage_offset") ? read_sym_int(f["storage_offset"]) : SymIntValue{0, "", "", {}};
  if (auto layout = f.find("layout"); layout && layout->integer() != 7)
    layout->fail(fmt::format("layout {} is not torch.strided (7), the only layout torchlet runs", layout->integer()));
  if (auto device = f.find("device")) {
    const std::string& type = (*device)["type"].str();
    if (type != "cpu" && type != "meta")
      (*device)["type"].fail(fmt::format("device '{}': torchlet runs on the CPU only", printable_text(type)));
  }
  return m;
}

}  // namespace

TensorMeta read_stored_tensor_meta(const JsonField& f) {
  TensorMeta m = read_tensor_meta(f);
  auto concrete = [](const SymIntValue& v, const JsonField& where) {
    if (!v.value) where.fail("stored tensors have concrete sizes (as_int), not symbolic ones");
  };
  const std::vector<JsonField> sizes = f["sizes"].elements(), strides = f["strides"].elements();
  for (size_t i = 0; i < m.sizes.size(); ++i) concrete(m.sizes[i], sizes[i]);
  for (size_t i = 0; i < m.strides.size(); ++i) concrete(m.strides[i], strides[i]);
  if (f.has("storage_offset")) concrete(m.storage_offset, f["storage_offset"]);
  return m;
}

namespace {

// Every size non-negative and the tensor's extent at its hints bounded, so nothing
// sized from the metadata can ask for absurd memory.
void check_traced_size(const TensorMeta& m, const JsonField& where, const std::map<std::string, SymbolRange>& ranges) {
  uint64_t numel = 1;
  std::string bound_symbols;
  for (const SymIntValue& s : m.sizes) {
    const std::optional<int64_t> v = s.value ? s.value : s.hint;
    if (!v) continue;
    if (*v < 0) where.fail(fmt::format("size {} is negative", *v));
    if (!s.value && !s.symbol.empty()) {
      bound_symbols += fmt::format("{}{} = {}", bound_symbols.empty() ? "" : ", ", s.symbol, *v);
      if (auto r = ranges.find(s.symbol); r != ranges.end() && (*v < r->second.min || (r->second.max && *v > *r->second.max)))
        where.fail(fmt::format("symbol {} was traced as {}, outside its range [{}, {}]", s.symbol, *v, r->second.min,
                               r->second.max ? std::to_string(*r->second.max) : "inf"));
    }
    if (*v != 0 && numel > kMaxTracedTensorBytes / static_cast<uint64_t>(*v)) numel = kMaxTracedTensorBytes + 1;
    else numel *= static_cast<uint64_t>(*v);
  }
  const uint64_t item = element_size(m.dtype);
  if (numel > kMaxTracedTensorBytes / item)
    where.fail(fmt::format("{} describes over {} TiB at its traced sizes{}: no traced input was that big",
                           m.str(), kMaxTracedTensorBytes >> 40,
                           bound_symbols.empty() ? "" : " (" + bound_symbols + ")"));
}

std::string tensor_argument_name(const JsonField& f) { return f["name"].str(); }

ExportedInput read_input_spec(const JsonField& spec) {
  auto [kind, v] = spec.union_member();
  ExportedInput in;
  if (kind == "user_input") {
    in.kind = ExportedInput::Kind::UserInput;
    auto [ak, av] = v["arg"].union_member();
    if (av.is_object() && av.has("name")) in.name = av["name"].str();
    else if (ak == "as_sym_int" && av.has("as_name")) in.name = av["as_name"].str();
    else v["arg"].fail(fmt::format("a user input of kind '{}' is not supported", printable_text(ak)));
  } else if (kind == "parameter") {
    in.kind = ExportedInput::Kind::Parameter;
    in.name = tensor_argument_name(v["arg"]);
    in.target = v["parameter_name"].str();
  } else if (kind == "buffer") {
    in.kind = ExportedInput::Kind::Buffer;
    in.name = tensor_argument_name(v["arg"]);
    in.target = v["buffer_name"].str();
    if (auto p = v.find("persistent")) in.persistent = p->boolean();
  } else if (kind == "tensor_constant") {
    in.kind = ExportedInput::Kind::TensorConstant;
    in.name = tensor_argument_name(v["arg"]);
    in.target = v["tensor_constant_name"].str();
  } else if (kind == "custom_obj" || kind == "token" || kind == "constant_input") {
    spec.fail(fmt::format("'{}' inputs (custom objects, effect tokens, constant inputs) are not supported", kind));
  } else {
    spec.fail(fmt::format("unknown input spec '{}'", printable_text(kind)));
  }
  return in;
}

ExportedOutput read_output_spec(const JsonField& spec) {
  auto [kind, v] = spec.union_member();
  ExportedOutput out;
  if (kind == "user_output") {
    out.kind = ExportedOutput::Kind::UserOutput;
    auto [ak, av] = v["arg"].union_member();
    if (av.is_object() && av.has("name")) out.name = av["name"].str();
    else if (ak == "as_sym_int" && av.has("as_name")) out.name = av["as_name"].str();
    // Constant outputs (as_none, as_int, ...) have no name.
  } else if (kind == "buffer_mutation") {
    out.kind = ExportedOutput::Kind::BufferMutation;
    out.name = tensor_argument_name(v["arg"]);
    out.target = v["buffer_name"].str();
  } else if (kind == "parameter_mutation") {
    out.kind = ExportedOutput::Kind::ParameterMutation;
    out.name = tensor_argument_name(v["arg"]);
    out.target = v["parameter_name"].str();
  } else if (kind == "user_input_mutation") {
    out.kind = ExportedOutput::Kind::UserInputMutation;
    out.name = tensor_argument_name(v["arg"]);
    out.target = v["user_input_name"].str();
  } else if (kind == "loss_output") {
    out.kind = ExportedOutput::Kind::LossOutput;
    out.name = tensor_argument_name(v["arg"]);
  } else if (kind == "token" || kind.starts_with("gradient_to_")) {
    spec.fail(fmt::format("'{}' outputs (training graphs, effect tokens) are not supported", kind));
  } else {
    spec.fail(fmt::format("unknown output spec '{}'", printable_text(kind)));
  }
  return out;
}

void read_header(ProgramDocument& doc, const JsonField& root) {
  if (!root.is_object()) root.fail("the program is not a JSON object");
  const JsonField version = root["schema_version"];
  doc.schema_version = {version["major"].integer(), version["minor"].integer()};
  if (doc.schema_version.first != kSchemaMajorVersion)
    TL_FAIL(UnsupportedError, "{}: schema_version {}.{}: torchlet reads torch.export schema {}.x ({})", doc.label,
            doc.schema_version.first, doc.schema_version.second, kSchemaMajorVersion,
            doc.schema_version.first > kSchemaMajorVersion ? "the archive is newer" : "the archive is older");
  if (auto tv = root.find("torch_version")) doc.torch_version = tv->str();
  if (auto verifiers = root.find("verifiers"))
    for (const JsonField& v : verifiers->elements()) doc.verifiers.push_back(v.str());
  else if (auto dialect = root.find("dialect"))
    doc.verifiers.push_back(dialect->str());
  if (auto ranges = root.find("range_constraints")) {
    for (const auto& [symbol, r] : ranges->members()) {
      SymbolRange range;
      if (auto lo = r.find("min_val")) range.min = lo->integer();
      if (auto hi = r.find("max_val")) range.max = hi->integer();
      if (range.max && *range.max < range.min) r.fail(fmt::format("max_val {} is below min_val {}", *range.max, range.min));
      doc.ranges.emplace(symbol, range);
    }
  }
}

void read_signature(ProgramDocument& doc, const JsonField& signature) {
  const std::vector<JsonField> input_specs = signature["input_specs"].elements();
  if (input_specs.size() != doc.graph.placeholders.size())
    signature["input_specs"].fail(fmt::format("{} input specs for {} graph inputs", input_specs.size(), doc.graph.placeholders.size()));
  for (size_t i = 0; i < input_specs.size(); ++i) {
    ExportedInput in = read_input_spec(input_specs[i]);
    if (in.name != doc.graph.placeholders[i])
      input_specs[i].fail(fmt::format("names '{}', but graph input {} is '{}'", printable_text(in.name), i,
                                      printable_text(doc.graph.placeholders[i])));
    if (auto m = doc.graph.tensor_values.find(in.name); m != doc.graph.tensor_values.end()) in.type = m->second.str();
    else if (doc.graph.sym_int_values.count(in.name)) in.type = "SymInt";
    doc.inputs.push_back(std::move(in));
  }
  const std::vector<JsonField> output_specs = signature["output_specs"].elements();
  if (output_specs.size() != doc.graph.outputs.size())
    signature["output_specs"].fail(fmt::format("{} output specs for {} graph outputs", output_specs.size(), doc.graph.outputs.size()));
  for (size_t i = 0; i < output_specs.size(); ++i) {
    ExportedOutput out = read_output_spec(output_specs[i]);
    if (auto m = doc.graph.tensor_values.find(out.name); m != doc.graph.tensor_values.end()) out.type = m->second.str();
    doc.outputs.push_back(std::move(out));
  }
}

}  // namespace

GraphBody read_graph_body(const JsonField& graph, const std::map<std::string, SymbolRange>& ranges) {
  GraphBody body;
  for (const auto& [name, meta] : graph["tensor_values"].members()) {
    TensorMeta m = read_tensor_meta(meta);
    check_traced_size(m, meta, ranges);
    body.tensor_values.emplace(name, std::move(m));
  }
  if (auto syms = graph.find("sym_int_values"))
    for (const auto& [name, v] : syms->members()) body.sym_int_values.emplace(name, read_sym_int(v));
  for (const JsonField& in : graph["inputs"].elements()) {
    auto [kind, v] = in.union_member();
    if (kind == "as_tensor") body.placeholders.push_back(v["name"].str());
    else if (kind == "as_sym_int" && v.has("as_name")) body.placeholders.push_back(v["as_name"].str());
    else in.fail(fmt::format("a graph input of kind '{}' is not supported", printable_text(kind)));
  }
  body.outputs = graph["outputs"].elements();
  for (const JsonField& n : graph["nodes"].elements()) {
    GraphNode node{n["target"].str(), {}, n["outputs"].elements(), n};
    for (const JsonField& a : n["inputs"].elements()) {
      NamedArgument arg{a["name"].str(), a["arg"], 1};
      if (auto k = a.find("kind")) arg.kind = k->integer();
      node.inputs.push_back(std::move(arg));
    }
    body.nodes.push_back(std::move(node));
  }
  return body;
}

std::unique_ptr<ProgramDocument> read_program(std::string_view text, const std::string& label) {
  auto doc = std::make_unique<ProgramDocument>();
  doc->label = label;
  doc->json = parse_program_json(text, label);
  const JsonField root(doc->json, &doc->label, "");
  read_header(*doc, root);
  const JsonField module = root["graph_module"];
  doc->graph = read_graph_body(module["graph"], doc->ranges);
  read_signature(*doc, module["signature"]);
  return doc;
}

}  // namespace torchlet::exported

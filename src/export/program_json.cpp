// JSON parsing under limits and the path-naming accessors of program_json.h.
#include "export/program_json.h"

#include <limits>

#include <fmt/format.h>
#include <torchlet/error.h>

#include "core/python_format.h"

namespace torchlet::exported {

nlohmann::json parse_program_json(std::string_view text, const std::string& label) {
  TL_CHECK(text.size() <= kMaxProgramJsonBytes, LimitError, "{}: {} bytes of JSON, over the {} MiB torchlet reads",
           label, text.size(), kMaxProgramJsonBytes >> 20);
  // The callback sees every value as it opens, so nesting is refused before it is built.
  auto limit_depth = [&](int depth, nlohmann::json::parse_event_t, nlohmann::json&) {
    TL_CHECK(depth <= kMaxJsonDepth, LimitError, "{}: JSON nested deeper than {} levels", label, kMaxJsonDepth);
    return true;
  };
  try {
    return nlohmann::json::parse(text.begin(), text.end(), limit_depth);
  } catch (const nlohmann::json::parse_error& e) {
    TL_FAIL(FormatError, "{}: not valid JSON (at byte {}): {}", label, e.byte, printable_text(e.what()));
  } catch (const nlohmann::json::exception& e) {
    // out_of_range 406: a number no double holds ("1e705"), which Python's json reads as inf.
    TL_FAIL(FormatError, "{}: JSON torchlet cannot read: {}", label, printable_text(e.what()));
  }
}

std::string JsonField::where() const {
  return path_.empty() ? *label_ : fmt::format("{}: {}", *label_, path_);
}

void JsonField::fail(const std::string& what) const { TL_FAIL(FormatError, "{}: {}", where(), what); }

namespace {
const char* kind_of(const nlohmann::json& j) {
  switch (j.type()) {
    case nlohmann::json::value_t::null: return "null";
    case nlohmann::json::value_t::object: return "an object";
    case nlohmann::json::value_t::array: return "an array";
    case nlohmann::json::value_t::string: return "a string";
    case nlohmann::json::value_t::boolean: return "a boolean";
    case nlohmann::json::value_t::number_float: return "a float";
    case nlohmann::json::value_t::number_integer:
    case nlohmann::json::value_t::number_unsigned: return "an integer";
    default: return "not a JSON value";
  }
}

std::string child_path(const std::string& path, std::string_view key) {
  std::string k = printable_text(key);
  return path.empty() ? k : path + "." + k;
}
}  // namespace

bool JsonField::has(std::string_view key) const {
  return value_->is_object() && value_->find(key) != value_->end();
}

JsonField JsonField::operator[](std::string_view key) const {
  if (!value_->is_object()) fail(fmt::format("is {}, expected an object with '{}'", kind_of(*value_), printable_text(key)));
  auto it = value_->find(key);
  if (it == value_->end()) fail(fmt::format("has no '{}'", printable_text(key)));
  return JsonField(*it, label_, child_path(path_, key));
}

std::optional<JsonField> JsonField::find(std::string_view key) const {
  if (!value_->is_object()) fail(fmt::format("is {}, expected an object", kind_of(*value_)));
  auto it = value_->find(key);
  if (it == value_->end() || it->is_null()) return std::nullopt;
  return JsonField(*it, label_, child_path(path_, key));
}

std::vector<JsonField> JsonField::elements() const {
  if (!value_->is_array()) fail(fmt::format("is {}, expected an array", kind_of(*value_)));
  std::vector<JsonField> out;
  out.reserve(value_->size());
  for (size_t i = 0; i < value_->size(); ++i) out.emplace_back((*value_)[i], label_, fmt::format("{}[{}]", path_, i));
  return out;
}

std::vector<std::pair<std::string, JsonField>> JsonField::members() const {
  if (!value_->is_object()) fail(fmt::format("is {}, expected an object", kind_of(*value_)));
  std::vector<std::pair<std::string, JsonField>> out;
  for (auto it = value_->begin(); it != value_->end(); ++it)
    out.emplace_back(it.key(), JsonField(it.value(), label_, child_path(path_, it.key())));
  return out;
}

const std::string& JsonField::str() const {
  if (!value_->is_string()) fail(fmt::format("is {}, expected a string", kind_of(*value_)));
  return value_->get_ref<const std::string&>();
}

int64_t JsonField::integer() const {
  if (value_->is_number_integer()) return value_->get<int64_t>();
  if (value_->is_number_unsigned()) fail("is an integer beyond int64");
  fail(fmt::format("is {}, expected an integer", kind_of(*value_)));
}

double JsonField::number() const {
  if (value_->is_number()) return value_->get<double>();
  // torch writes non-finite floats as the strings "Infinity", "-Infinity", "NaN".
  if (value_->is_string()) {
    const auto& s = value_->get_ref<const std::string&>();
    if (s == "Infinity") return std::numeric_limits<double>::infinity();
    if (s == "-Infinity") return -std::numeric_limits<double>::infinity();
    if (s == "NaN") return std::numeric_limits<double>::quiet_NaN();
  }
  fail(fmt::format("is {}, expected a number", kind_of(*value_)));
}

bool JsonField::boolean() const {
  if (!value_->is_boolean()) fail(fmt::format("is {}, expected true or false", kind_of(*value_)));
  return value_->get<bool>();
}

std::pair<std::string, JsonField> JsonField::union_member() const {
  if (!value_->is_object() || value_->size() != 1)
    fail(fmt::format("is {}, expected a union (an object with one member)",
                     value_->is_object() ? fmt::format("an object with {} members", value_->size()) : kind_of(*value_)));
  auto it = value_->begin();
  return {it.key(), JsonField(it.value(), label_, child_path(path_, it.key()))};
}

}  // namespace torchlet::exported

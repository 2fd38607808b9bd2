// The safetensors header: the official dtype table, and reading the header of untrusted
// bytes. The JSON goes through nlohmann's SAX parser (iterative, so depth costs no
// stack) into a handler that builds only what a header may hold (names, dtype names,
// shapes, offsets, metadata strings) and refuses anything else as it arrives, so a
// hostile header costs time and memory in proportion to its size, bounded by the
// length limit checked before any of it is read.
#include "checkpoint/safetensors_format.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <tuple>
#include <unordered_set>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <torchlet/error.h>

#include "core/python_format.h"

namespace torchlet::safetensors {

namespace {

// The official Dtype enum in its order (safetensors/src/tensor.rs: "They MUST be in
// increasing alignment order"), with the bits of one element.
constexpr std::array<DTypeRow, 20> kDTypes{{
    {"BOOL", 8, DType::Bool, 0},
    {"F4", 4, std::nullopt, 1},
    {"F6_E2M3", 6, std::nullopt, 2},
    {"F6_E3M2", 6, std::nullopt, 3},
    {"U8", 8, DType::Byte, 4},
    {"I8", 8, DType::Char, 5},
    {"F8_E5M2", 8, std::nullopt, 6},
    {"F8_E4M3", 8, std::nullopt, 7},
    {"F8_E8M0", 8, std::nullopt, 8},
    {"I16", 16, DType::Short, 9},
    {"U16", 16, std::nullopt, 10},
    {"F16", 16, DType::Half, 11},
    {"BF16", 16, DType::BFloat16, 12},
    {"I32", 32, DType::Int, 13},
    {"U32", 32, std::nullopt, 14},
    {"F32", 32, DType::Float, 15},
    {"C64", 64, DType::ComplexFloat, 16},
    {"F64", 64, DType::Double, 17},
    {"I64", 64, DType::Long, 18},
    {"U64", 64, std::nullopt, 19},
}};

using json = nlohmann::json;

// Where the parser is: what the innermost open container is.
enum class Scope { Root, Metadata, Entry, Shape, Offsets, Skipped };

// Builds a SafetensorsHeader from SAX events, refusing what no header may hold with a
// message naming the entry. Throws instead of returning false, so the message is ours.
class HeaderHandler final : public json::json_sax_t {
 public:
  HeaderHandler(const std::string& path, SafetensorsHeader& out) : path_(path), out_(out) {}

  bool null() override { return scalar("null"); }
  bool boolean(bool) override { return scalar("a boolean"); }
  bool number_integer(number_integer_t) override { return scalar("a negative number"); }
  bool number_unsigned(number_unsigned_t v) override;
  bool number_float(number_float_t, const string_t&) override {
    return scalar("a number that is not an integer below 2^64");
  }
  bool string(string_t& s) override;
  bool binary(binary_t&) override { return scalar("binary data"); }
  bool start_object(std::size_t) override { return open(true); }
  bool start_array(std::size_t) override { return open(false); }
  bool key(string_t& k) override;
  bool end_object() override { return close(); }
  bool end_array() override { return close(); }
  bool parse_error(std::size_t position, const std::string& last_token, const nlohmann::detail::exception&) override {
    // nlohmann's own message quotes the bytes raw; only the position and an escaped
    // token go into ours.
    TL_FAIL(FormatError, "{}: safetensors header is not valid JSON: syntax error at byte {} of the header, near {}",
            path_, position, quote_text(last_token));
  }
  bool done() const { return done_; }

 private:
  SafetensorsTensorInfo& entry() { return out_.tensors.back(); }
  std::string where() const;  // what the value being read belongs to, for messages
  bool scalar(const char* kind);
  bool open(bool object);
  bool close();

  const std::string& path_;
  SafetensorsHeader& out_;
  std::vector<Scope> scopes_;  // bounded by kMaxJsonDepth
  bool done_ = false;
  std::string key_;    // the root key whose value is being read
  std::string field_;  // the entry field (or metadata key) whose value is being read
  std::unordered_set<std::string> names_;
  bool seen_metadata_ = false;
  // Fields of the current entry seen so far, and its data_offsets count.
  bool has_dtype_ = false, has_shape_ = false, has_offsets_ = false;
  size_t offsets_ = 0;
};

std::string HeaderHandler::where() const {
  if (scopes_.empty()) return "the header";
  switch (scopes_.back()) {
    case Scope::Root: return key_ == "__metadata__" ? "__metadata__" : fmt::format("entry {}", quote_text(key_));
    case Scope::Metadata: return fmt::format("__metadata__[{}]", quote_text(field_));
    case Scope::Entry: return fmt::format("field {} of tensor {}", quote_text(field_), quote_text(key_));
    case Scope::Shape: return fmt::format("the shape of tensor {}", quote_text(key_));
    case Scope::Offsets: return fmt::format("the data_offsets of tensor {}", quote_text(key_));
    case Scope::Skipped: return "an ignored field";
  }
  return "the header";
}

bool HeaderHandler::scalar(const char* kind) {
  if (scopes_.empty()) TL_FAIL(FormatError, "{}: safetensors header is {}, not a JSON object", path_, kind);
  switch (scopes_.back()) {
    case Scope::Skipped:
      return true;
    case Scope::Root:
      // serde reads "__metadata__": null as no metadata (an Option).
      if (key_ == "__metadata__" && std::strcmp(kind, "null") == 0) return true;
      TL_FAIL(FormatError, "{}: safetensors header: {} is {}, not an object", path_, where(), kind);
    case Scope::Metadata:
      TL_FAIL(FormatError, "{}: safetensors header: {} is {}, not a string", path_, where(), kind);
    case Scope::Entry:
      if (field_ != "dtype" && field_ != "shape" && field_ != "data_offsets") return true;  // ignored, as officially
      TL_FAIL(FormatError, "{}: safetensors header: {} is {}, not {}", path_, where(), kind,
              field_ == "dtype" ? "a string" : "an array");
    case Scope::Shape:
    case Scope::Offsets:
      TL_FAIL(FormatError, "{}: safetensors header: {} holds {}; they must be non-negative integers", path_,
              where(), kind);
  }
  return true;
}

bool HeaderHandler::number_unsigned(number_unsigned_t v) {
  if (scopes_.empty() || (scopes_.back() != Scope::Shape && scopes_.back() != Scope::Offsets))
    return scalar("a number");
  if (scopes_.back() == Scope::Shape) {
    TL_CHECK(entry().shape.size() < kMaxDims, LimitError,
             "{}: safetensors header: tensor {} has more than {} dimensions", path_, quote_text(key_), kMaxDims);
    TL_CHECK(v <= static_cast<uint64_t>(INT64_MAX), LimitError,
             "{}: safetensors header: a dimension of tensor {} is {}, larger than torchlet's sizes hold (2^63 - 1)",
             path_, quote_text(key_), v);
    entry().shape.push_back(static_cast<int64_t>(v));
    return true;
  }
  TL_CHECK(offsets_ < 2, FormatError, "{}: safetensors header: the data_offsets of tensor {} hold more than 2 numbers",
           path_, quote_text(key_));
  (offsets_ == 0 ? entry().begin : entry().end) = v;
  ++offsets_;
  return true;
}

bool HeaderHandler::string(string_t& s) {
  if (!scopes_.empty() && scopes_.back() == Scope::Metadata) {
    out_.metadata.emplace(field_, std::move(s));
    return true;
  }
  if (!scopes_.empty() && scopes_.back() == Scope::Entry && field_ == "dtype") {
    entry().dtype_name = std::move(s);
    return true;
  }
  return scalar("a string");
}

bool HeaderHandler::open(bool object) {
  TL_CHECK(scopes_.size() < kMaxJsonDepth, LimitError,
           "{}: safetensors header nests JSON deeper than {} levels (a valid header nests 3)", path_, kMaxJsonDepth);
  const char* kind = object ? "an object" : "an array";
  if (scopes_.empty()) {
    TL_CHECK(object && !done_, FormatError, "{}: safetensors header is {}, not a JSON object", path_, kind);
    scopes_.push_back(Scope::Root);
    return true;
  }
  switch (scopes_.back()) {
    case Scope::Skipped:
      scopes_.push_back(Scope::Skipped);
      return true;
    case Scope::Root:
      if (!object) return scalar(kind);
      if (key_ == "__metadata__") {
        scopes_.push_back(Scope::Metadata);
        return true;
      }
      out_.tensors.push_back({});
      entry().name = key_;
      has_dtype_ = has_shape_ = has_offsets_ = false;
      offsets_ = 0;
      scopes_.push_back(Scope::Entry);
      return true;
    case Scope::Entry:
      if (field_ == "shape" && !object) {
        scopes_.push_back(Scope::Shape);
        return true;
      }
      if (field_ == "data_offsets" && !object) {
        scopes_.push_back(Scope::Offsets);
        return true;
      }
      if (field_ == "dtype" || field_ == "shape" || field_ == "data_offsets") return scalar(kind);
      scopes_.push_back(Scope::Skipped);  // an unknown field: the official reader ignores it
      return true;
    case Scope::Metadata:
    case Scope::Shape:
    case Scope::Offsets:
      return scalar(kind);
  }
  return true;
}

bool HeaderHandler::key(string_t& k) {
  switch (scopes_.back()) {
    case Scope::Root:
      if (k == "__metadata__") {
        TL_CHECK(!seen_metadata_, FormatError, "{}: safetensors header has two __metadata__ entries", path_);
        seen_metadata_ = true;
      } else {
        TL_CHECK(names_.insert(k).second, FormatError, "{}: safetensors header names tensor {} twice", path_,
                 quote_text(k));
      }
      key_ = std::move(k);
      return true;
    case Scope::Metadata:
      TL_CHECK(!out_.metadata.count(k), FormatError, "{}: safetensors header: __metadata__ has key {} twice", path_,
               quote_text(k));
      field_ = std::move(k);
      return true;
    case Scope::Entry: {
      bool* seen = k == "dtype" ? &has_dtype_ : k == "shape" ? &has_shape_ : k == "data_offsets" ? &has_offsets_ : nullptr;
      if (seen != nullptr) {
        TL_CHECK(!*seen, FormatError, "{}: safetensors header: tensor {} has two {} fields", path_, quote_text(key_), k);
        *seen = true;
      }
      field_ = std::move(k);
      return true;
    }
    default:
      return true;
  }
}

bool HeaderHandler::close() {
  const Scope s = scopes_.back();
  scopes_.pop_back();
  if (s == Scope::Entry) {
    const char* missing = !has_dtype_ ? "dtype" : !has_shape_ ? "shape" : !has_offsets_ ? "data_offsets" : nullptr;
    TL_CHECK(missing == nullptr, FormatError, "{}: safetensors header: tensor {} has no {}", path_, quote_text(key_),
             missing);
  } else if (s == Scope::Offsets) {
    TL_CHECK(offsets_ == 2, FormatError, "{}: safetensors header: the data_offsets of tensor {} hold {} numbers, not 2",
             path_, quote_text(key_), offsets_);
  } else if (s == Scope::Root) {
    done_ = true;
  }
  return true;
}

// The official reader's checks on the parsed header, in its order: tensors sorted by
// offsets must tile the data buffer from 0 without gaps or overlaps, each holding
// exactly numel * element size bytes, and together covering the buffer exactly.
void check_layout(SafetensorsHeader& h, const std::string& path) {
  auto by_offsets = [](const auto& a, const auto& b) { return std::tie(a.begin, a.end) < std::tie(b.begin, b.end); };
  // The official writer lists entries in data order already; sorting moves every
  // entry's strings, so it runs only when needed.
  if (!std::is_sorted(h.tensors.begin(), h.tensors.end(), by_offsets))
    std::stable_sort(h.tensors.begin(), h.tensors.end(), by_offsets);
  uint64_t pos = 0;
  for (auto& t : h.tensors) {
    const DTypeRow* row = dtype_row(t.dtype_name);
    TL_CHECK(row != nullptr, FormatError, "{}: tensor {} has unknown safetensors dtype {}", path, quote_text(t.name),
             quote_text(t.dtype_name));
    t.dtype = row->dtype;
    // Only formatted for a message: one format per tensor was a tenth of an open's cost.
    auto range = [&t] { return fmt::format("data_offsets [{}, {}]", t.begin, t.end); };
    TL_CHECK(t.end >= t.begin, FormatError, "{}: tensor {}: {} end before they begin", path, quote_text(t.name), range());
    TL_CHECK(t.end <= h.data_bytes, FormatError,
             "{}: tensor {}: {} run past the end of the data buffer ({} bytes)", path, quote_text(t.name), range(),
             h.data_bytes);
    TL_CHECK(t.begin == pos, FormatError,
             "{}: tensor {}: {} {} the previous tensor's end (byte {}); tensors must tile the data buffer in order",
             path, quote_text(t.name), range(), t.begin > pos ? "leave a gap after" : "overlap", pos);
    uint64_t bits = row->bits;
    bool overflow = false;
    for (int64_t d : t.shape) overflow |= __builtin_mul_overflow(bits, static_cast<uint64_t>(d), &bits);
    TL_CHECK(!overflow, FormatError, "{}: tensor {}: the byte count of shape {} overflows", path, quote_text(t.name),
             shape_repr(t.shape));
    TL_CHECK(bits % 8 == 0, FormatError, "{}: tensor {}: {} {} does not fill whole bytes", path, quote_text(t.name),
             row->name, shape_repr(t.shape));
    TL_CHECK(bits / 8 == t.end - t.begin, FormatError, "{}: tensor {}: {} {} needs {} bytes but its {} hold {}", path,
             quote_text(t.name), row->name, shape_repr(t.shape), bits / 8, range(), t.end - t.begin);
    pos = t.end;
  }
  TL_CHECK(pos == h.data_bytes, FormatError,
           "{}: the tensors cover {} of the data buffer's {} bytes; safetensors data must cover it exactly", path, pos,
           h.data_bytes);
}

}  // namespace

const DTypeRow* dtype_row(std::string_view name) {
  for (const auto& r : kDTypes)
    if (r.name == name) return &r;
  return nullptr;
}

const DTypeRow* dtype_row(DType dtype) {
  for (const auto& r : kDTypes)
    if (r.dtype == dtype) return &r;
  return nullptr;
}

std::string loadable_dtype_names() {
  std::string out;
  for (const auto& r : kDTypes) {
    if (!r.dtype) continue;
    if (!out.empty()) out += ", ";
    out += r.name;
  }
  return out;
}

std::string quote_text(std::string_view text) {
  constexpr size_t kShown = 120;
  const bool cut = text.size() > kShown;
  return "'" + printable_text(text.substr(0, kShown)) + (cut ? "'..." : "'");
}

bool has_safetensors_start(std::span<const std::byte> file) {
  if (file.size() < 9) return false;
  uint64_t n;
  std::memcpy(&n, file.data(), 8);  // little-endian, as the host (safetensors.cpp asserts it)
  return n <= kMaxHeaderBytes && n <= file.size() - 8 && n > 0 && file[8] == std::byte{'{'};
}

SafetensorsHeader parse_header(std::span<const std::byte> file, const std::string& path) {
  TL_CHECK(file.size() >= 8, FormatError,
           "{}: not a safetensors file: {} bytes, shorter than the 8-byte header length", path, file.size());
  uint64_t n;
  std::memcpy(&n, file.data(), 8);
  TL_CHECK(n <= kMaxHeaderBytes, LimitError,
           "{}: safetensors header length {} is over the {}-byte limit (the official reader's)", path, n,
           kMaxHeaderBytes);
  TL_CHECK(n <= file.size() - 8, FormatError,
           "{}: safetensors header length {} runs past the end of the file ({} bytes)", path, n, file.size());
  std::string_view text(reinterpret_cast<const char*>(file.data()) + 8, static_cast<size_t>(n));
  // ASCII (nearly every header) needs no decoding.
  const bool ascii = std::all_of(text.begin(), text.end(), [](char c) { return static_cast<unsigned char>(c) < 0x80; });
  if (auto err = ascii ? std::nullopt : utf8_error(text, /*allow_surrogates=*/false))
    TL_FAIL(FormatError, "{}: safetensors header is not valid UTF-8: {}", path, *err);
  TL_CHECK(!text.empty() && text[0] == '{', FormatError,
           "{}: safetensors header does not start with '{{' (not a safetensors file?)", path);
  SafetensorsHeader h;
  h.header_bytes = n;
  h.data_start = 8 + n;
  h.data_bytes = file.size() - 8 - n;
  HeaderHandler handler(path, h);
  json::sax_parse(text.begin(), text.end(), &handler, nlohmann::detail::input_format_t::json, /*strict=*/true);
  TL_INTERNAL_ASSERT(handler.done(), "safetensors header parse ended without its object");
  check_layout(h, path);
  return h;
}

}  // namespace torchlet::safetensors

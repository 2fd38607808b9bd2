// Refined tensor types (TensorDetails in type.h): how graphs print and spell them, and
// how they compare, as torch's TensorType operator<<, SchemaTypeParser::parseRefinedTensor,
// isSubtypeOf and merge do.
#include <cctype>
#include <charconv>
#include <string>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <torchlet/error.h>

#include "core/python_format.h"
#include "values/type.h"

namespace torchlet::jit {

std::optional<std::vector<int64_t>> TensorDetails::concrete_sizes() const {
  if (!sizes) return std::nullopt;
  std::vector<int64_t> out;
  out.reserve(sizes->size());
  for (const auto& s : *sizes) {
    if (!s) return std::nullopt;
    out.push_back(*s);
  }
  return out;
}

// torch: the dtype's name, "Tensor" after it when the rank is unknown; sizes with "*"
// for unknown ones; strides only when complete and the rank is not 0; requires_grad and
// device when known, in parentheses of their own when the rank is unknown.
std::string TensorDetails::str() const {
  std::string out = dtype ? std::string(dtype_info(*dtype).scalar_type_name) : "Tensor";
  if (dtype && !sizes) out += "Tensor";
  std::vector<std::string> parts;
  if (sizes) {
    for (const auto& s : *sizes) parts.push_back(s ? std::to_string(*s) : "*");
    if (!sizes->empty() && strides && strides->size() == sizes->size()) {
      parts.push_back(fmt::format("strides=[{}]", fmt::join(*strides, ", ")));
    }
  }
  if (requires_grad) parts.push_back(fmt::format("requires_grad={}", *requires_grad ? 1 : 0));
  if (device) parts.push_back("device=" + device->str());
  if (sizes || !parts.empty()) out += fmt::format("({})", fmt::join(parts, ", "));
  return out;
}

bool TensorDetails::fits(const TensorDetails& o) const {
  if (o.dtype && dtype != o.dtype) return false;
  if (o.sizes) {
    if (!sizes || sizes->size() != o.sizes->size()) return false;
    for (size_t i = 0; i < sizes->size(); ++i) {
      if ((*o.sizes)[i] && (*sizes)[i] != (*o.sizes)[i]) return false;
    }
  }
  if (o.strides && strides != o.strides) return false;
  if (o.requires_grad && requires_grad != o.requires_grad) return false;
  if (o.device && device != o.device) return false;
  return true;
}

namespace {

template <typename T>
std::optional<T> common(const std::optional<T>& a, const std::optional<T>& b) {
  return a == b ? a : std::nullopt;
}

}  // namespace

TensorDetails TensorDetails::merged_with(const TensorDetails& o) const {
  TensorDetails m;
  m.dtype = common(dtype, o.dtype);
  if (sizes && o.sizes && sizes->size() == o.sizes->size()) {
    m.sizes.emplace();
    for (size_t i = 0; i < sizes->size(); ++i) m.sizes->push_back(common((*sizes)[i], (*o.sizes)[i]));
  }
  m.strides = m.sizes ? common(strides, o.strides) : std::nullopt;
  m.requires_grad = common(requires_grad, o.requires_grad);
  m.device = common(device, o.device);
  return m;
}

namespace {

// The comma-separated items of one refined tensor spelling, read left to right.
class DetailsReader {
 public:
  explicit DetailsReader(std::string_view s) : s_(s) {}

  TensorDetails read(std::optional<DType> dtype) {
    TensorDetails d;
    d.dtype = dtype;
    std::vector<std::optional<int64_t>> dims;
    std::optional<std::vector<int64_t>> strides;
    skip();
    while (pos_ < s_.size()) {
      if (std::isalpha(static_cast<unsigned char>(s_[pos_])) && !s_.substr(pos_).starts_with("SS(")) {
        std::string_view field = word();
        expect('=');
        if (field == "device") {
          refuse_twice(d.device.has_value(), field);
          d.device = device();
        } else if (field == "requires_grad") {
          refuse_twice(d.requires_grad.has_value(), field);
          d.requires_grad = number("requires_grad") != 0;
        } else if (field == "strides") {
          refuse_twice(strides.has_value(), field);
          strides = stride_list();
        } else {
          fail(fmt::format("unexpected specifier '{}'", printable_text(field)));
        }
      } else {
        if (d.device || d.requires_grad) {
          fail("'device' and 'requires_grad' should come after dimensions in the type specification");
        }
        dims.push_back(dimension());
      }
      skip();
      if (pos_ == s_.size()) break;
      expect(',');
      skip();
      if (pos_ == s_.size()) fail("expected a dimension or a specifier after ','");
    }
    if (strides && strides->size() != dims.size()) {
      fail(fmt::format("strides are given for {} dimension(s) of {}", strides->size(), dims.size()));
    }
    // Rank 0 keeps no strides: there are none to know.
    if (!dims.empty()) d.strides = std::move(strides);
    d.sizes = std::move(dims);
    return d;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    TL_FAIL(ValueError, "tensor type details '{}': {}", printable_text(s_), what);
  }
  void refuse_twice(bool seen, std::string_view field) const {
    if (seen) fail(fmt::format("'{}' is specified twice", field));
  }
  void skip() {
    while (pos_ < s_.size() && s_[pos_] == ' ') ++pos_;
  }
  void expect(char c) {
    skip();
    if (pos_ >= s_.size() || s_[pos_] != c) fail(fmt::format("expected '{}'", c));
    ++pos_;
    skip();
  }
  std::string_view word() {
    size_t start = pos_;
    while (pos_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[pos_])) || s_[pos_] == '_')) ++pos_;
    return s_.substr(start, pos_ - start);
  }
  int64_t number(std::string_view what) {
    int64_t v = 0;
    auto [end, ec] = std::from_chars(s_.data() + pos_, s_.data() + s_.size(), v);
    if (ec == std::errc::result_out_of_range) fail(fmt::format("the {} is too big", what));
    if (ec != std::errc() || v < 0) fail(fmt::format("expected a non-negative number for the {}", what));
    pos_ = static_cast<size_t>(end - s_.data());
    return v;
  }
  // A size, "*" for an unknown one, or torch's symbolic "SS(-n)" (unknown here too).
  std::optional<int64_t> dimension() {
    if (s_[pos_] == '*') {
      ++pos_;
      return std::nullopt;
    }
    if (s_.substr(pos_).starts_with("SS(")) {
      pos_ += 3;
      expect('-');
      number("shape symbol");
      expect(')');
      return std::nullopt;
    }
    return number("size");
  }
  std::vector<int64_t> stride_list() {
    std::vector<int64_t> out;
    expect('[');
    if (pos_ < s_.size() && s_[pos_] == ']') {
      ++pos_;
      return out;
    }
    while (true) {
      out.push_back(number("stride"));
      skip();
      if (pos_ < s_.size() && s_[pos_] == ']') break;
      expect(',');
    }
    ++pos_;
    return out;
  }
  // cpu, cuda, cuda:1, ...
  Device device() {
    size_t start = pos_;
    word();
    if (pos_ < s_.size() && s_[pos_] == ':') {
      ++pos_;
      word();
    }
    std::string_view text = s_.substr(start, pos_ - start);
    if (text.empty()) fail("expected a device");
    return Device::parse(text);
  }

  std::string_view s_;
  size_t pos_ = 0;
};

}  // namespace

TypePtr unshaped_type(const TypePtr& t) {
  if (t->kind() == TypeKind::Tensor) return Type::tensor();
  if (t->contained().empty()) return t;
  std::vector<TypePtr> parts;
  bool refined = false;
  for (const TypePtr& c : t->contained()) {
    parts.push_back(unshaped_type(c));
    refined |= parts.back() != c;
  }
  if (!refined) return t;
  switch (t->kind()) {
    case TypeKind::List: return Type::list(parts[0]);
    case TypeKind::Optional: return Type::optional(parts[0]);
    case TypeKind::Future: return Type::future(parts[0]);
    case TypeKind::RRef: return Type::rref(parts[0]);
    case TypeKind::Dict: return Type::dict(parts[0], parts[1]);
    case TypeKind::Union: return Type::union_of(std::move(parts));
    case TypeKind::Tuple:
      if (t->is_named_tuple()) return Type::named_tuple(t->name(), t->field_names(), std::move(parts));
      return Type::tuple(std::move(parts));
    default: return t;  // nominal types name their parts; nothing to strip
  }
}

TensorDetails parse_tensor_details(std::optional<DType> dtype, std::string_view inner) {
  return DetailsReader(inner).read(dtype);
}

}  // namespace torchlet::jit

// Tar member lookup over mapped bytes (see tar_reader.h).
#include "archive/tar_reader.h"

#include <cstring>

#include <torchlet/error.h>

#include "core/python_format.h"

namespace torchlet {

namespace {

constexpr size_t kBlock = 512;

// Tar numbers are octal text, NUL- or space-terminated.
uint64_t parse_octal(const std::byte* p, size_t n, const std::string& label) {
  uint64_t v = 0;
  size_t i = 0;
  while (i < n && (p[i] == std::byte{' '})) ++i;
  for (; i < n; ++i) {
    char c = static_cast<char>(p[i]);
    if (c == '\0' || c == ' ') break;
    TL_CHECK(c >= '0' && c <= '7', FormatError, "{}: tar header has a bad size field", label);
    TL_CHECK(v < (uint64_t{1} << 60), FormatError, "{}: tar size field overflows", label);
    v = v * 8 + static_cast<uint64_t>(c - '0');
  }
  return v;
}

}  // namespace

bool looks_like_tar(std::span<const std::byte> bytes) {
  return bytes.size() >= kBlock && std::memcmp(bytes.data() + 257, "ustar", 5) == 0;
}

TarReader::TarReader(std::span<const std::byte> bytes, std::string label)
    : bytes_(bytes), label_(std::move(label)) {
  size_t pos = 0;
  while (pos + kBlock <= bytes_.size()) {
    const std::byte* h = bytes_.data() + pos;
    bool zero = true;
    for (size_t i = 0; i < kBlock; ++i) {
      if (h[i] != std::byte{0}) {
        zero = false;
        break;
      }
    }
    if (zero) break;  // end-of-archive blocks
    const char* name_field = reinterpret_cast<const char*>(h);
    std::string name(name_field, strnlen(name_field, 100));
    uint64_t size = parse_octal(h + 124, 12, label_);
    char type = static_cast<char>(h[156]);
    size_t data = pos + kBlock;
    TL_CHECK(size <= bytes_.size() - data, FormatError,
             "{}: tar member '{}' claims {} bytes, beyond the file's end", label_, printable_text(name), size);
    if (type == '0' || type == '\0') {
      TL_CHECK(members_.size() < kMaxMembers, LimitError, "{}: more than {} tar members", label_, kMaxMembers);
      TL_CHECK(members_.emplace(name, std::make_pair(data, static_cast<size_t>(size))).second, FormatError,
               "{}: duplicate tar member '{}'", label_, printable_text(name));
    }
    // Other types (PAX 'x'/'g' headers, directories) carry nothing torch reads.
    pos = data + (static_cast<size_t>(size) + kBlock - 1) / kBlock * kBlock;
  }
}

std::span<const std::byte> TarReader::get(std::string_view name) const {
  auto it = members_.find(std::string(name));
  TL_CHECK(it != members_.end(), FormatError, "{}: tar checkpoint has no '{}' member", label_, name);
  return bytes_.subspan(it->second.first, it->second.second);
}

size_t TarReader::offset_of(std::string_view name) const {
  return static_cast<size_t>(get(name).data() - bytes_.data());
}

}  // namespace torchlet

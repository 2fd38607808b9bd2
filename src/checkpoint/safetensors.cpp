// safetensors load and save (include/torchlet/safetensors.h), over the header rules in
// safetensors_header.cpp. A load maps the file once: Mapped tensors alias the mapping,
// Eager ones are carved from a huge-page arena and filled with pread in parallel, as an
// eager checkpoint load is (core/huge_page_arena.h says why). A save writes through the
// zip writer's atomic file sink, straight from each tensor's memory.
#include <torchlet/safetensors.h>

#include <algorithm>
#include <bit>
#include <cstring>
#include <numeric>
#include <unordered_set>

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <torchlet/error.h>

#include "archive/zip_writer.h"
#include "checkpoint/safetensors_format.h"
#include "core/huge_page_arena.h"
#include "core/mapped_file.h"
#include "core/parallel.h"
#include "core/python_format.h"

namespace torchlet {

// The format is little-endian and torchlet's tensors hold host-order bytes; every host
// torchlet builds for is little-endian (a big-endian one would need byte swaps here).
static_assert(std::endian::native == std::endian::little, "safetensors I/O assumes a little-endian host");

namespace {

using safetensors::quote_text;

// Eager loads: destination buffers queued while tensors are built, then filled from the
// file in pieces of a few MiB across threads, so one large tensor is shared out too.
struct PendingCopy {
  size_t file_offset;
  std::byte* dst;
  size_t size;
};

void copy_all(const MappedFile& file, const std::vector<PendingCopy>& pending) {
  constexpr size_t kPiece = size_t{4} << 20;
  std::vector<PendingCopy> pieces;
  for (const PendingCopy& c : pending)
    for (size_t done = 0; done < c.size; done += kPiece)
      pieces.push_back({c.file_offset + done, c.dst + done, std::min(kPiece, c.size - done)});
  parallel_for(0, static_cast<int64_t>(pieces.size()), 1, [&](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i) {
      const PendingCopy& p = pieces[static_cast<size_t>(i)];
      file.read_into(p.file_offset, p.dst, p.size);
    }
  });
}

// What save_safetensors writes for one tensor, in file order.
struct Planned {
  const std::string* name;
  Tensor tensor;  // as given; written contiguous
  const safetensors::DTypeRow* row;
};

// Checks names and dtypes and sorts as the official writer does: by dtype, widest
// alignment first (descending enum position), then by name.
std::vector<Planned> plan(const std::vector<std::pair<std::string, Tensor>>& tensors) {
  std::vector<Planned> out;
  out.reserve(tensors.size());
  std::unordered_set<std::string_view> names;
  for (const auto& [name, t] : tensors) {
    TL_CHECK(t.defined(), ValueError, "save_safetensors: tensor {} is undefined", quote_text(name));
    if (auto err = utf8_error(name, /*allow_surrogates=*/false))
      TL_FAIL(ValueError, "save_safetensors: tensor name {} is not valid UTF-8 ({})", quote_text(name), *err);
    TL_CHECK(name != "__metadata__", ValueError,
             "save_safetensors: '__metadata__' is reserved for the header's metadata, not a tensor name");
    TL_CHECK(names.insert(name).second, ValueError, "save_safetensors: tensor name {} appears twice", quote_text(name));
    const safetensors::DTypeRow* row = safetensors::dtype_row(t.dtype());
    TL_CHECK(row != nullptr, UnsupportedError, "save_safetensors: safetensors has no dtype for {} (tensor {})",
             dtype_name(t.dtype()), quote_text(name));
    out.push_back({&name, t, row});
  }
  std::stable_sort(out.begin(), out.end(), [](const Planned& a, const Planned& b) {
    if (a.row->rank != b.row->rank) return a.row->rank > b.row->rank;
    return *a.name < *b.name;  // std::string compares bytes, as Rust's String does
  });
  return out;
}

// The header as the official writer prints it (serde_json, compact): __metadata__
// first, then each tensor's fields in declaration order, in data order; spaces pad it
// to a multiple of 8 so the data buffer starts 8-aligned.
std::string header_json(const std::vector<Planned>& planned, const std::map<std::string, std::string>& metadata) {
  nlohmann::ordered_json j = nlohmann::ordered_json::object();
  if (!metadata.empty()) {
    nlohmann::ordered_json m = nlohmann::ordered_json::object();
    for (const auto& [k, v] : metadata) {
      if (auto err = utf8_error(k, false)) TL_FAIL(ValueError, "save_safetensors: metadata key {} is not valid UTF-8 ({})", quote_text(k), *err);
      if (auto err = utf8_error(v, false))
        TL_FAIL(ValueError, "save_safetensors: metadata value of {} is not valid UTF-8 ({})", quote_text(k), *err);
      m[k] = v;
    }
    j["__metadata__"] = std::move(m);
  }
  uint64_t offset = 0;
  for (const Planned& p : planned) {
    nlohmann::ordered_json e = nlohmann::ordered_json::object();
    e["dtype"] = p.row->name;
    nlohmann::ordered_json shape = nlohmann::ordered_json::array();
    for (int64_t d : p.tensor.sizes()) shape.push_back(d);
    e["shape"] = std::move(shape);
    const uint64_t nbytes = p.tensor.nbytes();
    e["data_offsets"] = nlohmann::ordered_json::array({offset, offset + nbytes});
    offset += nbytes;
    j[*p.name] = std::move(e);
  }
  std::string text = j.dump();
  text.append((8 - text.size() % 8) % 8, ' ');
  TL_CHECK(text.size() <= safetensors::kMaxHeaderBytes, LimitError,
           "save_safetensors: the header would be {} bytes, over the {} the official reader accepts", text.size(),
           safetensors::kMaxHeaderBytes);
  return text;
}

}  // namespace

const Tensor* SafetensorsFile::find(const std::string& name) const {
  for (const auto& [n, t] : tensors)
    if (n == name) return &t;
  return nullptr;
}

SafetensorsHeader read_safetensors_header(const std::string& path) {
  auto file = MappedFile::open(path);  // maps; only the header's pages are read
  return safetensors::parse_header(file->bytes(), path);
}

bool looks_like_safetensors(const std::string& path) {
  try {
    auto file = MappedFile::open(path);
    return safetensors::has_safetensors_start(file->bytes());
  } catch (const Error&) {
    return false;
  }
}

SafetensorsFile load_safetensors(const std::string& path, LoadMode mode) {
  auto file = MappedFile::open(path);
  SafetensorsHeader h = safetensors::parse_header(file->bytes(), path);
  // Every dtype is checked before anything is allocated.
  for (const auto& t : h.tensors)
    TL_CHECK(t.dtype.has_value(), UnsupportedError,
             "{}: tensor {} has dtype {}, which torchlet's tensors do not have (it loads {})", path, quote_text(t.name),
             t.dtype_name, safetensors::loadable_dtype_names());
  SafetensorsFile out;
  out.metadata = std::move(h.metadata);
  out.tensors.reserve(h.tensors.size());
  HugePageArena arena;
  std::vector<PendingCopy> pending;
  for (auto& t : h.tensors) {
    const size_t offset = static_cast<size_t>(h.data_start + t.begin);
    const size_t nbytes = static_cast<size_t>(t.end - t.begin);
    const std::byte* src = file->data() + offset;
    const bool aligned = reinterpret_cast<uintptr_t>(src) % element_size(*t.dtype) == 0;
    Storage storage;
    if (nbytes == 0) {
      storage = make_storage(0);
    } else if (mode != LoadMode::Eager && aligned) {
      storage = make_intrusive<StorageImpl>(const_cast<std::byte*>(src), nbytes,
                                            std::static_pointer_cast<const void>(file));
    } else {
      HugePageArena::Buffer b = arena.allocate(nbytes);
      pending.push_back({offset, b.data, nbytes});
      storage = make_intrusive<StorageImpl>(b.data, nbytes, std::move(b.keepalive), /*owned=*/true);
    }
    Shape strides = contiguous_strides(t.shape);
    out.tensors.emplace_back(std::move(t.name),
                             Tensor(make_intrusive<TensorImpl>(std::move(storage), 0, std::move(t.shape),
                                                               std::move(strides), *t.dtype)));
  }
  copy_all(*file, pending);
  return out;
}

void save_safetensors(const std::vector<std::pair<std::string, Tensor>>& tensors, const std::string& path,
                      const std::map<std::string, std::string>& metadata, const SaveOptions& options) {
  std::vector<Planned> planned = plan(tensors);
  const std::string header = header_json(planned, metadata);
  // Only now, with everything checked, does the temporary file appear.
  std::unique_ptr<ZipSink> sink = make_atomic_file_sink(path, options.durable);
  const uint64_t n = header.size();
  std::byte length[8];
  std::memcpy(length, &n, 8);
  sink->write(length);
  sink->write(std::as_bytes(std::span<const char>(header.data(), header.size())));
  for (Planned& p : planned) {
    if (p.tensor.numel() == 0) continue;
    // One tensor at a time: a view or a strided tensor costs one copy of itself.
    Tensor c = p.tensor.contiguous();
    sink->write({static_cast<const std::byte*>(c.data_ptr()), c.nbytes()});
  }
  sink->commit();
}

}  // namespace torchlet

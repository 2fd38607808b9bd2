// Checkpoint loading and saving (torch.load / torch.save), over the zip layer and the
// pickle VM. Storages are resolved by key once, so tensors that shared a storage
// share it after load; on save, storages are numbered in order of first use, so views
// of one storage are written as one record, as torch does.
#include <torchlet/checkpoint.h>

#include <algorithm>
#include <bit>
#include <cstring>
#include <map>
#include <optional>
#include <unordered_map>

#include <fmt/format.h>

#include <torchlet/error.h>

#include "archive/crc32.h"
#include "archive/tar_reader.h"
#include "archive/zip_reader.h"
#include "archive/zip_writer.h"
#include "checkpoint/byte_order.h"
#include "checkpoint/zip_record.h"
#include "core/huge_page_arena.h"
#include "core/python_format.h"
#include "core/mapped_file.h"
#include "core/parallel.h"
#include "pickle/opcodes.h"
#include "pickle/pickler.h"
#include "pickle/unpickler.h"

namespace torchlet {

namespace {

// The legacy format's leading pickled magic number and protocol version.
constexpr std::string_view kLegacyMagicLong = "\x6c\xfc\x9c\x46\xf9\x20\x6a\xa8\x50\x19";
constexpr int64_t kLegacyProtocolVersion = 1001;
// Note [Records torch.save writes]
// torch 1.13 writes data.pkl, data/<key>..., version. torch 2.x (2.5 and later) writes
// data.pkl, .format_version, .storage_alignment, byteorder, data/<key>..., version,
// .data/serialization_id, in that order. torchlet writes the 2.x set: torch 1.13 reads
// the records it knows and ignores the others, and 2.x finds everything it looks for
// (byteorder, and the alignment its calculate_storage_offsets mode relies on).
// torch.save's file format version; torch writes "version" (not ".data/version")
// for formats below 6.
constexpr std::string_view kVersionRecord = "3\n";
constexpr std::string_view kFormatVersionRecord = "1";

// Note [Serialization id]
// torch 2.x's .data/serialization_id is 40 decimal digits: 20 of a combined hash of the
// record names written, then 20 of a combined hash of their CRC-32s (caffe2's
// writeSerializationId), so it follows from the content and a file saved twice is the
// same file. torch combines std::hash values in hash-set order, which no other program
// reproduces; torchlet mixes FNV-1a name hashes, and each record's CRC-32 and size, in
// write order. With compute_crc32 off the CRCs are 0, as in the file (and in torch);
// data.pkl's own CRC-32, computed here, still enters, so only files that differ in
// tensor bytes alone then share an id.
uint64_t mix(uint64_t h, uint64_t v) {
  uint64_t z = h ^ (v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2));  // c10::hash_combine's shape
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;  // then splitmix64's finalizer, so every bit counts
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

std::string serialization_id(const std::vector<ZipWriter::WrittenRecord>& records, uint32_t pickle_crc) {
  uint64_t names = 0, contents = mix(0, pickle_crc);
  for (const auto& r : records) {
    uint64_t h = 0xcbf29ce484222325ull;  // FNV-1a
    for (unsigned char c : r.name) h = (h ^ c) * 0x100000001b3ull;
    names = mix(names, h);
    contents = mix(mix(contents, r.crc), r.size);
  }
  return fmt::format("{:020d}{:020d}", names, contents);
}

bool starts_with(std::span<const std::byte> b, std::string_view prefix) {
  return b.size() >= prefix.size() && std::memcmp(b.data(), prefix.data(), prefix.size()) == 0;
}

struct StorageSource {
  std::span<const std::byte> bytes;  // in the mapping (or an inflated copy)
  std::shared_ptr<MappedFile> mapping;
  // A deflated record left unread (Metadata mode): its inflated size and file offset.
  std::optional<uint64_t> unread_size;
  uint64_t unread_offset = 0;

  static StorageSource of(std::span<const std::byte> b, std::shared_ptr<MappedFile> m) {
    StorageSource s;
    s.bytes = b;
    s.mapping = std::move(m);
    return s;
  }
  uint64_t size() const { return unread_size ? *unread_size : bytes.size(); }
  uint64_t file_offset() const {
    if (unread_size || !mapping) return unread_offset;
    return static_cast<uint64_t>(bytes.data() - mapping->data());
  }
};

// An eager load's copies of stored records from the mapped file: storages are carved
// from a huge-page arena (core/huge_page_arena.h says why) and filled once the pickle
// is parsed, all at once, across threads (copy_all).
struct EagerCopies {
  struct Copy {
    size_t file_offset;
    std::byte* dst;
    size_t size;
  };
  HugePageArena arena;
  std::vector<Copy> pending;

  Storage storage_for(size_t file_offset, size_t nbytes) {
    HugePageArena::Buffer b = arena.allocate(nbytes);
    pending.push_back({file_offset, b.data, nbytes});
    return make_intrusive<StorageImpl>(b.data, nbytes, std::move(b.keepalive), /*owned=*/true);
  }
  void copy_all(const MappedFile& file) const;
};

// pread in pieces of a few MiB, so one large storage is shared out too.
void EagerCopies::copy_all(const MappedFile& file) const {
  constexpr size_t kPiece = size_t{4} << 20;
  std::vector<Copy> pieces;
  for (const Copy& c : pending) {
    for (size_t done = 0; done < c.size; done += kPiece) {
      pieces.push_back({c.file_offset + done, c.dst + done, std::min(kPiece, c.size - done)});
    }
  }
  parallel_for(0, static_cast<int64_t>(pieces.size()), 1, [&](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i) {
      const Copy& p = pieces[static_cast<size_t>(i)];
      file.read_into(p.file_offset, p.dst, p.size);
    }
  });
}

// Makes the flat tensor a persistent storage id resolves to. With `eager`, a copy from
// the mapped file is queued there instead of done now.
Tensor make_storage_tensor(const StorageSource& src, DType dtype, int64_t numel, LoadMode mode,
                           bool big_endian, const std::string& what, EagerCopies* eager = nullptr) {
  const size_t itemsize = element_size(dtype);
  TL_CHECK(numel >= 0, FormatError, "{}: negative storage size {}", what, numel);
  uint64_t need;
  TL_CHECK(!__builtin_mul_overflow(static_cast<uint64_t>(numel), itemsize, &need) &&
               need == src.size(),
           FormatError, "{}: storage of {} {} elements needs {} bytes but its record holds {}", what,
           numel, dtype_name(dtype), static_cast<uint64_t>(numel) * itemsize, src.size());
  Storage storage;
  bool aligned = reinterpret_cast<uintptr_t>(src.bytes.data()) % std::max<size_t>(itemsize, 1) == 0;
  if (mode == LoadMode::Metadata && (src.unread_size || big_endian || !aligned)) {
    // Would need decoding to hold the right values: left unread (zero pages cost no
    // memory until touched).
    storage = make_storage(need, /*zero=*/true);
  } else if (mode != LoadMode::Eager && src.mapping && aligned && !big_endian) {
    storage = make_intrusive<StorageImpl>(const_cast<std::byte*>(src.bytes.data()), need,
                                          std::static_pointer_cast<const void>(src.mapping));
  } else if (eager && src.mapping && !big_endian) {
    storage = eager->storage_for(static_cast<size_t>(src.bytes.data() - src.mapping->data()), need);
  } else {
    storage = make_storage(need);
    if (need && src.mapping) {
      src.mapping->read_into(static_cast<size_t>(src.bytes.data() - src.mapping->data()), storage->data(), need);
    } else if (need) {
      std::memcpy(storage->data(), src.bytes.data(), need);
    }
    if (big_endian) big_endian_to_native(storage->data(), need, dtype);
  }
  return Tensor(make_intrusive<TensorImpl>(storage, 0, Shape{numel}, Shape{1}, dtype));
}

void report_location(const LoadOptions& options, std::string record, const Tensor& flat,
                     const StorageSource& src, bool deflated) {
  if (!options.storage_locations) return;
  options.storage_locations->push_back({std::move(record), flat.dtype(), flat.numel(), src.size(),
                                        src.file_offset(), deflated, flat.storage().get()});
}

// ('storage', <dtype>Storage, key, location, numel[, view_metadata]) -> its parts.
struct StorageId {
  DType dtype;
  std::string key;
  int64_t numel;
  IValue view_metadata;
};

StorageId parse_storage_id(const IValue& pid, const std::string& what) {
  TL_CHECK(pid.isTuple(), FormatError, "{}: persistent id is a {} (expected a tuple)", what, pid.tag_name());
  const auto& e = pid.tupleRef().elements;
  TL_CHECK(e.size() >= 5 && e[0].isString() && e[0].toStringRef() == "storage", FormatError,
           "{}: persistent id is not a ('storage', ...) tuple", what);
  TL_CHECK(e[1].isPyObject() && e[1].toPyObject()->is_reference, FormatError,
           "{}: storage type is a {}", what, e[1].tag_name());
  auto dtype = dtype_from_storage_class(e[1].toPyObject()->name);
  TL_CHECK(dtype.has_value(), FormatError, "{}: unknown storage type {}.{}", what,
           printable_text(e[1].toPyObject()->module), printable_text(e[1].toPyObject()->name));
  TL_CHECK(e[2].isString(), FormatError, "{}: storage key is a {}", what, e[2].tag_name());
  TL_CHECK(e[4].isInt(), FormatError, "{}: storage size is a {}", what, e[4].tag_name());
  // e[3] is the location ("cpu", "cuda:0"): torchlet maps every storage to the CPU,
  // as torch.load(map_location="cpu") does.
  return {*dtype, e[2].toStringRef(), e[4].toInt(), e.size() > 5 ? e[5] : IValue()};
}

void refuse_torchscript(const ZipReader& zip, const std::string& path) {
  TL_CHECK(!zip.has_record("constants.pkl") && !zip.has_record("code/__torch__.py"), UnsupportedError,
           "{}: this is a TorchScript archive (torch.jit.save), not a torch.save checkpoint; load "
           "it with the TorchScript loader, torchlet::jit::load (torch.jit.load)",
           path);
}

IValue load_zip(const ZipReader& zip, const std::string& path, const LoadOptions& options) {
  refuse_torchscript(zip, path);
  TL_CHECK(zip.has_record("data.pkl"), FormatError, "{}: zip archive has no data.pkl record "
           "(not a torch.save checkpoint)", path);
  return unpickle_zip_record(zip, path, "data.pkl", "data/", options, nullptr);
}

}  // namespace

IValue unpickle_zip_record(const ZipReader& zip, const std::string& path, const std::string& record,
                           const std::string& storage_dir, const LoadOptions& options,
                           const pickle::ClassResolver& class_resolver) {
  bool big_endian = options.endianness == LoadEndianness::Big ||
                    (options.endianness == LoadEndianness::Native && std::endian::native == std::endian::big);
  if (const ZipRecord* bo = zip.find("byteorder")) {
    std::string order = zip.read(*bo);
    TL_CHECK(order == "little" || order == "big", FormatError, "{}: byteorder record says '{}'", path,
             printable_text(order));
    big_endian = order == "big";
  }
  std::string pkl = zip.read(record, options.verify_crc32);
  std::unordered_map<std::string, Tensor> storages;
  // Eager copies wait until the pickle is parsed, then run in parallel. Only for
  // checkpoints: a TorchScript class's __setstate__ runs during unpickling and may read
  // its tensors.
  EagerCopies eager;
  const bool defer_copies = options.mode == LoadMode::Eager && !class_resolver && zip.mapping();
  pickle::UnpicklerOptions uo;
  uo.inert_unknown_globals = options.inert_unknown_globals;
  uo.safe_globals = options.safe_globals;
  uo.class_resolver = class_resolver;
  const std::string label = path + "/" + record;
  uo.persistent_load = [&](const IValue& pid) -> IValue {
    StorageId id = parse_storage_id(pid, label);
    auto it = storages.find(id.key);
    if (it != storages.end()) {
      TL_CHECK(it->second.dtype() == id.dtype && it->second.numel() == id.numel, FormatError,
               "{}: storage '{}' is used as {} x {} and as {} x {}", label, printable_text(id.key),
               it->second.numel(), dtype_name(it->second.dtype()), id.numel, dtype_name(id.dtype));
      return IValue(it->second);
    }
    const ZipRecord& rec = zip.get(storage_dir + id.key);
    StorageSource src;
    std::string inflated;
    if (rec.method == 0) {
      src = StorageSource::of(zip.stored_bytes(rec), zip.mapping());
      if (options.verify_crc32) zip.verify_crc(rec);
    } else if (options.mode == LoadMode::Metadata) {
      src.unread_size = rec.uncompressed_size;
      src.unread_offset = rec.data_offset;
    } else {
      inflated = zip.read(rec, options.verify_crc32);
      src = StorageSource::of(std::as_bytes(std::span<const char>(inflated.data(), inflated.size())), nullptr);
      src.unread_offset = rec.data_offset;
    }
    Tensor t = make_storage_tensor(src, id.dtype, id.numel, options.mode, big_endian,
                                   path + "/" + storage_dir + id.key, defer_copies ? &eager : nullptr);
    storages.emplace(id.key, t);
    report_location(options, storage_dir + id.key, t, src, rec.method != 0);
    return IValue(t);
  };
  IValue value = pickle::unpickle(std::as_bytes(std::span<const char>(pkl.data(), pkl.size())), uo, label);
  if (defer_copies) eager.copy_all(*zip.mapping());
  return value;
}

namespace {

// The legacy stream: pickle(magic) pickle(protocol) pickle(sys_info) pickle(obj)
// pickle([keys]) then per key: int64 element count + raw bytes.
IValue load_legacy(const std::shared_ptr<MappedFile>& file, const std::string& path,
                   const LoadOptions& options) {
  std::span<const std::byte> all = file->bytes();
  size_t pos = 0;
  auto next_pickle = [&](const char* what) {
    size_t n = pickle::pickle_length(all.subspan(pos), path + " (" + what + ")");
    auto span = all.subspan(pos, n);
    pos += n;
    return span;
  };
  pickle::UnpicklerOptions plain;
  IValue magic = pickle::unpickle(next_pickle("magic number"), plain, path + " (magic number)");
  TL_CHECK(magic.isBigInt() && magic.toBigInt()->bytes == kLegacyMagicLong, FormatError,
           "{}: not a PyTorch checkpoint (bad magic number)", path);
  IValue proto = pickle::unpickle(next_pickle("protocol version"), plain, path + " (protocol)");
  TL_CHECK(proto.isInt() && proto.toInt() == kLegacyProtocolVersion, UnsupportedError,
           "{}: legacy checkpoint protocol {} is not supported (expected {})", path, printable_text(proto.repr(), false),
           kLegacyProtocolVersion);
  IValue sys_info = pickle::unpickle(next_pickle("sys_info"), plain, path + " (sys_info)");
  bool big_endian = false;
  if (sys_info.isDict()) {
    if (const IValue* le = sys_info.dictRef().find(IValue("little_endian")); le && le->isBool()) big_endian = !le->toBool();
  }
  std::span<const std::byte> obj_pickle = next_pickle("object");
  IValue keys = pickle::unpickle(next_pickle("storage keys"), plain, path + " (storage keys)");
  TL_CHECK(keys.isList(), FormatError, "{}: storage key list is a {}", path, keys.tag_name());
  // Locate every storage's bytes: they follow in key order.
  std::unordered_map<std::string, std::span<const std::byte>> raw;
  std::vector<std::string> order;
  for (const auto& k : keys.listRef().elements) {
    TL_CHECK(k.isString(), FormatError, "{}: storage key is a {}", path, k.tag_name());
    order.push_back(k.toStringRef());
  }
  // Storage element sizes come from the object pickle's ids; parse it once to learn
  // them, then map keys to byte ranges.
  std::unordered_map<std::string, std::pair<DType, int64_t>> declared;
  std::unordered_map<std::string, Tensor> storages;
  pickle::UnpicklerOptions uo;
  uo.inert_unknown_globals = options.inert_unknown_globals;
  uo.safe_globals = options.safe_globals;
  const std::string label = path + " (object pickle)";
  bool locating = true;
  uo.persistent_load = [&](const IValue& pid) -> IValue {
    StorageId id = parse_storage_id(pid, label);
    if (locating) {
      declared.emplace(id.key, std::make_pair(id.dtype, id.numel));
      // A placeholder big enough for any view during this first pass.
      return IValue(Tensor(make_intrusive<TensorImpl>(make_storage(0), 0, Shape{INT64_MAX / 16},
                                                      Shape{1}, id.dtype)));
    }
    auto it = storages.find(id.key);
    TL_CHECK(it != storages.end(), FormatError, "{}: storage '{}' has no data", label, printable_text(id.key));
    Tensor root = it->second;
    if (id.view_metadata.isTuple()) {
      const auto& v = id.view_metadata.tupleRef().elements;
      TL_CHECK(v.size() == 3 && v[1].isInt() && v[2].isInt(), FormatError, "{}: bad storage view", label);
      return IValue(root.narrow(0, v[1].toInt(), v[2].toInt()));
    }
    return IValue(root);
  };
  {
    pickle::UnpicklerOptions first = uo;
    first.persistent_load = uo.persistent_load;
    IValue ignored = pickle::unpickle(obj_pickle, first, label);
  }
  locating = false;
  for (const auto& key : order) {
    auto d = declared.find(key);
    TL_CHECK(d != declared.end(), FormatError, "{}: storage '{}' is listed but never used", path,
             printable_text(key));
    TL_CHECK(pos + 8 <= all.size(), FormatError, "{}: truncated before storage '{}'", path, printable_text(key));
    int64_t count;
    std::memcpy(&count, all.data() + pos, 8);
    pos += 8;
    size_t itemsize = element_size(d->second.first);
    TL_CHECK(count >= 0 && static_cast<uint64_t>(count) <= (all.size() - pos) / std::max<size_t>(itemsize, 1),
             FormatError, "{}: storage '{}' claims {} elements, more than the file holds", path, printable_text(key),
             count);
    StorageSource src = StorageSource::of(all.subspan(pos, static_cast<size_t>(count) * itemsize), file);
    pos += static_cast<size_t>(count) * itemsize;
    Tensor flat = make_storage_tensor(src, d->second.first, count, options.mode, big_endian,
                                      path + " storage " + printable_text(key));
    storages.emplace(key, flat);
    report_location(options, "storage " + key, flat, src, false);
  }
  return pickle::unpickle(obj_pickle, uo, label);
}

// A sequence of pickles and raw blocks inside one tar member.
class MemberCursor {
 public:
  MemberCursor(std::span<const std::byte> bytes, std::string label, std::vector<pickle::GlobalUse>* seen)
      : bytes_(bytes), label_(std::move(label)), seen_(seen) {}
  IValue next_pickle() {
    size_t n = pickle::pickle_length(bytes_.subspan(pos_), label_);
    pickle::UnpicklerOptions plain;
    plain.globals_seen = seen_;
    IValue v = pickle::unpickle(bytes_.subspan(pos_, n), plain, label_);
    pos_ += n;
    return v;
  }
  // A pickled non-negative count ("how many storages/tensors follow").
  int64_t next_count(const char* what) {
    IValue count = next_pickle();
    TL_CHECK(count.isInt() && count.toInt() >= 0, FormatError, "{}: {} count is {}", label_, what,
             printable_text(count.repr(), false));
    return count.toInt();
  }
  // A pickled tuple of exactly n items (a storage or tensor header).
  IValue next_tuple(size_t n, const char* what) {
    IValue t = next_pickle();
    TL_CHECK(t.isTuple() && t.tupleRef().elements.size() == n, FormatError, "{}: {} is not a {}-tuple",
             label_, what, n);
    return t;
  }
  template <typename T>
  T next_raw(const char* what) {
    TL_CHECK(sizeof(T) <= bytes_.size() - pos_, FormatError, "{}: truncated {}", label_, what);
    T v;
    std::memcpy(&v, bytes_.data() + pos_, sizeof(T));
    pos_ += sizeof(T);
    return v;
  }
  std::span<const std::byte> next_bytes(uint64_t n, const char* what) {
    TL_CHECK(n <= bytes_.size() - pos_, FormatError, "{}: {} of {} bytes runs past the member", label_, what, n);
    auto s = bytes_.subspan(pos_, static_cast<size_t>(n));
    pos_ += static_cast<size_t>(n);
    return s;
  }

 private:
  std::span<const std::byte> bytes_;
  std::string label_;
  std::vector<pickle::GlobalUse>* seen_;
  size_t pos_ = 0;
};

// Keys in the tar format are ints (Python id()s) or their text; compare as text.
std::string key_text(const IValue& v, const std::string& label) {
  if (v.isInt()) return std::to_string(v.toInt());
  TL_CHECK(v.isString(), FormatError, "{}: key is a {}", label, v.tag_name());
  return v.toStringRef();
}

DType storage_class_dtype(const IValue& cls, const std::string& label) {
  TL_CHECK(cls.isPyObject() && cls.toPyObject()->is_reference, FormatError, "{}: storage type is a {}",
           label, cls.tag_name());
  auto d = dtype_from_storage_class(cls.toPyObject()->name);
  TL_CHECK(d.has_value(), FormatError, "{}: unknown storage type {}.{}", label,
           printable_text(cls.toPyObject()->module), printable_text(cls.toPyObject()->name));
  return *d;
}

// The oldest format (PyTorch < 0.4): a tar of 'storages' (count, then per storage a
// pickled (key, location, type), an int64 element count and the bytes; then storage
// views), 'tensors' (count, then per tensor a pickled (key, storage key, type), int32
// ndim + 4 pad bytes, sizes, strides, offset as int64) and 'pickle' (the object, whose
// persistent ids are the tensor and storage keys).
// `seen`, when set, collects every global the pickles name (for scan).
IValue load_tar(const std::shared_ptr<MappedFile>& file, const std::string& path, const LoadOptions& options,
                std::vector<pickle::GlobalUse>* seen = nullptr) {
  TarReader tar(file->bytes(), path);
  std::unordered_map<std::string, Tensor> objects;  // storages (flat tensors) and tensors
  {
    const std::string label = path + "/storages";
    MemberCursor in(tar.get("storages"), label, seen);
    for (int64_t i = 0, n = in.next_count("storage"); i < n; ++i) {
      IValue args = in.next_tuple(3, "storage header (key, location, type)");
      const auto& a = args.tupleRef().elements;
      DType dtype = storage_class_dtype(a[2], label);
      int64_t numel = in.next_raw<int64_t>("storage size");
      TL_CHECK(numel >= 0 && static_cast<uint64_t>(numel) <= UINT64_MAX / 16, FormatError,
               "{}: storage size {}", label, numel);
      auto bytes = in.next_bytes(static_cast<uint64_t>(numel) * element_size(dtype), "storage");
      StorageSource src = StorageSource::of(bytes, file);
      Tensor flat = make_storage_tensor(src, dtype, numel, options.mode, false, label);
      objects[key_text(a[0], label)] = flat;
      report_location(options, "storages", flat, src, false);
    }
    IValue views = in.next_pickle();
    TL_CHECK(views.isList(), FormatError, "{}: storage views are a {}", label, views.tag_name());
    for (const auto& v : views.listRef().elements) {
      TL_CHECK(v.isTuple() && v.tupleRef().elements.size() == 4, FormatError, "{}: bad storage view", label);
      const auto& e = v.tupleRef().elements;
      auto root = objects.find(key_text(e[1], label));
      TL_CHECK(root != objects.end() && e[2].isInt() && e[3].isInt(), FormatError,
               "{}: storage view of an unknown storage", label);
      objects[key_text(e[0], label)] = pickle::checked_storage_view(root->second, e[2].toInt(),
                                                                    {e[3].toInt()}, {1}, label);
    }
  }
  {
    const std::string label = path + "/tensors";
    MemberCursor in(tar.get("tensors"), label, seen);
    for (int64_t i = 0, n = in.next_count("tensor"); i < n; ++i) {
      IValue args = in.next_tuple(3, "tensor header (key, storage key, type)");
      const auto& a = args.tupleRef().elements;
      auto storage = objects.find(key_text(a[1], label));
      TL_CHECK(storage != objects.end(), FormatError, "{}: tensor of unknown storage {}", label,
               printable_text(a[1].repr(), false));
      int32_t ndim = in.next_raw<int32_t>("ndim");
      (void)in.next_raw<int32_t>("padding");  // ndim was once written as 8 bytes
      TL_CHECK(ndim >= 0 && ndim <= 64, FormatError, "{}: tensor with {} dimensions", label, ndim);
      Shape sizes(static_cast<size_t>(ndim)), strides(static_cast<size_t>(ndim));
      for (auto& x : sizes) x = in.next_raw<int64_t>("size");
      for (auto& x : strides) x = in.next_raw<int64_t>("stride");
      int64_t offset = in.next_raw<int64_t>("storage offset");
      Tensor flat = storage->second;
      if (flat.dim() != 1 || flat.stride(0) != 1) flat = flat.contiguous();
      objects[key_text(a[0], label)] =
          pickle::checked_storage_view(flat, offset, std::move(sizes), std::move(strides), label);
    }
  }
  pickle::UnpicklerOptions uo;
  uo.inert_unknown_globals = options.inert_unknown_globals;
  uo.safe_globals = options.safe_globals;
  uo.globals_seen = seen;
  const std::string label = path + "/pickle";
  uo.persistent_load = [&](const IValue& pid) -> IValue {
    TL_CHECK(!pid.isTuple(), UnsupportedError,
             "{}: pickled module source references (whole-model tar checkpoints) are not supported", label);
    auto it = objects.find(key_text(pid, label));
    TL_CHECK(it != objects.end(), FormatError, "{}: persistent id {} names no tensor or storage", label,
             printable_text(pid.repr(), false));
    return IValue(it->second);
  };
  return pickle::unpickle(tar.get("pickle"), uo, label);
}

}  // namespace

CheckpointFormat detect_checkpoint_format(const std::string& path) {
  auto file = MappedFile::open(path);
  auto b = file->bytes();
  if (starts_with(b, "PK\x03\x04") || starts_with(b, "PK\x05\x06")) return CheckpointFormat::Zip;
  if (looks_like_tar(b)) return CheckpointFormat::Tar;
  // A legacy stream opens with the pickled magic number, in whatever protocol torch.save
  // was given: PROTO 2-5 then LONG1 (or a FRAME first, from 4), or protocol 0/1's LONG
  // text. load_legacy checks the number itself.
  const bool proto_2_to_5 = b.size() > 2 && b[0] == std::byte{0x80} && b[1] >= std::byte{2} && b[1] <= std::byte{5};
  TL_CHECK(proto_2_to_5 || starts_with(b, "L119547037146038801333356L"), FormatError,
           "{}: not a PyTorch checkpoint (neither a zip archive nor a legacy pickle stream)", path);
  return CheckpointFormat::Legacy;
}

bool is_torchscript_archive(const std::string& path) {
  if (detect_checkpoint_format(path) != CheckpointFormat::Zip) return false;
  ZipReader zip = ZipReader::open(path);
  if (zip.has_record("constants.pkl")) return true;
  for (const auto& r : zip.records())
    if (r.name.rfind(zip.root() + "/code/", 0) == 0) return true;
  return false;
}

IValue load(const std::string& path, const LoadOptions& options) {
  switch (detect_checkpoint_format(path)) {
    case CheckpointFormat::Zip: {
      ZipReader zip = ZipReader::open(path);
      return load_zip(zip, path, options);
    }
    case CheckpointFormat::Legacy:
      return load_legacy(MappedFile::open(path), path, options);
    case CheckpointFormat::Tar:
      return load_tar(MappedFile::open(path), path, options);
  }
  TL_FAIL(InternalError, "unknown checkpoint format");
}

void save(const IValue& value, const std::string& path, const SaveOptions& options) {
  // Storages in order of first use; the key is that position, as torch numbers them.
  struct Saved {
    Storage storage;
    DType dtype;
  };
  std::vector<Saved> saved;
  std::unordered_map<const StorageImpl*, size_t> index;
  pickle::PicklerOptions po;
  po.storage_key = [&](const Storage& s, DType dtype) -> std::string {
    auto it = index.find(s.get());
    if (it != index.end()) {
      TL_CHECK(saved[it->second].dtype == dtype, UnsupportedError,
               "cannot save one storage viewed as both {} and {}", dtype_name(saved[it->second].dtype),
               dtype_name(dtype));
      return std::to_string(it->second);
    }
    index.emplace(s.get(), saved.size());
    saved.push_back({s, dtype});
    return std::to_string(saved.size() - 1);
  };
  const size_t alignment = options.storage_alignment;
  TL_CHECK(alignment >= 1 && alignment <= 32768 && std::has_single_bit(alignment), ValueError,
           "storage_alignment must be a power of two from 1 to 32768, not {}", alignment);
  std::string pkl = pickle::pickle(value, po);
  ZipWriterOptions wo;
  wo.compute_crc32 = options.compute_crc32;
  wo.fsync = options.durable;
  wo.alignment = alignment;
  ZipWriter w(path, "archive", wo);
  // Note [Records torch.save writes]
  w.write_record("data.pkl", pkl);
  w.write_record(".format_version", kFormatVersionRecord);
  w.write_record(".storage_alignment", std::to_string(alignment));
  w.write_record("byteorder", "little");
  // Storages in numeric key order ("0", "1", ..., "9", "10"), as torch 2.x writes them:
  // .format_version "1" promises exactly that, and torch 2.x's
  // calculate_storage_offsets mode computes each storage's offset from the previous
  // one on that promise. (torch 1.13 sorted the keys as strings; any order loads.)
  std::vector<std::span<const std::byte>> data;
  for (const Saved& s : saved) {
    size_t nbytes = s.storage->nbytes() / element_size(s.dtype) * element_size(s.dtype);
    data.emplace_back(s.storage->data(), nbytes);
  }
  // Their CRCs run ahead on another thread while this one writes (a save is then as long
  // as its copy into the page cache).
  std::optional<Crc32Ahead> crcs;
  if (options.compute_crc32) crcs.emplace(data);
  for (size_t i = 0; i < data.size(); ++i) {
    w.write_record("data/" + std::to_string(i), data[i], [&] { return crcs->get(i); });
  }
  w.write_record("version", kVersionRecord);
  // Note [Serialization id]
  const uint32_t pickle_crc = crc32(0, std::as_bytes(std::span<const char>(pkl.data(), pkl.size())));
  w.write_record(".data/serialization_id", serialization_id(w.written_records(), pickle_crc));
  w.finalize();
}

std::vector<GlobalReport> scan(const std::string& path) {
  std::vector<GlobalReport> out;
  auto collect = [&](std::span<const std::byte> bytes, const std::string& record) {
    std::vector<pickle::GlobalUse> uses;
    pickle::UnpicklerOptions uo;
    uo.inert_unknown_globals = true;  // keep parsing past unknown globals to list them all
    uo.globals_seen = &uses;
    uo.globals_only = true;
    uo.persistent_load = [](const IValue&) { return IValue(); };
    try {
      IValue v = pickle::unpickle(bytes, uo, path + "/" + record);
    } catch (const Error&) {
      // A malformed pickle still reports the globals seen before the error; the
      // loader would refuse the file anyway.
    }
    for (auto& u : uses) out.push_back({record, u.module, u.name, u.opcode, u.allowed});
  };
  if (detect_checkpoint_format(path) == CheckpointFormat::Tar) {
    // The loader itself, reading no tensor bytes, with every global recorded.
    std::vector<pickle::GlobalUse> uses;
    LoadOptions opt;
    opt.mode = LoadMode::Metadata;
    opt.inert_unknown_globals = true;
    try {
      IValue v = load_tar(MappedFile::open(path), path, opt, &uses);
    } catch (const Error&) {
      // globals seen before the error are still reported
    }
    for (auto& u : uses) out.push_back({"tar", u.module, u.name, u.opcode, u.allowed});
    return out;
  }
  if (detect_checkpoint_format(path) == CheckpointFormat::Zip) {
    ZipReader zip = ZipReader::open(path);
    for (const auto& r : zip.records()) {
      std::string below = zip.root().empty() ? r.name : r.name.substr(zip.root().size() + 1);
      if (below.size() > 4 && below.ends_with(".pkl")) {
        std::string bytes = zip.read(r);
        collect(std::as_bytes(std::span<const char>(bytes.data(), bytes.size())), below);
      }
    }
    return out;
  }
  auto file = MappedFile::open(path);
  // Legacy: scan the whole stream's pickles in turn.
  std::span<const std::byte> all = file->bytes();
  size_t pos = 0;
  for (int i = 0; i < 5 && pos < all.size(); ++i) {
    size_t n;
    try {
      n = pickle::pickle_length(all.subspan(pos), path);
    } catch (const Error&) {
      break;
    }
    collect(all.subspan(pos, n), "pickle " + std::to_string(i));
    pos += n;
  }
  return out;
}

}  // namespace torchlet

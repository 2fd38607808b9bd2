// Protocol-2 pickling of IValues (see pickler.h). Each kind of value has one writer;
// memoization is by object identity for heap values (strings included) and by name for
// globals, mirroring what Python's pickler does for torch.save's objects; see
// Note [String identity] for the strings the pickler makes itself.
#include "pickle/pickler.h"

#include <bit>
#include <cstring>
#include <map>
#include <optional>
#include <unordered_map>

#include <torchlet/error.h>

#include "core/python_format.h"
#include "values/type.h"
#include "pickle/opcodes.h"

namespace torchlet::pickle {

namespace {

// Python's pickler writes SETITEMS/APPENDS in batches of this many items.
constexpr size_t kBatchSize = 1000;
constexpr int kProtocol = 2;
// save() recurses once per level of nesting, so a value nested deeper than this is
// refused instead of overflowing the C++ stack (Python's pickler stops at its
// recursion limit, 1000, too). Real checkpoints nest a few levels; a tensor adds
// three; torchlet's own unpickler reads up to 1000.
constexpr size_t kMaxDepth = 2000;

class Pickler {
 public:
  explicit Pickler(const PicklerOptions& options) : options_(options) {}

  std::string run(const IValue& v) {
    op(Op::PROTO);
    out_.push_back(static_cast<char>(kProtocol));
    save(v);
    op(Op::STOP);
    return std::move(out_);
  }

 private:
  void op(Op o) { out_.push_back(static_cast<char>(o)); }
  void u32(uint32_t v) {
    char b[4];
    std::memcpy(b, &v, 4);
    out_.append(b, 4);
  }

  // --- memo ---------------------------------------------------------------------------
  void memoize_index(uint32_t idx) {
    if (idx < 256) {
      op(Op::BINPUT);
      out_.push_back(static_cast<char>(idx));
    } else {
      op(Op::LONG_BINPUT);
      u32(idx);
    }
  }
  uint32_t next_memo() { return memo_count_++; }
  // Memoizes a heap value by identity. The memo keeps it alive, as Python's memo
  // does, so a temporary freed mid-pickle cannot hand its address to another value
  // and be mistaken for it.
  void memoize(const IValue& v) {
    uint32_t idx = next_memo();
    memo_[v.heapPtr()] = idx;
    keep_alive_.push_back(v);
    memoize_index(idx);
  }
  bool get(uint32_t idx) {
    if (idx < 256) {
      op(Op::BINGET);
      out_.push_back(static_cast<char>(idx));
    } else {
      op(Op::LONG_BINGET);
      u32(idx);
    }
    return true;
  }
  bool try_get(const RefCounted* p) {
    auto it = memo_.find(p);
    return it != memo_.end() && get(it->second);
  }

  // --- scalars and strings --------------------------------------------------------------
  [[gnu::noinline]] void save_int(int64_t v) {
    if (v >= 0 && v < 256) {
      op(Op::BININT1);
      out_.push_back(static_cast<char>(v));
    } else if (v >= 0 && v < 65536) {
      op(Op::BININT2);
      out_.push_back(static_cast<char>(v & 0xff));
      out_.push_back(static_cast<char>(v >> 8));
    } else if (v >= INT32_MIN && v <= INT32_MAX) {
      op(Op::BININT);
      u32(static_cast<uint32_t>(static_cast<int32_t>(v)));
    } else {
      save_long_bytes(int64_to_long_bytes(v));
    }
  }
  [[gnu::noinline]] void save_long_bytes(const std::string& le) {
    if (le.size() < 256) {
      op(Op::LONG1);
      out_.push_back(static_cast<char>(le.size()));
    } else {
      op(Op::LONG4);
      u32(static_cast<uint32_t>(le.size()));
    }
    out_ += le;
  }
  [[gnu::noinline]] void save_float(double d) {
    op(Op::BINFLOAT);
    uint64_t be = __builtin_bswap64(std::bit_cast<uint64_t>(d));
    char b[8];
    std::memcpy(b, &be, 8);
    out_.append(b, 8);
  }
  // Note [String identity]
  // Python memoizes a str by object identity, so equal texts that are different
  // objects are written twice: a state_dict's `_metadata` keys "0" and "1" are not the
  // storage keys "0" and "1", and a device's type is a fresh str on every reduce.
  // Strings from the value being saved are therefore memoized by identity (save()),
  // and the ones torch.save's code makes itself by their source: literals ('storage',
  // 'cpu', 'latin1') are one interned object each, and a storage's key is one str
  // per storage (torch's id_map). That is what makes the output byte-identical to
  // torch.save for the same object graph.
  enum class StrSource : uint8_t { Literal, StorageKey };
  void write_str(const std::string& s) {
    op(Op::BINUNICODE);
    u32(static_cast<uint32_t>(s.size()));
    out_ += s;
  }
  [[gnu::noinline]] void save_made_str(const std::string& s, StrSource source) {
    auto& memo = source == StrSource::Literal ? literal_memo_ : storage_key_memo_;
    auto it = memo.find(s);
    if (it != memo.end()) {
      get(it->second);
      return;
    }
    write_str(s);
    uint32_t idx = next_memo();
    memo[s] = idx;
    memoize_index(idx);
  }
  [[gnu::noinline]] void save_global(const std::string& module, const std::string& name) {
    std::string key = module + "\n" + name;
    auto it = global_memo_.find(key);
    if (it != global_memo_.end()) {
      get(it->second);
      return;
    }
    op(Op::GLOBAL);
    out_ += module + "\n" + name + "\n";
    uint32_t idx = next_memo();
    global_memo_[key] = idx;
    memoize_index(idx);
  }

  // --- containers -------------------------------------------------------------------------
  // Python's save_tuple: () -> EMPTY_TUPLE (not memoized); up to 3 items -> TUPLEn; else
  // MARK ... TUPLE; then memoize.
  void save_tuple_items(const std::vector<IValue>& items, const IValue* identity) {
    if (items.empty()) {
      op(Op::EMPTY_TUPLE);
      return;
    }
    if (items.size() <= 3) {
      for (const auto& e : items) save(e);
      op(static_cast<Op>(static_cast<uint8_t>(Op::TUPLE1) + items.size() - 1));
    } else {
      op(Op::MARK);
      for (const auto& e : items) save(e);
      op(Op::TUPLE);
    }
    if (identity) memoize(*identity);
    else memoize_index(next_memo());
  }
  void batch_appends(const std::vector<IValue>& items) {
    for (size_t i = 0; i < items.size(); i += kBatchSize) {
      size_t n = std::min(kBatchSize, items.size() - i);
      // torch's TorchScript unpickler has no APPEND/SETITEM: archives always batch.
      if (n == 1 && !options_.torchscript) {
        save(items[i]);
        op(Op::APPEND);
        continue;
      }
      op(Op::MARK);
      for (size_t j = i; j < i + n; ++j) save(items[j]);
      op(Op::APPENDS);
    }
  }
  void batch_setitems(const std::vector<std::pair<IValue, IValue>>& items) {
    for (size_t i = 0; i < items.size(); i += kBatchSize) {
      size_t n = std::min(kBatchSize, items.size() - i);
      if (n == 1 && !options_.torchscript) {
        save(items[i].first);
        save(items[i].second);
        op(Op::SETITEM);
        continue;
      }
      op(Op::MARK);
      for (size_t j = i; j < i + n; ++j) {
        save(items[j].first);
        save(items[j].second);
      }
      op(Op::SETITEMS);
    }
  }

  void save_list(const IValue& v) {
    const ListImpl& l = v.listRef();
    switch (l.py_kind) {
      case PyContainerKind::Set:
      case PyContainerKind::FrozenSet: {
        // Protocol 2 has no set opcodes: set([items]) through REDUCE, as Python writes it.
        save_global("__builtin__", l.py_kind == PyContainerKind::Set ? "set" : "frozenset");
        op(Op::EMPTY_LIST);
        memoize_index(next_memo());
        batch_appends(l.elements);
        op(Op::TUPLE1);
        memoize_index(next_memo());
        op(Op::REDUCE);
        memoize(v);
        return;
      }
      case PyContainerKind::List:
      // The dict/tuple kinds never mark a list; a list is written as a list regardless.
      case PyContainerKind::Dict:
      case PyContainerKind::OrderedDict:
      case PyContainerKind::Counter:
      case PyContainerKind::Tuple:
      case PyContainerKind::TorchSize:
        op(Op::EMPTY_LIST);
        memoize(v);
        batch_appends(l.elements);
        return;
    }
  }

  void save_dict(const IValue& v) {
    const DictImpl& d = v.dictRef();
    if (d.py_kind == PyContainerKind::OrderedDict) {
      save_global("collections", "OrderedDict");
      op(Op::EMPTY_TUPLE);
      op(Op::REDUCE);
      memoize(v);
      batch_setitems(d.items());
      if (IValue* state = const_cast<DictImpl&>(d).py_state()) {
        save(*state);
        op(Op::BUILD);
      }
      return;
    }
    if (d.py_kind == PyContainerKind::Counter) {
      // Counter's __reduce__, as Python pickles it: Counter(dict(self)).
      save_global("collections", "Counter");
      op(Op::EMPTY_DICT);
      memoize_index(next_memo());
      batch_setitems(d.items());
      op(Op::TUPLE1);
      memoize_index(next_memo());
      op(Op::REDUCE);
      memoize(v);
      return;
    }
    op(Op::EMPTY_DICT);
    memoize(v);
    batch_setitems(d.items());
  }

  void save_reduce_call(const std::string& module, const std::string& name,
                        const std::vector<IValue>& args, const IValue* identity) {
    save_global(module, name);
    save_tuple_items(args, nullptr);
    op(Op::REDUCE);
    if (identity) memoize(*identity);
    else memoize_index(next_memo());
  }

  // torch.save's tensor: _rebuild_tensor_v2((storage pid), offset, size, stride,
  // requires_grad, OrderedDict()), wrapped in _rebuild_parameter for Parameters.
  [[gnu::noinline]] void save_tensor(const IValue& v) {
    Tensor t = v.toTensor();
    TL_CHECK(static_cast<bool>(options_.storage_key), InternalError, "pickler: tensors need storage_key");
    TL_CHECK(!dtype_info(t.dtype()).storage_class.empty(), UnsupportedError,
             "cannot save a {} tensor: torch has no storage class for it", dtype_repr(t.dtype()));
    const bool param = t.impl()->is_parameter_;
    if (param) save_global("torch._utils", "_rebuild_parameter");
    save_global("torch._utils", "_rebuild_tensor_v2");
    op(Op::MARK);
    // The persistent id tuple.
    op(Op::MARK);
    save_made_str("storage", StrSource::Literal);
    save_global("torch", std::string(dtype_info(t.dtype()).storage_class));
    save_made_str(options_.storage_key(t.storage(), t.dtype()), StrSource::StorageKey);
    save_made_str("cpu", StrSource::Literal);
    save_int(static_cast<int64_t>(t.storage()->nbytes() / t.element_size()));
    op(Op::TUPLE);
    memoize_index(next_memo());
    op(Op::BINPERSID);
    save_int(t.storage_offset());
    save_tuple_items(int_values(t.sizes()), nullptr);
    save_tuple_items(int_values(t.strides()), nullptr);
    save(IValue(param ? false : t.requires_grad()));
    save_empty_ordered_dict();
    op(Op::TUPLE);
    memoize_index(next_memo());
    op(Op::REDUCE);
    if (!param) {
      memoize(v);
      return;
    }
    memoize_index(next_memo());
    save(IValue(t.requires_grad()));
    save_empty_ordered_dict();
    op(Op::TUPLE3);
    memoize_index(next_memo());
    op(Op::REDUCE);
    memoize(v);
  }
  void save_empty_ordered_dict() {
    save_global("collections", "OrderedDict");
    op(Op::EMPTY_TUPLE);
    op(Op::REDUCE);
    memoize_index(next_memo());
  }
  static std::vector<IValue> int_values(IntList l) {
    std::vector<IValue> out;
    for (int64_t x : l) out.emplace_back(x);
    return out;
  }

  // Python's save_bytes below protocol 3: _codecs.encode(str(b, 'latin1'), 'latin1').
  // The text is a fresh str (memoized by identity, never shared); 'latin1' is a literal.
  [[gnu::noinline]] void save_codecs_encode(const IValue& v) {
    save_global("_codecs", "encode");
    save(IValue(latin1_to_utf8(v.toBytesRef())));
    save_made_str("latin1", StrSource::Literal);
    op(Op::TUPLE2);
    memoize_index(next_memo());
    op(Op::REDUCE);
    memoize(v);
  }

  void save_pyobject(const IValue& v) {
    auto p = v.toPyObject();
    if (p->is_reference) {
      save_global(p->module, p->name);
      return;
    }
    save_global(p->module, p->name);
    if (p->args.isTuple()) save_tuple_items(p->args.tupleRef().elements, nullptr);
    else op(Op::EMPTY_TUPLE);
    op(p->built_by_newobj ? Op::NEWOBJ : Op::REDUCE);
    memoize(v);
    if (!p->list_items.empty()) batch_appends(p->list_items);
    if (!p->dict_items.empty()) batch_setitems(p->dict_items);
    if (!p->state.isNone()) {
      save(p->state);
      op(Op::BUILD);
    }
  }

  // --- TorchScript archives (options_.torchscript) ----------------------------------------
  // The annotation a typed list or dict carries ("List[int]"), or null when untyped.
  std::optional<std::string> type_tag(const IValue& v) const {
    auto str = [this](const jit::TypePtr& t) { return options_.type_str ? options_.type_str(t) : t->annotation_str(); };
    if (v.isList() && v.listRef().elem_type && v.listRef().elem_type->kind() != jit::TypeKind::Any)
      return "List[" + str(v.listRef().elem_type) + "]";
    if (v.isDict() && v.dictRef().key_type && v.dictRef().value_type)
      return "Dict[" + str(v.dictRef().key_type) + ", " + str(v.dictRef().value_type) + "]";
    return std::nullopt;
  }
  // As torch writes it: the container itself is not memoized, only the tagged result
  // (so a second reference is a BINGET of what restore_type_tag returned).
  [[gnu::noinline]] void save_type_tagged(const IValue& v) {
    save_global("torch.jit._pickle", "restore_type_tag");
    if (v.isList()) {
      op(Op::EMPTY_LIST);
      batch_appends(v.listRef().elements);
    } else {
      op(Op::EMPTY_DICT);
      batch_setitems(v.dictRef().items());
    }
    write_str(*type_tag(v));
    memoize_index(next_memo());
    op(Op::TUPLE2);
    op(Op::REDUCE);
    memoize(v);
  }
  [[gnu::noinline]] void save_object(const IValue& v) {
    const ObjectImpl& o = v.objectRef();
    // Classes compiled from user source are named as written; archives qualify them.
    const std::string q = jit::archive_qualified_name(o.type->name());
    const size_t dot = q.rfind('.');
    save_global(q.substr(0, dot), q.substr(dot + 1));
    op(Op::EMPTY_TUPLE);
    op(Op::NEWOBJ);
    memoize(v);
    if (options_.object_state) {
      if (std::optional<IValue> custom = options_.object_state(v)) {
        save(*custom);
        op(Op::BUILD);
        return;
      }
    }
    std::vector<std::pair<IValue, IValue>> state;
    const auto& attrs = o.type->attributes();
    for (size_t i = 0; i < attrs.size() && i < o.slots.size(); ++i) state.emplace_back(IValue(attrs[i].name), o.slots[i]);
    op(Op::EMPTY_DICT);
    memoize_index(next_memo());
    if (!state.empty()) batch_setitems(state);
    op(Op::BUILD);
  }

  // Leaf kinds, kept out of line (noinline): save() recurses once per nesting level,
  // and their locals would otherwise enlarge every level's frame (5.5 KB under ASan).
  [[gnu::noinline]] void save_bytes(const IValue& v) {
    if (v.isBytearray()) {
      // bytearray.__reduce_ex__(2), as Python pickles it: bytearray(<the bytes>), the
      // bytes a fresh object (memoized by identity, never shared); bytearray() if empty.
      if (v.toBytesRef().empty()) return save_reduce_call("__builtin__", "bytearray", {}, &v);
      save_global("__builtin__", "bytearray");
      save(IValue::bytes(v.toBytesRef()));
      op(Op::TUPLE1);
      memoize_index(next_memo());
      op(Op::REDUCE);
      memoize(v);
      return;
    }
    if (v.toBytesRef().empty()) {
      save_reduce_call("__builtin__", "bytes", {}, &v);
      return;
    }
    save_codecs_encode(v);
  }
  [[gnu::noinline]] void save_complex(const IValue& v) {
    auto c = v.toComplexDouble();
    save_reduce_call("__builtin__", "complex", {IValue(c.real()), IValue(c.imag())}, &v);
  }
  [[gnu::noinline]] void save_device(const IValue& v) {
    Device d = v.toDevice();
    std::string type = d.str().substr(0, d.str().find(':'));
    std::vector<IValue> args{IValue(type)};
    if (d.index >= 0) args.emplace_back(int64_t{d.index});
    save_reduce_call("torch", "device", args, nullptr);
  }
  [[gnu::noinline]] void save_torch_size(const IValue& v) {
    save_global("torch", "Size");
    save_tuple_items(v.tupleRef().elements, nullptr);
    op(Op::TUPLE1);
    memoize_index(next_memo());
    op(Op::REDUCE);
    memoize(v);
  }

  // --- dispatch ---------------------------------------------------------------------------
  void save(const IValue& v) {
    if (v.isHeap() && try_get(v.heapPtr())) return;
    TL_CHECK(depth_ < kMaxDepth, LimitError,
             "cannot pickle a value nested deeper than {} levels", kMaxDepth);
    ++depth_;
    struct Leave {
      size_t& depth;
      ~Leave() { --depth; }
    } leave{depth_};
    switch (v.tag()) {
      case IValueTag::None: op(Op::NONE); return;
      case IValueTag::Bool: op(v.toBool() ? Op::NEWTRUE : Op::NEWFALSE); return;
      case IValueTag::Int: save_int(v.toInt()); return;
      case IValueTag::BigInt: save_long_bytes(v.toBigInt()->bytes); return;
      case IValueTag::Double: save_float(v.toDouble()); return;
      case IValueTag::String:
        write_str(v.toStringRef());
        memoize(v);
        return;
      case IValueTag::Bytes: save_bytes(v); return;
      case IValueTag::ComplexDouble: save_complex(v); return;
      case IValueTag::Device: save_device(v); return;
      case IValueTag::Tuple:
        if (v.tupleRef().py_kind == PyContainerKind::TorchSize) return save_torch_size(v);
        save_tuple_items(v.tupleRef().elements, &v);
        return;
      case IValueTag::List:
        if (options_.torchscript && type_tag(v)) return save_type_tagged(v);
        save_list(v);
        return;
      case IValueTag::Dict:
        if (options_.torchscript && type_tag(v)) return save_type_tagged(v);
        save_dict(v);
        return;
      case IValueTag::Tensor: save_tensor(v); return;
      case IValueTag::PyObject: save_pyobject(v); return;
      case IValueTag::Object:
        if (options_.torchscript) return save_object(v);
        TL_FAIL(UnsupportedError, "cannot pickle a TorchScript object into a checkpoint (save the module with "
                                  "torchlet::jit::save instead)");
      case IValueTag::Storage:
      case IValueTag::Enum:
      case IValueTag::Future:
      case IValueTag::Uninitialized:
        TL_FAIL(UnsupportedError, "cannot pickle a value of kind {} into a checkpoint", v.tag_name());
    }
  }

  const PicklerOptions& options_;
  std::string out_;
  uint32_t memo_count_ = 0;
  size_t depth_ = 0;
  std::unordered_map<const RefCounted*, uint32_t> memo_;
  std::vector<IValue> keep_alive_;  // everything memo_ points at
  std::unordered_map<std::string, uint32_t> literal_memo_;
  std::unordered_map<std::string, uint32_t> storage_key_memo_;
  std::unordered_map<std::string, uint32_t> global_memo_;
};

}  // namespace

std::string pickle(const IValue& value, const PicklerOptions& options) {
  return Pickler(options).run(value);
}

}  // namespace torchlet::pickle

// IValue: the value every layer above tensors passes around: pickle results,
// checkpoint contents, TorchScript locals, attributes and operator arguments.
// A 16-byte tagged union (8-byte payload + tag); heap kinds are intrusively
// refcounted. Lists, dicts and objects are reference types (copies alias), tuples
// are immutable, dicts keep insertion order, as TorchScript and Python define them.
#pragma once

#include <complex>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include <torchlet/intrusive_ptr.h>
#include <torchlet/tensor.h>

namespace torchlet {

namespace jit {
class Type;
class ClassType;
class EnumType;
using TypePtr = std::shared_ptr<const Type>;
}  // namespace jit

enum class IValueTag : uint32_t {
#define TL_IVALUE_TAG(tag, heap, name) tag,
#include <torchlet/ivalue_tags.def>
#undef TL_IVALUE_TAG
};
const char* ivalue_tag_name(IValueTag tag);
// Whether a tag's payload is a refcounted heap pointer (the table's second column).
inline constexpr bool kIValueTagIsHeap[] = {
#define TL_IVALUE_TAG(tag, heap, name) heap,
#include <torchlet/ivalue_tags.def>
#undef TL_IVALUE_TAG
};

// torch.device: a device kind and an index (-1 = none, as torch prints "cpu").
struct Device {
  enum class Kind : int8_t { CPU, CUDA, Meta, MPS, XPU, HIP };
  Kind kind = Kind::CPU;
  int8_t index = -1;
  std::string str() const;  // "cpu", "cuda:0"
  // Parses torch's device strings ("cpu", "cuda", "cuda:1"); ValueError otherwise.
  static Device parse(std::string_view text);
  bool operator==(const Device&) const = default;
};

class IValue;
struct StringImpl;
struct BytesImpl;
struct BigIntImpl;
struct ComplexImpl;
struct TupleImpl;
struct ListImpl;
struct DictImpl;
struct ObjectImpl;
struct PyObjectImpl;
struct EnumImpl;
// Base of the runtime's futures (src/jit/runtime defines the real one); complete
// here so IValue can hold one without knowing the runtime.
struct FutureImpl : RefCounted {};

struct IValueHash {
  size_t operator()(const IValue& v) const;
};
// Python dict-key equality: 1 == 1.0 == True, tensors by identity.
struct IValueKeyEqual {
  bool operator()(const IValue& a, const IValue& b) const;
};

class IValue {
 public:
  IValue() : tag_(IValueTag::None) { payload_.i = 0; }
  IValue(const IValue& o) : payload_(o.payload_), tag_(o.tag_) { retain(); }
  IValue(IValue&& o) noexcept : payload_(o.payload_), tag_(o.tag_) {
    o.tag_ = IValueTag::None;
    o.payload_.i = 0;
  }
  IValue& operator=(const IValue& o) {
    if (this == &o) return *this;
    o.retain();
    release();
    payload_ = o.payload_;
    tag_ = o.tag_;
    return *this;
  }
  IValue& operator=(IValue&& o) noexcept {
    if (this == &o) return *this;
    release();
    payload_ = o.payload_;
    tag_ = o.tag_;
    o.tag_ = IValueTag::None;
    o.payload_.i = 0;
    return *this;
  }
  ~IValue() { release(); }

  // --- construction -----------------------------------------------------------
  IValue(std::nullptr_t) : IValue() {}  // NOLINT
  IValue(bool v) : tag_(IValueTag::Bool) { payload_.i = v; }  // NOLINT
  template <typename T>
    requires(std::is_integral_v<T> && !std::is_same_v<T, bool>)
  IValue(T v) : tag_(IValueTag::Int) {  // NOLINT
    payload_.i = static_cast<int64_t>(v);
  }
  IValue(double v) : tag_(IValueTag::Double) { payload_.d = v; }  // NOLINT
  IValue(std::complex<double> v);                                  // NOLINT
  IValue(Tensor t);                                                 // NOLINT
  IValue(Storage s);                                                // NOLINT
  IValue(std::string s);                                            // NOLINT
  IValue(const char* s) : IValue(std::string(s)) {}                 // NOLINT
  IValue(Device d) : tag_(IValueTag::Device) {                      // NOLINT
    payload_.i = 0;
    payload_.device.kind = static_cast<int8_t>(d.kind);
    payload_.device.index = d.index;
  }
  IValue(const Scalar& s);  // NOLINT: bool/int/double/complex by the scalar's kind
  IValue(intrusive_ptr<TupleImpl> v);     // NOLINT
  IValue(intrusive_ptr<ListImpl> v);      // NOLINT
  IValue(intrusive_ptr<DictImpl> v);      // NOLINT
  IValue(intrusive_ptr<ObjectImpl> v);    // NOLINT
  IValue(intrusive_ptr<PyObjectImpl> v);  // NOLINT
  IValue(intrusive_ptr<EnumImpl> v);      // NOLINT
  IValue(intrusive_ptr<BigIntImpl> v);    // NOLINT
  IValue(intrusive_ptr<BytesImpl> v);     // NOLINT
  IValue(intrusive_ptr<FutureImpl> v);    // NOLINT
  static IValue uninitialized() {
    IValue v;
    v.tag_ = IValueTag::Uninitialized;
    return v;
  }
  static IValue bytes(std::string data);
  static IValue tuple(std::vector<IValue> elements);
  // A list; elem_type is the TorchScript element type when known (null = Any).
  static IValue list(std::vector<IValue> elements, jit::TypePtr elem_type = nullptr);

  // --- inspection ---------------------------------------------------------------
  IValueTag tag() const { return tag_; }
  const char* tag_name() const { return ivalue_tag_name(tag_); }
#define TL_IVALUE_TAG(tag, heap, name) \
  bool is##tag() const { return tag_ == IValueTag::tag; }
#include <torchlet/ivalue_tags.def>
#undef TL_IVALUE_TAG
  bool isHeap() const { return kIValueTagIsHeap[static_cast<size_t>(tag_)]; }
  // int, float, bool or complex (TorchScript's Scalar / number)
  bool isScalar() const { return isInt() || isDouble() || isBool() || isComplexDouble(); }
  // Bytes that were a Python bytearray (mutable, so no dict key or set item).
  bool isBytearray() const;

  // --- access (TypeError naming expected and found kinds on a mismatch) -----------
  // The scalar accessors are inline: the interpreter's fast path lives on them.
  int64_t toInt() const {
    if (!isInt()) [[unlikely]] throw_kind_mismatch("int");
    return payload_.i;
  }
  double toDouble() const {
    if (!isDouble()) [[unlikely]] throw_kind_mismatch("float");
    return payload_.d;
  }
  bool toBool() const {
    if (!isBool()) [[unlikely]] throw_kind_mismatch("bool");
    return payload_.i != 0;
  }
  std::complex<double> toComplexDouble() const;
  Scalar toScalar() const;
  Tensor toTensor() const;
  Storage toStorage() const;
  const std::string& toStringRef() const;
  const std::string& toBytesRef() const;
  Device toDevice() const;
  intrusive_ptr<TupleImpl> toTuple() const;
  intrusive_ptr<ListImpl> toList() const;
  intrusive_ptr<DictImpl> toDict() const;
  intrusive_ptr<ObjectImpl> toObject() const;
  intrusive_ptr<PyObjectImpl> toPyObject() const;
  intrusive_ptr<EnumImpl> toEnum() const;
  intrusive_ptr<BigIntImpl> toBigInt() const;
  intrusive_ptr<FutureImpl> toFuture() const;
  // Borrowed views, no refcount traffic (for the interpreter's hot path).
  TupleImpl& tupleRef() const;
  ListImpl& listRef() const;
  DictImpl& dictRef() const;
  ObjectImpl& objectRef() const;

  // The heap object, for identity (Python's `is`); null for non-heap kinds.
  const RefCounted* heapPtr() const { return isHeap() ? payload_.heap : nullptr; }
  // Python `is`: same heap object, or equal non-heap value of the same kind.
  bool is(const IValue& o) const;

  // Python-like repr: None, True, 3, 1.5, 'a', [1, 2], (1,), {'a': 1}, tensor(...)
  std::string repr() const;

 private:
  // Inline so copying and dropping scalars costs a table lookup, not a call; freeing
  // the last reference goes out of line (Note [Iterative destruction], ivalue.cpp).
  void release() {
    if (isHeap() && payload_.heap && payload_.heap->decref()) free_heap(payload_.heap);
    tag_ = IValueTag::None;
    payload_.i = 0;
  }
  void retain() const {
    if (isHeap() && payload_.heap) payload_.heap->incref();
  }
  static void free_heap(RefCounted* p);
  RefCounted* heap() const { return payload_.heap; }
  void set_heap(IValueTag tag, RefCounted* p) {
    tag_ = tag;
    payload_.heap = p;
    if (p) p->incref();
  }
  [[noreturn]] void throw_kind_mismatch(const char* expected) const;

  union Payload {
    int64_t i;
    double d;
    RefCounted* heap;
    struct {
      int8_t kind;
      int8_t index;
    } device;
  } payload_;
  IValueTag tag_;
};
static_assert(sizeof(IValue) == 16, "IValue must stay a 16-byte tagged union");

// Python `==` (TorchScript's aten::eq on generic values): numbers across kinds,
// containers element-wise, tensors by identity (a tensor has no single truth value).
bool operator==(const IValue& a, const IValue& b);
inline bool operator!=(const IValue& a, const IValue& b) { return !(a == b); }
std::ostream& operator<<(std::ostream& os, const IValue& v);

// --- heap kinds -------------------------------------------------------------------

struct StringImpl : RefCounted {
  explicit StringImpl(std::string s) : str(std::move(s)) {}
  std::string str;
};

struct BytesImpl : RefCounted {
  explicit BytesImpl(std::string d) : data(std::move(d)) {}
  std::string data;
  // A Python bytearray rather than bytes: equal to bytes of the same data (as in
  // Python), unhashable, and saved back as a bytearray.
  bool bytearray = false;
};
inline bool IValue::isBytearray() const {
  return isBytes() && static_cast<const BytesImpl*>(heapPtr())->bytearray;
}

// A Python int beyond int64: little-endian two's complement bytes, as pickle's LONG1.
struct BigIntImpl : RefCounted {
  explicit BigIntImpl(std::string le_bytes) : bytes(std::move(le_bytes)) {}
  std::string bytes;
  // The int as Python source: decimal up to kMaxDecimalBytes of magnitude (2466
  // digits), hex beyond, so printing any int a file holds takes linear time.
  std::string python_literal() const;
  static constexpr size_t kMaxDecimalBytes = 1024;
};

struct ComplexImpl : RefCounted {
  explicit ComplexImpl(std::complex<double> v) : value(v) {}
  std::complex<double> value;
};

// Which Python container a list or dict was (kept so checkpoints round-trip).
// Counter: a collections.Counter, a dict to every reader but the pickler.
enum class PyContainerKind : int8_t { List, Set, FrozenSet, Dict, OrderedDict, Tuple, TorchSize, Counter };

struct TupleImpl : RefCounted {
  explicit TupleImpl(std::vector<IValue> e, jit::TypePtr t = nullptr)
      : elements(std::move(e)), type(std::move(t)) {}
  std::vector<IValue> elements;  // immutable after construction
  jit::TypePtr type;             // a NamedTuple's type, else null
  PyContainerKind py_kind = PyContainerKind::Tuple;  // TorchSize for a pickled torch.Size
};


struct ListImpl : RefCounted {
  explicit ListImpl(std::vector<IValue> e, jit::TypePtr t = nullptr)
      : elements(std::move(e)), elem_type(std::move(t)) {}
  std::vector<IValue> elements;
  jit::TypePtr elem_type;  // null when unknown (Any)
  PyContainerKind py_kind = PyContainerKind::List;
};

// An insertion-ordered dict with Python key semantics.
struct DictImpl : RefCounted {
  DictImpl() = default;
  DictImpl(jit::TypePtr k, jit::TypePtr v) : key_type(std::move(k)), value_type(std::move(v)) {}

  size_t size() const { return entries_.size(); }
  bool contains(const IValue& key) const { return index_.count(key) != 0; }
  // Inserts or overwrites (keeping the original position, as Python does).
  void insert_or_assign(IValue key, IValue value);
  const IValue* find(const IValue& key) const;
  IValue* find(const IValue& key);
  bool erase(const IValue& key);
  void clear();
  const std::vector<std::pair<IValue, IValue>>& items() const { return entries_; }

  jit::TypePtr key_type, value_type;  // null when unknown
  PyContainerKind py_kind = PyContainerKind::Dict;
  // Instance state a Python OrderedDict carried (e.g. state_dict's _metadata).
  IValue* py_state() { return py_state_.get(); }
  void set_py_state(IValue state) { py_state_ = std::make_unique<IValue>(std::move(state)); }

 private:
  std::vector<std::pair<IValue, IValue>> entries_;
  std::unordered_map<IValue, size_t, IValueHash, IValueKeyEqual> index_;
  std::unique_ptr<IValue> py_state_;
};

// An instance of a TorchScript class: attribute slots in the ClassType's order.
struct ObjectImpl : RefCounted {
  ObjectImpl(std::shared_ptr<jit::ClassType> t, size_t num_slots)
      : type(std::move(t)), slots(num_slots) {}
  std::shared_ptr<jit::ClassType> type;
  std::vector<IValue> slots;
};

// A Python object of a class torchlet does not know, built inertly (never run):
// what GLOBAL/REDUCE/NEWOBJ/BUILD said about it, so it can be inspected and saved back.
struct PyObjectImpl : RefCounted {
  std::string module, name;  // the global, e.g. "__main__", "Net"
  IValue args;                // the constructor arguments tuple (or None)
  IValue state;               // what BUILD set (or None)
  std::vector<IValue> list_items;                    // APPENDS applied to it
  std::vector<std::pair<IValue, IValue>> dict_items;  // SETITEMS applied to it
  bool built_by_newobj = false;
  // The global itself, not an instance (e.g. torch.float32, torch.FloatStorage, a
  // class referenced but never called).
  bool is_reference = false;
};

struct EnumImpl : RefCounted {
  EnumImpl(std::shared_ptr<const jit::EnumType> t, std::string n, IValue v)
      : type(std::move(t)), name(std::move(n)), value(std::move(v)) {}
  std::shared_ptr<const jit::EnumType> type;
  std::string name;
  IValue value;
};

inline IValue IValue::tuple(std::vector<IValue> elements) {
  return IValue(make_intrusive<TupleImpl>(std::move(elements)));
}
inline IValue IValue::list(std::vector<IValue> elements, jit::TypePtr elem_type) {
  return IValue(make_intrusive<ListImpl>(std::move(elements), std::move(elem_type)));
}
inline IValue IValue::bytes(std::string data) {
  return IValue(make_intrusive<BytesImpl>(std::move(data)));
}

// Hook for printing Object/Enum values: set by the layer that owns ClassType
// (qualified class name). Defaults to "object".
using ClassNameFn = std::string (*)(const ObjectImpl&);
void set_object_class_name_fn(ClassNameFn fn);

}  // namespace torchlet

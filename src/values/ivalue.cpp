// IValue: construction, refcounting, typed access, Python equality/hashing and repr.
#include <torchlet/ivalue.h>

#include <algorithm>
#include <atomic>
#include <vector>
#include <cmath>
#include <random>
#include <sstream>

#include <fmt/format.h>
#include <torchlet/error.h>

#include "core/allocation_limit.h"
#include "core/python_format.h"
#include "values/value_recursion.h"

namespace torchlet {

namespace {


std::atomic<ClassNameFn> g_class_name_fn{nullptr};

// Note [Iterative destruction]: freeing a deeply nested value (a list of a list of
// ... 100k deep, which a hostile pickle can build) would recurse once per level and
// overflow the C++ stack. While one heap object is being deleted on this thread,
// objects whose last reference its destructor drops are queued instead of deleted
// in place, and the outermost call deletes the queue in a loop.
thread_local std::vector<const RefCounted*>* tl_pending_deletes = nullptr;

void delete_heap(const RefCounted* p) {
  if (tl_pending_deletes != nullptr) {
    tl_pending_deletes->push_back(p);
    return;
  }
  std::vector<const RefCounted*> pending;
  tl_pending_deletes = &pending;
  delete p;
  while (!pending.empty()) {
    const RefCounted* q = pending.back();
    pending.pop_back();
    delete q;
  }
  tl_pending_deletes = nullptr;
}

template <typename T>
intrusive_ptr<T> borrow_as(RefCounted* p) {
  return intrusive_ptr<T>(static_cast<T*>(p));
}

// Note [Recursion over values]: repr, == and hash walk a value recursively, and a value
// can nest without bound (a TorchScript loop wraps one in another as often as it likes)
// or contain itself. As Python does, printing shows a list or dict it is already inside
// as [...] or {...}, and every walk refuses to go deeper than kMaxValueRecursion levels
// with a LimitError instead of overflowing the stack (value_recursion.h). A value can
// also share its parts: 40 tuples each holding the previous twice take 500 bytes of
// pickle and 2^40 visits to hash, print or compare, which Python would attempt and hang
// on. A walk visits at most kMaxValueVisits containers, counting a shared one each time
// it is reached.
thread_local size_t tl_value_recursion = 0;
thread_local size_t tl_value_visits = 0;
thread_local size_t tl_max_value_visits = kMaxValueVisits;  // ValueVisitBudget lowers it
// The containers being printed on this thread, outermost first.
thread_local std::vector<const void*> tl_printing;

}  // namespace

const char* ivalue_tag_name(IValueTag tag) {
  switch (tag) {
#define TL_IVALUE_TAG(t, heap, name) \
  case IValueTag::t:                 \
    return name;
#include <torchlet/ivalue_tags.def>
#undef TL_IVALUE_TAG
  }
  return "?";
}

void set_object_class_name_fn(ClassNameFn fn) { g_class_name_fn.store(fn); }

// --- Device --------------------------------------------------------------------------

namespace {
struct DeviceName {
  Device::Kind kind;
  std::string_view name;
};
constexpr DeviceName kDeviceNames[] = {
    {Device::Kind::CPU, "cpu"},   {Device::Kind::CUDA, "cuda"}, {Device::Kind::Meta, "meta"},
    {Device::Kind::MPS, "mps"},   {Device::Kind::XPU, "xpu"},   {Device::Kind::HIP, "hip"},
};
}  // namespace

std::string Device::str() const {
  std::string_view name = "cpu";
  for (const auto& d : kDeviceNames) {
    if (d.kind == kind) name = d.name;
  }
  return index < 0 ? std::string(name) : fmt::format("{}:{}", name, index);
}

Device Device::parse(std::string_view text) {
  std::string_view type = text.substr(0, text.find(':'));
  for (const auto& d : kDeviceNames) {
    if (d.name != type) continue;
    Device dev;
    dev.kind = d.kind;
    if (type.size() < text.size()) {
      std::string_view idx = text.substr(type.size() + 1);
      int v = 0;
      TL_CHECK(!idx.empty() && idx.size() <= 3, ValueError, "invalid device string: '{}'", printable_text(text));
      for (char c : idx) {
        TL_CHECK(c >= '0' && c <= '9', ValueError, "invalid device string: '{}'", printable_text(text));
        v = v * 10 + (c - '0');
      }
      TL_CHECK(v <= 127, ValueError, "device index {} out of range in '{}'", v, printable_text(text));
      dev.index = static_cast<int8_t>(v);
    }
    return dev;
  }
  TL_FAIL(ValueError,
          "Expected one of cpu, cuda, meta, mps, xpu, hip device type at start of device "
          "string: {}",
          printable_text(text));
}

// --- lifetime ---------------------------------------------------------------------------

void IValue::free_heap(RefCounted* p) { delete_heap(p); }


IValue::IValue(std::complex<double> v) { set_heap(IValueTag::ComplexDouble, new ComplexImpl(v)); }
IValue::IValue(Tensor t) {
  TensorImpl* impl = t.impl();
  set_heap(impl ? IValueTag::Tensor : IValueTag::None, impl);
  if (!impl) payload_.i = 0;
}
IValue::IValue(Storage s) { set_heap(IValueTag::Storage, s.get()); }
IValue::IValue(std::string s) { set_heap(IValueTag::String, new StringImpl(std::move(s))); }
IValue::IValue(intrusive_ptr<TupleImpl> v) { set_heap(IValueTag::Tuple, v.get()); }
IValue::IValue(intrusive_ptr<ListImpl> v) { set_heap(IValueTag::List, v.get()); }
IValue::IValue(intrusive_ptr<DictImpl> v) { set_heap(IValueTag::Dict, v.get()); }
IValue::IValue(intrusive_ptr<ObjectImpl> v) { set_heap(IValueTag::Object, v.get()); }
IValue::IValue(intrusive_ptr<PyObjectImpl> v) { set_heap(IValueTag::PyObject, v.get()); }
IValue::IValue(intrusive_ptr<EnumImpl> v) { set_heap(IValueTag::Enum, v.get()); }
IValue::IValue(intrusive_ptr<BigIntImpl> v) { set_heap(IValueTag::BigInt, v.get()); }
IValue::IValue(intrusive_ptr<BytesImpl> v) { set_heap(IValueTag::Bytes, v.get()); }
IValue::IValue(intrusive_ptr<FutureImpl> v) { set_heap(IValueTag::Future, v.get()); }

IValue::IValue(const Scalar& s) : IValue() {
  switch (s.kind()) {
    case Scalar::Kind::Bool:
      *this = IValue(s.to_bool());
      return;
    case Scalar::Kind::Int:
      *this = IValue(s.to_int());
      return;
    case Scalar::Kind::Double:
      *this = IValue(s.to_double());
      return;
    case Scalar::Kind::Complex:
      *this = IValue(s.to_complex());
      return;
  }
}

// --- access ----------------------------------------------------------------------------

void IValue::throw_kind_mismatch(const char* expected) const {
  TL_FAIL(TypeError, "expected a value of type {} but found {}", expected, tag_name());
}

std::complex<double> IValue::toComplexDouble() const {
  if (!isComplexDouble()) throw_kind_mismatch("complex");
  return static_cast<ComplexImpl*>(heap())->value;
}
Scalar IValue::toScalar() const {
  if (isInt()) return Scalar(payload_.i);
  if (isDouble()) return Scalar(payload_.d);
  if (isBool()) return Scalar(payload_.i != 0);
  if (isComplexDouble()) return Scalar(toComplexDouble());
  throw_kind_mismatch("number");
}
Tensor IValue::toTensor() const {
  if (!isTensor()) throw_kind_mismatch("Tensor");
  return Tensor(borrow_as<TensorImpl>(heap()));
}
Storage IValue::toStorage() const {
  if (!isStorage()) throw_kind_mismatch("Storage");
  return borrow_as<StorageImpl>(heap());
}
const std::string& IValue::toStringRef() const {
  if (!isString()) throw_kind_mismatch("str");
  return static_cast<StringImpl*>(heap())->str;
}
const std::string& IValue::toBytesRef() const {
  if (!isBytes()) throw_kind_mismatch("bytes");
  return static_cast<BytesImpl*>(heap())->data;
}
Device IValue::toDevice() const {
  if (!isDevice()) throw_kind_mismatch("Device");
  Device d;
  d.kind = static_cast<Device::Kind>(payload_.device.kind);
  d.index = payload_.device.index;
  return d;
}
intrusive_ptr<TupleImpl> IValue::toTuple() const {
  if (!isTuple()) throw_kind_mismatch("Tuple");
  return borrow_as<TupleImpl>(heap());
}
intrusive_ptr<ListImpl> IValue::toList() const {
  if (!isList()) throw_kind_mismatch("List");
  return borrow_as<ListImpl>(heap());
}
intrusive_ptr<DictImpl> IValue::toDict() const {
  if (!isDict()) throw_kind_mismatch("Dict");
  return borrow_as<DictImpl>(heap());
}
intrusive_ptr<ObjectImpl> IValue::toObject() const {
  if (!isObject()) throw_kind_mismatch("Object");
  return borrow_as<ObjectImpl>(heap());
}
intrusive_ptr<PyObjectImpl> IValue::toPyObject() const {
  if (!isPyObject()) throw_kind_mismatch("PyObject");
  return borrow_as<PyObjectImpl>(heap());
}
intrusive_ptr<EnumImpl> IValue::toEnum() const {
  if (!isEnum()) throw_kind_mismatch("Enum");
  return borrow_as<EnumImpl>(heap());
}
intrusive_ptr<BigIntImpl> IValue::toBigInt() const {
  if (!isBigInt()) throw_kind_mismatch("int");
  return borrow_as<BigIntImpl>(heap());
}
intrusive_ptr<FutureImpl> IValue::toFuture() const {
  if (!isFuture()) throw_kind_mismatch("Future");
  return borrow_as<FutureImpl>(heap());
}
TupleImpl& IValue::tupleRef() const {
  if (!isTuple()) throw_kind_mismatch("Tuple");
  return *static_cast<TupleImpl*>(heap());
}
ListImpl& IValue::listRef() const {
  if (!isList()) throw_kind_mismatch("List");
  return *static_cast<ListImpl*>(heap());
}
DictImpl& IValue::dictRef() const {
  if (!isDict()) throw_kind_mismatch("Dict");
  return *static_cast<DictImpl*>(heap());
}
ObjectImpl& IValue::objectRef() const {
  if (!isObject()) throw_kind_mismatch("Object");
  return *static_cast<ObjectImpl*>(heap());
}

bool IValue::is(const IValue& o) const {
  if (isHeap() || o.isHeap()) return tag_ == o.tag_ && payload_.heap == o.payload_.heap;
  if (tag_ != o.tag_) return false;
  switch (tag_) {
    case IValueTag::None:
    case IValueTag::Uninitialized:
      return true;
    case IValueTag::Double:
      return payload_.d == o.payload_.d;
    case IValueTag::Device:
      return toDevice() == o.toDevice();
    default:
      return payload_.i == o.payload_.i;
  }
}

ValueRecursion::ValueRecursion(const char* walk) {
  TL_CHECK(tl_value_recursion < kMaxValueRecursion, LimitError, "{}: value nested deeper than {} levels", walk,
           kMaxValueRecursion);
  if (tl_value_recursion == 0) tl_value_visits = 0;  // a new walk
  TL_CHECK(++tl_value_visits <= tl_max_value_visits, LimitError,
           "{}: more than {} lists, tuples and dicts to visit (the value reaches the same ones again and again "
           "through shared references)",
           walk, tl_max_value_visits);
  ++tl_value_recursion;
}

ValueVisitBudget::ValueVisitBudget(size_t max_visits) : saved_(tl_max_value_visits) {
  tl_max_value_visits = std::min(max_visits, tl_max_value_visits);
}

ValueVisitBudget::~ValueVisitBudget() { tl_max_value_visits = saved_; }

ValueRecursion::~ValueRecursion() { --tl_value_recursion; }

void check_printed_length(std::ostream& os, const char* what) {
  auto* text = dynamic_cast<std::ostringstream*>(&os);
  if (text == nullptr) return;
  const std::streamoff length = text->tellp();
  if (length > 0) (void)checked_allocation(static_cast<size_t>(length), what);
}

void print_container(std::ostream& os, const IValue& v, const std::function<void(const IValue&)>& element) {
  const char open = v.isList() ? '[' : v.isTuple() ? '(' : '{';
  const char close = v.isList() ? ']' : v.isTuple() ? ')' : '}';
  if (std::find(tl_printing.begin(), tl_printing.end(), v.heapPtr()) != tl_printing.end()) {
    os << open << "..." << close;
    return;
  }
  const ValueRecursion guard("printing a value");
  tl_printing.push_back(v.heapPtr());
  try {
    os << open;
    if (v.isDict()) {
      bool first = true;
      for (const auto& [k, val] : v.dictRef().items()) {
        if (!first) os << ", ";
        first = false;
        check_printed_length(os, "printing a value");
        element(k);
        os << ": ";
        element(val);
      }
    } else {
      const auto& items = v.isList() ? v.listRef().elements : v.tupleRef().elements;
      for (size_t i = 0; i < items.size(); ++i) {
        if (i) os << ", ";
        check_printed_length(os, "printing a value");
        element(items[i]);
      }
      if (v.isTuple() && items.size() == 1) os << ',';
    }
    os << close;
  } catch (...) {
    tl_printing.pop_back();
    throw;
  }
  tl_printing.pop_back();
}

// --- equality and hashing --------------------------------------------------------------

namespace {

bool is_number(const IValue& v) { return v.isInt() || v.isDouble() || v.isBool(); }
double number_value(const IValue& v) {
  if (v.isDouble()) return v.toDouble();
  if (v.isBool()) return v.toBool() ? 1.0 : 0.0;
  return static_cast<double>(v.toInt());
}

}  // namespace

bool operator==(const IValue& a, const IValue& b) {
  if (is_number(a) && is_number(b)) {
    if (a.isDouble() || b.isDouble()) return number_value(a) == number_value(b);
    int64_t x = a.isBool() ? a.toBool() : a.toInt();
    int64_t y = b.isBool() ? b.toBool() : b.toInt();
    return x == y;
  }
  if (a.tag() != b.tag()) return false;
  switch (a.tag()) {
    case IValueTag::None:
    case IValueTag::Uninitialized:
      return true;
    case IValueTag::String:
      return a.toStringRef() == b.toStringRef();
    case IValueTag::Bytes:
      return a.toBytesRef() == b.toBytesRef();
    case IValueTag::BigInt:
      return a.toBigInt()->bytes == b.toBigInt()->bytes;
    case IValueTag::ComplexDouble:
      return a.toComplexDouble() == b.toComplexDouble();
    case IValueTag::Device:
      return a.toDevice() == b.toDevice();
    case IValueTag::Tuple:
    case IValueTag::List: {
      const ValueRecursion guard("comparing values");
      const auto& x = a.isTuple() ? a.tupleRef().elements : a.listRef().elements;
      const auto& y = b.isTuple() ? b.tupleRef().elements : b.listRef().elements;
      if (x.size() != y.size()) return false;
      for (size_t i = 0; i < x.size(); ++i) {
        if (!(x[i].is(y[i]) || x[i] == y[i])) return false;
      }
      return true;
    }
    case IValueTag::Dict: {
      const ValueRecursion guard("comparing values");
      const DictImpl& x = a.dictRef();
      const DictImpl& y = b.dictRef();
      if (x.size() != y.size()) return false;
      for (const auto& [k, v] : x.items()) {
        const IValue* other = y.find(k);
        if (other == nullptr || !(v.is(*other) || v == *other)) return false;
      }
      return true;
    }
    case IValueTag::Enum: {
      auto x = a.toEnum(), y = b.toEnum();
      return x->type == y->type && x->name == y->name;
    }
    default:
      return a.is(b);  // tensors, storages, objects, futures: identity
  }
}

namespace {

// Note [Seeded key hashing]
// Dict keys come from files torchlet did not write, so their hashes are seeded per
// process, as Python's are: std::hash<int64_t> is the identity, and a crafted dict
// whose keys are multiples of the table's bucket count (a 2.7 MB checkpoint pickle)
// put every key in one bucket and took minutes to load; std::hash<std::string>
// (MurmurHash64A) has seed-independent multicollisions. Integers go through
// splitmix64's finalizer, text and bytes through SipHash-1-3 (Python's str hash).
struct HashSeed {
  uint64_t k0, k1;
};
const HashSeed& hash_seed() {
  static const HashSeed seed = [] {
    std::random_device rd;
    auto word = [&] { return (static_cast<uint64_t>(rd()) << 32) ^ rd(); };
    return HashSeed{word(), word()};
  }();
  return seed;
}

uint64_t rotl(uint64_t x, int b) { return (x << b) | (x >> (64 - b)); }

size_t siphash13(std::string_view s) {
  const HashSeed& k = hash_seed();
  uint64_t v0 = k.k0 ^ 0x736f6d6570736575ull, v1 = k.k1 ^ 0x646f72616e646f6dull;
  uint64_t v2 = k.k0 ^ 0x6c7967656e657261ull, v3 = k.k1 ^ 0x7465646279746573ull;
  auto round = [&] {
    v0 += v1; v1 = rotl(v1, 13); v1 ^= v0; v0 = rotl(v0, 32);
    v2 += v3; v3 = rotl(v3, 16); v3 ^= v2;
    v0 += v3; v3 = rotl(v3, 21); v3 ^= v0;
    v2 += v1; v1 = rotl(v1, 17); v1 ^= v2; v2 = rotl(v2, 32);
  };
  const size_t full = s.size() / 8 * 8;
  for (size_t i = 0; i < full; i += 8) {
    uint64_t m = 0;
    for (int j = 7; j >= 0; --j) m = (m << 8) | static_cast<unsigned char>(s[i + static_cast<size_t>(j)]);
    v3 ^= m;
    round();
    v0 ^= m;
  }
  uint64_t last = static_cast<uint64_t>(s.size()) << 56;
  for (size_t j = 0; j < s.size() - full; ++j) last |= static_cast<uint64_t>(static_cast<unsigned char>(s[full + j])) << (8 * j);
  v3 ^= last;
  round();
  v0 ^= last;
  v2 ^= 0xff;
  round();
  round();
  round();
  return static_cast<size_t>(v0 ^ v1 ^ v2 ^ v3);
}

size_t int_key_hash(int64_t x) {
  uint64_t z = static_cast<uint64_t>(x) ^ hash_seed().k0;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return static_cast<size_t>(z ^ (z >> 31));
}

}  // namespace

size_t IValueHash::operator()(const IValue& v) const {
  // Equal numbers hash equal across int/float/bool, as Python requires of dict keys.
  if (v.isBool()) return int_key_hash(v.toBool() ? 1 : 0);
  if (v.isInt()) return int_key_hash(v.toInt());
  if (v.isDouble()) {
    double d = v.toDouble();
    if (std::isfinite(d) && d == std::trunc(d) && std::fabs(d) < 9.2e18) {
      return int_key_hash(static_cast<int64_t>(d));
    }
    return std::hash<double>()(d);
  }
  switch (v.tag()) {
    case IValueTag::String:
      return siphash13(v.toStringRef());
    case IValueTag::Bytes:
      return siphash13(v.toBytesRef()) ^ 0x9e3779b9u;
    case IValueTag::BigInt:
      return siphash13(v.toBigInt()->bytes);
    case IValueTag::None:
      return 0x5a5a;
    case IValueTag::Tuple: {
      const ValueRecursion guard("hashing a tuple");
      size_t h = 0x345678;
      for (const auto& e : v.tupleRef().elements) h = h * 1000003 ^ (*this)(e);
      return h;
    }
    case IValueTag::Device:
      return std::hash<std::string>()(v.toDevice().str());
    case IValueTag::ComplexDouble: {
      auto c = v.toComplexDouble();
      return std::hash<double>()(c.real()) * 31 + std::hash<double>()(c.imag());
    }
    case IValueTag::List:
    case IValueTag::Dict:
      TL_FAIL(TypeError, "unhashable type: '{}'", v.isList() ? "list" : "dict");
    default:
      return std::hash<const void*>()(v.heapPtr());
  }
}

bool IValueKeyEqual::operator()(const IValue& a, const IValue& b) const {
  if (a.isTensor() || b.isTensor()) return a.is(b);
  return a == b;
}

// --- DictImpl ---------------------------------------------------------------------------

void DictImpl::insert_or_assign(IValue key, IValue value) {
  auto it = index_.find(key);
  if (it != index_.end()) {
    entries_[it->second].second = std::move(value);
    return;
  }
  index_.emplace(key, entries_.size());
  entries_.emplace_back(std::move(key), std::move(value));
}

const IValue* DictImpl::find(const IValue& key) const {
  auto it = index_.find(key);
  return it == index_.end() ? nullptr : &entries_[it->second].second;
}

IValue* DictImpl::find(const IValue& key) {
  auto it = index_.find(key);
  return it == index_.end() ? nullptr : &entries_[it->second].second;
}

bool DictImpl::erase(const IValue& key) {
  auto it = index_.find(key);
  if (it == index_.end()) return false;
  size_t pos = it->second;
  index_.erase(it);
  entries_.erase(entries_.begin() + static_cast<std::ptrdiff_t>(pos));
  for (auto& [k, i] : index_) {
    if (i > pos) --i;
  }
  return true;
}

void DictImpl::clear() {
  entries_.clear();
  index_.clear();
}

// --- printing -----------------------------------------------------------------------------

std::string BigIntImpl::python_literal() const {
  // Two's complement little-endian -> sign + magnitude.
  std::vector<uint8_t> mag(bytes.begin(), bytes.end());
  const bool negative = !mag.empty() && (mag.back() & 0x80);
  if (negative) {  // magnitude = ~x + 1
    unsigned carry = 1;
    for (auto& b : mag) {
      unsigned v = static_cast<uint8_t>(~b) + carry;
      b = static_cast<uint8_t>(v);
      carry = v >> 8;
    }
  }
  while (!mag.empty() && mag.back() == 0) mag.pop_back();
  std::string text;
  if (mag.size() > kMaxDecimalBytes) {
    // Base conversion is quadratic, and a pickle may hold a megabyte-long int: printing
    // it in decimal would take hours. Hex is linear and still the exact value (Python
    // itself refuses to print more than 4300 decimal digits).
    static constexpr char kHex[] = "0123456789abcdef";
    text = "0x";
    for (size_t i = mag.size(); i-- > 0;) {
      if (i + 1 == mag.size() && mag[i] < 16) {
        text += kHex[mag[i]];
      } else {
        text += kHex[mag[i] >> 4];
        text += kHex[mag[i] & 15];
      }
    }
  } else {
    // Repeated division by 10^9, nine digits a pass, least significant first.
    constexpr uint64_t kChunk = 1'000'000'000;
    bool all_zero = mag.empty();
    while (!all_zero) {
      all_zero = true;
      uint64_t rem = 0;
      for (size_t i = mag.size(); i-- > 0;) {
        const uint64_t cur = (rem << 8) | mag[i];
        mag[i] = static_cast<uint8_t>(cur / kChunk);
        rem = cur % kChunk;
        if (mag[i] != 0) all_zero = false;
      }
      for (int d = 0; d < 9 && (rem != 0 || !all_zero); ++d, rem /= 10) text += static_cast<char>('0' + rem % 10);
    }
    if (text.empty()) text = "0";
    std::reverse(text.begin(), text.end());
  }
  return negative ? "-" + text : text;
}

namespace {

void print_value(std::ostream& os, const IValue& v);

void print_value(std::ostream& os, const IValue& v) {
  switch (v.tag()) {
    case IValueTag::None:
      os << "None";
      return;
    case IValueTag::Uninitialized:
      os << "<uninitialized>";
      return;
    case IValueTag::Bool:
      os << (v.toBool() ? "True" : "False");
      return;
    case IValueTag::Int:
      os << v.toInt();
      return;
    case IValueTag::BigInt:
      os << v.toBigInt()->python_literal();
      return;
    case IValueTag::Double:
      os << python_float_repr(v.toDouble());
      return;
    case IValueTag::ComplexDouble:
      os << python_complex_repr(v.toComplexDouble().real(), v.toComplexDouble().imag());
      return;
    case IValueTag::String:
      os << python_str_repr(v.toStringRef());
      return;
    case IValueTag::Bytes:
      if (v.isBytearray()) {
        os << "bytearray(" << python_bytes_repr(v.toBytesRef()) << ')';
        return;
      }
      os << python_bytes_repr(v.toBytesRef());
      return;
    case IValueTag::Tensor:
      os << v.toTensor().repr();
      return;
    case IValueTag::Storage:
      os << "<storage of " << v.toStorage()->nbytes() << " bytes>";
      return;
    case IValueTag::Device:
      os << "device(type='" << v.toDevice().str().substr(0, v.toDevice().str().find(':'))
         << "'";
      if (v.toDevice().index >= 0) os << ", index=" << int(v.toDevice().index);
      os << ')';
      return;
    case IValueTag::Tuple:
    case IValueTag::List:
    case IValueTag::Dict:
      print_container(os, v, [&](const IValue& e) { print_value(os, e); });
      return;
    case IValueTag::Object: {
      ClassNameFn fn = g_class_name_fn.load();
      os << '<' << (fn ? fn(v.objectRef()) : std::string("object")) << " object>";
      return;
    }
    case IValueTag::PyObject: {
      auto p = v.toPyObject();
      os << '<' << p->module << '.' << p->name << " (inert record)>";
      return;
    }
    case IValueTag::Enum:
      os << "Enum<" << v.toEnum()->name << '>';
      return;
    case IValueTag::Future:
      os << "<Future>";
      return;
  }
}

}  // namespace

std::string IValue::repr() const {
  ClassicStringStream os;
  print_value(os, *this);
  return os.str();
}

std::ostream& operator<<(std::ostream& os, const IValue& v) {
  print_value(os, v);
  return os;
}

}  // namespace torchlet

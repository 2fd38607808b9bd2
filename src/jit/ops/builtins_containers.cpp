// TorchScript's list and dict builtins whose names have no tensor overloads: len, [],
// `in`, count and list() of lists, dicts, strs and tensors; _set_item, pop, del and
// clear; append, insert, remove, extend, reverse and sorted; the dict methods; and
// min/max of numbers and of lists. The list and dict overloads of names that also have
// tensor forms (add.t, mul.left_t, slice.t, index.list_*, sort.*, sum.*, copy.*) are
// registered by those names' family files from list_builtins.h's kernels, which hold
// the element equality and order these rows use too. Each overload is boxed from a
// typed kernel (Note [Boxing]); a list or dict of any element type is the IValue
// itself. What loops call (len, [], `in`, append, l[i] = v, min/max of numbers) is
// boxed_inline. Lists and dicts are reference types: mutating operators change the
// ListImpl/DictImpl every alias sees, new lists keep the element type of the list they
// came from, and dicts keep insertion order (keys(), values() and items() return new
// lists typed from the dict's key and value types). Error texts are the ones torch
// 1.13's interpreter raises.
#include <algorithm>

#include "jit/ops/boxing.h"
#include "jit/ops/list_builtins.h"

namespace torchlet::jit::ops {
namespace {

// --- len, [], in, count, list() --------------------------------------------------------
int64_t list_len(const IValue& list) { return static_cast<int64_t>(list.listRef().elements.size()); }
int64_t dict_len(const IValue& d) { return static_cast<int64_t>(d.dictRef().size()); }
int64_t str_len(const std::string& str) { return static_cast<int64_t>(str.size()); }
// len(t): the size of the first dimension; a 0-dim tensor has none.
int64_t tensor_len(const Tensor& t) {
  TL_CHECK(t.dim() != 0, TypeError, "len() of a 0-d tensor");
  return t.size(0);
}

IValue list_getitem(const IValue& list, int64_t idx) {
  const auto& e = list.listRef().elements;
  return e[normalize_index(idx, e.size())];
}
std::string str_getitem(const std::string& str, int64_t idx) {
  return std::string(1, str[normalize_index(idx, str.size(), "string index out of range")]);
}
// torch's message for a missing key: "KeyError: " and the key as print() shows it.
[[noreturn]] void key_error(const IValue& key) { TL_FAIL(IndexError, "KeyError: {}", ivalue_str(key)); }
IValue dict_getitem(const IValue& d, const IValue& key) {
  const IValue* v = d.dictRef().find(key);
  if (!v) key_error(key);
  return *v;
}

bool dict_contains(const IValue& d, const IValue& key) { return d.dictRef().contains(key); }
bool list_contains(const IValue& list, const IValue& el) {
  const auto& e = list.listRef().elements;
  return std::any_of(e.begin(), e.end(), [&](const IValue& x) { return element_equal(x, el); });
}

int64_t list_count(const IValue& list, const IValue& el) {
  const auto& e = list.listRef().elements;
  return static_cast<int64_t>(std::count_if(e.begin(), e.end(), [&](const IValue& x) { return element_equal(x, el); }));
}
// torch 1.13 loops forever on an empty substring; Python counts the len + 1 gaps.
int64_t str_count(const std::string& str, const std::string& sub, int64_t start, int64_t end) {
  const std::string_view w = str_window(str, start, end);
  if (sub.empty()) return static_cast<int64_t>(w.size() + 1);
  int64_t n = 0;
  for (size_t pos = w.find(sub); pos != std::string_view::npos; pos = w.find(sub, pos + sub.size())) ++n;
  return n;
}

std::vector<std::string> list_of_chars(const std::string& str) {
  std::vector<std::string> out;
  for (char c : str) out.emplace_back(1, c);
  return out;
}

// --- mutation: d[k] = v, l[i] = v, pop, del, clear -------------------------------------
IValue list_set_item(IValue list, int64_t idx, IValue el) {
  auto& e = list.listRef().elements;
  e[normalize_index(idx, e.size(), "list index out of range")] = std::move(el);
  return list;
}
void dict_set_item(const IValue& d, IValue key, IValue v) { d.dictRef().insert_or_assign(std::move(key), std::move(v)); }

IValue list_pop(const IValue& list, int64_t idx) {
  auto& e = list.listRef().elements;
  TL_CHECK(!e.empty(), IndexError, "pop from empty list");
  size_t i = normalize_index(idx, e.size(), "list index out of range");
  IValue v = std::move(e[i]);
  e.erase(e.begin() + static_cast<std::ptrdiff_t>(i));
  return v;
}
IValue dict_pop(const IValue& d, const IValue& key) {
  const IValue* v = d.dictRef().find(key);
  if (!v) key_error(key);
  IValue out = *v;
  d.dictRef().erase(key);
  return out;
}
IValue dict_pop_default(const IValue& d, const IValue& key, IValue dflt) {
  const IValue* v = d.dictRef().find(key);
  if (!v) return dflt;
  IValue out = *v;
  d.dictRef().erase(key);
  return out;
}

void list_delete(const IValue& list, int64_t idx) {
  auto& e = list.listRef().elements;
  size_t i = normalize_index(idx, e.size(), "list assignment index out of range");
  e.erase(e.begin() + static_cast<std::ptrdiff_t>(i));
}
void dict_delete(const IValue& d, const IValue& key) {
  if (!d.dictRef().erase(key)) key_error(key);
}
void list_clear(const IValue& list) { list.listRef().elements.clear(); }
void dict_clear(const IValue& d) { d.dictRef().clear(); }

// --- the other list methods -------------------------------------------------------------
IValue append(IValue list, IValue el) {
  list.listRef().elements.push_back(std::move(el));
  return list;
}
// list.insert clamps the index into [0, len], as Python does.
void insert(const IValue& list, int64_t idx, IValue el) {
  auto& e = list.listRef().elements;
  const auto n = static_cast<int64_t>(e.size());
  if (idx < 0) idx = std::max<int64_t>(0, idx + n);
  idx = std::min(idx, n);
  e.insert(e.begin() + idx, std::move(el));
}
void remove(const IValue& list, const IValue& el) {
  auto& e = list.listRef().elements;
  auto it = std::find_if(e.begin(), e.end(), [&](const IValue& x) { return element_equal(x, el); });
  TL_CHECK(it != e.end(), ValueError, "list.remove(x): x not in list");
  e.erase(it);
}
void extend(const IValue& list, const IValue& other) {
  // Copy first: l.extend(l) appends the original elements once.
  std::vector<IValue> add = other.listRef().elements;
  auto& e = list.listRef().elements;
  (void)result_length(e.size() + add.size(), sizeof(IValue), "list.extend");  // not reserve: amortised growth
  e.insert(e.end(), add.begin(), add.end());
}
void reverse(const IValue& list) {
  std::reverse(list.listRef().elements.begin(), list.listRef().elements.end());
}

}  // namespace

// Python slice bounds (start, end, step) resolved against a length: the indices
// visited, as slice.indices() computes them. Shared with the string slice.
std::vector<size_t> slice_indices(size_t size, std::optional<int64_t> start, std::optional<int64_t> end,
                                  int64_t step) {
  TL_CHECK(step != 0, ValueError, "List slice should have non-zero step");
  const auto n = static_cast<int64_t>(size);
  auto clamp = [&](std::optional<int64_t> v, int64_t dflt) {
    if (!v) return dflt;
    int64_t x = *v;
    if (x < 0) x += n;
    if (step > 0) return std::clamp<int64_t>(x, 0, n);
    return std::clamp<int64_t>(x, -1, n - 1);
  };
  int64_t lo = clamp(start, step > 0 ? 0 : n - 1);
  int64_t hi = clamp(end, step > 0 ? n : -1);
  std::vector<size_t> out;
  for (int64_t i = lo; step > 0 ? i < hi : i > hi;) {
    out.push_back(static_cast<size_t>(i));
    // Against the distance left, not i + step, which overflows for a step near INT64_MAX
    // ("abc"[1::2**63-1]) and wrapped to an index before the start.
    if (step > 0 ? step >= hi - i : step <= hi - i) break;
    i += step;
  }
  return out;
}

namespace {

// sorted(l): a sorted copy, in list.sort's order.
IValue sorted(const IValue& list) {
  std::vector<IValue> e = list.listRef().elements;
  sort_elements(e, false);
  return list_like(list.listRef(), std::move(e));
}
IValue infer_size(IntList a, IntList b) { return int_list(broadcast_shapes(a, b)); }
std::vector<int64_t> size_copy(std::vector<int64_t> sizes) { return sizes; }

// --- the other dict methods -------------------------------------------------------------
IValue get(const IValue& d, const IValue& key) {
  const IValue* v = d.dictRef().find(key);
  return v ? *v : IValue();
}
IValue get_default(const IValue& d, const IValue& key, IValue dflt) {
  const IValue* v = d.dictRef().find(key);
  return v ? *v : dflt;
}
IValue setdefault(const IValue& d, IValue key, IValue dflt) {
  if (const IValue* v = d.dictRef().find(key)) return *v;
  d.dictRef().insert_or_assign(std::move(key), dflt);
  return dflt;
}
// popitem removes and returns the first pair in insertion order: torch 1.13 does so
// (Python would take the last).
IValue popitem(const IValue& d) {
  auto& dict = d.dictRef();
  TL_CHECK(dict.size() != 0, IndexError, "popitem(): dictionary is empty");  // torch's words
  auto [k, v] = dict.items().front();
  dict.erase(k);
  return IValue::tuple({std::move(k), std::move(v)});
}
void update(const IValue& d, const IValue& other) {
  std::vector<std::pair<IValue, IValue>> items = other.dictRef().items();  // d.update(d) is safe
  for (auto& [k, v] : items) d.dictRef().insert_or_assign(k, v);
}
IValue keys(const IValue& d) {
  std::vector<IValue> e;
  for (const auto& kv : d.dictRef().items()) e.push_back(kv.first);
  return IValue::list(std::move(e), d.dictRef().key_type);
}
IValue values(const IValue& d) {
  std::vector<IValue> e;
  for (const auto& kv : d.dictRef().items()) e.push_back(kv.second);
  return IValue::list(std::move(e), d.dictRef().value_type);
}
IValue items(const IValue& d) {
  const auto& dict = d.dictRef();
  std::vector<IValue> e;
  for (const auto& [k, v] : dict.items()) e.push_back(IValue::tuple({k, v}));
  TypePtr t = dict.key_type && dict.value_type ? Type::tuple({dict.key_type, dict.value_type}) : nullptr;
  return IValue::list(std::move(e), t);
}
// dict(): an empty Dict[str, Tensor], the type torch gives it.
IValue empty_dict() { return IValue(make_intrusive<DictImpl>(Type::str_(), Type::tensor())); }
// dict(list of (key, value) pairs).
IValue dict_from_pairs(const IValue& list) {
  const ListImpl& l = list.listRef();
  TypePtr kt, vt;
  if (l.elem_type && l.elem_type->kind() == TypeKind::Tuple && l.elem_type->contained().size() == 2) {
    kt = l.elem_type->contained()[0];
    vt = l.elem_type->contained()[1];
  }
  auto out = make_intrusive<DictImpl>(kt, vt);
  for (const auto& e : l.elements) {
    const auto& pair = e.tupleRef().elements;
    TL_CHECK(pair.size() == 2, ValueError, "dictionary update sequence element has length {}; 2 is required",
             pair.size());
    out->insert_or_assign(pair[0], pair[1]);
  }
  return IValue(std::move(out));
}

// --- min / max ---------------------------------------------------------------------------
// Of one list: the extreme element; of two lists: the lexicographically larger/smaller
// list.
template <bool kMax>
IValue list_extreme(const IValue& list) {
  const auto& e = list.listRef().elements;
  TL_CHECK(!e.empty(), ValueError, "{}() arg is an empty sequence", kMax ? "max" : "min");
  IValue best = e[0];
  for (size_t i = 1; i < e.size(); ++i) {
    if (kMax ? element_less(best, e[i]) : element_less(e[i], best)) best = e[i];
  }
  return best;
}
template <bool kMax>
IValue two_lists_extreme(const IValue& l, const IValue& r) {
  const auto& a = l.listRef().elements;
  const auto& b = r.listRef().elements;
  bool l_less = std::lexicographical_compare(a.begin(), a.end(), b.begin(), b.end(), element_less);
  bool pick_left = kMax ? !l_less : l_less;
  // Equal lists: either is the answer; torch returns the right one for max on ties.
  if (!l_less && !std::lexicographical_compare(b.begin(), b.end(), a.begin(), a.end(), element_less)) pick_left = false;
  const IValue& chosen = pick_left ? l : r;
  return list_like(chosen.listRef(), chosen.listRef().elements);
}
// Of two numbers, in the wider of their kinds. They compare as `a > b ? a : b` (resp.
// <), so a NaN first loses and a NaN second wins, as in torch's interpreter.
template <bool kMax, typename T>
T pick(T a, T b) {
  if constexpr (kMax) {
    return a > b ? a : b;
  } else {
    return a < b ? a : b;
  }
}
template <bool kMax, typename A, typename B>
auto number_extreme(A a, B b) {
  if constexpr (std::is_same_v<A, double> || std::is_same_v<B, double>) {
    return pick<kMax>(static_cast<double>(a), static_cast<double>(b));
  } else {
    return pick<kMax>(a, b);
  }
}
// The Scalar overloads: the kinds are the operands' at run time (a bool counts as an int).
template <bool kMax>
IValue scalar_extreme(const IValue& a, const IValue& b) {
  TL_CHECK(!a.isComplexDouble() && !b.isComplexDouble(), TypeError, "operation not defined for complex numbers");
  const auto as_int = [](const IValue& v) { return v.isBool() ? int64_t{v.toBool()} : v.toInt(); };
  const auto as_double = [&](const IValue& v) { return v.isDouble() ? v.toDouble() : static_cast<double>(as_int(v)); };
  if (a.isDouble() || b.isDouble()) return IValue(pick<kMax>(as_double(a), as_double(b)));
  return IValue(pick<kMax>(as_int(a), as_int(b)));
}

}  // namespace

static RegisterOps reg({
    // len, [], in, count and list() of lists, dicts, strs and tensors
    {"aten::len.Dict_Tensor(Dict(Tensor, t) self) -> int", boxed_inline<&dict_len>},
    {"aten::len.Dict_bool(Dict(bool, t) self) -> int", boxed_inline<&dict_len>},
    {"aten::len.Dict_complex(Dict(complex, t) self) -> int", boxed_inline<&dict_len>},
    {"aten::len.Dict_float(Dict(float, t) self) -> int", boxed_inline<&dict_len>},
    {"aten::len.Dict_int(Dict(int, t) self) -> int", boxed_inline<&dict_len>},
    {"aten::len.Dict_str(Dict(str, t) self) -> int", boxed_inline<&dict_len>},
    // len.t before len.any, in torch's order: a tuple whose elements unify is a t[].
    {"aten::len.t(t[] a) -> int", boxed_inline<&list_len>},
    {"aten::len.any(Any[] a) -> int", boxed_inline<&list_len>},
    {"aten::len.Tensor(Tensor t) -> int", boxed_inline<&tensor_len>},
    {"aten::len.str(str s) -> int", boxed_inline<&str_len>},
    {"aten::__getitem__.Dict_Tensor(Dict(Tensor, t) self, Tensor key) -> t(*)", boxed_inline<&dict_getitem>},
    {"aten::__getitem__.Dict_bool(Dict(bool, t) self, bool key) -> t(*)", boxed_inline<&dict_getitem>},
    {"aten::__getitem__.Dict_complex(Dict(complex, t) self, complex key) -> t(*)", boxed_inline<&dict_getitem>},
    {"aten::__getitem__.Dict_float(Dict(float, t) self, float key) -> t(*)", boxed_inline<&dict_getitem>},
    {"aten::__getitem__.Dict_int(Dict(int, t) self, int key) -> t(*)", boxed_inline<&dict_getitem>},
    {"aten::__getitem__.Dict_str(Dict(str, t) self, str key) -> t(*)", boxed_inline<&dict_getitem>},
    {"aten::__getitem__.t(t[](a) list, int idx) -> t(*)", boxed_inline<&list_getitem>},
    {"aten::__getitem__.str(str s, int index) -> str", boxed_inline<&str_getitem>},
    {"prim::StringIndex(str string, int index) -> str", boxed_inline<&str_getitem>},
    {"aten::__contains__.Tensor(Dict(Tensor, t) dict, Tensor key) -> bool", boxed_inline<&dict_contains>},
    {"aten::__contains__.bool(Dict(bool, t) dict, bool key) -> bool", boxed_inline<&dict_contains>},
    {"aten::__contains__.complex(Dict(complex, t) dict, complex key) -> bool", boxed_inline<&dict_contains>},
    {"aten::__contains__.float(Dict(float, t) dict, float key) -> bool", boxed_inline<&dict_contains>},
    {"aten::__contains__.int(Dict(int, t) dict, int key) -> bool", boxed_inline<&dict_contains>},
    {"aten::__contains__.str(Dict(str, t) dict, str key) -> bool", boxed_inline<&dict_contains>},
    {"aten::__contains__.float_list(float[] l, float item) -> bool", boxed_inline<&list_contains>},
    {"aten::__contains__.int_list(int[] l, int item) -> bool", boxed_inline<&list_contains>},
    {"aten::__contains__.str_list(str[] l, str item) -> bool", boxed_inline<&list_contains>},
    {"aten::count.Tensor(Tensor[] self, Tensor el) -> int", boxed<&list_count>},
    {"aten::count.bool(bool[] self, bool el) -> int", boxed<&list_count>},
    {"aten::count.float(float[] self, float el) -> int", boxed<&list_count>},
    {"aten::count.int(int[] self, int el) -> int", boxed<&list_count>},
    {"aten::count.str(str[] self, str el) -> int", boxed<&list_count>},
    {"aten::count(str self, str substr, int start=0, int end=-1) -> int", boxed<&str_count>},
    {"aten::list.t(t[] l) -> t[]", boxed<&list_copy>},
    {"aten::list(str t) -> str[]", boxed<&list_of_chars>},
    // mutation shared by lists and dicts
    {"aten::_set_item.Tensor(Dict(Tensor, t)(a!) l, Tensor(b -> *) idx, t(c -> *) v) -> ()", boxed<&dict_set_item>},
    {"aten::_set_item.bool(Dict(bool, t)(a!) l, bool(b -> *) idx, t(c -> *) v) -> ()", boxed<&dict_set_item>},
    {"aten::_set_item.complex(Dict(complex, t)(a!) l, complex(b -> *) idx, t(c -> *) v) -> ()", boxed<&dict_set_item>},
    {"aten::_set_item.float(Dict(float, t)(a!) l, float(b -> *) idx, t(c -> *) v) -> ()", boxed<&dict_set_item>},
    {"aten::_set_item.int(Dict(int, t)(a!) l, int(b -> *) idx, t(c -> *) v) -> ()", boxed<&dict_set_item>},
    {"aten::_set_item.str(Dict(str, t)(a!) l, str(b -> *) idx, t(c -> *) v) -> ()", boxed<&dict_set_item>},
    {"aten::_set_item.t(t[](a!) l, int idx, t(b -> *) el) -> t[](a!)", boxed_inline<&list_set_item>},
    {"aten::pop.Dict_Tensor(Dict(Tensor, t)(a!) self, Tensor key) -> t(*)", boxed<&dict_pop>},
    {"aten::pop.Dict_bool(Dict(bool, t)(a!) self, bool key) -> t(*)", boxed<&dict_pop>},
    {"aten::pop.Dict_complex(Dict(complex, t)(a!) self, complex key) -> t(*)", boxed<&dict_pop>},
    {"aten::pop.Dict_float(Dict(float, t)(a!) self, float key) -> t(*)", boxed<&dict_pop>},
    {"aten::pop.Dict_int(Dict(int, t)(a!) self, int key) -> t(*)", boxed<&dict_pop>},
    {"aten::pop.Dict_str(Dict(str, t)(a!) self, str key) -> t(*)", boxed<&dict_pop>},
    {"aten::pop.Dict_default_Tensor(Dict(Tensor, t)(a!) self, Tensor key, t default_value) -> t(*)", boxed<&dict_pop_default>},
    {"aten::pop.Dict_default_bool(Dict(bool, t)(a!) self, bool key, t default_value) -> t(*)", boxed<&dict_pop_default>},
    {"aten::pop.Dict_default_complex(Dict(complex, t)(a!) self, complex key, t default_value) -> t(*)", boxed<&dict_pop_default>},
    {"aten::pop.Dict_default_float(Dict(float, t)(a!) self, float key, t default_value) -> t(*)", boxed<&dict_pop_default>},
    {"aten::pop.Dict_default_int(Dict(int, t)(a!) self, int key, t default_value) -> t(*)", boxed<&dict_pop_default>},
    {"aten::pop.Dict_default_str(Dict(str, t)(a!) self, str key, t default_value) -> t(*)", boxed<&dict_pop_default>},
    {"aten::pop.t(t[](a!) self, int idx=-1) -> t(*)", boxed<&list_pop>},
    {"aten::Delete.Dict_Tensor(Dict(Tensor, t)(a!) self, Tensor key) -> ()", boxed<&dict_delete>},
    {"aten::Delete.Dict_bool(Dict(bool, t)(a!) self, bool key) -> ()", boxed<&dict_delete>},
    {"aten::Delete.Dict_complex(Dict(complex, t)(a!) self, complex key) -> ()", boxed<&dict_delete>},
    {"aten::Delete.Dict_float(Dict(float, t)(a!) self, float key) -> ()", boxed<&dict_delete>},
    {"aten::Delete.Dict_int(Dict(int, t)(a!) self, int key) -> ()", boxed<&dict_delete>},
    {"aten::Delete.Dict_str(Dict(str, t)(a!) self, str key) -> ()", boxed<&dict_delete>},
    {"aten::Delete.t(t[](a!) self, int idx) -> ()", boxed<&list_delete>},
    {"aten::clear.Tensor(Dict(Tensor, t)(a!) self) -> ()", boxed<&dict_clear>},
    {"aten::clear.bool(Dict(bool, t)(a!) self) -> ()", boxed<&dict_clear>},
    {"aten::clear.complex(Dict(complex, t)(a!) self) -> ()", boxed<&dict_clear>},
    {"aten::clear.float(Dict(float, t)(a!) self) -> ()", boxed<&dict_clear>},
    {"aten::clear.int(Dict(int, t)(a!) self) -> ()", boxed<&dict_clear>},
    {"aten::clear.str(Dict(str, t)(a!) self) -> ()", boxed<&dict_clear>},
    {"aten::clear.t(t[](a!) self) -> ()", boxed<&list_clear>},
    // the other list methods
    {"aten::append.t(t[](a!) self, t(c -> *) el) -> t[](a!)", boxed_inline<&append>},
    {"aten::insert.t(t[](a!) self, int idx, t(b -> *) el) -> ()", boxed<&insert>},
    {"aten::remove.Tensor(Tensor[](a!) self, Tensor el) -> ()", boxed<&remove>},
    {"aten::remove.bool(bool[](a!) self, bool el) -> ()", boxed<&remove>},
    {"aten::remove.float(float[](a!) self, float el) -> ()", boxed<&remove>},
    {"aten::remove.int(int[](a!) self, int el) -> ()", boxed<&remove>},
    {"aten::remove.str(str[](a!) self, str el) -> ()", boxed<&remove>},
    {"aten::extend.t(t[](a!) self, t[] other) -> ()", boxed<&extend>},
    {"aten::reverse.t(t[](a!) self) -> ()", boxed<&reverse>},
    {"aten::sorted.Tensor(Tensor[](a) input) -> Tensor[]", boxed<&sorted>},
    {"aten::sorted.any(t[](a) self) -> t[]", boxed<&sorted>},
    {"aten::sorted.bool(bool[](a) input) -> bool[]", boxed<&sorted>},
    {"aten::sorted.float(float[](a) input) -> float[]", boxed<&sorted>},
    {"aten::sorted.int(int[](a) input) -> int[]", boxed<&sorted>},
    {"aten::sorted.str(str[](a) input) -> str[]", boxed<&sorted>},
    {"aten::_infer_size(int[] a, int[] b) -> int[]", boxed<&infer_size>},
    {"aten::Size(int[] sizes) -> int[]", boxed<&size_copy>},
    // the other dict methods
    {"aten::get.Tensor(Dict(Tensor, t) self, Tensor key) -> t(*)?", boxed<&get>},
    {"aten::get.bool(Dict(bool, t) self, bool key) -> t(*)?", boxed<&get>},
    {"aten::get.complex(Dict(complex, t) self, complex key) -> t(*)?", boxed<&get>},
    {"aten::get.float(Dict(float, t) self, float key) -> t(*)?", boxed<&get>},
    {"aten::get.int(Dict(int, t) self, int key) -> t(*)?", boxed<&get>},
    {"aten::get.str(Dict(str, t) self, str key) -> t(*)?", boxed<&get>},
    {"aten::get.default_Tensor(Dict(Tensor, t) self, Tensor key, t default_value) -> t(*)", boxed<&get_default>},
    {"aten::get.default_bool(Dict(bool, t) self, bool key, t default_value) -> t(*)", boxed<&get_default>},
    {"aten::get.default_complex(Dict(complex, t) self, complex key, t default_value) -> t(*)", boxed<&get_default>},
    {"aten::get.default_float(Dict(float, t) self, float key, t default_value) -> t(*)", boxed<&get_default>},
    {"aten::get.default_int(Dict(int, t) self, int key, t default_value) -> t(*)", boxed<&get_default>},
    {"aten::get.default_str(Dict(str, t) self, str key, t default_value) -> t(*)", boxed<&get_default>},
    {"aten::setdefault.Tensor(Dict(Tensor, t)(a!) self, Tensor(b -> *) key, t(c -> *) default_value) -> t(*)", boxed<&setdefault>},
    {"aten::setdefault.bool(Dict(bool, t)(a!) self, bool(b -> *) key, t(c -> *) default_value) -> t(*)", boxed<&setdefault>},
    {"aten::setdefault.complex(Dict(complex, t)(a!) self, complex(b -> *) key, t(c -> *) default_value) -> t(*)", boxed<&setdefault>},
    {"aten::setdefault.float(Dict(float, t)(a!) self, float(b -> *) key, t(c -> *) default_value) -> t(*)", boxed<&setdefault>},
    {"aten::setdefault.int(Dict(int, t)(a!) self, int(b -> *) key, t(c -> *) default_value) -> t(*)", boxed<&setdefault>},
    {"aten::setdefault.str(Dict(str, t)(a!) self, str(b -> *) key, t(c -> *) default_value) -> t(*)", boxed<&setdefault>},
    {"aten::popitem.Tensor(Dict(Tensor, t)(a!) self) -> ((Tensor, t))", boxed<&popitem>},
    {"aten::popitem.bool(Dict(bool, t)(a!) self) -> ((bool, t))", boxed<&popitem>},
    {"aten::popitem.complex(Dict(complex, t)(a!) self) -> ((complex, t))", boxed<&popitem>},
    {"aten::popitem.float(Dict(float, t)(a!) self) -> ((float, t))", boxed<&popitem>},
    {"aten::popitem.int(Dict(int, t)(a!) self) -> ((int, t))", boxed<&popitem>},
    {"aten::popitem.str(Dict(str, t)(a!) self) -> ((str, t))", boxed<&popitem>},
    {"aten::update.Tensor(Dict(Tensor, t)(a!) self, Dict(Tensor, t)(a!) to_add) -> ()", boxed<&update>},
    {"aten::update.bool(Dict(bool, t)(a!) self, Dict(bool, t)(a!) to_add) -> ()", boxed<&update>},
    {"aten::update.complex(Dict(complex, t)(a!) self, Dict(complex, t)(a!) to_add) -> ()", boxed<&update>},
    {"aten::update.float(Dict(float, t)(a!) self, Dict(float, t)(a!) to_add) -> ()", boxed<&update>},
    {"aten::update.int(Dict(int, t)(a!) self, Dict(int, t)(a!) to_add) -> ()", boxed<&update>},
    {"aten::update.str(Dict(str, t)(a!) self, Dict(str, t)(a!) to_add) -> ()", boxed<&update>},
    {"aten::keys.Tensor(Dict(Tensor, t) self) -> Tensor[](*)", boxed<&keys>},
    {"aten::keys.bool(Dict(bool, t) self) -> bool[](*)", boxed<&keys>},
    {"aten::keys.complex(Dict(complex, t) self) -> complex[](*)", boxed<&keys>},
    {"aten::keys.float(Dict(float, t) self) -> float[](*)", boxed<&keys>},
    {"aten::keys.int(Dict(int, t) self) -> int[](*)", boxed<&keys>},
    {"aten::keys.str(Dict(str, t) self) -> str[](*)", boxed<&keys>},
    {"aten::values.Tensor(Dict(Tensor, t) self) -> t[](*)", boxed<&values>},
    {"aten::values.bool(Dict(bool, t) self) -> t[](*)", boxed<&values>},
    {"aten::values.complex(Dict(complex, t) self) -> t[](*)", boxed<&values>},
    {"aten::values.float(Dict(float, t) self) -> t[](*)", boxed<&values>},
    {"aten::values.int(Dict(int, t) self) -> t[](*)", boxed<&values>},
    {"aten::values.str(Dict(str, t) self) -> t[](*)", boxed<&values>},
    {"aten::items.Tensor(Dict(Tensor, t) self) -> ((Tensor, t)[])", boxed<&items>},
    {"aten::items.bool(Dict(bool, t) self) -> ((bool, t)[])", boxed<&items>},
    {"aten::items.complex(Dict(complex, t) self) -> ((complex, t)[])", boxed<&items>},
    {"aten::items.float(Dict(float, t) self) -> ((float, t)[])", boxed<&items>},
    {"aten::items.int(Dict(int, t) self) -> ((int, t)[])", boxed<&items>},
    {"aten::items.str(Dict(str, t) self) -> ((str, t)[])", boxed<&items>},
    {"aten::dict.Dict_Tensor(Dict(Tensor, t)(a) self) -> Dict(Tensor, t)", boxed<&dict_copy>},
    {"aten::dict.Dict_bool(Dict(bool, t)(a) self) -> Dict(bool, t)", boxed<&dict_copy>},
    {"aten::dict.Dict_complex(Dict(complex, t)(a) self) -> Dict(complex, t)", boxed<&dict_copy>},
    {"aten::dict.Dict_float(Dict(float, t)(a) self) -> Dict(float, t)", boxed<&dict_copy>},
    {"aten::dict.Dict_int(Dict(int, t)(a) self) -> Dict(int, t)", boxed<&dict_copy>},
    {"aten::dict.Dict_str(Dict(str, t)(a) self) -> Dict(str, t)", boxed<&dict_copy>},
    {"aten::dict() -> Dict(str, Tensor)", boxed<&empty_dict>},
    {"aten::dict.Tensor((Tensor, tVal)[] inputs) -> Dict(Tensor, tVal)", boxed<&dict_from_pairs>},
    {"aten::dict.bool((bool, tVal)[] inputs) -> Dict(bool, tVal)", boxed<&dict_from_pairs>},
    {"aten::dict.complex((complex, tVal)[] inputs) -> Dict(complex, tVal)", boxed<&dict_from_pairs>},
    {"aten::dict.float((float, tVal)[] inputs) -> Dict(float, tVal)", boxed<&dict_from_pairs>},
    {"aten::dict.int((int, tVal)[] inputs) -> Dict(int, tVal)", boxed<&dict_from_pairs>},
    {"aten::dict.str((str, tVal)[] inputs) -> Dict(str, tVal)", boxed<&dict_from_pairs>},
    // min/max of lists and of numbers
    {"prim::max.self_bool(bool[] self) -> bool", boxed<&list_extreme<true>>},
    {"prim::max.self_float(float[] self) -> float", boxed<&list_extreme<true>>},
    {"prim::max.self_int(int[] self) -> int", boxed<&list_extreme<true>>},
    {"prim::max.bool_list(bool[] l, bool[] r) -> bool[]", boxed<&two_lists_extreme<true>>},
    {"prim::max.float_list(float[] l, float[] r) -> float[]", boxed<&two_lists_extreme<true>>},
    {"prim::max.int_list(int[] l, int[] r) -> int[]", boxed<&two_lists_extreme<true>>},
    {"prim::max(Scalar a, Scalar b) -> Scalar", boxed_inline<&scalar_extreme<true>>},
    {"prim::max.float(float a, float b) -> float", boxed_inline<&number_extreme<true, double, double>>},
    {"prim::max.float_int(float a, int b) -> float", boxed_inline<&number_extreme<true, double, int64_t>>},
    {"prim::max.int(int a, int b) -> int", boxed_inline<&number_extreme<true, int64_t, int64_t>>},
    {"prim::max.int_float(int a, float b) -> float", boxed_inline<&number_extreme<true, int64_t, double>>},
    {"prim::min.self_bool(bool[] self) -> bool", boxed<&list_extreme<false>>},
    {"prim::min.self_float(float[] self) -> float", boxed<&list_extreme<false>>},
    {"prim::min.self_int(int[] self) -> int", boxed<&list_extreme<false>>},
    {"prim::min.bool_list(bool[] l, bool[] r) -> bool[]", boxed<&two_lists_extreme<false>>},
    {"prim::min.float_list(float[] l, float[] r) -> float[]", boxed<&two_lists_extreme<false>>},
    {"prim::min.int_list(int[] l, int[] r) -> int[]", boxed<&two_lists_extreme<false>>},
    {"prim::min(Scalar a, Scalar b) -> Scalar", boxed_inline<&scalar_extreme<false>>},
    {"prim::min.float(float a, float b) -> float", boxed_inline<&number_extreme<false, double, double>>},
    {"prim::min.float_int(float a, int b) -> float", boxed_inline<&number_extreme<false, double, int64_t>>},
    {"prim::min.int(int a, int b) -> int", boxed_inline<&number_extreme<false, int64_t, int64_t>>},
    {"prim::min.int_float(int a, float b) -> float", boxed_inline<&number_extreme<false, int64_t, double>>},
});

}  // namespace torchlet::jit::ops

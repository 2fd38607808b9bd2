// TorchScript's list builtins (aten::__getitem__.t, append, insert, pop, remove, sort,
// slice, ...) and prim::min/max over lists. Lists are reference types: mutating
// operators change the ListImpl every alias sees, and new lists keep the element type
// of the list they came from. Error texts are the ones torch 1.13's interpreter raises.
#include <algorithm>
#include <complex>

#include <torchlet/ops.h>

#include "jit/ops/ops_util.h"
#include "jit/runtime/function.h"

namespace torchlet::jit::ops {
namespace {

// List element equality as torch's list operators define it: tensors compare by value
// (same shape and every element equal), everything else by Python ==.
bool element_equal(const IValue& a, const IValue& b) {
  if (a.isTensor() && b.isTensor()) {
    const Tensor x = a.toTensor();
    const Tensor y = b.toTensor();
    if (!(x.sizes() == y.sizes())) return false;
    return torchlet::all(torchlet::eq(x, y)).item().to_bool();
  }
  return a == b;
}

// Python's < between list elements (numbers, strings, bools, tensors by a one-element
// comparison); TypeError for kinds that have no order.
bool element_less(const IValue& a, const IValue& b) {
  if (a.isString() && b.isString()) return a.toStringRef() < b.toStringRef();
  if (a.isTensor() && b.isTensor()) return torchlet::lt(a.toTensor(), b.toTensor()).item().to_bool();
  if ((a.isInt() || a.isBool()) && (b.isInt() || b.isBool())) {
    return (a.isBool() ? int64_t{a.toBool()} : a.toInt()) < (b.isBool() ? int64_t{b.toBool()} : b.toInt());
  }
  if (a.isScalar() && b.isScalar() && !a.isComplexDouble() && !b.isComplexDouble())
    return a.toScalar().to_double() < b.toScalar().to_double();
  if (a.isTuple() && b.isTuple()) {
    // Lexicographic, as torch's tuple comparator: the first unequal element decides.
    const auto& x = a.tupleRef().elements;
    const auto& y = b.tupleRef().elements;
    for (size_t i = 0; i < std::min(x.size(), y.size()); ++i) {
      if (element_less(x[i], y[i])) return true;
      if (!(x[i] == y[i])) return false;
    }
    return x.size() < y.size();
  }
  if (a.isObject() && b.isObject()) {
    // A class orders its instances with __lt__, which list.sort calls as torch's does.
    const ClassTypePtr& cls = a.objectRef().type;
    if (Function* lt = cls ? cls->find_method("__lt__") : nullptr) return (*lt)({a, b}).toBool();
    TL_FAIL(TypeError, "'<' not supported between instances of '{}' and '{}' (the class defines no __lt__)",
            cls ? cls->name() : "object", b.objectRef().type ? b.objectRef().type->name() : "object");
  }
  TL_FAIL(TypeError, "'<' not supported between instances of '{}' and '{}'", a.tag_name(), b.tag_name());
}

void getitem(Stack& s) {
  int64_t idx = pop_int(s);
  IValue list = pop(s);
  const auto& e = list.listRef().elements;
  push(s, e[normalize_index(idx, e.size())]);
}
void set_item(Stack& s) {
  IValue el = pop(s);
  int64_t idx = pop_int(s);
  IValue list = pop(s);
  auto& e = list.listRef().elements;
  e[normalize_index(idx, e.size(), "list index out of range")] = std::move(el);
  push(s, std::move(list));
}
void append(Stack& s) {
  IValue el = pop(s);
  IValue list = pop(s);
  list.listRef().elements.push_back(std::move(el));
  push(s, std::move(list));
}
// list.insert clamps the index into [0, len], as Python does.
void insert(Stack& s) {
  IValue el = pop(s);
  int64_t idx = pop_int(s);
  IValue list = pop(s);
  auto& e = list.listRef().elements;
  const auto n = static_cast<int64_t>(e.size());
  if (idx < 0) idx = std::max<int64_t>(0, idx + n);
  idx = std::min(idx, n);
  e.insert(e.begin() + idx, std::move(el));
}
void pop_(Stack& s) {
  int64_t idx = pop_int(s);
  IValue list = pop(s);
  auto& e = list.listRef().elements;
  TL_CHECK(!e.empty(), IndexError, "pop from empty list");
  size_t i = normalize_index(idx, e.size(), "list index out of range");
  IValue v = std::move(e[i]);
  e.erase(e.begin() + static_cast<std::ptrdiff_t>(i));
  push(s, std::move(v));
}
void remove(Stack& s) {
  IValue el = pop(s);
  IValue list = pop(s);
  auto& e = list.listRef().elements;
  auto it = std::find_if(e.begin(), e.end(), [&](const IValue& x) { return element_equal(x, el); });
  TL_CHECK(it != e.end(), ValueError, "list.remove(x): x not in list");
  e.erase(it);
}
void delete_(Stack& s) {
  int64_t idx = pop_int(s);
  IValue list = pop(s);
  auto& e = list.listRef().elements;
  size_t i = normalize_index(idx, e.size(), "list assignment index out of range");
  e.erase(e.begin() + static_cast<std::ptrdiff_t>(i));
}
void extend(Stack& s) {
  IValue other = pop(s);
  IValue list = pop(s);
  // Copy first: l.extend(l) appends the original elements once.
  std::vector<IValue> add = other.listRef().elements;
  auto& e = list.listRef().elements;
  (void)result_length(e.size() + add.size(), sizeof(IValue), "list.extend");  // not reserve: amortised growth
  e.insert(e.end(), add.begin(), add.end());
}
void clear(Stack& s) { pop(s).listRef().elements.clear(); }
void reverse(Stack& s) {
  IValue list = pop(s);
  std::reverse(list.listRef().elements.begin(), list.listRef().elements.end());
}
void copy(Stack& s) {
  IValue list = pop(s);
  push(s, list_like(list.listRef(), list.listRef().elements));
}
void concat(Stack& s) {
  IValue b = pop(s);
  IValue a = pop(s);
  const auto& left = a.listRef().elements;
  const auto& right = b.listRef().elements;
  std::vector<IValue> e;
  e.reserve(result_length(left.size() + right.size(), sizeof(IValue), "list + list"));
  e.insert(e.end(), left.begin(), left.end());
  e.insert(e.end(), right.begin(), right.end());
  push(s, list_like(a.listRef(), std::move(e)));
}
IValue repeat_list(const IValue& list, int64_t n) {
  std::vector<IValue> e;
  const auto& src = list.listRef().elements;
  // Reserved up front, as torch does: [0] * (1 << 40) fails at once, not at the end of
  // the machine's memory, and [] * (1 << 62) does not loop 2^62 times.
  e.reserve(repeated_size(src.size(), n, sizeof(IValue), "list * int"));
  if (!src.empty())
    for (int64_t i = 0; i < n; ++i) e.insert(e.end(), src.begin(), src.end());
  return list_like(list.listRef(), std::move(e));
}
void mul_left(Stack& s) {
  int64_t n = pop_int(s);
  IValue list = pop(s);
  push(s, repeat_list(list, n));
}
void mul_right(Stack& s) {
  IValue list = pop(s);
  int64_t n = pop_int(s);
  push(s, repeat_list(list, n));
}
// l += other and l *= n: in place, returning the same list.
void extend_inplace(Stack& s) {
  IValue other = pop(s);
  IValue list = pop(s);
  std::vector<IValue> add = other.listRef().elements;
  auto& e = list.listRef().elements;
  (void)result_length(e.size() + add.size(), sizeof(IValue), "list += list");  // not reserve: amortised growth
  e.insert(e.end(), add.begin(), add.end());
  push(s, std::move(list));
}
void repeat_inplace(Stack& s) {
  int64_t n = pop_int(s);
  IValue list = pop(s);
  list.listRef().elements = repeat_list(list, n).listRef().elements;
  push(s, std::move(list));
}
void len(Stack& s) { push(s, static_cast<int64_t>(pop(s).listRef().elements.size())); }

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
  for (int64_t i = lo; step > 0 ? i < hi : i > hi; i += step) out.push_back(static_cast<size_t>(i));
  return out;
}

namespace {

void slice(Stack& s) {
  int64_t step = pop_int(s);
  auto end = pop_opt_int(s);
  auto start = pop_opt_int(s);
  IValue list = pop(s);
  const auto& src = list.listRef().elements;
  std::vector<IValue> e;
  for (size_t i : slice_indices(src.size(), start, end, step)) e.push_back(src[i]);
  push(s, list_like(list.listRef(), std::move(e)));
}
void count(Stack& s) {
  IValue el = pop(s);
  IValue list = pop(s);
  const auto& e = list.listRef().elements;
  push(s, static_cast<int64_t>(std::count_if(e.begin(), e.end(), [&](const IValue& x) { return element_equal(x, el); })));
}
void index(Stack& s) {
  IValue el = pop(s);
  IValue list = pop(s);
  const auto& e = list.listRef().elements;
  auto it = std::find_if(e.begin(), e.end(), [&](const IValue& x) { return element_equal(x, el); });
  TL_CHECK(it != e.end(), ValueError, "'{}' is not in list", ivalue_str(el));
  push(s, static_cast<int64_t>(it - e.begin()));
}
void contains(Stack& s) {
  IValue el = pop(s);
  IValue list = pop(s);
  const auto& e = list.listRef().elements;
  push(s, std::any_of(e.begin(), e.end(), [&](const IValue& x) { return element_equal(x, el); }));
}
void sort_elements(std::vector<IValue>& e, bool reverse_order) {
  // Stable, and reverse keeps equal elements in order, as Python's sort(reverse=True).
  if (reverse_order) {
    std::stable_sort(e.begin(), e.end(), [](const IValue& a, const IValue& b) { return element_less(b, a); });
  } else {
    std::stable_sort(e.begin(), e.end(), element_less);
  }
}
void sort(Stack& s) {
  bool reverse_order = pop_bool(s);
  IValue list = pop(s);
  // Sorted aside: a comparison that throws midway must leave the list as it was.
  std::vector<IValue> e = list.listRef().elements;
  sort_elements(e, reverse_order);
  list.listRef().elements = std::move(e);
}
void sorted(Stack& s) {
  IValue list = pop(s);
  std::vector<IValue> e = list.listRef().elements;
  sort_elements(e, false);
  push(s, list_like(list.listRef(), std::move(e)));
}
void sum(Stack& s) {
  IValue list = pop(s);
  int64_t i = 0;
  double d = 0;
  std::complex<double> c = 0;
  bool any_double = false, any_complex = false;
  for (const auto& v : list.listRef().elements) {
    if (v.isComplexDouble()) {
      any_complex = true;
      c += v.toComplexDouble();
    } else if (v.isDouble()) {
      any_double = true;
      d += v.toDouble();
    } else {
      i = static_cast<int64_t>(static_cast<uint64_t>(i) + static_cast<uint64_t>(v.isBool() ? int64_t{v.toBool()} : v.toInt()));
    }
  }
  if (any_complex) return push(s, c + std::complex<double>(d + static_cast<double>(i), 0));
  if (any_double) return push(s, d + static_cast<double>(i));
  push(s, i);
}
// sum.float: a float even for an empty list (sum([]) of float[] is 0.0).
void sum_float(Stack& s) {
  sum(s);
  if (s.back().isInt()) s.back() = IValue(static_cast<double>(s.back().toInt()));
}

// prim::max/min of one list: the extreme element; of two lists: the lexicographically
// larger/smaller list.
template <bool kMax>
void list_extreme(Stack& s) {
  IValue list = pop(s);
  const auto& e = list.listRef().elements;
  TL_CHECK(!e.empty(), ValueError, "{}() arg is an empty sequence", kMax ? "max" : "min");
  IValue best = e[0];
  for (size_t i = 1; i < e.size(); ++i) {
    if (kMax ? element_less(best, e[i]) : element_less(e[i], best)) best = e[i];
  }
  push(s, best);
}
template <bool kMax>
void two_lists_extreme(Stack& s) {
  IValue r = pop(s);
  IValue l = pop(s);
  const auto& a = l.listRef().elements;
  const auto& b = r.listRef().elements;
  bool l_less = std::lexicographical_compare(a.begin(), a.end(), b.begin(), b.end(), element_less);
  bool pick_left = kMax ? !l_less : l_less;
  // Equal lists: either is the answer; torch returns the right one for max on ties.
  if (!l_less && !std::lexicographical_compare(b.begin(), b.end(), a.begin(), a.end(), element_less)) pick_left = false;
  IValue& chosen = pick_left ? l : r;
  push(s, list_like(chosen.listRef(), chosen.listRef().elements));
}

void infer_size(Stack& s) {
  auto b = pop_int_list(s);
  auto a = pop_int_list(s);
  push(s, int_list(broadcast_shapes(a, b)));
}
void size_copy(Stack& s) { push(s, int_list(pop_int_list(s))); }

}  // namespace

static RegisterOps reg({
    {"aten::__getitem__.t(t[](a) list, int idx) -> t(*)", getitem},
    {"aten::_set_item.t(t[](a!) l, int idx, t(b -> *) el) -> t[](a!)", set_item},
    {"aten::add_.t(t[](a!) self, t[] b) -> t[]", extend_inplace},
    {"aten::mul_.t(t[](a!) l, int n) -> t[](a!)", repeat_inplace},
    {"aten::append.t(t[](a!) self, t(c -> *) el) -> t[](a!)", append},
    {"aten::insert.t(t[](a!) self, int idx, t(b -> *) el) -> ()", insert},
    {"aten::pop.t(t[](a!) self, int idx=-1) -> t(*)", pop_},
    {"aten::remove.Tensor(Tensor[](a!) self, Tensor el) -> ()", remove},
    {"aten::remove.bool(bool[](a!) self, bool el) -> ()", remove},
    {"aten::remove.float(float[](a!) self, float el) -> ()", remove},
    {"aten::remove.int(int[](a!) self, int el) -> ()", remove},
    {"aten::remove.str(str[](a!) self, str el) -> ()", remove},
    {"aten::Delete.t(t[](a!) self, int idx) -> ()", delete_},
    {"aten::extend.t(t[](a!) self, t[] other) -> ()", extend},
    {"aten::clear.t(t[](a!) self) -> ()", clear},
    {"aten::reverse.t(t[](a!) self) -> ()", reverse},
    {"aten::copy.t(t[](a) self) -> t[]", copy},
    {"aten::list.t(t[] l) -> t[]", copy},
    {"aten::add.t(t[] a, t[] b) -> t[]", concat},
    {"aten::mul.left_t(t[] l, int n) -> t[]", mul_left},
    {"aten::mul.right_(int n, t[] l) -> t[]", mul_right},
    // len.t before len.any, in torch's order: a tuple whose elements unify is a t[].
    {"aten::len.t(t[] a) -> int", len},
    {"aten::len.any(Any[] a) -> int", len},
    {"aten::slice.t(t[] l, int? start=None, int? end=None, int step=1) -> t[]", slice},
    {"aten::count.Tensor(Tensor[] self, Tensor el) -> int", count},
    {"aten::count.bool(bool[] self, bool el) -> int", count},
    {"aten::count.float(float[] self, float el) -> int", count},
    {"aten::count.int(int[] self, int el) -> int", count},
    {"aten::count.str(str[] self, str el) -> int", count},
    {"aten::index.list_Tensor(Tensor[] self, Tensor el) -> int", index},
    {"aten::index.list_bool(bool[] self, bool el) -> int", index},
    {"aten::index.list_float(float[] self, float el) -> int", index},
    {"aten::index.list_int(int[] self, int el) -> int", index},
    {"aten::index.list_str(str[] self, str el) -> int", index},
    {"aten::__contains__.float_list(float[] l, float item) -> bool", contains},
    {"aten::__contains__.int_list(int[] l, int item) -> bool", contains},
    {"aten::__contains__.str_list(str[] l, str item) -> bool", contains},
    {"aten::sort.Tensor(Tensor[](a!) self, bool reverse=False) -> ()", sort},
    {"aten::sort.any(t[](a!) self, bool reverse=False) -> ()", sort},
    {"aten::sort.bool(bool[](a!) self, bool reverse=False) -> ()", sort},
    {"aten::sort.float(float[](a!) self, bool reverse=False) -> ()", sort},
    {"aten::sort.int(int[](a!) self, bool reverse=False) -> ()", sort},
    {"aten::sort.str(str[](a!) self, bool reverse=False) -> ()", sort},
    {"aten::sorted.Tensor(Tensor[](a) input) -> Tensor[]", sorted},
    {"aten::sorted.any(t[](a) self) -> t[]", sorted},
    {"aten::sorted.bool(bool[](a) input) -> bool[]", sorted},
    {"aten::sorted.float(float[](a) input) -> float[]", sorted},
    {"aten::sorted.int(int[](a) input) -> int[]", sorted},
    {"aten::sorted.str(str[](a) input) -> str[]", sorted},
    {"aten::sum.bool(bool[] self) -> int", sum},
    {"aten::sum.complex(complex[] self) -> complex", sum},
    {"aten::sum.float(float[] self) -> float", sum_float},
    {"aten::sum.int(int[] self) -> int", sum},
    {"prim::max.self_bool(bool[] self) -> bool", list_extreme<true>},
    {"prim::max.self_float(float[] self) -> float", list_extreme<true>},
    {"prim::max.self_int(int[] self) -> int", list_extreme<true>},
    {"prim::min.self_bool(bool[] self) -> bool", list_extreme<false>},
    {"prim::min.self_float(float[] self) -> float", list_extreme<false>},
    {"prim::min.self_int(int[] self) -> int", list_extreme<false>},
    {"prim::max.bool_list(bool[] l, bool[] r) -> bool[]", two_lists_extreme<true>},
    {"prim::max.float_list(float[] l, float[] r) -> float[]", two_lists_extreme<true>},
    {"prim::max.int_list(int[] l, int[] r) -> int[]", two_lists_extreme<true>},
    {"prim::min.bool_list(bool[] l, bool[] r) -> bool[]", two_lists_extreme<false>},
    {"prim::min.float_list(float[] l, float[] r) -> float[]", two_lists_extreme<false>},
    {"prim::min.int_list(int[] l, int[] r) -> int[]", two_lists_extreme<false>},
    {"aten::_infer_size(int[] a, int[] b) -> int[]", infer_size},
    {"aten::Size(int[] sizes) -> int[]", size_copy},

});

}  // namespace torchlet::jit::ops

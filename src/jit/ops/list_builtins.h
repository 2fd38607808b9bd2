// TorchScript's list and dict semantics shared between files: element equality and
// order as torch's list operators define them (element_equal, element_less), and the
// typed kernels of the list/dict overloads that the family files register beside the
// tensor overloads of the same names (list + and * in arithmetic.cpp, slice.t in
// shape.cpp, index.list_* in indexing.cpp, sort.* in sorting.cpp, sum.* in
// reduction.cpp, copy.t/copy.Dict_* in conversion.cpp). builtins_containers.cpp holds
// the names that have no tensor form (len, append, get, ...). Lists and dicts are
// reference types: a mutating kernel changes the ListImpl/DictImpl every alias sees, and
// a new list keeps the element type of the list it came from. Error texts are torch
// 1.13's interpreter's.
#pragma once

#include <algorithm>
#include <complex>
#include <optional>
#include <vector>

#include <torchlet/error.h>
#include <torchlet/ivalue.h>
#include <torchlet/ops.h>

#include "jit/ops/ops_util.h"
#include "jit/runtime/function.h"

namespace torchlet::jit::ops {

// --- element comparison ---------------------------------------------------------------
// List element equality as torch's list operators define it: tensors compare by value
// (same shape and every element equal), everything else by Python ==.
inline bool element_equal(const IValue& a, const IValue& b) {
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
inline bool element_less(const IValue& a, const IValue& b) {
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

// --- copies: list(l), l.copy(), dict(d), d.copy() ---------------------------------------
inline IValue list_copy(const IValue& list) { return list_like(list.listRef(), list.listRef().elements); }
inline IValue dict_copy(const IValue& d) {
  const DictImpl& dict = d.dictRef();
  auto out = make_intrusive<DictImpl>(dict.key_type, dict.value_type);
  for (const auto& [k, v] : dict.items()) out->insert_or_assign(k, v);
  return IValue(std::move(out));
}

// --- + and * of lists (aten::add.t, aten::mul.left_t, ...) -----------------------------
inline IValue list_concat(const IValue& a, const IValue& b) {
  const auto& left = a.listRef().elements;
  const auto& right = b.listRef().elements;
  std::vector<IValue> e;
  e.reserve(result_length(left.size() + right.size(), sizeof(IValue), "list + list"));
  e.insert(e.end(), left.begin(), left.end());
  e.insert(e.end(), right.begin(), right.end());
  return list_like(a.listRef(), std::move(e));
}
inline IValue list_repeat(const IValue& list, int64_t n) {
  std::vector<IValue> e;
  const auto& src = list.listRef().elements;
  // Reserved up front, as torch does: [0] * (1 << 40) fails at once, not at the end of
  // the machine's memory, and [] * (1 << 62) does not loop 2^62 times.
  e.reserve(repeated_size(src.size(), n, sizeof(IValue), "list * int"));
  if (!src.empty())
    for (int64_t i = 0; i < n; ++i) e.insert(e.end(), src.begin(), src.end());
  return list_like(list.listRef(), std::move(e));
}
inline IValue list_repeat_right(int64_t n, const IValue& list) { return list_repeat(list, n); }
// l += other and l *= n: in place, returning the same list.
inline IValue list_extend_inplace(IValue list, const IValue& other) {
  std::vector<IValue> add = other.listRef().elements;
  auto& e = list.listRef().elements;
  (void)result_length(e.size() + add.size(), sizeof(IValue), "list += list");  // not reserve: amortised growth
  e.insert(e.end(), add.begin(), add.end());
  return list;
}
inline IValue list_repeat_inplace(IValue list, int64_t n) {
  list.listRef().elements = list_repeat(list, n).listRef().elements;
  return list;
}

// --- slice, index, sort and sum of lists ------------------------------------------------
inline IValue list_slice(const IValue& list, std::optional<int64_t> start, std::optional<int64_t> end, int64_t step) {
  const auto& src = list.listRef().elements;
  std::vector<IValue> e;
  for (size_t i : slice_indices(src.size(), start, end, step)) e.push_back(src[i]);
  return list_like(list.listRef(), std::move(e));
}
inline int64_t list_index(const IValue& list, const IValue& el) {
  const auto& e = list.listRef().elements;
  auto it = std::find_if(e.begin(), e.end(), [&](const IValue& x) { return element_equal(x, el); });
  TL_CHECK(it != e.end(), ValueError, "'{}' is not in list", ivalue_str(el));
  return static_cast<int64_t>(it - e.begin());
}
inline void sort_elements(std::vector<IValue>& e, bool reverse_order) {
  // Stable, and reverse keeps equal elements in order, as Python's sort(reverse=True).
  if (reverse_order) {
    std::stable_sort(e.begin(), e.end(), [](const IValue& a, const IValue& b) { return element_less(b, a); });
  } else {
    std::stable_sort(e.begin(), e.end(), element_less);
  }
}
inline void list_sort(const IValue& list, bool reverse_order) {
  // Sorted aside: a comparison that throws midway must leave the list as it was.
  std::vector<IValue> e = list.listRef().elements;
  sort_elements(e, reverse_order);
  list.listRef().elements = std::move(e);
}
// sum of a number list: an int unless a float (then a float) or a complex element
// (then a complex) is among them.
inline IValue list_sum(const IValue& list) {
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
  if (any_complex) return IValue(c + std::complex<double>(d + static_cast<double>(i), 0));
  if (any_double) return IValue(d + static_cast<double>(i));
  return IValue(i);
}
// sum.float: a float even for an empty list (sum([]) of float[] is 0.0).
inline IValue list_sum_float(const IValue& list) {
  IValue r = list_sum(list);
  return r.isInt() ? IValue(static_cast<double>(r.toInt())) : r;
}

}  // namespace torchlet::jit::ops

// Helpers shared by the runtime tests: graphs from IR text, and value comparison that
// treats tensors by contents (IValue == compares tensors by identity).
#pragma once

#include <cmath>
#include <string>

#include <gtest/gtest.h>
#include <torchlet/ivalue.h>

#include "jit/ir/ir_parser.h"
#include "jit/runtime/compilation_unit.h"

namespace torchlet::jit::testing {

// "" when equal; else what differs, for the failure message. Tensors compare as printed,
// or, with rtol > 0, floating-point ones element by element within rtol (relative, and
// rtol / 10 absolute: the operator tests' rule), NaN matching NaN.
inline std::string compare_values(const IValue& got, const IValue& want, double rtol = 0) {
  if (got.isTensor() && want.isTensor()) {
    const Tensor g = got.toTensor(), w = want.toTensor();
    if (g.dtype() != w.dtype()) return "dtype " + std::string(dtype_name(g.dtype())) + " vs " + std::string(dtype_name(w.dtype()));
    if (shape_repr(g.sizes()) != shape_repr(w.sizes())) return "shape " + shape_repr(g.sizes()) + " vs " + shape_repr(w.sizes());
    if (rtol > 0 && is_floating(g.dtype())) {
      const auto gv = g.to_vector<double>(), wv = w.to_vector<double>();
      for (size_t i = 0; i < gv.size(); ++i) {
        if (std::isnan(gv[i]) && std::isnan(wv[i])) continue;
        if (gv[i] == wv[i]) continue;  // equal infinities too, whose difference is NaN
        if (!(std::fabs(gv[i] - wv[i]) <= rtol * 0.1 + rtol * std::fabs(wv[i])))
          return "element " + std::to_string(i) + ": " + std::to_string(gv[i]) + " vs " + std::to_string(wv[i]);
      }
      return "";
    }
    return g.repr() == w.repr() ? "" : g.repr() + " vs " + w.repr();
  }
  if ((got.isTuple() && want.isTuple()) || (got.isList() && want.isList())) {
    const auto& a = got.isTuple() ? got.tupleRef().elements : got.listRef().elements;
    const auto& b = want.isTuple() ? want.tupleRef().elements : want.listRef().elements;
    if (a.size() != b.size()) return got.repr() + " vs " + want.repr();
    for (size_t i = 0; i < a.size(); ++i)
      if (auto d = compare_values(a[i], b[i], rtol); !d.empty()) return d;
    return "";
  }
  if (got.isDict() && want.isDict()) {  // keys in order, values as above (== on tensors is identity)
    const auto& a = got.dictRef().items();
    const auto& b = want.dictRef().items();
    if (a.size() != b.size()) return got.repr() + " vs " + want.repr();
    for (size_t i = 0; i < a.size(); ++i) {
      if (!(a[i].first == b[i].first)) return "key " + a[i].first.repr() + " vs " + b[i].first.repr();
      if (auto d = compare_values(a[i].second, b[i].second, rtol); !d.empty()) return d;
    }
    return "";
  }
  if (got.tag() != want.tag()) return std::string("kind ") + got.tag_name() + " vs " + want.tag_name() + ": " + got.repr() + " vs " + want.repr();
  if (got.isDouble() && std::isnan(got.toDouble()) && std::isnan(want.toDouble())) return "";  // nan == nan here
  return got == want ? "" : got.repr() + " vs " + want.repr();
}

}  // namespace torchlet::jit::testing

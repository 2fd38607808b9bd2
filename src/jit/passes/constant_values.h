// What passes ask of a value that a prim::Constant may hold: its int, bool or tensor, and
// whether a type is one of TorchScript's numbers (what a schema's Scalar takes).
#pragma once

#include <cstdint>
#include <optional>

#include <torchlet/tensor.h>

#include "jit/ir/ir.h"

namespace torchlet::jit {

inline std::optional<int64_t> constant_int(const Value* v) {
  std::optional<IValue> iv = to_ivalue(v);
  if (!iv || !iv->isInt()) return std::nullopt;
  return iv->toInt();
}

inline std::optional<bool> constant_bool(const Value* v) {
  std::optional<IValue> iv = to_ivalue(v);
  if (!iv || !iv->isBool()) return std::nullopt;
  return iv->toBool();
}

inline std::optional<Tensor> constant_tensor(const Value* v) {
  std::optional<IValue> iv = to_ivalue(v);
  if (!iv || !iv->isTensor()) return std::nullopt;
  return iv->toTensor();
}

inline bool is_number_type(const TypePtr& t) {
  const TypeKind k = t->kind();
  return k == TypeKind::Int || k == TypeKind::Float || k == TypeKind::Complex || k == TypeKind::Number;
}

}  // namespace torchlet::jit

// The export-only operators of export_operators.h, with torch's 2.x schemas and the
// semantics of torch's eager kernels.
#include "export/export_operators.h"

#include <cmath>
#include <limits>
#include <memory>
#include <vector>

#include <fmt/format.h>
#include <torchlet/error.h>
#include <torchlet/ops.h>

#include "core/python_format.h"
#include "jit/runtime/stack.h"

namespace torchlet::exported {
namespace {

using jit::drop;
using jit::pop;
using jit::push;
using jit::Stack;

bool truthy(const IValue& v) {
  if (v.isBool()) return v.toBool();
  if (v.isInt()) return v.toInt() != 0;
  if (v.isDouble()) return v.toDouble() != 0;
  TL_FAIL(TypeError, "_assert_scalar: expected a bool, int or float, not a {}", v.tag_name());
}

// _assert_scalar(Scalar self, str assert_msg) -> (): the runtime assertion export
// writes for a guard on symbolic sizes ("Runtime assertion failed for expression ...").
void assert_scalar(Stack& s) {
  const std::string msg = pop(s).toStringRef();
  if (!truthy(pop(s))) TL_FAIL(ValueError, "{}", printable_text(msg));
}

// _assert_async.msg(Tensor self, str assert_msg) -> (): a one-element tensor's truth.
void assert_async_msg(Stack& s) {
  const std::string msg = pop(s).toStringRef();
  const Tensor t = pop(s).toTensor();
  TL_CHECK(t.numel() == 1, ValueError, "Boolean value of Tensor with {} elements is ambiguous", t.numel());
  if (!t.item().to_bool()) TL_FAIL(ValueError, "{}", printable_text(msg));
}

// sym_constrain_range(_for_size)(Scalar size, *, int? min=None, int? max=None) -> ().
void constrain_range(Stack& s) {
  const IValue max = pop(s), min = pop(s);
  const IValue size = pop(s);
  TL_CHECK(size.isInt(), TypeError, "sym_constrain_range: the size is a {}, not an int", size.tag_name());
  const int64_t v = size.toInt();
  const bool below = !min.isNone() && v < min.toInt(), above = !max.isNone() && v > max.toInt();
  if (below || above)
    TL_FAIL(ValueError, "Invalid value range for {} between [{}, {}]", v, min.isNone() ? "-inf" : std::to_string(min.toInt()),
            max.isNone() ? "inf" : std::to_string(max.toInt()));
}

// _assert_tensor_metadata(Tensor a, SymInt[]? size=None, SymInt[]? stride=None,
// ScalarType? dtype=None, *, Device? device=None, Layout? layout=None) -> ().
void assert_tensor_metadata(Stack& s) {
  drop(s, 2);  // device, layout: every tensor here is a strided CPU tensor
  const IValue dtype = pop(s), stride = pop(s), size = pop(s);
  const Tensor a = pop(s).toTensor();
  auto as_shape = [](const IValue& v) {
    Shape out;
    for (const IValue& e : v.listRef().elements) out.push_back(e.toInt());
    return out;
  };
  if (!size.isNone()) {
    const Shape want = as_shape(size);
    TL_CHECK(a.sizes() == want, ValueError, "Tensor sizes mismatch: expected {}, got {}", fmt::join(want, ", "),
             fmt::join(a.sizes(), ", "));
  }
  if (!stride.isNone()) {
    const Shape want = as_shape(stride);
    TL_CHECK(a.strides() == want, ValueError, "Tensor strides mismatch: expected {}, got {}", fmt::join(want, ", "),
             fmt::join(a.strides(), ", "));
  }
  if (!dtype.isNone()) {
    auto want = dtype_from_scalar_type_index(dtype.toInt());
    TL_CHECK(want && *want == a.dtype(), ValueError, "Tensor dtype mismatch: expected {}, got {}",
             want ? std::string(dtype_name(*want)) : std::to_string(dtype.toInt()), dtype_name(a.dtype()));
  }
}

// scaled_dot_product_attention(Tensor query, Tensor key, Tensor value, Tensor? attn_mask=None,
// float dropout_p=0.0, bool is_causal=False, *, float? scale=None, bool enable_gqa=False) -> Tensor,
// as torch's math reference computes it: softmax(q k^T * scale + bias) v, where the bias
// is -inf where a bool mask (or the causal triangle) is false, or a float mask itself.
void scaled_dot_product_attention(Stack& s) {
  const bool enable_gqa = pop(s).toBool();
  const IValue scale_v = pop(s);
  const bool is_causal = pop(s).toBool();
  const double dropout_p = pop(s).toDouble();
  const IValue mask_v = pop(s);
  Tensor value = pop(s).toTensor(), key = pop(s).toTensor();
  const Tensor query = pop(s).toTensor();
  TL_CHECK(query.dim() >= 2 && key.dim() >= 2 && value.dim() >= 2, ValueError,
           "scaled_dot_product_attention: query, key and value need at least 2 dimensions");
  const int64_t L = query.sizes()[query.dim() - 2], S = key.sizes()[key.dim() - 2];
  const double scale = scale_v.isNone() ? 1.0 / std::sqrt(static_cast<double>(query.sizes().back())) : scale_v.toDouble();
  if (enable_gqa && query.dim() >= 3 && key.dim() >= 3) {
    const int64_t groups = query.sizes()[query.dim() - 3] / key.sizes()[key.dim() - 3];
    key = repeat_interleave(key, groups, -3);
    value = repeat_interleave(value, groups, -3);
  }
  Tensor weight = mul(matmul(query, key.transpose(-2, -1)), Scalar(scale));
  const double neg_inf = -std::numeric_limits<double>::infinity();
  if (is_causal) {
    TL_CHECK(mask_v.isNone(), ValueError, "_scaled_dot_product_attention: Explicit attn_mask should not be set when is_causal=True");
    const Tensor keep = tril(ones({L, S}, DType::Bool));
    weight = masked_fill(weight, logical_not(keep), Scalar(neg_inf));
  }
  if (!mask_v.isNone()) {
    const Tensor mask = mask_v.toTensor();
    weight = mask.dtype() == DType::Bool ? masked_fill(weight, logical_not(mask), Scalar(neg_inf)) : add(weight, mask);
  }
  weight = softmax(weight, -1);
  // F.scaled_dot_product_attention drops out whenever dropout_p > 0, in eval mode too.
  if (dropout_p > 0) weight = dropout(weight, dropout_p, /*train=*/true);
  push(s, matmul(weight, value));
}

struct Row {
  const char* schema;
  jit::Operation op;
};

const std::vector<std::unique_ptr<jit::Operator>>& table() {
  static const auto* operators = [] {
    const Row rows[] = {
        {"aten::_assert_scalar(Scalar self, str assert_msg) -> ()", assert_scalar},
        {"aten::_assert_async.msg(Tensor self, str assert_msg) -> ()", assert_async_msg},
        {"aten::sym_constrain_range(Scalar size, *, int? min=None, int? max=None) -> ()", constrain_range},
        {"aten::sym_constrain_range_for_size(Scalar size, *, int? min=None, int? max=None) -> ()", constrain_range},
        {"aten::_assert_tensor_metadata(Tensor a, SymInt[]? size=None, SymInt[]? stride=None, ScalarType? dtype=None, *, Device? device=None, Layout? layout=None) -> ()",
         assert_tensor_metadata},
        {"aten::scaled_dot_product_attention(Tensor query, Tensor key, Tensor value, Tensor? attn_mask=None, float dropout_p=0.0, bool is_causal=False, *, float? scale=None, bool enable_gqa=False) -> Tensor",
         scaled_dot_product_attention},
    };
    auto* out = new std::vector<std::unique_ptr<jit::Operator>>();
    for (const Row& r : rows) out->push_back(std::make_unique<jit::Operator>(r.schema, r.op));
    return out;
  }();
  return *operators;
}

}  // namespace

const jit::Operator* find_export_operator(std::string_view key) {
  for (const auto& op : table())
    if (op->qualified_overload() == key) return op.get();
  return nullptr;
}

}  // namespace torchlet::exported

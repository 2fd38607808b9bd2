// Broadcasting and type promotion: torch.promote_types as rules over dtype kinds
// (not a hand-copied 18x18 table), and torch.result_type's priority of dimensioned
// tensors over zero-dim tensors over Python scalars.
#include <algorithm>

#include <torchlet/error.h>
#include <torchlet/tensor.h>

namespace torchlet {

Shape broadcast_shapes(IntList a, IntList b) {
  size_t n = std::max(a.size(), b.size());
  Shape out(n);
  for (size_t i = 0; i < n; ++i) {
    int64_t x = i < n - a.size() ? 1 : a[i - (n - a.size())];
    int64_t y = i < n - b.size() ? 1 : b[i - (n - b.size())];
    TL_CHECK(x == y || x == 1 || y == 1, ValueError,
             "The size of tensor a ({}) must match the size of tensor b ({}) at non-singleton "
             "dimension {}",
             x, y, i);
    out[i] = x == 1 ? y : x;
  }
  return out;
}

namespace {

DType complex_of(DType real) {
  switch (real) {
    case DType::Half:
      return DType::ComplexHalf;
    case DType::Double:
      return DType::ComplexDouble;
    default:
      return DType::ComplexFloat;
  }
}

DType real_of(DType complex) {
  switch (complex) {
    case DType::ComplexHalf:
      return DType::Half;
    case DType::ComplexDouble:
      return DType::Double;
    default:
      return DType::Float;
  }
}

// Floating types ordered by the range they can hold; half + bfloat16 -> float.
DType promote_floating(DType a, DType b) {
  if (a == b) return a;
  if (a == DType::Double || b == DType::Double) return DType::Double;
  return DType::Float;  // any mix of half/bfloat16/float
}

DType promote_integral(DType a, DType b) {
  if (a == b) return a;
  size_t sa = element_size(a), sb = element_size(b);
  bool ua = dtype_kind(a) == DTypeKind::Unsigned, ub = dtype_kind(b) == DTypeKind::Unsigned;
  if (ua != ub) {
    // uint8 with a signed type: a signed type wide enough for both (int8 -> int16).
    DType s = ua ? b : a;
    return element_size(s) > 1 ? s : DType::Short;
  }
  return sa >= sb ? a : b;
}

}  // namespace

DType promote_types(DType a, DType b) {
  if (a == b) return a;  // also for quantized types, as in torch
  TL_CHECK(!is_quantized(a) && !is_quantized(b), TypeError,
           "promoteTypes with quantized numbers is not handled yet; figure out what the "
           "correct rules should be, offending types: {} {}",
           dtype_info(a).scalar_type_name, dtype_info(b).scalar_type_name);
  if (a == DType::Bool) return b;
  if (b == DType::Bool) return a;
  if (is_complex(a) || is_complex(b)) {
    DType ra = is_complex(a) ? real_of(a) : (is_floating(a) ? a : DType::Half);
    DType rb = is_complex(b) ? real_of(b) : (is_floating(b) ? b : DType::Half);
    // An integral partner does not widen the complex type.
    if (!is_complex(a) && !is_floating(a)) return b;
    if (!is_complex(b) && !is_floating(b)) return a;
    return complex_of(promote_floating(ra, rb));
  }
  if (is_floating(a) && is_floating(b)) return promote_floating(a, b);
  if (is_floating(a)) return a;
  if (is_floating(b)) return b;
  return promote_integral(a, b);
}

namespace {

// torch's combine_categories: the higher-priority result wins unless the lower one
// belongs to a higher category (bool < integral < floating < complex).
std::optional<DType> combine_categories(std::optional<DType> higher, std::optional<DType> lower) {
  if (!higher) return lower;
  if (!lower) return higher;
  if (is_complex(*higher)) return higher;
  if (is_complex(*lower)) {
    if (is_floating(*higher)) return complex_of(*higher);
    return lower;
  }
  if (is_floating(*higher)) return higher;
  if (*higher == DType::Bool || is_floating(*lower)) return promote_types(*higher, *lower);
  return higher;
}

void update(std::optional<DType>& slot, DType d) { slot = slot ? promote_types(*slot, d) : d; }

}  // namespace

void ResultTypeState::add(const Tensor& t) {
  if (t.dim() == 0) update(zero_dim_result_, t.dtype());
  else update(dim_result_, t.dtype());
}

void ResultTypeState::add(const Scalar& s) {
  // A Python float counts as the default dtype, a complex as its complex counterpart.
  DType d = s.dtype();
  update(wrapped_result_, d);
}

DType ResultTypeState::result() const {
  auto r = combine_categories(dim_result_, combine_categories(zero_dim_result_, wrapped_result_));
  TL_CHECK(r.has_value(), ValueError, "result_type: no arguments");
  return *r;
}

DType result_type(const Tensor& a, const Tensor& b) {
  ResultTypeState s;
  s.add(a);
  s.add(b);
  return s.result();
}

DType result_type(const Tensor& a, const Scalar& b) {
  ResultTypeState s;
  s.add(a);
  s.add(b);
  return s.result();
}

}  // namespace torchlet

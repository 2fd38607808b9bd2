// The shape and dtype rules of shape propagation (shape_propagation.h): for each
// operator it knows, the refined type of its tensor result from its inputs' refined
// types and constant arguments. A rule answers only what holds on every run that
// does not raise: an operator that refuses mismatched dtypes (conv, matmul) gives its
// input's dtype; a size the inputs leave open stays open.
#include <algorithm>
#include <functional>
#include <unordered_map>

#include <torchlet/tensor.h>

#include "jit/passes/constant_values.h"
#include "jit/passes/shape_propagation.h"

namespace torchlet::jit {

namespace {

using Sizes = std::vector<std::optional<int64_t>>;

const TensorDetails* details(const Value* v) {
  return v->type()->kind() == TypeKind::Tensor ? v->type()->tensor_details() : nullptr;
}
bool is_tensor(const Value* v) { return v->type()->kind() == TypeKind::Tensor; }
std::optional<DType> dtype_of(const Value* v) {
  const TensorDetails* d = details(v);
  return d ? d->dtype : std::nullopt;
}
std::optional<Sizes> sizes_of(const Value* v) {
  const TensorDetails* d = details(v);
  return d ? d->sizes : std::nullopt;
}
std::optional<Device> device_of(const Value* v) {
  const TensorDetails* d = details(v);
  return d ? d->device : std::nullopt;
}
bool is_none(const Value* v) { return v->type()->kind() == TypeKind::None; }

// An int list argument: a constant list, or a ListConstruct whose elements are known
// where constant; `repeat` > 0 also takes one int for that many (torch's int[2]).
std::optional<Sizes> int_list(const Value* v, size_t repeat = 0) {
  if (std::optional<IValue> iv = to_ivalue(v)) {
    if (iv->isInt() && repeat > 0) return Sizes(repeat, iv->toInt());
    if (!iv->isList()) return std::nullopt;
    Sizes out;
    for (const IValue& e : iv->listRef().elements) {
      if (!e.isInt()) return std::nullopt;
      out.emplace_back(e.toInt());
    }
    return out;
  }
  if (v->node()->kind() != sym::prim_ListConstruct || v->type()->kind() != TypeKind::List ||
      v->type()->contained()[0]->kind() != TypeKind::Int)
    return std::nullopt;
  Sizes out;
  for (const Value* e : v->node()->inputs()) out.push_back(constant_int(e));
  return out;
}

// A dim argument wrapped against `rank`; nullopt when not constant or out of range
// (the operator raises then).
std::optional<size_t> dim_arg(const Value* v, size_t rank) {
  std::optional<int64_t> d = constant_int(v);
  const auto r = static_cast<int64_t>(rank == 0 ? 1 : rank);
  if (!d || *d < -r || *d >= r) return std::nullopt;
  return static_cast<size_t>(*d < 0 ? *d + r : *d);
}

std::optional<DType> dtype_arg(const Value* v) {
  std::optional<int64_t> i = constant_int(v);
  return i ? dtype_from_scalar_type_index(*i) : std::nullopt;
}

TensorDetails make(std::optional<DType> dtype, std::optional<Sizes> sizes, std::optional<Device> device) {
  TensorDetails d;
  d.dtype = dtype;
  d.sizes = std::move(sizes);
  d.device = device;
  return d;
}

// One dimension of a broadcast: a known size other than 1 decides; two 1s give 1.
std::optional<int64_t> broadcast_dim(std::optional<int64_t> a, std::optional<int64_t> b) {
  if (a && b) return *a == 1 ? *b : *a;
  if (a && *a != 1) return a;
  if (b && *b != 1) return b;
  return std::nullopt;
}

std::optional<Sizes> broadcast(const std::vector<const Value*>& tensors) {
  Sizes out;
  for (const Value* t : tensors) {
    std::optional<Sizes> s = sizes_of(t);
    if (!s) return std::nullopt;
    if (s->size() > out.size()) out.insert(out.begin(), s->size() - out.size(), std::optional<int64_t>(1));
    const size_t shift = out.size() - s->size();
    for (size_t i = 0; i < s->size(); ++i) out[shift + i] = broadcast_dim(out[shift + i], (*s)[i]);
  }
  return out;
}

// torch.result_type of tensor and scalar operands, from their types alone: tensors'
// dtypes (and ranks, when they differ: zero-dim tensors rank below dimensioned ones)
// and the scalars' kinds. ResultTypeState is the one definition of the rules; it is
// fed empty stand-ins of the right dtype and rank.
std::optional<DType> result_dtype(const std::vector<const Value*>& tensors, const std::vector<const Value*>& scalars) {
  bool same = true;
  for (const Value* t : tensors) {
    if (!dtype_of(t)) return std::nullopt;
    same = same && *dtype_of(t) == *dtype_of(tensors[0]);
  }
  ResultTypeState state;
  for (const Value* t : tensors) {
    std::optional<Sizes> s = sizes_of(t);
    if (!s && !same) return std::nullopt;
    const size_t rank = s ? s->size() : 1;
    state.add(empty(Shape(rank, 0), *dtype_of(t)));
  }
  for (const Value* s : scalars) {
    switch (s->type()->kind()) {
      case TypeKind::Int: state.add(Scalar(int64_t{0})); break;
      case TypeKind::Float: state.add(Scalar(0.0)); break;
      case TypeKind::Bool: state.add(Scalar(false)); break;
      default: return std::nullopt;
    }
  }
  return state.result();
}

std::optional<DType> to_floating(std::optional<DType> d) {
  if (d && is_integral(*d, true)) return DType::Float;
  return d;
}

using Rule = std::function<std::optional<TensorDetails>(const Node*)>;

// --- rule families -------------------------------------------------------------------

// Same dtype and sizes as the first input: activations, normalisation, copies and
// every in-place operator (which returns self).
std::optional<TensorDetails> like_self(const Node* n) {
  const Value* self = n->input(0);
  if (!is_tensor(self)) return std::nullopt;
  return make(dtype_of(self), sizes_of(self), device_of(self));
}

// The same for operators whose other arguments are numbers: given tensors instead
// (clamp.Tensor's bounds, say) they broadcast and promote.
std::optional<TensorDetails> like_self_with_numbers(const Node* n) {
  for (size_t i = 1; i < n->inputs().size(); ++i)
    if (is_tensor(n->input(i))) return std::nullopt;
  return like_self(n);
}

// Unary operators that compute in floating point: integers and bools give float32.
std::optional<TensorDetails> floating_like_self(const Node* n) {
  const Value* self = n->input(0);
  if (!is_tensor(self)) return std::nullopt;
  return make(to_floating(dtype_of(self)), sizes_of(self), device_of(self));
}

// Binary arithmetic: broadcast sizes, promoted dtype; `true_division` takes integers
// to float32; `comparison` gives bool. Scalars (non-tensor operands) take part in the
// promotion but not the broadcast. `operands` is how many inputs are operands (add's
// alpha is not one).
enum class Arithmetic { Promote, TrueDivision, Comparison };
std::optional<TensorDetails> binary(const Node* n, size_t operands, Arithmetic kind) {
  if (n->inputs().size() < operands || !is_tensor(n->input(0))) return std::nullopt;
  std::vector<const Value*> tensors, scalars;
  for (size_t i = 0; i < operands; ++i) (is_tensor(n->input(i)) ? tensors : scalars).push_back(n->input(i));
  std::optional<DType> dtype = kind == Arithmetic::Comparison ? std::optional<DType>(DType::Bool)
                                                               : result_dtype(tensors, scalars);
  if (kind == Arithmetic::TrueDivision) dtype = to_floating(dtype);
  return make(dtype, broadcast(tensors), device_of(n->input(0)));
}

// Size arithmetic on what graph text may hold (any int64): nullopt, unknown, when an
// operand is or the result would overflow (the operator refuses such sizes anyway).
using MaybeInt = std::optional<int64_t>;
MaybeInt mul(MaybeInt a, MaybeInt b) {
  int64_t r = 0;
  if (!a || !b || __builtin_mul_overflow(*a, *b, &r)) return std::nullopt;
  return r;
}
MaybeInt add(MaybeInt a, MaybeInt b) {
  int64_t r = 0;
  if (!a || !b || __builtin_add_overflow(*a, *b, &r)) return std::nullopt;
  return r;
}
MaybeInt sub(MaybeInt a, MaybeInt b) {
  int64_t r = 0;
  if (!a || !b || __builtin_sub_overflow(*a, *b, &r)) return std::nullopt;
  return r;
}

std::optional<int64_t> conv_out(std::optional<int64_t> in, std::optional<int64_t> k, int64_t stride, int64_t pad,
                                int64_t dilation) {
  if (!in || !k || stride <= 0) return std::nullopt;
  const MaybeInt span = add(mul(dilation, sub(k, 1)), 1);
  const MaybeInt out = sub(add(in, mul(2, pad)), span);
  if (!out || *out < 0) return std::nullopt;
  return *out / stride + 1;
}

// conv1d/2d/3d(input, weight, bias, stride, padding, dilation, groups) and
// _convolution's first nine: batch (if any) from the input, channels from the weight,
// spatial sizes from the formula when the kernel's and input's are known and the
// padding is a list (not "same"/"valid").
std::optional<TensorDetails> convolution(const Node* n, bool transposed_arg) {
  if (n->inputs().size() < 7 || !is_tensor(n->input(0)) || !is_tensor(n->input(1))) return std::nullopt;
  const Value* input = n->input(0);
  std::optional<Sizes> in = sizes_of(input);
  std::optional<Sizes> w = sizes_of(n->input(1));
  TensorDetails out = make(dtype_of(input), std::nullopt, device_of(input));
  if (!in) return out;
  if (transposed_arg) {
    std::optional<bool> transposed = constant_bool(n->input(6));
    if (!transposed || *transposed) return out;
  }
  Sizes sizes(in->size());
  if (!w || w->size() < 3 || in->size() < w->size() - 1) {
    out.sizes = sizes;
    return out;
  }
  const size_t spatial = w->size() - 2;
  const size_t first = in->size() - spatial;
  if (first == 2) sizes[0] = (*in)[0];
  sizes[first - 1] = (*w)[0];
  std::optional<Sizes> stride = int_list(n->input(3), spatial), padding = int_list(n->input(4), spatial),
                       dilation = int_list(n->input(5), spatial);
  if (stride && padding && dilation && stride->size() == spatial && padding->size() == spatial &&
      dilation->size() == spatial) {
    for (size_t i = 0; i < spatial; ++i) {
      if (!(*stride)[i] || !(*padding)[i] || !(*dilation)[i]) continue;
      sizes[first + i] = conv_out((*in)[first + i], (*w)[2 + i], *(*stride)[i], *(*padding)[i], *(*dilation)[i]);
    }
  }
  out.sizes = sizes;
  return out;
}

// max_pool/avg_pool Nd: kernel, stride (empty: the kernel), padding, then dilation
// (max only) and ceil_mode.
std::optional<TensorDetails> pooling(const Node* n, size_t spatial, bool has_dilation) {
  const size_t ceil_index = has_dilation ? 5 : 4;
  if (n->inputs().size() <= ceil_index || !is_tensor(n->input(0))) return std::nullopt;
  const Value* input = n->input(0);
  std::optional<Sizes> in = sizes_of(input);
  TensorDetails out = make(dtype_of(input), std::nullopt, device_of(input));
  if (!in || in->size() < spatial) return out;
  Sizes sizes = *in;
  const size_t first = in->size() - spatial;
  for (size_t i = first; i < sizes.size(); ++i) sizes[i] = std::nullopt;
  std::optional<Sizes> kernel = int_list(n->input(1), spatial), stride = int_list(n->input(2), spatial),
                       padding = int_list(n->input(3), spatial);
  std::optional<Sizes> dilation = has_dilation ? int_list(n->input(4), spatial) : Sizes(spatial, 1);
  std::optional<bool> ceil_mode = constant_bool(n->input(ceil_index));
  if (stride && stride->empty()) stride = kernel;
  if (kernel && stride && padding && dilation && ceil_mode && kernel->size() == spatial && stride->size() == spatial &&
      padding->size() == spatial && dilation->size() == spatial) {
    for (size_t i = 0; i < spatial; ++i) {
      const std::optional<int64_t> size = (*in)[first + i];
      if (!size || !(*kernel)[i] || !(*stride)[i] || !(*padding)[i] || !(*dilation)[i] || *(*stride)[i] <= 0) continue;
      const int64_t k = *(*kernel)[i], s = *(*stride)[i], p = *(*padding)[i], d = *(*dilation)[i];
      const MaybeInt span = add(sub(sub(add(size, mul(2, p)), mul(d, sub(k, 1))), 1), *ceil_mode ? s - 1 : 0);
      if (!span || *span < 0) continue;
      int64_t o = *span / s + 1;
      // torch's pooling_output_shape: the last window must start inside the input.
      const MaybeInt last_start = mul(o - 1, s), end = add(size, p);
      if (!last_start || !end) continue;
      if (*ceil_mode && *last_start >= *end) --o;
      sizes[first + i] = o;
    }
  }
  out.sizes = sizes;
  return out;
}

std::optional<TensorDetails> adaptive_pooling(const Node* n, size_t spatial) {
  if (n->inputs().size() != 2 || !is_tensor(n->input(0))) return std::nullopt;
  const Value* input = n->input(0);
  std::optional<Sizes> in = sizes_of(input);
  std::optional<Sizes> size = int_list(n->input(1), spatial);
  TensorDetails out = make(dtype_of(input), std::nullopt, device_of(input));
  if (!in || in->size() < spatial) return out;
  Sizes sizes = *in;
  for (size_t i = 0; i < spatial; ++i)
    sizes[in->size() - spatial + i] = size && size->size() == spatial ? (*size)[i] : std::nullopt;
  out.sizes = sizes;
  return out;
}

std::optional<Sizes> matmul_sizes(const Sizes& a, const Sizes& b) {
  if (a.empty() || b.empty()) return std::nullopt;
  if (a.size() == 1 && b.size() == 1) return Sizes{};
  if (a.size() == 2 && b.size() == 2) return Sizes{a[0], b[1]};
  if (a.size() == 1 && b.size() == 2) return Sizes{b[1]};
  if (a.size() == 2 && b.size() == 1) return Sizes{a[0]};
  if (b.size() == 1) return Sizes(a.begin(), a.end() - 1);
  if (a.size() == 1) {
    Sizes out(b.begin(), b.end() - 2);
    out.push_back(b.back());
    return out;
  }
  // Batched: the batch dimensions broadcast.
  Sizes batch_a(a.begin(), a.end() - 2), batch_b(b.begin(), b.end() - 2);
  Sizes out(std::max(batch_a.size(), batch_b.size()), std::optional<int64_t>(1));
  for (const Sizes* batch : {&batch_a, &batch_b}) {
    const size_t shift = out.size() - batch->size();
    for (size_t i = 0; i < batch->size(); ++i) out[shift + i] = broadcast_dim(out[shift + i], (*batch)[i]);
  }
  out.push_back(a[a.size() - 2]);
  out.push_back(b.back());
  return out;
}

std::optional<TensorDetails> matmul(const Node* n) {
  if (n->inputs().size() != 2 || !is_tensor(n->input(0)) || !is_tensor(n->input(1))) return std::nullopt;
  std::optional<Sizes> a = sizes_of(n->input(0)), b = sizes_of(n->input(1));
  return make(dtype_of(n->input(0)), a && b ? matmul_sizes(*a, *b) : std::nullopt, device_of(n->input(0)));
}

// mm(a, b), bmm(a, b), addmm(bias, a, b, ...): sizes from the operands that multiply.
std::optional<TensorDetails> matrix_product(const Node* n, size_t first, size_t rank) {
  if (n->inputs().size() < first + 2 || !is_tensor(n->input(first)) || !is_tensor(n->input(first + 1)))
    return std::nullopt;
  std::optional<Sizes> a = sizes_of(n->input(first)), b = sizes_of(n->input(first + 1));
  Sizes sizes(rank);
  if (a && b && a->size() == rank && b->size() == rank) {
    for (size_t i = 0; i + 2 < rank; ++i) sizes[i] = broadcast_dim((*a)[i], (*b)[i]);
    sizes[rank - 2] = (*a)[rank - 2];
    sizes[rank - 1] = (*b)[rank - 1];
  }
  return make(dtype_of(n->input(first)), sizes, device_of(n->input(first)));
}

std::optional<TensorDetails> linear(const Node* n) {
  if (n->inputs().size() != 3 || !is_tensor(n->input(0)) || !is_tensor(n->input(1))) return std::nullopt;
  std::optional<Sizes> x = sizes_of(n->input(0)), w = sizes_of(n->input(1));
  std::optional<Sizes> sizes;
  if (x && !x->empty() && w && (w->size() == 1 || w->size() == 2)) {
    sizes = Sizes(x->begin(), x->end() - 1);
    if (w->size() == 2) sizes->push_back((*w)[0]);
  }
  return make(dtype_of(n->input(0)), sizes, device_of(n->input(0)));
}

// view/reshape(self, shape): one -1 is inferred when every other size is known.
std::optional<TensorDetails> reshape(const Node* n) {
  // (view.dtype reinterprets the bytes: its second argument is a dtype, not a list.)
  if (n->inputs().size() != 2 || !is_tensor(n->input(0)) || n->input(1)->type()->kind() != TypeKind::List)
    return std::nullopt;
  const Value* self = n->input(0);
  TensorDetails out = make(dtype_of(self), std::nullopt, device_of(self));
  std::optional<Sizes> shape = int_list(n->input(1));
  if (!shape) return out;
  std::optional<size_t> infer;
  int64_t known = 1;
  for (size_t i = 0; i < shape->size(); ++i) {
    const std::optional<int64_t> s = (*shape)[i];
    if (s && *s == -1) {
      if (infer) return out;  // two -1s: the operator raises
      infer = i;
      (*shape)[i] = std::nullopt;
    } else if (s && *s < 0) {
      return out;
    } else if (s) {
      known = known < 0 ? -1 : mul(known, s).value_or(-1);  // -1: not known
    } else {
      known = -1;
    }
  }
  if (infer && known > 0) {
    std::optional<Sizes> in = sizes_of(self);
    int64_t total = 1;
    for (size_t i = 0; in && i < in->size(); ++i) total = total >= 0 ? mul(total, (*in)[i]).value_or(-1) : -1;
    if (in && total >= 0 && total % known == 0) (*shape)[*infer] = total / known;
  }
  out.sizes = shape;
  return out;
}

std::optional<TensorDetails> flatten(const Node* n) {
  if (n->inputs().size() != 3 || !is_tensor(n->input(0))) return std::nullopt;
  const Value* self = n->input(0);
  TensorDetails out = make(dtype_of(self), std::nullopt, device_of(self));
  std::optional<Sizes> in = sizes_of(self);
  if (!in) {
    // flatten(x, start >= 0, -1) has rank start + 1 whatever x's rank, when it does not
    // raise: what lets a frozen MLP's linears be known as rank 2 (linear / batch-norm folding).
    std::optional<int64_t> start = constant_int(n->input(1)), end = constant_int(n->input(2));
    if (start && end && *start >= 0 && *start < 64 && *end == -1) out.sizes = Sizes(static_cast<size_t>(*start) + 1);
    return out;
  }
  if (in->empty()) {
    out.sizes = Sizes{1};
    return out;
  }
  std::optional<size_t> start = dim_arg(n->input(1), in->size()), end = dim_arg(n->input(2), in->size());
  if (!start || !end || *start > *end) return out;
  Sizes sizes(in->begin(), in->begin() + static_cast<std::ptrdiff_t>(*start));
  std::optional<int64_t> merged = 1;
  for (size_t i = *start; i <= *end; ++i) merged = mul(merged, (*in)[i]);
  sizes.push_back(merged);
  sizes.insert(sizes.end(), in->begin() + static_cast<std::ptrdiff_t>(*end) + 1, in->end());
  out.sizes = sizes;
  return out;
}

std::optional<TensorDetails> permute(const Node* n) {
  if (n->inputs().size() != 2 || !is_tensor(n->input(0))) return std::nullopt;
  const Value* self = n->input(0);
  TensorDetails out = make(dtype_of(self), std::nullopt, device_of(self));
  std::optional<Sizes> in = sizes_of(self), dims = int_list(n->input(1));
  if (!in || !dims || dims->size() != in->size()) return out;
  Sizes sizes;
  std::vector<bool> seen(in->size());
  const auto r = static_cast<int64_t>(in->size());
  for (const std::optional<int64_t>& d : *dims) {
    if (!d || *d < -r || *d >= r || seen[static_cast<size_t>((*d + r) % r)]) return out;
    seen[static_cast<size_t>((*d + r) % r)] = true;
    sizes.push_back((*in)[static_cast<size_t>((*d + r) % r)]);
  }
  out.sizes = sizes;
  return out;
}

std::optional<TensorDetails> transpose(const Node* n) {
  if (n->inputs().size() != 3 || !is_tensor(n->input(0))) return std::nullopt;
  const Value* self = n->input(0);
  TensorDetails out = make(dtype_of(self), std::nullopt, device_of(self));
  std::optional<Sizes> in = sizes_of(self);
  if (!in) return out;
  std::optional<size_t> a = dim_arg(n->input(1), in->size()), b = dim_arg(n->input(2), in->size());
  if (!a || !b) return out;
  Sizes sizes = *in;
  if (!sizes.empty()) std::swap(sizes[*a], sizes[*b]);
  out.sizes = sizes;
  return out;
}

std::optional<TensorDetails> matrix_transpose(const Node* n) {
  if (n->inputs().size() != 1 || !is_tensor(n->input(0))) return std::nullopt;
  const Value* self = n->input(0);
  std::optional<Sizes> in = sizes_of(self);
  if (in && in->size() > 2) return std::nullopt;  // the operator raises
  if (in && in->size() == 2) std::swap((*in)[0], (*in)[1]);
  return make(dtype_of(self), in, device_of(self));
}

std::optional<TensorDetails> unsqueeze(const Node* n) {
  if (n->inputs().size() != 2 || !is_tensor(n->input(0))) return std::nullopt;
  const Value* self = n->input(0);
  TensorDetails out = make(dtype_of(self), std::nullopt, device_of(self));
  std::optional<Sizes> in = sizes_of(self);
  if (!in) return out;
  std::optional<int64_t> d = constant_int(n->input(1));
  const auto r = static_cast<int64_t>(in->size()) + 1;
  if (!d || *d < -r || *d >= r) return out;
  in->insert(in->begin() + (*d < 0 ? *d + r : *d), std::optional<int64_t>(1));
  out.sizes = in;
  return out;
}

std::optional<TensorDetails> squeeze(const Node* n) {
  if (n->inputs().empty() || n->inputs().size() > 2 || !is_tensor(n->input(0))) return std::nullopt;
  const Value* self = n->input(0);
  TensorDetails out = make(dtype_of(self), std::nullopt, device_of(self));
  std::optional<Sizes> in = sizes_of(self);
  if (!in) return out;
  Sizes sizes;
  if (n->inputs().size() == 1) {
    for (const std::optional<int64_t>& s : *in) {
      if (!s) return out;
      if (*s != 1) sizes.push_back(s);
    }
  } else {
    std::optional<size_t> d = dim_arg(n->input(1), in->size());
    if (!d || n->input(1)->type()->kind() != TypeKind::Int) return out;
    if (in->empty()) return make(dtype_of(self), Sizes{}, device_of(self));
    if (!(*in)[*d]) return out;
    sizes = *in;
    if (*(*in)[*d] == 1) sizes.erase(sizes.begin() + static_cast<std::ptrdiff_t>(*d));
  }
  out.sizes = sizes;
  return out;
}

// The tensors of a list built in the graph (cat, stack); nullopt otherwise.
std::optional<std::vector<const Value*>> list_elements(const Value* v) {
  if (v->node()->kind() != sym::prim_ListConstruct) return std::nullopt;
  std::vector<const Value*> out(v->node()->inputs().begin(), v->node()->inputs().end());
  for (const Value* e : out)
    if (!is_tensor(e)) return std::nullopt;
  return out;
}

std::optional<DType> promoted_all(const std::vector<const Value*>& tensors) {
  std::optional<DType> dtype;
  for (const Value* t : tensors) {
    std::optional<DType> d = dtype_of(t);
    if (!d) return std::nullopt;
    dtype = dtype ? promote_types(*dtype, *d) : *d;
  }
  return dtype;
}

// cat(tensors, dim): every operand of one known rank (rank 1 may include torch's
// legacy empty tensors, whose size 0 adds nothing); the sizes along dim add up.
std::optional<TensorDetails> cat(const Node* n) {
  if (n->inputs().size() != 2) return std::nullopt;
  std::optional<std::vector<const Value*>> parts = list_elements(n->input(0));
  if (!parts || parts->empty()) return std::nullopt;
  TensorDetails out = make(promoted_all(*parts), std::nullopt, device_of((*parts)[0]));
  std::optional<Sizes> first = sizes_of((*parts)[0]);
  if (!first || first->empty()) return out;
  for (const Value* p : *parts) {
    std::optional<Sizes> s = sizes_of(p);
    if (!s || s->size() != first->size()) return out;
  }
  std::optional<size_t> d = dim_arg(n->input(1), first->size());
  if (!d) return out;
  Sizes sizes(first->size());
  std::optional<int64_t> total = 0;
  for (const Value* p : *parts) {
    const Sizes s = *sizes_of(p);
    total = add(total, s[*d]);
    for (size_t i = 0; i < s.size(); ++i)
      if (i != *d && !sizes[i] && first->size() > 1) sizes[i] = s[i];
  }
  sizes[*d] = total;
  out.sizes = sizes;
  return out;
}

// stack(tensors, dim): operands of one shape, a new dimension of their count.
std::optional<TensorDetails> stack(const Node* n) {
  if (n->inputs().size() != 2) return std::nullopt;
  std::optional<std::vector<const Value*>> parts = list_elements(n->input(0));
  if (!parts || parts->empty()) return std::nullopt;
  TensorDetails out = make(promoted_all(*parts), std::nullopt, device_of((*parts)[0]));
  std::optional<Sizes> sizes = sizes_of((*parts)[0]);
  if (!sizes) return out;
  for (const Value* p : *parts) {
    std::optional<Sizes> s = sizes_of(p);
    if (!s || s->size() != sizes->size()) return out;
    for (size_t i = 0; i < s->size(); ++i)
      if (!(*sizes)[i]) (*sizes)[i] = (*s)[i];
  }
  std::optional<int64_t> d = constant_int(n->input(1));
  const auto r = static_cast<int64_t>(sizes->size()) + 1;
  if (!d || *d < -r || *d >= r) return out;
  sizes->insert(sizes->begin() + (*d < 0 ? *d + r : *d), static_cast<int64_t>(parts->size()));
  out.sizes = sizes;
  return out;
}

// sum/mean(self, dim, keepdim, dtype): the reduced dimensions go (or become 1).
// `integers_to_long`: sum's rule that integral and bool inputs sum to int64.
std::optional<TensorDetails> reduction(const Node* n, bool integers_to_long) {
  const Value* self = n->input(0);
  if (!is_tensor(self)) return std::nullopt;
  std::optional<DType> dtype = dtype_of(self);
  const Value* dtype_value = n->inputs().back();
  if (!is_none(dtype_value)) dtype = dtype_arg(dtype_value);
  else if (integers_to_long && dtype && is_integral(*dtype, true)) dtype = DType::Long;
  TensorDetails out = make(dtype, std::nullopt, device_of(self));
  if (n->inputs().size() == 2) {  // sum(self, dtype): everything
    out.sizes = Sizes{};
    return out;
  }
  if (n->inputs().size() != 4) return std::nullopt;
  std::optional<Sizes> in = sizes_of(self);
  std::optional<bool> keepdim = constant_bool(n->input(2));
  if (!in || !keepdim) return out;
  std::vector<bool> reduced(in->size(), is_none(n->input(1)));
  if (!is_none(n->input(1))) {
    std::optional<Sizes> dims = int_list(n->input(1));
    if (!dims) return out;
    // An empty dim list reduces everything, as None does.
    if (dims->empty()) reduced.assign(in->size(), true);
    const auto r = static_cast<int64_t>(in->empty() ? 1 : in->size());
    for (const std::optional<int64_t>& d : *dims) {
      if (!d || *d < -r || *d >= r) return out;
      if (!in->empty()) reduced[static_cast<size_t>((*d + r) % r)] = true;
    }
  }
  Sizes sizes;
  for (size_t i = 0; i < in->size(); ++i) {
    if (!reduced[i]) sizes.push_back((*in)[i]);
    else if (*keepdim) sizes.emplace_back(1);
  }
  out.sizes = sizes;
  return out;
}

// softmax/log_softmax(self, dim, dtype).
std::optional<TensorDetails> softmax(const Node* n) {
  if (n->inputs().size() != 3 || !is_tensor(n->input(0))) return std::nullopt;
  const Value* self = n->input(0);
  std::optional<DType> dtype = is_none(n->input(2)) ? dtype_of(self) : dtype_arg(n->input(2));
  return make(dtype, sizes_of(self), device_of(self));
}

// embedding(weight, indices, ...): the indices' sizes and the weight's row.
std::optional<TensorDetails> embedding(const Node* n) {
  if (n->inputs().size() != 5 || !is_tensor(n->input(0)) || !is_tensor(n->input(1))) return std::nullopt;
  std::optional<Sizes> w = sizes_of(n->input(0)), idx = sizes_of(n->input(1));
  std::optional<Sizes> sizes;
  if (w && w->size() == 2 && idx) {
    sizes = idx;
    sizes->push_back((*w)[1]);
  }
  return make(dtype_of(n->input(0)), sizes, device_of(n->input(0)));
}

// to.dtype(self, dtype, non_blocking, copy, memory_format), to.other(self, other, ...),
// to.device(self, device, dtype, ...), to.prim_Device / dtype_layout: what dtype says.
std::optional<TensorDetails> to(const Node* n) {
  if (n->inputs().size() < 2 || !is_tensor(n->input(0))) return std::nullopt;
  const Value* self = n->input(0);
  const Value* second = n->input(1);
  std::optional<DType> dtype;
  std::optional<Device> device = device_of(self);
  if (is_tensor(second)) {
    dtype = dtype_of(second);
    device = device_of(second);
  } else if (second->type()->kind() == TypeKind::Int && n->inputs().size() == 5) {
    dtype = dtype_arg(second);
  } else {
    return make(std::nullopt, sizes_of(self), std::nullopt);
  }
  return make(dtype, sizes_of(self), device);
}

std::optional<TensorDetails> type_as(const Node* n) {
  if (n->inputs().size() != 2 || !is_tensor(n->input(0)) || !is_tensor(n->input(1))) return std::nullopt;
  return make(dtype_of(n->input(1)), sizes_of(n->input(0)), device_of(n->input(1)));
}

// zeros/ones/empty/rand/randn(size, dtype, layout, device, pin_memory): float32 when no
// dtype is given; the device when it is a constant (None: the CPU).
std::optional<TensorDetails> factory(const Node* n) {
  if (n->inputs().size() != 5 || n->input(0)->type()->kind() != TypeKind::List) return std::nullopt;
  std::optional<DType> dtype = is_none(n->input(1)) ? std::optional<DType>(DType::Float) : dtype_arg(n->input(1));
  std::optional<Device> device;
  if (is_none(n->input(3))) device = Device{};
  return make(dtype, int_list(n->input(0)), device);
}

// zeros_like/ones_like/empty_like/rand_like/randn_like(self, dtype, layout, device,
// pin_memory, memory_format).
std::optional<TensorDetails> factory_like(const Node* n) {
  if (n->inputs().size() != 6 || !is_tensor(n->input(0))) return std::nullopt;
  const Value* self = n->input(0);
  std::optional<DType> dtype = is_none(n->input(1)) ? dtype_of(self) : dtype_arg(n->input(1));
  std::optional<Device> device = is_none(n->input(3)) ? device_of(self) : std::nullopt;
  return make(dtype, sizes_of(self), device);
}

// select(self, dim, index): the dimension goes.
std::optional<TensorDetails> select(const Node* n) {
  if (n->inputs().size() != 3 || !is_tensor(n->input(0)) || n->input(2)->type()->kind() != TypeKind::Int)
    return std::nullopt;
  const Value* self = n->input(0);
  TensorDetails out = make(dtype_of(self), std::nullopt, device_of(self));
  std::optional<Sizes> in = sizes_of(self);
  if (!in || in->empty()) return out;
  std::optional<size_t> d = dim_arg(n->input(1), in->size());
  if (!d) return out;
  in->erase(in->begin() + static_cast<std::ptrdiff_t>(*d));
  out.sizes = in;
  return out;
}

// slice(self, dim, start, end, step): the rank stays; the size along dim is known
// when the dimension's size and every bound are.
std::optional<TensorDetails> slice(const Node* n) {
  if (n->inputs().size() != 5 || !is_tensor(n->input(0))) return std::nullopt;
  const Value* self = n->input(0);
  TensorDetails out = make(dtype_of(self), std::nullopt, device_of(self));
  std::optional<Sizes> in = sizes_of(self);
  if (!in || in->empty()) return out;
  std::optional<size_t> d = dim_arg(n->input(1), in->size());
  if (!d) return out;
  const std::optional<int64_t> size = (*in)[*d];
  (*in)[*d] = std::nullopt;
  std::optional<int64_t> step = constant_int(n->input(4));
  if (size && *size >= 0 && step && *step > 0) {
    auto bound = [&](const Value* v, int64_t absent) -> std::optional<int64_t> {
      if (is_none(v)) return absent;
      std::optional<int64_t> b = constant_int(v);
      if (!b) return std::nullopt;
      int64_t x = *b < 0 ? *b + *size : *b;
      return std::clamp<int64_t>(x, 0, *size);
    };
    std::optional<int64_t> start = bound(n->input(2), 0), end = bound(n->input(3), *size);
    if (start && end) {
      const int64_t span = *end > *start ? *end - *start : 0;  // both in [0, size]
      (*in)[*d] = span / *step + (span % *step != 0);
    }
  }
  out.sizes = in;
  return out;
}

// expand(self, size, implicit): -1 keeps the dimension's size.
std::optional<TensorDetails> expand(const Node* n) {
  if (n->inputs().size() != 3 || !is_tensor(n->input(0))) return std::nullopt;
  const Value* self = n->input(0);
  TensorDetails out = make(dtype_of(self), std::nullopt, device_of(self));
  std::optional<Sizes> size = int_list(n->input(1));
  std::optional<Sizes> in = sizes_of(self);
  if (!size || (in && in->size() > size->size())) return out;
  for (size_t i = 0; i < size->size(); ++i) {
    if (!(*size)[i] || *(*size)[i] != -1) continue;
    const size_t lead = size->size() - (in ? in->size() : 0);
    (*size)[i] = in && i >= lead ? (*in)[i - lead] : std::nullopt;
  }
  out.sizes = size;
  return out;
}

// where(condition, self, other): all three broadcast; the values' dtypes promote.
std::optional<TensorDetails> where(const Node* n) {
  if (n->inputs().size() != 3 || !is_tensor(n->input(0))) return std::nullopt;
  std::vector<const Value*> tensors{n->input(0)}, values, scalars;
  for (size_t i = 1; i < 3; ++i) {
    const Value* v = n->input(i);
    if (is_tensor(v)) {
      tensors.push_back(v);
      values.push_back(v);
    } else {
      scalars.push_back(v);
    }
  }
  std::optional<DType> dtype = values.empty() ? std::nullopt : result_dtype(values, scalars);
  return make(dtype, broadcast(tensors), device_of(n->input(0)));
}

std::optional<TensorDetails> div(const Node* n) {
  if (n->inputs().size() == 2) return binary(n, 2, Arithmetic::TrueDivision);
  // div.Tensor_mode / Scalar_mode: a rounding mode keeps the promoted dtype.
  if (n->inputs().size() == 3 && is_none(n->input(2))) return binary(n, 2, Arithmetic::TrueDivision);
  return binary(n, 2, Arithmetic::Promote);
}

const std::unordered_map<Symbol, Rule>& rules() {
  static const std::unordered_map<Symbol, Rule> table = [] {
    std::unordered_map<Symbol, Rule> t;
    auto add = [&t](std::initializer_list<const char*> names, const Rule& rule) {
      for (const char* name : names) t.emplace(Symbol::from_qual_string(name), rule);
    };
    add({"aten::relu", "aten::relu_", "aten::relu6", "aten::relu6_", "aten::hardtanh", "aten::hardtanh_",
         "aten::leaky_relu", "aten::leaky_relu_", "aten::elu", "aten::elu_", "aten::gelu", "aten::silu",
         "aten::silu_", "aten::hardswish", "aten::hardswish_", "aten::hardsigmoid", "aten::hardsigmoid_",
         "aten::mish", "aten::neg", "aten::abs", "aten::abs_", "aten::clone", "aten::contiguous", "aten::detach", "aten::dropout",
         "aten::dropout_", "aten::feature_dropout", "aten::alpha_dropout", "aten::batch_norm",
         "aten::layer_norm", "aten::group_norm", "aten::instance_norm", "aten::zero_", "aten::fill_",
         "aten::add_", "aten::sub_", "aten::mul_", "aten::div_", "aten::copy_", "aten::masked_fill_",
         "aten::clamp_", "aten::floor", "aten::ceil", "aten::round", "aten::trunc"},
        like_self);
    add({"aten::clamp", "aten::clamp_min", "aten::clamp_max"}, like_self_with_numbers);
    add({"aten::sigmoid", "aten::sigmoid_", "aten::tanh", "aten::tanh_", "aten::exp", "aten::log", "aten::sqrt",
         "aten::rsqrt", "aten::sin", "aten::cos", "aten::erf", "aten::log1p", "aten::expm1", "aten::reciprocal"},
        floating_like_self);
    add({"aten::add", "aten::sub", "aten::rsub"}, [](const Node* n) { return binary(n, 2, Arithmetic::Promote); });
    add({"aten::mul", "aten::remainder", "aten::pow", "aten::maximum", "aten::minimum", "aten::floor_divide"},
        [](const Node* n) -> std::optional<TensorDetails> {
          if (n->inputs().size() != 2) return std::nullopt;
          return binary(n, 2, Arithmetic::Promote);
        });
    add({"aten::div"}, div);
    add({"aten::eq", "aten::ne", "aten::lt", "aten::le", "aten::gt", "aten::ge"},
        [](const Node* n) -> std::optional<TensorDetails> {
          if (n->inputs().size() != 2) return std::nullopt;
          return binary(n, 2, Arithmetic::Comparison);
        });
    add({"aten::where"}, where);
    add({"aten::conv1d", "aten::conv2d", "aten::conv3d"}, [](const Node* n) { return convolution(n, false); });
    add({"aten::_convolution"}, [](const Node* n) { return convolution(n, true); });
    add({"aten::max_pool1d"}, [](const Node* n) { return pooling(n, 1, true); });
    add({"aten::max_pool2d"}, [](const Node* n) { return pooling(n, 2, true); });
    add({"aten::max_pool3d"}, [](const Node* n) { return pooling(n, 3, true); });
    add({"aten::avg_pool1d"}, [](const Node* n) { return pooling(n, 1, false); });
    add({"aten::avg_pool2d"}, [](const Node* n) { return pooling(n, 2, false); });
    add({"aten::avg_pool3d"}, [](const Node* n) { return pooling(n, 3, false); });
    add({"aten::adaptive_avg_pool1d"}, [](const Node* n) { return adaptive_pooling(n, 1); });
    add({"aten::adaptive_avg_pool2d"}, [](const Node* n) { return adaptive_pooling(n, 2); });
    add({"aten::adaptive_avg_pool3d"}, [](const Node* n) { return adaptive_pooling(n, 3); });
    add({"aten::matmul"}, matmul);
    add({"aten::mm"}, [](const Node* n) { return matrix_product(n, 0, 2); });
    add({"aten::bmm"}, [](const Node* n) { return matrix_product(n, 0, 3); });
    add({"aten::addmm"}, [](const Node* n) { return matrix_product(n, 1, 2); });
    add({"aten::linear"}, linear);
    add({"aten::view", "aten::reshape"}, reshape);
    add({"aten::flatten"}, flatten);
    add({"aten::permute"}, permute);
    add({"aten::transpose"}, transpose);
    add({"aten::t"}, matrix_transpose);
    add({"aten::unsqueeze"}, unsqueeze);
    add({"aten::squeeze"}, squeeze);
    add({"aten::cat"}, cat);
    add({"aten::stack"}, stack);
    add({"aten::sum"}, [](const Node* n) { return reduction(n, true); });
    add({"aten::mean"}, [](const Node* n) { return reduction(n, false); });
    add({"aten::softmax", "aten::log_softmax"}, softmax);
    add({"aten::embedding"}, embedding);
    add({"aten::to"}, to);
    add({"aten::type_as"}, type_as);
    add({"aten::zeros", "aten::ones", "aten::empty", "aten::rand", "aten::randn"}, factory);
    add({"aten::zeros_like", "aten::ones_like", "aten::empty_like", "aten::rand_like", "aten::randn_like"},
        factory_like);
    add({"aten::select"}, select);
    add({"aten::slice"}, slice);
    add({"aten::expand"}, expand);
    return t;
  }();
  return table;
}

}  // namespace

std::optional<TensorDetails> tensor_result_details(const Node* node) {
  if (node->outputs().size() != 1 || node->inputs().empty()) return std::nullopt;
  const auto& table = rules();
  auto rule = table.find(node->kind());
  if (rule == table.end()) return std::nullopt;
  return rule->second(node);
}

}  // namespace torchlet::jit

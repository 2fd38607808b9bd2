// Note [out= forms]
// out= forms composed from their registered functional overloads, each row beside its
// functional in the operator's family file: into_outs<"aten::svd", 3, exact_dtype> runs the
// functional and writes every result into its out tensor, resized as torch resizes it.
// What differs between forms is the dtype check torch applies to the out tensors, and
// each form names its check, read off torch by calling every form with out tensors of
// other dtypes: structured kernels demand the result's exact dtype, TensorIterator ones
// any dtype the result casts to, some copy into anything, and older kernels word their
// own checks. Cases run through torch in tests/fixtures/gen_ops.py (multi_out_ops,
// derived_variants).
#pragma once

#include <algorithm>
#include <array>
#include <span>
#include <string>
#include <string_view>

#include <fmt/format.h>

#include <torchlet/dtype.h>

#include "jit/ops/ops_util.h"
#include "jit/runtime/operator.h"

namespace torchlet::jit::ops {


// A string literal as a template argument: the functional overload's qualified name.
template <size_t N>
struct Literal {
  char text[N];
  constexpr Literal(const char (&s)[N]) { std::copy_n(s, N, text); }  // NOLINT: implicit by design
  constexpr std::string_view view() const { return {text, N - 1}; }
};

using Results = std::span<const Tensor>;
using Outs = std::span<const Tensor>;
// Throws torch's error when an out tensor's dtype is not acceptable for its result.
using OutCheck = void (*)(Results results, Outs outs);

inline std::string_view scalar_name(DType d) { return dtype_info(d).scalar_type_name; }

// Structured kernels (linalg.qr, svd, aminmax, ...): the exact dtype.
inline void exact_dtype(Results results, Outs outs) {
  for (size_t i = 0; i < outs.size(); ++i)
    TL_CHECK(outs[i].dtype() == results[i].dtype(), TypeError, "Expected out tensor to have dtype {}, but got {} instead",
             type_meta_name(results[i].dtype()), type_meta_name(outs[i].dtype()));
}
// Composites that copy into whatever they are given (std_mean, unique_consecutive, ...).
inline void any_dtype(Results, Outs) {}

// TensorIterator's out= (result type promotion, then a cast into out).
inline void castable(Results results, Outs outs) {
  for (size_t i = 0; i < outs.size(); ++i)
    TL_CHECK(can_cast(results[i].dtype(), outs[i].dtype()), TypeError,
             "result type {} can't be cast to the desired output type {}", scalar_name(results[i].dtype()),
             scalar_name(outs[i].dtype()));
}
// TensorIterator configured to demand one dtype for inputs and outputs.
inline void found_dtype(Results results, Outs outs) {
  for (size_t i = 0; i < outs.size(); ++i)
    TL_CHECK(outs[i].dtype() == results[i].dtype(), TypeError, "Found dtype {} but expected {}", scalar_name(outs[i].dtype()),
             scalar_name(results[i].dtype()));
}
// Kernels that check out with checkScalarType-style wording.
inline void expected_scalar_type(Results results, Outs outs) {
  for (size_t i = 0; i < outs.size(); ++i)
    TL_CHECK(outs[i].dtype() == results[i].dtype(), TypeError, "expected scalar type {} but found {}",
             scalar_name(results[i].dtype()), scalar_name(outs[i].dtype()));
}
// The stacking functions write through torch.cat's out=.
inline void cat_castable(Results results, Outs outs) {
  TL_CHECK(can_cast(results[0].dtype(), outs[0].dtype()), TypeError,
           "torch.cat(): input types can't be cast to the desired output type {}", scalar_name(outs[0].dtype()));
}
// Checks worded by the kernels that own them (each message read off torch 1.13).
template <Literal kOp>
inline void bool_result(Results results, Outs outs) {
  TL_CHECK(outs[0].dtype() == results[0].dtype(), TypeError, "{} only supports bool tensor for result, got: {}", kOp.view(),
           scalar_name(outs[0].dtype()));
}
inline void input_dtype_match(Results results, Outs outs) {
  TL_CHECK(outs[0].dtype() == results[0].dtype(), TypeError,
           "Expected the dtype for input and out to match, but got {} for input's dtype and {} for out's dtype.",
           scalar_name(results[0].dtype()), scalar_name(outs[0].dtype()));
}
inline void multi_dot_check(Results results, Outs outs) {
  TL_CHECK(outs[0].dtype() == results[0].dtype(), TypeError, "multi_dot(): expected out tensor to have dtype {} but got {}",
           type_meta_name(results[0].dtype()), type_meta_name(outs[0].dtype()));
}
inline void index_select_check(Results results, Outs outs) {
  TL_CHECK(outs[0].dtype() == results[0].dtype(), TypeError, "index_select(): self and result must have the same scalar type");
}
template <Literal kOp>
inline void norm_out_check(Results results, Outs outs) {
  TL_CHECK(outs[0].dtype() == results[0].dtype(), TypeError, "{} expected out tensor dtype {} but got: {}", kOp.view(),
           scalar_name(results[0].dtype()), scalar_name(outs[0].dtype()));
}
inline void vecdot_check(Results results, Outs outs) {
  // (torch's message lacks the space after "dtype")
  TL_CHECK(outs[0].dtype() == results[0].dtype(), TypeError, "linalg.vecdot: Expected out of dtype{} but found {}",
           scalar_name(results[0].dtype()), scalar_name(outs[0].dtype()));
}
inline void floating_result(Results, Outs outs) {
  TL_CHECK(is_floating(outs[0].dtype()) || is_complex(outs[0].dtype()), TypeError,
           "logsumexp(): Expected floating point type for result tensor, but got: {}", scalar_name(outs[0].dtype()));
}
inline void nonzero_check(Results, Outs outs) {
  TL_CHECK(outs[0].dtype() == DType::Long, TypeError, "nonzero: Expected out tensor to have scalar type Long but got scalar type{}",
           scalar_name(outs[0].dtype()));
}
inline void tensordot_check(Results results, Outs outs) {
  TL_CHECK(outs[0].dtype() == results[0].dtype(), TypeError,
           "tensordot: Expected the output tensor to have dtype {}, but got an output tensor with dtype {}",
           scalar_name(results[0].dtype()), scalar_name(outs[0].dtype()));
}

inline void pooling_output_check(Results results, Outs outs) {
  TL_CHECK(outs[0].dtype() == results[0].dtype(), TypeError, "expected dtype {} for `output` but got dtype {}",
           type_meta_name(results[0].dtype()), type_meta_name(outs[0].dtype()));
}
inline void nan_to_num_check(Results results, Outs outs) {
  TL_CHECK(outs[0].dtype() == results[0].dtype(), TypeError, "nan_to_num: dtype of out: {} should be same as input: {}",
           scalar_name(outs[0].dtype()), scalar_name(results[0].dtype()));
}
inline void histc_check(Results results, Outs outs) {
  TL_CHECK(outs[0].dtype() == results[0].dtype(), TypeError,
           "torch.histogram: input tensor and hist tensor should have the same dtype, but got input {} and hist {}",
           type_meta_name(results[0].dtype()), type_meta_name(outs[0].dtype()));
}
inline void masked_select_check(Results results, Outs outs) {
  TL_CHECK(outs[0].dtype() == results[0].dtype(), TypeError, "masked_select(): self and result must have the same scalar type");
}
inline void take_check(Results results, Outs outs) {
  TL_CHECK(outs[0].dtype() == results[0].dtype(), TypeError,
           "take(): self and out expected to have the same dtype, but got self.dtype = {} and out.dtype = {}",
           scalar_name(results[0].dtype()), scalar_name(outs[0].dtype()));
}
inline void float_power_check(Results results, Outs outs) {
  TL_CHECK(outs[0].dtype() == results[0].dtype(), TypeError,
           "the output given to float_power has dtype {} but the operation's result requires dtype {}",
           scalar_name(outs[0].dtype()), scalar_name(results[0].dtype()));
}
inline void input_dtype_result_check(Results results, Outs outs) {
  TL_CHECK(outs[0].dtype() == results[0].dtype(), TypeError, "result dtype {} does not match input dtype {}",
           scalar_name(outs[0].dtype()), scalar_name(results[0].dtype()));
}
// The result is int32 exactly when out_int32 was set.
inline void searchsorted_check(Results results, Outs outs) {
  TL_CHECK(outs[0].dtype() == results[0].dtype(), TypeError,
           "torch.searchsorted(): output tensor's dtype is wrong, it can only be Int(int32) or Long(int64) depending on "
           "whether out_int32 flag is True, but we got output tensor's dtype {} and out_int32 flag is {}",
           scalar_name(outs[0].dtype()), results[0].dtype() == DType::Int ? "True" : "False");
}
inline void kthvalue_check(Results results, Outs outs) {
  TL_INTERNAL_ASSERT(outs.size() == 2, "a values/indices check on another form");
  TL_CHECK(outs[0].dtype() == results[0].dtype(), TypeError, "output values must be of same type as input");
  TL_CHECK(outs[1].dtype() == DType::Long, TypeError, "output indices must be of scalar type Long");
}
// median and nanmedian (torch's checkScalarType, then checkSameType, naming "median").
inline std::string legacy_tensor_name(DType d) { return fmt::format("torch.{}Tensor", scalar_name(d)); }
inline void median_check(Results results, Outs outs) {
  TL_INTERNAL_ASSERT(outs.size() == 2, "a values/indices check on another form");
  TL_CHECK(outs[1].dtype() == DType::Long, TypeError,
           "Expected tensor for argument #1 'indices' to have scalar type Long; but got {} instead (while checking "
           "arguments for median)",
           legacy_tensor_name(outs[1].dtype()));
  TL_CHECK(outs[0].dtype() == results[0].dtype(), TypeError,
           "Expected tensor for 'values' to have the same type as tensor for argument #2 'self'; but type {} does not "
           "equal {} (while checking arguments for median)",
           legacy_tensor_name(outs[0].dtype()), legacy_tensor_name(results[0].dtype()));
}
inline void mode_check(Results results, Outs outs) {
  TL_INTERNAL_ASSERT(outs.size() == 2, "a values/indices check on another form");
  TL_CHECK(outs[0].dtype() == results[0].dtype(), TypeError, "expected scalar type '{}' but got '{}' for values output",
           scalar_name(results[0].dtype()), scalar_name(outs[0].dtype()));
  TL_CHECK(outs[1].dtype() == DType::Long, TypeError, "expected scalar type 'Long' but got '{}' for indices output",
           scalar_name(outs[1].dtype()));
}
inline void cumulative_extreme_check(Results results, Outs outs) {
  for (size_t i = 0; i < outs.size(); ++i)
    TL_CHECK(outs[i].dtype() == results[i].dtype(), TypeError, "expected scalar_type {} but found {}",
             scalar_name(results[i].dtype()), scalar_name(outs[i].dtype()));
}
// torch's linalg wrappers that accept any dtype the result casts to safely, naming the
// out tensor by its schema name.
template <Literal kOp, Literal... kNames>
inline void safely_castable(Results results, Outs outs) {
  static constexpr std::array<std::string_view, sizeof...(kNames)> names = {kNames.view()...};
  for (size_t i = 0; i < outs.size(); ++i)
    TL_CHECK(can_cast(results[i].dtype(), outs[i].dtype()), TypeError,
             "{}: Expected {} to be safely castable from {} dtype, but got {} with dtype {}", kOp.view(), names[i],
             scalar_name(results[i].dtype()), names[i], scalar_name(outs[i].dtype()));
}

// The out= form of the functional overload kFunctional with kOutputs results.
template <Literal kFunctional, size_t kOutputs, OutCheck kCheck>
inline void into_outs(Stack& s) {
  static const Operator* const functional = OperatorRegistry::global().find(kFunctional.view());
  TL_INTERNAL_ASSERT(functional != nullptr, "multi-output out= form without its functional overload");
  std::array<Tensor, kOutputs> outs;
  for (size_t i = kOutputs; i-- > 0;) outs[i] = pop_tensor(s);
  functional->operation()(s);
  std::array<Tensor, kOutputs> results;
  for (size_t i = kOutputs; i-- > 0;) results[i] = pop_tensor(s);
  kCheck(results, outs);
  for (size_t i = 0; i < kOutputs; ++i) assign_out_unchecked(outs[i], results[i]);
  for (Tensor& out : outs) push(s, out);
}

// The out= form of a functional with a `dtype` argument (its last before out=) that
// computes in out's dtype when none is given: cumsum(x, out=int64) sums x as int64,
// truncating first, as torch does (unlike sum.out, which sums, then casts).
template <Literal kFunctional>
inline void in_out_dtype(Stack& s) {
  static const Operator* const functional = OperatorRegistry::global().find(kFunctional.view());
  TL_INTERNAL_ASSERT(functional != nullptr, "out= form without its functional overload");
  Tensor out = pop_tensor(s);
  if (s.back().isNone()) s.back() = IValue(static_cast<int64_t>(dtype_info(out.dtype()).scalar_type_index));
  functional->operation()(s);
  const Tensor result = pop_tensor(s);
  assign_out_unchecked(out, result);
  push(s, out);
}

// The out= form of a factory (eye, logspace, tril/triu_indices): torch makes the values
// in out's dtype, so the functional runs with it and the default layout, device and
// pin_memory.
// kKeepsShape: logspace, like linspace, resizes out only when its element count is not
// `steps`, so a [2, 2] out takes four steps in its own shape.
template <Literal kFunctional, bool kKeepsShape>
inline void factory_into_out(Stack& s) {
  static const Operator* const functional = OperatorRegistry::global().find(kFunctional.view());
  TL_INTERNAL_ASSERT(functional != nullptr, "out= form without its functional overload");
  Tensor out = pop_tensor(s);
  push(s, IValue(static_cast<int64_t>(dtype_info(out.dtype()).scalar_type_index)));
  for (int option = 0; option < 3; ++option) push(s, IValue());  // layout, device, pin_memory
  functional->operation()(s);
  Tensor result = pop_tensor(s);
  if (kKeepsShape && result.numel() == out.numel()) result = result.reshape(out.sizes());
  assign_out_unchecked(out, result);
  push(s, out);
}

// std/var/norm's out= forms reduce in out's dtype (torch's reduction takes its dtype from
// the result): self is cast to it before the functional runs, and a non-floating out is
// the kernel's refusal. std(x_float32, 0, out=float64) is the float64 computation.
// kWholeInDouble: std and var reduce to a single element through torch's separate
// whole-tensor path, in double, whatever out's dtype, then cast into out (an int64 out
// is accepted there).
template <Literal kFunctional, Literal kKernel, bool kWholeInDouble>
inline void reduce_in_out_dtype(Stack& s) {
  static const Operator* const functional = OperatorRegistry::global().find(kFunctional.view());
  TL_INTERNAL_ASSERT(functional != nullptr, "out= form without its functional overload");
  Tensor out = pop_tensor(s);
  const size_t arguments = functional->schema().arguments.size();
  TL_INTERNAL_ASSERT(s.size() >= arguments, "stack holds fewer values than the schema's arguments");
  Stack in_out_dtype(s.end() - static_cast<std::ptrdiff_t>(arguments), s.end());
  const DType self_dtype = in_out_dtype.front().toTensor().dtype();
  functional->operation()(s);
  Tensor result = pop_tensor(s);
  if (out.dtype() != self_dtype && !(kWholeInDouble && result.numel() == 1)) {
    TL_CHECK(is_floating(out.dtype()), UnsupportedError, "\"{}\" not implemented for '{}'", kKernel.view(),
             scalar_name(out.dtype()));
    in_out_dtype.front() = IValue(in_out_dtype.front().toTensor().to(out.dtype()));
    functional->operation()(in_out_dtype);
    result = pop_tensor(in_out_dtype);
  }
  assign_out_unchecked(out, result);
  push(s, out);
}

}  // namespace torchlet::jit::ops

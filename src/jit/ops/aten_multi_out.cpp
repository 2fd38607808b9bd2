// out= forms composed from their registered functional overloads: the multi-output ones
// (linalg.qr.out, kthvalue.values, aminmax.out, std_mean.correction_out, ...) and the
// single-output ones torch has beside a functional torchlet registers (abs-like
// elementwise, losses, upsampling, linalg, stacking, ...). Each runs the functional and
// writes every result into its out tensor, resized as torch resizes it. What differs
// between them is the dtype check torch applies to the out tensors, and each form names
// its check, read off torch by calling every form with out tensors of other dtypes:
// structured kernels demand the result's exact dtype, TensorIterator ones any dtype the
// result casts to, some copy into anything, and older kernels word their own checks.
// Cases run through torch in tests/fixtures/gen_ops.py (multi_out_ops, derived_variants).
#include <algorithm>
#include <array>
#include <span>
#include <string_view>

#include <torchlet/dtype.h>

#include "jit/ops/ops_util.h"
#include "jit/runtime/operator.h"

namespace torchlet::jit::ops {
namespace {

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

std::string_view scalar_name(DType d) { return dtype_info(d).scalar_type_name; }

// Structured kernels (linalg.qr, svd, aminmax, ...): the exact dtype.
void exact_dtype(Results results, Outs outs) {
  for (size_t i = 0; i < outs.size(); ++i)
    TL_CHECK(outs[i].dtype() == results[i].dtype(), TypeError, "Expected out tensor to have dtype {}, but got {} instead",
             type_meta_name(results[i].dtype()), type_meta_name(outs[i].dtype()));
}
// Composites that copy into whatever they are given (std_mean, unique_consecutive, ...).
void any_dtype(Results, Outs) {}

// TensorIterator's out= (result type promotion, then a cast into out).
void castable(Results results, Outs outs) {
  for (size_t i = 0; i < outs.size(); ++i)
    TL_CHECK(can_cast(results[i].dtype(), outs[i].dtype()), TypeError,
             "result type {} can't be cast to the desired output type {}", scalar_name(results[i].dtype()),
             scalar_name(outs[i].dtype()));
}
// TensorIterator configured to demand one dtype for inputs and outputs.
void found_dtype(Results results, Outs outs) {
  for (size_t i = 0; i < outs.size(); ++i)
    TL_CHECK(outs[i].dtype() == results[i].dtype(), TypeError, "Found dtype {} but expected {}", scalar_name(outs[i].dtype()),
             scalar_name(results[i].dtype()));
}
// Kernels that check out with checkScalarType-style wording.
void expected_scalar_type(Results results, Outs outs) {
  for (size_t i = 0; i < outs.size(); ++i)
    TL_CHECK(outs[i].dtype() == results[i].dtype(), TypeError, "expected scalar type {} but found {}",
             scalar_name(results[i].dtype()), scalar_name(outs[i].dtype()));
}
// The stacking functions write through torch.cat's out=.
void cat_castable(Results results, Outs outs) {
  TL_CHECK(can_cast(results[0].dtype(), outs[0].dtype()), TypeError,
           "torch.cat(): input types can't be cast to the desired output type {}", scalar_name(outs[0].dtype()));
}
// Checks worded by the kernels that own them (each message read off torch 1.13).
template <Literal kOp>
void bool_result(Results results, Outs outs) {
  TL_CHECK(outs[0].dtype() == results[0].dtype(), TypeError, "{} only supports bool tensor for result, got: {}", kOp.view(),
           scalar_name(outs[0].dtype()));
}
void input_dtype_match(Results results, Outs outs) {
  TL_CHECK(outs[0].dtype() == results[0].dtype(), TypeError,
           "Expected the dtype for input and out to match, but got {} for input's dtype and {} for out's dtype.",
           scalar_name(results[0].dtype()), scalar_name(outs[0].dtype()));
}
void multi_dot_check(Results results, Outs outs) {
  TL_CHECK(outs[0].dtype() == results[0].dtype(), TypeError, "multi_dot(): expected out tensor to have dtype {} but got {}",
           type_meta_name(results[0].dtype()), type_meta_name(outs[0].dtype()));
}
void index_select_check(Results results, Outs outs) {
  TL_CHECK(outs[0].dtype() == results[0].dtype(), TypeError, "index_select(): self and result must have the same scalar type");
}
template <Literal kOp>
void norm_out_check(Results results, Outs outs) {
  TL_CHECK(outs[0].dtype() == results[0].dtype(), TypeError, "{} expected out tensor dtype {} but got: {}", kOp.view(),
           scalar_name(results[0].dtype()), scalar_name(outs[0].dtype()));
}
void vecdot_check(Results results, Outs outs) {
  // (torch's message lacks the space after "dtype")
  TL_CHECK(outs[0].dtype() == results[0].dtype(), TypeError, "linalg.vecdot: Expected out of dtype{} but found {}",
           scalar_name(results[0].dtype()), scalar_name(outs[0].dtype()));
}
void floating_result(Results, Outs outs) {
  TL_CHECK(is_floating(outs[0].dtype()) || is_complex(outs[0].dtype()), TypeError,
           "logsumexp(): Expected floating point type for result tensor, but got: {}", scalar_name(outs[0].dtype()));
}
void nonzero_check(Results, Outs outs) {
  TL_CHECK(outs[0].dtype() == DType::Long, TypeError, "nonzero: Expected out tensor to have scalar type Long but got scalar type{}",
           scalar_name(outs[0].dtype()));
}
void tensordot_check(Results results, Outs outs) {
  TL_CHECK(outs[0].dtype() == results[0].dtype(), TypeError,
           "tensordot: Expected the output tensor to have dtype {}, but got an output tensor with dtype {}",
           scalar_name(results[0].dtype()), scalar_name(outs[0].dtype()));
}

void pooling_output_check(Results results, Outs outs) {
  TL_CHECK(outs[0].dtype() == results[0].dtype(), TypeError, "expected dtype {} for `output` but got dtype {}",
           type_meta_name(results[0].dtype()), type_meta_name(outs[0].dtype()));
}
void nan_to_num_check(Results results, Outs outs) {
  TL_CHECK(outs[0].dtype() == results[0].dtype(), TypeError, "nan_to_num: dtype of out: {} should be same as input: {}",
           scalar_name(outs[0].dtype()), scalar_name(results[0].dtype()));
}
void histc_check(Results results, Outs outs) {
  TL_CHECK(outs[0].dtype() == results[0].dtype(), TypeError,
           "torch.histogram: input tensor and hist tensor should have the same dtype, but got input {} and hist {}",
           type_meta_name(results[0].dtype()), type_meta_name(outs[0].dtype()));
}
void masked_select_check(Results results, Outs outs) {
  TL_CHECK(outs[0].dtype() == results[0].dtype(), TypeError, "masked_select(): self and result must have the same scalar type");
}
void take_check(Results results, Outs outs) {
  TL_CHECK(outs[0].dtype() == results[0].dtype(), TypeError,
           "take(): self and out expected to have the same dtype, but got self.dtype = {} and out.dtype = {}",
           scalar_name(results[0].dtype()), scalar_name(outs[0].dtype()));
}
void float_power_check(Results results, Outs outs) {
  TL_CHECK(outs[0].dtype() == results[0].dtype(), TypeError,
           "the output given to float_power has dtype {} but the operation's result requires dtype {}",
           scalar_name(outs[0].dtype()), scalar_name(results[0].dtype()));
}
void input_dtype_result_check(Results results, Outs outs) {
  TL_CHECK(outs[0].dtype() == results[0].dtype(), TypeError, "result dtype {} does not match input dtype {}",
           scalar_name(outs[0].dtype()), scalar_name(results[0].dtype()));
}
// The result is int32 exactly when out_int32 was set.
void searchsorted_check(Results results, Outs outs) {
  TL_CHECK(outs[0].dtype() == results[0].dtype(), TypeError,
           "torch.searchsorted(): output tensor's dtype is wrong, it can only be Int(int32) or Long(int64) depending on "
           "whether out_int32 flag is True, but we got output tensor's dtype {} and out_int32 flag is {}",
           scalar_name(outs[0].dtype()), results[0].dtype() == DType::Int ? "True" : "False");
}
void kthvalue_check(Results results, Outs outs) {
  TL_INTERNAL_ASSERT(outs.size() == 2, "a values/indices check on another form");
  TL_CHECK(outs[0].dtype() == results[0].dtype(), TypeError, "output values must be of same type as input");
  TL_CHECK(outs[1].dtype() == DType::Long, TypeError, "output indices must be of scalar type Long");
}
// median and nanmedian (torch's checkScalarType, then checkSameType, naming "median").
std::string legacy_tensor_name(DType d) { return fmt::format("torch.{}Tensor", scalar_name(d)); }
void median_check(Results results, Outs outs) {
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
void mode_check(Results results, Outs outs) {
  TL_INTERNAL_ASSERT(outs.size() == 2, "a values/indices check on another form");
  TL_CHECK(outs[0].dtype() == results[0].dtype(), TypeError, "expected scalar type '{}' but got '{}' for values output",
           scalar_name(results[0].dtype()), scalar_name(outs[0].dtype()));
  TL_CHECK(outs[1].dtype() == DType::Long, TypeError, "expected scalar type 'Long' but got '{}' for indices output",
           scalar_name(outs[1].dtype()));
}
void cumulative_extreme_check(Results results, Outs outs) {
  for (size_t i = 0; i < outs.size(); ++i)
    TL_CHECK(outs[i].dtype() == results[i].dtype(), TypeError, "expected scalar_type {} but found {}",
             scalar_name(results[i].dtype()), scalar_name(outs[i].dtype()));
}
// torch's linalg wrappers that accept any dtype the result casts to safely, naming the
// out tensor by its schema name.
template <Literal kOp, Literal... kNames>
void safely_castable(Results results, Outs outs) {
  static constexpr std::array<std::string_view, sizeof...(kNames)> names = {kNames.view()...};
  for (size_t i = 0; i < outs.size(); ++i)
    TL_CHECK(can_cast(results[i].dtype(), outs[i].dtype()), TypeError,
             "{}: Expected {} to be safely castable from {} dtype, but got {} with dtype {}", kOp.view(), names[i],
             scalar_name(results[i].dtype()), names[i], scalar_name(outs[i].dtype()));
}

// The out= form of the functional overload kFunctional with kOutputs results.
template <Literal kFunctional, size_t kOutputs, OutCheck kCheck>
void into_outs(Stack& s) {
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
void in_out_dtype(Stack& s) {
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
void factory_into_out(Stack& s) {
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

// diff.out: torch's out= path narrows the input (prepend and append joined) to its
// length less n, so a negative n, which the functional answers with that joined input,
// is narrow's refusal here.
void diff_out(Stack& s) {
  static const Operator* const functional = OperatorRegistry::global().find("aten::diff");
  TL_INTERNAL_ASSERT(functional != nullptr, "out= form without its functional overload");
  // The stack ends self, n, dim, prepend, append, out.
  const int64_t n = s[s.size() - 5].toInt();
  if (n < 0) {
    Stack joined_args(s.end() - 6, s.end() - 1);
    functional->operation()(joined_args);
    const Tensor joined = pop_tensor(joined_args);
    const int64_t dim = wrap_dim(s[s.size() - 4].toInt(), joined.dim(), "diff");
    (void)joined.narrow(dim, 0, joined.size(dim) - n);
  }
  into_outs<"aten::diff", 1, castable>(s);
}

// std/var/norm's out= forms reduce in out's dtype (torch's reduction takes its dtype from
// the result): self is cast to it before the functional runs, and a non-floating out is
// the kernel's refusal. std(x_float32, 0, out=float64) is the float64 computation.
// kWholeInDouble: std and var reduce to a single element through torch's separate
// whole-tensor path, in double, whatever out's dtype, then cast into out (an int64 out
// is accepted there).
template <Literal kFunctional, Literal kKernel, bool kWholeInDouble>
void reduce_in_out_dtype(Stack& s) {
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

}  // namespace

static RegisterOps reg({
    {"aten::aminmax.out(Tensor self, *, int? dim=None, bool keepdim=False, Tensor(a!) min, Tensor(b!) max) -> (Tensor(a!) min, Tensor(b!) max)", into_outs<"aten::aminmax", 2, exact_dtype>},
    {"aten::linalg_qr.out(Tensor A, str mode=\"reduced\", *, Tensor(a!) Q, Tensor(b!) R) -> (Tensor(a!) Q, Tensor(b!) R)", into_outs<"aten::linalg_qr", 2, exact_dtype>},
    {"aten::qr.Q(Tensor self, bool some=True, *, Tensor(a!) Q, Tensor(b!) R) -> (Tensor(a!) Q, Tensor(b!) R)", into_outs<"aten::qr", 2, exact_dtype>},
    {"aten::linalg_lu_factor.out(Tensor A, *, bool pivot=True, Tensor(a!) LU, Tensor(b!) pivots) -> (Tensor(a!) LU, Tensor(b!) pivots)", into_outs<"aten::linalg_lu_factor", 2, exact_dtype>},
    {"aten::linalg_lu_factor_ex.out(Tensor A, *, bool pivot=True, bool check_errors=False, Tensor(a!) LU, Tensor(b!) pivots, Tensor(c!) info) -> (Tensor(a!) LU, Tensor(b!) pivots, Tensor(c!) info)", into_outs<"aten::linalg_lu_factor_ex", 3, exact_dtype>},
    {"aten::linalg_lu.out(Tensor A, *, bool pivot=True, Tensor(a!) P, Tensor(b!) L, Tensor(c!) U) -> (Tensor(a!) P, Tensor(b!) L, Tensor(c!) U)", into_outs<"aten::linalg_lu", 3, exact_dtype>},
    {"aten::lu_unpack.out(Tensor LU_data, Tensor LU_pivots, bool unpack_data=True, bool unpack_pivots=True, *, Tensor(a!) P, Tensor(b!) L, Tensor(c!) U) -> (Tensor(a!) P, Tensor(b!) L, Tensor(c!) U)", into_outs<"aten::lu_unpack", 3, exact_dtype>},
    {"aten::slogdet.out(Tensor self, *, Tensor(a!) sign, Tensor(b!) logabsdet) -> (Tensor(a!) sign, Tensor(b!) logabsdet)", into_outs<"aten::slogdet", 2, exact_dtype>},
    {"aten::linalg_slogdet.out(Tensor A, *, Tensor(a!) sign, Tensor(b!) logabsdet) -> (Tensor(a!) sign, Tensor(b!) logabsdet)", into_outs<"aten::linalg_slogdet", 2, exact_dtype>},
    {"aten::triangular_solve.X(Tensor self, Tensor A, bool upper=True, bool transpose=False, bool unitriangular=False, *, Tensor(a!) X, Tensor(b!) M) -> (Tensor(a!) solution, Tensor(b!) cloned_coefficient)", into_outs<"aten::triangular_solve", 2, exact_dtype>},
    {"aten::svd.U(Tensor self, bool some=True, bool compute_uv=True, *, Tensor(a!) U, Tensor(b!) S, Tensor(c!) V) -> (Tensor(a!) U, Tensor(b!) S, Tensor(c!) V)", into_outs<"aten::svd", 3, exact_dtype>},
    {"aten::linalg_svd.U(Tensor A, bool full_matrices=True, *, str? driver=None, Tensor(a!) U, Tensor(b!) S, Tensor(c!) Vh) -> (Tensor(a!) U, Tensor(b!) S, Tensor(c!) Vh)", into_outs<"aten::linalg_svd", 3, exact_dtype>},
    {"aten::linalg_eigh.eigvals(Tensor self, str UPLO=\"L\", *, Tensor(a!) eigvals, Tensor(b!) eigvecs) -> (Tensor(a!) eigenvalues, Tensor(b!) eigenvectors)", into_outs<"aten::linalg_eigh", 2, exact_dtype>},
    {"aten::linalg_inv_ex.inverse(Tensor A, *, bool check_errors=False, Tensor(a!) inverse, Tensor(b!) info) -> (Tensor(a!) inverse, Tensor(b!) info)", into_outs<"aten::linalg_inv_ex", 2, exact_dtype>},
    {"aten::linalg_cholesky_ex.L(Tensor self, *, bool upper=False, bool check_errors=False, Tensor(a!) L, Tensor(b!) info) -> (Tensor(a!) L, Tensor(b!) info)", into_outs<"aten::linalg_cholesky_ex", 2, exact_dtype>},
    {"aten::linalg_ldl_factor_ex.out(Tensor self, *, bool hermitian=False, bool check_errors=False, Tensor(a!) LD, Tensor(b!) pivots, Tensor(c!) info) -> (Tensor(a!) LD, Tensor(b!) pivots, Tensor(c!) info)", into_outs<"aten::linalg_ldl_factor_ex", 3, exact_dtype>},
    {"aten::linalg_ldl_factor.out(Tensor self, *, bool hermitian=False, Tensor(a!) LD, Tensor(b!) pivots) -> (Tensor(a!) LD, Tensor(b!) pivots)", into_outs<"aten::linalg_ldl_factor", 2, exact_dtype>},
    {"aten::linalg_ldl_solve.out(Tensor LD, Tensor pivots, Tensor B, *, bool hermitian=False, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::linalg_ldl_solve", 1, exact_dtype>},
    {"aten::linalg_solve_ex.out(Tensor A, Tensor B, *, bool left=True, bool check_errors=False, Tensor(a!) result, Tensor(b!) info) -> (Tensor(a!) result, Tensor(b!) info)", into_outs<"aten::linalg_solve_ex", 2, exact_dtype>},
    {"aten::kthvalue.values(Tensor self, int k, int dim=-1, bool keepdim=False, *, Tensor(a!) values, Tensor(b!) indices) -> (Tensor(a!) values, Tensor(b!) indices)", into_outs<"aten::kthvalue", 2, kthvalue_check>},
    {"aten::median.dim_values(Tensor self, int dim, bool keepdim=False, *, Tensor(a!) values, Tensor(b!) indices) -> (Tensor(a!) values, Tensor(b!) indices)", into_outs<"aten::median.dim", 2, median_check>},
    {"aten::nanmedian.dim_values(Tensor self, int dim, bool keepdim=False, *, Tensor(a!) values, Tensor(b!) indices) -> (Tensor(a!) values, Tensor(b!) indices)", into_outs<"aten::nanmedian.dim", 2, median_check>},
    {"aten::mode.values(Tensor self, int dim=-1, bool keepdim=False, *, Tensor(a!) values, Tensor(b!) indices) -> (Tensor(a!) values, Tensor(b!) indices)", into_outs<"aten::mode", 2, mode_check>},
    {"aten::cummax.out(Tensor self, int dim, *, Tensor(a!) values, Tensor(b!) indices) -> (Tensor(a!) values, Tensor(b!) indices)", into_outs<"aten::cummax", 2, cumulative_extreme_check>},
    {"aten::cummin.out(Tensor self, int dim, *, Tensor(a!) values, Tensor(b!) indices) -> (Tensor(a!) values, Tensor(b!) indices)", into_outs<"aten::cummin", 2, cumulative_extreme_check>},
    {"aten::geqrf.a(Tensor self, *, Tensor(a!) a, Tensor(b!) tau) -> (Tensor(a!) a, Tensor(b!) tau)", into_outs<"aten::geqrf", 2, safely_castable<"torch.geqrf", "a", "tau">>},
    {"aten::linalg_lstsq.out(Tensor self, Tensor b, float? rcond=None, *, str? driver=None, Tensor(a!) solution, Tensor(b!) residuals, Tensor(c!) rank, Tensor(d!) singular_values) -> (Tensor(a!) solution, Tensor(b!) residuals, Tensor(c!) rank, Tensor(d!) singular_values)", into_outs<"aten::linalg_lstsq", 4, safely_castable<"torch.linalg.lstsq", "solution", "residuals", "rank", "singular_values">>},
    {"aten::std_mean.correction_out(Tensor self, int[1]? dim, *, int? correction, bool keepdim=False, Tensor(a!) out0, Tensor(b!) out1) -> (Tensor(a!), Tensor(b!))", into_outs<"aten::std_mean.correction", 2, any_dtype>},
    {"aten::var_mean.correction_out(Tensor self, int[1]? dim, *, int? correction, bool keepdim=False, Tensor(a!) out0, Tensor(b!) out1) -> (Tensor(a!), Tensor(b!))", into_outs<"aten::var_mean.correction", 2, any_dtype>},
    {"aten::unique_consecutive.out(Tensor self, bool return_inverse=False, bool return_counts=False, int? dim=None, *, Tensor(a!) out0, Tensor(b!) out1, Tensor(c!) out2) -> (Tensor(a!), Tensor(b!), Tensor(c!))", into_outs<"aten::unique_consecutive", 3, any_dtype>},
    {"aten::unique_dim.out(Tensor self, int dim, bool sorted=True, bool return_inverse=False, bool return_counts=False, *, Tensor(a!) out0, Tensor(b!) out1, Tensor(c!) out2) -> (Tensor(a!), Tensor(b!), Tensor(c!))", into_outs<"aten::unique_dim", 3, any_dtype>},
    {"aten::unique_dim_consecutive.out(Tensor self, int dim, bool return_inverse=False, bool return_counts=False, *, Tensor(a!) out0, Tensor(b!) out1, Tensor(c!) out2) -> (Tensor(a!), Tensor(b!), Tensor(c!))", into_outs<"aten::unique_dim_consecutive", 3, any_dtype>},
    {"aten::_unique.out(Tensor self, bool sorted=True, bool return_inverse=False, *, Tensor(a!) out0, Tensor(b!) out1) -> (Tensor(a!), Tensor(b!))", into_outs<"aten::_unique", 2, any_dtype>},
    {"aten::_unique2.out(Tensor self, bool sorted=True, bool return_inverse=False, bool return_counts=False, *, Tensor(a!) out0, Tensor(b!) out1, Tensor(c!) out2) -> (Tensor(a!), Tensor(b!), Tensor(c!))", into_outs<"aten::_unique2", 3, any_dtype>},
    // out= forms whose functional overloads other files register, each with the check
    // torch applies (derived_variants in gen_ops.py tries every one with a wrong dtype).
    {"aten::index.Tensor_out(Tensor self, Tensor?[] indices, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::index.Tensor", 1, any_dtype>},
    {"aten::fill.Scalar_out(Tensor self, Scalar value, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::fill.Scalar", 1, any_dtype>},
    {"aten::fill.Tensor_out(Tensor self, Tensor value, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::fill.Tensor", 1, any_dtype>},
    {"aten::stack.out(Tensor[] tensors, int dim=0, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::stack", 1, cat_castable>},
    {"aten::gather.out(Tensor self, int dim, Tensor index, *, bool sparse_grad=False, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::gather", 1, exact_dtype>},
    {"aten::scatter.src_out(Tensor self, int dim, Tensor index, Tensor src, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::scatter.src", 1, exact_dtype>},
    {"aten::scatter.value_out(Tensor self, int dim, Tensor index, Scalar value, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::scatter.value", 1, exact_dtype>},
    {"aten::scatter.reduce_out(Tensor self, int dim, Tensor index, Tensor src, *, str reduce, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::scatter.reduce", 1, exact_dtype>},
    {"aten::scatter.value_reduce_out(Tensor self, int dim, Tensor index, Scalar value, *, str reduce, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::scatter.value_reduce", 1, exact_dtype>},
    {"aten::masked_fill.Scalar_out(Tensor self, Tensor mask, Scalar value, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::masked_fill.Scalar", 1, any_dtype>},
    {"aten::masked_fill.Tensor_out(Tensor self, Tensor mask, Tensor value, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::masked_fill.Tensor", 1, any_dtype>},
    {"aten::flip.out(Tensor self, int[] dims, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::flip", 1, any_dtype>},
    {"aten::roll.out(Tensor self, int[1] shifts, int[1] dims=[], *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::roll", 1, any_dtype>},
    {"aten::tril.out(Tensor self, int diagonal=0, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::tril", 1, exact_dtype>},
    {"aten::triu.out(Tensor self, int diagonal=0, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::triu", 1, exact_dtype>},
    {"aten::repeat.out(Tensor self, SymInt[] repeats, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::repeat", 1, any_dtype>},
    {"aten::gelu.out(Tensor self, *, str approximate=\"none\", Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::gelu", 1, found_dtype>},
    {"aten::leaky_relu.out(Tensor self, Scalar negative_slope=0.01, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::leaky_relu", 1, found_dtype>},
    {"aten::elu.out(Tensor self, Scalar alpha=1, Scalar scale=1, Scalar input_scale=1, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::elu", 1, found_dtype>},
    {"aten::softplus.out(Tensor self, Scalar beta=1, Scalar threshold=20, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::softplus", 1, found_dtype>},
    {"aten::clamp.out(Tensor self, Scalar? min=None, Scalar? max=None, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::clamp", 1, found_dtype>},
    {"aten::clamp_min.out(Tensor self, Scalar min, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::clamp_min", 1, found_dtype>},
    {"aten::clamp_max.out(Tensor self, Scalar max, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::clamp_max", 1, found_dtype>},
    {"aten::linalg_solve_triangular.out(Tensor self, Tensor B, *, bool upper, bool left=True, bool unitriangular=False, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::linalg_solve_triangular", 1, expected_scalar_type>},
    {"aten::frobenius_norm.out(Tensor self, int[1] dim, bool keepdim=False, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::frobenius_norm.dim", 1, any_dtype>},
    {"aten::nuclear_norm.out(Tensor self, bool keepdim=False, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::nuclear_norm", 1, any_dtype>},
    {"aten::nuclear_norm.dim_out(Tensor self, int[2] dim, bool keepdim=False, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::nuclear_norm.dim", 1, any_dtype>},
    {"aten::sum.out(Tensor self, *, ScalarType? dtype=None, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::sum", 1, any_dtype>},
    {"aten::prod.out(Tensor self, *, ScalarType? dtype=None, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::prod", 1, any_dtype>},
    {"aten::prod.int_out(Tensor self, int dim, bool keepdim=False, *, ScalarType? dtype=None, Tensor(a!) out) -> Tensor(a!)", in_out_dtype<"aten::prod.dim_int">},
    {"aten::argmax.out(Tensor self, int? dim=None, bool keepdim=False, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::argmax", 1, exact_dtype>},
    {"aten::argmin.out(Tensor self, int? dim=None, bool keepdim=False, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::argmin", 1, exact_dtype>},
    {"aten::norm.Scalar_out(Tensor self, Scalar p=2, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::norm.Scalar", 1, any_dtype>},
    {"aten::norm.ScalarOpt_dtype_out(Tensor self, Scalar? p, *, ScalarType dtype, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::norm.ScalarOpt_dtype", 1, any_dtype>},
    {"aten::linalg_vector_norm.out(Tensor self, Scalar ord=2, int[1]? dim=None, bool keepdim=False, *, ScalarType? dtype=None, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::linalg_vector_norm", 1, exact_dtype>},
    {"aten::cumsum.out(Tensor self, int dim, *, ScalarType? dtype=None, Tensor(a!) out) -> Tensor(a!)", in_out_dtype<"aten::cumsum">},
    {"aten::cumprod.out(Tensor self, int dim, *, ScalarType? dtype=None, Tensor(a!) out) -> Tensor(a!)", in_out_dtype<"aten::cumprod">},
    {"aten::mm.out(Tensor self, Tensor mat2, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::mm", 1, exact_dtype>},
    {"aten::bmm.out(Tensor self, Tensor mat2, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::bmm", 1, exact_dtype>},
    {"aten::matmul.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::matmul", 1, exact_dtype>},
    {"aten::addmm.out(Tensor self, Tensor mat1, Tensor mat2, *, Scalar beta=1, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::addmm", 1, exact_dtype>},
    {"aten::linear.out(Tensor input, Tensor weight, Tensor? bias=None, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::linear", 1, exact_dtype>},
    {"aten::_convolution.out(Tensor input, Tensor weight, Tensor? bias, int[] stride, int[] padding, int[] dilation, bool transposed, int[] output_padding, int groups, bool benchmark, bool deterministic, bool cudnn_enabled, bool allow_tf32, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::_convolution", 1, any_dtype>},
    {"aten::convolution.out(Tensor input, Tensor weight, Tensor? bias, int[] stride, int[] padding, int[] dilation, bool transposed, int[] output_padding, int groups, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::convolution", 1, any_dtype>},
    {"aten::avg_pool2d.out(Tensor self, int[2] kernel_size, int[2] stride=[], int[2] padding=0, bool ceil_mode=False, bool count_include_pad=True, int? divisor_override=None, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::avg_pool2d", 1, exact_dtype>},
    {"aten::softmax.int_out(Tensor self, int dim, ScalarType? dtype=None, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::softmax.int", 1, exact_dtype>},
    {"aten::log_softmax.int_out(Tensor self, int dim, ScalarType? dtype=None, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::log_softmax.int", 1, exact_dtype>},
    {"aten::_softmax.out(Tensor self, int dim, bool half_to_float, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::_softmax", 1, exact_dtype>},
    {"aten::_log_softmax.out(Tensor self, int dim, bool half_to_float, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::_log_softmax", 1, exact_dtype>},
    {"aten::embedding.out(Tensor weight, Tensor indices, int padding_idx=-1, bool scale_grad_by_freq=False, bool sparse=False, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::embedding", 1, any_dtype>},
    {"aten::tensordot.out(Tensor self, Tensor other, int[] dims_self, int[] dims_other, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::tensordot", 1, tensordot_check>},
    {"aten::index_select.out(Tensor self, int dim, Tensor index, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::index_select", 1, index_select_check>},
    {"aten::nonzero.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::nonzero", 1, nonzero_check>},
    {"aten::linalg_matrix_norm.out(Tensor self, Scalar ord, int[] dim=[-2, -1], bool keepdim=False, *, ScalarType? dtype=None, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::linalg_matrix_norm", 1, norm_out_check<"linalg.matrix_norm">>},
    {"aten::linalg_matrix_norm.str_ord_out(Tensor self, str ord=\"fro\", int[] dim=[-2, -1], bool keepdim=False, *, ScalarType? dtype=None, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::linalg_matrix_norm.str_ord", 1, norm_out_check<"linalg.matrix_norm">>},
    {"aten::linalg_norm.out(Tensor self, Scalar? ord=None, int[1]? dim=None, bool keepdim=False, *, ScalarType? dtype=None, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::linalg_norm", 1, norm_out_check<"linalg.norm">>},
    {"aten::linalg_norm.ord_str_out(Tensor self, str ord, int[1]? dim=None, bool keepdim=False, *, ScalarType? dtype=None, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::linalg_norm.ord_str", 1, norm_out_check<"linalg.norm">>},
    {"aten::linalg_matrix_power.out(Tensor self, int n, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::linalg_matrix_power", 1, safely_castable<"matrix_power", "result">>},
    {"aten::matrix_power.out(Tensor self, int n, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::matrix_power", 1, safely_castable<"matrix_power", "result">>},
    {"aten::linalg_matrix_exp.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::linalg_matrix_exp", 1, any_dtype>},
    {"aten::linalg_multi_dot.out(Tensor[] tensors, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::linalg_multi_dot", 1, multi_dot_check>},
    {"aten::chain_matmul.out(Tensor[] matrices, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::chain_matmul", 1, multi_dot_check>},
    {"aten::linalg_vecdot.out(Tensor x, Tensor y, *, int dim=-1, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::linalg_vecdot", 1, vecdot_check>},
    {"aten::amax.out(Tensor self, int[1] dim=[], bool keepdim=False, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::amax", 1, input_dtype_match>},
    {"aten::amin.out(Tensor self, int[1] dim=[], bool keepdim=False, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::amin", 1, input_dtype_match>},
    {"aten::max.dim_max(Tensor self, int dim, bool keepdim=False, *, Tensor(a!) max, Tensor(b!) max_values) -> (Tensor(a!) values, Tensor(b!) indices)", into_outs<"aten::max.dim", 2, exact_dtype>},
    {"aten::min.dim_min(Tensor self, int dim, bool keepdim=False, *, Tensor(a!) min, Tensor(b!) min_indices) -> (Tensor(a!) values, Tensor(b!) indices)", into_outs<"aten::min.dim", 2, exact_dtype>},
    {"aten::all.all_out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::all", 1, bool_result<"all">>},
    {"aten::all.out(Tensor self, int dim, bool keepdim=False, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::all.dim", 1, bool_result<"all">>},
    {"aten::any.all_out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::any", 1, bool_result<"any">>},
    {"aten::any.out(Tensor self, int dim, bool keepdim=False, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::any.dim", 1, bool_result<"any">>},
    {"aten::logsumexp.out(Tensor self, int[1] dim, bool keepdim=False, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::logsumexp", 1, floating_result>},
    {"aten::sort.values(Tensor self, int dim=-1, bool descending=False, *, Tensor(a!) values, Tensor(b!) indices) -> (Tensor(a!) values, Tensor(b!) indices)", into_outs<"aten::sort", 2, exact_dtype>},
    {"aten::sort.values_stable(Tensor self, *, bool? stable, int dim=-1, bool descending=False, Tensor(a!) values, Tensor(b!) indices) -> (Tensor(a!) values, Tensor(b!) indices)", into_outs<"aten::sort.stable", 2, exact_dtype>},
    {"aten::topk.values(Tensor self, int k, int dim=-1, bool largest=True, bool sorted=True, *, Tensor(a!) values, Tensor(b!) indices) -> (Tensor(a!) values, Tensor(b!) indices)", into_outs<"aten::topk", 2, exact_dtype>},
    {"aten::adaptive_avg_pool2d.out(Tensor self, SymInt[2] output_size, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::adaptive_avg_pool2d", 1, pooling_output_check>},
    {"aten::adaptive_max_pool2d.out(Tensor self, int[2] output_size, *, Tensor(a!) out, Tensor(b!) indices) -> (Tensor(a!), Tensor(b!))", into_outs<"aten::adaptive_max_pool2d", 2, exact_dtype>},
    {"aten::adaptive_max_pool3d.out(Tensor self, int[3] output_size, *, Tensor(a!) out, Tensor(b!) indices) -> (Tensor(a!), Tensor(b!))", into_outs<"aten::adaptive_max_pool3d", 2, exact_dtype>},
    {"aten::max_pool2d_with_indices.out(Tensor self, int[2] kernel_size, int[2] stride=[], int[2] padding=0, int[2] dilation=1, bool ceil_mode=False, *, Tensor(a!) out, Tensor(b!) indices) -> (Tensor(a!), Tensor(b!))", into_outs<"aten::max_pool2d_with_indices", 2, exact_dtype>},
    {"aten::max_pool3d_with_indices.out(Tensor self, int[3] kernel_size, int[3] stride=[], int[3] padding=0, int[3] dilation=1, bool ceil_mode=False, *, Tensor(a!) out, Tensor(b!) indices) -> (Tensor(a!), Tensor(b!))", into_outs<"aten::max_pool3d_with_indices", 2, expected_scalar_type>},
    // torch's out wrapper copies each result into whatever it is given.
    {"aten::native_layer_norm.out(Tensor input, SymInt[] normalized_shape, Tensor? weight, Tensor? bias, float eps, *, Tensor(a!) out0, Tensor(b!) out1, Tensor(c!) out2) -> (Tensor(a!), Tensor(b!), Tensor(c!))", into_outs<"aten::native_layer_norm", 3, any_dtype>},
    {"aten::nan_to_num.out(Tensor self, float? nan=None, float? posinf=None, float? neginf=None, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::nan_to_num", 1, nan_to_num_check>},
    {"aten::histc.out(Tensor self, int bins=100, Scalar min=0, Scalar max=0, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::histc", 1, histc_check>},
    {"aten::masked_select.out(Tensor self, Tensor mask, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::masked_select", 1, masked_select_check>},
    {"aten::take.out(Tensor self, Tensor index, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::take", 1, take_check>},
    {"aten::float_power.Tensor_Tensor_out(Tensor self, Tensor exponent, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::float_power.Tensor_Tensor", 1, float_power_check>},
    {"aten::float_power.Tensor_Scalar_out(Tensor self, Scalar exponent, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::float_power.Tensor_Scalar", 1, float_power_check>},
    {"aten::float_power.Scalar_out(Scalar self, Tensor exponent, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::float_power.Scalar", 1, float_power_check>},
    {"aten::adaptive_avg_pool3d.out(Tensor self, int[3] output_size, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::adaptive_avg_pool3d", 1, pooling_output_check>},
    {"aten::logcumsumexp.out(Tensor self, int dim, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::logcumsumexp", 1, cumulative_extreme_check>},
    {"aten::dot.out(Tensor self, Tensor tensor, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::dot", 1, input_dtype_result_check>},
    {"aten::searchsorted.Tensor_out(Tensor sorted_sequence, Tensor self, *, bool out_int32=False, bool right=False, str? side=None, Tensor? sorter=None, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::searchsorted.Tensor", 1, searchsorted_check>},
    {"aten::bucketize.Tensor_out(Tensor self, Tensor boundaries, *, bool out_int32=False, bool right=False, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::bucketize.Tensor", 1, searchsorted_check>},
    {"aten::var.out(Tensor self, int[1]? dim, bool unbiased=True, bool keepdim=False, *, Tensor(a!) out) -> Tensor(a!)", reduce_in_out_dtype<"aten::var.dim", "std_cpu", true>},
    {"aten::var.correction_out(Tensor self, int[1]? dim, *, int? correction, bool keepdim=False, Tensor(a!) out) -> Tensor(a!)", reduce_in_out_dtype<"aten::var.correction", "std_cpu", true>},
    {"aten::std.out(Tensor self, int[1]? dim, bool unbiased=True, bool keepdim=False, *, Tensor(a!) out) -> Tensor(a!)", reduce_in_out_dtype<"aten::std.dim", "std_cpu", true>},
    {"aten::std.correction_out(Tensor self, int[1]? dim, *, int? correction, bool keepdim=False, Tensor(a!) out) -> Tensor(a!)", reduce_in_out_dtype<"aten::std.correction", "std_cpu", true>},
    {"aten::norm.out(Tensor self, Scalar? p, int[1] dim, bool keepdim=False, *, Tensor(a!) out) -> Tensor(a!)", reduce_in_out_dtype<"aten::norm.ScalarOpt_dim", "norm_cpu", false>},
    {"aten::norm.dtype_out(Tensor self, Scalar? p, int[1] dim, bool keepdim, *, ScalarType dtype, Tensor(a!) out) -> Tensor(a!)", reduce_in_out_dtype<"aten::norm.ScalarOpt_dim_dtype", "norm_cpu", false>},
    // Single-output out= forms new with this file.
    {"aten::_transformer_encoder_layer_fwd.out(Tensor src, int embed_dim, int num_heads, Tensor qkv_weight, Tensor qkv_bias, Tensor proj_weight, Tensor proj_bias, bool use_gelu, bool norm_first, float eps, Tensor norm_weight_1, Tensor norm_bias_1, Tensor norm_weight_2, Tensor norm_bias_2, Tensor ffn_weight_1, Tensor ffn_bias_1, Tensor ffn_weight_2, Tensor ffn_bias_2, Tensor? mask=None, int? mask_type=None, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::_transformer_encoder_layer_fwd", 1, any_dtype>},
    {"aten::_upsample_bicubic2d_aa.out(Tensor self, SymInt[2] output_size, bool align_corners, float? scales_h=None, float? scales_w=None, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::_upsample_bicubic2d_aa", 1, exact_dtype>},
    {"aten::_upsample_bicubic2d_aa.vec_out(Tensor input, SymInt[]? output_size, bool align_corners, float[]? scale_factors, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::_upsample_bicubic2d_aa.vec", 1, any_dtype>},
    {"aten::_upsample_bilinear2d_aa.out(Tensor self, SymInt[2] output_size, bool align_corners, float? scales_h=None, float? scales_w=None, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::_upsample_bilinear2d_aa", 1, exact_dtype>},
    {"aten::_upsample_bilinear2d_aa.vec_out(Tensor input, SymInt[]? output_size, bool align_corners, float[]? scale_factors, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::_upsample_bilinear2d_aa.vec", 1, any_dtype>},
    {"aten::_upsample_nearest_exact1d.out(Tensor self, SymInt[1] output_size, float? scales=None, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::_upsample_nearest_exact1d", 1, exact_dtype>},
    {"aten::_upsample_nearest_exact1d.vec_out(Tensor input, SymInt[]? output_size, float[]? scale_factors, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::_upsample_nearest_exact1d.vec", 1, any_dtype>},
    {"aten::_upsample_nearest_exact2d.out(Tensor self, SymInt[2] output_size, float? scales_h=None, float? scales_w=None, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::_upsample_nearest_exact2d", 1, exact_dtype>},
    {"aten::_upsample_nearest_exact2d.vec_out(Tensor input, SymInt[]? output_size, float[]? scale_factors, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::_upsample_nearest_exact2d.vec", 1, any_dtype>},
    {"aten::_upsample_nearest_exact3d.out(Tensor self, SymInt[3] output_size, float? scales_d=None, float? scales_h=None, float? scales_w=None, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::_upsample_nearest_exact3d", 1, exact_dtype>},
    {"aten::_upsample_nearest_exact3d.vec_out(Tensor input, SymInt[]? output_size, float[]? scale_factors, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::_upsample_nearest_exact3d.vec", 1, any_dtype>},
    {"aten::addmv.out(Tensor self, Tensor mat, Tensor vec, *, Scalar beta=1, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::addmv", 1, exact_dtype>},
    {"aten::addr.out(Tensor self, Tensor vec1, Tensor vec2, *, Scalar beta=1, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::addr", 1, castable>},
    {"aten::affine_grid_generator.out(Tensor theta, int[] size, bool align_corners, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::affine_grid_generator", 1, any_dtype>},
    {"aten::arctan2.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::arctan2", 1, castable>},
    {"aten::atan2.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::atan2", 1, castable>},
    {"aten::avg_pool3d.out(Tensor self, int[3] kernel_size, int[3] stride=[], int[3] padding=0, bool ceil_mode=False, bool count_include_pad=True, int? divisor_override=None, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::avg_pool3d", 1, exact_dtype>},
    {"aten::baddbmm.out(Tensor self, Tensor batch1, Tensor batch2, *, Scalar beta=1, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::baddbmm", 1, exact_dtype>},
    {"aten::binary_cross_entropy_with_logits.out(Tensor self, Tensor target, Tensor? weight=None, Tensor? pos_weight=None, int reduction=1, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::binary_cross_entropy_with_logits", 1, any_dtype>},
    {"aten::bincount.out(Tensor self, Tensor? weights=None, int minlength=0, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::bincount", 1, any_dtype>},
    {"aten::block_diag.out(Tensor[] tensors, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::block_diag", 1, any_dtype>},
    {"aten::bucketize.Scalar_out(Scalar self, Tensor boundaries, *, bool out_int32=False, bool right=False, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::bucketize.Scalar", 1, any_dtype>},
    {"aten::celu.out(Tensor self, Scalar alpha=1., *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::celu", 1, any_dtype>},
    {"aten::channel_shuffle.out(Tensor self, int groups, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::channel_shuffle", 1, any_dtype>},
    {"aten::cholesky.out(Tensor self, bool upper=False, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::cholesky", 1, safely_castable<"cholesky", "result">>},
    {"aten::cholesky_inverse.out(Tensor self, bool upper=False, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::cholesky_inverse", 1, safely_castable<"cholesky_inverse", "result">>},
    {"aten::cholesky_solve.out(Tensor self, Tensor input2, bool upper=False, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::cholesky_solve", 1, safely_castable<"cholesky_solve", "result">>},
    {"aten::clamp.Tensor_out(Tensor self, Tensor? min=None, Tensor? max=None, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::clamp.Tensor", 1, castable>},
    {"aten::clamp_max.Tensor_out(Tensor self, Tensor max, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::clamp_max.Tensor", 1, castable>},
    {"aten::clamp_min.Tensor_out(Tensor self, Tensor min, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::clamp_min.Tensor", 1, castable>},
    {"aten::clip.Tensor_out(Tensor self, Tensor? min=None, Tensor? max=None, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::clip.Tensor", 1, castable>},
    {"aten::clip.out(Tensor self, Scalar? min=None, Scalar? max=None, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::clip", 1, found_dtype>},
    {"aten::col2im.out(Tensor self, SymInt[2] output_size, int[2] kernel_size, int[2] dilation, int[2] padding, int[2] stride, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::col2im", 1, expected_scalar_type>},
    {"aten::column_stack.out(Tensor[] tensors, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::column_stack", 1, cat_castable>},
    {"aten::copy.out(Tensor self, Tensor src, bool non_blocking=False, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::copy", 1, any_dtype>},
    {"aten::count_nonzero.dim_IntList_out(Tensor self, int[] dim, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::count_nonzero.dim_IntList", 1, any_dtype>},
    {"aten::count_nonzero.out(Tensor self, int? dim=None, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::count_nonzero", 1, any_dtype>},
    {"aten::cross.out(Tensor self, Tensor other, int? dim=None, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::cross", 1, exact_dtype>},
    {"aten::deg2rad.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::deg2rad", 1, castable>},
    {"aten::diag.out(Tensor self, int diagonal=0, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::diag", 1, expected_scalar_type>},
    {"aten::dist.out(Tensor self, Tensor other, Scalar p=2, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::dist", 1, any_dtype>},
    {"aten::dstack.out(Tensor[] tensors, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::dstack", 1, cat_castable>},
    {"aten::exp2.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::exp2", 1, castable>},
    {"aten::frac.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::frac", 1, found_dtype>},
    {"aten::glu.out(Tensor self, int dim=-1, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::glu", 1, castable>},
    {"aten::grid_sampler_2d.out(Tensor input, Tensor grid, int interpolation_mode, int padding_mode, bool align_corners, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::grid_sampler_2d", 1, any_dtype>},
    {"aten::grid_sampler_3d.out(Tensor input, Tensor grid, int interpolation_mode, int padding_mode, bool align_corners, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::grid_sampler_3d", 1, any_dtype>},
    {"aten::hardshrink.out(Tensor self, Scalar lambd=0.5, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::hardshrink", 1, found_dtype>},
    {"aten::hstack.out(Tensor[] tensors, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::hstack", 1, cat_castable>},
    {"aten::huber_loss.out(Tensor self, Tensor target, int reduction=1, float delta=1., *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::huber_loss", 1, castable>},
    {"aten::hypot.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::hypot", 1, castable>},
    {"aten::index_add.out(Tensor self, int dim, Tensor index, Tensor source, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::index_add", 1, exact_dtype>},
    {"aten::index_copy.out(Tensor self, int dim, Tensor index, Tensor source, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::index_copy", 1, exact_dtype>},
    {"aten::index_fill.int_Scalar_out(Tensor self, int dim, Tensor index, Scalar value, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::index_fill.int_Scalar", 1, any_dtype>},
    {"aten::index_fill.int_Tensor_out(Tensor self, int dim, Tensor index, Tensor value, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::index_fill.int_Tensor", 1, any_dtype>},
    {"aten::index_put.out(Tensor self, Tensor?[] indices, Tensor values, bool accumulate=False, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::index_put", 1, any_dtype>},
    {"aten::inverse.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::inverse", 1, exact_dtype>},
    {"aten::isin.Scalar_Tensor_out(Scalar element, Tensor test_elements, *, bool assume_unique=False, bool invert=False, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::isin.Scalar_Tensor", 1, exact_dtype>},
    {"aten::isin.Tensor_Scalar_out(Tensor elements, Scalar test_element, *, bool assume_unique=False, bool invert=False, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::isin.Tensor_Scalar", 1, exact_dtype>},
    {"aten::isin.Tensor_Tensor_out(Tensor elements, Tensor test_elements, *, bool assume_unique=False, bool invert=False, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::isin.Tensor_Tensor", 1, exact_dtype>},
    {"aten::isinf.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::isinf", 1, castable>},
    {"aten::isnan.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::isnan", 1, castable>},
    {"aten::kron.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::kron", 1, castable>},
    {"aten::lerp.Scalar_out(Tensor self, Tensor end, Scalar weight, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::lerp.Scalar", 1, castable>},
    {"aten::lerp.Tensor_out(Tensor self, Tensor end, Tensor weight, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::lerp.Tensor", 1, found_dtype>},
    {"aten::linalg_cholesky.out(Tensor self, *, bool upper=False, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::linalg_cholesky", 1, exact_dtype>},
    {"aten::linalg_cond.out(Tensor self, Scalar? p=None, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::linalg_cond", 1, safely_castable<"linalg.cond", "result">>},
    {"aten::linalg_cond.p_str_out(Tensor self, str p, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::linalg_cond.p_str", 1, safely_castable<"linalg.cond", "result">>},
    {"aten::linalg_cross.out(Tensor self, Tensor other, *, int dim=-1, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::linalg_cross", 1, exact_dtype>},
    {"aten::linalg_det.out(Tensor A, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::linalg_det", 1, exact_dtype>},
    {"aten::linalg_eigvalsh.out(Tensor self, str UPLO=\"L\", *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::linalg_eigvalsh", 1, exact_dtype>},
    {"aten::linalg_inv.out(Tensor A, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::linalg_inv", 1, exact_dtype>},
    {"aten::linalg_lu_solve.out(Tensor LU, Tensor pivots, Tensor B, *, bool left=True, bool adjoint=False, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::linalg_lu_solve", 1, exact_dtype>},
    {"aten::linalg_matrix_rank.atol_rtol_float_out(Tensor self, *, float? atol=None, float? rtol=None, bool hermitian=False, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::linalg_matrix_rank.atol_rtol_float", 1, safely_castable<"torch.linalg.matrix_rank", "result">>},
    {"aten::linalg_matrix_rank.atol_rtol_tensor_out(Tensor input, *, Tensor? atol=None, Tensor? rtol=None, bool hermitian=False, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::linalg_matrix_rank.atol_rtol_tensor", 1, safely_castable<"torch.linalg.matrix_rank", "result">>},
    {"aten::linalg_matrix_rank.out(Tensor self, float tol, bool hermitian=False, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::linalg_matrix_rank", 1, safely_castable<"torch.linalg.matrix_rank", "result">>},
    {"aten::linalg_matrix_rank.out_tol_tensor(Tensor input, Tensor tol, bool hermitian=False, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::linalg_matrix_rank.tol_tensor", 1, safely_castable<"torch.linalg.matrix_rank", "result">>},
    {"aten::linalg_pinv.atol_rtol_float_out(Tensor self, *, float? atol=None, float? rtol=None, bool hermitian=False, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::linalg_pinv.atol_rtol_float", 1, safely_castable<"linalg.pinv", "result">>},
    {"aten::linalg_pinv.atol_rtol_tensor_out(Tensor self, *, Tensor? atol=None, Tensor? rtol=None, bool hermitian=False, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::linalg_pinv.atol_rtol_tensor", 1, safely_castable<"linalg.pinv", "result">>},
    {"aten::linalg_pinv.out(Tensor self, float rcond, bool hermitian=False, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::linalg_pinv", 1, safely_castable<"linalg.pinv", "result">>},
    {"aten::linalg_pinv.out_rcond_tensor(Tensor self, Tensor rcond, bool hermitian=False, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::linalg_pinv.rcond_tensor", 1, safely_castable<"linalg.pinv", "result">>},
    {"aten::linalg_solve.out(Tensor A, Tensor B, *, bool left=True, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::linalg_solve", 1, exact_dtype>},
    {"aten::linalg_svdvals.out(Tensor A, *, str? driver=None, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::linalg_svdvals", 1, exact_dtype>},
    {"aten::log_sigmoid.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::log_sigmoid", 1, expected_scalar_type>},
    {"aten::logaddexp.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::logaddexp", 1, castable>},
    {"aten::logaddexp2.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::logaddexp2", 1, castable>},
    {"aten::logit.out(Tensor self, float? eps=None, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::logit", 1, castable>},
    {"aten::lu_solve.out(Tensor self, Tensor LU_data, Tensor LU_pivots, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::lu_solve", 1, exact_dtype>},
    {"aten::masked_scatter.out(Tensor self, Tensor mask, Tensor source, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::masked_scatter", 1, any_dtype>},
    {"aten::max_unpool2d.out(Tensor self, Tensor indices, int[2] output_size, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::max_unpool2d", 1, expected_scalar_type>},
    {"aten::max_unpool3d.out(Tensor self, Tensor indices, int[3] output_size, int[3] stride, int[3] padding, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::max_unpool3d", 1, expected_scalar_type>},
    {"aten::median.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::median", 1, any_dtype>},
    {"aten::mish.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::mish", 1, found_dtype>},
    {"aten::mse_loss.out(Tensor self, Tensor target, int reduction=1, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::mse_loss", 1, castable>},
    {"aten::multi_margin_loss.out(Tensor self, Tensor target, Scalar p=1, Scalar margin=1, Tensor? weight=None, int reduction=1, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::multi_margin_loss", 1, expected_scalar_type>},
    {"aten::multilabel_margin_loss.out(Tensor self, Tensor target, int reduction=1, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::multilabel_margin_loss", 1, expected_scalar_type>},
    {"aten::mv.out(Tensor self, Tensor vec, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::mv", 1, exact_dtype>},
    {"aten::nanmedian.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::nanmedian", 1, any_dtype>},
    {"aten::nansum.out(Tensor self, int[1]? dim=None, bool keepdim=False, *, ScalarType? dtype=None, Tensor(a!) out) -> Tensor(a!)", in_out_dtype<"aten::nansum">},
    {"aten::nanmean.out(Tensor self, int[1]? dim=None, bool keepdim=False, *, ScalarType? dtype=None, Tensor(a!) out) -> Tensor(a!)", in_out_dtype<"aten::nanmean">},
    {"aten::addcmul.out(Tensor self, Tensor tensor1, Tensor tensor2, *, Scalar value=1, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::addcmul", 1, castable>},
    {"aten::addcdiv.out(Tensor self, Tensor tensor1, Tensor tensor2, *, Scalar value=1, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::addcdiv", 1, castable>},
    {"aten::diff.out(Tensor self, int n=1, int dim=-1, Tensor? prepend=None, Tensor? append=None, *, Tensor(a!) out) -> Tensor(a!)", diff_out},
    {"aten::inner.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::inner", 1, tensordot_check>},
    {"aten::round.decimals_out(Tensor self, *, int decimals, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::round.decimals", 1, found_dtype>},
    {"aten::eye.out(int n, *, Tensor(a!) out) -> Tensor(a!)", factory_into_out<"aten::eye", false>},
    {"aten::eye.m_out(int n, int m, *, Tensor(a!) out) -> Tensor(a!)", factory_into_out<"aten::eye.m", false>},
    {"aten::logspace.out(Scalar start, Scalar end, int steps, float base=10., *, Tensor(a!) out) -> Tensor(a!)", factory_into_out<"aten::logspace", true>},
    {"aten::tril_indices.out(int row, int col, int offset=0, *, Tensor(a!) out) -> Tensor(a!)", factory_into_out<"aten::tril_indices", false>},
    {"aten::triu_indices.out(int row, int col, int offset=0, *, Tensor(a!) out) -> Tensor(a!)", factory_into_out<"aten::triu_indices", false>},
    {"aten::negative.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::negative", 1, found_dtype>},
    {"aten::nll_loss.out(Tensor self, Tensor target, Tensor? weight=None, int reduction=1, int ignore_index=-100, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::nll_loss", 1, exact_dtype>},
    {"aten::outer.out(Tensor self, Tensor vec2, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::outer", 1, castable>},
    {"aten::pixel_shuffle.out(Tensor self, int upscale_factor, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::pixel_shuffle", 1, any_dtype>},
    {"aten::pixel_unshuffle.out(Tensor self, int downscale_factor, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::pixel_unshuffle", 1, any_dtype>},
    {"aten::prelu.out(Tensor self, Tensor weight, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::prelu", 1, any_dtype>},
    {"aten::put.out(Tensor self, Tensor index, Tensor source, bool accumulate=False, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::put", 1, any_dtype>},
    {"aten::rad2deg.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::rad2deg", 1, castable>},
    {"aten::renorm.out(Tensor self, Scalar p, int dim, Scalar maxnorm, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::renorm", 1, exact_dtype>},
    {"aten::rot90.out(Tensor self, int k=1, int[] dims=[0, 1], *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::rot90", 1, any_dtype>},
    {"aten::row_stack.out(Tensor[] tensors, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::row_stack", 1, cat_castable>},
    {"aten::scatter_add.out(Tensor self, int dim, Tensor index, Tensor src, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::scatter_add", 1, exact_dtype>},
    {"aten::scatter_reduce.two_out(Tensor self, int dim, Tensor index, Tensor src, str reduce, *, bool include_self=True, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::scatter_reduce.two", 1, exact_dtype>},
    {"aten::searchsorted.Scalar_out(Tensor sorted_sequence, Scalar self, *, bool out_int32=False, bool right=False, str? side=None, Tensor? sorter=None, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::searchsorted.Scalar", 1, any_dtype>},
    {"aten::sgn.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::sgn", 1, found_dtype>},
    {"aten::smooth_l1_loss.out(Tensor self, Tensor target, int reduction=1, float beta=1., *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::smooth_l1_loss", 1, castable>},
    {"aten::soft_margin_loss.out(Tensor self, Tensor target, int reduction=1, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::soft_margin_loss", 1, found_dtype>},
    {"aten::softshrink.out(Tensor self, Scalar lambd=0.5, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::softshrink", 1, found_dtype>},
    {"aten::square.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::square", 1, found_dtype>},
    {"aten::threshold.out(Tensor self, Scalar threshold, Scalar value, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::threshold", 1, castable>},
    {"aten::trace.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::trace", 1, any_dtype>},
    {"aten::true_divide.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::true_divide.Tensor", 1, castable>},
    {"aten::upsample_bicubic2d.out(Tensor self, SymInt[2] output_size, bool align_corners, float? scales_h=None, float? scales_w=None, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::upsample_bicubic2d", 1, exact_dtype>},
    {"aten::upsample_bicubic2d.vec_out(Tensor input, SymInt[]? output_size, bool align_corners, float[]? scale_factors, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::upsample_bicubic2d.vec", 1, any_dtype>},
    {"aten::upsample_bilinear2d.out(Tensor self, SymInt[2] output_size, bool align_corners, float? scales_h=None, float? scales_w=None, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::upsample_bilinear2d", 1, exact_dtype>},
    {"aten::upsample_bilinear2d.vec_out(Tensor input, SymInt[]? output_size, bool align_corners, float[]? scale_factors, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::upsample_bilinear2d.vec", 1, any_dtype>},
    {"aten::upsample_linear1d.out(Tensor self, SymInt[1] output_size, bool align_corners, float? scales=None, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::upsample_linear1d", 1, exact_dtype>},
    {"aten::upsample_linear1d.vec_out(Tensor input, SymInt[]? output_size, bool align_corners, float[]? scale_factors, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::upsample_linear1d.vec", 1, any_dtype>},
    {"aten::upsample_nearest1d.out(Tensor self, SymInt[1] output_size, float? scales=None, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::upsample_nearest1d", 1, exact_dtype>},
    {"aten::upsample_nearest1d.vec_out(Tensor input, SymInt[]? output_size, float[]? scale_factors, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::upsample_nearest1d.vec", 1, any_dtype>},
    {"aten::upsample_nearest2d.out(Tensor self, SymInt[2] output_size, float? scales_h=None, float? scales_w=None, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::upsample_nearest2d", 1, exact_dtype>},
    {"aten::upsample_nearest2d.vec_out(Tensor input, SymInt[]? output_size, float[]? scale_factors, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::upsample_nearest2d.vec", 1, any_dtype>},
    {"aten::upsample_nearest3d.out(Tensor self, SymInt[3] output_size, float? scales_d=None, float? scales_h=None, float? scales_w=None, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::upsample_nearest3d", 1, exact_dtype>},
    {"aten::upsample_nearest3d.vec_out(Tensor input, SymInt[]? output_size, float[]? scale_factors, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::upsample_nearest3d.vec", 1, any_dtype>},
    {"aten::upsample_trilinear3d.out(Tensor self, SymInt[3] output_size, bool align_corners, float? scales_d=None, float? scales_h=None, float? scales_w=None, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::upsample_trilinear3d", 1, exact_dtype>},
    {"aten::upsample_trilinear3d.vec_out(Tensor input, SymInt[]? output_size, bool align_corners, float[]? scale_factors, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::upsample_trilinear3d.vec", 1, any_dtype>},
    {"aten::vstack.out(Tensor[] tensors, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::vstack", 1, cat_castable>},
    {"aten::xlogy.OutScalar_Other(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::xlogy.Scalar_Other", 1, castable>},
    {"aten::xlogy.OutScalar_Self(Scalar self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::xlogy.Scalar_Self", 1, castable>},
    {"aten::xlogy.OutTensor(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::xlogy.Tensor", 1, castable>},
    {"aten::zero.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::zero", 1, any_dtype>},
});

}  // namespace torchlet::jit::ops

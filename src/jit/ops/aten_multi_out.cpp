// The out= forms of operators with several results (linalg.qr.out, kthvalue.values,
// aminmax.out, std_mean.correction_out, ...): each runs its registered functional
// overload and writes every result into its out tensor, resized as torch resizes it.
// What differs between them is the dtype check torch applies to the out tensors, and
// each form names its check: structured kernels demand the result's exact dtype; a few
// older kernels word their own checks; the composite ones accept any dtype they can
// cast to (or any at all). Cases run through torch in tests/fixtures/gen_ops.py
// (multi_out_ops).
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

void kthvalue_check(Results results, Outs outs) {
  TL_CHECK(outs[0].dtype() == results[0].dtype(), TypeError, "output values must be of same type as input");
  TL_CHECK(outs[1].dtype() == DType::Long, TypeError, "output indices must be of scalar type Long");
}
// median and nanmedian (torch's checkScalarType, then checkSameType, naming "median").
std::string legacy_tensor_name(DType d) { return fmt::format("torch.{}Tensor", scalar_name(d)); }
void median_check(Results results, Outs outs) {
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
  TL_CHECK(outs[0].dtype() == results[0].dtype(), TypeError, "expected scalar type '{}' but got '{}' for values output",
           scalar_name(results[0].dtype()), scalar_name(outs[0].dtype()));
  TL_CHECK(outs[1].dtype() == DType::Long, TypeError, "expected scalar type 'Long' but got '{}' for indices output",
           scalar_name(outs[1].dtype()));
}
void cumulative_extreme_check(Results results, Outs outs) {
  for (size_t i = 0; i < 2; ++i)
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
});

}  // namespace torchlet::jit::ops

// Matrix products: mm, bmm, matmul, addmm, linear, dot/vdot, mv, outer, the add*
// forms (addmv, addr, addbmm, baddbmm), bilinear, einsum, tensordot/inner, kron,
// cross/linalg.cross, multi_dot/chain_matmul, matrix_power, matrix_exp, vecdot and
// vander, each beside its in-place and out= forms (Note [out= forms] in out_forms.h),
// registered from the kernels' signatures (Note [Boxing] in boxing.h). Decompositions,
// solves and norms are linalg.cpp's. Cases run through torch in tests/fixtures/gen_ops.py.
#include <string>
#include <vector>

#include <torchlet/ops.h>

#include "jit/ops/boxing.h"
#include "jit/ops/out_forms.h"

namespace torchlet::jit::ops {
namespace {

Tensor einsum(const std::string& equation, const std::vector<Tensor>& tensors, const IValue& path) {
  TL_CHECK(path.isNone(), UnsupportedError, "einsum: an explicit contraction path is not supported");
  return torchlet::einsum(equation, tensors);
}

static RegisterOps reg({
    {"aten::mm(Tensor self, Tensor mat2) -> Tensor", boxed<&torchlet::mm>},
    {"aten::mm.out(Tensor self, Tensor mat2, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::mm", 1, exact_dtype>},
    {"aten::bmm(Tensor self, Tensor mat2) -> Tensor", boxed<&torchlet::bmm>},
    {"aten::bmm.out(Tensor self, Tensor mat2, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::bmm", 1, exact_dtype>},
    {"aten::matmul(Tensor self, Tensor other) -> Tensor", boxed<&torchlet::matmul>},
    {"aten::matmul.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::matmul", 1, exact_dtype>},
    {"aten::addmm(Tensor self, Tensor mat1, Tensor mat2, *, Scalar beta=1, Scalar alpha=1) -> Tensor", boxed<&torchlet::addmm>},
    {"aten::addmm_(Tensor(a!) self, Tensor mat1, Tensor mat2, *, Scalar beta=1, Scalar alpha=1) -> Tensor(a!)", inplace<&torchlet::addmm>},
    {"aten::addmm.out(Tensor self, Tensor mat1, Tensor mat2, *, Scalar beta=1, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::addmm", 1, exact_dtype>},
    {"aten::linear(Tensor input, Tensor weight, Tensor? bias=None) -> Tensor", boxed<&torchlet::linear>},
    {"aten::linear.out(Tensor input, Tensor weight, Tensor? bias=None, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::linear", 1, exact_dtype>},
    {"aten::dot(Tensor self, Tensor tensor) -> Tensor", boxed<&torchlet::dot>},
    {"aten::dot.out(Tensor self, Tensor tensor, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::dot", 1, input_dtype_result_check>},
    {"aten::vdot(Tensor self, Tensor other) -> Tensor", boxed<&torchlet::vdot>},
    {"aten::vdot.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", out_variant<&torchlet::vdot>},
    {"aten::mv(Tensor self, Tensor vec) -> Tensor", boxed<&torchlet::mv>},
    {"aten::mv.out(Tensor self, Tensor vec, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::mv", 1, exact_dtype>},
    {"aten::outer(Tensor self, Tensor vec2) -> Tensor", boxed<&torchlet::outer>},
    {"aten::outer.out(Tensor self, Tensor vec2, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::outer", 1, castable>},
    {"aten::addmv(Tensor self, Tensor mat, Tensor vec, *, Scalar beta=1, Scalar alpha=1) -> Tensor", boxed<&torchlet::addmv>},
    {"aten::addmv_(Tensor(a!) self, Tensor mat, Tensor vec, *, Scalar beta=1, Scalar alpha=1) -> Tensor(a!)", inplace<&torchlet::addmv>},
    {"aten::addmv.out(Tensor self, Tensor mat, Tensor vec, *, Scalar beta=1, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::addmv", 1, exact_dtype>},
    {"aten::addr(Tensor self, Tensor vec1, Tensor vec2, *, Scalar beta=1, Scalar alpha=1) -> Tensor", boxed<&torchlet::addr>},
    {"aten::addr_(Tensor(a!) self, Tensor vec1, Tensor vec2, *, Scalar beta=1, Scalar alpha=1) -> Tensor(a!)", inplace<&torchlet::addr>},
    {"aten::addr.out(Tensor self, Tensor vec1, Tensor vec2, *, Scalar beta=1, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::addr", 1, castable>},
    {"aten::addbmm(Tensor self, Tensor batch1, Tensor batch2, *, Scalar beta=1, Scalar alpha=1) -> Tensor", boxed<&torchlet::addbmm>},
    {"aten::addbmm_(Tensor(a!) self, Tensor batch1, Tensor batch2, *, Scalar beta=1, Scalar alpha=1) -> Tensor(a!)", inplace<&torchlet::addbmm>},
    {"aten::addbmm.out(Tensor self, Tensor batch1, Tensor batch2, *, Scalar beta=1, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)", out_variant<&torchlet::addbmm>},
    {"aten::baddbmm(Tensor self, Tensor batch1, Tensor batch2, *, Scalar beta=1, Scalar alpha=1) -> Tensor", boxed<&torchlet::baddbmm>},
    {"aten::baddbmm.out(Tensor self, Tensor batch1, Tensor batch2, *, Scalar beta=1, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::baddbmm", 1, exact_dtype>},
    {"aten::bilinear(Tensor input1, Tensor input2, Tensor weight, Tensor? bias=None) -> Tensor", boxed<&torchlet::bilinear>},
    {"aten::einsum(str equation, Tensor[] tensors, *, int[]? path=None) -> Tensor", boxed<&einsum>},
    {"aten::tensordot(Tensor self, Tensor other, int[] dims_self, int[] dims_other) -> Tensor", boxed<&torchlet::tensordot>},
    {"aten::tensordot.out(Tensor self, Tensor other, int[] dims_self, int[] dims_other, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::tensordot", 1, tensordot_check>},
    {"aten::inner(Tensor self, Tensor other) -> Tensor", boxed<&torchlet::inner>},
    {"aten::inner.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::inner", 1, tensordot_check>},
    {"aten::kron(Tensor self, Tensor other) -> Tensor", boxed<&torchlet::kron>},
    {"aten::kron.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::kron", 1, castable>},
    {"aten::cross(Tensor self, Tensor other, int? dim=None) -> Tensor", boxed<&torchlet::cross>},
    {"aten::cross.out(Tensor self, Tensor other, int? dim=None, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::cross", 1, exact_dtype>},
    {"aten::linalg_cross(Tensor self, Tensor other, *, int dim=-1) -> Tensor", boxed<&torchlet::linalg_cross>},
    {"aten::linalg_cross.out(Tensor self, Tensor other, *, int dim=-1, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::linalg_cross", 1, exact_dtype>},
    {"aten::linalg_multi_dot(Tensor[] tensors) -> Tensor", boxed<&torchlet::multi_dot>},
    {"aten::linalg_multi_dot.out(Tensor[] tensors, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::linalg_multi_dot", 1, multi_dot_check>},
    {"aten::chain_matmul(Tensor[] matrices) -> Tensor", boxed<&torchlet::chain_matmul>},
    {"aten::chain_matmul.out(Tensor[] matrices, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::chain_matmul", 1, multi_dot_check>},
    {"aten::linalg_matrix_power(Tensor self, int n) -> Tensor", boxed<&torchlet::matrix_power>},
    {"aten::linalg_matrix_power.out(Tensor self, int n, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::linalg_matrix_power", 1, safely_castable<"matrix_power", "result">>},
    {"aten::matrix_power(Tensor self, int n) -> Tensor", boxed<&torchlet::matrix_power>},
    {"aten::matrix_power.out(Tensor self, int n, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::matrix_power", 1, safely_castable<"matrix_power", "result">>},
    {"aten::linalg_matrix_exp(Tensor self) -> Tensor", boxed<&torchlet::matrix_exp>},
    {"aten::linalg_matrix_exp.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::linalg_matrix_exp", 1, any_dtype>},
    {"aten::matrix_exp(Tensor self) -> Tensor", boxed<&torchlet::matrix_exp>},
    {"aten::linalg_vecdot(Tensor x, Tensor y, *, int dim=-1) -> Tensor", boxed<&torchlet::vecdot>},
    {"aten::linalg_vecdot.out(Tensor x, Tensor y, *, int dim=-1, Tensor(a!) out) -> Tensor(a!)", into_outs<"aten::linalg_vecdot", 1, vecdot_check>},
    {"aten::linalg_vander(Tensor x, *, int? N=None) -> Tensor", boxed<&torchlet::linalg_vander>},
    {"aten::vander(Tensor x, int? N=None, bool increasing=False) -> Tensor", boxed<&torchlet::vander>},
});

}  // namespace
}  // namespace torchlet::jit::ops

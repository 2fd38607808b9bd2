// The products torch composes from mm/bmm/matmul and elementwise arithmetic: mv, outer,
// vdot, addmv/addr/addbmm/baddbmm (beta * self + alpha * product), bilinear, cross and
// linalg.cross, kron, tensordot/inner and chain_matmul. Each is composed as torch 1.13
// composes it, so dtypes, rounding and the order of the refusals are torch's.
#include <algorithm>
#include <string_view>
#include <vector>

#include <torchlet/error.h>
#include <torchlet/ops.h>

namespace torchlet {
namespace {

std::string_view type_name(DType d) { return dtype_info(d).scalar_type_name; }

// beta * self + alpha * product, self ignored when beta is 0 (NaN in it too), as torch.
Tensor scaled_sum(const Tensor& self, const Tensor& product, const Scalar& beta, const Scalar& alpha) {
  const Tensor p = alpha.to<double>() == 1.0 && !alpha.is_floating() ? product : torchlet::mul(product, alpha);
  if (beta.to<double>() == 0.0 && !beta.is_complex()) return torchlet::add(zeros(self.sizes(), self.dtype()), p);
  return torchlet::add(torchlet::mul(self, beta), p);
}

Tensor cross_of(const Tensor& a0, const Tensor& b0, int64_t dim) {
  const Shape shape = broadcast_shapes(a0.sizes(), b0.sizes());
  Tensor a = a0.expand(shape), b = b0.expand(shape);
  const int64_t d = wrap_dim(dim, static_cast<int64_t>(shape.size()), "cross");
  TL_CHECK(shape[static_cast<size_t>(d)] == 3, ValueError,
           "linalg.cross: inputs dimension {} must have length 3. Got {} and {}", dim, a0.size(d), b0.size(d));
  auto c = [&](const Tensor& t, int64_t i) { return t.select(d, i); };
  std::vector<Tensor> parts = {
      torchlet::sub(torchlet::mul(c(a, 1), c(b, 2)), torchlet::mul(c(a, 2), c(b, 1))),
      torchlet::sub(torchlet::mul(c(a, 2), c(b, 0)), torchlet::mul(c(a, 0), c(b, 2))),
      torchlet::sub(torchlet::mul(c(a, 0), c(b, 1)), torchlet::mul(c(a, 1), c(b, 0)))};
  return torchlet::stack(parts, d);
}
void check_cross_inputs(const Tensor& a, const Tensor& b) {
  TL_CHECK(a.dtype() != DType::Half, UnsupportedError, "\"cross\" not implemented for 'Half'");
  TL_CHECK(a.dim() == b.dim(), ValueError, "linalg.cross: inputs must have the same number of dimensions.");
  TL_CHECK(a.dtype() == b.dtype(), TypeError, "expected both inputs to have same dtype, but got {} and {}", type_name(a.dtype()),
           type_name(b.dtype()));
}

}  // namespace

Tensor mv(const Tensor& self, const Tensor& vec) {
  TL_CHECK(self.dim() == 2 && vec.dim() == 1, ValueError, "vector + matrix @ vector expected, got 1, {}, {}", self.dim(),
           vec.dim());
  return torchlet::matmul(self, vec);
}

Tensor outer(const Tensor& self, const Tensor& vec2) { return torchlet::mul(self.unsqueeze(1), vec2); }

// Of real tensors torch.vdot is torch.dot (the conjugate is the identity).
Tensor vdot(const Tensor& self, const Tensor& other) { return torchlet::dot(self, other); }

Tensor addmv(const Tensor& self, const Tensor& mat, const Tensor& vec, const Scalar& beta, const Scalar& alpha) {
  TL_CHECK(mat.dim() == 2 && vec.dim() == 1, ValueError, "vector + matrix @ vector expected, got {}, {}, {}", self.dim(),
           mat.dim(), vec.dim());
  return scaled_sum(self, torchlet::matmul(mat, vec), beta, alpha);
}

Tensor addr(const Tensor& self, const Tensor& vec1, const Tensor& vec2, const Scalar& beta, const Scalar& alpha) {
  TL_CHECK(vec1.dim() == 1, ValueError, "addr: Expected 1-D argument vec1, but got {}-D", vec1.dim());
  TL_CHECK(vec2.dim() == 1, ValueError, "addr: Expected 1-D argument vec2, but got {}-D", vec2.dim());
  Tensor product = torchlet::mul(vec1.unsqueeze(1), vec2.unsqueeze(0));
  if (result_type(self, product) == DType::Bool) {  // torch: (beta && self) || (alpha && outer)
    TL_CHECK(alpha.is_bool() || !alpha.is_floating(), TypeError, "Boolean alpha only supported for Boolean results.");
    Tensor a = alpha.to<bool>() ? product : zeros(product.sizes(), DType::Bool);
    Tensor b = beta.to<bool>() ? self : zeros(self.sizes(), DType::Bool);
    return torchlet::logical_or(b, a);
  }
  return scaled_sum(self, product, beta, alpha);
}

// Accumulated as torch's loop of addmm_ calls (beta applied at the first).
Tensor addbmm(const Tensor& self, const Tensor& batch1, const Tensor& batch2, const Scalar& beta, const Scalar& alpha) {
  const Tensor target = self.expand({batch1.size(1), batch2.size(2)});
  TL_CHECK(batch1.dim() == 3, ValueError, "batch1 must be a 3D tensor");
  TL_CHECK(batch2.dim() == 3, ValueError, "batch2 must be a 3D tensor");
  TL_CHECK(batch1.size(0) == batch2.size(0), ValueError, "batch1 and batch2 must have same number of batches, got {} and {}",
           batch1.size(0), batch2.size(0));
  TL_CHECK(batch1.size(2) == batch2.size(1), ValueError, "Incompatible matrix sizes for bmm ({}x{} and {}x{})", batch1.size(1),
           batch1.size(2), batch2.size(1), batch2.size(2));
  const bool keep_self = beta.is_complex() ? beta.to_complex() != 0.0 : beta.to_double() != 0;
  if (batch1.size(0) == 0) return keep_self ? torchlet::mul(target, beta) : zeros(target.sizes(), self.dtype());
  Tensor result = keep_self ? target.contiguous() : zeros(target.sizes(), self.dtype());
  // (torch's addmm_ on its result checks these in this order.)
  TL_CHECK(batch1.dtype() == batch2.dtype(), TypeError, "expected mat1 and mat2 to have the same dtype, but got: {} != {}",
           dtype_name(batch1.dtype()), dtype_name(batch2.dtype()));
  TL_CHECK(result.dtype() == batch2.dtype(), TypeError, "self and mat2 must have the same dtype");
  for (int64_t b = 0; b < batch1.size(0); ++b)
    result = torchlet::addmm(result, batch1.select(0, b), batch2.select(0, b), b == 0 ? beta : Scalar(1), alpha);
  return result;
}

Tensor baddbmm(const Tensor& self, const Tensor& batch1, const Tensor& batch2, const Scalar& beta, const Scalar& alpha) {
  Tensor product = torchlet::bmm(batch1, batch2);
  if (!(alpha == Scalar(1))) product = torchlet::mul(product, alpha);
  if (beta.to_double() == 0 && !beta.is_complex()) return torchlet::add(product, torchlet::mul(self, 0));
  Tensor scaled = beta == Scalar(1) ? self : torchlet::mul(self, beta);
  return torchlet::add(scaled, product);
}

// y[..., o] = x1[..., i] W[o, i, j] x2[..., j] + b[o]
Tensor bilinear(const Tensor& input1, const Tensor& input2, const Tensor& weight, const std::optional<Tensor>& bias) {
  const Tensor &x1 = input1, &x2 = input2, &w = weight;
  TL_CHECK(x1.dim() == x2.dim(), ValueError, "bilinear(): input dimensions do not match: got {} and {}", x1.dim(), x2.dim());
  TL_CHECK(x1.dim() >= 1 && w.dim() == 3, ValueError, "bilinear(): weight must be 3-D and inputs at least 1-D");
  for (int64_t i = 0; i + 1 < x1.dim(); ++i)
    TL_CHECK(x1.size(i) == x2.size(i), ValueError, "bilinear(): input batch dimensions do not match: got {} and {}",
             shape_repr(x1.sizes()), shape_repr(x2.sizes()));
  TL_CHECK(x1.size(-1) == w.size(1), ValueError, "bilinear(): input1 size does not match weight size: got {} but expected {}",
           x1.size(-1), w.size(1));
  TL_CHECK(x2.size(-1) == w.size(2), ValueError, "bilinear(): input2 size does not match weight size: got {} but expected {}",
           x2.size(-1), w.size(2));
  const int64_t in1 = w.size(1), in2 = w.size(2), outs = w.size(0);
  Tensor a = x1.reshape({-1, in1}), b = x2.reshape({-1, in2});
  Tensor t = torchlet::matmul(a, w.permute({1, 0, 2}).reshape({in1, outs * in2})).reshape({-1, outs, in2});
  Tensor y = torchlet::sum(torchlet::mul(t, b.unsqueeze(1)), {-1});
  if (bias) y = torchlet::add(y, *bias);
  Shape shape(x1.sizes().begin(), x1.sizes().end() - 1);
  shape.push_back(outs);
  return y.reshape(shape);
}

Tensor cross(const Tensor& self, const Tensor& other, std::optional<int64_t> dim) {
  check_cross_inputs(self, other);
  if (!dim) {  // torch 1.13's deprecated default: the first dimension of size 3
    const Shape shape = broadcast_shapes(self.sizes(), other.sizes());
    auto it = std::find(shape.begin(), shape.end(), 3);
    TL_CHECK(it != shape.end(), ValueError, "no dimension of size 3 in input");
    dim = static_cast<int64_t>(it - shape.begin());
  }
  return cross_of(self, other, *dim);
}

Tensor linalg_cross(const Tensor& self, const Tensor& other, int64_t dim) {
  check_cross_inputs(self, other);
  return cross_of(self, other, dim);
}

Tensor kron(const Tensor& self, const Tensor& other) {
  const Tensor &a = self, &b = other;
  const int64_t n = std::max(a.dim(), b.dim());
  Shape as(static_cast<size_t>(n - a.dim()), 1), bs(static_cast<size_t>(n - b.dim()), 1);
  for (int64_t v : a.sizes()) as.push_back(v);
  for (int64_t v : b.sizes()) bs.push_back(v);
  Shape av, bv, out;
  for (size_t i = 0; i < static_cast<size_t>(n); ++i) {
    av.insert(av.end(), {as[i], 1});
    bv.insert(bv.end(), {1, bs[i]});
    out.push_back(as[i] * bs[i]);
  }
  return torchlet::mul(a.reshape(av), b.reshape(bv)).reshape(out);
}

Tensor tensordot(const Tensor& self, const Tensor& other, IntList dims_self, IntList dims_other) {
  const Tensor &a = self, &b = other;
  std::vector<int64_t> da(dims_self.begin(), dims_self.end()), db(dims_other.begin(), dims_other.end());
  TL_CHECK(da.size() == db.size(), ValueError, "both dimension lists should have same length");
  TL_CHECK(a.dtype() == b.dtype(), TypeError, "both inputs should have same dtype");
  std::vector<bool> ca(static_cast<size_t>(a.dim()), false), cb(static_cast<size_t>(b.dim()), false);
  int64_t k = 1;
  for (size_t i = 0; i < da.size(); ++i) {
    const int64_t x = wrap_dim(da[i], a.dim(), "tensordot"), y = wrap_dim(db[i], b.dim(), "tensordot");
    TL_CHECK(a.size(x) == b.size(y), ValueError,
             "contracted dimensions need to match, but first has size {} in dim {} and second has size {} in dim {}", a.size(x),
             x, b.size(y), y);
    TL_CHECK(!ca[static_cast<size_t>(x)] && !cb[static_cast<size_t>(y)], ValueError, "tensordot: a dimension appears twice");
    ca[static_cast<size_t>(x)] = cb[static_cast<size_t>(y)] = true;
    da[i] = x;
    db[i] = y;
    k *= a.size(x);
  }
  Shape pa, pb, out;
  int64_t m = 1, n = 1;
  for (int64_t i = 0; i < a.dim(); ++i)
    if (!ca[static_cast<size_t>(i)]) {
      pa.push_back(i);
      out.push_back(a.size(i));
      m *= a.size(i);
    }
  pa.insert(pa.end(), da.begin(), da.end());
  pb.assign(db.begin(), db.end());
  for (int64_t i = 0; i < b.dim(); ++i)
    if (!cb[static_cast<size_t>(i)]) {
      pb.push_back(i);
      out.push_back(b.size(i));
      n *= b.size(i);
    }
  Tensor r = torchlet::mm(a.permute(pa).reshape({m, k}), b.permute(pb).reshape({k, n}));
  return r.reshape(out);
}

Tensor inner(const Tensor& self, const Tensor& other) {
  if (self.dim() == 0 || other.dim() == 0) return torchlet::mul(self, other);
  TL_CHECK(self.size(-1) == other.size(-1), ValueError,
           "inner() the last dimension must match on both input tensors but got shapes {} and {}", shape_repr(self.sizes()),
           shape_repr(other.sizes()));
  return tensordot(self, other, {-1}, {-1});
}

Tensor chain_matmul(const std::vector<Tensor>& matrices) {
  for (const Tensor& m : matrices)
    TL_CHECK(m.dim() == 2, ValueError, "Tensor dimension is {}, expected 2 instead.", m.dim());
  TL_CHECK(!matrices.empty(), ValueError, "chain_matmul(): Expected one or more matrices");
  return matrices.size() == 1 ? matrices[0].clone() : torchlet::multi_dot(matrices);
}

}  // namespace torchlet

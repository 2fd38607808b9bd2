// Elementwise tensor operators: the binary table (ops.h TL_BINARY_OPS), add/sub/rsub
// with alpha, div with rounding modes, where, the unary table (TL_UNARY_OPS), the
// activations with arguments and clamp. Each kernel gets every variant torch has:
// functional, in place (`_`), out= and, where torch has them, Scalar-first forms.
// Variants without a kernel of their own are composed from the functional kernel plus
// assign_inplace/assign_out (ops_util.h), which apply torch's shape and cast rules.
#include <torchlet/ops.h>

#include "jit/ops/ops_util.h"

namespace torchlet::jit::ops {
namespace {

// torch generates mul.Scalar_out (functional result copied into out, no cast check);
// the other Scalar_out forms are structured kernels that check the cast.
void assign_scalar_out(Tensor& out, const Tensor& r, const char* name) {
  if (std::string_view(name) == "mul") return assign_out_unchecked(out, r);
  assign_out(out, r, name);
}

// Scalar-first out= forms are generated too, except pow.Scalar_out (a structured kernel).
void assign_scalar_first_out(Tensor& out, const Tensor& r, const char* name) {
  if (std::string_view(name) == "pow") return assign_out(out, r, name);
  assign_out_unchecked(out, r);
}

// A Python number in the first operand's place (remainder.Scalar_Tensor, ...): torch
// wraps it as a 0-dim "wrapped number"; a 0-dim tensor of the promoted dtype gives the
// same result type through our kernels' promotion.
Tensor wrapped(const Scalar& v, const Tensor& other) { return scalar_tensor(v, result_type(other, v)); }

// --- the binary table -------------------------------------------------------------------
// Which out= forms check the result's cast follows torch: its generated out= variants
// (functional result copied into out) do not, its structured kernels do.
#define TL_BINARY_ADAPTERS(name, category)                                             \
  [[maybe_unused]] void name##_tt(Stack& s) {                                                           \
    Tensor o = pop_tensor(s);                                                          \
    Tensor a = pop_tensor(s);                                                          \
    push(s, torchlet::name(a, o));                                                     \
  }                                                                                    \
  [[maybe_unused]] void name##_ts(Stack& s) {                                                           \
    Scalar o = pop_scalar(s);                                                          \
    Tensor a = pop_tensor(s);                                                          \
    push(s, torchlet::name(a, o));                                                     \
  }                                                                                    \
  [[maybe_unused]] void name##_st(Stack& s) {                                                           \
    Tensor o = pop_tensor(s);                                                          \
    Scalar a = pop_scalar(s);                                                          \
    push(s, torchlet::name(wrapped(a, o), o));                                         \
  }                                                                                    \
  [[maybe_unused]] void name##_tt_(Stack& s) {                                                          \
    Tensor o = pop_tensor(s);                                                          \
    Tensor a = pop_tensor(s);                                                          \
    torchlet::name##_(a, o);                                                           \
    push(s, a);                                                                        \
  }                                                                                    \
  [[maybe_unused]] void name##_ts_(Stack& s) {                                                          \
    Scalar o = pop_scalar(s);                                                          \
    Tensor a = pop_tensor(s);                                                          \
    torchlet::name##_(a, o);                                                           \
    push(s, a);                                                                        \
  }                                                                                    \
  [[maybe_unused]] void name##_tt_out(Stack& s) {                                                       \
    Tensor out = pop_tensor(s);                                                        \
    Tensor o = pop_tensor(s);                                                          \
    Tensor a = pop_tensor(s);                                                          \
    assign_out(out, torchlet::name(a, o), #name);                                      \
    push(s, out);                                                                      \
  }                                                                                    \
  [[maybe_unused]] void name##_ts_out(Stack& s) {                                                       \
    Tensor out = pop_tensor(s);                                                        \
    Scalar o = pop_scalar(s);                                                          \
    Tensor a = pop_tensor(s);                                                          \
    assign_scalar_out(out, torchlet::name(a, o), #name);                               \
    push(s, out);                                                                      \
  }                                                                                    \
  [[maybe_unused]] void name##_st_out(Stack& s) {                                                       \
    Tensor out = pop_tensor(s);                                                        \
    Tensor o = pop_tensor(s);                                                          \
    Scalar a = pop_scalar(s);                                                          \
    assign_scalar_first_out(out, torchlet::name(wrapped(a, o), o), #name);            \
    push(s, out);                                                                      \
  }
TL_BINARY_OPS(TL_BINARY_ADAPTERS)
#undef TL_BINARY_ADAPTERS

// --- add / sub / rsub (alpha) --------------------------------------------------------------
#define TL_ALPHA_ADAPTERS(name)                                  \
  [[maybe_unused]] void name##_tt(Stack& s) {                                     \
    Scalar alpha = pop_scalar(s);                                \
    Tensor o = pop_tensor(s);                                    \
    Tensor a = pop_tensor(s);                                    \
    push(s, torchlet::name(a, o, alpha));                        \
  }                                                              \
  [[maybe_unused]] void name##_ts(Stack& s) {                                     \
    Scalar alpha = pop_scalar(s);                                \
    Scalar o = pop_scalar(s);                                    \
    Tensor a = pop_tensor(s);                                    \
    push(s, torchlet::name(a, o, alpha));                        \
  }                                                              \
  [[maybe_unused]] void name##_tt_out(Stack& s) {                                 \
    Tensor out = pop_tensor(s);                                  \
    Scalar alpha = pop_scalar(s);                                \
    Tensor o = pop_tensor(s);                                    \
    Tensor a = pop_tensor(s);                                    \
    assign_out(out, torchlet::name(a, o, alpha), #name);         \
    push(s, out);                                                \
  }                                                              \
  [[maybe_unused]] void name##_ts_out(Stack& s) {                                 \
    Tensor out = pop_tensor(s);                                  \
    Scalar alpha = pop_scalar(s);                                \
    Scalar o = pop_scalar(s);                                    \
    Tensor a = pop_tensor(s);                                    \
    assign_out_unchecked(out, torchlet::name(a, o, alpha));      \
    push(s, out);                                                \
  }
TL_ALPHA_ADAPTERS(add)
TL_ALPHA_ADAPTERS(sub)
TL_ALPHA_ADAPTERS(rsub)
#undef TL_ALPHA_ADAPTERS
// add.Tensor over a dying self whose shape and dtype the sum keeps (the residual
// connections: `x + self.conv(x)`) adds in place; add_ runs the same kernel.
// Note [Reusing a dying input].
void add_tt_reuse(Stack& s) {
  Scalar alpha = pop_scalar(s);
  Tensor o = pop_tensor(s);
  Tensor a = pop_tensor(s);
  if (is_dying(a) && result_type(a, o) == a.dtype() && broadcast_shapes(a.sizes(), o.sizes()) == a.sizes().vec()) {
    torchlet::add_(a, o, alpha);
    push(s, a);
    return;
  }
  push(s, torchlet::add(a, o, alpha));
}
void add_tt_(Stack& s) {
  Scalar alpha = pop_scalar(s);
  Tensor o = pop_tensor(s);
  Tensor a = pop_tensor(s);
  torchlet::add_(a, o, alpha);
  push(s, a);
}
void add_ts_(Stack& s) {
  Scalar alpha = pop_scalar(s);
  Scalar o = pop_scalar(s);
  Tensor a = pop_tensor(s);
  torchlet::add_(a, o, alpha);
  push(s, a);
}
void sub_tt_(Stack& s) {
  Scalar alpha = pop_scalar(s);
  Tensor o = pop_tensor(s);
  Tensor a = pop_tensor(s);
  torchlet::sub_(a, o, alpha);
  push(s, a);
}
void sub_ts_(Stack& s) {
  Scalar alpha = pop_scalar(s);
  Scalar o = pop_scalar(s);
  Tensor a = pop_tensor(s);
  torchlet::sub_(a, o, alpha);
  push(s, a);
}

// --- div (true division, or rounding_mode "trunc"/"floor") -----------------------------------
template <bool kMode>
std::optional<std::string> pop_mode(Stack& s) {
  if constexpr (kMode) return pop_opt_str(s);
  return std::nullopt;
}
std::optional<std::string_view> view(const std::optional<std::string>& m) {
  return m ? std::optional<std::string_view>(*m) : std::nullopt;
}
template <bool kMode>
void div_tt(Stack& s) {
  auto mode = pop_mode<kMode>(s);
  Tensor o = pop_tensor(s);
  Tensor a = pop_tensor(s);
  push(s, torchlet::div(a, o, view(mode)));
}
template <bool kMode>
void div_ts(Stack& s) {
  auto mode = pop_mode<kMode>(s);
  Scalar o = pop_scalar(s);
  Tensor a = pop_tensor(s);
  push(s, torchlet::div(a, o, view(mode)));
}
template <bool kMode>
void div_tt_(Stack& s) {
  auto mode = pop_mode<kMode>(s);
  Tensor o = pop_tensor(s);
  Tensor a = pop_tensor(s);
  torchlet::div_(a, o, view(mode));
  push(s, a);
}
template <bool kMode>
void div_ts_(Stack& s) {
  auto mode = pop_mode<kMode>(s);
  Scalar o = pop_scalar(s);
  Tensor a = pop_tensor(s);
  torchlet::div_(a, o, view(mode));
  push(s, a);
}
template <bool kMode>
void div_tt_out(Stack& s) {
  Tensor out = pop_tensor(s);
  auto mode = pop_mode<kMode>(s);
  Tensor o = pop_tensor(s);
  Tensor a = pop_tensor(s);
  assign_out(out, torchlet::div(a, o, view(mode)), "div");
  push(s, out);
}
template <bool kMode>
void div_ts_out(Stack& s) {
  Tensor out = pop_tensor(s);
  auto mode = pop_mode<kMode>(s);
  Scalar o = pop_scalar(s);
  Tensor a = pop_tensor(s);
  assign_out_unchecked(out, torchlet::div(a, o, view(mode)));
  push(s, out);
}

// --- where --------------------------------------------------------------------------------
void where_ttt(Stack& s) {
  Tensor o = pop_tensor(s);
  Tensor a = pop_tensor(s);
  Tensor c = pop_tensor(s);
  push(s, torchlet::where(c, a, o));
}
void where_tts(Stack& s) {
  Scalar o = pop_scalar(s);
  Tensor a = pop_tensor(s);
  Tensor c = pop_tensor(s);
  push(s, torchlet::where(c, a, o));
}
void where_tst(Stack& s) {
  Tensor o = pop_tensor(s);
  Scalar a = pop_scalar(s);
  Tensor c = pop_tensor(s);
  push(s, torchlet::where(c, a, o));
}
// where(cond, scalar, scalar): torch gives the scalars' promoted dtype (float32 for a
// float, int64 for ints, ...).
void where_tss(Stack& s) {
  Scalar o = pop_scalar(s);
  Scalar a = pop_scalar(s);
  Tensor c = pop_tensor(s);
  ResultTypeState st;
  st.add(a);
  st.add(o);
  DType d = st.result();
  push(s, torchlet::where(c, scalar_tensor(a, d), scalar_tensor(o, d)));
}
void where_ttt_out(Stack& s) {
  Tensor out = pop_tensor(s);
  Tensor o = pop_tensor(s);
  Tensor a = pop_tensor(s);
  Tensor c = pop_tensor(s);
  assign_out(out, torchlet::where(c, a, o), "where");
  push(s, out);
}
// where(cond): the indices of the true elements, one tensor per dimension.
void where_cond(Stack& s) {
  Tensor c = pop_tensor(s);
  Tensor nz = torchlet::nonzero(c);
  std::vector<Tensor> out;
  for (int64_t d = 0; d < c.dim(); ++d) out.push_back(nz.select(1, d).contiguous());
  push(s, tensor_list(out));
}

// --- the unary table ----------------------------------------------------------------------
#define TL_UNARY_ADAPTERS(name, category, half, boolean) \
  [[maybe_unused]] void name##_t(Stack& s) { push(s, torchlet::name(pop_tensor(s))); } \
  [[maybe_unused]] void name##_t_(Stack& s) {                                          \
    Tensor a = pop_tensor(s);                                         \
    torchlet::name##_(a);                                             \
    push(s, a);                                                       \
  }                                                                   \
  [[maybe_unused]] void name##_t_out(Stack& s) {                                       \
    Tensor out = pop_tensor(s);                                       \
    Tensor a = pop_tensor(s);                                         \
    assign_out(out, torchlet::name(a), #name);                        \
    push(s, out);                                                     \
  }
TL_UNARY_OPS(TL_UNARY_ADAPTERS)
#undef TL_UNARY_ADAPTERS

// --- activations with arguments -------------------------------------------------------
// Each F pops its arguments (after self) and applies the kernel; the three variants
// share it.
struct Gelu {
  static const char* name() { return "gelu"; }
  static Tensor apply(Stack& s, const Tensor& x) { return torchlet::gelu(x, pop_str(s)); }
};
struct LeakyRelu {
  static const char* name() { return "leaky_relu"; }
  static Tensor apply(Stack& s, const Tensor& x) { return torchlet::leaky_relu(x, pop_scalar(s)); }
};
struct Elu {
  static const char* name() { return "elu"; }
  static Tensor apply(Stack& s, const Tensor& x) {
    Scalar input_scale = pop_scalar(s);
    Scalar scale = pop_scalar(s);
    return torchlet::elu(x, pop_scalar(s), scale, input_scale);
  }
};
struct Softplus {
  static const char* name() { return "softplus"; }
  static Tensor apply(Stack& s, const Tensor& x) {
    Scalar threshold = pop_scalar(s);
    return torchlet::softplus(x, pop_scalar(s), threshold);
  }
};
struct Hardtanh {
  static const char* name() { return "hardtanh"; }
  static Tensor apply(Stack& s, const Tensor& x) {
    Scalar max = pop_scalar(s);
    return torchlet::hardtanh(x, pop_scalar(s), max);
  }
};
struct Relu6 {
  static const char* name() { return "relu6"; }
  static Tensor apply(Stack&, const Tensor& x) { return torchlet::relu6(x); }
};
struct Clamp {
  static const char* name() { return "clamp"; }
  static Tensor apply(Stack& s, const Tensor& x) {
    auto max = pop_opt_scalar(s);
    auto min = pop_opt_scalar(s);
    TL_CHECK(min || max, ValueError, "torch.clamp: At least one of 'min' or 'max' must not be None");
    return torchlet::clamp(x, min, max);
  }
};
struct ClampMin {
  static const char* name() { return "clamp_min"; }
  static Tensor apply(Stack& s, const Tensor& x) { return torchlet::clamp(x, pop_scalar(s), std::nullopt); }
};
struct ClampMax {
  static const char* name() { return "clamp_max"; }
  static Tensor apply(Stack& s, const Tensor& x) { return torchlet::clamp(x, std::nullopt, pop_scalar(s)); }
};

// Arguments sit above self on the stack, so pop them into a side stack first.
template <class F>
Tensor apply_with_args(Stack& s, size_t num_args, Tensor* self_out = nullptr) {
  Stack args(s.end() - static_cast<std::ptrdiff_t>(num_args), s.end());
  drop(s, num_args);
  Tensor x = pop_tensor(s);
  if (self_out) *self_out = x;
  return F::apply(args, x);
}
template <class F, size_t N>
void act(Stack& s) {
  push(s, apply_with_args<F>(s, N));
}
template <class F, size_t N>
void act_(Stack& s) {
  Tensor self;
  Tensor r = apply_with_args<F>(s, N, &self);
  assign_inplace(self, r, F::name());
  push(s, self);
}
// hardtanh_ (nn.ReLU6(inplace=True), the activation of every mobilenet block): for
// float, double and bfloat16 self the bounds do not promote, so hardtanh is clamp in
// self's dtype and runs in place; the generic path computed a new tensor and copied
// it back, one allocation and two extra passes per call. Other dtypes keep it.
void hardtanh_inplace(Stack& s) {
  const DType d = peek(s, 0, 3).toTensor().dtype();
  if (d != DType::Float && d != DType::Double && d != DType::BFloat16) return act_<Hardtanh, 2>(s);
  Scalar max = pop_scalar(s);
  Scalar min = pop_scalar(s);
  Tensor self = pop_tensor(s);
  torchlet::clamp_(self, min, max);
  push(s, self);
}
template <class F, size_t N>
void act_out(Stack& s) {
  Tensor out = pop_tensor(s);
  assign_out(out, apply_with_args<F>(s, N), F::name());
  push(s, out);
}

}  // namespace

static RegisterOps reg({
    // the binary table
    {"aten::mul.Tensor(Tensor self, Tensor other) -> Tensor", mul_tt},
    {"aten::mul.Scalar(Tensor self, Scalar other) -> Tensor", mul_ts},
    {"aten::mul_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)", mul_tt_},
    {"aten::mul_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)", mul_ts_},
    {"aten::mul.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", mul_tt_out},
    {"aten::mul.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)", mul_ts_out},
    {"aten::floor_divide(Tensor self, Tensor other) -> Tensor", floor_divide_tt},
    {"aten::floor_divide.Scalar(Tensor self, Scalar other) -> Tensor", floor_divide_ts},
    {"aten::floor_divide_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)", floor_divide_tt_},
    {"aten::floor_divide_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)", floor_divide_ts_},
    {"aten::floor_divide.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", floor_divide_tt_out},
    {"aten::remainder.Tensor(Tensor self, Tensor other) -> Tensor", remainder_tt},
    {"aten::remainder.Scalar(Tensor self, Scalar other) -> Tensor", remainder_ts},
    {"aten::remainder.Scalar_Tensor(Scalar self, Tensor other) -> Tensor", remainder_st},
    {"aten::remainder_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)", remainder_tt_},
    {"aten::remainder_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)", remainder_ts_},
    {"aten::remainder.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", remainder_tt_out},
    {"aten::remainder.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)", remainder_ts_out},
    {"aten::remainder.Scalar_Tensor_out(Scalar self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", remainder_st_out},
    {"aten::fmod.Tensor(Tensor self, Tensor other) -> Tensor", fmod_tt},
    {"aten::fmod.Scalar(Tensor self, Scalar other) -> Tensor", fmod_ts},
    {"aten::fmod_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)", fmod_tt_},
    {"aten::fmod_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)", fmod_ts_},
    {"aten::fmod.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", fmod_tt_out},
    {"aten::fmod.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)", fmod_ts_out},
    {"aten::pow.Tensor_Tensor(Tensor self, Tensor exponent) -> Tensor", pow_tt},
    {"aten::pow.Tensor_Scalar(Tensor self, Scalar exponent) -> Tensor", pow_ts},
    {"aten::pow.Scalar(Scalar self, Tensor exponent) -> Tensor", pow_st},
    {"aten::pow_.Tensor(Tensor(a!) self, Tensor exponent) -> Tensor(a!)", pow_tt_},
    {"aten::pow_.Scalar(Tensor(a!) self, Scalar exponent) -> Tensor(a!)", pow_ts_},
    {"aten::pow.Tensor_Tensor_out(Tensor self, Tensor exponent, *, Tensor(a!) out) -> Tensor(a!)", pow_tt_out},
    {"aten::pow.Tensor_Scalar_out(Tensor self, Scalar exponent, *, Tensor(a!) out) -> Tensor(a!)", pow_ts_out},
    {"aten::pow.Scalar_out(Scalar self, Tensor exponent, *, Tensor(a!) out) -> Tensor(a!)", pow_st_out},
    {"aten::maximum(Tensor self, Tensor other) -> Tensor", maximum_tt},
    {"aten::maximum.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", maximum_tt_out},
    {"aten::minimum(Tensor self, Tensor other) -> Tensor", minimum_tt},
    {"aten::minimum.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", minimum_tt_out},
    {"aten::fmax(Tensor self, Tensor other) -> Tensor", fmax_tt},
    {"aten::fmax.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", fmax_tt_out},
    {"aten::fmin(Tensor self, Tensor other) -> Tensor", fmin_tt},
    {"aten::fmin.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", fmin_tt_out},
    {"aten::gcd(Tensor self, Tensor other) -> Tensor", gcd_tt},
    {"aten::gcd_(Tensor(a!) self, Tensor other) -> Tensor(a!)", gcd_tt_},
    {"aten::gcd.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", gcd_tt_out},
    {"aten::lcm(Tensor self, Tensor other) -> Tensor", lcm_tt},
    {"aten::lcm_(Tensor(a!) self, Tensor other) -> Tensor(a!)", lcm_tt_},
    {"aten::lcm.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", lcm_tt_out},
    {"aten::eq.Tensor(Tensor self, Tensor other) -> Tensor", eq_tt},
    {"aten::eq.Scalar(Tensor self, Scalar other) -> Tensor", eq_ts},
    {"aten::eq_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)", eq_tt_},
    {"aten::eq_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)", eq_ts_},
    {"aten::eq.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", eq_tt_out},
    {"aten::eq.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)", eq_ts_out},
    {"aten::ne.Tensor(Tensor self, Tensor other) -> Tensor", ne_tt},
    {"aten::ne.Scalar(Tensor self, Scalar other) -> Tensor", ne_ts},
    {"aten::ne_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)", ne_tt_},
    {"aten::ne_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)", ne_ts_},
    {"aten::ne.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", ne_tt_out},
    {"aten::ne.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)", ne_ts_out},
    {"aten::lt.Tensor(Tensor self, Tensor other) -> Tensor", lt_tt},
    {"aten::lt.Scalar(Tensor self, Scalar other) -> Tensor", lt_ts},
    {"aten::lt_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)", lt_tt_},
    {"aten::lt_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)", lt_ts_},
    {"aten::lt.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", lt_tt_out},
    {"aten::lt.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)", lt_ts_out},
    {"aten::le.Tensor(Tensor self, Tensor other) -> Tensor", le_tt},
    {"aten::le.Scalar(Tensor self, Scalar other) -> Tensor", le_ts},
    {"aten::le_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)", le_tt_},
    {"aten::le_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)", le_ts_},
    {"aten::le.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", le_tt_out},
    {"aten::le.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)", le_ts_out},
    {"aten::gt.Tensor(Tensor self, Tensor other) -> Tensor", gt_tt},
    {"aten::gt.Scalar(Tensor self, Scalar other) -> Tensor", gt_ts},
    {"aten::gt_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)", gt_tt_},
    {"aten::gt_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)", gt_ts_},
    {"aten::gt.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", gt_tt_out},
    {"aten::gt.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)", gt_ts_out},
    {"aten::ge.Tensor(Tensor self, Tensor other) -> Tensor", ge_tt},
    {"aten::ge.Scalar(Tensor self, Scalar other) -> Tensor", ge_ts},
    {"aten::ge_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)", ge_tt_},
    {"aten::ge_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)", ge_ts_},
    {"aten::ge.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", ge_tt_out},
    {"aten::ge.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)", ge_ts_out},
    {"aten::logical_and(Tensor self, Tensor other) -> Tensor", logical_and_tt},
    {"aten::logical_and_(Tensor(a!) self, Tensor other) -> Tensor(a!)", logical_and_tt_},
    {"aten::logical_and.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", logical_and_tt_out},
    {"aten::logical_or(Tensor self, Tensor other) -> Tensor", logical_or_tt},
    {"aten::logical_or_(Tensor(a!) self, Tensor other) -> Tensor(a!)", logical_or_tt_},
    {"aten::logical_or.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", logical_or_tt_out},
    {"aten::logical_xor(Tensor self, Tensor other) -> Tensor", logical_xor_tt},
    {"aten::logical_xor_(Tensor(a!) self, Tensor other) -> Tensor(a!)", logical_xor_tt_},
    {"aten::logical_xor.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", logical_xor_tt_out},
    // a & b, a | b, a ^ b on tensors: the same operations under Python's operator names.
    {"aten::__and__.Tensor(Tensor self, Tensor other) -> Tensor", bitwise_and_tt},
    {"aten::__and__.Scalar(Tensor self, Scalar other) -> Tensor", bitwise_and_ts},
    {"aten::__or__.Tensor(Tensor self, Tensor other) -> Tensor", bitwise_or_tt},
    {"aten::__or__.Scalar(Tensor self, Scalar other) -> Tensor", bitwise_or_ts},
    {"aten::__xor__.Tensor(Tensor self, Tensor other) -> Tensor", bitwise_xor_tt},
    {"aten::__xor__.Scalar(Tensor self, Scalar other) -> Tensor", bitwise_xor_ts},
    {"aten::bitwise_and.Tensor(Tensor self, Tensor other) -> Tensor", bitwise_and_tt},
    {"aten::bitwise_and.Scalar(Tensor self, Scalar other) -> Tensor", bitwise_and_ts},
    {"aten::bitwise_and.Scalar_Tensor(Scalar self, Tensor other) -> Tensor", bitwise_and_st},
    {"aten::bitwise_and_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)", bitwise_and_tt_},
    {"aten::bitwise_and_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)", bitwise_and_ts_},
    {"aten::bitwise_and.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", bitwise_and_tt_out},
    {"aten::bitwise_and.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)", bitwise_and_ts_out},
    {"aten::bitwise_and.Scalar_Tensor_out(Scalar self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", bitwise_and_st_out},
    {"aten::bitwise_or.Tensor(Tensor self, Tensor other) -> Tensor", bitwise_or_tt},
    {"aten::bitwise_or.Scalar(Tensor self, Scalar other) -> Tensor", bitwise_or_ts},
    {"aten::bitwise_or.Scalar_Tensor(Scalar self, Tensor other) -> Tensor", bitwise_or_st},
    {"aten::bitwise_or_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)", bitwise_or_tt_},
    {"aten::bitwise_or_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)", bitwise_or_ts_},
    {"aten::bitwise_or.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", bitwise_or_tt_out},
    {"aten::bitwise_or.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)", bitwise_or_ts_out},
    {"aten::bitwise_or.Scalar_Tensor_out(Scalar self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", bitwise_or_st_out},
    {"aten::bitwise_xor.Tensor(Tensor self, Tensor other) -> Tensor", bitwise_xor_tt},
    {"aten::bitwise_xor.Scalar(Tensor self, Scalar other) -> Tensor", bitwise_xor_ts},
    {"aten::bitwise_xor.Scalar_Tensor(Scalar self, Tensor other) -> Tensor", bitwise_xor_st},
    {"aten::bitwise_xor_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)", bitwise_xor_tt_},
    {"aten::bitwise_xor_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)", bitwise_xor_ts_},
    {"aten::bitwise_xor.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", bitwise_xor_tt_out},
    {"aten::bitwise_xor.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)", bitwise_xor_ts_out},
    {"aten::bitwise_xor.Scalar_Tensor_out(Scalar self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", bitwise_xor_st_out},
    {"aten::bitwise_left_shift.Tensor(Tensor self, Tensor other) -> Tensor", bitwise_left_shift_tt},
    {"aten::bitwise_left_shift.Tensor_Scalar(Tensor self, Scalar other) -> Tensor", bitwise_left_shift_ts},
    {"aten::bitwise_left_shift.Scalar_Tensor(Scalar self, Tensor other) -> Tensor", bitwise_left_shift_st},
    {"aten::bitwise_left_shift_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)", bitwise_left_shift_tt_},
    {"aten::bitwise_left_shift_.Tensor_Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)", bitwise_left_shift_ts_},
    {"aten::bitwise_left_shift.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", bitwise_left_shift_tt_out},
    {"aten::bitwise_left_shift.Tensor_Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)", bitwise_left_shift_ts_out},
    {"aten::bitwise_left_shift.Scalar_Tensor_out(Scalar self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", bitwise_left_shift_st_out},
    {"aten::bitwise_right_shift.Tensor(Tensor self, Tensor other) -> Tensor", bitwise_right_shift_tt},
    {"aten::bitwise_right_shift.Tensor_Scalar(Tensor self, Scalar other) -> Tensor", bitwise_right_shift_ts},
    {"aten::bitwise_right_shift.Scalar_Tensor(Scalar self, Tensor other) -> Tensor", bitwise_right_shift_st},
    {"aten::bitwise_right_shift_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)", bitwise_right_shift_tt_},
    {"aten::bitwise_right_shift_.Tensor_Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)", bitwise_right_shift_ts_},
    {"aten::bitwise_right_shift.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", bitwise_right_shift_tt_out},
    {"aten::bitwise_right_shift.Tensor_Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)", bitwise_right_shift_ts_out},
    {"aten::bitwise_right_shift.Scalar_Tensor_out(Scalar self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", bitwise_right_shift_st_out},
    // x << n, x >> n and torch's augmented >>= (<<= rebinds, as torch compiles it): the
    // shift operations under Python's operator names.
    {"aten::__lshift__.Tensor(Tensor self, Tensor other) -> Tensor", bitwise_left_shift_tt},
    {"aten::__lshift__.Scalar(Tensor self, Scalar other) -> Tensor", bitwise_left_shift_ts},
    {"aten::__lshift__.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", bitwise_left_shift_tt_out},
    {"aten::__lshift__.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)", bitwise_left_shift_ts_out},
    {"aten::__ilshift__.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)", bitwise_left_shift_tt_},
    {"aten::__ilshift__.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)", bitwise_left_shift_ts_},
    {"aten::__rshift__.Tensor(Tensor self, Tensor other) -> Tensor", bitwise_right_shift_tt},
    {"aten::__rshift__.Scalar(Tensor self, Scalar other) -> Tensor", bitwise_right_shift_ts},
    {"aten::__rshift__.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", bitwise_right_shift_tt_out},
    {"aten::__rshift__.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)", bitwise_right_shift_ts_out},
    {"aten::__irshift__.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)", bitwise_right_shift_tt_},
    {"aten::__irshift__.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)", bitwise_right_shift_ts_},
    // add / sub / rsub
    {"aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor", add_tt_reuse},
    {"aten::add.Scalar(Tensor self, Scalar other, Scalar alpha=1) -> Tensor", add_ts},
    {"aten::add_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!)", add_tt_},
    {"aten::add_.Scalar(Tensor(a!) self, Scalar other, Scalar alpha=1) -> Tensor(a!)", add_ts_},
    {"aten::add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)", add_tt_out},
    {"aten::add.Scalar_out(Tensor self, Scalar other, Scalar alpha=1, *, Tensor(a!) out) -> Tensor(a!)", add_ts_out},
    {"aten::sub.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor", sub_tt},
    {"aten::sub.Scalar(Tensor self, Scalar other, Scalar alpha=1) -> Tensor", sub_ts},
    {"aten::sub_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!)", sub_tt_},
    {"aten::sub_.Scalar(Tensor(a!) self, Scalar other, Scalar alpha=1) -> Tensor(a!)", sub_ts_},
    {"aten::sub.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)", sub_tt_out},
    {"aten::sub.Scalar_out(Tensor self, Scalar other, Scalar alpha=1, *, Tensor(a!) out) -> Tensor(a!)", sub_ts_out},
    {"aten::rsub.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor", rsub_tt},
    {"aten::rsub.Scalar(Tensor self, Scalar other, Scalar alpha=1) -> Tensor", rsub_ts},
    {"aten::rsub.Tensor_out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)", rsub_tt_out},
    {"aten::rsub.Scalar_out(Tensor self, Scalar other, Scalar alpha=1, *, Tensor(a!) out) -> Tensor(a!)", rsub_ts_out},
    // div
    {"aten::div.Tensor(Tensor self, Tensor other) -> Tensor", div_tt<false>},
    {"aten::div.Scalar(Tensor self, Scalar other) -> Tensor", div_ts<false>},
    {"aten::div.Tensor_mode(Tensor self, Tensor other, *, str? rounding_mode) -> Tensor", div_tt<true>},
    {"aten::div.Scalar_mode(Tensor self, Scalar other, *, str? rounding_mode) -> Tensor", div_ts<true>},
    {"aten::div.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", div_tt_out<false>},
    {"aten::div.out_mode(Tensor self, Tensor other, *, str? rounding_mode, Tensor(a!) out) -> Tensor(a!)", div_tt_out<true>},
    {"aten::div.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)", div_ts_out<false>},
    {"aten::div.Scalar_mode_out(Tensor self, Scalar other, *, str? rounding_mode, Tensor(a!) out) -> Tensor(a!)", div_ts_out<true>},
    {"aten::div_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)", div_tt_<false>},
    {"aten::div_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)", div_ts_<false>},
    {"aten::div_.Tensor_mode(Tensor(a!) self, Tensor other, *, str? rounding_mode) -> Tensor(a!)", div_tt_<true>},
    {"aten::div_.Scalar_mode(Tensor(a!) self, Scalar other, *, str? rounding_mode) -> Tensor(a!)", div_ts_<true>},
    // where
    {"aten::where.self(Tensor condition, Tensor self, Tensor other) -> Tensor", where_ttt},
    {"aten::where.ScalarOther(Tensor condition, Tensor self, Scalar other) -> Tensor", where_tts},
    {"aten::where.ScalarSelf(Tensor condition, Scalar self, Tensor other) -> Tensor", where_tst},
    {"aten::where.Scalar(Tensor condition, Scalar self, Scalar other) -> Tensor", where_tss},
    {"aten::where.self_out(Tensor condition, Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", where_ttt_out},
    {"aten::where(Tensor condition) -> Tensor[]", where_cond},
    // the unary table
    {"aten::neg(Tensor self) -> Tensor", neg_t},
    {"aten::neg_(Tensor(a!) self) -> Tensor(a!)", neg_t_},
    {"aten::neg.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", neg_t_out},
    {"aten::abs(Tensor self) -> Tensor", abs_t},
    {"aten::abs_(Tensor(a!) self) -> Tensor(a!)", abs_t_},
    {"aten::abs.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", abs_t_out},
    {"aten::sign(Tensor self) -> Tensor", sign_t},
    {"aten::sign_(Tensor(a!) self) -> Tensor(a!)", sign_t_},
    {"aten::sign.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", sign_t_out},
    {"aten::floor(Tensor self) -> Tensor", floor_t},
    {"aten::floor_(Tensor(a!) self) -> Tensor(a!)", floor_t_},
    {"aten::floor.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", floor_t_out},
    {"aten::ceil(Tensor self) -> Tensor", ceil_t},
    {"aten::ceil_(Tensor(a!) self) -> Tensor(a!)", ceil_t_},
    {"aten::ceil.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", ceil_t_out},
    {"aten::round(Tensor self) -> Tensor", round_t},
    {"aten::round_(Tensor(a!) self) -> Tensor(a!)", round_t_},
    {"aten::round.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", round_t_out},
    {"aten::trunc(Tensor self) -> Tensor", trunc_t},
    {"aten::trunc_(Tensor(a!) self) -> Tensor(a!)", trunc_t_},
    {"aten::trunc.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", trunc_t_out},
    {"aten::relu(Tensor self) -> Tensor", relu_t},
    {"aten::relu_(Tensor(a!) self) -> Tensor(a!)", relu_t_},
    {"aten::relu.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", relu_t_out},
    {"aten::exp(Tensor self) -> Tensor", exp_t},
    {"aten::exp_(Tensor(a!) self) -> Tensor(a!)", exp_t_},
    {"aten::exp.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", exp_t_out},
    {"aten::expm1(Tensor self) -> Tensor", expm1_t},
    {"aten::expm1_(Tensor(a!) self) -> Tensor(a!)", expm1_t_},
    {"aten::expm1.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", expm1_t_out},
    {"aten::log(Tensor self) -> Tensor", log_t},
    {"aten::log_(Tensor(a!) self) -> Tensor(a!)", log_t_},
    {"aten::log.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", log_t_out},
    {"aten::log1p(Tensor self) -> Tensor", log1p_t},
    {"aten::log1p_(Tensor(a!) self) -> Tensor(a!)", log1p_t_},
    {"aten::log1p.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", log1p_t_out},
    {"aten::log2(Tensor self) -> Tensor", log2_t},
    {"aten::log2_(Tensor(a!) self) -> Tensor(a!)", log2_t_},
    {"aten::log2.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", log2_t_out},
    {"aten::log10(Tensor self) -> Tensor", log10_t},
    {"aten::log10_(Tensor(a!) self) -> Tensor(a!)", log10_t_},
    {"aten::log10.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", log10_t_out},
    {"aten::sqrt(Tensor self) -> Tensor", sqrt_t},
    {"aten::sqrt_(Tensor(a!) self) -> Tensor(a!)", sqrt_t_},
    {"aten::sqrt.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", sqrt_t_out},
    {"aten::rsqrt(Tensor self) -> Tensor", rsqrt_t},
    {"aten::rsqrt_(Tensor(a!) self) -> Tensor(a!)", rsqrt_t_},
    {"aten::rsqrt.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", rsqrt_t_out},
    {"aten::sin(Tensor self) -> Tensor", sin_t},
    {"aten::sin_(Tensor(a!) self) -> Tensor(a!)", sin_t_},
    {"aten::sin.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", sin_t_out},
    {"aten::cos(Tensor self) -> Tensor", cos_t},
    {"aten::cos_(Tensor(a!) self) -> Tensor(a!)", cos_t_},
    {"aten::cos.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", cos_t_out},
    {"aten::tan(Tensor self) -> Tensor", tan_t},
    {"aten::tan_(Tensor(a!) self) -> Tensor(a!)", tan_t_},
    {"aten::tan.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", tan_t_out},
    {"aten::asin(Tensor self) -> Tensor", asin_t},
    {"aten::asin_(Tensor(a!) self) -> Tensor(a!)", asin_t_},
    {"aten::asin.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", asin_t_out},
    {"aten::acos(Tensor self) -> Tensor", acos_t},
    {"aten::acos_(Tensor(a!) self) -> Tensor(a!)", acos_t_},
    {"aten::acos.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", acos_t_out},
    {"aten::atan(Tensor self) -> Tensor", atan_t},
    {"aten::atan_(Tensor(a!) self) -> Tensor(a!)", atan_t_},
    {"aten::atan.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", atan_t_out},
    {"aten::sinh(Tensor self) -> Tensor", sinh_t},
    {"aten::sinh_(Tensor(a!) self) -> Tensor(a!)", sinh_t_},
    {"aten::sinh.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", sinh_t_out},
    {"aten::cosh(Tensor self) -> Tensor", cosh_t},
    {"aten::cosh_(Tensor(a!) self) -> Tensor(a!)", cosh_t_},
    {"aten::cosh.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", cosh_t_out},
    {"aten::tanh(Tensor self) -> Tensor", tanh_t},
    {"aten::tanh_(Tensor(a!) self) -> Tensor(a!)", tanh_t_},
    {"aten::tanh.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", tanh_t_out},
    {"aten::sigmoid(Tensor self) -> Tensor", sigmoid_t},
    {"aten::sigmoid_(Tensor(a!) self) -> Tensor(a!)", sigmoid_t_},
    {"aten::sigmoid.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", sigmoid_t_out},
    {"aten::erf(Tensor self) -> Tensor", erf_t},
    {"aten::erf_(Tensor(a!) self) -> Tensor(a!)", erf_t_},
    {"aten::erf.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", erf_t_out},
    {"aten::reciprocal(Tensor self) -> Tensor", reciprocal_t},
    {"aten::reciprocal_(Tensor(a!) self) -> Tensor(a!)", reciprocal_t_},
    {"aten::reciprocal.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", reciprocal_t_out},
    {"aten::silu(Tensor self) -> Tensor", silu_t},
    {"aten::silu_(Tensor(a!) self) -> Tensor(a!)", silu_t_},
    {"aten::silu.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", silu_t_out},
    {"aten::hardswish(Tensor self) -> Tensor", hardswish_t},
    {"aten::hardswish_(Tensor(a!) self) -> Tensor(a!)", hardswish_t_},
    {"aten::hardswish.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", hardswish_t_out},
    {"aten::erfc(Tensor self) -> Tensor", erfc_t},
    {"aten::erfc_(Tensor(a!) self) -> Tensor(a!)", erfc_t_},
    {"aten::erfc.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", erfc_t_out},
    {"aten::erfinv(Tensor self) -> Tensor", erfinv_t},
    {"aten::erfinv_(Tensor(a!) self) -> Tensor(a!)", erfinv_t_},
    {"aten::erfinv.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", erfinv_t_out},
    {"aten::acosh(Tensor self) -> Tensor", acosh_t},
    {"aten::acosh_(Tensor(a!) self) -> Tensor(a!)", acosh_t_},
    {"aten::acosh.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", acosh_t_out},
    {"aten::asinh(Tensor self) -> Tensor", asinh_t},
    {"aten::asinh_(Tensor(a!) self) -> Tensor(a!)", asinh_t_},
    {"aten::asinh.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", asinh_t_out},
    {"aten::atanh(Tensor self) -> Tensor", atanh_t},
    {"aten::atanh_(Tensor(a!) self) -> Tensor(a!)", atanh_t_},
    {"aten::atanh.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", atanh_t_out},
    {"aten::lgamma(Tensor self) -> Tensor", lgamma_t},
    {"aten::lgamma_(Tensor(a!) self) -> Tensor(a!)", lgamma_t_},
    {"aten::lgamma.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", lgamma_t_out},
    {"aten::digamma(Tensor self) -> Tensor", digamma_t},
    {"aten::digamma_(Tensor(a!) self) -> Tensor(a!)", digamma_t_},
    {"aten::digamma.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", digamma_t_out},
    {"aten::sinc(Tensor self) -> Tensor", sinc_t},
    {"aten::sinc_(Tensor(a!) self) -> Tensor(a!)", sinc_t_},
    {"aten::sinc.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", sinc_t_out},
    {"aten::signbit(Tensor self) -> Tensor", signbit_t},
    {"aten::signbit.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", signbit_t_out},
    {"aten::hardsigmoid(Tensor self) -> Tensor", hardsigmoid_t},
    {"aten::hardsigmoid_(Tensor(a!) self) -> Tensor(a!)", hardsigmoid_t_},
    {"aten::hardsigmoid.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", hardsigmoid_t_out},
    {"aten::logical_not(Tensor self) -> Tensor", logical_not_t},
    {"aten::logical_not_(Tensor(a!) self) -> Tensor(a!)", logical_not_t_},
    {"aten::logical_not.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", logical_not_t_out},
    {"aten::bitwise_not(Tensor self) -> Tensor", bitwise_not_t},
    {"aten::bitwise_not_(Tensor(a!) self) -> Tensor(a!)", bitwise_not_t_},
    {"aten::bitwise_not.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", bitwise_not_t_out},
    {"prim::abs(Tensor x) -> Tensor", abs_t},
    // activations with arguments, clamp
    {"aten::gelu(Tensor self, *, str approximate=\"none\") -> Tensor", act<Gelu, 1>},
    {"aten::gelu_(Tensor(a!) self, *, str approximate=\"none\") -> Tensor(a!)", act_<Gelu, 1>},
    {"aten::leaky_relu(Tensor self, Scalar negative_slope=0.01) -> Tensor", act<LeakyRelu, 1>},
    {"aten::leaky_relu_(Tensor(a!) self, Scalar negative_slope=0.01) -> Tensor(a!)", act_<LeakyRelu, 1>},
    {"aten::elu(Tensor self, Scalar alpha=1, Scalar scale=1, Scalar input_scale=1) -> Tensor", act<Elu, 3>},
    {"aten::elu_(Tensor(a!) self, Scalar alpha=1, Scalar scale=1, Scalar input_scale=1) -> Tensor(a!)", act_<Elu, 3>},
    {"aten::softplus(Tensor self, Scalar beta=1, Scalar threshold=20) -> Tensor", act<Softplus, 2>},
    {"aten::hardtanh(Tensor self, Scalar min_val=-1, Scalar max_val=1) -> Tensor", act<Hardtanh, 2>},
    {"aten::hardtanh_(Tensor(a!) self, Scalar min_val=-1, Scalar max_val=1) -> Tensor(a!)", hardtanh_inplace},
    {"aten::hardtanh.out(Tensor self, Scalar min_val=-1, Scalar max_val=1, *, Tensor(a!) out) -> Tensor(a!)", act_out<Hardtanh, 2>},
    {"aten::relu6(Tensor self) -> Tensor", act<Relu6, 0>},
    {"aten::relu6_(Tensor(a!) self) -> Tensor(a!)", act_<Relu6, 0>},
    {"aten::clamp(Tensor self, Scalar? min=None, Scalar? max=None) -> Tensor", act<Clamp, 2>},
    {"aten::clamp_(Tensor(a!) self, Scalar? min=None, Scalar? max=None) -> Tensor(a!)", act_<Clamp, 2>},
    {"aten::clamp_min(Tensor self, Scalar min) -> Tensor", act<ClampMin, 1>},
    {"aten::clamp_min_(Tensor(a!) self, Scalar min) -> Tensor(a!)", act_<ClampMin, 1>},
    {"aten::clamp_max(Tensor self, Scalar max) -> Tensor", act<ClampMax, 1>},
    {"aten::clamp_max_(Tensor(a!) self, Scalar max) -> Tensor(a!)", act_<ClampMax, 1>},

});

}  // namespace torchlet::jit::ops

// Note [Boxing]
// An operator whose kernel is a plain C++ function registers as its schema and the
// kernel: {"aten::max_pool2d(Tensor self, int[2] kernel_size, ...) -> Tensor",
// boxed<&torchlet::max_pool2d>}. boxed<K> reads the kernel's arguments from the stack
// in schema order, each by its C++ parameter type (BoxedArgument below), calls K and
// pushes what it returns — a Tensor or number as one value, a pair or tuple as one value
// per element, as a schema's `-> (Tensor, Tensor)` has them — the work PyTorch's
// make_boxed_from_unboxed_functor does. The registration checks that K takes as many
// parameters as the schema has arguments (RegisterOps). Hand-written adapters remain
// for glue: prim/list/dict/str builtins, varargs, and operators whose arguments need
// more than a type to read (Generator?, Layout?, device options).
//
// Arguments are moved off the stack before the call, so a tensor the interpreter moved
// there at its last use reaches the kernel as its only reference, as an adapter's pop
// delivers it (Note [Reusing a dying input] in ops_util.h).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include <torchlet/ivalue.h>
#include <torchlet/tensor.h>

#include "jit/ops/ops_util.h"
#include "jit/runtime/operator.h"
#include "jit/runtime/stack.h"

namespace torchlet::jit::ops {

// How a kernel parameter of type T is read from the IValue its schema argument holds:
// `Held` is what lives for the duration of the call (the list an IntList points into),
// read() makes it from the moved-out IValue, pass() hands it to the kernel. A parameter
// type with no specialisation does not compile: it has no schema type to read.
template <typename T>
struct BoxedArgument;

template <typename T>
struct BoxedValue {  // types that are their own Held
  static T&& pass(T& held) { return std::move(held); }
};

template <>
struct BoxedArgument<Tensor> : BoxedValue<Tensor> {
  static Tensor read(IValue v) { return v.toTensor(); }
};
template <>
struct BoxedArgument<int64_t> : BoxedValue<int64_t> {
  static int64_t read(IValue v) { return v.toInt(); }
};
template <>
struct BoxedArgument<double> : BoxedValue<double> {
  static double read(IValue v) { return v.toDouble(); }
};
template <>
struct BoxedArgument<bool> : BoxedValue<bool> {
  static bool read(IValue v) { return v.toBool(); }
};
template <>
struct BoxedArgument<Scalar> : BoxedValue<Scalar> {
  static Scalar read(IValue v) { return v.toScalar(); }
};
template <>
struct BoxedArgument<std::string> : BoxedValue<std::string> {
  static std::string read(IValue v) { return v.toStringRef(); }
};
// ScalarType: torch's scalar type index.
template <>
struct BoxedArgument<DType> : BoxedValue<DType> {
  static DType read(IValue v) { return to_dtype(v.toInt()); }
};
// int[] and int[N] (a bare int broadcast to N copies, as torch takes it for int[N]).
template <>
struct BoxedArgument<IntList> {
  static std::vector<int64_t> read(IValue v) { return int_list_of(v); }
  static IntList pass(const std::vector<int64_t>& held) { return IntList(held.data(), held.size()); }
};
template <>
struct BoxedArgument<std::vector<int64_t>> : BoxedValue<std::vector<int64_t>> {
  static std::vector<int64_t> read(IValue v) { return int_list_of(v); }
};
template <>
struct BoxedArgument<std::vector<Tensor>> : BoxedValue<std::vector<Tensor>> {
  static std::vector<Tensor> read(IValue v) {
    std::vector<Tensor> out;
    out.reserve(v.listRef().elements.size());
    for (const auto& e : v.listRef().elements) out.push_back(e.toTensor());
    return out;
  }
};
// T? : None is nullopt.
template <typename T>
struct BoxedArgument<std::optional<T>> {
  using Inner = BoxedArgument<T>;
  using Held = std::optional<decltype(Inner::read(IValue()))>;
  static Held read(IValue v) {
    if (v.isNone()) return std::nullopt;
    return Inner::read(std::move(v));
  }
  static std::optional<T> pass(Held& held) {
    if (!held) return std::nullopt;
    return Inner::pass(*held);
  }
};

// Pushing what a kernel returns.
inline void push_boxed_result(Stack& s, Tensor t) { s.emplace_back(std::move(t)); }
inline void push_boxed_result(Stack& s, int64_t v) { s.emplace_back(v); }
inline void push_boxed_result(Stack& s, double v) { s.emplace_back(v); }
inline void push_boxed_result(Stack& s, bool v) { s.emplace_back(v); }
inline void push_boxed_result(Stack& s, const Scalar& v) { s.emplace_back(IValue(v)); }
inline void push_boxed_result(Stack& s, std::vector<Tensor> v) { s.push_back(tensor_list(v)); }
template <typename... T>
void push_boxed_result(Stack& s, std::tuple<T...> values) {
  std::apply([&](auto&... v) { (push_boxed_result(s, std::move(v)), ...); }, values);
}
template <typename A, typename B>
void push_boxed_result(Stack& s, std::pair<A, B> values) {
  push_boxed_result(s, std::move(values.first));
  push_boxed_result(s, std::move(values.second));
}

template <typename F>
struct KernelSignature;
template <typename R, typename... Args>
struct KernelSignature<R (*)(Args...)> {
  using Result = R;
  using Parameters = std::tuple<std::remove_cvref_t<Args>...>;
  static constexpr size_t kArity = sizeof...(Args);
};

template <auto kKernel, size_t... I>
void call_boxed(Stack& s, std::index_sequence<I...>) {
  using Signature = KernelSignature<decltype(kKernel)>;
  using Parameters = typename Signature::Parameters;
  const size_t base = s.size() - Signature::kArity;
  // A braced list evaluates left to right: the arguments are read in schema order.
  std::tuple<decltype(BoxedArgument<std::tuple_element_t<I, Parameters>>::read(IValue()))...> held{
      BoxedArgument<std::tuple_element_t<I, Parameters>>::read(std::move(s[base + I]))...};
  s.resize(base);
  if constexpr (std::is_void_v<typename Signature::Result>) {
    kKernel(BoxedArgument<std::tuple_element_t<I, Parameters>>::pass(std::get<I>(held))...);
  } else {
    push_boxed_result(s, kKernel(BoxedArgument<std::tuple_element_t<I, Parameters>>::pass(std::get<I>(held))...));
  }
}

template <auto kKernel>
void call_boxed(Stack& s) {
  call_boxed<kKernel>(s, std::make_index_sequence<KernelSignature<decltype(kKernel)>::kArity>());
}

// The registration form of kernel K (Note [Boxing]). K is a function pointer: for an
// overloaded kernel name, static_cast it to the overload the schema means.
template <auto kKernel>
inline constexpr BoxedOperation boxed{&call_boxed<kKernel>, KernelSignature<decltype(kKernel)>::kArity};

}  // namespace torchlet::jit::ops

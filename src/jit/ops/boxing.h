// Note [Boxing]
// An operator whose kernel is a plain C++ function registers as its schema and the
// kernel: {"aten::max_pool2d(Tensor self, int[2] kernel_size, ...) -> Tensor",
// boxed<&torchlet::max_pool2d>}. boxed<K> reads the kernel's arguments from the stack
// in schema order, each by its C++ parameter type (BoxedArgument below), calls K and
// pushes what it returns — a Tensor or number as one value, a pair or tuple as one value
// per element, as a schema's `-> (Tensor, Tensor)` has them — the work PyTorch's
// make_boxed_from_unboxed_functor does. The registration checks that the row reads as
// many stack slots as the schema has arguments (RegisterOps).
//
// Schema arguments a CPU-only library only checks (Generator? must be None; Layout?,
// Device?, bool? pin_memory must ask for a strided CPU tensor; MemoryFormat? must be
// contiguous or preserve) are named after the kernel: boxed<&torchlet::bernoulli,
// NoGenerator> reads the kernel's parameters, then checks the trailing generator. The
// same tags can be kernel parameters where such an argument sits mid-schema.
// inplace<&F> registers `f_(Tensor(a!) self, ...)` from the functional F, writing F's
// result into self as torch's in-place variants do; out_variant<&F> registers
// `f.out(..., *, Tensor(a!) out)` the same way. boxed_inline<K> is boxed<K> with the
// reads, K and the push inlined into one function: for the scalar builtins, which run in
// tight loops, because GCC's inlining budget runs out in a file of hundreds of boxed
// rows and each read then costs a call (35-45 % slower per operator, measured).
// Hand-written adapters remain only for varargs (format, print, tolist).
//
// Arguments are moved off the stack before the call, so a tensor the interpreter moved
// there at its last use reaches the kernel as its only reference, as an adapter's pop
// delivers it (Note [Reusing a dying input] in ops_util.h).
#pragma once

#include <array>
#include <complex>
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
// str: the kernel reads the string its IValue holds, so a `const std::string&`
// parameter copies nothing (string builtins run in loops); a by-value one gets a copy.
template <>
struct BoxedArgument<std::string> {
  static IValue read(IValue v) {
    (void)v.toStringRef();  // the kind check, in schema order
    return v;
  }
  static const std::string& pass(const IValue& held) { return held.toStringRef(); }
};
template <>
struct BoxedArgument<std::complex<double>> : BoxedValue<std::complex<double>> {
  static std::complex<double> read(IValue v) { return v.toComplexDouble(); }
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
  static std::vector<Tensor> read(IValue v) { return tensor_list_of(v); }
};
template <>
struct BoxedArgument<std::vector<double>> : BoxedValue<std::vector<double>> {
  static std::vector<double> read(IValue v) { return double_list_of(v); }
};
template <>
struct BoxedArgument<std::vector<bool>> : BoxedValue<std::vector<bool>> {
  static std::vector<bool> read(IValue v) { return bool_list_of(v); }
};
// Tensor?[] (index's indices): None entries stay nullopt.
template <>
struct BoxedArgument<std::vector<std::optional<Tensor>>> : BoxedValue<std::vector<std::optional<Tensor>>> {
  static std::vector<std::optional<Tensor>> read(IValue v) { return optional_tensor_list_of(v); }
};
// Any schema type a kernel takes as it is (t, Any, a list of any element type).
template <>
struct BoxedArgument<IValue> : BoxedValue<IValue> {
  static IValue read(IValue v) { return v; }
};
template <>
struct BoxedArgument<Device> : BoxedValue<Device> {
  static Device read(IValue v) { return v.toDevice(); }
};

// The checked-only arguments (Note [Boxing]). Each tag is an empty value once checked.
struct NoGenerator {};          // Generator?: None only (torchlet has no generator objects)
struct StridedCpu {};           // Layout? layout, Device? device, bool? pin_memory
struct DefaultMemoryFormat {};  // MemoryFormat?: None, contiguous_format or preserve_format
template <>
struct BoxedArgument<NoGenerator> : BoxedValue<NoGenerator> {
  static NoGenerator read(IValue v) {
    check_no_generator(v);
    return {};
  }
};
template <>
struct BoxedArgument<StridedCpu> : BoxedValue<StridedCpu> {
  static constexpr size_t kSlots = 3;
  static StridedCpu read_slots(IValue* first) {
    check_strided_cpu(first[0], first[1], first[2]);
    return {};
  }
};
template <>
struct BoxedArgument<DefaultMemoryFormat> : BoxedValue<DefaultMemoryFormat> {
  static DefaultMemoryFormat read(IValue v) {
    check_default_memory_format(v);
    return {};
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
inline void push_boxed_result(Stack& s, const std::vector<int64_t>& v) { s.push_back(int_list(v)); }
inline void push_boxed_result(Stack& s, std::string v) { s.emplace_back(std::move(v)); }
inline void push_boxed_result(Stack& s, const std::vector<std::string>& v) { s.push_back(str_list(v)); }
inline void push_boxed_result(Stack& s, std::complex<double> v) { s.emplace_back(v); }
inline void push_boxed_result(Stack& s, Device v) { s.emplace_back(v); }
inline void push_boxed_result(Stack& s, IValue v) { s.push_back(std::move(v)); }
inline void push_boxed_result(Stack& s, std::optional<Tensor> v) { s.push_back(opt(v)); }
template <typename... T>
void push_boxed_result(Stack& s, std::tuple<T...> values) {
  std::apply([&](auto&... v) { (push_boxed_result(s, std::move(v)), ...); }, values);
}
template <typename A, typename B>
void push_boxed_result(Stack& s, std::pair<A, B> values) {
  push_boxed_result(s, std::move(values.first));
  push_boxed_result(s, std::move(values.second));
}

// How many stack slots reading a T takes (1 but for StridedCpu), and the reading.
template <typename T>
constexpr size_t boxed_slots() {
  if constexpr (requires { BoxedArgument<T>::kSlots; }) {
    return BoxedArgument<T>::kSlots;
  } else {
    return 1;
  }
}
template <typename T>
auto read_boxed(IValue* first) {
  if constexpr (boxed_slots<T>() == 1) {
    return BoxedArgument<T>::read(std::move(*first));
  } else {
    return BoxedArgument<T>::read_slots(first);
  }
}
template <typename T>
using BoxedHeld = decltype(read_boxed<T>(nullptr));

template <typename F>
struct KernelSignature;
template <typename R, typename... Args>
struct KernelSignature<R (*)(Args...)> {
  using Result = R;
  using Parameters = std::tuple<std::remove_cvref_t<Args>...>;
  static constexpr size_t kArity = sizeof...(Args);
};

// What a row reads: the kernel's parameters, then the checked-only Trailing tags.
template <auto kKernel, typename... Trailing>
struct BoxedCall {
  using Signature = KernelSignature<decltype(kKernel)>;
  template <typename Tuple>
  struct Read;
  template <typename... P>
  struct Read<std::tuple<P...>> {
    using Types = std::tuple<P..., Trailing...>;
    using Held = std::tuple<BoxedHeld<P>..., BoxedHeld<Trailing>...>;
    static constexpr size_t kSlots = (boxed_slots<P>() + ... + 0) + (boxed_slots<Trailing>() + ... + 0);
    static constexpr std::array<size_t, sizeof...(P) + sizeof...(Trailing) + 1> offsets() {
      std::array<size_t, sizeof...(P) + sizeof...(Trailing) + 1> o{};
      size_t i = 0;
      ((o[i + 1] = o[i] + boxed_slots<P>(), ++i), ...);
      ((o[i + 1] = o[i] + boxed_slots<Trailing>(), ++i), ...);
      return o;
    }
  };
  using Reading = Read<typename Signature::Parameters>;
  static constexpr size_t kSlots = Reading::kSlots;

  // Moves the arguments off the stack (a braced list evaluates left to right: in schema
  // order) and pops their slots.
  template <size_t... I>
  static typename Reading::Held take(Stack& s, std::index_sequence<I...>) {
    [[maybe_unused]] constexpr auto offsets = Reading::offsets();  // unused by a kernel of no arguments
    const size_t base = s.size() - kSlots;
    typename Reading::Held held{read_boxed<std::tuple_element_t<I, typename Reading::Types>>(&s[base + offsets[I]])...};
    s.resize(base);
    return held;
  }
  static typename Reading::Held take(Stack& s) {
    return take(s, std::make_index_sequence<std::tuple_size_v<typename Reading::Types>>());
  }
  template <size_t... I>
  static decltype(auto) invoke(typename Reading::Held& held, std::index_sequence<I...>) {
    using Parameters = typename Signature::Parameters;
    return kKernel(BoxedArgument<std::tuple_element_t<I, Parameters>>::pass(std::get<I>(held))...);
  }
  static decltype(auto) invoke(typename Reading::Held& held) {
    return invoke(held, std::make_index_sequence<Signature::kArity>());
  }

  static void call(Stack& s) {
    auto held = take(s);
    if constexpr (std::is_void_v<typename Signature::Result>) {
      invoke(held);
    } else {
      push_boxed_result(s, invoke(held));
    }
  }
  // self is the kernel's first parameter; the result is written into it.
  static void call_inplace(Stack& s) {
    auto held = take(s);
    Tensor self = std::get<0>(held);
    assign_inplace(self, invoke(held), nullptr);
    s.emplace_back(std::move(self));
  }
};

// An out= row: the functional's arguments, then `Tensor(a!) out`.
template <auto kKernel, typename... Trailing>
void call_out_variant(Stack& s) {
  Tensor out = pop(s).toTensor();
  auto held = BoxedCall<kKernel, Trailing...>::take(s);
  assign_out(out, BoxedCall<kKernel, Trailing...>::invoke(held), nullptr);
  s.emplace_back(std::move(out));
}

// The registration forms (Note [Boxing]). K is a function pointer: for an overloaded
// kernel name, static_cast it to the overload the schema means.
template <auto kKernel, typename... Trailing>
inline constexpr BoxedOperation boxed{&BoxedCall<kKernel, Trailing...>::call, BoxedCall<kKernel, Trailing...>::kSlots};
template <auto kKernel, typename... Trailing>
inline constexpr BoxedOperation inplace{&BoxedCall<kKernel, Trailing...>::call_inplace,
                                        BoxedCall<kKernel, Trailing...>::kSlots};
template <auto kKernel, typename... Trailing>
inline constexpr BoxedOperation out_variant{&call_out_variant<kKernel, Trailing...>,
                                            BoxedCall<kKernel, Trailing...>::kSlots + 1};

// The form for builtins that run in tight loops (i + 1, i < n, len(l), l[i]): the same
// call with everything it calls inlined into it. A file of hundreds of boxed rows runs
// out of GCC's inlining budget (-finline-unit-growth), after which each pop and push of
// the stack is a call of its own: aten::add.int took a third more time than the
// hand-written adapter it replaced, and takes a little less this way. The price is code
// (about 1.5 KB a row), so not for tensor kernels, whose call cost the kernel dwarfs.
template <auto kKernel>
[[gnu::flatten]] void call_flattened(Stack& s) {
  BoxedCall<kKernel>::call(s);
}
template <auto kKernel>
inline constexpr BoxedOperation boxed_inline{&call_flattened<kKernel>, BoxedCall<kKernel>::kSlots};

}  // namespace torchlet::jit::ops

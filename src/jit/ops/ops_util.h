// Shared helpers for the operator adapters in src/jit/ops: typed pops for each schema
// type (stack.h's convention), list/tuple builders with TorchScript element types, and
// the registration helper that also remembers each schema exactly as written (so the
// table test can check it prints back unchanged). Adapters stay a few lines each.
// Nothing here knows a kernel; kernels know nothing of this.
#pragma once

#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <torchlet/error.h>
#include <torchlet/ivalue.h>
#include <torchlet/tensor.h>

#include "values/type.h"
#include "jit/runtime/operator.h"
#include "jit/runtime/stack.h"

namespace torchlet::jit::ops {

// Registers each operator with the global registry and records its schema text.
struct RegisterOps {
  RegisterOps(std::initializer_list<OperatorDef> defs);
};
// Every schema registered through RegisterOps, as written, in registration order.
const std::vector<std::string>& registered_schema_texts();

// --- typed pops (arguments are popped last first) ------------------------------------
inline int64_t pop_int(Stack& s) { return pop(s).toInt(); }
inline double pop_double(Stack& s) { return pop(s).toDouble(); }
inline bool pop_bool(Stack& s) { return pop(s).toBool(); }
inline Tensor pop_tensor(Stack& s) { return pop(s).toTensor(); }
inline Scalar pop_scalar(Stack& s) { return pop(s).toScalar(); }
inline std::string pop_str(Stack& s) { return pop(s).toStringRef(); }
std::optional<Tensor> pop_opt_tensor(Stack& s);
std::optional<int64_t> pop_opt_int(Stack& s);
std::optional<double> pop_opt_double(Stack& s);
std::optional<bool> pop_opt_bool(Stack& s);
std::optional<Scalar> pop_opt_scalar(Stack& s);
std::optional<std::string> pop_opt_str(Stack& s);
// int[] (also a bare int for an `int[N]` argument, which torch broadcasts to N copies).
std::vector<int64_t> int_list_of(const IValue& v);
std::vector<int64_t> pop_int_list(Stack& s);
std::optional<std::vector<int64_t>> pop_opt_int_list(Stack& s);
std::vector<double> double_list_of(const IValue& v);
std::vector<double> pop_double_list(Stack& s);
std::vector<bool> bool_list_of(const IValue& v);
std::vector<Tensor> tensor_list_of(const IValue& v);
std::vector<Tensor> pop_tensor_list(Stack& s);
// Tensor?[]: None entries stay nullopt.
std::vector<std::optional<Tensor>> optional_tensor_list_of(const IValue& v);
// ScalarType? as torch's scalar type index; None stays nullopt.
std::optional<DType> pop_opt_dtype(Stack& s);
DType to_dtype(int64_t scalar_type_index);
// Layout? / Device? / bool? pin_memory of factory functions: only strided CPU tensors
// exist here, so anything else is refused, with `op` before the message when given.
void check_strided_cpu(const IValue& layout, const IValue& device, const IValue& pin_memory,
                       const char* op = nullptr);
void pop_tensor_options(Stack& s, const char* op, std::optional<DType>* dtype);
// Generator? arguments: only None (torchlet has no generator objects).
void check_no_generator(const IValue& generator, const char* op = nullptr);
void pop_no_generator(Stack& s, const char* op);
// MemoryFormat? arguments: None, contiguous_format or preserve_format.
void check_default_memory_format(const IValue& memory_format, const char* op = nullptr);
void pop_memory_format(Stack& s, const char* op);

// The length of `count` copies of `unit` elements of `element_bytes` each (list * n,
// str.ljust's padding), refused with a LimitError naming `op` past the thread's limit on
// one allocation (Note [Allocation limit]). A kernel reserves it once, so the system's
// refusal comes at once too, instead of the result growing until the machine runs out.
size_t repeated_size(size_t unit, int64_t count, size_t element_bytes, const char* op);
// The length `elements` of a list or str an operator is about to build from parts it
// holds (l1 + l2, ''.join(parts)), refused the same way: such results double per step
// in a loop, so a few dozen steps would otherwise ask for more than any machine has.
size_t result_length(size_t elements, size_t element_bytes, const char* op);

// --- results of out= and in-place variants composed from a functional kernel --------
// torch's canCast: no complex -> real, floating -> integral or non-bool -> bool.
bool can_cast(DType from, DType to);
// Writes `result` into `out` as torch's out= does: out is resized in place (every
// alias of it sees the new shape) when its shape differs, and result's dtype must be
// castable to out's. A null `op` leaves the operator's name out of the message.
void assign_out(Tensor& out, const Tensor& result, const char* op);
// The same without the cast check: torch's generated out= variants of functional ops
// (mul.Scalar_out, div.Scalar_out, ...) resize and copy, casting whatever the result.
void assign_out_unchecked(Tensor& out, const Tensor& result);
// Writes `result` into self for an in-place variant: same shape required (torch's
// "output with shape ... doesn't match the broadcast shape ..."), dtype castable.
void assign_inplace(Tensor& self, const Tensor& result, const char* op);

// Note [Reusing a dying input]
// The interpreter moves a value onto the stack at its last use (MOVE), so an adapter
// often holds the only reference to an input tensor: one reference to its TensorImpl
// (the adapter's), one to its storage (no other view of the bytes), a heap storage
// torchlet owns (not a mapped file), contiguous. Nothing can observe that tensor after
// the call, so an operator whose result has the input's shape and dtype may write the
// result over it instead of allocating: batch_norm and add in every mobilenet block.
// Each allocation saved is one fewer buffer glibc hands back to the system and
// page-faults in again on the next layer, which cost more than the arithmetic.
bool is_dying(const Tensor& t);

// --- builders --------------------------------------------------------------------------
IValue int_list(const std::vector<int64_t>& v);
IValue int_list(IntList v);
IValue double_list(const std::vector<double>& v);
IValue bool_list(const std::vector<bool>& v);
IValue str_list(const std::vector<std::string>& v);
IValue tensor_list(const std::vector<Tensor>& v);
// A new list of the same element type as `like`.
IValue list_like(const ListImpl& like, std::vector<IValue> elements);
inline IValue opt(const std::optional<Tensor>& t) { return t ? IValue(*t) : IValue(); }

// The operands of a binary function whose schemas take a Tensor or a Scalar on either
// side (the Scalar promoted as a wrapped number), popped with their result type.
enum class BinaryOperands { kTensors, kScalarOther, kScalarSelf };
struct PoppedBinary {
  Tensor self, other;
  DType promoted;
};
template <BinaryOperands kOperands>
PoppedBinary pop_binary_operands(Stack& s) {
  PoppedBinary b;
  if constexpr (kOperands == BinaryOperands::kTensors) {
    b.other = pop_tensor(s);
    b.self = pop_tensor(s);
    b.promoted = result_type(b.self, b.other);
  } else if constexpr (kOperands == BinaryOperands::kScalarOther) {
    const Scalar scalar = pop_scalar(s);
    b.self = pop_tensor(s);
    b.promoted = result_type(b.self, scalar);
    b.other = scalar_tensor(scalar);
  } else {
    b.other = pop_tensor(s);
    const Scalar scalar = pop_scalar(s);
    b.promoted = result_type(b.other, scalar);
    b.self = scalar_tensor(scalar);
  }
  return b;
}

// The number of inputs a vararg schema received (pushed last by the caller).
inline size_t pop_num_inputs(Stack& s) { return static_cast<size_t>(pop(s).toInt()); }

// Python-style index normalisation for lists and strings: IndexError "list index out of
// range" (the message torch uses) when outside.
size_t normalize_index(int64_t idx, size_t size, const char* what = "list index out of range");

// Python slice bounds resolved against a length: the indices slice(start, end, step)
// visits (ValueError for a zero step). Lists and strings share it.
std::vector<size_t> slice_indices(size_t size, std::optional<int64_t> start, std::optional<int64_t> end,
                                  int64_t step);
// The window [start, end) of str.find/count/startswith..., with torch's convention that
// a negative end counts from one past the last byte (end=-1 is the whole string).
// Defined in builtins_str.cpp.
std::string_view str_window(const std::string& str, int64_t start, int64_t end);

// torch's IValue printer (print(), str(), format()): strings unquoted inside containers,
// floats as "1." when integral, else 17 significant digits; tensors as torch's C++
// printer. Defined in builtins_str.cpp.
std::string ivalue_str(const IValue& v);

}  // namespace torchlet::jit::ops

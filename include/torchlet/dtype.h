// DType: the element types of tensors, all generated from dtype.def (STYLE.md #4-#5),
// plus the dispatch macros kernels use to turn a runtime dtype into a C++ type.
#pragma once

#include <complex>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

#include <torchlet/half.h>

namespace torchlet {

enum class DType : int8_t {
#define TL_DTYPE(e, name, T, size, storage, index, kind) e = index,
#include <torchlet/dtype.def>
#undef TL_DTYPE
};

inline constexpr int kNumDTypes = 18;

enum class DTypeKind : int8_t { Bool, Unsigned, Signed, Float, Complex, Quantized };

struct DTypeInfo {
  DType dtype;
  std::string_view name;           // as torch prints it after "torch.": "float32"
  size_t itemsize;                 // bytes per element
  std::string_view storage_class;  // pickle class in torch: "FloatStorage" ("" if none)
  int scalar_type_index;           // c10::ScalarType value
  DTypeKind kind;
  std::string_view scalar_type_name;  // c10::ScalarType name torch's messages use: "Float"
};

const DTypeInfo& dtype_info(DType dtype);
inline std::string_view dtype_name(DType d) { return dtype_info(d).name; }
inline size_t element_size(DType d) { return dtype_info(d).itemsize; }
inline DTypeKind dtype_kind(DType d) { return dtype_info(d).kind; }

inline bool is_floating(DType d) { return dtype_kind(d) == DTypeKind::Float; }
inline bool is_complex(DType d) { return dtype_kind(d) == DTypeKind::Complex; }
inline bool is_quantized(DType d) { return dtype_kind(d) == DTypeKind::Quantized; }
// Integral types, optionally counting bool (torch's isIntegralType(t, includeBool)).
inline bool is_integral(DType d, bool include_bool) {
  DTypeKind k = dtype_kind(d);
  return k == DTypeKind::Signed || k == DTypeKind::Unsigned || (include_bool && k == DTypeKind::Bool);
}

// Lookups; std::nullopt when unknown. Names accept torch's spellings with or without
// "torch." and the aliases torch prints elsewhere ("float", "long", "half", ...).
std::optional<DType> dtype_from_name(std::string_view name);
std::optional<DType> dtype_from_storage_class(std::string_view storage_class);
std::optional<DType> dtype_from_scalar_type_index(int64_t index);

// Full printed name, "torch.float32".
std::string dtype_repr(DType d);
// caffe2's TypeMeta spelling ("float", "long int", "c10::Half"), which torch's
// structured out= checks and multi_dot's dtype error print.
std::string_view type_meta_name(DType d);

inline constexpr DType kDefaultFloatDType = DType::Float;

template <typename T>
struct CppToDType;
#define TL_DTYPE(e, name, T, size, storage, index, kind) \
  template <>                                            \
  struct CppToDType<T> {                                 \
    static constexpr DType value = DType::e;             \
  };
#include <torchlet/dtype.def>
#undef TL_DTYPE
template <typename T>
inline constexpr DType dtype_of = CppToDType<T>::value;

template <DType D>
struct DTypeToCpp;
#define TL_DTYPE(e, name, T, size, storage, index, kind) \
  template <>                                            \
  struct DTypeToCpp<DType::e> {                          \
    using type = T;                                      \
  };
#include <torchlet/dtype.def>
#undef TL_DTYPE

// Throws UnsupportedError naming the operation and dtype.
[[noreturn]] void throw_unsupported_dtype(std::string_view op, DType d);

// dispatch_all(dtype, "op", [&]<typename scalar_t>() { ... }) calls the lambda with
// scalar_t bound to the element type and returns its result; dtypes outside the set
// raise UnsupportedError naming the op. dispatch_real excludes complex types.
#define TL_DISPATCH_CASE(e)   \
  case ::torchlet::DType::e:  \
    return fn.template operator()<typename ::torchlet::DTypeToCpp<::torchlet::DType::e>::type>();

template <typename Fn>
decltype(auto) dispatch_all(DType dtype, std::string_view op, Fn&& fn) {
  switch (dtype) {
    TL_DISPATCH_CASE(Byte)
    TL_DISPATCH_CASE(Char)
    TL_DISPATCH_CASE(Short)
    TL_DISPATCH_CASE(Int)
    TL_DISPATCH_CASE(Long)
    TL_DISPATCH_CASE(Half)
    TL_DISPATCH_CASE(Float)
    TL_DISPATCH_CASE(Double)
    TL_DISPATCH_CASE(ComplexHalf)
    TL_DISPATCH_CASE(ComplexFloat)
    TL_DISPATCH_CASE(ComplexDouble)
    TL_DISPATCH_CASE(Bool)
    TL_DISPATCH_CASE(BFloat16)
    case DType::QInt8:
    case DType::QUInt8:
    case DType::QInt32:
    case DType::QUInt4x2:
    case DType::QUInt2x4:
      break;
  }
  throw_unsupported_dtype(op, dtype);
}

template <typename Fn>
decltype(auto) dispatch_real(DType dtype, std::string_view op, Fn&& fn) {
  switch (dtype) {
    TL_DISPATCH_CASE(Byte)
    TL_DISPATCH_CASE(Char)
    TL_DISPATCH_CASE(Short)
    TL_DISPATCH_CASE(Int)
    TL_DISPATCH_CASE(Long)
    TL_DISPATCH_CASE(Half)
    TL_DISPATCH_CASE(Float)
    TL_DISPATCH_CASE(Double)
    TL_DISPATCH_CASE(Bool)
    TL_DISPATCH_CASE(BFloat16)
    case DType::ComplexHalf:
    case DType::ComplexFloat:
    case DType::ComplexDouble:
    case DType::QInt8:
    case DType::QUInt8:
    case DType::QInt32:
    case DType::QUInt4x2:
    case DType::QUInt2x4:
      break;
  }
  throw_unsupported_dtype(op, dtype);
}
#undef TL_DISPATCH_CASE

}  // namespace torchlet

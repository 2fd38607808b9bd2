// The dtype table and its lookups, generated from dtype.def.
#include <torchlet/dtype.h>

#include <array>
#include <string>

#include <torchlet/error.h>

namespace torchlet {

namespace {

constexpr std::array<DTypeInfo, kNumDTypes> kDTypeTable = {{
#define TL_DTYPE(e, name, T, size, storage, index, kind) \
  {DType::e, name, size, storage, index, DTypeKind::kind, #e},
#include <torchlet/dtype.def>
#undef TL_DTYPE
}};

// Aliases torch accepts as attribute names (torch.float is torch.float32, ...).
struct Alias {
  std::string_view alias;
  DType dtype;
};
constexpr Alias kAliases[] = {
    {"float", DType::Float},        {"double", DType::Double},  {"half", DType::Half},
    {"long", DType::Long},          {"int", DType::Int},        {"short", DType::Short},
    {"cfloat", DType::ComplexFloat}, {"cdouble", DType::ComplexDouble},
    {"chalf", DType::ComplexHalf},
};

}  // namespace

const DTypeInfo& dtype_info(DType dtype) {
  auto i = static_cast<size_t>(dtype);
  TL_INTERNAL_ASSERT(i < kDTypeTable.size(), "dtype out of range");
  return kDTypeTable[i];
}

std::optional<DType> dtype_from_name(std::string_view name) {
  if (name.starts_with("torch.")) name.remove_prefix(6);
  for (const auto& row : kDTypeTable) {
    if (row.name == name) return row.dtype;
  }
  for (const auto& a : kAliases) {
    if (a.alias == name) return a.dtype;
  }
  return std::nullopt;
}

std::optional<DType> dtype_from_storage_class(std::string_view storage_class) {
  if (storage_class.empty()) return std::nullopt;
  for (const auto& row : kDTypeTable) {
    if (row.storage_class == storage_class) return row.dtype;
  }
  return std::nullopt;
}

std::optional<DType> dtype_from_scalar_type_index(int64_t index) {
  if (index < 0 || index >= kNumDTypes) return std::nullopt;
  return kDTypeTable[static_cast<size_t>(index)].dtype;
}

std::string dtype_repr(DType d) { return "torch." + std::string(dtype_name(d)); }

void throw_unsupported_dtype(std::string_view op, DType d) {
  TL_FAIL(UnsupportedError, "{}: dtype {} is not supported", op, dtype_repr(d));
}

std::string_view type_meta_name(DType d) {
  switch (d) {
    case DType::Byte: return "unsigned char";
    case DType::Char: return "signed char";
    case DType::Short: return "short int";
    case DType::Int: return "int";
    case DType::Long: return "long int";
    case DType::Half: return "c10::Half";
    case DType::BFloat16: return "c10::BFloat16";
    case DType::Float: return "float";
    case DType::Double: return "double";
    case DType::Bool: return "bool";
    case DType::ComplexHalf: return "c10::complex<c10::Half>";
    case DType::ComplexFloat: return "c10::complex<float>";
    case DType::ComplexDouble: return "c10::complex<double>";
    default: return dtype_name(d);
  }
}

}  // namespace torchlet

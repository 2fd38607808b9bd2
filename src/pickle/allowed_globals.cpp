// The allowlist of globals (allowed_globals.h): torch's weights-only unpickler's
// default set (torch/_weights_only_unpickler.py, _get_allowed_globals, as of torch 2.6+)
// plus the builtins torch.save's protocol-2 pickles use for Python values, the user's
// additions (LoadOptions::safe_globals, `--allow`), and the text of a refusal.
#include "pickle/allowed_globals.h"

#include <algorithm>

#include <fmt/format.h>
#include <torchlet/dtype.h>

#include "core/python_format.h"
#include "pickle/unpickler.h"

namespace torchlet::pickle {

namespace {

struct AllowedGlobal {
  std::string_view module, name;
  GlobalKind kind;
  std::string_view unsupported_reason = {};
};

// Protocol 2 names builtins "__builtin__" (Python 2's name), protocols 3+ "builtins";
// torch's loader maps the first to the second (NAME_MAPPING), so both are listed.
constexpr AllowedGlobal kAllowedGlobals[] = {
    {"collections", "OrderedDict", GlobalKind::OrderedDict},
    {"collections", "Counter", GlobalKind::Counter},
    {"torch._utils", "_rebuild_tensor_v2", GlobalKind::RebuildTensorV2},
    {"torch._utils", "_rebuild_tensor", GlobalKind::RebuildTensor},
    {"torch._utils", "_rebuild_parameter", GlobalKind::RebuildParameter},
    {"torch._utils", "_rebuild_parameter_with_state", GlobalKind::RebuildParameterWithState},
    {"torch.nn.parameter", "Parameter", GlobalKind::Parameter},
    {"torch._tensor", "_rebuild_from_type_v2", GlobalKind::RebuildFromTypeV2},
    {"torch", "device", GlobalKind::Device},
    {"torch", "Size", GlobalKind::Size},
    {"torch.serialization", "_get_layout", GlobalKind::GetLayout},
    {"_codecs", "encode", GlobalKind::CodecsEncode},
    {"__builtin__", "bytes", GlobalKind::Bytes},
    {"builtins", "bytes", GlobalKind::Bytes},
    {"__builtin__", "bytearray", GlobalKind::Bytearray},
    {"builtins", "bytearray", GlobalKind::Bytearray},
    {"__builtin__", "set", GlobalKind::Set},
    {"builtins", "set", GlobalKind::Set},
    // Not in torch's list (torch refuses a pickled frozenset); torchlet builds it as it
    // builds a set, since it creates nothing but a value.
    {"__builtin__", "frozenset", GlobalKind::FrozenSet},
    {"builtins", "frozenset", GlobalKind::FrozenSet},
    {"__builtin__", "complex", GlobalKind::Complex},
    {"builtins", "complex", GlobalKind::Complex},
    {"torch._utils", "_rebuild_sparse_tensor", GlobalKind::Unsupported, "sparse COO tensors"},
    {"torch._utils", "_rebuild_sparse_csr_tensor", GlobalKind::Unsupported, "sparse CSR tensors"},
    {"torch._utils", "_rebuild_meta_tensor_no_storage", GlobalKind::Unsupported, "meta tensors"},
    {"torch._utils", "_rebuild_qtensor", GlobalKind::Unsupported, "quantized tensors"},
    {"torch._utils", "_rebuild_tensor_v3", GlobalKind::Unsupported, "tensors saved with _rebuild_tensor_v3"},
    {"torch._utils", "_rebuild_wrapper_subclass", GlobalKind::Unsupported, "wrapper tensor subclasses"},
    {"torch._utils", "_rebuild_device_tensor_from_numpy", GlobalKind::Unsupported, "device tensors saved from numpy"},
    {"torch._utils", "_rebuild_device_tensor_from_cpu_tensor", GlobalKind::Unsupported,
     "device tensors saved from CPU tensors"},
    {"torch.storage", "TypedStorage", GlobalKind::Unsupported, "storages pickled by class (TypedStorage)"},
    {"torch.storage", "UntypedStorage", GlobalKind::Unsupported, "untyped storages"},
    // The quantization schemes _rebuild_qtensor's arguments name; refused with it.
    {"torch", "per_tensor_affine", GlobalKind::Unsupported, "quantized tensors"},
    {"torch", "per_channel_affine", GlobalKind::Unsupported, "quantized tensors"},
    {"torch", "per_tensor_symmetric", GlobalKind::Unsupported, "quantized tensors"},
    {"torch", "per_channel_symmetric", GlobalKind::Unsupported, "quantized tensors"},
    {"torch", "per_channel_affine_float_qparams", GlobalKind::Unsupported, "quantized tensors"},
    {"torch", "Tensor", GlobalKind::Unsupported, "tensors pickled by class (torch.Tensor)"},
};

// dtypes torch 2.x pickles by name that torchlet's dtype table (torch 1.13's) lacks
// (torch.storage._new_dtypes(), torch.uint1..7, torch.int1..7): a reference to one
// loads as an inert global, as every dtype reference does.
constexpr std::string_view kNewerDTypeNames[] = {
    "float8_e5m2", "float8_e4m3fn", "float8_e5m2fnuz", "float8_e4m3fnuz", "float8_e8m0fnu",
    "float4_e2m1fn_x2", "bits8", "bits16", "bits1x8", "bits2x4", "bits4x2", "uint16", "uint32",
    "uint64", "uint1", "uint2", "uint3", "uint4", "uint5", "uint6", "uint7", "int1", "int2",
    "int3", "int4", "int5", "int6", "int7",
};

// str(torch.layout) for each layout, what _get_layout is called with.
constexpr std::string_view kLayoutNames[] = {
    "torch.strided", "torch.sparse_coo", "torch.sparse_csr", "torch.sparse_csc",
    "torch.sparse_bsr", "torch.sparse_bsc", "torch._mkldnn", "torch.jagged",
};

constexpr std::string_view kBlockedModules[] = {"sys", "os", "posix", "nt"};

}  // namespace

std::optional<AllowedKind> resolve_allowed(std::string_view module, std::string_view name) {
  for (const auto& g : kAllowedGlobals) {
    if (g.module == module && g.name == name) return AllowedKind{g.kind, g.unsupported_reason};
  }
  if (module != "torch") return std::nullopt;
  if (dtype_from_storage_class(name)) return AllowedKind{GlobalKind::StorageClass, {}};
  // torch.FloatTensor & co. (named by the tar format): references only.
  if (name.ends_with("Tensor") && dtype_from_storage_class(std::string(name.substr(0, name.size() - 6)) + "Storage")) {
    return AllowedKind{GlobalKind::StorageClass, {}};
  }
  // torch.float32 etc. pickle by name; aliases like torch.float are not pickled names.
  if (auto d = dtype_from_name(name); d && dtype_name(*d) == name) return AllowedKind{GlobalKind::DType, {}};
  if (std::find(std::begin(kNewerDTypeNames), std::end(kNewerDTypeNames), name) != std::end(kNewerDTypeNames)) {
    return AllowedKind{GlobalKind::DType, {}};
  }
  return std::nullopt;
}

bool is_allowed_global(std::string_view module, std::string_view name) {
  return resolve_allowed(module, name).has_value();
}

bool is_blocked_module(std::string_view module) {
  return std::find(std::begin(kBlockedModules), std::end(kBlockedModules), module) != std::end(kBlockedModules);
}

bool is_user_allowed(const std::vector<std::string>& safe_globals, std::string_view module, std::string_view name) {
  for (const std::string& g : safe_globals) {
    if (g.size() == module.size() + 1 + name.size() && g.starts_with(module) && g[module.size()] == '.' &&
        g.ends_with(name)) {
      return true;
    }
  }
  return false;
}

std::string refusal_message(const std::string& label, std::string_view opcode, size_t offset, std::string_view module,
                            std::string_view name) {
  const std::string full = printable_text(module) + "." + printable_text(name);
  if (is_blocked_module(module)) {
    return fmt::format("{}: {} at offset {} names '{}', which is not in the allowlist of globals a checkpoint "
                       "may use, and module '{}' cannot be allowed (torch blocks it too); nothing was "
                       "imported or run",
                       label, opcode, offset, full, printable_text(module));
  }
  return fmt::format("{}: {} at offset {} names '{}', which is not in the allowlist of globals a checkpoint "
                     "may use; nothing was imported or run. If you trust this file, allow it with "
                     "`--allow {}` (torchlet inspect/convert) or LoadOptions::safe_globals (as "
                     "torch.serialization.add_safe_globals): it then loads as an inert record, never run",
                     label, opcode, offset, full, full);
}

bool is_layout_name(std::string_view text) {
  return std::find(std::begin(kLayoutNames), std::end(kLayoutNames), text) != std::end(kLayoutNames);
}

}  // namespace torchlet::pickle

// The globals a pickle may name (torch's weights-only allowlist) and the user's
// additions to it: what each allowed global is, for the unpickler to build, and the
// words of a refusal. The unpickler builds the values; this file only decides.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace torchlet::pickle {

// What an allowed global does when called (REDUCE/NEWOBJ) or referenced.
enum class GlobalKind {
  OrderedDict, Counter, RebuildTensorV2, RebuildTensor, RebuildParameter, RebuildParameterWithState,
  RebuildFromTypeV2, Parameter, StorageClass, DType, Device, Size, CodecsEncode, Bytes, Bytearray,
  Set, FrozenSet, Complex, GetLayout,
  // allowed by torch's loader but not supported here yet: refused with a clear message
  Unsupported,
};

struct AllowedKind {
  GlobalKind kind;
  std::string_view unsupported_reason;  // for GlobalKind::Unsupported
};

// module.name's kind when the allowlist has it.
std::optional<AllowedKind> resolve_allowed(std::string_view module, std::string_view name);

// Modules torch refuses even when the user allows one of their globals
// (_weights_only_unpickler's _blocklisted_modules: sys, os, posix, nt).
bool is_blocked_module(std::string_view module);

// Whether `safe_globals` (LoadOptions::safe_globals: "module.Name" strings) lists
// module.name.
bool is_user_allowed(const std::vector<std::string>& safe_globals, std::string_view module,
                     std::string_view name);

// The refusal of a global that is neither allowed nor user-allowed: names it (escaped,
// as text from the file is) and says how to allow it, as torch's error does.
std::string refusal_message(const std::string& label, std::string_view opcode, size_t offset,
                            std::string_view module, std::string_view name);

// The layouts torch.serialization._get_layout accepts (str(torch.layout)).
bool is_layout_name(std::string_view text);

}  // namespace torchlet::pickle

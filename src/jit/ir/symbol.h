// Symbol: an interned "namespace::name" (aten::add, prim::If, attr::value). Equal
// symbols have equal ids, so graphs compare and dispatch on integers; the common ones
// are constants from symbols.def (sym::prim_If). Interning is thread-safe.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

namespace torchlet::jit {

class Symbol {
 public:
  Symbol() = default;
  // Interns "ns::name"; CompileError if the text has no "::" or an empty part.
  static Symbol from_qual_string(std::string_view qualified);
  static Symbol make(std::string_view ns, std::string_view name);

  uint32_t id() const { return id_; }
  const std::string& qual_string() const;  // "aten::add"
  std::string_view ns() const;
  std::string_view name() const;
  bool operator==(const Symbol& o) const { return id_ == o.id_; }
  bool operator!=(const Symbol& o) const { return id_ != o.id_; }
  bool operator<(const Symbol& o) const { return id_ < o.id_; }

  explicit constexpr Symbol(uint32_t id) : id_(id) {}

 private:
  uint32_t id_ = 0;  // 0 is "no symbol"
};

namespace sym {
enum : uint32_t {
  kNone = 0,
#define TL_SYMBOL(ns, name) k_##ns##_##name,
#include "jit/ir/symbols.def"
#undef TL_SYMBOL
  kNumBuiltinSymbols
};
#define TL_SYMBOL(ns, name) inline constexpr Symbol ns##_##name{k_##ns##_##name};
#include "jit/ir/symbols.def"
#undef TL_SYMBOL
}  // namespace sym

}  // namespace torchlet::jit

template <>
struct std::hash<torchlet::jit::Symbol> {
  size_t operator()(torchlet::jit::Symbol s) const noexcept { return s.id(); }
};

// The symbol table: a process-wide intern table, seeded with symbols.def in order so
// the builtin constants' ids hold.
#include "jit/ir/symbol.h"

#include <deque>
#include <mutex>
#include <unordered_map>

#include <torchlet/error.h>

namespace torchlet::jit {

namespace {

class SymbolTable {
 public:
  SymbolTable() {
    names_.emplace_back("");  // id 0: no symbol
#define TL_SYMBOL(ns, name) intern_locked(#ns "::" #name);
#include "jit/ir/symbols.def"
#undef TL_SYMBOL
  }
  uint32_t intern(std::string_view qualified) {
    std::lock_guard<std::mutex> lock(mutex_);
    return intern_locked(qualified);
  }
  const std::string& name(uint32_t id) {
    std::lock_guard<std::mutex> lock(mutex_);
    TL_INTERNAL_ASSERT(id < names_.size(), "symbol id out of range");
    return names_[id];  // deque: references stay valid as the table grows
  }

 private:
  uint32_t intern_locked(std::string_view qualified) {
    auto it = ids_.find(std::string(qualified));
    if (it != ids_.end()) return it->second;
    uint32_t id = static_cast<uint32_t>(names_.size());
    names_.emplace_back(qualified);
    ids_.emplace(names_.back(), id);
    return id;
  }
  std::mutex mutex_;
  std::deque<std::string> names_;
  std::unordered_map<std::string, uint32_t> ids_;
};

SymbolTable& table() {
  static SymbolTable t;
  return t;
}

}  // namespace

Symbol Symbol::from_qual_string(std::string_view q) {
  size_t sep = q.find("::");
  TL_CHECK(sep != std::string_view::npos && sep > 0 && sep + 2 < q.size(), CompileError,
           "'{}' is not a qualified symbol (expected namespace::name)", q);
  return Symbol(table().intern(q));
}

Symbol Symbol::make(std::string_view ns, std::string_view name) {
  return from_qual_string(std::string(ns) + "::" + std::string(name));
}

const std::string& Symbol::qual_string() const { return table().name(id_); }

std::string_view Symbol::ns() const {
  std::string_view q = qual_string();
  return q.substr(0, q.find("::"));
}

std::string_view Symbol::name() const {
  std::string_view q = qual_string();
  size_t sep = q.find("::");
  return sep == std::string_view::npos ? q : q.substr(sep + 2);
}

}  // namespace torchlet::jit

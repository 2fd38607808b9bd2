// The torchlet error hierarchy and the two check macros (STYLE.md #12-#13).
// Every failure a user can cause is a torchlet::Error subclass with an actionable
// message; TL_INTERNAL_ASSERT is only for torchlet's own invariants.
#pragma once

#include <stdexcept>
#include <string>

#include <fmt/format.h>

namespace torchlet {

enum class ErrorKind {
#define TL_ERROR_KIND(cls, printed, why) cls,
#include <torchlet/error.def>
#undef TL_ERROR_KIND
};

// The printed name of a kind ("format error"), for messages and tests.
const char* error_kind_name(ErrorKind kind);

class Error : public std::runtime_error {
 public:
  Error(ErrorKind kind, const std::string& message) : std::runtime_error(message), kind_(kind) {}
  ErrorKind kind() const { return kind_; }

 private:
  ErrorKind kind_;
};

#define TL_ERROR_KIND(cls, printed, why)                                      \
  class cls : public Error {                                                  \
   public:                                                                    \
    explicit cls(const std::string& message) : Error(ErrorKind::cls, message) {} \
  };
#include <torchlet/error.def>
#undef TL_ERROR_KIND

}  // namespace torchlet

// TL_CHECK(cond, Kind, fmt, args...): for conditions bad input can break; always on.
#define TL_CHECK(cond, Kind, ...)                              \
  do {                                                         \
    if (!(cond)) [[unlikely]] {                                \
      throw ::torchlet::Kind(::fmt::format(__VA_ARGS__));      \
    }                                                          \
  } while (0)

// TL_FAIL(Kind, fmt, args...): unconditional TL_CHECK.
#define TL_FAIL(Kind, ...) throw ::torchlet::Kind(::fmt::format(__VA_ARGS__))

// TL_INTERNAL_ASSERT(cond, what): a torchlet bug if it fails; never for file bytes.
#define TL_INTERNAL_ASSERT(cond, what)                                                   \
  do {                                                                                   \
    if (!(cond)) [[unlikely]] {                                                          \
      throw ::torchlet::InternalError(::fmt::format("internal assert failed at {}:{}: {} ({})", \
                                                    __FILE__, __LINE__, #cond, what));   \
    }                                                                                    \
  } while (0)

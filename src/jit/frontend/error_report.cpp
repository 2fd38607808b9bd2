// Formatting of frontend errors (see error_report.h).
#include "jit/frontend/error_report.h"

namespace torchlet::jit {

std::string format_source_error(const SourceRange& range, std::string_view message) {
  std::string out(message);
  if (range.empty()) return out;
  out += ":\n";
  out += range.str();
  return out;
}

void throw_compile_error(const SourceRange& range, std::string_view message) {
  throw CompileError(format_source_error(range, message));
}

void throw_limit_error(const SourceRange& range, std::string_view message) {
  throw LimitError(format_source_error(range, message));
}

}  // namespace torchlet::jit

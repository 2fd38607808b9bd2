// Formatting of frontend errors (see error_report.h).
#include "jit/frontend/error_report.h"

#include <algorithm>

namespace torchlet::jit {

namespace {
// A range spanning more lines than this (an unterminated triple-quoted string, a huge
// expression over the depth limit) is highlighted on its first line only, so a
// message stays a few lines long whatever the input.
constexpr size_t kMaxHighlightLines = 8;
}  // namespace

std::string format_source_error(const SourceRange& range, std::string_view message) {
  std::string out(message);
  if (range.empty()) return out;
  SourceRange shown = range;
  const Source& src = *range.source();
  size_t first = src.line_index(range.start());
  size_t last = src.line_index(range.end() > range.start() ? range.end() - 1 : range.start());
  if (last - first >= kMaxHighlightLines) {
    size_t line_end = range.start() + src.line_text(first).size() - (range.start() - src.line_start(first));
    shown = SourceRange(range.source(), range.start(), std::max(line_end, range.start() + 1));
  }
  out += ":\n";
  out += shown.str();
  return out;
}

void throw_compile_error(const SourceRange& range, std::string_view message) {
  throw CompileError(format_source_error(range, message));
}

void throw_limit_error(const SourceRange& range, std::string_view message) {
  throw LimitError(format_source_error(range, message));
}

}  // namespace torchlet::jit

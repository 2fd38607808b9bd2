// How the frontend reports a rejected source: a torchlet::Error whose message is the
// reason followed by torch's highlight of the offending range (`~~~~ <--- HERE`), as
// torch's ErrorReport prints it. The lexer, parser and (later) compiler all throw
// through these, so every frontend message points at the source.
#pragma once

#include <string>
#include <string_view>

#include <torchlet/error.h>

#include "jit/ir/source_range.h"

namespace torchlet::jit {

// "<message>:\n<highlight>" (just the message when the range has no source).
std::string format_source_error(const SourceRange& range, std::string_view message);

// A CompileError for source the language does not accept.
[[noreturn]] void throw_compile_error(const SourceRange& range, std::string_view message);

// A LimitError for source that exceeds one of the frontend's named safety limits.
[[noreturn]] void throw_limit_error(const SourceRange& range, std::string_view message);

}  // namespace torchlet::jit

// Module::code (declared in the public <torchlet/jit.h>): here, not with the rest of
// Module in the runtime, because a module compiled by torchlet has no code until the
// python printer writes it.
#include <fmt/format.h>
#include <torchlet/error.h>
#include <torchlet/jit.h>

#include "jit/runtime/module.h"
#include "jit/serialization/python_print.h"

namespace torchlet::jit {

std::string Module::code() const {
  const std::string qualname = archive_qualified_name(type_->name());
  const std::string module = qualname.substr(0, qualname.rfind('.'));
  for (const auto& [mod, text] : cu_->sources())
    if (mod == module) return text;
  PythonPrinter printer;
  printer.add_type(type_);
  for (const auto& [mod, text] : printer.files())
    if (mod == module) return text;
  throw ValueError(fmt::format("no code found for {}", qualname));
}

}  // namespace torchlet::jit

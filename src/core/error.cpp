// Names of the error kinds, generated from error.def.
#include <torchlet/error.h>

namespace torchlet {

const char* error_kind_name(ErrorKind kind) {
  switch (kind) {
#define TL_ERROR_KIND(cls, printed, why) \
  case ErrorKind::cls:                   \
    return printed;
#include <torchlet/error.def>
#undef TL_ERROR_KIND
  }
  return "unknown error";
}

}  // namespace torchlet

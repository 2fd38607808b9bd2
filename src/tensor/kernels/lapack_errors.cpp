// LAPACK's and BLAS's illegal-argument handler, replaced (lapack.h's guarded() reads
// what it records). The reference xerbla_ prints and executes Fortran STOP, which ends
// the whole process with status 0 — a crash that even looks like success. Defining the
// symbol here makes the dynamic linker bind every LAPACK/BLAS routine's call to this one
// (an executable's definitions come before a shared library's own); it records the
// routine and argument for the calling thread and returns, and the routine then returns
// with its info set negative, as LAPACK documents.
#include <cstddef>
#include <string>
#include <string_view>

#include <fmt/format.h>

#include <torchlet/error.h>

#include "tensor/kernels/lapack.h"

namespace {

struct Refusal {
  std::string routine;  // empty: none since the last reset
  int argument = 0;
};
thread_local Refusal last_refusal;

}  // namespace

// gfortran passes the length of the CHARACTER*(*) routine name as a trailing size_t.
extern "C" void xerbla_(const char* routine, const int* argument, size_t routine_len) {
  std::string_view name(routine, routine_len);
  while (!name.empty() && name.back() == ' ') name.remove_suffix(1);
  last_refusal.routine = name.empty() ? "?" : std::string(name);
  last_refusal.argument = argument ? *argument : 0;
}

namespace torchlet::kernels::lapack {

void reset_argument_refusal() { last_refusal = Refusal{}; }

void throw_if_argument_refused() {
  if (last_refusal.routine.empty()) return;
  const Refusal r = last_refusal;
  last_refusal = Refusal{};
  throw InternalError(fmt::format("LAPACK routine {} refused its argument {} as illegal (a torchlet bug: please report it "
                                  "with the call that raised this)",
                                  r.routine, r.argument));
}

}  // namespace torchlet::kernels::lapack

#!/usr/bin/env bash
# Checks the AVX2 path of the CPU-dependent kernels on an AVX-512 host
# (docs/cpu-dependent-kernels.md): torch writes the kernel and operator fixtures on an
# emulated AVX2-only CPU (qemu-user, `-cpu EPYC-Rome`: AVX2 and FMA, no AVX-512), and
# torchlet's kernel and operator tests run against them on the same emulated CPU.
#   scripts/cpu_emulation_check.sh BUILD_DIR
# ctest runs it in the Release tree (test portability.avx2_emulated). On a host without
# AVX-512 the native run already is the AVX2 run: it says so and exits 77 (ctest: skipped).
set -euo pipefail
build=$(cd "${1:?usage: cpu_emulation_check.sh BUILD_DIR}" && pwd)
root=$(cd "$(dirname "$0")/.." && pwd)
if ! grep -qw avx512bw /proc/cpuinfo; then
  echo "cpu_emulation_check: this host has no AVX-512; the suite's native run covers the AVX2 path"
  exit 77
fi
command -v qemu-x86_64 >/dev/null || { echo "cpu_emulation_check: qemu-x86_64 missing (scripts/setup.sh --test)" >&2; exit 1; }
emulate=(qemu-x86_64 -cpu EPYC-Rome)
out=$build/fixtures-avx2-emulated
# ctest passes the reference BLAS/LAPACK (tests/CMakeLists.txt); by hand, the same folders.
multiarch=$(gcc -print-multiarch)
export LD_LIBRARY_PATH=${LD_LIBRARY_PATH:-/usr/lib/$multiarch/blas:/usr/lib/$multiarch/lapack}
# The families whose results depend on the CPU, and what the tests below also read:
# every kernel family (found from the generators, so a new one cannot be forgotten, as
# kernels_detection once was), the operators and the IR.
log=$build/fixtures-avx2-emulated.log
families=()
for gen in "$root"/tests/fixtures/gen_kernels*.py; do
  name=$(basename "$gen" .py)
  families+=("${name#gen_}")
done
if ! "${emulate[@]}" /usr/bin/python3 "$root/tests/fixtures/generate.py" "$out" "${families[@]}" ops ir >"$log" 2>&1; then
  tail -20 "$log" >&2
  echo "cpu_emulation_check: generating the fixtures under emulation failed (whole log: $log)" >&2
  exit 1
fi
grep '^fixtures: ' "$log"
grep -qx "onednn_takes_bfloat16 no" "$out/environment.txt" ||
  { echo "cpu_emulation_check: torch still sent bfloat16 to oneDNN under emulation" >&2; exit 1; }
status=0
for t in kernels_tests ops_tests core_tests; do
  echo "cpu_emulation_check: $t on the emulated AVX2 CPU"
  # qemu warns once per CPUID feature it cannot emulate; those lines say nothing here.
  if ! TORCHLET_FIXTURES=$out "${emulate[@]}" "$build/tests/$t" --gtest_brief=1 2> >(grep -v "TCG doesn't support" >&2); then
    status=1
  fi
done
exit $status

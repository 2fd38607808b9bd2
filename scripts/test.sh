#!/usr/bin/env bash
# Set up, build, and run every test. The plain run is what CI runs (.ci/run):
#   1. Release build in build/, ctest (unit + interop);
#   2. the sanitized tree build-sanitize/ (clang, ASan + UBSan; CMakePresets.json):
#      the same ctest again, then every fuzz target for TORCHLET_FUZZ_SECONDS (default
#      20) from that tree;
#   3. the ThreadSanitizer tree build-tsan/: the concurrency tests.
#   scripts/test.sh              all three
#   scripts/test.sh --release    step 1 only (quick local runs)
#   scripts/test.sh --sanitize   step 2's ctest only
#   scripts/test.sh --tsan       step 3 only
# TORCHLET_FUZZ_SECONDS=0 skips the fuzzing. Any failure, sanitizer report or fuzz
# finding fails the script.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/setup.sh" --test
jobs=${TORCHLET_JOBS:-$(nproc)}
# Paths under the checkout hash relative, so a second clone reuses the first one's
# compiled objects (ccache still keys them on every header's content).
export CCACHE_BASEDIR=$root
# Debug builds (sanitized, TSan) would otherwise hash the compile directory into every
# object's key, so a fresh clone recompiled them all (~13 minutes of CI).
export CCACHE_NOHASHDIR=1

# What the results depend on beyond the sources (docs/cpu-dependent-kernels.md): the
# CPU's features and the BLAS/LAPACK the system selected. The tests themselves run on
# the reference BLAS and LAPACK whatever is selected (tests/CMakeLists.txt).
environment() {
  local flags
  flags=$(grep -m1 '^flags' /proc/cpuinfo | tr ' ' '\n' | grep -xE 'avx2|fma|avx512(f|bw|vl|dq|_bf16)' | tr '\n' ' ')
  echo "test.sh: CPU $(grep -m1 '^model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'); features: ${flags:-none}"
  local lib=/usr/lib/$(gcc -print-multiarch 2>/dev/null || echo x86_64-linux-gnu)
  echo "test.sh: system libblas.so.3 -> $(readlink -f "$lib/libblas.so.3" 2>/dev/null || echo none)," \
       "liblapack.so.3 -> $(readlink -f "$lib/liblapack.so.3" 2>/dev/null || echo none)"
}

release() {
  "$root/scripts/build.sh" "$root/build" -DCMAKE_BUILD_TYPE=Release
  (cd "$root/build" && ctest --output-on-failure -j "$(nproc)")
}

sanitized() {
  local build=$root/build-sanitize
  # torch's fixtures are the Release tree's: generated once per machine, not per tree
  # (generate.py does nothing when its inputs and environment are unchanged).
  local fixtures=-DTORCHLET_FIXTURE_DIR=$root/build/fixtures
  # --fresh: a build-sanitize/ left from before the preset (gcc, no fuzz targets) is redone.
  if ! grep -qs "TORCHLET_FUZZ:BOOL=ON" "$build/CMakeCache.txt"; then
    (cd "$root" && cmake --preset sanitize --fresh "$fixtures" >/dev/null)
  elif ! grep -qsx "TORCHLET_FIXTURE_DIR:PATH=$root/build/fixtures" "$build/CMakeCache.txt"; then
    cmake -S "$root" -B "$build" "$fixtures" >/dev/null
  fi
  cmake --build "$build" -j "$jobs"
  # Leaks count; the first report stops the process so ctest sees the failure.
  # interop.test_torchvision_coverage is left to the Release pass: 1.5 minutes of torch
  # scripting around one `torchlet ops` call, which other sanitized tests make too.
  (cd "$build" && ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
     UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
     ctest --output-on-failure -j "$(nproc)" -E '^interop\.test_torchvision_coverage$')
}

fuzz() {
  # Every target for a short fixed budget, seeded from the fixtures the sanitized
  # ctest just wrote. A 30 s per-input timeout: CI machines are shared too, and a hang
  # is still a finding.
  [[ ${TORCHLET_FUZZ_SECONDS:-20} != 0 ]] || return 0
  FUZZ_JOBS=${FUZZ_JOBS:-$jobs} FUZZ_TIMEOUT=${FUZZ_TIMEOUT:-30} \
    "$root/scripts/fuzz.sh" all "${TORCHLET_FUZZ_SECONDS:-20}"
}

tsan() {
  # Only what the concurrency tests need; oneDNN and libgomp are not instrumented, so
  # their own threads are kept to one (races in torchlet's code are what is looked for).
  local build=$root/build-tsan
  grep -qs "TORCHLET_TSAN:BOOL=ON" "$build/CMakeCache.txt" || (cd "$root" && cmake --preset tsan --fresh >/dev/null)
  cmake --build "$build" -j "$jobs" --target concurrency_tests
  TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1" OMP_NUM_THREADS=1 \
    "$build/tests/concurrency_tests"
}

environment
# Before anything builds: an #include that goes up a layer (docs/architecture.md's table),
# and an aten name registered from two files of src/jit/ops (docs/operators.md).
python3 "$root/scripts/check_layering.py" "$root"
python3 "$root/scripts/check_operator_files.py" "$root"
case ${1:-} in
  "") release; sanitized; fuzz; tsan ;;
  --release) release ;;
  --sanitize) sanitized ;;
  --tsan) tsan ;;
  *) echo "usage: scripts/test.sh [--release|--sanitize|--tsan]" >&2; exit 2 ;;
esac

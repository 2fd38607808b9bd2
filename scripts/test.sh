#!/usr/bin/env bash
# Set up, build, and run every test (unit + interop) with ctest, then every fuzz target
# for a short fixed budget.
#   scripts/test.sh              Release build in build/, ctest, then scripts/fuzz.sh all
#                                (TORCHLET_FUZZ_SECONDS per target, default 20; 0 skips)
#   scripts/test.sh --sanitize   ASan + UBSan build in build-sanitize/, ctest only
#   scripts/test.sh --tsan       ThreadSanitizer build in build-tsan/, the concurrency tests only
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/setup.sh" --test

mode=${1:-}
case $mode in
  --sanitize)
    build=$root/build-sanitize
    "$root/scripts/build.sh" "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTORCHLET_SANITIZE=ON
    export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
    export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
    ;;
  --tsan)
    # Only what the concurrency test needs; oneDNN and libgomp are not instrumented, so
    # their own threads are kept to one (races in torchlet's code are what is looked for).
    build=$root/build-tsan
    if [[ ! -f "$build/build.ninja" ]]; then
      cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTORCHLET_TSAN=ON \
        -DTORCHLET_BENCH=OFF >/dev/null
    fi
    cmake --build "$build" -j "${TORCHLET_JOBS:-$(nproc)}" --target concurrency_tests
    export TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1"
    export OMP_NUM_THREADS=1
    exec "$build/tests/concurrency_tests"
    ;;
  "")
    build=$root/build
    "$root/scripts/build.sh" "$build" -DCMAKE_BUILD_TYPE=Release
    ;;
  *)
    echo "usage: scripts/test.sh [--sanitize|--tsan]" >&2
    exit 2
    ;;
esac
cd "$build"
ctest --output-on-failure -j "$(nproc)"

# CI fuzzing (README "Reliability"): every target for a short fixed budget, seeded from
# the fixtures ctest just wrote; a finding makes this script, and so CI, fail.
if [[ -z $mode && ${TORCHLET_FUZZ_SECONDS:-20} != 0 ]]; then
  # A 30 s per-input timeout: CI machines are shared too, and a hang is still a finding.
  FUZZ_JOBS=${FUZZ_JOBS:-$(nproc)} FUZZ_TIMEOUT=${FUZZ_TIMEOUT:-30} \
    "$root/scripts/fuzz.sh" all "${TORCHLET_FUZZ_SECONDS:-20}"
fi

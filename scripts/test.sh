#!/usr/bin/env bash
# Set up, build, and run every test (unit + interop) with ctest.
#   scripts/test.sh              Release build in build/
#   scripts/test.sh --sanitize   ASan + UBSan build in build-sanitize/
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/setup.sh" --test

if [[ "${1:-}" == "--sanitize" ]]; then
  build=$root/build-sanitize
  "$root/scripts/build.sh" "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTORCHLET_SANITIZE=ON
  export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
  export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
else
  build=$root/build
  "$root/scripts/build.sh" "$build" -DCMAKE_BUILD_TYPE=Release
fi
cd "$build"
ctest --output-on-failure -j "$(nproc)"

#!/usr/bin/env bash
# Installs what a benchmark needs, builds it (Release, in build/ or $BUILD_DIR) and runs
# it against torch 1.13 in the same run.
#   scripts/bench.sh ops [ops_bench args...]   every kernel family vs libtorch's ATen (C++)
#   scripts/bench.sh interpreter [args...]      bench/interpreter_bench.py
#   scripts/bench.sh checkpoint [args...]       bench/checkpoint_bench.py
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
what=${1:-}
shift || true
case "$what" in
  ops)
    "$root/scripts/setup.sh" --bench
    cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DTORCHLET_BENCH_LIBTORCH=ON >/dev/null
    cmake --build "$build" --target ops_bench
    exec "$build/bench/ops_bench" "$@"
    ;;
  interpreter | checkpoint)
    "$root/scripts/setup.sh" --test
    "$root/scripts/build.sh" "$build" -DCMAKE_BUILD_TYPE=Release
    exec /usr/bin/python3 "$root/bench/${what}_bench.py" --build "$build" "$@"
    ;;
  *)
    echo "usage: scripts/bench.sh ops|interpreter|checkpoint [args...]" >&2
    exit 2
    ;;
esac

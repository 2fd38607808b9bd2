#!/usr/bin/env bash
# Builds the libFuzzer targets with clang (build-fuzz/) and runs them.
#   scripts/fuzz.sh                  every target, 60 s each
#   scripts/fuzz.sh TARGET [SECONDS] one target (zip_reader_fuzz, unpickler_fuzz, checkpoint_fuzz)
#   FUZZ_MAX_LEN=N caps input size (default 65536)
# Seeds come from the fixtures real PyTorch writes (build/fixtures, made by the test
# suite) plus the committed corpus in fuzz/corpus/<target>; new findings land in
# fuzz/crashes/ and should be committed as regression inputs once fixed.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/setup.sh" --test
build=$root/build-fuzz
if [[ ! -f "$build/build.ninja" ]]; then
  CC=clang CXX=clang++ cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DTORCHLET_FUZZ=ON -DTORCHLET_TESTS=OFF -DTORCHLET_BENCH=OFF
fi
targets=(zip_reader_fuzz unpickler_fuzz checkpoint_fuzz)
seconds=${2:-60}
if [[ $# -ge 1 ]]; then targets=("$1"); fi
cmake --build "$build" -j "$(nproc)" --target "${targets[@]}"

fixtures=$root/build/fixtures
if [[ ! -d "$fixtures" ]]; then
  /usr/bin/python3 "$root/tests/fixtures/generate.py" "$fixtures"
fi
mkdir -p "$root/fuzz/crashes"
for t in "${targets[@]}"; do
  work=$build/corpus/$t
  mkdir -p "$work" "$root/fuzz/corpus/$t"
  case $t in
    zip_reader_fuzz|checkpoint_fuzz)
      find "$fixtures/checkpoint" "$fixtures/archive" -name '*.pt' -size -512k -exec cp {} "$work/" \; ;;
    unpickler_fuzz)
      find "$fixtures/pickle" "$fixtures/checkpoint/bad" -name '*.pkl' -exec cp {} "$work/" \; ;;
  esac
  dict=$root/fuzz/pickle.dict
  [[ $t == zip_reader_fuzz ]] && dict=$root/fuzz/zip.dict
  echo "fuzz: $t for ${seconds}s"
  "$build/fuzz/$t" "$work" "$root/fuzz/corpus/$t" -dict="$dict" -max_total_time="$seconds" \
    -rss_limit_mb=2048 -timeout=10 -max_len="${FUZZ_MAX_LEN:-65536}" -artifact_prefix="$root/fuzz/crashes/$t-" -print_final_stats=1 2>&1 \
    | grep -E "^(#|stat::|INFO: (Running|Loaded)|==|SUMMARY)" | tail -n 12
done

#!/usr/bin/env bash
# Builds the libFuzzer targets in the sanitized tree (build-sanitize/: clang, ASan +
# UBSan, CMakePresets.json "sanitize"; the ASan test suite builds there too) and runs them.
#   scripts/fuzz.sh                        list the targets
#   scripts/fuzz.sh all [SECONDS]          every target, SECONDS each (default 60)
#   scripts/fuzz.sh TARGET [SECONDS]       one target (name with or without _fuzz)
#   FUZZ_JOBS=N      build parallelism (default 1: the machine is shared)
#   FUZZ_MAX_LEN=N   input size cap (default 65536; 4096 for unpickler and 8192 for
#                    ir_parser: at 64 KiB they ran 30 and 219 executions a second, at
#                    those caps 227 and 366; big inputs mostly repeat one construct)
#   FUZZ_CORPUS=DIR  where each target's growing corpus lives (default build-sanitize/corpus)
#   FUZZ_NO_BUILD=1  run the binaries already built (long runs while the tree changes)
#   FUZZ_ENTROPIC=1  libFuzzer's entropic scheduling (off by default: see the run below)
#   FUZZ_TIMEOUT=S   seconds one input may take (default 10; wall clock, so a long run
#                    at nice 19 on a busy machine needs more, and re-checks what it reports)
# Long runs beside builds: `nice` ranks a process only within its scheduler autogroup, and
# each session (setsid, a new terminal) has its own, so a niced fuzzer in another session
# still takes half the CPU. Lower the whole group: echo 19 > /proc/self/autogroup.
# The targets are fuzz/*_fuzz.cpp. Seeds: the committed corpus fuzz/corpus/<target>/,
# past findings fuzz/regressions/<name>-*, and the files real PyTorch writes during the
# test setup (the sanitized tree's TORCHLET_FIXTURE_DIR). Findings land in fuzz/crashes/; once fixed, commit the
# input as fuzz/regressions/<name>-<what>.<ext> (tests/fuzz/ replays it). Prints per
# target the executions, the corpus size and the new findings; exits 1 on any finding.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)

all_targets=()
for src in "$root"/fuzz/*_fuzz.cpp; do all_targets+=("$(basename "$src" .cpp)"); done

if [[ $# -eq 0 ]]; then
  echo "fuzz targets (scripts/fuzz.sh TARGET|all [SECONDS]):"
  printf '  %s\n' "${all_targets[@]}"
  exit 0
fi
if [[ $1 == all ]]; then
  targets=("${all_targets[@]}")
else
  t=${1%_fuzz}_fuzz
  [[ -f $root/fuzz/$t.cpp ]] || { echo "fuzz: no target $1 (have: ${all_targets[*]})" >&2; exit 2; }
  targets=("$t")
fi
seconds=${2:-60}

"$root/scripts/setup.sh" --test
build=$root/build-sanitize
grep -qs "TORCHLET_FUZZ:BOOL=ON" "$build/CMakeCache.txt" || (cd "$root" && cmake --preset sanitize --fresh >/dev/null)
[[ -n ${FUZZ_NO_BUILD:-} ]] || cmake --build "$build" -j "${FUZZ_JOBS:-1}" --target "${targets[@]}"

# The tree's fixture folder (scripts/test.sh points it at the Release tree's).
fixtures=$(sed -n 's/^TORCHLET_FIXTURE_DIR:PATH=//p' "$build/CMakeCache.txt")
fixtures=${fixtures:-$build/fixtures}
if [[ ! -d "$fixtures/script" ]]; then
  /usr/bin/python3 "$root/tests/fixtures/generate.py" "$fixtures" >/dev/null
fi

# Seeds from the fixtures, per target (small files only: each seed runs once per start).
seed() {  # seed DEST DIR NAME-PATTERN...
  local dest=$1 dir=$2; shift 2
  [[ -d $dir ]] || return 0
  local args=()
  for p in "$@"; do args+=(-o -name "$p"); done
  find "$dir" -type f -size -256k \( "${args[@]:1}" \) -exec cp {} "$dest/" \;
}

corpus_root=${FUZZ_CORPUS:-$build/corpus}
crashes=$root/fuzz/crashes
mkdir -p "$crashes" "$build/dicts"
summary=()
failed=0
for t in "${targets[@]}"; do
  name=${t%_fuzz}
  work=$corpus_root/$t
  mkdir -p "$work"
  dicts=()
  max_len=65536
  case $name in
    zip_reader)
      seed "$work" "$fixtures/archive" '*.pt' '*.zip'; seed "$work" "$fixtures/checkpoint" '*.pt'
      dicts=(zip) ;;
    checkpoint)
      seed "$work" "$fixtures/archive" '*.pt'; seed "$work" "$fixtures/checkpoint" '*.pt'
      dicts=(pickle zip) ;;
    unpickler)
      seed "$work" "$fixtures/pickle" '*.pkl'; seed "$work" "$fixtures/checkpoint/bad" '*.pkl'
      dicts=(pickle); max_len=4096 ;;
    ir_parser)
      seed "$work" "$fixtures/ir" '*.txt'; seed "$work" "$fixtures/runtime" '*.txt'
      dicts=(ir); max_len=8192 ;;
    script_parser)
      seed "$work" "$fixtures/frontend" '*.py'; seed "$work" "$fixtures/compiler" '*.py'
      dicts=(torchscript) ;;
    compiler)
      seed "$work" "$fixtures/compiler" '*.py'; seed "$work" "$fixtures/frontend" '*.py'
      dicts=(torchscript compiler) ;;
    script_archive)
      seed "$work" "$fixtures/script" '*.pt'; seed "$work" "$root/examples" '*_scripted.pt'
      dicts=(zip pickle torchscript compiler) ;;
    safetensors)
      dicts=(safetensors) ;;
    exported_program)
      seed "$work" "$fixtures/pt2" '*.pt2'
      dicts=(zip export) ;;
    graph_passes)
      seed "$work" "$fixtures/ir/graphs" '*.txt'
      dicts=(ir); max_len=8192 ;;
  esac
  dict=$build/dicts/$name.dict
  : >"$dict"
  for d in "${dicts[@]}"; do cat "$root/fuzz/dicts/$d.dict" >>"$dict"; done
  seeds=("$work")
  [[ -d $root/fuzz/corpus/$t ]] && seeds+=("$root/fuzz/corpus/$t")
  regress=$build/regressions/$t
  rm -rf "$regress"; mkdir -p "$regress"
  find "$root/fuzz/regressions" -name "$name-*" -exec cp {} "$regress/" \;
  seeds+=("$regress")

  # libFuzzer's slow-unit-* files are notes, not findings.
  findings() { ls "$crashes" | grep -cE "^$t-(crash|leak|timeout|oom)-" || true; }
  before=$(findings)
  # Beside the corpus, so runs on different corpora (a CI-like run from the seeds beside a
  # long one) never write one log: they did, and the long run's count was read from the
  # short one's. Named by this shell's pid too, so two runs sharing one corpus (a run per
  # core) don't either; kept only when the run fails.
  log=$corpus_root/$t.$$.log
  echo "fuzz: $t for ${seconds}s"
  status=0
  # -entropic=0: libFuzzer's entropic scheduler spent 52% of script_archive's time (19% of
  # unpickler's) updating feature frequencies; without it script_archive ran 215 inputs a
  # second instead of 161 and reached as many features in the same 120 s.
  "$build/fuzz/$t" "${seeds[@]}" -dict="$dict" -max_total_time="$seconds" -rss_limit_mb=2048 -timeout="${FUZZ_TIMEOUT:-10}" \
    -entropic="${FUZZ_ENTROPIC:-0}" \
    -max_len="${FUZZ_MAX_LEN:-$max_len}" -artifact_prefix="$crashes/$t-" -print_final_stats=1 \
    >"$log" 2>&1 || status=$?
  execs=$(grep -o 'stat::number_of_executed_units: [0-9]*' "$log" | awk '{print $2}' | tail -n 1)
  found=$(( $(findings) - before ))
  line="$t: ${execs:-?} executions, corpus $(ls "$work" | wc -l) files, $found new findings"
  if [[ $status -ne 0 || $found -gt 0 ]]; then
    failed=1
    line+=" (exit $status; log $log)"
    # The whole sanitizer report (a leak's allocation stacks included) and the input
    # itself: a CI machine's crashes/ folder is gone once the run ends, and a finding
    # that cannot be replayed cannot be fixed.
    sed -n '/^==[0-9]*==ERROR/,/^SUMMARY/p' "$log" | head -n 150 || true
    grep -E "Test unit written" "$log" | head -n 5 || true
    for unit in $(grep -oE "Test unit written to [^ ]+" "$log" | awk '{print $5}'); do
      if [[ -f $unit && $(stat -c %s "$unit") -le 16384 ]]; then
        echo "base64 of $(basename "$unit") (replay: base64 -d > FILE; build-sanitize/fuzz/$t FILE):"
        base64 -w 100 "$unit"
      fi
    done
  fi
  [[ $status -ne 0 || $found -gt 0 ]] || rm -f "$log"
  echo "$line"
  summary+=("$line")
done
echo "fuzz summary:"
printf '  %s\n' "${summary[@]}"
exit $failed

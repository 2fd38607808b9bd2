#!/usr/bin/env bash
# Checks that single source files compile, with the flags the build gives them
# (build/compile_commands.json), without building: a quick check while editing.
#   scripts/syntax_check.sh FILE.cpp...
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
db=${TORCHLET_COMPILE_COMMANDS:-$root/build/compile_commands.json}
status=0
for f in "$@"; do
  path=$(realpath "$f")
  cmd=$(python3 - "$db" "$path" <<'PY'
import json, shlex, sys
entries = json.load(open(sys.argv[1]))
want = sys.argv[2]
for e in entries:
    if e["file"] == want:
        args = shlex.split(e["command"])
        break
else:
    # A new file: the flags of any other file in its folder, else (a new folder) of a
    # file under the same parent, e.g. tests/ for tests/export/.
    folder = want.rsplit("/", 1)[0]
    like = [e for e in entries if e["file"].startswith(folder + "/")]
    while not like and "/" in folder:
        folder = folder.rsplit("/", 1)[0]
        like = [e for e in entries if e["file"].startswith(folder + "/")]
    args = shlex.split(like[0]["command"])
out = []
skip = False
for a in args:
    if skip:
        skip = False
        continue
    if a in ("-o", "-c"):
        skip = True
        continue
    out.append(a)
print(shlex.join(out + ["-fsyntax-only", want]))
PY
)
  if ! (cd "$root/build" && nice -n 19 bash -c "$cmd"); then status=1; fi
done
exit $status

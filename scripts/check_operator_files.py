#!/usr/bin/env python3
"""Fails when an aten:: operator name is registered from more than one file.

Each aten name lives in one file of src/jit/ops with all its overloads, its number, str
and list ones included (docs/operators.md, "Files and counts"): the family file of its
tensor overloads, or a builtins_*.cpp file when it has no tensor form. A registration
row is a schema string opening a `{"aten::name...` entry. Run from anywhere:
scripts/check_operator_files.py [ROOT]."""
import collections
import pathlib
import re
import sys

root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else pathlib.Path(__file__).resolve().parent.parent)
ops = root / "src/jit/ops"
row = re.compile(r'\{"aten::([A-Za-z0-9_]+)[.(]')

files = collections.defaultdict(set)
for f in sorted(ops.glob("*.cpp")):
    for name in row.findall(f.read_text(errors="replace")):
        files[name].add(f.name)
if len(files) < 100:
    sys.exit(f"check_operator_files: found only {len(files)} aten names in {ops}")
split = {name: sorted(where) for name, where in files.items() if len(where) > 1}
for name, where in sorted(split.items()):
    print(f"src/jit/ops: aten::{name} is registered from {', '.join(where)}", file=sys.stderr)
if split:
    sys.exit(f"check_operator_files: {len(split)} aten name(s) registered from more than one file; "
             "each belongs in one file with all its overloads (docs/operators.md)")
print(f"check_operator_files: {len(files)} aten names, each registered from one file")

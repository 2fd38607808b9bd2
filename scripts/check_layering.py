#!/usr/bin/env python3
"""Fails on an #include that goes up a layer.

The layers and what each may use are the table in docs/architecture.md (its `links`
column); a folder may include its own headers, the public include/torchlet/ headers, and
the headers of the layers it links, directly or through them. Public headers may include
only public headers. Run from anywhere: scripts/check_layering.py [ROOT]."""
import pathlib
import re
import sys

root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else pathlib.Path(__file__).resolve().parent.parent)
table = (root / "docs/architecture.md").read_text()

# The table's short names for layers (as its `links` column spells them) -> folder under src/.
folders = {}
links = {}
for line in table.splitlines():
    m = re.match(r"^\| `src/([^`]+)/` \| .* \| ([^|]*) \|$", line)
    if not m:
        continue
    folder = m.group(1)
    name = "kernels" if folder == "tensor/kernels" else folder.split("/")[-1]
    folders[name] = folder
    links[name] = [x.strip().split(" ")[0] for x in m.group(2).split(",") if x.strip()]
if len(folders) < 10:
    sys.exit(f"check_layering: found only {len(folders)} layers in docs/architecture.md's table")

def closure(name, seen=None):
    seen = set() if seen is None else seen
    for dep in links[name]:
        if dep in folders and dep not in seen:
            seen.add(dep)
            closure(dep, seen)
    return seen

def layer_of(path):
    """The layer whose folder holds `path` (relative to src/), the deepest folder first."""
    best = None
    for name, folder in folders.items():
        if path.startswith(folder + "/") and (best is None or len(folder) > len(folders[best])):
            best = name
    return best

include = re.compile(r'^\s*#\s*include\s+"([^"]+)"')
errors = []
for name, folder in folders.items():
    allowed = closure(name) | {name}
    for f in sorted((root / "src" / folder).glob("*")):
        if f.suffix not in (".h", ".cpp", ".def"):
            continue
        for no, text in enumerate(f.read_text(errors="replace").splitlines(), 1):
            m = include.match(text)
            if not m:
                continue
            target = layer_of(m.group(1))
            if target is not None and target not in allowed:
                errors.append(f"src/{folder}/{f.name}:{no}: includes {m.group(1)} (layer {target}); "
                              f"{name} may include only {', '.join(sorted(allowed))}")
for f in sorted((root / "include/torchlet").rglob("*")):
    if f.is_file():
        for no, text in enumerate(f.read_text(errors="replace").splitlines(), 1):
            m = include.match(text)
            if m and not m.group(1).startswith("torchlet/") and not (f.parent / m.group(1)).exists():
                errors.append(f"{f.relative_to(root)}:{no}: a public header includes {m.group(1)}, not a public header")
for e in errors:
    print(e, file=sys.stderr)
if errors:
    sys.exit(f"check_layering: {len(errors)} include(s) go up a layer (docs/architecture.md's table)")
print(f"check_layering: {len(folders)} layers, no include goes up a layer")
